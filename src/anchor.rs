//! Anchoring: fingerprints and the resolve ladder (INV-1: never guess).
//!
//! A [`Fingerprint`] remembers an anchored text and up to [`CONTEXT_CHARS`] chars
//! of context on each side. [`resolve`] finds it again in a document:
//!
//! 1. the live-tracked range (mapped through every edit of this session), when it
//!    still holds exactly `text`;
//! 2. else every exact occurrence of `text`, each scored by how much of the
//!    recorded context agrees around it. Occurrences whose context does not agree
//!    are not candidates unless the text is [distinctive](DISTINCTIVE_CHARS) on its
//!    own, or one side agrees exactly up to the document's edge where it was
//!    recorded there; the best score wins, ties are broken by distance from
//!    `lineHint`, and a tie that still stands is orphaned;
//! 3. none → orphaned.
//!
//! So a short or repeated text whose context no longer agrees is orphaned, never
//! placed on another copy of the word, and a resolved range always holds exactly
//! `fingerprint.text`.
//!
//! An empty `text` (an insertion point) resolves only where `before` ends and
//! `after` begins, both exactly.

use crate::document::Document;
use crate::model::{Extra, Fingerprint};
use crate::offset::{CharOffset, CharRange};
use memchr::memmem;

/// Chars of context recorded on each side of an anchored text.
pub const CONTEXT_CHARS: usize = 32;

/// A text at least this many chars long identifies itself: a unique occurrence of
/// it is accepted even when its context changed. Shorter texts also need at least
/// half of their recorded context to agree.
pub const DISTINCTIVE_CHARS: usize = 24;

/// The outcome of [`resolve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// The range holds exactly `fingerprint.text`.
    Found(CharRange),
    Orphaned,
}

