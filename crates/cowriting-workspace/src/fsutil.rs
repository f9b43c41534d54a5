//! Durable file writes, the bottom of the one write protocol.
//!
//! - [`replace`]: write a temp file in the same folder, fsync it, check that the
//!   target still holds what the caller read ([`Expect`]; against writers that
//!   take no lock, such as the VS Code extension), rename it over the target,
//!   fsync the folder. A crash at any point leaves the old file or the new one,
//!   never a torn one.
//! - Temp files have short names (`.cw-XXXXXXXX.tmp`, so a document name of up
//!   to the file system's limit still has a temp name) and are locked by their
//!   writer while they live. Every write first removes the leftovers of writers
//!   that died (a temp file nobody holds a lock on), so no temp file outlives the
//!   next write to its folder.
//! - [`append`]: one `O_APPEND` write plus fsync, for the decision log.
//! - [`read_regular`]: read a file that must be a regular file (a FIFO or a
//!   device is refused at once, never blocked on).
//! - Fault injection: with `COWRITING_FAULT_AT=N` in the environment the process
//!   aborts (as `kill -9` would: no cleanup) just before its Nth durable step
//!   (a rename, a removal, an append, a move to the trash). The crash tests use
//!   it to stop a decision, a rename or a delete between every pair of writes.

use sha2::{Digest, Sha256};
use std::fs;
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// The points at which [`replace_with`] calls its hook (fault injection in unit tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The temp file exists but holds only part of the bytes.
    PartlyWritten,
    /// The temp file is complete and synced; the rename has not happened.
    BeforeRename,
}

/// What the target must hold just before it is replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Anything (a plain atomic write).
    Any,
    /// Nothing: the file must not exist.
    Absent,
    /// Exactly the bytes with this SHA-256.
    Sha256([u8; 32]),
}

impl Expect {
    /// What a read found: `Absent` for no file, else its hash.
    pub fn of(read: Option<&[u8]>) -> Expect {
        match read {
            None => Expect::Absent,
            Some(b) => Expect::Sha256(sha256(b)),
        }
    }
}

/// The SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// Why [`replace`] did not write.
#[derive(Debug)]
pub enum WriteError {
    /// The target no longer holds what was expected: another writer changed it
    /// since it was read. Nothing was written; read again and redo.
    Changed,
    Io(io::Error),
}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> Self {
        WriteError::Io(e)
    }
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Changed => f.write_str("changed by another program while it was being updated"),
            WriteError::Io(e) => e.fmt(f),
        }
    }
}

impl From<WriteError> for io::Error {
    fn from(e: WriteError) -> Self {
        match e {
            WriteError::Io(e) => e,
            WriteError::Changed => io::Error::other(e.to_string()),
        }
    }
}

/// Replace `path` with `bytes` atomically, whatever it holds. Creates missing
/// parent folders. An existing file's permissions are kept.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, bytes, Expect::Any).map_err(io::Error::from)
}

/// Replace `path` with `bytes` atomically if it still holds what `expect` says.
pub fn replace(path: &Path, bytes: &[u8], expect: Expect) -> Result<(), WriteError> {
    replace_with(path, bytes, expect, |_| Ok(()))
}

