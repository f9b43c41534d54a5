//! The sidecar merge driver (`cowriting merge-sidecar %O %A %B %P`): three
//! versions of a sidecar merged as records; the rules are in the crate docs.

use cowriting_core::model::{parse_artifact, serialize_artifact, Artifact, ModelError};
use cowriting_workspace::error::{Error, Result};
use cowriting_workspace::fsutil;
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
