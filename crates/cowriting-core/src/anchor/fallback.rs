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
//!   hint is taken only when every other is several times farther;
//! - **the dominant place** (where all the above find none): the candidate
//!   whose context agrees char for char, tolerantly, at least as far as every
//!   other's on both sides and clearly farther in all, one side whole, near
//!   the hint, with no other as near that kept a side whole
//!   ([`decide_by_chars`]).
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
    /// The place whose context agrees, char for char, at least as far on
    /// both sides as every other's, and clearly farther in all (round 3b).
    pub const DOMINANT: u32 = 1 << 6;
    pub const ALL: u32 = (1 << 7) - 1;
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

/// Solid chars by which a [dominant](rules::DOMINANT) place's context must
/// agree farther than every other place's (both sides together; neither side
/// less).
pub const DOMINANT_MARGIN: usize = 6;

/// Solid chars a side recorded at the document's edge counts for, beside its
/// own, when a place is still at that edge (for [`rules::DOMINANT`]).
pub const EDGE_CHARS: usize = 8;

/// Lines from `lineHint` within which a [dominant](rules::DOMINANT) place
/// may be (and the ladder's far distance, when that is less).
pub const DOMINANT_LINES: usize = 20;

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
    let mut out = Vec::new();
    each_visible_word(chars, |w| out.push(w.to_owned()));
    if way == Way::Before {
        out.reverse();
    }
    out
}

/// [`visible_words`] as hashes ([`word_hash`]): what candidates' words are
/// compared as, without a string each.
fn visible_word_hashes(chars: &[char], way: Way) -> Vec<u64> {
    let mut out = Vec::new();
    each_visible_word(chars, |w| out.push(word_hash(w)));
    if way == Way::Before {
        out.reverse();
    }
    out
}

