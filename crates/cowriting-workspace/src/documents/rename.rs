//! Rename or move a document: one transaction over two names. The document,
//! its sidecar and its pending ledger file move together, and the decision log
//! records the rename.
//!
//! Under both names' locks (`lock_pair`: taken in name order, so two renames
//! never deadlock; a crashed writer's transaction on either finished first):
//!
//! 1. the **intent record** `W/.cowriting/txn/rename/<name>`, written
//!    under both names (whoever takes either lock next finds it): the two
//!    names, the sidecar's and the pending file's bytes as read at the old name
//!    and as written at the new one, the log line;
//! 2. the review data at the new name, each file only where nothing is: the
//!    sidecar (its `docPath` rewritten, the VS Code location
//!    `.threads/<new>.json`) and the pending ledger file (its `docId`
//!    rewritten);
//! 3. the document, with `renameat2(RENAME_NOREPLACE)`: the **commit point**;
//! 4. the old review files removed: the pending file if it still holds what
//!    was read; the sidecar moved aside first and left to settle, what a
//!    writer that takes no lock saved meanwhile copied again
//!    (`move_rest_of_sidecar`);
//! 5. the log line `{"renamed":true,"from":…,"to":…}` appended when decisions
//!    were logged under the old name: they are read as the document's under the new one
//!    ([`crate::ledger::Ledger::log`]);
//! 6. the records removed.
//!
//! A rename whose writer died (the kernel released its locks) is finished by
//! whoever takes either name's lock next ([`crate::txn::lock_and_recover`]
//! calls `recover`): forward when the document is at the new name (the old
//! review files removed, the log line appended once), else back (the copies at
//! the new name removed). A file another writer
//! changed since is never removed: it stays, with a warning. So after a crash
//! anywhere the document and its review data are under one name, and a later
//! rename to the other name is not refused for data a dead rename left.

use super::{existing_entry, folder, new_document_name, sync_dir};
use crate::error::{Error, Result};
use crate::fsutil::{self, Expect, WriteError};
use crate::ledger::{pending_text, Ledger};
use crate::lock::DocLock;
use crate::store::Store;
use crate::txn::{self, lock_and_recover, FileChange, TXN_DIR};
use crate::workspace::{DocPath, Workspace};
use cowriting_core::model::serialize_artifact;
use serde::{Deserialize, Serialize};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// The intent record of a rename, as written before the first change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RenameIntent {
    version: u32,
    /// Always `rename`.
    op: String,
    from: String,
    to: String,
    /// The sidecar as read at `from` (`before`) and as written at `to` (`after`).
    sidecar: Option<FileChange>,
    /// The pending ledger file, the same way.
    pending: Option<FileChange>,
    /// The decision-log line appended after the commit point; none when no
    /// decision was ever logged under the old name (nothing to carry: the
    /// shared log is left as it is).
    #[serde(default)]
    log: Option<String>,
}

/// Where `doc`'s rename record lives: `txn/rename/<doc>`, under the document's
/// own name, so any name a document can have fits (a 250-byte name and a suffix
/// would not). Decisions and deletes have folders of their own
/// (`txn/decision/`, `txn/delete/`); document names end in a document ending,
/// never `.json`, so it is never a record left by an older version
/// (`txn/<doc>.json`), even of a document in a folder named `rename`.
pub(crate) fn intent_file(ws: &Workspace, doc: &DocPath) -> Result<PathBuf> {
    ws.internal_file(&intent_rel(doc))
}

pub(crate) fn intent_rel(doc: &DocPath) -> String {
    format!("{TXN_DIR}/rename/{}", doc.as_str())
}

/// Whether a rename of or to `doc` was left unfinished by a dead writer (or is
/// running: only a caller holding `doc`'s lock knows it is not).
pub(crate) fn left_behind(ws: &Workspace, doc: &DocPath) -> Result<bool> {
    Ok(ws.internal_file_present(&intent_rel(doc))?.is_some())
}

/// The record at `file`; `None` when there is none. Records are written
/// atomically, so one that does not parse was never ours complete (nothing was
/// changed after it): it is removed.
fn read_intent(file: &Path) -> Result<Option<RenameIntent>> {
    let bytes = match fsutil::read_regular(file) {
        Ok(b) => b,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(file)(e)),
    };
    match serde_json::from_slice::<RenameIntent>(&bytes) {
        Ok(i) if i.op == "rename" => Ok(Some(i)),
        _ => {
            remove_record(file)?;
            Ok(None)
        }
    }
}

