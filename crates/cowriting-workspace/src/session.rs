//! An editing session on one document: the review operations of the core.
//!
//! A [`Session`] holds the document (the model of record), the live ranges of
//! every thread and proposal anchor, the attribution spans, and the undo
//! history. Every edit goes through [`Session::apply_change`] (or, for accept,
//! its private twin), which applies one [`ChangeSet`] and maps every
//! position-bearing thing through it in one place.
//!
//! Review rules (the F4 invariants of the VS Code flow):
//! - **INV-10** [`Session::propose`] never touches the document; the proposal is
//!   persisted at once.
//! - **INV-11** [`Session::accept`] applies only when the proposal's
//!   `fingerprint.text` resolves exactly at decision time; a stale or orphaned
//!   proposal is refused (it can always be rejected). A proposal's anchor is
//!   never re-fingerprinted.
//! - **INV-12** accept and reject are human gestures: they take no author, and
//!   no producer-facing API (propose) can decide.
//! - **INV-13** `proposals[]` holds pending proposals only; accept and reject
//!   remove the record.
//!
//! Persistence (the one write protocol, [`crate::txn`]): every write takes the
//! document's lock and finishes a transaction a crashed writer left. A
//! decision that changes the text (accept, and the undo or redo of one) is held
//! as an *unsaved decision* until the text is saved, and then reaches the disk
//! with it in one transaction — sidecar, ledger entry, decision log, document —
//! so discarding the buffer brings the proposal back, and no crash can leave
//! the text applied with the proposal still pending. A reject (which changes
//! no text) is written at once, in a transaction of its own.
//! [`Session::backup`] and [`Session::restore_backup`] carry an unsaved buffer
//! and its unsaved decisions across a crash (the app's hot exit).
//!
//! Suggestion contract: [`Session::file_suggestions`] files contract
//! suggestions as proposals and keeps their records in the [`Ledger`]; every
//! accept and reject (and their undo and redo) records the decision there, and
//! a save migrates pending suggestions whose text is intact to the saved bytes.
//! Ledger failures never undo a human's decision: they are kept as warnings
//! ([`Session::take_warnings`]).
//!
//! The methods live by concept: `editing` (changes, undo, the text on disk),
//! `proposals`, `suggestions` (the contract side), `threads`, `sidecar`
//! (reading, adopting and committing) and `saving`; `backup` is hot exit.

use crate::error::{Error, ErrorCode, ErrorInfo, Result};
use crate::ledger::{Entry, Filed, Ledger};
use crate::lock::DocLock;
use cowriting_core::anchor::{build_fingerprint, Resolution, Resolver};
use cowriting_core::attribution::{RecordMeta, Span, SpanAuthor, Spans};
use cowriting_core::changeset::{ChangeSet, RangeAssoc};
use cowriting_core::contract::{self, Outcome, Suggestion};
use cowriting_core::diff::{chars_kept_from, word_change, word_diff, DiffPart};
use cowriting_core::document::Document;
use cowriting_core::history::{EditKind, History, ReviewOp};
use cowriting_core::model::{
    new_id, now_iso, Anchor, Artifact, Attribution, Comment, Extra, Proposal, Provenance, Thread,
    ThreadStatus,
};
use cowriting_core::offset::{ByteOffset, ByteRange, CharRange, FileByteRange, Utf16Offset};
// A decision is redone up to the store's bound when a file changed under it
// (with its backoff, about ten seconds of another writer changing the files
// without pause; a writer that never pauses is given up on).
use crate::store::{Store, REDO_LIMIT};
use crate::txn::{lock_and_recover, lock_existing, CommitError, Txn};
use crate::workspace::DocPath;
use ropey::Rope;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

mod backup;
mod editing;
mod proposals;
mod saving;
mod sidecar;
mod suggestions;
mod threads;
pub use backup::{Backup, BackupDecision, Restored, UnsavedMark, BACKUP_VERSION};
pub use proposals::{BatchAccepted, Overlaps, Proposed};

/// The state of the position-bearing things, as undo restores it.
#[derive(Clone, Debug, Default)]
struct Snapshot {
    spans: Spans,
    tracked: HashMap<String, CharRange>,
}

