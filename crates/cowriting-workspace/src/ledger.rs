//! Where the suggestion contract's records live in a workspace, beside the
//! VS Code sidecars (which stay exactly the VS Code format).
//!
//! ```text
//! W/.cowriting/suggestions/<docPath>.json   pending contract records, by sidecar proposal
//! W/.cowriting/decisions.jsonl              every decision, append-only, one JSON per line
//! ```
//!
//! Each contract proposal is filed as one pending proposal in the sidecar
//! ([`crate::session::Session::file_suggestions`]); its [`Entry`] here ties the
//! sidecar proposal id to the contract proposal, its member suggestions and the
//! turn. The sidecar proposal carries what VS Code knows (anchor, replacement,
//! author as Provenance, `turnId`); the entry carries the rest (producer version,
//! rule, category, reason, source revision).
//!
//! When a human decides (any accept/reject path of the app or CLI goes through
//! `Session`), the entry leaves the pending file and a [`DecisionRecord`] is
//! appended: the contract decision plus the ordered member ids, the original
//! suggestions (with their producer versions and source revision), so an
//! evaluation compares like with like. Undo appends an `undo` line naming the
//! sidecar proposal and puts the entry back; redo appends the decision again.
//! The effective decisions are the log folded in order ([`Ledger::decisions`]).
//!
//! A proposal decided by a tool that does not know the ledger (VS Code) leaves
//! its entry behind with no sidecar proposal; [`eval`] counts those as
//! "decided elsewhere".
//!
//! **Decided means decided.** The log is the authority on what was decided:
//! [`Decided`] folds it into the set of sidecar proposals (by document, after
//! renames) whose last word is a decision not undone ([`Decided::find`] looks
//! under the document's name, then under any). A writer that does not
//! read the log (the VS Code extension saving a stale copy, `git checkout` or
//! `git stash pop` of a sidecar) can put such a proposal back in a sidecar; the
//! store never shows it as pending and drops it on the next write, and accept
//! refuses it ([`crate::Error::AlreadyDecided`]), so nothing is applied twice. The
//! identity is the sidecar proposal id (random, one per filing; every decision
//! line names it), not the contract proposal id: that one is derived from the
//! content and legitimately recurs when the same finding is filed again on the
//! same bytes. A pending entry whose sidecar proposal is decided (under any
//! name) is dead: [`eval`] does not count it and the next write drops it.
//! [`DecidedCache`] keeps the fold per process and reads only what was appended
//! since (the log is append-only; a log replaced or rewritten is read again).
//!
//! **Entries left under an old name.** A merge of a branch that renamed a
//! document with one that filed proposals on it leaves the sidecar under the
//! new name (git follows the rename) and the new pending file under the old
//! one (a file only one side added). A decision on a proposal with no entry in
//! its document's pending file looks for it in the pending files of documents
//! that no longer exist ([`Ledger::stray_entry`]), logs the decision under the
//! document's name now, and sweeps the old file afterwards.
//!
//! Every path goes through the workspace's containment guard
//! ([`Workspace::internal_file`]: no symlink anywhere in `.cowriting/`). Pending
//! files are read-modify-written under the document's lock and replaced only if
//! unchanged since they were read ([`crate::fsutil::Expect`]); the log takes
//! single `O_APPEND` writes followed by fsync, under its own lock, after ending
//! a line a crash cut short. A log line that cannot be read is skipped with a
//! warning naming it, never making the log unreadable. A pending file that
//! cannot be parsed or has a newer `schemaVersion` is never overwritten.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::fsutil::{self, Expect, WriteError};
use crate::lock::DocLock;
use crate::store::read_settled;
use crate::workspace::{DocPath, Workspace};
use cowriting_core::contract::{ContractProposal, Decision, Outcome, Suggestion, SCHEMA_VERSION};
use cowriting_core::model::{now_iso, ModelError, Provenance};

/// The directory under the workspace root that holds the ledger.
pub const LEDGER_DIR: &str = ".cowriting";

/// One filed contract proposal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Entry {
    /// The `pr_…` id of the proposal in the VS Code sidecar.
    pub sidecar_proposal_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_id: Option<String>,
    pub proposal: ContractProposal,
    /// The members, in proposal order.
    pub suggestions: Vec<Suggestion>,
}

impl Entry {
    pub fn new(sidecar_proposal_id: String, turn_id: Option<String>, suggestions: Vec<Suggestion>) -> Entry {
        Entry {
            sidecar_proposal_id,
            turn_id,
            proposal: ContractProposal::of(&suggestions),
            suggestions,
        }
    }

    /// The producer of the first member (all members of one proposal share it).
    pub fn producer_id(&self) -> &str {
        self.suggestions
            .first()
            .map(|s| s.producer.id.as_str())
            .unwrap_or("")
    }
}

/// The pending file of one document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PendingFile {
    schema_version: u32,
    doc_id: String,
    entries: Vec<Entry>,
}

/// One line of the decision log, as written. (Lines are told apart by the
/// `undo` and `renamed` keys, not by an untagged enum or `flatten`: both buffer numbers in a
/// way serde_json's `arbitrary_precision` cannot read back.)
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
enum LogLine {
    Decided(Box<DecisionRecordLine>),
    Undo(UndoLine),
    Renamed(RenameLine),
}

impl LogLine {
    fn parse(line: &str) -> std::result::Result<LogLine, serde_json::Error> {
        let v: serde_json::Value = serde_json::from_str(line)?;
        if v.get("undo").is_some() {
            serde_json::from_value(v).map(LogLine::Undo)
        } else if v.get("renamed").is_some() {
            serde_json::from_value(v).map(LogLine::Renamed)
        } else {
            serde_json::from_value(v).map(|d| LogLine::Decided(Box::new(d)))
        }
    }
}

/// One effective decision on a sidecar proposal, as [`Decided`] keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct DecidedAs {
    /// The contract proposal id (`pp_…`).
    pub proposal_id: String,
    pub outcome: Outcome,
    pub decided_by: String,
    pub decided_at: String,
}

/// The decision log folded (as [`Ledger::log`] folds it: undo takes back the
/// last decision on the same document and sidecar proposal; a rename carries
/// the decisions under its `from` to its `to`), keeping only what is decided
/// now: per document, the sidecar proposals whose last decision is not undone.
#[derive(Clone, Debug, Default)]
pub struct Decided {
    /// Document → sidecar proposal id → its decisions not undone, in log order.
    docs: HashMap<String, HashMap<String, Vec<DecidedAs>>>,
    /// Sidecar proposal ids with a decision not undone, under any document.
    anywhere: HashMap<String, usize>,
}

impl Decided {
    /// The log's text folded (lines that cannot be read are skipped, as [`Ledger::log`] does).
    pub fn of_text(text: &str) -> Decided {
        let mut d = Decided::default();
        for line in text.lines() {
            d.fold_line(line);
        }
        d
    }

