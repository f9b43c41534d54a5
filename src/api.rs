//! The API the desktop app calls: one method per IPC command.
//!
//! Everything a UI needs, in the shapes it needs: positions in **UTF-16 code
//! units** (CodeMirror's and JavaScript's unit), converted here — at the
//! boundary — and nowhere else. Tauri commands in `src-tauri/` are one-line
//! wrappers over these methods; the DTOs derive `ts_rs::TS` (feature `ts`) so the
//! UI's TypeScript types are generated from them (`ui/src/bindings/`).
//!
//! Positions that arrive from the UI are untrusted: every one is checked against
//! the document (and must not split a surrogate pair) before it is used.

use crate::changeset::{ChangeSet, Operation};
use crate::config::Config;
use crate::diff::{word_diff, DiffPart};
use crate::document::Document;
use crate::error::{Error, ErrorInfo, Result};
use crate::history::EditKind;
use crate::identity::human_identity;
use crate::ledger::LEDGER_DIR;
use crate::model::{Provenance, ThreadStatus};
use crate::offset::{CharRange, Utf16Offset};
use crate::session::{ProposalState, Session, Target};
use crate::store::Store;
use crate::suggest::Producer as SuggestProducer;
pub use crate::suggest::{Job, Outcome as JobOutcome};
use crate::views::{self, Unit};
pub use crate::views::{AuthorDto, CommentDto, ContractDto, ProposalDto, SpanDto, ThreadDto};
use crate::workspace::{DocPath, Workspace, SIDECAR_DIR};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

#[cfg(feature = "ts")]
use ts_rs::TS;

mod backups;
pub use backups::{backup_root, write_backups, RestoreReport, RestoredDto, UnrestoredDto, BACKUP_DIR_ENV};

/// A workspace as the file tree shows it.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceInfo {
    pub root: String,
    pub name: String,
    /// The git branch, when the workspace is in a repository.
    pub branch: Option<String>,
    pub documents: Vec<DocEntry>,
}

/// One document in the file tree, with its badges.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct DocEntry {
    pub path: String,
    pub proposals: u32,
    pub open_threads: u32,
    /// The sidecar cannot be read (corrupt or newer).
    pub sidecar_error: bool,
}

/// What a producer run filed.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct FilingDto {
    pub producer: String,
    pub turn_id: String,
    pub filed: u32,
    /// Findings reported but not filed, one line each.
    pub skipped: Vec<String>,
    /// Suggestions carried over because the text moved during the run.
    pub migrated: u32,
    /// Ledger problems (the proposals were filed regardless).
    pub warnings: Vec<String>,
    pub review: ReviewDto,
}

/// The user's producer settings, as the settings dialog edits them.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SettingsDto {
    /// Where they are kept (user-level, never the workspace).
    pub path: String,
    /// `"cli"`, `"api"`, or `null` for automatic (the API when `ANTHROPIC_API_KEY` is set).
    pub transport: Option<String>,
    pub model: Option<String>,
    pub claude_command: String,
    pub timeout_secs: u32,
    /// What "Check document" runs.
    pub enabled: Vec<String>,
    /// Every producer that can be enabled: harper, vale and the configured external ones.
    pub available: Vec<String>,
    pub have_api_key: bool,
}

/// Everything the review panel and the decorations need.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ReviewDto {
    pub proposals: Vec<ProposalDto>,
    pub threads: Vec<ThreadDto>,
    pub spans: Vec<SpanDto>,
    /// Why review is unavailable (corrupt or newer sidecar), if it is.
    pub sidecar_error: Option<ErrorInfo>,
    pub can_undo: bool,
    pub can_redo: bool,
}

/// An open document.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct DocView {
    pub path: String,
    pub text: String,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub version: u64,
    pub dirty: bool,
    pub review: ReviewDto,
}

/// One replacement in UTF-16 units of the document *before* the change (as
/// CodeMirror's `ChangeSpec` takes it). A list of them is in document order and
/// does not overlap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
pub struct TextChange {
    pub from: u32,
    pub to: u32,
    pub insert: String,
}

/// The answer to an edit made in the UI (already applied there).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct EditAck {
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub version: u64,
    pub dirty: bool,
}

/// A change the core made (accept, undo, reload): the UI applies `changes` to
/// its view, then shows `review`.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct Applied {
    pub changes: Vec<TextChange>,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub version: u64,
    pub dirty: bool,
    pub review: ReviewDto,
}