impl cowriting_core::history::Weigh for Snapshot {
    fn weigh(&self) -> usize {
        self.spans.copy_bytes()
            + self
                .tracked
                .keys()
                .map(|id| id.len() + std::mem::size_of::<(String, CharRange)>())
                .sum::<usize>()
    }
}

/// Where a pending proposal stands against the current text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "lowercase")]
pub enum ProposalState {
    /// Its target text is there, exactly: it can be accepted.
    Pending,
    /// Its neighbourhood is there but its target text changed: accept refused.
    Stale,
    /// Its target text cannot be placed at all: accept refused.
    Orphaned,
}

/// A proposal as a client shows it.
#[derive(Clone, Debug)]
pub struct ProposalView {
    pub proposal: Proposal,
    pub state: ProposalState,
    /// The target (pending) or the text now in its place (stale).
    pub range: Option<CharRange>,
    /// `fingerprint.text`: what the proposal replaces.
    pub target: String,
    /// For a stale proposal, the text now where the target was.
    pub current: Option<String>,
    /// Why it cannot be accepted, for stale and orphaned proposals.
    pub reason: Option<String>,
    /// Word diff of target → replacement, for inline display.
    pub diff: Vec<DiffPart>,
    /// Stale only because its exact target text was found where only the
    /// fallback evidence places it (the words around it changed): `range` is
    /// that place, and it is accepted there once the writer confirmed the
    /// place ([`Session::confirm_place`]).
    pub likely_place: bool,
}

/// A thread as a client shows it.
#[derive(Clone, Debug)]
pub struct ThreadView {
    pub thread: Thread,
    /// `None` when the thread's text cannot be found (orphaned), or it was
    /// detached from it.
    pub range: Option<CharRange>,
    /// The anchored text now (or as fingerprinted, when orphaned).
    pub text: String,
    /// The thread was re-attached to its words after their whitespace changed
    /// (a re-wrap, a re-indent): `text` is not exactly what was commented on
    /// until a writer keeps it here ([`Session::keep_thread_here`]).
    pub relocated: bool,
    /// The text as it was commented on.
    pub anchored_text: String,
}

/// What [`Session::save`] did with the sidecar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveReport {
    /// Why the sidecar was not written (it is corrupt or newer), if it was not.
    pub sidecar_skipped: Option<ErrorInfo>,
}

/// Options of a proposal, besides its range and replacement.
#[derive(Clone, Debug)]
pub struct ProposeOptions {
    pub author: Provenance,
    pub turn_id: Option<String>,
    pub instruction: Option<String>,
}

/// Suggestions to file as proposals with the same options, in a batch
/// ([`Session::file_batch`]).
#[derive(Clone, Debug)]
pub struct NewProposals {
    pub suggestions: Vec<Suggestion>,
    pub opts: ProposeOptions,
}

/// A thread to start in a batch ([`Session::file_batch`]): its first comment,
/// by `author`, with `extra` fields, on `range`.
#[derive(Clone, Debug)]
pub struct NewThread {
    pub range: CharRange,
    pub body: String,
    pub author: Provenance,
    pub extra: Extra,
}