    fn fold_line(&mut self, line: &str) {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            return;
        }
        let Some(parsed) = LineKeys::parse(line) else {
            return;
        };
        match parsed {
            LogLine::Decided(d) => {
                *self.anywhere.entry(d.sidecar_proposal_id.clone()).or_default() += 1;
                self.docs
                    .entry(d.doc_id)
                    .or_default()
                    .entry(d.sidecar_proposal_id)
                    .or_default()
                    .push(DecidedAs {
                        proposal_id: d.proposal_id,
                        outcome: d.outcome,
                        decided_by: d.decided_by,
                        decided_at: d.decided_at,
                    });
            }
            LogLine::Undo(u) => {
                let Some(ids) = self.docs.get_mut(&u.doc_id) else {
                    return;
                };
                let Some(stack) = ids.get_mut(&u.sidecar_proposal_id) else {
                    return;
                };
                if stack.pop().is_some() {
                    if let Some(n) = self.anywhere.get_mut(&u.sidecar_proposal_id) {
                        *n -= 1;
                        if *n == 0 {
                            self.anywhere.remove(&u.sidecar_proposal_id);
                        }
                    }
                }
                if stack.is_empty() {
                    ids.remove(&u.sidecar_proposal_id);
                }
            }
            LogLine::Renamed(r) => {
                if r.from == r.to {
                    return;
                }
                let Some(moved) = self.docs.remove(&r.from) else {
                    return;
                };
                let to = self.docs.entry(r.to).or_default();
                for (id, mut stack) in moved {
                    to.entry(id).or_default().append(&mut stack);
                }
            }
        }
    }

    /// The decision now in force on sidecar proposal `sidecar_id` of `doc`, if any.
    pub fn get(&self, doc: &str, sidecar_id: &str) -> Option<&DecidedAs> {
        self.docs.get(doc)?.get(sidecar_id)?.last()
    }

    /// The decision now in force on sidecar proposal `sidecar_id`, looked for
    /// under `doc` first, then under any document (a decision logged under a
    /// name the document had on another branch, with no `renamed` line to
    /// follow). A sidecar proposal id is one filing, so a decision on it
    /// anywhere is a decision on it; only a sidecar copied by hand into another
    /// document's carries the same ids, and they count as decided in both.
    pub fn find(&self, doc: &str, sidecar_id: &str) -> Option<&DecidedAs> {
        if let Some(d) = self.get(doc, sidecar_id) {
            return Some(d);
        }
        if !self.anywhere(sidecar_id) {
            return None;
        }
        self.docs.values().find_map(|ids| ids.get(sidecar_id)?.last())
    }

    /// Whether sidecar proposal `sidecar_id` is decided under any document.
    pub fn anywhere(&self, sidecar_id: &str) -> bool {
        self.anywhere.contains_key(sidecar_id)
    }

    /// How many sidecar proposals are decided now.
    pub fn len(&self) -> usize {
        self.anywhere.len()
    }

    pub fn is_empty(&self) -> bool {
        self.anywhere.is_empty()
    }
}

/// What [`Decided`] reads of a log line: the keys, not the members and
/// suggestions (skipped unread, a fifth of the time of the whole line). A line
/// is told apart as [`LogLine::parse`] does; one whose keys are whole but whose
/// suggestions are not readable counts here as a decision ([`Ledger::log`]
/// skips it): for "never apply twice", the safe side.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LineKeys {
    undo: Option<serde::de::IgnoredAny>,
    renamed: Option<serde::de::IgnoredAny>,
    proposal_id: Option<String>,
    outcome: Option<Outcome>,
    decided_at: Option<String>,
    decided_by: Option<String>,
    doc_id: Option<String>,
    sidecar_proposal_id: Option<String>,
    from: Option<String>,
    to: Option<String>,
}

impl LineKeys {
    /// The line as a [`LogLine`] carrying only the keys (`None`: not a log line).
    fn parse(line: &str) -> Option<LogLine> {
        let k: LineKeys = serde_json::from_str(line).ok()?;
        if k.undo.is_some() {
            return Some(LogLine::Undo(UndoLine {
                schema_version: SCHEMA_VERSION,
                undo: true,
                doc_id: k.doc_id?,
                sidecar_proposal_id: k.sidecar_proposal_id?,
                undone_at: String::new(),
            }));
        }
        if k.renamed.is_some() {
            return Some(LogLine::Renamed(RenameLine {
                schema_version: SCHEMA_VERSION,
                renamed: true,
                from: k.from?,
                to: k.to?,
                renamed_at: String::new(),
            }));
        }
        Some(LogLine::Decided(Box::new(DecisionRecordLine {
            schema_version: SCHEMA_VERSION,
            proposal_id: k.proposal_id?,
            outcome: k.outcome?,
            chosen_replacement: None,
            decided_at: k.decided_at?,
            decided_by: k.decided_by?,
            doc_id: k.doc_id?,
            sidecar_proposal_id: k.sidecar_proposal_id?,
            turn_id: None,
            members: Vec::new(),
            suggestions: Vec::new(),
        })))
    }
}

/// The fold of the decision log kept between reads in one process: the log is
/// read again only from where the last read stopped (it is append-only), and
/// from the start when it was replaced or rewritten (another file, shorter, or
/// its first 4 KB or the 256 bytes before that point changed; a rewrite in
/// place that keeps both and the length is not noticed).
#[derive(Debug, Default)]
pub struct DecidedCache(Mutex<Option<CacheState>>);

#[derive(Debug)]
struct CacheState {
    file_id: (u64, u64),
    /// Bytes folded: up to and including the last line end read.
    offset: u64,
    /// The last bytes before `offset`, and the first (up to [`HEAD`]), to
    /// notice a file rewritten in place to the same length or longer.
    tail: Vec<u8>,
    head: Vec<u8>,
    decided: Arc<Decided>,
}

const TAIL: usize = 256;
const HEAD: usize = 4096;

impl CacheState {
    fn fresh(file_id: (u64, u64)) -> CacheState {
        CacheState {
            file_id,
            offset: 0,
            tail: Vec::new(),
            head: Vec::new(),
            decided: Arc::new(Decided::default()),
        }
    }
}

#[cfg(unix)]
fn file_id(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn file_id(_meta: &std::fs::Metadata) -> (u64, u64) {
    (0, 0)
}

/// The contract decision's fields, then what it was about.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct DecisionRecordLine {
    schema_version: u32,
    proposal_id: String,
    outcome: Outcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    chosen_replacement: Option<String>,
    decided_at: String,
    decided_by: String,
    doc_id: String,
    sidecar_proposal_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn_id: Option<String>,
    /// Member suggestion ids, in proposal order.
    members: Vec<String>,
    /// The members as they were decided (a migrated member names its original).
    suggestions: Vec<Suggestion>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct UndoLine {
    schema_version: u32,
    /// Always true; marks the line as an undo.
    undo: bool,
    doc_id: String,
    sidecar_proposal_id: String,
    undone_at: String,
}

/// A document renamed or moved: the decisions logged before under `from` are
/// read as the document's under `to` (as `git log --follow` reads history).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RenameLine {
    schema_version: u32,
    /// Always true; marks the line as a rename.
    renamed: bool,
    from: String,
    to: String,
    renamed_at: String,
}

