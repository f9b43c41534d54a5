//! The API the desktop app calls: one method per IPC command.
//!
//! Everything a UI needs, in the shapes it needs: positions in **UTF-16 code
//! units** (CodeMirror's and JavaScript's unit), converted here — at the
//! boundary — and nowhere else. Tauri commands in `src-tauri/` are one-line
//! wrappers over these methods, through the [`crate::desk::Desk`] that holds
//! the `Api` (and runs its jobs off its lock); the DTOs derive `ts_rs::TS` (feature `ts`) so the
//! UI's TypeScript types are generated from them (`ui/src/bindings/`).
//!
//! Positions that arrive from the UI are untrusted: every one is checked against
//! the document (and must not split a surrogate pair) before it is used.
//!
//! By concept: the shapes (`dto`), the UTF-16 conversion (`convert`), the
//! steps of a producer run (`jobs`), file events (`notices`), the conflict banner's merge (`merge`), settings (`settings`), the
//! spelling dictionary (`spelling`), search across the workspace (`search`), the
//! workspace's review (`inbox`), hot exit
//! (`backups`); this file holds the documents and the review commands.

use crate::ops::export::Rendered;
use crate::ops::{ExportFormat, ExportOut, Ops, ThreadChange};
use crate::views::{self, Unit};
pub use crate::views::{AuthorDto, CommentDto, ContractDto, ProposalDto, SpanDto, ThreadDto};
use cowriting_core::changeset::{ChangeSet, Operation};
use cowriting_core::document::Document;
use cowriting_core::history::EditKind;
use cowriting_core::model::{Provenance, ThreadStatus};
use cowriting_core::offset::{CharRange, Utf16Offset};
pub use cowriting_producers::suggest::{Job, ProducerKind, RunOutcome};
use cowriting_workspace::config::Config;
use cowriting_workspace::error::{Error, Result};
use cowriting_workspace::identity::human_identity;
use cowriting_workspace::ledger::LEDGER_DIR;
use cowriting_workspace::session::{Session, Target};
use cowriting_workspace::store::Store;
use cowriting_workspace::workspace::{DocPath, Workspace, SIDECAR_DIR};
use std::path::Path;
use std::sync::Arc;

mod convert;
mod dto;
mod inbox;
mod jobs;
mod merge;
mod notices;
mod open;
pub mod review_pass;
mod search;
mod settings;
mod spelling;
pub use convert::from_text_changes;
use convert::to_text_changes;
pub use dto::*;
pub use inbox::InboxOpen;

mod backups;
pub use backups::{backup_root, write_backups, RestoreReport, RestoredDto, UnrestoredDto, BACKUP_DIR_ENV};

// The app keeps the API in its state, shared by threads: it must stay `Send`.
const _: fn() = || {
    fn send<T: Send>() {}
    send::<Api>();
};

/// See the module docs.
pub struct Api {
    store: Arc<Store>,
    identity: Provenance,
    /// The open documents, each with its review revision ([`open`]).
    sessions: open::OpenSessions,
    /// The hot-exit journal of unsaved buffers ([`backups`]), outside the workspace.
    backups: Option<backups::Backups>,
    /// The Inbox's items of closed documents, read again only where their files
    /// changed ([`crate::ops::doc_cache`]); shared with the reads done off the lock.
    inbox_cache: Arc<std::sync::Mutex<crate::ops::doc_cache::InboxCache>>,
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
            sessions: open::OpenSessions::default(),
            backups,
            inbox_cache: Arc::default(),
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
        // Only documents with a sidecar have badges to read: one walk of
        // `.threads/`, not a file opened per document (a docs tree of 38,000
        // pages has a few dozen reviewed).
        let reviewed: std::collections::HashSet<DocPath> =
            ws.list_sidecars().into_iter().map(|(d, _)| d).collect();
        let documents = ws
            .list_documents()
            .into_iter()
            .map(|d| {
                // An open document's badges are what its tab shows: with its
                // unsaved decisions (an accept waits for the save).
                if let Some(s) = self.sessions.get(&d) {
                    return entry_of(s);
                }
                if !reviewed.contains(&d) {
                    return entry_with(&d, None);
                }
                match self.store.load(&d) {
                    Ok(Some(a)) => entry_with(&d, Some(&a)),
                    Ok(None) => entry_with(&d, None),
                    Err(_) => DocEntry {
                        sidecar_error: true,
                        ..entry_with(&d, None)
                    },
                }
            })
            .collect::<Vec<DocEntry>>();
        // Every folder a document is in, at any depth: the others are empty.
        let mut holding = std::collections::HashSet::new();
        for d in &documents {
            let mut at = d.path.as_str();
            while let Some(cut) = at.rfind('/') {
                at = &at[..cut];
                if !holding.insert(at) {
                    break;
                }
            }
        }
        let empty_folders = ws
            .list_folders()
            .into_iter()
            .filter(|f| !holding.contains(f.as_str()))
            .collect();
        WorkspaceInfo {
            root: ws.root().display().to_string(),
            name: ws.root().file_name().map_or_else(
                || ws.root().display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            branch: cowriting_git::branch(ws.root()),
            documents,
            empty_folders,
        }
    }

