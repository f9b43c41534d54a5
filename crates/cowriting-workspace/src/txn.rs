//! Decisions as transactions over the document, its sidecar, its ledger entries
//! and the decision log (SQLite's hot-journal recovery, in small).
//!
//! A decision touches up to four files. [`Txn::commit`] runs, under the
//! document's lock:
//!
//! 1. write the **intent record** `W/.cowriting/txn/decision/<docPath>`: the
//!    sidecar's and the pending file's bytes before and after, the document's
//!    hash before and after, the proposals removed and restored, the log lines;
//! 2. replace the sidecar, then the pending file (each only if it still holds
//!    what was read);
//! 3. replace the document — the **commit point** when the decision changes the
//!    text; otherwise the sidecar write is;
//! 4. append the log lines; 5. remove the intent record.
//!
//! Whoever takes the document's lock next ([`lock_and_recover`]: every session
//! opening and every write of ours) and finds an intent record knows its writer
//! died (the kernel released the lock). It rolls the transaction forward when
//! the commit point was passed (sidecar and pending file as after, the missing
//! log lines appended) and back when it was not (sidecar and pending file as
//! before; the document was never touched). A file that holds neither state (a
//! writer that takes no lock changed it since) is mended by record: the removed
//! proposals taken out or put back, the restored ones the other way. So after a
//! crash anywhere a proposal is either pending with the document untouched, or
//! decided with its text in place, its attribution recorded and its decision
//! logged once — never applied twice, never lost.
//!
//! The intent folder has a `.gitignore`, so a crash never leaves anything for
//! `git add -A` to commit.

use crate::error::{Error, Result};
use crate::fsutil::{self, Expect, WriteError};
use crate::ledger::{Entry, Ledger};
use crate::lock::DocLock;
use crate::store::Store;
use crate::workspace::{DocPath, Workspace};
use cowriting_core::model::{parse_artifact, serialize_artifact, Artifact};
use serde::{Deserialize, Serialize};

/// `docBefore` of a document that had no file.
const ABSENT: &str = "absent";

/// Where intent records live, under the workspace root.
pub const TXN_DIR: &str = ".cowriting/txn";

/// One file's states in a transaction (bytes as text: both files are JSON).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileChange {
    /// The bytes before (`None`: no file).
    pub before: Option<String>,
    /// The bytes after (`None`: the file is removed).
    pub after: Option<String>,
}

/// The intent record, as written before the first change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Intent {
    pub version: u32,
    /// What it was (for messages): `accept`, `reject`, `save`, `undo`, `redo`.
    pub op: String,
    pub doc: String,
    /// SHA-256 (hex) of the document before and after; `None` when it is not written.
    pub doc_before: Option<String>,
    pub doc_after: Option<String>,
    pub sidecar: Option<FileChange>,
    pub pending: Option<FileChange>,
    /// Sidecar proposal ids this transaction removes (decided).
    pub removed: Vec<String>,
    /// Sidecar proposal ids this transaction puts back (an undone decision).
    pub restored: Vec<String>,
    /// Decision-log lines appended after the commit point.
    pub log: Vec<String>,
}

/// A transaction being prepared: what the files become.
#[derive(Debug)]
pub struct Txn {
    pub op: &'static str,
    pub doc: DocPath,
    /// The document's new bytes and the hash of the bytes it replaces (`None`:
    /// there is no file).
    pub document: Option<(Vec<u8>, Option<[u8; 32]>)>,
    /// The sidecar: the bytes read (with their artifact) and the artifact after.
    pub sidecar: Option<(Option<Vec<u8>>, Artifact)>,
    /// The pending entries: the bytes read and the entries after.
    pub pending: Option<(Option<Vec<u8>>, Vec<Entry>)>,
    pub removed: Vec<String>,
    pub restored: Vec<String>,
    pub log: Vec<String>,
}

