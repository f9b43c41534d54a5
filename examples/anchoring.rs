//! Measures the anchor resolver on real Markdown revision histories
//! (`docs/anchoring.md` has the method, the corpus and the figures).
//!
//! ```text
//! cargo run --release --example anchoring -- [--pairs N] [--anchors N] [--seed S]
//!     [--emit DIR] [--show CLASS[:OUTCOME][@STRATUM]] [--line-truth] [--truth-1204] [--each-rule]
//!     [--rules MASK] REPO...
//! ```
//!
//! For each git repository, every non-merge commit that modified a Markdown file
//! gives a revision pair (the file at the parent, the file at the commit). `--pairs`
//! of them (default 400) are drawn with a seeded generator; in each, `--anchors`
//! (default 12) anchors are drawn on the old revision: a third anywhere, a third
//! near a changed token, a third near a re-wrapped line, as words, phrases and
//! sentences. Each is fingerprinted as the app does
//! and resolved in the new revision with no live range (a reload).
//!
//! The truth comes from a diff of the two revisions in tokens (words, single
//! punctuation chars and whitespace runs):
//! - *unchanged*: every token of the anchor survived, side by side; the expected
//!   place is where they are now. Text whose diff says deleted but whose
//!   fingerprint (context, text, context) occurs exactly once in the new revision
//!   was moved, and counts as unchanged at that place.
//! - *rewrapped*: every word survived, in order, and only the whitespace runs
//!   between them changed (a re-wrap or re-indent); the expected place runs from
//!   its first word to its last.
//! - *changed*: anything else (words edited, added or deleted).
//!
//! That diff runs on lines first, so a re-flowed paragraph can leave a word in
//! stretches that no longer face each other. Text it calls changed gets a second
//! opinion from a diff in words alone, blind to whitespace: unchanged (or
//! re-wrapped) where its words survived side by side inside a phrase that
//! survived with them ([`WordDiff::in_phrase`]), or moved where its words were
//! deleted here and added elsewhere inside a phrase that reads the same and
//! occurs once in each revision ([`moved_truth`]). `--line-truth` measures
//! without the second diff, as the figures before 2026-12-04 were;
//! `--truth-1204` without its moves, as those of 2026-12-04 were; `--show
//! reclassed` prints the anchors it re-classes.
//!
//! Unchanged (or moved) text whose 32 chars of context either side changed is
//! also tallied as its own stratum, *context edited* (`@context` for `--show`),
//! apart from "all", and split by how much of that context survived
//! ([`context_kept`]): *partly edited* (a side still agrees, char for char
//! outward, over at least half its length; `@context partly`), of which
//! *one side whole*, and *rewritten* (`@context rewritten`). A case shown
//! lists the text's exact copies in the new revision, the expected one
//! first (`*`), with each side's chars still agreeing. `--rules MASK` runs
//! the resolver with only some of the fallback's rules. Answers found by the fallback evidence alone
//! (`Resolution::Likely`) count as found, and are counted apart too;
//! `--each-rule` measures the fallback's rules one at a time.
//!
//! `--emit DIR` also writes every new revision and a `resolve --batch` input
//! (`DIR/input.jsonl`, text paths relative to DIR) for the speed comparison of
//! `scripts/anchoring-bench.sh`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use cowriting::anchor::{build_fingerprint, resolve, Resolution};
use cowriting::document::Document;
use cowriting::model::Fingerprint;
use cowriting::offset::{ByteOffset, CharRange};
use similar::{Algorithm, DiffOp};

const MAX_FILE_BYTES: usize = 256 * 1024;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Class {
    Unchanged,
    Moved,
    Rewrapped,
    Changed,
}

impl Class {
    fn name(self) -> &'static str {
        match self {
            Class::Unchanged => "unchanged",
            Class::Moved => "moved",
            Class::Rewrapped => "rewrapped",
            Class::Changed => "changed",
        }
    }
}

#[derive(Default, Clone, Copy)]
struct Tally {
    anchors: usize,
    /// Found (exact) at the expected place.
    found_right: usize,
    /// Relocated (flagged as changed) onto the expected place.
    relocated_right: usize,
    /// Returned a range that is not the expected place (or any range, for changed text).
    wrong: usize,
    /// Returned as intact (`Found`).
    intact: usize,
    /// Placed elsewhere, where the text and 32 chars of context either side read
    /// exactly as at the expected place: no resolver can tell them apart.
    indistinct: usize,
    /// Changed text placed on text the new revision added (ambiguous: a move, or
    /// another copy).
    on_new_text: usize,
    orphaned: usize,
    /// Returned as `Likely` (found by the fallback evidence alone), right or not.
    likely: usize,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.anchors += o.anchors;
        self.found_right += o.found_right;
        self.relocated_right += o.relocated_right;
        self.wrong += o.wrong;
        self.intact += o.intact;
        self.orphaned += o.orphaned;
        self.indistinct += o.indistinct;
        self.on_new_text += o.on_new_text;
        self.likely += o.likely;
    }
}

/// Tokens: runs of whitespace, runs of alphanumeric chars, single other chars.
fn tokens(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut it = text.char_indices().peekable();
    while let Some((start, c)) = it.next() {
        let kind = |c: char| {
            if c.is_whitespace() {
                0
            } else if c.is_alphanumeric() {
                1
            } else {
                2
            }
        };
        let k = kind(c);
        let mut end = start + c.len_utf8();
        if k != 2 {
            while let Some(&(i, d)) = it.peek() {
                if kind(d) != k {
                    break;
                }
                end = i + d.len_utf8();
                it.next();
            }
        }
        out.push((start, end));
    }
    out
}

fn is_ws(text: &str, t: (usize, usize)) -> bool {
    text[t.0..t.1].starts_with(char::is_whitespace)
}

struct Pair {
    repo: String,
    path: String,
    old: String,
    new: String,
}

/// Every (parent, commit) revision pair of a modified Markdown file in `repo`.
fn pairs_of(repo: &Path) -> Result<Vec<(git2::Oid, git2::Oid, String)>, git2::Error> {
    let git = git2::Repository::open(repo)?;
    let mut walk = git.revwalk()?;
    walk.push_head()?;
    let mut out = Vec::new();
    for oid in walk {
        let commit = git.find_commit(oid?)?;
        if commit.parent_count() != 1 {
            continue;
        }
        let tree = commit.tree()?;
        let parent = commit.parent(0)?.tree()?;
        let diff = git.diff_tree_to_tree(Some(&parent), Some(&tree), None)?;
        for d in diff.deltas() {
            if d.status() != git2::Delta::Modified {
                continue;
            }
            let Some(path) = d.new_file().path().and_then(|p| p.to_str()) else {
                continue;
            };
            if path.ends_with(".md") || path.ends_with(".markdown") {
                out.push((d.old_file().id(), d.new_file().id(), path.to_owned()));
            }
        }
    }
    Ok(out)
}

