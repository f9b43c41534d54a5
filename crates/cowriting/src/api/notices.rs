//! What a file event means for the open documents and the tree: the
//! watcher's events become notices that name what changed (a document's
//! entry, a document removed, a review changed, reloaded, conflict, gone), so
//! the UI updates a row and lists nothing; only a change of git's HEAD asks
//! for the whole tree again. The store's own writes and the app's own saves
//! become none.

use super::*;
use std::path::PathBuf;

/// A burst of file events naming more closed documents than this says
/// `treeChanged` once instead of a row each: one listing costs less than
/// thousands of rows read and redrawn (a checkout, a pull, an unpacked tree).
pub const ROWS_AT_MOST: usize = 32;

impl Api {
    /// A burst of file events (the watcher's, gathered while they come): the
    /// notices of each, each once; when they name more than `ROWS_AT_MOST` (32)
    /// closed documents, one `treeChanged` instead of their rows (and their
    /// sidecars are not read). Open documents' notices are given either way.
    pub fn files_changed(&mut self, paths: &[PathBuf]) -> Vec<Notice> {
        let mut out: Vec<Notice> = Vec::new();
        let mut rows = 0;
        for p in paths {
            let rel = p
                .strip_prefix(self.root())
                .ok()
                .map(|r| r.to_string_lossy().replace('\\', "/"));
            let closed = rel
                .as_deref()
                .and_then(closed_document_of)
                .is_some_and(|d| !self.sessions.contains_key(&d));
            rows += usize::from(closed);
        }
        let each_row = rows <= ROWS_AT_MOST;
        for p in paths {
            for n in self.notices_for(p, each_row) {
                if !out.contains(&n) {
                    out.push(n);
                }
            }
        }
        out
    }

    /// A file in the workspace changed. The store's own writes and the app's
    /// own saves produce no notices.
    pub fn file_changed(&mut self, path: &Path) -> Vec<Notice> {
        self.notices_for(path, true)
    }

    /// [`Api::file_changed`]; `rows`: a closed document's change is said as
    /// its row (`entryChanged`, `documentRemoved`), else as `treeChanged`.
    fn notices_for(&mut self, path: &Path, rows: bool) -> Vec<Notice> {
        let Ok(rel) = path.strip_prefix(self.root()).map(Path::to_path_buf) else {
            return Vec::new();
        };
        let rel_str = rel.to_string_lossy().replace('\\', "/");
        if rel_str == ".git/HEAD" {
            // Another branch checked out, or a repository made: the tree and
            // the status bar's branch are read again.
            return vec![Notice::TreeChanged];
        }
        if rel_str.starts_with(".git/") || rel_str == ".git" {
            return Vec::new();
        }
        // Contract records of an open document changed (a CLI or agent filed):
        // its review shows their category and reason.
        if let Some(doc) = rel_str
            .strip_prefix(&format!("{LEDGER_DIR}/suggestions/"))
            .and_then(|d| d.strip_suffix(".json"))
        {
            return match DocPath::parse(doc) {
                Ok(dp) if self.sessions.contains_key(&dp) => {
                    vec![Notice::ReviewChanged { path: dp.to_string() }]
                }
                _ => Vec::new(),
            };
        }
        if rel_str.starts_with(&format!("{LEDGER_DIR}/")) {
            return Vec::new();
        }
        if let Some(side) = rel_str.strip_prefix(&format!("{SIDECAR_DIR}/")) {
            let Some(doc) = side.strip_suffix(".json") else {
                return Vec::new();
            };
            if self.store.is_own_write(path) {
                return Vec::new();
            }
            let Ok(dp) = DocPath::parse(doc) else {
                return Vec::new();
            };
            if let Some(s) = self.sessions.get_mut(&dp) {
                // A corrupt file is recorded on the session and shown with the
                // review, which carries the tree entry too.
                let _ = s.reload_sidecar();
                return vec![Notice::ReviewChanged { path: dp.to_string() }];
            }
            if !rows {
                return vec![Notice::TreeChanged];
            }
            // A closed document's badges, if it is a document still there.
            return self
                .entry_on_disk(&dp)
                .map_or_else(Vec::new, |entry| vec![Notice::EntryChanged { entry }]);
        }
        let Ok(dp) = DocPath::parse(&rel_str) else {
            return Vec::new();
        };
        if !self.sessions.contains_key(&dp) {
            if !cowriting_workspace::workspace::is_document_name(&rel_str) {
                return Vec::new();
            }
            if !rows {
                return vec![Notice::TreeChanged];
            }
            if let Some(entry) = self.entry_on_disk(&dp) {
                return vec![Notice::EntryChanged { entry }];
            }
            // Not listed now. Under a hidden folder or `node_modules` it never
            // was (the listing skips those): nothing to say.
            let skipped = dp
                .as_str()
                .split('/')
                .any(|c| c.starts_with('.') || c == "node_modules");
            return if skipped {
                Vec::new()
            } else {
                vec![removed(self.root(), &dp)]
            };
        }
        let root = self.root().to_path_buf();
        let Some(s) = self.sessions.get_mut(&dp) else {
            return Vec::new();
        };
        match s.changed_on_disk() {
            Err(_) => vec![Notice::DocumentGone { path: dp.to_string() }, removed(&root, &dp)],
            Ok(false) => Vec::new(),
            Ok(true) if s.is_dirty() => vec![Notice::Conflict { path: dp.to_string() }],
            Ok(true) => {
                let before = s.document().clone();
                match s.reload_from_disk() {
                    Ok(change) => {
                        let changes = change.map(|c| to_text_changes(&before, &c)).unwrap_or_default();
                        let version = s.document().version();
                        vec![
                            Notice::DocumentReloaded {
                                path: dp.to_string(),
                                changes,
                                version,
                            },
                            Notice::ReviewChanged { path: dp.to_string() },
                        ]
                    }
                    Err(_) => vec![Notice::Conflict { path: dp.to_string() }],
                }
            }
        }
    }