/// What went wrong in a commit: a file changed under it (redo the decision on
/// what is there now) or an error (everything was rolled back first).
#[derive(Debug)]
pub enum CommitError {
    Changed,
    Failed(Error),
}

impl From<Error> for CommitError {
    fn from(e: Error) -> Self {
        CommitError::Failed(e)
    }
}

fn hex(h: [u8; 32]) -> String {
    h.iter().map(|b| format!("{b:02x}")).collect()
}

fn sha_hex(bytes: &[u8]) -> String {
    hex(fsutil::sha256(bytes))
}

/// Where `doc`'s decision record lives: `txn/decision/<doc>`, under the
/// document's own name as a rename's and a delete's (`txn/rename/<doc>`,
/// `txn/delete/<doc>`), so any name a document can have fits (a 255-byte name
/// and `.json` would not).
fn intent_file(ws: &Workspace, doc: &DocPath) -> Result<std::path::PathBuf> {
    ws.internal_file(&intent_rel(doc))
}

fn intent_rel(doc: &DocPath) -> String {
    format!("{TXN_DIR}/decision/{}", doc.as_str())
}

/// Where earlier builds put the intent record (`txn/<doc>.json`), a crash may have left
/// one: read by recovery only, when the name fits. Document names never end in
/// `.json`, so it is never another kind's record.
fn legacy_intent_file(ws: &Workspace, doc: &DocPath) -> Option<std::path::PathBuf> {
    ws.internal_file_present(&format!("{TXN_DIR}/{}.json", doc.as_str()))
        .ok()
        .flatten()
}

/// Whether an intent record names `doc` (a decision, a delete, a rename of or
/// to it, or a decision's record an earlier build left): a writer is in the
/// middle of a transaction on it, or died in one. Only looked at (`lstat`):
/// nothing is read, made or finished (a read that finds one takes the lock,
/// and [`lock_and_recover`] finishes it).
pub fn in_flight(ws: &Workspace, doc: &DocPath) -> Result<bool> {
    use crate::documents::{delete, rename};
    for rel in [intent_rel(doc), delete::intent_rel(doc), rename::intent_rel(doc)] {
        if ws.internal_file_present(&rel)?.is_some() {
            return Ok(true);
        }
    }
    Ok(legacy_intent_file(ws, doc).is_some())
}

/// Take `doc`'s lock and finish (forward or back) any transaction a dead writer
/// left on it (a decision, a delete, or a rename of or to it). Every write of ours, and every session opening, starts here.
pub fn lock_and_recover(store: &Store, doc: &DocPath) -> Result<DocLock> {
    use crate::documents::rename;
    loop {
        let lock = store.workspace().lock_doc(doc)?;
        if !rename::left_behind(store.workspace(), doc)? {
            recover_locked(store, &lock, doc)?;
            return Ok(lock);
        }
        // A rename's recovery takes both names' locks, in name order: not
        // while holding this one.
        drop(lock);
        rename::recover(store, doc)?;
    }
}

/// Finish what a dead writer left on `doc` under its lock, `doc`'s lock held:
/// a decision's transaction, then a delete's ([`crate::documents::delete`]).
pub(crate) fn recover_locked(store: &Store, lock: &DocLock, doc: &DocPath) -> Result<()> {
    recover(store, lock, doc)?;
    crate::documents::delete::recover(store, lock, doc)
}

/// [`lock_and_recover`] for a write about a document that must still be there
/// (a thread, a proposal, a decision): one renamed or moved to the trash since
/// the caller read it is refused with [`Error::MissingDocument`], so nothing is
/// written under a name the document no longer has (a rename holds the lock
/// of both names while it moves the files). Saving does not ask this: a save
/// writes the text back.
pub fn lock_existing(store: &Store, doc: &DocPath) -> Result<DocLock> {
    let lock = lock_and_recover(store, doc)?;
    let path = store.workspace().root().join(doc.as_str());
    match std::fs::symlink_metadata(&path) {
        Ok(_) => Ok(lock),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(Error::MissingDocument {
            path: doc.to_string(),
        }),
        Err(e) => Err(Error::io(&path)(e)),
    }
}