fn blob_text(git: &git2::Repository, id: git2::Oid) -> Option<String> {
    let blob = git.find_blob(id).ok()?;
    if blob.size() > MAX_FILE_BYTES {
        return None;
    }
    let text = std::str::from_utf8(blob.content()).ok()?;
    Some(text.strip_prefix('\u{feff}').unwrap_or(text).to_owned())
}

/// The truth for one anchor over old tokens `a..=b`: its class and expected
/// byte range in the new revision (`None` for changed text).
fn truth(
    old: &str,
    new: &str,
    ot: &[(usize, usize)],
    nt: &[(usize, usize)],
    map: &[Option<usize>],
    a: usize,
    b: usize,
) -> (Class, Option<(usize, usize)>) {
    let all_mapped = (a..=b).all(|i| map[i].is_some());
    if all_mapped && (a..b).all(|i| map[i + 1] == map[i].map(|j| j + 1)) {
        let (s, e) = (nt[map[a].unwrap()].0, nt[map[b].unwrap()].1);
        return (Class::Unchanged, Some((s, e)));
    }
    // Re-wrapped: the same token structure, words kept, whitespace runs changed.
    let words_kept = (a..=b).filter(|&i| !is_ws(old, ot[i])).all(|i| map[i].is_some());
    if words_kept && map[a].is_some() && map[b].is_some() {
        let (ja, jb) = (map[a].unwrap(), map[b].unwrap());
        if jb >= ja && jb - ja == b - a {
            let same_shape = (0..=b - a).all(|k| {
                let (o, n) = (ot[a + k], nt[ja + k]);
                match map[a + k] {
                    Some(j) => j == ja + k,
                    None => is_ws(old, o) && is_ws(new, n),
                }
            });
            if same_shape {
                return (Class::Rewrapped, Some((nt[ja].0, nt[jb].1)));
            }
        }
    }
    (Class::Changed, None)
}

/// For each old token, the new token it survives as. The diff runs on lines first
/// (patience, as `git diff --patience` aligns them), then on the tokens of each
/// changed stretch of lines (Myers), so a common token is never matched across
/// the document.
/// The words of `text` (trimmed) with any whitespace run between them, where
/// `text` has one.
fn rewrapped_pattern(text: &str) -> Option<regex::Regex> {
    let words: Vec<String> = text.split_whitespace().map(regex::escape).collect();
    (words.len() > 1).then(|| regex::Regex::new(&words.join(r"\s+")).unwrap())
}

/// Also returns the stretches of lines the diff changed, as byte ranges
/// (old, new).
#[allow(clippy::type_complexity)]
fn token_map(
    old: &str,
    new: &str,
    ot: &[(usize, usize)],
    nt: &[(usize, usize)],
) -> (Vec<Option<usize>>, Vec<((usize, usize), (usize, usize))>) {
    let lines = |t: &str| -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut s = 0;
        for (i, _) in t.match_indices('\n') {
            out.push((s, i + 1));
            s = i + 1;
        }
        if s < t.len() {
            out.push((s, t.len()));
        }
        out
    };
    let (ol, nl) = (lines(old), lines(new));
    let o: Vec<&str> = ol.iter().map(|&(s, e)| &old[s..e]).collect();
    let n: Vec<&str> = nl.iter().map(|&(s, e)| &new[s..e]).collect();
    let deadline = Some(std::time::Instant::now() + std::time::Duration::from_secs(5));
    let line_ops = similar::capture_diff_slices_deadline(Algorithm::Patience, &o, &n, deadline);
    // Token index of a byte offset (the first token starting at or after it).
    let tok_at = |toks: &[(usize, usize)], b: usize| toks.partition_point(|t| t.0 < b);
    let byte = |ls: &[(usize, usize)], i: usize, len: usize| if i < ls.len() { ls[i].0 } else { len };
    let mut map = vec![None; ot.len()];
    let mut hunks = Vec::new();
    for op in line_ops {
        let (oi, ni, olen, nlen) = match op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => (old_index, new_index, len, len),
            DiffOp::Delete {
                old_index,
                new_index,
                old_len,
            } => (old_index, new_index, old_len, 0),
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => (old_index, new_index, 0, new_len),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => (old_index, new_index, old_len, new_len),
        };
        let (ot0, ot1) = (
            tok_at(ot, byte(&ol, oi, old.len())),
            tok_at(ot, byte(&ol, oi + olen, old.len())),
        );
        let (nt0, nt1) = (
            tok_at(nt, byte(&nl, ni, new.len())),
            tok_at(nt, byte(&nl, ni + nlen, new.len())),
        );
        if !matches!(op, DiffOp::Equal { .. }) {
            hunks.push((
                (byte(&ol, oi, old.len()), byte(&ol, oi + olen, old.len())),
                (byte(&nl, ni, new.len()), byte(&nl, ni + nlen, new.len())),
            ));
        }
        if matches!(op, DiffOp::Equal { .. }) {
            for k in 0..(ot1 - ot0).min(nt1 - nt0) {
                map[ot0 + k] = Some(nt0 + k);
            }
            continue;
        }
        if ot1 == ot0 || nt1 == nt0 {
            continue;
        }
        let a: Vec<&str> = ot[ot0..ot1].iter().map(|&(s, e)| &old[s..e]).collect();
        let b: Vec<&str> = nt[nt0..nt1].iter().map(|&(s, e)| &new[s..e]).collect();
        for (i, j) in matched(Algorithm::Myers, &a, &b) {
            map[ot0 + i] = Some(nt0 + j);
        }
    }
    (map, hunks)
}

/// The pairs (old index, new index) of the items a diff of `a` and `b` keeps
/// (given 5 s, then what it has).
fn matched(algorithm: Algorithm, a: &[&str], b: &[&str]) -> Vec<(usize, usize)> {
    let deadline = Some(std::time::Instant::now() + std::time::Duration::from_secs(5));
    let mut out = Vec::new();
    for op in similar::capture_diff_slices_deadline(algorithm, a, b, deadline) {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            out.extend((0..len).map(|k| (old_index + k, new_index + k)));
        }
    }
    out
}

/// A second diff, in words alone (every token but whitespace) over the whole
/// text, blind to whitespace and line breaks: patience, then Myers between its
/// landmarks. Where a paragraph was re-flowed, the line diff above cuts it into
/// stretches that no longer face each other; this one does not.
struct WordDiff {
    /// Old token index → its index among the old words.
    word_of: Vec<Option<usize>>,
    /// Old word index → the new word it survives as.
    map: Vec<Option<usize>>,
    /// The words' token indices, old and new.
    ow: Vec<usize>,
    nw: Vec<usize>,
    /// New word index → whether some old word survives as it.
    taken: Vec<bool>,
}

