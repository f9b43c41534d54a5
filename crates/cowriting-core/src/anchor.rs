//! Anchoring: fingerprints and the resolve ladder (INV-1: never guess).
//!
//! A [`Fingerprint`] remembers an anchored text and up to [`CONTEXT_CHARS`] chars
//! of context on each side. [`resolve`] finds it again in a document:
//!
//! 1. the live-tracked range (mapped through every edit of this session), when it
//!    still holds exactly `text`: [`Resolution::Found`];
//! 2. else the text with its exact recorded context, searched outward from
//!    `lineHint` (the common case, fast);
//! 3. else, when the place it was taken at is still there holding other text
//!    (its whole context, both sides, once, with something else between),
//!    [`Resolution::Orphaned`]: it was replaced where it stood;
//! 4. else every exact occurrence of `text` — and, when it has whitespace in
//!    it, every place that holds its words in order with only the whitespace
//!    between them changed (a re-wrap or re-indent) — weighed by the
//!    evidence (`anchor::evidence`) around it: when one place is clearly it,
//!    [`Resolution::Found`] if it holds the exact text, else
//!    [`Resolution::Relocated`], flagged, because the text is no longer exactly
//!    what was anchored;
//! 5. else, where step 4 found the text but no place clearly (its context
//!    changed; not a tie of copies whose whole context agrees), the fallback
//!    evidence (`anchor::fallback`: context compared tolerantly, through
//!    markup, by words, by distance from `lineHint`; then char for char, the
//!    place that agrees clearly farthest): when one place is
//!    clearly it, [`Resolution::Likely`] (relocated, for re-wrapped words);
//! 6. else [`Resolution::Orphaned`].
//!
//! Weighing the candidates of one step (context compared with whitespace
//! squashed, see `anchor::evidence`):
//! - a candidate whose recorded context agrees *whole* on both sides is it; of
//!   several, the nearest to `lineHint` (exact context before squashed), and a
//!   tie that still stands is orphaned;
//! - else each candidate gets a *similarity* (0 to 1): mostly how much of the
//!   recorded context's words are still beside it, near where they were, and
//!   partly how much agrees char for char right next to it. A candidate is
//!   *plausible* when it starts and ends on the same word boundaries as the
//!   anchored text did, the context right next to it agrees on at least one
//!   side, and either one side agrees whole or it is at least
//!   [`SIMILAR_ENOUGH`] — [`SIMILAR_WHEN_FAR`] when it is [far](FAR_LINES) from
//!   `lineHint` — or when the text is [distinctive](DISTINCTIVE_CHARS);
//! - the most similar plausible candidate wins only by a clear [`MARGIN`] over
//!   every other candidate; anything closer is ambiguous, and orphaned
//!   (distinctive text is then placed by `lineHint`, a tie orphaned).
//!
//! So a short or repeated text whose context changed beyond recognition is
//! orphaned, never placed on another copy of the word, and a found range always
//! holds exactly `fingerprint.text`; a relocated one holds its words with the
//! same whitespace runs, only changed in kind or length.
//!
//! An empty `text` (an insertion point) resolves only where `before` ends and
//! `after` begins, both exactly.

mod evidence;
mod fallback;
mod lines;

pub use fallback::{rules as fallback_rules, set_rules as set_fallback_rules};

use crate::document::Document;
use crate::model::{Extra, Fingerprint};
use crate::offset::{ByteOffset, ByteRange, CharOffset, CharRange};
use evidence::{Dir, Recorded, Side};
use lines::Lines;
use memchr::memmem;

/// Chars of context recorded on each side of an anchored text.
pub const CONTEXT_CHARS: usize = 32;

/// A text at least this many chars long identifies itself: when it is the only
/// candidate, it is accepted even when its context changed.
pub const DISTINCTIVE_CHARS: usize = 24;

/// The share of the recorded context's words (by length) that must still be
/// beside a candidate whose context does not agree whole.
pub const SIMILAR_ENOUGH: f64 = 0.5;

/// A candidate more than this many lines from `lineHint` (or the document's
/// [`FAR_SHARE`]th part, when that is more) is *far*: it needs a similarity of
/// [`SIMILAR_WHEN_FAR`], and one side agreeing whole is not enough.
pub const FAR_LINES: usize = 20;
pub const FAR_SHARE: usize = 20;
pub const SIMILAR_WHEN_FAR: f64 = 0.7;

/// How much more similar the winner must be than any other candidate.
pub const MARGIN: f64 = 0.2;

/// The part of a candidate's similarity that is context agreeing char for char
/// right next to it (the rest is its words, see [`evidence`]).
const CONTIGUOUS_WEIGHT: f64 = 0.3;

/// Squashed chars right next to the text that must agree on one side (fewer
/// when the recorded side is shorter).
const ADJACENT_CHARS: usize = 3;

/// The outcome of [`resolve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// The range holds exactly `fingerprint.text`.
    Found(CharRange),
    /// The range holds `fingerprint.text` with only its whitespace changed (a
    /// re-wrap or re-indent): the anchor's text changed, so it is flagged.
    Relocated(CharRange),
    /// The range holds exactly `fingerprint.text`, at a place found only by the
    /// fallback evidence (`anchor::fallback`: the context compared tolerantly,
    /// through markup, by words, by distance from `lineHint`), where the
    /// ladder's own rules would orphan it. A thread may follow it; a proposal
    /// is never applied there without asking.
    Likely(CharRange),
    Orphaned,
}

impl Resolution {
    /// Where the anchor is, exact or relocated.
    pub fn range(self) -> Option<CharRange> {
        match self {
            Resolution::Found(r) | Resolution::Relocated(r) | Resolution::Likely(r) => Some(r),
            Resolution::Orphaned => None,
        }
    }
}

/// Fingerprint `range` of `doc`.
pub fn build_fingerprint(doc: &Document, range: CharRange) -> Fingerprint {
    let rope = doc.rope();
    let start = range.start.0.min(rope.len_chars());
    let end = range.end.0.clamp(start, rope.len_chars());
    let before_start = start.saturating_sub(CONTEXT_CHARS);
    let after_end = (end + CONTEXT_CHARS).min(rope.len_chars());
    Fingerprint {
        text: rope.slice(start..end).into(),
        before: rope.slice(before_start..start).into(),
        after: rope.slice(end..after_end).into(),
        line_hint: line_of_byte(doc, doc.char_to_byte(CharOffset(start)).0),
        extra: Extra::new(),
    }
}