impl Txn {
    pub fn new(op: &'static str, doc: &DocPath) -> Txn {
        Txn {
            op,
            doc: doc.clone(),
            document: None,
            sidecar: None,
            pending: None,
            removed: Vec::new(),
            restored: Vec::new(),
            log: Vec::new(),
        }
    }

    /// Run it (see the module docs). On `Err` nothing of it is on disk. Past
    /// the commit point nothing can fail it any more: a log line that cannot be
    /// appended is returned as a warning (the decision itself is on disk).
    pub fn commit(self, store: &Store, lock: &DocLock) -> std::result::Result<Vec<String>, CommitError> {
        let ws = store.workspace();
        let ledger = Ledger::of(ws);
        // Every path through the guard before the first write: a hostile path
        // refuses the whole decision, never half of it.
        if !self.log.is_empty() || !self.removed.is_empty() || !self.restored.is_empty() {
            ledger.decisions_file()?;
        }
        let fits = |file: std::path::PathBuf| fsutil::name_fits(&file).map_err(Error::io(&file));
        if self.pending.is_some() {
            fits(ledger.pending_file(&self.doc)?)?;
        }
        if self.sidecar.is_some() {
            fits(ws.sidecar_file(&self.doc)?)?;
        }
        if self.document.is_some() {
            ws.doc_file(&self.doc)?;
        }
        let sidecar = self.sidecar.as_ref().map(|(before, after)| FileChange {
            before: before.as_ref().map(|b| String::from_utf8_lossy(b).into_owned()),
            after: Some(serialize_artifact(after)),
        });
        let pending = self.pending.as_ref().map(|(before, entries)| FileChange {
            before: before.as_ref().map(|b| String::from_utf8_lossy(b).into_owned()),
            after: (!entries.is_empty()).then(|| crate::ledger::pending_text(&self.doc, entries.clone())),
        });
        let intent = Intent {
            version: 1,
            op: self.op.to_owned(),
            doc: self.doc.as_str().to_owned(),
            doc_before: self
                .document
                .as_ref()
                .map(|(_, h)| h.map_or_else(|| ABSENT.to_owned(), hex)),
            doc_after: self.document.as_ref().map(|(b, _)| sha_hex(b)),
            sidecar,
            pending,
            removed: self.removed.clone(),
            restored: self.restored.clone(),
            log: self.log.clone(),
        };
        let ifile = intent_file(ws, &self.doc)?;
        ensure_ignored(ws)?;
        let text = serde_json::to_string(&intent).expect("intents serialize");
        fsutil::atomic_write(&ifile, text.as_bytes()).map_err(Error::io(&ifile))?;

        let undo = |e: CommitError| -> CommitError {
            // Not committed: put back what was written, then report.
            match roll(store, lock, &self.doc, &intent, false) {
                Ok(()) => {
                    let _ = fsutil::remove(&ifile, Expect::Any);
                    e
                }
                Err(re) => CommitError::Failed(re),
            }
        };
        if let Some(fc) = &intent.sidecar {
            let file = ws.sidecar_file(&self.doc)?;
            let expect = Expect::of(fc.before.as_deref().map(str::as_bytes));
            if let Some(after) = &fc.after {
                store.note_own_write(&file, after.as_bytes());
            }
            if let Err(e) = write_state(&file, fc.after.as_deref(), expect) {
                return Err(undo(e));
            }
        }
        if let Some(fc) = &intent.pending {
            let file = ledger.pending_file(&self.doc)?;
            let expect = Expect::of(fc.before.as_deref().map(str::as_bytes));
            if let Err(e) = write_state(&file, fc.after.as_deref(), expect) {
                return Err(undo(e));
            }
        }
        if let Some((bytes, before)) = &self.document {
            let file = ws.doc_file(&self.doc)?;
            let expect = before.map_or(Expect::Absent, Expect::Sha256);
            if let Err(e) = write_state(&file, Some(bytes), expect) {
                return Err(undo(e));
            }
        }
        // Committed: from here on, recovery rolls forward.
        let mut warnings = Vec::new();
        if let Err(e) = ledger.append_lines(&intent.log) {
            warnings.push(format!("the decision is made but not in the decision log: {e}"));
        }
        if let Err(e) = fsutil::remove(&ifile, Expect::Any) {
            warnings.push(format!("{}: {e}", ifile.display()));
        }
        Ok(warnings)
    }
}

