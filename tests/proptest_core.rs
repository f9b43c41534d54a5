//! Randomized tests of the core against naive models.
//!
//! Each property builds one situation twice: with the crate's types (ChangeSet,
//! Spans, Session, the sidecar model, the anchor resolver) and with a naive model
//! that is plainly right (a `Vec` of chars, one optional author per char), and
//! checks that the two agree after every step.
//!
//! Generated text mixes one-byte, two-byte, three-byte and four-byte chars, LF
//! and CRLF line breaks, from a small alphabet so that texts repeat.

use cowriting::anchor::{self, build_fingerprint, Resolution};
use cowriting::attribution::{SpanAuthor, Spans};
use cowriting::history::EditKind;
use cowriting::model::{
    parse_artifact, serialize_artifact, AgentInfo, Anchor, Artifact, Attribution, AuthorKind, Comment, Extra,
    Fingerprint, Proposal, Thread, ThreadStatus, SCHEMA_VERSION,
};
use cowriting::{
    Assoc, ChangeSet, CharOffset, CharRange, DocPath, Document, ErrorCode, ProposalState, ProposeOptions,
    Provenance, Session, Store, Workspace,
};
use indexmap::IndexMap;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use ropey::Rope;
use serde_json::Value;
use std::sync::Arc;

type TestResult = Result<(), TestCaseError>;

// ---- text -----------------------------------------------------------------------

/// The alphabet of generated documents: a few letters (so texts repeat), a space,
/// multi-byte chars of every UTF-8 width, and both line endings.
const TOKENS: &[&str] = &["a", "b", " ", ".", "é", "😀", "中", "\n", "\r\n"];

fn text(min_tokens: usize, max_tokens: usize) -> impl Strategy<Value = String> {
    text_of(TOKENS, min_tokens, max_tokens)
}

fn text_of(
    alphabet: &'static [&'static str],
    min_tokens: usize,
    max_tokens: usize,
) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(alphabet), min_tokens..=max_tokens).prop_map(|v| v.concat())
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// `seed` as a position in `lo..=hi`.
fn pick(seed: usize, lo: usize, hi: usize) -> usize {
    debug_assert!(lo <= hi);
    lo + seed % (hi - lo + 1)
}

/// Two seeds as a range inside `0..=len`.
fn pick_range(a: usize, b: usize, len: usize) -> CharRange {
    let (x, y) = (pick(a, 0, len), pick(b, 0, len));
    CharRange::new(x.min(y), x.max(y))
}

// ---- the naive edit model -----------------------------------------------------------

/// One replacement in old-document chars: `start..end` becomes `text`.
#[derive(Clone, Debug, PartialEq)]
struct Edit {
    start: usize,
    end: usize,
    text: String,
}

/// Drop edits that do nothing and merge edits that touch: a change set cannot
/// tell `0..2 → "x"` followed by `2..3 → "y"` from `0..3 → "xy"`.
fn normalize(edits: Vec<Edit>) -> Vec<Edit> {
    let mut out: Vec<Edit> = Vec::new();
    for e in edits {
        if e.start == e.end && e.text.is_empty() {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.end == e.start => {
                last.end = e.end;
                last.text.push_str(&e.text);
            }
            _ => out.push(e),
        }
    }
    out
}

/// Apply edits (in order, old coordinates) to one value per char.
fn apply_naive<T: Clone>(v: &[T], edits: &[Edit], mut fill: impl FnMut(char) -> T) -> Vec<T> {
    let mut out = Vec::with_capacity(v.len());
    let mut pos = 0;
    for e in edits {
        out.extend_from_slice(&v[pos..e.start]);
        out.extend(e.text.chars().map(&mut fill));
        pos = e.end;
    }
    out.extend_from_slice(&v[pos..]);
    out
}

fn apply_naive_str(s: &str, edits: &[Edit]) -> String {
    let v: Vec<char> = s.chars().collect();
    apply_naive(&v, edits, |c| c).into_iter().collect()
}

/// Where `pos` goes, by the rules of `ChangeSet::map_pos`'s docs, over normalized
/// edits: before an edit it shifts by the edits before it; at the start of an
/// edit it goes before or after the inserted text as `assoc` says; inside (or at
/// the end of) deleted text it goes to where the deletion was, which is after the
/// text inserted in its place; past the end it is clamped.
fn naive_map_pos(len: usize, edits: &[Edit], pos: usize, assoc: Assoc) -> usize {
    let p = pos.min(len);
    let mut delta: isize = 0;
    for e in edits {
        let n = chars(&e.text);
        let new_start = (e.start as isize + delta) as usize;
        if p < e.start {
            break;
        }
        // At an edit, or inside the text it replaces: before or after the new text.
        if p <= e.end {
            return match assoc {
                Assoc::Before => new_start,
                Assoc::After => new_start + n,
            };
        }
        delta += n as isize - (e.end - e.start) as isize;
    }
    (p as isize + delta) as usize
}

fn naive_inserted_ranges(edits: &[Edit]) -> Vec<CharRange> {
    let mut out = Vec::new();
    let mut delta: isize = 0;
    for e in edits {
        let n = chars(&e.text);
        let start = (e.start as isize + delta) as usize;
        if n > 0 {
            out.push(CharRange::new(start, start + n));
        }
        delta += n as isize - (e.end - e.start) as isize;
    }
    out
}

/// An edit list as generated: gap after the previous edit, chars deleted, text.
type EditSpec = Vec<(usize, usize, String)>;

fn edit_spec(max_edits: usize) -> impl Strategy<Value = EditSpec> {
    prop::collection::vec((0usize..12, 0usize..5, text(0, 3)), 0..=max_edits)
}

/// Turn a spec into edits in document order for a document of `len` chars.
fn edits_from_spec(len: usize, spec: &EditSpec) -> Vec<Edit> {
    let mut out = Vec::new();
    let mut pos = 0;
    for (gap, del, text) in spec {
        let start = (pos + gap).min(len);
        let end = (start + del).min(len);
        out.push(Edit {
            start,
            end,
            text: text.clone(),
        });
        pos = end;
    }
    out
}

fn change_from_edits(len: usize, edits: &[Edit]) -> ChangeSet {
    ChangeSet::from_changes(
        len,
        edits
            .iter()
            .map(|e| (CharRange::new(e.start, e.end), e.text.as_str())),
    )
    .expect("generated edits are in order and in range")
}

/// A raw builder call, before clamping to the document.
#[derive(Clone, Debug)]
enum RawOp {
    Retain(usize),
    Delete(usize),
    Insert(String),
}

fn raw_ops() -> impl Strategy<Value = Vec<RawOp>> {
    prop::collection::vec(
        prop_oneof![
            (1usize..8).prop_map(RawOp::Retain),
            (1usize..5).prop_map(RawOp::Delete),
            text(0, 3).prop_map(RawOp::Insert),
        ],
        0..10,
    )
}

