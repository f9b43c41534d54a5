//! Git integration with the real `git` binary: the sidecar merge driver (through
//! `git merge` and run directly on three files), `cowriting git install`, and the
//! prepare-commit-msg hook's Co-authored-by trailers.

use cowriting::model::{parse_artifact, serialize_artifact, to_js_json};
use serde_json::{json, Value};
use std::process::Command;

const DOC: &str = "# Notes\n\nThe quick brown fox jumps over the lazy dog.\n\nA second paragraph — with ünïcode 😀 and more words.\n";
const CLAUDE: &str = "Co-authored-by: Claude <noreply@anthropic.com>";

mod common;
use common::git_repo::{text, Repo, EXE};

/// What the tests here add to the shared repository.
impl Repo {
    fn new() -> Repo {
        Repo::init()
    }

    /// cowriting, expected to succeed; returns stdout.
    fn cw(&self, args: &[&str]) -> String {
        text(&self.cw_ok(args).stdout).trim().to_owned()
    }

    fn propose(&self, find: &str, replace: &str, agent: &str) -> String {
        self.cw(&[
            "propose",
            "docs/notes.md",
            "--find",
            find,
            "--replace",
            replace,
            "--model",
            "sonnet",
            "--agent",
            agent,
        ])
    }

    fn commit_all(&self, msg: &str) {
        self.git(&["add", "docs", ".threads"]);
        self.git(&["commit", "-q", "-m", msg]);
    }

    fn sidecar(&self) -> String {
        self.read(".threads/docs/notes.md.json")
    }

    fn sidecar_json(&self) -> Value {
        serde_json::from_str(&self.sidecar()).unwrap()
    }

    /// HEAD's message exactly as stored.
    fn last_message(&self) -> String {
        let raw = self.git(&["cat-file", "commit", "HEAD"]);
        raw.split_once("\n\n").unwrap().1.to_owned()
    }
}