/// A decision with what it was about.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionRecord {
    pub decision: Decision,
    pub doc_id: String,
    pub sidecar_proposal_id: String,
    pub turn_id: Option<String>,
    pub members: Vec<String>,
    pub suggestions: Vec<Suggestion>,
    /// An undo later took this decision back.
    pub undone: bool,
}

impl DecisionRecord {
    /// The source revision the members were made on.
    pub fn revision(&self) -> Option<&str> {
        self.suggestions.first().map(|s| s.source.revision.as_str())
    }
    pub fn producer_id(&self) -> &str {
        self.suggestions
            .first()
            .map(|s| s.producer.id.as_str())
            .unwrap_or("")
    }
}

/// The contract records of one workspace.
#[derive(Clone, Debug)]
pub struct Ledger {
    ws: Workspace,
}

/// The decision log as read: the records, and a warning for each line that
/// could not be read (skipped, never fatal).
#[derive(Clone, Debug, Default)]
pub struct Log {
    pub records: Vec<DecisionRecord>,
    pub warnings: Vec<String>,
}

/// A decision about to be logged: the exact line, and the record it stands for.
#[derive(Clone, Debug)]
pub struct PreparedDecision {
    pub line: String,
    pub record: DecisionRecord,
}

impl Ledger {
    /// The ledger of the workspace at `workspace_root` (a canonical folder, as
    /// [`Workspace::root`] gives it).
    pub fn new(workspace_root: &Path) -> Ledger {
        Ledger {
            ws: Workspace::from_root(workspace_root.to_path_buf()),
        }
    }

    /// The ledger of `ws` (sharing what it holds open: its root, for the guard).
    pub fn of(ws: &Workspace) -> Ledger {
        Ledger { ws: ws.clone() }
    }

    /// The workspace this ledger is of.
    pub fn workspace(&self) -> &Workspace {
        &self.ws
    }

    fn rel_pending(doc: &DocPath) -> String {
        format!("{LEDGER_DIR}/suggestions/{}.json", doc.as_str())
    }

    /// `.cowriting/suggestions/<docPath>.json`, through the containment guard.
    pub fn pending_file(&self, doc: &DocPath) -> Result<PathBuf> {
        self.ws.internal_file(&Self::rel_pending(doc))
    }

    /// `.cowriting/decisions.jsonl`, through the containment guard.
    pub fn decisions_file(&self) -> Result<PathBuf> {
        self.ws.internal_file(&decisions_rel())
    }

    /// The pending entries of `doc` (none when there is no file).
    pub fn pending(&self, doc: &DocPath) -> Result<Vec<Entry>> {
        Ok(self
            .load_pending(doc)?
            .map(|(f, _)| f.entries)
            .unwrap_or_default())
    }

    /// The pending entries of `doc` and the exact bytes they were read from
    /// (`None`: no file).
    pub fn pending_with_bytes(&self, doc: &DocPath) -> Result<(Option<Vec<u8>>, Vec<Entry>)> {
        Ok(match self.load_pending(doc)? {
            Some((f, bytes)) => (Some(bytes), f.entries),
            None => (None, Vec::new()),
        })
    }

    fn load_pending(&self, doc: &DocPath) -> Result<Option<(PendingFile, Vec<u8>)>> {
        let path = self.pending_file(doc)?;
        read_settled(&path, |bytes| parse_pending(&path, bytes))
    }

    /// Read-modify-write the pending entries of `doc`, the caller holding its
    /// lock; the file is removed when it ends up empty, not written when nothing
    /// changed, and the whole of it redone when the file changed between the read
    /// and the write (so `f` may run more than once, each time on fresh entries).
    pub fn update_pending_locked<R>(
        &self,
        _lock: &DocLock,
        doc: &DocPath,
        mut f: impl FnMut(&mut Vec<Entry>) -> R,
    ) -> Result<R> {
        let path = self.pending_file(doc)?;
        for attempt in 0..crate::store::REDO_LIMIT {
            if attempt > 0 {
                fsutil::backoff(attempt);
            }
            let before = self.load_pending(doc)?;
            let mut entries = before
                .as_ref()
                .map(|(b, _)| b.entries.clone())
                .unwrap_or_default();
            let out = f(&mut entries);
            if before.as_ref().map(|(b, _)| &b.entries) == Some(&entries)
                || (before.is_none() && entries.is_empty())
            {
                return Ok(out);
            }
            let expect = Expect::of(before.as_ref().map(|(_, b)| b.as_slice()));
            let res = if entries.is_empty() {
                fsutil::remove(&path, expect).map(|_| ())
            } else {
                let text = pending_text(doc, entries);
                fsutil::replace(&path, text.as_bytes(), expect)
            };
            match res {
                Ok(()) => return Ok(out),
                Err(WriteError::Changed) => continue,
                Err(WriteError::Io(e)) => return Err(Error::io(&path)(e)),
            }
        }
        Err(crate::store::kept_changing(&path))
    }

    /// The log line that records `outcome` on `entry` (`members` replaces the
    /// entry's suggestions when they were migrated just before the decision).
    pub fn prepare_decision(
        &self,
        doc: &DocPath,
        entry: &Entry,
        outcome: Outcome,
        chosen: Option<&str>,
        decided_by: &Provenance,
        members: Option<Vec<Suggestion>>,
    ) -> PreparedDecision {
        let entry = match members {
            Some(m) => Entry::new(entry.sidecar_proposal_id.clone(), entry.turn_id.clone(), m),
            None => entry.clone(),
        };
        let line = DecisionRecordLine {
            schema_version: SCHEMA_VERSION,
            proposal_id: entry.proposal.id.clone(),
            outcome,
            chosen_replacement: match outcome {
                Outcome::Changed => chosen.map(str::to_owned),
                _ => None,
            },
            decided_at: now_iso(),
            decided_by: decided_by.id.clone(),
            doc_id: doc.as_str().to_owned(),
            sidecar_proposal_id: entry.sidecar_proposal_id.clone(),
            turn_id: entry.turn_id.clone(),
            members: entry.proposal.members.clone(),
            suggestions: entry.suggestions.clone(),
        };
        PreparedDecision {
            line: log_text(&LogLine::Decided(Box::new(line.clone()))),
            record: line.into_record(false),
        }
    }

