//! How much a candidate place looks like the place a fingerprint was taken.
//!
//! Context is compared *squashed*: every whitespace run is one space, so a
//! re-wrap or re-indent of the neighbouring lines costs nothing. Each side
//! yields
//! - `adjacent`: squashed chars that agree right next to the text (the common
//!   suffix of `before`, the common prefix of `after`);
//! - `whole`: the side agrees entirely, up to the document's edge if it was
//!   recorded at one;
//! - and, computed only when no candidate agrees whole, `similar`: how much of
//!   the recorded side is still there nearby, in words: the best common
//!   subsequence of its words and the words next to the candidate, read
//!   outward, weighted by their length and by how near their recorded distance
//!   from the text they are (so a word edited in the context, or one inserted,
//!   costs little; the same words far off count for little).

/// `s` with every whitespace run made one space.
pub(super) fn squash(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_ws = false;
    for c in s.chars() {
        if c.is_whitespace() {
            if !in_ws {
                out.push(' ');
            }
            in_ws = true;
        } else {
            out.push(c);
            in_ws = false;
        }
    }
    out
}

/// Which side of a candidate a recorded context is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dir {
    Before,
    After,
}

/// A word, as compared: a hash of its text (FNV-1a) and its length in chars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Word {
    hash: u64,
    chars: usize,
}

impl Word {
    fn of(s: &str) -> Self {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for b in s.bytes() {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        Word {
            hash,
            chars: s.chars().count(),
        }
    }
}

/// Words collected as [`Word`]s.
struct Words(Vec<Word>);

impl<'t> Extend<&'t str> for Words {
    fn extend<I: IntoIterator<Item = &'t str>>(&mut self, iter: I) {
        self.0.extend(iter.into_iter().map(Word::of));
    }
}

/// Words of `text` read outward from byte `at` (backwards for `Before`), within
/// `reach` squashed chars: runs of alphanumeric chars and single other chars;
/// whitespace separates them and is not a word. Pushed onto `out` nearest first.
fn words_outward<'t>(text: &'t str, at: usize, dir: Dir, reach: usize, out: &mut impl Extend<&'t str>) {
    let mut seen = 0;
    let mut in_ws = false;
    // The open alphanumeric run, as byte bounds.
    let mut run: Option<(usize, usize)> = None;
    let close = |run: &mut Option<(usize, usize)>, out: &mut dyn FnMut(&'t str)| {
        if let Some((a, b)) = run.take() {
            out(&text[a..b]);
        }
    };
    let mut push = |w: &'t str| out.extend(std::iter::once(w));
    let mut step = |i: usize, c: char, out: &mut dyn FnMut(&'t str)| -> bool {
        let ws = c.is_whitespace();
        if !(ws && in_ws) {
            seen += 1;
        }
        in_ws = ws;
        if seen > reach {
            return false;
        }
        let end = i + c.len_utf8();
        if c.is_alphanumeric() {
            run = Some(match run {
                None => (i, end),
                Some((a, b)) if dir == Dir::After => (a, b.max(end)),
                Some((_, b)) => (i, b),
            });
        } else {
            close(&mut run, out);
            if !ws {
                out(&text[i..end]);
            }
        }
        true
    };
    match dir {
        Dir::After => {
            for (i, c) in text[at..].char_indices() {
                if !step(at + i, c, &mut push) {
                    break;
                }
            }
        }
        Dir::Before => {
            for (i, c) in text[..at].char_indices().rev() {
                if !step(i, c, &mut push) {
                    break;
                }
            }
        }
    }
    close(&mut run, &mut push);
}

/// How much a word found `shift` words away from where it was recorded counts:
/// a word or two inserted or deleted nearby costs a little; a copy of the word
/// far off, much.
fn at_shift(shift: usize) -> f64 {
    1.0 / (1.0 + shift as f64 / 3.0)
}