fn ids(v: &Value, key: &str) -> Vec<String> {
    v[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect()
}

fn assert_canonical(sidecar: &str) {
    let a = parse_artifact(sidecar).unwrap();
    assert_eq!(serialize_artifact(&a), sidecar, "the merged sidecar is canonical");
}

#[test]
fn branches_that_both_add_proposals_and_replies_merge_cleanly_with_the_driver() {
    let r = Repo::new();
    r.write("docs/notes.md", DOC);
    let p0 = r.propose("quick brown", "slow red", "claude");
    let t = r.cw(&[
        "thread",
        "new",
        "docs/notes.md",
        "--find",
        "lazy dog",
        "--body",
        "Too cute?",
    ]);
    r.commit_all("base");
    let base_comment = ids(&r.sidecar_json()["threads"][0], "comments")[0].clone();

    r.git(&["checkout", "-q", "-b", "a"]);
    let pa = r.propose("jumps over", "leaps over", "claude");
    let ca = r.cw(&[
        "thread",
        "reply",
        "docs/notes.md",
        &t,
        "--body",
        "Reply from A — é",
    ]);
    let ta = r.cw(&[
        "thread",
        "new",
        "docs/notes.md",
        "--find",
        "second paragraph",
        "--body",
        "New on A",
    ]);
    let ra = r.propose("lazy", "sleepy", "claude");
    r.cw(&["reject", "docs/notes.md", &ra]);
    r.commit_all("a");

    r.git(&["checkout", "-q", "main"]);
    r.git(&["checkout", "-q", "-b", "b"]);
    let pb = r.propose("ünïcode 😀", "Unicode", "claude");
    let cb = r.cw(&[
        "thread",
        "reply",
        "docs/notes.md",
        &t,
        "--body",
        "Reply from B 日本",
    ]);
    r.cw(&["thread", "resolve", "docs/notes.md", &t]);
    let rb = r.propose("second paragraph", "next paragraph", "claude");
    r.cw(&["reject", "docs/notes.md", &rb]);
    r.commit_all("b");

    // Without the driver, git's text merge conflicts.
    r.git(&["checkout", "-q", "a"]);
    let out = r.run_git(&["merge", "-q", "--no-edit", "b"]);
    assert!(
        !out.status.success(),
        "expected a conflict: {}",
        text(&out.stdout)
    );
    assert!(text(&out.stdout).contains("CONFLICT"), "{}", text(&out.stdout));
    r.git(&["merge", "--abort"]);

    // With it, the merge is clean and keeps everything.
    r.cw(&["git", "install"]);
    let out = r.run_git(&["merge", "--no-edit", "b"]);
    assert!(
        out.status.success(),
        "merge failed: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let merged = r.sidecar();
    assert_canonical(&merged);
    let v: Value = serde_json::from_str(&merged).unwrap();
    let mut proposals = ids(&v, "proposals");
    proposals.sort();
    let mut want = vec![p0, pa, pb];
    want.sort();
    assert_eq!(proposals, want);
    assert_eq!(ids(&v, "threads"), vec![t.clone(), ta]);
    let thread = &v["threads"][0];
    assert_eq!(
        thread["status"], "resolved",
        "theirs resolved it; ours left the status alone"
    );
    let comments = ids(thread, "comments");
    assert_eq!(comments.len(), 3);
    assert_eq!(comments[0], base_comment, "base comments first");
    let mut new = comments[1..].to_vec();
    new.sort();
    let mut want = vec![ca, cb];
    want.sort();
    assert_eq!(new, want);
    // Every anchor a record uses is there, and no other.
    let anchors = v["anchors"].as_object().unwrap();
    assert_eq!(anchors.len(), 5);
    for key in ["threads", "proposals"] {
        for rec in v[key].as_array().unwrap() {
            assert!(anchors.contains_key(rec["anchorId"].as_str().unwrap()));
        }
    }
    let check = r.run_cw(&["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));
    assert!(r.git(&["status", "--porcelain", ".threads"]).is_empty());
    // The contract ledger merged too: every pending entry, both branches' decisions.
    let pending: Value = serde_json::from_str(&r.read(".cowriting/suggestions/docs/notes.md.json")).unwrap();
    let mut entries: Vec<String> = pending["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["sidecarProposalId"].as_str().unwrap().to_owned())
        .collect();
    entries.sort();
    assert_eq!(entries, proposals);
    let log = r.read(".cowriting/decisions.jsonl");
    assert!(log.contains(&ra) && log.contains(&rb), "{log}");
    assert_eq!(log.lines().count(), 2);
}

/// A sidecar as the model writes it.
fn sidecar(status: &str, body: &str, line_hint: u64, extra_proposal: Option<Value>) -> String {
    let mut proposals = vec![];
    if let Some(p) = extra_proposal {
        proposals.push(p);
    }
    let v = json!({
        "schemaVersion": 1,
        "docPath": "x.md",
        "anchors": {
            "a_1": { "fingerprint": { "text": "fox", "before": "quick ", "after": " jumps", "lineHint": line_hint } },
            "a_2": { "fingerprint": { "text": "dog", "before": "lazy ", "after": ".", "lineHint": 0 } },
        },
        "threads": [{
            "id": "t_1", "anchorId": "a_1", "status": status,
            "comments": [{ "id": "c_1", "author": { "kind": "human", "id": "w@x" }, "body": body, "createdAt": "2026-06-10T00:00:00.000Z" }],
        }],
        "attributions": [],
        "proposals": proposals,
    });
    to_js_json(&v)
}

fn proposal(extra: Option<(&str, &str)>) -> Value {
    let mut p = json!({
        "id": "pr_1", "anchorId": "a_2", "replacement": "cat",
        "author": { "kind": "agent", "id": "claude", "agent": { "model": "sonnet" } },
        "createdAt": "2026-06-10T00:00:00.000Z",
    });
    if let Some((k, v)) = extra {
        p[k] = json!(v);
    }
    p
}

/// Run the driver on three texts; returns (exit code, %A afterwards, stderr).
fn drive(base: &str, ours: &str, theirs: &str) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let f = |n: &str, s: &str| {
        let p = dir.path().join(n);
        std::fs::write(&p, s).unwrap();
        p
    };
    let (o, a, b) = (f("O", base), f("A", ours), f("B", theirs));
    let out = Command::new(EXE)
        .current_dir(dir.path())
        .arg("merge-sidecar")
        .args([&o, &a, &b])
        .arg(".threads/x.md.json")
        .output()
        .unwrap();
    (
        out.status.code(),
        std::fs::read_to_string(&a).unwrap(),
        text(&out.stderr),
    )
}

#[test]
fn a_record_changed_on_both_sides_is_resolved_by_value_and_reported() {
    let base = sidecar("resolved", "first", 3, None);
    let ours = sidecar("open", "first (edited by A)", 5, None);
    let theirs = sidecar("wontfix", "first (edited by B)", 4, None);
    let (code, merged, err) = drive(&base, &ours, &theirs);
    assert_eq!(code, Some(0), "{err}");
    assert_canonical(&merged);
    let v: Value = serde_json::from_str(&merged).unwrap();
    // An open thread stays open; of two edited bodies the greater (canonical JSON) wins;
    // both line moves add up: 5 + 4 − 3.
    assert_eq!(v["threads"][0]["status"], "open");
    assert_eq!(v["threads"][0]["comments"][0]["body"], "first (edited by B)");
    assert_eq!(v["anchors"]["a_1"]["fingerprint"]["lineHint"], 6);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "one line per conflict: {err}");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("cowriting merge-sidecar: .threads/x.md.json: ")),
        "{err}"
    );
    assert!(
        err.contains("thread t_1 status: changed on both sides")
            && err.contains("kept ours: an open thread stays open"),
        "{err}"
    );
    assert!(
        err.contains("thread t_1 comment c_1 body:") && err.contains("kept theirs: the greater value"),
        "{err}"
    );
    assert!(
        err.contains("anchor a_1 fingerprint.lineHint:") && err.contains("6: both moves applied"),
        "{err}"
    );

    // Sides swapped: the same sidecar, byte for byte; the report names the other side.
    let (code, swapped, err2) = drive(&base, &theirs, &ours);
    assert_eq!(code, Some(0));
    assert_eq!(
        swapped, merged,
        "the rule does not depend on which branch is ours"
    );
    assert!(err2.contains("kept theirs: an open thread stays open"), "{err2}");
    assert!(err2.contains("kept ours: the greater value"), "{err2}");

    // No base (both sides created the sidecar): a field they disagree on is reported too.
    let (code, _, err3) = drive("", &ours, &theirs);
    assert_eq!(code, Some(0));
    assert!(err3.contains("thread t_1 status: added on both sides"), "{err3}");
}

#[test]
fn removal_and_change_on_different_sides() {
    // Proposal decided on ours (removed), annotated on theirs: the decision wins.
    // Thread deleted on theirs, replied to (edited) on ours: the conversation wins.
    let base = sidecar("open", "first", 0, Some(proposal(None)));
    let ours = sidecar("open", "first, edited", 0, None);
    let mut theirs: Value =
        serde_json::from_str(&sidecar("open", "first", 0, Some(proposal(Some(("note", "x")))))).unwrap();
    theirs["threads"] = json!([]);
    let (code, merged, err) = drive(&base, &ours, &to_js_json(&theirs));
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&merged).unwrap();
    assert!(v["proposals"].as_array().unwrap().is_empty());
    assert_eq!(v["threads"][0]["comments"][0]["body"], "first, edited");
    assert!(
        v["anchors"].get("a_2").is_none(),
        "the decided proposal's anchor is pruned"
    );
    assert!(
        err.contains(
            "proposal pr_1: removed on ours, changed on theirs; removed: a decided proposal stays decided"
        ),
        "{err}"
    );
    assert!(
        err.contains("thread t_1: removed on theirs, changed on ours; kept ours"),
        "{err}"
    );
    // Removed on one side and untouched on the other: removed, silently.
    let (code, merged, err) = drive(&base, &sidecar("open", "first", 0, None), &base);
    assert_eq!(code, Some(0));
    assert!(err.is_empty(), "{err}");
    assert!(serde_json::from_str::<Value>(&merged).unwrap()["proposals"]
        .as_array()
        .unwrap()
        .is_empty());
}

