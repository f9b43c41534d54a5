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
//!
//! Decided means decided: a proposal the decision log says was decided is
//! never read as pending, whatever the sidecar holds ([`Store::load`] leaves it
//! out), and the next write drops it ([`Store::drop_decided`], with a warning
//! naming who brought it back). [`Store::load_bytes`] and
//! [`Store::update_locked`] give the file as it is, for the transactions that
//! compare before they replace.

use crate::error::{Error, Result};
use crate::fsutil::{self, Expect, WriteError};
use crate::ledger::{Decided, DecidedCache, Ledger};
use crate::lock::DocLock;
use crate::workspace::{DocPath, Workspace};
use cowriting_core::model::{parse_artifact, serialize_artifact, Artifact};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
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
    /// The decision log's fold, read on from where it stopped.
    decided: DecidedCache,
}

impl Store {
    pub fn new(ws: Workspace) -> Self {
        Store {
            ws,
            own_writes: Mutex::new(HashMap::new()),
            decided: DecidedCache::default(),
        }
    }

    pub fn workspace(&self) -> &Workspace {
        &self.ws
    }

    /// Read a sidecar: `Ok(None)` when the document has none yet. Proposals
    /// the decision log says were decided are left out (see the module docs);
    /// the file is not written.
    pub fn load(&self, doc: &DocPath) -> Result<Option<Artifact>> {
        self.load_from(doc, &self.ws.sidecar_file(doc)?)
    }

    /// [`Store::load`] of `doc`'s sidecar from `file`, the path the guard
    /// gave for it ([`Workspace::sidecar_file`]) a moment before.
    pub(crate) fn load_from(&self, doc: &DocPath, file: &Path) -> Result<Option<Artifact>> {
        Ok(read(file)?.map(|(a, _)| self.undecided(doc, a)))
    }

    /// [`Store::load`] of `doc`'s sidecar from `f`, opened at `file` by the
    /// kernel's walk and not read yet. A sidecar that does not parse is read
    /// again by its name ([`read_settled`]: a writer that takes no lock may
    /// be half-way through it).
    pub(crate) fn load_open(
        &self,
        doc: &DocPath,
        f: &std::fs::File,
        file: &Path,
    ) -> Result<Option<Artifact>> {
        let bytes = fsutil::read_regular_open(f).map_err(Error::io(file))?;
        match parse_sidecar(file, &bytes) {
            Ok(a) => Ok(Some(self.undecided(doc, a))),
            Err(e) if e.is_corrupt() => self.load_from(doc, file),
            Err(e) => Err(e),
        }
    }

    /// `a` without the proposals the decision log says were decided.
    fn undecided(&self, doc: &DocPath, mut a: Artifact) -> Artifact {
        if !a.proposals.is_empty() {
            if let Ok(decided) = self.decided() {
                let before = a.proposals.len();
                a.proposals
                    .retain(|p| decided.find(doc.as_str(), &p.id).is_none());
                if a.proposals.len() != before {
                    a.prune_anchors();
                }
            }
        }
        a
    }

    /// What the decision log says is decided now (read on from where the
    /// last read stopped).
    pub fn decided(&self) -> Result<Arc<Decided>> {
        Ledger::of(&self.ws).decided(&self.decided)
    }

    /// Drop from `artifact` (`doc`'s sidecar as read from `bytes`, about to be
    /// written; `None`: read them now if a warning needs them) the proposals the
    /// decision log says were decided, except those in `keep` (a transaction
    /// that puts them back: an undo). Returns one
    /// warning per proposal dropped, naming who brought it back. A log that
    /// cannot be read drops nothing.
    pub fn drop_decided(
        &self,
        doc: &DocPath,
        artifact: &mut Artifact,
        keep: &[String],
        bytes: Option<&[u8]>,
    ) -> Vec<String> {
        if artifact.proposals.is_empty() {
            return Vec::new();
        }
        let Ok(decided) = self.decided() else {
            return Vec::new();
        };
        let mut warnings = Vec::new();
        let mut who: Option<String> = None;
        artifact.proposals.retain(|p| {
            let Some(d) = decided.find(doc.as_str(), &p.id).filter(|_| !keep.contains(&p.id)) else {
                return true;
            };
            let who = who.get_or_insert_with(|| self.who_wrote(doc, bytes));
            warnings.push(format!(
                "{doc}: proposal {} was {} by {} at {} (decision log) but its sidecar holds it again, brought back by {who}; dropped, not applied again",
                p.id,
                d.outcome.as_str(),
                d.decided_by,
                d.decided_at
            ));
            false
        });
        artifact.prune_anchors();
        warnings
    }

    /// Who wrote `doc`'s sidecar as `bytes`, as far as can be told: git (the
    /// bytes are the sidecar's version in the index or at `HEAD`: a checkout,
    /// stash, reset or merge), else a writer that does not read the decision
    /// log.
    fn who_wrote(&self, doc: &DocPath, bytes: Option<&[u8]>) -> String {
        const OTHER: &str = "a writer that does not read the decision log (the VS Code extension, an editor, a sync tool, git stash)";
        let read;
        let bytes = match bytes {
            Some(b) => b,
            None => {
                let Some(b) = self
                    .ws
                    .sidecar_file(doc)
                    .ok()
                    .and_then(|f| fsutil::read_regular(&f).ok())
                else {
                    return OTHER.to_owned();
                };
                read = b;
                &read
            }
        };
        let from_git = (|| {
            let repo = git2::Repository::discover(self.ws.root()).ok()?;
            let workdir = repo.workdir()?.canonicalize().ok()?;
            let file = self.ws.sidecar_file(doc).ok()?;
            let rel = file.strip_prefix(&workdir).ok()?.to_path_buf();
            let oid = git2::Oid::hash_object(git2::ObjectType::Blob, bytes).ok()?;
            let in_index = repo
                .index()
                .ok()
                .and_then(|i| i.get_path(&rel, 0))
                .is_some_and(|e| e.id == oid);
            let at_head = repo
                .head()
                .ok()
                .and_then(|h| h.peel_to_tree().ok())
                .and_then(|t| t.get_path(&rel).ok())
                .is_some_and(|e| e.id() == oid);
            (in_index || at_head).then(|| {
                format!(
                    "git (the file is its version {}: a checkout, reset, stash or merge)",
                    if at_head { "at HEAD" } else { "in git's index" }
                )
            })
        })();
        from_git.unwrap_or_else(|| OTHER.to_owned())
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
