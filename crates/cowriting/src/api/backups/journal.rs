//! The hot-exit journal: typing appends what changed instead of rewriting the
//! whole buffer.
//!
//! A document's backup is a snapshot (`<hash>.json`, a [`Backup`] carrying an
//! `epoch`) followed by a journal (`<hash>.jsonl`), one JSON line per backup
//! cycle in which only the text moved:
//!
//! ```text
//! {"epoch":E,"seq":1,"len":L,"change":[120,"typed",-3,4077],"spans":[[0,9,0],[14,20,1]]}
//! ```
//!
//! `change` is the [`ChangeSet`] from the text after line `seq - 1` (the
//! snapshot's text for line 1) to the text after this one, in chars: a positive
//! number keeps that many, a negative one deletes that many, a string inserts
//! it. `len` is the text's length after it. `spans` are the attribution spans
//! after it, each `[start, end, k]`: for `k` below the snapshot's number of
//! spans, the index of the snapshot's span whose author and record it carries
//! (a span typed into splits in two; both halves name the same `k`); above it,
//! the attribution `k - n` of the line's own `records` (a sidecar, as the
//! snapshot's), for text typed since the snapshot that has no record yet.
//!
//! A line is appended only when nothing but the text and the spans changed
//! since the snapshot: the same unsaved decisions, the same BOM, every span
//! with a record one of the snapshot's. Anything else (a decision, a save)
//! writes a new snapshot with a new epoch and removes the
//! journal; a journal longer than its snapshot (at least 64 KiB) does too.
//! Restoring replays the lines in order and stops at the first that does not
//! fit (a line a crash cut short, a journal of an older snapshot): what
//! replayed before it is kept.
//!
//! Measured on a 5 MB document (`cargo test --release -p cowriting --lib
//! journal_beats_rewriting -- --ignored --nocapture`): see docs/performance.md.

use cowriting_core::attribution::{RecordMeta, SpanAuthor};
use cowriting_core::changeset::{ChangeSet, Operation};
use cowriting_core::model::{parse_artifact, serialize_artifact, Artifact};
use cowriting_workspace::session::{Backup, Session, UnsavedMark};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The session tracker ([`Session::track`]) composing the changes since the
/// last line.
pub(super) const TRACKER: &str = "hot-exit journal";

/// A journal never grows past this or its snapshot's size, whichever is larger.
const MIN_LIMIT: usize = 64 * 1024;

/// A document's journal file beside its snapshot file.
pub(super) fn journal_of(snapshot: &Path) -> PathBuf {
    snapshot.with_extension("jsonl")
}

/// A fresh epoch: unique within this process, and across processes by the clock.
fn new_epoch() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ COUNTER.fetch_add(1, Ordering::Relaxed).rotate_left(48)).max(1)
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Op {
    /// Keep (positive) or delete (negative) that many chars.
    Count(i64),
    Insert(String),
}

#[derive(Serialize, Deserialize)]
struct Line {
    epoch: u64,
    seq: u64,
    len: usize,
    change: Vec<Op>,
    spans: Vec<[usize; 3]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    records: Option<String>,
}

fn encode(change: &ChangeSet) -> Vec<Op> {
    change
        .ops()
        .iter()
        .map(|op| match op {
            Operation::Retain(n) => Op::Count(*n as i64),
            Operation::Delete(n) => Op::Count(-(*n as i64)),
            Operation::Insert(s) => Op::Insert(s.clone()),
        })
        .collect()
}

fn decode(ops: &[Op]) -> Option<ChangeSet> {
    let mut cs = ChangeSet::default();
    for op in ops {
        match op {
            Op::Count(0) => return None,
            Op::Count(n) if *n > 0 => cs.retain(*n as usize),
            Op::Count(n) => cs.delete(n.unsigned_abs() as usize),
            Op::Insert(s) if s.is_empty() => return None,
            Op::Insert(s) => cs.insert(s),
        }
    }
    Some(cs)
}

/// Who a span is: the addresses of its author and record, by identity (spans
/// split or moved by edits keep theirs; nothing else makes one equal). As
/// numbers, not pointers: the API moves between threads.
type SpanKey = (usize, usize);

/// A document's journal as the writer knows it: what its snapshot held.
pub(super) struct Journal {
    epoch: u64,
    seq: u64,
    bytes: usize,
    limit: usize,
    unsaved: UnsavedMark,
    bom: bool,
    doc: String,
    /// The snapshot's spans by identity → their index. The Arcs are held so
    /// that no other span can take their addresses.
    spans: HashMap<SpanKey, usize>,
    held: Vec<(Arc<SpanAuthor>, Option<Arc<RecordMeta>>)>,
}

fn key(who: &Arc<SpanAuthor>, record: &Option<Arc<RecordMeta>>) -> SpanKey {
    (
        Arc::as_ptr(who) as usize,
        record.as_ref().map_or(0, |r| Arc::as_ptr(r) as usize),
    )
}