#[test]
fn an_unreadable_or_newer_side_leaves_ours_untouched_and_fails() {
    let base = sidecar("open", "first", 0, None);
    let ours = sidecar("open", "mine", 0, None);
    let (code, after, err) = drive(&base, &ours, "{ \"schemaVersion\": 1, oops");
    assert_eq!(code, Some(4), "{err}");
    assert_eq!(after, ours);
    assert!(
        err.contains(".threads/x.md.json (theirs)") && err.contains("line 1"),
        "{err}"
    );
    let (code, after, err) = drive(&base, &ours, "{\"schemaVersion\": 2, \"docPath\": \"x.md\"}\n");
    assert_eq!(code, Some(3), "{err}");
    assert_eq!(after, ours);
    assert!(err.contains("newer"), "{err}");
}

#[test]
fn a_proposal_accepted_on_one_branch_is_gone_after_the_merge() {
    let r = Repo::new();
    r.write("docs/notes.md", DOC);
    let p = r.propose("lazy dog", "sleepy cat", "claude");
    r.commit_all("base");
    r.cw(&["git", "install"]);

    r.git(&["checkout", "-q", "-b", "a"]);
    r.cw(&["accept", "docs/notes.md", &p]);
    r.commit_all("accept");
    r.git(&["checkout", "-q", "main"]);
    let q = r.propose("quick brown", "slow red", "claude");
    r.commit_all("another proposal");

    r.git(&["merge", "-q", "--no-edit", "a"]);
    let v = r.sidecar_json();
    assert_eq!(ids(&v, "proposals"), vec![q]);
    assert_eq!(v["attributions"].as_array().unwrap().len(), 2, "sleepy, cat");
    assert!(r.read("docs/notes.md").contains("the sleepy cat."));
    assert_canonical(&r.sidecar());
    assert_eq!(r.run_cw(&["check"]).status.code(), Some(0));
    let spans = r.cw(&["spans", "docs/notes.md"]);
    assert!(
        spans.contains("\"sleepy\"") && spans.contains("\"cat\""),
        "{spans}"
    );
}

