//! Fallback evidence: asked only where the ladder's own rules would orphan an
//! anchor whose text is still there, at one or more places, but whose recorded
//! context no longer agrees well enough (issue #36).
//!
//! Real edits change the words and markup around a text all the time without
//! touching it: a code fence's info string, a blockquote's `>` markers, a
//! straight quote made curly, `do not` written `don’t`, a re-wrap, a paragraph
//! inserted above. The ladder asks for a side of context that agrees whole (or
//! a clear word similarity, with the chars right next to the text agreeing);
//! this module looks again, more tolerantly, and answers only when one place is
//! still clearly it:
//!
//! - **tolerant context**: compared as *normalized* streams — every whitespace
//!   run is one space, a `>` at a line's start is whitespace, typographic
//!   quotes and apostrophes are straight ones — agreement read outward from the
//!   text and cut back to a whole token, scored by its length ([`near`]);
//! - **through markup**: the *visible words* either side (letters and digits;
//!   every other char, markup included, separates them; contractions spelled
//!   out), so a fence's info string, a label moved into an attribute, a
//!   wrapper tag cost only the words they add ([`visible_words`]);
//! - **a word or two different**: the visible words are compared by an edit
//!   distance over tokens ([`words_score`]);
//! - **the edge**: a side recorded short because the document began or ended
//!   there agrees with a candidate still at that edge (no visible word between
//!   them), but only beside real agreement on the other side;
//! - **distance**: a candidate's score falls with its distance from
//!   `lineHint`; a candidate far from it is taken only on strong context that
//!   no other candidate comes near (a moved paragraph);
//! - **copies**: of candidates whose context scores alike, the one nearest the
//!   hint is taken only when every other is several times farther.
//!
//! What it finds is *likely*, not proven: the caller answers
//! [`super::Resolution::Likely`], which a thread may follow and a proposal
//! never applies without asking.

use std::sync::atomic::{AtomicU32, Ordering};

use super::Candidate;

/// The fallback's rules, as bits of [`set_rules`] (for measuring each rule's
/// effect, `examples/anchoring.rs --each-rule`; all are on otherwise).
pub mod rules {
    /// Context compared as normalized chars (whitespace, `>`, quotes), by length.
    pub const TOLERANT: u32 = 1;
    /// Visible words either side, through markup.
    pub const WORDS: u32 = 1 << 1;
    /// Visible words compared by a token edit distance (else: the words that
    /// agree in order, outward, until the first that does not).
    pub const EDIT_DISTANCE: u32 = 1 << 2;
    /// Score falling with the distance from `lineHint`; the document's edge as
    /// agreeing context.
    pub const DISTANCE_AND_EDGE: u32 = 1 << 3;
    /// Of copies alike, the clearly nearest.
    pub const NEAREST_COPY: u32 = 1 << 4;
    /// Far candidates, on strong unique context.
    pub const FAR: u32 = 1 << 5;
    pub const ALL: u32 = (1 << 6) - 1;
}

static RULES: AtomicU32 = AtomicU32::new(rules::ALL);

/// Which of the fallback's [`rules`] apply, process-wide: for measuring them
/// one by one. Everything else leaves them all on.
#[doc(hidden)]
pub fn set_rules(mask: u32) {
    RULES.store(mask, Ordering::Relaxed);
}

fn on(rule: u32) -> bool {
    RULES.load(Ordering::Relaxed) & rule != 0
}

/// A side's share of agreement (0 to 1) that counts as strong.
pub const SIDE_STRONG: f64 = 0.75;

/// The share the other side needs beside a strong one (unless the text is
/// [distinctive](super::DISTINCTIVE_CHARS)).
pub const SIDE_WEAK: f64 = 0.25;

/// The least combined context score (both sides, weighted by their length) a
/// fallback place needs.
pub const ACCEPT: f64 = 0.65;

/// The combined score a candidate far from `lineHint` needs, and by how much
/// it must beat every other candidate's.
pub const FAR_STRONG: f64 = 0.95;
pub const FAR_MARGIN: f64 = 0.3;

