//! Three-way merge of prose: the writer's unsaved text ("mine"), the file as
//! another program left it on disk ("theirs"), and the text both came from
//! ("base": what the buffer was loaded from or last saved as).
//!
//! **Sentences are the unit.** The texts are cut at sentence boundaries
//! (Unicode UAX #29: a sentence with the spaces after it; a line break always
//! ends one, so a hard-wrapped line is never joined to the next), each side is
//! diffed against the base by sentence (`similar`, Myers), and the classic
//! diff3 walk finds the stretches where both sides still hold the base
//! (`sync` regions) and the hunks between them:
//!
//! - changed on one side only → taken from that side, automatically;
//! - changed on both sides the same way → taken, no question;
//! - changed on both sides differently → a **conflict**, the writer decides.
//!
//! Why sentences: a line merge (git, diffy) is coarse for prose, where a
//! paragraph is often one long line — two writers touching different sentences
//! of a paragraph would always conflict. A word merge is too fine: it would
//! silently splice two rewrites of the same sentence into one neither writer
//! wrote. Sentence by sentence, edits to different sentences merge on their
//! own, and two rewrites of one sentence are shown whole, side by side. (The
//! generic merge crate `merge3` was measured and left: its `difflib` matcher
//! indexes only *repeated* tokens in sequences of 200 or more, so a document of
//! a few hundred sentences became one conflict. `diffy` merges lines into a
//! string with markers and gives no hunks.)
//!
//! [`Merge::resolve`] applies the writer's choice per hunk: mine, theirs, or
//! both (mine, then theirs). Taking every hunk's mine gives mine back exactly,
//! every hunk's theirs gives theirs (`tests/proptest_core.rs`).

use serde::{Deserialize, Serialize};
use similar::{capture_diff_slices, Algorithm, DiffOp};
use unicode_segmentation::UnicodeSegmentation;

/// Where a hunk's change came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "lowercase")]
pub enum HunkKind {
    /// Changed in the writer's text only: taken from mine unless the writer says otherwise.
    Mine,
    /// Changed on disk only: taken from theirs unless the writer says otherwise.
    Theirs,
    /// Changed on both sides, differently: the writer decides.
    Conflict,
}

/// The writer's choice for one hunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "lowercase")]
pub enum Choice {
    Mine,
    Theirs,
    /// Mine, then theirs ([`both`]).
    Both,
}

/// A stretch of the base that changed on at least one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hunk {
    pub kind: HunkKind,
    /// The base's text here (empty where text was only added).
    pub base: String,
    /// The writer's text here.
    pub mine: String,
    /// The file's text here.
    pub theirs: String,
}

impl Hunk {
    /// The text this hunk becomes with `choice`, or with its own side when
    /// `None` (a conflict has none: `None`).
    pub fn text(&self, choice: Option<Choice>) -> Option<String> {
        let choice = choice.or(match self.kind {
            HunkKind::Mine => Some(Choice::Mine),
            HunkKind::Theirs => Some(Choice::Theirs),
            HunkKind::Conflict => None,
        })?;
        Some(match choice {
            Choice::Mine => self.mine.clone(),
            Choice::Theirs => self.theirs.clone(),
            Choice::Both => both(&self.mine, &self.theirs),
        })
    }
}

/// One piece of a merge, in the text's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Text both sides agree on: unchanged, or changed the same way on both.
    Same(String),
    Hunk(Hunk),
}

/// The result of [`Merge::resolve`] when a conflict has no choice.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    #[error("{given} choices for a merge of {hunks} changes")]
    Count { given: usize, hunks: usize },
    #[error("change {0} was made on both sides and needs a choice")]
    Undecided(usize),
}

/// A three-way merge: the texts' pieces in order. See the module docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merge {
    pub parts: Vec<Part>,
}

/// The text's sentences (UAX #29), each with the spaces and line break after it.
pub fn sentences(text: &str) -> Vec<&str> {
    text.split_sentence_bounds().collect()
}

