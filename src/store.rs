//! The sidecar store: `W/.threads/<docPath>.json`, read-modify-write at every
//! mutation.
//!
//! [`Store::update`] reads the sidecar from disk, applies a mutation, prunes
//! unreferenced anchors and writes atomically — so a concurrent writer (the VS
//! Code extension, the CLI, a git checkout) is never clobbered by a stale copy
//! held in memory. It refuses to write over a sidecar it cannot parse or whose
//! `schemaVersion` is newer than it knows. Every write is recorded (by content
//! hash) so a file watcher can tell the store's own writes from others'.

use crate::error::{Error, Result};
use crate::fsutil;
use crate::model::{parse_artifact, serialize_artifact, Artifact};
use crate::workspace::{DocPath, Workspace};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// See the module docs.
#[derive(Debug)]
pub struct Store {
    ws: Workspace,
    /// Serializes this process's read-modify-write cycles.
    lock: Mutex<()>,
    /// Content hash of the last bytes this store wrote, per file.
    own_writes: Mutex<HashMap<PathBuf, [u8; 32]>>,
}

fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

impl Store {
    pub fn new(ws: Workspace) -> Self {
        Store {
            ws,
            lock: Mutex::new(()),
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

    /// Read-modify-write: load from disk, apply `f`, prune anchors, write
    /// atomically if anything changed. Returns the artifact as written and `f`'s
    /// result. When `f` fails nothing is written.
    pub fn update<R>(
        &self,
        doc: &DocPath,
        f: impl FnOnce(&mut Artifact) -> Result<R>,
    ) -> Result<(Artifact, R)> {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let file = self.ws.sidecar_file(doc)?;
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
        if let Some(text) = write {
            self.write_raw(&file, text.as_bytes())?;
        }
        Ok((artifact, out))
    }

    fn write_raw(&self, file: &Path, bytes: &[u8]) -> Result<()> {
        // Record before writing: a watcher may see the file before we return.
        self.own_writes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(file.to_path_buf(), sha256(bytes));
        fsutil::atomic_write(file, bytes).map_err(Error::io(file))
    }

    /// Whether the file at `path` holds exactly what this store last wrote there
    /// (a watcher event for it is the store's own echo).
    pub fn is_own_write(&self, path: &Path) -> bool {
        let writes = self.own_writes.lock().unwrap_or_else(|e| e.into_inner());
        let Some(hash) = writes.get(path) else {
            return false;
        };
        std::fs::read(path).is_ok_and(|bytes| sha256(&bytes) == *hash)
    }
}

/// Parse the sidecar at `file`; `Ok(None)` when there is none. Errors name the file.
fn read(file: &Path) -> Result<Option<(Artifact, Vec<u8>)>> {
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(file)(e)),
    };
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        Error::sidecar(
            file.to_path_buf(),
            crate::model::ModelError::Syntax {
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
    let artifact = parse_artifact(text).map_err(|e| Error::sidecar(file.to_path_buf(), e))?;
    Ok(Some((artifact, bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Anchor, Extra, Fingerprint};

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