/// The distance-weighted score halves at this many lines from `lineHint`.
pub const HALF_AT_LINES: f64 = 30.0;

/// How much more (distance-weighted) the winner must score than any other
/// candidate, unless it is clearly the nearest of copies.
pub const MARGIN: f64 = 0.15;

/// A copy is clearly nearer when every other is at least this many times as
/// far (counting lines from the hint, plus one).
pub const NEARER_TIMES: usize = 4;
/// …and at least this many lines farther.
pub const NEARER_GAP: usize = 10;

/// The share of a side's solid chars in its visible words at which the words
/// count in full (prose); markup and code count for less.
pub const FULL_COVER: f64 = 0.7;

/// Non-space chars right next to the text that a strong side must agree on
/// (tolerantly; fewer when the side recorded fewer).
pub const ADJACENT_SOLID: usize = 3;

/// What a side's words count for when the punctuation between them and the
/// text changed.
pub const PUNCTUATION_CHANGED: f64 = 0.5;

/// Weight (in chars) of a side recorded at the document's edge, when the
/// candidate is still at it.
const EDGE_WEIGHT: f64 = 16.0;

/// Chars of the document read on each side of a candidate.
const WINDOW: usize = 96;

/// Bytes read for [`Side::next_to`].
const NEXT_TO_WINDOW: usize = 32;

/// Bytes next to the text looked at for a char that normalizing changes.
const SPECIAL_BYTES: usize = 12;

/// Candidates scored in full, nearest the hint first; the rest only when the
/// chars right next to them agree.
const SCORED_NEAR: usize = 48;

/// Contractions spelled out, so `don’t` agrees with `do not`.
const CONTRACTIONS: &[(&str, &str, &str)] = &[
    ("don't", "do", "not"),
    ("doesn't", "does", "not"),
    ("didn't", "did", "not"),
    ("can't", "can", "not"),
    ("cannot", "can", "not"),
    ("won't", "will", "not"),
    ("isn't", "is", "not"),
    ("aren't", "are", "not"),
    ("wasn't", "was", "not"),
    ("weren't", "were", "not"),
    ("haven't", "have", "not"),
    ("hasn't", "has", "not"),
    ("shouldn't", "should", "not"),
    ("wouldn't", "would", "not"),
    ("couldn't", "could", "not"),
    ("it's", "it", "is"),
    ("that's", "that", "is"),
    ("there's", "there", "is"),
    ("let's", "let", "us"),
    ("you're", "you", "are"),
    ("we're", "we", "are"),
    ("they're", "they", "are"),
    ("i'm", "i", "am"),
    ("you'll", "you", "will"),
    ("we'll", "we", "will"),
    ("it'll", "it", "will"),
    ("i've", "i", "have"),
    ("you've", "you", "have"),
    ("we've", "we", "have"),
];

/// Which way a side is read from the text.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Way {
    Before,
    After,
}

/// `c` as compared: typographic quotes and apostrophes as straight ones.
fn plain(c: char) -> char {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '`' | '\u{00B4}' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{00AB}' | '\u{00BB}' => '"',
        c => c,
    }
}

