//! Per-document advisory locks: the exclusion half of the one write protocol.
//!
//! Every read-modify-write of a document, its sidecar, its ledger entries or its
//! intent record holds the document's lock, an OS file lock (`flock` on
//! `W/.cowriting/locks/<sha256 of docPath>.lock`, via [`std::fs::File::lock`]).
//! The kernel releases it when the process dies, so a crash never leaves a
//! stale lock. The decision log, shared by every document, has a lock of its
//! own ([`LOG_LOCK`]), taken only for its repair-and-append.
//!
//! - **Flat names.** A lock file is named by the SHA-256 (hex) of the
//!   document's path: 69 bytes whatever the name, in one folder, so a document
//!   name of 255 bytes has a lock, and a 2,000-folder path makes no folder
//!   chain.
//! - **Only while held.** The holder removes its lock file just before it
//!   releases the lock, so a lock file exists only while a process holds it (or
//!   for the instant a dead holder's kernel takes to release it: the next taker
//!   removes it). Removing a file others may be waiting on is safe because every
//!   taker checks, once it has the lock, that the name still leads to the file it
//!   locked (the inode of its open file against the name's, `fstat` against
//!   `lstat`); when it does not, the lock was on a file already removed by its
//!   holder and the taker starts again on the file now at the name. So two
//!   processes never hold the lock of one name at once.
//! - `locks/` holds a `.gitignore`, so a lock file is never committed.
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
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where the lock files live, under the workspace root.
pub const LOCK_DIR: &str = ".cowriting/locks";
/// The decision log's lock, in [`LOCK_DIR`].
pub const LOG_LOCK: &str = "decisions.jsonl.lock";

/// How long a writer waits for a lock before saying the document is busy: long
/// enough for any real operation of another process on a loaded machine.
const WAIT: Duration = Duration::from_secs(120);

/// A held lock; its file removed and the lock released when dropped (the
/// kernel releases it when the process dies).
#[derive(Debug)]
pub struct DocLock {
    file: File,
    path: PathBuf,
}

impl Drop for DocLock {
    fn drop(&mut self) {
        // Still ours (only a holder removes it, and we hold it): remove it,
        // then release. A taker waiting on it finds the name gone and retries.
        if same_file(&self.file, &self.path) {
            let _ = std::fs::remove_file(&self.path);
        }
        let _ = self.file.unlock();
    }
}

/// The name of `doc`'s lock file in [`LOCK_DIR`]: the SHA-256 (hex) of its path
/// and `.lock`.
pub fn lock_file_name(doc: &DocPath) -> String {
    let h = crate::fsutil::sha256(doc.as_str().as_bytes());
    let hex: String = h.iter().map(|b| format!("{b:02x}")).collect();
    format!("{hex}.lock")
}

impl Workspace {
    /// The lock file of `doc` (there only while someone holds the lock).
    pub fn lock_file(&self, doc: &DocPath) -> Result<PathBuf> {
        self.internal_file(&format!("{LOCK_DIR}/{}", lock_file_name(doc)))
    }

    /// Take `doc`'s lock, waiting while another writer holds it.
    pub fn lock_doc(&self, doc: &DocPath) -> Result<DocLock> {
        let path = self.lock_file(doc)?;
        acquire(self, path, doc.as_str())
    }

    /// Take the decision log's lock.
    pub fn lock_log(&self) -> Result<DocLock> {
        self.lock_named(LOG_LOCK, "the decision log")
    }

    /// Take a lock of [`LOCK_DIR`] that is not a document's (`name` must not
    /// be 64 hex digits and `.lock`, a document's): the decision log's, the
    /// dictionary's. `what` names it in a timeout's message.
    pub fn lock_named(&self, name: &str, what: &str) -> Result<DocLock> {
        let path = self.internal_file(&format!("{LOCK_DIR}/{name}"))?;
        acquire(self, path, what)
    }

    /// Whether a process holds `doc`'s lock now. Nothing is made to find
    /// out: no lock file is a lock nobody holds (a holder's file is at its
    /// name until it releases), and one a dead holder left is not held. The
    /// file, when there, is opened read-only and locked shared for an
    /// instant (a taker meanwhile waits that instant).
    pub fn lock_held(&self, doc: &DocPath) -> Result<bool> {
        use std::os::unix::fs::OpenOptionsExt;
        let Some(path) = self.internal_file_present(&format!("{LOCK_DIR}/{}", lock_file_name(doc)))? else {
            return Ok(false);
        };
        let file = match OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
            .open(&path)
        {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound || e.raw_os_error() == Some(libc::ENOTDIR) => {
                return Ok(false)
            }
            Err(e) => return Err(Error::io(&path)(e)),
        };
        match file.try_lock_shared() {
            Ok(()) => {
                let _ = file.unlock();
                Ok(false)
            }
            Err(TryLockError::WouldBlock) => Ok(true),
            Err(TryLockError::Error(e)) => Err(Error::io(&path)(e)),
        }
    }
}