/// The 0-based line, as VS Code counts lines (see [`Lines`]), that `byte` is on.
fn line_of_byte(doc: &Document, byte: usize) -> usize {
    // The rope counts the `\n`s; VS Code a lone `\r` too.
    let line = doc.rope().byte_to_line(byte);
    if !doc.has_lone_cr() {
        return line;
    }
    line + doc
        .vs_code_breaks()
        .take_while(|&(b, _)| b.0 < byte)
        .filter(|&(_, lone_cr)| lone_cr)
        .count()
}

/// Resolve `fp` in `doc` by the ladder of the module docs. `live` is the range
/// this session last tracked for the anchor, if any. (To resolve many anchors
/// in one document, use one [`Resolver`].)
pub fn resolve(doc: &Document, fp: &Fingerprint, live: Option<CharRange>) -> Resolution {
    Resolver::new(doc).resolve(fp, live)
}

/// Resolves fingerprints in one document by the ladder of the module docs.
///
/// Steps 1 and 2 (and [`locate_neighbourhood`], and insertion points) read
/// the rope. Only weighing the candidates of a text whose exact context is
/// gone needs the text contiguous: a resolver flattens it then, at most once,
/// and drops it with itself. Make one for an operation that resolves many
/// anchors (opening a document, the review view), and never keep one: the
/// rope is the document's one copy of its text.
pub struct Resolver<'a> {
    doc: &'a Document,
    flat: std::cell::OnceCell<String>,
    /// Built on first need, for every anchor: most are decided without a line.
    lines: std::cell::OnceCell<Lines<'a>>,
}

impl<'a> Resolver<'a> {
    pub fn new(doc: &'a Document) -> Self {
        Resolver {
            doc,
            flat: std::cell::OnceCell::new(),
            lines: std::cell::OnceCell::new(),
        }
    }

    /// The text, flattened on first need.
    fn text(&self) -> &str {
        self.flat.get_or_init(|| self.doc.flatten())
    }

    /// See [`resolve`].
    pub fn resolve(&self, fp: &Fingerprint, live: Option<CharRange>) -> Resolution {
        let doc = self.doc;
        if let Some(r) = live {
            if r.end.0 <= doc.len_chars()
                && r.len() == fp.text.chars().count()
                && doc.rope().slice(r.as_range()) == fp.text.as_str()
            {
                return Resolution::Found(r);
            }
        }
        if fp.text.is_empty() {
            return resolve_insertion_point(doc, fp);
        }
        let weigh = Weigher::new(doc, fp, &self.lines);
        if let Some(answer) = weigh.exact_near_hint() {
            return answer.map_or(Resolution::Orphaned, |(s, e)| found(doc, s, e));
        }
        let rewrapped = Rewrapped::of(&fp.text);
        // Every candidate below holds the text, or (re-wrapped) its longest
        // word: when the document does not, there is nothing to weigh.
        let needle = rewrapped.as_ref().map_or(fp.text.as_str(), |w| w.pivot().1);
        if !doc.contains(needle) {
            return Resolution::Orphaned;
        }
        let text = self.text();
        // Asked only once the weighing picked a place (when it picks none, the
        // answer is orphaned anyway).
        let replaced = || replaced_in_place(text, fp);
        let Some(words) = rewrapped else {
            // One word: only its exact occurrences.
            let n = fp.text.len();
            let exact: Vec<(usize, usize)> = occurrences(text, &fp.text, 0, text.len())
                .into_iter()
                .map(|s| (s, s + n))
                .collect();
            return match weigh.decide(text, &exact, &fp.before, &fp.after) {
                Some(((s, e), how)) if !replaced() => how.answer(found(doc, s, e)),
                _ => Resolution::Orphaned,
            };
        };
        // Exact and re-wrapped occurrences compete on the same evidence: a copy of
        // the exact text elsewhere does not win over its re-wrapped words at their
        // place, nor the other way round, unless the context says so clearly.
        let places = words.occurrences(text);
        let (before, after) = words.context(fp);
        let picked = weigh.decide(text, &places, &before, &after);
        resolve_rewrapped(doc, fp, text, &words, picked, replaced)
    }

    /// See [`locate_neighbourhood`].
    pub fn locate_neighbourhood(&self, fp: &Fingerprint, live: Option<CharRange>) -> Option<CharRange> {
        locate_neighbourhood(self.doc, fp, live)
    }
}

/// The answer for a re-wrapped text the weighing placed at `picked` (or not).
fn resolve_rewrapped(
    doc: &Document,
    fp: &Fingerprint,
    text: &str,
    words: &Rewrapped<'_>,
    picked: Option<((usize, usize), FoundBy)>,
    replaced: impl Fn() -> bool,
) -> Resolution {
    match picked {
        Some(((s, e), how)) if !replaced() => {
            let (lead, trail) = (words.lead.len(), words.trail.len());
            let exact = s >= lead
                && e + trail <= text.len()
                && text.get(s - lead..e + trail) == Some(fp.text.as_str());
            if exact {
                how.answer(found(doc, s - lead, e + trail))
            } else {
                match found(doc, s, e) {
                    Resolution::Found(r) => Resolution::Relocated(r),
                    other => other,
                }
            }
        }
        _ => Resolution::Orphaned,
    }
}

/// Which evidence picked a place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FoundBy {
    /// The ladder's own rules.
    Ladder,
    /// Only the fallback evidence (`anchor::fallback`).
    Fallback,
}

impl FoundBy {
    /// `exact` (a [`Resolution::Found`]) as this evidence may answer it.
    fn answer(self, exact: Resolution) -> Resolution {
        match (self, exact) {
            (FoundBy::Fallback, Resolution::Found(r)) => Resolution::Likely(r),
            (_, other) => other,
        }
    }
}

/// One place the text occurs, in bytes of the flattened document, and what its
/// surroundings say.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    start: usize,
    end: usize,
    before: Side,
    after: Side,
    /// It starts and ends on the same kind of word boundary as the anchored text.
    boundaries: bool,
}

impl Candidate {
    fn whole(&self) -> bool {
        self.before.whole && self.after.whole
    }
}

/// What the ladder's own rules say of a set of candidates.
enum Verdict {
    Place((usize, usize)),
    /// No candidate, or copies whose whole context agrees, equally near
    /// `lineHint`: nothing more to weigh.
    Tie,
    /// No candidate clearly it by the ladder's evidence: the fallback may
    /// look again at these.
    Undecided(Vec<Candidate>),
}

/// Weighs candidates against one fingerprint (`'d`: the document's).
struct Weigher<'a, 'd> {
    doc: &'d Document,
    fp: &'a Fingerprint,
    /// The resolver's, built on first use.
    lines: &'a std::cell::OnceCell<Lines<'d>>,
    distinctive: bool,
}

