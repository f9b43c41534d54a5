//! Undo/redo history that lives in the core, not in any UI, so that undo can
//! restore review state (a decided proposal comes back pending) as well as text.
//!
//! Each [`Entry`] holds a change, its inverse, a snapshot `S` of the
//! position-bearing state from before it (taken once per entry, not per
//! keystroke), and the review operations it performed. Consecutive typing is
//! grouped: a typing change that continues the previous typing entry (touching
//! where it ended, within [`GROUP_WINDOW`]) is composed into it.

use crate::changeset::{ChangeSet, Operation};
use crate::contract::Outcome;
use crate::model::{Anchor, Proposal};
use std::time::{Duration, Instant};

/// Undo steps kept; older ones are forgotten.
pub const MAX_STEPS: usize = 1000;

/// Bytes of undo and redo state kept at most (each step's snapshot, its
/// changes' text, its decisions), roughly: past it the oldest undo steps are
/// forgotten, the newest always kept. A step's snapshot grew with the
/// document's attribution and review, so 1,000 steps of a document with
/// hundreds of accepted proposals held tens of MiB, growing with every
/// decision of a long session (issue 37); since the attribution spans share
/// the chunks no edit touched ([`crate::attribution::Spans`]), a snapshot
/// costs about its table of chunks and the chunk the next edit copies.
pub const MAX_BYTES: usize = 16 << 20;

/// Roughly how many bytes a snapshot holds, for [`MAX_BYTES`].
pub trait Weigh {
    fn weigh(&self) -> usize;
}

/// The bytes of a change: its operations and the text it inserts.
fn change_bytes(c: &ChangeSet) -> usize {
    c.ops()
        .iter()
        .map(|op| {
            std::mem::size_of::<Operation>()
                + match op {
                    Operation::Insert(t) => t.len(),
                    _ => 0,
                }
        })
        .sum()
}

/// Typing pauses longer than this start a new undo step.
pub const GROUP_WINDOW: Duration = Duration::from_millis(1000);

/// What kind of edit an entry is, for grouping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditKind {
    /// A keystroke: inserting or deleting a little text at the cursor. Grouped.
    Typing,
    /// Anything else (paste, replace, accept): its own undo step.
    Other,
}

/// A review decision an entry made, to be reversed on undo and redone on redo.
#[derive(Clone, Debug, PartialEq)]
pub enum ReviewOp {
    /// A proposal left `proposals[]` (accepted or rejected); undo puts it back,
    /// redo decides it again the same way.
    ProposalDecided {
        proposal: Proposal,
        anchor: Anchor,
        outcome: Outcome,
        chosen: Option<String>,
    },
}

#[derive(Clone, Debug)]
pub struct Entry<S> {
    pub change: ChangeSet,
    pub inverse: ChangeSet,
    pub before: S,
    /// Set when the entry is undone, so redo restores the state after it.
    pub after: Option<S>,
    pub review: Vec<ReviewOp>,
    kind: EditKind,
    at: Instant,
    sealed: bool,
    /// What it weighed when it was last put on a stack ([`Weigh`]).
    bytes: usize,
}

impl<S: Weigh> Entry<S> {
    fn weigh(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.before.weigh()
            + self.after.as_ref().map_or(0, Weigh::weigh)
            + change_bytes(&self.change)
            + change_bytes(&self.inverse)
            + self.review.len() * std::mem::size_of::<ReviewOp>()
    }
}

#[derive(Clone, Debug)]
pub struct History<S> {
    undo: Vec<Entry<S>>,
    redo: Vec<Entry<S>>,
    /// What the entries of both stacks weigh, for [`MAX_BYTES`].
    bytes: usize,
}

impl<S> Default for History<S> {
    fn default() -> Self {
        History {
            undo: Vec::new(),
            redo: Vec::new(),
            bytes: 0,
        }
    }
}

impl<S: Weigh> History<S> {
    /// Whether `change` would join the current typing group rather than start
    /// a new undo step. Ask before applying the change: a new step needs a
    /// snapshot of the state before it.
    pub fn joins_group(&self, change: &ChangeSet, kind: EditKind, has_review: bool) -> bool {
        if kind != EditKind::Typing || has_review {
            return false;
        }
        self.undo.last().is_some_and(|last| {
            !last.sealed
                && last.kind == EditKind::Typing
                && last.at.elapsed() < GROUP_WINDOW
                && last.change.len_after() == change.len()
                && continues(&last.change, change)
        })
    }