/// Both sides of a hunk, mine then theirs. Where mine ends inside a line and
/// theirs starts a word (a last sentence with no space after it), a space keeps
/// the two sentences apart.
pub fn both(mine: &str, theirs: &str) -> String {
    let glued = !mine.is_empty()
        && !theirs.is_empty()
        && !mine.ends_with(char::is_whitespace)
        && !theirs.starts_with(char::is_whitespace);
    let mut out = String::with_capacity(mine.len() + theirs.len() + 1);
    out.push_str(mine);
    if glued {
        out.push(' ');
    }
    out.push_str(theirs);
    out
}

/// Runs of tokens equal in `base` and `other`: (start in base, start in other, length).
fn matches(base: &[&str], other: &[&str]) -> Vec<(usize, usize, usize)> {
    capture_diff_slices(Algorithm::Myers, base, other)
        .into_iter()
        .filter_map(|op| match op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => Some((old_index, new_index, len)),
            _ => None,
        })
        .collect()
}

impl Merge {
    /// Merge `mine` and `theirs`, both changed from `base`.
    pub fn new(base: &str, mine: &str, theirs: &str) -> Merge {
        let (z, a, b) = (sentences(base), sentences(mine), sentences(theirs));
        let (am, bm) = (matches(&z, &a), matches(&z, &b));
        // Sync regions: base stretches both sides still hold, as (base, mine, theirs) starts and a length.
        let mut sync = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < am.len() && j < bm.len() {
            let (az, aa, alen) = am[i];
            let (bz, bb, blen) = bm[j];
            let (start, end) = (az.max(bz), (az + alen).min(bz + blen));
            if start < end {
                sync.push((start, aa + (start - az), bb + (start - bz), end - start));
            }
            if az + alen < bz + blen {
                i += 1;
            } else {
                j += 1;
            }
        }
        sync.push((z.len(), a.len(), b.len(), 0));
        let cat = |s: &[&str]| s.concat();
        let mut parts: Vec<Part> = Vec::new();
        let same = |parts: &mut Vec<Part>, text: String| {
            if text.is_empty() {
                return;
            }
            match parts.last_mut() {
                Some(Part::Same(t)) => t.push_str(&text),
                _ => parts.push(Part::Same(text)),
            }
        };
        let (mut iz, mut ia, mut ib) = (0, 0, 0);
        for (sz, sa, sb, len) in sync {
            if iz < sz || ia < sa || ib < sb {
                let (zs, as_, bs) = (&z[iz..sz], &a[ia..sa], &b[ib..sb]);
                if as_ == bs {
                    same(&mut parts, cat(as_));
                } else {
                    let kind = if as_ == zs {
                        HunkKind::Theirs
                    } else if bs == zs {
                        HunkKind::Mine
                    } else {
                        HunkKind::Conflict
                    };
                    parts.push(Part::Hunk(Hunk {
                        kind,
                        base: cat(zs),
                        mine: cat(as_),
                        theirs: cat(bs),
                    }));
                }
            }
            same(&mut parts, cat(&z[sz..sz + len]));
            (iz, ia, ib) = (sz + len, sa + len, sb + len);
        }
        Merge { parts }
    }

    /// A merge with no base (the text both sides came from is not known, as
    /// after a crash): every difference between the two is a conflict, its
    /// `base` the writer's text there.
    pub fn without_base(mine: &str, theirs: &str) -> Merge {
        let mut m = Merge::new(mine, mine, theirs);
        for p in &mut m.parts {
            if let Part::Hunk(h) = p {
                h.kind = HunkKind::Conflict;
            }
        }
        m
    }

    /// The hunks, in order (what a choice's index counts).
    pub fn hunks(&self) -> impl Iterator<Item = &Hunk> {
        self.parts.iter().filter_map(|p| match p {
            Part::Hunk(h) => Some(h),
            Part::Same(_) => None,
        })
    }

    /// How many hunks need the writer's choice.
    pub fn conflicts(&self) -> usize {
        self.hunks().filter(|h| h.kind == HunkKind::Conflict).count()
    }

