//! Documents as files: a new document, a new folder, a rename or move (the
//! sidecar and the pending ledger entries follow), a document to the system
//! trash.
//!
//! - **Names.** A new name is a workspace-relative path ([`segments`]: no
//!   absolute path, no `..`, no reserved folder) whose every segment a writer
//!   could have typed and the listing shows: no control characters (line
//!   breaks, tabs), no line or paragraph separator (U+2028, U+2029), no
//!   bidirectional override, no BOM, not hidden (a leading `.`), no leading or
//!   trailing blank, at most 255 bytes. A name without a document ending gets
//!   `.md` (`notes` → `notes.md`, `v1.2` → `v1.2.md`).
//! - **Folders.** Missing parent folders are made, each inside the workspace:
//!   every existing component must be a real folder (a symlinked folder is
//!   refused, wherever it points), so nothing outside can change.
//! - **Nothing is overwritten.** A new document is created with `O_EXCL`; a
//!   rename refuses a target that exists (a document, a FIFO, a dangling link,
//!   or review data left under that name) and moves the file with
//!   `renameat2(RENAME_NOREPLACE)`. Refusals are [`Error::Exists`].
//! - **Rename** ([`rename`]): a transaction over both names, with an intent
//!   record, so a crash anywhere leaves the document and its review data
//!   under one name; the decision log records it.
//! - **To the trash** ([`delete`]), never removed: a transaction with an
//!   intent record, the document first (the commit point), then its sidecar and
//!   its pending ledger file, each to the freedesktop trash (the `trash` crate),
//!   from where a file manager restores them to where they were. A crash
//!   anywhere leaves the document with all its review data or none of it.

use crate::error::{Error, Result};
use crate::store::Store;
use crate::txn::lock_and_recover;
use crate::workspace::{is_document_name, kind_of, segments, DocPath, Workspace};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

pub mod delete;
pub mod rename;
pub use delete::{trash_document, Trashed};
pub use rename::rename_document;

/// The longest name a file system takes for one segment, in bytes.
const MAX_SEGMENT_BYTES: usize = 255;

/// The document a writer means by a new name: `raw` checked as a new name,
/// with `.md` added when it does not end like a document.
pub fn new_document_name(raw: &str) -> Result<DocPath> {
    let mut parts = new_segments(raw)?;
    let last = parts.last_mut().expect("segments are never empty");
    if !is_document_name(last) {
        last.push_str(".md");
        check_segment(raw, last)?;
    }
    DocPath::parse(&parts.join("/"))
}

/// `raw` as the segments of a new path, each checked ([`check_segment`]).
fn new_segments(raw: &str) -> Result<Vec<String>> {
    let parts = segments(raw.trim())?;
    for p in &parts {
        check_segment(raw, p)?;
    }
    Ok(parts)
}

/// One segment of a new name: what a writer could type and the listing shows.
fn check_segment(raw: &str, seg: &str) -> Result<()> {
    let bad = |why: &str| Err(Error::BadInput(format!("{raw:?}: {why}")));
    let hostile = |c: char| c.is_control() || cowriting_core::hidden::is_hidden(c);
    if seg.chars().any(hostile) {
        return bad("a name cannot hold line breaks, tabs, separators or other invisible control characters");
    }
    if let Some(&i) = cowriting_core::lookalike::flagged(seg).first() {
        let c = seg[i..].chars().next().expect("a char at a flagged offset");
        let (like, name) =
            cowriting_core::lookalike::lookalike(c).expect("flagged look-alikes are in the table");
        return bad(&format!(
            "a name cannot mix letters that pass for Latin ones into Latin words ({} {name}, which reads as {like:?})",
            cowriting_core::hidden::code_point(c)
        ));
    }
    if seg.starts_with('.') {
        return bad("a name starting with '.' is hidden and would not be listed");
    }
    if seg != seg.trim() {
        return bad("a name cannot start or end with a blank");
    }
    if seg == "node_modules" {
        return bad("node_modules is not listed; choose another name");
    }
    if seg.len() > MAX_SEGMENT_BYTES {
        return bad(&format!("a name is at most {MAX_SEGMENT_BYTES} bytes"));
    }
    Ok(())
}

