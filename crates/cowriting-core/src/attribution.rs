//! Attribution spans: who wrote which text.
//!
//! [`Spans`] is the live, in-session form of the sidecar's `attributions`: a
//! sorted list of non-overlapping char ranges, each with its author. Spans map
//! through every edit (they shrink and split; text typed right next to a span is
//! not part of it) and new text is [painted](Spans::paint) with its author. At
//! save each span becomes one attribution record with a fresh fingerprint.
//!
//! Invariants ([`Spans::check_invariants`]):
//! 1. every span is non-empty;
//! 2. spans are sorted by start and do not overlap;
//! 3. two touching spans never have the same author and turn (they are merged),
//!    unless both came from records on disk: those are never merged (each keeps
//!    its id, `createdAt` and unknown fields). New text of the same author next
//!    to one is merged into it (the record grows).
//!
//! Records read from disk are saved back in the order they were read
//! ([`Spans::in_record_order`]).

use crate::changeset::{ChangeSet, RangeAssoc};
use crate::model::{Extra, Provenance};
use crate::offset::{CharOffset, CharRange};
use std::sync::Arc;

/// Who wrote a span, and when.
#[derive(Clone, Debug, PartialEq)]
pub struct SpanAuthor {
    pub author: Provenance,
    pub turn_id: Option<String>,
    /// For accepted machine text: what the human asked for.
    pub instruction: Option<String>,
    pub created_at: String,
}

impl SpanAuthor {
    fn same(&self, other: &SpanAuthor) -> bool {
        self.author.same_author(&other.author) && self.turn_id == other.turn_id
    }
}

/// What a span loaded from a sidecar remembers of its record, so saving keeps
/// its id and the fields other writers put on it and its anchor.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RecordMeta {
    pub id: String,
    pub anchor_id: String,
    pub extra: Extra,
    pub anchor_extra: Extra,
    /// Unknown fields of the anchor's fingerprint.
    pub fingerprint_extra: Extra,
}

/// A span is small (a range and two shared pointers): every edit shifts the
/// spans after it, and every undo step keeps a copy of the list.
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    pub range: CharRange,
    pub who: Arc<SpanAuthor>,
    pub record: Option<Arc<RecordMeta>>,
}

/// See the module docs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spans {
    spans: Vec<Span>,
    /// The records of [`Spans::insert_loaded`], in the order they were read.
    loaded: Vec<Arc<RecordMeta>>,
}

