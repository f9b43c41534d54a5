//! Issue 9, crash safety: a `cowriting` process that dies in the middle of a
//! decision (accept, accept --with, reject) or a proposal leaves the workspace in
//! one of two states — before or after — never in between, and the next process
//! finishes or rolls back a half-done transaction.
//!
//! Two ways to die:
//!
//! * fault injection: `COWRITING_FAULT_AT=N` makes the binary abort (no cleanup,
//!   like kill -9) immediately before its Nth durable step (a rename, a removal,
//!   a log append, a lock-file or intent-record write…); each N = 1, 2, 3, … on a
//!   fresh copy of the workspace until the command completes;
//! * SIGKILL after a random delay (seeded xorshift), many rounds.
//!
//! After each death: a second process reads the document (`proposals`, which
//! recovers), the invariants are checked, the same decision is tried again (it
//! must never apply twice), and no temp file is left after that next write.
//! Figures are printed with `eprintln!` (`cargo test --test crash -- --nocapture`).

mod reliability;

use reliability::{count, proposal_ids, thread_ids, Out, Wsp};
use serde_json::Value;
use std::time::{Duration, Instant};

const DOC: &str = "d.md";
const TEXT: &str = "# Crash\n\nFirst sentence stays. Sentence A here. Last sentence stays.\n";
/// The target of the proposal every round decides on.
const TARGET: &str = "Sentence A here.";
/// An insertion-style replacement that keeps its target text: applied twice it
/// would read "Sentence A here. Really. Really." (the case that used to double).
const INSERTED: &str = "Sentence A here. Really.";
const CHANGED: &str = "Sentence A changed.";
/// The human's own version for `accept --with`.
const WITH: &str = "Sentence A, rewritten by hand.";
/// Another proposal and a thread that must survive every round untouched.
const OTHER_TARGET: &str = "Last sentence stays.";
/// Where a `propose` round proposes.
const PROPOSE_TARGET: &str = "First sentence stays.";
/// Fault points tried at most per kind.
const MAX_FAULT_AT: usize = 40;
/// Random SIGKILL rounds.
const KILL_ROUNDS: usize = 120;
/// The random delay before SIGKILL is in 0..=D ms, D = one and a half times a
/// measured accept's duration (so most kills land while the process runs),
/// between 5 ms and this.
const KILL_DELAY_MS: u64 = 30;
const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// accept of "Sentence A here." → "Sentence A here. Really."
    AcceptInsertion,
    /// accept --with of "Sentence A here." → "Sentence A changed."
    AcceptWith,
    /// reject of "Sentence A here." → "Sentence A changed."
    Reject,
    /// a new proposal on "First sentence stays."
    Propose,
}

impl Kind {
    fn replacement(self) -> &'static str {
        match self {
            Kind::AcceptInsertion => INSERTED,
            _ => CHANGED,
        }
    }

    /// The text that replaces TARGET when the decision is made (None: none does).
    fn final_text(self) -> Option<&'static str> {
        match self {
            Kind::AcceptInsertion => Some(INSERTED),
            Kind::AcceptWith => Some(WITH),
            Kind::Reject | Kind::Propose => None,
        }
    }

    fn outcome(self) -> &'static str {
        match self {
            Kind::AcceptInsertion => "accepted",
            Kind::AcceptWith => "changed",
            Kind::Reject => "rejected",
            Kind::Propose => "",
        }
    }

    fn args(self, id: &str) -> Vec<String> {
        let v: Vec<&str> = match self {
            Kind::AcceptInsertion => vec!["accept", DOC, id],
            Kind::AcceptWith => vec!["accept", DOC, id, "--with", WITH],
            Kind::Reject => vec!["reject", DOC, id],
            Kind::Propose => vec![
                "propose",
                DOC,
                "--find",
                PROPOSE_TARGET,
                "--replace",
                "First sentence, proposed.",
            ],
        };
        v.into_iter().map(str::to_owned).collect()
    }
}

/// The prepared workspace: the document, a thread, the proposal decided on, and
/// another proposal.
struct Template {
    ws: Wsp,
    id: String,
    other: String,
    thread: String,
}

