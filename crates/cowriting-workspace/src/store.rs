//! The sidecar store: `W/.threads/<docPath>.json`, read-modify-write at every
//! mutation, under the one write protocol.
//!
//! [`Store::update`] takes the document's lock ([`crate::lock`]), reads the
//! sidecar from disk, applies a mutation, prunes unreferenced anchors and
//! replaces the file only if it still holds what was read
//! ([`fsutil::Expect`]); when a writer that takes no lock (the VS Code
//! extension) changed it meanwhile, the whole read-modify-write is done again
//! on the new content (bounded). A sidecar that fails to parse is read again for
//! a moment before it is called corrupt: a non-atomic writer may be half-way
//! through it. The store refuses to write over a sidecar it cannot parse or
//! whose `schemaVersion` is newer than it knows. Every write is recorded (by
//! content hash) so a file watcher can tell the store's own writes from others'.

use crate::error::{Error, Result};
use crate::fsutil::{self, Expect, WriteError};
use crate::lock::DocLock;
use crate::workspace::{DocPath, Workspace};
use cowriting_core::model::{parse_artifact, serialize_artifact, Artifact};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// How many times a read-modify-write is redone when another writer changed
/// the file between the read and the rename. With the growing pause (up to
/// 64 ms) that is about ten seconds of a writer that takes no lock changing the
/// file without pause. (It was 50, about two seconds, which a loaded machine can
/// spend beside the VS Code-like test writer of `tests/concurrency.rs`; that
/// test failed once under load with its reason unrecorded, and now prints it.)
pub const REDO_LIMIT: usize = 200;

/// See the module docs.
#[derive(Debug)]
pub struct Store {
    ws: Workspace,
    /// Content hash of the last bytes this store wrote, per file.
    own_writes: Mutex<HashMap<PathBuf, [u8; 32]>>,
}

impl Store {
    pub fn new(ws: Workspace) -> Self {
        Store {
            ws,
            own_writes: Mutex::new(HashMap::new()),
        }
    }

    pub fn workspace(&self) -> &Workspace {
        &self.ws
    }

    /// Read a sidecar: `Ok(None)` when the document has none yet.
    pub fn load(&self, doc: &DocPath) -> Result<Option<Artifact>> {
        let file = self.ws.sidecar_file(doc)?;
        Ok(read(&file)?.map(|(a, _)| a))
    }

    /// Read a sidecar, or an empty one for a document without a sidecar.
    pub fn load_or_empty(&self, doc: &DocPath) -> Result<Artifact> {
        Ok(self.load(doc)?.unwrap_or_else(|| Artifact::empty(doc.as_str())))
    }

    /// The sidecar and its exact bytes (`None` when there is none).
    pub fn load_bytes(&self, doc: &DocPath) -> Result<Option<(Artifact, Vec<u8>)>> {
        read(&self.ws.sidecar_file(doc)?)
    }

    /// Read-modify-write under the document's lock: see [`Store::update_locked`].
    pub fn update<R>(
        &self,
        doc: &DocPath,
        f: impl FnMut(&mut Artifact) -> Result<R>,
    ) -> Result<(Artifact, R)> {
        let lock = self.ws.lock_doc(doc)?;
        self.update_locked(&lock, doc, f)
    }