    fn session(&self, path: &str) -> Result<&Session> {
        let doc = DocPath::parse(path)?;
        self.sessions.get(&doc).ok_or_else(|| not_open(path))
    }

    pub(crate) fn session_mut(&mut self, path: &str) -> Result<&mut Session> {
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
        let (s, revision) = self.sessions.with_revision(&doc).ok_or_else(|| not_open(path))?;
        Ok(DocView {
            path: doc.to_string(),
            version: s.document().version(),
            dirty: s.is_dirty(),
            review: review_of(s, revision),
        })
    }

    /// An open document's text at `version` (the one its [`DocView`] gave),
    /// as UTF-8 bytes. Another version is refused as out of step (the text
    /// changed in between, e.g. reloaded from disk): the UI opens it again.
    pub fn document_text(&self, path: &str, version: u64) -> Result<Vec<u8>> {
        let s = self.session(path)?;
        if s.document().version() != version {
            return Err(Error::OutOfStep {
                path: path.to_owned(),
                version,
                current: s.document().version(),
            });
        }
        Ok(s.document().flatten().into_bytes())
    }

    /// Tests: an open (or now opened) document's text as the UI gets it.
    #[cfg(any(test, feature = "test-support"))]
    pub fn text_of(&mut self, path: &str) -> String {
        let v = self.open_document(path).unwrap();
        String::from_utf8(self.document_text(path, v.version).unwrap()).unwrap()
    }

    /// Close a document, discarding unsaved changes (the UI asks first).
    pub fn close_document(&mut self, path: &str) -> Result<()> {
        let doc = DocPath::parse(path)?;
        if self.sessions.remove(&doc).is_some() {
            self.backup_gone(&doc);
        }
        Ok(())
    }

    /// The one API as the app's writer uses it.
    fn ops(&self) -> Ops {
        Ops::new(self.store.clone(), self.identity.clone(), Unit::Utf16)
    }

    /// A new, empty document ([`Ops::new_document`]), opened.
    pub fn new_document(&mut self, name: &str) -> Result<DocView> {
        let out = self.ops().new_document(name)?;
        self.open_document(&out.document)
    }

    /// Rename or move a document with its review data ([`Ops::rename_document`]).
    /// An open one goes on under the new name with its buffer, unsaved edits
    /// and undo (its hot-exit backup follows). Returns the entry under the
    /// new name (its badges): the tree moves one row and lists nothing.
    pub fn rename_document(&mut self, from: &str, to: &str) -> Result<DocEntry> {
        let out = self.ops().rename_document(from, to)?;
        let (from, to) = (DocPath::parse(&out.from)?, DocPath::parse(&out.to)?);
        if let Some(mut s) = self.sessions.remove(&from) {
            s.renamed(to.clone());
            let dirty = s.is_dirty();
            self.sessions.insert(to.clone(), s);
            self.backup_gone(&from);
            if dirty {
                self.backup_stale(&to);
            }
        }
        Ok(self.entry_now(&to))
    }

    /// A document's entry in the tree as the app has it now: an open one's
    /// with its unsaved decisions, a closed one's from its sidecar.
    fn entry_now(&self, doc: &DocPath) -> DocEntry {
        match self.sessions.get(doc) {
            Some(s) => entry_of(s),
            None => self.entry_on_disk(doc).unwrap_or_else(|| entry_with(doc, None)),
        }
    }