fn write_state(
    file: &std::path::Path,
    after: Option<impl AsRef<[u8]>>,
    expect: Expect,
) -> std::result::Result<(), CommitError> {
    let res = match after {
        Some(b) => fsutil::replace(file, b.as_ref(), expect),
        None => fsutil::remove(file, expect).map(|_| ()),
    };
    match res {
        Ok(()) => Ok(()),
        Err(WriteError::Changed) => Err(CommitError::Changed),
        Err(WriteError::Io(e)) => Err(CommitError::Failed(Error::io(file)(e))),
    }
}

/// `txn/` with a `.gitignore`.
pub(crate) fn ensure_ignored(ws: &Workspace) -> Result<()> {
    let ignore = ws.internal_file(&format!("{TXN_DIR}/.gitignore"))?;
    if ignore.exists() {
        return Ok(());
    }
    fsutil::atomic_write(
        &ignore,
        b"# Intent records of cowriting decisions in progress.\n*\n",
    )
    .map_err(Error::io(&ignore))
}

/// Finish a transaction a dead writer left on `doc`, if there is one.
pub fn recover(store: &Store, lock: &DocLock, doc: &DocPath) -> Result<()> {
    let ws = store.workspace();
    let mut ifile = intent_file(ws, doc)?;
    if std::fs::symlink_metadata(&ifile).is_err() {
        if let Some(legacy) = legacy_intent_file(ws, doc) {
            ifile = legacy;
        }
    }
    // What a dead writer left half-written in this document's folders goes
    // too (each folder once per process: see `remove_dead_temp_files_once`).
    let ledger = Ledger::of(ws);
    for file in [
        ws.sidecar_file(doc),
        ledger.pending_file(doc),
        ws.doc_file(doc),
        Ok(ifile.clone()),
    ]
    .into_iter()
    .flatten()
    {
        if let Some(dir) = file.parent() {
            fsutil::remove_dead_temp_files_once(dir);
        }
    }
    let bytes = match fsutil::read_regular(&ifile) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(&ifile)(e)),
    };
    let intent: Intent = match serde_json::from_slice(&bytes) {
        Ok(i) => i,
        // Written atomically, so a record that does not parse was never ours
        // complete: nothing was changed after it. Drop it.
        Err(_) => {
            fsutil::remove(&ifile, Expect::Any).map_err(|e| Error::io(&ifile)(e.into()))?;
            return Ok(());
        }
    };
    let forward = committed(store, doc, &intent)?;
    roll(store, lock, doc, &intent, forward)?;
    if forward {
        let append = ledger
            .missing_lines(&intent.log)
            .and_then(|l| ledger.append_lines(&l));
        if let Err(e) = append {
            // The decision is on disk; only its log line is not. That must not
            // block every later operation on the document.
            recovery_warning(format!(
                "a {} on {doc} interrupted by a crash was completed, but its decision log line could not be written: {e}",
                intent.op
            ));
        }
    }
    fsutil::remove(&ifile, Expect::Any).map_err(|e| Error::io(&ifile)(e.into()))?;
    Ok(())
}

static RECOVERY_WARNINGS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

pub(crate) fn recovery_warning(w: String) {
    RECOVERY_WARNINGS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(w);
}

