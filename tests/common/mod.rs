//! Helpers shared by the integration tests that drive the real `cowriting` binary.
#![allow(dead_code)]

pub mod git_repo;

use assert_cmd::Command;
use serde_json::Value;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// A temp workspace with its own HOME (so git identity is the test's own).
pub struct Ws {
    pub dir: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl Ws {
    pub fn new() -> Ws {
        let dir = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join(".gitconfig"),
            "[user]\n\temail = writer@example.com\n\tname = Writer\n",
        )
        .unwrap();
        Ws { dir, home }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The HOME the commands run with (its `.gitconfig` names the writer).
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    pub fn file(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) {
        let p = self.file(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.file(rel)).unwrap()
    }

    pub fn read_bytes(&self, rel: &str) -> Vec<u8> {
        std::fs::read(self.file(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    pub fn sidecar(&self, doc: &str) -> String {
        std::fs::read_to_string(self.file(&format!(".threads/{doc}.json"))).unwrap_or_default()
    }

    pub fn sidecar_json(&self, doc: &str) -> Value {
        serde_json::from_str(&self.sidecar(doc)).unwrap()
    }

    /// `cowriting -w <ws> <args…>`
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::cargo_bin("cowriting").unwrap();
        c.env("HOME", self.home.path())
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("COWRITING_CONFIG")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("USER", "tester")
            .arg("-w")
            .arg(self.path())
            .args(args);
        c
    }

    /// Run, expect success, return stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.cmd(args).output().unwrap();
        assert!(
            out.status.success(),
            "cowriting {args:?} failed ({:?}): {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Run with `--json`, expect success, parse stdout.
    pub fn json(&self, args: &[&str]) -> Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        serde_json::from_str(&self.ok(&all)).unwrap()
    }

    /// Run, expect exit `code`, return stderr.
    pub fn fails(&self, args: &[&str], code: i32) -> String {
        let out = self.cmd(args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(code),
            "cowriting {args:?}: stdout {} stderr {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "errors are one line: {err:?}");
        err
    }

    /// The proposals of `doc` as JSON values.
    pub fn proposals(&self, doc: &str) -> Vec<Value> {
        self.json(&["proposals", doc])["proposals"]
            .as_array()
            .unwrap()
            .clone()
    }

    /// Propose and return the id.
    pub fn propose(&self, doc: &str, find: &str, replace: &str) -> String {
        self.ok(&[
            "propose",
            doc,
            "--find",
            find,
            "--replace",
            replace,
            "--turn",
            "turn-1",
            "--model",
            "sonnet",
        ])
        .trim()
        .to_owned()
    }

    /// Every file under the workspace with its bytes (for "nothing changed" checks).
    pub fn snapshot(&self) -> Vec<(PathBuf, Vec<u8>)> {
        let mut out = Vec::new();
        let mut stack = vec![self.path().to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                // Lock files and intent records are runtime coordination state
                // (git-ignored), not workspace content.
                if p.ends_with(".cowriting/locks") || p.ends_with(".cowriting/txn") {
                    continue;
                }
                if p.is_dir() {
                    stack.push(p);
                } else {
                    out.push((p.clone(), std::fs::read(&p).unwrap()));
                }
            }
        }
        out.sort();
        out
    }
}

/// What a path in the tree is: its kind, size and modification time (a
/// folder's changes when a name is made or removed in it).
pub type Stat = (&'static str, u64, i64, i64);

/// Every path under `dir`, hidden ones (`.git`, `.cowriting`, `.threads`)
/// included, with [`Stat`]: what "a read makes and changes nothing" compares.
/// Links are not followed.
pub fn stat_tree(dir: &Path) -> std::collections::BTreeMap<PathBuf, Stat> {
    use std::os::unix::fs::MetadataExt;
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let Ok(m) = std::fs::symlink_metadata(&p) else {
                continue;
            };
            let kind = if m.is_dir() {
                stack.push(p.clone());
                "folder"
            } else if m.file_type().is_symlink() {
                "link"
            } else {
                "file"
            };
            out.insert(p, (kind, m.len(), m.mtime(), m.mtime_nsec()));
        }
    }
    let m = std::fs::metadata(dir).unwrap();
    out.insert(dir.to_path_buf(), ("folder", m.len(), m.mtime(), m.mtime_nsec()));
    out
}

/// What changed between two [`stat_tree`]s, one line a path.
pub fn tree_changes(
    before: &std::collections::BTreeMap<PathBuf, Stat>,
    after: &std::collections::BTreeMap<PathBuf, Stat>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (p, a) in after {
        match before.get(p) {
            None => out.push(format!("made {}", p.display())),
            Some(b) if b != a => out.push(format!("changed {}: {b:?} -> {a:?}", p.display())),
            Some(_) => {}
        }
    }
    for p in before.keys().filter(|p| !after.contains_key(*p)) {
        out.push(format!("removed {}", p.display()));
    }
    out
}

/// Runs node with `script`, `input` on stdin; its stdout. Panics when node is missing.
pub fn node(script: &str, input: &[u8]) -> Vec<u8> {
    let mut child = std::process::Command::new("node")
        .args(["-e", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("node is required for this test (`make test` installs it): {e}"));
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}