impl Resolution {
    pub fn range(self) -> Option<CharRange> {
        match self {
            Resolution::Found(r) => Some(r),
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
/// Only the text before it is read.
fn line_of_byte(doc: &Document, byte: usize) -> usize {
    let b = doc.text().as_bytes();
    let prefix = &b[..byte];
    if memchr::memchr(b'\r', prefix).is_none() {
        return doc.rope().byte_to_line(byte);
    }
    memchr::memchr2_iter(b'\n', b'\r', prefix)
        .filter(|&i| b[i] == b'\n' || b.get(i + 1) != Some(&b'\n'))
        .count()
}

/// Lines as VS Code counts them (`lineHint`): `\n`, `\r\n` and a lone `\r`
/// each end one. The rope's own lines end only at `\n` (a CRLF counts once
/// there too), so for a document with no lone `\r` they are the same and the
/// rope answers; otherwise a table of line starts does.
enum Lines<'a> {
    Rope(&'a Document),
    /// Byte offset of the start of every line (the first is 0).
    Starts(Vec<usize>),
}

impl<'a> Lines<'a> {
    fn of(doc: &'a Document) -> Self {
        let b = doc.text().as_bytes();
        let lone_cr = |i: &usize| b.get(i + 1) != Some(&b'\n');
        if !memchr::memchr_iter(b'\r', b).any(|i| lone_cr(&i)) {
            return Lines::Rope(doc);
        }
        let mut starts = vec![0];
        for i in memchr::memchr2_iter(b'\n', b'\r', b) {
            if b[i] == b'\n' || lone_cr(&i) {
                starts.push(i + 1);
            }
        }
        Lines::Starts(starts)
    }

    fn count(&self) -> usize {
        match self {
            Lines::Rope(doc) => doc.len_lines(),
            Lines::Starts(starts) => starts.len(),
        }
    }

    /// The byte where line `l` (< count) starts.
    fn start_byte(&self, l: usize) -> usize {
        match self {
            Lines::Rope(doc) => doc.char_to_byte(doc.line_to_char(l)).0,
            Lines::Starts(starts) => starts[l],
        }
    }

    fn line_of_byte(&self, byte: usize) -> usize {
        match self {
            Lines::Rope(doc) => doc.rope().byte_to_line(byte),
            Lines::Starts(starts) => starts.partition_point(|&s| s <= byte) - 1,
        }
    }
}

/// Resolve `fp` in `doc` by the ladder of the module docs. `live` is the range
/// this session last tracked for the anchor, if any.
pub fn resolve(doc: &Document, fp: &Fingerprint, live: Option<CharRange>) -> Resolution {
    if let Some(r) = live {
        if r.end.0 <= doc.len_chars()
            && r.len() == fp.text.chars().count()
            && doc.rope().slice(r.as_range()) == fp.text.as_str()
        {
            return Resolution::Found(r);
        }
    }
    resolve_from_scratch(doc, fp)
}

/// One place `text` occurs, in bytes of the flattened document.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    start: usize,
    end: usize,
    score: usize,
    full: bool,
    /// One side of the recorded context was cut short by a document edge, and
    /// this candidate has exactly that context up to the same edge.
    edge: bool,
}

/// Chars of `a`'s end that equal `b`'s end.
fn common_suffix_chars(a: &str, b: &str) -> usize {
    a.chars()
        .rev()
        .zip(b.chars().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

/// Chars of `a`'s start that equal `b`'s start.
fn common_prefix_chars(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

/// At most `n` chars of `s` ending at byte `at` (as a byte offset into `s`).
fn chars_before(s: &str, at: usize, n: usize) -> &str {
    let mut start = at;
    for (i, _) in s[..at].char_indices().rev().take(n) {
        start = i;
    }
    &s[start..at]
}

struct Scorer<'a> {
    text: &'a str,
    fp: &'a Fingerprint,
    before_len: usize,
    after_len: usize,
}

impl<'a> Scorer<'a> {
    fn new(text: &'a str, fp: &'a Fingerprint) -> Self {
        Scorer {
            text,
            fp,
            before_len: fp.before.chars().count(),
            after_len: fp.after.chars().count(),
        }
    }

    fn candidate(&self, start: usize, end: usize) -> Candidate {
        let b = common_suffix_chars(chars_before(self.text, start, self.before_len), &self.fp.before);
        let a = common_prefix_chars(&self.text[end..], &self.fp.after);
        let at_start =
            b == self.before_len && self.before_len < CONTEXT_CHARS && start == self.fp.before.len();
        let at_end = a == self.after_len
            && self.after_len < CONTEXT_CHARS
            && end + self.fp.after.len() == self.text.len();
        Candidate {
            start,
            end,
            score: a + b,
            full: a == self.after_len && b == self.before_len,
            edge: at_start || at_end,
        }
    }

    /// Whether the context around `c` agrees enough to place the anchor there.
    fn plausible(&self, c: &Candidate, distinctive: bool) -> bool {
        let total = self.before_len + self.after_len;
        c.full || c.edge || distinctive || total == 0 || 2 * c.score >= total
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

fn resolve_from_scratch(doc: &Document, fp: &Fingerprint) -> Resolution {
    let text = doc.text();
    if fp.text.is_empty() {
        return resolve_insertion_point(doc, fp);
    }
    let scorer = Scorer::new(text, fp);
    let distinctive = fp.text.chars().count() >= DISTINCTIVE_CHARS;
    let n = fp.text.len();
    let table = Lines::of(doc);
    let lines = table.count();
    let hint = fp.line_hint.min(lines - 1);
    let line_byte = |l: usize| {
        if l >= lines {
            text.len()
        } else {
            table.start_byte(l)
        }
    };
    // Search outward from the hinted line. An occurrence whose whole context
    // agrees has the best score there is; once one is found, every line at most
    // as far from the hint as it has been searched, so the nearest such
    // occurrence is the ladder's answer (two at one distance are a tie). Only when
    // no occurrence has its whole context does the whole document decide.
    let mut radius = 0usize;
    loop {
        let lo = hint.saturating_sub(radius);
        let hi = (hint + radius + 1).min(lines);
        let whole = lo == 0 && hi == lines;
        let candidates: Vec<Candidate> = occurrences(text, &fp.text, line_byte(lo), line_byte(hi))
            .into_iter()
            .map(|s| scorer.candidate(s, s + n))
            .collect();
        let full: Vec<Candidate> = candidates.iter().copied().filter(|c| c.full).collect();
        if !full.is_empty() {
            return pick(doc, &table, fp, &full);
        }
        if whole {
            let plausible: Vec<Candidate> = candidates
                .into_iter()
                .filter(|c| scorer.plausible(c, distinctive))
                .collect();
            return pick(doc, &table, fp, &plausible);
        }
        radius = if radius == 0 { 8 } else { radius * 4 };
    }
}

/// The best candidate by score, then by distance from `lineHint`; `Orphaned`
/// when there is none or a tie remains.
fn pick(doc: &Document, lines: &Lines<'_>, fp: &Fingerprint, candidates: &[Candidate]) -> Resolution {
    let Some(best_score) = candidates.iter().map(|c| c.score).max() else {
        return Resolution::Orphaned;
    };
    let best: Vec<&Candidate> = candidates.iter().filter(|c| c.score == best_score).collect();
    if best.len() == 1 {
        return found(doc, best[0].start, best[0].end);
    }
    let distance = |c: &Candidate| {
        let line = lines.line_of_byte(c.start);
        line.abs_diff(fp.line_hint)
    };
    let nearest = best.iter().map(|c| distance(c)).min().unwrap_or(0);
    let closest: Vec<&&Candidate> = best.iter().filter(|c| distance(c) == nearest).collect();
    if closest.len() == 1 {
        found(doc, closest[0].start, closest[0].end)
    } else {
        Resolution::Orphaned
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
    let text = doc.text();
    if fp.before.is_empty() && fp.after.is_empty() {
        // Only an empty document pins down a point with no context.
        return if text.is_empty() {
            Resolution::Found(CharRange::point(0))
        } else {
            Resolution::Orphaned
        };
    }
    let joined = format!("{}{}", fp.before, fp.after);
    let candidates: Vec<Candidate> = occurrences(text, &joined, 0, text.len() + 1)
        .into_iter()
        .map(|s| {
            let p = s + fp.before.len();
            Candidate {
                start: p,
                end: p,
                score: 0,
                full: true,
                edge: false,
            }
        })
        .collect();
    pick(doc, &Lines::of(doc), fp, &candidates)
}

/// For a fingerprint that no longer resolves: where its neighbourhood still is.
/// Returns the range between the recorded `before` and `after` context when both
/// are found close together (the text there changed: the anchor is *stale*), or
/// `None` when the neighbourhood is gone too (*orphaned*).
pub fn locate_neighbourhood(doc: &Document, fp: &Fingerprint, live: Option<CharRange>) -> Option<CharRange> {
    if let Some(r) = live {
        if r.end.0 <= doc.len_chars() {
            return Some(r);
        }
    }
    let text = doc.text();
    // Context of a few chars proves nothing.
    if fp.before.chars().count() + fp.after.chars().count() < 8 {
        return None;
    }
    let window = 4 * fp.text.len() + 256;
    let mut hits: Vec<(usize, usize)> = Vec::new();
    let before_starts = if fp.before.is_empty() {
        vec![0]
    } else {
        occurrences(text, &fp.before, 0, text.len() + 1)
    };
    for b in before_starts {
        if !fp.before.is_empty() && b != 0 && fp.before.chars().count() < CONTEXT_CHARS {
            // A short `before` was recorded at the document's start; it must still be there.
            continue;
        }
        let from = b + fp.before.len();
        let to = (from + window).min(text.len());
        if fp.after.is_empty() {
            if text.len() - from <= window {
                hits.push((from, text.len()));
            }
            continue;
        }
        if let Some(i) = memmem::find(&text.as_bytes()[from..to], fp.after.as_bytes()) {
            hits.push((from, from + i));
        }
    }
    let candidates: Vec<Candidate> = hits
        .into_iter()
        .map(|(s, e)| Candidate {
            start: s,
            end: e,
            score: 0,
            full: true,
            edge: false,
        })
        .collect();
    pick(doc, &Lines::of(doc), fp, &candidates).range()
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
    fn overlapping_occurrences_are_all_seen() {
        assert_eq!(occurrences("aaaa", "aa", 0, 5), vec![0, 1, 2]);
        assert_eq!(occurrences("xaay aa", "aa", 0, 3), vec![1]);
    }
}