/// Whether `c` is a word char (letters and digits: a selection that ends
/// between two of them cut a word).
fn wordy(c: Option<char>) -> bool {
    c.is_some_and(char::is_alphanumeric)
}

impl<'a, 'd> Weigher<'a, 'd> {
    fn new(doc: &'d Document, fp: &'a Fingerprint, lines: &'a std::cell::OnceCell<Lines<'d>>) -> Self {
        Weigher {
            doc,
            fp,
            lines,
            distinctive: fp.text.chars().count() >= DISTINCTIVE_CHARS,
        }
    }

    /// The place among `places` (byte ranges of `text`, the document
    /// flattened) that the ladder's rules pick, given the recorded context
    /// `before` and `after`; where they would orphan it for want of agreeing
    /// context (not for a tie of wholly agreeing copies), the place the
    /// fallback evidence picks, if any.
    fn decide(
        &self,
        text: &str,
        places: &[(usize, usize)],
        before: &str,
        after: &str,
    ) -> Option<((usize, usize), FoundBy)> {
        match self.decide_by_ladder(text, places, before, after) {
            Verdict::Place(p) => Some((p, FoundBy::Ladder)),
            Verdict::Tie => None,
            Verdict::Undecided(cands) => {
                let fb = fallback::Side::new(before, CONTEXT_CHARS, fallback::Way::Before);
                let fa = fallback::Side::new(after, CONTEXT_CHARS, fallback::Way::After);
                let far_lines = FAR_LINES.max(self.lines().count() / FAR_SHARE);
                fallback::decide(
                    text,
                    &cands,
                    [&fb, &fa],
                    self.fp.line_hint,
                    far_lines,
                    self.distinctive,
                    |b| self.lines().line_of_byte(b),
                )
                .map(|p| (p, FoundBy::Fallback))
            }
        }
    }

    /// The place among `places` that the ladder's own rules pick.
    fn decide_by_ladder(&self, text: &str, places: &[(usize, usize)], before: &str, after: &str) -> Verdict {
        if places.is_empty() {
            return Verdict::Tie;
        }
        let rb = Recorded::new(before, CONTEXT_CHARS, Dir::Before);
        let ra = Recorded::new(after, CONTEXT_CHARS, Dir::After);
        // A cut word at either end of the anchored text, as recorded.
        let first = self.fp.text.chars().next();
        let last = self.fp.text.chars().next_back();
        let cut_start = wordy(before.chars().next_back()) && wordy(first);
        let cut_end = wordy(after.chars().next()) && wordy(last);
        let no_context = rb.is_empty() && ra.is_empty();
        let cands: Vec<Candidate> = places
            .iter()
            .map(|&(s, e)| {
                let (mut b, mut a) = (rb.at(text, s), ra.at(text, e));
                if no_context {
                    // The whole document was anchored: every copy agrees alike.
                    b.whole = true;
                    a.whole = true;
                }
                let starts_cut = wordy(text[..s].chars().next_back()) && wordy(text[s..].chars().next());
                let ends_cut = wordy(text[..e].chars().next_back()) && wordy(text[e..].chars().next());
                Candidate {
                    start: s,
                    end: e,
                    before: b,
                    after: a,
                    boundaries: (rb.is_empty() || starts_cut == cut_start)
                        && (ra.is_empty() || ends_cut == cut_end),
                }
            })
            .collect();

        // Whole context on both sides: exact (unsquashed) context first, then
        // squashed; the nearest to the line hint of those.
        let whole: Vec<&Candidate> = cands.iter().filter(|c| c.whole()).collect();
        if !whole.is_empty() {
            let raw: Vec<&Candidate> = whole
                .iter()
                .copied()
                .filter(|c| text[..c.start].ends_with(before) && text[c.end..].starts_with(after))
                .collect();
            let pool = if raw.is_empty() { &whole } else { &raw };
            return self.nearest(pool).map_or(Verdict::Tie, Verdict::Place);
        }

        // No candidate has its whole context: weigh how similar each one's is.
        let eligible: Vec<&Candidate> = cands
            .iter()
            .filter(|c| c.boundaries || self.distinctive)
            .collect();
        let (wb, wa) = (rb.word_chars() as f64, ra.word_chars() as f64);
        let (lb, la) = (rb.len_chars() as f64, ra.len_chars() as f64);
        let score_of = |c: &Candidate| {
            if wb + wa == 0.0 {
                return 0.0;
            }
            let sb = rb.similar(c.before, text, c.start);
            let sa = ra.similar(c.after, text, c.end);
            let words = (sb * wb + sa * wa) / (wb + wa);
            let contiguous = (c.before.adjacent + c.after.adjacent) as f64 / (lb + la).max(1.0);
            (1.0 - CONTIGUOUS_WEIGHT) * words + CONTIGUOUS_WEIGHT * contiguous
        };
        let adjacent = |c: &Candidate| {
            let need = |r: &Recorded| ADJACENT_CHARS.min(r.len_chars());
            (!rb.is_empty() && c.before.adjacent >= need(&rb))
                || (!ra.is_empty() && c.after.adjacent >= need(&ra))
        };
        // Far from `lineHint`, a candidate needs more of its context: text
        // rarely moves far, its copies elsewhere often share boilerplate.
        let far_lines = FAR_LINES.max(self.lines().count() / FAR_SHARE);
        let far = |c: &Candidate| self.lines().line_of_byte(c.start).abs_diff(self.fp.line_hint) > far_lines;
        // A side of only whitespace proves something only as the edge of the
        // document it was recorded at (it then agrees exactly, see `evidence`).
        let telling = |r: &Recorded| r.word_chars() > 0 || (r.at_edge() && !r.is_empty());
        let could_be_plausible = |c: &Candidate| self.distinctive || (c.boundaries && adjacent(c));
        let plausible = |c: &Candidate, score: f64| {
            let one_whole = (telling(&rb) && c.before.whole) || (telling(&ra) && c.after.whole);
            let enough = if far(c) {
                score >= SIMILAR_WHEN_FAR
            } else {
                score >= SIMILAR_ENOUGH || one_whole
            };
            self.distinctive || (c.boundaries && adjacent(c) && enough)
        };
        // Weighing a candidate's words costs: first only those that could win,
        // and the others only when there is a winner to check the margin of.
        let mut scores: Vec<Option<f64>> = eligible
            .iter()
            .map(|c| could_be_plausible(c).then(|| score_of(c)))
            .collect();
        let Some(winner) = (0..eligible.len())
            .filter_map(|i| scores[i].map(|s| (i, s)))
            .filter(|&(i, s)| plausible(eligible[i], s))
            .max_by(|a, b| a.1.total_cmp(&b.1))
        else {
            return Verdict::Undecided(cands);
        };
        let top = winner.1;
        for (i, c) in eligible.iter().enumerate() {
            if scores[i].is_none() {
                scores[i] = Some(score_of(c));
            }
        }
        let close: Vec<&Candidate> = (0..eligible.len())
            .filter(|&i| scores[i].is_some_and(|s| s > top - MARGIN))
            .map(|i| eligible[i])
            .collect();
        let picked = match close.as_slice() {
            [one] => Some((one.start, one.end)),
            // Ambiguous by context. Distinctive text may still be placed by the
            // line, as a text alone in the document with its context gone is.
            _ if self.distinctive => self.nearest(&close),
            _ => None,
        };
        match picked {
            Some(p) => Verdict::Place(p),
            None => Verdict::Undecided(cands),
        }
    }