/// Whether `path` names the file `file` has open.
fn same_file(file: &File, path: &Path) -> bool {
    match (file.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

fn acquire(ws: &Workspace, path: PathBuf, what: &str) -> Result<DocLock> {
    let start = Instant::now();
    let timed_out = |path: &Path| Error::Io {
        path: path.to_owned(),
        source: std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!(
                "{what} stayed locked by another cowriting process for {} s",
                WAIT.as_secs()
            ),
        ),
    };
    loop {
        ensure_lock_dir(ws)?;
        let file = match OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
        {
            Ok(f) => f,
            // The folder went meanwhile (someone removed `.cowriting`): again.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && start.elapsed() < WAIT => continue,
            Err(e) => return Err(Error::io(&path)(e)),
        };
        let mut pause = Duration::from_millis(1);
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(TryLockError::WouldBlock) => {
                    if start.elapsed() > WAIT {
                        return Err(timed_out(&path));
                    }
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(20));
                }
                Err(TryLockError::Error(e)) => return Err(Error::io(&path)(e)),
            }
        }
        if same_file(&file, &path) {
            return Ok(DocLock { file, path });
        }
        // Locked a file its holder removed before releasing it (or a dead
        // holder left for the next taker): that lock guards nothing. Start
        // again on whatever is at the name now.
        drop(file);
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

    fn lock_dir_entries(root: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(root.join(LOCK_DIR))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_lock_file_is_there_only_while_held_and_flat_for_any_name() {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::open(dir.path()).unwrap();
        let long = DocPath::parse(&format!("{}.md", "n".repeat(252))).unwrap();
        let deep = DocPath::parse(&format!("{}x.md", "a/".repeat(2000))).unwrap();
        for doc in [DocPath::parse("a.md").unwrap(), long, deep] {
            let held = ws.lock_doc(&doc).unwrap();
            let name = lock_file_name(&doc);
            assert_eq!(name.len(), 69);
            assert_eq!(lock_dir_entries(dir.path()), vec![".gitignore".to_owned(), name]);
            drop(held);
            assert_eq!(lock_dir_entries(dir.path()), vec![".gitignore".to_owned()]);
        }
        let log = ws.lock_log().unwrap();
        drop(log);
        assert_eq!(lock_dir_entries(dir.path()), vec![".gitignore".to_owned()]);
    }

    #[test]
    fn whether_a_lock_is_held_is_told_without_making_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::open(dir.path()).unwrap();
        let doc = DocPath::parse("a.md").unwrap();
        assert!(!ws.lock_held(&doc).unwrap());
        assert!(
            !dir.path().join(".cowriting").exists(),
            "nothing made to find out"
        );
        let held = ws.lock_doc(&doc).unwrap();
        assert!(ws.lock_held(&doc).unwrap());
        assert!(!ws.lock_held(&DocPath::parse("b.md").unwrap()).unwrap());
        // Asking does not get in the holder's way, nor a taker's after it.
        drop(held);
        assert!(!ws.lock_held(&doc).unwrap());
        assert_eq!(lock_dir_entries(dir.path()), vec![".gitignore".to_owned()]);
        // A file a dead holder left (never removed, nobody holding it) is not held.
        std::fs::write(ws.lock_file(&doc).unwrap(), "").unwrap();
        assert!(!ws.lock_held(&doc).unwrap());
        let taken = ws.lock_doc(&doc).unwrap();
        assert!(ws.lock_held(&doc).unwrap());
        drop(taken);
    }

    #[test]
    fn removing_the_file_on_release_never_lets_two_holders_in() {
        // Threads hammer one lock: each holder's file is removed on release
        // while others wait on it; the inode check sends them round again.
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Arc;
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::open(dir.path()).unwrap();
        let doc = DocPath::parse("d.md").unwrap();
        let inside = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..6)
            .map(|_| {
                let (ws, doc, inside, most) = (ws.clone(), doc.clone(), inside.clone(), most.clone());
                std::thread::spawn(move || {
                    for _ in 0..60 {
                        let _held = ws.lock_doc(&doc).unwrap();
                        let n = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(n, Ordering::SeqCst);
                        std::thread::yield_now();
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(most.load(Ordering::SeqCst), 1, "two holders at once");
        assert_eq!(lock_dir_entries(dir.path()), vec![".gitignore".to_owned()]);
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