fn remove_record(file: &Path) -> Result<()> {
    fsutil::remove(file, Expect::Any)
        .map(|_| ())
        .map_err(|e| Error::io(file)(e.into()))
}

fn exists(ws: &Workspace, doc: &DocPath) -> bool {
    std::fs::symlink_metadata(ws.root().join(doc.as_str())).is_ok()
}

/// Remove `file`, review data of the name whose lock is `_lock`, if it still
/// holds `expected` (compared before the removal): `true` when it is gone (or
/// was already), `false` when another writer changed it (it is left as it is).
fn remove_if_unchanged(_lock: &DocLock, file: &Path, expected: &str) -> Result<bool> {
    match fsutil::remove(file, Expect::of(Some(expected.as_bytes()))) {
        Ok(_) => Ok(true),
        Err(WriteError::Changed) => Ok(std::fs::symlink_metadata(file).is_err()),
        Err(WriteError::Io(e)) => Err(Error::io(file)(e)),
    }
}

/// The locks of `from` and `to`, taken in name order, any transaction a dead
/// writer left on either finished. A rename left on the second name is finished
/// holding no lock (its recovery takes two locks of its own), then both are
/// taken again.
fn lock_pair(store: &Store, from: &DocPath, to: &DocPath) -> Result<(DocLock, DocLock)> {
    let ws = store.workspace();
    let (first, second) = if from < to { (from, to) } else { (to, from) };
    loop {
        let a = lock_and_recover(store, first)?;
        let b = ws.lock_doc(second)?;
        if left_behind(ws, second)? {
            drop(b);
            drop(a);
            recover(store, second)?;
            continue;
        }
        txn::recover_locked(store, &b, second)?;
        return Ok(if first == from { (a, b) } else { (b, a) });
    }
}