    fn lines(&self) -> &'a Lines<'d> {
        self.lines.get_or_init(|| Lines::of(self.doc))
    }

    /// The common case, fast: the text with its recorded context exactly (up
    /// to the document's edge where it was recorded at one), searched outward
    /// from `lineHint`. The first lines searched that hold such a place hold
    /// the nearest; `Some(None)` for a tie there, `None` when there is no such
    /// place anywhere (the whole ladder decides). [`Self::decide`] gives the
    /// same answer, from every occurrence in the document. Read on the rope.
    fn exact_near_hint(&self) -> Option<Option<(usize, usize)>> {
        let (doc, fp) = (self.doc, self.fp);
        let len = doc.len_bytes();
        let no_context = fp.before.is_empty() && fp.after.is_empty();
        let before_at_edge = fp.before.chars().count() < CONTEXT_CHARS;
        let after_at_edge = fp.after.chars().count() < CONTEXT_CHARS;
        let whole = |s: usize| {
            let e = s + fp.text.len();
            doc.holds_before(ByteOffset(s), &fp.before)
                && doc.holds_at(ByteOffset(e), &fp.after)
                && (no_context
                    || ((!before_at_edge || s == fp.before.len())
                        && (!after_at_edge || e + fp.after.len() == len)))
        };
        let lines = self.lines();
        let count = lines.count();
        let hint = fp.line_hint.min(count - 1);
        let byte = |l: usize| {
            if l >= count {
                len
            } else {
                lines.start_byte(l)
            }
        };
        let mut radius = 0usize;
        loop {
            let (lo, hi) = (hint.saturating_sub(radius), (hint + radius + 1).min(count));
            let hits: Vec<Candidate> = doc
                .find_in(&fp.text, ByteRange::new(byte(lo), byte(hi)))
                .into_iter()
                .map(|s| s.0)
                .filter(|&s| whole(s))
                .map(|s| Candidate {
                    start: s,
                    end: s + fp.text.len(),
                    before: Side::default(),
                    after: Side::default(),
                    boundaries: true,
                })
                .collect();
            if !hits.is_empty() {
                return Some(self.nearest(&hits.iter().collect::<Vec<_>>()));
            }
            if lo == 0 && hi == count {
                return None;
            }
            radius = if radius == 0 { 8 } else { radius.saturating_mul(4) };
        }
    }

    /// The one candidate nearest to `lineHint`; `None` on a tie.
    fn nearest(&self, pool: &[&Candidate]) -> Option<(usize, usize)> {
        if let [one] = pool {
            // (No line to count: most anchors end here.)
            return Some((one.start, one.end));
        }
        let ranges: Vec<(usize, usize)> = pool.iter().map(|c| (c.start, c.end)).collect();
        nearest_to_line(self.lines(), self.fp.line_hint, &ranges)
    }
}

/// The one of `ranges` (bytes) that starts nearest to line `hint`; `None` when
/// there is none or a tie remains.
fn nearest_to_line(lines: &Lines<'_>, hint: usize, ranges: &[(usize, usize)]) -> Option<(usize, usize)> {
    let distance = |r: &(usize, usize)| lines.line_of_byte(r.0).abs_diff(hint);
    let d = ranges.iter().map(distance).min()?;
    let mut at = ranges.iter().filter(|r| distance(r) == d);
    match (at.next(), at.next()) {
        (Some(&r), None) => Some(r),
        _ => None,
    }
}

/// The words of an anchored text with whitespace in it, for finding it again
/// after a re-wrap: the same words, in order, with whitespace between them where
/// it had whitespace.
struct Rewrapped<'a> {
    /// The text without its leading and trailing whitespace, split at each
    /// whitespace run.
    words: Vec<&'a str>,
    /// Leading and trailing whitespace of the text (they belong to the context
    /// when it is found again).
    lead: &'a str,
    trail: &'a str,
}

impl<'a> Rewrapped<'a> {
    /// The longest word (the first of the longest), with its index: the one
    /// searched for.
    fn pivot(&self) -> (usize, &'a str) {
        let (i, w) = self
            .words
            .iter()
            .enumerate()
            .max_by_key(|(_, w)| w.len())
            .expect("two words or more");
        (i, *w)
    }

    fn of(text: &'a str) -> Option<Self> {
        let inner = text.trim_matches(char::is_whitespace);
        let words: Vec<&str> = inner
            .split(char::is_whitespace)
            .filter(|w| !w.is_empty())
            .collect();
        if words.len() < 2 {
            return None;
        }
        let lead = &text[..text.len() - text.trim_start_matches(char::is_whitespace).len()];
        let trail = &text[text.trim_end_matches(char::is_whitespace).len()..];
        Some(Rewrapped { words, lead, trail })
    }

    /// The recorded context to weigh these places by: the text's own outer
    /// whitespace is context now.
    fn context(&self, fp: &Fingerprint) -> (String, String) {
        (
            format!("{}{}", fp.before, self.lead),
            format!("{}{}", self.trail, fp.after),
        )
    }