/// What recoveries in this process could not finish (shown by the session's
/// warnings).
pub fn take_recovery_warnings() -> Vec<String> {
    std::mem::take(&mut *RECOVERY_WARNINGS.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Whether the transaction passed its commit point.
fn committed(store: &Store, doc: &DocPath, intent: &Intent) -> Result<bool> {
    let ws = store.workspace();
    if let (Some(before), Some(after)) = (&intent.doc_before, &intent.doc_after) {
        if before != after {
            let now = match fsutil::read_regular(&ws.doc_file(doc)?) {
                Ok(b) => Some(sha_hex(&b)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(Error::io(ws.doc_file(doc)?)(e)),
            };
            return Ok(now.as_deref() == Some(after.as_str()));
        }
    }
    // No text change: the sidecar write was the commit point.
    let Some(fc) = &intent.sidecar else {
        return Ok(true);
    };
    let file = ws.sidecar_file(doc)?;
    let now = read_text(&file)?;
    if now == fc.after {
        return Ok(true);
    }
    if now == fc.before {
        return Ok(false);
    }
    // Changed since by someone else: judge by the records.
    let a = match now.as_deref().map(parse_artifact) {
        Some(Ok(a)) => a,
        _ => return Ok(false),
    };
    Ok(intent.removed.iter().all(|id| a.proposal(id).is_none())
        && intent.restored.iter().all(|id| a.proposal(id).is_some()))
}

fn read_text(file: &std::path::Path) -> Result<Option<String>> {
    match fsutil::read_regular(file) {
        Ok(b) => Ok(Some(String::from_utf8_lossy(&b).into_owned())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(file)(e)),
    }
}

/// Put the sidecar and the pending file in the transaction's after state
/// (`forward`) or its before state.
fn roll(store: &Store, lock: &DocLock, doc: &DocPath, intent: &Intent, forward: bool) -> Result<()> {
    let ws = store.workspace();
    let ledger = Ledger::of(ws);
    let pick = |fc: &FileChange| {
        if forward {
            (fc.after.clone(), fc.before.clone())
        } else {
            (fc.before.clone(), fc.after.clone())
        }
    };
    if let Some(fc) = &intent.sidecar {
        let (want, other) = pick(fc);
        let file = ws.sidecar_file(doc)?;
        let now = read_text(&file)?;
        if now != want {
            let exact = now == other
                && store.replace_locked(
                    lock,
                    doc,
                    want.as_deref().map(str::as_bytes),
                    Expect::of(now.as_deref().map(str::as_bytes)),
                )?;
            if !exact {
                // Someone else wrote it since: mend it record by record.
                let both: Vec<Artifact> = [fc.before.as_deref(), fc.after.as_deref()]
                    .into_iter()
                    .flatten()
                    .filter_map(|t| parse_artifact(t).ok())
                    .collect();
                let (take_out, put_back) = if forward {
                    (&intent.removed, &intent.restored)
                } else {
                    (&intent.restored, &intent.removed)
                };
                store.update_locked(lock, doc, |a| {
                    a.proposals.retain(|p| !take_out.contains(&p.id));
                    for id in put_back {
                        if a.proposal(id).is_some() {
                            continue;
                        }
                        if let Some((p, anchor)) = both.iter().find_map(|b| {
                            let p = b.proposal(id)?;
                            Some((p.clone(), b.anchors.get(&p.anchor_id)?.clone()))
                        }) {
                            a.anchors.insert(p.anchor_id.clone(), anchor);
                            a.proposals.push(p);
                        }
                    }
                    Ok(())
                })?;
            }
        }
    }
    if let Some(fc) = &intent.pending {
        let (want, _) = pick(fc);
        let file = ledger.pending_file(doc)?;
        let now = read_text(&file)?;
        if now != want {
            match write_state(
                &file,
                want.as_deref(),
                Expect::of(now.as_deref().map(str::as_bytes)),
            ) {
                Ok(()) => {}
                Err(CommitError::Changed) => return Err(crate::store::kept_changing(&file)),
                Err(CommitError::Failed(e)) => return Err(e),
            }
        }
    }
    Ok(())
}
