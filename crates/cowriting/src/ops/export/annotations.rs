//! Pure: the review data an export shows, as plain data with byte ranges of
//! the text, and where each piece goes ([`Layout`]).
//!
//! Neither CriticMarkup nor HTML's `<del>`/`<ins>`/`<mark>` nest well, so
//! the layout places marks that never overlap:
//!
//! - **Proposals** (pending ones; stale and orphaned ones have no exact text
//!   to mark) are placed first, in text order. A proposal whose target
//!   overlaps one already placed is not placed (accepting one would turn the
//!   other stale anyway): it is listed at the end, saying so. Insertions at the
//!   same point are all placed, in sidecar order.
//! - **Threads** (open ones) come next, in text order. A thread whose text
//!   overlaps no placed proposal and no earlier thread is highlighted with its
//!   comments after it. One that overlaps is not highlighted: its comments are
//!   placed as a bare comment right after its text, or, when that point falls
//!   inside another mark, right after that mark. A thread whose text cannot be
//!   found (orphaned) or was detached is listed at the end.

use std::ops::Range;

/// One comment of a thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// Who wrote it, as shown ("ada@example.com", "claude (claude-sonnet-4-5)").
    pub author: String,
    /// Its Markdown, as written (untrusted).
    pub body: String,
}

/// A pending proposal: its target's bytes in the text, and what would replace them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub range: Range<usize>,
    pub replacement: String,
    /// Who proposed it, as shown.
    pub author: String,
    /// Why, when the producer said (a rule's message, an instruction).
    pub reason: Option<String>,
}

/// An open thread: its text's bytes when it is placed, and its comments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub range: Option<Range<usize>>,
    /// The text as it was commented on (for a thread that is not placed).
    pub anchored_text: String,
    pub comments: Vec<Comment>,
}

/// A proposal that has no exact place in the text (stale or orphaned).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LostEdit {
    pub target: String,
    pub replacement: String,
    pub author: String,
    /// Why it is not placed, in words.
    pub why: String,
}

/// What an export with review data shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    pub edits: Vec<Edit>,
    pub notes: Vec<Note>,
    pub lost_edits: Vec<LostEdit>,
}

/// What a placed mark is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// `review.edits[i]` over its target (an empty range: an insertion).
    Edit(usize),
    /// `review.notes[i]` highlighted over its text, its comments after.
    Highlight(usize),
    /// `review.notes[i]`'s comments alone, at a point (the range is empty).
    Comment(usize),
}

/// A mark and the bytes of the text it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    pub range: Range<usize>,
    pub mark: Mark,
}

/// Where the review goes: marks that never overlap, in text order, and what
/// could not be placed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// Sorted by start; at one point, a bare comment (about the text before it)
    /// comes before an insertion, which comes before a mark starting there.
    pub placed: Vec<Placed>,
    /// Pending proposals not placed because they overlap one that is, by index.
    pub overlapping_edits: Vec<usize>,
    /// Threads not placed (orphaned or detached), by index.
    pub unplaced_notes: Vec<usize>,
}

