//! A delete (`cowriting delete`: the document and its review data to the
//! trash) that dies: at every durable step (`COWRITING_FAULT_AT=N`, the process
//! aborts like kill -9 just before its Nth record write, move to the trash or
//! removal) and by SIGKILL at random moments.
//!
//! After each death the next process of ours that touches the name (by turns a
//! `proposals` on it, or the `new` of a document of that name) finishes the
//! delete or takes it back. The invariants: either the document is there with
//! all its review data (its thread, its pending proposal and the proposal's
//! ledger entry), and deleting it again works; or none of it is at its name,
//! every byte of it is in the trash, and a new document of that name starts
//! empty (no proposal, no thread of the old one). No intent record, lock file
//! or temp file is left.

mod reliability;

use reliability::{proposal_ids, thread_ids, Out, Wsp};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

const DOC: &str = "d.md";
/// A name too long for the trash as it is (`<name>.trashinfo` beside it would
/// have 260 bytes), whose sidecar name (`<name>.json`) is too: both go there
/// under a shorter name.
fn long_doc() -> String {
    format!("{}.md", "l".repeat(247))
}
const TEXT: &str = "# Delete\n\nFirst sentence stays. Sentence A here. Last sentence stays.\n";
const ACCEPTED: &str = "# Delete\n\nFirst sentence stays. Sentence A, accepted. Last sentence stays.\n";
const MAX_FAULT_AT: usize = 30;
const KILL_ROUNDS: usize = 80;
const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// A document with a thread, a decided proposal and a pending one (in the
/// sidecar and the ledger).
struct Template {
    ws: Wsp,
    doc: String,
    thread: String,
    pending: String,
    sidecar: String,
    ledger: String,
}

fn template(doc: &str) -> Template {
    let ws = Wsp::new();
    ws.write(doc, TEXT);
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
        doc,
        "--find",
        "First sentence",
        "--body",
        "Keep me.",
    ]));
    let decided = made(ws.json(&[
        "propose",
        doc,
        "--find",
        "Sentence A here.",
        "--replace",
        "Sentence A, accepted.",
    ]));
    let pending = made(ws.json(&[
        "propose",
        doc,
        "--find",
        "Last sentence stays.",
        "--replace",
        "Last sentence goes.",
    ]));
    ws.json(&["accept", doc, &decided]);
    assert_eq!(ws.read(doc), ACCEPTED);
    let sidecar = ws.read(&format!(".threads/{doc}.json"));
    let ledger = ws.pending_text(doc);
    assert!(ledger.contains(&pending), "the template has a ledger entry");
    Template {
        ws,
        doc: doc.to_owned(),
        thread,
        pending,
        sidecar,
        ledger,
    }
}

/// This workspace's trash (each workspace its own `XDG_DATA_HOME`).
fn data_home(ws: &Wsp) -> PathBuf {
    ws.home().join("data")
}

fn run(ws: &Wsp, args: &[&str], env: &[(&str, String)]) -> Out {
    let mut env = env.to_vec();
    env.push(("XDG_DATA_HOME", data_home(ws).display().to_string()));
    ws.spawn(args, &env).wait()
}

fn exists(ws: &Wsp, rel: &str) -> bool {
    std::fs::symlink_metadata(ws.file(rel)).is_ok()
}

/// The contents of every file in the trash.
fn in_trash(ws: &Wsp) -> Vec<String> {
    let dir = data_home(ws).join("Trash/files");
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect()
}