    /// Move a document and its review data to the system trash
    /// ([`Ops::trash_document`]); an open one is closed, its unsaved edits
    /// dropped (the UI asks first).
    pub fn trash_document(&mut self, path: &str) -> Result<()> {
        let out = self.ops().trash_document(path)?;
        let doc = DocPath::parse(&out.document)?;
        if self.sessions.remove(&doc).is_some() {
            self.backup_gone(&doc);
        }
        Ok(())
    }

    /// A new folder ([`Ops::new_folder`]); returns its path.
    pub fn new_folder(&self, name: &str) -> Result<String> {
        Ok(self.ops().new_folder(name)?.folder)
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
        self.review_now(&DocPath::parse(path)?)
    }

    /// The review of an open document as it is now, with its revision.
    fn review_now(&self, doc: &DocPath) -> Result<ReviewDto> {
        let (s, revision) = self
            .sessions
            .with_revision(doc)
            .ok_or_else(|| not_open(&doc.to_string()))?;
        Ok(review_of(s, revision))
    }

    /// Who wrote how much of an open document, as it is in the buffer
    /// ([`Ops::authorship_of`]).
    pub fn authorship(&self, path: &str) -> Result<crate::ops::AuthorshipOut> {
        self.ops().authorship_of(self.session(path)?)
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
        let doc = s.doc_path().clone();
        self.applied(&doc, &before, change.as_ref())
    }

    /// What a change to an open document's text did, as the UI applies it.
    fn applied(&self, doc: &DocPath, before: &Document, change: Option<&ChangeSet>) -> Result<Applied> {
        let (s, revision) = self
            .sessions
            .with_revision(doc)
            .ok_or_else(|| not_open(&doc.to_string()))?;
        Ok(Applied {
            changes: change.map(|c| to_text_changes(before, c)).unwrap_or_default(),
            version: s.document().version(),
            dirty: s.is_dirty(),
            review: review_of(s, revision),
        })
    }

    /// Accept a proposal (optionally with the human's edited replacement).
    pub fn accept(&mut self, path: &str, id: &str, with: Option<&str>) -> Result<Applied> {
        self.change_with(path, |s| s.accept(id, with).map(Some))
    }

    /// The writer saw and confirmed the hidden characters of these proposals
    /// (the view's `hidden`): their accept may insert them from now on.
    pub fn confirm_hidden(&mut self, path: &str, ids: &[String]) -> Result<()> {
        self.session_mut(path)?.confirm_hidden(ids.iter().cloned());
        Ok(())
    }

    /// The writer looked at where these proposals were likely placed (the
    /// view's `likelyPlace`) and confirmed it: their accept applies them there.
    pub fn confirm_place(&mut self, path: &str, ids: &[String]) -> Result<()> {
        self.session_mut(path)?.confirm_place(ids.iter().cloned());
        Ok(())
    }

    pub fn reject(&mut self, path: &str, id: &str) -> Result<Applied> {
        self.change_with(path, |s| s.reject(id).map(|()| None))
    }

    /// Accept every pending proposal of a turn, as one undo step.
    pub fn accept_turn(&mut self, path: &str, turn: &str) -> Result<Applied> {
        self.change_with(path, |s| s.accept_turn(turn).map(Some))
    }

    /// Reject every proposal of a turn (whatever its state), as one undo step.
    pub fn reject_turn(&mut self, path: &str, turn: &str) -> Result<Applied> {
        self.change_with(path, |s| s.reject_turn(turn).map(|()| None))
    }

    /// Accept these proposals (a group the writer chose, e.g. one producer's
    /// part of a shared turn), as one undo step. Each must be acceptable.
    pub fn accept_all(&mut self, path: &str, ids: &[String]) -> Result<Applied> {
        self.change_with(path, |s| s.accept_all(ids).map(Some))
    }

    /// Reject these proposals (whatever their state), as one undo step.
    pub fn reject_all(&mut self, path: &str, ids: &[String]) -> Result<Applied> {
        self.change_with(path, |s| s.reject_all(ids).map(|()| None))
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
        self.save_with(path, false)
    }