    /// The log line that takes back the last decision on `sidecar_id`, and the
    /// entry that goes back to pending; `None` when no effective decision on it
    /// is logged.
    pub fn prepare_undo(&self, doc: &DocPath, sidecar_id: &str) -> Result<Option<(String, Entry)>> {
        let Some(last) = self
            .decisions()?
            .into_iter()
            .rev()
            .find(|d| d.sidecar_proposal_id == sidecar_id && d.doc_id == doc.as_str() && !d.undone)
        else {
            return Ok(None);
        };
        let line = log_text(&LogLine::Undo(UndoLine {
            schema_version: SCHEMA_VERSION,
            undo: true,
            doc_id: doc.as_str().to_owned(),
            sidecar_proposal_id: sidecar_id.to_owned(),
            undone_at: now_iso(),
        }));
        let entry = Entry {
            sidecar_proposal_id: last.sidecar_proposal_id,
            turn_id: last.turn_id,
            proposal: ContractProposal {
                schema_version: SCHEMA_VERSION,
                id: last.decision.proposal_id,
                members: last.members,
            },
            suggestions: last.suggestions,
        };
        Ok(Some((line, entry)))
    }

    /// The log line that records the rename of `from` to `to`.
    pub fn rename_line(&self, from: &DocPath, to: &DocPath) -> String {
        log_text(&LogLine::Renamed(RenameLine {
            schema_version: SCHEMA_VERSION,
            renamed: true,
            from: from.as_str().to_owned(),
            to: to.as_str().to_owned(),
            renamed_at: now_iso(),
        }))
    }

    /// Append whole lines to the log under its lock. A last line cut by a crash
    /// is ended first, so it stays one bad line (skipped when read) instead of
    /// swallowing the next record.
    pub fn append_lines(&self, lines: &[String]) -> Result<()> {
        if lines.is_empty() {
            return Ok(());
        }
        let path = self.decisions_file()?;
        let _log = self.ws.lock_log()?;
        let mut text = String::new();
        if ends_mid_line(&path).map_err(Error::io(&path))? {
            text.push('\n');
        }
        for l in lines {
            text.push_str(l);
        }
        fsutil::append(&path, text.as_bytes()).map_err(Error::io(&path))
    }

    /// The lines of `lines` that are not in the log yet (recovery appends only those).
    pub fn missing_lines(&self, lines: &[String]) -> Result<Vec<String>> {
        let path = self.decisions_file()?;
        let text = match fsutil::read_regular(&path) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(Error::io(&path)(e)),
        };
        let have: std::collections::HashSet<&str> = text.lines().collect();
        Ok(lines
            .iter()
            .filter(|l| !have.contains(l.trim_end_matches('\n')))
            .cloned()
            .collect())
    }

    /// Every decision in log order, with `undone` set where an undo followed.
    /// Lines that cannot be read are skipped (see [`Ledger::log`] for the warnings).
    pub fn decisions(&self) -> Result<Vec<DecisionRecord>> {
        Ok(self.log()?.records)
    }

    /// The decision log: every readable record in order (undone ones marked),
    /// and one warning per unreadable line naming its line number.
    pub fn log(&self) -> Result<Log> {
        let path = self.decisions_file()?;
        let bytes = match fsutil::read_regular(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Log::default()),
            Err(e) => return Err(Error::io(&path)(e)),
        };
        let text = String::from_utf8_lossy(&bytes);
        let mut log = Log::default();
        let out = &mut log.records;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let parsed = match LogLine::parse(line) {
                Ok(p) => p,
                Err(e) => {
                    log.warnings.push(format!(
                        "{}:{}: not a decision record, skipped: {e}",
                        path.display(),
                        i + 1
                    ));
                    continue;
                }
            };
            match parsed {
                LogLine::Decided(d) => out.push(d.into_record(false)),
                LogLine::Undo(u) => {
                    if let Some(d) = out.iter_mut().rev().find(|d| {
                        d.sidecar_proposal_id == u.sidecar_proposal_id && d.doc_id == u.doc_id && !d.undone
                    }) {
                        d.undone = true;
                    }
                }
                // The decisions made under the old name follow the document.
                LogLine::Renamed(r) => {
                    for d in out.iter_mut().filter(|d| d.doc_id == r.from) {
                        d.doc_id.clone_from(&r.to);
                    }
                }
            }
        }
        Ok(log)
    }

    /// What the log says is decided now, through `cache` (see [`DecidedCache`]).
    pub fn decided(&self, cache: &DecidedCache) -> Result<Arc<Decided>> {
        use std::io::{Read, Seek, SeekFrom};
        let mut guard = cache.0.lock().unwrap_or_else(|e| e.into_inner());
        // No log yet (every read of a workspace nobody decided in): one look.
        let Some(path) = self.ws.internal_file_present(&decisions_rel())? else {
            *guard = None;
            return Ok(Arc::new(Decided::default()));
        };
        let mut options = std::fs::OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NONBLOCK);
        }
        let mut f = match options.open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                *guard = None;
                return Ok(Arc::new(Decided::default()));
            }
            Err(e) => return Err(Error::io(&path)(e)),
        };
        let meta = f.metadata().map_err(Error::io(&path))?;
        if !meta.is_file() {
            return Err(Error::io(&path)(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "not a regular file (a folder, FIFO, socket or device)",
            )));
        }
        let id = file_id(&meta);
        // Go on from where the last read stopped, if the file is the one read.
        let mut state = match guard.take() {
            Some(s) if s.file_id == id && s.offset <= meta.len() => {
                let start = s.offset - s.tail.len() as u64;
                let mut head = vec![0u8; s.head.len()];
                let mut before = vec![0u8; s.tail.len()];
                let same = f.read_exact(&mut head).is_ok()
                    && head == s.head
                    && f.seek(SeekFrom::Start(start)).is_ok()
                    && f.read_exact(&mut before).is_ok()
                    && before == s.tail;
                if same {
                    s
                } else {
                    CacheState::fresh(id)
                }
            }
            _ => CacheState::fresh(id),
        };
        if state.offset == 0 {
            f.seek(SeekFrom::Start(0)).map_err(Error::io(&path))?;
        }
        let mut new = Vec::new();
        f.read_to_end(&mut new).map_err(Error::io(&path))?;
        // Only whole lines: a line still being written (or cut by a crash) waits.
        if let Some(end) = new.iter().rposition(|b| *b == b'\n') {
            let whole = &new[..=end];
            let decided = Arc::make_mut(&mut state.decided);
            for line in String::from_utf8_lossy(whole).lines() {
                decided.fold_line(line);
            }
            if state.head.len() < HEAD {
                let more = (HEAD - state.head.len()).min(whole.len());
                state.head.extend_from_slice(&whole[..more]);
            }
            state.offset += whole.len() as u64;
            let mut tail = std::mem::take(&mut state.tail);
            tail.extend_from_slice(whole);
            let cut = tail.len().saturating_sub(TAIL);
            tail.drain(..cut);
            state.tail = tail;
        }
        let out = state.decided.clone();
        *guard = Some(state);
        Ok(out)
    }

    /// The pending entry of sidecar proposal `sidecar_id` left in the pending
    /// file of a document that no longer exists (a merge of a rename on one
    /// branch with proposals filed on the other leaves it there), and that
    /// document's name; `None` when there is none. Entries already decided
    /// (under any name) are not returned.
    pub fn stray_entry(
        &self,
        doc: &DocPath,
        sidecar_id: &str,
        decided: &Decided,
    ) -> Result<Option<(DocPath, Entry)>> {
        if decided.anywhere(sidecar_id) {
            return Ok(None);
        }
        for (other, entries) in self.all_pending()? {
            if &other == doc || self.document_exists(&other) {
                continue;
            }
            if let Some(e) = entries.into_iter().find(|e| e.sidecar_proposal_id == sidecar_id) {
                return Ok(Some((other, e)));
            }
        }
        Ok(None)
    }

    fn document_exists(&self, doc: &DocPath) -> bool {
        std::fs::symlink_metadata(self.ws.root().join(doc.as_str())).is_ok()
    }

    /// Remove from `doc`'s pending file, the caller holding its lock, every
    /// entry whose sidecar proposal is decided (under any name); returns how
    /// many went.
    pub fn sweep_decided_locked(&self, lock: &DocLock, doc: &DocPath, decided: &Decided) -> Result<usize> {
        self.update_pending_locked(lock, doc, |entries| {
            let before = entries.len();
            entries.retain(|e| !decided.anywhere(&e.sidecar_proposal_id));
            before - entries.len()
        })
    }

    /// Every pending entry of the workspace, by document.
    pub fn all_pending(&self) -> Result<Vec<(DocPath, Vec<Entry>)>> {
        let base = self.ws.internal_dir(&format!("{LEDGER_DIR}/suggestions"))?;
        let mut out = Vec::new();
        let mut stack = vec![base.clone()];
        while let Some(dir) = stack.pop() {
            let Ok(read) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in read.flatten() {
                let p = e.path();
                let Ok(kind) = e.file_type() else { continue };
                if kind.is_dir() {
                    stack.push(p);
                } else if let Some(rel) = p
                    .strip_prefix(&base)
                    .ok()
                    .and_then(|r| r.to_str())
                    .and_then(|r| r.strip_suffix(".json"))
                {
                    let rel = rel.replace(std::path::MAIN_SEPARATOR, "/");
                    if let Ok(doc) = DocPath::parse(&rel) {
                        let entries = self.pending(&doc)?;
                        out.push((doc, entries));
                    }
                }
            }
        }
        out.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
        Ok(out)
    }
}

