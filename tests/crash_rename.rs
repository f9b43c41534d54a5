//! A rename or move (`cowriting rename`) that dies: at every durable step
//! (`COWRITING_FAULT_AT=N`, the process aborts like kill -9 just before its Nth
//! rename, removal, append or record write) and by SIGKILL at random moments.
//!
//! After each death the next process of ours that touches either name (here a
//! `proposals` on the old or the new name, by turns) finishes the rename or
//! takes it back; the writer then renames again if the document is still under
//! its old name. The invariants: the document and every record of its review
//! data (the thread, the pending proposal and its ledger entry) are under the
//! new name and nowhere else; no review data is left under the old name; the
//! rename is never refused for data a dead rename left; the decision made
//! before the rename is the document's under its new name, and the log records
//! the rename once; no intent record or temp file is left; the pending proposal
//! is still decidable.
//!
//! And a rename beside live writers: other `cowriting` processes adding
//! comments lose nothing, two renames at once leave one winner, and the
//! non-locking JavaScript writer (`tests/fixtures/vscode_writer.mjs`) loses
//! none of its records.

mod reliability;

use reliability::{comment_ids, proposal_ids, thread_ids, Wsp};
use serde_json::Value;
use std::time::Duration;

const FROM: &str = "d.md";
/// Into a new folder: the folder is made as part of the rename.
const TO: &str = "moved/e.md";
const TEXT: &str = "# Rename\n\nFirst sentence stays. Sentence A here. Last sentence stays.\n";
const ACCEPTED: &str = "# Rename\n\nFirst sentence stays. Sentence A, accepted. Last sentence stays.\n";
const MAX_FAULT_AT: usize = 40;
const KILL_ROUNDS: usize = 80;
const SEED: u64 = 0x2545_f491_4f6c_dd1d;

/// A document with a thread, a decided proposal (in the log under the old
/// name) and a pending one (in the sidecar and the ledger).
struct Template {
    ws: Wsp,
    thread: String,
    pending: String,
}

fn template() -> Template {
    let ws = Wsp::new();
    ws.write(FROM, TEXT);
    let made = |v: Value| {
        v.pointer("/proposal/id")
            .or(v.pointer("/thread/id"))
            .and_then(Value::as_str)
            .unwrap()
            .to_owned()
    };
    let thread = made(ws.json(&[
        "thread",
        "new",
        FROM,
        "--find",
        "First sentence",
        "--body",
        "Keep me.",
    ]));
    let decided = made(ws.json(&[
        "propose",
        FROM,
        "--find",
        "Sentence A here.",
        "--replace",
        "Sentence A, accepted.",
    ]));
    let pending = made(ws.json(&[
        "propose",
        FROM,
        "--find",
        "Last sentence stays.",
        "--replace",
        "Last sentence goes.",
    ]));
    ws.json(&["accept", FROM, &decided]);
    assert_eq!(ws.read(FROM), ACCEPTED);
    assert!(
        ws.pending_has(FROM, &pending),
        "the template has a ledger entry to move"
    );
    Template { ws, thread, pending }
}

fn exists(ws: &Wsp, rel: &str) -> bool {
    std::fs::symlink_metadata(ws.file(rel)).is_ok()
}