/// [`replace`] with a hook called at each [`Stage`]; an error from the hook
/// aborts the write as a crash there would (the temp file is removed, the target
/// untouched).
pub fn replace_with(
    path: &Path,
    bytes: &[u8],
    expect: Expect,
    mut hook: impl FnMut(Stage) -> io::Result<()>,
) -> Result<(), WriteError> {
    let dir = path
        .parent()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no parent folder"))?;
    // Before any folder is made for a file that cannot exist.
    name_fits(path)?;
    fs::create_dir_all(dir)?;
    remove_dead_temp_files(dir);
    // A temp file of ours can vanish if a cleanup in another process ran in the
    // instant between its creation and its lock: start again, a few times.
    let mut attempts = 0;
    loop {
        attempts += 1;
        let mut tmp = tempfile::Builder::new()
            .prefix(TEMP_PREFIX)
            .suffix(TEMP_SUFFIX)
            .rand_bytes(8)
            .tempfile_in(dir)?;
        // Held until the temp file is renamed or removed: a live writer's temp
        // file is never taken for a dead one's.
        tmp.as_file().lock()?;
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
        if !holds(path, expect)? {
            return Err(WriteError::Changed);
        }
        fault_point();
        match tmp.persist(path) {
            Ok(_file) => break,
            Err(e) if e.error.kind() == io::ErrorKind::NotFound && attempts < 5 => continue,
            Err(e) => return Err(e.error.into()),
        }
    }
    // Make the rename itself durable.
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Write `bytes` as a new file at `path`, refusing (`AlreadyExists`) when
/// anything is there — a file, a folder, a symlink, even a dangling one: a
/// temp file in the same folder, fsynced, moved into place with a rename that
/// never replaces (`renameat2(RENAME_NOREPLACE)`, or a hard link where the
/// file system has none). The folder must exist.
pub fn create_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no parent folder"))?;
    remove_dead_temp_files(dir);
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .rand_bytes(8)
        .tempfile_in(dir)?;
    tmp.as_file().lock()?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    set_new_file_permissions(tmp.as_file())?;
    fault_point();
    tmp.persist_noclobber(path).map_err(|e| e.error)?;
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Whether the file at `path` is what `expect` says.
fn holds(path: &Path, expect: Expect) -> io::Result<bool> {
    Ok(match expect {
        Expect::Any => true,
        Expect::Absent => match fs::symlink_metadata(path) {
            Ok(_) => false,
            Err(e) if e.kind() == io::ErrorKind::NotFound => true,
            Err(e) => return Err(e),
        },
        Expect::Sha256(h) => match read_regular(path) {
            Ok(bytes) => sha256(&bytes) == h,
            Err(e) if e.kind() == io::ErrorKind::NotFound => false,
            Err(e) => return Err(e),
        },
    })
}

/// Remove `path` if it still holds what `expect` says; `Ok(false)` when it
/// does not (nothing removed). A missing file counts as removed.
pub fn remove(path: &Path, expect: Expect) -> Result<bool, WriteError> {
    match expect {
        Expect::Absent => return Ok(true),
        Expect::Any => {}
        Expect::Sha256(_) => {
            if !holds(path, expect)? {
                return Err(WriteError::Changed);
            }
        }
    }
    fault_point();
    match fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(true),
        Err(e) => Err(e.into()),
    }
}

/// The longest name of one file (one path segment), in bytes.
pub const NAME_MAX: usize = 255;

/// `Ok` when the last segment of `path` is a name a file can have
/// ([`NAME_MAX`] bytes at most); else the error the file system would give
/// (`ENAMETOOLONG`), before anything is written.
pub fn name_fits(path: &Path) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    match path.file_name() {
        Some(n) if n.as_bytes().len() > NAME_MAX => Err(io::Error::from_raw_os_error(libc::ENAMETOOLONG)),
        _ => Ok(()),
    }
}

/// Append `bytes` to `path` in one `O_APPEND` write, then fsync (creating the
/// file and its folder when missing).
pub fn append(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let mut f = fs::OpenOptions::new().create(true).append(true).open(path)?;
    fault_point();
    // One write call: appends from several processes do not interleave.
    f.write_all(bytes)?;
    f.sync_all()
}

/// Read a file that must be a regular file. It is opened without blocking, so a
/// FIFO (or a device) put where a file should be is refused at once. A name
/// longer than a file name may be is `NotFound`: no such file can exist.
pub fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let f = options.open(path).map_err(|e| {
        if e.raw_os_error() == Some(libc::ENAMETOOLONG) {
            // A name longer than a file name may be: no file can have it.
            io::Error::new(io::ErrorKind::NotFound, e)
        } else {
            e
        }
    })?;
    read_regular_open(&f)
}

/// [`read_regular`] of a file already open (from where it stands).
pub fn read_regular_open(f: &fs::File) -> io::Result<Vec<u8>> {
    let meta = f.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a folder, FIFO, socket or device)",
        ));
    }
    let mut out = Vec::with_capacity(meta.len() as usize);
    // Through `take`, which asks no size of its own (a `File` would `statx`
    // and `lseek` again for the capacity already reserved).
    f.take(u64::MAX).read_to_end(&mut out)?;
    Ok(out)
}

const TEMP_PREFIX: &str = ".cw-";
const TEMP_SUFFIX: &str = ".tmp";

/// Whether a file name is one of our temp files.
pub fn is_temp_name(name: &str) -> bool {
    name.starts_with(TEMP_PREFIX)
        && name.ends_with(TEMP_SUFFIX)
        && name.len() == TEMP_PREFIX.len() + 8 + TEMP_SUFFIX.len()
}

