//! Undo/redo history that lives in the core, not in any UI, so that undo can
//! restore review state (a decided proposal comes back pending) as well as text.
//!
//! Each [`Entry`] holds a change, its inverse, a snapshot `S` of the
//! position-bearing state from before it (taken once per entry, not per
//! keystroke), and the review operations it performed. Consecutive typing is
//! grouped: a typing change that continues the previous typing entry (touching
//! where it ended, within [`GROUP_WINDOW`]) is composed into it.

use crate::changeset::ChangeSet;
use crate::contract::Outcome;
use crate::model::{Anchor, Proposal};
use std::time::{Duration, Instant};

/// Undo steps kept; older ones are forgotten.
pub const MAX_STEPS: usize = 1000;

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
}

#[derive(Clone, Debug)]
pub struct History<S> {
    undo: Vec<Entry<S>>,
    redo: Vec<Entry<S>>,
}

impl<S> Default for History<S> {
    fn default() -> Self {
        History {
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }
}

impl<S> History<S> {
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
        self.redo.clear();
        let before = match before {
            Some(s) => s,
            None => {
                let last = self
                    .undo
                    .last_mut()
                    .expect("joins_group checked there is a group");
                last.change = last.change.compose(&change).expect("consecutive changes compose");
                last.inverse = inverse
                    .compose(&last.inverse)
                    .expect("consecutive inverses compose");
                last.at = Instant::now();
                return;
            }
        };
        self.undo.push(Entry {
            change,
            inverse,
            before,
            after: None,
            review,
            kind,
            at: Instant::now(),
            sealed: kind != EditKind::Typing,
        });
        if self.undo.len() > MAX_STEPS {
            self.undo.remove(0);
        }
    }

    /// Merge the last `n` undo entries into one step (e.g. "accept all of a turn").
    pub fn merge_last(&mut self, n: usize) {
        if n < 2 || n > self.undo.len() {
            return;
        }
        let tail: Vec<Entry<S>> = self.undo.drain(self.undo.len() - n..).collect();
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
        self.undo.push(merged);
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
        self.undo.pop()
    }

    pub fn push_redo(&mut self, mut entry: Entry<S>) {
        entry.sealed = true;
        self.redo.push(entry);
    }

    pub fn pop_redo(&mut self) -> Option<Entry<S>> {
        self.redo.pop()
    }

    pub fn push_undo(&mut self, mut entry: Entry<S>) {
        entry.sealed = true;
        self.undo.push(entry);
    }

    /// Forget everything (after a reload from disk replaced the text).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
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