    /// Every place in `hay` (byte ranges, without the text's outer whitespace)
    /// with these words separated by whitespace runs, the exact text included.
    fn occurrences(&self, hay: &str) -> Vec<(usize, usize)> {
        // Search for the longest word; grow both ways from each hit.
        let (pivot, word) = self.pivot();
        let ws_back = |at: usize| -> usize {
            let skipped: usize = hay[..at]
                .chars()
                .rev()
                .take_while(|c| c.is_whitespace())
                .map(char::len_utf8)
                .sum();
            at - skipped
        };
        let ws_fwd = |at: usize| -> usize {
            let skipped: usize = hay[at..]
                .chars()
                .take_while(|c| c.is_whitespace())
                .map(char::len_utf8)
                .sum();
            at + skipped
        };
        let mut out = Vec::new();
        for at in occurrences(hay, word, 0, hay.len()) {
            let mut end = at + word.len();
            let mut ok = true;
            for w in &self.words[pivot + 1..] {
                let next = ws_fwd(end);
                if next == end || !hay[next..].starts_with(w) {
                    ok = false;
                    break;
                }
                end = next + w.len();
            }
            let mut start = at;
            if ok {
                for w in self.words[..pivot].iter().rev() {
                    let prev = ws_back(start);
                    if prev == start || !hay[..prev].ends_with(w) {
                        ok = false;
                        break;
                    }
                    start = prev - w.len();
                }
            }
            if ok {
                out.push((start, end));
            }
        }
        out
    }
}

/// Every start (byte offset) of a non-empty `needle` in `hay` that lies in
/// `from..to`, overlapping occurrences included.
fn occurrences(hay: &str, needle: &str, from: usize, to: usize) -> Vec<usize> {
    debug_assert!(!needle.is_empty());
    let finder = memmem::Finder::new(needle.as_bytes());
    let bytes = hay.as_bytes();
    let limit = to.saturating_add(needle.len()).min(bytes.len());
    let mut out = Vec::new();
    let mut pos = from;
    while pos < limit {
        match finder.find(&bytes[pos..limit]) {
            Some(i) if pos + i < to => {
                out.push(pos + i);
                pos += i + 1;
            }
            _ => break,
        }
    }
    out
}

/// Whether the place `fp` was taken at is still there holding other text: its
/// whole recorded context, both sides exactly, once in `text`, with something
/// else between them that neither holds the anchored text (nor its words
/// re-wrapped) nor is a part of it. The text was then replaced where it stood,
/// and a copy of it elsewhere is not it, however much of its context it shares
/// (a header's `#0000` filled in while the next line's `#0000` stays).
fn replaced_in_place(text: &str, fp: &Fingerprint) -> bool {
    let full = |side: &str| side.chars().count() == CONTEXT_CHARS && side.chars().any(char::is_alphanumeric);
    if !full(&fp.before) || !full(&fp.after) {
        return false;
    }
    let words = |t: &str| evidence::squash(t.trim());
    let anchored = words(&fp.text);
    let reach = 2 * fp.text.len() + CONTEXT_CHARS;
    let after = memmem::Finder::new(fp.after.as_bytes());
    // Every place the recorded `before` ends and, within reach, the one place
    // the recorded `after` begins (a context that recurs there, a URL prefix
    // down a list, tells nothing).
    let mut slots = occurrences(text, &fp.before, 0, text.len())
        .into_iter()
        .map(|s| s + fp.before.len())
        .map(|gap| {
            let window = &text.as_bytes()[gap..(gap + reach + fp.after.len()).min(text.len())];
            let mut ends = after.find_iter(window);
            match (ends.next(), ends.next()) {
                (Some(i), None) => Some((gap, gap + i)),
                _ => None,
            }
        });
    match (slots.next(), slots.next()) {
        (Some(Some((s, e))), None) => {
            // Something else: not the text (edited around), nor a part of it
            // (a doubled word taken out where the context overlapped it).
            let between = words(&text[s..e]);
            !between.is_empty() && !between.contains(&anchored) && !anchored.contains(&between)
        }
        _ => false,
    }
}

fn found(doc: &Document, start: usize, end: usize) -> Resolution {
    let rope = doc.rope();
    Resolution::Found(CharRange {
        start: CharOffset(rope.byte_to_char(start)),
        end: CharOffset(rope.byte_to_char(end)),
    })
}

fn resolve_insertion_point(doc: &Document, fp: &Fingerprint) -> Resolution {
    if fp.before.is_empty() && fp.after.is_empty() {
        // Only an empty document pins down a point with no context.
        return if doc.len_bytes() == 0 {
            Resolution::Found(CharRange::point(0))
        } else {
            Resolution::Orphaned
        };
    }
    let joined = format!("{}{}", fp.before, fp.after);
    let points: Vec<(usize, usize)> = doc
        .find_all(&joined)
        .into_iter()
        .map(|s| (s.0 + fp.before.len(), s.0 + fp.before.len()))
        .collect();
    match nearest_to_line(&Lines::of(doc), fp.line_hint, &points) {
        Some((p, _)) => found(doc, p, p),
        None => Resolution::Orphaned,
    }
}

