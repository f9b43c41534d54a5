//! Hot exit: the app's journal of unsaved buffers, outside the workspace.
//!
//! Every open document with unsaved changes (text, or decisions taken on it —
//! see [`Session::backup`]) has one backup file, rewritten within about a
//! second of each change by the app's background thread:
//!
//! ```text
//! $COWRITING_BACKUP_DIR                      (else $XDG_DATA_HOME/cowriting/backups,
//!                                             else ~/.local/share/cowriting/backups)
//! └── <hash of the canonical workspace root>/
//!     ├── workspace.json                     {"version":1,"root":"/abs/workspace"}
//!     ├── <hash of the document path>.json   a `Backup` (camelCase JSON): a snapshot
//!     ├── <hash of the document path>.jsonl  the changes typed since it (`journal`)
//!     └── kept-<hash>-<unix secs>.json       a backup that could not be restored, kept aside
//! ```
//!
//! The division of work keeps the state lock short: [`Api::backups_due`] only
//! looks at the sessions whose version or unsaved decisions changed since the
//! last call (or that were saved or told to keep their buffer) and takes their
//! [`Backup`]s — or, when only the text moved, a line of the changes typed since
//! (see [`journal`]: typing in a 5 MB document appends a few hundred bytes a
//! second instead of rewriting 5.7 MB); the caller serializes and writes them
//! with [`write_backups`] after releasing the lock. A document's file is
//! removed when it is clean again (saved, undone back, reloaded) or closed (the
//! writer discarded it); [`Api::discard_backups`] removes the workspace's files
//! at a normal quit. A crash leaves them, and [`Api::restore_backups`] puts them
//! back into sessions when the workspace is next opened. Nothing here ever
//! writes inside the workspace: the text reaches the document only when the
//! writer saves.
//!
//! A backup that cannot be read or restored is never deleted: it is renamed
//! aside (`kept-…`) and reported, and a normal quit leaves it.

mod journal;

use super::{Api, Session};
use cowriting_core::contract::sha256_hex;
use cowriting_workspace::session::Backup;
use cowriting_workspace::workspace::DocPath;
use journal::{journal_of, Journal};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

#[cfg(feature = "ts")]
use ts_rs::TS;

/// Overrides where backups live (tests use a temporary folder).
pub const BACKUP_DIR_ENV: &str = "COWRITING_BACKUP_DIR";

/// The marker file naming a backup folder's workspace.
const MARKER: &str = "workspace.json";

/// A document restored from the last session's backup.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct RestoredDto {
    pub path: String,
    /// The file changed on disk after the backup was taken (another program
    /// wrote it): saving replaces that version.
    pub file_changed: bool,
    /// Unsaved review decisions carried over (they reach the disk at the save).
    pub decisions: u32,
}

/// A backup that could not be restored. It is never deleted.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct UnrestoredDto {
    /// The document, when the backup could be read far enough to name it.
    pub path: Option<String>,
    pub message: String,
    /// Where the file now is (renamed aside), if it could be moved.
    pub kept_as: Option<String>,
}

/// What [`Api::restore_backups`] found.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct RestoreReport {
    pub restored: Vec<RestoredDto>,
    pub unrestored: Vec<UnrestoredDto>,
}

#[derive(Serialize, Deserialize)]
struct Marker {
    version: u32,
    root: String,
}

/// What [`Api::backups_due`] asks [`write_backups`] to put in a file.
#[derive(Clone, Debug)]
pub enum BackupContent {
    /// A document's unsaved buffer: a new snapshot (its journal goes).
    Buffer(Box<Backup>),
    /// A line to append to the document's journal.
    Append(Vec<u8>),
    /// The folder's `workspace.json`.
    Marker(Vec<u8>),
}

/// One file to write (`Some`) or remove (`None`).
pub type DueBackup = (PathBuf, Option<BackupContent>);

/// What a session's backup file was last told to hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    version: u64,
    decisions: usize,
    dirty: bool,
}

fn key_of(s: &Session) -> Key {
    Key {
        version: s.document().version(),
        decisions: s.unsaved_decisions(),
        dirty: s.is_dirty(),
    }
}

/// The folder under which every workspace's backups live:
/// `$COWRITING_BACKUP_DIR`, else `$XDG_DATA_HOME/cowriting/backups`, else
/// `~/.local/share/cowriting/backups`; `None` without any of them.
pub fn backup_root() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    if let Some(dir) = var(BACKUP_DIR_ENV) {
        return Some(dir);
    }
    let data = var("XDG_DATA_HOME").or_else(|| var("HOME").map(|h| h.join(".local/share")))?;
    Some(data.join("cowriting").join("backups"))
}

fn short_hash(s: &str) -> String {
    sha256_hex(s.as_bytes())[..16].to_owned()
}

