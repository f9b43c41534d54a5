//! Claude as an editor: what a review pass or a question in a thread asks of
//! Claude, and how its answer is read — never guessed.
//!
//! Claude answers in **JSON Lines**, one item per line, so that each finished
//! item can be filed while the rest is still coming ([`LineBuffer`],
//! [`parse_item`]):
//!
//! ```text
//! {"kind":"comment","quote":Q,"occurrence":N?,"body":B}
//! {"kind":"edit","quote":Q,"occurrence":N?,"replacement":R,"reason":S}
//! {"kind":"reply","body":B}            (a question in a thread only)
//! ```
//!
//! `quote` is exact text of the reviewed range; `occurrence` (1-based) is
//! needed only when it occurs there more than once. [`place`] finds it or says
//! why not ([`Unplaced`]): absent, ambiguous, no such occurrence. A comment's
//! quote may differ from the text in whitespace only (Claude tends to quote a
//! hard-wrapped paragraph on one line) and is still placed when that is
//! unique; an edit's quote must be exact, since its replacement replaces
//! exactly those characters. Nothing is ever filed on a guessed place.
//!
//! A long range is reviewed in parts ([`sections`]): Markdown headings first,
//! then paragraphs, each part within [`SECTION_CHARS`]; one turn covers them
//! all. The prompts ([`review_prompt`], [`thread_prompt`]) carry what the
//! writer already refused or changed on this document ([`Remembered`]), so
//! Claude does not propose it again.
//!
//! Pure: no I/O. The transports are in [`crate::claude_stream`]; running a
//! pass and filing its items is the caller's (`cowriting::ops::review`).

use std::fmt;
use std::ops::Range;

use serde_json::Value;

use crate::claude::{head_chars, tail_chars};

/// The most text (bytes) one request of a pass reviews.
pub const SECTION_CHARS: usize = 24_000;
/// Text (chars, each side) around the reviewed part, for context.
pub const CONTEXT_CHARS: usize = 2_000;
/// How many of the writer's past decisions a prompt recalls.
pub const MEMORY_DECISIONS: usize = 20;
/// The longest quote or body an item may carry (bytes).
const MAX_FIELD: usize = 20_000;

/// One item of Claude's answer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Item {
    /// A remark on the quoted text: a thread authored by Claude.
    Comment {
        quote: String,
        occurrence: Option<u32>,
        body: String,
    },
    /// A proposed edit of the quoted text: pending proposals, one per hunk.
    Edit {
        quote: String,
        occurrence: Option<u32>,
        replacement: String,
        reason: Option<String>,
    },
    /// Claude's answer in a thread.
    Reply { body: String },
}

/// What the answer is to: which kinds of item are allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// A review pass: comments and edits.
    Review,
    /// A question in a thread: one reply, and edits.
    Thread,
}

/// Splits streamed text into complete lines, numbered from 1 across the
/// whole answer (a turn of several requests keeps counting).
#[derive(Debug, Default)]
pub struct LineBuffer {
    pending: String,
    line: usize,
}

impl LineBuffer {
    pub fn new() -> LineBuffer {
        LineBuffer::default()
    }

    /// Add `text`; the lines it completes, with their numbers.
    pub fn push(&mut self, text: &str) -> Vec<(usize, String)> {
        self.pending.push_str(text);
        let mut out = Vec::new();
        while let Some(i) = self.pending.find('\n') {
            let rest = self.pending.split_off(i + 1);
            let mut line = std::mem::replace(&mut self.pending, rest);
            line.pop();
            if line.ends_with('\r') {
                line.pop();
            }
            self.line += 1;
            out.push((self.line, line));
        }
        out
    }

    /// The last line, when the answer did not end with a line break.
    pub fn finish(&mut self) -> Option<(usize, String)> {
        if self.pending.is_empty() {
            return None;
        }
        self.line += 1;
        Some((self.line, std::mem::take(&mut self.pending)))
    }
}

