//! What a listing read of each closed document, kept while none of the files
//! it was read from has changed, so a listing re-reads only the documents some
//! writer touched (issue 32: "no answer triggers a whole-workspace read";
//! issue 37: "every listing reads the index and opens no session"). The app's
//! Inbox keeps each document's items ([`InboxCache`]); MCP's lists keep each
//! one's counts, proposals and threads ([`SummaryCache`], [`ProposalsCache`],
//! [`ThreadsCache`]).
//!
//! A document's review comes from three files: the document, its sidecar, and
//! its pending contract records (`.cowriting/suggestions/<doc>.json`). Each is
//! stamped as git's index stamps a file (`lstat`: length, modification and
//! change times, inode): the same stamps on all three, the same answer. As in
//! git's "racy clean" rule, a file modified within [`RACY`] of when it was
//! stamped is not trusted (a write of the same length in the same clock tick
//! would leave its stamp as it was): such a document is read again every time
//! until its files are older.
//!
//! Any writer is seen — the app, the CLI, an agent over MCP, VS Code, git —
//! because nothing is told: every listing stamps the files anew. What is saved
//! is parsing the sidecar, reading the text and placing every proposal and
//! thread; the stamps cost three `lstat`s (and the guard's look) a document.

use super::inbox::DocItems;
use crate::views::{DocProposals, DocSummary, DocThreads};
use cowriting_workspace::error::ErrorInfo;
use cowriting_workspace::ledger::Ledger;
use cowriting_workspace::{DocPath, Workspace};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::time::{Duration, SystemTime};

/// How long after a file's last change its stamp is trusted.
pub const RACY: Duration = Duration::from_secs(2);

/// One file as `lstat` saw it; `None` in [`Stamps`] when there was no file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileStamp {
    len: u64,
    modified: SystemTime,
    #[cfg(unix)]
    ino: u64,
    #[cfg(unix)]
    ctime: (i64, i64),
}

impl FileStamp {
    fn of(path: &Path) -> std::io::Result<Option<FileStamp>> {
        let m = match std::fs::symlink_metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt;
        Ok(Some(FileStamp {
            len: m.len(),
            modified: m.modified()?,
            #[cfg(unix)]
            ino: m.ino(),
            #[cfg(unix)]
            ctime: (m.ctime(), m.ctime_nsec()),
        }))
    }

    /// Whether it changed long enough before `now` to be trusted.
    fn settled(&self, now: SystemTime) -> bool {
        let changed = {
            #[cfg(unix)]
            {
                let ctime = SystemTime::UNIX_EPOCH
                    .checked_add(Duration::new(
                        self.ctime.0.max(0) as u64,
                        self.ctime.1.clamp(0, 999_999_999) as u32,
                    ))
                    .unwrap_or(SystemTime::UNIX_EPOCH);
                self.modified.max(ctime)
            }
            #[cfg(not(unix))]
            {
                self.modified
            }
        };
        changed + RACY <= now
    }
}

/// The three files of a document's items, as stamped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamps([Option<FileStamp>; 3]);

impl Stamps {
    /// `None` when a file could not be stamped (not found is a stamp: no file).
    fn of(ws: &Workspace, doc: &DocPath) -> Option<Stamps> {
        let doc_file = ws.doc_file(doc).ok()?;
        let sidecar = ws.sidecar_file(doc).ok()?;
        let pending = Ledger::of(ws).pending_file(doc).ok()?;
        let mut out = [None; 3];
        for (slot, path) in out.iter_mut().zip([&doc_file, &sidecar, &pending]) {
            *slot = FileStamp::of(path).ok()?;
        }
        Some(Stamps(out))
    }

    fn settled(&self, now: SystemTime) -> bool {
        self.0.iter().flatten().all(|s| s.settled(now))
    }
}

/// What was last read of each closed document, by its files' stamps. Keep
/// one per workspace and kind (the app's `Api` and the MCP server do); see
/// the module docs.
#[derive(Debug)]
pub struct DocCache<T> {
    docs: HashMap<DocPath, (Stamps, T)>,
    /// How many documents the last listing read (the rest were kept).
    read: usize,
}

/// Each closed document's Inbox items.
pub type InboxCache = DocCache<DocItems>;

/// Each closed document's counts (what `status` and `list_documents` show).
pub type SummaryCache = DocCache<DocSummary>;

/// Each closed document's proposals (MCP's `list_proposals`; one unit only).
pub type ProposalsCache = DocCache<DocProposals>;

/// Each closed document's threads (MCP's `list_threads`; one unit only).
pub type ThreadsCache = DocCache<DocThreads>;

impl<T> Default for DocCache<T> {
    fn default() -> Self {
        DocCache {
            docs: HashMap::new(),
            read: 0,
        }
    }
}

impl<T: Clone> DocCache<T> {
    pub fn new() -> DocCache<T> {
        DocCache::default()
    }

    /// How many documents the last listing read from their files.
    pub fn last_read(&self) -> usize {
        self.read
    }

    /// A listing begins: nothing read yet.
    pub(crate) fn begin(&mut self) {
        self.read = 0;
    }

    /// `doc`'s answer: the kept one when its files are as they were, else
    /// `read()` (kept for next time when its files were settled before it).
    pub(crate) fn get(
        &mut self,
        ws: &Workspace,
        doc: &DocPath,
        read: impl FnOnce() -> Result<T, ErrorInfo>,
    ) -> Result<T, ErrorInfo> {
        let now = SystemTime::now();
        let stamps = Stamps::of(ws, doc);
        if let (Some(st), Some((kept, answer))) = (stamps, self.docs.get(doc)) {
            if *kept == st {
                return Ok(answer.clone());
            }
        }
        self.read += 1;
        let got = read();
        match (&got, stamps) {
            (Ok(answer), Some(st)) if st.settled(now) => {
                self.docs.insert(doc.clone(), (st, answer.clone()));
            }
            _ => {
                self.docs.remove(doc);
            }
        }
        got
    }

    /// Forget the documents a listing no longer names (deleted, renamed).
    pub(crate) fn retain(&mut self, listed: &BTreeSet<&DocPath>) {
        self.docs.retain(|d, _| listed.contains(d));
    }
}
