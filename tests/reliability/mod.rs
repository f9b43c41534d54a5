//! Helpers shared by the real-process reliability tests (`tests/concurrency.rs`,
//! `tests/crash.rs`): workspaces that can be copied, commands run as plain child
//! processes (so they can run at once, be killed, or be given a fault point), and
//! the on-disk checks (sidecar, ledger, decision log, leftover temp files).
#![allow(dead_code)]

#[path = "../common/mod.rs"]
mod common;

pub use common::Ws;
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Every wait on a child process is bounded by this (generous: a loaded 2-core
/// machine running a debug build). Nothing is ever asserted on timing.
pub const WAIT: Duration = Duration::from_secs(300);

/// The `cowriting` binary under test.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_cowriting"))
}

/// The shared test workspace (`tests/common`), copyable, with commands that run
/// as plain child processes.
pub struct Wsp(Ws);

impl std::ops::Deref for Wsp {
    type Target = Ws;
    fn deref(&self) -> &Ws {
        &self.0
    }
}

impl Wsp {
    pub fn new() -> Wsp {
        Wsp(Ws::new())
    }

    /// A fresh workspace holding a byte copy of every file of `self`.
    pub fn copy(&self) -> Wsp {
        let w = Wsp::new();
        copy_tree(self.path(), w.path());
        w
    }

    pub fn read_bytes(&self, rel: &str) -> Vec<u8> {
        std::fs::read(self.file(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    /// `cowriting -w <ws> --json <args…>`, not started.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(bin());
        c.env("HOME", self.home())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("USER", "tester")
            .env_remove("COWRITING_FAULT_AT")
            .arg("-w")
            .arg(self.path())
            .arg("--json")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c
    }

    /// Start `cowriting --json <args…>` with extra environment.
    pub fn spawn(&self, args: &[&str], env: &[(&str, String)]) -> Running {
        let mut c = self.command(args);
        for (k, v) in env {
            c.env(k, v);
        }
        Running::start(c, args)
    }

    /// Run to the end (bounded by [`WAIT`]).
    pub fn run(&self, args: &[&str]) -> Out {
        self.spawn(args, &[]).wait()
    }

    /// Run, expect exit 0, parse stdout as JSON.
    pub fn json(&self, args: &[&str]) -> Value {
        let out = self.run(args);
        assert!(out.ok(), "{}", out.describe());
        serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.describe()))
    }

    /// The sidecar of `doc` as JSON (Null when absent).
    pub fn sidecar(&self, doc: &str) -> Value {
        match std::fs::read_to_string(self.file(&format!(".threads/{doc}.json"))) {
            Ok(t) => serde_json::from_str(&t)
                .unwrap_or_else(|e| panic!("the sidecar of {doc} does not parse: {e}\n{t}")),
            Err(_) => Value::Null,
        }
    }

    /// The ledger's pending file of `doc` as text ("" when absent).
    pub fn pending_text(&self, doc: &str) -> String {
        std::fs::read_to_string(self.file(&format!(".cowriting/suggestions/{doc}.json"))).unwrap_or_default()
    }

    /// Whether the ledger's pending file of `doc` has an entry for `id`.
    pub fn pending_has(&self, doc: &str, id: &str) -> bool {
        self.pending_text(doc).contains(&format!("\"{id}\""))
    }

    /// Every line of `decisions.jsonl`, parsed (a line that does not parse is a
    /// failure: the log is append-only and must never be torn).
    pub fn decision_lines(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(self.file(".cowriting/decisions.jsonl")).unwrap_or_default();
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                serde_json::from_str(l)
                    .unwrap_or_else(|e| panic!("decisions.jsonl has a torn line ({e}): {l:?}"))
            })
            .collect()
    }

    /// The decision lines (not undo lines) naming sidecar proposal `id`.
    pub fn decisions_for(&self, id: &str) -> Vec<Value> {
        self.decision_lines()
            .into_iter()
            .filter(|d| d["sidecarProposalId"] == id && d.get("outcome").is_some())
            .collect()
    }

    /// Leftover temp files: anything named `*.tmp` or `*.renaming` (a rename's
    /// old sidecar moved aside), and dot-files other than the
    /// known ones, in the workspace root, `.threads/` and `.cowriting/` (recursively).
    pub fn leftovers(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![self.path().to_path_buf()];
        while let Some(d) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in rd.flatten() {
                let p = e.path();
                let name = e.file_name().to_string_lossy().into_owned();
                let rel = p
                    .strip_prefix(self.path())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                let known_dot = (d == self.path() && KNOWN_ROOT_DOTS.contains(&name.as_str()))
                    || (KNOWN_IGNORED_DIRS.iter().any(|k| d.ends_with(k)) && name == ".gitignore");
                if name.ends_with(".tmp")
                    || name.ends_with(".renaming")
                    || (name.starts_with('.') && !known_dot)
                {
                    out.push(rel);
                } else if p.is_dir() && name != ".git" {
                    stack.push(p);
                }
            }
        }
        out.sort();
        out
    }
}

