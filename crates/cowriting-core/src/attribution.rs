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

/// A span is small (a range and two shared pointers).
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    pub range: CharRange,
    pub who: Arc<SpanAuthor>,
    pub record: Option<Arc<RecordMeta>>,
}

/// Spans a chunk holds when the list is cut into chunks again (a chunk an
/// edit touches is taken out, edited and cut again: at most twice this).
const CHUNK: usize = 32;

/// See the module docs.
///
/// The list is kept in chunks of spans, each shared ([`Arc`]) and stored with
/// its positions relative to a shift of its own: an edit shifts the chunks
/// after it by changing their shift, and copies only the chunks it touches.
/// So a copy of the list (every undo step keeps one) shares every chunk that
/// no edit since touched, and costs its table of chunks and the few chunks
/// edited after it, not the whole list (issue 37: 1,000 steps of a document
/// with hundreds of accepted proposals held most of a long session's growth).
#[derive(Clone, Debug, Default)]
pub struct Spans {
    chunks: Vec<Chunk>,
    len: usize,
    /// The records of [`Spans::insert_loaded`], in the order they were read
    /// (shared by copies too: only a load adds to it).
    loaded: Arc<Vec<Arc<RecordMeta>>>,
}

/// Spans whose positions are `stored + shift`.
#[derive(Clone, Debug)]
struct Chunk {
    shift: isize,
    spans: Arc<Vec<Span>>,
}

impl Chunk {
    fn new(spans: Vec<Span>) -> Chunk {
        Chunk {
            shift: 0,
            spans: Arc::new(spans),
        }
    }

    fn pos(&self, o: CharOffset) -> CharOffset {
        CharOffset((o.0 as isize + self.shift) as usize)
    }

    /// Its `i`th span, positioned.
    fn span(&self, i: usize) -> Span {
        let s = &self.spans[i];
        Span {
            range: CharRange {
                start: self.pos(s.range.start),
                end: self.pos(s.range.end),
            },
            who: s.who.clone(),
            record: s.record.clone(),
        }
    }

    fn end(&self) -> CharOffset {
        self.pos(self.spans.last().expect("a chunk is never empty").range.end)
    }
}

impl PartialEq for Spans {
    /// The same spans and records read, however they are cut into chunks.
    fn eq(&self, other: &Spans) -> bool {
        self.len == other.len && self.loaded == other.loaded && self.iter().eq(other.iter())
    }
}

impl Spans {
    pub fn new() -> Self {
        Spans::default()
    }

