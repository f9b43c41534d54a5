//! A file the writer names for us to write — an export — wherever they
//! choose: their own path, inside the workspace or out of it. What is written
//! is never written through a symlink and never over anything unless asked:
//!
//! - the name's folder must exist (nothing is made) and is resolved; the name
//!   itself is not: a symlink there is refused, even with `overwrite` (what it
//!   leads to is not what the writer named), and so is anything that is not a
//!   regular file (a folder, a FIFO, a device);
//! - a new file is made with a rename that never replaces
//!   ([`fsutil::create_new`]): a file that appears meanwhile is not lost;
//! - an existing regular file is replaced only with `overwrite`, atomically,
//!   and only if it still holds what was read ([`fsutil::replace`]);
//! - inside the workspace, the containment guard holds: nothing under `.git`,
//!   `.threads` or `.cowriting` ([`segments`]), nothing hidden
//!   ([`Workspace::resolve`](crate::workspace::Workspace::resolve)); a name that is a document's is
//!   written under that document's lock (a crashed writer's transaction
//!   finished first), so the app, the CLI and agents never interleave with it.

use crate::error::{Error, Result};
use crate::fsutil::{self, Expect, WriteError};
use crate::store::Store;
use crate::txn::lock_and_recover;
use crate::workspace::{is_document_name, kind_of, segments, DocPath};
use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};

/// Write `bytes` to `target` (absolute, or relative to the current folder);
/// see the module docs. Returns the path written (its folder resolved).
pub fn write_named_file(store: &Store, target: &Path, bytes: &[u8], overwrite: bool) -> Result<PathBuf> {
    let shown = target.display().to_string();
    let name = match target.components().next_back() {
        Some(Component::Normal(n)) => n.to_owned(),
        _ => return Err(Error::BadInput(format!("{shown}: not a file name"))),
    };
    let parent = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let dir = parent.canonicalize().map_err(|e| match e.kind() {
        ErrorKind::NotFound => Error::BadInput(format!("{}: no such folder", parent.display())),
        _ => Error::io(&parent)(e),
    })?;
    if !dir.is_dir() {
        return Err(Error::BadInput(format!("{}: not a folder", parent.display())));
    }
    let path = dir.join(&name);

    // Inside the workspace: never among its own files; a document under its lock.
    let root = store.workspace().root();
    let _lock = match path.strip_prefix(root) {
        Ok(rel) => {
            let rel: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            let rel = rel.join("/");
            segments(&rel)?;
            // The one guard (nothing hidden: no `.env`, no `.git/…`); a link
            // at the name is refused below, as a link.
            if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
                store.workspace().resolve(&rel)?;
            }
            if is_document_name(&name.to_string_lossy()) {
                Some(lock_and_recover(store, &DocPath::parse(&rel)?)?)
            } else {
                None
            }
        }
        Err(_) => None,
    };

    match std::fs::symlink_metadata(&path) {
        Ok(m) if m.file_type().is_symlink() => Err(Error::BadInput(format!(
            "{shown}: a symbolic link; not followed (choose another name)"
        ))),
        Ok(m) if !m.is_file() => Err(Error::BadInput(format!(
            "{shown}: not a regular file ({}); not written",
            kind_of(&m.file_type())
        ))),
        Ok(_) if !overwrite => Err(Error::Exists {
            path: shown,
            what: "a file",
        }),
        Ok(_) => {
            let read = fsutil::read_regular(&path).map_err(Error::io(&path))?;
            match fsutil::replace(&path, bytes, Expect::of(Some(&read))) {
                Ok(()) => Ok(path),
                Err(WriteError::Changed) => Err(Error::io(&path)(std::io::Error::other(
                    "changed by another program while it was being written; try again",
                ))),
                Err(WriteError::Io(e)) => Err(Error::io(&path)(e)),
            }
        }
        Err(e) if e.kind() == ErrorKind::NotFound => match fsutil::create_new(&path, bytes) {
            Ok(()) => Ok(path),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => Err(Error::Exists {
                path: shown,
                what: "a file",
            }),
            Err(e) => Err(Error::io(&path)(e)),
        },
        Err(e) => Err(Error::io(&path)(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::Workspace;
    use std::sync::Arc;

    fn store(dir: &Path) -> Arc<Store> {
        Arc::new(Store::new(Workspace::open(dir).unwrap()))
    }

    #[test]
    fn new_files_are_made_existing_ones_kept_unless_asked() {
        let ws = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        let s = store(ws.path());
        let target = out.path().join("essay.html");
        assert_eq!(
            write_named_file(&s, &target, b"one", false).unwrap(),
            out.path().canonicalize().unwrap().join("essay.html")
        );
        assert_eq!(std::fs::read(&target).unwrap(), b"one");
        let e = write_named_file(&s, &target, b"two", false).unwrap_err();
        assert_eq!(e.code(), crate::error::ErrorCode::Exists);
        assert_eq!(std::fs::read(&target).unwrap(), b"one");
        write_named_file(&s, &target, b"two", true).unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"two");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                std::fs::metadata(&target).unwrap().permissions().mode() & 0o777,
                0o644
            );
        }
    }

    #[test]
    fn a_symlink_at_the_name_is_never_followed() {
        let ws = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        let s = store(ws.path());
        let victim = out.path().join("victim.txt");
        std::fs::write(&victim, b"keep").unwrap();
        let link = out.path().join("out.html");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        for overwrite in [false, true] {
            let e = write_named_file(&s, &link, b"evil", overwrite).unwrap_err();
            assert_eq!(e.code(), crate::error::ErrorCode::BadInput, "{e}");
        }
        let dangling = out.path().join("dangling.html");
        std::os::unix::fs::symlink(out.path().join("nothing"), &dangling).unwrap();
        assert!(write_named_file(&s, &dangling, b"evil", true).is_err());
        assert!(!out.path().join("nothing").exists());
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
    }

    #[test]
    fn inside_the_workspace_its_own_folders_are_refused() {
        let ws = tempfile::tempdir().unwrap();
        let s = store(ws.path());
        std::fs::create_dir_all(ws.path().join(".threads")).unwrap();
        std::fs::create_dir_all(ws.path().join("docs")).unwrap();
        assert!(write_named_file(&s, &ws.path().join(".threads/x.html"), b"x", false).is_err());
        // Through a symlinked folder from outside, too.
        let out = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(ws.path().join(".threads"), out.path().join("t")).unwrap();
        assert!(write_named_file(&s, &out.path().join("t/x.html"), b"x", false).is_err());
        assert!(!ws.path().join(".threads/x.html").exists());
        // A document name is written under its lock; others plainly.
        write_named_file(&s, &ws.path().join("docs/essay.critic.md"), b"{++a++}", false).unwrap();
        write_named_file(&s, &ws.path().join("docs/essay.html"), b"<p>", false).unwrap();
        assert_eq!(
            std::fs::read(ws.path().join("docs/essay.critic.md")).unwrap(),
            b"{++a++}"
        );
        assert!(write_named_file(&s, &ws.path().join("missing/essay.html"), b"<p>", false).is_err());
    }
}