/// A document's backup file name: `<16 hex>.json`.
fn is_backup_name(name: &str) -> bool {
    name.strip_suffix(".json")
        .is_some_and(|h| h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A document's journal file name: `<16 hex>.jsonl`.
fn is_journal_name(name: &str) -> bool {
    name.strip_suffix('l').is_some_and(is_backup_name)
}

/// The backups of one workspace (see the module docs).
pub(super) struct Backups {
    dir: PathBuf,
    root: PathBuf,
    /// By document: what its file was last told to hold.
    told: HashMap<DocPath, Key>,
    /// By document: the journal after its last snapshot.
    journals: HashMap<DocPath, Journal>,
    marker_due: bool,
    /// Off after a normal quit removed the files: nothing is written again.
    enabled: bool,
}

impl Backups {
    pub(super) fn new(backup_root: &Path, workspace_root: &Path) -> Backups {
        let root_str = workspace_root.to_string_lossy();
        Backups {
            dir: backup_root.join(short_hash(&root_str)),
            root: workspace_root.to_path_buf(),
            told: HashMap::new(),
            journals: HashMap::new(),
            marker_due: true,
            enabled: true,
        }
    }

    fn file_of(&self, doc: &DocPath) -> PathBuf {
        self.dir.join(format!("{}.json", short_hash(doc.as_str())))
    }

    fn marker(&self) -> Vec<u8> {
        let m = Marker {
            version: 1,
            root: self.root.to_string_lossy().into_owned(),
        };
        let mut bytes = serde_json::to_vec_pretty(&m).unwrap_or_default();
        bytes.push(b'\n');
        bytes
    }

    /// Remove a document's file now (after a save or a discard); the next
    /// [`Api::backups_due`] removes it again, in case a write taken before was
    /// still on its way.
    fn remove_now(&mut self, doc: &DocPath) {
        if self.enabled {
            let _ = remove_backup(&self.file_of(doc));
        }
        self.recheck(doc);
    }

    /// Look at `doc` again at the next [`Api::backups_due`] even if its version
    /// and decisions did not change (its dirty state or base did).
    fn recheck(&mut self, doc: &DocPath) {
        self.journals.remove(doc);
        if let Some(k) = self.told.get_mut(doc) {
            k.version = u64::MAX;
            k.dirty = true;
        }
    }
}

/// Remove a document's backup: its journal first (a journal without its
/// snapshot is never read), then the snapshot.
fn remove_backup(snapshot: &Path) -> io::Result<()> {
    remove_if_there(&journal_of(snapshot))?;
    remove_if_there(snapshot)
}

fn remove_if_there(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Write (or, for `None`, remove) what [`Api::backups_due`] returned, in order
/// (serializing happens here, outside the caller's lock). Folders are created
/// private to the user. Returns one line per failure.
pub fn write_backups(due: &[DueBackup]) -> Vec<String> {
    let mut errors = Vec::new();
    for (path, content) in due {
        let done = match content {
            // The new snapshot, then its old journal goes: a crash between
            // leaves lines of another epoch, which no replay applies.
            Some(BackupContent::Buffer(b)) => serde_json::to_vec(b)
                .map_err(io::Error::other)
                .and_then(|bytes| {
                    private_dir(path.parent())?;
                    cowriting_workspace::fsutil::atomic_write(path, &bytes)
                })
                .and_then(|()| remove_if_there(&journal_of(path))),
            Some(BackupContent::Marker(m)) => {
                private_dir(path.parent()).and_then(|()| cowriting_workspace::fsutil::atomic_write(path, m))
            }
            Some(BackupContent::Append(line)) => append(&journal_of(path), line),
            None => remove_backup(path),
        };
        if let Err(e) = done {
            errors.push(format!("backup {}: {e}", path.display()));
        }
    }
    errors
}

/// Append `line` to `file` and make it durable (a crash may cut it short; the
/// replay stops there).
fn append(file: &Path, line: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new().append(true).create(true).open(file)?;
    f.write_all(line)?;
    f.sync_data()
}

fn private_dir(dir: Option<&Path>) -> io::Result<()> {
    let Some(dir) = dir else { return Ok(()) };
    if dir.is_dir() {
        return Ok(());
    }
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir)
}

fn unix_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Api {
    /// Keep this workspace's backups under `root` (`None`: no backups at all).
    /// [`Api::open`] uses [`backup_root`].
    pub fn set_backup_root(&mut self, root: Option<&Path>) {
        self.backups = root.map(|r| Backups::new(r, self.store.workspace().root()));
    }

    /// This workspace's backup folder, if backups are kept.
    pub fn backup_dir(&self) -> Option<&Path> {
        self.backups.as_ref().map(|b| b.dir.as_path())
    }

    /// The backup files to write (`Some`) or remove (`None`) now, in order: one
    /// per open document whose version or unsaved decisions changed since the
    /// last call (or that was saved, or kept over a change on disk), and one per
    /// document closed since. Cheap when nothing changed (no text is compared);
    /// the caller writes them with [`write_backups`] after releasing its lock.
    pub fn backups_due(&mut self) -> Vec<DueBackup> {
        let Some(b) = self.backups.as_mut().filter(|b| b.enabled) else {
            return Vec::new();
        };
        let mut due = Vec::new();
        // Dirty changes only with the text or the decisions, or at a save or
        // keep-mine, which ask for a recheck: the others are not borrowed to
        // change (which would move their review revision, `open`).
        let changed: Vec<DocPath> = self
            .sessions
            .iter()
            .filter(|(doc, s)| {
                !b.told.get(*doc).is_some_and(|k| {
                    k.version == s.document().version() && k.decisions == s.unsaved_decisions()
                })
            })
            .map(|(doc, _)| doc.clone())
            .collect();
        for doc in &changed {
            let Some(s) = self.sessions.get_mut(doc) else {
                continue;
            };
            let told = b.told.get(doc);
            let key = key_of(s);
            match told {
                Some(k) if *k == key => continue,
                // Clean and never backed up: there is no file to remove (and a
                // crash's backup not restored yet must not be lost).
                None if !key.dirty => {
                    b.told.insert(doc.clone(), key);
                    continue;
                }
                _ => {}
            }
            let line = match (told, b.journals.get_mut(doc)) {
                (Some(k), Some(j)) if k.dirty => j.next_line(s),
                _ => None,
            };
            let content = match line {
                Some(line) => Some(BackupContent::Append(line)),
                None => {
                    b.journals.remove(doc);
                    s.untrack(journal::TRACKER);
                    s.backup().map(|mut bk| {
                        b.journals.insert(doc.clone(), Journal::start(s, &mut bk));
                        BackupContent::Buffer(Box::new(bk))
                    })
                }
            };
            due.push((b.file_of(doc), content));
            b.told.insert(doc.clone(), key);
        }
        let closed: Vec<DocPath> = b
            .told
            .keys()
            .filter(|d| !self.sessions.contains_key(d))
            .cloned()
            .collect();
        for doc in closed {
            b.journals.remove(&doc);
            if b.told.remove(&doc).is_some_and(|k| k.dirty) {
                due.push((b.file_of(&doc), None));
            }
        }
        if b.marker_due && due.iter().any(|(_, bytes)| bytes.is_some()) {
            due.insert(0, (b.dir.join(MARKER), Some(BackupContent::Marker(b.marker()))));
            b.marker_due = false;
        }
        due
    }

    /// `doc`'s base changed without an edit (keep mine): the next
    /// [`Api::backups_due`] writes its backup afresh.
    pub(super) fn backup_stale(&mut self, doc: &DocPath) {
        if let Some(b) = self.backups.as_mut() {
            b.recheck(doc);
        }
    }

    /// `doc` was saved clean or closed: remove its backup at once.
    pub(super) fn backup_gone(&mut self, doc: &DocPath) {
        if let Some(b) = self.backups.as_mut() {
            b.remove_now(doc);
        }
    }

    /// Put the last session's backups of this workspace back into sessions:
    /// each document is opened, its buffer and unsaved decisions restored, and
    /// it is dirty until saved (nothing is written to the workspace). Call it
    /// right after [`Api::open`], before any document is open. A backup that
    /// cannot be read or restored is renamed aside and reported, never deleted;
    /// one whose text the file already holds (the crash came right after a
    /// save) is removed.
    pub fn restore_backups(&mut self) -> RestoreReport {
        let mut report = RestoreReport::default();
        let Some(dir) = self.backups.as_ref().filter(|b| b.enabled).map(|b| b.dir.clone()) else {
            return report;
        };
        // A write a crash cut short leaves its temp file; nothing else would remove it
        // when this session has nothing unsaved to write.
        cowriting_workspace::fsutil::remove_dead_temp_files(&dir);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return report;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .filter(|e| is_backup_name(&e.file_name().to_string_lossy()))
            .map(|e| e.path())
            .collect();
        files.sort();
        let mut restored = Vec::new();
        for file in files {
            match self.restore_one(&file) {
                Ok(Some(r)) => restored.push(r),
                Ok(None) => {}
                Err((path, message)) => {
                    let name = file.file_stem().map(|s| s.to_string_lossy().into_owned());
                    let aside = dir.join(format!("kept-{}-{}.json", name.unwrap_or_default(), unix_secs()));
                    let kept_as = std::fs::rename(&file, &aside)
                        .ok()
                        .map(|()| aside.display().to_string());
                    // Its journal goes aside with it (the changes typed after it).
                    let _ = std::fs::rename(journal_of(&file), journal_of(&aside));
                    report.unrestored.push(UnrestoredDto {
                        path,
                        message,
                        kept_as,
                    });
                }
            }
        }
        restored.sort_by(|a: &RestoredDto, b| a.path.cmp(&b.path));
        report.restored = restored;
        report
    }

    /// Restore one backup file: `Ok(None)` when there was nothing to restore.
    fn restore_one(
        &mut self,
        file: &Path,
    ) -> std::result::Result<Option<RestoredDto>, (Option<String>, String)> {
        let shown = file.display();
        let bytes =
            cowriting_workspace::fsutil::read_regular(file).map_err(|e| (None, format!("{shown}: {e}")))?;
        let backup: Backup = serde_json::from_slice(&bytes)
            .map_err(|e| (None, format!("{shown} is not a readable backup: {e}")))?;
        let backup = match std::fs::read(journal_of(file)) {
            Ok(lines) => journal::replay(backup, &lines),
            Err(_) => backup,
        };
        let named = Some(backup.doc.clone());
        let why = |e: cowriting_workspace::Error| (named.clone(), e.to_string());
        let doc = DocPath::parse(&backup.doc).map_err(why)?;
        if self.sessions.contains_key(&doc) {
            // Already open in this window: its buffer is newer than any backup.
            return Ok(None);
        }
        let mut s = Session::open(self.store.clone(), doc.clone(), self.identity.clone()).map_err(why)?;
        let disk = s.disk_document().map_err(why)?;
        let disk_bytes = disk.to_bytes();
        let mut backed = cowriting_core::document::Document::new(&backup.text);
        backed.set_bom(backup.bom);
        if sha256_hex(&disk_bytes) != backup.base && disk_bytes == backed.to_bytes() {
            // The file holds this very text, written after the backup was
            // based: the crash came between a save and the backup's removal.
            let _ = remove_backup(file);
            return Ok(None);
        }
        let r = s.restore_backup(&backup).map_err(why)?;
        self.sessions.insert(doc.clone(), s);
        Ok(Some(RestoredDto {
            path: doc.to_string(),
            file_changed: r.file_changed,
            decisions: r.decisions as u32,
        }))
    }

    /// A normal quit (after the writer saved or discarded): remove this
    /// workspace's backups and write none again. Backups kept aside (that could
    /// not be restored) stay. Returns one line per failure.
    pub fn discard_backups(&mut self) -> Vec<String> {
        let Some(b) = self.backups.as_mut() else {
            return Vec::new();
        };
        b.enabled = false;
        let Ok(entries) = std::fs::read_dir(&b.dir) else {
            return Vec::new();
        };
        let mut errors = Vec::new();
        let mut others = false;
        for e in entries.filter_map(|e| e.ok()) {
            let name = e.file_name().to_string_lossy().into_owned();
            if is_backup_name(&name) || is_journal_name(&name) {
                if let Err(err) = remove_if_there(&e.path()) {
                    errors.push(format!("backup {}: {err}", e.path().display()));
                }
            } else if name != MARKER {
                others = true;
            }
        }
        if !others && errors.is_empty() {
            let _ = remove_if_there(&b.dir.join(MARKER));
            let _ = std::fs::remove_dir(&b.dir);
        }
        errors
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowriting_core::model::Provenance;
    use cowriting_core::offset::{CharRange, Utf16Offset};
    use cowriting_workspace::session::ProposeOptions;

    struct Fixture {
        ws: tempfile::TempDir,
        backups: tempfile::TempDir,
        proposal: String,
    }

    /// A workspace with `d.md` ("the quick fox") and one pending proposal
    /// quick → slow, and an empty backup root.
    fn fixture() -> Fixture {
        let ws = tempfile::tempdir().unwrap();
        std::fs::write(ws.path().join("d.md"), "the quick fox\n").unwrap();
        let api = Api::open(ws.path()).unwrap();
        let mut s = Session::open(
            api.store().clone(),
            DocPath::parse("d.md").unwrap(),
            Provenance::human("h"),
        )
        .unwrap();
        let producer = cowriting_core::contract::Producer {
            id: "bot".into(),
            version: "1".into(),
            provenance: "agent:bot".into(),
        };
        let proposal = s
            .propose_suggestion(
                CharRange::new(4, 9),
                "slow",
                &producer,
                "edit",
                "shorter",
                ProposeOptions {
                    author: Provenance::human("bot"),
                    turn_id: None,
                    instruction: None,
                },
            )
            .unwrap()
            .sidecar_id;
        Fixture {
            ws,
            backups: tempfile::tempdir().unwrap(),
            proposal,
        }
    }

    impl Fixture {
        fn api(&self) -> Api {
            let mut api = Api::open(self.ws.path()).unwrap();
            api.set_backup_root(Some(self.backups.path()));
            api
        }
        fn snapshot(&self) -> Vec<(String, Vec<u8>)> {
            let mut out = Vec::new();
            let mut stack = vec![self.ws.path().to_path_buf()];
            while let Some(d) = stack.pop() {
                for e in std::fs::read_dir(d).unwrap() {
                    let p = e.unwrap().path();
                    if p.is_dir() {
                        stack.push(p);
                    } else {
                        out.push((p.display().to_string(), std::fs::read(&p).unwrap()));
                    }
                }
            }
            out.sort();
            out
        }
    }

    fn type_at_end(api: &mut Api, text: &str) {
        let end = api.text_of("d.md").encode_utf16().count();
        edit_at(api, end, end, text);
    }

    /// Type at the end, then run a backup cycle (its writes must not fail).
    fn type_and_back_up(api: &mut Api, text: &str) {
        type_at_end(api, text);
        assert!(write_backups(&api.backups_due()).is_empty());
    }

    fn files_in(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .map(|r| {
                r.filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    }

    /// The spans of `d.md` in `api` as (text, author id).
    fn spans_of(api: &Api) -> Vec<(String, String)> {
        let s = api.sessions.get(&DocPath::parse("d.md").unwrap()).unwrap();
        let text: Vec<char> = s.document().rope().chars().collect();
        s.spans()
            .map(|sp| {
                let t: String = text[sp.range.start.0..sp.range.end.0].iter().collect();
                (t, format!("{:?}", sp.who.author))
            })
            .collect()
    }

    fn journal_lines(dir: &Path) -> usize {
        files_in(dir)
            .iter()
            .filter(|n| n.ends_with(".jsonl"))
            .map(|n| std::fs::read_to_string(dir.join(n)).unwrap().lines().count())
            .sum()
    }

    fn snapshot_bytes(dir: &Path) -> Vec<u8> {
        let name = files_in(dir).into_iter().find(|n| is_backup_name(n)).unwrap();
        std::fs::read(dir.join(name)).unwrap()
    }

    fn edit_at(api: &mut Api, from: usize, to: usize, insert: &str) {
        let v = api.open_document("d.md").unwrap();
        api.edit(
            "d.md",
            v.version,
            &[super::super::TextChange {
                from: Utf16Offset(from),
                to: Utf16Offset(to),
                insert: insert.into(),
            }],
            true,
        )
        .unwrap();
    }

    /// Edit, then run a backup cycle (its writes must not fail).
    fn edit_and_back_up(api: &mut Api, from: usize, to: usize, insert: &str) {
        edit_at(api, from, to, insert);
        assert!(write_backups(&api.backups_due()).is_empty());
    }

    #[test]
    fn typing_appends_to_the_journal_and_a_crash_replays_it_with_its_spans() {
        let f = fixture();
        let mut api = f.api();
        api.open_document("d.md").unwrap();
        api.accept("d.md", &f.proposal, None).unwrap(); // "the slow fox": "slow" is bot's
        type_at_end(&mut api, "Tail.");
        assert!(write_backups(&api.backups_due()).is_empty());
        let dir = api.backup_dir().unwrap().to_path_buf();
        let first = snapshot_bytes(&dir);
        assert_eq!(journal_lines(&dir), 0, "a snapshot first");
        // Typing before, inside (splitting bot's span) and after the span, deleting
        // across a line break, a U+2028 and an astral char: lines, not snapshots.
        edit_and_back_up(&mut api, 0, 0, "So ");
        edit_and_back_up(&mut api, 9, 9, "\u{2028}é𝄞");
        edit_at(&mut api, 16, 19, "");
        type_at_end(&mut api, " $(rm -rf ~)\n");
        assert!(write_backups(&api.backups_due()).is_empty());
        assert_eq!(
            snapshot_bytes(&dir),
            first,
            "the snapshot is not rewritten by typing"
        );
        assert_eq!(journal_lines(&dir), 3);
        let text = api.text_of("d.md");
        let spans = spans_of(&api);
        let bots = spans.iter().filter(|(_, who)| who.contains("bot")).count();
        assert_eq!(bots, 2, "bot's span split by typing inside it: {spans:?}");
        assert!(spans.len() > bots, "and the writer's typing is theirs: {spans:?}");
        drop(api); // the crash

        let mut api = f.api();
        let report = api.restore_backups();
        assert_eq!(report.restored.len(), 1, "{report:?}");
        assert_eq!(api.text_of("d.md"), text);
        assert_eq!(spans_of(&api), spans, "each half keeps bot as its author");
        // The restored buffer is written as a new snapshot; the old journal goes.
        assert!(write_backups(&api.backups_due()).is_empty());
        assert_eq!(journal_lines(&dir), 0);
        drop(api);
        let mut api = f.api();
        api.restore_backups();
        assert_eq!(api.text_of("d.md"), text);
    }

    #[test]
    fn a_decision_or_an_undo_writes_a_new_snapshot_and_the_journal_goes() {
        let f = fixture();
        let mut api = f.api();
        api.open_document("d.md").unwrap();
        type_and_back_up(&mut api, "a");
        let dir = api.backup_dir().unwrap().to_path_buf();
        type_and_back_up(&mut api, "b");
        assert_eq!(journal_lines(&dir), 1);
        let before = snapshot_bytes(&dir);
        api.accept("d.md", &f.proposal, None).unwrap();
        write_backups(&api.backups_due());
        assert_eq!(journal_lines(&dir), 0, "a decision: a new snapshot");
        assert_ne!(snapshot_bytes(&dir), before);
        type_and_back_up(&mut api, "c");
        assert_eq!(journal_lines(&dir), 1);
        api.undo("d.md").unwrap(); // "c" goes
        api.undo("d.md").unwrap(); // the accept goes: its span too
        write_backups(&api.backups_due());
        assert_eq!(journal_lines(&dir), 0, "the decisions changed: a new snapshot");
        let text = api.text_of("d.md");
        drop(api);
        let mut api = f.api();
        let report = api.restore_backups();
        assert_eq!(report.restored[0].decisions, 0, "{report:?}");
        assert_eq!(api.text_of("d.md"), text);
        let spans = spans_of(&api);
        assert!(!spans.iter().any(|(_, who)| who.contains("bot")), "{spans:?}");
        assert_eq!(spans.len(), 1, "the writer's \"ab\": {spans:?}");
    }

    #[test]
    fn a_torn_line_or_a_journal_of_another_snapshot_replays_what_fits() {
        let f = fixture();
        let mut api = f.api();
        api.open_document("d.md").unwrap();
        type_and_back_up(&mut api, "1");
        let dir = api.backup_dir().unwrap().to_path_buf();
        type_and_back_up(&mut api, "2");
        type_and_back_up(&mut api, "3");
        drop(api);
        let journal = files_in(&dir).into_iter().find(|n| is_journal_name(n)).unwrap();
        let journal = dir.join(journal);
        let whole = std::fs::read(&journal).unwrap();
        // A crash in the middle of the last append.
        std::fs::write(&journal, &whole[..whole.len() - 7]).unwrap();
        let mut api = f.api();
        api.restore_backups();
        assert_eq!(api.text_of("d.md"), "the quick fox\n12");
        drop(api);
        // Lines of an older snapshot (a crash between a snapshot and its
        // journal's removal) are not applied to a newer one.
        let f = fixture();
        let mut api = f.api();
        api.open_document("d.md").unwrap();
        type_and_back_up(&mut api, "1");
        let dir = api.backup_dir().unwrap().to_path_buf();
        type_and_back_up(&mut api, "2");
        let name = files_in(&dir).into_iter().find(|n| is_journal_name(n)).unwrap();
        let old = std::fs::read(dir.join(&name)).unwrap();
        api.accept("d.md", &f.proposal, None).unwrap();
        write_backups(&api.backups_due());
        std::fs::write(dir.join(&name), &old).unwrap();
        drop(api);
        let mut api = f.api();
        api.restore_backups();
        assert_eq!(api.text_of("d.md"), "the slow fox\n12");
    }

    #[test]
    fn a_journal_longer_than_its_snapshot_becomes_a_snapshot() {
        let f = fixture();
        let mut api = f.api();
        api.open_document("d.md").unwrap();
        type_and_back_up(&mut api, "x");
        let dir = api.backup_dir().unwrap().to_path_buf();
        let chunk = "y".repeat(8 * 1024);
        let mut snapshots = 0;
        for _ in 0..20 {
            let before = snapshot_bytes(&dir);
            type_and_back_up(&mut api, &chunk);
            snapshots += usize::from(snapshot_bytes(&dir) != before);
            let len: u64 = files_in(&dir)
                .iter()
                .filter(|n| is_journal_name(n))
                .map(|n| std::fs::metadata(dir.join(n)).unwrap().len())
                .sum();
            let snap = snapshot_bytes(&dir).len() as u64;
            assert!(
                len <= snap.max(64 * 1024),
                "journal {len} B beside a {snap} B snapshot"
            );
        }
        assert!(snapshots >= 1, "the journal was folded into a snapshot");
        let text = api.text_of("d.md");
        drop(api);
        let mut api = f.api();
        api.restore_backups();
        assert_eq!(api.text_of("d.md"), text);
    }

    /// Typing in a 5 MB document: a journal line against rewriting the
    /// snapshot. Run: `cargo test --release -p cowriting --lib
    /// journal_beats_rewriting -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement, not a test"]
    fn journal_beats_rewriting() {
        let ws = tempfile::tempdir().unwrap();
        let para = "A sentence of prose that goes on for a while, as prose does. ".repeat(8) + "\n\n";
        let text = para.repeat(5_000_000 / para.len());
        std::fs::write(ws.path().join("d.md"), &text).unwrap();
        let backups = tempfile::tempdir().unwrap();
        let mut api = Api::open(ws.path()).unwrap();
        api.set_backup_root(Some(backups.path()));
        api.open_document("d.md").unwrap();
        type_at_end(&mut api, "x");
        let t = std::time::Instant::now();
        let due = api.backups_due();
        let under_lock = t.elapsed();
        write_backups(&due);
        println!(
            "snapshot: {under_lock:?} under the lock, {:?} in all",
            t.elapsed()
        );
        let mut times = Vec::new();
        for i in 0..20 {
            edit_at(&mut api, 1000 + i, 1000 + i, "k");
            let t = std::time::Instant::now();
            let due = api.backups_due();
            let under_lock = t.elapsed();
            assert!(matches!(due[0].1, Some(BackupContent::Append(_))));
            write_backups(&due);
            times.push((under_lock, t.elapsed()));
        }
        times.sort();
        println!(
            "journal line, median: {:?} under the lock, {:?} in all",
            times[10].0, times[10].1
        );
    }

    #[test]
    fn a_write_a_crash_cut_short_is_removed_at_the_restore_and_never_restored() {
        let f = fixture();
        let mut api = f.api();
        type_at_end(&mut api, " and more");
        assert!(write_backups(&api.backups_due()).is_empty());
        let dir = api.backup_dir().unwrap().to_path_buf();
        drop(api);
        // What a kill in the middle of the next write leaves: a temp file nobody holds.
        let torn = dir.join(".cw-abcdefgh.tmp");
        std::fs::write(&torn, "{ \"doc\": \"d.md\", \"te").unwrap();
        let mut api = f.api();
        let report = api.restore_backups();
        assert_eq!(report.restored.len(), 1, "{report:?}");
        assert!(
            report.unrestored.is_empty(),
            "the temp file is not a backup: {report:?}"
        );
        assert!(!torn.exists(), "the dead writer's temp file is removed");
        assert!(api.text_of("d.md").ends_with(" and more"));
    }

    #[test]
    fn a_clean_document_leaves_no_backup_file() {
        let f = fixture();
        let mut api = f.api();
        api.open_document("d.md").unwrap();
        assert!(api.backups_due().is_empty(), "clean: nothing to write");
        let dir = api.backup_dir().unwrap().to_path_buf();
        assert!(!dir.exists(), "no folder for a clean workspace");
        // Dirty, then clean again by typing back: the file comes and goes.
        type_at_end(&mut api, "x");
        let due = api.backups_due();
        assert_eq!(due.len(), 2, "the marker and the document: {due:?}");
        assert!(write_backups(&due).is_empty());
        assert_eq!(files_in(&dir).len(), 2);
        assert!(api.backups_due().is_empty(), "nothing changed since");
        let v = api.open_document("d.md").unwrap();
        let n = api.text_of("d.md").encode_utf16().count();
        api.edit(
            "d.md",
            v.version,
            &[super::super::TextChange {
                from: Utf16Offset(n - 1),
                to: Utf16Offset(n),
                insert: String::new(),
            }],
            true,
        )
        .unwrap();
        assert!(!api.open_document("d.md").unwrap().dirty);
        let due = api.backups_due();
        assert_eq!(due.len(), 1);
        assert!(due[0].1.is_none(), "clean: removed");
        write_backups(&due);
        assert_eq!(files_in(&dir), [MARKER]);
        // A save removes it at once; a discarded (closed) document too.
        type_and_back_up(&mut api, "y");
        assert_eq!(files_in(&dir).len(), 2);
        api.save("d.md").unwrap();
        assert_eq!(files_in(&dir), [MARKER], "saved: gone at once");
        assert_eq!(api.backups_due().len(), 1, "and removed again by the thread");
        type_and_back_up(&mut api, "z");
        api.close_document("d.md").unwrap();
        assert_eq!(files_in(&dir), [MARKER], "discarded: gone at once");
        let due = api.backups_due();
        assert_eq!(due.len(), 1);
        assert!(due[0].1.is_none(), "and again by the thread");
        // A normal quit leaves nothing behind, and nothing is written after it.
        api.open_document("d.md").unwrap();
        type_and_back_up(&mut api, "w");
        assert!(api.discard_backups().is_empty());
        assert!(!dir.exists(), "the workspace's folder is gone");
        type_at_end(&mut api, "v");
        assert!(api.backups_due().is_empty());
    }

    #[test]
    fn a_crash_is_restored_by_the_next_api_on_the_workspace() {
        let f = fixture();
        let on_disk = f.snapshot();
        let mut api = f.api();
        api.open_document("d.md").unwrap();
        api.accept("d.md", &f.proposal, None).unwrap();
        type_at_end(&mut api, "More.\n");
        assert!(write_backups(&api.backups_due()).is_empty());
        let dir = api.backup_dir().unwrap().to_path_buf();
        let marker: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join(MARKER)).unwrap()).unwrap();
        assert_eq!(marker["root"], api.root().display().to_string());
        drop(api); // the crash: nothing reached the workspace
        assert_eq!(f.snapshot(), on_disk);

        let mut api = f.api();
        let report = api.restore_backups();
        assert_eq!(
            report.restored,
            [RestoredDto {
                path: "d.md".into(),
                file_changed: false,
                decisions: 1
            }]
        );
        assert!(report.unrestored.is_empty());
        let v = api.open_document("d.md").unwrap();
        assert_eq!(api.text_of("d.md"), "the slow fox\nMore.\n");
        assert!(v.dirty);
        assert!(
            v.review.proposals.is_empty(),
            "the accepted proposal is not pending"
        );
        let tree = api.workspace();
        assert_eq!(
            tree.documents[0].proposals, 0,
            "nor counted in the file tree's badge"
        );
        assert_eq!(f.snapshot(), on_disk, "restoring writes nothing to the workspace");
        // The backup stays until the save; then the decision reaches the disk once.
        assert!(!files_in(&dir).is_empty());
        write_backups(&api.backups_due());
        api.save("d.md").unwrap();
        write_backups(&api.backups_due());
        assert_eq!(files_in(&dir), [MARKER]);
        assert_eq!(
            std::fs::read_to_string(f.ws.path().join("d.md")).unwrap(),
            "the slow fox\nMore.\n"
        );
        let side = std::fs::read_to_string(f.ws.path().join(".threads/d.md.json")).unwrap();
        assert!(!side.contains(&f.proposal), "{side}");
        let log = std::fs::read_to_string(f.ws.path().join(".cowriting/decisions.jsonl")).unwrap();
        assert_eq!(log.lines().count(), 1, "{log}");
        assert!(log.contains("accepted"), "{log}");
        // Nothing left to restore next time.
        let mut api = f.api();
        assert_eq!(api.restore_backups(), RestoreReport::default());
    }

    #[test]
    fn a_file_changed_since_the_crash_is_said_so() {
        let f = fixture();
        let mut api = f.api();
        api.open_document("d.md").unwrap();
        type_and_back_up(&mut api, "mine\n");
        drop(api);
        std::fs::write(f.ws.path().join("d.md"), "theirs: the quick fox\n").unwrap();
        let mut api = f.api();
        let report = api.restore_backups();
        assert_eq!(report.restored.len(), 1);
        assert!(report.restored[0].file_changed);
        assert_eq!(api.text_of("d.md"), "the quick fox\nmine\n");
    }

    #[test]
    fn a_crash_right_after_a_save_restores_nothing() {
        let f = fixture();
        let mut api = f.api();
        api.open_document("d.md").unwrap();
        api.accept("d.md", &f.proposal, None).unwrap();
        let due = api.backups_due();
        // The save lands; the crash comes before the thread removes the file
        // (here: the write taken before the save lands after it).
        api.save("d.md").unwrap();
        write_backups(&due);
        drop(api);
        let mut api = f.api();
        assert_eq!(api.restore_backups(), RestoreReport::default());
        let v = api.open_document("d.md").unwrap();
        assert!(!v.dirty);
        let log = std::fs::read_to_string(f.ws.path().join(".cowriting/decisions.jsonl")).unwrap();
        assert_eq!(log.lines().count(), 1, "never logged twice: {log}");
    }

    #[test]
    fn a_corrupt_backup_is_reported_and_kept_aside() {
        let f = fixture();
        let mut api = f.api();
        api.open_document("d.md").unwrap();
        type_and_back_up(&mut api, "mine\n");
        let dir = api.backup_dir().unwrap().to_path_buf();
        drop(api);
        let file = dir.join(format!("{}.json", short_hash("d.md")));
        assert!(file.exists());
        std::fs::write(&file, b"{\"version\": 1, \"doc\": \"d.md\", \"te").unwrap();
        // One for a document that is gone.
        std::fs::write(f.ws.path().join("gone.md"), "gone\n").unwrap();
        let mut api = f.api();
        api.open_document("gone.md").unwrap();
        let v = api.open_document("gone.md").unwrap();
        api.edit(
            "gone.md",
            v.version,
            &[super::super::TextChange {
                from: Utf16Offset(0),
                to: Utf16Offset(0),
                insert: "x".into(),
            }],
            true,
        )
        .unwrap();
        write_backups(&api.backups_due());
        drop(api);
        std::fs::remove_file(f.ws.path().join("gone.md")).unwrap();

        let mut api = f.api();
        let report = api.restore_backups();
        assert!(report.restored.is_empty(), "{report:?}");
        assert_eq!(report.unrestored.len(), 2, "{report:?}");
        for u in &report.unrestored {
            let kept = u.kept_as.as_deref().expect("moved aside");
            assert!(Path::new(kept).exists(), "{kept}");
            assert!(!u.message.is_empty());
        }
        assert!(report
            .unrestored
            .iter()
            .any(|u| u.path.as_deref() == Some("gone.md")));
        assert!(report
            .unrestored
            .iter()
            .any(|u| u.path.is_none() && u.message.contains("not a readable backup")));
        assert!(
            !api.open_document("d.md").unwrap().dirty,
            "the session opens clean"
        );
        // Neither a normal quit nor the next start deletes them.
        assert!(api.discard_backups().is_empty());
        let kept: Vec<String> = files_in(&dir)
            .into_iter()
            .filter(|n| n.starts_with("kept-"))
            .collect();
        assert_eq!(kept.len(), 2, "{:?}", files_in(&dir));
        assert!(
            files_in(&dir).contains(&MARKER.to_owned()),
            "the folder still names its workspace"
        );
        let mut api = f.api();
        assert_eq!(api.restore_backups(), RestoreReport::default());
    }

    #[test]
    fn workspaces_and_documents_have_folders_and_files_of_their_own() {
        let f = fixture();
        let other = tempfile::tempdir().unwrap();
        let a = f.api();
        let mut b = Api::open(other.path()).unwrap();
        b.set_backup_root(Some(f.backups.path()));
        assert_ne!(a.backup_dir(), b.backup_dir());
        let bk = a.backups.as_ref().unwrap();
        assert_ne!(
            bk.file_of(&DocPath::parse("d.md").unwrap()),
            bk.file_of(&DocPath::parse("e.md").unwrap())
        );
        assert!(is_backup_name(
            bk.file_of(&DocPath::parse("notes/x.md").unwrap())
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
        ));
    }
}
