//! A document and its review data to the system trash: one transaction, so a
//! crash anywhere leaves either the document with all its review data or none
//! of it (a later document of that name never inherits the old one's proposals
//! and threads).
//!
//! Under the document's lock ([`crate::txn::lock_and_recover`]):
//!
//! 1. the **intent record** `W/.cowriting/txn/delete/<name>` (under the
//!    document's own name, as a rename's: any name a document can have fits):
//!    the document's directory entry (device and inode) and the SHA-256 of its
//!    sidecar and pending ledger file as read;
//! 2. the document to the trash: the **commit point** (its entry leaves the
//!    name);
//! 3. the sidecar, then the pending ledger file, to the trash;
//! 4. the record removed.
//!
//! The freedesktop trash keeps `<name>.trashinfo` beside each file, so a name
//! of more than 245 bytes cannot go there as it is: such a file first takes a
//! shorter name in its own folder (`trash_name`; the same name always gives
//! the same one, so recovery finds it), then goes. For the document that move
//! is the commit point.
//!
//! A delete whose writer died is finished by whoever takes the name's lock
//! next (`recover`, from [`crate::txn::lock_and_recover`]): when the same entry is still
//! at the name, it never passed its commit point and the record just goes (a
//! copy the trash made of it is a copy, nothing is lost); otherwise the review
//! data follows the document to the trash. When another file has come to the
//! name since (a program that takes no lock), only review data that still holds
//! what the delete read goes; what was written since stays, with a warning.
//!
//! Nothing is ever removed: the trash keeps every file, from where a file
//! manager restores it to where it was.

use super::existing_entry;
use crate::error::{Error, Result};
use crate::fsutil::{self, Expect};
use crate::ledger::Ledger;
use crate::lock::DocLock;
use crate::store::Store;
use crate::txn::{self, lock_and_recover, TXN_DIR};
use crate::workspace::{DocPath, Workspace};
use serde::{Deserialize, Serialize};
use std::io::ErrorKind;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// What went to the trash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trashed {
    pub document: DocPath,
    /// Its sidecar went too.
    pub sidecar: bool,
    /// Its pending ledger file went too.
    pub pending: bool,
}

/// The intent record of a delete, as written before the first move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DeleteIntent {
    version: u32,
    /// Always `delete`.
    op: String,
    doc: String,
    /// The document's directory entry (the link itself for a symlink).
    dev: u64,
    ino: u64,
    /// SHA-256 (hex) of the sidecar and of the pending ledger file as read;
    /// `None`: there was none.
    sidecar: Option<String>,
    pending: Option<String>,
}

/// `txn/delete/<doc>`: a document name never ends in `.json`, so it is never a
/// decision's record, and a name is never both under `delete/` and `rename/`.
pub(crate) fn intent_file(ws: &Workspace, doc: &DocPath) -> Result<PathBuf> {
    ws.internal_file(&intent_rel(doc))
}

pub(crate) fn intent_rel(doc: &DocPath) -> String {
    format!("{TXN_DIR}/delete/{}", doc.as_str())
}

fn hex(h: [u8; 32]) -> String {
    h.iter().map(|b| format!("{b:02x}")).collect()
}

/// The SHA-256 (hex) of the regular file at `file`; `None` when there is none.
fn hash_of(file: &Path) -> Result<Option<String>> {
    match fsutil::read_regular(file) {
        Ok(b) => Ok(Some(hex(fsutil::sha256(&b)))),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(file)(e)),
    }
}

fn remove_record(file: &Path) -> Result<()> {
    fsutil::remove(file, Expect::Any)
        .map(|_| ())
        .map_err(|e| Error::io(file)(e.into()))
}

/// Move `doc` and its review data (the sidecar, the pending ledger file) to the
/// system trash as one transaction (see the module docs). When the trash
/// refuses the document, nothing moved; a review file the trash refuses after
/// it is a warning, and the next writer of the name moves it.
pub fn trash_document(store: &Store, doc: &DocPath) -> Result<Trashed> {
    let ws = store.workspace();
    let lock = lock_and_recover(store, doc)?;
    let (entry, _) = existing_entry(ws, doc)?;
    let meta = std::fs::symlink_metadata(&entry).map_err(Error::io(&entry))?;
    let sidecar = ws.sidecar_file(doc)?;
    let pending = Ledger::of(ws).pending_file(doc)?;
    let intent = DeleteIntent {
        version: 1,
        op: "delete".into(),
        doc: doc.to_string(),
        dev: meta.dev(),
        ino: meta.ino(),
        sidecar: hash_of(&sidecar)?,
        pending: hash_of(&pending)?,
    };
    // 1. The record.
    let record = intent_file(ws, doc)?;
    txn::ensure_ignored(ws)?;
    let text = serde_json::to_string(&intent).expect("intents serialize");
    fsutil::atomic_write(&record, text.as_bytes()).map_err(Error::io(&record))?;
    // 2. The document: the commit point.
    let staged = trash_name(&entry, document_ending(&entry));
    fsutil::fault_point();
    let moved = match &staged {
        None => to_trash(&entry),
        Some(short) => {
            super::rename::move_noreplace(&entry, short).map_err(Error::io(&entry))?;
            fsutil::fault_point();
            to_trash(short).inspect_err(|_| {
                // Back to its name: the delete did not happen.
                let _ = super::rename::move_noreplace(short, &entry);
            })
        }
    };
    if let Err(e) = moved {
        // Not moved (the trash moves by rename, or copies then removes): the
        // delete did not happen.
        if same_entry(ws, doc, &intent) {
            remove_record(&record)?;
            return Err(e);
        }
    }
    // 3–4. The rest cannot undo it: a step that fails is a warning and the
    // record stays for the next writer of the name.
    let out = Trashed {
        document: doc.clone(),
        sidecar: intent.sidecar.is_some(),
        pending: intent.pending.is_some(),
    };
    if let Err(e) = finish(store, &lock, doc, &intent, &record) {
        txn::recovery_warning(format!(
            "{doc} went to the trash, but its review data could not all follow yet ({e}); the next write to that name moves it"
        ));
    }
    Ok(out)
}