/// The folder `parts` under the root: every existing component a real folder
/// (not a symlink, not a file); the missing ones made when `make`. Returns the
/// path and whether it existed whole before.
fn folder(ws: &Workspace, parts: &[String], make: bool) -> Result<(PathBuf, bool)> {
    let mut path = ws.root().to_path_buf();
    let mut existed = true;
    for (i, part) in parts.iter().enumerate() {
        path.push(part);
        let shown = parts[..=i].join("/");
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_dir() => {}
            Ok(m) if m.file_type().is_symlink() => {
                return Err(Error::BadInput(format!(
                    "{shown}: a symlinked folder; new documents and folders go only into real folders of the workspace"
                )))
            }
            Ok(m) => {
                return Err(Error::BadInput(format!(
                    "{shown}: not a folder ({})",
                    kind_of(&m.file_type())
                )))
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {
                existed = false;
                if make {
                    match std::fs::create_dir(&path) {
                        Ok(()) => {}
                        // Made meanwhile by another writer: fine if it is a folder.
                        Err(e) if e.kind() == ErrorKind::AlreadyExists && path.is_dir() && !path.is_symlink() => {}
                        Err(e) => return Err(Error::io(&path)(e)),
                    }
                }
            }
            Err(e) => return Err(Error::io(&path)(e)),
        }
    }
    Ok((path, existed))
}

/// A new folder at `raw` (its missing parents made): refused when it exists.
/// Returns its workspace-relative path.
pub fn new_folder(ws: &Workspace, raw: &str) -> Result<String> {
    let parts = new_segments(raw)?;
    let shown = parts.join("/");
    if folder(ws, &parts, false)?.1 {
        return Err(Error::Exists {
            path: shown,
            what: "a folder",
        });
    }
    folder(ws, &parts, true)?;
    Ok(shown)
}

/// A new, empty document at `raw` ([`new_document_name`]), its missing
/// folders made: refused with [`Error::Exists`] when anything is at that
/// name. Taken under the new name's lock.
pub fn new_document(store: &Store, raw: &str) -> Result<DocPath> {
    let doc = new_document_name(raw)?;
    let ws = store.workspace();
    let _lock = lock_and_recover(store, &doc)?;
    let parts: Vec<String> = doc.as_str().split('/').map(str::to_owned).collect();
    let (dir, _) = folder(ws, &parts[..parts.len() - 1], true)?;
    let path = dir.join(&parts[parts.len() - 1]);
    // O_EXCL: a file, a FIFO, a link (even a dangling one) at the name refuses.
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| match e.kind() {
            ErrorKind::AlreadyExists => Error::Exists {
                path: doc.to_string(),
                what: "a file",
            },
            _ => Error::io(&path)(e),
        })?;
    file.sync_all().map_err(Error::io(&path))?;
    sync_dir(&dir);
    Ok(doc)
}

/// The directory entry of an existing document (not what a symlink leads to),
/// under its real folder inside the workspace, and whether it is a symlink.
fn existing_entry(ws: &Workspace, doc: &DocPath) -> Result<(PathBuf, bool)> {
    let path = ws.root().join(doc.as_str());
    let meta = match std::fs::symlink_metadata(&path) {
        Ok(m) => m,
        Err(e) if e.kind() == ErrorKind::NotFound => {
            return Err(Error::MissingDocument {
                path: doc.to_string(),
            })
        }
        Err(e) => return Err(Error::io(&path)(e)),
    };
    // A symlink must lead to a regular file inside; a FIFO, a device or a
    // folder under a document's name is not a document.
    let target = ws.doc_file(doc)?;
    let regular = std::fs::metadata(&target).map(|m| m.is_file()).unwrap_or(false);
    if !regular {
        return Err(Error::BadInput(format!(
            "{doc}: not a regular file ({}); only documents are renamed or deleted",
            kind_of(&meta.file_type())
        )));
    }
    let name = path.file_name().expect("a document path has a name").to_owned();
    let parent = path
        .parent()
        .and_then(|p| p.canonicalize().ok())
        .filter(|p| p.starts_with(ws.root()))
        .ok_or(Error::OutsideWorkspace {
            path: doc.to_string(),
            why: "its folder leads out of the workspace",
        })?;
    Ok((parent.join(name), meta.file_type().is_symlink()))
}

fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_names_get_md_and_refuse_what_a_writer_could_not_see() {
        let name = |r: &str| new_document_name(r).map(|d| d.to_string());
        assert_eq!(name("notes").unwrap(), "notes.md");
        assert_eq!(name("  drafts/v1.2 ").unwrap(), "drafts/v1.2.md");
        assert_eq!(name("a.txt").unwrap(), "a.txt");
        assert_eq!(name("Ünïcode essay").unwrap(), "Ünïcode essay.md");
        for bad in [
            "a\nb",
            "a\u{2028}b",
            "tab\there",
            "rtl\u{202E}dm.exe",
            ".hidden",
            "dir/.x/a.md",
            "../up",
            "/etc/x",
            "",
            "a/ b.md",
            ".threads/x",
            "node_modules/x",
        ] {
            let err = name(bad).unwrap_err();
            assert_eq!(err.code(), crate::ErrorCode::BadInput, "{bad:?}: {err}");
        }
        assert!(name(&"x".repeat(253)).is_err(), "255 bytes with .md is too long");
    }
}