/// Rename or move `from` to `raw_to` ([`new_document_name`]): see the module
/// docs. Returns the new name.
pub fn rename_document(store: &Store, from: &DocPath, raw_to: &str) -> Result<DocPath> {
    let to = new_document_name(raw_to)?;
    if to == *from {
        return Err(Error::BadInput(format!(
            "{from}: the document already has that name"
        )));
    }
    let ws = store.workspace();
    let ledger = Ledger::of(ws);
    let (from_lock, to_lock) = lock_pair(store, from, &to)?;

    let (from_entry, is_link) = existing_entry(ws, from)?;
    let to_parts: Vec<String> = to.as_str().split('/').map(str::to_owned).collect();
    let (to_dir, _) = folder(ws, &to_parts[..to_parts.len() - 1], false)?;
    let to_entry = to_dir.join(&to_parts[to_parts.len() - 1]);
    if is_link && to_entry.parent() != from_entry.parent() {
        return Err(Error::BadInput(format!(
            "{from}: a symlink; rename it within its folder (a link moved elsewhere would lead somewhere else)"
        )));
    }
    if std::fs::symlink_metadata(&to_entry).is_ok() {
        return Err(Error::Exists {
            path: to.to_string(),
            what: "a file",
        });
    }
    let to_sidecar = ws.sidecar_file(&to)?;
    let to_pending = ledger.pending_file(&to)?;
    for (file, what) in [
        (&to_sidecar, "review data (a sidecar) left under that name"),
        (
            &to_pending,
            "review data (pending suggestions) left under that name",
        ),
    ] {
        if std::fs::symlink_metadata(file).is_ok() {
            return Err(Error::Exists {
                path: to.to_string(),
                what,
            });
        }
    }
    // What moves, read under the locks. A sidecar or pending file that cannot
    // be read refuses the rename (it is never rewritten).
    let sidecar = store.load_bytes(from)?;
    let (pending_bytes, entries) = ledger.pending_with_bytes(from)?;
    // Whether the log has decisions under the old name to carry to the new one.
    let carried = ledger.log()?.records.iter().any(|d| d.doc_id == from.as_str());
    let records = [intent_file(ws, &to)?, intent_file(ws, from)?];
    folder(ws, &to_parts[..to_parts.len() - 1], true)?;

    let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let intent = RenameIntent {
        version: 1,
        op: "rename".into(),
        from: from.to_string(),
        to: to.to_string(),
        sidecar: sidecar.as_ref().map(|(artifact, read)| {
            let mut moved = artifact.clone();
            moved.doc_path = to.to_string();
            FileChange {
                before: Some(lossy(read)),
                after: Some(serialize_artifact(&moved)),
            }
        }),
        pending: pending_bytes.as_ref().map(|read| FileChange {
            before: Some(lossy(read)),
            after: Some(pending_text(&to, entries)),
        }),
        log: carried.then(|| ledger.rename_line(from, &to)),
    };
    // 1. The records, under both names.
    txn::ensure_ignored(ws)?;
    let text = serde_json::to_string(&intent).expect("intents serialize");
    for (i, record) in records.iter().enumerate() {
        if let Err(e) = fsutil::atomic_write(record, text.as_bytes()) {
            for written in &records[..i] {
                let _ = remove_record(written);
            }
            return Err(Error::io(record)(e));
        }
    }
    let give_up = |e: Error| -> Error {
        take_back(store, &to_lock, &to, &intent);
        for record in &records {
            let _ = remove_record(record);
        }
        e
    };
    // 2. The review data at the new name.
    if let Some(after) = intent.sidecar.as_ref().and_then(|fc| fc.after.as_deref()) {
        match store.replace_locked(&to_lock, &to, Some(after.as_bytes()), Expect::Absent) {
            Ok(true) => {}
            Ok(false) => {
                return Err(give_up(Error::Exists {
                    path: to.to_string(),
                    what: "review data (a sidecar) left under that name",
                }))
            }
            Err(e) => return Err(give_up(e)),
        }
    }
    if let Some(after) = intent.pending.as_ref().and_then(|fc| fc.after.as_deref()) {
        if let Err(e) = fsutil::replace(&to_pending, after.as_bytes(), Expect::Absent) {
            return Err(give_up(Error::io(&to_pending)(e.into())));
        }
    }
    // 3. The document: the commit point.
    if let Err(e) = move_noreplace(&from_entry, &to_entry) {
        return Err(give_up(match e.kind() {
            ErrorKind::AlreadyExists => Error::Exists {
                path: to.to_string(),
                what: "a file",
            },
            _ => Error::io(&from_entry)(e),
        }));
    }
    sync_dir(&to_dir);
    if let Some(dir) = from_entry.parent() {
        sync_dir(dir);
    }
    // The rename is on disk: what is left to do (4–6) cannot undo it. A step
    // that fails is a warning, the records stay, and the next write to either
    // name finishes it (`recover`).
    let rest = || -> Result<()> {
        // 4. The old review data goes: only if it still holds what was copied.
        if let Some((_, read)) = sidecar {
            let written = intent
                .sidecar
                .as_ref()
                .and_then(|fc| fc.after.clone())
                .unwrap_or_default();
            move_rest_of_sidecar(store, &from_lock, &to_lock, from, &to, read, written.into_bytes())?;
        }
        if let Some(read) = &pending_bytes {
            // Pending files are written only under the lock we hold.
            let file = ledger.pending_file(from)?;
            fsutil::remove(&file, Expect::of(Some(read))).map_err(|e| Error::io(&file)(e.into()))?;
        }
        // 5. The log line.
        ledger.append_lines(intent.log.as_slice())?;
        // 6. The records, the new name's last: a writer that dies between the
        // two leaves it where the document now is, so the next write there clears it.
        for record in records.iter().rev() {
            remove_record(record)?;
        }
        Ok(())
    };
    if let Err(e) = rest() {
        txn::recovery_warning(format!(
            "{from} was renamed to {to}, but its old review data or the decision log could not be brought up to date yet ({e}); the next write to either name finishes it"
        ));
    }
    Ok(to)
}

/// Take back step 2 of a rename that did not reach its commit point: each copy
/// at the new name removed if it still holds what was written (a copy another
/// writer changed since stays, with a warning).
fn take_back(store: &Store, to_lock: &DocLock, to: &DocPath, intent: &RenameIntent) {
    let ws = store.workspace();
    let warn = |what: &str, file: PathBuf| {
        txn::recovery_warning(format!(
            "a rename of {} to {to} was taken back, but {what} {} was changed by another writer since; it was left as it is",
            intent.from,
            file.display()
        ))
    };
    if let Some(after) = intent.sidecar.as_ref().and_then(|fc| fc.after.as_deref()) {
        if let Ok(file) = ws.sidecar_file(to) {
            if !matches!(remove_if_unchanged(to_lock, &file, after), Ok(true)) {
                warn("the sidecar", file);
            }
        }
    }
    if let Some(after) = intent.pending.as_ref().and_then(|fc| fc.after.as_deref()) {
        if let Ok(file) = Ledger::of(ws).pending_file(to) {
            if !matches!(remove_if_unchanged(to_lock, &file, after), Ok(true)) {
                warn("the pending suggestions file", file);
            }
        }
    }
}