/// Build a change with `retain`/`delete`/`insert` (clamped to a document of `len`
/// chars, then retaining the rest), and the normalized edits it stands for.
fn change_from_ops(len: usize, ops: &[RawOp]) -> (ChangeSet, Vec<Edit>) {
    let mut cs = ChangeSet::default();
    let mut edits = Vec::new();
    let mut cur: Option<Edit> = None;
    let mut pos = 0;
    for op in ops {
        match op {
            RawOp::Retain(n) => {
                let n = (*n).min(len - pos);
                cs.retain(n);
                if n > 0 {
                    edits.extend(cur.take());
                    pos += n;
                }
            }
            RawOp::Delete(n) => {
                let n = (*n).min(len - pos);
                cs.delete(n);
                let e = cur.get_or_insert_with(|| Edit {
                    start: pos,
                    end: pos,
                    text: String::new(),
                });
                e.end += n;
                pos += n;
            }
            RawOp::Insert(s) => {
                cs.insert(s);
                cur.get_or_insert_with(|| Edit {
                    start: pos,
                    end: pos,
                    text: String::new(),
                })
                .text
                .push_str(s);
            }
        }
    }
    edits.extend(cur);
    cs.retain(len - pos);
    (cs, normalize(edits))
}

/// A change for `doc`, built one way or the other, with its normalized edits.
fn build_change(doc: &str, spec: &EditSpec, ops: &[RawOp], use_builder: bool) -> (ChangeSet, Vec<Edit>) {
    let len = chars(doc);
    if use_builder {
        change_from_ops(len, ops)
    } else {
        let edits = edits_from_spec(len, spec);
        (change_from_edits(len, &edits), normalize(edits))
    }
}

/// Everything one change must agree on with the naive model of its edits.
fn check_change(doc: &str, cs: &ChangeSet, edits: &[Edit]) -> TestResult {
    cs.check_invariants();
    let len = chars(doc);
    let expected = apply_naive_str(doc, edits);
    prop_assert_eq!(cs.len(), len);
    prop_assert_eq!(cs.len_after(), chars(&expected));
    prop_assert_eq!(cs.is_identity(), edits.is_empty());
    prop_assert_eq!(cs.apply_to_string(doc).unwrap(), expected.clone());

    let original = Rope::from_str(doc);
    let mut rope = original.clone();
    cs.apply(&mut rope).unwrap();
    prop_assert_eq!(rope.to_string(), expected.clone());

    prop_assert_eq!(cs.inserted_ranges(), naive_inserted_ranges(edits));
    let touched = match (edits.first(), edits.last()) {
        (Some(f), Some(l)) => Some(CharRange::new(f.start, l.end)),
        _ => None,
    };
    prop_assert_eq!(cs.touched_range(), touched);

    for pos in 0..=len + 1 {
        for assoc in [Assoc::Before, Assoc::After] {
            prop_assert_eq!(
                cs.map_pos(CharOffset(pos), assoc),
                CharOffset(naive_map_pos(len, edits, pos, assoc)),
                "map_pos({}, {:?})",
                pos,
                assoc
            );
        }
    }

    let inv = cs.invert(&original);
    inv.check_invariants();
    prop_assert_eq!(inv.len(), cs.len_after());
    prop_assert_eq!(inv.len_after(), cs.len());
    inv.apply(&mut rope).unwrap();
    prop_assert_eq!(rope.to_string(), doc);
    prop_assert_eq!(inv.apply_to_string(&expected).unwrap(), doc);
    // The canonical form is unique, so inverting twice gives the change back.
    prop_assert_eq!(&inv.invert(&Rope::from_str(&expected)), cs);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// 1. ChangeSet against edits applied to a plain string: apply, invert,
    ///    compose, map_pos, inserted and touched ranges, invariants.
    #[test]
    fn changeset_matches_naive_edits(
        doc in text(0, 20),
        (spec_a, ops_a, builder_a) in (edit_spec(5), raw_ops(), any::<bool>()),
        (spec_b, ops_b, builder_b) in (edit_spec(5), raw_ops(), any::<bool>()),
    ) {
        let (a, edits_a) = build_change(&doc, &spec_a, &ops_a, builder_a);
        check_change(&doc, &a, &edits_a)?;
        let mid = a.apply_to_string(&doc).unwrap();
        let (b, edits_b) = build_change(&mid, &spec_b, &ops_b, builder_b);
        check_change(&mid, &b, &edits_b)?;
        let end = b.apply_to_string(&mid).unwrap();

        let ab = a.compose(&b).unwrap();
        ab.check_invariants();
        prop_assert_eq!(ab.len(), chars(&doc));
        prop_assert_eq!(ab.len_after(), chars(&end));
        prop_assert_eq!(ab.apply_to_string(&doc).unwrap(), end.clone());
        let mut rope = Rope::from_str(&doc);
        ab.apply(&mut rope).unwrap();
        prop_assert_eq!(rope.to_string(), end.clone());
        let inv = ab.invert(&Rope::from_str(&doc));
        inv.check_invariants();
        prop_assert_eq!(inv.apply_to_string(&end).unwrap(), doc.clone());

        // Identity is neutral on both sides; a change then its inverse is identity.
        prop_assert_eq!(&ChangeSet::identity(a.len()).compose(&a).unwrap(), &a);
        prop_assert_eq!(&a.compose(&ChangeSet::identity(a.len_after())).unwrap(), &a);
        let undo = a.compose(&a.invert(&Rope::from_str(&doc))).unwrap();
        undo.check_invariants();
        prop_assert_eq!(undo.apply_to_string(&doc).unwrap(), doc.clone());
        // A change of the wrong length is refused, and the rope is untouched.
        let mut wrong = Rope::from_str(&format!("{doc}x"));
        prop_assert!(a.apply(&mut wrong).is_err());
        prop_assert_eq!(wrong.to_string(), format!("{doc}x"));
    }
}

// ---- attribution spans ------------------------------------------------------------

const AUTHORS: usize = 5;

/// Author `i` of a small cast: two humans, one agent in two turns, and the same
/// agent id with another model. `stamp` varies what must not matter (creation
/// time, agent session id).
fn span_author(i: usize, stamp: usize) -> SpanAuthor {
    let agent = |model: &str| {
        Provenance::agent(
            "claude",
            AgentInfo {
                model: Some(model.to_owned()),
                session_id: Some(format!("s{stamp}")),
                ..AgentInfo::default()
            },
        )
    };
    let (author, turn) = match i {
        0 => (Provenance::human("a@example.com"), None),
        1 => (Provenance::human("b@example.com"), None),
        2 => (agent("sonnet"), Some("t1")),
        3 => (agent("sonnet"), Some("t2")),
        _ => (agent("opus"), Some("t1")),
    };
    SpanAuthor {
        author,
        turn_id: turn.map(str::to_owned),
        instruction: None,
        created_at: format!("2026-01-01T00:00:{:02}.000Z", stamp % 60),
    }
}

fn author_index(who: &SpanAuthor) -> usize {
    (0..AUTHORS)
        .find(|&i| {
            let c = span_author(i, 0);
            c.author.same_author(&who.author) && c.turn_id == who.turn_id
        })
        .expect("a span has an author of the cast")
}

/// Which author owns each char, read from the spans.
fn coverage(spans: &Spans, len: usize) -> Result<Vec<Option<usize>>, TestCaseError> {
    let mut cov = vec![None; len];
    for s in spans.iter() {
        prop_assert!(
            s.range.end.0 <= len,
            "span {} past the end ({} chars)",
            s.range,
            len
        );
        for c in &mut cov[s.range.as_range()] {
            *c = Some(author_index(&s.who));
        }
    }
    Ok(cov)
}