fn template(kind: Kind) -> Template {
    let ws = Wsp::new();
    ws.write(DOC, TEXT);
    // What `propose` or `thread new` made.
    let id = |v: Value| {
        let made = v.pointer("/proposal/id").or(v.pointer("/thread/id"));
        made.and_then(Value::as_str).unwrap().to_owned()
    };
    let thread = id(ws.json(&[
        "thread",
        "new",
        DOC,
        "--find",
        PROPOSE_TARGET,
        "--body",
        "Keep this thread.",
    ]));
    let main = id(ws.json(&[
        "propose",
        DOC,
        "--find",
        TARGET,
        "--replace",
        kind.replacement(),
        "--turn",
        "turn-1",
    ]));
    let other = id(ws.json(&[
        "propose",
        DOC,
        "--find",
        OTHER_TARGET,
        "--replace",
        "Last sentence goes.",
    ]));
    Template {
        ws,
        id: main,
        other,
        thread,
    }
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Which of the two allowed states the workspace is in after a death.
#[derive(Clone, Copy, Debug, PartialEq)]
enum State {
    Before,
    After,
}

/// A death's aftermath: recover with a second process, then check the invariants.
fn examine(t: &Template, ws: &Wsp, kind: Kind) -> Result<State, String> {
    let rec = ws.run(&["proposals", DOC]);
    if !rec.ok() {
        return Err(format!("the recovering `proposals` failed: {}", rec.describe()));
    }
    let listed: Vec<Value> = rec.json()["proposals"].as_array().cloned().unwrap_or_default();
    let state_of = |id: &str| {
        listed
            .iter()
            .find(|p| p["id"] == id)
            .map(|p| p["state"].as_str().unwrap_or("").to_owned())
    };
    let doc = String::from_utf8_lossy(&ws.read_bytes(DOC)).into_owned();
    let sc = ws.sidecar(DOC);
    let mut problems = Vec::new();
    // Torn or duplicated decision lines.
    let log = std::fs::read_to_string(ws.file(".cowriting/decisions.jsonl")).unwrap_or_default();
    let mut lines = Vec::new();
    for l in log.lines().filter(|l| !l.trim().is_empty()) {
        match serde_json::from_str::<Value>(l) {
            Ok(v) => lines.push(v),
            Err(e) => problems.push(format!("torn decision line ({e}): {l:?}")),
        }
    }
    let decided = |id: &str| {
        lines
            .iter()
            .filter(|d| d["sidecarProposalId"] == id && d.get("outcome").is_some())
            .collect::<Vec<_>>()
    };
    // What must survive every round.
    if state_of(&t.other).as_deref() != Some("pending") || !ws.pending_has(DOC, &t.other) {
        problems.push(format!(
            "the other proposal is no longer pending: {:?}",
            state_of(&t.other)
        ));
    }
    if !thread_ids(&sc).contains(&t.thread) {
        problems.push("the thread is gone".into());
    }
    let state = if kind == Kind::Propose {
        let before: Vec<&str> = vec![&t.id, &t.other];
        let new: Vec<String> = proposal_ids(&sc)
            .into_iter()
            .filter(|p| !before.contains(&p.as_str()))
            .collect();
        if doc != TEXT {
            problems.push("a propose changed the document".into());
        }
        match new.as_slice() {
            [] => Some(State::Before),
            [p] if ws.pending_has(DOC, p) && state_of(p).as_deref() == Some("pending") => Some(State::After),
            [p] => {
                problems.push(format!(
                    "proposal {p} is in the sidecar without its ledger record (or not pending: {:?})",
                    state_of(p)
                ));
                None
            }
            many => {
                problems.push(format!("{} new proposals from one propose", many.len()));
                None
            }
        }
    } else {
        let id = t.id.as_str();
        let lines = decided(id);
        let after_text = match kind.final_text() {
            Some(f) => TEXT.replacen(TARGET, f, 1),
            None => TEXT.to_owned(),
        };
        let pending = state_of(id);
        if pending.as_deref() == Some("pending") && doc == TEXT && lines.is_empty() && ws.pending_has(DOC, id)
        {
            Some(State::Before)
        } else if pending.is_none()
            && !ws.pending_has(DOC, id)
            && lines.len() == 1
            && lines[0]["outcome"] == kind.outcome()
            && doc == after_text
        {
            let attributed = sc["attributions"].as_array().is_some_and(|a| !a.is_empty());
            if kind.final_text().is_some() && !attributed {
                problems.push("accepted, but no attribution record for the accepted words".into());
            }
            Some(State::After)
        } else {
            problems.push(format!(
                "between states: proposal {:?}, in ledger {}, {} decision line(s), document {:?}",
                pending,
                ws.pending_has(DOC, id),
                lines.len(),
                doc
            ));
            None
        }
    };
    match (state, problems.is_empty()) {
        (Some(s), true) => Ok(s),
        _ => Err(problems.join("; ")),
    }
}

/// Do the same again on the examined workspace (no fault): a decision must never
/// apply twice; then no temp file may be left.
fn again(t: &Template, ws: &Wsp, kind: Kind, state: Option<State>) -> Vec<String> {
    let mut problems = Vec::new();
    let (args, expect_ok) = if kind == Kind::Propose {
        // The next write: a thread on the other sentence.
        let a: Vec<String> = ["thread", "new", DOC, "--find", OTHER_TARGET, "--body", "next"]
            .map(str::to_owned)
            .to_vec();
        (a, Some(true))
    } else {
        (kind.args(&t.id), state.map(|s| s == State::Before))
    };
    let out = ws.run(&strs(&args));
    match expect_ok {
        Some(true) if !out.ok() => problems.push(format!("doing it again failed: {}", out.describe())),
        Some(false) if out.ok() => problems.push(format!(
            "deciding a decided proposal again succeeded: {}",
            out.describe()
        )),
        _ => {}
    }
    if out.signal.is_some() {
        problems.push(format!("doing it again crashed: {}", out.describe()));
    }
    let doc = String::from_utf8_lossy(&ws.read_bytes(DOC)).into_owned();
    if let Some(f) = kind.final_text() {
        // "Really." counts the insertion (its replacement contains its own target).
        let n = count(&doc, f).max(count(&doc, "Really."));
        if n > 1 {
            problems.push(format!("DOUBLED: the replacement is applied {n} times: {doc:?}"));
        } else if out.ok() && doc != TEXT.replacen(TARGET, f, 1) {
            problems.push(format!("after accepting again the document is {doc:?}"));
        }
    }
    let n = ws.decisions_for(&t.id).len();
    if kind != Kind::Propose && out.ok() && n != 1 {
        problems.push(format!("{n} decision lines for {}", t.id));
    }
    let left = ws.leftovers();
    if !left.is_empty() {
        problems.push(format!("temp files left after the next write: {left:?}"));
    }
    problems
}

/// Run `kind` with COWRITING_FAULT_AT = 1, 2, … until it completes.
fn fault_loop(kind: Kind) {
    let t = template(kind);
    let mut log = Vec::new();
    let mut violations = Vec::new();
    let mut completed_at = None;
    for n in 1..=MAX_FAULT_AT {
        let ws = t.ws.copy();
        let out = ws
            .spawn(&strs(&kind.args(&t.id)), &[("COWRITING_FAULT_AT", n.to_string())])
            .wait();
        if out.ok() {
            if n == 1 {
                panic!(
                    "fault injection hook not present: {kind:?} completed although COWRITING_FAULT_AT=1 was set ({})",
                    out.describe()
                );
            }
            completed_at = Some(n);
            log.push(format!("N={n}: completed"));
            // The completed run is the "after" state; doing it again must not double it.
            let s = examine(&t, &ws, kind);
            let p = again(&t, &ws, kind, s.as_ref().ok().copied());
            if s.is_err() || !p.is_empty() {
                violations.push(format!("N={n} (completed): {:?} {p:?}", s.err()));
            }
            break;
        }
        let aborted = out.signal.is_some() || matches!(out.code, Some(134) | Some(137));
        if !aborted {
            violations.push(format!(
                "N={n}: neither completed nor aborted: {}",
                out.describe()
            ));
            log.push(format!("N={n}: error exit {:?}", out.code));
            continue;
        }
        let s = examine(&t, &ws, kind);
        let p = again(&t, &ws, kind, s.as_ref().ok().copied());
        log.push(format!(
            "N={n}: aborted → {} ; again: {}",
            match &s {
                Ok(st) => format!("{st:?}"),
                Err(e) => format!("VIOLATION {e}"),
            },
            if p.is_empty() {
                "ok".to_owned()
            } else {
                p.join("; ")
            }
        ));
        if let Err(e) = s {
            violations.push(format!("N={n}: {e}"));
        }
        violations.extend(p.into_iter().map(|x| format!("N={n} again: {x}")));
    }
    eprintln!(
        "[crash] fault loop {kind:?}: N tried={} completed at N={completed_at:?} violations={}",
        log.len(),
        violations.len()
    );
    for l in &log {
        eprintln!("    {l}");
    }
    assert!(
        completed_at.is_some(),
        "{kind:?} still aborted at COWRITING_FAULT_AT={MAX_FAULT_AT}"
    );
    assert!(violations.is_empty(), "{kind:?}: {violations:#?}");
}

/// The control: an untouched copy is *before*; a completed run is *after*, and
/// doing it again is refused without harm. It passes on any code that is right
/// when nothing dies, so a failure below is the crash, not the checks.
#[test]
fn control_untouched_is_before_and_completed_is_after() {
    for kind in [
        Kind::AcceptInsertion,
        Kind::AcceptWith,
        Kind::Reject,
        Kind::Propose,
    ] {
        let t = template(kind);
        let ws = t.ws.copy();
        assert_eq!(examine(&t, &ws, kind), Ok(State::Before), "{kind:?} untouched");
        let out = ws.run(&strs(&kind.args(&t.id)));
        assert!(out.ok(), "{}", out.describe());
        let s = examine(&t, &ws, kind);
        assert_eq!(s, Ok(State::After), "{kind:?} completed");
        assert_eq!(
            again(&t, &ws, kind, Some(State::After)),
            Vec::<String>::new(),
            "{kind:?} again"
        );
    }
}

#[test]
fn accept_of_an_insertion_dies_at_every_step_and_is_never_applied_twice() {
    fault_loop(Kind::AcceptInsertion);
}

#[test]
fn accept_with_changes_dies_at_every_step_and_ends_before_or_after() {
    fault_loop(Kind::AcceptWith);
}

#[test]
fn reject_dies_at_every_step_and_is_logged_once() {
    fault_loop(Kind::Reject);
}

/// xorshift64*: a seeded, dependency-free RNG.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

#[test]
fn random_sigkill_never_leaves_a_half_done_decision() {
    let kinds = [
        Kind::AcceptInsertion,
        Kind::AcceptWith,
        Kind::Reject,
        Kind::Propose,
    ];
    let templates: Vec<Template> = kinds.iter().map(|k| template(*k)).collect();
    // The delay range covers a whole accept on this machine.
    let mut took = Vec::new();
    for _ in 0..3 {
        let ws = templates[0].ws.copy();
        let start = Instant::now();
        let out = ws.run(&strs(&Kind::AcceptInsertion.args(&templates[0].id)));
        assert!(out.ok(), "{}", out.describe());
        took.push(start.elapsed().as_millis() as u64);
    }
    took.sort();
    let range = (took[1] * 3 / 2).clamp(5, KILL_DELAY_MS);
    let mut rng = Rng(SEED);
    let (mut finished, mut killed, mut before, mut after, mut leftovers_at_death) = (0, 0, 0, 0, 0);
    let mut violations = Vec::new();
    let mut bad_rounds = 0;
    for round in 0..KILL_ROUNDS {
        let seen = violations.len();
        let k = rng.below(kinds.len() as u64) as usize;
        let (kind, t) = (kinds[k], &templates[k]);
        let delay = rng.below(range + 1);
        let ws = t.ws.copy();
        let mut child = ws.spawn(&strs(&kind.args(&t.id)), &[]);
        std::thread::sleep(Duration::from_millis(delay));
        let was_running = !child.exited();
        if was_running {
            child.kill();
        }
        let out: Out = child.wait();
        if was_running && out.signal.is_some() {
            killed += 1;
        } else {
            finished += 1;
            if !out.ok() {
                violations.push(format!(
                    "round {round} {kind:?}: finished with an error: {}",
                    out.describe()
                ));
            }
        }
        if !ws.leftovers().is_empty() {
            leftovers_at_death += 1;
        }
        let s = examine(t, &ws, kind);
        match &s {
            Ok(State::Before) => before += 1,
            Ok(State::After) => after += 1,
            Err(e) => violations.push(format!("round {round} {kind:?} killed after {delay} ms: {e}")),
        }
        let p = again(t, &ws, kind, s.as_ref().ok().copied());
        violations.extend(
            p.into_iter()
                .map(|x| format!("round {round} {kind:?} killed after {delay} ms, again: {x}")),
        );
        if violations.len() > seen {
            bad_rounds += 1;
        }
    }
    let of = |what: &str| violations.iter().filter(|v| v.contains(what)).count();
    eprintln!(
        "[crash] random SIGKILL violations by kind: half-done (between states)={} doubled={} temp files left after the next write={} proposal without its ledger record={}",
        of("between states"),
        of("DOUBLED"),
        of("temp files left"),
        of("without its ledger record")
    );
    eprintln!(
        "[crash] random SIGKILL: rounds={KILL_ROUNDS} delay 0..={range} ms (an accept took {took:?} ms) seed={SEED:#x}: \
         finished before the kill={finished} killed={killed} → before={before} after={after} \
         (rounds with a temp file right after the death={leftovers_at_death}) rounds with a violation={bad_rounds} violations={}",
        violations.len()
    );
    for v in &violations {
        eprintln!("    {v}");
    }
    assert!(
        violations.is_empty(),
        "{} violations in {KILL_ROUNDS} rounds (see above)",
        violations.len()
    );
}