/// See the module docs.
pub struct Session {
    store: Arc<Store>,
    doc_path: DocPath,
    doc: Document,
    saved: Rope,
    saved_bom: bool,
    artifact: Artifact,
    sidecar_problem: Option<ErrorInfo>,
    /// Live ranges of thread and proposal anchors, by anchor id.
    tracked: HashMap<String, CharRange>,
    /// Thread anchors (of `tracked`) that were relocated onto re-wrapped text
    /// and not kept there yet: a save leaves their fingerprints as they were.
    relocated: HashSet<String>,
    spans: Spans,
    /// Attribution records that did not resolve at load; written back unchanged.
    orphan_attributions: Vec<(Attribution, Anchor)>,
    history: History<Snapshot>,
    identity: Provenance,
    ledger: Ledger,
    /// Ranges a client pinned (a selection a producer is working on), mapped
    /// through every change like anchors.
    pins: HashMap<String, CharRange>,
    /// Every change since a producer took its copy of the text, composed, by
    /// key ([`Session::track`]).
    trackers: HashMap<String, ChangeSet>,
    warnings: Vec<String>,
    /// The sidecar as last read from (or written to) disk; `artifact` is this
    /// with the unsaved decisions applied.
    base: Artifact,
    /// Decisions taken on the buffer and not yet on disk, in order.
    unsaved: Vec<Unsaved>,
    /// Old document names whose pending files held an entry decided here
    /// (a merge of a rename left it there): tidied once the lock is released.
    strays: Vec<DocPath>,
    /// SHA-256 (hex) of the saved file's bytes, computed once per `saved` (a
    /// backup names its base; hashing a large file at every backup would hold
    /// the app's lock for long). Reset wherever `saved` is assigned.
    saved_sha: std::cell::OnceCell<String>,
    /// The buffer was restored from a backup made on a file that has changed
    /// since: the text it started from is not `saved` (that is the file now)
    /// and is not known. Cleared wherever `saved` is assigned.
    base_unknown: bool,
    /// Proposals whose hidden characters the writer confirmed
    /// ([`Session::confirm_hidden`]); any other whose replacement holds them is
    /// not accepted.
    confirmed_hidden: HashSet<String>,
    /// Proposals at a likely place whose place the writer confirmed
    /// ([`Session::confirm_place`]): accepted there.
    confirmed_places: HashSet<String>,
}

/// A document's files as a lockless read found them ([`Session::open`]),
/// taken before the read: the document's file and its sidecar, each held open
/// (so its inode cannot be freed and its number reused meanwhile) with its
/// identity (device, inode, size, change and modification times), `None` when
/// not there.
///
/// Whether a writer held the lock or a transaction was in flight is asked
/// only after the read ([`Quiet::still`]): every writer replaces the files by
/// a rename under the lock, so a pair read while one was at work either shows
/// a file changed since it was held, or the lock or the intent record still
/// there after. Asking before as well found nothing more and cost a third of
/// a listing's system calls (the lock's and the three intent records' paths
/// walked through the guard).
struct Quiet {
    held: [Option<(std::fs::File, [i64; 7])>; 2],
    /// The paths the guard gave for them (`None`: refused), looked at again
    /// after the read without asking the guard again.
    paths: [Option<std::path::PathBuf>; 2],
}

impl Quiet {
    /// The files now: opened by the kernel's walk where it answers for the
    /// guard ([`Workspace::open_plain`]), else through the guard.
    fn now(store: &Store, doc: &DocPath) -> Quiet {
        let ws = store.workspace();
        let identify = |f: std::fs::File| {
            let id = file_identity(&f.metadata().ok()?);
            Some((f, id))
        };
        let hold = |rel: String, document: bool| {
            #[cfg(target_os = "linux")]
            if let Some((path, file)) = ws.open_plain(&rel, document) {
                return (Some(path), file.map(|(f, meta)| (f, file_identity(&meta))));
            }
            let path = if document {
                ws.doc_file(doc)
            } else {
                ws.internal_file(&rel)
            }
            .ok();
            let file = path
                .as_ref()
                .and_then(|p| crate::workspace::open_beneath(ws, p).ok());
            (path, file.and_then(identify))
        };
        let (doc_path, doc_held) = hold(doc.as_str().to_owned(), true);
        let (sidecar_path, sidecar_held) = hold(crate::workspace::sidecar_rel(doc), false);
        Quiet {
            held: [doc_held, sidecar_held],
            paths: [doc_path, sidecar_path],
        }
    }

    /// Whether the files are still those held, and nobody is writing.
    fn still(&self, store: &Store, doc: &DocPath) -> Result<bool> {
        if !Self::nobody_writing(store, doc)? {
            return Ok(false);
        }
        // The same names (a path the guard refused before is asked again): a
        // name that leads to the file held open leads to what was read.
        let again = Self::files_again(store, doc, &self.paths);
        let now = again.map(|f| {
            f.and_then(|f| std::fs::symlink_metadata(f).ok())
                .map(|m| file_identity(&m))
        });
        Ok(self
            .held
            .iter()
            .zip(now)
            .all(|(held, now)| held.as_ref().map(|h| h.1) == now))
    }