    /// Autosave: [`Api::save`], unless the file changed on disk since it was
    /// loaded or saved — then nothing is written and the answer says
    /// `conflict` (the writer chooses in the conflict banner).
    pub fn autosave(&mut self, path: &str) -> Result<SaveResult> {
        self.save_with(path, true)
    }

    fn save_with(&mut self, path: &str, guarded: bool) -> Result<SaveResult> {
        let s = self.session_mut(path)?;
        let report = if guarded {
            s.save_unless_changed()?
        } else {
            Some(s.save()?)
        };
        let doc = s.doc_path().clone();
        let result = SaveResult {
            dirty: s.is_dirty(),
            conflict: report.is_none(),
            sidecar_skipped: report.and_then(|r| r.sidecar_skipped),
            review: self.review_now(&doc)?,
        };
        if result.dirty {
            self.backup_stale(&doc);
        } else {
            self.backup_gone(&doc);
        }
        Ok(result)
    }

    fn range_of(s: &Session, from: Utf16Offset, to: Utf16Offset) -> Result<CharRange> {
        s.resolve_target(Target::Utf16 { from, to })
    }

    /// Run a thread operation of the one API ([`crate::ops`]) in the open
    /// session of `path`; answer with the review the UI repaints from.
    fn thread_op<T>(&mut self, path: &str, op: impl FnOnce(&mut Session) -> Result<T>) -> Result<ReviewDto> {
        let s = self.session_mut(path)?;
        op(s)?;
        let doc = s.doc_path().clone();
        self.review_now(&doc)
    }

    pub fn new_thread(
        &mut self,
        path: &str,
        from: Utf16Offset,
        to: Utf16Offset,
        body: &str,
    ) -> Result<ReviewDto> {
        self.thread_op(path, |s| Ops::new_thread_in(s, Target::Utf16 { from, to }, body))
    }

    pub fn reply(&mut self, path: &str, thread: &str, body: &str) -> Result<ReviewDto> {
        self.thread_op(path, |s| s.reply(thread, body))
    }

    pub fn set_thread_resolved(&mut self, path: &str, thread: &str, resolved: bool) -> Result<ReviewDto> {
        let change = if resolved {
            ThreadChange::Resolve
        } else {
            ThreadChange::Reopen
        };
        self.thread_op(path, |s| Ops::change_thread_in(s, thread, change))
    }

    /// Keep a relocated thread on the text it was re-attached to.
    pub fn keep_thread_here(&mut self, path: &str, thread: &str) -> Result<ReviewDto> {
        self.thread_op(path, |s| Ops::change_thread_in(s, thread, ThreadChange::KeepHere))
    }

