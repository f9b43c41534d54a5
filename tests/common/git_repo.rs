//! A temp workspace that is a git repository, with its own HOME and no global or
//! system git config, for the tests that drive real `git` beside the real
//! `cowriting` binary (`tests/git.rs`, `tests/decided.rs`). Each test file adds
//! the helpers of its own (`impl Repo` in that file).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `cowriting` binary under test.
pub const EXE: &str = env!("CARGO_BIN_EXE_cowriting");

pub struct Repo {
    pub dir: tempfile::TempDir,
    pub home: tempfile::TempDir,
}

/// Bytes a process printed, as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

impl Repo {
    /// `git init -b main` in a new folder, the writer's identity in its config.
    pub fn init() -> Repo {
        let r = Repo {
            dir: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
        };
        r.git(&["init", "-q", "-b", "main"]);
        r.git(&["config", "user.name", "Writer"]);
        r.git(&["config", "user.email", "writer@example.com"]);
        r
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn file(&self, rel: &str) -> PathBuf {
        self.path().join(rel)
    }

    pub fn write(&self, rel: &str, content: &str) {
        let p = self.file(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.file(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    /// Run `c` in the repository, with its own HOME, the writer as author and
    /// committer, and nothing of the user's git or cowriting settings.
    pub fn isolate(&self, c: &mut Command) {
        c.current_dir(self.path())
            .env("HOME", self.home.path())
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "Writer")
            .env("GIT_AUTHOR_EMAIL", "writer@example.com")
            .env("GIT_COMMITTER_NAME", "Writer")
            .env("GIT_COMMITTER_EMAIL", "writer@example.com")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_EDITOR", "true")
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("COWRITING_CONFIG")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE");
    }

    pub fn run_git(&self, args: &[&str]) -> Output {
        let mut c = Command::new("git");
        self.isolate(&mut c);
        c.args(args).output().unwrap()
    }

    /// git, expected to succeed; returns stdout.
    pub fn git(&self, args: &[&str]) -> String {
        let out = self.run_git(args);
        assert!(
            out.status.success(),
            "git {args:?} failed: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        text(&out.stdout)
    }

    /// `cowriting -w <repo> <args…>`, isolated the same way.
    pub fn run_cw(&self, args: &[&str]) -> Output {
        let mut c = Command::new(EXE);
        self.isolate(&mut c);
        c.arg("-w").arg(self.path()).args(args).output().unwrap()
    }

    /// cowriting, expected to succeed; returns its output.
    pub fn cw_ok(&self, args: &[&str]) -> Output {
        let out = self.run_cw(args);
        assert!(
            out.status.success(),
            "cowriting {args:?} failed ({:?}): {}",
            out.status.code(),
            text(&out.stderr)
        );
        out
    }
}