#[test]
fn install_is_idempotent_and_never_overwrites_a_foreign_hook() {
    let r = Repo::new();
    r.write(".gitattributes", "*.png binary");
    let first = r.cw(&["git", "install"]);
    assert!(
        first.contains("added `.threads/**/*.json merge=cowriting-sidecar`"),
        "{first}"
    );
    assert!(first.contains("installed"), "{first}");
    let hook_path = r.file(".git/hooks/prepare-commit-msg");
    let hook = std::fs::read_to_string(&hook_path).unwrap();
    assert!(hook.starts_with("#!/bin/sh\n"));
    assert!(
        hook.contains(&format!("exec {EXE} git hook prepare-commit-msg \"$1\" \"$2\"")),
        "{hook}"
    );
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&hook_path).unwrap().permissions().mode();
        assert_eq!(mode & 0o111, 0o111, "{mode:o}");
    }
    let driver = r.git(&["config", "--local", "--get", "merge.cowriting-sidecar.driver"]);
    assert_eq!(driver.trim(), format!("{EXE} merge-sidecar %O %A %B %P"));
    assert!(!r
        .git(&["config", "--local", "--get", "merge.cowriting-sidecar.name"])
        .trim()
        .is_empty());

    let second = r.cw(&["git", "install"]);
    assert!(second.contains("nothing changed"), "{second}");
    assert!(second.contains("already"), "{second}");
    assert_eq!(
        r.read(".gitattributes"),
        "*.png binary\n.threads/**/*.json merge=cowriting-sidecar\n\
         .cowriting/suggestions/**/*.json merge=cowriting-sidecar\n.cowriting/decisions.jsonl merge=union\n"
    );
    assert_eq!(std::fs::read_to_string(&hook_path).unwrap(), hook);
    assert_eq!(
        r.git(&["config", "--local", "--get-all", "merge.cowriting-sidecar.driver"])
            .lines()
            .count(),
        1
    );

    // A foreign hook, under core.hooksPath: left as it is, and the output says so.
    let r = Repo::new();
    r.git(&["config", "core.hooksPath", ".githooks"]);
    r.write(".githooks/prepare-commit-msg", "#!/bin/sh\necho mine\n");
    let out = r.cw(&["git", "install"]);
    assert!(out.contains(".githooks/prepare-commit-msg"), "{out}");
    assert!(out.contains("left untouched"), "{out}");
    assert!(
        out.contains("git hook prepare-commit-msg"),
        "says how to chain it: {out}"
    );
    assert_eq!(r.read(".githooks/prepare-commit-msg"), "#!/bin/sh\necho mine\n");
    assert!(!r.file(".git/hooks/prepare-commit-msg").exists());
    // Outside a repository: a clear error.
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(EXE)
        .env("GIT_CEILING_DIRECTORIES", dir.path().parent().unwrap())
        .arg("-w")
        .arg(dir.path())
        .args(["git", "install"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not inside a git repository"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn commits_credit_agents_whose_text_they_add() {
    let r = Repo::new();
    // This repository asked for Co-authored-by (the default is Assisted-by: below).
    let out = r.cw(&["git", "install", "--trailer", "co-authored-by"]);
    assert!(out.contains("co-authored-by"), "{out}");
    r.write("docs/notes.md", DOC);
    let p = r.propose("quick brown", "slow red", "claude");
    r.cw(&["accept", "docs/notes.md", &p]);
    // The first commit (no HEAD yet) adds Claude's words.
    r.commit_all("msg");
    assert_eq!(r.last_message(), format!("msg\n\n{CLAUDE}\n"));

    // Human words only (far from Claude's): no trailer.
    r.write(
        "docs/notes.md",
        &format!("{}\nHuman words at the end.\n", r.read("docs/notes.md")),
    );
    r.commit_all("human");
    assert_eq!(r.last_message(), "human\n");

    // Claude and another agent; the message already credits Claude (any case).
    let p = r.propose("lazy dog", "sleepy cat", "claude");
    r.cw(&["accept", "docs/notes.md", &p]);
    let p = r.propose("more words", "other words", "vale");
    r.cw(&["accept", "docs/notes.md", &p]);
    // An editor left untouched still aborts the commit: the trailer is only a comment.
    let out = r.run_git(&["commit", "-a"]);
    assert!(
        !out.status.success(),
        "an empty message must abort: {}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stderr).contains("empty commit message"),
        "{}",
        text(&out.stderr)
    );
    r.git(&[
        "commit",
        "-q",
        "-a",
        "-m",
        "two\n\nco-authored-by: Claude <NOREPLY@anthropic.com>",
    ]);
    let msg = r.last_message();
    assert_eq!(
        msg,
        "two\n\nco-authored-by: Claude <NOREPLY@anthropic.com>\nCo-authored-by: vale <vale@users.noreply.cowriting>\n"
    );

    // A rule checker's fix accepted (Harper, as Check document files it: no
    // model) is the writer's choice of a correction: no co-author.
    let p = r.cw(&[
        "propose",
        "docs/notes.md",
        "--find",
        "Human words",
        "--replace",
        "Human-written words",
        "--agent",
        "harper",
    ]);
    r.cw(&["accept", "docs/notes.md", &p]);
    assert!(r.read("docs/notes.md").contains("Human-written words"));
    r.commit_all("fix");
    assert_eq!(r.last_message(), "fix\n");
}

/// By default a commit says `Assisted-by: AGENT:MODEL` for each agent whose
/// text it adds (never a rule checker); `none` adds nothing; a bad style is
/// refused; the user's `[git] trailer` is the default a repository's choice
/// overrides.
#[test]
fn commits_say_assisted_by_agent_and_model_by_default() {
    let r = Repo::new();
    r.cw(&["git", "install"]);
    r.write("docs/notes.md", DOC);
    let p = r.propose("quick brown", "slow red", "claude");
    r.cw(&["accept", "docs/notes.md", &p]);
    let p = r.propose("lazy dog", "sleepy cat", "my bot");
    r.cw(&["accept", "docs/notes.md", &p]);
    r.commit_all("msg");
    assert_eq!(
        r.last_message(),
        "msg\n\nAssisted-by: claude:sonnet\nAssisted-by: my-bot:sonnet\n"
    );
    // Said already (any case): not added again.
    let p = r.propose("more words", "other words", "claude");
    r.cw(&["accept", "docs/notes.md", &p]);
    r.git(&["commit", "-q", "-a", "-m", "two\n\nassisted-by: CLAUDE:sonnet"]);
    assert_eq!(r.last_message(), "two\n\nassisted-by: CLAUDE:sonnet\n");

    // None: nothing added.
    let out = r.cw(&["git", "install", "--trailer", "none"]);
    assert!(out.contains("none"), "{out}");
    r.write(
        "docs/notes.md",
        &format!("{}\nOne more line.\n", r.read("docs/notes.md")),
    );
    let p = r.propose("One more line", "One last line", "claude");
    r.cw(&["accept", "docs/notes.md", &p]);
    r.commit_all("three");
    assert_eq!(r.last_message(), "three\n");

    let bad = r.run_cw(&["git", "install", "--trailer", "signed-off-by"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("assisted-by, co-authored-by or none"),
        "{}",
        text(&bad.stderr)
    );
    assert_eq!(r.git(&["config", "--local", "cowriting.trailer"]).trim(), "none");
}

#[test]
fn install_never_writes_through_a_symlinked_gitattributes_or_hook() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().unwrap();
    let bashrc = outside.path().join("bashrc");
    std::fs::write(&bashrc, "alias ls='ls --color'\n").unwrap();
    let refused = |r: &Repo, want: &str| {
        let out = r.run_cw(&["git", "install"]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        assert!(err.contains(want), "{err}");
        assert_eq!(
            std::fs::read_to_string(&bashrc).unwrap(),
            "alias ls='ls --color'\n"
        );
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 1);
        // Nothing was set up halfway.
        assert!(r
            .run_git(&["config", "--local", "--get", "merge.cowriting-sidecar.driver"])
            .stdout
            .is_empty());
    };

    // .gitattributes → a file outside: refused, not followed, not replaced.
    let r = Repo::new();
    symlink(&bashrc, r.file(".gitattributes")).unwrap();
    refused(&r, ".gitattributes: a symlink");
    assert!(std::fs::symlink_metadata(r.file(".gitattributes"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(!r.file(".git/hooks/prepare-commit-msg").exists());

    // .gitattributes → a file inside: refused too (our own files are never links).
    let r = Repo::new();
    r.write("attrs.txt", "*.png binary\n");
    symlink("attrs.txt", r.file(".gitattributes")).unwrap();
    refused(&r, ".gitattributes: a symlink");
    assert_eq!(r.read("attrs.txt"), "*.png binary\n");

    // The hook file → outside.
    let r = Repo::new();
    symlink(&bashrc, r.file(".git/hooks/prepare-commit-msg")).unwrap();
    refused(&r, "prepare-commit-msg: a symlink");
    assert!(!r.file(".gitattributes").exists());

    // The hooks folder → outside.
    let r = Repo::new();
    std::fs::remove_dir_all(r.file(".git/hooks")).unwrap();
    symlink(outside.path(), r.file(".git/hooks")).unwrap();
    refused(&r, "hooks: a symlink");

    // core.hooksPath inside the work tree, through a symlinked folder.
    let r = Repo::new();
    r.git(&["config", "core.hooksPath", ".githooks/sub"]);
    symlink(outside.path(), r.file(".githooks")).unwrap();
    refused(&r, ".githooks: a symlink");

    // A FIFO where the hook goes: refused at once, not read.
    let r = Repo::new();
    assert!(Command::new("mkfifo")
        .arg(r.file(".git/hooks/prepare-commit-msg"))
        .status()
        .unwrap()
        .success());
    let out = r.run_cw(&["git", "install"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("not a regular file"),
        "{}",
        text(&out.stderr)
    );
}