impl Journal {
    /// Start a journal after the snapshot `backup` of `s`, which gets its epoch.
    pub(super) fn start(s: &mut Session, backup: &mut Backup) -> Journal {
        backup.epoch = new_epoch();
        let doc = backup.doc.clone();
        let held: Vec<_> = s.spans().map(|sp| (sp.who.clone(), sp.record.clone())).collect();
        let mut spans = HashMap::with_capacity(held.len());
        for (i, (who, record)) in held.iter().enumerate() {
            spans.entry(key(who, record)).or_insert(i);
        }
        s.track(TRACKER);
        Journal {
            epoch: backup.epoch,
            seq: 0,
            bytes: 0,
            limit: MIN_LIMIT.max(backup.text.len()),
            unsaved: s.unsaved_mark(),
            bom: backup.bom,
            doc,
            spans,
            held,
        }
    }

    /// The line to append for what changed in `s` since the last one, or
    /// `None` when a new snapshot is due (see the module docs).
    pub(super) fn next_line(&mut self, s: &mut Session) -> Option<Vec<u8>> {
        if !s.is_dirty() || s.document().has_bom() != self.bom || s.unsaved_mark() != self.unsaved {
            return None;
        }
        let change = s.tracked_change(TRACKER)?;
        let len = s.document().len_chars();
        if change.len_after() != len {
            return None;
        }
        let known = self.held.len();
        let mut spans = Vec::new();
        let mut new = Vec::new();
        for sp in s.spans() {
            let (start, end) = (sp.range.start.0, sp.range.end.0);
            let k = match self.spans.get(&key(&sp.who, &sp.record)) {
                Some(k) => *k,
                None if sp.record.is_none() => {
                    new.push(sp);
                    known + new.len() - 1
                }
                None => return None,
            };
            spans.push([start, end, k]);
        }
        let seq = self.seq + 1;
        let records = (!new.is_empty()).then(|| {
            let mut records = Artifact::empty(&self.doc);
            s.add_span_records(&mut records, new, &format!("backup_{seq}_"));
            serialize_artifact(&records)
        });
        let line = Line {
            epoch: self.epoch,
            seq,
            len,
            change: encode(change),
            spans,
            records,
        };
        let mut bytes = serde_json::to_vec(&line).ok()?;
        bytes.push(b'\n');
        if self.bytes + bytes.len() > self.limit {
            return None;
        }
        self.seq += 1;
        self.bytes += bytes.len();
        s.track(TRACKER);
        Some(bytes)
    }
}

/// `backup` with the lines of `journal` that follow it applied: each line must
/// carry its epoch, the next seq, and fit the text; the first that does not
/// ends the replay (see the module docs).
pub(super) fn replay(mut backup: Backup, journal: &[u8]) -> Backup {
    if backup.epoch == 0 || journal.is_empty() {
        return backup;
    }
    let Ok(mut records) = parse_artifact(&backup.records) else {
        return backup;
    };
    let known = records.attributions.len();
    let mut text = backup.text.clone();
    let mut last: Option<(Vec<[usize; 3]>, Artifact)> = None;
    for (expected, raw) in (1..).zip(journal.split(|b| *b == b'\n')) {
        let Ok(line) = serde_json::from_slice::<Line>(raw) else {
            break;
        };
        if line.epoch != backup.epoch || line.seq != expected {
            break;
        }
        let own = match &line.records {
            Some(r) => match parse_artifact(r) {
                Ok(a) => a,
                Err(_) => break,
            },
            None => Artifact::empty(&backup.doc),
        };
        let Some(change) = decode(&line.change) else { break };
        let Ok(next) = change.apply_to_string(&text) else {
            break;
        };
        let fits = |[s, e, k]: &[usize; 3]| {
            s <= e
                && *e <= line.len
                && (*k < known
                    || own
                        .attributions
                        .get(k - known)
                        .is_some_and(|a| own.anchors.contains_key(&a.anchor_id)))
        };
        if change.len_after() != line.len || !line.spans.iter().all(fits) {
            break;
        }
        text = next;
        last = Some((line.spans, own));
    }
    if let Some((spans, own)) = last {
        let originals = std::mem::take(&mut records.attributions);
        for [_, _, k] in &spans {
            let at = if *k < known {
                originals[*k].clone()
            } else {
                let at = own.attributions[k - known].clone();
                records
                    .anchors
                    .insert(at.anchor_id.clone(), own.anchors[&at.anchor_id].clone());
                at
            };
            records.attributions.push(at);
        }
        backup.records = serialize_artifact(&records);
        backup.text = text;
        backup.spans = spans.iter().map(|[s, e, _]| [*s, *e]).collect();
    }
    backup
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_survives_the_line_encoding() {
        let mut cs = ChangeSet::default();
        cs.retain(3);
        cs.delete(2);
        cs.insert("é\u{2028}x");
        cs.retain(4);
        let json = serde_json::to_string(&encode(&cs)).unwrap();
        assert_eq!(json, r#"[3,"é\u2028x",-2,4]"#.replace("\\u2028", "\u{2028}"));
        let back: Vec<Op> = serde_json::from_str(&json).unwrap();
        assert_eq!(decode(&back).unwrap(), cs);
        assert!(
            decode(&[Op::Count(0)]).is_none(),
            "a zero-length step is no change"
        );
    }
}
