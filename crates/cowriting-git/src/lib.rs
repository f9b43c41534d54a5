//! Git integration: a merge driver for sidecars, `cowriting git install`, the
//! `prepare-commit-msg` hook that credits agents with `Co-authored-by` trailers,
//! and what the app shows of a repository ([`branch`], [`work_tree_of`]).
//!
//! # Merging sidecars (`cowriting merge-sidecar %O %A %B %P`)
//!
//! Git merges a sidecar as text and so conflicts whenever both branches appended
//! to the same array. [`merge_sidecars`] merges the three versions (base, ours,
//! theirs) as records instead. Every side is parsed by [`cowriting_core::model`] first; a
//! side that does not parse, or has a newer `schemaVersion`, stops the driver with
//! a non-zero exit and leaves `%A` untouched, so git reports an ordinary conflict.
//! The result is written through [`cowriting_core::model::serialize_artifact`]: canonical,
//! unknown fields kept.
//!
//! The rules:
//!
//! - **Base missing** (`%O` empty, both branches created the sidecar): every record
//!   counts as added; a record both sides added with one id is merged field by
//!   field with no base, so a field they disagree on is a both-sides change.
//! - **Records by id.** Proposals, threads, the comments of a thread, attributions
//!   and anchors are matched by id (anchors by their key). A record one side added is
//!   kept. A record one side removed while the other left it untouched is removed.
//! - **Removed on one side, changed on the other**: for a *proposal* the removal
//!   wins — removing a proposal means accepting or rejecting it, and a decision
//!   stands (INV-13); for an *attribution* the removal wins too (attributions are
//!   rebuilt from the text at every save, so on the removing side that span is
//!   gone); for a *thread* or a *comment* the change wins (a conversation someone
//!   added to is not dropped). Each such case is reported.
//! - **Changed on both sides**: a record is merged field by field (its unknown
//!   fields too, recursively through objects), so two changes to different fields
//!   both survive. A thread's `comments` are merged by comment id with the same
//!   rules. A field both sides set to different values is resolved by a rule that
//!   depends only on the values, never on which branch is "ours", so merging A
//!   into B and B into A give the same sidecar:
//!   - a thread's `status`: `"open"` wins (an unresolved conversation stays visible);
//!   - an anchor's `fingerprint.lineHint`: both moves are applied,
//!     `ours + theirs − base` (lines inserted above it on each side add up), or the
//!     larger one without a base;
//!   - anything else (including a whole `author`, which is never mixed): the value
//!     that is greater in canonical JSON (RFC 8785) byte order — for timestamps the
//!     later one.
//!
//!   Each resolved field is reported: which record, which field, which side won, why.
//! - **Anchors follow their records**: every anchor a kept record references is
//!   kept (from whichever side has it, merged field by field when both changed it),
//!   and every other anchor is pruned, as [`cowriting_workspace::Store`] does. A fingerprint whose
//!   `text` both sides changed may end up with the context of the other side; the
//!   resolve ladder never places an anchor on text that differs, so the worst case
//!   is an orphaned anchor, never a wrong one.
//! - **Attributions** are merged by id like any record. Spans of the two branches
//!   may now overlap; the next load anchors each record against the merged text
//!   and the next save rewrites them as non-overlapping spans.
//! - **Order**: records the base had come first, in the base's order; records new
//!   on either side follow, sorted by `createdAt` (a thread by its first comment's)
//!   and then id. Inside a merged object, unknown keys keep the base's order, then
//!   ours' new keys, then theirs' — the one place where the side can change the
//!   output (the order of unknown keys that both sides newly added).
//!
//! # `cowriting git install`
//!
//! [`install`] writes `.threads/**/*.json merge=cowriting-sidecar` to the
//! workspace's `.gitattributes` (once), sets `merge.cowriting-sidecar.name` and
//! `.driver` in the repository's own config, and installs a `prepare-commit-msg`
//! hook in the hooks folder (`core.hooksPath` when set). A hook cowriting did not
//! write (no [`HOOK_MARKER`] line) is never touched. Running it again changes
//! nothing.
//!
//! # Co-authored-by (`cowriting git hook prepare-commit-msg <msgfile> [<source>]`)
//!
//! [`prepare_commit_msg`] looks at the staged documents (HEAD tree → index; the
//! empty tree before the first commit), computes the text each one adds (a word
//! diff of the HEAD and staged versions), resolves the attributions of the staged
//! sidecar against the staged text, and credits every agent whose span overlaps
//! added text with one trailer ([`co_author_trailer`]). A document's sidecar is the
//! nearest `<dir>/.threads/<rest>.json` in the index, so a workspace anywhere in the
//! repository is found. Merge commits (`source` = `merge`) are skipped: the merged
//! branch's commits already carry their trailers; squashes and amends are not.
//! Trailers are placed as `git interpret-trailers` places them ([`add_trailers`]);
//! one already there (same address) is not added again. When the message has no
//! text yet (`git commit` about to open an editor) the trailers are written as
//! comment lines to uncomment instead: a trailer alone would turn an editor session
//! left empty into a commit, where git would otherwise abort it. The hook never
//! blocks a commit: problems are warnings.

pub mod commit;

use cowriting_core::anchor::{resolve, Resolution};
use cowriting_core::document::Document;
use cowriting_core::model::{parse_artifact, serialize_artifact, Artifact, ModelError, Provenance};
use cowriting_core::offset::CharRange;
use cowriting_workspace::error::{Error, Result};
use cowriting_workspace::fsutil;
use cowriting_workspace::workspace::{is_document_name, Workspace, SIDECAR_DIR};
use indexmap::{IndexMap, IndexSet};
use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt;
use std::path::{Path, PathBuf};

type Obj = Map<String, Value>;

// ---- the merge ---------------------------------------------------------------------

/// Which version a resolved conflict kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    Ours,
    Theirs,
    /// Both sides' changes were combined (`lineHint`).
    Both,
}

impl Winner {
    fn of(ours: bool) -> Winner {
        if ours {
            Winner::Ours
        } else {
            Winner::Theirs
        }
    }

    fn word(self) -> &'static str {
        match self {
            Winner::Ours => "ours",
            Winner::Theirs => "theirs",
            Winner::Both => "both",
        }
    }
}

/// One conflict the merge resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MergeNote {
    /// The record, e.g. `thread t_1` or `thread t_1 comment c_2`.
    pub record: String,
    /// The field inside the record (`status`, `fingerprint.lineHint`); empty when
    /// the whole record was kept or removed.
    pub field: String,
    pub winner: Winner,
    /// What each side did and why the winner won.
    pub why: String,
}