    fn nobody_writing(store: &Store, doc: &DocPath) -> Result<bool> {
        let ws = store.workspace();
        Ok(!ws.lock_held(doc)? && !crate::txn::in_flight(ws, doc)?)
    }

    /// `paths`, each the guard refused asked of it again.
    fn files_again(
        store: &Store,
        doc: &DocPath,
        paths: &[Option<std::path::PathBuf>; 2],
    ) -> [Option<std::path::PathBuf>; 2] {
        let ws = store.workspace();
        [
            paths[0].clone().or_else(|| ws.doc_file(doc).ok()),
            paths[1].clone().or_else(|| ws.sidecar_file(doc).ok()),
        ]
    }
}

/// A file's identity for [`Quiet`].
fn file_identity(m: &std::fs::Metadata) -> [i64; 7] {
    use std::os::unix::fs::MetadataExt;
    [
        m.dev() as i64,
        m.ino() as i64,
        m.len() as i64,
        m.ctime(),
        m.ctime_nsec(),
        m.mtime(),
        m.mtime_nsec(),
    ]
}

/// How a client names a piece of the text ([`Session::resolve_target`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target<'a> {
    /// The exact text; `occurrence` (1-based) when it occurs more than once.
    Text {
        text: &'a str,
        occurrence: Option<usize>,
    },
    /// UTF-8 bytes of the text (after a BOM, if any).
    Bytes(ByteRange),
    /// UTF-16 code units (JavaScript's).
    Utf16 { from: Utf16Offset, to: Utf16Offset },
}

/// A review decision held until the text it belongs to is saved.
#[derive(Clone, Debug, PartialEq)]
enum Unsaved {
    /// The proposal leaves the sidecar and the decision is logged.
    Decided {
        proposal: Proposal,
        anchor: Anchor,
        outcome: Outcome,
        chosen: Option<String>,
        members: Option<Vec<Suggestion>>,
    },
    /// An undone decision: the proposal is back, the undo logged.
    Restored { proposal: Proposal, anchor: Anchor },
}

impl Unsaved {
    fn id(&self) -> &str {
        match self {
            Unsaved::Decided { proposal, .. } | Unsaved::Restored { proposal, .. } => &proposal.id,
        }
    }
}

impl Session {
    /// Open `doc` for editing. A sidecar that cannot be read (corrupt, newer)
    /// does not stop the document from opening: review operations report it,
    /// editing and saving the text still work.
    ///
    /// A read takes no lock and makes no file: the document and its sidecar
    /// are read as a pair when, after the read, no process holds the
    /// document's lock and no transaction on it is in flight, and neither
    /// file changed since just before it (every writer replaces them by a
    /// rename, under the lock). Otherwise it is tried again a few times, then read under
    /// the lock, which first finishes what a dead writer left half-done.
    pub fn open(store: Arc<Store>, doc_path: DocPath, identity: Provenance) -> Result<Session> {
        for pause in [0, 1, 4, 16, 64] {
            std::thread::sleep(std::time::Duration::from_millis(pause));
            let before = Quiet::now(&store, &doc_path);
            let read = Self::open_with(store.clone(), doc_path.clone(), identity.clone(), Some(&before));
            if before.still(&store, &doc_path)? {
                return read;
            }
        }
        Self::open_with(store, doc_path, identity, None)
    }