/// Whether the file's last byte is not a line end (a cut last line).
fn ends_mid_line(path: &Path) -> std::io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    };
    if f.metadata()?.len() == 0 {
        return Ok(false);
    }
    f.seek(SeekFrom::End(-1))?;
    let mut last = [0u8; 1];
    f.read_exact(&mut last)?;
    Ok(last[0] != b'\n')
}

fn log_text(line: &LogLine) -> String {
    let mut text = serde_json::to_string(line).expect("log lines serialize");
    text.push('\n');
    text
}

/// The bytes of `doc`'s pending file holding `entries` (a rename writes them under the new name).
pub fn pending_text(doc: &DocPath, entries: Vec<Entry>) -> String {
    let file = PendingFile {
        schema_version: SCHEMA_VERSION,
        doc_id: doc.as_str().to_owned(),
        entries,
    };
    let mut text = serde_json::to_string_pretty(&file).expect("entries serialize");
    text.push('\n');
    text
}

fn parse_pending(path: &Path, bytes: &[u8]) -> Result<PendingFile> {
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| Error::CorruptSidecar {
        file: path.to_path_buf(),
        source: ModelError::Syntax {
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        },
    })?;
    // The same rule as sidecars: newer (even past u64) is refused as newer.
    if let Some(serde_json::Value::Number(n)) = value.get("schemaVersion") {
        if let Some(found) = cowriting_core::model::newer_version(n) {
            return Err(Error::NewerSchema {
                file: path.to_path_buf(),
                source: ModelError::NewerSchema { found },
            });
        }
    }
    serde_json::from_value(value).map_err(|e| Error::CorruptSidecar {
        file: path.to_path_buf(),
        source: ModelError::Shape {
            path: "entries".into(),
            message: e.to_string(),
        },
    })
}

impl DecisionRecordLine {
    fn into_record(self, undone: bool) -> DecisionRecord {
        DecisionRecord {
            decision: Decision {
                schema_version: self.schema_version,
                proposal_id: self.proposal_id,
                outcome: self.outcome,
                chosen_replacement: self.chosen_replacement,
                decided_at: self.decided_at,
                decided_by: self.decided_by,
            },
            doc_id: self.doc_id,
            sidecar_proposal_id: self.sidecar_proposal_id,
            turn_id: self.turn_id,
            members: self.members,
            suggestions: self.suggestions,
            undone,
        }
    }
}

/// Keep `bytes` in the workspace's git object database (when it is in a git
/// repository), so `cowriting eval --replay` can read a suggestion's source
/// revision back by its blob id even when that version was never committed.
/// Unreachable blobs live until `git gc` prunes them (two weeks by default).
/// Returns whether it was stored.
pub fn keep_revision(workspace_root: &Path, bytes: &[u8]) -> bool {
    let Ok(repo) = git2::Repository::discover(workspace_root) else {
        return false;
    };
    repo.blob(bytes).is_ok()
}

/// The bytes of a recorded revision, read back from git by blob id.
pub fn read_revision(workspace_root: &Path, revision: &str) -> Result<Vec<u8>> {
    let repo = git2::Repository::discover(workspace_root).map_err(|e| {
        Error::BadInput(format!(
            "{} is not in a git repository ({}); revisions cannot be read back",
            workspace_root.display(),
            e.message()
        ))
    })?;
    let oid = git2::Oid::from_str(revision)
        .map_err(|_| Error::BadInput(format!("{revision:?} is not a git blob id")))?;
    let blob = repo
        .find_blob(oid)
        .map_err(|_| Error::BadInput(format!("revision {revision} is not in the git object database")))?;
    Ok(blob.content().to_vec())
}