/// What breaks an invariant after the rename was finished (by the dead
/// process, by recovery, or by the writer's second try).
fn problems(t: &Template, ws: &Wsp) -> Vec<String> {
    let mut p = Vec::new();
    if exists(ws, FROM) {
        p.push(format!("{FROM} is still there"));
    }
    match std::fs::read_to_string(ws.file(TO)) {
        Ok(text) if text == ACCEPTED => {}
        Ok(text) => p.push(format!("{TO} holds {text:?}")),
        Err(e) => p.push(format!("{TO}: {e}")),
    }
    for rel in [
        format!(".threads/{FROM}.json"),
        format!(".cowriting/suggestions/{FROM}.json"),
    ] {
        if exists(ws, &rel) {
            p.push(format!("review data left under the old name: {rel}"));
        }
    }
    let sidecar = ws.sidecar(TO);
    if sidecar["docPath"] != TO {
        p.push(format!("the sidecar's docPath is {}", sidecar["docPath"]));
    }
    if thread_ids(&sidecar) != [t.thread.clone()] {
        p.push(format!("threads {:?}, want [{}]", thread_ids(&sidecar), t.thread));
    }
    if proposal_ids(&sidecar) != [t.pending.clone()] {
        p.push(format!(
            "proposals {:?}, want [{}]",
            proposal_ids(&sidecar),
            t.pending
        ));
    }
    if !ws.pending_has(TO, &t.pending) {
        p.push("the pending proposal's ledger entry is not under the new name".into());
    }
    let renames: Vec<Value> = ws
        .decision_lines()
        .into_iter()
        .filter(|l| l.get("renamed").is_some())
        .collect();
    if renames.len() != 1 || renames[0]["from"] != FROM || renames[0]["to"] != TO {
        p.push(format!("the log's rename lines: {renames:?}"));
    }
    let decisions = ws.json(&["decisions", TO]);
    let n = decisions["decisions"].as_array().map_or(0, Vec::len);
    if n != 1 {
        p.push(format!(
            "{n} decisions for {TO}, want the 1 made under {FROM}: {decisions}"
        ));
    }
    p
}

/// What is left that should not be: intent records and temp files.
fn left_over(ws: &Wsp) -> Vec<String> {
    let mut p = Vec::new();
    let records = files_under(&ws.file(".cowriting/txn"));
    if !records.is_empty() {
        p.push(format!("intent records left: {records:?}"));
    }
    let left = ws.leftovers();
    if !left.is_empty() {
        p.push(format!("temp files left: {left:?}"));
    }
    p
}

/// The files under `dir` (recursively; folders left empty do not count),
/// other than the `.gitignore` that keeps records out of git.
fn files_under(dir: &std::path::Path) -> Vec<String> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            files.extend(files_under(&path));
        } else if entry.file_name() != ".gitignore" {
            files.push(path.display().to_string());
        }
    }
    files
}

/// After a death: the next process touches one name (`via_new`: the new one),
/// the writer renames again if the document is still under the old name, the
/// invariants are checked, and the pending proposal is decided.
fn after_death(t: &Template, ws: &Wsp, via_new: bool) -> Vec<String> {
    let mut p = Vec::new();
    // Recovery happens when the lock is taken, whichever name it is and
    // whether or not the document is there (so the exit is not checked).
    ws.run(&["proposals", if via_new { TO } else { FROM }]);
    if exists(ws, FROM) {
        let again = ws.run(&["rename", FROM, TO]);
        if !again.ok() {
            p.push(format!("the rename again was refused: {}", again.describe()));
            return p;
        }
    }
    p.extend(problems(t, ws));
    let accept = ws.run(&["accept", TO, &t.pending]);
    if !accept.ok() {
        p.push(format!(
            "the pending proposal is not decidable under the new name: {}",
            accept.describe()
        ));
    }
    // A record a writer leaves when it dies between removing its two is the
    // new name's (it goes last), cleared by the next write there: this accept.
    p.extend(left_over(ws));
    p
}

#[test]
fn a_completed_rename_meets_every_invariant() {
    // The control: nothing dies, so a failure in the tests below is the crash.
    let t = template();
    let ws = t.ws.copy();
    let out = ws.run(&["rename", FROM, TO]);
    assert!(out.ok(), "{}", out.describe());
    let p = after_death(&t, &ws, true);
    assert!(p.is_empty(), "{p:#?}");
}