    /// Detach a thread from its text (it stays listed, orphaned).
    pub fn detach_thread(&mut self, path: &str, thread: &str) -> Result<ReviewDto> {
        self.thread_op(path, |s| Ops::change_thread_in(s, thread, ThreadChange::Detach))
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

    /// An open document as the writer has it (unsaved edits included)
    /// rendered for export ([`crate::ops::export::render`]). Review data that
    /// cannot be read refuses only an export that shows it.
    pub fn export(
        &self,
        path: &str,
        format: ExportFormat,
        with_review: bool,
        remote_images: bool,
    ) -> Result<Rendered> {
        let s = self.session(path)?;
        if with_review || format == ExportFormat::Critic {
            if let Some(problem) = s.sidecar_problem() {
                return Err(Error::BadInput(format!(
                    "{path}: its review data cannot be read ({}); export a clean copy, or repair it",
                    problem.message
                )));
            }
        }
        Ok(crate::ops::export::render(s, format, with_review, remote_images))
    }

    /// Write an export to the file the writer chose ([`Ops::write_export`]).
    pub fn write_export(
        &self,
        rendered: &Rendered,
        bytes: &[u8],
        target: &Path,
        overwrite: bool,
    ) -> Result<ExportOut> {
        self.ops().write_export(rendered, bytes, target, overwrite)
    }
}

fn not_open(path: &str) -> Error {
    Error::NotFound {
        what: "open document",
        id: path.to_owned(),
        doc: "this window".into(),
    }
}

fn review_of(s: &Session, revision: u64) -> ReviewDto {
    ReviewDto {
        revision,
        proposals: views::proposals(s, Unit::Utf16),
        threads: views::threads(s, Unit::Utf16),
        spans: views::spans(s, Unit::Utf16),
        sidecar_error: s.sidecar_problem().cloned(),
        can_undo: s.can_undo(),
        can_redo: s.can_redo(),
        entry: entry_of(s),
    }
}

/// An open document's entry in the file tree, as [`Api::workspace`] lists it:
/// its badges with its unsaved decisions; a sidecar that cannot be read says so.
fn entry_of(s: &Session) -> DocEntry {
    match s.sidecar_problem() {
        None => entry_with(s.doc_path(), Some(s.artifact())),
        Some(_) => DocEntry {
            sidecar_error: true,
            ..entry_with(s.doc_path(), None)
        },
    }
}

/// A document's entry with the badges of its review data (`None`: none).
fn entry_with(doc: &DocPath, review: Option<&cowriting_core::model::Artifact>) -> DocEntry {
    DocEntry {
        path: doc.to_string(),
        proposals: review.map_or(0, |a| a.proposals.len() as u32),
        open_threads: review.map_or(0, |a| {
            a.threads
                .iter()
                .filter(|t| t.status == ThreadStatus::Open)
                .count() as u32
        }),
        sidecar_error: false,
    }
}

/// The workspace for a document named on its own (`cowriting-desktop
/// notes/essay.md`, or a file manager's "Open with"): the git work tree the file
/// is in, else the file's folder; and the document's path in it. Refused like
/// any document path: a file under `.git`, `.threads` or `.cowriting`, or one
/// that is not Markdown or text.
pub fn workspace_of_document(file: &Path) -> Result<(Workspace, DocPath)> {
    let file = file
        .canonicalize()
        .map_err(|e| Error::BadInput(format!("{}: cannot open: {e}", file.display())))?;
    if !file.is_file() {
        return Err(Error::BadInput(format!("{}: not a file", file.display())));
    }
    let folder = file
        .parent()
        .ok_or_else(|| Error::BadInput(format!("{}: no folder", file.display())))?;
    let work_tree = cowriting_git::work_tree_of(folder).filter(|w| file.starts_with(w));
    let ws = Workspace::open(work_tree.as_deref().unwrap_or(folder))?;
    let doc = ws.doc_path_for_arg(&file.to_string_lossy())?;
    Ok((ws, doc))
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

    /// Autosave is Ctrl+S's save, except over a change another program made
    /// on disk: then nothing is written and the answer says conflict.
    #[test]
    fn autosave_never_writes_over_a_change_on_disk() {
        let (dir, mut api) = setup("one\n");
        let v = api.open_document("d.md").unwrap();
        let typed = |api: &mut Api, version| {
            let change = TextChange {
                from: Utf16Offset(0),
                to: Utf16Offset(0),
                insert: "A ".into(),
            };
            api.edit("d.md", version, &[change], true).unwrap().version
        };
        let version = typed(&mut api, v.version);
        let saved = api.autosave("d.md").unwrap();
        assert!(!saved.conflict && !saved.dirty);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("d.md")).unwrap(),
            "A one\n"
        );
        typed(&mut api, version);
        std::fs::write(dir.path().join("d.md"), "theirs\n").unwrap();
        let refused = api.autosave("d.md").unwrap();
        assert!(refused.conflict && refused.dirty);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("d.md")).unwrap(),
            "theirs\n"
        );
        // Ctrl+S is the writer's choice: it writes.
        let saved = api.save("d.md").unwrap();
        assert!(!saved.conflict && !saved.dirty);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("d.md")).unwrap(),
            "A A one\n"
        );
    }

    #[test]
    fn the_text_is_utf8_bytes_at_the_version_the_document_view_gave() {
        let (_dir, mut api) = setup("Héllo 😀\r\nworld\n");
        let v = api.open_document("d.md").unwrap();
        let bytes = api.document_text("d.md", v.version).unwrap();
        assert_eq!(
            bytes,
            "Héllo 😀\r\nworld\n".as_bytes(),
            "the buffer byte for byte, CRLF kept"
        );
        let change = TextChange {
            from: Utf16Offset(0),
            to: Utf16Offset(0),
            insert: "Oh. ".into(),
        };
        let now = api.edit("d.md", v.version, &[change], true).unwrap().version;
        let stale = api.document_text("d.md", v.version).unwrap_err();
        assert_eq!(stale.code(), crate::ErrorCode::OutOfStep, "{stale}");
        assert_eq!(
            api.document_text("d.md", now).unwrap(),
            "Oh. Héllo 😀\r\nworld\n".as_bytes()
        );
        assert_eq!(
            api.document_text("other.md", now).unwrap_err().code(),
            crate::ErrorCode::NotFound
        );
    }

    #[test]
    fn a_renamed_open_document_keeps_its_buffer_unsaved_edits_and_undo() {
        let (dir, mut api) = setup("Hello.\n");
        let v = api.open_document("d.md").unwrap();
        let typed = TextChange {
            from: Utf16Offset(0),
            to: Utf16Offset(0),
            insert: "Well, ".into(),
        };
        api.edit("d.md", v.version, &[typed], true).unwrap();
        api.new_thread("d.md", Utf16Offset(6), Utf16Offset(11), "Why?")
            .unwrap();

        let entry = api.rename_document("d.md", "sub/e").unwrap();
        assert_eq!(
            (entry.path.as_str(), entry.open_threads),
            ("sub/e.md", 1),
            "the new name, with its badges"
        );
        assert_eq!(api.dirty_documents(), ["sub/e.md"]);
        let v = api.open_document("sub/e.md").unwrap();
        assert_eq!(api.text_of("sub/e.md"), "Well, Hello.\n");
        assert!(v.dirty);
        assert_eq!(v.review.threads.len(), 1);
        assert!(api.review("d.md").is_err(), "no session under the old name");
        // On disk: the saved text and the sidecar moved; nothing under the old name.
        assert_eq!(
            std::fs::read_to_string(dir.path().join("sub/e.md")).unwrap(),
            "Hello.\n"
        );
        assert!(!dir.path().join("d.md").exists());
        let sidecar = std::fs::read_to_string(dir.path().join(".threads/sub/e.md.json")).unwrap();
        assert!(sidecar.contains("\"docPath\": \"sub/e.md\""), "{sidecar}");
        assert!(!dir.path().join(".threads/d.md.json").exists());
        // Undo goes on; the save writes under the new name.
        assert_eq!(api.undo("sub/e.md").unwrap().changes.len(), 1);
        assert_eq!(api.text_of("sub/e.md"), "Hello.\n");
        api.redo("sub/e.md").unwrap();
        let saved = api.save("sub/e.md").unwrap();
        assert!(!saved.dirty);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("sub/e.md")).unwrap(),
            "Well, Hello.\n"
        );
        assert!(!dir.path().join("d.md").exists(), "the old name stays free");

        // New: opened at once; refused when taken. New folders show until they hold a document.
        let fresh = api.new_document("fresh").unwrap();
        assert_eq!((fresh.path.as_str(), fresh.dirty), ("fresh.md", false));
        assert_eq!(api.text_of("fresh.md"), "");
        assert_eq!(
            api.new_document("sub/e.md").unwrap_err().code(),
            crate::ErrorCode::Exists
        );
        assert_eq!(api.new_folder("drafts/old").unwrap(), "drafts/old");
        assert_eq!(api.workspace().empty_folders, ["drafts", "drafts/old"]);
        api.new_document("drafts/old/x").unwrap();
        assert!(api.workspace().empty_folders.is_empty());
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
    fn a_document_opens_in_its_git_work_tree_else_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let notes = dir.path().join("notes");
        std::fs::create_dir_all(notes.join("drafts")).unwrap();
        std::fs::write(notes.join("drafts/essay.md"), "text\n").unwrap();
        let (ws, doc) = workspace_of_document(&notes.join("drafts/essay.md")).unwrap();
        assert_eq!(
            ws.root(),
            notes.join("drafts").canonicalize().unwrap(),
            "no repository: its folder"
        );
        assert_eq!(doc.as_str(), "essay.md");

        git2::Repository::init(&notes).unwrap();
        let (ws, doc) = workspace_of_document(&notes.join("drafts/./essay.md")).unwrap();
        assert_eq!(
            ws.root(),
            notes.canonicalize().unwrap(),
            "the enclosing work tree"
        );
        assert_eq!(doc.as_str(), "drafts/essay.md");

        std::fs::write(notes.join(".git/notes.md"), "x\n").unwrap();
        assert!(
            workspace_of_document(&notes.join(".git/notes.md")).is_err(),
            "nothing under .git"
        );
        assert!(
            workspace_of_document(&notes.join("drafts")).is_err(),
            "a folder is not a document"
        );
        assert!(workspace_of_document(&notes.join("missing.md")).is_err());
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
                    from: Utf16Offset(3),
                    to: Utf16Offset(3),
                    insert: "é".into(),
                }],
                true,
            )
            .unwrap();
        assert!(ack.dirty);
        assert_eq!(api.text_of("d.md"), "a😀éb\n");
        // An offset inside the surrogate pair is refused.
        let err = api
            .edit(
                "d.md",
                ack.version,
                &[TextChange {
                    from: Utf16Offset(2),
                    to: Utf16Offset(2),
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
    fn a_chosen_group_is_accepted_in_one_call_and_undone_in_one_step() {
        let (dir, mut api) = setup("one two three four\n");
        let mut s = Session::open(
            api.store().clone(),
            DocPath::parse("d.md").unwrap(),
            Provenance::human("h"),
        )
        .unwrap();
        let mut ids = Vec::new();
        for (at, by) in [((0, 3), "1"), ((4, 7), "2"), ((8, 13), "3")] {
            let opts = cowriting_workspace::session::ProposeOptions {
                author: Provenance::human("bot"),
                turn_id: Some("turn-shared".into()),
                instruction: None,
            };
            ids.push(s.propose(CharRange::new(at.0, at.1), by, opts).unwrap());
        }
        drop(s);
        api.open_document("d.md").unwrap();
        let chosen = vec![ids[0].clone(), ids[2].clone()];
        let applied = api.accept_all("d.md", &chosen).unwrap();
        assert_eq!(
            api.session("d.md").unwrap().document().flatten(),
            "1 two 3 four\n"
        );
        assert_eq!(applied.review.proposals.len(), 1, "the other one stays pending");
        let undone = api.undo("d.md").unwrap();
        assert_eq!(undone.review.proposals.len(), 3, "one undo step takes both back");
        assert_eq!(
            api.session("d.md").unwrap().document().flatten(),
            "one two three four\n"
        );
        api.reject_all("d.md", &chosen).unwrap();
        let left: Vec<String> = api
            .review("d.md")
            .unwrap()
            .proposals
            .into_iter()
            .map(|p| p.id)
            .collect();
        assert_eq!(left, vec![ids[1].clone()]);
        assert_eq!(
            api.accept_all("d.md", &[]).unwrap_err().code(),
            cowriting_workspace::ErrorCode::BadInput
        );
        drop(dir);
    }

    /// Decided means decided in the app: a stale copy of the sidecar saved by
    /// another writer after the app accepted and saved is reloaded without the
    /// proposal, accept refuses it (`not_found`), the text keeps one
    /// application; undo still takes the accept back, and saving the undo keeps
    /// the proposal it restores.
    #[test]
    fn a_stale_sidecar_after_an_accept_is_never_pending_again_in_the_app() {
        let (dir, mut api) = setup("the quick fox\n");
        let mut s = Session::open(
            api.store().clone(),
            DocPath::parse("d.md").unwrap(),
            Provenance::human("h"),
        )
        .unwrap();
        let producer = cowriting_core::contract::Producer {
            id: "bot".into(),
            version: "1".into(),
            provenance: "agent:bot".into(),
        };
        let opts = cowriting_workspace::session::ProposeOptions {
            author: Provenance::human("bot"),
            turn_id: None,
            instruction: None,
        };
        let id = s
            .propose_suggestion(CharRange::new(4, 9), "quick, quick", &producer, "edit", "r", opts)
            .unwrap()
            .sidecar_id;
        drop(s);
        let sidecar = dir.path().join(".threads/d.md.json");
        let stale = std::fs::read(&sidecar).unwrap();
        api.open_document("d.md").unwrap();
        api.accept("d.md", &id, None).unwrap();
        api.save("d.md").unwrap();
        let once = "the quick, quick fox\n";
        assert_eq!(std::fs::read_to_string(dir.path().join("d.md")).unwrap(), once);
        // Another writer saves its copy from before the accept.
        std::fs::write(&sidecar, &stale).unwrap();
        api.file_changed(&sidecar);
        assert!(
            api.review("d.md").unwrap().proposals.is_empty(),
            "not pending again"
        );
        let listed = api.workspace();
        assert_eq!(listed.documents[0].proposals, 0, "the badge counts none");
        let err = api.accept("d.md", &id, None).unwrap_err();
        assert_eq!(err.code(), cowriting_workspace::ErrorCode::NotFound, "{err}");
        assert!(err.to_string().contains("already accepted"), "{err}");
        assert_eq!(api.session("d.md").unwrap().document().flatten(), once);
        // Undo takes the accept back (a legitimate way back to pending) ...
        let undone = api.undo("d.md").unwrap();
        assert_eq!(undone.review.proposals.len(), 1);
        api.save("d.md").unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("d.md")).unwrap(),
            "the quick fox\n"
        );
        // ... and is saved with it: pending on disk, and decidable again.
        assert_eq!(api.review("d.md").unwrap().proposals.len(), 1);
        api.accept("d.md", &id, None).unwrap();
        api.save("d.md").unwrap();
        assert_eq!(std::fs::read_to_string(dir.path().join("d.md")).unwrap(), once);
        let log = std::fs::read_to_string(dir.path().join(".cowriting/decisions.jsonl")).unwrap();
        assert_eq!(log.lines().count(), 3, "accept, undo, accept: {log}");
        drop(dir);
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
                cowriting_workspace::session::ProposeOptions {
                    author: Provenance::human("bot"),
                    turn_id: None,
                    instruction: None,
                },
            )
            .unwrap();
        drop(s);
        let v = api.open_document("d.md").unwrap();
        let text = api.text_of("d.md");
        assert_eq!(v.review.proposals[0].from, Some(3), "UTF-16: the emoji counts 2");
        let applied = api.accept("d.md", &id, None).unwrap();
        // Apply the UTF-16 changes to a JS-like string model and compare.
        let mut units: Vec<u16> = text.encode_utf16().collect();
        for c in applied.changes.iter().rev() {
            let ins: Vec<u16> = c.insert.encode_utf16().collect();
            units.splice(c.from.0..c.to.0, ins);
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
        api.new_thread("d.md", Utf16Offset(4), Utf16Offset(7), "hm")
            .unwrap();
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
        assert_eq!(
            api.review("d.md").unwrap().threads[0].status,
            cowriting_core::model::ThreadStatus::Resolved
        );
        // git's HEAD (a checkout, a new repository): the tree and the branch
        // are read again; nothing else of git's counts.
        assert_eq!(
            api.file_changed(&root.join(".git/HEAD")),
            vec![Notice::TreeChanged]
        );
        assert!(api.file_changed(&root.join(".git/index")).is_empty());
        // The document changes on disk while clean: reloaded, the thread follows.
        std::fs::write(dir.path().join("d.md"), "zero one two\n").unwrap();
        let notices = api.file_changed(&root.join("d.md"));
        match &notices[0] {
            Notice::DocumentReloaded { changes, .. } => {
                assert_eq!(
                    changes,
                    &vec![TextChange {
                        from: Utf16Offset(0),
                        to: Utf16Offset(0),
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
                from: Utf16Offset(0),
                to: Utf16Offset(0),
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
        assert_eq!(api.text_of("d.md"), "my zero one two\n");
        let merge = api.merge_view("d.md").unwrap();
        assert!(!merge.parts.is_empty());
        let applied = api.reload_document("d.md").unwrap();
        assert!(!applied.dirty);
        assert_eq!(api.text_of("d.md"), "theirs\n");
        // Saving is our own write: no notice.
        let v = api.open_document("d.md").unwrap();
        api.edit(
            "d.md",
            v.version,
            &[TextChange {
                from: Utf16Offset(0),
                to: Utf16Offset(0),
                insert: "x".into(),
            }],
            false,
        )
        .unwrap();
        api.save("d.md").unwrap();
        assert!(api.file_changed(&root.join("d.md")).is_empty());
    }
}