fn word_diff(r: &Revisions) -> WordDiff {
    let Revisions { old, new, ot, nt } = *r;
    let ow: Vec<usize> = (0..ot.len()).filter(|&i| !is_ws(old, ot[i])).collect();
    let nw: Vec<usize> = (0..nt.len()).filter(|&j| !is_ws(new, nt[j])).collect();
    let a: Vec<&str> = ow.iter().map(|&i| &old[ot[i].0..ot[i].1]).collect();
    let b: Vec<&str> = nw.iter().map(|&j| &new[nt[j].0..nt[j].1]).collect();
    let mut map = vec![None; ow.len()];
    for (i, j) in matched(Algorithm::Patience, &a, &b) {
        map[i] = Some(j);
    }
    let mut word_of = vec![None; ot.len()];
    for (w, &i) in ow.iter().enumerate() {
        word_of[i] = Some(w);
    }
    let mut taken = vec![false; nw.len()];
    for j in map.iter().flatten() {
        taken[*j] = true;
    }
    WordDiff {
        word_of,
        map,
        ow,
        nw,
        taken,
    }
}

/// The two revisions of a pair and their tokens ([`tokens`]).
#[derive(Clone, Copy)]
struct Revisions<'a> {
    old: &'a str,
    new: &'a str,
    ot: &'a [(usize, usize)],
    nt: &'a [(usize, usize)],
}

impl WordDiff {
    /// Old words `wa..=wb` read as the new words from `n` on: whether only the
    /// whitespace between them changed (`Some(true)`, re-wrapped), nothing did
    /// (`Some(false)`), or whitespace was added or taken out between two of
    /// them (`None`).
    fn respaced(&self, r: &Revisions, wa: usize, wb: usize, n: usize) -> Option<bool> {
        let mut rewrapped = false;
        for k in 0..wb - wa {
            let (o0, o1) = (self.ow[wa + k], self.ow[wa + k + 1]);
            let (n0, n1) = (self.nw[n + k], self.nw[n + k + 1]);
            if (o1 - o0 > 1) != (n1 - n0 > 1) {
                return None;
            }
            rewrapped |= r.old[r.ot[o0].1..r.ot[o1].0] != r.new[r.nt[n0].1..r.nt[n1].0];
        }
        Some(rewrapped)
    }

    /// Whether old words `wa..=wb`, which survived side by side, did so inside a
    /// phrase that survived with them: five words (letters or digits) in all, at
    /// least one of them beside the anchor, or five of the anchor's own. A common
    /// word, or a stretch of link punctuation, that a diff matched with another
    /// copy is no evidence.
    fn in_phrase(&self, old: &str, ot: &[(usize, usize)], wa: usize, wb: usize) -> bool {
        let alnum = |w: usize| old[ot[self.ow[w]].0..].starts_with(char::is_alphanumeric);
        let follows =
            |w: usize, next: usize| matches!((self.map[w], self.map[next]), (Some(m), Some(n)) if n == m + 1);
        let (mut before, mut after) = (0, 0);
        let mut w = wa;
        while w > 0 && follows(w - 1, w) {
            w -= 1;
            before += usize::from(alnum(w));
        }
        let mut w = wb;
        while w + 1 < self.map.len() && follows(w, w + 1) {
            w += 1;
            after += usize::from(alnum(w));
        }
        let inside = (wa..=wb).filter(|&w| alnum(w)).count();
        inside >= PHRASE_WORDS || (before + after > 0 && before + inside + after >= PHRASE_WORDS)
    }
}

/// The word diff's opinion on old tokens `a..=b` (which start and end on a
/// word): unchanged, or re-wrapped when only whitespace between its words
/// changed, where every word survived side by side inside a phrase that survived
/// with it ([`WordDiff::in_phrase`]). Otherwise none (changed).
fn word_truth(r: &Revisions, wd: &WordDiff, a: usize, b: usize) -> Option<(Class, (usize, usize))> {
    let Revisions { old, ot, nt, .. } = *r;
    let (wa, wb) = (wd.word_of[a]?, wd.word_of[b]?);
    let na = wd.map[wa]?;
    if (wa..=wb).any(|w| wd.map[w] != Some(na + (w - wa))) {
        return None;
    }
    let nb = na + (wb - wa);
    let rewrapped = wd.respaced(r, wa, wb, na)?;
    if !wd.in_phrase(old, ot, wa, wb) {
        return None;
    }
    let class = if rewrapped {
        Class::Rewrapped
    } else {
        Class::Unchanged
    };
    Some((class, (nt[wd.nw[na]].0, nt[wd.nw[nb]].1)))
}

/// Text the word diff says was deleted here and added elsewhere, word for word:
/// a move (a paragraph moved, a URL moved from an inline link to a link
/// definition, a caption moved into an attribute). Old tokens `a..=b` (which
/// start and end on a word) count as moved where every word of theirs (of
/// letters or digits; a punctuation char need only be the same) was deleted and
/// exactly one place in the new revision holds the same words, added, inside a
/// phrase that reads the same in both revisions and occurs once in each (a
/// URL's prefix, a list item's `- [x]`, repeated boilerplate are no evidence of
/// where it went): at least `PHRASE_WORDS` words of letters or digits and
/// `MOVED_PHRASE_CHARS` of their chars, with words of it on both sides of the
/// anchor (text at the edge of a moved block may not have moved with it), or
/// all of them its own. Moved when the whitespace between its words is as it
/// was, re-wrapped when only that changed; otherwise none (changed).
fn moved_truth<'a>(r: &Revisions<'a>, wd: &WordDiff, a: usize, b: usize) -> Option<(Class, (usize, usize))> {
    let Revisions { old, new, ot, nt } = *r;
    let (wa, wb) = (wd.word_of[a]?, wd.word_of[b]?);
    let ow = |w: usize| &old[ot[wd.ow[w]].0..ot[wd.ow[w]].1];
    let nw = |w: usize| &new[nt[wd.nw[w]].0..nt[wd.nw[w]].1];
    let alnum = |t: &str| t.starts_with(char::is_alphanumeric);
    if (wa..=wb).any(|w| alnum(ow(w)) && wd.map[w].is_some()) {
        return None;
    }
    let len = wb - wa + 1;
    // Old word w of the anchor and new word n, the same, and moved: deleted
    // there, added here (a punctuation char the diff matched with another copy
    // is no evidence either way).
    let moved =
        |w: usize, n: usize| ow(w) == nw(n) && (!alnum(ow(w)) || (wd.map[w].is_none() && !wd.taken[n]));
    // Around it, the phrase need only read the same (the diff may have matched
    // one of its common words with another copy); that it occurs once in each
    // revision is the evidence.
    let pairs_up = |w: usize, n: usize| ow(w) == nw(n);
    // The alphanumeric words (and their chars) of a run of old words.
    let weigh = |ws: &mut dyn Iterator<Item = usize>| {
        ws.map(ow)
            .filter(|t| alnum(t))
            .fold((0, 0), |(n, c), t| (n + 1, c + t.chars().count()))
    };
    // Whether old words `p..=q` occur once in each revision (a URL's prefix, a
    // list item's `- [x]`, repeated boilerplate: no evidence of where it went).
    let once = |p: usize, q: usize| {
        let seq: Vec<&str> = (p..=q).map(ow).collect();
        let count = |n: usize, word: &dyn Fn(usize) -> &'a str| {
            (0..n.saturating_sub(seq.len() - 1))
                .filter(|&i| seq.iter().enumerate().all(|(k, t)| word(i + k) == *t))
                .take(2)
                .count()
        };
        count(wd.ow.len(), &ow) == 1 && count(wd.nw.len(), &nw) == 1
    };
    let (inside, _) = weigh(&mut (wa..=wb));
    let mut found = None;
    for n in 0..wd.nw.len().saturating_sub(len - 1) {
        if !(0..len).all(|k| moved(wa + k, n + k)) {
            continue;
        }
        let mut lo = 0;
        while lo < wa && lo < n && pairs_up(wa - lo - 1, n - lo - 1) {
            lo += 1;
        }
        let mut hi = 0;
        while wb + hi + 1 < wd.map.len() && n + len + hi < wd.nw.len() && pairs_up(wb + hi + 1, n + len + hi)
        {
            hi += 1;
        }
        let (before, _) = weigh(&mut (wa - lo..wa));
        let (after, _) = weigh(&mut (wb + 1..=wb + hi));
        let (words, chars) = weigh(&mut (wa - lo..=wb + hi));
        let phrase = words >= PHRASE_WORDS
            && chars >= MOVED_PHRASE_CHARS
            && ((before > 0 && after > 0) || inside >= PHRASE_WORDS);
        if phrase && once(wa - lo, wb + hi) {
            if found.is_some() {
                return None; // two places: which one it moved to is not known
            }
            found = Some(n);
        }
    }
    let n = found?;
    let rewrapped = wd.respaced(r, wa, wb, n)?;
    let class = if rewrapped { Class::Rewrapped } else { Class::Moved };
    Some((class, (nt[wd.nw[n]].0, nt[wd.nw[n + len - 1]].1)))
}

