//! The one change type.
//!
//! An edit is a [`ChangeSet`]: a sequence of [`Operation`]s — retain, delete,
//! insert — counted in chars, that walks the whole old document. It
//! [applies](ChangeSet::apply) to a rope (refusing a length mismatch),
//! [inverts](ChangeSet::invert), [composes](ChangeSet::compose) with the change
//! that follows it, and [maps positions](ChangeSet::map_pos) from the old
//! document to the new one with a named [`Assoc`].
//!
//! Every position-bearing thing in the core (thread and proposal anchors,
//! attribution spans, cursors) maps through a ChangeSet in one place:
//! `Session::apply_change` (in the `cowriting` crate). CodeMirror 6 has the same shape, so a UI
//! transaction converts one to one (after UTF-16 → char conversion).
//!
//! Invariants (checked by [`ChangeSet::check_invariants`]):
//! 1. no operation has length zero;
//! 2. no two neighbouring operations have the same kind;
//! 3. where an insert and a delete touch, the insert comes first;
//! 4. `len` is the sum of retains and deletes, `len_after` of retains and inserts.

use crate::offset::{CharOffset, CharRange};
use ropey::Rope;
use thiserror::Error;

/// One step of a [`ChangeSet`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operation {
    /// Keep the next `n` chars.
    Retain(usize),
    /// Remove the next `n` chars.
    Delete(usize),
    /// Insert text here (its length is counted in chars).
    Insert(String),
}

/// Where a position goes when text is inserted exactly at it.
///
/// ```text
///   before the edit:   AˇB        (ˇ = the position)
///   insert "xy" at ˇ:
///     Assoc::Before    AˇxyB      the position stays before the new text
///     Assoc::After     AxyˇB      the position moves after the new text
/// ```
///
/// A range whose edges must not grow when someone types right next to it (an
/// attribution span, a proposal target) maps its start with `After` and its end
/// with `Before`: see [`RangeAssoc::Exclusive`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assoc {
    Before,
    After,
}

/// How the two edges of a range map. See [`ChangeSet::map_range`].
///
/// ```text
///   range:                 A«BC»D
///   type "x" before B and after C:
///     Exclusive            Ax«BC»xD   text typed at an edge is outside the range
///     Inclusive            A«xBCx»D   text typed at an edge joins the range
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeAssoc {
    /// Edges do not grow: start maps with [`Assoc::After`], end with [`Assoc::Before`].
    /// Used for attribution spans, thread anchors and proposal targets.
    Exclusive,
    /// Edges grow: start maps with [`Assoc::Before`], end with [`Assoc::After`].
    Inclusive,
}

/// A change does not fit the document it is applied to.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ChangeError {
    #[error("change expects a document of {expected} chars, but it has {actual}")]
    LengthMismatch { expected: usize, actual: usize },
    #[error("change range {start}..{end} is outside a document of {len} chars")]
    OutOfRange { start: usize, end: usize, len: usize },
    #[error("changes overlap or are out of order at char {at}")]
    Unordered { at: usize },
}

/// An edit of a whole document. See the module docs.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ChangeSet {
    ops: Vec<Operation>,
    len: usize,
    len_after: usize,
}

fn char_len(s: &str) -> usize {
    s.chars().count()
}

/// Byte index of the `n`-th char of `s` (or `s.len()` when `n` is the char count).
fn char_to_byte_idx(s: &str, n: usize) -> usize {
    s.char_indices().nth(n).map_or(s.len(), |(i, _)| i)
}

impl ChangeSet {
    /// The change that keeps a document of `len` chars as it is.
    pub fn identity(len: usize) -> Self {
        let mut cs = ChangeSet::default();
        cs.retain(len);
        cs
    }

    /// Replace `range` of a document of `len` chars with `text`.
    pub fn replace(len: usize, range: CharRange, text: &str) -> Result<Self, ChangeError> {
        Self::from_changes(len, [(range, text)])
    }