    /// A closed document's entry as it is on disk now (its sidecar read for
    /// the badges), or `None` when it is not a document file there. Through
    /// the store, so through the path guard: a link is not followed.
    pub(super) fn entry_on_disk(&self, doc: &DocPath) -> Option<DocEntry> {
        if !self.store.workspace().is_listed_document(doc) {
            return None;
        }
        Some(match self.store.load(doc) {
            Ok(review) => entry_with(doc, review.as_ref()),
            Err(_) => DocEntry {
                sidecar_error: true,
                ..entry_with(doc, None)
            },
        })
    }
}

/// The notice that `doc` is no longer on disk under `root`.
fn removed(root: &Path, doc: &DocPath) -> Notice {
    let folder = doc.as_str().rsplit_once('/').map_or("", |(f, _)| f);
    Notice::DocumentRemoved {
        path: doc.to_string(),
        folder_left: folder.is_empty()
            || std::fs::symlink_metadata(root.join(folder)).is_ok_and(|m| m.is_dir()),
    }
}

/// The document a workspace-relative path's event is about, when it is a
/// document's file or its sidecar (what [`Api::files_changed`] counts as rows).
fn closed_document_of(rel: &str) -> Option<DocPath> {
    let doc = match rel.strip_prefix(&format!("{SIDECAR_DIR}/")) {
        Some(side) => side.strip_suffix(".json")?,
        None if cowriting_workspace::workspace::is_document_name(rel) && !rel.starts_with('.') => rel,
        None => return None,
    };
    DocPath::parse(doc).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every notice but git's HEAD names what changed, so the tree updates a
    /// row: another writer's review of a closed document, a new file, one
    /// removed (with whether its folder is left), an open one gone.
    #[test]
    fn notices_name_the_document_and_its_badges() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("sub/closed.md"), "one two\n").unwrap();
        std::fs::write(root.join("open.md"), "three\n").unwrap();
        let mut api = Api::open(root).unwrap();
        api.open_document("open.md").unwrap();
        // Another writer comments on the closed document.
        // (Its own store: the app's would take the write for its own.)
        let store = Arc::new(Store::new(Workspace::open(root).unwrap()));
        let other = Ops::new(store, Provenance::human("o"), Unit::Utf16);
        let target = Target::Text {
            text: "one",
            occurrence: None,
        };
        other.new_thread("sub/closed.md", target, "hm").unwrap();
        let root = api.root().to_path_buf();
        let entry = |path: &str, threads: u32| Notice::EntryChanged {
            entry: DocEntry {
                path: path.into(),
                proposals: 0,
                open_threads: threads,
                sidecar_error: false,
            },
        };
        assert_eq!(
            api.file_changed(&root.join(".threads/sub/closed.md.json")),
            vec![entry("sub/closed.md", 1)]
        );
        // A new document; a file that is not one; one in a hidden folder.
        std::fs::write(root.join("sub/new.md"), "x\n").unwrap();
        assert_eq!(
            api.file_changed(&root.join("sub/new.md")),
            vec![entry("sub/new.md", 0)]
        );
        std::fs::write(root.join("sub/code.rs"), "x\n").unwrap();
        assert!(api.file_changed(&root.join("sub/code.rs")).is_empty());
        std::fs::create_dir_all(root.join(".hidden")).unwrap();
        std::fs::write(root.join(".hidden/x.md"), "x\n").unwrap();
        assert!(api.file_changed(&root.join(".hidden/x.md")).is_empty());
        // Removed: its folder is left, or gone with it.
        std::fs::remove_file(root.join("sub/new.md")).unwrap();
        let removed = |path: &str, folder_left: bool| Notice::DocumentRemoved {
            path: path.into(),
            folder_left,
        };
        assert_eq!(
            api.file_changed(&root.join("sub/new.md")),
            vec![removed("sub/new.md", true)]
        );
        std::fs::remove_dir_all(root.join("sub")).unwrap();
        assert_eq!(
            api.file_changed(&root.join("sub/closed.md")),
            vec![removed("sub/closed.md", false)]
        );
        // An open document gone: the tab is told, and the row goes.
        std::fs::remove_file(root.join("open.md")).unwrap();
        assert_eq!(
            api.file_changed(&root.join("open.md")),
            vec![
                Notice::DocumentGone {
                    path: "open.md".into()
                },
                removed("open.md", true)
            ]
        );
        // Another branch checked out: the one notice that lists everything again.
        assert_eq!(
            api.file_changed(&root.join(".git/HEAD")),
            vec![Notice::TreeChanged]
        );
    }

    /// A burst naming more closed documents than `ROWS_AT_MOST` (a checkout,
    /// an unpacked tree) is one `treeChanged`, their sidecars unread; the open
    /// document's notices come with it; a smaller burst is a row each, each once.
    #[test]
    fn a_large_burst_is_one_listing_a_small_one_a_row_each() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("open.md"), "one\n").unwrap();
        let mut api = Api::open(root).unwrap();
        api.open_document("open.md").unwrap();
        let root = api.root().to_path_buf();
        let write = |names: std::ops::Range<usize>| -> Vec<PathBuf> {
            names
                .map(|i| {
                    let p = root.join(format!("page-{i}.md"));
                    std::fs::write(&p, "x\n").unwrap();
                    p
                })
                .collect()
        };
        let mut small = write(0..3);
        small.push(small[0].clone());
        let notices = api.files_changed(&small);
        assert_eq!(notices.len(), 3, "a row each, each once: {notices:?}");
        assert!(notices.iter().all(|n| matches!(n, Notice::EntryChanged { .. })));
        let mut many = write(0..ROWS_AT_MOST + 1);
        std::fs::write(root.join("open.md"), "one two\n").unwrap();
        many.push(root.join("open.md"));
        let notices = api.files_changed(&many);
        assert_eq!(notices[0], Notice::TreeChanged, "{notices:?}");
        assert!(
            notices
                .iter()
                .any(|n| matches!(n, Notice::DocumentReloaded { .. })),
            "{notices:?}"
        );
        assert!(
            !notices.iter().any(|n| matches!(n, Notice::EntryChanged { .. })),
            "{notices:?}"
        );
        assert_eq!(notices.iter().filter(|n| **n == Notice::TreeChanged).count(), 1);
    }
}