impl Layout {
    /// Lay out `review` over a text of `len` bytes. Ranges past `len` or
    /// reversed are treated as not placed.
    pub fn of(review: &Annotations, len: usize) -> Layout {
        let mut out = Layout::default();
        let valid = |r: &Range<usize>| r.start <= r.end && r.end <= len;

        let mut edits: Vec<usize> = (0..review.edits.len()).collect();
        edits.sort_by_key(|&i| (review.edits[i].range.start, review.edits[i].range.end, i));
        let mut taken: Vec<Range<usize>> = Vec::new();
        for i in edits {
            let r = &review.edits[i].range;
            if !valid(r) || taken.iter().any(|t| overlaps(t, r)) {
                out.overlapping_edits.push(i);
            } else {
                taken.push(r.clone());
                out.placed.push(Placed {
                    range: r.clone(),
                    mark: Mark::Edit(i),
                });
            }
        }

        let mut notes: Vec<usize> = Vec::new();
        for (i, n) in review.notes.iter().enumerate() {
            match &n.range {
                Some(r) if valid(r) => notes.push(i),
                _ => out.unplaced_notes.push(i),
            }
        }
        notes.sort_by_key(|&i| {
            let r = review.notes[i].range.as_ref().expect("placed notes have a range");
            (r.start, r.end, i)
        });
        let mut points: Vec<(usize, usize)> = Vec::new();
        for i in notes {
            let r = review.notes[i].range.clone().expect("placed notes have a range");
            if !r.is_empty() && !taken.iter().any(|t| overlaps(t, &r) || touches_inside(t, &r)) {
                taken.push(r.clone());
                out.placed.push(Placed {
                    range: r,
                    mark: Mark::Highlight(i),
                });
            } else {
                points.push((r.end, i));
            }
        }
        // Bare comments: after their text, moved past any mark they would
        // fall inside (marks placed later never cover them: highlights are
        // all placed by now).
        for (mut at, i) in points {
            while let Some(t) = taken.iter().find(|t| t.start < at && at < t.end) {
                at = t.end;
            }
            out.placed.push(Placed {
                range: at..at,
                mark: Mark::Comment(i),
            });
        }
        let rank = |p: &Placed| match p.mark {
            Mark::Comment(_) => 0,
            Mark::Edit(_) if p.range.is_empty() => 1,
            _ => 2,
        };
        out.placed.sort_by_key(|p| (p.range.start, rank(p)));
        out
    }
}

/// Whether two ranges share a byte, or one is an empty range strictly inside the other.
fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    if a.is_empty() {
        return b.start < a.start && a.start < b.end;
    }
    if b.is_empty() {
        return a.start < b.start && b.start < a.end;
    }
    a.start < b.end && b.start < a.end
}

/// Whether an insertion point `t` (empty) lies strictly inside `r`: a
/// highlight there would have the insertion inside it.
fn touches_inside(t: &Range<usize>, r: &Range<usize>) -> bool {
    t.is_empty() && r.start < t.start && t.start < r.end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(r: Range<usize>) -> Edit {
        Edit {
            range: r,
            replacement: "x".into(),
            author: "a".into(),
            reason: None,
        }
    }

    fn note(r: Option<Range<usize>>) -> Note {
        Note {
            range: r,
            anchored_text: "t".into(),
            comments: vec![],
        }
    }

    #[test]
    fn overlapping_proposals_keep_the_first_in_text_order() {
        let review = Annotations {
            edits: vec![edit(4..9), edit(0..5), edit(9..9), edit(9..12)],
            ..Annotations::default()
        };
        let l = Layout::of(&review, 20);
        assert_eq!(l.overlapping_edits, vec![0]);
        let marks: Vec<_> = l.placed.iter().map(|p| p.mark).collect();
        assert_eq!(marks, vec![Mark::Edit(1), Mark::Edit(2), Mark::Edit(3)]);
    }

    #[test]
    fn a_thread_over_a_proposal_becomes_a_comment_after_it() {
        let review = Annotations {
            edits: vec![edit(2..6)],
            notes: vec![note(Some(0..4)), note(Some(8..10)), note(Some(9..12)), note(None)],
            ..Annotations::default()
        };
        let l = Layout::of(&review, 20);
        assert_eq!(l.unplaced_notes, vec![3]);
        assert_eq!(
            l.placed,
            vec![
                Placed {
                    range: 2..6,
                    mark: Mark::Edit(0)
                },
                Placed {
                    range: 6..6,
                    mark: Mark::Comment(0)
                },
                Placed {
                    range: 8..10,
                    mark: Mark::Highlight(1)
                },
                Placed {
                    range: 12..12,
                    mark: Mark::Comment(2)
                },
            ]
        );
    }

    #[test]
    fn an_insertion_inside_a_thread_keeps_the_thread_from_highlighting() {
        let review = Annotations {
            edits: vec![edit(5..5)],
            notes: vec![note(Some(2..8)), note(Some(5..5))],
            ..Annotations::default()
        };
        let l = Layout::of(&review, 20);
        assert_eq!(
            l.placed,
            vec![
                Placed {
                    range: 5..5,
                    mark: Mark::Comment(1)
                },
                Placed {
                    range: 5..5,
                    mark: Mark::Edit(0)
                },
                Placed {
                    range: 8..8,
                    mark: Mark::Comment(0)
                },
            ]
        );
    }
}
