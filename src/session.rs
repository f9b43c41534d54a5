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

use crate::anchor::{build_fingerprint, locate_neighbourhood, resolve, Resolution};
use crate::attribution::{RecordMeta, Span, SpanAuthor, Spans};
use crate::changeset::{ChangeSet, RangeAssoc};
use crate::contract::{self, Outcome, Suggestion};
use crate::diff::{chars_kept_from, word_change, word_diff, DiffPart};
use crate::document::Document;
use crate::error::{Error, ErrorCode, ErrorInfo, Result};
use crate::history::{EditKind, History, ReviewOp};
use crate::ledger::{Entry, Filed, Ledger};
use crate::lock::DocLock;
use crate::model::{
    new_id, now_iso, Anchor, Artifact, Attribution, Comment, Extra, Proposal, Provenance, Thread,
    ThreadStatus,
};
use crate::offset::{ByteOffset, ByteRange, CharRange};
// A decision is redone up to the store's bound when a file changed under it
// (with its backoff, a few seconds of another writer changing the files
// without pause; a writer that never pauses is given up on).
use crate::store::{Store, REDO_LIMIT};
use crate::txn::{lock_and_recover, CommitError, Txn};
use crate::workspace::DocPath;
use ropey::Rope;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

mod backup;
pub use backup::{Backup, BackupDecision, Restored, BACKUP_VERSION};