/// Finish the rename a dead writer left on `doc` (see the module docs): under
/// both names' locks, taken here in name order; the caller holds neither.
pub(crate) fn recover(store: &Store, doc: &DocPath) -> Result<()> {
    let ws = store.workspace();
    let file = intent_file(ws, doc)?;
    let Some(intent) = read_intent(&file)? else {
        return Ok(());
    };
    let (from, to) = match (DocPath::parse(&intent.from), DocPath::parse(&intent.to)) {
        (Ok(f), Ok(t)) if f != t && (f == *doc || t == *doc) => (f, t),
        // Not a rename of this document: not a record of ours.
        _ => return remove_record(&file),
    };
    let (first, second) = if from < to { (&from, &to) } else { (&to, &from) };
    let a = ws.lock_doc(first)?;
    let b = ws.lock_doc(second)?;
    let (from_lock, to_lock) = if first == &from { (&a, &b) } else { (&b, &a) };
    // Read again under both locks: another process may have finished it.
    if read_intent(&file)?.as_ref() != Some(&intent) {
        return Ok(());
    }
    let records = [intent_file(ws, &from)?, intent_file(ws, &to)?];
    // The document at the new name is the commit point (a rename never starts
    // with anything there), whatever has been made at the old name since: a
    // document another program put there is never taken for an unfinished
    // rename, and the renamed one's review data is never taken back from it.
    if exists(ws, &to) {
        finish_forward(store, from_lock, &from, &intent)?;
    } else {
        take_back(store, to_lock, &to, &intent);
    }
    for record in &records {
        // The other name's record may be another rename's by now.
        if record == &file || read_intent(record)?.as_ref() == Some(&intent) {
            remove_record(record)?;
        }
    }
    Ok(())
}

/// Steps 4 and 5 of a rename past its commit point whose writer died: the old
/// review files removed if they still hold what was read (else left, with a
/// warning), the log line appended if it is not there yet.
fn finish_forward(store: &Store, from_lock: &DocLock, from: &DocPath, intent: &RenameIntent) -> Result<()> {
    let ws = store.workspace();
    let ledger = Ledger::of(ws);
    let warn = |what: &str| {
        txn::recovery_warning(format!(
            "a rename of {from} to {} interrupted by a crash was finished, but {what} under the old name was changed by another writer since; it was left as it is",
            intent.to
        ))
    };
    // Where renameat2 is missing the move is a link then an unlink: a writer
    // that died between them left the document under both names, one file.
    {
        use std::os::unix::fs::MetadataExt;
        let (old, new) = (ws.root().join(from.as_str()), ws.root().join(&intent.to));
        if let (Ok(a), Ok(b)) = (std::fs::symlink_metadata(&old), std::fs::symlink_metadata(&new)) {
            if (a.dev(), a.ino()) == (b.dev(), b.ino()) {
                std::fs::remove_file(&old).map_err(Error::io(&old))?;
            }
        }
    }
    let before = intent.sidecar.as_ref().and_then(|fc| fc.before.as_deref());
    // A writer that died with the old sidecar moved aside
    // (`move_rest_of_sidecar`) left `<sidecar>.renaming`: it goes back to the
    // old name, so the step below treats it as it treats the sidecar (gone if
    // it holds what was read; a save of another writer's left there, with a
    // warning). When a new file was saved at the old name since, the aside
    // goes if it holds what was read, and is left with a warning if not.
    let old_sidecar = ws.sidecar_file(from)?;
    let aside = aside_of(&old_sidecar);
    if std::fs::symlink_metadata(&aside).is_ok() {
        fsutil::fault_point();
        match move_noreplace(&aside, &old_sidecar) {
            Ok(()) => {}
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                let dropped =
                    before.is_some_and(|b| remove_if_unchanged(from_lock, &aside, b).unwrap_or(false));
                if !dropped {
                    txn::recovery_warning(format!(
                        "a rename of {from} to {} interrupted by a crash was finished; a save another writer made to the old sidecar meanwhile is kept in {}",
                        intent.to,
                        aside.display()
                    ));
                }
            }
            Err(e) => return Err(Error::io(&aside)(e)),
        }
    }
    if let Some(before) = before {
        if !remove_if_unchanged(from_lock, &old_sidecar, before)? {
            warn("the sidecar");
        }
    }
    if let Some(before) = intent.pending.as_ref().and_then(|fc| fc.before.as_deref()) {
        if !remove_if_unchanged(from_lock, &ledger.pending_file(from)?, before)? {
            warn("the pending suggestions file");
        }
    }
    let missing = ledger.missing_lines(intent.log.as_slice())?;
    if let Err(e) = ledger.append_lines(&missing) {
        txn::recovery_warning(format!(
            "a rename of {from} to {} interrupted by a crash was finished, but the decision log could not record it: {e}",
            intent.to
        ));
    }
    Ok(())
}