/// One line of the answer as an item: `Ok(None)` for a line that is not an
/// item and not a mistake either (blank, or a code fence Claude wrapped the
/// lines in); `Err(why)` for a line that should have been an item and is not.
pub fn parse_item(line: &str, ask: Ask) -> Result<Option<Item>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with("```") {
        return Ok(None);
    }
    let v: Value = serde_json::from_str(line).map_err(|_| "not a JSON object".to_owned())?;
    let Value::Object(o) = &v else {
        return Err("not a JSON object".into());
    };
    let text = |key: &str, required: bool| -> Result<Option<String>, String> {
        match o.get(key) {
            None | Some(Value::Null) if !required => Ok(None),
            None | Some(Value::Null) => Err(format!("no \"{key}\"")),
            Some(Value::String(s)) if s.len() > MAX_FIELD => Err(format!("\"{key}\" is too long")),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("\"{key}\" is not a string")),
        }
    };
    let occurrence = match o.get("occurrence") {
        None | Some(Value::Null) => None,
        Some(n) => match n.as_u64() {
            Some(n @ 1..=100_000) => Some(n as u32),
            _ => return Err("\"occurrence\" is not a whole number from 1".into()),
        },
    };
    let kind = o.get("kind").and_then(Value::as_str).unwrap_or("");
    let quote = || -> Result<String, String> {
        let q = text("quote", true)?.unwrap_or_default();
        if q.is_empty() {
            return Err("the quote is empty".into());
        }
        Ok(q)
    };
    let body = || -> Result<String, String> {
        let b = text("body", true)?.unwrap_or_default();
        if b.trim().is_empty() {
            return Err("the body is empty".into());
        }
        Ok(b)
    };
    match (kind, ask) {
        ("comment", Ask::Review) => Ok(Some(Item::Comment {
            quote: quote()?,
            occurrence,
            body: body()?,
        })),
        ("edit", _) => {
            let quote = quote()?;
            let replacement = text("replacement", true)?.unwrap_or_default();
            if replacement == quote {
                return Err("the replacement is the quote itself".into());
            }
            Ok(Some(Item::Edit {
                quote,
                occurrence,
                replacement,
                reason: text("reason", false)?.filter(|r| !r.trim().is_empty()),
            }))
        }
        ("reply", Ask::Thread) => Ok(Some(Item::Reply { body: body()? })),
        ("comment", Ask::Thread) => Err("a comment in a thread's answer (expected a reply)".into()),
        ("reply", Ask::Review) => Err("a reply in a review (expected comments and edits)".into()),
        ("", _) => Err("no \"kind\"".into()),
        (k, _) => Err(format!("unknown kind {k:?}")),
    }
}

/// Why a quote was not placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unplaced {
    /// Not in the reviewed text.
    NotFound,
    /// Several times there, and no `occurrence` said which.
    Ambiguous { count: usize },
    /// `occurrence` names one that is not there.
    NoSuchOccurrence { occurrence: u32, count: usize },
}

impl fmt::Display for Unplaced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unplaced::NotFound => write!(f, "the quoted text is not in the reviewed text"),
            Unplaced::Ambiguous { count } => write!(
                f,
                "the quoted text occurs {count} times and the answer did not say which"
            ),
            Unplaced::NoSuchOccurrence { occurrence, count } => write!(
                f,
                "occurrence {occurrence} of the quoted text was asked for, but it occurs {count} time{}",
                if *count == 1 { "" } else { "s" }
            ),
        }
    }
}