    /// Build a change from replacements given in document order (old coordinates).
    /// Ranges must be in order and must not overlap (touching is fine).
    pub fn from_changes<'a, I>(len: usize, changes: I) -> Result<Self, ChangeError>
    where
        I: IntoIterator<Item = (CharRange, &'a str)>,
    {
        let mut cs = ChangeSet::default();
        let mut pos = 0;
        for (range, text) in changes {
            let (start, end) = (range.start.0, range.end.0);
            if start > end || end > len {
                return Err(ChangeError::OutOfRange { start, end, len });
            }
            if start < pos {
                return Err(ChangeError::Unordered { at: start });
            }
            cs.retain(start - pos);
            cs.insert(text);
            cs.delete(end - start);
            pos = end;
        }
        cs.retain(len - pos);
        Ok(cs)
    }

    /// Append: keep the next `n` chars.
    pub fn retain(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        self.len += n;
        self.len_after += n;
        if let Some(Operation::Retain(m)) = self.ops.last_mut() {
            *m += n;
        } else {
            self.ops.push(Operation::Retain(n));
        }
    }

    /// Append: delete the next `n` chars.
    pub fn delete(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        self.len += n;
        if let Some(Operation::Delete(m)) = self.ops.last_mut() {
            *m += n;
        } else {
            self.ops.push(Operation::Delete(n));
        }
    }

    /// Append: insert `text`. Keeps the canonical order (insert before delete).
    pub fn insert(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.len_after += char_len(text);
        let n = self.ops.len();
        match self.ops.as_mut_slice() {
            [.., Operation::Insert(prev)] => prev.push_str(text),
            [.., Operation::Insert(prev), Operation::Delete(_)] => prev.push_str(text),
            [.., Operation::Delete(_)] => self.ops.insert(n - 1, Operation::Insert(text.to_owned())),
            _ => self.ops.push(Operation::Insert(text.to_owned())),
        }
    }

    pub fn ops(&self) -> &[Operation] {
        &self.ops
    }

    /// Length in chars of the document this change applies to.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Length in chars of the document after the change.
    pub fn len_after(&self) -> usize {
        self.len_after
    }

    /// True when the change leaves every document it applies to as it was.
    pub fn is_identity(&self) -> bool {
        self.ops.iter().all(|op| matches!(op, Operation::Retain(_)))
    }

    /// True only for the change of an empty document into an empty document.
    pub fn is_empty(&self) -> bool {
        self.len == 0 && self.len_after == 0
    }

    /// Apply to `rope`. Refuses (and leaves the rope untouched) when the rope's
    /// length is not the length this change was built for.
    pub fn apply(&self, rope: &mut Rope) -> Result<(), ChangeError> {
        if rope.len_chars() != self.len {
            return Err(ChangeError::LengthMismatch {
                expected: self.len,
                actual: rope.len_chars(),
            });
        }
        let mut pos = 0;
        for op in &self.ops {
            match op {
                Operation::Retain(n) => pos += n,
                Operation::Delete(n) => rope.remove(pos..pos + n),
                Operation::Insert(s) => {
                    rope.insert(pos, s);
                    pos += char_len(s);
                }
            }
        }
        Ok(())
    }

    /// Apply to a plain string (used by tests and by the naive benchmarks).
    pub fn apply_to_string(&self, s: &str) -> Result<String, ChangeError> {
        let actual = char_len(s);
        if actual != self.len {
            return Err(ChangeError::LengthMismatch {
                expected: self.len,
                actual,
            });
        }
        let mut out = String::with_capacity(s.len());
        let mut rest = s;
        for op in &self.ops {
            match op {
                Operation::Retain(n) => {
                    let b = char_to_byte_idx(rest, *n);
                    out.push_str(&rest[..b]);
                    rest = &rest[b..];
                }
                Operation::Delete(n) => rest = &rest[char_to_byte_idx(rest, *n)..],
                Operation::Insert(t) => out.push_str(t),
            }
        }
        Ok(out)
    }

    /// The change that undoes this one. `original` is the document *before* this
    /// change was applied.
    pub fn invert(&self, original: &Rope) -> ChangeSet {
        debug_assert_eq!(original.len_chars(), self.len);
        let mut inv = ChangeSet::default();
        let mut pos = 0;
        for op in &self.ops {
            match op {
                Operation::Retain(n) => {
                    inv.retain(*n);
                    pos += n;
                }
                Operation::Delete(n) => {
                    let removed: String = original.slice(pos..pos + n).into();
                    inv.insert(&removed);
                    pos += n;
                }
                Operation::Insert(s) => inv.delete(char_len(s)),
            }
        }
        inv
    }

    /// The single change equal to applying `self` and then `next`.
    /// `next` must apply to the document `self` produces.
    pub fn compose(&self, next: &ChangeSet) -> Result<ChangeSet, ChangeError> {
        if self.len_after != next.len {
            return Err(ChangeError::LengthMismatch {
                expected: next.len,
                actual: self.len_after,
            });
        }
        let mut out = ChangeSet::default();
        let mut a_iter = self.ops.iter().cloned();
        let mut b_iter = next.ops.iter().cloned();
        let mut a = a_iter.next();
        let mut b = b_iter.next();
        loop {
            match (a.take(), b.take()) {
                (None, None) => break,
                (Some(Operation::Delete(n)), bb) => {
                    out.delete(n);
                    a = a_iter.next();
                    b = bb;
                }
                (aa, Some(Operation::Insert(s))) => {
                    out.insert(&s);
                    a = aa;
                    b = b_iter.next();
                }
                (None, _) | (_, None) => unreachable!("lengths were checked"),
                (Some(Operation::Retain(i)), Some(Operation::Retain(j))) => {
                    let m = i.min(j);
                    out.retain(m);
                    a = if i > m {
                        Some(Operation::Retain(i - m))
                    } else {
                        a_iter.next()
                    };
                    b = if j > m {
                        Some(Operation::Retain(j - m))
                    } else {
                        b_iter.next()
                    };
                }
                (Some(Operation::Retain(i)), Some(Operation::Delete(j))) => {
                    let m = i.min(j);
                    out.delete(m);
                    a = if i > m {
                        Some(Operation::Retain(i - m))
                    } else {
                        a_iter.next()
                    };
                    b = if j > m {
                        Some(Operation::Delete(j - m))
                    } else {
                        b_iter.next()
                    };
                }
                (Some(Operation::Insert(s)), Some(Operation::Retain(j))) => {
                    let n = char_len(&s);
                    let m = n.min(j);
                    let split = char_to_byte_idx(&s, m);
                    out.insert(&s[..split]);
                    a = if n > m {
                        Some(Operation::Insert(s[split..].to_owned()))
                    } else {
                        a_iter.next()
                    };
                    b = if j > m {
                        Some(Operation::Retain(j - m))
                    } else {
                        b_iter.next()
                    };
                }
                (Some(Operation::Insert(s)), Some(Operation::Delete(j))) => {
                    // Text inserted by `self` and deleted by `next` never existed.
                    let n = char_len(&s);
                    let m = n.min(j);
                    let split = char_to_byte_idx(&s, m);
                    a = if n > m {
                        Some(Operation::Insert(s[split..].to_owned()))
                    } else {
                        a_iter.next()
                    };
                    b = if j > m {
                        Some(Operation::Delete(j - m))
                    } else {
                        b_iter.next()
                    };
                }
            }
        }
        debug_assert_eq!(out.len, self.len);
        Ok(out)
    }

    /// Map a position in the old document to the new one.
    ///
    /// A position inside deleted text moves to where the deletion was; a position
    /// where text is inserted — or inside text that an insert replaces — goes
    /// before or after the new text as `assoc` says (as CodeMirror's `mapPos`
    /// does). Positions past the end are clamped to the end.
    pub fn map_pos(&self, pos: CharOffset, assoc: Assoc) -> CharOffset {
        let mut pos = pos.0.min(self.len);
        let mut old = 0;
        let mut new = 0;
        for (i, op) in self.ops.iter().enumerate() {
            match op {
                Operation::Retain(n) => {
                    if pos < old + n {
                        return CharOffset(new + (pos - old));
                    }
                    old += n;
                    new += n;
                }
                Operation::Delete(n) => {
                    old += n;
                    // A position inside the deleted text collapses to its end,
                    // which is the same place in the new document as its start.
                    pos = pos.max(old);
                }
                Operation::Insert(s) => {
                    // The text this insert replaces (a delete follows it, in canonical order).
                    let replaced = match self.ops.get(i + 1) {
                        Some(Operation::Delete(n)) => *n,
                        _ => 0,
                    };
                    // A position where the text goes, or inside the text it replaces,
                    // goes before or after the new text as `assoc` says.
                    if pos <= old + replaced && assoc == Assoc::Before {
                        return CharOffset(new);
                    }
                    new += char_len(s);
                }
            }
        }
        CharOffset(new + (pos - old))
    }

    /// Map a range; `None` when the change deleted every char of a non-empty range
    /// (the range collapsed). An empty range (an insertion point) maps to an
    /// empty range and is kept.
    pub fn map_range(&self, range: CharRange, assoc: RangeAssoc) -> Option<CharRange> {
        let (sa, ea) = match assoc {
            RangeAssoc::Exclusive => (Assoc::After, Assoc::Before),
            RangeAssoc::Inclusive => (Assoc::Before, Assoc::After),
        };
        if range.is_empty() {
            let p = self.map_pos(range.start, Assoc::Before);
            return Some(CharRange { start: p, end: p });
        }
        let start = self.map_pos(range.start, sa);
        let end = self.map_pos(range.end, ea);
        if end <= start {
            None
        } else {
            Some(CharRange { start, end })
        }
    }

    /// The ranges, in new-document chars, that this change inserted.
    pub fn inserted_ranges(&self) -> Vec<CharRange> {
        let mut out = Vec::new();
        let mut new = 0;
        for op in &self.ops {
            match op {
                Operation::Retain(n) => new += n,
                Operation::Delete(_) => {}
                Operation::Insert(s) => {
                    let n = char_len(s);
                    out.push(CharRange::new(new, new + n));
                    new += n;
                }
            }
        }
        out
    }

    /// The old-document range that this change touches (from the first
    /// non-retain to the last), or `None` for an identity change.
    pub fn touched_range(&self) -> Option<CharRange> {
        let mut old = 0;
        let mut first = None;
        let mut last = 0;
        for op in &self.ops {
            match op {
                Operation::Retain(n) => old += n,
                Operation::Delete(n) => {
                    first.get_or_insert(old);
                    old += n;
                    last = old;
                }
                Operation::Insert(_) => {
                    first.get_or_insert(old);
                    last = old;
                }
            }
        }
        first.map(|f| CharRange::new(f, last))
    }

    /// Numbered invariants of the module docs. Panics with the number broken.
    pub fn check_invariants(&self) {
        let (mut len, mut after) = (0, 0);
        for (i, op) in self.ops.iter().enumerate() {
            match op {
                Operation::Retain(n) => {
                    assert!(*n > 0, "ChangeSet invariant 1: zero retain at {i}");
                    len += n;
                    after += n;
                }
                Operation::Delete(n) => {
                    assert!(*n > 0, "ChangeSet invariant 1: zero delete at {i}");
                    len += n;
                }
                Operation::Insert(s) => {
                    assert!(!s.is_empty(), "ChangeSet invariant 1: empty insert at {i}");
                    after += char_len(s);
                }
            }
            if i > 0 {
                let prev = &self.ops[i - 1];
                assert!(
                    std::mem::discriminant(prev) != std::mem::discriminant(op),
                    "ChangeSet invariant 2: two neighbouring ops of one kind at {i}"
                );
                assert!(
                    !(matches!(prev, Operation::Delete(_)) && matches!(op, Operation::Insert(_))),
                    "ChangeSet invariant 3: delete before insert at {i}"
                );
            }
        }
        assert_eq!(len, self.len, "ChangeSet invariant 4: len");
        assert_eq!(after, self.len_after, "ChangeSet invariant 4: len_after");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rope(s: &str) -> Rope {
        Rope::from_str(s)
    }

    #[test]
    fn replace_applies_and_inverts() {
        let mut r = rope("héllo wörld");
        let cs = ChangeSet::replace(11, CharRange::new(6, 11), "🌍!").unwrap();
        cs.check_invariants();
        let orig = r.clone();
        cs.apply(&mut r).unwrap();
        assert_eq!(r.to_string(), "héllo 🌍!");
        let inv = cs.invert(&orig);
        inv.check_invariants();
        inv.apply(&mut r).unwrap();
        assert_eq!(r.to_string(), "héllo wörld");
    }

    #[test]
    fn apply_refuses_length_mismatch_and_leaves_rope() {
        let mut r = rope("abc");
        let cs = ChangeSet::replace(4, CharRange::new(0, 1), "x").unwrap();
        assert_eq!(
            cs.apply(&mut r),
            Err(ChangeError::LengthMismatch {
                expected: 4,
                actual: 3
            })
        );
        assert_eq!(r.to_string(), "abc");
    }

    #[test]
    fn from_changes_refuses_overlap_and_out_of_range() {
        let r = ChangeSet::from_changes(5, [(CharRange::new(0, 3), "a"), (CharRange::new(2, 4), "b")]);
        assert_eq!(r, Err(ChangeError::Unordered { at: 2 }));
        let r = ChangeSet::replace(5, CharRange::new(3, 9), "a");
        assert_eq!(
            r,
            Err(ChangeError::OutOfRange {
                start: 3,
                end: 9,
                len: 5
            })
        );
    }

    #[test]
    fn insert_goes_before_delete() {
        let mut cs = ChangeSet::default();
        cs.retain(1);
        cs.delete(2);
        cs.insert("xy");
        cs.retain(1);
        assert_eq!(
            cs.ops(),
            &[
                Operation::Retain(1),
                Operation::Insert("xy".into()),
                Operation::Delete(2),
                Operation::Retain(1)
            ]
        );
        cs.check_invariants();
    }

    #[test]
    fn map_pos_assoc_at_insert() {
        // AˇB, insert "xy" at 1
        let cs = ChangeSet::replace(2, CharRange::point(1), "xy").unwrap();
        assert_eq!(cs.map_pos(CharOffset(1), Assoc::Before), CharOffset(1));
        assert_eq!(cs.map_pos(CharOffset(1), Assoc::After), CharOffset(3));
        assert_eq!(cs.map_pos(CharOffset(2), Assoc::Before), CharOffset(4));
        assert_eq!(cs.map_pos(CharOffset(0), Assoc::After), CharOffset(0));
    }

    #[test]
    fn map_pos_inside_deletion_collapses() {
        // abcdef, delete cd
        let cs = ChangeSet::replace(6, CharRange::new(2, 4), "").unwrap();
        for p in 2..=4 {
            assert_eq!(cs.map_pos(CharOffset(p), Assoc::Before), CharOffset(2));
        }
        assert_eq!(cs.map_pos(CharOffset(5), Assoc::Before), CharOffset(3));
    }

    #[test]
    fn map_range_exclusive_does_not_grow() {
        // A«BC»D, type x before B and after C
        let cs =
            ChangeSet::from_changes(4, [(CharRange::point(1), "x"), (CharRange::point(3), "x")]).unwrap();
        let r = CharRange::new(1, 3);
        assert_eq!(cs.map_range(r, RangeAssoc::Exclusive), Some(CharRange::new(2, 4)));
        assert_eq!(cs.map_range(r, RangeAssoc::Inclusive), Some(CharRange::new(1, 5)));
    }

    #[test]
    fn map_pos_inside_a_replacement_follows_assoc() {
        // abcdef, replace cde (2..5) with XY: a«bc»def → the end goes before XY.
        let cs = ChangeSet::replace(6, CharRange::new(2, 5), "XY").unwrap();
        assert_eq!(cs.map_pos(CharOffset(3), Assoc::Before), CharOffset(2));
        assert_eq!(cs.map_pos(CharOffset(3), Assoc::After), CharOffset(4));
        assert_eq!(cs.map_pos(CharOffset(5), Assoc::Before), CharOffset(2));
        assert_eq!(
            cs.map_range(CharRange::new(1, 3), RangeAssoc::Exclusive),
            Some(CharRange::new(1, 2))
        );
    }

    #[test]
    fn map_range_collapses_when_deleted() {
        let cs = ChangeSet::replace(6, CharRange::new(1, 5), "zz").unwrap();
        assert_eq!(cs.map_range(CharRange::new(2, 4), RangeAssoc::Exclusive), None);
    }

    #[test]
    fn compose_equals_sequential() {
        let a = ChangeSet::replace(5, CharRange::new(1, 3), "XYZ").unwrap();
        let b = ChangeSet::replace(6, CharRange::new(2, 5), "q").unwrap();
        let c = a.compose(&b).unwrap();
        c.check_invariants();
        let s = "abcde";
        let seq = b.apply_to_string(&a.apply_to_string(s).unwrap()).unwrap();
        assert_eq!(c.apply_to_string(s).unwrap(), seq);
    }

    #[test]
    fn touched_range_spans_all_edits() {
        let cs =
            ChangeSet::from_changes(10, [(CharRange::new(2, 3), "a"), (CharRange::point(7), "b")]).unwrap();
        assert_eq!(cs.touched_range(), Some(CharRange::new(2, 7)));
        assert_eq!(ChangeSet::identity(4).touched_range(), None);
    }
}
