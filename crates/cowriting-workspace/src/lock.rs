//! Per-document advisory locks: the exclusion half of the one write protocol.
//!
//! Every read-modify-write of a document, its sidecar, its ledger entries or its
//! intent record holds the document's lock, an OS file lock (`flock` on
//! `W/.cowriting/locks/<docPath>.lock`, via [`std::fs::File::lock`]). The kernel
//! releases it when the process dies, so a crash never leaves a stale lock.
//! The lock files themselves are never removed (removing one while another
//! process waits on it would let two writers in); `locks/` holds a `.gitignore`
//! so they are never committed. The decision log, shared by every document, has
//! a lock of its own ([`LOG_LOCK`]), taken only for its repair-and-append.
//!
//! A [`DocLock`] is a proof: functions that must run under the lock take
//! `&DocLock`, so the lock is taken once per operation, at the top, and never
//! re-entered (two opens of one lock file conflict even within one process).
//!
//! Writers that do not lock (the VS Code extension today) are handled by the
//! other half, compare-before-rename ([`crate::fsutil::Expect`]).

use crate::error::{Error, Result};
use crate::workspace::{DocPath, Workspace};
use std::fs::{File, OpenOptions, TryLockError};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Where the lock files live, under the workspace root.
pub const LOCK_DIR: &str = ".cowriting/locks";
/// The decision log's lock, in [`LOCK_DIR`].
pub const LOG_LOCK: &str = "decisions.jsonl.lock";

/// How long a writer waits for a lock before saying the document is busy: long
/// enough for any real operation of another process on a loaded machine.
const WAIT: Duration = Duration::from_secs(120);

/// A held lock; released when dropped (or when the process dies).
#[derive(Debug)]
pub struct DocLock {
    file: File,
}

impl Drop for DocLock {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

impl Workspace {
    /// The lock file of `doc`.
    pub fn lock_file(&self, doc: &DocPath) -> Result<PathBuf> {
        self.internal_file(&format!("{LOCK_DIR}/{}.lock", doc.as_str()))
    }

    /// Take `doc`'s lock, waiting while another writer holds it.
    pub fn lock_doc(&self, doc: &DocPath) -> Result<DocLock> {
        let path = self.lock_file(doc)?;
        let file = acquire(self, &path, doc.as_str())?;
        Ok(DocLock { file })
    }

    /// Take the decision log's lock.
    pub fn lock_log(&self) -> Result<DocLock> {
        self.lock_named(LOG_LOCK, "the decision log")
    }

    /// Take a lock of [`LOCK_DIR`] that is not a document's (`name` must not
    /// end like a document's lock, `<doc>.md.lock`): the decision log's, the
    /// dictionary's. `what` names it in a timeout's message.
    pub fn lock_named(&self, name: &str, what: &str) -> Result<DocLock> {
        let path = self.internal_file(&format!("{LOCK_DIR}/{name}"))?;
        let file = acquire(self, &path, what)?;
        Ok(DocLock { file })
    }
}

fn acquire(ws: &Workspace, path: &PathBuf, what: &str) -> Result<File> {
    ensure_lock_dir(ws)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(Error::io(dir))?;
    }
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(Error::io(path))?;
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(TryLockError::WouldBlock) => {
                if start.elapsed() > WAIT {
                    return Err(Error::Io {
                        path: path.clone(),
                        source: std::io::Error::new(
                            std::io::ErrorKind::TimedOut,
                            format!(
                                "{what} stayed locked by another cowriting process for {} s",
                                WAIT.as_secs()
                            ),
                        ),
                    });
                }
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(20));
            }
            Err(TryLockError::Error(e)) => return Err(Error::io(path)(e)),
        }
    }
}

/// `locks/` with a `.gitignore` that keeps its files out of commits.
fn ensure_lock_dir(ws: &Workspace) -> Result<()> {
    let ignore = ws.internal_file(&format!("{LOCK_DIR}/.gitignore"))?;
    if ignore.exists() {
        return Ok(());
    }
    if let Some(dir) = ignore.parent() {
        std::fs::create_dir_all(dir).map_err(Error::io(dir))?;
    }
    // Racing creators write the same bytes; any of them winning is fine.
    crate::fsutil::atomic_write(&ignore, b"# Lock files of running cowriting processes.\n*\n")
        .map_err(Error::io(&ignore))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_waits_for_the_first_and_locks_are_ignored_by_git() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "x").unwrap();
        let ws = Workspace::open(dir.path()).unwrap();
        let doc = DocPath::parse("a.md").unwrap();
        let first = ws.lock_doc(&doc).unwrap();
        let ws2 = ws.clone();
        let doc2 = doc.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        let t = std::thread::spawn(move || {
            let _second = ws2.lock_doc(&doc2).unwrap();
            tx.send(()).unwrap();
        });
        assert!(
            rx.recv_timeout(Duration::from_millis(200)).is_err(),
            "the second lock must wait"
        );
        drop(first);
        rx.recv_timeout(Duration::from_secs(60)).unwrap();
        t.join().unwrap();
        let ignore = std::fs::read_to_string(dir.path().join(".cowriting/locks/.gitignore")).unwrap();
        assert!(ignore.lines().any(|l| l == "*"));
        // Another document's lock is independent.
        let _a = ws.lock_doc(&doc).unwrap();
        let _b = ws.lock_doc(&DocPath::parse("b.md").unwrap()).unwrap();
    }

    #[test]
    fn a_symlinked_lock_folder_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".cowriting")).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join(".cowriting/locks")).unwrap();
        let ws = Workspace::open(dir.path()).unwrap();
        let err = ws.lock_doc(&DocPath::parse("a.md").unwrap()).unwrap_err();
        assert_eq!(err.code(), crate::ErrorCode::BadInput, "{err}");
        assert!(err.to_string().contains("symlink"), "{err}");
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    }
}