#[test]
fn a_rename_that_dies_at_every_step_ends_under_one_name() {
    let t = template();
    let mut completed_at = None;
    let mut violations = Vec::new();
    // Each step twice: the next process touches the old name, then (on a fresh
    // copy) the new one.
    for (n, via_new) in (1..=MAX_FAULT_AT).flat_map(|n| [(n, false), (n, true)]) {
        let ws = t.ws.copy();
        let out = ws
            .spawn(&["rename", FROM, TO], &[("COWRITING_FAULT_AT", n.to_string())])
            .wait();
        if out.ok() {
            assert!(
                n > 1,
                "the fault hook is not there: the rename completed at COWRITING_FAULT_AT=1"
            );
            completed_at = Some(n);
        } else if !(out.signal.is_some() || matches!(out.code, Some(134) | Some(137))) {
            violations.push(format!(
                "N={n}: neither completed nor aborted: {}",
                out.describe()
            ));
            continue;
        }
        let died_after_move = !exists(&ws, FROM);
        for p in after_death(&t, &ws, via_new) {
            violations.push(format!(
                "N={n}, then the {} name (document moved before the death: {died_after_move}): {p}",
                if via_new { "new" } else { "old" }
            ));
        }
        if completed_at.is_some() && via_new {
            break;
        }
    }
    eprintln!(
        "[crash] rename: completed at N={completed_at:?}, violations={}",
        violations.len()
    );
    assert!(
        completed_at.is_some(),
        "the rename still aborted at COWRITING_FAULT_AT={MAX_FAULT_AT}"
    );
    assert!(violations.is_empty(), "{violations:#?}");
}

#[test]
fn a_rename_killed_at_random_moments_ends_under_one_name() {
    let t = template();
    // How long a rename takes here: kills are spread over one and a half times that.
    let mut took = Vec::new();
    for _ in 0..3 {
        let ws = t.ws.copy();
        let start = std::time::Instant::now();
        assert!(ws.run(&["rename", FROM, TO]).ok());
        took.push(start.elapsed().as_millis() as u64);
    }
    took.sort();
    let range = (took[1] * 3 / 2).max(5);
    let mut rng = SEED;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let (mut killed, mut violations) = (0, Vec::new());
    for round in 0..KILL_ROUNDS {
        let ws = t.ws.copy();
        let delay = next() % (range + 1);
        let mut child = ws.spawn(&["rename", FROM, TO], &[]);
        std::thread::sleep(Duration::from_millis(delay));
        if !child.exited() {
            child.kill();
            killed += 1;
        }
        child.wait();
        for p in after_death(&t, &ws, round % 2 == 0) {
            violations.push(format!("round {round}, killed after {delay} ms: {p}"));
        }
    }
    eprintln!(
        "[crash] rename: {KILL_ROUNDS} rounds, delay 0..={range} ms (a rename took {took:?} ms), killed while running: {killed}"
    );
    assert!(violations.is_empty(), "{violations:#?}");
}