    /// Read `doc_path` and its sidecar: from the files `quiet` holds open
    /// (read from where they were opened, checked after by [`Quiet::still`];
    /// asked of the guard again where it refused), or, with no `quiet`,
    /// under the document's lock.
    fn open_with(
        store: Arc<Store>,
        doc_path: DocPath,
        identity: Provenance,
        quiet: Option<&Quiet>,
    ) -> Result<Session> {
        // Finish whatever a crashed writer left half-done before reading.
        // The document and its sidecar are read under one lock: a pair.
        // (A workspace we may not write to is still readable, without a lock.)
        let locked = quiet.is_none();
        let lock = match locked.then(|| lock_and_recover(&store, &doc_path)).transpose() {
            Ok(l) => l,
            Err(Error::Io { source, .. })
                if matches!(
                    source.kind(),
                    std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
                ) =>
            {
                None
            }
            Err(e) => return Err(e),
        };
        let held =
            |i: usize| quiet.and_then(|q| Some((q.held[i].as_ref().map(|h| &h.0), q.paths[i].as_deref()?)));
        let ws = store.workspace();
        let doc = match held(0) {
            Some((Some(f), file)) => ws.read_document_open(&doc_path, f, file)?,
            // Nothing there when held: read as it is now (a file made since shows in `still`).
            Some((None, file)) => ws.read_document_from(&doc_path, file)?,
            None => ws.read_document(&doc_path)?,
        };
        let mut s = Session {
            saved: doc.rope().clone(),
            saved_bom: doc.has_bom(),
            doc,
            artifact: Artifact::empty(doc_path.as_str()),
            sidecar_problem: None,
            tracked: HashMap::new(),
            relocated: HashSet::new(),
            spans: Spans::new(),
            orphan_attributions: Vec::new(),
            history: History::default(),
            identity,
            ledger: Ledger::of(store.workspace()),
            pins: HashMap::new(),
            trackers: HashMap::new(),
            warnings: Vec::new(),
            base: Artifact::empty(doc_path.as_str()),
            unsaved: Vec::new(),
            strays: Vec::new(),
            saved_sha: Default::default(),
            base_unknown: false,
            confirmed_hidden: HashSet::new(),
            confirmed_places: HashSet::new(),
            doc_path,
            store,
        };
        let loaded = match held(1) {
            Some((Some(f), file)) => s.store.load_open(&s.doc_path, f, file),
            Some((None, file)) => s.store.load_from(&s.doc_path, file),
            None => s.store.load(&s.doc_path),
        };
        match loaded {
            Ok(a) => {
                let a = a.unwrap_or_else(|| Artifact::empty(s.doc_path.as_str()));
                s.load_spans(&a);
                s.adopt(a);
            }
            Err(e) if matches!(e.code(), ErrorCode::CorruptSidecar | ErrorCode::NewerSchema) => {
                s.sidecar_problem = Some(e.info());
            }
            Err(e) => return Err(e),
        }
        drop(lock);
        Ok(s)
    }

    // ---- reading -----------------------------------------------------------------

    /// The workspace the document is in.
    pub fn workspace(&self) -> &crate::workspace::Workspace {
        self.store.workspace()
    }

    pub fn doc_path(&self) -> &DocPath {
        &self.doc_path
    }

    /// The document was renamed (its files moved by
    /// [`crate::documents::rename_document`]): the session goes on under the
    /// new name with its buffer, unsaved edits and decisions, and undo.
    pub fn renamed(&mut self, to: DocPath) {
        self.artifact.doc_path = to.to_string();
        self.base.doc_path = to.to_string();
        self.doc_path = to;
    }

    pub fn document(&self) -> &Document {
        &self.doc
    }

    pub fn identity(&self) -> &Provenance {
        &self.identity
    }

    /// The writer changed who they are (Settings): what this session writes
    /// from now on is theirs under the new identity; what was written stays.
    pub fn set_identity(&mut self, identity: Provenance) {
        self.identity = identity;
    }

    /// The sidecar as last read or written by this session.
    pub fn artifact(&self) -> &Artifact {
        &self.artifact
    }

    /// Why review operations are unavailable (corrupt or newer sidecar), if they are.
    pub fn sidecar_problem(&self) -> Option<&ErrorInfo> {
        self.sidecar_problem.as_ref()
    }

    /// Whether the text differs from the file as last loaded or saved, or a
    /// decision taken on it is not saved yet.
    pub fn is_dirty(&self) -> bool {
        self.doc.has_bom() != self.saved_bom || *self.doc.rope() != self.saved || !self.unsaved.is_empty()
    }