impl fmt::Display for MergeNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}: {}", self.record, self.why)
        } else {
            write!(f, "{} {}: {}", self.record, self.field, self.why)
        }
    }
}

/// The merged sidecar text and the conflicts resolved on the way.
#[derive(Clone, Debug)]
pub struct Merged {
    pub text: String,
    pub notes: Vec<MergeNote>,
}

/// Why [`merge_sidecars`] could not merge.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// `side` is `base`, `ours` or `theirs`.
    #[error("{side}: {source}")]
    Side { side: &'static str, source: ModelError },
    /// Cannot happen for valid sides; kept as a guard so a bad merge is never written.
    #[error("the merged sidecar would not be valid: {0}")]
    Invalid(ModelError),
}

/// Merge three versions of one sidecar by the rules of the module docs. `base` is
/// `None` (or empty) when the sidecar has no common ancestor.
pub fn merge_sidecars(base: Option<&str>, ours: &str, theirs: &str) -> Result<Merged, MergeError> {
    let parse = |side, text: &str| parse_artifact(text).map_err(|source| MergeError::Side { side, source });
    let base = base
        .filter(|t| !t.trim().is_empty())
        .map(|t| parse("base", t))
        .transpose()?;
    let ours = parse("ours", ours)?;
    let theirs = parse("theirs", theirs)?;
    let (b, o, t) = (base.as_ref().map(as_object), as_object(&ours), as_object(&theirs));
    let mut m = Merger::default();
    let merged = m.merge_top(b.as_ref(), &o, &t);
    let json = serde_json::to_string(&Value::Object(merged)).expect("a Value serializes");
    let mut artifact = parse_artifact(&json).map_err(MergeError::Invalid)?;
    artifact.prune_anchors();
    Ok(Merged {
        text: serialize_artifact(&artifact),
        notes: m.notes,
    })
}

fn as_object(a: &Artifact) -> Obj {
    match serde_json::to_value(a) {
        Ok(Value::Object(m)) => m,
        _ => unreachable!("an artifact serializes to an object"),
    }
}

/// The kinds of record, for the rules that differ between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Top,
    Anchor,
    Thread,
    Comment,
    Attribution,
    Proposal,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Top => "sidecar",
            Kind::Anchor => "anchor",
            Kind::Thread => "thread",
            Kind::Comment => "comment",
            Kind::Attribution => "attribution",
            Kind::Proposal => "proposal",
        }
    }
}

const RECORD_ARRAYS: [(&str, Kind); 3] = [
    ("threads", Kind::Thread),
    ("attributions", Kind::Attribution),
    ("proposals", Kind::Proposal),
];

#[derive(Default)]
struct Merger {
    notes: Vec<MergeNote>,
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_owned()
    } else {
        format!("{prefix}.{key}")
    }
}

/// A value for a one-line report.
fn show(v: &Value) -> String {
    let s = serde_json::to_string(v).unwrap_or_default();
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}

/// RFC 8785 bytes, then the compact form as a tie-break (two values can share a
/// canonical form, e.g. `1.0` and `1`).
fn canonical_key(v: &Value) -> (Vec<u8>, String) {
    (
        serde_json_canonicalizer::to_vec(v).unwrap_or_default(),
        serde_json::to_string(v).unwrap_or_default(),
    )
}

fn array<'a>(obj: Option<&'a Obj>, key: &str) -> &'a [Value] {
    obj.and_then(|o| o.get(key))
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Records keyed by id; a repeated id (which `check` reports) gets `#2`, `#3`… so
/// no record is lost.
fn keyed(records: &[Value]) -> IndexMap<String, &Value> {
    let mut out = IndexMap::with_capacity(records.len());
    for r in records {
        let id = r.get("id").and_then(Value::as_str).unwrap_or("").to_owned();
        let mut key = id.clone();
        let mut n = 1;
        while out.contains_key(&key) {
            n += 1;
            key = format!("{id}#{n}");
        }
        out.insert(key, r);
    }
    out
}

/// The order of records new on either side: `createdAt` (a thread's first
/// comment's), then id.
fn sort_key(kind: Kind, v: &Value) -> String {
    let created = match kind {
        Kind::Thread => v.pointer("/comments/0/createdAt"),
        _ => v.get("createdAt"),
    };
    created.and_then(Value::as_str).unwrap_or("").to_owned()
}

impl Merger {
    fn note(&mut self, record: &str, field: &str, winner: Winner, why: String) {
        self.notes.push(MergeNote {
            record: record.to_owned(),
            field: field.to_owned(),
            winner,
            why,
        });
    }

    fn merge_top(&mut self, b: Option<&Obj>, o: &Obj, t: &Obj) -> Obj {
        let skip = ["anchors", "threads", "attributions", "proposals"];
        let mut out = self.merge_object(Kind::Top, "sidecar", "", b, o, t, &skip);
        for (key, kind) in RECORD_ARRAYS {
            let records =
                self.merge_records(kind, "", array(b, key), array(Some(o), key), array(Some(t), key));
            out.insert(key.to_owned(), Value::Array(records));
        }
        let anchors = |a: Option<&Obj>| {
            a.and_then(|a| a.get("anchors"))
                .and_then(Value::as_object)
                .cloned()
        };
        let merged = self.merge_anchors(
            anchors(b),
            anchors(Some(o)).unwrap_or_default(),
            anchors(Some(t)).unwrap_or_default(),
            &out,
        );
        out.insert("anchors".to_owned(), Value::Object(merged));
        out
    }