/// Three-way merge of two branches' versions of one pending file (the git merge
/// driver calls this for `.cowriting/suggestions/**`): entries are matched by
/// sidecar proposal id; an entry either side added is kept; an entry either
/// side removed (decided) is removed; an entry both sides changed differently
/// (migrated on both) keeps the one with the greater contract proposal id, so
/// the result does not depend on which side is "ours". Output is canonical
/// (the same bytes [`Ledger::update_pending_locked`] writes); `None` when no entry is
/// left (the file should be deleted — written as an empty entries list here).
pub fn merge_pending(
    base: Option<&str>,
    ours: &str,
    theirs: &str,
) -> std::result::Result<(String, Vec<String>), String> {
    let parse = |side: &str, t: &str| -> std::result::Result<PendingFile, String> {
        serde_json::from_str(t).map_err(|e| format!("{side}: not a pending-suggestions file: {e}"))
    };
    let b = match base.filter(|t| !t.trim().is_empty()) {
        Some(t) => Some(parse("base", t)?),
        None => None,
    };
    let o = parse("ours", ours)?;
    let t = parse("theirs", theirs)?;
    for f in [Some(&o), Some(&t), b.as_ref()].into_iter().flatten() {
        if f.schema_version > SCHEMA_VERSION {
            return Err(format!(
                "schemaVersion {} is newer than this cowriting understands",
                f.schema_version
            ));
        }
    }
    let find = |f: &PendingFile, id: &str| f.entries.iter().find(|e| e.sidecar_proposal_id == id).cloned();
    let in_base = |id: &str| b.as_ref().and_then(|b| find(b, id));
    let mut notes = Vec::new();
    let mut out: Vec<Entry> = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    for e in b
        .iter()
        .flat_map(|b| &b.entries)
        .chain(&o.entries)
        .chain(&t.entries)
    {
        if !ids.contains(&e.sidecar_proposal_id) {
            ids.push(e.sidecar_proposal_id.clone());
        }
    }
    for id in ids {
        let (base_e, ours_e, theirs_e) = (in_base(&id), find(&o, &id), find(&t, &id));
        let kept = match (base_e, ours_e, theirs_e) {
            (Some(_), None, _) | (Some(_), _, None) => None,
            (_, Some(a), None) | (_, None, Some(a)) => Some(a),
            (base_e, Some(a), Some(c)) => {
                if a == c || base_e.as_ref() == Some(&c) {
                    Some(a)
                } else if base_e.as_ref() == Some(&a) {
                    Some(c)
                } else {
                    notes.push(format!(
                        "entry {id}: changed on both sides; kept the one with the greater proposal id"
                    ));
                    Some(if a.proposal.id >= c.proposal.id { a } else { c })
                }
            }
            (_, None, None) => None,
        };
        out.extend(kept);
    }
    let file = PendingFile {
        schema_version: SCHEMA_VERSION,
        doc_id: o.doc_id,
        entries: out,
    };
    let mut text = serde_json::to_string_pretty(&file).expect("entries serialize");
    text.push('\n');
    Ok((text, notes))
}

/// Whether `text` looks like a pending-suggestions file (rather than a sidecar).
pub fn is_pending_file(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .is_some_and(|v| v.get("entries").is_some() && v.get("docId").is_some())
}

pub use crate::identity::author_for;

/// A proposal filed from contract suggestions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct Filed {
    /// The `pr_…` id in the sidecar.
    pub sidecar_id: String,
    /// The contract proposal id (`pp_…`).
    pub proposal_id: String,
}

/// Counts of one producer and category.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tally {
    pub accepted: usize,
    pub rejected: usize,
    pub changed: usize,
    pub pending: usize,
    /// Entries whose sidecar proposal is gone without a decision here (decided
    /// by a tool that does not keep the ledger, e.g. VS Code).
    pub decided_elsewhere: usize,
}

/// One row of [`eval`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EvalRow {
    pub producer: String,
    pub category: String,
    #[serde(flatten)]
    pub tally: Tally,
}

/// Per producer and category: accepted, rejected, changed (effective decisions,
/// undone ones left out) and pending (entries whose sidecar proposal is still
/// there). `decisions`: the decision log's records ([`Ledger::log`]);
/// `pending_ids(doc)` gives the sidecar proposal ids present now.
pub fn eval(
    ledger: &Ledger,
    decisions: &[DecisionRecord],
    mut pending_ids: impl FnMut(&DocPath) -> std::collections::HashSet<String>,
) -> Result<Vec<EvalRow>> {
    let mut rows: BTreeMap<(String, String), Tally> = BTreeMap::new();
    let key = |s: &Suggestion| (s.producer.id.clone(), s.category.clone());
    for d in decisions.iter().filter(|d| !d.undone) {
        let Some(first) = d.suggestions.first() else {
            continue;
        };
        let t = rows.entry(key(first)).or_default();
        match d.decision.outcome {
            Outcome::Accepted => t.accepted += 1,
            Outcome::Rejected => t.rejected += 1,
            Outcome::Changed => t.changed += 1,
        }
    }
    // Entries whose sidecar proposal is decided (a copy brought back by git or
    // a writer that does not know the log, or one left under a document's old
    // name) are counted by their decision, not again.
    let decided: HashSet<&str> = decisions
        .iter()
        .filter(|d| !d.undone)
        .map(|d| d.sidecar_proposal_id.as_str())
        .collect();
    for (doc, entries) in ledger.all_pending()? {
        let live = pending_ids(&doc);
        for e in entries {
            if decided.contains(e.sidecar_proposal_id.as_str()) {
                continue;
            }
            let Some(first) = e.suggestions.first() else {
                continue;
            };
            let t = rows.entry(key(first)).or_default();
            if live.contains(&e.sidecar_proposal_id) {
                t.pending += 1;
            } else {
                t.decided_elsewhere += 1;
            }
        }
    }
    Ok(rows
        .into_iter()
        .map(|((producer, category), tally)| EvalRow {
            producer,
            category,
            tally,
        })
        .collect())
}