    /// Record a change applied to the document. `inverse` undoes it. `before` is
    /// the snapshot for a new step, or `None` when [`History::joins_group`] said
    /// the change joins the current typing group.
    pub fn record(
        &mut self,
        change: ChangeSet,
        inverse: ChangeSet,
        kind: EditKind,
        review: Vec<ReviewOp>,
        before: Option<S>,
    ) {
        for e in self.redo.drain(..) {
            self.bytes -= e.bytes;
        }
        let before = match before {
            Some(s) => s,
            None => {
                let last = self.undo.pop().expect("joins_group checked there is a group");
                self.bytes -= last.bytes;
                let mut last = last;
                last.change = last.change.compose(&change).expect("consecutive changes compose");
                last.inverse = inverse
                    .compose(&last.inverse)
                    .expect("consecutive inverses compose");
                last.at = Instant::now();
                self.put_undo(last);
                return;
            }
        };
        self.put_undo(Entry {
            change,
            inverse,
            before,
            after: None,
            review,
            kind,
            at: Instant::now(),
            sealed: kind != EditKind::Typing,
            bytes: 0,
        });
    }

    /// Push onto the undo stack, weighed; then forget the oldest steps past
    /// [`MAX_STEPS`] or [`MAX_BYTES`] (never the newest).
    fn put_undo(&mut self, mut entry: Entry<S>) {
        entry.bytes = entry.weigh();
        self.bytes += entry.bytes;
        self.undo.push(entry);
        let mut forget = 0;
        let mut bytes = self.bytes;
        while self.undo.len() - forget > 1 && (self.undo.len() - forget > MAX_STEPS || bytes > MAX_BYTES) {
            bytes -= self.undo[forget].bytes;
            forget += 1;
        }
        if forget > 0 {
            self.undo.drain(..forget);
            self.bytes = bytes;
        }
    }

    /// What the kept undo and redo state weighs, in bytes (see [`MAX_BYTES`]).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// How many undo steps are kept.
    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }

    /// Merge the last `n` undo entries into one step (e.g. "accept all of a turn").
    pub fn merge_last(&mut self, n: usize) {
        if n < 2 || n > self.undo.len() {
            return;
        }
        let tail: Vec<Entry<S>> = self.undo.drain(self.undo.len() - n..).collect();
        self.bytes -= tail.iter().map(|e| e.bytes).sum::<usize>();
        let mut iter = tail.into_iter();
        let mut merged = iter.next().expect("n >= 2");
        for e in iter {
            merged.change = merged
                .change
                .compose(&e.change)
                .expect("consecutive changes compose");
            merged.inverse = e
                .inverse
                .compose(&merged.inverse)
                .expect("consecutive inverses compose");
            merged.review.extend(e.review);
        }
        merged.sealed = true;
        merged.kind = EditKind::Other;
        self.put_undo(merged);
    }

    /// End the current typing group: the next keystroke starts a new undo step.
    pub fn seal(&mut self) {
        if let Some(last) = self.undo.last_mut() {
            last.sealed = true;
        }
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    pub fn pop_undo(&mut self) -> Option<Entry<S>> {
        let e = self.undo.pop()?;
        self.bytes -= e.bytes;
        Some(e)
    }

    pub fn push_redo(&mut self, mut entry: Entry<S>) {
        entry.sealed = true;
        entry.bytes = entry.weigh();
        self.bytes += entry.bytes;
        self.redo.push(entry);
    }

    pub fn pop_redo(&mut self) -> Option<Entry<S>> {
        let e = self.redo.pop()?;
        self.bytes -= e.bytes;
        Some(e)
    }

    pub fn push_undo(&mut self, mut entry: Entry<S>) {
        entry.sealed = true;
        self.put_undo(entry);
    }

    /// Forget everything (after a reload from disk replaced the text).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
        self.bytes = 0;
    }
}