    /// Three-way merge of two objects key by key. `skip` keys are left out.
    #[allow(clippy::too_many_arguments)]
    fn merge_object(
        &mut self,
        kind: Kind,
        record: &str,
        prefix: &str,
        b: Option<&Obj>,
        o: &Obj,
        t: &Obj,
        skip: &[&str],
    ) -> Obj {
        let keys: IndexSet<&String> = [b, Some(o), Some(t)]
            .into_iter()
            .flatten()
            .flat_map(|m| m.keys())
            .filter(|k| !skip.contains(&k.as_str()))
            .collect();
        let mut out = Obj::new();
        for key in keys {
            let path = join(prefix, key);
            let bv = b.and_then(|m| m.get(key));
            match (o.get(key), t.get(key)) {
                (Some(ov), Some(tv)) => {
                    let v = self.merge_value(kind, record, &path, bv, ov, tv);
                    out.insert(key.clone(), v);
                }
                (Some(v), None) | (None, Some(v)) => {
                    let kept = Winner::of(o.contains_key(key));
                    let removed = Winner::of(kept == Winner::Theirs);
                    match bv {
                        // Removed on one side, untouched on the other.
                        Some(bv) if bv == v => {}
                        Some(_) => {
                            self.note(
                                record,
                                &path,
                                kept,
                                format!(
                                    "removed on {}, changed on {}; kept {} ({}): a change is not lost to a removal",
                                    removed.word(),
                                    kept.word(),
                                    kept.word(),
                                    show(v)
                                ),
                            );
                            out.insert(key.clone(), v.clone());
                        }
                        None => {
                            out.insert(key.clone(), v.clone());
                        }
                    }
                }
                (None, None) => {}
            }
        }
        out
    }

    fn merge_value(
        &mut self,
        kind: Kind,
        record: &str,
        path: &str,
        b: Option<&Value>,
        o: &Value,
        t: &Value,
    ) -> Value {
        if o == t || b == Some(t) {
            return o.clone();
        }
        if b == Some(o) {
            return t.clone();
        }
        // Both changed, differently.
        if kind == Kind::Thread && path == "comments" {
            if let (Some(oa), Some(ta)) = (o.as_array(), t.as_array()) {
                let ba = b.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
                return Value::Array(self.merge_records(Kind::Comment, record, ba, oa, ta));
            }
        }
        if let (Value::Object(om), Value::Object(tm)) = (o, t) {
            // A provenance is one author: never half of one and half of another.
            if path != "author" {
                let bm = b.and_then(Value::as_object);
                return Value::Object(self.merge_object(kind, record, path, bm, om, tm, &[]));
            }
        }
        self.pick(kind, record, path, b, o, t)
    }

    /// A field both sides changed to different values (see the module docs).
    fn pick(
        &mut self,
        kind: Kind,
        record: &str,
        path: &str,
        b: Option<&Value>,
        o: &Value,
        t: &Value,
    ) -> Value {
        let both = match b {
            Some(b) => format!(
                "changed on both sides (base {}, ours {}, theirs {})",
                show(b),
                show(o),
                show(t)
            ),
            None => format!("added on both sides (ours {}, theirs {})", show(o), show(t)),
        };
        if kind == Kind::Thread && path == "status" {
            let open = Value::String("open".into());
            if *o == open || *t == open {
                let w = Winner::of(*o == open);
                self.note(
                    record,
                    path,
                    w,
                    format!("{both}; kept {}: an open thread stays open", w.word()),
                );
                return open;
            }
        }
        if kind == Kind::Anchor && path == "fingerprint.lineHint" {
            if let (Some(ov), Some(tv)) = (o.as_u64(), t.as_u64()) {
                let (v, how) = match b.and_then(Value::as_u64) {
                    Some(bv) => (
                        (ov as u128 + tv as u128)
                            .saturating_sub(bv as u128)
                            .min(u64::MAX as u128) as u64,
                        "both moves applied (ours + theirs − base)",
                    ),
                    None => (ov.max(tv), "the larger kept"),
                };
                self.note(record, path, Winner::Both, format!("{both}; {v}: {how}"));
                return Value::from(v);
            }
        }
        let w = Winner::of(canonical_key(o) > canonical_key(t));
        let v = if w == Winner::Ours { o } else { t };
        self.note(
            record,
            path,
            w,
            format!(
                "{both}; kept {}: the greater value in canonical JSON order wins, whichever branch is merged into which",
                w.word()
            ),
        );
        v.clone()
    }

    /// Records of one kind, by id. `parent` names the thread for comments.
    fn merge_records(
        &mut self,
        kind: Kind,
        parent: &str,
        b: &[Value],
        o: &[Value],
        t: &[Value],
    ) -> Vec<Value> {
        let (bm, om, tm) = (keyed(b), keyed(o), keyed(t));
        let label = |key: &str| {
            if parent.is_empty() {
                format!("{} {key}", kind.word())
            } else {
                format!("{parent} {} {key}", kind.word())
            }
        };
        let mut out = Vec::with_capacity(om.len().max(tm.len()));
        for (key, bv) in &bm {
            let record = label(key);
            match (om.get(key), tm.get(key)) {
                (Some(ov), Some(tv)) => out.push(self.merge_value(kind, &record, "", Some(bv), ov, tv)),
                (Some(v), None) | (None, Some(v)) => {
                    if v == bv {
                        continue; // removed on one side, untouched on the other
                    }
                    let changed = Winner::of(om.contains_key(key));
                    let removed = Winner::of(changed == Winner::Theirs);
                    let did = format!("removed on {}, changed on {}", removed.word(), changed.word());
                    match kind {
                        Kind::Proposal => self.note(
                            &record,
                            "",
                            removed,
                            format!("{did}; removed: a decided proposal stays decided (INV-13)"),
                        ),
                        Kind::Attribution => self.note(
                            &record,
                            "",
                            removed,
                            format!("{did}; removed: attributions are rebuilt from the text at each save, and that span is gone"),
                        ),
                        _ => {
                            self.note(
                                &record,
                                "",
                                changed,
                                format!("{did}; kept {}: a conversation someone added to is not dropped", changed.word()),
                            );
                            out.push((*v).clone());
                        }
                    }
                }
                (None, None) => {}
            }
        }
        let mut new: Vec<(String, String, Value)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for key in om.keys().chain(tm.keys()) {
            if bm.contains_key(key) || !seen.insert(key) {
                continue;
            }
            let v = match (om.get(key), tm.get(key)) {
                (Some(ov), Some(tv)) => self.merge_value(kind, &label(key), "", None, ov, tv),
                (Some(v), None) | (None, Some(v)) => (*v).clone(),
                (None, None) => continue,
            };
            new.push((sort_key(kind, &v), key.clone(), v));
        }
        new.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        out.extend(new.into_iter().map(|(_, _, v)| v));
        out
    }