    /// Read-modify-write, the caller holding `doc`'s lock: load from disk, apply
    /// `f`, prune anchors, write atomically if anything changed and the file still
    /// holds what was read; otherwise all of it again. `f` may therefore run more
    /// than once, each time on a fresh copy. Returns the artifact as written and
    /// `f`'s result. When `f` fails nothing is written.
    pub fn update_locked<R>(
        &self,
        _lock: &DocLock,
        doc: &DocPath,
        mut f: impl FnMut(&mut Artifact) -> Result<R>,
    ) -> Result<(Artifact, R)> {
        let file = self.ws.sidecar_file(doc)?;
        for attempt in 0..REDO_LIMIT {
            if attempt > 0 {
                fsutil::backoff(attempt);
            }
            let existing = read(&file)?;
            let (mut artifact, before) = match existing {
                Some((a, bytes)) => {
                    let copy = a.clone();
                    (a, Some((copy, bytes)))
                }
                None => (Artifact::empty(doc.as_str()), None),
            };
            let out = f(&mut artifact)?;
            artifact.prune_anchors();
            let write = match &before {
                // Nothing changed: no need to even serialize.
                Some((old, _)) if *old == artifact => None,
                Some((_, bytes)) => {
                    // Byte equality with what is on disk: nothing to write. (A sidecar some
                    // other tool formatted differently is rewritten in the canonical form.)
                    let text = serialize_artifact(&artifact);
                    (bytes.as_slice() != text.as_bytes()).then_some(text)
                }
                // No sidecar and nothing to say: do not create an empty file.
                None => (!artifact.is_empty()).then(|| serialize_artifact(&artifact)),
            };
            let Some(text) = write else {
                return Ok((artifact, out));
            };
            let expect = Expect::of(before.as_ref().map(|(_, b)| b.as_slice()));
            match self.replace(&file, text.as_bytes(), expect) {
                Ok(()) => return Ok((artifact, out)),
                Err(WriteError::Changed) => continue,
                Err(WriteError::Io(e)) => return Err(Error::io(&file)(e)),
            }
        }
        Err(kept_changing(&file))
    }

    /// Replace the sidecar's bytes if it still holds what `expect` says (the
    /// transaction recovery's way to put a sidecar back as it was).
    pub fn replace_locked(
        &self,
        _lock: &DocLock,
        doc: &DocPath,
        bytes: Option<&[u8]>,
        expect: Expect,
    ) -> Result<bool> {
        let file = self.ws.sidecar_file(doc)?;
        let res = match bytes {
            Some(b) => self.replace(&file, b, expect),
            None => fsutil::remove(&file, expect).map(|_| ()),
        };
        match res {
            Ok(()) => Ok(true),
            Err(WriteError::Changed) => Ok(false),
            Err(WriteError::Io(e)) => Err(Error::io(&file)(e)),
        }
    }

    fn replace(&self, file: &Path, bytes: &[u8], expect: Expect) -> std::result::Result<(), WriteError> {
        self.note_own_write(file, bytes);
        fsutil::replace(file, bytes, expect)
    }

    /// Record that this process is about to write `bytes` to `file` (a
    /// transaction writing a sidecar), so its watcher event is known as an echo.
    /// Record before writing: a watcher may see the file before the write returns.
    pub fn note_own_write(&self, file: &Path, bytes: &[u8]) {
        self.own_writes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(file.to_path_buf(), fsutil::sha256(bytes));
    }

    /// Whether the file at `path` holds exactly what this store last wrote there
    /// (a watcher event for it is the store's own echo).
    pub fn is_own_write(&self, path: &Path) -> bool {
        let writes = self.own_writes.lock().unwrap_or_else(|e| e.into_inner());
        let Some(hash) = writes.get(path) else {
            return false;
        };
        fsutil::read_regular(path).is_ok_and(|bytes| fsutil::sha256(&bytes) == *hash)
    }
}

/// The error when another writer kept changing a file under every redo.
pub fn kept_changing(file: &Path) -> Error {
    Error::Io {
        path: file.to_path_buf(),
        source: std::io::Error::other(format!(
            "another program kept changing it; gave up after {REDO_LIMIT} tries"
        )),
    }
}

/// How long a file that fails to parse is watched for a writer still writing it.
const TORN_WAIT: Duration = Duration::from_millis(1500);

/// Read and parse a file, retrying a parse failure while the bytes keep
/// changing (a writer that takes no lock is half-way through) and for a short
/// while even when they do not; then the failure is real.
pub fn read_settled<T>(file: &Path, parse: impl Fn(&[u8]) -> Result<T>) -> Result<Option<(T, Vec<u8>)>> {
    let start = std::time::Instant::now();
    let mut pause = Duration::from_millis(5);
    loop {
        let bytes = match fsutil::read_regular(file) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io(file)(e)),
        };
        match parse(&bytes) {
            Ok(v) => return Ok(Some((v, bytes))),
            Err(e) if !e.is_corrupt() || start.elapsed() > TORN_WAIT => return Err(e),
            Err(_) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(100));
            }
        }
    }
}