/// The decision log's path in the workspace.
fn decisions_rel() -> String {
    format!("{LEDGER_DIR}/decisions.jsonl")
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowriting_core::contract::{byte_span, Finding, Producer, Source};

    /// The pieces of a decision, composed outside a transaction (production
    /// code decides through `txn`; these tests exercise the pieces).
    impl Ledger {
        /// Read-modify-write the pending entries of `doc` under its lock.
        fn update_pending<R>(&self, doc: &DocPath, f: impl FnMut(&mut Vec<Entry>) -> R) -> Result<R> {
            let lock = self.ws.lock_doc(doc)?;
            self.update_pending_locked(&lock, doc, f)
        }

        /// Add entries for newly filed proposals.
        fn add_pending(&self, doc: &DocPath, new: Vec<Entry>) -> Result<()> {
            self.update_pending(doc, |entries| entries.extend(new.iter().cloned()))
        }

        /// The pending entry of the sidecar proposal `sidecar_id`, if it has one.
        fn entry(&self, doc: &DocPath, sidecar_id: &str) -> Result<Option<Entry>> {
            Ok(self
                .pending(doc)?
                .into_iter()
                .find(|e| e.sidecar_proposal_id == sidecar_id))
        }

        /// Record a decision on the sidecar proposal `sidecar_id`, if it has an
        /// entry (proposals filed without the contract have none): the entry leaves
        /// the pending file, the decision is appended. Returns the record written.
        /// (Outside a transaction; [`crate::txn`] composes the same pieces.)
        fn decide(
            &self,
            doc: &DocPath,
            sidecar_id: &str,
            outcome: Outcome,
            chosen: Option<&str>,
            decided_by: &Provenance,
            members: Option<Vec<Suggestion>>,
        ) -> Result<Option<DecisionRecord>> {
            let Some(entry) = self.entry(doc, sidecar_id)? else {
                return Ok(None);
            };
            let prepared = self.prepare_decision(doc, &entry, outcome, chosen, decided_by, members);
            self.update_pending(doc, |entries| {
                entries.retain(|e| e.sidecar_proposal_id != sidecar_id)
            })?;
            self.append_lines(std::slice::from_ref(&prepared.line))?;
            Ok(Some(prepared.record))
        }
    }

    fn sug(bytes: &[u8], start: usize, end: usize, rep: &str) -> Suggestion {
        let p = Producer {
            id: "harper".into(),
            version: "1".into(),
            provenance: "rule:Spell".into(),
        };
        Suggestion::new(
            &p,
            &Source::of("a.md", bytes),
            bytes,
            Finding {
                span: byte_span(start, end),
                replacement: rep.into(),
                category: "spelling".into(),
                reason: "r".into(),
                confidence: None,
            },
        )
        .unwrap()
    }

    #[test]
    fn decide_undo_redo_fold_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let l = Ledger::new(dir.path());
        let doc = DocPath::parse("notes/a.md").unwrap();
        let bytes = b"teh cat";
        l.add_pending(
            &doc,
            vec![Entry::new(
                "pr_1".into(),
                Some("turn-1".into()),
                vec![sug(bytes, 0, 3, "the")],
            )],
        )
        .unwrap();
        assert!(l
            .pending_file(&doc)
            .unwrap()
            .ends_with(".cowriting/suggestions/notes/a.md.json"));
        let me = Provenance::human("me@example.com");
        let rec = l
            .decide(&doc, "pr_1", Outcome::Changed, Some("The"), &me, None)
            .unwrap()
            .unwrap();
        assert_eq!(rec.decision.chosen_replacement.as_deref(), Some("The"));
        assert!(l.pending(&doc).unwrap().is_empty());
        assert!(
            !l.pending_file(&doc).unwrap().exists(),
            "an empty pending file is removed"
        );
        // Unknown proposals (filed without the contract) record nothing.
        assert!(l
            .decide(&doc, "pr_x", Outcome::Accepted, None, &me, None)
            .unwrap()
            .is_none());
        // Undo: the undo line, and the entry back to pending.
        let (line, entry) = l.prepare_undo(&doc, "pr_1").unwrap().unwrap();
        l.append_lines(&[line]).unwrap();
        l.add_pending(&doc, vec![entry]).unwrap();
        assert_eq!(l.pending(&doc).unwrap().len(), 1);
        let d = l.decisions().unwrap();
        assert_eq!(d.len(), 1);
        assert!(d[0].undone);
        assert!(
            l.prepare_undo(&doc, "pr_1").unwrap().is_none(),
            "nothing left to undo"
        );
        // Redo: decided again.
        l.decide(&doc, "pr_1", Outcome::Changed, Some("The"), &me, None)
            .unwrap()
            .unwrap();
        let d = l.decisions().unwrap();
        assert_eq!(d.len(), 2);
        assert!(!d[1].undone && d[1].decision.outcome == Outcome::Changed);
        let rows = eval(&l, &l.decisions().unwrap(), |_| Default::default()).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].tally.changed, 1);
        assert_eq!(rows[0].tally.accepted, 0);
    }

    /// What the log says is decided, the naive way: every record [`Ledger::log`]
    /// reads that is not undone, by document (after renames) and sidecar id.
    fn naive_decided(l: &Ledger) -> std::collections::BTreeSet<(String, String)> {
        l.decisions()
            .unwrap()
            .into_iter()
            .filter(|d| !d.undone)
            .map(|d| (d.doc_id, d.sidecar_proposal_id))
            .collect()
    }

    fn cached_decided(
        d: &Decided,
        docs: &[&str],
        ids: &[String],
    ) -> std::collections::BTreeSet<(String, String)> {
        let mut out = std::collections::BTreeSet::new();
        for doc in docs {
            for id in ids {
                if d.get(doc, id).is_some() {
                    out.insert((doc.to_string(), id.clone()));
                }
            }
        }
        out
    }

    #[test]
    fn the_decided_fold_read_on_from_where_it_stopped_agrees_with_the_log_at_every_step() {
        let dir = tempfile::tempdir().unwrap();
        let l = Ledger::new(dir.path());
        let cache = DecidedCache::default();
        let me = Provenance::human("me@example.com");
        let docs = ["a.md", "b.md", "c.md"];
        let ids: Vec<String> = (0..5).map(|i| format!("pr_{i}")).collect();
        let bytes = b"teh cat";
        let mut seed: u64 = 0x5eed;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for step in 0..300 {
            let doc = DocPath::parse(docs[next(3) as usize]).unwrap();
            let id = &ids[next(5) as usize];
            let line = match next(10) {
                0..=4 => {
                    let e = Entry::new(id.clone(), None, vec![sug(bytes, 0, 3, "the")]);
                    l.prepare_decision(&doc, &e, Outcome::Accepted, None, &me, None)
                        .line
                }
                5..=7 => match l.prepare_undo(&doc, id).unwrap() {
                    Some((line, _)) => line,
                    None => continue,
                },
                8 => {
                    let to = DocPath::parse(docs[next(3) as usize]).unwrap();
                    l.rename_line(&doc, &to)
                }
                // A line nobody can read, and a cut one: skipped by both.
                _ => "not json\n".to_owned(),
            };
            l.append_lines(&[line]).unwrap();
            let d = l.decided(&cache).unwrap();
            assert_eq!(cached_decided(&d, &docs, &ids), naive_decided(&l), "step {step}");
        }
        // A fresh read of the whole log agrees with the one read on.
        let fresh = l.decided(&DecidedCache::default()).unwrap();
        let read_on = l.decided(&cache).unwrap();
        assert_eq!(
            cached_decided(&fresh, &docs, &ids),
            cached_decided(&read_on, &docs, &ids)
        );
        assert_eq!(fresh.len(), read_on.len());
    }

    /// Figures for docs/reliability.md ("Decided means decided"): a log of
    /// 10,000 decisions read whole, then read on after one more line, and with
    /// nothing new. Run with `cargo test -p cowriting-workspace --lib
    /// measure_decided -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement; prints figures"]
    fn measure_decided_with_10k_lines() {
        let dir = tempfile::tempdir().unwrap();
        let l = Ledger::new(dir.path());
        let me = Provenance::human("me@example.com");
        let doc = DocPath::parse("notes/a.md").unwrap();
        let bytes = b"teh cat";
        let e = Entry::new(
            "pr_x".into(),
            Some("turn-1".into()),
            vec![sug(bytes, 0, 3, "the")],
        );
        let one = l
            .prepare_decision(&doc, &e, Outcome::Accepted, None, &me, None)
            .line;
        let lines: Vec<String> = (0..10_000)
            .map(|i| one.replace("pr_x", &format!("pr_{i:020}")))
            .collect();
        l.append_lines(&lines).unwrap();
        let size = std::fs::metadata(l.decisions_file().unwrap()).unwrap().len();
        let time = |f: &mut dyn FnMut()| {
            let runs = 20;
            let start = std::time::Instant::now();
            for _ in 0..runs {
                f();
            }
            start.elapsed() / runs
        };
        let whole = time(&mut || {
            assert_eq!(l.decided(&DecidedCache::default()).unwrap().len(), 10_000);
        });
        let log = time(&mut || {
            assert_eq!(l.log().unwrap().records.len(), 10_000);
        });
        let cache = DecidedCache::default();
        l.decided(&cache).unwrap();
        let nothing_new = time(&mut || {
            assert_eq!(l.decided(&cache).unwrap().len(), 10_000);
        });
        let mut n = 10_000;
        let mut appended = std::time::Duration::ZERO;
        for _ in 0..20 {
            l.append_lines(&[one.replace("pr_x", &format!("pr_{n:020}"))])
                .unwrap();
            n += 1;
            let start = std::time::Instant::now();
            assert_eq!(l.decided(&cache).unwrap().len(), n);
            appended += start.elapsed();
        }
        println!(
            "decision log of 10,000 lines ({size} bytes): fold read whole {whole:?}; Ledger::log {log:?}; read on, nothing new {nothing_new:?}; read on, one line appended {:?}",
            appended / 20
        );
    }

    #[test]
    fn a_decision_under_another_name_is_found_when_no_rename_line_follows_it() {
        let dir = tempfile::tempdir().unwrap();
        let l = Ledger::new(dir.path());
        let me = Provenance::human("me@example.com");
        let e = Entry::new("pr_1".into(), None, vec![sug(b"teh cat", 0, 3, "the")]);
        // Decided on a branch where the document was still doc.md; merged
        // where it is chapter.md (the rename logged no line: nothing was decided yet).
        let old = DocPath::parse("doc.md").unwrap();
        let line = l
            .prepare_decision(&old, &e, Outcome::Accepted, None, &me, None)
            .line;
        l.append_lines(&[line]).unwrap();
        let d = l.decided(&DecidedCache::default()).unwrap();
        assert!(d.get("chapter.md", "pr_1").is_none());
        assert_eq!(d.find("chapter.md", "pr_1").unwrap().outcome, Outcome::Accepted);
        assert!(d.find("chapter.md", "pr_2").is_none());
        // Undone under its name: found nowhere.
        let (undo, _) = l.prepare_undo(&old, "pr_1").unwrap().unwrap();
        l.append_lines(&[undo]).unwrap();
        let d = l.decided(&DecidedCache::default()).unwrap();
        assert!(d.find("chapter.md", "pr_1").is_none() && !d.anywhere("pr_1"));
    }

    #[test]
    fn a_log_replaced_or_rewritten_is_read_again_from_the_start() {
        let dir = tempfile::tempdir().unwrap();
        let l = Ledger::new(dir.path());
        let cache = DecidedCache::default();
        let me = Provenance::human("me@example.com");
        let doc = DocPath::parse("a.md").unwrap();
        let bytes = b"teh cat";
        let line = |id: &str| {
            let e = Entry::new(id.into(), None, vec![sug(bytes, 0, 3, "the")]);
            l.prepare_decision(&doc, &e, Outcome::Rejected, None, &me, None)
                .line
        };
        let (one, two) = (line("pr_1"), line("pr_2"));
        l.append_lines(std::slice::from_ref(&one)).unwrap();
        assert!(l.decided(&cache).unwrap().get("a.md", "pr_1").is_some());
        let path = l.decisions_file().unwrap();
        // Rewritten in place, same length, another id: noticed by the bytes before.
        std::fs::write(&path, one.replace("pr_1", "pr_9")).unwrap();
        let d = l.decided(&cache).unwrap();
        assert!(d.get("a.md", "pr_1").is_none() && d.get("a.md", "pr_9").is_some());
        // Replaced by another file (git checkout of an older log): read again.
        let tmp = dir.path().join("new.jsonl");
        std::fs::write(&tmp, &two).unwrap();
        std::fs::rename(&tmp, &path).unwrap();
        let d = l.decided(&cache).unwrap();
        assert!(d.get("a.md", "pr_9").is_none() && d.get("a.md", "pr_2").is_some());
        // Gone: nothing is decided.
        std::fs::remove_file(&path).unwrap();
        assert!(l.decided(&cache).unwrap().is_empty());
    }

    #[test]
    fn a_corrupt_pending_file_is_never_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let l = Ledger::new(dir.path());
        let doc = DocPath::parse("a.md").unwrap();
        let path = l.pending_file(&doc).unwrap();
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{ nope").unwrap();
        let e = l.add_pending(&doc, vec![]).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::CorruptSidecar);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{ nope");
    }

    #[test]
    fn a_cut_last_line_is_ended_and_a_bad_line_is_skipped_with_its_number() {
        let dir = tempfile::tempdir().unwrap();
        let l = Ledger::new(dir.path());
        let doc = DocPath::parse("a.md").unwrap();
        let me = Provenance::human("me@example.com");
        let bytes = b"teh cat";
        for id in ["pr_1", "pr_2"] {
            l.add_pending(
                &doc,
                vec![Entry::new(id.into(), None, vec![sug(bytes, 0, 3, "the")])],
            )
            .unwrap();
        }
        l.decide(&doc, "pr_1", Outcome::Accepted, None, &me, None)
            .unwrap();
        // A crash cut the next line short, and someone put garbage in.
        let log = l.decisions_file().unwrap();
        let mut text = std::fs::read_to_string(&log).unwrap();
        text.push_str("not json at all\n{\"schemaVersion\": 1, \"propos");
        std::fs::write(&log, &text).unwrap();
        l.decide(&doc, "pr_2", Outcome::Rejected, None, &me, None)
            .unwrap();
        let read = l.log().unwrap();
        let ids: Vec<&str> = read
            .records
            .iter()
            .map(|r| r.sidecar_proposal_id.as_str())
            .collect();
        assert_eq!(ids, ["pr_1", "pr_2"], "the record after the cut line is whole");
        assert_eq!(read.warnings.len(), 2, "{:?}", read.warnings);
        assert!(
            read.warnings[0].contains("decisions.jsonl:2:"),
            "{}",
            read.warnings[0]
        );
        assert!(
            read.warnings[1].contains("decisions.jsonl:3:"),
            "{}",
            read.warnings[1]
        );
    }

    #[test]
    fn ledger_paths_through_a_symlink_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let bashrc = outside.path().join("bashrc");
        std::fs::write(&bashrc, "# mine\n").unwrap();
        std::fs::create_dir_all(dir.path().join(LEDGER_DIR)).unwrap();
        std::os::unix::fs::symlink(&bashrc, dir.path().join(LEDGER_DIR).join("decisions.jsonl")).unwrap();
        let l = Ledger::new(dir.path());
        let err = l.append_lines(&["$(touch /tmp/pwned)\n".into()]).unwrap_err();
        assert_eq!(err.code(), crate::ErrorCode::BadInput, "{err}");
        assert_eq!(std::fs::read_to_string(&bashrc).unwrap(), "# mine\n");
    }
}