    /// Anchors follow their records: those the merged records reference, the
    /// base's first (in its order), then the rest in order of first reference.
    fn merge_anchors(&mut self, b: Option<Obj>, o: Obj, t: Obj, merged: &Obj) -> Obj {
        let referenced: IndexSet<&str> = RECORD_ARRAYS
            .iter()
            .flat_map(|(key, _)| array(Some(merged), key))
            .filter_map(|r| r.get("anchorId").and_then(Value::as_str))
            .collect();
        let mut order: IndexSet<&str> = b
            .iter()
            .flat_map(|b| b.keys())
            .map(String::as_str)
            .filter(|k| referenced.contains(k))
            .collect();
        order.extend(referenced.iter().copied());
        let mut out = Obj::new();
        for id in order {
            let bv = b.as_ref().and_then(|b| b.get(id));
            let v = match (o.get(id), t.get(id)) {
                (Some(ov), Some(tv)) => {
                    self.merge_value(Kind::Anchor, &format!("anchor {id}"), "", bv, ov, tv)
                }
                (Some(v), None) | (None, Some(v)) => v.clone(),
                (None, None) => match bv {
                    Some(v) => v.clone(),
                    None => continue,
                },
            };
            out.insert(id.to_owned(), v);
        }
        out
    }
}

/// Read one side of a merge; `Ok(None)` for a missing file.
fn read_side(path: &Path, label: &str) -> Result<Option<String>> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(path)(e)),
    };
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| Error::CorruptSidecar {
            file: PathBuf::from(label),
            source: ModelError::Syntax {
                line: 1,
                column: 1,
                message: "not UTF-8".into(),
            },
        })
}

/// The merge driver: merge `base` (`%O`), `ours` (`%A`) and `theirs` (`%B`) and
/// write the result to `ours` atomically. `name` (`%P`) names the file in
/// messages. On any error `ours` is left untouched. Returns the resolved conflicts.
pub fn run_merge_driver(
    base: &Path,
    ours: &Path,
    theirs: &Path,
    name: Option<&str>,
) -> Result<Vec<MergeNote>> {
    let name = name.unwrap_or("sidecar");
    let label = |side: &str| format!("{name} ({side})");
    let b = read_side(base, &label("base"))?;
    let o = read_side(ours, &label("ours"))?
        .ok_or_else(|| Error::BadInput(format!("{}: no such file", ours.display())))?;
    let t = read_side(theirs, &label("theirs"))?
        .ok_or_else(|| Error::BadInput(format!("{}: no such file", theirs.display())))?;
    // The ledger's pending files merge by entry (see `ledger::merge_pending`).
    if cowriting_workspace::ledger::is_pending_file(&o) {
        let (text, notes) = cowriting_workspace::ledger::merge_pending(b.as_deref(), &o, &t)
            .map_err(|m| Error::BadInput(format!("{name}: {m}")))?;
        if text != o {
            fsutil::atomic_write(ours, text.as_bytes()).map_err(Error::io(ours))?;
        }
        return Ok(notes
            .into_iter()
            .map(|why| MergeNote {
                record: "suggestions".into(),
                field: String::new(),
                winner: Winner::Both,
                why,
            })
            .collect());
    }
    let merged = merge_sidecars(b.as_deref(), &o, &t).map_err(|e| match e {
        MergeError::Side { side, source } => Error::sidecar(PathBuf::from(label(side)), source),
        MergeError::Invalid(source) => Error::CorruptSidecar {
            file: PathBuf::from(label("merged")),
            source,
        },
    })?;
    if merged.text != o {
        fsutil::atomic_write(ours, merged.text.as_bytes()).map_err(Error::io(ours))?;
    }
    Ok(merged.notes)
}

// ---- git install -------------------------------------------------------------------

/// The merge driver's name in git config and `.gitattributes`.
pub const DRIVER_NAME: &str = "cowriting-sidecar";
/// The `.gitattributes` line that routes sidecars to the driver.
pub const ATTRIBUTES_LINE: &str = ".threads/**/*.json merge=cowriting-sidecar";
/// The lines for the contract ledger: pending files merge by entry (the same
/// driver), the decision log as the union of both sides' lines.
pub const LEDGER_ATTRIBUTES_LINES: [&str; 2] = [
    ".cowriting/suggestions/**/*.json merge=cowriting-sidecar",
    ".cowriting/decisions.jsonl merge=union",
];
/// The line that marks a hook as cowriting's own.
pub const HOOK_MARKER: &str = "# cowriting-hook: written by `cowriting git install`";
const HOOK_NAME: &str = "prepare-commit-msg";

/// What [`install`] did.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InstallReport {
    /// One line per step, for people.
    pub lines: Vec<String>,
    /// Whether any file or setting changed.
    pub changed: bool,
    /// A hook cowriting did not write, left untouched.
    pub foreign_hook: Option<PathBuf>,
}

/// `s` quoted for a POSIX shell when it needs it.
fn sh_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._+-,:@%=".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The command line the hook runs.
fn hook_command(exe: &str) -> String {
    format!("{} git hook {HOOK_NAME} \"$1\" \"$2\"", sh_quote(exe))
}

/// The hook script [`install`] writes for the executable `exe`.
pub fn hook_script(exe: &Path) -> String {
    let exe = exe.to_string_lossy();
    format!(
        "#!/bin/sh\n{HOOK_MARKER}\n# Adds Co-authored-by trailers for agent-written text this commit adds.\n[ -x {q} ] || exit 0\nexec {cmd}\n",
        q = sh_quote(&exe),
        cmd = hook_command(&exe),
    )
}

/// The `merge.cowriting-sidecar.driver` value for the executable `exe`.
pub fn driver_command(exe: &Path) -> String {
    format!("{} merge-sidecar %O %A %B %P", sh_quote(&exe.to_string_lossy()))
}

pub(crate) fn git_err(what: &str) -> impl FnOnce(git2::Error) -> Error + '_ {
    move |e| Error::BadInput(format!("{what}: {}", e.message()))
}

fn open_repo(dir: &Path) -> Result<git2::Repository> {
    git2::Repository::discover(dir).map_err(|e| {
        Error::BadInput(format!(
            "{}: not inside a git repository ({})",
            dir.display(),
            e.message()
        ))
    })
}