/// Whether `next` (applying to the document `prev` produced) edits where `prev`
/// left off: the cursor position after `prev` is inside or at the edge of what
/// `next` touches.
fn continues(prev: &ChangeSet, next: &ChangeSet) -> bool {
    let (Some(p), Some(n)) = (prev.touched_range(), next.touched_range()) else {
        return false;
    };
    // End of prev's edit, in the document after prev.
    let inserted_end = prev.inserted_ranges().last().map(|r| r.end.0);
    let cursor = inserted_end.unwrap_or(p.start.0);
    n.start.0 <= cursor && cursor <= n.end.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::offset::CharRange;
    use ropey::Rope;

    impl Weigh for String {
        fn weigh(&self) -> usize {
            self.len()
        }
    }

    /// The bytes the stacks hold, recomputed from scratch.
    fn recount(h: &History<String>) -> usize {
        h.undo.iter().chain(&h.redo).map(Entry::weigh).sum()
    }

    #[test]
    fn heavy_snapshots_keep_fewer_steps_never_more_than_the_budget_and_the_newest_always() {
        let mut doc = Rope::from_str("a");
        let mut h = History::default();
        let heavy = "x".repeat(1 << 20);
        for i in 0..100 {
            let cs = ChangeSet::replace(doc.len_chars(), CharRange::point(0), "y").unwrap();
            let inv = cs.invert(&doc);
            cs.apply(&mut doc).unwrap();
            h.record(cs, inv, EditKind::Other, vec![], Some(format!("{i}{heavy}")));
            assert!(h.bytes() <= MAX_BYTES, "{} bytes after step {i}", h.bytes());
            assert_eq!(h.bytes(), recount(&h));
        }
        assert!((10..=16).contains(&h.undo_len()), "{} steps kept", h.undo_len());
        assert!(h.pop_undo().unwrap().before.starts_with("99x"), "the newest kept");
        // One snapshot over the whole budget is still kept: the last step can be undone.
        let mut h = History::default();
        let cs = ChangeSet::replace(1, CharRange::point(0), "y").unwrap();
        h.record(
            cs.clone(),
            cs,
            EditKind::Other,
            vec![],
            Some("x".repeat(MAX_BYTES + 1)),
        );
        assert_eq!(h.undo_len(), 1);
    }

    #[test]
    fn the_weight_kept_is_the_weight_held_through_any_sequence() {
        // A deterministic walk of record, typing, undo, redo, merge and clear.
        let mut doc = Rope::from_str("abc");
        let mut h: History<String> = History::default();
        let mut seed = 7u64;
        for step in 0..2_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            match (seed >> 33) % 7 {
                0 | 1 => {
                    let end = doc.len_chars();
                    typed(&mut doc, &mut h, end, "t")
                }
                2 => {
                    let cs = ChangeSet::replace(doc.len_chars(), CharRange::point(0), "o").unwrap();
                    let inv = cs.invert(&doc);
                    cs.apply(&mut doc).unwrap();
                    let weight = "w".repeat((seed >> 40) as usize % 200_000);
                    h.record(cs, inv, EditKind::Other, vec![], Some(weight));
                }
                3 => {
                    if let Some(mut e) = h.pop_undo() {
                        e.inverse.apply(&mut doc).unwrap();
                        e.after = Some("after".repeat(step % 50));
                        h.push_redo(e);
                    }
                }
                4 => {
                    if let Some(e) = h.pop_redo() {
                        e.change.apply(&mut doc).unwrap();
                        h.push_undo(e);
                    }
                }
                5 => h.merge_last(2),
                _ => {
                    if step % 97 == 0 {
                        h.clear();
                    } else {
                        h.seal();
                    }
                }
            }
            assert_eq!(h.bytes(), recount(&h), "step {step}");
            assert!(h.undo_len() <= MAX_STEPS);
        }
    }

    fn typed(doc: &mut Rope, h: &mut History<String>, at: usize, s: &str) {
        let cs = ChangeSet::replace(doc.len_chars(), CharRange::point(at), s).unwrap();
        let inv = cs.invert(doc);
        let before = (!h.joins_group(&cs, EditKind::Typing, false)).then(|| doc.to_string());
        cs.apply(doc).unwrap();
        h.record(cs, inv, EditKind::Typing, vec![], before);
    }

    #[test]
    fn consecutive_typing_is_one_step() {
        let mut doc = Rope::from_str("ab");
        let mut h = History::default();
        typed(&mut doc, &mut h, 1, "x");
        typed(&mut doc, &mut h, 2, "y");
        typed(&mut doc, &mut h, 3, "z");
        assert_eq!(doc.to_string(), "axyzb");
        let e = h.pop_undo().unwrap();
        assert!(!h.can_undo());
        e.inverse.apply(&mut doc).unwrap();
        assert_eq!(doc.to_string(), "ab");
        assert_eq!(e.before, "ab");
    }

    #[test]
    fn typing_elsewhere_or_after_seal_is_a_new_step() {
        let mut doc = Rope::from_str("abcdef");
        let mut h = History::default();
        typed(&mut doc, &mut h, 1, "x");
        typed(&mut doc, &mut h, 6, "y");
        h.seal();
        typed(&mut doc, &mut h, 7, "z");
        let mut steps = 0;
        while h.pop_undo().is_some() {
            steps += 1;
        }
        assert_eq!(steps, 3);
    }
}