    /// How many review decisions wait for the next save.
    pub fn unsaved_decisions(&self) -> usize {
        self.unsaved.len()
    }

    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }

    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }

    /// The attribution spans, in document order.
    pub fn spans(&self) -> impl Iterator<Item = Span> + '_ {
        self.spans.iter()
    }

    /// Attribution records that could not be placed in the current text.
    pub fn orphaned_attributions(&self) -> impl Iterator<Item = &Attribution> {
        self.orphan_attributions.iter().map(|(a, _)| a)
    }

    /// The text a client names, as chars: the one resolver of the CLI, MCP and
    /// the app, with one set of messages (clients reword only how an
    /// occurrence is chosen).
    pub fn resolve_target(&self, target: Target<'_>) -> Result<CharRange> {
        let doc = &self.doc;
        let r = match target {
            Target::Text { text, occurrence } => return self.find(text, occurrence),
            Target::Bytes(range) => doc.byte_range_to_chars(range),
            Target::Utf16 { from, to } => doc.utf16_range_to_chars(from, to),
        };
        r.map_err(|source| Error::Document {
            path: self.doc_path.to_string(),
            source,
        })
    }

    /// Find `text`: the `nth` occurrence (1-based), or the only one.
    pub fn find(&self, text: &str, nth: Option<usize>) -> Result<CharRange> {
        if text.is_empty() {
            return Err(Error::BadInput("the text to find is empty".into()));
        }
        // As `str::match_indices` counts them: no two overlap.
        let mut hits: Vec<usize> = Vec::new();
        for at in self.doc.find_all(text) {
            if hits.last().is_none_or(|&last| at.0 >= last + text.len()) {
                hits.push(at.0);
            }
        }
        let doc = self.doc_path.to_string();
        let at = match (hits.len(), nth) {
            (0, _) => {
                return Err(Error::TextNotFound {
                    text: text.to_owned(),
                    doc,
                })
            }
            (1, None | Some(1)) => hits[0],
            (count, None) => {
                return Err(Error::Ambiguous {
                    text: text.to_owned(),
                    count,
                    doc,
                })
            }
            (count, Some(k)) if k == 0 || k > count => {
                return Err(Error::NoSuchOccurrence {
                    text: text.to_owned(),
                    nth: k,
                    count,
                    doc,
                })
            }
            (_, Some(k)) => hits[k - 1],
        };
        let start = self.doc.rope().byte_to_char(at);
        Ok(CharRange::new(start, start + text.chars().count()))
    }

    /// Every pending proposal with its state against the current text.
    pub fn proposals(&self) -> Vec<ProposalView> {
        let resolver = Resolver::new(&self.doc);
        self.artifact
            .proposals
            .iter()
            .map(|p| self.proposal_view(p, &resolver))
            .collect()
    }

    pub fn proposal(&self, id: &str) -> Result<ProposalView> {
        self.artifact
            .proposal(id)
            .map(|p| self.proposal_view(p, &Resolver::new(&self.doc)))
            .ok_or_else(|| self.not_found("proposal", id))
    }

    fn proposal_view(&self, p: &Proposal, resolver: &Resolver<'_>) -> ProposalView {
        let Some(fp) = self.artifact.fingerprint(&p.anchor_id) else {
            return ProposalView {
                proposal: p.clone(),
                state: ProposalState::Orphaned,
                range: None,
                target: String::new(),
                current: None,
                reason: Some(format!("its anchor {} is missing from the sidecar", p.anchor_id)),
                diff: Vec::new(),
                likely_place: false,
            };
        };
        let live = self.tracked.get(&p.anchor_id).copied();
        let mut likely_place = false;
        let (state, range, current, reason) = match live {
            Some(r) if self.doc.slice(r) == fp.text => (ProposalState::Pending, Some(r), None, None),
            Some(r) => {
                let now = self.doc.slice(r);
                let reason = format!("its target text changed from {:?} to {:?}", fp.text, now);
                (ProposalState::Stale, Some(r), Some(now), Some(reason))
            }
            None => match resolver.resolve(fp, None) {
                Resolution::Found(r) => (ProposalState::Pending, Some(r), None, None),
                Resolution::Relocated(r) => {
                    let now = self.doc.slice(r);
                    let reason = format!("its target text changed from {:?} to {:?}", fp.text, now);
                    (ProposalState::Stale, Some(r), Some(now), Some(reason))
                }
                // Its exact text, at a place only the fallback evidence found:
                // shown there, applied only once the writer confirmed the place.
                Resolution::Likely(r) => {
                    likely_place = true;
                    let reason = format!(
                        "its target text {:?} was found only where the words around it changed; check the place, then accept it there",
                        fp.text
                    );
                    (
                        ProposalState::Stale,
                        Some(r),
                        Some(self.doc.slice(r)),
                        Some(reason),
                    )
                }
                Resolution::Orphaned => match resolver.locate_neighbourhood(fp, None) {
                    Some(r) => {
                        let now = self.doc.slice(r);
                        let reason = format!("its target text changed from {:?} to {:?}", fp.text, now);
                        (ProposalState::Stale, Some(r), Some(now), Some(reason))
                    }
                    None => (
                        ProposalState::Orphaned,
                        None,
                        None,
                        Some(format!("its target text {:?} is not in the document", fp.text)),
                    ),
                },
            },
        };
        ProposalView {
            proposal: p.clone(),
            state,
            range,
            target: fp.text.clone(),
            current,
            reason,
            diff: word_diff(&fp.text, &p.replacement),
            likely_place,
        }
    }

    /// Every thread, with its current range (`None` when orphaned).
    pub fn threads(&self) -> Vec<ThreadView> {
        self.artifact
            .threads
            .iter()
            .map(|t| {
                let range = self.tracked.get(&t.anchor_id).copied().filter(|_| !t.detached());
                let anchored_text = self
                    .artifact
                    .fingerprint(&t.anchor_id)
                    .map(|f| f.text.clone())
                    .unwrap_or_default();
                let text = match range {
                    Some(r) => self.doc.slice(r),
                    None => anchored_text.clone(),
                };
                ThreadView {
                    thread: t.clone(),
                    range,
                    text,
                    relocated: range.is_some() && self.relocated.contains(&t.anchor_id),
                    anchored_text,
                }
            })
            .collect()
    }

    fn not_found(&self, what: &'static str, id: &str) -> Error {
        // Decided means decided: a proposal the log says was decided is not
        // there to decide, and the error says why.
        if what == "proposal" {
            if let Some(d) = self
                .store
                .decided()
                .ok()
                .and_then(|d| d.find(self.doc_path.as_str(), id).cloned())
            {
                return Error::AlreadyDecided {
                    id: id.to_owned(),
                    doc: self.doc_path.to_string(),
                    outcome: d.outcome.as_str(),
                    by: d.decided_by,
                    at: d.decided_at,
                };
            }
        }
        Error::NotFound {
            what,
            id: id.to_owned(),
            doc: self.doc_path.to_string(),
        }
    }
}

