//! Decided means decided, with real processes and real git: a proposal the
//! decision log says was accepted comes back into its sidecar (a non-locking
//! JavaScript writer (`tests/fixtures/stale_writer.mjs`) saving its stale copy,
//! `git checkout` of the sidecar and
//! its pending file, `git stash pop`); a second `cowriting accept` is refused
//! (exit 2, `not_found`), the text is applied once, the log has one decision,
//! the proposal is not listed as pending, and the next write drops it with a
//! warning naming who brought it back. And a merge of a branch that renamed the
//! document with one that proposed on it: accepting on the new name logs one
//! decision and `eval` counts nothing pending.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const DOC: &str = "# Notes\n\nThis is real.\n\nA second paragraph with more words.\n";
const ONCE: &str = "# Notes\n\nThis is real. Really.\n\nA second paragraph with more words.\n";

mod common;
use common::git_repo::{text, Repo};

/// What the tests here add to the shared repository.
impl Repo {
    /// A repository with `doc.md` written (not committed).
    fn new() -> Repo {
        let r = Repo::init();
        r.write("doc.md", DOC);
        r
    }

    /// cowriting, expected to succeed; returns (stdout, stderr).
    fn cw(&self, args: &[&str]) -> (String, String) {
        let out = self.cw_ok(args);
        (text(&out.stdout).trim().to_owned(), text(&out.stderr))
    }