impl Spans {
    pub fn new() -> Self {
        Spans::default()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Span> {
        self.spans.iter()
    }

    /// The spans in the order a save writes their records: by position, except
    /// that the spans of records read from disk keep among themselves the order
    /// they were read in (a load and save must not reorder the file).
    pub fn in_record_order(&self) -> Vec<&Span> {
        let mut out: Vec<&Span> = self.spans.iter().collect();
        if self.loaded.is_empty() {
            return out;
        }
        let ordinal: std::collections::HashMap<*const RecordMeta, usize> = self
            .loaded
            .iter()
            .enumerate()
            .map(|(i, r)| (Arc::as_ptr(r), i))
            .collect();
        let of = |s: &Span| {
            s.record
                .as_ref()
                .and_then(|r| ordinal.get(&Arc::as_ptr(r)).copied())
        };
        let slots: Vec<usize> = (0..out.len()).filter(|&i| of(out[i]).is_some()).collect();
        let mut read: Vec<&Span> = slots.iter().map(|&i| out[i]).collect();
        read.sort_by_key(|s| of(s));
        for (slot, span) in slots.into_iter().zip(read) {
            out[slot] = span;
        }
        out
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The span covering `pos`, if any.
    pub fn at(&self, pos: CharOffset) -> Option<&Span> {
        let i = self.spans.partition_point(|s| s.range.end <= pos);
        self.spans.get(i).filter(|s| s.range.start <= pos)
    }

    /// Map every span through `change`: spans shrink where text was deleted,
    /// split around text inserted inside them (the inserted text is not theirs
    /// until painted), and vanish when all their text is gone.
    pub fn map(&mut self, change: &ChangeSet) {
        let Some(touched) = change.touched_range() else {
            return;
        };
        let delta = change.len_after() as isize - change.len() as isize;
        let shift = |o: CharOffset| CharOffset((o.0 as isize + delta) as usize);
        // Spans wholly before the edit stay; wholly after it shift in place; only
        // the few it touches are rebuilt.
        let first = self.spans.partition_point(|s| s.range.end <= touched.start);
        let after = first + self.spans[first..].partition_point(|s| s.range.start < touched.end);
        for span in &mut self.spans[after..] {
            span.range = CharRange {
                start: shift(span.range.start),
                end: shift(span.range.end),
            };
        }
        let inserted = change.inserted_ranges();
        let mut rebuilt: Vec<Span> = Vec::with_capacity(after - first + 1);
        for span in &self.spans[first..after] {
            let Some(mapped) = change.map_range(span.range, RangeAssoc::Exclusive) else {
                continue;
            };
            // The mapped range minus the text inserted inside it.
            let mut cur = mapped.start;
            let mut record = span.record.clone();
            let mut push = |range: CharRange, out: &mut Vec<Span>| {
                out.push(Span {
                    range,
                    who: span.who.clone(),
                    record: record.take(),
                })
            };
            for ins in &inserted {
                if ins.end <= cur {
                    continue;
                }
                if ins.start >= mapped.end {
                    break;
                }
                if ins.start > cur {
                    push(
                        CharRange {
                            start: cur,
                            end: ins.start,
                        },
                        &mut rebuilt,
                    );
                }
                cur = cur.max(ins.end);
            }
            if cur < mapped.end {
                push(
                    CharRange {
                        start: cur,
                        end: mapped.end,
                    },
                    &mut rebuilt,
                );
            }
        }
        let n = rebuilt.len();
        self.spans.splice(first..after, rebuilt);
        // A deletion can bring two spans of one author together.
        self.merge_around(first.saturating_sub(1), first + n + 1);
        self.debug_check();
    }

    /// Give `range` to `who` (or to nobody), replacing whatever covered it.
    pub fn paint(&mut self, range: CharRange, who: Option<SpanAuthor>) {
        self.paint_shared(range, who.map(Arc::new));
    }

    /// [`Spans::paint`] with an author shared between several spans.
    pub fn paint_shared(&mut self, range: CharRange, who: Option<Arc<SpanAuthor>>) {
        self.paint_record(range, who, None);
    }

    /// [`Spans::paint_shared`], the new span carrying `record`.
    fn paint_record(
        &mut self,
        range: CharRange,
        who: Option<Arc<SpanAuthor>>,
        record: Option<Arc<RecordMeta>>,
    ) {
        if range.is_empty() {
            return;
        }
        let first = self.spans.partition_point(|s| s.range.end <= range.start);
        let mut last = first;
        while last < self.spans.len() && self.spans[last].range.start < range.end {
            last += 1;
        }
        let mut replacement: Vec<Span> = Vec::with_capacity(3);
        let removed: Vec<Span> = self.spans.drain(first..last).collect();
        if let Some(head) = removed.first() {
            if head.range.start < range.start {
                replacement.push(Span {
                    range: CharRange {
                        start: head.range.start,
                        end: range.start,
                    },
                    who: head.who.clone(),
                    record: head.record.clone(),
                });
            }
        }
        if let Some(who) = who {
            replacement.push(Span { range, who, record });
        }
        if let Some(tail) = removed.last() {
            if tail.range.end > range.end {
                let head_kept_record = tail.range.start < range.start;
                replacement.push(Span {
                    range: CharRange {
                        start: range.end,
                        end: tail.range.end,
                    },
                    who: tail.who.clone(),
                    record: if head_kept_record {
                        None
                    } else {
                        tail.record.clone()
                    },
                });
            }
        }
        let n = replacement.len();
        self.spans.splice(first..first, replacement);
        self.merge_around(first.saturating_sub(1), first + n + 1);
        self.debug_check();
    }

    /// Merge touching spans of one author and turn in `from..to` (never two
    /// that both have a record).
    fn merge_around(&mut self, from: usize, to: usize) {
        let to = to.min(self.spans.len());
        let mut i = from;
        let mut end = to;
        while i + 1 < end {
            let (a, b) = (&self.spans[i], &self.spans[i + 1]);
            if mergeable(a, b) {
                let b = self.spans.remove(i + 1);
                let a = &mut self.spans[i];
                a.range.end = b.range.end;
                if a.record.is_none() {
                    a.record = b.record;
                }
                end -= 1;
            } else {
                i += 1;
            }
        }
    }

    /// Add a span loaded from a sidecar (painted over anything it overlaps),
    /// with its record: it is never merged with another record's span.
    pub fn insert_loaded(&mut self, span: Span) {
        if let Some(record) = &span.record {
            self.loaded.push(record.clone());
        }
        self.paint_record(span.range, Some(span.who), span.record);
    }

    fn debug_check(&self) {
        if cfg!(debug_assertions) {
            self.check_invariants();
        }
    }

    /// Panics naming the invariant of the module docs that does not hold.
    pub fn check_invariants(&self) {
        for (i, s) in self.spans.iter().enumerate() {
            assert!(!s.range.is_empty(), "Spans invariant 1: span {i} is empty");
            if i > 0 {
                let p = &self.spans[i - 1];
                assert!(
                    p.range.end <= s.range.start,
                    "Spans invariant 2: spans {} and {i} overlap",
                    i - 1
                );
                assert!(
                    !mergeable(p, s),
                    "Spans invariant 3: spans {} and {i} touch with one author",
                    i - 1
                );
            }
        }
    }
}

/// Touching spans of one author and turn, at most one of them with a record.
fn mergeable(a: &Span, b: &Span) -> bool {
    a.range.end == b.range.start && a.who.same(&b.who) && !(a.record.is_some() && b.record.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(id: &str) -> SpanAuthor {
        SpanAuthor {
            author: Provenance::human(id),
            turn_id: None,
            instruction: None,
            created_at: "2026-01-01T00:00:00.000Z".into(),
        }
    }

    fn ranges(s: &Spans) -> Vec<(usize, usize, String)> {
        s.iter()
            .map(|s| (s.range.start.0, s.range.end.0, s.who.author.id.clone()))
            .collect()
    }

    #[test]
    fn paint_splits_and_merges() {
        let mut s = Spans::new();
        s.paint(CharRange::new(0, 10), Some(who("a")));
        s.paint(CharRange::new(3, 5), Some(who("b")));
        assert_eq!(
            ranges(&s),
            vec![(0, 3, "a".into()), (3, 5, "b".into()), (5, 10, "a".into())]
        );
        s.paint(CharRange::new(3, 5), Some(who("a")));
        assert_eq!(ranges(&s), vec![(0, 10, "a".into())]);
        s.paint(CharRange::new(2, 8), None);
        assert_eq!(ranges(&s), vec![(0, 2, "a".into()), (8, 10, "a".into())]);
    }

    #[test]
    fn insert_inside_splits_and_edges_do_not_grow() {
        let mut s = Spans::new();
        s.paint(CharRange::new(2, 6), Some(who("a")));
        // type 1 char inside at 4, and 1 char right after the end (at 6 → after mapping 7)
        let cs =
            ChangeSet::from_changes(8, [(CharRange::point(4), "x"), (CharRange::point(6), "y")]).unwrap();
        s.map(&cs);
        assert_eq!(ranges(&s), vec![(2, 4, "a".into()), (5, 7, "a".into())]);
    }

    #[test]
    fn delete_shrinks_and_removes() {
        let mut s = Spans::new();
        s.paint(CharRange::new(2, 6), Some(who("a")));
        s.paint(CharRange::new(8, 9), Some(who("b")));
        let cs = ChangeSet::replace(10, CharRange::new(4, 9), "").unwrap();
        s.map(&cs);
        assert_eq!(ranges(&s), vec![(2, 4, "a".into())]);
    }

    #[test]
    fn at_finds_the_covering_span() {
        let mut s = Spans::new();
        s.paint(CharRange::new(2, 4), Some(who("a")));
        assert!(s.at(CharOffset(1)).is_none());
        assert_eq!(s.at(CharOffset(3)).unwrap().who.author.id, "a");
        assert!(s.at(CharOffset(4)).is_none());
    }
}

#[cfg(test)]
mod loaded_tests {
    use super::*;

    fn who(id: &str) -> Arc<SpanAuthor> {
        Arc::new(SpanAuthor {
            author: Provenance::human(id),
            turn_id: Some("turn-1".into()),
            instruction: None,
            created_at: "2026-01-01T00:00:00.000Z".into(),
        })
    }

    fn record(id: &str) -> Option<Arc<RecordMeta>> {
        Some(Arc::new(RecordMeta {
            id: id.into(),
            ..RecordMeta::default()
        }))
    }

    fn ids(spans: &[&Span]) -> Vec<(usize, usize, Option<String>)> {
        spans
            .iter()
            .map(|s| {
                (
                    s.range.start.0,
                    s.range.end.0,
                    s.record.as_ref().map(|r| r.id.clone()),
                )
            })
            .collect()
    }

    #[test]
    fn touching_records_from_disk_are_never_merged_and_keep_their_order() {
        let mut s = Spans::new();
        let a = who("a");
        // Read out of position order: the second half first.
        s.insert_loaded(Span {
            range: CharRange::new(5, 10),
            who: a.clone(),
            record: record("at_2"),
        });
        s.insert_loaded(Span {
            range: CharRange::new(0, 5),
            who: a.clone(),
            record: record("at_1"),
        });
        s.check_invariants();
        assert_eq!(
            ids(&s.iter().collect::<Vec<_>>()),
            vec![(0, 5, Some("at_1".into())), (5, 10, Some("at_2".into()))]
        );
        assert_eq!(
            ids(&s.in_record_order()),
            vec![(5, 10, Some("at_2".into())), (0, 5, Some("at_1".into()))]
        );
        // New text of the same author next to one extends it (no new record)…
        s.paint_shared(CharRange::new(10, 12), Some(a.clone()));
        s.check_invariants();
        assert_eq!(
            ids(&s.iter().collect::<Vec<_>>()),
            vec![(0, 5, Some("at_1".into())), (5, 12, Some("at_2".into()))]
        );
        // …and a deletion that brings two records together does not merge them.
        let cs = ChangeSet::replace(12, CharRange::new(4, 6), "").unwrap();
        s.map(&cs);
        s.check_invariants();
        assert_eq!(
            ids(&s.in_record_order()),
            vec![(4, 10, Some("at_2".into())), (0, 4, Some("at_1".into()))]
        );
        // A new span between records is written where it sits.
        let cs = ChangeSet::replace(10, CharRange::point(4), "xy").unwrap();
        s.map(&cs);
        s.paint_shared(CharRange::new(4, 6), Some(who("b")));
        assert_eq!(
            ids(&s.in_record_order()),
            vec![
                (6, 12, Some("at_2".into())),
                (4, 6, None),
                (0, 4, Some("at_1".into()))
            ]
        );
    }
}