/// A word, as compared: FNV-1a of its text.
fn word_hash(w: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in w.bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Each visible word of `chars`, forward, lowercased, contractions spelled
/// out (see [`visible_words`]).
fn each_visible_word(chars: &[char], mut emit: impl FnMut(&str)) {
    let mut cur = String::new();
    let mut flush = |cur: &mut String| {
        if cur.is_empty() {
            return;
        }
        // (In place where it is ASCII: most words, no allocation.)
        if cur.is_ascii() {
            cur.make_ascii_lowercase();
        } else {
            *cur = cur.to_lowercase();
        }
        let w = cur.trim_matches('\'');
        let spelled = if w.contains('\'') || w == "cannot" {
            CONTRACTIONS.iter().find(|(c, _, _)| *c == w)
        } else {
            None
        };
        match spelled {
            Some((_, a, b)) => {
                emit(a);
                emit(b);
            }
            None if !w.is_empty() => emit(w),
            None => {}
        }
        cur.clear();
    };
    for (i, &c) in chars.iter().enumerate() {
        let wordy = c.is_alphanumeric()
            || (c == '\'' && !cur.is_empty() && chars.get(i + 1).is_some_and(|d| d.is_alphanumeric()));
        if wordy {
            cur.push(c);
        } else {
            flush(&mut cur);
        }
    }
    flush(&mut cur);
}

/// One recorded side, prepared for the fallback.
pub(super) struct Side {
    way: Way,
    /// Normalized, read outward from the text.
    outward: Vec<char>,
    /// Its non-space chars.
    solid: usize,
    /// Its visible words, outward; a word cut by the 32-char limit left out.
    words: Vec<u64>,
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
            words: words.iter().map(|w| word_hash(w)).collect(),
            at_edge,
        }
    }

    /// The `bytes` (at most; cut at a char boundary) of `text` on this side of
    /// byte `at`, whether they start a line, and whether they reach the
    /// document's edge on this side.
    fn window<'t>(&self, text: &'t str, at: usize, bytes: usize) -> (&'t str, bool, bool) {
        match self.way {
            Way::Before => {
                let mut from = at.saturating_sub(bytes);
                while !text.is_char_boundary(from) {
                    from -= 1;
                }
                let ls = from == 0 || matches!(text.as_bytes()[from - 1], b'\n' | b'\r');
                (&text[from..at], ls, from == 0)
            }
            Way::After => {
                let mut to = (at + bytes).min(text.len());
                while !text.is_char_boundary(to) {
                    to += 1;
                }
                let ls = at > 0 && matches!(text.as_bytes()[at - 1], b'\n' | b'\r');
                (&text[at..to], ls, to == text.len())
            }
        }
    }

    /// Solid chars of this side that agree, tolerantly, read outward from a
    /// candidate at byte `at` (cut back to a whole token, see [`near`]); and
    /// whether the candidate is still at the document's edge this side was
    /// recorded at, with nothing but whitespace between.
    fn agreed(&self, text: &str, at: usize) -> (usize, bool) {
        let (window, line_start, edge) = self.window(text, at, WINDOW);
        let mut got = normalize(window, line_start);
        if self.way == Way::Before {
            got.reverse();
        }
        let agreed = near(&self.outward, &got);
        let still_at_edge = self.at_edge
            && edge
            && agreed == self.solid
            && got.iter().filter(|c| **c != ' ').count() == self.solid;
        (agreed, still_at_edge)
    }

    /// Whether the chars right next to a candidate at byte `at` agree with
    /// this side's ([`ADJACENT_SOLID`] of them, tolerantly): what
    /// [`Self::score`] calls `next_to`, cheaply.
    fn next_to(&self, text: &str, at: usize) -> bool {
        if self.solid == 0 {
            return false;
        }
        let (window, line_start, _) = self.window(text, at, NEXT_TO_WINDOW);
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
        let (window, line_start, edge) = self.window(text, at, WINDOW);
        let mut got = normalize(window, line_start);
        let got_words = visible_word_hashes(&got, self.way);
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
pub(super) fn words_score<T: PartialEq>(recorded: &[T], got: &[T]) -> f64 {
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

/// Whether the chars right next to candidate `c` agree on either side
/// ([`Side::next_to`]), cheaply: where neither the recorded side nor the text
/// beside it has a char that normalizing changes, the ladder's squashed
/// agreement (`adjacent`) bounds it: too few chars there, and it cannot agree.
fn next_to(text: &str, c: &Candidate, [before, after]: [&Side; 2]) -> bool {
    let special = |bytes: &[u8]| bytes.iter().any(|&b| b == b'>' || b == b'`' || b >= 0x80);
    let could = |side: &Side, adjacent: usize, near: &[u8]| {
        side.special || adjacent >= ADJACENT_SOLID.min(side.solid) || special(near)
    };
    let near_before = &text.as_bytes()[c.start.saturating_sub(SPECIAL_BYTES)..c.start];
    let near_after = &text.as_bytes()[c.end..(c.end + SPECIAL_BYTES).min(text.len())];
    (could(before, c.before.adjacent, near_before) && before.next_to(text, c.start))
        || (could(after, c.after.adjacent, near_after) && after.next_to(text, c.end))
}

/// The place, among `cands`, that the fallback evidence picks: `None` when no
/// place is clearly it. `line_of` gives a byte's line; `far_lines` is the
/// ladder's [far](super::FAR_LINES) distance.
pub(super) fn decide(
    text: &str,
    cands: &[Candidate],
    sides: [&Side; 2],
    hint: usize,
    far_lines: usize,
    distinctive: bool,
    line_of: impl Fn(usize) -> usize,
) -> Option<(usize, usize)> {
    let eligible: Vec<&Candidate> = cands.iter().filter(|c| c.boundaries || distinctive).collect();
    // Cheaply first: a place can win only where one side agrees right next to
    // the text (most orphaned anchors end here).
    let hopeful: Vec<bool> = eligible.iter().map(|c| next_to(text, c, sides)).collect();
    if !hopeful.contains(&true) {
        return None;
    }
    decide_by_context(
        text,
        &eligible,
        &hopeful,
        sides,
        hint,
        far_lines,
        distinctive,
        &line_of,
    )
    .or_else(|| decide_by_chars(text, &eligible, &hopeful, sides, hint, far_lines, &line_of))
}

/// Rule 7 (round 3b), asked where [`decide_by_context`] finds no place: the
/// context read char for char (tolerantly, as [`near`] reads it), outward, on
/// both sides of every place ([`rules::DOMINANT`]). A place wins when
/// - one of its sides agrees whole (4 solid chars at least);
/// - it is within [`DOMINANT_LINES`] of `lineHint` (and not far);
/// - its context agrees at least as far as every other place's on both
///   sides, and farther by [`DOMINANT_MARGIN`] solid chars in all (a side
///   still at the document's edge it was recorded at counts [`EDGE_CHARS`]
///   more);
/// - no other place is as near the hint with a side whole or half its
///   agreement (the mirror case: a copy reading more like the recorded
///   context than the true place, which kept one side, beside the hint);
/// - no other place's context, weighed by rules 1–3 (words included),
///   scores as well.
///
/// Alone (the text's only place), it needs a whole side, the chars right
/// next to the text agreeing on the other, and the distance. Two places that
/// agree alike are never told apart this way (INV-1).
fn decide_by_chars(
    text: &str,
    eligible: &[&Candidate],
    hopeful: &[bool],
    [before, after]: [&Side; 2],
    hint: usize,
    far_lines: usize,
    line_of: &impl Fn(usize) -> usize,
) -> Option<(usize, usize)> {
    if !on(rules::DOMINANT) || eligible.is_empty() {
        return None;
    }
    // (chars before, chars after, a side whole)
    let read_of = |c: &Candidate| {
        let (b, b_edge) = before.agreed(text, c.start);
        let (a, a_edge) = after.agreed(text, c.end);
        // A side of a few chars proves little, even whole.
        let whole = |n: usize, side: &Side| side.solid >= 4 && n == side.solid;
        let bonus = |edge: bool| if edge { EDGE_CHARS } else { 0 };
        (
            b + bonus(b_edge),
            a + bonus(a_edge),
            whole(b, before) || whole(a, after),
        )
    };
    // Only a place whose chars right next to it agree can have a side whole:
    // the others are read only once one does (most orphaned anchors end here).
    let mut read: Vec<Option<(usize, usize, bool)>> = eligible
        .iter()
        .zip(hopeful)
        .map(|(c, &h)| h.then(|| read_of(c)))
        .collect();
    if !read.iter().flatten().any(|r| r.2) {
        return None;
    }
    let read: Vec<(usize, usize, bool)> = eligible
        .iter()
        .zip(&mut read)
        .map(|(c, r)| r.take().unwrap_or_else(|| read_of(c)))
        .collect();
    let distance = |c: &Candidate| line_of(c.start).abs_diff(hint);
    let limit = DOMINANT_LINES.min(far_lines);
    if let [only] = eligible {
        // Alone, a whole side is enough only where the chars right next to
        // the text agree on the other side too.
        let (b, a, strong) = read[0];
        let other_next_to = if b >= before.solid {
            a >= ADJACENT_SOLID.min(after.solid)
        } else {
            b >= ADJACENT_SOLID.min(before.solid)
        };
        return (strong && other_next_to && distance(only) <= limit).then_some((only.start, only.end));
    }
    // The best by chars agreed in all; then every other checked against it.
    let (w, &(wb, wa, strong)) = read.iter().enumerate().max_by_key(|(_, r)| r.0 + r.1)?;
    let winner = eligible[w];
    let dw = distance(winner);
    if !strong || dw > limit {
        return None;
    }
    // Farther than every other by its chars; and no other place with a side
    // whole as near the hint (the mirror case: a copy that reads more like
    // the recorded context, beside the true place that kept one side).
    // Nor may a place that agrees half as far be as near the hint.
    let dominant = read.iter().enumerate().all(|(i, &(b, a, whole))| {
        let as_near = distance(eligible[i]) <= dw;
        i == w
            || (b <= wb
                && a <= wa
                && (wb - b) + (wa - a) >= DOMINANT_MARGIN
                && !(as_near && (whole || 2 * (b + a) >= wb + wa)))
    });
    if !dominant {
        return None;
    }
    // Nor may the words either side say otherwise: no other place's context,
    // weighed as rules 1–3 weigh it, agrees better.
    let words = |c: &Candidate| {
        let (sb, wb, _, _) = before.score(text, c.start);
        let (sa, wa, _, _) = after.score(text, c.end);
        if wb + wa == 0.0 {
            0.0
        } else {
            (sb * wb + sa * wa) / (wb + wa)
        }
    };
    let best = words(winner);
    eligible
        .iter()
        .enumerate()
        .all(|(i, c)| i == w || words(c) < best)
        .then_some((winner.start, winner.end))
}

/// Rules 1–6 (round 3): the context weighed tolerantly, by words, by
/// distance.
/// `eligible`: the candidates that may win; `hopeful`: which of them agree
/// right next to the text ([`next_to`]).
#[allow(clippy::too_many_arguments)]
fn decide_by_context(
    text: &str,
    eligible: &[&Candidate],
    hopeful: &[bool],
    [before, after]: [&Side; 2],
    hint: usize,
    far_lines: usize,
    distinctive: bool,
    line_of: &impl Fn(usize) -> usize,
) -> Option<(usize, usize)> {
    let mut eligible: Vec<(usize, &Candidate, bool)> = eligible
        .iter()
        .zip(hopeful)
        .map(|(&c, &h)| (line_of(c.start).abs_diff(hint), c, h))
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

    /// Rule 7 alone on `new`: the anchor is the `nth` `needle` of `old`,
    /// `hint` its line (`None` for the old line).
    fn dominant(old: &str, needle: &str, nth: usize, new: &str, hint: Option<usize>) -> Option<usize> {
        let at = old.match_indices(needle).nth(nth).unwrap().0;
        let before: String = old[..at]
            .chars()
            .rev()
            .take(32)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let after: String = old[at + needle.len()..].chars().take(32).collect();
        let hint = hint.unwrap_or_else(|| old[..at].matches('\n').count());
        // With the ladder's evidence, as the resolver hands them over.
        use super::super::evidence::{Dir, Recorded};
        let (rb, ra) = (
            Recorded::new(&before, 32, Dir::Before),
            Recorded::new(&after, 32, Dir::After),
        );
        let cands: Vec<Candidate> = new
            .match_indices(needle)
            .map(|(s, _)| Candidate {
                start: s,
                end: s + needle.len(),
                before: rb.at(new, s),
                after: ra.at(new, s + needle.len()),
                boundaries: true,
            })
            .collect();
        let sides = [
            &Side::new(&before, 32, Way::Before),
            &Side::new(&after, 32, Way::After),
        ];
        let line_of = |b: usize| new[..b].matches('\n').count();
        let eligible: Vec<&Candidate> = cands.iter().collect();
        let hopeful: Vec<bool> = eligible.iter().map(|c| next_to(new, c, sides)).collect();
        decide_by_chars(new, &eligible, &hopeful, sides, hint, 20, &line_of).map(|(s, _)| s)
    }

    fn link_definitions(labels: &[&str], path: &str) -> String {
        labels
            .iter()
            .map(|l| {
                format!("[`{l}`]: https://doc.rust-lang.org/nightly/nightly-rustc/{path}/enum.{l}.html\n")
            })
            .collect()
    }

    #[test]
    fn rule_7_takes_the_place_whose_context_agrees_clearly_farthest() {
        // Every path changed after the text; the first label is still the
        // recorded one: its `before` is whole, the others' 6 chars shorter.
        let labels = ["RegionKind", "ReVar", "ReStatic"];
        let old = link_definitions(&labels, "rustc_middle/ty");
        let new = link_definitions(&labels, "rustc_type_ir/sty");
        assert_eq!(dominant(&old, "org", 0, &new, None), new.find("org"));
    }

    #[test]
    fn rule_7_does_not_fire_where_copies_are_equally_good() {
        let old = link_definitions(&["RegionKind"; 3], "rustc_middle/ty");
        let new = link_definitions(&["RegionKind"; 3], "rustc_type_ir/sty");
        assert_eq!(dominant(&old, "org", 1, &new, None), None);
        // Nor by a margin of less than DOMINANT_MARGIN chars: the two differ
        // only in the recorded side's farthest char (`a` and `b`).
        let line = |c: &str, path: &str| {
            format!("{c}[`ReV`]: https://doc.rust-lang.org/nightly/nightly-rustc/{path}/enum.ReV.html\n")
        };
        let old = line("a", "rustc_middle/ty") + &line("b", "rustc_middle/ty");
        let new = line("a", "rustc_type_ir/sty") + &line("b", "rustc_type_ir/sty");
        assert_eq!(dominant(&old, "org", 0, &new, None), None);
        // (`ReVar` and `ReVaz`: the word that differs and what lies beyond
        // it, 8 chars: taken.)
        let old = link_definitions(&["ReVar", "ReVaz"], "rustc_middle/ty");
        let new = link_definitions(&["ReVar", "ReVaz"], "rustc_type_ir/sty");
        assert_eq!(dominant(&old, "org", 0, &new, None), new.find("org"));
    }

    #[test]
    fn rule_7_does_not_take_a_copy_over_a_place_as_near_that_kept_a_side() {
        // The anchored definition's URL was re-pointed; the next line's
        // reads more like the recorded context. At the hint, the true place
        // kept its whole `before`: not told apart.
        let old = "[`Goal`]: https://doc.rust-lang.org/nightly/nightly-rustc/rustc_trait_selection/solve/enum.Goal.html\n\
                   [`Query`]: https://doc.rust-lang.org/nightly/nightly-rustc/rustc_trait_selection/solve/type.Query.html\n";
        let new = "[`Goal`]: https://doc.rust-lang.org/nightly/nightly-rustc/rustc_infer/infer/enum.Goal.html\n\
                   [`Query`]: https://doc.rust-lang.org/nightly/nightly-rustc/rustc_trait_selection/solve/type.Query.html\n";
        assert_eq!(dominant(old, "rustc_", 0, new, None), None);
        // With the hint at the copy, the copy is nearer: taken.
        let second = new.match_indices("rustc_").nth(1).map(|(s, _)| s);
        assert_eq!(dominant(old, "rustc_", 0, new, Some(1)), second);
    }

    #[test]
    fn rule_7_takes_an_only_place_on_a_whole_side_and_its_neighbour_chars() {
        let old = "The function returns early when the input is empty, as `check_input()` explains below.\n";
        let new = "The function returns early when the input is empty, as `check_input()` will show further down.\n";
        assert_eq!(
            dominant(old, "check_input", 0, new, None),
            new.find("check_input")
        );
        // Not where the chars right after it changed too.
        let new =
            "The function returns early when the input is empty, as `check_input` will show further down.\n";
        assert_eq!(dominant(old, "check_input", 0, new, None), None);
        // Nor on less than a whole side.
        let new = "The function returns early when the input is blank, as `check_input()` will show further down.\n";
        assert_eq!(dominant(old, "check_input", 0, new, None), None);
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