/// `s` normalized, read forward: [`plain`] chars, a `>` at a line's start (a
/// blockquote marker) as whitespace, every whitespace run one space.
/// `line_start`: `s` begins a line.
pub(super) fn normalize(s: &str, line_start: bool) -> Vec<char> {
    let mut out = Vec::with_capacity(s.len());
    let mut at_line_start = line_start;
    let mut in_ws = false;
    for c in s.chars() {
        let c = plain(c);
        let ws = c.is_whitespace() || (c == '>' && at_line_start);
        if c == '\n' || c == '\r' {
            at_line_start = true;
        } else if !ws {
            at_line_start = false;
        }
        if ws {
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

/// The visible words of normalized chars `chars` (read outward: nearest the
/// text first): runs of letters and digits, an apostrophe between two of them
/// kept (`don't`), contractions spelled out. Every other char separates words.
pub(super) fn visible_words(chars: &[char], way: Way) -> Vec<String> {
    let mut forward: Vec<String> = Vec::new();
    let mut cur = String::new();
    let flush = |cur: &mut String, out: &mut Vec<String>| {
        if cur.is_empty() {
            return;
        }
        let w = std::mem::take(cur);
        let w = w.trim_matches('\'').to_owned();
        let lower = w.to_lowercase();
        if let Some((_, a, b)) = CONTRACTIONS.iter().find(|(c, _, _)| *c == lower) {
            out.push((*a).to_owned());
            out.push((*b).to_owned());
        } else if !w.is_empty() {
            out.push(lower);
        }
    };
    for (i, &c) in chars.iter().enumerate() {
        let wordy = c.is_alphanumeric()
            || (c == '\'' && !cur.is_empty() && chars.get(i + 1).is_some_and(|d| d.is_alphanumeric()));
        if wordy {
            cur.push(c);
        } else {
            flush(&mut cur, &mut forward);
        }
    }
    flush(&mut cur, &mut forward);
    if way == Way::Before {
        forward.reverse();
    }
    forward
}

/// One recorded side, prepared for the fallback.
pub(super) struct Side {
    way: Way,
    /// Normalized, read outward from the text.
    outward: Vec<char>,
    /// Its non-space chars.
    solid: usize,
    /// Its visible words, outward; a word cut by the 32-char limit left out.
    words: Vec<String>,
    /// Chars of `words`.
    word_chars: usize,
    /// Its chars next to the text include one that normalizing changes
    /// (`>`, a backtick, anything not ASCII).
    special: bool,
    /// Recorded short: the document's edge was there.
    at_edge: bool,
}

impl Side {
    pub(super) fn new(raw: &str, full_len: usize, way: Way) -> Self {
        let at_edge = raw.chars().count() < full_len;
        let mut norm = normalize(raw, way == Way::Before && at_edge);
        let mut words = visible_words(&norm, way);
        // The far end of a full side may have cut a word: it is no evidence.
        let far = match way {
            Way::Before => norm.first(),
            Way::After => norm.last(),
        };
        if !at_edge && far.is_some_and(|c| c.is_alphanumeric()) {
            words.pop();
        }
        if way == Way::Before {
            norm.reverse();
        }
        Side {
            way,
            solid: norm.iter().filter(|c| **c != ' ').count(),
            word_chars: words.iter().map(|w| w.chars().count()).sum(),
            special: {
                let near: Vec<char> = match way {
                    Way::Before => raw.chars().rev().take(SPECIAL_BYTES).collect(),
                    Way::After => raw.chars().take(SPECIAL_BYTES).collect(),
                };
                near.iter().any(|&c| c == '>' || c == '`' || !c.is_ascii())
            },
            outward: norm,
            words,
            at_edge,
        }
    }

    /// Whether the chars right next to a candidate at byte `at` agree with
    /// this side's ([`ADJACENT_SOLID`] of them, tolerantly): what
    /// [`Self::score`] calls `next_to`, cheaply.
    fn next_to(&self, text: &str, at: usize) -> bool {
        if self.solid == 0 {
            return false;
        }
        let (window, line_start) = match self.way {
            Way::Before => {
                let mut from = at.saturating_sub(NEXT_TO_WINDOW);
                while !text.is_char_boundary(from) {
                    from -= 1;
                }
                (
                    &text[from..at],
                    from == 0 || matches!(text.as_bytes()[from - 1], b'\n' | b'\r'),
                )
            }
            Way::After => {
                let mut to = (at + NEXT_TO_WINDOW).min(text.len());
                while !text.is_char_boundary(to) {
                    to += 1;
                }
                (
                    &text[at..to],
                    at > 0 && matches!(text.as_bytes()[at - 1], b'\n' | b'\r'),
                )
            }
        };
        let mut got = normalize(window, line_start);
        if self.way == Way::Before {
            got.reverse();
        }
        near(&self.outward, &got) >= ADJACENT_SOLID.min(self.solid)
    }

    /// What this side says of a candidate whose text starts (`Before`) or
    /// ends (`After`) at byte `at` of `text`: `(share, weight, real,
    /// next_to)`, where `real` says the share is agreement of chars or words,
    /// not only the edge, and `next_to` that the chars right next to the text
    /// agree ([`ADJACENT_SOLID`]).
    fn score(&self, text: &str, at: usize) -> (f64, f64, bool, bool) {
        let (window, line_start, edge) = match self.way {
            Way::Before => {
                let mut from = at.saturating_sub(WINDOW);
                while !text.is_char_boundary(from) {
                    from -= 1;
                }
                let ls = from == 0 || matches!(text.as_bytes()[from - 1], b'\n' | b'\r');
                (&text[from..at], ls, from == 0)
            }
            Way::After => {
                let mut to = (at + WINDOW).min(text.len());
                while !text.is_char_boundary(to) {
                    to += 1;
                }
                let ls = at > 0 && matches!(text.as_bytes()[at - 1], b'\n' | b'\r');
                (&text[at..to], ls, to == text.len())
            }
        };
        let mut got = normalize(window, line_start);
        let got_words = visible_words(&got, self.way);
        if self.way == Way::Before {
            got.reverse();
        }
        let weight = self.solid as f64;
        let agreed = near(&self.outward, &got);
        // The chars right next to the text agree (tolerantly).
        let next_to = agreed >= ADJACENT_SOLID.min(self.solid);
        let near = if self.solid == 0 || !on(rules::TOLERANT) {
            0.0
        } else {
            agreed as f64 / self.solid as f64
        };
        let words = if !on(rules::WORDS) {
            0.0
        } else if on(rules::EDIT_DISTANCE) {
            words_score(&self.words, &got_words)
        } else {
            let same = self
                .words
                .iter()
                .zip(&got_words)
                .take_while(|(a, b)| a == b)
                .count();
            same as f64 / self.words.len().max(1) as f64
        };
        // Words say as much as they cover of the side (little, in code or
        // markup); and less when the chars between them and the text differ
        // (`==` become `===`).
        let cover = (self.word_chars as f64 / self.solid.max(1) as f64 / FULL_COVER).min(1.0);
        let next_to_it = if first_word_reached(&self.outward, &got) {
            1.0
        } else {
            PUNCTUATION_CHANGED
        };
        let words = words * cover * next_to_it;
        let share = near.max(words);
        let real = self.solid > 0 && share > 0.0;
        if on(rules::DISTANCE_AND_EDGE)
            && self.at_edge
            && edge
            && got_words.len() <= self.words.len()
            && got_words == self.words
        {
            // Still at the document's edge, with the same visible words (none
            // or what was recorded) between.
            return (1.0, weight.max(EDGE_WEIGHT), real, next_to);
        }
        (share, weight, real, next_to)
    }
}

/// Whether `recorded` and `got` (normalized, outward) agree up to the first
/// letter or digit of `recorded`, or differ first in a word: their
/// punctuation next to the text is the same.
fn first_word_reached(recorded: &[char], got: &[char]) -> bool {
    for (i, &r) in recorded.iter().enumerate() {
        match got.get(i) {
            Some(&g) if g == r => {
                if r.is_alphanumeric() {
                    return true;
                }
            }
            Some(&g) => return r.is_alphanumeric() && g.is_alphanumeric(),
            None => return false,
        }
    }
    true
}

/// Non-space chars of `recorded` that agree with `got`, both normalized and
/// read outward, cut back to the last whole token that agrees.
fn near(recorded: &[char], got: &[char]) -> usize {
    let mut solid = 0;
    // Solid chars agreed before the word (run of letters and digits) that
    // `recorded[i]` belongs to.
    let mut before_word = 0;
    for (i, &r) in recorded.iter().enumerate() {
        let in_word = i > 0 && recorded[i - 1].is_alphanumeric();
        if r.is_alphanumeric() && !in_word {
            before_word = solid;
        }
        if got.get(i) != Some(&r) {
            // A word cut in its middle, or one that goes on in `got`, does not count.
            let cut = in_word && (r.is_alphanumeric() || got.get(i).is_some_and(|g| g.is_alphanumeric()));
            return if cut { before_word } else { solid };
        }
        if r != ' ' {
            solid += 1;
        }
    }
    solid
}

/// How much of `recorded` (visible words, outward) is still in `got` (the
/// same, read beside a candidate): 1 less the token edit distance over the
/// recorded words, the far end of `got` free (a word inserted pushes the
/// others outward, out of the window).
pub(super) fn words_score(recorded: &[String], got: &[String]) -> f64 {
    let n = recorded.len();
    if n == 0 {
        return 0.0;
    }
    let m = got.len().min(n + 3);
    let mut prev: Vec<usize> = (0..=m).collect();
    let mut cur = vec![0; m + 1];
    for i in 1..=n {
        cur[0] = i;
        for j in 1..=m {
            let sub = prev[j - 1] + usize::from(recorded[i - 1] != got[j - 1]);
            cur[j] = sub.min(prev[j] + 1).min(cur[j - 1] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    let d = prev.iter().copied().min().unwrap_or(n);
    (1.0 - d as f64 / n as f64).max(0.0)
}

/// A candidate as the fallback weighs it.
#[derive(Clone, Copy, Debug)]
struct Weighed {
    start: usize,
    end: usize,
    /// Both sides' share, weighted by their length.
    context: f64,
    /// Lines from the hint.
    distance: usize,
    /// It may win: one side agrees strongly, by chars or words.
    strong: bool,
}

impl Weighed {
    fn score(&self) -> f64 {
        if !on(rules::DISTANCE_AND_EDGE) {
            return self.context;
        }
        self.context / (1.0 + self.distance as f64 / HALF_AT_LINES)
    }
}

/// The place, among `cands`, that the fallback evidence picks: `None` when no
/// place is clearly it. `line_of` gives a byte's line; `far_lines` is the
/// ladder's [far](super::FAR_LINES) distance.
pub(super) fn decide(
    text: &str,
    cands: &[Candidate],
    [before, after]: [&Side; 2],
    hint: usize,
    far_lines: usize,
    distinctive: bool,
    line_of: impl Fn(usize) -> usize,
) -> Option<(usize, usize)> {
    let eligible = || cands.iter().filter(|c| c.boundaries || distinctive);
    // Cheaply first: a place can win only where one side agrees right next to
    // the text (most orphaned anchors end here).
    // Where neither the recorded side nor the text beside it has a char that
    // normalizing changes, the ladder's squashed agreement (`adjacent`) bounds
    // it: too few chars there, and it cannot agree.
    let special = |bytes: &[u8]| bytes.iter().any(|&b| b == b'>' || b == b'`' || b >= 0x80);
    let could = |side: &Side, adjacent: usize, near: &[u8]| {
        side.special || adjacent >= ADJACENT_SOLID.min(side.solid) || special(near)
    };
    let next_to = |c: &Candidate| {
        let near_before = &text.as_bytes()[c.start.saturating_sub(SPECIAL_BYTES)..c.start];
        let near_after = &text.as_bytes()[c.end..(c.end + SPECIAL_BYTES).min(text.len())];
        (could(before, c.before.adjacent, near_before) && before.next_to(text, c.start))
            || (could(after, c.after.adjacent, near_after) && after.next_to(text, c.end))
    };
    let hopeful: Vec<bool> = eligible().map(next_to).collect();
    if !hopeful.contains(&true) {
        return None;
    }
    let mut eligible: Vec<(usize, &Candidate, bool)> = eligible()
        .zip(hopeful)
        .map(|(c, h)| (line_of(c.start).abs_diff(hint), c, h))
        .collect();
    eligible.sort_by_key(|(d, c, _)| (*d, c.start));
    let weigh = |distance: usize, c: &Candidate| {
        let (sb, wb, rb, nb) = before.score(text, c.start);
        let (sa, wa, ra, na) = after.score(text, c.end);
        let context = if wb + wa == 0.0 {
            0.0
        } else {
            (sb * wb + sa * wa) / (wb + wa)
        };
        // A side that agrees for real, strongly, right next to the text
        // too; the edge alone is not enough, and a side of a few chars
        // proves little.
        let strong_side = |s: f64, w: f64, real: bool| real && s >= SIDE_STRONG && w >= 4.0;
        // And the other side agrees a little too, where it recorded anything.
        let some = |s: f64, w: f64| distinctive || w == 0.0 || s >= SIDE_WEAK;
        let strong = (strong_side(sb, wb, rb) && nb && some(sa, wa))
            || (strong_side(sa, wa, ra) && na && some(sb, wb));
        Weighed {
            start: c.start,
            end: c.end,
            context: if rb || ra { context } else { 0.0 },
            distance,
            strong,
        }
    };
    // Those that could win first; the others only when one does, to check
    // it against them (the nearest, and any whose chars next to it agree).
    let mut weighed: Vec<Option<Weighed>> = eligible
        .iter()
        .map(|&(d, c, hopeful)| hopeful.then(|| weigh(d, c)))
        .collect();
    if !weighed.iter().flatten().any(|w| w.strong && w.context >= ACCEPT) {
        return None;
    }
    for (i, &(d, c, _)) in eligible.iter().enumerate() {
        if weighed[i].is_none() && (i < SCORED_NEAR || c.before.adjacent >= 3 || c.after.adjacent >= 3) {
            weighed[i] = Some(weigh(d, c));
        }
    }
    let weighed: Vec<Weighed> = weighed.into_iter().flatten().collect();
    let best = weighed
        .iter()
        .filter(|w| w.strong && w.context >= ACCEPT)
        .max_by(|a, b| a.score().total_cmp(&b.score()))?;
    let others = weighed
        .iter()
        .filter(|w| (w.start, w.end) != (best.start, best.end));
    if best.distance > far_lines {
        if !on(rules::FAR) {
            return None;
        }
        // A moved paragraph: only on strong context nothing else comes near.
        let unique = others.clone().all(|o| o.context <= best.context - FAR_MARGIN);
        return (best.context >= FAR_STRONG && unique).then_some((best.start, best.end));
    }
    // Every other candidate clearly worse by its context (the distance only
    // picks among those), or, of copies alike, clearly farther.
    let clear = others.clone().all(|o| {
        (o.context <= best.context - MARGIN && o.score() < best.score())
            || (on(rules::NEAREST_COPY)
                && o.distance >= (NEARER_TIMES * (best.distance + 1)).max(best.distance + NEARER_GAP)
                && o.context <= best.context + 0.05)
    });
    clear.then_some((best.start, best.end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str, way: Way) -> Vec<String> {
        visible_words(&normalize(s, false), way)
    }

    #[test]
    fn normalized_quotes_markers_and_whitespace() {
        let n: String = normalize("“Don’t”\n> > quoted\n  x", true).into_iter().collect();
        assert_eq!(n, "\"Don't\" quoted x");
    }

    #[test]
    fn visible_words_spell_out_contractions_and_skip_markup() {
        assert_eq!(
            words("```rust,noplayground\n", Way::Before),
            ["noplayground", "rust"]
        );
        assert_eq!(
            words("You don’t <b>need</b>", Way::After),
            ["you", "do", "not", "b", "need", "b"]
        );
    }

    #[test]
    fn near_agreement_is_cut_back_to_a_whole_token() {
        let r: Vec<char> = " fast car".chars().collect();
        assert_eq!(near(&r, &" fast cat".chars().collect::<Vec<_>>()), 4);
        assert_eq!(near(&r, &" fast car".chars().collect::<Vec<_>>()), 7);
        let r: Vec<char> = " fast car x".chars().collect();
        assert_eq!(near(&r, &" fast cars x".chars().collect::<Vec<_>>()), 4);
    }

    #[test]
    fn a_word_or_two_costs_only_them() {
        let w = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(words_score(&w("a b c d e"), &w("a b c d e")), 1.0);
        assert!((words_score(&w("a b c d e"), &w("a x c d e f g")) - 0.8).abs() < 1e-9);
        assert!((words_score(&w("a b c d e"), &w("new a b c d e")) - 0.8).abs() < 1e-9);
        assert_eq!(words_score(&w("a b"), &w("x y z")), 0.0);
    }
}