/// Set up the merge driver and the hook for the git repository that holds the
/// workspace `workspace`; `exe` is the cowriting executable they call.
pub fn install(workspace: &Path, exe: &Path) -> Result<InstallReport> {
    let repo = open_repo(workspace)?;
    let workdir = repo
        .workdir()
        .ok_or_else(|| {
            Error::BadInput(format!(
                "{}: a bare repository has no workspace",
                repo.path().display()
            ))
        })?
        .to_path_buf();
    let shown = |p: &Path| {
        let workdir = workdir.canonicalize().unwrap_or_else(|_| workdir.clone());
        p.strip_prefix(&workdir).unwrap_or(p).display().to_string()
    };
    let mut report = InstallReport {
        lines: Vec::new(),
        changed: false,
        foreign_hook: None,
    };

    // Every file this writes is checked first, so a refusal writes nothing:
    // .gitattributes through the workspace's guard (a symlinked or non-regular
    // one is refused, never followed, read or replaced), the hook through
    // `guard_hook`.
    let attrs = Workspace::open(workspace)?.internal_file(".gitattributes")?;
    let config = repo.config().map_err(git_err("git config"))?;
    let hooks = match config.get_path("core.hooksPath") {
        Ok(p) if p.is_absolute() => p,
        Ok(p) => workdir.join(p),
        Err(_) => repo.commondir().join("hooks"),
    };
    let hook = hooks.join(HOOK_NAME);
    guard_hook(&hooks, &hook, &workdir, repo.commondir())?;

    // 1. .gitattributes in the workspace folder (patterns are relative to it).
    let existing = match std::fs::read_to_string(&attrs) {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(Error::io(&attrs)(e)),
    };
    let mut text = existing.clone();
    for line in std::iter::once(ATTRIBUTES_LINE).chain(LEDGER_ATTRIBUTES_LINES) {
        if text.lines().any(|l| l.trim() == line) {
            report
                .lines
                .push(format!("{}: already has `{line}`", shown(&attrs)));
        } else {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(line);
            text.push('\n');
            report.lines.push(format!("{}: added `{line}`", shown(&attrs)));
        }
    }
    if text != existing {
        fsutil::atomic_write(&attrs, text.as_bytes()).map_err(Error::io(&attrs))?;
        report.changed = true;
    }

    // 2. The driver, in the repository's own config.
    let mut local = config
        .open_level(git2::ConfigLevel::Local)
        .map_err(git_err("git config (repository)"))?;
    for (key, value) in [
        (
            format!("merge.{DRIVER_NAME}.name"),
            "cowriting sidecar merge (by record id)".to_owned(),
        ),
        (format!("merge.{DRIVER_NAME}.driver"), driver_command(exe)),
    ] {
        if local.get_string(&key).ok().as_deref() == Some(value.as_str()) {
            report.lines.push(format!("git config {key}: already set"));
        } else {
            local.set_str(&key, &value).map_err(git_err(&key))?;
            report.lines.push(format!("git config {key} = {value}"));
            report.changed = true;
        }
    }

    // 3. The hook.
    let script = hook_script(exe);
    match std::fs::read(&hook) {
        Ok(bytes) if bytes == script.as_bytes() => {
            ensure_executable(&hook)?;
            report
                .lines
                .push(format!("hook {}: already installed", shown(&hook)));
        }
        Ok(bytes)
            if !String::from_utf8_lossy(&bytes)
                .lines()
                .any(|l| l.trim() == HOOK_MARKER) =>
        {
            report.lines.push(format!(
                "hook {}: a {HOOK_NAME} hook cowriting did not write is already there; left untouched. \
                 To add Co-authored-by trailers, call this from it: {}",
                shown(&hook),
                hook_command(&exe.to_string_lossy())
            ));
            report.foreign_hook = Some(hook);
        }
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(Error::io(&hook)(e)),
        found => {
            fsutil::atomic_write(&hook, script.as_bytes()).map_err(Error::io(&hook))?;
            ensure_executable(&hook)?;
            let did = if found.is_ok() { "updated" } else { "installed" };
            report.lines.push(format!("hook {}: {did}", shown(&hook)));
            report.changed = true;
        }
    }
    if !report.changed {
        report
            .lines
            .push("nothing changed: cowriting's git integration was already installed".into());
    }
    Ok(report)
}

/// Refuse to write the hook through a link: the hook file must be a regular
/// file (or missing), and the hooks folder a real folder (or missing). When the
/// folder lies in the work tree or in git's own folder, no component of it
/// below that may be a symlink either (a cloned repository must not point the
/// hook anywhere). A hooks folder elsewhere (an absolute `core.hooksPath`) is
/// the user's own choice; only its last component and the hook are checked.
fn guard_hook(hooks: &Path, hook: &Path, workdir: &Path, git_dir: &Path) -> Result<()> {
    let refuse = |path: &Path, what: String| {
        Err(Error::BadInput(format!(
            "{}: {what}; cowriting does not write its hook through it",
            path.display()
        )))
    };
    let bases: Vec<PathBuf> = [git_dir, workdir]
        .iter()
        .flat_map(|b| {
            [
                b.to_path_buf(),
                b.canonicalize().unwrap_or_else(|_| b.to_path_buf()),
            ]
        })
        .collect();
    let below = bases
        .iter()
        .find_map(|b| hooks.strip_prefix(b).ok().map(|rel| (b, rel)));
    let mut checked: Vec<PathBuf> = match below {
        Some((base, rel)) => {
            let mut p = base.to_path_buf();
            rel.components()
                .map(|c| {
                    p.push(c);
                    p.clone()
                })
                .collect()
        }
        None => vec![hooks.to_path_buf()],
    };
    checked.push(hook.to_path_buf());
    for (i, path) in checked.iter().enumerate() {
        let last = i + 1 == checked.len();
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => return refuse(path, "a symlink".into()),
            Ok(m) if last && !m.is_file() => return refuse(path, "not a regular file".into()),
            Ok(m) if !last && !m.is_dir() => return refuse(path, "not a folder".into()),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
            Err(e) => return Err(Error::io(path)(e)),
        }
    }
    Ok(())
}

#[cfg(unix)]
fn ensure_executable(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path).map_err(Error::io(path))?;
    if meta.permissions().mode() & 0o111 != 0o111 {
        let mode = meta.permissions().mode() | 0o755;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).map_err(Error::io(path))?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn ensure_executable(_path: &Path) -> Result<()> {
    Ok(())
}

// ---- Co-authored-by ----------------------------------------------------------------

/// The checkers built in that apply rules ([`writes_text`]).
pub const RULE_CHECKERS: [&str; 2] = ["harper", "vale"];

/// The rule checkers: the built-in ones and the user's external producers.
fn rule_checkers() -> Vec<String> {
    let mut all: Vec<String> = RULE_CHECKERS.map(String::from).into();
    if let Ok(cfg) = cowriting_workspace::config::Config::load() {
        all.extend(cfg.external.into_keys());
    }
    all
}