/// Folders of runtime state (lock files, intent records) that keep a
/// `.gitignore` of their own.
pub const KNOWN_IGNORED_DIRS: &[&str] = &[".cowriting/locks", ".cowriting/txn"];

/// Dot-folders a workspace is expected to have at its root.
pub const KNOWN_ROOT_DOTS: &[&str] = &[".threads", ".cowriting", ".git"];

pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        let q = to.join(e.file_name());
        if p.is_dir() {
            copy_tree(&p, &q);
        } else {
            std::fs::copy(&p, &q).unwrap();
        }
    }
}

/// A child process whose output is drained by threads (so a full pipe never blocks it).
pub struct Running {
    pub args: Vec<String>,
    pub child: Child,
    out: Option<std::thread::JoinHandle<String>>,
    err: Option<std::thread::JoinHandle<String>>,
}

fn drain(r: Option<impl Read + Send + 'static>) -> Option<std::thread::JoinHandle<String>> {
    r.map(|mut r| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        })
    })
}

impl Running {
    pub fn start(mut c: Command, args: &[&str]) -> Running {
        let mut child = c.spawn().unwrap_or_else(|e| panic!("spawn {args:?}: {e}"));
        let out = drain(child.stdout.take());
        let err = drain(child.stderr.take());
        Running {
            args: args.iter().map(|s| s.to_string()).collect(),
            child,
            out,
            err,
        }
    }

    /// Whether it has exited (without waiting).
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// SIGKILL (no cleanup in the child).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
    }

    /// Wait for the end, at most [`WAIT`]; a child still running then is killed
    /// and reported as timed out.
    pub fn wait(mut self) -> Out {
        let deadline = Instant::now() + WAIT;
        let mut timed_out = false;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break s,
                Ok(None) if Instant::now() >= deadline => {
                    timed_out = true;
                    let _ = self.child.kill();
                    break self.child.wait().unwrap();
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(e) => panic!("wait {:?}: {e}", self.args),
            }
        };
        use std::os::unix::process::ExitStatusExt;
        Out {
            args: self.args,
            code: status.code(),
            signal: status.signal(),
            timed_out,
            stdout: self.out.take().map(|h| h.join().unwrap()).unwrap_or_default(),
            stderr: self.err.take().map(|h| h.join().unwrap()).unwrap_or_default(),
        }
    }
}

/// How a child process ended.
#[derive(Clone, Debug)]
pub struct Out {
    pub args: Vec<String>,
    pub code: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
}

impl Out {
    pub fn ok(&self) -> bool {
        self.code == Some(0) && !self.timed_out
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or(Value::Null)
    }

    pub fn describe(&self) -> String {
        format!(
            "cowriting {:?}: exit {:?} signal {:?}{} stdout {:?} stderr {:?}",
            self.args,
            self.code,
            self.signal,
            if self.timed_out { " (timed out)" } else { "" },
            self.stdout.trim(),
            self.stderr.trim()
        )
    }
}

/// Occurrences of `needle` in `hay`.
pub fn count(hay: &str, needle: &str) -> usize {
    hay.matches(needle).count()
}

/// The ids of the proposals in a sidecar.
pub fn proposal_ids(sidecar: &Value) -> Vec<String> {
    ids(&sidecar["proposals"])
}

/// The ids of the threads in a sidecar.
pub fn thread_ids(sidecar: &Value) -> Vec<String> {
    ids(&sidecar["threads"])
}

/// The comment ids of every thread of a sidecar.
pub fn comment_ids(sidecar: &Value) -> Vec<String> {
    sidecar["threads"]
        .as_array()
        .map(|ts| ts.iter().flat_map(|t| ids(&t["comments"])).collect())
        .unwrap_or_default()
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x["id"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}
