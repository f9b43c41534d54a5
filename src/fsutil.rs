//! Atomic file replacement: write a temp file in the same folder, fsync it,
//! rename it over the target, fsync the folder. A crash at any point leaves the
//! old file or the new one, never a torn one.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

/// The points at which [`atomic_write_with`] calls its hook (fault injection in tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The temp file exists but holds only part of the bytes.
    PartlyWritten,
    /// The temp file is complete and synced; the rename has not happened.
    BeforeRename,
}

/// Replace `path` with `bytes` atomically. Creates missing parent folders. An
/// existing file's permissions are kept.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    atomic_write_with(path, bytes, |_| Ok(()))
}

/// [`atomic_write`] with a hook called at each [`Stage`]; an error from the hook
/// aborts the write as a crash there would (the temp file is removed, the target
/// untouched).
pub fn atomic_write_with(
    path: &Path,
    bytes: &[u8],
    mut hook: impl FnMut(Stage) -> io::Result<()>,
) -> io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no parent folder"))?;
    fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy());
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)?;
    let half = bytes.len() / 2;
    tmp.write_all(&bytes[..half])?;
    hook(Stage::PartlyWritten)?;
    tmp.write_all(&bytes[half..])?;
    tmp.as_file().sync_all()?;
    match fs::metadata(path) {
        Ok(meta) => tmp.as_file().set_permissions(meta.permissions())?,
        Err(_) => set_new_file_permissions(tmp.as_file())?,
    }
    hook(Stage::BeforeRename)?;
    tmp.persist(path).map_err(|e| e.error)?;
    // Make the rename itself durable.
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// tempfile creates files readable by the owner only; a new document or
/// sidecar should be as readable as any file the user creates.
#[cfg(unix)]
fn set_new_file_permissions(file: &fs::File) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn set_new_file_permissions(_file: &fs::File) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leftovers(dir: &Path) -> Vec<String> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn interrupted_write_leaves_the_old_file_at_every_stage() {
        for stage in [Stage::PartlyWritten, Stage::BeforeRename] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("x.json");
            fs::write(&path, "old\n").unwrap();
            let err = atomic_write_with(&path, b"new contents\n", |s| {
                if s == stage {
                    Err(io::Error::other("simulated crash"))
                } else {
                    Ok(())
                }
            })
            .unwrap_err();
            assert_eq!(err.to_string(), "simulated crash");
            assert_eq!(fs::read_to_string(&path).unwrap(), "old\n", "{stage:?}");
            assert!(leftovers(dir.path()).is_empty(), "{stage:?}");
        }
    }

    #[test]
    fn completed_write_replaces_and_keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/x.md");
        atomic_write(&path, b"one").unwrap();
        assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o644);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        atomic_write(&path, b"two").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        assert!(leftovers(path.parent().unwrap()).is_empty());
    }
}