/// Writers beside a rename, each a real process: `WRITERS` processes file
/// `PER_WRITER` proposals each on the document, by its old name until that is
/// refused, then by its new one, while one more process renames it. Every
/// proposal a writer was told was filed is under the new name with its ledger
/// entry; none is under the old name; a writer is refused only by the old
/// name's being gone, never twice for one proposal.
#[test]
fn writers_beside_a_rename_lose_nothing() {
    const WRITERS: usize = 4;
    const PER_WRITER: usize = 8;
    let ws = Wsp::new();
    let text: String = (0..WRITERS * PER_WRITER)
        .map(|i| format!("Sentence number {i} stays here.\n\n"))
        .collect();
    ws.write(FROM, &text);
    let ws = std::sync::Arc::new(ws);
    let filed = std::sync::Mutex::new(Vec::<String>::new());
    let by_new_name = std::sync::atomic::AtomicUsize::new(0);
    let refused = std::sync::Mutex::new(Vec::<String>::new());
    std::thread::scope(|s| {
        for w in 0..WRITERS {
            let (ws, filed, refused, by_new_name) = (&ws, &filed, &refused, &by_new_name);
            s.spawn(move || {
                for k in 0..PER_WRITER {
                    let i = w * PER_WRITER + k;
                    let find = format!("Sentence number {i} stays here.");
                    let replace = format!("Sentence number {i} was changed.");
                    let mut tries = Vec::new();
                    for name in [FROM, TO] {
                        let out = ws.run(&["propose", name, "--find", &find, "--replace", &replace]);
                        if out.ok() {
                            if name == TO {
                                by_new_name.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            }
                            let id = out
                                .json()
                                .pointer("/proposal/id")
                                .and_then(Value::as_str)
                                .map(str::to_owned);
                            filed
                                .lock()
                                .unwrap()
                                .push(id.unwrap_or_else(|| format!("no id: {}", out.describe())));
                            break;
                        }
                        tries.push(out.describe());
                    }
                    if tries.len() == 2 {
                        refused.lock().unwrap().push(format!("sentence {i}: {tries:#?}"));
                    }
                }
            });
        }
        let ws = &ws;
        s.spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            let out = ws.run(&["rename", FROM, TO]);
            assert!(out.ok(), "{}", out.describe());
        });
    });
    let filed = filed.into_inner().unwrap();
    let refused = refused.into_inner().unwrap();
    assert!(refused.is_empty(), "refused under both names: {refused:#?}");
    assert_eq!(filed.len(), WRITERS * PER_WRITER);
    assert!(!exists(&ws, FROM), "the rename happened");
    let mut kept = proposal_ids(&ws.sidecar(TO));
    kept.sort();
    let mut want = filed.clone();
    want.sort();
    assert_eq!(kept, want, "every proposal filed is under the new name, once");
    let no_ledger: Vec<&String> = filed.iter().filter(|id| !ws.pending_has(TO, id)).collect();
    assert!(
        no_ledger.is_empty(),
        "without their ledger entry under the new name: {no_ledger:?}"
    );
    for rel in [
        format!(".threads/{FROM}.json"),
        format!(".cowriting/suggestions/{FROM}.json"),
    ] {
        assert!(!exists(&ws, &rel), "review data under the old name: {rel}");
    }
    let left = ws.leftovers();
    assert!(left.is_empty(), "temp files left: {left:?}");
    eprintln!(
        "[concurrency] rename beside {WRITERS} writers: {} proposals filed ({} by the new name, after the old one was refused), all under {TO}",
        filed.len(),
        by_new_name.into_inner()
    );
}

/// Two renames of one document at once, to two names: one wins, the other is
/// refused (the document is no longer there), and nothing is left under the
/// loser's name.
#[test]
fn two_renames_at_once_one_wins() {
    for round in 0..5 {
        let t = template();
        let ws = t.ws.copy();
        let a = ws.spawn(&["rename", FROM, "a.md"], &[]);
        let b = ws.spawn(&["rename", FROM, "b.md"], &[]);
        let (a, b) = (a.wait(), b.wait());
        assert!(
            a.ok() != b.ok(),
            "round {round}: exactly one wins: {} / {}",
            a.describe(),
            b.describe()
        );
        let (won, lost) = if a.ok() {
            ("a.md", "b.md")
        } else {
            ("b.md", "a.md")
        };
        let loser = if a.ok() { &b } else { &a };
        let error: Value = serde_json::from_str(loser.stderr.trim()).unwrap_or(Value::Null);
        // A document that is not there is bad input (as for any command).
        assert_eq!(error["code"], "bad_input", "round {round}: {}", loser.describe());
        assert_eq!(ws.read(won), ACCEPTED);
        for rel in [
            lost.to_owned(),
            format!(".threads/{lost}.json"),
            format!(".cowriting/suggestions/{lost}.json"),
        ] {
            assert!(
                !exists(&ws, &rel),
                "round {round}: {rel} left by the rename that lost"
            );
        }
        assert_eq!(proposal_ids(&ws.sidecar(won)), std::slice::from_ref(&t.pending));
    }
}