/// Where `quote` is inside `scope` of `text` (byte offsets into `text`).
///
/// Exact occurrences (overlapping ones count) first. When there is none and
/// `loose` is set, occurrences that differ only in whitespace (a run of
/// whitespace matches any run: a line break for a space). One occurrence →
/// it, unless `occurrence` names another; several → the `occurrence`-th, and
/// without one, [`Unplaced::Ambiguous`].
pub fn place(
    text: &str,
    scope: Range<usize>,
    quote: &str,
    occurrence: Option<u32>,
    loose: bool,
) -> Result<Range<usize>, Unplaced> {
    let within = &text[scope.clone()];
    let mut found = exact_occurrences(within, quote);
    if found.is_empty() && loose {
        found = loose_occurrences(within, quote);
    }
    let count = found.len();
    let pick = match (count, occurrence) {
        (0, _) => return Err(Unplaced::NotFound),
        (1, None) => 0,
        (_, None) => return Err(Unplaced::Ambiguous { count }),
        (_, Some(n)) if n as usize > count => {
            return Err(Unplaced::NoSuchOccurrence { occurrence: n, count })
        }
        (_, Some(n)) => n as usize - 1,
    };
    let r = &found[pick];
    Ok(scope.start + r.start..scope.start + r.end)
}

/// The parts of a text a turn showed Claude, one request each (a review's
/// [`sections`], a thread's text), with the char offset of each part's start,
/// counted once ([`Parts::new`]: one walk over the text). An item is placed in
/// the part it answers, where its `occurrence` counts — as the prompt tells
/// Claude — and its char range counted from that part's start: placing an
/// item costs its part, never the whole text, so a turn's placing is linear
/// in its items and its text together.
#[derive(Clone, Debug, Default)]
pub struct Parts {
    /// Byte range of each part, and the char offset of its start.
    parts: Vec<(Range<usize>, usize)>,
}

/// Where an item was placed: bytes and chars of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    pub bytes: Range<usize>,
    pub chars: Range<usize>,
}

impl Parts {
    /// `parts`: byte ranges of `text`, in order, on char boundaries.
    pub fn new(text: &str, parts: Vec<Range<usize>>) -> Parts {
        let (mut byte, mut chars) = (0, 0);
        let parts = parts
            .into_iter()
            .map(|p| {
                debug_assert!(p.start >= byte && p.end >= p.start, "parts in order");
                chars += text[byte..p.start].chars().count();
                byte = p.start;
                (p, chars)
            })
            .collect();
        Parts { parts }
    }

