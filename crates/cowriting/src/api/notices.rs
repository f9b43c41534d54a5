//! What a file event means for the open documents: the watcher's events
//! become notices (tree changed, review changed, reloaded, conflict, gone);
//! the store's own writes and the app's own saves become none.

use super::*;

impl Api {
    /// A file in the workspace changed (the watcher calls this, debounced). The
    /// store's own writes and the app's own saves produce no notices.
    pub fn file_changed(&mut self, path: &Path) -> Vec<Notice> {
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
            let mut out = vec![Notice::TreeChanged];
            if let Ok(dp) = DocPath::parse(doc) {
                if let Some(s) = self.sessions.get_mut(&dp) {
                    // A corrupt file is recorded on the session and shown with the review.
                    let _ = s.reload_sidecar();
                    out.push(Notice::ReviewChanged { path: dp.to_string() });
                }
            }
            return out;
        }
        let Ok(dp) = DocPath::parse(&rel_str) else {
            return Vec::new();
        };
        let Some(s) = self.sessions.get_mut(&dp) else {
            return if cowriting_workspace::workspace::is_document_name(&rel_str) {
                vec![Notice::TreeChanged]
            } else {
                Vec::new()
            };
        };
        match s.changed_on_disk() {
            Err(_) => vec![Notice::DocumentGone { path: dp.to_string() }, Notice::TreeChanged],
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
}