fn paint_naive(model: &mut [Option<usize>], range: CharRange, who: Option<usize>) {
    for c in &mut model[range.as_range()] {
        *c = who;
    }
}

#[derive(Clone, Debug)]
enum SpanStep {
    /// Apply edits, then paint what they inserted with `who` (or nobody).
    Edit { spec: EditSpec, who: Option<usize> },
    /// Paint a range.
    Paint { a: usize, b: usize, who: Option<usize> },
}

fn span_step() -> impl Strategy<Value = SpanStep> {
    let who = || prop::option::of(0..AUTHORS);
    prop_oneof![
        3 => (edit_spec(4), who()).prop_map(|(spec, who)| SpanStep::Edit { spec, who }),
        2 => (0usize..64, 0usize..64, who()).prop_map(|(a, b, who)| SpanStep::Paint { a, b, who }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// 2. Spans against one optional author per char, through edits and paints.
    #[test]
    fn spans_match_per_char_authors(
        doc in text(0, 20),
        steps in prop::collection::vec(span_step(), 0..20),
    ) {
        let mut spans = Spans::new();
        let mut model: Vec<Option<usize>> = vec![None; chars(&doc)];
        for (stamp, step) in steps.iter().enumerate() {
            match step {
                SpanStep::Edit { spec, who } => {
                    let edits = edits_from_spec(model.len(), spec);
                    let cs = change_from_edits(model.len(), &edits);
                    spans.map(&cs);
                    for r in cs.inserted_ranges() {
                        spans.paint(r, who.map(|i| span_author(i, stamp)));
                    }
                    let edits = normalize(edits);
                    model = apply_naive(&model, &edits, |_| None);
                    for r in naive_inserted_ranges(&edits) {
                        paint_naive(&mut model, r, *who);
                    }
                }
                SpanStep::Paint { a, b, who } => {
                    let r = pick_range(*a, *b, model.len());
                    spans.paint(r, who.map(|i| span_author(i, stamp)));
                    paint_naive(&mut model, r, *who);
                }
            }
            spans.check_invariants();
            prop_assert_eq!(coverage(&spans, model.len())?, model.clone(), "after step {}: {:?}", stamp, step);
        }
    }

    /// 2a. The same over a document of hundreds of spans (the list is kept in
    ///     chunks: edits and paints across their edges), and a copy taken
    ///     before each step (as an undo step keeps one) still reads as it did.
    #[test]
    fn many_spans_match_per_char_authors_and_copies_keep_theirs(
        owners in prop::collection::vec((1usize..4, prop::option::of(0..AUTHORS)), 100..300),
        steps in prop::collection::vec((span_step(), 0usize..400, 0usize..400), 1..25),
    ) {
        let mut spans = Spans::new();
        let mut model: Vec<Option<usize>> = Vec::new();
        for (n, who) in &owners {
            model.extend(std::iter::repeat_n(*who, *n));
        }
        for (at, who) in model.iter().enumerate() {
            if let Some(i) = who {
                spans.paint(CharRange::new(at, at + 1), Some(span_author(*i, 0)));
            }
        }
        spans.check_invariants();
        prop_assert_eq!(coverage(&spans, model.len())?, model.clone());
        for (stamp, (step, x, y)) in steps.iter().enumerate() {
            let copy = spans.clone();
            let copied = model.clone();
            match step {
                SpanStep::Edit { spec, who } => {
                    // Edits anywhere in the document, not only its first 64 chars.
                    let lo = x.min(y) % (model.len() + 1);
                    let edits: Vec<Edit> = edits_from_spec(model.len() - lo, spec)
                        .into_iter()
                        .map(|e| Edit { start: e.start + lo, end: e.end + lo, text: e.text })
                        .collect();
                    let cs = change_from_edits(model.len(), &edits);
                    spans.map(&cs);
                    for r in cs.inserted_ranges() {
                        spans.paint(r, who.map(|i| span_author(i, stamp + 1)));
                    }
                    let edits = normalize(edits);
                    model = apply_naive(&model, &edits, |_| None);
                    for r in naive_inserted_ranges(&edits) {
                        paint_naive(&mut model, r, *who);
                    }
                }
                SpanStep::Paint { who, .. } => {
                    let r = pick_range(*x, *y, model.len());
                    spans.paint(r, who.map(|i| span_author(i, stamp + 1)));
                    paint_naive(&mut model, r, *who);
                }
            }
            spans.check_invariants();
            prop_assert_eq!(coverage(&spans, model.len())?, model.clone(), "after step {}: {:?}", stamp, step);
            copy.check_invariants();
            prop_assert_eq!(coverage(&copy, copied.len())?, copied, "the copy before step {}", stamp);
        }
    }

    /// 2b. Text typed right at a span's edges (or both) is not part of it, and
    ///     text typed inside splits it.
    #[test]
    fn typing_next_to_a_span_stays_outside(
        len in 1usize..30,
        (a, b) in (0usize..64, 0usize..64),
        who in 0..AUTHORS,
        typed in text(1, 3),
        (at_start, at_end, inside) in (any::<bool>(), any::<bool>(), 0usize..64),
    ) {
        let mut r = pick_range(a, b, len);
        if r.is_empty() {
            r = if r.end.0 < len { CharRange::new(r.start.0, r.end.0 + 1) } else { CharRange::new(r.start.0 - 1, r.end.0) };
        }
        let mut spans = Spans::new();
        spans.paint(r, Some(span_author(who, 0)));
        let mut model: Vec<Option<usize>> = vec![None; len];
        paint_naive(&mut model, r, Some(who));

        let mut points = Vec::new();
        if at_start {
            points.push(r.start.0);
        }
        if r.len() > 1 && inside % 2 == 0 {
            points.push(pick(inside, r.start.0 + 1, r.end.0 - 1));
        }
        if at_end || points.is_empty() {
            points.push(r.end.0);
        }
        let edits: Vec<Edit> = points
            .iter()
            .map(|&p| Edit { start: p, end: p, text: typed.clone() })
            .collect();
        let cs = change_from_edits(len, &edits);
        spans.map(&cs);
        spans.check_invariants();
        let model = apply_naive(&model, &normalize(edits), |_| None);
        prop_assert_eq!(coverage(&spans, model.len())?, model);
        // Only the typed chars changed owner: nothing but the original span is covered.
        prop_assert_eq!(spans.iter().map(|s| s.range.len()).sum::<usize>(), r.len());
    }
}

// ---- the session end to end ----------------------------------------------------------

const HUMAN: &str = "h@example.com";

fn open_session(text: &str) -> (tempfile::TempDir, Session) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.md"), text).unwrap();
    let store = Arc::new(Store::new(Workspace::open(dir.path()).unwrap()));
    let session = Session::open(store, DocPath::parse("d.md").unwrap(), Provenance::human(HUMAN)).unwrap();
    (dir, session)
}

fn kind(typing: bool) -> EditKind {
    if typing {
        EditKind::Typing
    } else {
        EditKind::Other
    }
}

/// Which chars the session's spans say the human typed; checks the spans' shape.
fn human_coverage(s: &Session) -> Result<Vec<bool>, TestCaseError> {
    let len = s.document().len_chars();
    let mut cov = vec![false; len];
    let mut prev_end: Option<usize> = None;
    for span in s.spans() {
        prop_assert!(!span.range.is_empty(), "empty span {}", span.range);
        prop_assert!(
            span.range.end.0 <= len,
            "span {} past the end ({} chars)",
            span.range,
            len
        );
        if let Some(p) = prev_end {
            // Spans of one author that touch are merged.
            prop_assert!(p < span.range.start.0, "spans overlap or touch at {}", span.range);
        }
        prop_assert_eq!(&span.who.author.kind, &AuthorKind::Human);
        prop_assert_eq!(span.who.author.id.as_str(), HUMAN);
        for c in &mut cov[span.range.as_range()] {
            *c = true;
        }
        prev_end = Some(span.range.end.0);
    }
    Ok(cov)
}

/// The naive document: its chars and whether the human typed each.
#[derive(Clone, Debug, PartialEq)]
struct NaiveDoc {
    chars: Vec<char>,
    human: Vec<bool>,
}

impl NaiveDoc {
    fn new(text: &str) -> Self {
        let chars: Vec<char> = text.chars().collect();
        let human = vec![false; chars.len()];
        NaiveDoc { chars, human }
    }

    fn text(&self) -> String {
        self.chars.iter().collect()
    }

    fn apply(&mut self, edits: &[Edit]) {
        let edits = normalize(edits.to_vec());
        self.chars = apply_naive(&self.chars, &edits, |c| c);
        self.human = apply_naive(&self.human, &edits, |_| true);
    }
}

fn check_session(s: &Session, naive: &NaiveDoc) -> TestResult {
    s.check_invariants();
    prop_assert_eq!(s.document().flatten(), naive.text());
    prop_assert_eq!(human_coverage(s)?, naive.human.clone());
    Ok(())
}

#[derive(Clone, Debug)]
enum SessionStep {
    /// `Session::replace` of a range.
    Replace {
        a: usize,
        b: usize,
        text: String,
        typing: bool,
    },
    /// `Session::apply_change` with several edits at once.
    Change {
        spec: EditSpec,
        typing: bool,
    },
    Undo,
    Redo,
}

fn session_step() -> impl Strategy<Value = SessionStep> {
    prop_oneof![
        4 => (0usize..64, 0usize..64, text(0, 3), any::<bool>())
            .prop_map(|(a, b, text, typing)| SessionStep::Replace { a, b, text, typing }),
        2 => (edit_spec(3), any::<bool>()).prop_map(|(spec, typing)| SessionStep::Change { spec, typing }),
        2 => Just(SessionStep::Undo),
        1 => Just(SessionStep::Redo),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// 3. A session against a String with one "human typed it" flag per char,
    ///    through human edits, undo and redo.
    #[test]
    fn session_matches_naive_document(
        doc in text(0, 20),
        steps in prop::collection::vec(session_step(), 0..20),
    ) {
        let (_dir, mut s) = open_session(&doc);
        let mut naive = NaiveDoc::new(&doc);
        let mut undo: Vec<NaiveDoc> = Vec::new();
        let mut redo: Vec<NaiveDoc> = Vec::new();
        check_session(&s, &naive)?;
        for (i, step) in steps.iter().enumerate() {
            match step {
                SessionStep::Replace { a, b, text, typing } => {
                    let r = pick_range(*a, *b, naive.chars.len());
                    s.seal_undo_group();
                    s.replace(r, text, kind(*typing)).unwrap();
                    undo.push(naive.clone());
                    redo.clear();
                    naive.apply(&[Edit { start: r.start.0, end: r.end.0, text: text.clone() }]);
                }
                SessionStep::Change { spec, typing } => {
                    let edits = edits_from_spec(naive.chars.len(), spec);
                    s.seal_undo_group();
                    s.apply_change(&change_from_edits(naive.chars.len(), &edits), kind(*typing)).unwrap();
                    undo.push(naive.clone());
                    redo.clear();
                    naive.apply(&edits);
                }
                SessionStep::Undo => {
                    let did = s.undo().unwrap().is_some();
                    prop_assert_eq!(did, !undo.is_empty(), "step {}: undo", i);
                    if let Some(prev) = undo.pop() {
                        redo.push(std::mem::replace(&mut naive, prev));
                    }
                }
                SessionStep::Redo => {
                    let did = s.redo().unwrap().is_some();
                    prop_assert_eq!(did, !redo.is_empty(), "step {}: redo", i);
                    if let Some(next) = redo.pop() {
                        undo.push(std::mem::replace(&mut naive, next));
                    }
                }
            }
            prop_assert_eq!(s.can_undo(), !undo.is_empty());
            prop_assert_eq!(s.can_redo(), !redo.is_empty());
            check_session(&s, &naive).map_err(|e| TestCaseError::fail(format!("after step {i} {step:?}: {e}")))?;
        }
    }
}

// ---- thread and proposal anchors -------------------------------------------------------

/// An edit that stays clear of a range (it may touch its edges): one side, or
/// both at once in one change.
#[derive(Clone, Debug)]
struct OutsideEdit {
    /// 0: left of the range, 1: right of it, 2: both in one change.
    side: usize,
    left: (usize, usize, String),
    right: (usize, usize, String),
    typing: bool,
}

fn outside_edit() -> impl Strategy<Value = OutsideEdit> {
    let part = || (0usize..64, 0usize..64, text(0, 3));
    (0usize..3, part(), part(), any::<bool>()).prop_map(|(side, left, right, typing)| OutsideEdit {
        side,
        left,
        right,
        typing,
    })
}

/// Two seeds as `start <= end`, both in `lo..=hi`.
fn sub_range(lo: usize, hi: usize, a: usize, b: usize) -> (usize, usize) {
    let start = pick(a, lo, hi);
    (start, pick(b, start, hi))
}

/// Apply `e` to the session and the naive text; return where `r` should now be.
fn apply_outside(s: &mut Session, naive: &mut NaiveDoc, r: CharRange, e: &OutsideEdit) -> CharRange {
    let len = naive.chars.len();
    let mut edits = Vec::new();
    if e.side != 1 {
        let (a, b) = sub_range(0, r.start.0, e.left.0, e.left.1);
        edits.push(Edit {
            start: a,
            end: b,
            text: e.left.2.clone(),
        });
    }
    if e.side != 0 {
        let (a, b) = sub_range(r.end.0, len, e.right.0, e.right.1);
        edits.push(Edit {
            start: a,
            end: b,
            text: e.right.2.clone(),
        });
    }
    s.seal_undo_group();
    if let [one] = edits.as_slice() {
        s.replace(CharRange::new(one.start, one.end), &one.text, kind(e.typing))
            .unwrap();
    } else {
        s.apply_change(&change_from_edits(len, &edits), kind(e.typing))
            .unwrap();
    }
    naive.apply(&edits);
    // Only what happens left of the range (up to and at its start) moves it.
    let delta: isize = edits
        .iter()
        .filter(|x| x.end <= r.start.0 && x.start < r.end.0)
        .map(|x| chars(&x.text) as isize - (x.end - x.start) as isize)
        .sum();
    CharRange::new(
        (r.start.0 as isize + delta) as usize,
        (r.end.0 as isize + delta) as usize,
    )
}

#[derive(Clone, Debug)]
enum ThreadStep {
    Edit(OutsideEdit),
    Undo,
    Redo,
}

fn thread_step() -> impl Strategy<Value = ThreadStep> {
    prop_oneof![
        4 => outside_edit().prop_map(ThreadStep::Edit),
        2 => Just(ThreadStep::Undo),
        1 => Just(ThreadStep::Redo),
    ]
}

/// A non-empty range of at least `min` chars in a document of `len >= min` chars.
fn target_range(len: usize, a: usize, b: usize, min: usize) -> CharRange {
    let start = pick(a, 0, len - min);
    CharRange::new(start, pick(b, start + min, len))
}

fn agent_options() -> ProposeOptions {
    ProposeOptions {
        author: Provenance::agent(
            "claude",
            AgentInfo {
                sdk: Some("test".into()),
                model: Some("sonnet".into()),
                session_id: None,
                extra: Extra::new(),
            },
        ),
        turn_id: Some("turn-1".into()),
        instruction: None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// 4a. A thread's range follows edits that stay clear of it, and their undo
    ///     and redo, and keeps its text.
    #[test]
    fn thread_anchor_follows_outside_edits(
        doc in text(1, 20),
        (a, b) in (0usize..64, 0usize..64),
        steps in prop::collection::vec(thread_step(), 0..12),
    ) {
        let (_dir, mut s) = open_session(&doc);
        let mut naive = NaiveDoc::new(&doc);
        let mut r = target_range(naive.chars.len(), a, b, 1);
        let target = s.document().slice(r);
        s.new_thread(r, "a comment").unwrap();
        let mut undo: Vec<(NaiveDoc, CharRange)> = Vec::new();
        let mut redo: Vec<(NaiveDoc, CharRange)> = Vec::new();
        for (i, step) in steps.iter().enumerate() {
            match step {
                ThreadStep::Edit(e) => {
                    undo.push((naive.clone(), r));
                    redo.clear();
                    r = apply_outside(&mut s, &mut naive, r, e);
                }
                ThreadStep::Undo => {
                    prop_assert_eq!(s.undo().unwrap().is_some(), !undo.is_empty());
                    if let Some(prev) = undo.pop() {
                        redo.push((std::mem::replace(&mut naive, prev.0), std::mem::replace(&mut r, prev.1)));
                    }
                }
                ThreadStep::Redo => {
                    prop_assert_eq!(s.redo().unwrap().is_some(), !redo.is_empty());
                    if let Some(next) = redo.pop() {
                        undo.push((std::mem::replace(&mut naive, next.0), std::mem::replace(&mut r, next.1)));
                    }
                }
            }
            s.check_invariants();
            prop_assert_eq!(s.document().flatten(), naive.text());
            let threads = s.threads();
            prop_assert_eq!(threads.len(), 1);
            prop_assert_eq!(threads[0].range, Some(r), "step {}: {:?}", i, step);
            prop_assert_eq!(&threads[0].text, &target);
            prop_assert_eq!(s.document().slice(r), target.clone());
        }
    }

    /// 4b. A proposal stays pending through edits clear of its target; an edit
    ///     strictly inside the target makes it stale and accept is refused
    ///     without touching the text; undoing that edit makes it pending again
    ///     and accept then puts the replacement exactly there.
    #[test]
    fn proposal_pending_outside_stale_inside(
        doc in text(2, 20),
        (a, b) in (0usize..64, 0usize..64),
        replacement in text(0, 4),
        edits in prop::collection::vec(outside_edit(), 0..10),
        (ia, ib, inside_text) in (0usize..64, 0usize..64, text(0, 2)),
    ) {
        let (_dir, mut s) = open_session(&doc);
        let mut naive = NaiveDoc::new(&doc);
        let len = naive.chars.len();
        prop_assume!(len >= 2);
        let mut r = target_range(len, a, b, 2);
        let target = s.document().slice(r);
        // "Z" is not in the alphabet, so the replacement differs from the target.
        let replacement = format!("{replacement}Z");
        let id = s.propose(r, &replacement, agent_options()).unwrap();
        for (i, e) in edits.iter().enumerate() {
            r = apply_outside(&mut s, &mut naive, r, e);
            prop_assert_eq!(s.document().flatten(), naive.text());
            let views = s.proposals();
            prop_assert_eq!(views.len(), 1);
            prop_assert_eq!(views[0].state, ProposalState::Pending, "step {}: {:?}", i, e);
            prop_assert_eq!(views[0].range, Some(r), "step {}: {:?}", i, e);
            prop_assert_eq!(s.document().slice(r), target.clone());
        }

        // Strictly inside: r.start < x <= y < r.end, and the text there changes.
        let (x, y) = sub_range(r.start.0 + 1, r.end.0 - 1, ia, ib);
        let inside = format!("Z{inside_text}");
        s.seal_undo_group();
        s.replace(CharRange::new(x, y), &inside, EditKind::Other).unwrap();
        let before_accept = s.document().flatten();
        let views = s.proposals();
        prop_assert_eq!(views[0].state, ProposalState::Stale);
        let err = s.accept(&id, None).unwrap_err();
        prop_assert_eq!(err.code(), ErrorCode::Stale, "{}", err);
        prop_assert_eq!(s.document().flatten(), before_accept.as_str());
        prop_assert_eq!(s.proposals().len(), 1);

        s.check_invariants();
        prop_assert!(s.undo().unwrap().is_some());
        s.check_invariants();
        prop_assert_eq!(s.document().flatten(), naive.text());
        let views = s.proposals();
        prop_assert_eq!(views[0].state, ProposalState::Pending);
        prop_assert_eq!(views[0].range, Some(r));
        s.accept(&id, None).unwrap();
        s.check_invariants();
        naive.apply(&[Edit { start: r.start.0, end: r.end.0, text: replacement.clone() }]);
        prop_assert_eq!(s.document().flatten(), naive.text());
        prop_assert!(s.proposals().is_empty());
    }
}

// ---- the sidecar model -------------------------------------------------------------

/// Strings that stress JSON escaping: quotes, backslashes, control chars, line
/// and paragraph separators, a BOM, multi-byte chars; or any printable string.
fn json_string() -> impl Strategy<Value = String> {
    let special = prop_oneof![
        prop::sample::select(vec![
            '"', '\\', '/', '\u{0}', '\u{1}', '\u{8}', '\u{c}', '\u{1f}', '\n', '\r', '\t', '\u{7f}',
            '\u{2028}', '\u{2029}', '\u{feff}', 'é', '😀', '中', 'a', ' ',
        ]),
        any::<char>(),
    ];
    prop_oneof![
        prop::collection::vec(special, 0..10).prop_map(|v| v.into_iter().collect()),
        any::<String>(),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| serde_json::Number::from_f64(f).map(Value::Number)),
        json_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((json_string(), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Unknown fields. Their keys never equal a known key (those are split off when
/// parsing, so a clash could not round-trip).
fn extra() -> impl Strategy<Value = Extra> {
    prop::collection::vec((json_string().prop_map(|k| format!("x-{k}")), json_value()), 0..3)
        .prop_map(|kv| kv.into_iter().collect())
}

fn opt_string() -> impl Strategy<Value = Option<String>> {
    prop::option::of(json_string())
}

fn provenance() -> impl Strategy<Value = Provenance> {
    let kind = prop_oneof![
        Just(AuthorKind::Agent),
        Just(AuthorKind::Human),
        json_string()
            .prop_filter("a kind of its own", |s| s != "agent" && s != "human")
            .prop_map(AuthorKind::Other),
    ];
    let agent =
        (opt_string(), opt_string(), opt_string(), extra()).prop_map(|(sdk, model, session_id, extra)| {
            AgentInfo {
                sdk,
                model,
                session_id,
                extra,
            }
        });
    (
        kind,
        json_string(),
        prop::option::of(json_string()),
        prop::option::of(agent),
        extra(),
    )
        .prop_map(|(kind, id, name, agent, extra)| Provenance {
            kind,
            id,
            name,
            agent,
            extra,
        })
}

fn anchor_record() -> impl Strategy<Value = Anchor> {
    (
        json_string(),
        json_string(),
        json_string(),
        any::<usize>(),
        extra(),
        extra(),
    )
        .prop_map(|(text, before, after, line_hint, fp_extra, extra)| Anchor {
            fingerprint: Fingerprint {
                text,
                before,
                after,
                line_hint,
                extra: fp_extra,
            },
            extra,
        })
}

fn comment() -> impl Strategy<Value = Comment> {
    (json_string(), provenance(), json_string(), json_string(), extra()).prop_map(
        |(id, author, body, created_at, extra)| Comment {
            id,
            author,
            body,
            created_at,
            extra,
        },
    )
}

fn thread() -> impl Strategy<Value = Thread> {
    let status = prop_oneof![
        Just(ThreadStatus::Open),
        Just(ThreadStatus::Resolved),
        json_string()
            .prop_filter("a status of its own", |s| s != "open" && s != "resolved")
            .prop_map(ThreadStatus::Other),
    ];
    (
        json_string(),
        json_string(),
        status,
        prop::collection::vec(comment(), 0..3),
        extra(),
    )
        .prop_map(|(id, anchor_id, status, comments, extra)| Thread {
            id,
            anchor_id,
            status,
            comments,
            extra,
        })
}

fn attribution() -> impl Strategy<Value = Attribution> {
    (
        json_string(),
        json_string(),
        provenance(),
        json_string(),
        opt_string(),
        opt_string(),
        extra(),
    )
        .prop_map(
            |(id, anchor_id, author, created_at, turn_id, instruction, extra)| Attribution {
                id,
                anchor_id,
                author,
                created_at,
                turn_id,
                instruction,
                extra,
            },
        )
}

fn proposal() -> impl Strategy<Value = Proposal> {
    (
        json_string(),
        json_string(),
        json_string(),
        provenance(),
        json_string(),
        opt_string(),
        opt_string(),
        extra(),
    )
        .prop_map(
            |(id, anchor_id, replacement, author, created_at, turn_id, instruction, extra)| Proposal {
                id,
                anchor_id,
                replacement,
                author,
                created_at,
                turn_id,
                instruction,
                extra,
            },
        )
}

fn artifact() -> impl Strategy<Value = Artifact> {
    (
        json_string(),
        prop::collection::vec((json_string(), anchor_record()), 0..4),
        prop::collection::vec(thread(), 0..3),
        prop::collection::vec(attribution(), 0..3),
        prop::collection::vec(proposal(), 0..3),
        extra(),
    )
        .prop_map(
            |(doc_path, anchors, threads, attributions, proposals, extra)| Artifact {
                schema_version: SCHEMA_VERSION,
                doc_path,
                anchors: anchors.into_iter().collect::<IndexMap<_, _>>(),
                threads,
                attributions,
                proposals,
                extra,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// 5. serialize → parse gives the artifact back, and serializing again is
    ///    byte-identical.
    #[test]
    fn sidecar_round_trips(a in artifact()) {
        let text = serialize_artifact(&a);
        let back = parse_artifact(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&back, &a);
        prop_assert_eq!(serialize_artifact(&back), text);
    }
}

// ---- anchoring ----------------------------------------------------------------------

/// How many times `needle` occurs in `hay`, overlapping occurrences included.
fn occurrences(hay: &str, needle: &str) -> usize {
    (0..=hay.len().saturating_sub(needle.len()))
        .filter(|&i| hay.as_bytes()[i..].starts_with(needle.as_bytes()))
        .count()
}

/// What resolve must answer for a text whose every occurrence scores alike: the
/// one occurrence nearest `line_hint`, or orphaned when none is, or two are.
fn nearest_occurrence(doc: &str, t: &str, line_hint: usize) -> Resolution {
    // (distance from the hinted line, char range) of every occurrence.
    let found: Vec<(usize, CharRange)> = (0..=doc.len().saturating_sub(t.len()))
        .filter(|&i| doc.as_bytes()[i..].starts_with(t.as_bytes()))
        .map(|i| {
            let start = chars(&doc[..i]);
            // VS Code's lines: "\n", "\r\n" and a lone "\r" each end one.
            let line = doc[..i]
                .replace("\r\n", "\n")
                .replace('\r', "\n")
                .matches('\n')
                .count()
                - usize::from(doc[..i].ends_with('\r') && doc[i..].starts_with('\n'));
            (line.abs_diff(line_hint), CharRange::new(start, start + chars(t)))
        })
        .collect();
    let nearest = found.iter().map(|(d, _)| *d).min();
    let at_nearest: Vec<CharRange> = found
        .iter()
        .filter(|(d, _)| Some(*d) == nearest)
        .map(|(_, r)| *r)
        .collect();
    match at_nearest.as_slice() {
        [one] => Resolution::Found(*one),
        _ => Resolution::Orphaned,
    }
}

/// Three alphabets with no char in common: the context a text was fingerprinted
/// in, the text, and what surrounds its copies later.
const OLD_CONTEXT: &[&str] = &["a", "b", "\t"];
const TARGET: &[&str] = &["é", "中", "😀", ".", "\n"];
const NEW_CONTEXT: &[&str] = &["x", "y", " ", "\r"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// 6a. Whatever the edits, a found range holds exactly the fingerprinted text
    ///     (with no live range, or with any live range).
    #[test]
    fn resolve_never_places_wrong_text(
        doc in text(0, 40),
        (a, b) in (0usize..128, 0usize..128),
        edits in prop::collection::vec((edit_spec(3), any::<bool>(), raw_ops()), 0..4),
        live in prop::option::of((0usize..128, 0usize..128)),
    ) {
        let mut d = Document::new(&doc);
        let fp = build_fingerprint(&d, pick_range(a, b, d.len_chars()));
        for (spec, builder, ops) in &edits {
            let (cs, _) = build_change(&d.flatten(), spec, ops, *builder);
            d.apply(&cs).unwrap();
        }
        let live = live.map(|(x, y)| pick_range(x, y, d.len_chars()));
        for live in [None, live] {
            match anchor::resolve(&d, &fp, live) {
                Resolution::Found(r) => {
                    prop_assert!(r.start <= r.end && r.end.0 <= d.len_chars(), "{} in {} chars", r, d.len_chars());
                    prop_assert_eq!(d.slice(r), fp.text.clone(), "found {} (live {:?}) in {:?}", r, live, d.flatten());
                }
                // Relocated: the same words, only the whitespace between them changed.
                Resolution::Relocated(r) => {
                    let now = d.slice(r);
                    prop_assert!(now != fp.text, "relocated onto the exact text {:?}", now);
                    prop_assert!(
                        now.split_whitespace().eq(fp.text.split_whitespace()),
                        "relocated {:?} onto {:?} in {:?}", fp.text, now, d.flatten()
                    );
                    prop_assert!(!now.starts_with(char::is_whitespace) && !now.ends_with(char::is_whitespace));
                }
                // Likely: the exact text, at a place the fallback evidence found.
                Resolution::Likely(r) => {
                    prop_assert!(r.start <= r.end && r.end.0 <= d.len_chars(), "{} in {} chars", r, d.len_chars());
                    prop_assert_eq!(d.slice(r), fp.text.clone(), "likely {} (live {:?}) in {:?}", r, live, d.flatten());
                }
                Resolution::Orphaned => {}
            }
        }
    }

    /// 6b. With no edits, resolve finds the original range or nothing (never
    ///     another place), and always finds it when its text is unique.
    #[test]
    fn resolve_finds_unedited_text(
        doc in text(0, 40),
        (a, b) in (0usize..128, 0usize..128),
    ) {
        let d = Document::new(&doc);
        let r = pick_range(a, b, d.len_chars());
        let fp = build_fingerprint(&d, r);
        let res = anchor::resolve(&d, &fp, None);
        prop_assert!(
            matches!(res, Resolution::Found(f) if f == r) || res == Resolution::Orphaned,
            "{:?} for {} in {:?}", res, r, doc
        );
        if !fp.text.is_empty() && occurrences(&doc, &fp.text) == 1 {
            prop_assert_eq!(res, Resolution::Found(r));
        }
        // The live range, when it is right, is taken as it is.
        prop_assert_eq!(anchor::resolve(&d, &fp, Some(r)), Resolution::Found(r));
    }

    /// 6c. Ties: a fingerprint with no context (it was the whole document, on
    ///     line 0) goes to the one occurrence nearest line 0, and is orphaned when
    ///     two are equally near, in a document made of copies of its text (or,
    ///     with no copy, re-attached, flagged, to the same words re-spaced).
    #[test]
    fn resolve_breaks_ties_by_line_or_orphans(
        t in text(1, 5),
        pieces in prop::collection::vec(text(0, 4), 1..5),
    ) {
        let fp = build_fingerprint(&Document::new(&t), CharRange::new(0, chars(&t)));
        prop_assert!(fp.before.is_empty() && fp.after.is_empty() && fp.line_hint == 0);
        let doc = pieces.join(&t);
        let expected = nearest_occurrence(&doc, &t, 0);
        let d = Document::new(&doc);
        match anchor::resolve(&d, &fp, None) {
            // With no copy of the text at all (one piece), the same words with
            // other whitespace may be re-attached, flagged (6e); never with a copy.
            Resolution::Relocated(r) if !doc.contains(&t) => {
                let now = d.slice(r);
                prop_assert!(now.split_whitespace().eq(t.split_whitespace()), "relocated onto {:?} in {:?}", now, doc);
            }
            got => prop_assert_eq!(got, expected, "in {:?}", doc),
        }
    }

    /// 6e. A re-wrap (every whitespace run replaced by another) relocates an
    ///     anchor of two words or more onto the same words, flagged; it is
    ///     orphaned only when those words, with their context, occur twice.
    #[test]
    fn resolve_relocates_rewrapped_text(
        words in prop::collection::vec(prop::sample::select(vec!["ab", "cd", "é", "x1", "中文", "q", "(", "."]), 4..24),
        seps in prop::collection::vec(prop::sample::select(vec![" ", "\n", "  ", "\t", "\r\n", " \n   "]), 24),
        new_seps in prop::collection::vec(prop::sample::select(vec![" ", "\n", "  ", "\t", "\r\n", " \n   "]), 24),
        (a, b) in (0usize..24, 0usize..24),
    ) {
        let join = |seps: &[&str]| {
            let mut out = String::new();
            let mut at = Vec::new();
            for (i, w) in words.iter().enumerate() {
                if i > 0 {
                    out.push_str(seps[i - 1]);
                }
                let start = chars(&out);
                out.push_str(w);
                at.push((start, chars(&out)));
            }
            (out, at)
        };
        let (old, old_at) = join(&seps);
        let (new, new_at) = join(&new_seps);
        let (i, j) = (a % words.len(), b % words.len());
        let (i, j) = (i.min(j), i.max(j));
        prop_assume!(j > i);
        let fp = build_fingerprint(&Document::new(&old), CharRange::new(old_at[i].0, old_at[j].1));
        let want = CharRange::new(new_at[i].0, new_at[j].1);
        let d = Document::new(&new);
        let got = anchor::resolve(&d, &fp, None);
        let exact = d.slice(want) == fp.text;
        match got {
            Resolution::Found(r) => prop_assert!(exact && r == want, "found {} want {} in {:?}", r, want, new),
            Resolution::Relocated(r) => prop_assert!(!exact && r == want, "relocated {} want {} in {:?}", r, want, new),
            // Found by the fallback evidence alone: the exact text, at its place.
            Resolution::Likely(r) => prop_assert!(exact && r == want, "likely {} want {} in {:?}", r, want, new),
            Resolution::Orphaned => {
                // Only a repeat of the same words can make it ambiguous.
                let squashed: Vec<&str> = new.split_whitespace().collect();
                let needle: Vec<&str> = fp.text.split_whitespace().collect();
                let repeats = squashed.windows(needle.len()).filter(|w| *w == needle.as_slice()).count();
                prop_assert!(repeats > 1, "orphaned {:?} in {:?}", fp.text, new);
            }
        }
    }

    /// 6d. Never guess (INV-1): a short text whose context no longer agrees at
    ///     all is orphaned, never placed on one of its copies; a distinctive one
    ///     (at least DISTINCTIVE_CHARS long) is placed by the line rule alone.
    #[test]
    fn resolve_orphans_short_text_whose_context_changed(
        before in text_of(OLD_CONTEXT, 1, 6),
        after in text_of(OLD_CONTEXT, 1, 6),
        t in text_of(TARGET, 1, 36),
        pieces in prop::collection::vec(text_of(NEW_CONTEXT, 0, 4), 1..5),
    ) {
        let start = chars(&before);
        let old = Document::new(&format!("{before}{t}{after}"));
        let fp = build_fingerprint(&old, CharRange::new(start, start + chars(&t)));
        let doc = pieces.join(&t);
        let expected = if chars(&t) < anchor::DISTINCTIVE_CHARS {
            Resolution::Orphaned
        } else {
            nearest_occurrence(&doc, &t, fp.line_hint)
        };
        prop_assert_eq!(anchor::resolve(&Document::new(&doc), &fp, None), expected, "in {:?}", doc);
    }
}

// ---- three-way merge ---------------------------------------------------------------

/// Prose fragments: sentences of every UTF-8 width and ending, bare words, line
/// breaks, so that texts repeat and sentence bounds fall everywhere.
const PROSE: &[&str] = &[
    "The cat sat. ",
    "A dog! ",
    "Why? ",
    "word ",
    "\n",
    "\n\n",
    "Ünïcödé. ",
    "中文。",
    "😀 ",
    "end",
    "Two words.\r\n",
];

/// `base` with random edits made of prose fragments.
fn edited(base: &str, spec: &EditSpec, texts: &[String]) -> String {
    let mut edits = edits_from_spec(chars(base), spec);
    for (e, t) in edits.iter_mut().zip(texts.iter().cycle()) {
        e.text = t.clone();
    }
    apply_naive_str(base, &normalize(edits))
}

fn prose_edits() -> impl Strategy<Value = (EditSpec, Vec<String>)> {
    (edit_spec(4), prop::collection::vec(text_of(PROSE, 0, 3), 1..4))
}

/// A list of distinct sentences (a number in each), each ended as prose ends them.
fn numbered_sentences(n: usize, ends: &[u8]) -> Vec<String> {
    (0..n)
        .map(|i| {
            let end = match ends.get(i).copied().unwrap_or(0) % 3 {
                0 => " ",
                1 => "\n",
                _ => "\n\n",
            };
            format!("Sentence {i} of the base.{end}")
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// 1. Every hunk's mine gives mine back exactly, every hunk's theirs
    ///    gives theirs; a side equal to the base has nothing to decide and the
    ///    merge is the other side; equal sides have no hunks at all.
    #[test]
    fn merge_takes_each_side_whole_and_one_sided_changes_alone(
        base in text_of(PROSE, 0, 12),
        (spec_m, texts_m) in prose_edits(),
        (spec_t, texts_t) in prose_edits(),
    ) {
        use cowriting::merge::{Choice, Merge};
        let mine = edited(&base, &spec_m, &texts_m);
        let theirs = edited(&base, &spec_t, &texts_t);
        let m = Merge::new(&base, &mine, &theirs);
        prop_assert_eq!(m.resolve_all(Choice::Mine), mine.clone());
        prop_assert_eq!(m.resolve_all(Choice::Theirs), theirs.clone());
        let n = m.hunks().count();
        // Both, everywhere: every hunk's mine then its theirs.
        let both = m.resolve_all(Choice::Both);
        prop_assert!(both.chars().count() >= chars(&mine).max(chars(&theirs)) || n == 0);

        let only_mine = Merge::new(&base, &mine, &base);
        prop_assert_eq!(only_mine.conflicts(), 0);
        prop_assert_eq!(only_mine.resolve(&vec![None; only_mine.hunks().count()]).unwrap(), mine.clone());
        let only_theirs = Merge::new(&base, &base, &theirs);
        prop_assert_eq!(only_theirs.conflicts(), 0);
        prop_assert_eq!(only_theirs.resolve(&vec![None; only_theirs.hunks().count()]).unwrap(), theirs.clone());
        // No base: every difference is a conflict, and each side is still whole.
        let blind = Merge::without_base(&mine, &theirs);
        prop_assert_eq!(blind.conflicts(), blind.hunks().count());
        prop_assert_eq!(blind.resolve_all(Choice::Mine), mine.clone());
        prop_assert_eq!(blind.resolve_all(Choice::Theirs), theirs.clone());
        prop_assert_eq!(blind.hunks().count() == 0, mine == theirs);
        let same = Merge::new(&base, &mine, &mine);
        prop_assert_eq!(same.hunks().count(), 0);
        prop_assert_eq!(same.resolve(&[]).unwrap(), mine);
    }

    /// 2. Against a naive model over a list of distinct sentences: changes by
    ///    the two sides to sentences at least one apart merge without a
    ///    question, into the base with both sides' changes; a sentence the two
    ///    sides changed differently is a conflict, and taking mine there (the
    ///    rest automatic) is the base with mine's change there and both sides'
    ///    changes elsewhere.
    #[test]
    fn merge_agrees_with_a_naive_sentence_model(
        n in 1usize..40,
        ends in prop::collection::vec(any::<u8>(), 40),
        mine_at in prop::collection::btree_set(0usize..40, 0..5),
        theirs_at in prop::collection::btree_set(0usize..40, 0..5),
        clash in any::<bool>(),
    ) {
        use cowriting::merge::{Choice, HunkKind, Merge};
        let base = numbered_sentences(n, &ends);
        let mut mine_at: Vec<usize> = mine_at.into_iter().filter(|i| *i < n).collect();
        // In a clash both sides rewrite mine's first sentence, and nothing else near it.
        let clashing = if clash { mine_at.first().copied() } else { None };
        if let Some(at) = clashing {
            mine_at.retain(|i| *i == at || i.abs_diff(at) >= 2);
        }
        // Otherwise theirs keeps a sentence away from mine's.
        let mut theirs_at: Vec<usize> = theirs_at
            .into_iter()
            .filter(|i| *i < n && mine_at.iter().all(|m| m.abs_diff(*i) >= 2))
            .collect();
        theirs_at.extend(clashing);
        let rewrite = |who: &str, i: usize| format!("{who} rewrote {i}.{}", &base[i][base[i].find('.').unwrap() + 1..]);
        let side = |who: &str, at: &[usize]| -> Vec<String> {
            (0..n).map(|i| if at.contains(&i) { rewrite(who, i) } else { base[i].clone() }).collect()
        };
        let (mine, theirs) = (side("Mine", &mine_at), side("Theirs", &theirs_at));
        let m = Merge::new(&base.concat(), &mine.concat(), &theirs.concat());
        // The naive merge: each sentence from whichever side changed it (mine where both did).
        let naive: String = (0..n)
            .map(|i| if mine_at.contains(&i) { mine[i].clone() } else { theirs[i].clone() })
            .collect();
        match clashing {
            None => {
                prop_assert_eq!(m.conflicts(), 0);
                // One hunk per run of neighbouring changed sentences (a blank
                // line after a sentence is a unit of its own, unchanged: it parts them).
                let changed: std::collections::BTreeSet<usize> = mine_at.iter().chain(&theirs_at).copied().collect();
                let runs = changed
                    .iter()
                    .filter(|i| **i == 0 || !changed.contains(&(**i - 1)) || base[**i - 1].ends_with("\n\n"))
                    .count();
                prop_assert_eq!(m.hunks().count(), runs);
                prop_assert_eq!(m.resolve(&vec![None; m.hunks().count()]).unwrap(), naive);
            }
            Some(at) => {
                prop_assert_eq!(m.conflicts(), 1);
                let choose = |c: Choice| -> Vec<Option<Choice>> {
                    m.hunks().map(|h| (h.kind == HunkKind::Conflict).then_some(c)).collect()
                };
                prop_assert_eq!(m.resolve(&choose(Choice::Mine)).unwrap(), naive);
                // Both: the writer's sentence, then the file's, where they clash
                // (a blank line after them is a unit of its own, after both).
                let blank = |s: &str| if s.ends_with("\n\n") { s.len() - 1 } else { s.len() };
                let both_at = |i: usize| {
                    let (m, t) = (&mine[i], &theirs[i]);
                    cowriting::merge::both(&m[..blank(m)], &t[..blank(t)]) + &m[blank(m)..]
                };
                let naive_both: String = (0..n)
                    .map(|i| if i == at { both_at(i) } else if mine_at.contains(&i) { mine[i].clone() } else { theirs[i].clone() })
                    .collect();
                prop_assert_eq!(m.resolve(&choose(Choice::Both)).unwrap(), naive_both);
            }
        }
    }
}