    pub fn len(&self) -> usize {
        self.parts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// The byte range of part `part` (1-based).
    pub fn get(&self, part: usize) -> Option<Range<usize>> {
        self.part(part).map(|(r, _)| r.clone())
    }

    fn part(&self, part: usize) -> Option<&(Range<usize>, usize)> {
        part.checked_sub(1).and_then(|i| self.parts.get(i))
    }

    /// [`place`] `quote` in part `part` (1-based) of `text` (the text the
    /// parts were made of). `None`: there is no such part.
    pub fn place(
        &self,
        text: &str,
        part: usize,
        quote: &str,
        occurrence: Option<u32>,
        loose: bool,
    ) -> Option<Result<Placed, Unplaced>> {
        let (range, chars) = self.part(part)?;
        Some(place(text, range.clone(), quote, occurrence, loose).map(|at| {
            let start = chars + text[range.start..at.start].chars().count();
            let end = start + text[at.clone()].chars().count();
            Placed {
                bytes: at,
                chars: start..end,
            }
        }))
    }
}

fn exact_occurrences(text: &str, quote: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find(quote) {
        let at = from + i;
        out.push(at..at + quote.len());
        // The next start may overlap this match: step one character.
        from = at + text[at..].chars().next().map_or(1, char::len_utf8);
    }
    out
}

fn loose_occurrences(text: &str, quote: &str) -> Vec<Range<usize>> {
    let words: Vec<&str> = quote.split_whitespace().collect();
    if words.len() < 2 {
        return Vec::new();
    }
    let pattern = words
        .iter()
        .map(|w| regex::escape(w))
        .collect::<Vec<_>>()
        .join(r"\s+");
    match regex::Regex::new(&pattern) {
        Ok(re) => re.find_iter(text).map(|m| m.range()).collect(),
        Err(_) => Vec::new(),
    }
}

/// The parts a pass reviews one request at a time: `scope` cut at Markdown
/// headings (outside fenced code), consecutive sections packed up to `budget`
/// bytes, a longer section cut at blank lines, a longer paragraph at line
/// ends. The parts cover `scope` exactly, in order.
pub fn sections(text: &str, scope: Range<usize>, budget: usize) -> Vec<Range<usize>> {
    let budget = budget.max(1);
    // Cut points: the start of every heading line (headings start sections).
    let mut headings = Vec::new();
    let mut blank_after = Vec::new();
    let mut line_ends = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let mut at = scope.start;
    for line in text[scope.clone()].split_inclusive('\n') {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        let marker = t.chars().next().filter(|c| *c == '`' || *c == '~');
        let run = marker.map_or(0, |c| t.len() - t.trim_start_matches(c).len());
        match (fence, marker) {
            (None, Some(c)) if run >= 3 && indent < 4 => fence = Some((c, run)),
            (Some((c, n)), Some(m)) if m == c && run >= n && t[run..].trim().is_empty() => fence = None,
            _ => {}
        }
        let is_heading = fence.is_none() && indent < 4 && t.starts_with('#') && {
            let hashes = t.len() - t.trim_start_matches('#').len();
            hashes <= 6 && t[hashes..].chars().next().is_none_or(char::is_whitespace)
        };
        if is_heading && at > scope.start {
            headings.push(at);
        }
        at += line.len();
        line_ends.push(at);
        if line.trim().is_empty() {
            blank_after.push(at);
        }
    }
    // Sections between headings.
    let mut bounds = vec![scope.start];
    bounds.extend(headings);
    bounds.push(scope.end);
    let mut pieces: Vec<Range<usize>> = Vec::new();
    for w in bounds.windows(2) {
        let (a, b) = (w[0], w[1]);
        if a == b {
            continue;
        }
        if b - a <= budget {
            pieces.push(a..b);
        } else {
            split_long(a..b, budget, &blank_after, &line_ends, &mut pieces);
        }
    }
    // Pack consecutive pieces up to the budget.
    let mut out: Vec<Range<usize>> = Vec::new();
    for p in pieces {
        match out.last_mut() {
            Some(last) if p.end - last.start <= budget => last.end = p.end,
            _ => out.push(p),
        }
    }
    if out.is_empty() {
        out.push(scope);
    }
    out
}

/// Cut `r` at paragraph breaks, then at line ends, into pieces ≤ `budget`
/// where a cut exists.
fn split_long(
    r: Range<usize>,
    budget: usize,
    blank_after: &[usize],
    line_ends: &[usize],
    out: &mut Vec<Range<usize>>,
) {
    let mut start = r.start;
    while r.end - start > budget {
        let inside = |cuts: &[usize]| {
            cuts.iter()
                .copied()
                .filter(|&c| c > start && c < r.end && c - start <= budget)
                .max()
        };
        let cut = inside(blank_after)
            .or_else(|| inside(line_ends))
            .or_else(|| line_ends.iter().copied().find(|&c| c > start && c < r.end));
        match cut {
            Some(c) => {
                out.push(start..c);
                start = c;
            }
            None => break,
        }
    }
    out.push(start..r.end);
}

/// A decision the writer took on this document, for the prompt's memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remembered {
    /// `rejected` or `changed`.
    pub outcome: String,
    /// The text the proposal would have replaced.
    pub text: String,
    /// What was proposed.
    pub proposed: String,
    /// For `changed`: what the writer chose instead.
    pub chosen: Option<String>,
}

/// What a review pass asks: the document, the part to review and why.
pub struct ReviewRequest<'a> {
    pub doc_id: &'a str,
    pub text: &'a str,
    /// The part of `text` reviewed by this request.
    pub part: Range<usize>,
    /// Which part of how many (1-based), when the pass has several.
    pub index: usize,
    pub count: usize,
    /// What the writer asked for, in their words.
    pub instruction: Option<&'a str>,
    pub memory: &'a [Remembered],
}