/// How long the old sidecar, moved aside, is left before it is read: a writer
/// that takes no lock and opened it just before the move has written by then.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(25);

/// The old sidecar goes, and nothing a writer that takes no lock (the VS Code
/// extension) wrote to it is lost: it is moved aside (`<name>.json.renaming`:
/// from then on that writer's next save makes a new file at the old name), left
/// [`SETTLE`]d, and read; what differs from `read` (the writer saved between
/// the copy and the move) is copied to the new name again (with the new
/// `docPath`, over `written`, what this rename wrote there). Then the aside
/// file goes, and a new file at the old name (the writer saved after the move)
/// is taken the same way. Checking and then removing in place would lose a save
/// that lands between the two; a move is one step.
fn move_rest_of_sidecar(
    store: &Store,
    _from_lock: &DocLock,
    to_lock: &DocLock,
    from: &DocPath,
    to: &DocPath,
    mut read: Vec<u8>,
    mut written: Vec<u8>,
) -> Result<()> {
    let file = store.workspace().sidecar_file(from)?;
    let aside = aside_of(&file);
    for attempt in 0..crate::store::REDO_LIMIT {
        if attempt > 0 {
            fsutil::backoff(attempt);
        }
        fsutil::fault_point();
        match std::fs::rename(&file, &aside) {
            Ok(()) => {}
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(Error::io(&file)(e)),
        }
        std::thread::sleep(SETTLE);
        let bytes = fsutil::read_regular(&aside).map_err(|e| Error::io(&aside)(e))?;
        if bytes != read {
            let copied = cowriting_core::model::parse_artifact(&String::from_utf8_lossy(&bytes))
                .ok()
                .map(|mut artifact| {
                    artifact.doc_path = to.to_string();
                    serialize_artifact(&artifact).into_bytes()
                });
            let copied = match copied {
                Some(text) => store
                    .replace_locked(to_lock, to, Some(&text), Expect::of(Some(&written)))?
                    .then_some(text),
                None => None,
            };
            let Some(text) = copied else {
                // Unreadable (a save half-written) or the new name changed
                // meanwhile: put it back and try again.
                fsutil::fault_point();
                move_noreplace(&aside, &file).map_err(|e| Error::io(&aside)(e))?;
                read.clear();
                continue;
            };
            written = text;
        }
        fsutil::fault_point();
        std::fs::remove_file(&aside).map_err(|e| Error::io(&aside)(e))?;
        if std::fs::symlink_metadata(&file).is_err() {
            return Ok(());
        }
        // Saved again at the old name after the move: that file is taken too.
        read.clear();
    }
    Err(crate::store::kept_changing(&file))
}

/// Where [`move_rest_of_sidecar`] moves the old sidecar aside:
/// `<sidecar>.renaming`, found and finished by [`finish_forward`] after a crash.
fn aside_of(sidecar: &Path) -> PathBuf {
    let mut aside = sidecar.to_path_buf().into_os_string();
    aside.push(".renaming");
    PathBuf::from(aside)
}

/// Rename `from` to `to`, refusing to replace anything at `to`.
pub(super) fn move_noreplace(from: &Path, to: &Path) -> std::io::Result<()> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    match renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE) {
        Ok(()) => Ok(()),
        // A file system without RENAME_NOREPLACE: a hard link fails when the
        // target exists, then the old name goes.
        Err(e) if e == rustix::io::Errno::INVAL || e == rustix::io::Errno::NOSYS => {
            std::fs::hard_link(from, to)?;
            std::fs::remove_file(from)
        }
        Err(e) => Err(e.into()),
    }
}