    fn json(&self, args: &[&str]) -> Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        serde_json::from_str(&self.cw(&all).0).unwrap()
    }

    fn propose(&self, doc: &str, find: &str, replace: &str) -> String {
        self.cw(&["propose", doc, "--find", find, "--replace", replace]).0
    }

    fn commit(&self, msg: &str) {
        self.git(&["add", "-A", "."]);
        self.git(&["commit", "-q", "-m", msg]);
    }

    fn sidecar_ids(&self, doc: &str) -> Vec<String> {
        let v: Value = serde_json::from_str(&self.read(&format!(".threads/{doc}.json"))).unwrap();
        v["proposals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap().to_owned())
            .collect()
    }

    /// The decision log's decision lines (not undo or rename lines).
    fn decision_lines(&self) -> Vec<Value> {
        let log = std::fs::read_to_string(self.file(".cowriting/decisions.jsonl")).unwrap_or_default();
        log.lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|v| v.get("undo").is_none() && v.get("renamed").is_none())
            .collect()
    }

    /// `eval --json`'s totals: (accepted, pending, decided elsewhere).
    fn eval(&self) -> (u64, u64, u64) {
        let v = self.json(&["eval"]);
        let rows = v["rows"].as_array().unwrap();
        let sum = |k: &str| rows.iter().map(|r| r[k].as_u64().unwrap()).sum::<u64>();
        (sum("accepted"), sum("pending"), sum("decidedElsewhere"))
    }

    /// The pending proposals `cowriting proposals` lists.
    fn listed(&self, doc: &str) -> Vec<String> {
        self.json(&["proposals", doc])["proposals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap().to_owned())
            .collect()
    }

    /// After the proposal `id` came back into the sidecar: refused, applied
    /// once, logged once, not listed; the next write drops it, and its warning
    /// names `who`.
    fn assert_decided(&self, id: &str, who: &str) {
        assert!(
            self.sidecar_ids("doc.md").contains(&id.to_owned()),
            "the proposal is back in the sidecar (the scenario is real)"
        );
        assert!(
            !self.listed("doc.md").contains(&id.to_owned()),
            "not shown as pending"
        );
        let out = self.run_cw(&["--json", "accept", "doc.md", id]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        let err: Value = serde_json::from_str(text(&out.stderr).trim()).unwrap();
        assert_eq!(err["code"], "not_found", "{err}");
        let msg = err["message"].as_str().unwrap();
        assert!(msg.contains("already accepted") && msg.contains(id), "{msg}");
        assert_eq!(self.read("doc.md"), ONCE, "the text is applied once");
        let lines = self.decision_lines();
        assert_eq!(lines.len(), 1, "exactly one decision line: {lines:?}");
        assert_eq!(lines[0]["sidecarProposalId"], id);
        // Reject is refused the same way, and logs nothing.
        assert_eq!(self.run_cw(&["reject", "doc.md", id]).status.code(), Some(2));
        assert_eq!(self.decision_lines().len(), 1);
        assert_eq!(self.eval(), (1, 0, 0), "eval: one accepted, nothing pending");
        // The next write (another proposal) drops it and says who brought it back.
        let (_, stderr) = self.cw(&["propose", "doc.md", "--find", "second", "--replace", "next"]);
        assert!(!self.sidecar_ids("doc.md").contains(&id.to_owned()), "dropped");
        assert!(
            stderr.contains(id) && stderr.contains("dropped") && stderr.contains(who),
            "the warning names {who:?}: {stderr}"
        );
        assert_eq!(self.read("doc.md"), ONCE);
        assert_eq!(self.decision_lines().len(), 1);
        let (accepted, pending, elsewhere) = self.eval();
        assert_eq!(
            (accepted, pending, elsewhere),
            (1, 1, 0),
            "the new one is pending"
        );
    }
}

fn wait_for(file: &Path) {
    let start = Instant::now();
    while !file.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{} never came",
            file.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_stale_copy_saved_by_a_writer_without_a_lock_does_not_bring_an_accepted_proposal_back() {
    let r = Repo::new();
    let id = r.propose("doc.md", "real.", "real. Really.");
    let signals = tempfile::tempdir().unwrap();
    let (ready, go) = (signals.path().join("ready"), signals.path().join("go"));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stale_writer.mjs");
    let mut writer = Command::new("node")
        .arg(&script)
        .arg(r.file(".threads/doc.md.json"))
        .arg(&ready)
        .arg(&go)
        .stderr(Stdio::inherit())
        .spawn()
        .expect("node runs");
    wait_for(&ready);
    assert_eq!(
        std::fs::read_to_string(&ready).unwrap().trim(),
        "1",
        "it read the pending proposal"
    );
    r.cw(&["accept", "doc.md", &id]);
    assert_eq!(r.read("doc.md"), ONCE);
    std::fs::write(&go, "").unwrap();
    assert!(writer.wait().unwrap().success());
    r.assert_decided(&id, "a writer that does not read the decision log");
}

#[test]
fn git_checkout_of_the_sidecar_and_its_pending_file_does_not_bring_an_accepted_proposal_back() {
    let r = Repo::new();
    let id = r.propose("doc.md", "real.", "real. Really.");
    r.commit("a proposal");
    r.cw(&["accept", "doc.md", &id]);
    assert!(!r.file(".cowriting/suggestions/doc.md.json").exists());
    r.git(&[
        "checkout",
        "--",
        ".threads/doc.md.json",
        ".cowriting/suggestions/doc.md.json",
    ]);
    assert!(
        r.file(".cowriting/suggestions/doc.md.json").exists(),
        "its contract record is back too"
    );
    r.assert_decided(&id, "git (the file is its version at HEAD");
    // The contract record that came back with it went with the next write.
    let pending = r.read(".cowriting/suggestions/doc.md.json");
    assert!(!pending.contains(&id), "{pending}");
}

#[test]
fn git_stash_pop_of_an_older_sidecar_does_not_bring_an_accepted_proposal_back() {
    let r = Repo::new();
    r.cw(&["thread", "new", "doc.md", "--find", "second", "--body", "keep?"]);
    r.cw(&["git", "install"]);
    r.commit("base");
    let id = r.propose("doc.md", "real.", "real. Really.");
    // The sidecar with the pending proposal is stashed away, and put back.
    r.git(&["stash", "push", "-q", "--", ".threads/doc.md.json"]);
    r.git(&["stash", "apply", "-q"]);
    assert!(r.sidecar_ids("doc.md").contains(&id));
    r.cw(&["accept", "doc.md", &id]);
    r.commit("accepted");
    // Later the stash is popped: its sidecar still holds the proposal.
    r.git(&["stash", "pop", "-q"]);
    r.assert_decided(&id, "a writer that does not read the decision log");
}

#[test]
fn a_merge_of_a_rename_with_a_proposal_on_the_old_name_keeps_the_ledger() {
    let r = Repo::new();
    r.cw(&["thread", "new", "doc.md", "--find", "second", "--body", "keep?"]);
    r.cw(&["git", "install"]);
    r.commit("base");
    r.git(&["checkout", "-q", "-b", "a"]);
    r.cw(&["rename", "doc.md", "chapter.md"]);
    r.commit("rename");
    r.git(&["checkout", "-q", "main"]);
    let id = r.propose("doc.md", "real.", "real. Really.");
    r.commit("a proposal");
    r.git(&["merge", "-q", "--no-edit", "a"]);

    // What git left: the document and its sidecar under the new name, the
    // pending record (a file only this side added) under the old one.
    assert!(!r.file("doc.md").exists());
    assert_eq!(r.read("chapter.md"), DOC);
    assert_eq!(r.sidecar_ids("chapter.md"), vec![id.clone()]);
    assert!(!r.file(".cowriting/suggestions/chapter.md.json").exists());
    assert!(r.read(".cowriting/suggestions/doc.md.json").contains(&id));
    assert_eq!(
        r.eval(),
        (0, 1, 0),
        "pending (on chapter.md), not decided elsewhere"
    );

    r.cw(&["accept", "chapter.md", &id]);
    assert_eq!(r.read("chapter.md"), ONCE);
    let lines = r.decision_lines();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["sidecarProposalId"], id);
    assert_eq!(lines[0]["docId"], "chapter.md");
    assert!(lines[0]["proposalId"].as_str().unwrap().starts_with("pp_"));
    assert!(
        !r.file(".cowriting/suggestions/doc.md.json").exists(),
        "the record left under the old name is gone"
    );
    assert_eq!(
        r.eval(),
        (1, 0, 0),
        "one accepted, nothing pending, nothing elsewhere"
    );
    let listed = r.json(&["decisions", "chapter.md"]);
    assert_eq!(listed["decisions"].as_array().unwrap().len(), 1);
}

#[test]
fn a_merge_of_a_rename_with_a_pending_file_on_both_sides_is_merged_under_the_new_name() {
    let r = Repo::new();
    r.cw(&["git", "install"]);
    let first = r.propose("doc.md", "second", "next");
    r.commit("base, one proposal pending");
    r.git(&["checkout", "-q", "-b", "a"]);
    r.cw(&["rename", "doc.md", "chapter.md"]);
    r.commit("rename");
    r.git(&["checkout", "-q", "main"]);
    let id = r.propose("doc.md", "real.", "real. Really.");
    r.commit("another proposal");
    r.git(&["merge", "-q", "--no-edit", "a"]);

    // git followed the pending file's rename too, and the driver merged it.
    assert!(!r.file(".cowriting/suggestions/doc.md.json").exists());
    let pending = r.read(".cowriting/suggestions/chapter.md.json");
    assert!(pending.contains(&id) && pending.contains(&first), "{pending}");
    r.cw(&["accept", "chapter.md", &id]);
    r.cw(&["reject", "chapter.md", &first]);
    let lines = r.decision_lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines.iter().all(|l| l["docId"] == "chapter.md"));
    assert_eq!(r.eval(), (1, 0, 0));
    assert!(!r.file(".cowriting/suggestions/chapter.md.json").exists());
}