/// For a fingerprint that no longer resolves: where its neighbourhood still is.
/// Returns the range between the recorded `before` and `after` context when both
/// are found close together (the text there changed: the anchor is *stale*), or
/// `None` when the neighbourhood is gone too (*orphaned*). Read on the rope.
pub fn locate_neighbourhood(doc: &Document, fp: &Fingerprint, live: Option<CharRange>) -> Option<CharRange> {
    if let Some(r) = live {
        if r.end.0 <= doc.len_chars() {
            return Some(r);
        }
    }
    let len = doc.len_bytes();
    // Context of a few chars proves nothing.
    if fp.before.chars().count() + fp.after.chars().count() < 8 {
        return None;
    }
    let window = 4 * fp.text.len() + 256;
    let mut hits: Vec<(usize, usize)> = Vec::new();
    let before_starts = if fp.before.is_empty() {
        vec![0]
    } else {
        doc.find_all(&fp.before).into_iter().map(|b| b.0).collect()
    };
    for b in before_starts {
        if !fp.before.is_empty() && b != 0 && fp.before.chars().count() < CONTEXT_CHARS {
            // A short `before` was recorded at the document's start; it must still be there.
            continue;
        }
        let from = b + fp.before.len();
        let to = (from + window).min(len);
        if fp.after.is_empty() {
            if len - from <= window {
                hits.push((from, len));
            }
            continue;
        }
        // The first `after` that lies wholly within `from..to`.
        if let Some(last_start) = (to + 1).checked_sub(fp.after.len()).filter(|&l| l > from) {
            if let Some(at) = doc.find_first_in(&fp.after, ByteRange::new(from, last_start)) {
                hits.push((from, at.0));
            }
        }
    }
    let (s, e) = nearest_to_line(&Lines::of(doc), fp.line_hint, &hits)?;
    found(doc, s, e).range()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp_of(text: &str, needle: &str, nth: usize) -> (Document, Fingerprint) {
        let doc = Document::new(text);
        let byte = text.match_indices(needle).nth(nth).unwrap().0;
        let start = doc.byte_to_char(crate::offset::ByteOffset(byte)).unwrap().0;
        let fp = build_fingerprint(&doc, CharRange::new(start, start + needle.chars().count()));
        (doc, fp)
    }

    fn resolved_text(text: &str, fp: &Fingerprint) -> Option<String> {
        let doc = Document::new(text);
        resolve(&doc, fp, None).range().map(|r| doc.slice(r))
    }

    #[test]
    fn fingerprint_has_32_chars_of_context_and_line_hint() {
        let text = format!(
            "{}\nline two has the target word here{}",
            "x".repeat(40),
            "y".repeat(40)
        );
        let (_, fp) = fp_of(&text, "target", 0);
        assert_eq!(fp.text, "target");
        assert_eq!(fp.before.chars().count(), 32);
        assert_eq!(fp.after.chars().count(), 32);
        assert_eq!(fp.line_hint, 1);
    }

    #[test]
    fn context_is_counted_in_scalar_values() {
        let (_, fp) = fp_of("😀😀😀 target", "target", 0);
        assert_eq!(fp.before, "😀😀😀 ");
    }

    #[test]
    fn moved_text_re_anchors() {
        let (_, fp) = fp_of("Intro.\n\nThe quick brown fox jumps.\n", "brown fox", 0);
        let moved = "A new first paragraph.\n\nIntro.\n\nThe quick brown fox jumps.\n";
        assert_eq!(resolved_text(moved, &fp).as_deref(), Some("brown fox"));
    }

    #[test]
    fn repeated_word_is_disambiguated_by_context() {
        let text = "the cat sat on the mat and the dog sat on the rug";
        let (_, fp) = fp_of(text, "the", 2);
        let doc = Document::new(text);
        let r = resolve(&doc, &fp, None).range().unwrap();
        assert_eq!(r, CharRange::new(27, 30));
    }

    #[test]
    fn short_text_with_disagreeing_context_is_orphaned_not_moved() {
        let (_, fp) = fp_of("We met at the station before dawn, tired and cold.", "the", 0);
        // The original "the" is gone; another "the" exists in a different sentence.
        let after = "We met at a station before dawn. Later the rain came down hard.";
        assert_eq!(resolved_text(after, &fp), None);
    }

    #[test]
    fn distinctive_text_survives_context_change() {
        let (_, fp) = fp_of(
            "Old intro. A sentence long enough to identify itself. Old outro.",
            "A sentence long enough to identify itself.",
            0,
        );
        let after = "Completely new words around. A sentence long enough to identify itself. New end.";
        assert_eq!(
            resolved_text(after, &fp).as_deref(),
            Some("A sentence long enough to identify itself.")
        );
    }

    #[test]
    fn line_hint_counts_lines_as_vs_code() {
        // "\n", "\r\n" and a lone "\r" each end a line; CRLF counts once.
        for (text, line) in [
            ("a\nb\nT", 2),
            ("a\r\nb\r\nT", 2),
            ("a\rb\rT", 2),
            ("a\r\rb\n\r\nT", 4),
            ("a\r\n\rT", 2),
            ("T", 0),
            ("\rT", 1),
        ] {
            let (_, fp) = fp_of(text, "T", 0);
            assert_eq!(fp.line_hint, line, "{text:?}");
        }
        // And the hint tells context-free copies apart on lone-CR lines.
        let doc = Document::new("dup\rdup\rdup");
        for line in 0..3 {
            let fp = Fingerprint {
                text: "dup".into(),
                line_hint: line,
                ..Fingerprint::default()
            };
            let r = resolve(&doc, &fp, None).range().unwrap();
            assert_eq!(r.start.0, line * 4, "line {line}");
        }
    }

    #[test]
    fn one_resolver_for_many_anchors_answers_as_each_alone() {
        // Lone `\r`s: the resolver's one table of lines serves every anchor.
        let doc = Document::new("dup\rdup\rdup\r\nsome words here\rand more words there\n");
        let mut fps: Vec<Fingerprint> = (0..3)
            .map(|line| Fingerprint {
                text: "dup".into(),
                line_hint: line,
                ..Fingerprint::default()
            })
            .collect();
        fps.push(build_fingerprint(&doc, CharRange::new(18, 23)));
        fps.push(Fingerprint {
            text: "absent".into(),
            ..Fingerprint::default()
        });
        let resolver = Resolver::new(&doc);
        let together: Vec<Resolution> = fps.iter().map(|fp| resolver.resolve(fp, None)).collect();
        let alone: Vec<Resolution> = fps.iter().map(|fp| resolve(&doc, fp, None)).collect();
        assert_eq!(together, alone);
        assert_eq!(
            together,
            vec![
                Resolution::Found(CharRange::new(0, 3)),
                Resolution::Found(CharRange::new(4, 7)),
                Resolution::Found(CharRange::new(8, 11)),
                Resolution::Found(CharRange::new(18, 23)),
                Resolution::Orphaned,
            ]
        );
    }

    #[test]
    fn tie_is_orphaned() {
        let fp = Fingerprint {
            text: "word".into(),
            before: String::new(),
            after: String::new(),
            line_hint: 0,
            extra: Extra::new(),
        };
        assert_eq!(resolved_text("word word", &fp), None);
        assert_eq!(resolved_text("word\nword", &fp).as_deref(), Some("word"));
    }

    #[test]
    fn live_range_wins_when_text_matches() {
        let text = "same same";
        let doc = Document::new(text);
        let fp = build_fingerprint(&doc, CharRange::new(5, 9));
        assert_eq!(
            resolve(&doc, &fp, Some(CharRange::new(5, 9))),
            Resolution::Found(CharRange::new(5, 9))
        );
        // A live range whose text changed falls through to the ladder.
        let changed = Document::new("same sane");
        assert_eq!(
            resolve(&changed, &fp, Some(CharRange::new(5, 9))),
            Resolution::Orphaned
        );
    }

    #[test]
    fn insertion_point_needs_both_contexts_exactly() {
        let doc = Document::new("alpha beta");
        let fp = build_fingerprint(&doc, CharRange::point(5));
        assert_eq!(resolve(&doc, &fp, None), Resolution::Found(CharRange::point(5)));
        let edited = Document::new("alpha  beta");
        assert_eq!(resolve(&edited, &fp, None), Resolution::Orphaned);
    }

    #[test]
    fn neighbourhood_found_when_text_changed() {
        let (_, fp) = fp_of(
            "First the context before, TARGET, and the context after it.",
            "TARGET",
            0,
        );
        let doc = Document::new("First the context before, CHANGED TEXT, and the context after it.");
        assert_eq!(resolve(&doc, &fp, None), Resolution::Orphaned);
        let r = locate_neighbourhood(&doc, &fp, None).unwrap();
        assert_eq!(doc.slice(r), "CHANGED TEXT");
        let gone = Document::new("Nothing of the kind remains here at all.");
        assert_eq!(locate_neighbourhood(&gone, &fp, None), None);
    }

    #[test]
    fn rewrapped_text_is_relocated_and_flagged_never_found() {
        let old = "Intro.\n\nA paragraph that was wrapped at\neighty columns and then re-flowed.\n";
        let (_, fp) = fp_of(old, "wrapped at\neighty columns", 0);
        let new = "Intro.\n\nA paragraph that was wrapped\n  at eighty columns and\nthen re-flowed.\n";
        let doc = Document::new(new);
        let Resolution::Relocated(r) = resolve(&doc, &fp, None) else {
            panic!("{:?}", resolve(&doc, &fp, None));
        };
        assert_eq!(doc.slice(r), "wrapped\n  at eighty columns");
        assert!(!matches!(resolve(&doc, &fp, None), Resolution::Found(_)));
        // Words merged or split are a change, not a re-wrap.
        assert_eq!(
            resolved_text("A paragraph that was wrappedat eighty columns and then", &fp),
            None
        );
        // And when the exact text comes back, it is found again.
        assert!(matches!(
            resolve(&Document::new(old), &fp, None),
            Resolution::Found(_)
        ));
    }

    #[test]
    fn text_whose_neighbour_words_were_edited_is_still_found() {
        let (_, fp) = fp_of(
            "Safe by design.\n\nRust provides the majority of its safety checks at compile time.\n",
            "majority",
            0,
        );
        let after = "Safe by design, mostly.\n\nRust performs the majority of its safety checks and memory management at compile time.\n";
        assert_eq!(resolved_text(after, &fp).as_deref(), Some("majority"));
    }

    #[test]
    fn a_deleted_word_is_not_placed_on_a_copy_in_the_same_sentence() {
        let (_, fp) = fp_of("Fill in the form and then the box below it.", "the", 0);
        // The first "the" was deleted; the sentence around it, and another "the", remain.
        assert_eq!(
            resolved_text("Fill in form and then the box below it.", &fp),
            None
        );
    }

    #[test]
    fn a_text_replaced_in_place_is_not_found_at_a_copy() {
        let old = "title: A\n- RFC PR: [rust-lang/rfcs#0000](https://github.com/rust-lang/rfcs/pull/0000)\n- Rust Issue: [rust-lang/rust#0000](https://github.com/rust-lang/rust/issues/0000)\n";
        let (_, fp) = fp_of(old, "0000", 0);
        let new = old.replacen("rfcs#0000", "rfcs#3148", 1);
        assert_eq!(resolved_text(&new, &fp), None);
        // Edited around, not replaced: still found.
        let old =
            "We walked along the river at dawn; the quick brown fox jumped over the lazy dog by the mill.";
        let (_, fp) = fp_of(old, "brown", 0);
        let new = old.replace("brown fox", "brown and red fox");
        assert_eq!(resolved_text(&new, &fp).as_deref(), Some("brown"));
        // A doubled word taken out where the context overlapped the text: not
        // replaced, still there.
        let old = "Hosts may sync on PRs, however, in order to do so you you will need to modify\nyour local git install first.";
        let (_, fp) = fp_of(old, "so you", 0);
        let new = old.replace("so you you will", "so you will");
        assert_eq!(resolved_text(&new, &fp).as_deref(), Some("so you"));
    }

    #[test]
    fn a_word_is_not_found_inside_another_word() {
        let (_, fp) = fp_of("- `lsb_release`: distribution info\n", "lsb", 0);
        assert_eq!(resolved_text("- `lsblk`: distribution info\n", &fp), None);
    }

    #[test]
    fn near_equal_candidates_are_ambiguous_and_orphaned() {
        // Two copies, both with half of the recorded context: never a guess.
        let (_, fp) = fp_of("alpha beta WORD gamma delta", "WORD", 0);
        assert_eq!(
            resolved_text("alpha beta WORD xx yy\nzz qq WORD gamma delta", &fp),
            None
        );
    }

    #[test]
    fn text_at_the_document_end_stays_found_when_its_neighbour_before_changed() {
        // An accepted proposal just before it changed `before`; `after` is the
        // document's last newline, still right after it.
        let (_, fp) = fp_of(
            "# Crash\n\nFirst sentence stays. Sentence A here. Last sentence stays.\n",
            "Last sentence stays.",
            0,
        );
        let now = "# Crash\n\nFirst sentence stays. Sentence A here. Really. Last sentence stays.\n";
        assert_eq!(resolved_text(now, &fp).as_deref(), Some("Last sentence stays."));
    }

    #[test]
    fn context_of_only_whitespace_is_no_evidence() {
        // Recorded at the document's end after a tab; now after a space at the end.
        let (_, fp) = fp_of("aé\t", "é", 0);
        assert_eq!(resolved_text("xé ", &fp), None);
    }

    #[test]
    fn overlapping_occurrences_are_all_seen() {
        assert_eq!(occurrences("aaaa", "aa", 0, 5), vec![0, 1, 2]);
        assert_eq!(occurrences("xaay aa", "aa", 0, 3), vec![1]);
    }

    // ---- fallback evidence (anchor::fallback), each rule on an example of its own

    /// Resolve `needle` (its `nth` occurrence in `old`) in `new`.
    fn moved_to(old: &str, needle: &str, nth: usize, new: &str) -> (Document, Resolution) {
        let (_, fp) = fp_of(old, needle, nth);
        let doc = Document::new(new);
        let r = resolve(&doc, &fp, None);
        (doc, r)
    }

    /// Char offset of the `nth` occurrence of `needle` in `text`.
    fn char_at(text: &str, needle: &str, nth: usize) -> usize {
        text[..text.match_indices(needle).nth(nth).unwrap().0]
            .chars()
            .count()
    }

    #[test]
    fn fallback_compares_quotes_tolerantly() {
        // Straight quotes made curly right next to the text, on both sides.
        let old = "Some \"word\" here and more context on both of the sides, word.";
        let new = "Some “word” here and more context on both of the sides, word.";
        let (_, r) = moved_to(old, "word", 0, new);
        assert_eq!(r, Resolution::Likely(CharRange::new(6, 10)));
    }

    #[test]
    fn fallback_reads_through_a_fence_info_string() {
        let old = "Now we build the program:\n\n```rust\nlet x = 5;\n```\n\nThen we test it:\n\n```rust\nlet x = 5;\n```\n";
        let new = "Now we build the program:\n\n```rust,noplayground\nlet x = 5;\n```\n\nNow we test it:\n\n```rust\nlet x = 5;\n```\n";
        let (_, r) = moved_to(old, "let", 0, new);
        let at = char_at(new, "let", 0);
        assert_eq!(r, Resolution::Likely(CharRange::new(at, at + 3)));
    }

    #[test]
    fn fallback_forgives_a_word_edited_beside_the_text() {
        // `do not` → `don’t`, and "here" → "in this place".
        let old = "We do not want the value here, so we drop it now and go on.\nThe value again.";
        let new = "We don’t want the value in this place, so we drop it now and go on.\nThe value again.";
        let (doc, r) = moved_to(old, "value", 0, new);
        assert_eq!(r, Resolution::Likely(CharRange::new(18, 23)));
        assert_eq!(doc.slice(r.range().unwrap()), "value");
    }

    #[test]
    fn a_re_wrapped_quoted_context_still_finds_the_text() {
        // Only the wrapping (and the `>` markers with it) changed around it.
        let old = "> As he said, the value of it\n> is plain to see; the value\n> is all.\n";
        let new = "> As he said, the value\n> of it is plain to see;\n> the value is all.\n";
        let (doc, r) = moved_to(old, "value", 0, new);
        assert_eq!(r.range().map(|r| r.start.0), Some(char_at(new, "value", 0)));
        assert_eq!(doc.slice(r.range().unwrap()), "value");
    }

    #[test]
    fn fallback_takes_the_document_start_as_agreeing_context() {
        // A heading on line 1: nothing before it, then or now.
        let old =
            "Intro\n\nMore about the intro here, said once.\n\nAnd Intro\n\nMore about the intro there.\n";
        let new =
            "Intro\n\nMore on the intro here, now said twice.\n\nAnd Intro\n\nMore on the intro there.\n";
        let (_, r) = moved_to(old, "Intro", 0, new);
        assert_eq!(r, Resolution::Likely(CharRange::new(0, 5)));
    }

    #[test]
    fn fallback_follows_text_a_paragraph_was_inserted_above() {
        let old =
            "Intro\n\nMore about the intro here, said once.\n\nAnd Intro\n\nMore about the intro there.\n";
        let new = "Preface.\n\nIntro\n\nMore on the intro here, now said twice.\n\nAnd Intro\n\nMore on the intro there.\n";
        let (_, r) = moved_to(old, "Intro", 0, new);
        assert_eq!(r, Resolution::Likely(CharRange::new(10, 15)));
    }

    /// Tool output `copies` times, each followed by `filler` lines: every copy
    /// reads the same for 32 chars either side.
    fn boilerplate(copies: usize, filler: usize, tail: &str) -> String {
        let lines: String = (0..filler)
            .map(|i| format!("Line {i} of the text between the copies.\n"))
            .collect();
        (1..=copies)
            .map(|n| {
                format!(
                    "Run {n}:\n\n```text\nrunning 3 tests\ntest result: ok. 3 passed{tail}\n```\n\n{lines}\n"
                )
            })
            .collect()
    }

    #[test]
    fn fallback_gives_boilerplate_to_the_copy_clearly_nearest_the_hint() {
        // The tool's output changed in every copy; the one at the hint is it.
        let old = boilerplate(3, 14, "; 0 failed");
        let new = boilerplate(3, 14, "; 0 failed; 0 ignored");
        let (_, r) = moved_to(&old, "passed", 1, &new);
        let at = char_at(&new, "passed", 1);
        assert_eq!(r, Resolution::Likely(CharRange::new(at, at + 6)));
    }

    #[test]
    fn fallback_does_not_fire_where_copies_are_equally_good() {
        // The same copies a few lines apart: none is clearly nearer.
        let old = boilerplate(3, 0, "; 0 failed");
        let new = boilerplate(3, 0, "; 0 failed; 0 ignored");
        assert_eq!(moved_to(&old, "passed", 1, &new).1, Resolution::Orphaned);
        // Curly quotes around copies that read alike, one line either side
        // of the hint.
        let line = "The one thing we say, again and again: \"word\" is what we say, again and again.\n";
        let old = line.repeat(3);
        let new = old.replace("\"word\"", "\u{201C}word\u{201D}");
        assert_eq!(moved_to(&old, "word", 1, &new).1, Resolution::Orphaned);
    }

    // ---- rule 7 (round 3b): the place whose context agrees farthest, char for char

    /// Link definitions sharing a URL prefix, told apart by their labels.
    fn link_definitions(path: &str) -> String {
        ["RegionKind", "ReVar", "ReStatic"]
            .iter()
            .map(|l| {
                format!("[`{l}`]: https://doc.rust-lang.org/nightly/nightly-rustc/{path}/enum.{l}.html\n")
            })
            .collect()
    }

    #[test]
    fn fallback_takes_the_place_whose_context_agrees_clearly_farthest() {
        // Every URL's path changed after the text; only the first's label is
        // still the recorded one, and its whole `before` with it.
        let old = link_definitions("rustc_middle/ty");
        let new = link_definitions("rustc_type_ir/sty");
        let (doc, r) = moved_to(&old, "org", 0, &new);
        let at = char_at(&new, "org", 0);
        assert_eq!(r, Resolution::Likely(CharRange::new(at, at + 3)));
        assert_eq!(doc.slice(r.range().unwrap()), "org");
    }

    #[test]
    fn fallback_does_not_take_the_farthest_agreeing_of_copies_equally_good() {
        // The same definition three times: each agrees as far as the others.
        let line = "[`RegionKind`]: https://doc.rust-lang.org/nightly/nightly-rustc/rustc_middle/ty/enum.RegionKind.html\n";
        let old = line.repeat(3);
        let new = old.replace("rustc_middle/ty", "rustc_type_ir/sty");
        assert_eq!(moved_to(&old, "org", 1, &new).1, Resolution::Orphaned);
    }

    #[test]
    fn fallback_is_not_asked_when_the_ladder_decides() {
        // The exact context still there: found as ever, never merely likely.
        let (_, fp) = fp_of("alpha beta WORD gamma delta", "WORD", 0);
        let doc = Document::new("alpha beta WORD gamma delta");
        assert_eq!(
            resolve(&doc, &fp, None),
            Resolution::Found(CharRange::new(11, 15))
        );
        // And text whose context changed beyond recognition stays orphaned.
        assert_eq!(
            resolved_text(
                "We met at a station before dawn. Later the rain came down hard.",
                &fp_of("We met at the station before dawn, tired and cold.", "the", 0).1
            ),
            None
        );
    }
}