/// A phrase: at least this many words (letters or digits)…
const PHRASE_WORDS: usize = 5;
/// …and, for a moved one, this many of their chars (a run of short boilerplate
/// words is no evidence).
const MOVED_PHRASE_CHARS: usize = 20;

struct Args {
    pairs: usize,
    anchors: usize,
    seed: u64,
    emit: Option<PathBuf>,
    /// `--show WHAT[@STRATUM]`: what to show, and the stratum ("" for all).
    show: Option<(String, String)>,
    /// The line-then-token diff alone, without the word diff's second opinion
    /// (as the figures before 2026-12-04 were measured).
    line_truth: bool,
    /// The truth as of 2026-12-04: the word diff without its move detection
    /// ([`moved_truth`]).
    truth_1204: bool,
    /// Also resolve every anchor with the fallback's rules added one at a time
    /// ([`RULE_STEPS`]) and print a table of them.
    each_rule: bool,
    /// `--rules MASK`: the fallback's rules for the main run (a bit mask of
    /// `cowriting::anchor::fallback_rules`; all by default).
    rules: u32,
    repos: Vec<PathBuf>,
}

fn args() -> Args {
    let mut a = Args {
        pairs: 400,
        anchors: 12,
        seed: 1,
        emit: None,
        show: None,
        line_truth: false,
        truth_1204: false,
        each_rule: false,
        rules: cowriting::anchor::fallback_rules::ALL,
        repos: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        let mut val = || it.next().unwrap_or_else(|| panic!("{x} needs a value"));
        match x.as_str() {
            "--pairs" => a.pairs = val().parse().expect("--pairs N"),
            "--anchors" => a.anchors = val().parse().expect("--anchors N"),
            "--seed" => a.seed = val().parse().expect("--seed S"),
            "--emit" => a.emit = Some(val().into()),
            "--show" => {
                let v = val();
                let (what, stratum) = v.split_once('@').unwrap_or((&v, ""));
                a.show = Some((what.to_owned(), stratum.to_owned()));
            }
            "--line-truth" => a.line_truth = true,
            "--truth-1204" => a.truth_1204 = true,
            "--each-rule" => a.each_rule = true,
            "--rules" => a.rules = val().parse().expect("--rules MASK"),
            _ => a.repos.push(x.into()),
        }
    }
    assert!(
        !a.repos.is_empty(),
        "usage: anchoring [--pairs N] [--anchors N] [--seed S] [--emit DIR] [--show CLASS] [--line-truth] [--truth-1204] [--each-rule] [--rules MASK] REPO..."
    );
    a
}