    /// The merged text with `choices`, one per hunk in order; `None` takes a
    /// one-sided hunk's own side and is refused for a conflict.
    pub fn resolve(&self, choices: &[Option<Choice>]) -> Result<String, ResolveError> {
        let hunks = self.hunks().count();
        if choices.len() != hunks {
            return Err(ResolveError::Count {
                given: choices.len(),
                hunks,
            });
        }
        let mut out = String::new();
        let mut k = 0;
        for part in &self.parts {
            match part {
                Part::Same(t) => out.push_str(t),
                Part::Hunk(h) => {
                    out.push_str(&h.text(choices[k]).ok_or(ResolveError::Undecided(k))?);
                    k += 1;
                }
            }
        }
        Ok(out)
    }

    /// The text with every hunk's `choice`.
    pub fn resolve_all(&self, choice: Choice) -> String {
        let n = self.hunks().count();
        self.resolve(&vec![Some(choice); n])
            .expect("every hunk has a choice")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(m: &Merge) -> Vec<HunkKind> {
        m.hunks().map(|h| h.kind).collect()
    }

    #[test]
    fn different_sentences_of_one_paragraph_merge_on_their_own() {
        let base = "The cat sat. It was warm. The end came.\n";
        let mine = "The black cat sat. It was warm. The end came.\n";
        let theirs = "The cat sat. It was warm. The end came slowly.\n";
        let m = Merge::new(base, mine, theirs);
        assert_eq!(kinds(&m), vec![HunkKind::Mine, HunkKind::Theirs]);
        assert_eq!(
            m.resolve(&[None, None]).unwrap(),
            "The black cat sat. It was warm. The end came slowly.\n"
        );
    }

    #[test]
    fn two_rewrites_of_one_sentence_conflict_whole() {
        let base = "One. The cat sat on the mat. Two.";
        let mine = "One. The black cat sat on the mat. Two.";
        let theirs = "One. The cat lay on the mat. Two.";
        let m = Merge::new(base, mine, theirs);
        assert_eq!(kinds(&m), vec![HunkKind::Conflict]);
        let h = m.hunks().next().unwrap();
        assert_eq!(h.mine, "The black cat sat on the mat. ");
        assert_eq!(h.theirs, "The cat lay on the mat. ");
        assert_eq!(m.resolve(&[None]), Err(ResolveError::Undecided(0)));
        assert_eq!(
            m.resolve(&[Some(Choice::Both)]).unwrap(),
            "One. The black cat sat on the mat. The cat lay on the mat. Two."
        );
        assert_eq!(m.resolve_all(Choice::Theirs), theirs);
        assert_eq!(m.resolve_all(Choice::Mine), mine);
    }

    #[test]
    fn hard_wrapped_lines_are_units_and_the_same_change_is_no_question() {
        let base = "a line that\nwraps here.\n\nNext.\n";
        let mine = "a line that\nwraps there.\n\nNext!\n";
        let theirs = "a line that\nwraps there.\n\nNext.\nAdded.\n";
        let m = Merge::new(base, mine, theirs);
        // "wraps there." is the same change on both sides: no hunk.
        assert_eq!(kinds(&m), vec![HunkKind::Conflict]);
        assert_eq!(
            m.resolve(&[Some(Choice::Both)]).unwrap(),
            "a line that\nwraps there.\n\nNext!\nNext.\nAdded.\n"
        );
    }

    #[test]
    fn both_keeps_a_space_between_sentences_at_the_end() {
        assert_eq!(both("Mine.", "Theirs."), "Mine. Theirs.");
        assert_eq!(both("Mine.\n", "Theirs."), "Mine.\nTheirs.");
        assert_eq!(both("", "Theirs."), "Theirs.");
    }

    #[test]
    fn a_choice_count_that_does_not_fit_is_refused() {
        let m = Merge::new("One. Two. Three.", "Uno. Two. Three.", "One. Two. Tres.");
        assert_eq!(
            m.resolve(&[None]),
            Err(ResolveError::Count { given: 1, hunks: 2 })
        );
    }
}