/// Parse the sidecar at `file`; `Ok(None)` when there is none. Errors name the file.
fn read(file: &Path) -> Result<Option<(Artifact, Vec<u8>)>> {
    read_settled(file, |bytes| parse_sidecar(file, bytes))
}

fn parse_sidecar(file: &Path, bytes: &[u8]) -> Result<Artifact> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        Error::sidecar(
            file.to_path_buf(),
            cowriting_core::model::ModelError::Syntax {
                line: 1 + bytes[..e.valid_up_to()].iter().filter(|b| **b == b'\n').count(),
                column: 1 + bytes[..e.valid_up_to()]
                    .iter()
                    .rev()
                    .take_while(|b| **b != b'\n')
                    .count(),
                message: "not UTF-8".into(),
            },
        )
    })?;
    parse_artifact(text).map_err(|e| Error::sidecar(file.to_path_buf(), e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowriting_core::model::{Anchor, Extra, Fingerprint};

    fn setup() -> (tempfile::TempDir, Store, DocPath) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("x.md"), "hello").unwrap();
        let store = Store::new(Workspace::open(dir.path()).unwrap());
        (dir, store, DocPath::parse("x.md").unwrap())
    }

    #[test]
    fn update_reads_from_disk_each_time() {
        let (dir, store, doc) = setup();
        store
            .update(&doc, |a| {
                a.extra.insert("mine".into(), 1.into());
                Ok(())
            })
            .unwrap();
        // Another writer changes the file behind our back.
        let file = dir.path().join(".threads/x.md.json");
        let theirs = std::fs::read_to_string(&file)
            .unwrap()
            .replace("\"mine\": 1", "\"mine\": 1,\n  \"theirs\": 2");
        std::fs::write(&file, theirs).unwrap();
        assert!(!store.is_own_write(&file));
        let (a, ()) = store
            .update(&doc, |a| {
                a.extra.insert("again".into(), 3.into());
                Ok(())
            })
            .unwrap();
        assert_eq!(
            a.extra.keys().collect::<Vec<_>>(),
            vec!["mine", "theirs", "again"]
        );
        assert!(store.is_own_write(&file));
    }

    #[test]
    fn no_sidecar_is_created_for_nothing() {
        let (dir, store, doc) = setup();
        store.update(&doc, |_| Ok(())).unwrap();
        assert!(!dir.path().join(".threads").exists());
    }

    #[test]
    fn prunes_unreferenced_anchors() {
        let (_dir, store, doc) = setup();
        let (a, ()) = store
            .update(&doc, |a| {
                a.anchors.insert(
                    "a_x".into(),
                    Anchor {
                        fingerprint: Fingerprint::default(),
                        extra: Extra::new(),
                    },
                );
                a.extra.insert("keep".into(), true.into());
                Ok(())
            })
            .unwrap();
        assert!(a.anchors.is_empty());
    }

    #[test]
    fn refuses_corrupt_and_newer_sidecars_and_leaves_them() {
        let (dir, store, doc) = setup();
        let file = dir.path().join(".threads/x.md.json");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        for (content, code) in [
            (
                "{\n  \"schemaVersion\": 1,\n  \"docPath\": \"x.md\",\n",
                crate::error::ErrorCode::CorruptSidecar,
            ),
            (
                "{\"schemaVersion\": 9, \"docPath\": \"x.md\"}\n",
                crate::error::ErrorCode::NewerSchema,
            ),
        ] {
            std::fs::write(&file, content).unwrap();
            let err = store.update(&doc, |_| Ok(())).unwrap_err();
            assert_eq!(err.code(), code, "{err}");
            assert!(err.to_string().contains("x.md.json"), "{err}");
            assert_eq!(std::fs::read_to_string(&file).unwrap(), content);
        }
        std::fs::write(&file, "{\n  \"schemaVersion\": 1,\n  \"docPath\": \"x.md\",\n").unwrap();
        let msg = store.load(&doc).unwrap_err().to_string();
        assert!(msg.contains("line 4, column 0"), "{msg}");
    }
}