/// Whether the entry the delete recorded is still at the document's name.
fn same_entry(ws: &Workspace, doc: &DocPath, intent: &DeleteIntent) -> bool {
    std::fs::symlink_metadata(ws.root().join(doc.as_str()))
        .is_ok_and(|m| (m.dev(), m.ino()) == (intent.dev, intent.ino))
}

/// Steps 3 and 4: the review data to the trash, then the record removed. When
/// another file holds the name by now, a review file that changed since the
/// delete read it may be that file's: it stays, with a warning.
fn finish(store: &Store, _lock: &DocLock, doc: &DocPath, intent: &DeleteIntent, record: &Path) -> Result<()> {
    let ws = store.workspace();
    // A document whose name is too long for the trash was given a shorter one
    // first: there, it is the document (its entry) until it is in the trash.
    let entry = ws.root().join(doc.as_str());
    if let Some(short) = trash_name(&entry, document_ending(&entry)) {
        if std::fs::symlink_metadata(&short).is_ok_and(|m| (m.dev(), m.ino()) == (intent.dev, intent.ino)) {
            fsutil::fault_point();
            to_trash(&short)?;
        }
    }
    let taken = std::fs::symlink_metadata(&entry).is_ok();
    let files = [
        (ws.sidecar_file(doc)?, &intent.sidecar, "sidecar"),
        (
            Ledger::of(ws).pending_file(doc)?,
            &intent.pending,
            "pending suggestions file",
        ),
    ];
    for (file, read, what) in files {
        // One staged by a writer that died before it reached the trash.
        if let Some(short) = trash_name(&file, REVIEW_STAGED) {
            if std::fs::symlink_metadata(&short).is_ok() {
                fsutil::fault_point();
                to_trash(&short)?;
            }
        }
        let Some(now) = hash_of(&file)? else { continue };
        if taken && read.as_deref() != Some(now.as_str()) {
            txn::recovery_warning(format!(
                "a delete of {doc} was finished, but another file is at that name now and the {what} {} changed since the delete read it; it was left as it is",
                file.display()
            ));
            continue;
        }
        to_trash_as(&file, REVIEW_STAGED)?;
    }
    remove_record(record)
}

/// The freedesktop trash keeps `<name>.trashinfo` beside each file it holds,
/// so a name longer than this cannot go there as it is.
const TRASH_NAME_MAX: usize = fsutil::NAME_MAX - ".trashinfo".len();

/// The ending a staged review file gets: not `.json`, so it is never taken
/// for a sidecar or a pending file, even for the instant it is there.
const REVIEW_STAGED: &str = ".deleted";

/// The document's ending (`.md`), kept by its shorter name in the trash.
fn document_ending(entry: &Path) -> &str {
    let name = entry.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.rfind('.').map_or("", |i| &name[i..])
}

/// Where a file whose name is too long for the trash waits, in its own
/// folder, on its way there: the name cut to 200 bytes (at a character
/// boundary), `~`, 8 hex digits of the SHA-256 of the whole name, `ending`.
/// `None`: the name fits the trash as it is. The same name always gives the
/// same place, so recovery finds it.
fn trash_name(path: &Path, ending: &str) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    if name.len() <= TRASH_NAME_MAX {
        return None;
    }
    let mut cut = 200.min(name.len());
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    let h = hex(fsutil::sha256(name.as_bytes()));
    Some(path.with_file_name(format!("{}~{}{ending}", &name[..cut], &h[..8])))
}

/// `path` to the trash, through a shorter name ([`trash_name`]) when its own is
/// too long for the trash; a fault point before each durable step.
fn to_trash_as(path: &Path, ending: &str) -> Result<()> {
    fsutil::fault_point();
    let Some(short) = trash_name(path, ending) else {
        return to_trash(path);
    };
    super::rename::move_noreplace(path, &short).map_err(Error::io(path))?;
    fsutil::fault_point();
    to_trash(&short)
}

/// Finish the delete a dead writer left on `doc`, if there is one (see the
/// module docs); the caller holds `doc`'s lock.
pub(crate) fn recover(store: &Store, lock: &DocLock, doc: &DocPath) -> Result<()> {
    let ws = store.workspace();
    let record = intent_file(ws, doc)?;
    let bytes = match fsutil::read_regular(&record) {
        Ok(b) => b,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(&record)(e)),
    };
    let intent = match serde_json::from_slice::<DeleteIntent>(&bytes) {
        Ok(i) if i.op == "delete" && i.doc == doc.as_str() => i,
        // Written atomically: a record that does not parse, or is not of this
        // name, was never a complete record of ours, and nothing followed it.
        _ => return remove_record(&record),
    };
    if same_entry(ws, doc, &intent) {
        // Never passed its commit point: nothing moved.
        return remove_record(&record);
    }
    finish(store, lock, doc, &intent, &record)
}

fn to_trash(path: &Path) -> Result<()> {
    trash::delete(path).map_err(|e| {
        Error::io(path)(std::io::Error::other(format!(
            "could not move it to the trash: {e}"
        )))
    })
}