/// A rename beside a writer that takes no lock and writes the sidecar in place
/// (as the VS Code extension does, `tests/fixtures/vscode_writer.mjs`), over
/// `JS_ROUNDS` rounds, the rename started after 1–5 of its records: none of its
/// records is lost. Each is in the sidecar under the new name (always, for one
/// written before the rename began), or, if it wrote after the rename had moved
/// the sidecar (it does not know of renames), in the sidecar it wrote again
/// under the old name.
#[test]
fn a_rename_beside_the_vscode_writer_loses_none_of_its_records() {
    const JS_ROUNDS: usize = 12;
    let t = template();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/vscode_writer.mjs");
    let (mut total, mut moved, mut violations) = (0, 0, Vec::new());
    for round in 0..JS_ROUNDS {
        let ws = t.ws.copy();
        let dir = tempfile::tempdir().unwrap();
        let (out, stop) = (dir.path().join("records.txt"), dir.path().join("stop"));
        std::fs::write(&out, "").unwrap();
        let mut js = std::process::Command::new("node")
            .arg(&script)
            .arg(ws.file(&format!(".threads/{FROM}.json")))
            .arg(&t.thread)
            .arg(&out)
            .arg(&stop)
            .args(["400".to_owned(), round.to_string()])
            .stdin(std::process::Stdio::null())
            .spawn()
            .expect("node");
        let records = || -> Vec<String> {
            std::fs::read_to_string(&out)
                .unwrap_or_default()
                .lines()
                .filter_map(|l| l.split_whitespace().nth(1).map(str::to_owned))
                .collect()
        };
        let deadline = std::time::Instant::now() + reliability::WAIT;
        while records().len() < 1 + round % 5 {
            assert!(
                std::time::Instant::now() < deadline,
                "the JS writer wrote nothing"
            );
            assert!(js.try_wait().unwrap().is_none(), "the JS writer ended early");
            std::thread::sleep(Duration::from_millis(2));
        }
        let before = records();
        let renamed = ws.run(&["rename", FROM, TO]);
        std::thread::sleep(Duration::from_millis(100));
        std::fs::write(&stop, "").unwrap();
        let status = loop {
            if let Some(s) = js.try_wait().unwrap() {
                break s;
            }
            assert!(std::time::Instant::now() < deadline, "the JS writer did not stop");
            std::thread::sleep(Duration::from_millis(5));
        };
        assert!(renamed.ok(), "round {round}: {}", renamed.describe());
        assert!(
            status.success(),
            "round {round}: the JS writer failed: {status:?}"
        );

        let ids_in = |doc: &str| -> Vec<String> {
            if !exists(&ws, &format!(".threads/{doc}.json")) {
                return Vec::new();
            }
            let s = ws.sidecar(doc);
            let mut v = comment_ids(&s);
            v.extend(thread_ids(&s));
            v
        };
        let (new, old) = (ids_in(TO), ids_in(FROM));
        let all = records();
        for id in &all {
            if !new.contains(id) && !old.contains(id) {
                violations.push(format!("round {round}: its record {id} lost"));
            } else if before.contains(id) && !new.contains(id) {
                violations.push(format!(
                    "round {round}: its record {id}, written before the rename, not under the new name"
                ));
            }
        }
        if !new.contains(&t.thread) || proposal_ids(&ws.sidecar(TO)) != [t.pending.clone()] {
            violations.push(format!(
                "round {round}: our thread or pending proposal not under the new name"
            ));
        }
        total += all.len();
        moved += all.iter().filter(|id| new.contains(id)).count();
    }
    eprintln!(
        "[concurrency] rename beside the VS Code-style writer, {JS_ROUNDS} rounds: {total} of its records, {moved} under the new name, {} in the sidecar it wrote again under the old one; violations: {}",
        total - moved,
        violations.len()
    );
    assert!(violations.is_empty(), "{violations:#?}");
}
