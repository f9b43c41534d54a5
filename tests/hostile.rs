//! A hostile repository: a cloned workspace whose own files (`.cowriting/`,
//! `.threads/`, `.gitattributes`) are symlinks to a folder outside it, a FIFO
//! where a document should be, long names (250 bytes end to end, 255 bytes as
//! far as a file name allows, a 2,000-folder-deep path), and bodies made to
//! look like shell. The real `cowriting` binary runs on it; every file of the
//! "outside" sibling folder is hashed before and after, and must not change.
//! Where cowriting refuses, it says so in one line on stderr with the bad_input
//! exit code (2), and does so fast (a FIFO must not hang a read). Refused and
//! read-only commands leave the tree as it was.

use assert_cmd::Command;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

/// Far more than any command here needs; a hang runs into it.
const BOUND: Duration = Duration::from_secs(60);
/// What "at once" means for a refusal.
const FAST: Duration = Duration::from_secs(20);
const BASHRC: &str = "export PATH=$HOME/bin:$PATH\nalias ll='ls -l'\n";

/// `<tmp>/ws` (the workspace) beside `<tmp>/outside` (what must never change).
struct Hostile {
    root: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl Hostile {
    fn new() -> Hostile {
        let h = Hostile {
            root: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
        };
        std::fs::write(
            h.home.path().join(".gitconfig"),
            "[user]\n\temail = writer@example.com\n\tname = Writer\n",
        )
        .unwrap();
        std::fs::create_dir_all(h.ws()).unwrap();
        std::fs::create_dir_all(h.outside().join("ledger")).unwrap();
        std::fs::create_dir_all(h.outside().join("threads")).unwrap();
        std::fs::write(h.outside().join("bashrc"), BASHRC).unwrap();
        std::fs::write(h.outside().join("ledger/keep.txt"), "keep\n").unwrap();
        std::fs::write(h.outside().join("x.md.json"), "{\"not\": \"yours\"}\n").unwrap();
        h.write("a.md", "The quick brown fox jumps over the lazy dog.\n");
        h
    }

    fn ws(&self) -> PathBuf {
        self.root.path().join("ws")
    }

    fn outside(&self) -> PathBuf {
        self.root.path().join("outside")
    }

    fn file(&self, rel: &str) -> PathBuf {
        self.ws().join(rel)
    }

    fn write(&self, rel: &str, text: &str) {
        let p = self.file(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.file(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    /// `ws/<rel>` becomes a symlink to `target`.
    fn link(&self, rel: &str, target: &Path) {
        let p = self.file(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        symlink(target, p).unwrap();
    }

    fn fifo(&self, rel: &str) {
        let st = std::process::Command::new("mkfifo")
            .arg(self.file(rel))
            .status()
            .unwrap();
        assert!(st.success());
    }

    /// Every entry under the outside folder (and /tmp/pwned-like markers in
    /// it): its kind and, for files, the hash of its bytes. Never follows links,
    /// never opens anything but regular files.
    fn outside_state(&self) -> BTreeMap<PathBuf, String> {
        let mut out = BTreeMap::new();
        let mut stack = vec![self.outside()];
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(&dir).unwrap().flatten() {
                let p = e.path();
                let m = std::fs::symlink_metadata(&p).unwrap();
                let v = if m.is_dir() {
                    stack.push(p.clone());
                    "dir".to_owned()
                } else if m.is_file() {
                    format!("{:x}", Sha256::digest(std::fs::read(&p).unwrap()))
                } else {
                    format!("{:?}", m.file_type())
                };
                out.insert(p, v);
            }
        }
        out
    }

    /// Run `cowriting -w ws <args>` (bounded by [`BOUND`]); the output and how long it took.
    fn run(&self, args: &[&str]) -> (Output, Duration) {
        let started = Instant::now();
        let out = Command::cargo_bin("cowriting")
            .unwrap()
            .env("HOME", self.home.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("USER", "tester")
            .env("XDG_DATA_HOME", self.home.path().join("data"))
            .current_dir(self.ws())
            .arg("-w")
            .arg(self.ws())
            .args(args)
            .timeout(BOUND)
            .output()
            .unwrap();
        let took = started.elapsed();
        assert!(took < BOUND, "cowriting {args:?} did not finish within {BOUND:?}");
        (out, took)
    }

    /// Run; expect success; stdout.
    fn ok(&self, args: &[&str]) -> String {
        let (out, _) = self.run(args);
        assert!(
            out.status.success(),
            "cowriting {args:?} failed ({:?}): {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Run; expect a fast refusal with exit 2 and one line on stderr that
    /// contains every one of `want`; stderr.
    fn refused(&self, args: &[&str], want: &[&str]) -> String {
        let (out, took) = self.run(args);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(
            out.status.code(),
            Some(2),
            "cowriting {args:?}: stdout {} stderr {err}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert_eq!(
            err.trim_end().lines().count(),
            1,
            "{args:?}: errors are one line: {err:?}"
        );
        for w in want {
            assert!(err.contains(w), "{args:?}: {err:?} does not say {w:?}");
        }
        assert!(took < FAST, "{args:?} took {took:?} to refuse");
        err
    }

    /// Run; it may succeed or fail, but within the bound and (when it fails)
    /// with a short message rather than a hang or a crash.
    fn settles(&self, args: &[&str]) -> Output {
        let (out, took) = self.run(args);
        assert!(took < FAST, "{args:?} took {took:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        out
    }

    fn propose(&self, doc: &str, find: &str, replace: &str) -> String {
        self.ok(&["propose", doc, "--find", find, "--replace", replace])
            .trim()
            .to_owned()
    }
}

/// The commands a writer or an agent runs on one document.
const FIND: &str = "quick";

#[test]
fn symlinked_threads_folder_and_sidecar_are_refused() {
    // .threads/ → a folder outside.
    let h = Hostile::new();
    h.link(".threads", &h.outside().join("threads"));
    let before = h.outside_state();
    h.refused(
        &["propose", "a.md", "--find", FIND, "--replace", "slow"],
        &[".threads: a symlink"],
    );
    h.refused(
        &["thread", "new", "a.md", "--find", FIND, "--body", "hm"],
        &[".threads: a symlink"],
    );
    h.refused(&["accept", "a.md", "pr_x"], &[".threads: a symlink"]);
    h.refused(&["reject", "a.md", "pr_x"], &[".threads: a symlink"]);
    h.settles(&["status"]);
    h.settles(&["check"]);
    h.settles(&["check", "a.md"]);
    assert_eq!(h.outside_state(), before);
    assert_eq!(h.read("a.md"), "The quick brown fox jumps over the lazy dog.\n");

    // .threads/x.md.json → a file outside.
    let h = Hostile::new();
    h.write("x.md", "The quick fox.\n");
    std::fs::create_dir(h.file(".threads")).unwrap();
    h.link(".threads/x.md.json", &h.outside().join("x.md.json"));
    let before = h.outside_state();
    h.refused(
        &["propose", "x.md", "--find", FIND, "--replace", "slow"],
        &[".threads/x.md.json: a symlink"],
    );
    h.refused(
        &["thread", "new", "x.md", "--find", FIND, "--body", "hm"],
        &[".threads/x.md.json: a symlink"],
    );
    h.refused(&["accept", "x.md", "pr_x"], &[".threads/x.md.json: a symlink"]);
    h.settles(&["status"]);
    let check = h.settles(&["check"]);
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(!check.status.success(), "check reports the link: {report}");
    assert!(report.contains("a symlink"), "{report}");
    assert!(!report.contains("yours"), "the target was not read: {report}");
    assert_eq!(h.outside_state(), before);
    // Other documents still work.
    h.propose("a.md", FIND, "slow");
    assert_eq!(h.outside_state(), before);
}

#[test]
fn symlinked_ledger_folder_is_refused() {
    let h = Hostile::new();
    h.link(".cowriting", &h.outside().join("ledger"));
    let before = h.outside_state();
    h.refused(
        &["propose", "a.md", "--find", FIND, "--replace", "slow"],
        &[".cowriting: a symlink"],
    );
    h.settles(&["status"]);
    h.settles(&["check"]);
    assert_eq!(h.outside_state(), before);
}

#[test]
fn symlinked_suggestions_folder_is_refused() {
    let h = Hostile::new();
    std::fs::create_dir(h.file(".cowriting")).unwrap();
    h.link(".cowriting/suggestions", &h.outside().join("ledger"));
    let before = h.outside_state();
    h.refused(
        &["propose", "a.md", "--find", FIND, "--replace", "slow"],
        &[".cowriting/suggestions: a symlink"],
    );
    h.settles(&["status"]);
    assert_eq!(h.outside_state(), before);
}

#[test]
fn symlinked_decision_log_is_never_appended_to() {
    let h = Hostile::new();
    std::fs::create_dir(h.file(".cowriting")).unwrap();
    h.link(".cowriting/decisions.jsonl", &h.outside().join("bashrc"));
    let before = h.outside_state();
    // Filing may be refused already; deciding must be.
    let (out, _) = h.run(&["propose", "a.md", "--find", FIND, "--replace", "slow"]);
    let id = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    let id = if id.is_empty() { "pr_x".to_owned() } else { id };
    for cmd in ["accept", "reject"] {
        h.refused(&[cmd, "a.md", &id], &[".cowriting/decisions.jsonl: a symlink"]);
        assert_eq!(h.read("a.md"), "The quick brown fox jumps over the lazy dog.\n");
    }
    h.settles(&["status"]);
    h.settles(&["check"]);
    assert_eq!(h.outside_state(), before);
    assert_eq!(
        std::fs::read_to_string(h.outside().join("bashrc")).unwrap(),
        BASHRC
    );
}

#[test]
fn a_fifo_document_fails_fast_everywhere() {
    let h = Hostile::new();
    h.fifo("doc.md");
    let before = h.outside_state();
    let fifo = ["doc.md: not a regular file (a FIFO)"];
    h.refused(&["propose", "doc.md", "--find", FIND, "--replace", "slow"], &fifo);
    h.refused(
        &["thread", "new", "doc.md", "--find", FIND, "--body", "hm"],
        &fifo,
    );
    h.refused(&["accept", "doc.md", "pr_x"], &fifo);
    h.refused(&["reject", "doc.md", "pr_x"], &fifo);
    h.refused(&["proposals", "doc.md"], &fifo);
    let status = h.settles(&["status"]);
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let listed = String::from_utf8_lossy(&status.stdout);
    assert!(!listed.contains("doc.md"), "a FIFO is not listed: {listed}");
    h.settles(&["check"]);
    h.settles(&["check", "doc.md"]);
    // A FIFO sidecar is refused, not read, too.
    std::fs::create_dir(h.file(".threads")).unwrap();
    h.fifo(".threads/a.md.json");
    h.refused(
        &["propose", "a.md", "--find", FIND, "--replace", "slow"],
        &[".threads/a.md.json: not a regular file (a FIFO)"],
    );
    h.settles(&["check"]);
    h.settles(&["status"]);
    assert_eq!(h.outside_state(), before);
}

#[test]
fn a_symlinked_document_is_written_through_inside_and_refused_out() {
    let h = Hostile::new();
    h.link("alias.md", Path::new("a.md"));
    std::fs::write(h.outside().join("secret.md"), "The quick secret.\n").unwrap();
    h.link("secret.md", &h.outside().join("secret.md"));
    let before = h.outside_state();
    let id = h.propose("alias.md", FIND, "slow");
    h.ok(&["accept", "alias.md", &id]);
    assert_eq!(h.read("a.md"), "The slow brown fox jumps over the lazy dog.\n");
    assert!(std::fs::symlink_metadata(h.file("alias.md"))
        .unwrap()
        .file_type()
        .is_symlink());
    h.refused(
        &["propose", "secret.md", "--find", FIND, "--replace", "x"],
        &["secret.md: path is outside the workspace"],
    );
    h.refused(
        &["thread", "new", "secret.md", "--find", FIND, "--body", "x"],
        &["outside the workspace"],
    );
    h.settles(&["status"]);
    h.settles(&["check"]);
    assert_eq!(h.outside_state(), before);
}

#[test]
fn only_documents_outside_reserved_folders_are_documents() {
    let h = Hostile::new();
    h.write(".env", "KEY=secret\n");
    h.write("sub/.git/config", "[core]\n");
    h.write("sub/.git/HEAD.md", "ref\n");
    for (doc, want) in [
        (".env", ".env: not a document"),
        ("sub/.git/config", ".git is not a document folder"),
        ("sub/.git/HEAD.md", ".git is not a document folder"),
        (
            ".cowriting/decisions.jsonl",
            ".cowriting is not a document folder",
        ),
    ] {
        h.refused(&["propose", doc, "--find", "e", "--replace", "x"], &[want]);
    }
    assert_eq!(h.read(".env"), "KEY=secret\n");
    assert!(!h.file(".threads").exists());
}

#[test]
fn a_symlinked_gitattributes_is_refused_by_git_install() {
    let h = Hostile::new();
    let st = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(h.ws())
        .env("HOME", h.home.path())
        .status()
        .unwrap();
    assert!(st.success());
    h.link(".gitattributes", &h.outside().join("bashrc"));
    let before = h.outside_state();
    h.refused(&["git", "install"], &[".gitattributes: a symlink"]);
    assert_eq!(h.outside_state(), before);
    assert!(!h.file(".git/hooks/prepare-commit-msg").exists());
    assert!(std::fs::symlink_metadata(h.file(".gitattributes"))
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn a_250_byte_document_name_works() {
    let h = Hostile::new();
    let name = format!("{}.md", "n".repeat(247));
    assert_eq!(name.len(), 250);
    h.write(&name, "The quick brown fox.\n");
    let before = h.outside_state();
    let (out, _) = h.run(&["propose", &name, "--find", FIND, "--replace", "slow"]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        // Refused is acceptable only as one clear line (the sidecar's name,
        // `.threads/<name>.json`, is 255 bytes: the longest a file name can be).
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        panic!("a 250-byte name should work: {err}");
    }
    let id = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    h.ok(&["accept", &name, &id]);
    assert_eq!(h.read(&name), "The slow brown fox.\n");
    h.ok(&["thread", "new", &name, "--find", "fox", "--body", "long names"]);
    h.ok(&["status"]);
    h.ok(&["check"]);
    // Renamed into a folder under another 250-byte name: the review data and
    // the decision follow it.
    let moved = format!("moved/{}.md", "m".repeat(247));
    h.ok(&["rename", &name, &moved]);
    assert_eq!(h.read(&moved), "The slow brown fox.\n");
    let threads = h.ok(&["threads", &moved]);
    assert!(threads.contains("long names"), "{threads}");
    let decisions = h.ok(&["--json", "decisions", &moved]);
    assert!(decisions.contains(&id), "{decisions}");
    h.ok(&["check"]);
    // Deleted with its review data; a new document of the name starts empty.
    h.ok(&["delete", &moved]);
    for rel in [moved.clone(), format!(".threads/{moved}.json")] {
        assert!(
            std::fs::symlink_metadata(h.file(&rel)).is_err(),
            "{rel} is still there"
        );
    }
    // In the trash under a shorter name (the trash's own `<name>.trashinfo`
    // would be too long), every byte there.
    let trashed: Vec<String> = std::fs::read_dir(h.home.path().join("data/Trash/files"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert_eq!(trashed.len(), 2, "the document and its sidecar");
    assert!(trashed.contains(&"The slow brown fox.\n".to_owned()));
    assert!(trashed.iter().any(|t| t.contains("long names")));
    h.ok(&["new", &moved]);
    let threads = h.ok(&["--json", "threads", &moved]);
    assert!(!threads.contains("long names"), "{threads}");
    assert_eq!(h.outside_state(), before);
    assert_eq!(lock_files(&h), Vec::<String>::new());
}

/// The lock files in `.cowriting/locks` (its `.gitignore` aside).
fn lock_files(h: &Hostile) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(h.file(".cowriting/locks"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".gitignore")
        .collect();
    v.sort();
    v
}

/// Every path under `dir` (recursively) with what it is and, for a file, its bytes.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            if m.is_dir() {
                stack.push(p.clone());
                out.insert(p, b"<dir>".to_vec());
            } else {
                out.insert(p.clone(), std::fs::read(&p).unwrap_or_default());
            }
        }
    }
    out
}

/// The longest name a file may have, 255 bytes, is a document like any other:
/// made, listed, edited, renamed, deleted. Its review data cannot be kept
/// (`.threads/<name>.json` would be 260 bytes, and that place is VS Code's):
/// a proposal or a thread is refused as bad input in one line saying so, with
/// nothing left behind; renamed to a shorter name it is reviewed, decided,
/// and a rename back is refused while it has review data.
#[test]
fn a_255_byte_document_name_works_as_far_as_a_file_name_allows() {
    let h = Hostile::new();
    let name = format!("{}.md", "n".repeat(252));
    let other = format!("{}.md", "m".repeat(252));
    assert_eq!(name.len(), 255);
    h.ok(&["new", &name]);
    h.write(&name, "The quick brown fox.\n");
    let before = h.outside_state();
    let status = h.ok(&["--json", "status"]);
    assert!(status.contains(&name), "{status}");
    h.ok(&["proposals", &name]);
    h.ok(&["threads", &name]);
    h.ok(&["check"]);
    let state = tree(&h.ws());
    for args in [
        vec!["propose", &name, "--find", FIND, "--replace", "slow"],
        vec!["thread", "new", &name, "--find", "fox", "--body", "x"],
    ] {
        let (out, _) = h.run(&args);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains("more than 250 bytes can have no proposals or threads"),
            "{err}"
        );
        assert_eq!(tree(&h.ws()), state, "{args:?} left something behind");
    }
    h.ok(&["rename", &name, &other]);
    h.ok(&["rename", &other, "short.md"]);
    let id = h.ok(&["propose", "short.md", "--find", FIND, "--replace", "slow"]);
    h.ok(&["accept", "short.md", id.trim()]);
    h.ok(&["thread", "new", "short.md", "--find", "fox", "--body", "kept"]);
    let (out, _) = h.run(&["rename", "short.md", &name]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(h.read("short.md"), "The slow brown fox.\n");
    assert!(h.ok(&["threads", "short.md"]).contains("kept"));
    // Without review data it goes back to the long name, and is deleted there.
    h.ok(&["rename", "short.md", "plain.md"]);
    h.ok(&["delete", "plain.md"]);
    h.ok(&["new", &name]);
    h.ok(&["delete", &name]);
    assert!(std::fs::symlink_metadata(h.file(&name)).is_err());
    assert_eq!(h.outside_state(), before);
    assert_eq!(lock_files(&h), Vec::<String>::new());
}

/// A name 2,000 folders deep makes no folder chain among cowriting's own
/// files: refused where nothing is there, its lock flat and gone.
#[test]
fn a_2000_folder_deep_name_makes_no_folder_chain() {
    let h = Hostile::new();
    h.ok(&["propose", "a.md", "--find", FIND, "--replace", "slow"]);
    let deep = format!("{}x.md", "a/".repeat(2000));
    let state = tree(&h.ws());
    for args in [
        vec!["thread", "new", &deep, "--find", "x", "--body", "y"],
        vec!["propose", &deep, "--find", "x", "--replace", "y"],
        vec!["proposals", &deep],
        vec!["delete", &deep],
    ] {
        let (out, _) = h.run(&args);
        assert!(!out.status.success(), "{}", args[0]);
        assert_eq!(tree(&h.ws()), state, "{} left something behind", args[0]);
    }
}

/// A refused command leaves `.cowriting/locks` as it was; commands that only
/// read make no file at all, in a workspace never written and in one written.
#[test]
fn refused_and_read_only_commands_leave_the_tree_as_it_was() {
    let h = Hostile::new();
    let fresh = tree(&h.ws());
    for args in [
        vec!["status"],
        vec!["proposals", "a.md"],
        vec!["threads", "a.md"],
        vec!["spans", "a.md"],
        vec!["inbox"],
        vec!["check"],
        vec!["--json", "status", "a.md"],
    ] {
        h.ok(&args);
        assert_eq!(tree(&h.ws()), fresh, "{args:?} made a file in a fresh workspace");
    }
    let id = h.ok(&["propose", "a.md", "--find", FIND, "--replace", "slow"]);
    let written = tree(&h.ws());
    for args in [
        vec!["status"],
        vec!["proposals", "a.md"],
        vec!["threads", "a.md"],
        vec!["inbox"],
    ] {
        h.ok(&args);
        assert_eq!(tree(&h.ws()), written, "{args:?} changed the tree");
    }
    for args in [
        vec!["accept", "a.md", "pr_nosuchproposal"],
        vec!["thread", "new", "missing.md", "--find", "x", "--body", "y"],
        vec!["propose", "a.md", "--find", "no such text", "--replace", "y"],
        vec!["delete", "missing.md"],
        vec!["rename", "a.md", "a.md"],
        vec!["new", "a.md"],
    ] {
        let (out, _) = h.run(&args);
        assert!(!out.status.success(), "{args:?} should be refused");
        assert_eq!(tree(&h.ws()), written, "{args:?} left something behind");
    }
    h.ok(&["reject", "a.md", id.trim()]);
    assert_eq!(lock_files(&h), Vec::<String>::new());
}

#[test]
fn shell_looking_bodies_are_text_never_run() {
    let h = Hostile::new();
    let marker = h.outside().join("pwned");
    let nasty = format!(
        "$(touch {m}) `touch {m}` ; touch {m}\nsecond line\u{2028}after a line separator\u{2029}and a paragraph separator",
        m = marker.display()
    );
    let turn = format!("$(touch {}-turn)", marker.display());
    let before = h.outside_state();
    let id = h.propose("a.md", FIND, &nasty);
    let tid = h.ok(&["thread", "new", "a.md", "--find", "lazy", "--body", &nasty]);
    let tid = tid.trim();
    h.ok(&["thread", "reply", "a.md", tid, "--body", &nasty]);
    h.ok(&[
        "propose",
        "a.md",
        "--find",
        "dog",
        "--replace",
        "cat",
        "--instruction",
        &nasty,
        "--turn",
        &turn,
    ]);
    let status = h.ok(&["--json", "status"]);
    let _: serde_json::Value = serde_json::from_str(&status).expect("status is one JSON document");
    let proposals = h.ok(&["--json", "proposals", "a.md"]);
    let v: serde_json::Value = serde_json::from_str(&proposals).unwrap();
    assert!(
        v["proposals"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["replacement"] == nasty.as_str()),
        "{v}"
    );
    h.ok(&["check"]);
    // The sidecar holds the exact text (U+2028 and all), as JSON.
    let sidecar: serde_json::Value = serde_json::from_str(&h.read(".threads/a.md.json")).unwrap();
    assert_eq!(sidecar["threads"][0]["comments"][0]["body"], nasty.as_str());
    assert_eq!(sidecar["threads"][0]["comments"][1]["body"], nasty.as_str());
    // The line and paragraph separators are characters a reader cannot see:
    // accept asks first (exit 3), then writes the text literally into the document.
    assert!(
        v["proposals"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["hidden"].as_array().is_some_and(|h| h.len() == 2)),
        "{v}"
    );
    let (refused, _) = h.run(&["accept", "a.md", &id]);
    assert_eq!(
        refused.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    h.ok(&["accept", "a.md", &id, "--confirm-hidden"]);
    assert_eq!(
        h.read("a.md"),
        format!("The {nasty} brown fox jumps over the lazy dog.\n")
    );
    h.ok(&["reject", "a.md", &h.proposals_of("a.md")[0]]);
    assert!(!marker.exists(), "something ran a shell");
    assert!(
        !Path::new(&format!("{}-turn", marker.display())).exists(),
        "something ran a shell"
    );
    assert_eq!(h.outside_state(), before);
}

impl Hostile {
    fn proposals_of(&self, doc: &str) -> Vec<String> {
        let v: serde_json::Value = serde_json::from_str(&self.ok(&["--json", "proposals", doc])).unwrap();
        v["proposals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap().to_owned())
            .collect()
    }
}

#[test]
fn a_schema_version_past_u64_is_newer_not_corrupt() {
    let h = Hostile::new();
    let huge = r#"{"schemaVersion": 18446744073709551616, "docPath": "a.md", "future": true}"#;
    h.write(".threads/a.md.json", huge);
    let (out, _) = h.run(&["propose", "a.md", "--find", FIND, "--replace", "slow"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("is newer than this version of cowriting"), "{err}");
    assert!(err.contains("not overwritten"), "{err}");
    let (out, _) = h.run(&["check"]);
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(h.read(".threads/a.md.json"), huge);
}
