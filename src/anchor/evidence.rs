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

/// At most `n` chars of `text` before byte `at`, squashed, and whether they
/// reach the start of `text`.
fn squashed_before(text: &str, at: usize, n: usize) -> (String, bool) {
    let mut rev: Vec<char> = Vec::with_capacity(n);
    let mut chars = text[..at].chars().rev().peekable();
    while rev.len() < n {
        let Some(c) = chars.next() else { break };
        if c.is_whitespace() {
            while chars.peek().is_some_and(|d| d.is_whitespace()) {
                chars.next();
            }
            rev.push(' ');
        } else {
            rev.push(c);
        }
    }
    let at_edge = chars.peek().is_none();
    (rev.into_iter().rev().collect(), at_edge)
}

/// At most `n` chars of `text` from byte `at`, squashed, and whether they reach
/// its end.
fn squashed_after(text: &str, at: usize, n: usize) -> (String, bool) {
    let mut out = String::with_capacity(n);
    let mut count = 0;
    let mut chars = text[at..].chars().peekable();
    while count < n {
        let Some(c) = chars.next() else { break };
        if c.is_whitespace() {
            while chars.peek().is_some_and(|d| d.is_whitespace()) {
                chars.next();
            }
            out.push(' ');
        } else {
            out.push(c);
        }
        count += 1;
    }
    let at_edge = chars.peek().is_none();
    (out, at_edge)
}

/// Words of a squashed string: runs of alphanumeric chars and single other
/// chars; spaces separate them and are not words.
fn words(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        if c.is_alphanumeric() {
            start.get_or_insert(i);
            continue;
        }
        if let Some(st) = start.take() {
            out.push(&s[st..i]);
        }
        if c != ' ' {
            out.push(&s[i..i + c.len_utf8()]);
        }
    }
    if let Some(st) = start {
        out.push(&s[st..]);
    }
    out
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
fn common_words(a: &[&str], b: &[&str]) -> f64 {
    let mut prev = vec![0f64; b.len() + 1];
    let mut cur = vec![0f64; b.len() + 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            let skip = cur[j].max(prev[j + 1]);
            cur[j + 1] = if x == y {
                skip.max(prev[j] + x.chars().count() as f64 * at_shift(i.abs_diff(j)))
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
    squashed: String,
    /// Chars of `squashed`.
    len: usize,
    /// Chars of the words of `squashed`.
    word_chars: usize,
    words: Vec<String>,
    /// It was cut short by the document's edge.
    at_edge: bool,
}

impl Recorded {
    pub(super) fn new(raw: &str, full_len: usize) -> Self {
        let squashed = squash(raw);
        let words: Vec<String> = words(&squashed).into_iter().map(str::to_owned).collect();
        Recorded {
            len: squashed.chars().count(),
            word_chars: words.iter().map(|w| w.chars().count()).sum(),
            words,
            squashed,
            at_edge: raw.chars().count() < full_len,
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Chars of the squashed side.
    pub(super) fn len_chars(&self) -> usize {
        self.len
    }

    /// Chars of its words (what a candidate's similarity is out of).
    pub(super) fn word_chars(&self) -> usize {
        self.word_chars
    }

    /// How far (in chars) to look beside a candidate for this side's words.
    fn reach(&self) -> usize {
        self.len + self.len / 2 + 8
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

impl Recorded {
    fn side(&self, adjacent: usize, at_edge: bool) -> Side {
        Side {
            adjacent,
            whole: adjacent == self.len && (!self.at_edge || at_edge),
        }
    }

    /// This side as the `before` of a candidate starting at byte `start`.
    pub(super) fn before(&self, text: &str, start: usize) -> Side {
        let (n, edge) = agree(
            self.squashed.chars().rev(),
            text[..start].chars().rev().peekable(),
        );
        self.side(n, edge)
    }

    /// This side as the `after` of a candidate ending at byte `end`.
    pub(super) fn after(&self, text: &str, end: usize) -> Side {
        let (n, edge) = agree(self.squashed.chars(), text[end..].chars().peekable());
        self.side(n, edge)
    }

    /// The share (0.0 ..= 1.0) of this side's words, by length, still beside a
    /// candidate, near where they were: `actual` is the squashed text next to
    /// it, and `backwards` tells whether words are read backwards (a `before`
    /// side is read from the candidate outward). 1.0 for a whole side.
    fn similar(&self, side: Side, actual: &str, backwards: bool) -> f64 {
        if side.whole {
            1.0
        } else if self.word_chars == 0 {
            0.0
        } else {
            let mut got: Vec<&str> = words(actual);
            let mut rec: Vec<&str> = self.words.iter().map(String::as_str).collect();
            if backwards {
                got.reverse();
                rec.reverse();
            }
            common_words(&rec, &got) / self.word_chars as f64
        }
    }

    /// [`Self::similar`] for the `before` side of a candidate at byte `start`.
    pub(super) fn similar_before(&self, side: Side, text: &str, start: usize) -> f64 {
        if side.whole {
            return 1.0;
        }
        self.similar(side, &squashed_before(text, start, self.reach()).0, true)
    }

    /// [`Self::similar`] for the `after` side of a candidate ending at byte `end`.
    pub(super) fn similar_after(&self, side: Side, text: &str, end: usize) -> f64 {
        if side.whole {
            return 1.0;
        }
        self.similar(side, &squashed_after(text, end, self.reach()).0, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squash_makes_runs_one_space() {
        assert_eq!(squash("a \n\t b\r\nc  "), "a b c ");
        assert_eq!(squashed_before("x  a\n  b", 8, 3), ("a b".to_owned(), false));
        assert_eq!(squashed_before("a\n  b", 5, 9), ("a b".to_owned(), true));
        assert_eq!(squashed_after("a\n  b c", 0, 3), ("a b".to_owned(), false));
    }

    #[test]
    fn words_split_on_spaces_and_punctuation() {
        assert_eq!(
            words("fn foo(x) — é1"),
            vec!["fn", "foo", "(", "x", ")", "—", "é1"]
        );
        assert_eq!(common_words(&["the", "big", "dog"], &["the", "red", "dog"]), 6.0);
        // A word found two places off counts less.
        assert_eq!(common_words(&["dog"], &["a", "b", "dog"]), 3.0 * at_shift(2));
    }

    #[test]
    fn an_edited_context_word_costs_only_that_word() {
        let rec = Recorded::new("Rust provides the ", 32);
        let text = "Rust performs the majority";
        let s = rec.before(text, 18);
        assert!(!s.whole);
        assert_eq!(s.adjacent, 6); // "s the "
        let similar = rec.similar_before(s, text, 18);
        // "Rust" and "the" are where they were; "provides" is gone.
        assert!((similar - 7.0 / 15.0).abs() < 1e-9, "{similar}");
    }

    #[test]
    fn a_side_recorded_at_the_edge_is_whole_only_at_the_edge() {
        let rec = Recorded::new("Hi ", 32);
        assert!(rec.at_edge);
        assert!(rec.before("Hi there", 3).whole);
        let moved = rec.before("Oh. Hi there", 7);
        assert!(!moved.whole && moved.adjacent == 3);
        let full = Recorded::new(&"x".repeat(32), 32);
        assert!(!full.at_edge);
    }

    #[test]
    fn rewrapped_context_is_whole() {
        // (Recorded as a full side: not cut by the document's edge.)
        let rec = Recorded::new("wrapped\nat eighty columns ", 16);
        assert!(rec.before("was wrapped at eighty\n   columns ", 33).whole);
        let rec = Recorded::new(" next to it", 8);
        assert!(rec.after("T\n  next to\nit", 1).whole);
    }
}