fn main() {
    let args = args();
    cowriting::anchor::set_fallback_rules(args.rules);
    let mut rng = fastrand::Rng::with_seed(args.seed);
    let mut pairs = Vec::new();
    for repo in &args.repos {
        let name = repo
            .components()
            .rev()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .find(|c| c != "repo" && c != ".git")
            .unwrap_or_default();
        let all = pairs_of(repo).unwrap_or_else(|e| panic!("{}: {e}", repo.display()));
        let git = git2::Repository::open(repo).unwrap();
        let mut picked = 0;
        let mut order: Vec<usize> = (0..all.len()).collect();
        rng.shuffle(&mut order);
        for i in order {
            if picked == args.pairs {
                break;
            }
            let (o, n, path) = &all[i];
            let (Some(old), Some(new)) = (blob_text(&git, *o), blob_text(&git, *n)) else {
                continue;
            };
            if old == new || old.len() < 200 {
                continue;
            }
            pairs.push(Pair {
                repo: name.clone(),
                path: path.clone(),
                old,
                new,
            });
            picked += 1;
        }
        eprintln!("{name}: {} revision pairs of {} drawn", picked, all.len());
    }

    let mut tallies: BTreeMap<(&'static str, String, Class), Tally> = BTreeMap::new();
    // --each-rule: (step, stratum, class).
    let mut step_tallies: BTreeMap<(usize, &'static str, Class), Tally> = BTreeMap::new();
    let mut emit_lines = Vec::new();
    let mut resolve_time = std::time::Duration::ZERO;
    // (changed single words, of them returned as found)
    let mut one_word = (0usize, 0usize);
    // Anchors the line diff calls changed and the word diff does not, by class.
    let mut reclassed: BTreeMap<(&'static str, &'static str), usize> = BTreeMap::new();
    for (pi, pair) in pairs.iter().enumerate() {
        let ot = tokens(&pair.old);
        let nt = tokens(&pair.new);
        let (map, hunks) = token_map(&pair.old, &pair.new, &ot, &nt);
        let revs = Revisions {
            old: &pair.old,
            new: &pair.new,
            ot: &ot,
            nt: &nt,
        };
        // Built for the first anchor that needs its opinion (none under --line-truth).
        let wd = std::cell::OnceCell::new();
        // Anchors start and end on words, as a writer selects text (a selection
        // may take the punctuation after its last word).
        let words: Vec<usize> = (0..ot.len())
            .filter(|&i| pair.old[ot[i].0..].starts_with(char::is_alphanumeric))
            .collect();
        if words.len() < 10 {
            continue;
        }
        let changed: Vec<usize> = (0..ot.len()).filter(|&i| map[i].is_none()).collect();
        // Whitespace runs that changed between two words that did not.
        let ws_changed: Vec<usize> = (1..ot.len().saturating_sub(1))
            .filter(|&i| {
                map[i].is_none() && is_ws(&pair.old, ot[i]) && map[i - 1].is_some() && map[i + 1].is_some()
            })
            .collect();
        // For each surviving token, the length of the run of tokens that survived
        // side by side with it.
        let mut runs = vec![0usize; ot.len()];
        let mut i = 0;
        while i < ot.len() {
            let mut j = i;
            while map[i].is_some()
                && j + 1 < ot.len()
                && map[j + 1].is_some()
                && map[j + 1] == map[j].map(|x| x + 1)
            {
                j += 1;
            }
            let len = if map[i].is_some() { j - i + 1 } else { 0 };
            runs[i..=j].fill(len);
            i = j + 1;
        }
        let mut image = vec![false; nt.len()];
        for j in map.iter().flatten() {
            image[*j] = true;
        }
        let old_doc = Document::new(&pair.old);
        let new_doc = Document::new(&pair.new);
        if let Some(dir) = &args.emit {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join(format!("{pi}.md")), &pair.new).unwrap();
        }
        for k in 0..args.anchors {
            // Start: anywhere, or near a changed token.
            let near = match k % 3 {
                1 => &changed,
                2 if !ws_changed.is_empty() => &ws_changed,
                2 => &changed,
                _ => &words,
            };
            let start_tok = if k % 3 != 0 && !near.is_empty() {
                let c = near[rng.usize(..near.len())];
                let lo = c.saturating_sub(30);
                lo + rng.usize(..c + 1 - lo)
            } else {
                ot.len().min(words[rng.usize(..words.len())])
            };
            let Some(wi) = words.iter().position(|&w| w >= start_tok) else {
                continue;
            };
            let len = match rng.usize(..10) {
                0..=3 => 1,
                4..=6 => 2 + rng.usize(..5),
                _ => 7 + rng.usize(..34),
            };
            let wj = (wi + len - 1).min(words.len() - 1);
            let (a, mut b) = (words[wi], words[wj]);
            if rng.usize(..4) == 0
                && b + 1 < ot.len()
                && !is_ws(&pair.old, ot[b + 1])
                && !pair.old[ot[b + 1].0..].starts_with(char::is_alphanumeric)
            {
                b += 1;
            }
            let (sb, eb) = (ot[a].0, ot[b].1);
            let range = CharRange {
                start: old_doc.byte_to_char(ByteOffset(sb)).unwrap(),
                end: old_doc.byte_to_char(ByteOffset(eb)).unwrap(),
            };
            let fp = build_fingerprint(&old_doc, range);
            let (mut class, mut expected) = truth(&pair.old, &pair.new, &ot, &nt, &map, a, b);
            // A single word that is there once in the stretch the diff rewrote is
            // no evidence (a common word, once in a page rewritten as a stub): for
            // one word, only the word diff below, with the phrase around it, keeps it.
            if class == Class::Changed && (args.line_truth || wj > wi) {
                // The diff may have aligned the same words with other copies: text
                // that is still there, once, between the nearest words that
                // survived on either side, was not changed.
                // Surviving words count as neighbours only in a run of at least
                // 8 tokens that survived side by side (a lone common word the
                // diff matched elsewhere is no landmark).
                let steady = |i: usize| runs[i] >= 8;
                let lo = (0..a)
                    .rev()
                    .find(|&i| steady(i))
                    .and_then(|i| map[i])
                    .map_or(0, |j| nt[j].1);
                let hi = (b + 1..ot.len())
                    .find(|&i| steady(i))
                    .and_then(|i| map[i])
                    .map_or(pair.new.len(), |j| nt[j].0);
                // Or the stretch of lines the diff rewrote around it: text kept,
                // once, in the rewritten lines was not changed.
                let hunk = hunks
                    .iter()
                    .find(|((os, oe), _)| *os <= sb && eb <= *oe)
                    .map(|(_, n)| *n);
                let wordy = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
                let on_words = |s: usize, e: usize| {
                    !wordy(pair.new[..s].chars().next_back()) && !wordy(pair.new[e..].chars().next())
                };
                let once_in = |lo: usize, hi: usize| -> Option<(Class, (usize, usize))> {
                    if hi < lo || hi - lo > 4000 {
                        return None;
                    }
                    let slot = &pair.new[lo..hi];
                    // Whole words only, as the anchor was drawn.
                    let mut hits = slot
                        .match_indices(fp.text.as_str())
                        .map(|(at, _)| (lo + at, lo + at + fp.text.len()))
                        .filter(|&(s, e)| on_words(s, e));
                    if let (Some(at), None) = (hits.next(), hits.next()) {
                        return Some((Class::Unchanged, at));
                    }
                    let re = rewrapped_pattern(&fp.text)?;
                    let mut hits = re.find_iter(slot);
                    match (hits.next(), hits.next()) {
                        (Some(m), None) if m.as_str() != fp.text => {
                            Some((Class::Rewrapped, (lo + m.start(), lo + m.end())))
                        }
                        _ => None,
                    }
                };
                if let Some((c, at)) = once_in(lo, hi).or_else(|| hunk.and_then(|(l, h)| once_in(l, h))) {
                    class = c;
                    expected = Some(at);
                }
            }
            if class == Class::Changed && fp.text.split_whitespace().count() >= 4 {
                // A passage of four words or more that occurs once in each revision is
                // the same passage, wherever the diff put it.
                let once = |t: &str| {
                    let mut hits = t.match_indices(fp.text.as_str());
                    match (hits.next(), hits.next()) {
                        (Some((at, _)), None) => Some(at),
                        _ => None,
                    }
                };
                if let (Some(_), Some(at)) = (once(&pair.old), once(&pair.new)) {
                    class = Class::Moved;
                    expected = Some((at, at + fp.text.len()));
                }
            }
            if class == Class::Changed {
                let whole = format!("{}{}{}", fp.before, fp.text, fp.after);
                let mut hits = pair.new.match_indices(whole.as_str());
                if let (Some((at, _)), None) = (hits.next(), hits.next()) {
                    let s = at + fp.before.len();
                    class = Class::Moved;
                    expected = Some((s, s + fp.text.len()));
                }
            }
            if class == Class::Changed && !args.line_truth {
                // The second diff, blind to whitespace: the words survived inside a
                // phrase that survived with them, or moved with it.
                let wd = wd.get_or_init(|| word_diff(&revs));
                let kept = word_truth(&revs, wd, a, b).map(|k| (k, "kept")).or_else(|| {
                    let moved = (!args.truth_1204).then(|| moved_truth(&revs, wd, a, b));
                    moved.flatten().map(|k| (k, "moved"))
                });
                if let Some(((c, at), how)) = kept {
                    class = c;
                    expected = Some(at);
                    *reclassed.entry((how, c.name())).or_default() += 1;
                    if args.show.as_ref().is_some_and(|(what, stratum)| {
                        what == "reclassed" && STRATA[k % 3].starts_with(stratum)
                    }) {
                        let around = |t: &str, (s, e): (usize, usize)| {
                            let s = t[..s].char_indices().rev().nth(59).map_or(0, |(i, _)| i);
                            let e = t[e..].char_indices().nth(60).map_or(t.len(), |(i, _)| e + i);
                            format!("{:?}", &t[s..e])
                        };
                        println!(
                            "--- {}:{} changed by the line diff, {} by the word diff ({how}): {:?}\n  old  {}\n  new  {}",
                            pair.repo,
                            pair.path,
                            c.name(),
                            fp.text,
                            around(&pair.old, (sb, eb)),
                            around(&pair.new, at)
                        );
                    }
                }
            }
            let t0 = std::time::Instant::now();
            let got = resolve(&new_doc, &fp, None);
            resolve_time += t0.elapsed();
            // A single word that was deleted or replaced: is another copy taken for it?
            if class == Class::Changed && a == b {
                one_word.0 += 1;
                one_word.1 += usize::from(matches!(got, Resolution::Found(_) | Resolution::Likely(_)));
            }
            let as_bytes = |r: CharRange| {
                let b = new_doc.char_range_to_bytes(r);
                (b.start.0, b.end.0)
            };
            // A place that is not the expected one: as good as it when the text and
            // its context there read the same; for changed text, ambiguous when it
            // is all text the new revision added (the same words deleted here and
            // written there); otherwise wrong.
            let judge = |got: (usize, usize), tally: &mut Tally| -> &'static str {
                let window = |(s, e): (usize, usize)| {
                    let s = pair.new[..s].char_indices().rev().nth(31).map_or(0, |(i, _)| i);
                    let e = pair.new[e..]
                        .char_indices()
                        .nth(32)
                        .map_or(pair.new.len(), |(i, _)| e + i);
                    &pair.new[s..e]
                };
                // (Exactly the recorded text and context: no resolver can know better.)
                let recorded = format!("{}{}{}", fp.before, fp.text, fp.after);
                if window(got) == recorded || expected.is_some_and(|x| window(x) == window(got)) {
                    tally.indistinct += 1;
                    return "indistinct";
                }
                let added = nt
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| t.0 < got.1 && t.1 > got.0)
                    .all(|(j, _)| !image[j]);
                if class == Class::Changed && added {
                    tally.on_new_text += 1;
                    return "new-text";
                }
                tally.wrong += 1;
                "WRONG"
            };
            // Tallies one answer; its outcome.
            let count = |got: Resolution, tally: &mut Tally| -> &'static str {
                tally.anchors += 1;
                match got {
                    // A likely place is shown as found (a thread follows it): it
                    // counts as found, and as intact.
                    Resolution::Found(r) | Resolution::Likely(r) => {
                        tally.intact += 1;
                        tally.likely += usize::from(matches!(got, Resolution::Likely(_)));
                        if expected == Some(as_bytes(r)) {
                            tally.found_right += 1;
                            "found"
                        } else {
                            judge(as_bytes(r), tally)
                        }
                    }
                    Resolution::Relocated(r) => {
                        if expected == Some(as_bytes(r)) {
                            tally.relocated_right += 1;
                            "relocated"
                        } else {
                            judge(as_bytes(r), tally)
                        }
                    }
                    Resolution::Orphaned => {
                        tally.orphaned += 1;
                        "orphaned"
                    }
                }
            };
            // Unchanged (or moved) text whose recorded context is not what is
            // beside it now: the stratum of the hard case, across the three draws.
            let context_edited = matches!(class, Class::Unchanged | Class::Moved)
                && expected.is_some_and(|(s, e)| {
                    let before_now = pair.new[..s]
                        .char_indices()
                        .rev()
                        .nth(CONTEXT - 1)
                        .map_or(0, |(i, _)| i);
                    let after_now = pair.new[e..]
                        .char_indices()
                        .nth(CONTEXT)
                        .map_or(pair.new.len(), |(i, _)| e + i);
                    pair.new[before_now..s] != fp.before || pair.new[e..after_now] != fp.after
                });
            // How much of it survived: the sub-stratum (see [`context_kept`]).
            let context_sub = expected
                .filter(|_| context_edited)
                .map(|(s, e)| context_kept(&fp, &pair.new, s, e));
            let tally = tallies
                .entry((STRATA[k % 3], pair.repo.clone(), class))
                .or_default();
            let outcome = count(got, tally);
            if context_edited {
                count(
                    got,
                    tallies
                        .entry((CONTEXT_EDITED, pair.repo.clone(), class))
                        .or_default(),
                );
            }
            if let Some(sub) = context_sub {
                count(got, tallies.entry((sub, pair.repo.clone(), class)).or_default());
            }
            if args.each_rule {
                for (step, (_, mask)) in RULE_STEPS.iter().enumerate() {
                    cowriting::anchor::set_fallback_rules(*mask);
                    let got = resolve(&new_doc, &fp, None);
                    count(got, step_tallies.entry((step, STRATA[k % 3], class)).or_default());
                    if context_edited {
                        count(
                            got,
                            step_tallies.entry((step, CONTEXT_EDITED, class)).or_default(),
                        );
                    }
                    if let Some(sub) = context_sub {
                        count(got, step_tallies.entry((step, sub, class)).or_default());
                    }
                }
                cowriting::anchor::set_fallback_rules(args.rules);
            }
            if let Some((what, stratum)) = &args.show {
                // CLASS, OUTCOME, CLASS:OUTCOME, or any of those then @STRATUM.
                let hit = (what == class.name()
                    || what == outcome
                    || *what == format!("{}:{outcome}", class.name()))
                    && (stratum.is_empty()
                        || STRATA[k % 3].starts_with(stratum)
                        || (context_edited && CONTEXT_EDITED.starts_with(stratum))
                        || context_sub.is_some_and(|sub| sub.starts_with(stratum.as_str())));
                if hit {
                    show_case(pair, &fp, class, expected, outcome, got, &new_doc);
                }
            }
            if args.emit.is_some() {
                emit_lines.push(serde_json::json!({
                    "id": emit_lines.len(),
                    "fingerprint": fingerprint_json(&fp),
                    "textPath": format!("{pi}.md"),
                }));
            }
        }
    }
    if let Some(dir) = &args.emit {
        let mut f = std::io::BufWriter::new(std::fs::File::create(dir.join("input.jsonl")).unwrap());
        for l in &emit_lines {
            writeln!(f, "{l}").unwrap();
        }
    }
    report(&tallies, resolve_time);
    if args.each_rule {
        report_steps(&step_tallies);
    }
    if !args.line_truth {
        println!(
            "changed by the line diff, re-classed by the word diff: {} (--line-truth: without it; --truth-1204: without \"moved\")",
            reclassed
                .iter()
                .map(|((how, c), n)| format!("{how} as {c} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    println!(
        "a single word changed or deleted, found anyway (at another copy): {}/{} ({})",
        one_word.1,
        one_word.0,
        pct(one_word.1, one_word.0)
    );
}

fn fingerprint_json(fp: &Fingerprint) -> serde_json::Value {
    serde_json::json!({ "text": fp.text, "before": fp.before, "after": fp.after, "lineHint": fp.line_hint })
}

fn show_case(
    pair: &Pair,
    fp: &Fingerprint,
    class: Class,
    expected: Option<(usize, usize)>,
    outcome: &str,
    got: Resolution,
    new_doc: &Document,
) {
    let kind = match got {
        Resolution::Found(_) => "found",
        Resolution::Relocated(_) => "relocated",
        Resolution::Likely(_) => "likely",
        Resolution::Orphaned => "orphaned",
    };
    let got_text = match got {
        Resolution::Found(r) | Resolution::Relocated(r) | Resolution::Likely(r) => {
            let b = new_doc.char_range_to_bytes(r);
            let s = b.start.0.saturating_sub(40);
            let e = (b.end.0 + 40).min(pair.new.len());
            format!("{:?}", pair.new.get(s..e).unwrap_or("?"))
        }
        Resolution::Orphaned => "-".into(),
    };
    let want = expected.map(|(s, e)| {
        let s2 = s.saturating_sub(40);
        let e2 = (e + 40).min(pair.new.len());
        format!("{:?}", pair.new.get(s2..e2).unwrap_or("?"))
    });
    println!(
        "--- {}:{} {} → {} ({kind})\n  fp {:?} | {:?} | {:?} (line {})\n  want {}\n  got  {}",
        pair.repo,
        pair.path,
        class.name(),
        outcome,
        fp.before,
        fp.text,
        fp.after,
        fp.line_hint,
        want.unwrap_or_else(|| "-".into()),
        got_text
    );
    // The exact copies of the text now, nearest the hint first: line, and chars
    // of each recorded side that still agree outward, exactly.
    let line = |b: usize| pair.new[..b].matches('\n').count();
    let kept = |s: usize, e: usize| {
        let b = fp
            .before
            .chars()
            .rev()
            .zip(pair.new[..s].chars().rev())
            .take_while(|(a, b)| a == b)
            .count();
        let a = fp
            .after
            .chars()
            .zip(pair.new[e..].chars())
            .take_while(|(a, b)| a == b)
            .count();
        (b, a)
    };
    let mut copies: Vec<(usize, usize)> = pair
        .new
        .match_indices(fp.text.as_str())
        .map(|(s, _)| (line(s), s))
        .collect();
    // The expected place first, then by the chars kept (either side), then nearest.
    copies.sort_by_key(|&(l, s)| {
        let (b, a) = kept(s, s + fp.text.len());
        (
            expected.is_none_or(|x| x.0 != s),
            std::cmp::Reverse(b + a),
            l.abs_diff(fp.line_hint),
        )
    });
    let n = copies.len();
    let list: Vec<String> = copies
        .iter()
        .take(6)
        .map(|&(l, s)| {
            let (b, a) = kept(s, s + fp.text.len());
            let mark = if expected.is_some_and(|x| x.0 == s) {
                "*"
            } else {
                ""
            };
            format!("{mark}L{l}({b}|{a})")
        })
        .collect();
    println!(
        "  copies {n}: {} (kept of {}|{}; hint L{})",
        list.join(" "),
        fp.before.chars().count(),
        fp.after.chars().count(),
        fp.line_hint
    );
}

fn pct(n: usize, d: usize) -> String {
    if d == 0 {
        "-".into()
    } else {
        format!("{:.2} %", 100.0 * n as f64 / d as f64)
    }
}

/// How anchors are drawn, by their index in a revision pair modulo 3.
const STRATA: [&str; 3] = ["anywhere", "near a change", "near a re-wrap"];

/// The hard case, across the draws: unchanged (or moved) text some of whose 32
/// chars of context either side changed. Reported apart, not added to "all".
const CONTEXT_EDITED: &str = "context edited";

/// The context-edited stratum split by how much of the context survived
/// (reported apart too, not added to anything): at least one side still
/// agrees, outward from the text, char for char, over at least half of what
/// was recorded…
const CONTEXT_PARTLY: &str = "context partly edited, no side whole";
/// …and neither side does (the words around the text rewritten on both sides).
const CONTEXT_REWRITTEN: &str = "context rewritten";
/// Of the partly edited, those with one side still whole (counted in it too).
const CONTEXT_ONE_WHOLE: &str = "context partly edited, one side whole";

/// The share of a recorded side that must survive for "partly edited".
const KEPT_SHARE: f64 = 0.5;

/// The sub-stratum of a context-edited anchor whose text is now at bytes
/// `s..e` of `new`: how many chars of each recorded side still agree
/// exactly, read outward from the text (nothing normalized), against the
/// side's length. A side recorded empty (the document's edge) counts as kept
/// when the text is still at that edge.
fn context_kept(fp: &Fingerprint, new: &str, s: usize, e: usize) -> &'static str {
    let share = |recorded: &str, now: &mut dyn Iterator<Item = char>, rec: &mut dyn Iterator<Item = char>| {
        let n = recorded.chars().count();
        let same = rec.zip(now).take_while(|(a, b)| a == b).count();
        if n == 0 {
            return 0.0;
        }
        same as f64 / n as f64
    };
    let before = if fp.before.is_empty() {
        if s == 0 {
            1.0
        } else {
            0.0
        }
    } else {
        share(
            &fp.before,
            &mut new[..s].chars().rev(),
            &mut fp.before.chars().rev(),
        )
    };
    let after = if fp.after.is_empty() {
        if e == new.len() {
            1.0
        } else {
            0.0
        }
    } else {
        share(&fp.after, &mut new[e..].chars(), &mut fp.after.chars())
    };
    if before.max(after) >= 1.0 {
        CONTEXT_ONE_WHOLE
    } else if before.max(after) >= KEPT_SHARE {
        CONTEXT_PARTLY
    } else {
        CONTEXT_REWRITTEN
    }
}

/// Chars of context a fingerprint records either side.
const CONTEXT: usize = cowriting::anchor::CONTEXT_CHARS;

/// `--each-rule`: the fallback's rules added one at a time (the first is the
/// resolver without fallback, as on main).
const RULE_STEPS: [(&str, u32); 8] = {
    use cowriting::anchor::fallback_rules as r;
    [
        ("v3, no fallback", 0),
        ("+ tolerant context", r::TOLERANT),
        ("+ visible words", r::TOLERANT | r::WORDS),
        ("+ token edit distance", r::TOLERANT | r::WORDS | r::EDIT_DISTANCE),
        (
            "+ distance, edge",
            r::TOLERANT | r::WORDS | r::EDIT_DISTANCE | r::DISTANCE_AND_EDGE,
        ),
        (
            "+ nearest copy",
            r::TOLERANT | r::WORDS | r::EDIT_DISTANCE | r::DISTANCE_AND_EDGE | r::NEAREST_COPY,
        ),
        ("+ far search (round 3)", (r::FAR << 1) - 1),
        ("+ dominant place", (r::DOMINANT << 1) - 1),
    ]
};

/// `--each-rule`'s table: per step, the figures of the natural mix, of the
/// context-edited stratum and of all anchors.
fn report_steps(t: &BTreeMap<(usize, &'static str, Class), Tally>) {
    println!(
        "\n-- the fallback's rules, one at a time (unchanged found; wrong place by stratum; changed not intact; likely answers)"
    );
    println!(
        "{:<24} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7} {:>7} {:>7} {:>7} {:>9} {:>9} {:>7} {:>16} {:>8}",
        "step",
        "unch nat",
        "unch ctx",
        "unch part",
        "unch rewr",
        "unch all",
        "w nat",
        "w chg",
        "w wrap",
        "w ctx",
        "w all",
        "chg nat",
        "chg all",
        "likely",
        "wrong n/c/w/x/p",
        "chg plcd"
    );
    for (step, (name, _)) in RULE_STEPS.iter().enumerate() {
        let sum = |strata: &[&str], class: Option<Class>| {
            let mut out = Tally::default();
            for ((s, st, c), x) in t {
                if *s == step && strata.contains(st) && class.is_none_or(|k| k == *c) {
                    out.add(x);
                }
            }
            out
        };
        let (nat, ctx, all) = (&["anywhere"][..], &[CONTEXT_EDITED][..], &STRATA[..]);
        let u = |s| sum(s, Some(Class::Unchanged));
        let c = |s| sum(s, Some(Class::Changed));
        let w = |s| {
            let x = sum(s, None);
            pct(x.wrong, x.anchors)
        };
        let partly = &[CONTEXT_PARTLY, CONTEXT_ONE_WHOLE][..];
        let (un, uc, ua) = (u(nat), u(ctx), u(all));
        let (up, ur) = (u(partly), u(&[CONTEXT_REWRITTEN][..]));
        let (cn, ca) = (c(nat), c(all));
        let wn = |s: &[&str]| sum(s, None).wrong.to_string();
        println!(
            "{:<24} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7} {:>7} {:>7} {:>7} {:>9} {:>9} {:>7} {:>16} {:>8}",
            name,
            pct(un.found_right, un.anchors),
            pct(uc.found_right, uc.anchors),
            pct(up.found_right, up.anchors),
            pct(ur.found_right, ur.anchors),
            pct(ua.found_right, ua.anchors),
            w(nat),
            w(&["near a change"]),
            w(&["near a re-wrap"]),
            w(ctx),
            w(all),
            pct(cn.anchors - cn.intact, cn.anchors),
            pct(ca.anchors - ca.intact, ca.anchors),
            sum(all, None).likely,
            [wn(nat), wn(&["near a change"]), wn(&["near a re-wrap"]), wn(ctx), wn(partly)].join("/"),
            ca.intact,
        );
    }
}

fn report(tallies: &BTreeMap<(&'static str, String, Class), Tally>, resolve_time: std::time::Duration) {
    let mut total: BTreeMap<Class, Tally> = BTreeMap::new();
    println!(
        "{:<40} {:>8} {:>10} {:>11} {:>11} {:>11} {:>11}",
        "corpus", "anchors", "wrong", "unchanged", "moved", "rewrapped", "changed"
    );
    println!(
        "{:<40} {:>8} {:>10} {:>11} {:>11} {:>11} {:>11}",
        "", "", "place", "found", "found", "re-attached", "not intact"
    );
    let row = |name: &str, by: &BTreeMap<Class, Tally>| {
        let mut all = Tally::default();
        for t in by.values() {
            all.add(t);
        }
        let g = |c: Class| by.get(&c).copied().unwrap_or_default();
        let (u, m, r, c) = (
            g(Class::Unchanged),
            g(Class::Moved),
            g(Class::Rewrapped),
            g(Class::Changed),
        );
        println!(
            "{:<40} {:>8} {:>10} {:>11} {:>11} {:>11} {:>11}",
            name,
            all.anchors,
            pct(all.wrong, all.anchors),
            format!("{} ({})", pct(u.found_right, u.anchors), u.anchors),
            format!("{} ({})", pct(m.found_right, m.anchors), m.anchors),
            format!("{} ({})", pct(r.relocated_right, r.anchors), r.anchors),
            format!("{} ({})", pct(c.anchors - c.intact, c.anchors), c.anchors),
        );
    };
    for stratum in STRATA {
        println!("-- anchors drawn {stratum}");
        let mut repos: BTreeMap<&str, BTreeMap<Class, Tally>> = BTreeMap::new();
        for ((st, repo, class), t) in tallies {
            if *st == stratum {
                repos.entry(repo.as_str()).or_default().insert(*class, *t);
            }
        }
        let mut sub: BTreeMap<Class, Tally> = BTreeMap::new();
        for (repo, by) in &repos {
            row(repo, by);
            for (c, t) in by {
                sub.entry(*c).or_default().add(t);
                total.entry(*c).or_default().add(t);
            }
        }
        row(&format!("all, {stratum}"), &sub);
    }
    println!("-- unchanged or moved text with its context edited (of all three draws; not added to \"all\")");
    let mut sub: BTreeMap<Class, Tally> = BTreeMap::new();
    for ((st, _, class), t) in tallies {
        if *st == CONTEXT_EDITED {
            sub.entry(*class).or_default().add(t);
        }
    }
    row("all, context edited", &sub);
    // Its sub-strata, by how much context survived.
    let sub_row = |name: &str, of: &[&str]| {
        let mut sub: BTreeMap<Class, Tally> = BTreeMap::new();
        for ((st, _, class), t) in tallies {
            if of.contains(st) {
                sub.entry(*class).or_default().add(t);
            }
        }
        row(name, &sub);
    };
    sub_row(
        "— partly edited (one side ≥ half kept)",
        &[CONTEXT_PARTLY, CONTEXT_ONE_WHOLE],
    );
    sub_row("   — one side whole", &[CONTEXT_ONE_WHOLE]);
    sub_row("   — no side whole", &[CONTEXT_PARTLY]);
    sub_row("— rewritten (both sides < half kept)", &[CONTEXT_REWRITTEN]);
    println!("--");
    row("all", &total);
    let n: usize = total.values().map(|t| t.anchors).sum();
    println!(
        "\nwrong place by class: {}",
        total
            .iter()
            .map(|(c, t)| format!("{} {}/{}", c.name(), t.wrong, t.anchors))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "indistinct by class: {}",
        total
            .iter()
            .map(|(c, t)| format!("{} {}/{}", c.name(), t.indistinct, t.anchors))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "likely (placed by the fallback evidence alone) by class: {}",
        total
            .iter()
            .map(|(c, t)| format!("{} {}/{}", c.name(), t.likely, t.anchors))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let c = total.get(&Class::Changed).copied().unwrap_or_default();
    println!(
        "changed text placed on added text (a move or a copy): {}/{}",
        c.on_new_text, c.anchors
    );
    println!(
        "orphaned by class: {}",
        total
            .iter()
            .map(|(c, t)| format!("{} {}/{}", c.name(), t.orphaned, t.anchors))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "resolve: {:.1} µs per anchor in process ({n} anchors)",
        resolve_time.as_secs_f64() * 1e6 / n.max(1) as f64
    );
}