/// What a save did.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SaveResult {
    pub dirty: bool,
    /// Set when the sidecar could not be written (it is corrupt or newer).
    pub sidecar_skipped: Option<ErrorInfo>,
    pub review: ReviewDto,
}

/// Something the watcher saw that the UI must show.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Notice {
    /// Documents or badges changed: refresh the tree.
    TreeChanged,
    /// The sidecar of an open document changed: fetch its review.
    #[serde(rename_all = "camelCase")]
    ReviewChanged { path: String },
    /// An open, clean document changed on disk and was reloaded: apply `changes`.
    #[serde(rename_all = "camelCase")]
    DocumentReloaded {
        path: String,
        changes: Vec<TextChange>,
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        version: u64,
    },
    /// An open document with unsaved changes changed on disk: ask the writer.
    #[serde(rename_all = "camelCase")]
    Conflict { path: String },
    /// An open document was deleted or renamed on disk.
    #[serde(rename_all = "camelCase")]
    DocumentGone { path: String },
}

/// The comparison shown for a conflict: the buffer against the file on disk.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub path: String,
    /// Word diff of mine → theirs.
    pub diff: Vec<DiffPart>,
}

/// See the module docs.
pub struct Api {
    store: Arc<Store>,
    identity: Provenance,
    sessions: BTreeMap<DocPath, Session>,
    /// The hot-exit journal of unsaved buffers ([`backups`]), outside the workspace.
    backups: Option<backups::Backups>,
}

/// A core change as UTF-16 replacements against `before`.
fn to_text_changes(before: &Document, change: &ChangeSet) -> Vec<TextChange> {
    let mut out: Vec<TextChange> = Vec::new();
    let mut pos = 0usize;
    let at = |p: usize| before.char_to_utf16(crate::offset::CharOffset(p)).0 as u32;
    for op in change.ops() {
        match op {
            Operation::Retain(n) => pos += n,
            Operation::Insert(s) => out.push(TextChange {
                from: at(pos),
                to: at(pos),
                insert: s.clone(),
            }),
            Operation::Delete(n) => {
                let from = at(pos);
                let to = at(pos + n);
                match out.last_mut() {
                    // Insert then delete at one place is one replacement.
                    Some(last) if last.from == from && last.to == from => last.to = to,
                    _ => out.push(TextChange {
                        from,
                        to,
                        insert: String::new(),
                    }),
                }
                pos += n;
            }
        }
    }
    out
}

impl Api {
    /// Open a workspace folder. Its backups (hot exit) are kept under
    /// [`backup_root`]; [`Api::restore_backups`] brings back a crashed session's.
    pub fn open(dir: impl AsRef<Path>) -> Result<Api> {
        let ws = Workspace::open(dir)?;
        let identity = human_identity(ws.root());
        let backups = backup_root().map(|r| backups::Backups::new(&r, ws.root()));
        Ok(Api {
            store: Arc::new(Store::new(ws)),
            identity,
            sessions: BTreeMap::new(),
            backups,
        })
    }

    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    pub fn root(&self) -> &Path {
        self.store.workspace().root()
    }