/// The best common subsequence of words `a` and `b`, both read outward from the
/// candidate: each word counted by its length in chars, less for a word found
/// at another distance from the anchored text ([`at_shift`]).
fn common_words(a: &[Word], b: &[Word]) -> f64 {
    // Two rows of the table; on the stack for the usual sizes.
    const STACK: usize = 96;
    let mut stack = [[0f64; STACK]; 2];
    let mut heap;
    let (prev, cur): (&mut [f64], &mut [f64]) = if b.len() < STACK {
        let [p, c] = &mut stack;
        (&mut p[..=b.len()], &mut c[..=b.len()])
    } else {
        heap = [vec![0f64; b.len() + 1], vec![0f64; b.len() + 1]];
        let [p, c] = &mut heap;
        (p, c)
    };
    let (mut prev, mut cur) = (prev, cur);
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            let skip = cur[j].max(prev[j + 1]);
            cur[j + 1] = if x.hash == y.hash {
                skip.max(prev[j] + x.chars as f64 * at_shift(i.abs_diff(j)))
            } else {
                skip
            };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// One recorded side of context, prepared once per fingerprint.
pub(super) struct Recorded {
    dir: Dir,
    /// As recorded, for a side of only whitespace (compared exactly: squashing
    /// would make any whitespace agree with it).
    raw: Option<String>,
    squashed: String,
    /// Chars of `squashed`.
    len: usize,
    /// Its words, read outward from the anchored text.
    words: Vec<Word>,
    /// Chars of `words`.
    word_chars: usize,
    /// It was cut short by the document's edge.
    at_edge: bool,
}

impl Recorded {
    /// The recorded side `raw` (`before` or `after`), which held `full_len`
    /// chars unless a document edge cut it.
    pub(super) fn new(raw: &str, full_len: usize, dir: Dir) -> Self {
        let squashed = squash(raw);
        let mut words = Vec::new();
        let from = if dir == Dir::Before { squashed.len() } else { 0 };
        words_outward(&squashed, from, dir, usize::MAX, &mut words);
        let words: Vec<Word> = words.into_iter().map(Word::of).collect();
        Recorded {
            dir,
            raw: (words.is_empty() && !raw.is_empty()).then(|| raw.to_owned()),
            len: squashed.chars().count(),
            word_chars: words.iter().map(|w| w.chars).sum(),
            words,
            squashed,
            at_edge: raw.chars().count() < full_len,
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The side was cut short by the document's edge when it was recorded.
    pub(super) fn at_edge(&self) -> bool {
        self.at_edge
    }

    /// Chars of the squashed side.
    pub(super) fn len_chars(&self) -> usize {
        self.len
    }

    /// Chars of its words (what a candidate's similarity is out of).
    pub(super) fn word_chars(&self) -> usize {
        self.word_chars
    }

    /// How far (in squashed chars) to look beside a candidate for this side's
    /// words.
    fn reach(&self) -> usize {
        self.len + self.len / 2 + 8
    }

    /// What this side says of a candidate whose text starts (for `before`) or
    /// ends (for `after`) at byte `at` of `text`.
    pub(super) fn at(&self, text: &str, at: usize) -> Side {
        if let Some(raw) = &self.raw {
            let (agreeing, edge) = match self.dir {
                Dir::Before => (text[..at].ends_with(raw.as_str()), at == raw.len()),
                Dir::After => (text[at..].starts_with(raw.as_str()), at + raw.len() == text.len()),
            };
            return Side {
                adjacent: if agreeing { self.len } else { 0 },
                whole: agreeing && (!self.at_edge || edge),
            };
        }
        let (adjacent, edge) = match self.dir {
            Dir::Before => agree(self.squashed.chars().rev(), text[..at].chars().rev().peekable()),
            Dir::After => agree(self.squashed.chars(), text[at..].chars().peekable()),
        };
        Side {
            adjacent,
            whole: adjacent == self.len && (!self.at_edge || edge),
        }
    }

    /// The share (0.0 ..= 1.0) of this side's words, by length, still beside
    /// the candidate at byte `at`, near where they were (1.0 for a whole side).
    pub(super) fn similar(&self, side: Side, text: &str, at: usize) -> f64 {
        if side.whole {
            return 1.0;
        }
        if self.word_chars == 0 {
            return 0.0;
        }
        let mut got = Words(Vec::with_capacity(self.words.len() + 8));
        words_outward(text, at, self.dir, self.reach(), &mut got);
        let got = got.0;
        common_words(&self.words, &got) / self.word_chars as f64
    }
}

/// What one side of a candidate says: how much agrees right next to it, and
/// whether all of it does.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Side {
    pub adjacent: usize,
    pub whole: bool,
}

/// Squashed chars of `chars` (read outward from the candidate) that agree with
/// `recorded` (read the same way), and whether the text ends right after them.
fn agree(
    recorded: impl Iterator<Item = char>,
    mut chars: std::iter::Peekable<impl Iterator<Item = char>>,
) -> (usize, bool) {
    let mut n = 0;
    for r in recorded {
        let Some(c) = chars.next() else { return (n, true) };
        let c = if c.is_whitespace() {
            while chars.peek().is_some_and(|d| d.is_whitespace()) {
                chars.next();
            }
            ' '
        } else {
            c
        };
        if c != r {
            return (n, false);
        }
        n += 1;
    }
    (n, chars.peek().is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outward(text: &str, at: usize, dir: Dir, reach: usize) -> Vec<&str> {
        let mut out = Vec::new();
        words_outward(text, at, dir, reach, &mut out);
        out
    }

    #[test]
    fn squash_makes_runs_one_space() {
        assert_eq!(squash("a \n\t b\r\nc  "), "a b c ");
    }

    #[test]
    fn words_are_read_outward_within_reach() {
        let t = "fn foo(x) — é1";
        assert_eq!(
            outward(t, 0, Dir::After, 99),
            vec!["fn", "foo", "(", "x", ")", "—", "é1"]
        );
        assert_eq!(
            outward(t, t.len(), Dir::Before, 99),
            vec!["é1", "—", ")", "x", "(", "foo", "fn"]
        );
        // Reach counts squashed chars: "x  a\n  b" before its end is "a b" in 3.
        assert_eq!(outward("x  a\n  b", 8, Dir::Before, 3), vec!["b", "a"]);
        assert_eq!(outward("ab cd", 1, Dir::Before, 9), vec!["a"]);
        assert_eq!(outward("ab cd", 1, Dir::After, 9), vec!["b", "cd"]);
    }

    #[test]
    fn common_words_weigh_length_and_distance() {
        let w = |s: &[&str]| s.iter().map(|x| Word::of(x)).collect::<Vec<_>>();
        assert_eq!(
            common_words(&w(&["the", "big", "dog"]), &w(&["the", "red", "dog"])),
            6.0
        );
        // A word found two places off counts less.
        assert_eq!(
            common_words(&w(&["dog"]), &w(&["a", "b", "dog"])),
            3.0 * at_shift(2)
        );
    }

    #[test]
    fn an_edited_context_word_costs_only_that_word() {
        let rec = Recorded::new("Rust provides the ", 32, Dir::Before);
        let text = "Rust performs the majority";
        let s = rec.at(text, 18);
        assert!(!s.whole);
        assert_eq!(s.adjacent, 6); // "s the "
        let similar = rec.similar(s, text, 18);
        // "the" and "Rust" are where they were; "provides" is gone.
        assert!((similar - 7.0 / 15.0).abs() < 1e-9, "{similar}");
    }

    #[test]
    fn a_side_recorded_at_the_edge_is_whole_only_at_the_edge() {
        let rec = Recorded::new("Hi ", 32, Dir::Before);
        assert!(rec.at_edge);
        assert!(rec.at("Hi there", 3).whole);
        let moved = rec.at("Oh. Hi there", 7);
        assert!(!moved.whole && moved.adjacent == 3);
        let full = Recorded::new(&"x".repeat(32), 32, Dir::Before);
        assert!(!full.at_edge);
    }

    #[test]
    fn a_side_of_only_whitespace_agrees_only_exactly() {
        let rec = Recorded::new("\t", 32, Dir::After);
        assert!(!rec.at("x ", 1).whole);
        assert_eq!(rec.at("x ", 1).adjacent, 0);
        assert!(rec.at("x\t", 1).whole);
    }

    #[test]
    fn rewrapped_context_is_whole() {
        // (Recorded as a full side: not cut by the document's edge.)
        let rec = Recorded::new("wrapped\nat eighty columns ", 16, Dir::Before);
        assert!(rec.at("was wrapped at eighty\n   columns ", 33).whole);
        let rec = Recorded::new(" next to it", 8, Dir::After);
        assert!(rec.at("T\n  next to\nit", 1).whole);
    }
}