    /// The spans, in document order.
    pub fn iter(&self) -> impl Iterator<Item = Span> + '_ {
        self.chunks
            .iter()
            .flat_map(|c| (0..c.spans.len()).map(move |i| c.span(i)))
    }

    /// The spans in the order a save writes their records: by position, except
    /// that the spans of records read from disk keep among themselves the order
    /// they were read in (a load and save must not reorder the file).
    pub fn in_record_order(&self) -> Vec<Span> {
        let mut out: Vec<Span> = self.iter().collect();
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
        let slots: Vec<usize> = (0..out.len()).filter(|&i| of(&out[i]).is_some()).collect();
        let mut read: Vec<Span> = slots.iter().map(|&i| out[i].clone()).collect();
        read.sort_by_key(|s| of(s));
        for (slot, span) in slots.into_iter().zip(read) {
            out[slot] = span;
        }
        out
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// What a copy of the list costs beyond what it shares with the list it
    /// was copied from, roughly: its table of chunks, and about one chunk that
    /// the next edit copies (an undo step's share of the history's budget).
    pub fn copy_bytes(&self) -> usize {
        self.chunks.len() * std::mem::size_of::<Chunk>() + self.len.min(CHUNK) * std::mem::size_of::<Span>()
    }

    /// The index of the first span that ends after `pos` (`len` if none).
    fn first_ending_after(&self, pos: CharOffset) -> usize {
        let mut base = 0;
        for c in &self.chunks {
            if c.end() > pos {
                return base + c.spans.partition_point(|s| c.pos(s.range.end) <= pos);
            }
            base += c.spans.len();
        }
        base
    }

    /// How many spans from index `from` on start before `pos`.
    fn starting_before(&self, from: usize, pos: CharOffset) -> usize {
        let (mut at, mut n) = (0, 0);
        for c in &self.chunks {
            let len = c.spans.len();
            if at + len > from {
                let skip = from.saturating_sub(at);
                let k = c.spans[skip..].partition_point(|s| c.pos(s.range.start) < pos);
                n += k;
                if skip + k < len {
                    break;
                }
            }
            at += len;
        }
        n
    }

    /// The chunks that hold the spans `lo..hi` (at least the last one when
    /// `lo` is past the end), and the index of the first span of the first.
    fn chunks_of(&self, lo: usize, hi: usize) -> (usize, usize, usize) {
        let (mut c0, mut base) = (self.chunks.len(), self.len);
        let mut at = 0;
        for (i, c) in self.chunks.iter().enumerate() {
            if lo < at + c.spans.len() {
                (c0, base) = (i, at);
                break;
            }
            at += c.spans.len();
        }
        if c0 == self.chunks.len() && !self.chunks.is_empty() {
            // Past the end: the last chunk, for a new span to merge with.
            c0 -= 1;
            base -= self.chunks[c0].spans.len();
        }
        let mut c1 = c0;
        let mut end = base;
        while c1 < self.chunks.len() && (end < hi || c1 == c0) {
            end += self.chunks[c1].spans.len();
            c1 += 1;
        }
        (c0, c1, base)
    }

    /// The spans of chunks `c0..c1` out of the list, positioned, with the
    /// index of their first; [`Spans::put_back`] puts them back.
    fn take_out(&self, c0: usize, c1: usize) -> Vec<Span> {
        self.chunks[c0..c1]
            .iter()
            .flat_map(|c| (0..c.spans.len()).map(move |i| c.span(i)))
            .collect()
    }

    /// Put `window` in place of chunks `c0..c1`, cut into chunks again.
    fn put_back(&mut self, c0: usize, c1: usize, window: Vec<Span>) {
        let old: usize = self.chunks[c0..c1].iter().map(|c| c.spans.len()).sum();
        self.len = self.len - old + window.len();
        let pieces = window.len().div_ceil(CHUNK).max(1);
        let mut cut = Vec::with_capacity(pieces);
        if !window.is_empty() {
            let size = window.len().div_ceil(pieces);
            let mut rest = window.into_iter().peekable();
            while rest.peek().is_some() {
                cut.push(Chunk::new(rest.by_ref().take(size).collect()));
            }
        }
        self.chunks.splice(c0..c1, cut);
    }

    /// The span covering `pos`, if any.
    pub fn at(&self, pos: CharOffset) -> Option<Span> {
        let c = self.chunks.iter().find(|c| c.end() > pos)?;
        let i = c.spans.partition_point(|s| c.pos(s.range.end) <= pos);
        Some(c.span(i)).filter(|s| s.range.start <= pos)
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
        // the few it touches are rebuilt. The chunks wholly after it only
        // change their shift.
        let first = self.first_ending_after(touched.start);
        let after = first + self.starting_before(first, touched.end);
        let (c0, c1, base) = self.chunks_of(first.saturating_sub(1), (after + 1).min(self.len));
        for c in &mut self.chunks[c1..] {
            c.shift += delta;
        }
        let mut w = self.take_out(c0, c1);
        let (first, after) = (first - base, after - base);
        for span in &mut w[after..] {
            span.range = CharRange {
                start: shift(span.range.start),
                end: shift(span.range.end),
            };
        }
        let inserted = change.inserted_ranges();
        let mut rebuilt: Vec<Span> = Vec::with_capacity(after - first + 1);
        for span in &w[first..after] {
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
        w.splice(first..after, rebuilt);
        // A deletion can bring two spans of one author together.
        merge_around(&mut w, first.saturating_sub(1), first + n + 1);
        self.put_back(c0, c1, w);
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
        let first = self.first_ending_after(range.start);
        let last = first + self.starting_before(first, range.end);
        let (c0, c1, base) = self.chunks_of(first.saturating_sub(1), (last + 1).min(self.len));
        let mut w = self.take_out(c0, c1);
        let (first, last) = (first - base, last - base);
        let mut replacement: Vec<Span> = Vec::with_capacity(3);
        let removed: Vec<Span> = w.drain(first..last).collect();
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
        w.splice(first..first, replacement);
        merge_around(&mut w, first.saturating_sub(1), first + n + 1);
        self.put_back(c0, c1, w);
        self.debug_check();
    }

    /// Add a span loaded from a sidecar (painted over anything it overlaps),
    /// with its record: it is never merged with another record's span.
    pub fn insert_loaded(&mut self, span: Span) {
        if let Some(record) = &span.record {
            Arc::make_mut(&mut self.loaded).push(record.clone());
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
        assert!(
            self.chunks.iter().all(|c| !c.spans.is_empty()),
            "Spans: an empty chunk"
        );
        assert_eq!(
            self.chunks.iter().map(|c| c.spans.len()).sum::<usize>(),
            self.len,
            "Spans: the count is off"
        );
        let mut prev: Option<Span> = None;
        for (i, s) in self.iter().enumerate() {
            assert!(!s.range.is_empty(), "Spans invariant 1: span {i} is empty");
            if let Some(p) = &prev {
                assert!(
                    p.range.end <= s.range.start,
                    "Spans invariant 2: spans {} and {i} overlap",
                    i - 1
                );
                assert!(
                    !mergeable(p, &s),
                    "Spans invariant 3: spans {} and {i} touch with one author",
                    i - 1
                );
            }
            prev = Some(s);
        }
    }
}

/// Merge touching spans of one author and turn in `spans[from..to]` (never
/// two that both have a record).
fn merge_around(spans: &mut Vec<Span>, from: usize, to: usize) {
    let to = to.min(spans.len());
    let mut i = from;
    let mut end = to;
    while i + 1 < end {
        let (a, b) = (&spans[i], &spans[i + 1]);
        if mergeable(a, b) {
            let b = spans.remove(i + 1);
            let a = &mut spans[i];
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

    fn ids(spans: &[Span]) -> Vec<(usize, usize, Option<String>)> {
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