    /// The documents of the workspace with their badges, and the git branch.
    pub fn workspace(&self) -> WorkspaceInfo {
        let ws = self.store.workspace();
        let documents = ws
            .list_documents()
            .into_iter()
            .map(|d| {
                let counts = |a: &crate::model::Artifact| {
                    (
                        a.proposals.len() as u32,
                        a.threads
                            .iter()
                            .filter(|t| t.status == ThreadStatus::Open)
                            .count() as u32,
                        false,
                    )
                };
                // An open document's badges are what its tab shows: with its
                // unsaved decisions (an accept waits for the save).
                let open = self.sessions.get(&d).filter(|s| s.sidecar_problem().is_none());
                let (proposals, open_threads, sidecar_error) = match open {
                    Some(s) => counts(s.artifact()),
                    None => match self.store.load(&d) {
                        Ok(Some(a)) => counts(&a),
                        Ok(None) => (0, 0, false),
                        Err(_) => (0, 0, true),
                    },
                };
                DocEntry {
                    path: d.to_string(),
                    proposals,
                    open_threads,
                    sidecar_error,
                }
            })
            .collect();
        WorkspaceInfo {
            root: ws.root().display().to_string(),
            name: ws.root().file_name().map_or_else(
                || ws.root().display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            branch: git_branch(ws.root()),
            documents,
        }
    }

    fn session(&self, path: &str) -> Result<&Session> {
        let doc = DocPath::parse(path)?;
        self.sessions.get(&doc).ok_or_else(|| not_open(path))
    }

    fn session_mut(&mut self, path: &str) -> Result<&mut Session> {
        let doc = DocPath::parse(path)?;
        self.sessions.get_mut(&doc).ok_or_else(|| not_open(path))
    }

    /// Open a document (or return the open one).
    pub fn open_document(&mut self, path: &str) -> Result<DocView> {
        let doc = DocPath::parse(path)?;
        if !self.sessions.contains_key(&doc) {
            let s = Session::open(self.store.clone(), doc.clone(), self.identity.clone())?;
            self.sessions.insert(doc.clone(), s);
        }
        let s = &self.sessions[&doc];
        Ok(DocView {
            path: doc.to_string(),
            text: s.document().text().to_owned(),
            version: s.document().version(),
            dirty: s.is_dirty(),
            review: review_of(s),
        })
    }

    /// Close a document, discarding unsaved changes (the UI asks first).
    pub fn close_document(&mut self, path: &str) -> Result<()> {
        let doc = DocPath::parse(path)?;
        if self.sessions.remove(&doc).is_some() {
            self.backup_gone(&doc);
        }
        Ok(())
    }

    /// Paths of open documents with unsaved changes.
    pub fn dirty_documents(&self) -> Vec<String> {
        self.sessions
            .iter()
            .filter(|(_, s)| s.is_dirty())
            .map(|(d, _)| d.to_string())
            .collect()
    }

    /// An edit the UI already applied to its view. `version` is the version the
    /// UI's text had before it; a mismatch means the two are out of step and is
    /// refused (the UI reloads the document).
    pub fn edit(
        &mut self,
        path: &str,
        version: u64,
        changes: &[TextChange],
        typing: bool,
    ) -> Result<EditAck> {
        let s = self.session_mut(path)?;
        if s.document().version() != version {
            return Err(Error::OutOfStep {
                path: path.to_owned(),
                version,
                current: s.document().version(),
            });
        }
        let change = from_text_changes(s.document(), changes).map_err(|e| Error::Document {
            path: path.to_owned(),
            source: e,
        })?;
        let kind = if typing { EditKind::Typing } else { EditKind::Other };
        s.apply_change(&change, kind)?;
        Ok(EditAck {
            version: s.document().version(),
            dirty: s.is_dirty(),
        })
    }

    /// The review state of an open document.
    pub fn review(&self, path: &str) -> Result<ReviewDto> {
        Ok(review_of(self.session(path)?))
    }

    fn applied(s: &Session, before: &Document, change: Option<&ChangeSet>) -> Applied {
        Applied {
            changes: change.map(|c| to_text_changes(before, c)).unwrap_or_default(),
            version: s.document().version(),
            dirty: s.is_dirty(),
            review: review_of(s),
        }
    }

    /// Run `f` on a session and report the change it made to the text.
    fn change_with(
        &mut self,
        path: &str,
        f: impl FnOnce(&mut Session) -> Result<Option<ChangeSet>>,
    ) -> Result<Applied> {
        let s = self.session_mut(path)?;
        let before = s.document().clone();
        let change = f(s)?;
        Ok(Self::applied(s, &before, change.as_ref()))
    }

    /// Accept a proposal (optionally with the human's edited replacement).
    pub fn accept(&mut self, path: &str, id: &str, with: Option<&str>) -> Result<Applied> {
        self.change_with(path, |s| s.accept(id, with).map(Some))
    }

    pub fn reject(&mut self, path: &str, id: &str) -> Result<Applied> {
        self.change_with(path, |s| s.reject(id).map(|()| None))
    }

    fn turn_ids(s: &Session, turn: &str, pending_only: bool) -> Vec<String> {
        s.proposals()
            .into_iter()
            .filter(|v| v.proposal.turn_id.as_deref() == Some(turn))
            .filter(|v| !pending_only || v.state == ProposalState::Pending)
            .map(|v| v.proposal.id)
            .collect()
    }

    /// Accept every pending proposal of a turn, as one undo step.
    pub fn accept_turn(&mut self, path: &str, turn: &str) -> Result<Applied> {
        self.change_with(path, |s| {
            let ids = Self::turn_ids(s, turn, true);
            if ids.is_empty() {
                return Err(Error::BadInput(format!(
                    "turn {turn} has no acceptable proposal in {path}"
                )));
            }
            s.accept_all(&ids).map(Some)
        })
    }

    /// Reject every proposal of a turn (whatever its state), as one undo step.
    pub fn reject_turn(&mut self, path: &str, turn: &str) -> Result<Applied> {
        self.change_with(path, |s| {
            let ids = Self::turn_ids(s, turn, false);
            if ids.is_empty() {
                return Err(Error::BadInput(format!("turn {turn} has no proposal in {path}")));
            }
            s.reject_all(&ids).map(|()| None)
        })
    }

    pub fn undo(&mut self, path: &str) -> Result<Applied> {
        self.change_with(path, |s| s.undo())
    }

    pub fn redo(&mut self, path: &str) -> Result<Applied> {
        self.change_with(path, |s| s.redo())
    }

    /// End the current typing group (the UI calls this on cursor jumps).
    pub fn seal_undo_group(&mut self, path: &str) -> Result<()> {
        self.session_mut(path)?.seal_undo_group();
        Ok(())
    }

    pub fn save(&mut self, path: &str) -> Result<SaveResult> {
        let s = self.session_mut(path)?;
        let report = s.save()?;
        let result = SaveResult {
            dirty: s.is_dirty(),
            sidecar_skipped: report.sidecar_skipped,
            review: review_of(s),
        };
        let doc = s.doc_path().clone();
        if result.dirty {
            self.backup_stale(&doc);
        } else {
            self.backup_gone(&doc);
        }
        Ok(result)
    }

    fn range_of(s: &Session, from: u32, to: u32) -> Result<CharRange> {
        s.resolve_target(Target::Utf16 {
            from: Utf16Offset(from as usize),
            to: Utf16Offset(to as usize),
        })
    }

    pub fn new_thread(&mut self, path: &str, from: u32, to: u32, body: &str) -> Result<ReviewDto> {
        let s = self.session_mut(path)?;
        let range = Self::range_of(s, from, to)?;
        s.new_thread(range, body)?;
        Ok(review_of(s))
    }

    pub fn reply(&mut self, path: &str, thread: &str, body: &str) -> Result<ReviewDto> {
        let s = self.session_mut(path)?;
        s.reply(thread, body)?;
        Ok(review_of(s))
    }

    pub fn set_thread_resolved(&mut self, path: &str, thread: &str, resolved: bool) -> Result<ReviewDto> {
        let s = self.session_mut(path)?;
        let status = if resolved {
            ThreadStatus::Resolved
        } else {
            ThreadStatus::Open
        };
        s.set_thread_status(thread, status)?;
        Ok(review_of(s))
    }

    /// Keep a relocated thread on the text it was re-attached to.
    pub fn keep_thread_here(&mut self, path: &str, thread: &str) -> Result<ReviewDto> {
        let s = self.session_mut(path)?;
        s.keep_thread_here(thread)?;
        Ok(review_of(s))
    }

    /// Detach a thread from its text (it stays listed, orphaned).
    pub fn detach_thread(&mut self, path: &str, thread: &str) -> Result<ReviewDto> {
        let s = self.session_mut(path)?;
        s.detach_thread(thread)?;
        Ok(review_of(s))
    }

    /// The writer chose "load theirs" in a conflict (or the buffer was clean).
    pub fn reload_document(&mut self, path: &str) -> Result<Applied> {
        let applied = self.change_with(path, |s| s.reload_from_disk())?;
        // The buffer's base is the file now, even where the text did not change.
        self.backup_stale(&DocPath::parse(path)?);
        Ok(applied)
    }

    /// The writer chose "keep mine" in a conflict.
    pub fn keep_mine(&mut self, path: &str) -> Result<()> {
        let s = self.session_mut(path)?;
        s.keep_buffer()?;
        // The backup's base is the file seen now.
        let doc = s.doc_path().clone();
        self.backup_stale(&doc);
        Ok(())
    }

    /// The writer chose "compare" in a conflict.
    pub fn compare_with_disk(&self, path: &str) -> Result<Comparison> {
        let s = self.session(path)?;
        let disk = s.disk_document()?;
        Ok(Comparison {
            path: path.to_owned(),
            diff: word_diff(s.document().text(), disk.text()),
        })
    }

    // ---- producers --------------------------------------------------------------

    /// Copy what a producer run needs from an open document (the app then runs
    /// it off the lock with [`Job::run`] and files it with [`Api::file_job`]).
    /// `from`/`to` are the selection in UTF-16 units (required for Claude).
    pub fn prepare_job(
        &mut self,
        cfg: &Config,
        path: &str,
        producer: &str,
        from: Option<u32>,
        to: Option<u32>,
        instruction: Option<String>,
    ) -> Result<Job> {
        let producer = SuggestProducer::parse(producer, cfg)?;
        let s = self.session_mut(path)?;
        let selection = match (from, to) {
            (Some(a), Some(b)) => Some(Self::range_of(s, a, b)?),
            _ => None,
        };
        Job::prepare(s, producer, selection, instruction)
    }

    /// File what a job found in its document.
    pub fn file_job(&mut self, path: &str, job: &Job, outcome: JobOutcome) -> Result<FilingDto> {
        let s = self.session_mut(path)?;
        let filing = job.file(s, outcome)?;
        Ok(FilingDto {
            producer: filing.producer,
            turn_id: filing.turn_id,
            filed: filing.filed.len() as u32,
            skipped: filing.skipped,
            migrated: filing.migrated as u32,
            warnings: s.take_warnings(),
            review: review_of(s),
        })
    }

    /// Forget a job that failed or was cancelled (its selection pin).
    pub fn drop_job(&mut self, path: &str, job: &Job) {
        if let Ok(s) = self.session_mut(path) {
            job.abandon(s);
        }
    }

    /// The producers "Check document" runs, from the user's settings.
    pub fn enabled_producers(&self) -> Result<Vec<String>> {
        Ok(Config::load()?.producers.enabled)
    }

    /// The user's producer settings.
    pub fn settings(&self) -> Result<SettingsDto> {
        let cfg = Config::load()?;
        Ok(settings_dto(&cfg))
    }

    /// Change the user's producer settings (the file is rewritten; other keys
    /// it holds are kept).
    pub fn save_settings(&self, dto: &SettingsDto) -> Result<SettingsDto> {
        let path = Config::path()
            .ok_or_else(|| Error::BadInput("no HOME: cannot find the settings folder".into()))?;
        let mut cfg = Config::load_from(&path)?;
        cfg.claude.transport = match dto.transport.as_deref() {
            None | Some("") | Some("auto") => None,
            Some("cli") => Some(crate::config::Transport::Cli),
            Some("api") => Some(crate::config::Transport::Api),
            Some(other) => {
                return Err(Error::BadInput(format!(
                    "unknown Claude transport {other:?}: choose cli or api"
                )))
            }
        };
        cfg.claude.model = dto.model.clone().filter(|m| !m.trim().is_empty());
        if !dto.claude_command.trim().is_empty() {
            cfg.claude.command = dto.claude_command.trim().to_owned();
        }
        if dto.timeout_secs > 0 {
            cfg.claude.timeout_secs = u64::from(dto.timeout_secs);
        }
        let available = settings_dto(&cfg).available;
        if let Some(bad) = dto.enabled.iter().find(|p| !available.contains(p)) {
            return Err(Error::BadInput(format!(
                "unknown producer {bad:?}: choose from {}",
                available.join(", ")
            )));
        }
        cfg.producers.enabled = dto.enabled.clone();
        cfg.save_to(&path)?;
        Ok(settings_dto(&cfg))
    }

    /// A file in the workspace changed (the watcher calls this, debounced). The
    /// store's own writes and the app's own saves produce no notices.
    pub fn file_changed(&mut self, path: &Path) -> Vec<Notice> {
        let Ok(rel) = path.strip_prefix(self.root()).map(Path::to_path_buf) else {
            return Vec::new();
        };
        let rel_str = rel.to_string_lossy().replace('\\', "/");
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
            return if crate::workspace::is_document_name(&rel_str) {
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

fn settings_dto(cfg: &Config) -> SettingsDto {
    let mut available = vec!["harper".to_owned(), "vale".to_owned()];
    available.extend(cfg.external.keys().cloned());
    SettingsDto {
        path: Config::path()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        transport: cfg.claude.transport.map(|t| match t {
            crate::config::Transport::Cli => "cli".to_owned(),
            crate::config::Transport::Api => "api".to_owned(),
        }),
        model: cfg.claude.model.clone(),
        claude_command: cfg.claude.command.clone(),
        timeout_secs: cfg.claude.timeout_secs.min(u64::from(u32::MAX)) as u32,
        enabled: cfg.producers.enabled.clone(),
        available,
        have_api_key: std::env::var_os("ANTHROPIC_API_KEY").is_some(),
    }
}

fn not_open(path: &str) -> Error {
    Error::NotFound {
        what: "open document",
        id: path.to_owned(),
        doc: "this window".into(),
    }
}

/// UTF-16 replacements from the UI → a core change. Untrusted: offsets are
/// checked, must be in order, and must not split a surrogate pair.
pub fn from_text_changes(
    doc: &Document,
    changes: &[TextChange],
) -> std::result::Result<ChangeSet, crate::document::DocumentError> {
    let mut ranges = Vec::with_capacity(changes.len());
    for c in changes {
        let from = doc.utf16_to_char(Utf16Offset(c.from as usize))?;
        let to = doc.utf16_to_char(Utf16Offset(c.to as usize))?;
        if from > to {
            return Err(crate::document::DocumentError::InvertedRange {
                start: c.from as usize,
                end: c.to as usize,
            });
        }
        ranges.push((CharRange { start: from, end: to }, c.insert.as_str()));
    }
    Ok(ChangeSet::from_changes(doc.len_chars(), ranges)?)
}

fn review_of(s: &Session) -> ReviewDto {
    ReviewDto {
        proposals: views::proposals(s, Unit::Utf16),
        threads: views::threads(s, Unit::Utf16),
        spans: views::spans(s, Unit::Utf16),
        sidecar_error: s.sidecar_problem().cloned(),
        can_undo: s.can_undo(),
        can_redo: s.can_redo(),
    }
}

/// The current branch's short name, or a short commit id when detached.
pub fn git_branch(root: &Path) -> Option<String> {
    let repo = git2::Repository::discover(root).ok()?;
    let head = repo.head().ok()?;
    if head.is_branch() {
        return head.shorthand().map(str::to_owned);
    }
    head.target().map(|oid| oid.to_string()[..7].to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(text: &str) -> (tempfile::TempDir, Api) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("d.md"), text).unwrap();
        let api = Api::open(dir.path()).unwrap();
        (dir, api)
    }

    #[test]
    fn the_status_bar_shows_the_git_branch() {
        let (dir, api) = setup("text\n");
        assert_eq!(api.workspace().branch, None, "not a repository");
        let repo = git2::Repository::init(dir.path()).unwrap();
        let sig = git2::Signature::now("t", "t@example.com").unwrap();
        let tree = repo
            .find_tree(repo.index().unwrap().write_tree().unwrap())
            .unwrap();
        let oid = repo
            .commit(Some("refs/heads/drafts"), &sig, &sig, "first", &tree, &[])
            .unwrap();
        repo.set_head("refs/heads/drafts").unwrap();
        assert_eq!(api.workspace().branch.as_deref(), Some("drafts"));
        repo.set_head_detached(oid).unwrap();
        assert_eq!(
            api.workspace().branch,
            Some(oid.to_string()[..7].to_owned()),
            "detached: a short id"
        );
    }

    #[test]
    fn utf16_edits_round_trip_through_the_core() {
        let (_dir, mut api) = setup("a😀b\n");
        let v = api.open_document("d.md").unwrap();
        // Insert after the emoji: UTF-16 offset 3 (a=0, 😀=1..3).
        let ack = api
            .edit(
                "d.md",
                v.version,
                &[TextChange {
                    from: 3,
                    to: 3,
                    insert: "é".into(),
                }],
                true,
            )
            .unwrap();
        assert!(ack.dirty);
        let v2 = api.open_document("d.md").unwrap();
        assert_eq!(v2.text, "a😀éb\n");
        // An offset inside the surrogate pair is refused.
        let err = api
            .edit(
                "d.md",
                ack.version,
                &[TextChange {
                    from: 2,
                    to: 2,
                    insert: "x".into(),
                }],
                true,
            )
            .unwrap_err();
        assert!(err.to_string().contains("surrogate"), "{err}");
        // A stale version is refused.
        assert!(api.edit("d.md", 0, &[], true).is_err());
    }

    #[test]
    fn accept_returns_utf16_changes_that_reproduce_the_text() {
        let (dir, mut api) = setup("😀 the quick fox\n");
        let mut s = Session::open(
            api.store().clone(),
            DocPath::parse("d.md").unwrap(),
            Provenance::human("h"),
        )
        .unwrap();
        let id = s
            .propose(
                CharRange::new(2, 11),
                "the slow",
                crate::session::ProposeOptions {
                    author: Provenance::human("bot"),
                    turn_id: None,
                    instruction: None,
                },
            )
            .unwrap();
        drop(s);
        let v = api.open_document("d.md").unwrap();
        assert_eq!(v.review.proposals[0].from, Some(3), "UTF-16: the emoji counts 2");
        let applied = api.accept("d.md", &id, None).unwrap();
        // Apply the UTF-16 changes to a JS-like string model and compare.
        let mut units: Vec<u16> = v.text.encode_utf16().collect();
        for c in applied.changes.iter().rev() {
            let ins: Vec<u16> = c.insert.encode_utf16().collect();
            units.splice(c.from as usize..c.to as usize, ins);
        }
        assert_eq!(String::from_utf16(&units).unwrap(), "😀 the slow fox\n");
        assert!(applied.review.proposals.is_empty());
        assert_eq!(applied.review.spans[0].from, 7);
        let undone = api.undo("d.md").unwrap();
        assert_eq!(undone.review.proposals.len(), 1);
        drop(dir);
    }

    #[test]
    fn watcher_notices_external_changes_and_ignores_own_writes() {
        let (dir, mut api) = setup("one two\n");
        api.open_document("d.md").unwrap();
        api.new_thread("d.md", 4, 7, "hm").unwrap();
        let sidecar = dir.path().join(".threads/d.md.json");
        assert!(
            api.file_changed(&api.root().join(".threads/d.md.json"))
                .is_empty(),
            "own write"
        );
        // Another writer edits the sidecar.
        let text = std::fs::read_to_string(&sidecar)
            .unwrap()
            .replace("\"open\"", "\"resolved\"");
        std::fs::write(&sidecar, text).unwrap();
        let root = api.root().to_path_buf();
        let notices = api.file_changed(&root.join(".threads/d.md.json"));
        assert!(
            notices.contains(&Notice::ReviewChanged { path: "d.md".into() }),
            "{notices:?}"
        );
        assert_eq!(api.review("d.md").unwrap().threads[0].status, "resolved");
        // The document changes on disk while clean: reloaded, the thread follows.
        std::fs::write(dir.path().join("d.md"), "zero one two\n").unwrap();
        let notices = api.file_changed(&root.join("d.md"));
        match &notices[0] {
            Notice::DocumentReloaded { changes, .. } => {
                assert_eq!(
                    changes,
                    &vec![TextChange {
                        from: 0,
                        to: 0,
                        insert: "zero ".into()
                    }]
                )
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(api.review("d.md").unwrap().threads[0].from, Some(9));
        // Dirty buffer + external change: a conflict, nothing lost.
        let v = api.open_document("d.md").unwrap();
        api.edit(
            "d.md",
            v.version,
            &[TextChange {
                from: 0,
                to: 0,
                insert: "my ".into(),
            }],
            false,
        )
        .unwrap();
        std::fs::write(dir.path().join("d.md"), "theirs\n").unwrap();
        assert_eq!(
            api.file_changed(&root.join("d.md")),
            vec![Notice::Conflict { path: "d.md".into() }]
        );
        assert_eq!(api.open_document("d.md").unwrap().text, "my zero one two\n");
        let cmp = api.compare_with_disk("d.md").unwrap();
        assert!(!cmp.diff.is_empty());
        let applied = api.reload_document("d.md").unwrap();
        assert!(!applied.dirty);
        assert_eq!(api.open_document("d.md").unwrap().text, "theirs\n");
        // Saving is our own write: no notice.
        let v = api.open_document("d.md").unwrap();
        api.edit(
            "d.md",
            v.version,
            &[TextChange {
                from: 0,
                to: 0,
                insert: "x".into(),
            }],
            false,
        )
        .unwrap();
        api.save("d.md").unwrap();
        assert!(api.file_changed(&root.join("d.md")).is_empty());
    }
}