/// Whether `author` is an agent that writes text, and so a co-author of what it
/// wrote: a language model or an agent client (Claude, an MCP client, `propose
/// --agent`), not a rule checker (`checkers`: Harper, Vale, the user's external
/// producers) whose accepted fix is the writer's choice of a rule's correction.
/// A checker that names a model (an external producer backed by one) writes.
pub fn writes_text(author: &Provenance, checkers: &[String]) -> bool {
    if !author.is_agent() {
        return false;
    }
    let model = author
        .agent
        .as_ref()
        .and_then(|a| a.model.as_deref())
        .unwrap_or("");
    !model.trim().is_empty() || !checkers.iter().any(|c| c.eq_ignore_ascii_case(&author.id))
}

/// The trailer crediting `agent`: `Claude <noreply@anthropic.com>` for the agent id
/// `claude` or any model whose name contains `claude` (case-insensitively);
/// otherwise `<id> <id@users.noreply.cowriting>`, with the address part of the id
/// reduced to letters, digits, `.`, `_` and `-`.
pub fn co_author_trailer(agent: &Provenance) -> String {
    let model = agent
        .agent
        .as_ref()
        .and_then(|a| a.model.as_deref())
        .unwrap_or("");
    if agent.id.eq_ignore_ascii_case("claude") || model.to_ascii_lowercase().contains("claude") {
        return "Co-authored-by: Claude <noreply@anthropic.com>".to_owned();
    }
    let name: String = agent
        .id
        .chars()
        .filter(|c| !matches!(c, '<' | '>') && !c.is_control())
        .collect();
    let name = if name.trim().is_empty() {
        "agent"
    } else {
        name.trim()
    };
    let local: String = agent
        .id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let local = if local.trim_matches('-').is_empty() {
        "agent"
    } else {
        &local
    };
    format!("Co-authored-by: {name} <{local}@users.noreply.cowriting>")
}

/// Whether `line` is a trailer (`Token: value`).
fn is_trailer(line: &str) -> bool {
    match line.split_once(':') {
        Some((key, value)) => {
            !key.is_empty()
                && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && (value.is_empty() || value.starts_with(' '))
        }
        None => false,
    }
}

/// `Co-authored-by`'s address, lowercased, for spotting a trailer already there.
fn co_author_email(line: &str) -> Option<String> {
    let (key, value) = line.trim().split_once(':')?;
    if !key.trim().eq_ignore_ascii_case("co-authored-by") {
        return None;
    }
    let start = value.find('<')?;
    let end = value[start..].find('>')? + start;
    Some(value[start + 1..end].trim().to_ascii_lowercase())
}

/// A commit message with trailers added ([`add_trailers`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trailered {
    pub text: String,
    /// Trailers added to the message.
    pub added: Vec<String>,
    /// Trailers only suggested, as comment lines, because the message had no text.
    pub hinted: Vec<String>,
}

/// Add `trailers` to a commit message as `git interpret-trailers` would: after the
/// message's last non-comment line — joining its trailer block when the last
/// paragraph is one, else after a blank line — and before trailing comment lines
/// (and a `>8` scissors line). Trailers already present (the same `Co-authored-by`
/// address, any case) are not added.
///
/// A message with no text yet (an editor is about to open) gets the trailers as
/// *comment lines* to uncomment, not as text: a trailer alone would make git commit
/// an editor session the writer left without writing a message, instead of
/// aborting it as "empty".
pub fn add_trailers(message: &str, trailers: &[String], comment: char) -> Trailered {
    let is_comment = |l: &str| l.starts_with(comment);
    let scissors = format!("{comment} ------------------------ >8 ------------------------");
    let (body, tail) = match message.split('\n').position(|l| l == scissors) {
        Some(i) => {
            let at: usize = message.split('\n').take(i).map(|l| l.len() + 1).sum();
            message.split_at(at)
        }
        None => (message, ""),
    };
    let mut lines: Vec<&str> = body.split('\n').collect();
    let present: Vec<String> = lines
        .iter()
        .filter(|l| !is_comment(l))
        .filter_map(|l| co_author_email(l))
        .collect();
    let mut added: Vec<String> = Vec::new();
    for t in trailers {
        let email = co_author_email(t);
        let dup = email.as_ref().is_some_and(|e| present.contains(e))
            || added.iter().any(|a| a.eq_ignore_ascii_case(t))
            || lines.iter().any(|l| l.trim().eq_ignore_ascii_case(t));
        if !dup {
            added.push(t.clone());
        }
    }
    if added.is_empty() {
        return Trailered {
            text: message.to_owned(),
            added,
            hinted: Vec::new(),
        };
    }
    let mut hinted = Vec::new();
    let hints: Vec<String>;
    let content = |l: &str| !l.trim().is_empty() && !is_comment(l);
    match lines.iter().rposition(|l| content(l)) {
        None => {
            // No text yet: a blank subject line, then the trailers as comments.
            hints = std::iter::once(format!(
                "{comment} cowriting: this commit adds agent-written text; to credit it, uncomment:"
            ))
            .chain(added.iter().map(|t| format!("{comment} {t}")))
            .collect();
            let first_comment = lines.iter().position(|l| is_comment(l)).unwrap_or(lines.len());
            let mut v = vec!["", ""];
            v.extend(hints.iter().map(String::as_str));
            lines.splice(0..first_comment, v);
            hinted = std::mem::take(&mut added);
        }
        Some(last) => {
            let first = lines.iter().position(|l| content(l)).unwrap_or(0);
            let para_start = lines[..=last]
                .iter()
                .rposition(|l| l.trim().is_empty())
                .map_or(0, |i| i + 1);
            // The subject is never a trailer block, even when it looks like one.
            let block = para_start > first
                && lines[para_start..=last]
                    .iter()
                    .all(|l| is_trailer(l) || is_comment(l));
            let mut v: Vec<&str> = if block { Vec::new() } else { vec![""] };
            v.extend(added.iter().map(String::as_str));
            lines.splice(last + 1..last + 1, v);
        }
    }
    let mut out = lines.join("\n");
    if !out.ends_with('\n') && (body.ends_with('\n') || !tail.is_empty() || body.trim().is_empty()) {
        out.push('\n');
    }
    out.push_str(tail);
    Trailered {
        text: out,
        added,
        hinted,
    }
}

/// What the hook did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct HookReport {
    /// The trailers added to the message.
    pub added: Vec<String>,
    /// Trailers suggested as comment lines (the message had no text yet).
    pub hinted: Vec<String>,
    /// Problems that did not stop the commit (a sidecar that does not parse, …).
    pub warnings: Vec<String>,
}