/// Remove the temp files in `dir` whose writer is gone (nobody holds their lock).
pub fn remove_dead_temp_files(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !is_temp_name(name) {
            continue;
        }
        let path = entry.path();
        let Ok(f) = fs::OpenOptions::new().read(true).open(&path) else {
            continue;
        };
        if f.try_lock().is_ok() {
            let _ = fs::remove_file(&path);
        }
    }
}

/// [`remove_dead_temp_files`], once per folder per process: what opening a
/// document does for the folders it reads from. Listing a 5,000-wide folder
/// at every open made listing a docs tree quadratic; a write still cleans the
/// folder it writes in each time ([`replace_with`], [`create_new`]).
pub fn remove_dead_temp_files_once(dir: &Path) {
    static SEEN: std::sync::Mutex<Option<std::collections::HashSet<std::path::PathBuf>>> =
        std::sync::Mutex::new(None);
    let first = SEEN
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(Default::default)
        .insert(dir.to_path_buf());
    if first {
        remove_dead_temp_files(dir);
    }
}

/// The fault-injection step counter (see the module docs): called just before
/// each durable step, here and where a step is not one of these functions' (a
/// move to the trash).
pub(crate) fn fault_point() {
    static AT: OnceLock<Option<u64>> = OnceLock::new();
    static STEP: AtomicU64 = AtomicU64::new(0);
    let at = AT.get_or_init(|| {
        std::env::var("COWRITING_FAULT_AT")
            .ok()
            .and_then(|v| v.parse().ok())
    });
    if let Some(at) = *at {
        if STEP.fetch_add(1, Ordering::SeqCst) + 1 == at {
            std::process::abort();
        }
    }
}

/// The pause before the `attempt`th redo of a read-modify-write that lost a
/// race with a writer that takes no lock: growing, with jitter, so two writers
/// in step drift apart (1 ms … 64 ms).
pub fn backoff(attempt: usize) {
    let base = 1u64 << attempt.min(6);
    let jitter = u64::from(std::process::id() ^ (attempt as u32).wrapping_mul(2654435761)) % base.max(1);
    std::thread::sleep(std::time::Duration::from_millis(base / 2 + jitter / 2 + 1));
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
            let err = replace_with(&path, b"new contents\n", Expect::Any, |s| {
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

    #[test]
    fn a_file_changed_since_it_was_read_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.json");
        fs::write(&path, "read").unwrap();
        let expect = Expect::of(Some(b"read"));
        fs::write(&path, "theirs").unwrap();
        assert!(matches!(
            replace(&path, b"mine", expect),
            Err(WriteError::Changed)
        ));
        assert_eq!(fs::read_to_string(&path).unwrap(), "theirs");
        assert!(leftovers(dir.path()).is_empty());
        // Expecting no file: refused when one appeared.
        assert!(matches!(
            replace(&path, b"mine", Expect::Absent),
            Err(WriteError::Changed)
        ));
        replace(&path, b"mine", Expect::of(Some(b"theirs"))).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "mine");
        assert!(matches!(remove(&path, expect), Err(WriteError::Changed)));
        assert!(remove(&path, Expect::of(Some(b"mine"))).unwrap());
        assert!(!path.exists());
    }

    #[test]
    fn a_dead_writers_temp_file_goes_at_the_next_write_a_live_ones_stays() {
        let dir = tempfile::tempdir().unwrap();
        let dead = dir.path().join(".cw-deadbeef.tmp");
        fs::write(&dead, "half").unwrap();
        let live = dir.path().join(".cw-12345678.tmp");
        fs::write(&live, "in progress").unwrap();
        let holder = fs::File::open(&live).unwrap();
        holder.lock().unwrap();
        atomic_write(&dir.path().join("x.json"), b"new").unwrap();
        assert!(!dead.exists());
        assert!(live.exists());
        drop(holder);
        // Another test's child process forked while `holder` was open shares its
        // lock until that child execs, so the lock may outlive the drop for a
        // moment (seen under load): a later write removes the file.
        let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            atomic_write(&dir.path().join("x.json"), b"newer").unwrap();
            if !live.exists() || std::time::Instant::now() > until {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert!(!live.exists());
    }

    #[test]
    fn a_long_name_still_gets_a_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let name = format!("{}.md", "n".repeat(252));
        atomic_write(&dir.path().join(&name), b"x").unwrap();
        assert_eq!(fs::read(dir.path().join(&name)).unwrap(), b"x");
    }

    #[test]
    fn a_fifo_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("doc.md");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let err = read_regular(&fifo).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{err}");
    }
}