/// The files under `dir` (recursively; folders left empty do not count), other
/// than a `.gitignore`.
fn files_under(dir: &Path) -> Vec<String> {
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

/// Intent records, lock files and temp files left.
fn left_over(ws: &Wsp) -> Vec<String> {
    let mut p = Vec::new();
    for dir in [".cowriting/txn", ".cowriting/locks"] {
        let left = files_under(&ws.file(dir));
        if !left.is_empty() {
            p.push(format!("left in {dir}: {left:?}"));
        }
    }
    let left = ws.leftovers();
    if !left.is_empty() {
        p.push(format!("temp files left: {left:?}"));
    }
    p
}

/// After a death: the next process touches the name (`via_new`: by making a new
/// document there; else by listing its proposals), the invariants are checked,
/// then the delete is finished by hand if the document is still there, and a new
/// document of the name must start empty. Returns the problems and whether the
/// document had gone before the hand-made delete.
fn after_death(t: &Template, ws: &Wsp, via_new: bool) -> (Vec<String>, bool) {
    let doc = t.doc.as_str();
    let mut p = Vec::new();
    let made = if via_new {
        Some(run(ws, &["new", doc], &[]))
    } else {
        run(ws, &["proposals", doc], &[]);
        None
    };
    let gone = made.as_ref().is_some_and(Out::ok) || !exists(ws, doc);
    let review = [
        format!(".threads/{doc}.json"),
        format!(".cowriting/suggestions/{doc}.json"),
    ];
    if gone {
        // None of it stayed (a new document of the name, just made, is empty),
        // and all of it is in the trash.
        if via_new && !ws.read(doc).is_empty() {
            p.push(format!("the new {doc} holds {:?}", ws.read(doc)));
        }
        for rel in &review {
            if exists(ws, rel) {
                p.push(format!(
                    "review data left at the name of a deleted document: {rel}"
                ));
            }
        }
        if !via_new {
            let made = run(ws, &["new", doc], &[]);
            if !made.ok() {
                p.push(format!(
                    "new at the name of a deleted document: {}",
                    made.describe()
                ));
            }
        }
        let trash = in_trash(ws);
        for (what, bytes) in [
            ("document", ACCEPTED),
            ("sidecar", &t.sidecar),
            ("ledger file", &t.ledger),
        ] {
            if !trash.iter().any(|c| c == bytes) {
                p.push(format!("the {what} is neither at its name nor in the trash"));
            }
        }
    } else {
        if let Some(out) = &made {
            let code: Value = serde_json::from_str(out.stderr.trim()).unwrap_or(Value::Null);
            if code["code"] != "exists" {
                p.push(format!("new over the document: {}", out.describe()));
            }
        }
        match std::fs::read_to_string(ws.file(doc)) {
            Ok(text) if text == ACCEPTED => {}
            other => p.push(format!("{doc}: {other:?}")),
        }
        let sidecar = ws.sidecar(doc);
        if thread_ids(&sidecar) != [t.thread.clone()] || proposal_ids(&sidecar) != [t.pending.clone()] {
            p.push(format!("the review data is not whole: {sidecar}"));
        }
        if !ws.pending_has(doc, &t.pending) {
            p.push("the pending proposal's ledger entry is gone".into());
        }
        let again = run(ws, &["delete", doc], &[]);
        if !again.ok() {
            p.push(format!("the delete again was refused: {}", again.describe()));
        }
        for rel in &review {
            if exists(ws, rel) {
                p.push(format!("review data left after the delete again: {rel}"));
            }
        }
        let made = run(ws, &["new", doc], &[]);
        if !made.ok() {
            p.push(format!("new after the delete again: {}", made.describe()));
        }
    }
    // The new document has nothing of the old one.
    let proposals = run(ws, &["proposals", doc], &[]);
    let threads = run(ws, &["threads", doc], &[]);
    for (what, out, key) in [
        ("proposals", &proposals, "proposals"),
        ("threads", &threads, "threads"),
    ] {
        if !out.ok() {
            p.push(format!("{what} of the new document: {}", out.describe()));
        } else if out.json()[key].as_array().is_none_or(|a| !a.is_empty()) {
            p.push(format!("the new document inherited {what}: {}", out.stdout));
        }
    }
    p.extend(left_over(ws));
    (p, gone)
}

#[test]
fn a_completed_delete_meets_every_invariant() {
    // The control: nothing dies, so a failure below is the crash.
    for (t, via_new) in [
        (template(DOC), false),
        (template(DOC), true),
        (template(&long_doc()), true),
    ] {
        let ws = t.ws.copy();
        let out = run(&ws, &["delete", &t.doc], &[]);
        assert!(out.ok(), "{}", out.describe());
        let (p, gone) = after_death(&t, &ws, via_new);
        assert!(gone && p.is_empty(), "{p:#?}");
    }
}

#[test]
fn a_delete_that_dies_at_every_step_leaves_all_or_nothing() {
    fault_loop(DOC);
}

/// The same with a name too long for the trash: the document and its sidecar
/// take a shorter name on their way there (a step more each).
#[test]
fn a_delete_of_a_long_name_that_dies_at_every_step_leaves_all_or_nothing() {
    fault_loop(&long_doc());
}

fn fault_loop(doc: &str) {
    let t = template(doc);
    let mut completed_at = None;
    let (mut before, mut after) = (Vec::new(), Vec::new());
    let mut violations = Vec::new();
    // Each step twice: the next process lists the proposals, then (on a fresh
    // copy) makes a new document of the name.
    for (n, via_new) in (1..=MAX_FAULT_AT).flat_map(|n| [(n, false), (n, true)]) {
        let ws = t.ws.copy();
        let out = run(&ws, &["delete", doc], &[("COWRITING_FAULT_AT", n.to_string())]);
        if out.ok() {
            assert!(
                n > 1,
                "the fault hook is not there: the delete completed at COWRITING_FAULT_AT=1"
            );
            completed_at = Some(n);
        } else if !(out.signal.is_some() || matches!(out.code, Some(134) | Some(137))) {
            violations.push(format!(
                "N={n}: neither completed nor aborted: {}",
                out.describe()
            ));
            continue;
        }
        let (p, gone) = after_death(&t, &ws, via_new);
        if !via_new && completed_at.is_none() {
            if gone { &mut after } else { &mut before }.push(n);
        }
        for p in p {
            violations.push(format!(
                "N={n}, then {}: {p}",
                if via_new { "new" } else { "proposals" }
            ));
        }
        if completed_at.is_some() && via_new {
            break;
        }
    }
    eprintln!(
        "[crash] delete of a {}-byte name: completed at N={completed_at:?}; died at N={before:?} ended with the document kept, N={after:?} deleted; violations={}",
        doc.len(),
        violations.len()
    );
    assert!(
        completed_at.is_some(),
        "the delete still aborted at COWRITING_FAULT_AT={MAX_FAULT_AT}"
    );
    assert!(
        !before.is_empty() && !after.is_empty(),
        "deaths on both sides of the commit point"
    );
    assert!(violations.is_empty(), "{violations:#?}");
}

#[test]
fn a_delete_killed_at_random_moments_leaves_all_or_nothing() {
    let t = template(DOC);
    // How long a delete takes here: kills are spread over one and a half times that.
    let mut took = Vec::new();
    for _ in 0..3 {
        let ws = t.ws.copy();
        let start = std::time::Instant::now();
        assert!(run(&ws, &["delete", DOC], &[]).ok());
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
    let (mut killed, mut gone_n, mut violations) = (0, 0, Vec::new());
    for round in 0..KILL_ROUNDS {
        let ws = t.ws.copy();
        let delay = next() % (range + 1);
        let env = [("XDG_DATA_HOME", data_home(&ws).display().to_string())];
        let mut child = ws.spawn(&["delete", DOC], &env);
        std::thread::sleep(Duration::from_millis(delay));
        if !child.exited() {
            child.kill();
            killed += 1;
        }
        child.wait();
        let (p, gone) = after_death(&t, &ws, round % 2 == 1);
        gone_n += usize::from(gone);
        for p in p {
            violations.push(format!("round {round}, killed after {delay} ms: {p}"));
        }
    }
    eprintln!(
        "[crash] delete: {KILL_ROUNDS} rounds, delay 0..={range} ms (a delete took {took:?} ms), killed while running: {killed}, document gone after the death: {gone_n}; violations: {}",
        violations.len()
    );
    assert!(violations.is_empty(), "{violations:#?}");
}