/// The part of a save that goes into the sidecar.
struct Persistence {
    thread_fingerprints: Vec<(String, cowriting_core::model::Fingerprint)>,
    attributions: Vec<(Attribution, Anchor)>,
}

impl Persistence {
    fn apply(self, a: &mut Artifact) {
        for (anchor_id, fp) in self.thread_fingerprints {
            if let Some(anchor) = a.anchors.get_mut(&anchor_id) {
                anchor.refingerprint(fp);
            }
        }
        a.attributions.clear();
        for (record, anchor) in self.attributions {
            a.anchors.insert(record.anchor_id.clone(), anchor);
            a.attributions.push(record);
        }
    }
}

/// Apply one unsaved decision to a sidecar: a decided proposal leaves it (the
/// first record of that id only: two records sharing an id are two proposals),
/// a restored one is put back.
fn apply_unsaved(a: &mut Artifact, op: &Unsaved) {
    match op {
        Unsaved::Decided { proposal, .. } => {
            if let Some(i) = a.proposals.iter().position(|p| p == proposal) {
                a.proposals.remove(i);
            } else if let Some(i) = a.proposals.iter().position(|p| p.id == proposal.id) {
                a.proposals.remove(i);
            }
        }
        Unsaved::Restored { proposal, anchor } => {
            if a.proposal(&proposal.id).is_none() {
                a.anchors.insert(proposal.anchor_id.clone(), anchor.clone());
                a.proposals.push(proposal.clone());
            }
        }
    }
}

fn check_body(body: &str) -> Result<()> {
    if body.trim().is_empty() {
        return Err(Error::BadInput("the comment body is empty".into()));
    }
    Ok(())
}