/// The char ranges of `new` that a word diff from `old` marks as inserted.
fn inserted_ranges(old: &str, new: &str) -> Vec<CharRange> {
    let diff = similar::TextDiff::configure()
        .timeout(std::time::Duration::from_secs(2))
        .diff_unicode_words(old, new);
    let mut out: Vec<CharRange> = Vec::new();
    let mut pos = 0usize;
    for change in diff.iter_all_changes() {
        let n = change.value().chars().count();
        match change.tag() {
            similar::ChangeTag::Equal => pos += n,
            similar::ChangeTag::Delete => {}
            similar::ChangeTag::Insert => {
                match out.last_mut() {
                    Some(last) if last.end.0 == pos => last.end.0 += n,
                    _ => out.push(CharRange::new(pos, pos + n)),
                }
                pos += n;
            }
        }
    }
    out
}

/// The sidecar paths that may belong to the document at repository path `doc`,
/// nearest first: `a/b/.threads/c.md.json`, `a/.threads/b/c.md.json`,
/// `.threads/a/b/c.md.json`.
fn sidecar_candidates(doc: &str) -> Vec<String> {
    let parts: Vec<&str> = doc.split('/').collect();
    (0..parts.len())
        .rev()
        .map(|i| {
            let dir = parts[..i].join("/");
            let rest = parts[i..].join("/");
            if dir.is_empty() {
                format!("{SIDECAR_DIR}/{rest}.json")
            } else {
                format!("{dir}/{SIDECAR_DIR}/{rest}.json")
            }
        })
        .collect()
}

fn blob_text(repo: &git2::Repository, id: git2::Oid) -> std::result::Result<Option<Document>, String> {
    if id.is_zero() {
        return Ok(None);
    }
    let blob = repo.find_blob(id).map_err(|e| e.message().to_owned())?;
    Document::from_bytes(blob.content())
        .map(Some)
        .map_err(|e| e.to_string())
}

/// The `Co-authored-by` trailers for the agents whose attributed text the staged
/// changes (HEAD → `index`) add, in order of first appearance, and warnings.
pub fn staged_co_authors(repo: &git2::Repository, index: &git2::Index) -> Result<(Vec<String>, Vec<String>)> {
    let head = repo.head().ok().and_then(|h| h.peel_to_tree().ok());
    let diff = repo
        .diff_tree_to_index(head.as_ref(), Some(index), None)
        .map_err(git_err("git diff --cached"))?;
    let mut trailers: Vec<String> = Vec::new();
    let mut warnings = Vec::new();
    let checkers = rule_checkers();
    for delta in diff.deltas() {
        use git2::Delta;
        if !matches!(
            delta.status(),
            Delta::Added | Delta::Modified | Delta::Renamed | Delta::Copied | Delta::Typechange
        ) {
            continue;
        }
        let Some(path) = delta.new_file().path().and_then(Path::to_str) else {
            continue;
        };
        let name = path.rsplit('/').next().unwrap_or(path);
        if !is_document_name(name) || path.split('/').any(|p| p.starts_with('.') || p == "node_modules") {
            continue;
        }
        let Some(sidecar) = sidecar_candidates(path)
            .into_iter()
            .find_map(|c| index.get_path(Path::new(&c), 0).map(|e| (c, e.id)))
        else {
            continue;
        };
        let texts = blob_text(repo, delta.old_file().id()).and_then(|old| {
            blob_text(repo, delta.new_file().id()).map(|new| (old, new.unwrap_or_else(|| Document::new(""))))
        });
        let (old, new) = match texts {
            Ok(t) => t,
            Err(e) => {
                warnings.push(format!("{path}: {e}; skipped"));
                continue;
            }
        };
        let artifact = match repo
            .find_blob(sidecar.1)
            .map_err(|e| e.message().to_owned())
            .and_then(|b| {
                std::str::from_utf8(b.content())
                    .map_err(|_| "not UTF-8".to_owned())
                    .and_then(|s| parse_artifact(s).map_err(|e| e.to_string()))
            }) {
            Ok(a) => a,
            Err(e) => {
                warnings.push(format!("{}: {e}; skipped", sidecar.0));
                continue;
            }
        };
        let added = inserted_ranges(old.as_ref().map_or("", Document::text), new.text());
        if added.is_empty() {
            continue;
        }
        for at in artifact
            .attributions
            .iter()
            .filter(|a| writes_text(&a.author, &checkers))
        {
            let Some(fp) = artifact.fingerprint(&at.anchor_id) else {
                continue;
            };
            if let Resolution::Found(r) = resolve(&new, fp, None) {
                if added.iter().any(|a| a.overlaps(&r)) {
                    let t = co_author_trailer(&at.author);
                    if !trailers.contains(&t) {
                        trailers.push(t);
                    }
                }
            }
        }
    }
    Ok((trailers, warnings))
}

/// The hook: add the staged agents' trailers to the message in `msg_file`.
/// `source` is git's second argument (`message`, `template`, `merge`, `squash`,
/// `commit`, or none); merges are skipped.
pub fn prepare_commit_msg(
    repo: &git2::Repository,
    index: &git2::Index,
    msg_file: &Path,
    source: Option<&str>,
) -> Result<HookReport> {
    let mut report = HookReport::default();
    if source == Some("merge") {
        return Ok(report);
    }
    let (trailers, warnings) = staged_co_authors(repo, index)?;
    report.warnings = warnings;
    if trailers.is_empty() {
        return Ok(report);
    }
    let message = std::fs::read_to_string(msg_file).map_err(Error::io(msg_file))?;
    let comment = repo
        .config()
        .ok()
        .and_then(|c| c.get_string("core.commentChar").ok())
        .and_then(|s| s.chars().next())
        .filter(|c| *c != 'a') // "auto": git picks a char itself; '#' by default
        .unwrap_or('#');
    let edit = add_trailers(&message, &trailers, comment);
    if edit.text != message {
        fsutil::atomic_write(msg_file, edit.text.as_bytes()).map_err(Error::io(msg_file))?;
    }
    report.added = edit.added;
    report.hinted = edit.hinted;
    Ok(report)
}