/// The `system` prompt of a review or thread request (the Messages API).
pub const SYSTEM: &str = "You are a careful, candid editor working inside a writer's Markdown document. \
You never change the document yourself: you comment and propose edits, and the writer decides. \
You answer in JSON Lines only: one JSON object per line, nothing else.";

const FORMAT_RULES: &str = "\
Rules for every line:
- \"quote\" is text copied exactly, character for character, from inside the reviewed text \
(keep its punctuation, capitals and Markdown; write a line break as \\n). Quote only as much as the \
item is about: a word, a phrase or a sentence, rarely more than a paragraph.
- If the quoted text occurs more than once in the reviewed text, add \"occurrence\": N (1 for the \
first) to say which; otherwise leave it out.
- An edit's \"replacement\" replaces exactly the quoted text; keep the Markdown and the line \
structure unless the edit is about them. Give the reason in a few words.
- Each line must be a complete JSON object; no code fences, no prose, no numbering around the lines.
";

/// The prompt of one request of a review pass.
pub fn review_prompt(req: &ReviewRequest) -> String {
    let t = req.text;
    let part = &t[req.part.clone()];
    let before = tail_chars(&t[..req.part.start], CONTEXT_CHARS);
    let after = head_chars(&t[req.part.end..], CONTEXT_CHARS);
    let mut p = String::with_capacity(part.len() + before.len() + after.len() + 2048);
    p.push_str(&format!(
        "You are reviewing the Markdown document {:?} as its editor.",
        req.doc_id
    ));
    if req.count > 1 {
        p.push_str(&format!(
            " The document is reviewed in parts; this is part {} of {}.",
            req.index, req.count
        ));
    }
    p.push_str("\n\n<instruction>\n");
    p.push_str(
        req.instruction
            .map(str::trim)
            .filter(|i| !i.is_empty())
            .unwrap_or(
                "Review this text: say what is weak, unclear or wrong, and propose concrete edits where \
         the writing can be improved.",
            ),
    );
    p.push_str("\n</instruction>\n\n");
    push_context(
        &mut p,
        before,
        t[..req.part.start].len(),
        after,
        t[req.part.end..].len(),
    );
    p.push_str("<review>\n");
    p.push_str(part);
    p.push_str("\n</review>\n\n");
    push_memory(&mut p, req.memory);
    p.push_str(
        "Answer in JSON Lines, one item per line, about the text inside <review> only:\n\
         {\"kind\":\"comment\",\"quote\":\"…\",\"body\":\"…\"}  a remark for the writer about the quoted text\n\
         {\"kind\":\"edit\",\"quote\":\"…\",\"replacement\":\"…\",\"reason\":\"…\"}  a proposed change of the quoted text\n\n",
    );
    p.push_str(FORMAT_RULES);
    p.push_str("If there is nothing worth saying, answer with nothing.\n");
    p
}

/// A thread as the prompt shows it.
pub struct ThreadRequest<'a> {
    pub doc_id: &'a str,
    pub text: &'a str,
    /// The thread's anchored text in `text`.
    pub anchored: Range<usize>,
    /// The comments so far: (author, body).
    pub comments: &'a [(String, String)],
    pub instruction: Option<&'a str>,
    pub memory: &'a [Remembered],
}