/// The state of the position-bearing things, as undo restores it.
#[derive(Clone, Debug, Default)]
struct Snapshot {
    spans: Spans,
    tracked: HashMap<String, CharRange>,
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
    warnings: Vec<String>,
    /// The sidecar as last read from (or written to) disk; `artifact` is this
    /// with the unsaved decisions applied.
    base: Artifact,
    /// Decisions taken on the buffer and not yet on disk, in order.
    unsaved: Vec<Unsaved>,
    /// SHA-256 (hex) of the saved file's bytes, computed once per `saved` (a
    /// backup names its base; hashing a large file at every backup would hold
    /// the app's lock for long). Reset wherever `saved` is assigned.
    saved_sha: std::cell::OnceCell<String>,
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
    pub fn open(store: Arc<Store>, doc_path: DocPath, identity: Provenance) -> Result<Session> {
        // Finish whatever a crashed writer left half-done before reading.
        // The document and its sidecar are read under one lock: a pair.
        // (A workspace we may not write to is still readable, without a lock.)
        let lock = match lock_and_recover(&store, &doc_path) {
            Ok(l) => Some(l),
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
        let doc = store.workspace().read_document(&doc_path)?;
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
            ledger: Ledger::new(store.workspace().root()),
            pins: HashMap::new(),
            warnings: Vec::new(),
            base: Artifact::empty(doc_path.as_str()),
            unsaved: Vec::new(),
            saved_sha: Default::default(),
            doc_path,
            store,
        };
        match s.store.load(&s.doc_path) {
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

    pub fn doc_path(&self) -> &DocPath {
        &self.doc_path
    }

    pub fn document(&self) -> &Document {
        &self.doc
    }

    pub fn identity(&self) -> &Provenance {
        &self.identity
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
    pub fn spans(&self) -> impl Iterator<Item = &Span> {
        self.spans.iter()
    }

    /// Attribution records that could not be placed in the current text.
    pub fn orphaned_attributions(&self) -> impl Iterator<Item = &Attribution> {
        self.orphan_attributions.iter().map(|(a, _)| a)
    }

    /// Find `text`: the `nth` occurrence (1-based), or the only one.
    pub fn find(&self, text: &str, nth: Option<usize>) -> Result<CharRange> {
        if text.is_empty() {
            return Err(Error::BadInput("the text to find is empty".into()));
        }
        let hay = self.doc.text();
        let hits: Vec<usize> = hay.match_indices(text).map(|(i, _)| i).collect();
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
        self.artifact
            .proposals
            .iter()
            .map(|p| self.proposal_view(p))
            .collect()
    }

    pub fn proposal(&self, id: &str) -> Result<ProposalView> {
        self.artifact
            .proposal(id)
            .map(|p| self.proposal_view(p))
            .ok_or_else(|| self.not_found("proposal", id))
    }

    fn proposal_view(&self, p: &Proposal) -> ProposalView {
        let Some(fp) = self.artifact.fingerprint(&p.anchor_id) else {
            return ProposalView {
                proposal: p.clone(),
                state: ProposalState::Orphaned,
                range: None,
                target: String::new(),
                current: None,
                reason: Some(format!("its anchor {} is missing from the sidecar", p.anchor_id)),
                diff: Vec::new(),
            };
        };
        let live = self.tracked.get(&p.anchor_id).copied();
        let (state, range, current, reason) = match live {
            Some(r) if self.doc.slice(r) == fp.text => (ProposalState::Pending, Some(r), None, None),
            Some(r) => {
                let now = self.doc.slice(r);
                let reason = format!("its target text changed from {:?} to {:?}", fp.text, now);
                (ProposalState::Stale, Some(r), Some(now), Some(reason))
            }
            None => match resolve(&self.doc, fp, None) {
                Resolution::Found(r) => (ProposalState::Pending, Some(r), None, None),
                Resolution::Relocated(r) => {
                    let now = self.doc.slice(r);
                    let reason = format!("its target text changed from {:?} to {:?}", fp.text, now);
                    (ProposalState::Stale, Some(r), Some(now), Some(reason))
                }
                Resolution::Orphaned => match locate_neighbourhood(&self.doc, fp, None) {
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
        Error::NotFound {
            what,
            id: id.to_owned(),
            doc: self.doc_path.to_string(),
        }
    }

    // ---- the sidecar -------------------------------------------------------------

    fn check_sidecar(&self) -> Result<()> {
        match &self.sidecar_problem {
            None => Ok(()),
            Some(_) => {
                // Re-read: the problem may have been fixed on disk since.
                self.store.load(&self.doc_path).map(|_| ())
            }
        }
    }

    /// Read-modify-write the sidecar and adopt what was written.
    fn update<R>(&mut self, f: impl FnMut(&mut Artifact) -> Result<R>) -> Result<R> {
        let lock = lock_and_recover(&self.store, &self.doc_path)?;
        self.check_sidecar()?;
        let (artifact, out) = self.store.update_locked(&lock, &self.doc_path, f)?;
        self.sidecar_problem = None;
        self.adopt(artifact);
        Ok(out)
    }

    /// Re-read the sidecar from disk (after another writer changed it).
    pub fn reload_sidecar(&mut self) -> Result<()> {
        match self.store.load(&self.doc_path) {
            Ok(a) => {
                let first = self.sidecar_problem.take().is_some();
                let a = a.unwrap_or_else(|| Artifact::empty(self.doc_path.as_str()));
                if first {
                    self.load_spans(&a);
                }
                self.adopt(a);
                Ok(())
            }
            Err(e) => {
                if matches!(e.code(), ErrorCode::CorruptSidecar | ErrorCode::NewerSchema) {
                    self.sidecar_problem = Some(e.info());
                }
                Err(e)
            }
        }
    }

    /// Take `artifact` as the current sidecar: keep live ranges of anchors whose
    /// fingerprint did not change, resolve new or changed ones, drop the rest.
    fn adopt(&mut self, artifact: Artifact) {
        let shown = self.overlaid(&artifact);
        self.base = artifact;
        let old = std::mem::replace(&mut self.artifact, shown);
        let mut tracked = HashMap::with_capacity(self.tracked.len());
        let mut relocated = HashSet::new();
        let proposal_anchors: HashSet<&str> = self
            .artifact
            .proposals
            .iter()
            .map(|p| p.anchor_id.as_str())
            .collect();
        // Threads follow their words through a re-wrap (flagged); proposals stay
        // exact (INV-11), and so does a thread on a proposal's anchor.
        let threads: Vec<(String, bool)> = self
            .artifact
            .threads
            .iter()
            .filter(|t| !t.detached())
            .map(|t| {
                (
                    t.anchor_id.clone(),
                    !proposal_anchors.contains(t.anchor_id.as_str()),
                )
            })
            .collect();
        let ids = threads.into_iter().chain(
            self.artifact
                .proposals
                .iter()
                .map(|p| (p.anchor_id.clone(), false)),
        );
        for (id, may_relocate) in ids {
            let Some(fp) = self.artifact.fingerprint(&id) else {
                continue;
            };
            let live = self.tracked.get(&id).copied();
            let unchanged = old.fingerprint(&id).is_some_and(|o| o == fp);
            match (live, unchanged) {
                (Some(r), true) => {
                    if self.relocated.contains(&id) {
                        relocated.insert(id.clone());
                    }
                    tracked.insert(id, r);
                }
                _ => match resolve(&self.doc, fp, live) {
                    Resolution::Found(r) => {
                        tracked.insert(id, r);
                    }
                    Resolution::Relocated(r) if may_relocate => {
                        relocated.insert(id.clone());
                        tracked.insert(id, r);
                    }
                    Resolution::Relocated(_) | Resolution::Orphaned => {}
                },
            }
        }
        self.tracked = tracked;
        self.relocated = relocated;
    }

    /// `disk` with the unsaved decisions applied, as this session shows it.
    fn overlaid(&self, disk: &Artifact) -> Artifact {
        let mut a = disk.clone();
        for op in &self.unsaved {
            apply_unsaved(&mut a, op);
        }
        a
    }

    /// Show the unsaved decisions as they are now.
    fn refresh(&mut self) {
        let base = self.base.clone();
        self.adopt(base);
    }

    /// The error when the files kept changing under `what` through every redo.
    fn gave_up(&self, what: &str) -> Error {
        Error::io(self.store.workspace().root())(std::io::Error::other(format!(
            "other programs kept changing {}'s files under the {what}; gave up after {REDO_LIMIT} tries",
            self.doc_path
        )))
    }

    /// The index of the last unsaved decision about `id`.
    fn last_unsaved(&self, id: &str) -> Option<usize> {
        self.unsaved.iter().rposition(|o| o.id() == id)
    }

    /// Write `ops` in one transaction, with the buffer and what a save persists
    /// when `with_text`. Returns the sidecar as written.
    fn commit_ops(
        &mut self,
        lock: &DocLock,
        op: &'static str,
        ops: &[Unsaved],
        with_text: bool,
    ) -> std::result::Result<Artifact, CommitError> {
        let (disk, sidecar_bytes) = match self.store.load_bytes(&self.doc_path)? {
            Some((a, b)) => (a, Some(b)),
            None => (Artifact::empty(self.doc_path.as_str()), None),
        };
        let mut after = disk.clone();
        let mut txn = Txn::new(op, &self.doc_path);
        // A ledger that cannot be read never stops a human's decision.
        let pending = match self.ledger.pending_with_bytes(&self.doc_path) {
            Ok(p) => Some(p),
            // A path the guard refuses refuses the decision; an unreadable file only warns.
            Err(e) if e.code() == ErrorCode::BadInput => return Err(e.into()),
            Err(e) => {
                if !ops.is_empty() {
                    self.warnings.push(format!(
                        "the decision log and contract records were not updated: {e}"
                    ));
                }
                None
            }
        };
        let mut entries = pending.as_ref().map(|(_, e)| e.clone()).unwrap_or_default();
        for o in ops {
            apply_unsaved(&mut after, o);
            let id = o.id().to_owned();
            match o {
                Unsaved::Decided {
                    outcome,
                    chosen,
                    members,
                    ..
                } => {
                    if let Some(i) = entries.iter().position(|e| e.sidecar_proposal_id == id) {
                        let e = entries.remove(i);
                        let d = self.ledger.prepare_decision(
                            &self.doc_path,
                            &e,
                            *outcome,
                            chosen.as_deref(),
                            &self.identity,
                            members.clone(),
                        );
                        txn.log.push(d.line);
                    }
                    txn.removed.push(id);
                }
                Unsaved::Restored { .. } => {
                    if pending.is_some() {
                        match self.ledger.prepare_undo(&self.doc_path, &id) {
                            Ok(Some((line, entry))) => {
                                txn.log.push(line);
                                if !entries.iter().any(|e| e.sidecar_proposal_id == id) {
                                    entries.push(entry);
                                }
                            }
                            Ok(None) => {}
                            Err(e) if e.code() == ErrorCode::BadInput => return Err(e.into()),
                            Err(e) => self
                                .warnings
                                .push(format!("the undo of {id} is not in the decision log: {e}")),
                        }
                    }
                    txn.restored.push(id);
                }
            }
        }
        if with_text {
            self.persistence().apply(&mut after);
            let file = self.store.workspace().doc_file(&self.doc_path)?;
            let now = match crate::fsutil::read_regular(&file) {
                Ok(b) => Some(b),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(Error::io(&file)(e).into()),
            };
            let bytes = self.doc.to_bytes();
            if now.as_deref() != Some(bytes.as_slice()) {
                txn.document = Some((bytes, now.as_deref().map(crate::fsutil::sha256)));
            }
        }
        after.prune_anchors();
        let unchanged = after == disk || (sidecar_bytes.is_none() && after.is_empty());
        if !unchanged {
            txn.sidecar = Some((sidecar_bytes, after.clone()));
        }
        if let Some((bytes, before)) = pending {
            if before != entries {
                txn.pending = Some((bytes, entries));
            }
        }
        let warnings = txn.commit(&self.store, lock)?;
        self.warnings.extend(warnings);
        Ok(after)
    }

    /// After a transaction that wrote the text: the buffer is what is saved.
    fn saved_now(&mut self) {
        self.saved = self.doc.rope().clone();
        self.saved_bom = self.doc.has_bom();
        self.saved_sha = Default::default();
    }

    /// Place the sidecar's attribution records as live spans.
    fn load_spans(&mut self, a: &Artifact) {
        self.spans = Spans::new();
        self.orphan_attributions.clear();
        for at in &a.attributions {
            let anchor = a.anchors.get(&at.anchor_id);
            let found = anchor.and_then(|an| resolve(&self.doc, &an.fingerprint, None).range());
            match (found, anchor) {
                (Some(range), Some(an)) if !range.is_empty() => self.spans.insert_loaded(Span {
                    range,
                    who: Arc::new(SpanAuthor {
                        author: at.author.clone(),
                        turn_id: at.turn_id.clone(),
                        instruction: at.instruction.clone(),
                        created_at: at.created_at.clone(),
                    }),
                    record: Some(Arc::new(RecordMeta {
                        id: at.id.clone(),
                        anchor_id: at.anchor_id.clone(),
                        extra: at.extra.clone(),
                        anchor_extra: an.extra.clone(),
                        fingerprint_extra: an.fingerprint.extra.clone(),
                    })),
                }),
                (_, Some(an)) => self.orphan_attributions.push((at.clone(), an.clone())),
                (_, None) => {}
            }
        }
    }

    // ---- editing -----------------------------------------------------------------

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            spans: self.spans.clone(),
            tracked: self.tracked.clone(),
        }
    }

    /// Apply a human edit: the text changes, every anchor and span maps through
    /// the change, and the inserted text is attributed to this session's human.
    pub fn apply_change(&mut self, change: &ChangeSet, kind: EditKind) -> Result<()> {
        let who = SpanAuthor {
            author: self.identity.clone(),
            turn_id: None,
            instruction: None,
            created_at: now_iso(),
        };
        let paints = change
            .inserted_ranges()
            .into_iter()
            .map(|r| (r, Some(who.clone())))
            .collect();
        self.apply_with(change, kind, paints, Vec::new())
    }

    /// Replace `range` with `text` as a human edit (a convenience over
    /// [`Session::apply_change`]).
    pub fn replace(&mut self, range: CharRange, text: &str, kind: EditKind) -> Result<()> {
        let change = ChangeSet::replace(self.doc.len_chars(), range, text).map_err(|e| Error::Document {
            path: self.doc_path.to_string(),
            source: e.into(),
        })?;
        self.apply_change(&change, kind)
    }

    /// The one place a change is applied and everything with a position maps.
    fn apply_with(
        &mut self,
        change: &ChangeSet,
        kind: EditKind,
        paints: Vec<(CharRange, Option<SpanAuthor>)>,
        review: Vec<ReviewOp>,
    ) -> Result<()> {
        let inverse = change.invert(self.doc.rope());
        // A keystroke that joins the current typing group needs no snapshot
        // (cloning every span per keystroke would be the slow path).
        let before = if self.history.joins_group(change, kind, !review.is_empty()) {
            None
        } else {
            Some(self.snapshot())
        };
        if !change.is_identity() {
            self.doc.apply(change).map_err(|source| Error::Document {
                path: self.doc_path.to_string(),
                source,
            })?;
            self.map_positions(change);
        }
        for (range, who) in paints {
            self.spans.paint(range, who);
        }
        self.history.record(change.clone(), inverse, kind, review, before);
        #[cfg(debug_assertions)]
        self.check_invariants();
        Ok(())
    }

    /// Panics naming the invariant that does not hold:
    /// 1. every tracked anchor range lies within the text;
    /// 2. every tracked anchor is an anchor of the sidecar as the session has it;
    /// 3. every relocated anchor is tracked;
    /// 4. every pinned range lies within the text;
    /// 5. the attribution spans keep their own invariants and lie within the text.
    ///
    /// Run after every change in debug builds and by the randomized tests
    /// (`tests/proptest_core.rs`); O(anchors + spans).
    pub fn check_invariants(&self) {
        let len = self.doc.len_chars();
        for (id, r) in &self.tracked {
            assert!(
                r.start <= r.end && r.end.0 <= len,
                "Session invariant 1: anchor {id} at {r:?} is outside the text ({len} chars)"
            );
            assert!(
                self.artifact.anchors.contains_key(id),
                "Session invariant 2: tracked anchor {id} is not in the sidecar"
            );
        }
        for id in &self.relocated {
            assert!(
                self.tracked.contains_key(id),
                "Session invariant 3: relocated anchor {id} is not tracked"
            );
        }
        for (key, r) in &self.pins {
            assert!(
                r.start <= r.end && r.end.0 <= len,
                "Session invariant 4: pin {key} at {r:?} is outside the text ({len} chars)"
            );
        }
        self.spans.check_invariants();
        if let Some(last) = self.spans.iter().last() {
            assert!(
                last.range.end.0 <= len,
                "Session invariant 5: a span ends at {:?}, past the text ({len} chars)",
                last.range.end
            );
        }
    }

    fn map_positions(&mut self, change: &ChangeSet) {
        let Some(touched) = change.touched_range() else {
            return;
        };
        let delta = change.len_after() as isize - change.len() as isize;
        self.tracked.retain(|_, r| {
            if r.end < touched.start || (r.end == touched.start && !r.is_empty()) {
                true
            } else if r.start > touched.end || (r.start == touched.end && !r.is_empty()) {
                r.start.0 = (r.start.0 as isize + delta) as usize;
                r.end.0 = (r.end.0 as isize + delta) as usize;
                true
            } else {
                match change.map_range(*r, RangeAssoc::Exclusive) {
                    Some(m) => {
                        *r = m;
                        true
                    }
                    None => false,
                }
            }
        });
        self.spans.map(change);
        self.pins
            .retain(|_, r| match change.map_range(*r, RangeAssoc::Exclusive) {
                Some(m) => {
                    *r = m;
                    true
                }
                None => false,
            });
    }

    /// Undo the last step: text, positions, and any review decision it made
    /// (an accepted or rejected proposal is pending again). Returns the change
    /// applied to the text (an identity change for a reject), or `None` when
    /// there is nothing to undo. An undone decision that had reached the disk is
    /// written back with the text at the next save (at once for a reject, which
    /// changes no text).
    pub fn undo(&mut self) -> Result<Option<ChangeSet>> {
        let Some(mut entry) = self.history.pop_undo() else {
            return Ok(None);
        };
        if let Err(e) = self.review_step(&entry.review, entry.change.is_identity(), true) {
            self.history.push_undo(entry);
            return Err(e);
        }
        let after = self.snapshot();
        self.doc.apply(&entry.inverse).map_err(|source| Error::Document {
            path: self.doc_path.to_string(),
            source,
        })?;
        self.map_positions(&entry.inverse);
        self.restore(&entry.before);
        entry.after = Some(after);
        let change = entry.inverse.clone();
        self.history.push_redo(entry);
        self.refresh();
        Ok(Some(change))
    }

    /// Redo the last undone step. Returns the change applied to the text, or
    /// `None` when there is nothing to redo.
    pub fn redo(&mut self) -> Result<Option<ChangeSet>> {
        let Some(entry) = self.history.pop_redo() else {
            return Ok(None);
        };
        if let Err(e) = self.review_step(&entry.review, entry.change.is_identity(), false) {
            self.history.push_redo(entry);
            return Err(e);
        }
        self.doc.apply(&entry.change).map_err(|source| Error::Document {
            path: self.doc_path.to_string(),
            source,
        })?;
        self.map_positions(&entry.change);
        if let Some(after) = &entry.after {
            self.restore(after);
        }
        let change = entry.change.clone();
        self.history.push_undo(entry);
        self.refresh();
        Ok(Some(change))
    }

    /// The review half of an undo (`undo`) or redo of a step's decisions. A
    /// decision still unsaved is simply taken back (or put back); one on disk
    /// becomes an unsaved decision the other way — or, when the step changes no
    /// text and nothing about the proposal is unsaved, is written at once.
    fn review_step(&mut self, review: &[ReviewOp], no_text: bool, undo: bool) -> Result<()> {
        if review.is_empty() {
            return Ok(());
        }
        let ops: Vec<Unsaved> = review
            .iter()
            .map(
                |ReviewOp::ProposalDecided {
                     proposal,
                     anchor,
                     outcome,
                     chosen,
                 }| {
                    if undo {
                        Unsaved::Restored {
                            proposal: proposal.clone(),
                            anchor: anchor.clone(),
                        }
                    } else {
                        Unsaved::Decided {
                            proposal: proposal.clone(),
                            anchor: anchor.clone(),
                            outcome: *outcome,
                            chosen: chosen.clone(),
                            members: None,
                        }
                    }
                },
            )
            .collect();
        let mut now = Vec::new();
        for op in ops {
            let takes_back = |o: &Unsaved| {
                matches!(
                    (o, undo),
                    (Unsaved::Decided { .. }, true) | (Unsaved::Restored { .. }, false)
                )
            };
            match self.last_unsaved(op.id()) {
                Some(i) if takes_back(&self.unsaved[i]) => {
                    self.unsaved.remove(i);
                }
                Some(_) => self.unsaved.push(op),
                None if no_text => now.push(op),
                None => self.unsaved.push(op),
            }
        }
        if now.is_empty() {
            return Ok(());
        }
        for attempt in 0..REDO_LIMIT {
            if attempt > 0 {
                crate::fsutil::backoff(attempt);
            }
            let lock = lock_and_recover(&self.store, &self.doc_path)?;
            match self.commit_ops(&lock, if undo { "undo" } else { "redo" }, &now, false) {
                Ok(after) => {
                    self.adopt(after);
                    return Ok(());
                }
                Err(CommitError::Changed) => continue,
                Err(CommitError::Failed(e)) => return Err(e),
            }
        }
        Err(self.gave_up("decision"))
    }

    /// Restore spans, and the live ranges the snapshot knew (anchors added since
    /// keep their mapped ranges).
    fn restore(&mut self, snap: &Snapshot) {
        self.spans = snap.spans.clone();
        for (id, r) in &snap.tracked {
            self.tracked.insert(id.clone(), *r);
        }
    }

    /// End the current typing group.
    pub fn seal_undo_group(&mut self) {
        self.history.seal();
    }

    /// The document's file as it is on disk now (to compare with the buffer).
    pub fn disk_document(&self) -> Result<Document> {
        self.store.workspace().read_document(&self.doc_path)
    }

    /// Whether the file on disk differs from what this session last loaded or saved.
    pub fn changed_on_disk(&self) -> Result<bool> {
        let disk = self.disk_document()?;
        Ok(*disk.rope() != self.saved || disk.has_bom() != self.saved_bom)
    }

    /// Load the file from disk into the buffer (another program changed it). The
    /// change is a diff, so anchors on text that did not change keep their place;
    /// the attribution spans are then those of the file's sidecar (the buffer is
    /// the file now), and decisions taken on the old buffer are dropped with it.
    /// It is an undo step like any other. Returns the change, or `None` when the
    /// text is the same.
    pub fn reload_from_disk(&mut self) -> Result<Option<ChangeSet>> {
        let disk = self.disk_document()?;
        self.saved = disk.rope().clone();
        self.saved_bom = disk.has_bom();
        self.saved_sha = Default::default();
        // The buffer becomes the file: decisions taken on the old buffer go with it.
        if !self.unsaved.is_empty() {
            self.unsaved.clear();
            self.refresh();
        }
        if disk.rope() == self.doc.rope() {
            self.doc.set_bom(disk.has_bom());
            return Ok(None);
        }
        let change = crate::diff::text_change(self.doc.text(), disk.text());
        self.apply_with(&change, EditKind::Other, Vec::new(), Vec::new())?;
        self.doc.set_bom(disk.has_bom());
        self.history.seal();
        // The buffer is now the file: who wrote what is what its sidecar says
        // (another writer's accept attributed its words there).
        if let Ok(Some(a)) = self.store.load(&self.doc_path) {
            self.load_spans(&a);
            self.adopt(a);
        }
        Ok(Some(change))
    }

    /// Treat the file on disk as seen (the writer chose "keep mine"): the buffer
    /// stays, is dirty, and the next save overwrites the file.
    pub fn keep_buffer(&mut self) -> Result<()> {
        let disk = self.disk_document()?;
        self.saved = disk.rope().clone();
        self.saved_bom = disk.has_bom();
        self.saved_sha = Default::default();
        Ok(())
    }

    // ---- proposals ---------------------------------------------------------------

    /// File a proposal to replace `range` with `replacement`. The document is not
    /// touched (INV-10); the proposal is in the sidecar when this returns.
    pub fn propose(&mut self, range: CharRange, replacement: &str, opts: ProposeOptions) -> Result<String> {
        self.check_range(range)?;
        let target = self.doc.slice(range);
        if target == replacement {
            return Err(Error::BadInput(format!(
                "the replacement is the same as the target text {target:?}; nothing to propose"
            )));
        }
        let fingerprint = build_fingerprint(&self.doc, range);
        let anchor_id = new_id("a");
        let id = new_id("pr");
        let proposal = Proposal {
            id: id.clone(),
            anchor_id: anchor_id.clone(),
            replacement: replacement.to_owned(),
            author: opts.author,
            created_at: now_iso(),
            turn_id: opts.turn_id,
            instruction: opts.instruction,
            extra: Extra::new(),
        };
        self.add_anchored(range, anchor_id, fingerprint, |a| {
            a.proposals.push(proposal.clone())
        })?;
        Ok(id)
    }

    /// Persist a new record on a new anchor for `range` (read-modify-write), and
    /// track the anchor live.
    fn add_anchored(
        &mut self,
        range: CharRange,
        anchor_id: String,
        fingerprint: crate::model::Fingerprint,
        push: impl Fn(&mut Artifact),
    ) -> Result<()> {
        self.update(|a| {
            a.anchors.insert(
                anchor_id.clone(),
                Anchor {
                    fingerprint: fingerprint.clone(),
                    extra: Extra::new(),
                },
            );
            push(a);
            Ok(())
        })?;
        self.tracked.insert(anchor_id, range);
        Ok(())
    }

    fn check_range(&self, range: CharRange) -> Result<()> {
        if range.start > range.end || range.end.0 > self.doc.len_chars() {
            return Err(Error::BadInput(format!(
                "range {range} is outside {} ({} chars)",
                self.doc_path,
                self.doc.len_chars()
            )));
        }
        Ok(())
    }

    /// Accept a proposal (a human gesture, INV-12): its replacement — or the
    /// human's edited version `with` — replaces the target text in the buffer,
    /// attributed word by word; the proposal leaves the sidecar, and the decision
    /// is logged, when the buffer is saved (until then the decision is unsaved
    /// and the buffer dirty). Refused when the proposal is stale or orphaned
    /// (INV-11). Undo brings it back. Returns the change applied to the text.
    pub fn accept(&mut self, id: &str, with: Option<&str>) -> Result<ChangeSet> {
        self.accept_impl(id, with, false)
    }

    /// [`Session::accept`], then save, as one transaction ([`crate::txn`]): the
    /// sidecar, the ledger entry, the document (the commit point) and the
    /// decision log. A crash anywhere leaves the proposal pending with the text
    /// untouched, or decided with its text in place — never applied twice.
    pub fn accept_and_save(&mut self, id: &str, with: Option<&str>) -> Result<ChangeSet> {
        self.accept_impl(id, with, true)
    }

    fn accept_impl(&mut self, id: &str, with: Option<&str>, save: bool) -> Result<ChangeSet> {
        for attempt in 0..REDO_LIMIT {
            if attempt > 0 {
                crate::fsutil::backoff(attempt);
            }
            let lock = lock_and_recover(&self.store, &self.doc_path)?;
            // Decide on what is on disk now, not on what this session last saw.
            self.check_sidecar()?;
            if save && !self.is_dirty() && self.changed_on_disk()? {
                self.reload_from_disk()?;
            }
            let fresh = self.store.load_or_empty(&self.doc_path)?;
            self.adopt(fresh);
            let change = self.accept_in_buffer(id, with)?;
            if !save {
                return Ok(change);
            }
            let ops = self.unsaved.clone();
            match self.commit_ops(&lock, "accept", &ops, true) {
                Ok(after) => {
                    self.unsaved.clear();
                    self.saved_now();
                    self.adopt(after);
                    self.migrate_pending(&lock);
                    return Ok(change);
                }
                Err(e) => {
                    // Not on disk: neither the decision nor its text.
                    self.unsaved.pop();
                    self.undo_buffer_only();
                    self.refresh();
                    match e {
                        CommitError::Changed => continue,
                        CommitError::Failed(e) => return Err(e),
                    }
                }
            }
        }
        Err(self.gave_up("accept"))
    }

    /// The buffer half of an accept: checks, the change, the paint, the undo
    /// step and the unsaved decision.
    fn accept_in_buffer(&mut self, id: &str, with: Option<&str>) -> Result<ChangeSet> {
        let view = self.proposal(id)?;
        let range = match view.state {
            ProposalState::Pending => view.range.expect("a pending proposal has a range"),
            ProposalState::Stale => {
                return Err(Error::Stale {
                    id: id.to_owned(),
                    reason: view.reason.unwrap_or_default(),
                })
            }
            ProposalState::Orphaned => {
                return Err(Error::Orphaned {
                    id: id.to_owned(),
                    target: view.target,
                })
            }
        };
        let p = view.proposal;
        // Before application the contract record must hold (or be migrated
        // explicitly); a member whose text is gone is a stale-span conflict.
        let members = self.revalidate_entry(&p.id, range)?;
        let anchor = self.artifact.anchors[&p.anchor_id].clone();
        let final_text = with.unwrap_or(&p.replacement).to_owned();
        let outcome = match with {
            Some(w) if w != p.replacement => Outcome::Changed,
            _ => Outcome::Accepted,
        };
        let change = word_change(self.doc.len_chars(), range, &view.target, &final_text);
        let paints = self.accept_paints(&change, range, &p, &final_text, with.is_some());
        let review = vec![ReviewOp::ProposalDecided {
            proposal: p.clone(),
            anchor: anchor.clone(),
            outcome,
            chosen: Some(final_text.clone()),
        }];
        self.apply_with(&change, EditKind::Other, paints, review)?;
        self.tracked.remove(&p.anchor_id);
        self.unsaved.push(Unsaved::Decided {
            proposal: p,
            anchor,
            outcome,
            chosen: Some(final_text),
            members,
        });
        self.refresh();
        Ok(change)
    }

    /// Accept several proposals as one undo step (accept all of a turn). Stops at
    /// the first that cannot be accepted, leaving the ones before it accepted;
    /// returns the combined change.
    pub fn accept_all(&mut self, ids: &[String]) -> Result<ChangeSet> {
        self.decide_all(ids, |s, id| s.accept(id, None).map(Some))
    }

    /// Reject several proposals as one undo step (reject all of a turn).
    pub fn reject_all(&mut self, ids: &[String]) -> Result<()> {
        self.decide_all(ids, |s, id| s.reject(id).map(|()| None))
            .map(|_| ())
    }

    /// Decide each of `ids` in turn, then merge what was done into one undo step.
    /// The first failure stops it; it is returned only when nothing was decided.
    fn decide_all(
        &mut self,
        ids: &[String],
        mut decide: impl FnMut(&mut Self, &str) -> Result<Option<ChangeSet>>,
    ) -> Result<ChangeSet> {
        let mut total = ChangeSet::identity(self.doc.len_chars());
        let mut done = 0;
        let mut failure = None;
        for id in ids {
            match decide(self, id) {
                Ok(change) => {
                    if let Some(c) = change {
                        total = total.compose(&c).expect("consecutive changes compose");
                    }
                    done += 1;
                }
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        self.history.merge_last(done);
        match failure {
            Some(e) if done == 0 => Err(e),
            _ => Ok(total),
        }
    }

    /// Who gets each inserted piece of an accepted change: the proposal's author
    /// for its words; with accept-with-changes, the human for words the human
    /// changed.
    fn accept_paints(
        &self,
        change: &ChangeSet,
        range: CharRange,
        p: &Proposal,
        final_text: &str,
        changed_by_human: bool,
    ) -> Vec<(CharRange, Option<SpanAuthor>)> {
        let now = now_iso();
        let agent = SpanAuthor {
            author: p.author.clone(),
            turn_id: p.turn_id.clone(),
            instruction: p.instruction.clone(),
            created_at: now.clone(),
        };
        let human = SpanAuthor {
            author: self.identity.clone(),
            turn_id: None,
            instruction: None,
            created_at: now,
        };
        let inserted = change.inserted_ranges();
        if !changed_by_human {
            return inserted.into_iter().map(|r| (r, Some(agent.clone()))).collect();
        }
        let kept = chars_kept_from(&p.replacement, final_text);
        let is_agent = |pos: usize| kept.get(pos - range.start.0).copied().unwrap_or(false);
        let mut paints = Vec::new();
        for r in inserted {
            let mut run_start = r.start.0;
            for pos in r.start.0 + 1..=r.end.0 {
                if pos == r.end.0 || is_agent(pos) != is_agent(run_start) {
                    let who = if is_agent(run_start) { &agent } else { &human };
                    paints.push((CharRange::new(run_start, pos), Some(who.clone())));
                    run_start = pos;
                }
            }
        }
        paints
    }

    fn undo_buffer_only(&mut self) {
        if let Some(entry) = self.history.pop_undo() {
            if self.doc.apply(&entry.inverse).is_ok() {
                self.map_positions(&entry.inverse);
                self.restore(&entry.before);
            }
        }
    }

    /// Reject a proposal (a human gesture): it leaves the sidecar and the
    /// decision is logged, in one transaction; the document is untouched. Works
    /// whatever the proposal's state. (When a decision about it is still unsaved,
    /// the reject waits for the save too.) Undo brings it back.
    pub fn reject(&mut self, id: &str) -> Result<()> {
        for attempt in 0..REDO_LIMIT {
            if attempt > 0 {
                crate::fsutil::backoff(attempt);
            }
            let lock = lock_and_recover(&self.store, &self.doc_path)?;
            self.check_sidecar()?;
            let fresh = self.store.load_or_empty(&self.doc_path)?;
            self.adopt(fresh);
            let p = self
                .artifact
                .proposal(id)
                .cloned()
                .ok_or_else(|| self.not_found("proposal", id))?;
            let anchor = self
                .artifact
                .anchors
                .get(&p.anchor_id)
                .cloned()
                .unwrap_or_else(|| Anchor {
                    fingerprint: Default::default(),
                    extra: Extra::new(),
                });
            let op = Unsaved::Decided {
                proposal: p.clone(),
                anchor: anchor.clone(),
                outcome: Outcome::Rejected,
                chosen: None,
                members: None,
            };
            if self.last_unsaved(id).is_some() {
                self.unsaved.push(op);
                self.refresh();
            } else {
                match self.commit_ops(&lock, "reject", std::slice::from_ref(&op), false) {
                    Ok(after) => self.adopt(after),
                    Err(CommitError::Changed) => continue,
                    Err(CommitError::Failed(e)) => return Err(e),
                }
            }
            let identity = ChangeSet::identity(self.doc.len_chars());
            return self.apply_with(
                &identity,
                EditKind::Other,
                Vec::new(),
                vec![ReviewOp::ProposalDecided {
                    proposal: p,
                    anchor,
                    outcome: Outcome::Rejected,
                    chosen: None,
                }],
            );
        }
        Err(self.gave_up("reject"))
    }

    // ---- suggestion contract -------------------------------------------------------

    /// The workspace's contract ledger.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// The exact bytes the contract speaks of: the buffer as it would be saved
    /// (BOM included).
    pub fn contract_bytes(&self) -> Vec<u8> {
        self.doc.to_bytes()
    }

    fn bom_len(&self) -> usize {
        if self.doc.has_bom() {
            3
        } else {
            0
        }
    }

    /// A contract byte span (into [`Session::contract_bytes`]) as chars.
    pub fn char_range_of(&self, span: ByteRange) -> Result<CharRange> {
        let bom = self.bom_len();
        if span.start.0 < bom || span.end.0 < span.start.0 {
            return Err(Error::BadInput(format!(
                "byte span {span} is not inside the text of {}",
                self.doc_path
            )));
        }
        let conv = |b: usize| {
            self.doc
                .byte_to_char(ByteOffset(b - bom))
                .map_err(|source| Error::Document {
                    path: self.doc_path.to_string(),
                    source,
                })
        };
        Ok(CharRange {
            start: conv(span.start.0)?,
            end: conv(span.end.0)?,
        })
    }

    /// A char range as a contract byte span.
    pub fn byte_range_of(&self, range: CharRange) -> ByteRange {
        let bom = self.bom_len();
        ByteRange::new(
            self.doc.char_to_byte(range.start).0 + bom,
            self.doc.char_to_byte(range.end).0 + bom,
        )
    }

    /// File contract suggestions, each as one one-member proposal: a pending
    /// proposal in the sidecar (author and turn from `opts`) and its record in
    /// the ledger. Every suggestion must hold against the buffer now (its
    /// source hash and span text, [`contract::verify`]); a stale one refuses the
    /// whole batch and nothing is filed. Overlapping suggestions are filed as
    /// separate proposals: accepting one turns the other stale (INV-11).
    pub fn file_suggestions(
        &mut self,
        suggestions: &[Suggestion],
        opts: ProposeOptions,
    ) -> Result<Vec<Filed>> {
        self.check_sidecar()?;
        let bytes = self.contract_bytes();
        let mut suggestions = suggestions.to_vec();
        contract::sort_suggestions(&mut suggestions);
        let mut sorted: Vec<(Suggestion, CharRange)> = Vec::with_capacity(suggestions.len());
        for s in suggestions {
            contract::verify(&s, &bytes)?;
            if s.source.doc_id != self.doc_path.as_str() {
                return Err(Error::BadInput(format!(
                    "suggestion {} is about {}, not {}",
                    s.id, s.source.doc_id, self.doc_path
                )));
            }
            let range = self.char_range_of(s.span)?;
            sorted.push((s, range));
        }
        // One read-modify-write of the sidecar for the whole batch.
        let mut filed = Vec::with_capacity(sorted.len());
        let mut entries = Vec::with_capacity(sorted.len());
        let mut records = Vec::with_capacity(sorted.len());
        for (s, range) in sorted {
            let anchor_id = new_id("a");
            let proposal = Proposal {
                id: new_id("pr"),
                anchor_id: anchor_id.clone(),
                replacement: s.replacement.clone(),
                author: opts.author.clone(),
                created_at: now_iso(),
                turn_id: opts.turn_id.clone(),
                instruction: opts.instruction.clone(),
                extra: Extra::new(),
            };
            let anchor = Anchor {
                fingerprint: build_fingerprint(&self.doc, range),
                extra: Extra::new(),
            };
            let entry = Entry::new(proposal.id.clone(), opts.turn_id.clone(), vec![s]);
            filed.push(Filed {
                sidecar_id: proposal.id.clone(),
                proposal_id: entry.proposal.id.clone(),
            });
            entries.push(entry);
            records.push((range, proposal, anchor));
        }
        // The sidecar proposals and their ledger entries in one transaction.
        crate::ledger::keep_revision(self.store.workspace().root(), &bytes);
        let mut attempt = 0;
        let written = loop {
            attempt += 1;
            if attempt > REDO_LIMIT {
                return Err(self.gave_up("filing"));
            }
            if attempt > 1 {
                crate::fsutil::backoff(attempt);
            }
            let lock = lock_and_recover(&self.store, &self.doc_path)?;
            let (disk, sidecar_bytes) = match self.store.load_bytes(&self.doc_path)? {
                Some((a, b)) => (a, Some(b)),
                None => (Artifact::empty(self.doc_path.as_str()), None),
            };
            let mut after = disk;
            for (_, p, anchor) in &records {
                after.anchors.insert(p.anchor_id.clone(), anchor.clone());
                after.proposals.push(p.clone());
            }
            let mut txn = Txn::new("propose", &self.doc_path);
            txn.sidecar = Some((sidecar_bytes, after.clone()));
            match self.ledger.pending_with_bytes(&self.doc_path) {
                Ok((bytes, mut have)) => {
                    have.extend(entries.iter().cloned());
                    txn.pending = Some((bytes, have));
                }
                Err(e) if e.code() == ErrorCode::BadInput => return Err(e),
                // The proposals are filed and reviewable; only their contract
                // records are missing, so no decision on them can be recorded.
                Err(e) => self.warnings.push(format!("contract records not kept: {e}")),
            }
            match txn.commit(&self.store, &lock) {
                Ok(w) => {
                    self.warnings.extend(w);
                    break after;
                }
                Err(CommitError::Changed) => continue,
                Err(CommitError::Failed(e)) => return Err(e),
            }
        };
        self.sidecar_problem = None;
        self.adopt(written);
        for (range, p, _) in records {
            self.tracked.insert(p.anchor_id, range);
        }
        Ok(filed)
    }

    /// [`Session::propose`] through the contract: the edit becomes a one-member
    /// contract proposal by `producer` (category and reason as given), filed
    /// with its ledger record so its decision is logged. The same checks and
    /// errors as `propose`.
    pub fn propose_suggestion(
        &mut self,
        range: CharRange,
        replacement: &str,
        producer: &contract::Producer,
        category: &str,
        reason: &str,
        opts: ProposeOptions,
    ) -> Result<Filed> {
        self.check_range(range)?;
        let target = self.doc.slice(range);
        if target == replacement {
            return Err(Error::BadInput(format!(
                "the replacement is the same as the target text {target:?}; nothing to propose"
            )));
        }
        let bytes = self.contract_bytes();
        let source = contract::Source::of(self.doc_path.as_str(), &bytes);
        let suggestion = Suggestion::new(
            producer,
            &source,
            &bytes,
            contract::Finding {
                span: self.byte_range_of(range),
                replacement: replacement.to_owned(),
                category: category.to_owned(),
                reason: reason.to_owned(),
                confidence: None,
            },
        )?;
        let mut filed = self.file_suggestions(&[suggestion], opts)?;
        Ok(filed.remove(0))
    }

    /// Check the ledger entry of `sidecar_id` against the buffer before it is
    /// applied at `range`: members that still hold are kept; members whose
    /// bytes moved but whose text is intact are migrated explicitly (new
    /// revision, span and id, `migratedFrom`); a member whose text is gone is a
    /// stale-span conflict. Returns the migrated members, if any migrated.
    fn revalidate_entry(&mut self, sidecar_id: &str, range: CharRange) -> Result<Option<Vec<Suggestion>>> {
        let entry = match self.ledger.pending(&self.doc_path) {
            Ok(entries) => entries.into_iter().find(|e| e.sidecar_proposal_id == sidecar_id),
            Err(e) => {
                self.warnings.push(format!("contract records unreadable: {e}"));
                None
            }
        };
        let Some(entry) = entry else { return Ok(None) };
        let bytes = self.contract_bytes();
        let migrated = self.migrated(&entry, &bytes, range)?;
        if migrated.is_some() {
            crate::ledger::keep_revision(self.store.workspace().root(), &bytes);
        }
        Ok(migrated)
    }

    /// The members of `entry` carried over to `bytes`, where the proposal's
    /// target now sits at `range`; `None` when they hold as they are.
    fn migrated(
        &self,
        entry: &Entry,
        bytes: &[u8],
        range: CharRange,
    ) -> std::result::Result<Option<Vec<Suggestion>>, contract::ContractError> {
        if entry
            .suggestions
            .iter()
            .all(|s| contract::verify(s, bytes).is_ok())
        {
            return Ok(None);
        }
        let origin = entry
            .suggestions
            .iter()
            .map(|s| s.span.start.0)
            .min()
            .unwrap_or(0);
        let now = self.byte_range_of(range).start.0;
        let mut out = Vec::with_capacity(entry.suggestions.len());
        for s in &entry.suggestions {
            let start = s.span.start.0 - origin + now;
            let span = ByteRange::new(start, start + (s.span.end.0 - s.span.start.0));
            out.push(contract::migrate(s, self.doc_path.as_str(), bytes, span)?);
        }
        Ok(Some(out))
    }

    /// After a save: migrate every pending entry of this document whose
    /// proposal is pending and whose text is intact to the saved bytes; the
    /// rest stay as they were (their proposals show stale or orphaned).
    fn migrate_pending(&mut self, lock: &DocLock) {
        let bytes = self.contract_bytes();
        let live: HashMap<String, CharRange> = self
            .artifact
            .proposals
            .iter()
            .filter_map(|p| self.tracked.get(&p.anchor_id).map(|r| (p.id.clone(), *r)))
            .collect();
        let mut moves = Vec::new();
        let entries = match self.ledger.pending(&self.doc_path) {
            Ok(e) => e,
            Err(e) => {
                self.warnings.push(format!("contract records not migrated: {e}"));
                return;
            }
        };
        for e in &entries {
            if let Some(range) = live.get(&e.sidecar_proposal_id) {
                if let Ok(Some(m)) = self.migrated(e, &bytes, *range) {
                    moves.push((e.sidecar_proposal_id.clone(), m));
                }
            }
        }
        if moves.is_empty() {
            return;
        }
        // The migrated suggestions name these bytes' revision: keep it readable.
        crate::ledger::keep_revision(self.store.workspace().root(), &bytes);
        let res = self
            .ledger
            .update_pending_locked(lock, &self.doc_path, |entries| {
                for (id, members) in &moves {
                    if let Some(e) = entries.iter_mut().find(|e| &e.sidecar_proposal_id == id) {
                        *e = Entry::new(id.clone(), e.turn_id.clone(), members.clone());
                    }
                }
            });
        if let Err(e) = res {
            self.warnings.push(format!("contract records not migrated: {e}"));
        }
    }

    /// Problems with the ledger since the last call (a decision that could not
    /// be logged, say); the review itself went through.
    pub fn take_warnings(&mut self) -> Vec<String> {
        self.warnings.extend(crate::txn::take_recovery_warnings());
        std::mem::take(&mut self.warnings)
    }

    /// Track `range` through every change until [`Session::unpin`], under `key`
    /// (a selection a producer is working on while the human keeps typing).
    pub fn pin(&mut self, key: &str, range: CharRange) -> Result<()> {
        self.check_range(range)?;
        self.pins.insert(key.to_owned(), range);
        Ok(())
    }

    /// Where a pinned range is now; `None` when its text was deleted.
    pub fn pinned(&self, key: &str) -> Option<CharRange> {
        self.pins.get(key).copied()
    }

    pub fn unpin(&mut self, key: &str) {
        self.pins.remove(key);
    }

    // ---- threads -----------------------------------------------------------------

    /// Start a thread on `range` with a first comment by this session's human.
    pub fn new_thread(&mut self, range: CharRange, body: &str) -> Result<String> {
        self.check_range(range)?;
        check_body(body)?;
        let fingerprint = build_fingerprint(&self.doc, range);
        let anchor_id = new_id("a");
        let id = new_id("t");
        let thread = Thread {
            id: id.clone(),
            anchor_id: anchor_id.clone(),
            status: ThreadStatus::Open,
            comments: vec![self.comment(body)],
            extra: Extra::new(),
        };
        self.add_anchored(range, anchor_id, fingerprint, |a| a.threads.push(thread.clone()))?;
        Ok(id)
    }

    fn comment(&self, body: &str) -> Comment {
        Comment {
            id: new_id("c"),
            author: self.identity.clone(),
            body: body.to_owned(),
            created_at: now_iso(),
            extra: Extra::new(),
        }
    }

    /// Reply to a thread; returns the new comment's id.
    pub fn reply(&mut self, thread_id: &str, body: &str) -> Result<String> {
        check_body(body)?;
        let comment = self.comment(body);
        let cid = comment.id.clone();
        let doc = self.doc_path.to_string();
        let missing = || Error::NotFound {
            what: "thread",
            id: thread_id.to_owned(),
            doc: doc.clone(),
        };
        self.update(|a| {
            let t = a.thread_mut(thread_id).ok_or_else(missing)?;
            t.comments.push(comment.clone());
            Ok(())
        })?;
        Ok(cid)
    }

    /// Resolve or reopen a thread.
    pub fn set_thread_status(&mut self, thread_id: &str, status: ThreadStatus) -> Result<()> {
        let doc = self.doc_path.to_string();
        let missing = || Error::NotFound {
            what: "thread",
            id: thread_id.to_owned(),
            doc: doc.clone(),
        };
        self.update(|a| {
            let t = a.thread_mut(thread_id).ok_or_else(missing)?;
            t.status = status.clone();
            Ok(())
        })
    }

    /// Keep a relocated thread where it was re-attached: its text there becomes
    /// what it is about. Written at once when the buffer is saved (else with
    /// the next save, which fingerprints it where it is then).
    pub fn keep_thread_here(&mut self, thread_id: &str) -> Result<()> {
        let anchor_id = self.thread_anchor(thread_id)?;
        let Some(range) = self.tracked.get(&anchor_id).copied() else {
            return Err(Error::BadInput(format!(
                "thread {thread_id} is not attached to any text; there is nowhere to keep it"
            )));
        };
        self.relocated.remove(&anchor_id);
        if self.is_dirty() {
            return Ok(());
        }
        let fingerprint = build_fingerprint(&self.doc, range);
        self.update(|a| {
            if let Some(anchor) = a.anchors.get_mut(&anchor_id) {
                anchor.refingerprint(fingerprint.clone());
            }
            Ok(())
        })
    }

    /// Detach a thread from its text: it stays, with its comments and the text
    /// it was about, among the orphaned threads, and is never placed again.
    pub fn detach_thread(&mut self, thread_id: &str) -> Result<()> {
        let anchor_id = self.thread_anchor(thread_id)?;
        let doc = self.doc_path.to_string();
        self.update(|a| {
            let t = a.thread_mut(thread_id).ok_or_else(|| Error::NotFound {
                what: "thread",
                id: thread_id.to_owned(),
                doc: doc.clone(),
            })?;
            t.set_detached(true);
            Ok(())
        })?;
        self.relocated.remove(&anchor_id);
        Ok(())
    }

    fn thread_anchor(&self, thread_id: &str) -> Result<String> {
        self.artifact
            .threads
            .iter()
            .find(|t| t.id == thread_id)
            .map(|t| t.anchor_id.clone())
            .ok_or_else(|| self.not_found("thread", thread_id))
    }

    // ---- saving ------------------------------------------------------------------

    /// Write the document, and with it its unsaved decisions and what a save
    /// keeps in the sidecar (thread anchors re-fingerprinted where they now are,
    /// attribution spans as records; proposal anchors never), in one
    /// transaction. A corrupt or newer sidecar is left alone and reported in the
    /// [`SaveReport`]; the document is saved regardless — unless decisions
    /// taken on it are unsaved, which cannot be written without the sidecar.
    pub fn save(&mut self) -> Result<SaveReport> {
        for attempt in 0..REDO_LIMIT {
            if attempt > 0 {
                crate::fsutil::backoff(attempt);
            }
            let lock = lock_and_recover(&self.store, &self.doc_path)?;
            self.history.seal();
            if let Err(e) = self.check_sidecar() {
                if !self.unsaved.is_empty() {
                    return Err(e);
                }
                self.store.workspace().write_document(&self.doc_path, &self.doc)?;
                self.saved_now();
                return Ok(SaveReport {
                    sidecar_skipped: Some(e.info()),
                });
            }
            let ops = self.unsaved.clone();
            match self.commit_ops(&lock, "save", &ops, true) {
                Ok(after) => {
                    self.unsaved.clear();
                    self.saved_now();
                    self.sidecar_problem = None;
                    self.adopt(after);
                    self.migrate_pending(&lock);
                    return Ok(SaveReport {
                        sidecar_skipped: None,
                    });
                }
                Err(CommitError::Changed) => continue,
                Err(CommitError::Failed(e)) => return Err(e),
            }
        }
        Err(self.gave_up("save"))
    }

    /// What a save writes into the sidecar, computed from the live state.
    fn persistence(&self) -> Persistence {
        let proposal_anchors: std::collections::HashSet<&str> = self
            .artifact
            .proposals
            .iter()
            .map(|p| p.anchor_id.as_str())
            .collect();
        let thread_fingerprints = self
            .artifact
            .threads
            .iter()
            .filter(|t| !proposal_anchors.contains(t.anchor_id.as_str()))
            .filter(|t| !t.detached() && !self.relocated.contains(&t.anchor_id))
            .filter_map(|t| {
                self.tracked
                    .get(&t.anchor_id)
                    .map(|r| (t.anchor_id.clone(), build_fingerprint(&self.doc, *r)))
            })
            .collect();
        let mut attributions = Vec::with_capacity(self.spans.len() + self.orphan_attributions.len());
        for span in self.spans.in_record_order() {
            let meta = span.record.as_deref().cloned().unwrap_or_else(|| RecordMeta {
                id: new_id("at"),
                anchor_id: new_id("a"),
                ..RecordMeta::default()
            });
            let mut fingerprint = build_fingerprint(&self.doc, span.range);
            fingerprint.extra = meta.fingerprint_extra;
            attributions.push((
                Attribution {
                    id: meta.id,
                    anchor_id: meta.anchor_id.clone(),
                    author: span.who.author.clone(),
                    created_at: span.who.created_at.clone(),
                    turn_id: span.who.turn_id.clone(),
                    instruction: span.who.instruction.clone(),
                    extra: meta.extra,
                },
                Anchor {
                    fingerprint,
                    extra: meta.anchor_extra,
                },
            ));
        }
        attributions.extend(self.orphan_attributions.iter().cloned());
        Persistence {
            thread_fingerprints,
            attributions,
        }
    }
}

/// The part of a save that goes into the sidecar.
struct Persistence {
    thread_fingerprints: Vec<(String, crate::model::Fingerprint)>,
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