/// [`prepare_commit_msg`] for the repository that holds `dir`, on the index git
/// names in `GIT_INDEX_FILE` (a partial or `-a` commit) or the repository's own.
pub fn run_prepare_commit_msg(dir: &Path, msg_file: &Path, source: Option<&str>) -> Result<HookReport> {
    let repo = open_repo(dir)?;
    let index = match std::env::var_os("GIT_INDEX_FILE") {
        Some(p) if !p.is_empty() => {
            let p = PathBuf::from(p);
            let p = if p.is_absolute() {
                p
            } else {
                std::env::current_dir().map(|d| d.join(&p)).unwrap_or(p)
            };
            git2::Index::open(&p).map_err(git_err(&p.display().to_string()))?
        }
        _ => repo.index().map_err(git_err("git index"))?,
    };
    prepare_commit_msg(&repo, &index, msg_file, source.filter(|s| !s.is_empty()))
}

/// The current branch's short name of the repository `dir` is in, or a short
/// commit id when its HEAD is detached; `None` outside a repository or before
/// the first commit.
pub fn branch(dir: &Path) -> Option<String> {
    let repo = git2::Repository::discover(dir).ok()?;
    let head = repo.head().ok()?;
    if head.is_branch() {
        return head.shorthand().map(str::to_owned);
    }
    head.target().map(|oid| oid.to_string()[..7].to_owned())
}

/// The work tree of the repository `dir` is in (canonical), if any.
pub fn work_tree_of(dir: &Path) -> Option<PathBuf> {
    git2::Repository::discover(dir)
        .ok()
        .and_then(|repo| repo.workdir().and_then(|w| w.canonicalize().ok()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_checkers_are_not_co_authors_agents_and_models_are() {
        use cowriting_core::model::AgentInfo;
        let agent = |id: &str, model: &str| {
            Provenance::agent(
                id,
                AgentInfo {
                    sdk: Some(format!("{id} 1.0")),
                    model: Some(model.to_owned()),
                    session_id: Some(String::new()),
                    extra: Default::default(),
                },
            )
        };
        let checkers: Vec<String> = ["harper", "vale", "house-style"].map(String::from).into();
        assert!(!writes_text(&agent("harper", ""), &checkers));
        assert!(!writes_text(&agent("Vale", ""), &checkers));
        assert!(!writes_text(&agent("house-style", ""), &checkers));
        assert!(
            writes_text(&agent("house-style", "gpt-x"), &checkers),
            "backed by a model"
        );
        assert!(writes_text(&agent("claude", "claude-sonnet-4"), &checkers));
        assert!(writes_text(&agent("claude-code", ""), &checkers), "an MCP agent");
        assert!(!writes_text(&Provenance::human("w@x"), &checkers));
    }

    #[test]
    fn trailers_go_after_a_blank_line_before_comments() {
        let t = vec!["Co-authored-by: Claude <noreply@anthropic.com>".to_owned()];
        assert_eq!(
            add_trailers("msg\n", &t, '#').text,
            "msg\n\nCo-authored-by: Claude <noreply@anthropic.com>\n"
        );
        assert_eq!(
            add_trailers("Subject\n\nBody.\n\n# Please enter\n#\n", &t, '#').text,
            "Subject\n\nBody.\n\nCo-authored-by: Claude <noreply@anthropic.com>\n\n# Please enter\n#\n"
        );
        // An existing trailer block is joined.
        assert_eq!(
            add_trailers("S\n\nSigned-off-by: A <a@x>\n", &t, '#').text,
            "S\n\nSigned-off-by: A <a@x>\nCo-authored-by: Claude <noreply@anthropic.com>\n"
        );
        // A subject that looks like a trailer is not a trailer block.
        assert_eq!(
            add_trailers("fix: bug\n", &t, '#').text,
            "fix: bug\n\nCo-authored-by: Claude <noreply@anthropic.com>\n"
        );
        // No text yet: suggested as comments, so an untouched editor still aborts.
        let edit = add_trailers("\n# Please enter\n", &t, '#');
        assert_eq!(
            edit.text,
            "\n\n# cowriting: this commit adds agent-written text; to credit it, uncomment:\n\
             # Co-authored-by: Claude <noreply@anthropic.com>\n# Please enter\n"
        );
        assert_eq!((edit.added.len(), edit.hinted.len()), (0, 1));
        // Scissors: the diff below is left alone.
        let s = "msg\n# ------------------------ >8 ------------------------\ndiff\n";
        assert_eq!(
            add_trailers(s, &t, '#').text,
            "msg\n\nCo-authored-by: Claude <noreply@anthropic.com>\n# ------------------------ >8 ------------------------\ndiff\n"
        );
        // Present already (any case): nothing added.
        let edit = add_trailers("msg\n\nco-authored-by: claude <NoReply@Anthropic.com>\n", &t, '#');
        assert!(edit.added.is_empty() && edit.hinted.is_empty());
        assert_eq!(
            edit.text,
            "msg\n\nco-authored-by: claude <NoReply@Anthropic.com>\n"
        );
    }

    #[test]
    fn trailer_names_follow_the_rule() {
        use cowriting_core::model::AgentInfo;
        let claude = Provenance::agent("claude", AgentInfo::default());
        assert_eq!(
            co_author_trailer(&claude),
            "Co-authored-by: Claude <noreply@anthropic.com>"
        );
        let by_model = Provenance::agent(
            "helper",
            AgentInfo {
                model: Some("Claude-Sonnet".into()),
                ..AgentInfo::default()
            },
        );
        assert_eq!(
            co_author_trailer(&by_model),
            "Co-authored-by: Claude <noreply@anthropic.com>"
        );
        let other = Provenance::agent("vale bot/1", AgentInfo::default());
        assert_eq!(
            co_author_trailer(&other),
            "Co-authored-by: vale bot/1 <vale-bot-1@users.noreply.cowriting>"
        );
    }

    #[test]
    fn inserted_ranges_are_in_chars() {
        let r = inserted_ranges("日本 text", "日本 new text é");
        let new = "日本 new text é";
        let got: Vec<String> = r
            .iter()
            .map(|r| new.chars().skip(r.start.0).take(r.len()).collect())
            .collect();
        assert_eq!(
            got.concat().split_whitespace().collect::<Vec<_>>(),
            vec!["new", "é"]
        );
    }

    #[test]
    fn sidecar_candidates_nearest_first() {
        assert_eq!(
            sidecar_candidates("a/b.md"),
            vec!["a/.threads/b.md.json", ".threads/a/b.md.json"]
        );
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(sh_quote("/usr/bin/cowriting"), "/usr/bin/cowriting");
        assert_eq!(sh_quote("/a b/it's"), "'/a b/it'\\''s'");
    }
}