/// The prompt of a question in a thread.
pub fn thread_prompt(req: &ThreadRequest) -> String {
    let t = req.text;
    let quoted = &t[req.anchored.clone()];
    let before = tail_chars(&t[..req.anchored.start], CONTEXT_CHARS);
    let after = head_chars(&t[req.anchored.end..], CONTEXT_CHARS);
    let mut p = String::with_capacity(quoted.len() + before.len() + after.len() + 2048);
    p.push_str(&format!(
        "You are the editor of the Markdown document {:?}. The writer asks you to answer in a \
         comment thread on part of it.\n\n",
        req.doc_id
    ));
    if let Some(i) = req.instruction.map(str::trim).filter(|i| !i.is_empty()) {
        p.push_str("<instruction>\n");
        p.push_str(i);
        p.push_str("\n</instruction>\n\n");
    }
    push_context(
        &mut p,
        before,
        t[..req.anchored.start].len(),
        after,
        t[req.anchored.end..].len(),
    );
    p.push_str("<thread-text note=\"the text the thread is about\">\n");
    p.push_str(quoted);
    p.push_str("\n</thread-text>\n\n<thread>\n");
    for (author, body) in req.comments {
        p.push_str(&format!("<comment author={author:?}>\n{body}\n</comment>\n"));
    }
    p.push_str("</thread>\n\n");
    push_memory(&mut p, req.memory);
    p.push_str(
        "Answer in JSON Lines, one item per line:\n\
         {\"kind\":\"reply\",\"body\":\"…\"}  your answer in the thread (exactly one; Markdown allowed)\n\
         {\"kind\":\"edit\",\"quote\":\"…\",\"replacement\":\"…\",\"reason\":\"…\"}  if the answer is best given as a change, \
         a proposed edit of text inside <thread-text> (none, one or a few)\n\n",
    );
    p.push_str(&FORMAT_RULES.replace("inside the reviewed text", "inside <thread-text>"));
    p
}

fn push_context(p: &mut String, before: &str, before_all: usize, after: &str, after_all: usize) {
    if before.is_empty() && after.is_empty() {
        return;
    }
    p.push_str("The text around it is context only; do not comment on it or quote it. The tags are not part of the document.\n");
    if !before.is_empty() {
        p.push_str(if before.len() < before_all {
            "<before note=\"the document continues above\">\n"
        } else {
            "<before note=\"from the start of the document\">\n"
        });
        p.push_str(before);
        p.push_str("\n</before>\n");
    }
    if !after.is_empty() {
        p.push_str(if after.len() < after_all {
            "<after note=\"the document continues below\">\n"
        } else {
            "<after note=\"to the end of the document\">\n"
        });
        p.push_str(after);
        p.push_str("\n</after>\n");
    }
    p.push('\n');
}

fn push_memory(p: &mut String, memory: &[Remembered]) {
    if memory.is_empty() {
        return;
    }
    p.push_str(
        "The writer already decided on these proposals for this document (newest first). Do not \
         propose them again, nor the same change in other words:\n<decisions>\n",
    );
    for m in memory.iter().take(MEMORY_DECISIONS) {
        let line = match &m.chosen {
            Some(c) => format!(
                "- changed: {:?} → proposed {:?}; the writer chose {:?}\n",
                clip(&m.text),
                clip(&m.proposed),
                clip(c)
            ),
            None => format!("- {}: {:?} → {:?}\n", m.outcome, clip(&m.text), clip(&m.proposed)),
        };
        p.push_str(&line);
    }
    p.push_str("</decisions>\n\n");
}

fn clip(s: &str) -> String {
    if s.chars().count() <= 200 {
        s.to_owned()
    } else {
        format!("{}…", head_chars(s, 200))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_across_deltas_and_number_across_the_answer() {
        let mut b = LineBuffer::new();
        assert!(b.push("{\"kind\":").is_empty());
        assert_eq!(b.push("\"x\"}\r\n{\"a\"").len(), 1);
        let got = b.push(":1}\n\n");
        assert_eq!(got, vec![(2, "{\"a\":1}".into()), (3, String::new())]);
        assert!(b.push("tail").is_empty());
        assert_eq!(b.finish(), Some((4, "tail".into())));
        assert_eq!(b.finish(), None);
    }

    #[test]
    fn items_are_read_strictly() {
        let r = |l: &str| parse_item(l, Ask::Review);
        assert_eq!(r("   "), Ok(None));
        assert_eq!(r("```json"), Ok(None));
        assert_eq!(
            r(r#"{"kind":"comment","quote":"a b","body":"why?"}"#),
            Ok(Some(Item::Comment {
                quote: "a b".into(),
                occurrence: None,
                body: "why?".into()
            }))
        );
        assert_eq!(
            r(r#"{"kind":"edit","quote":"a","occurrence":2,"replacement":"","reason":" "}"#),
            Ok(Some(Item::Edit {
                quote: "a".into(),
                occurrence: Some(2),
                replacement: String::new(),
                reason: None
            }))
        );
        for bad in [
            "Here are my notes:",
            "[1,2]",
            r#"{"quote":"a","body":"b"}"#,
            r#"{"kind":"praise","quote":"a","body":"b"}"#,
            r#"{"kind":"comment","quote":"","body":"b"}"#,
            r#"{"kind":"comment","quote":"a","body":"  "}"#,
            r#"{"kind":"comment","quote":"a","body":3}"#,
            r#"{"kind":"comment","quote":"a","occurrence":0,"body":"b"}"#,
            r#"{"kind":"comment","quote":"a","occurrence":"2","body":"b"}"#,
            r#"{"kind":"edit","quote":"a","replacement":"a"}"#,
            r#"{"kind":"edit","quote":"a"}"#,
            r#"{"kind":"reply","body":"hi"}"#,
            r#"{"kind":"comment","quote":"a","body":"b""#,
        ] {
            assert!(r(bad).is_err(), "{bad} was read as an item");
        }
        assert!(parse_item(r#"{"kind":"reply","body":"hi"}"#, Ask::Thread)
            .unwrap()
            .is_some());
        assert!(parse_item(r#"{"kind":"comment","quote":"a","body":"b"}"#, Ask::Thread).is_err());
    }

    #[test]
    fn quotes_are_placed_only_when_certain() {
        let t = "one two one two one";
        assert_eq!(
            place(t, 0..t.len(), "two", None, false),
            Err(Unplaced::Ambiguous { count: 2 })
        );
        assert_eq!(place(t, 0..t.len(), "two", Some(2), false), Ok(12..15));
        assert_eq!(
            place(t, 0..t.len(), "two", Some(3), false),
            Err(Unplaced::NoSuchOccurrence {
                occurrence: 3,
                count: 2
            })
        );
        assert_eq!(place(t, 0..t.len(), "three", None, true), Err(Unplaced::NotFound));
        // Only inside the scope; positions are of the whole text.
        assert_eq!(place(t, 8..t.len(), "two", None, false), Ok(12..15));
        // Overlapping occurrences count.
        assert_eq!(
            place("aaa", 0..3, "aa", None, false),
            Err(Unplaced::Ambiguous { count: 2 })
        );
        // Whitespace-only differences: only when allowed.
        let wrapped = "It was a\ndark and\nstormy night.";
        assert_eq!(
            place(wrapped, 0..wrapped.len(), "a dark and stormy", None, false),
            Err(Unplaced::NotFound)
        );
        assert_eq!(
            place(wrapped, 0..wrapped.len(), "a dark and stormy", None, true),
            Ok(7..24)
        );
        // Multi-byte text.
        let m = "é café, café";
        assert_eq!(place(m, 0..m.len(), "café", Some(2), false), Ok(10..15));
    }

    #[test]
    fn parts_place_in_their_part_with_chars_counted_from_its_start() {
        // Multi-byte text, the same line in every part.
        let t = "é Say it. Say it.\n日本 Say it. Once.\n🎉 Say it. Say it.\n";
        let cuts: Vec<Range<usize>> = {
            let mut at = 0;
            t.split_inclusive('\n')
                .map(|l| {
                    at += l.len();
                    at - l.len()..at
                })
                .collect()
        };
        let parts = Parts::new(t, cuts.clone());
        assert_eq!(parts.len(), 3);
        let naive_chars = |r: &Range<usize>| t[..r.start].chars().count()..t[..r.end].chars().count();
        for (i, part) in cuts.iter().enumerate() {
            // Occurrence 1 is the first of this part, not of the text.
            let got = parts.place(t, i + 1, "Say it.", Some(1), false).unwrap().unwrap();
            assert_eq!(
                got.bytes.start,
                part.start + t[part.clone()].find("Say it.").unwrap()
            );
            assert_eq!(got.chars, naive_chars(&got.bytes));
        }
        // Unique in its part, though in every part of the text.
        let got = parts.place(t, 2, "Say it.", None, false).unwrap().unwrap();
        assert_eq!(&t[got.bytes.clone()], "Say it.");
        assert_eq!(got.chars, naive_chars(&got.bytes));
        assert_eq!(
            parts.place(t, 1, "Say it.", None, false),
            Some(Err(Unplaced::Ambiguous { count: 2 }))
        );
        // Not looked for outside its part.
        assert_eq!(
            parts.place(t, 1, "Once.", None, false),
            Some(Err(Unplaced::NotFound))
        );
        assert_eq!(parts.place(t, 4, "Once.", None, false), None);
        assert_eq!(parts.place(t, 0, "Once.", None, false), None);
    }

    #[test]
    fn sections_follow_headings_and_cover_the_range() {
        let t = "# A\none\n\n## B\ntwo\n```\n# not a heading\n```\n# C\nthree\n";
        let s = sections(t, 0..t.len(), 40);
        let texts: Vec<&str> = s.iter().map(|r| &t[r.clone()]).collect();
        assert_eq!(texts.concat(), t);
        assert!(texts.iter().any(|p| p.starts_with("## B")), "{texts:?}");
        assert!(texts.iter().any(|p| p.starts_with("# C")), "{texts:?}");
        assert!(!texts.iter().any(|p| p.starts_with("# not")), "{texts:?}");
        // A big budget packs everything into one part.
        assert_eq!(sections(t, 0..t.len(), 10_000), vec![0..t.len()]);
        // A long section without headings is cut at blank lines.
        let long = "para one.\n\npara two.\n\npara three.\n";
        let s = sections(long, 0..long.len(), 14);
        assert!(s.len() >= 2);
        assert_eq!(s.iter().map(|r| &long[r.clone()]).collect::<String>(), long);
        assert!(s.iter().all(|r| r.end - r.start <= 14), "{s:?}");
    }

    #[test]
    fn prompts_hold_the_text_the_instruction_and_the_memory() {
        let text = "# T\n\nThe quick fox.\n\nThe end.\n";
        let memory = vec![Remembered {
            outcome: "rejected".into(),
            text: "quick".into(),
            proposed: "fast".into(),
            chosen: None,
        }];
        let p = review_prompt(&ReviewRequest {
            doc_id: "a.md",
            text,
            part: 5..21,
            index: 2,
            count: 3,
            instruction: Some("tighten it"),
            memory: &memory,
        });
        assert!(p.contains("<review>\nThe quick fox.\n\n\n</review>"), "{p}");
        assert!(p.contains("tighten it") && p.contains("part 2 of 3"));
        assert!(p.contains("- rejected: \"quick\" → \"fast\""), "{p}");
        assert!(p.contains("<before note=\"from the start of the document\">\n# T\n\n"));
        let comments = vec![("ann@example.com".to_owned(), "Is this clear?".to_owned())];
        let p = thread_prompt(&ThreadRequest {
            doc_id: "a.md",
            text,
            anchored: 5..19,
            comments: &comments,
            instruction: None,
            memory: &[],
        });
        assert!(p.contains("<thread-text note=\"the text the thread is about\">\nThe quick fox.\n"));
        assert!(p.contains("<comment author=\"ann@example.com\">\nIs this clear?\n</comment>"));
        assert!(p.contains("\"kind\":\"reply\"") && !p.contains("<decisions>"));
    }
}
