//! Claude, "Ask Claude to edit selection": one **turn** sends the selection,
//! the human's instruction and some surrounding text to Claude, checks the
//! answer, and splits it into per-hunk contract [`Suggestion`]s that share the
//! turn's id.
//!
//! Two transports ([`Transport`], chosen by [`ClaudeConfig::transport`]):
//!
//! - **CLI** (default): Claude Code in headless mode, riding the user's own
//!   login. `claude -p --output-format json --max-turns 1 --tools ""
//!   [--model M]`, started without a shell in the system temp directory (so no
//!   project's `CLAUDE.md`, settings or hooks are picked up), the prompt on
//!   stdin. `--max-turns 1` and `--tools ""` keep the run from using tools: an
//!   edit needs none.
//! - **API**: the Messages API (`POST {api_url}/v1/messages`) with
//!   `ANTHROPIC_API_KEY`, used when the key is set or `transport = "api"`. It
//!   needs `[claude] model`: no model id is built in.
//!
//! The answer must be only the replacement text ([`check_answer`]); anything
//! else — empty, unchanged, chatter around it — is a one-line
//! [`Error::Producer`] and nothing is filed. A run can be cancelled
//! ([`Cancel`]), time out (Claude Code: `timeout_secs` without output or
//! `run_secs` in all; the API: `timeout_secs`) or print more than
//! `output_mib` ([`crate::process`]); each files nothing.
//!
//! Hunks ([`hunks`]) come from the word diff of selection → answer
//! ([`cowriting_core::diff::word_diff`]): each contiguous changed region is one
//! suggestion on the original bytes; two regions separated only by whitespace
//! with at most one line break are merged into one, so "the quick" → "a slow"
//! reads as one proposal, while separate paragraphs stay separate proposals.

use std::process::Command;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::process::{self, Limits, Output};
use super::{failed, first_line, Cancel, Request, Run};
use cowriting_core::contract::{sha256_hex, sort_suggestions, Finding, Producer, Source, Suggestion};
use cowriting_core::diff::{word_diff, DiffTag};
use cowriting_core::offset::FileByteRange;
use cowriting_workspace::config::{ClaudeConfig, Transport};
use cowriting_workspace::error::{Error, Result};

/// The producer id of every suggestion Claude makes.
pub const PRODUCER_ID: &str = "claude";
/// How much surrounding text (in chars, each side) goes into the prompt.
pub const CONTEXT_CHARS: usize = 2000;
/// The Messages API version this module speaks.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";
/// The `system` prompt of an API request.
const SYSTEM: &str = "You are a careful editor working inside a writer's document. \
You rewrite exactly the text you are given, as instructed, and you answer with the rewritten text only.";

/// One finished turn: its suggestions, and who made them.
#[derive(Clone, Debug)]
pub struct Turn {
    /// Producer and suggestions (in contract order); `skipped` is empty.
    pub run: Run,
    /// `turn-` + random hex; the proposals filed from this turn share it.
    pub turn_id: String,
    /// The model that answered, as the transport reported it (else the
    /// configured one; `None` when neither is known).
    pub model: Option<String>,
    pub transport: Transport,
    /// Claude Code's session id, when the CLI reported one.
    pub session_id: Option<String>,
}

/// Ask Claude to rewrite `req.selection` as `req.instruction` says. The API key
/// comes from `ANTHROPIC_API_KEY` (an empty value counts as unset).
pub fn edit_selection(cfg: &ClaudeConfig, req: &Request, cancel: &Cancel) -> Result<Turn> {
    let key = std::env::var_os("ANTHROPIC_API_KEY").filter(|k| !k.is_empty());
    let key = match &key {
        Some(k) => Some(
            k.to_str()
                .ok_or_else(|| Error::BadInput("ANTHROPIC_API_KEY is not valid UTF-8".into()))?,
        ),
        None => None,
    };
    edit_selection_with(cfg, req, cancel, key)
}

/// [`edit_selection`] with the API key given rather than read from the
/// environment (`None`: no key).
pub fn edit_selection_with(
    cfg: &ClaudeConfig,
    req: &Request,
    cancel: &Cancel,
    api_key: Option<&str>,
) -> Result<Turn> {
    let sel = selection(req)?;
    let transport = cfg.transport(api_key.is_some());
    let prompt = build_prompt(req)?;
    if cancel.is_cancelled() {
        return Err(cancelled());
    }
    let answer = match transport {
        Transport::Cli => ask_cli(cfg, &prompt, cancel)?,
        Transport::Api => {
            let key = api_key.ok_or_else(|| {
                Error::BadInput("[claude] transport is \"api\" but ANTHROPIC_API_KEY is not set".into())
            })?;
            ask_api(cfg, key, &prompt, cancel)?
        }
    };
    let replacement = check_answer(sel.text, &answer.text)?;
    let model = answer.model.or_else(|| cfg.model.clone());
    let producer = Producer {
        id: PRODUCER_ID.into(),
        version: transport_name(transport).into(),
        provenance: format!("model:{}", model.as_deref().unwrap_or("default")),
    };
    let source = Source::of(req.doc_id, req.bytes);
    let suggestions = hunks(req, &replacement, &producer, &source)?;
    Ok(Turn {
        run: Run {
            producer: Some(producer),
            suggestions,
            skipped: Vec::new(),
        },
        turn_id: new_turn_id(),
        model,
        transport,
        session_id: answer.session_id,
    })
}

pub(crate) fn transport_name(t: Transport) -> &'static str {
    match t {
        Transport::Cli => "cli",
        Transport::Api => "api",
    }
}

fn new_turn_id() -> String {
    // `new_id` gives `turn_<hex>`; turn ids in the sidecar read `turn-…`.
    cowriting_core::model::new_turn_id()
}

pub(crate) fn cancelled() -> Error {
    Error::Cancelled {
        what: PRODUCER_ID.into(),
    }
}

/// A request's selection, checked.
struct Selection<'a> {
    range: FileByteRange,
    text: &'a str,
    before: &'a str,
    after: &'a str,
    instruction: &'a str,
}

fn selection<'a>(req: &Request<'a>) -> Result<Selection<'a>> {
    let bad = |m: String| Error::BadInput(m);
    let instruction = req
        .instruction
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .ok_or_else(|| bad("Claude needs an instruction: what to do with the selection".into()))?;
    let range = req
        .selection
        .ok_or_else(|| bad("Claude needs a selection: the text to edit".into()))?;
    let doc = std::str::from_utf8(req.bytes)
        .map_err(|e| bad(format!("{}: not UTF-8 at byte {}", req.doc_id, e.valid_up_to())))?;
    let (start, end) = (range.start.0, range.end.0);
    if start > end {
        return Err(bad(format!("selection {range}: start is after end")));
    }
    if start == end {
        return Err(bad(format!(
            "the selection is empty (bytes {range}): select the text to edit"
        )));
    }
    if end > doc.len() {
        return Err(bad(format!(
            "selection {range} is past the end of {} ({} bytes)",
            req.doc_id,
            doc.len()
        )));
    }
    for at in [start, end] {
        if !doc.is_char_boundary(at) {
            return Err(bad(format!(
                "selection {range}: byte {at} is inside a multi-byte character"
            )));
        }
    }
    Ok(Selection {
        range,
        text: &doc[start..end],
        before: &doc[..start],
        after: &doc[end..],
        instruction,
    })
}

/// The last `n` chars of `s`.
pub(crate) fn tail_chars(s: &str, n: usize) -> &str {
    if n == 0 {
        return "";
    }
    match s.char_indices().rev().nth(n - 1) {
        Some((i, _)) => &s[i..],
        None => s,
    }
}

/// The first `n` chars of `s`.
pub(crate) fn head_chars(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// The prompt of a turn: the instruction, up to [`CONTEXT_CHARS`] chars of
/// text each side of the selection (cut on char boundaries) and the selection,
/// each in its own tag, and what the answer must be.
pub fn build_prompt(req: &Request) -> Result<String> {
    let sel = selection(req)?;
    let before = tail_chars(sel.before, CONTEXT_CHARS);
    let after = head_chars(sel.after, CONTEXT_CHARS);
    let mut p = String::with_capacity(sel.text.len() + before.len() + after.len() + 1024);
    p.push_str(
        "You are editing part of a Markdown document. Rewrite the text inside <selection> \
         as the instruction says.\n\n",
    );
    p.push_str("<instruction>\n");
    p.push_str(sel.instruction);
    p.push_str("\n</instruction>\n\n");
    p.push_str(
        "The text around the selection is for context only; do not rewrite it. \
         The tags are not part of the document.\n\n",
    );
    if !before.is_empty() {
        p.push_str(if before.len() < sel.before.len() {
            "<before note=\"the document continues above\">\n"
        } else {
            "<before note=\"from the start of the document\">\n"
        });
        p.push_str(before);
        p.push_str("\n</before>\n");
    }
    p.push_str("<selection>\n");
    p.push_str(sel.text);
    p.push_str("\n</selection>\n");
    if !after.is_empty() {
        p.push_str(if after.len() < sel.after.len() {
            "<after note=\"the document continues below\">\n"
        } else {
            "<after note=\"to the end of the document\">\n"
        });
        p.push_str(after);
        p.push_str("\n</after>\n");
    }
    p.push_str(
        "\nReply with ONLY the replacement text for the selection: no preamble, no \
         explanation, no quotes, no code fences, no tags, no commentary before or after it. \
         Keep the selection's Markdown formatting and line structure unless the instruction \
         asks otherwise. Your reply replaces the selection exactly as written.\n",
    );
    Ok(p)
}

/// The replacement text in Claude's `answer` for the selection `original`,
/// or a one-line [`Error::Producer`] saying why the answer is not one.
///
/// - Empty or whitespace-only: refused.
/// - Wrapped as a whole in one code fence (```` ``` ```` or `~~~`) while the
///   selection is not itself fenced: the fence pair is **stripped** and the
///   inside kept. The fence is packaging the prompt asked Claude to leave out;
///   the text inside it is unambiguous, and a human still reviews every
///   proposal. (A request to turn prose into a code block therefore loses its
///   fence; the human sees that in the proposal.)
/// - Leading and trailing whitespace mirror the selection's: the answer's own
///   edge whitespace is replaced by the selection's, so a selection without a
///   trailing newline gets none, and one that ended a paragraph keeps its line
///   break.
/// - Chatter is refused, conservatively: a first line that ends with `:`,
///   opens like a preamble ("Here is…", "Sure…", "Certainly…", "Below is…",
///   "The revised…") and names the answer ("…text:", "…version:"); a lone
///   "Sure!"-style first line; or a last line like "Let me know…", "I hope…",
///   "Feel free…" — unless that line is in the selection itself.
/// - Identical to the selection: refused ("Claude returned the selection unchanged").
pub fn check_answer(original: &str, answer: &str) -> Result<String> {
    let refuse = |m: String| failed(PRODUCER_ID, format!("{m}; nothing was filed"));
    if answer.trim().is_empty() {
        return Err(refuse("Claude returned an empty answer".into()));
    }
    let mut a: &str = answer;
    if !is_fenced(original) {
        if let Some(inner) = fenced_inside(a) {
            a = inner;
        }
    }
    if a.trim().is_empty() {
        return Err(refuse("Claude returned an empty code block".into()));
    }
    let text = if original.trim().is_empty() {
        a.to_owned()
    } else {
        let lead = &original[..original.len() - original.trim_start().len()];
        let trail = &original[original.trim_end().len()..];
        format!("{lead}{}{trail}", a.trim())
    };
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let in_original = |line: &str| original.lines().any(|l| l.trim().eq_ignore_ascii_case(line));
    if let Some(first) = lines.first() {
        if !in_original(first) && is_preamble(first, lines.len() > 1) {
            return Err(refuse(format!(
                "Claude's answer starts with a preamble ({:?}) instead of only the replacement text",
                clip(first)
            )));
        }
    }
    if lines.len() > 1 {
        let last = lines[lines.len() - 1];
        if !in_original(last) && is_sign_off(last) {
            return Err(refuse(format!(
                "Claude's answer ends with commentary ({:?}) instead of only the replacement text",
                clip(last)
            )));
        }
    }
    if text == original {
        return Err(refuse("Claude returned the selection unchanged".into()));
    }
    Ok(text)
}

fn clip(line: &str) -> String {
    if line.chars().count() <= 60 {
        line.to_owned()
    } else {
        format!("{}…", head_chars(line, 60))
    }
}

/// Whether `line` (trimmed) opens a fence: its marker (the run of ` or ~).
fn fence_marker(line: &str) -> Option<&str> {
    let line = line.trim_start();
    for c in ['`', '~'] {
        let n = line.len() - line.trim_start_matches(c).len();
        if n >= 3 {
            return Some(&line[..n]);
        }
    }
    None
}

fn is_fenced(text: &str) -> bool {
    text.trim_start()
        .lines()
        .next()
        .is_some_and(|l| fence_marker(l).is_some())
}

/// The inside of `answer` when the whole of it (trimmed) is one fenced block.
fn fenced_inside(answer: &str) -> Option<&str> {
    let a = answer.trim();
    let first_end = a.find('\n')?;
    let marker = fence_marker(&a[..first_end])?;
    let last_start = a.rfind('\n')? + 1;
    if last_start <= first_end {
        return None;
    }
    let last = a[last_start..].trim();
    let ch = marker.chars().next()?;
    if !(last.len() >= marker.len() && last.chars().all(|c| c == ch)) {
        return None;
    }
    let inner = &a[first_end + 1..last_start - 1];
    // Another fence of this kind inside: not one block.
    if inner
        .lines()
        .any(|l| fence_marker(l).is_some_and(|m| m.starts_with(ch) && m.len() >= marker.len()))
    {
        return None;
    }
    Some(inner)
}

const PREAMBLE_OPENINGS: &[&str] = &[
    "here is",
    "here's",
    "here are",
    "sure",
    "certainly",
    "of course",
    "okay",
    "ok",
    "absolutely",
    "below is",
    "the revised",
    "the rewritten",
    "the edited",
    "the updated",
    "the improved",
    "this is the",
    "i've",
    "i have",
    "i rewrote",
    "i revised",
    "i edited",
];

/// Words by which a preamble names the answer itself ("the revised *text*").
const ANSWER_WORDS: &[&str] = &[
    "text",
    "version",
    "rewrit",
    "revis",
    "edit",
    "paragraph",
    "sentence",
    "selection",
    "passage",
    "draft",
    "here you go",
    "here it is",
];

const INTERJECTIONS: &[&str] = &[
    "sure",
    "certainly",
    "of course",
    "okay",
    "absolutely",
    "done",
    "great",
];

/// A chatty first line: ends with `:`, opens like a preamble and names the
/// answer ("Here is the revised text:", "Sure! Here's a tighter version:"), so
/// that a list's own lead-in ("Here are the steps:") is not taken for one; or
/// a lone "Sure!" before the text.
fn is_preamble(line: &str, more_follows: bool) -> bool {
    let l = line.to_lowercase();
    if l.ends_with(':')
        && PREAMBLE_OPENINGS.iter().any(|p| l.starts_with(p))
        && ANSWER_WORDS.iter().any(|w| l.contains(w))
    {
        return true;
    }
    let bare = l.trim_end_matches(['!', '.', ',']);
    more_follows && bare.len() < l.len() && INTERJECTIONS.contains(&bare)
}

const SIGN_OFFS: &[&str] = &[
    "let me know",
    "i hope",
    "hope this",
    "feel free",
    "if you'd like",
    "if you would like",
    "would you like",
    "i can also",
    "i've made",
    "i have made",
];

fn is_sign_off(line: &str) -> bool {
    let l = line.to_lowercase();
    SIGN_OFFS.iter().any(|p| l.starts_with(p))
}

/// The suggestions that turn `req`'s selection into `replacement`, one per
/// changed region of the word diff, on the document's bytes: span = selection
/// start + offset in the selection, `text` the original bytes there (empty for
/// a pure insertion), category `rewrite`, reason the instruction. Regions
/// separated only by whitespace holding at most one line break are merged. In
/// contract order; `source` must be the identity of `req.bytes`.
pub fn hunks(
    req: &Request,
    replacement: &str,
    producer: &Producer,
    source: &Source,
) -> Result<Vec<Suggestion>> {
    let sel = selection(req)?;
    if source.sha256 != sha256_hex(req.bytes) || source.doc_id != req.doc_id {
        return Err(Error::BadInput(format!(
            "the source record ({}) is not of the request's bytes ({})",
            source.doc_id, req.doc_id
        )));
    }
    let base = sel.range.start.0;
    let mut out = Vec::new();
    for (start, end, repl) in regions(sel.text, replacement) {
        let s = Suggestion::new(
            producer,
            source,
            req.bytes,
            Finding {
                span: FileByteRange::new(base + start, base + end),
                replacement: repl,
                category: "rewrite".into(),
                reason: sel.instruction.to_owned(),
                confidence: None,
            },
        )?;
        out.push(s);
    }
    sort_suggestions(&mut out);
    Ok(out)
}

/// Changed regions of `old` → `new`: (start, end) byte offsets in `old` and
/// the text that replaces them, merged across whitespace-only gaps.
fn regions(old: &str, new: &str) -> Vec<(usize, usize, String)> {
    let mut raw: Vec<(usize, usize, String)> = Vec::new();
    let mut open: Option<(usize, usize, String)> = None;
    let mut pos = 0;
    for part in word_diff(old, new) {
        match part.tag {
            DiffTag::Equal => {
                raw.extend(open.take());
                pos += part.text.len();
            }
            DiffTag::Delete => {
                let h = open.get_or_insert_with(|| (pos, pos, String::new()));
                pos += part.text.len();
                h.1 = pos;
            }
            DiffTag::Insert => {
                let h = open.get_or_insert_with(|| (pos, pos, String::new()));
                h.2.push_str(&part.text);
            }
        }
    }
    raw.extend(open);
    let mut merged: Vec<(usize, usize, String)> = Vec::with_capacity(raw.len());
    for h in raw {
        if let Some(last) = merged.last_mut() {
            let gap = &old[last.1..h.0];
            if gap.chars().all(char::is_whitespace) && gap.matches('\n').count() <= 1 {
                last.1 = h.1;
                last.2.push_str(gap);
                last.2.push_str(&h.2);
                continue;
            }
        }
        merged.push(h);
    }
    merged
}

/// What a transport got back.
struct Answer {
    text: String,
    model: Option<String>,
    session_id: Option<String>,
}

fn ask_cli(cfg: &ClaudeConfig, prompt: &str, cancel: &Cancel) -> Result<Answer> {
    let mut cmd = Command::new(&cfg.command);
    cmd.args(["-p", "--output-format", "json", "--max-turns", "1", "--tools", ""]);
    if let Some(m) = &cfg.model {
        cmd.arg("--model").arg(m);
    }
    cmd.current_dir(std::env::temp_dir());
    let out = match process::run(PRODUCER_ID, cmd, prompt.as_bytes(), &Limits::claude(cfg), cancel) {
        Err(Error::NotInstalled {
            producer, program, ..
        }) => {
            return Err(Error::NotInstalled {
                producer,
                program,
                hint: Some("install Claude Code, or set ANTHROPIC_API_KEY to use the Messages API".into()),
            })
        }
        r => r?,
    };
    parse_cli_output(&out)
}

fn exit_text(out: &Output) -> String {
    match out.status.code() {
        Some(c) => format!("exited with status {c}"),
        None => "was killed by a signal".into(),
    }
}

fn parse_cli_output(out: &Output) -> Result<Answer> {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let value: Option<Value> = serde_json::from_str(stdout.trim()).ok();
    // `--output-format json` prints one result object; with `--verbose` it is an
    // array of messages ending with the result.
    let (result, init_model) = match &value {
        Some(Value::Object(_)) => (value.as_ref(), None),
        Some(Value::Array(items)) => (
            items.iter().rev().find(|m| m["type"] == "result"),
            items
                .iter()
                .find(|m| m["type"] == "system")
                .and_then(|m| m["model"].as_str()),
        ),
        _ => (None, None),
    };
    let Some(result) = result else {
        let mut line = first_line(&out.stderr);
        if line.is_empty() {
            line = first_line(&out.stdout);
        }
        if line.is_empty() {
            line = "no output".into();
        }
        return Err(failed(
            PRODUCER_ID,
            if out.status.success() {
                format!("Claude Code printed something that is not its JSON result: {line}")
            } else {
                format!("Claude Code {}: {line}", exit_text(out))
            },
        ));
    };
    let subtype = result["subtype"].as_str();
    if result["is_error"].as_bool() == Some(true) {
        let why = result["result"]
            .as_str()
            .map(|r| first_line(r.as_bytes()))
            .filter(|r| !r.is_empty())
            .or_else(|| subtype.map(str::to_owned))
            .unwrap_or_else(|| "no details".into());
        return Err(failed(
            PRODUCER_ID,
            format!("Claude Code reported an error: {why}"),
        ));
    }
    if let Some(st) = subtype.filter(|s| *s != "success") {
        let hint = if st == "error_max_turns" {
            " (it tried to use a tool)"
        } else {
            ""
        };
        return Err(failed(
            PRODUCER_ID,
            format!("Claude Code stopped without an answer: {st}{hint}"),
        ));
    }
    if !out.status.success() {
        let line = first_line(&out.stderr);
        return Err(failed(
            PRODUCER_ID,
            format!("Claude Code {}: {line}", exit_text(out)),
        ));
    }
    let text = result["result"]
        .as_str()
        .ok_or_else(|| failed(PRODUCER_ID, "Claude Code's JSON result has no \"result\" text"))?;
    Ok(Answer {
        text: text.to_owned(),
        model: model_of(result).or_else(|| init_model.map(str::to_owned)),
        session_id: result["session_id"].as_str().map(str::to_owned),
    })
}

/// The model that answered: the `modelUsage` entry with the most output
/// tokens (Claude Code may also use a small model on the side), else `model`.
pub(crate) fn model_of(result: &Value) -> Option<String> {
    if let Some(usage) = result["modelUsage"].as_object() {
        let tokens = |v: &Value| v["outputTokens"].as_f64().unwrap_or(0.0);
        let mut best: Option<(&String, f64)> = None;
        for (name, v) in usage {
            let t = tokens(v);
            if best.is_none_or(|(_, b)| t > b) {
                best = Some((name, t));
            }
        }
        if let Some((name, _)) = best {
            return Some(name.clone());
        }
    }
    result["model"].as_str().map(str::to_owned)
}

/// What went wrong on the HTTP worker thread.
enum HttpFailure {
    TimedOut,
    Other(String),
}

/// The Messages API's URL and the body of a request for `prompt` (the
/// configured model is required: none is built in).
pub(crate) fn api_request(
    cfg: &ClaudeConfig,
    system: &str,
    prompt: &str,
    stream: bool,
) -> Result<(String, String)> {
    let model = cfg.model.as_deref().ok_or_else(|| {
        let at = cowriting_workspace::config::Config::path()
            .map(|p| format!(" in {}", p.display()))
            .unwrap_or_default();
        Error::BadInput(format!("the Messages API needs a model: set [claude] model{at}"))
    })?;
    let url = format!("{}/v1/messages", cfg.api_url.trim_end_matches('/'));
    let mut body = json!({
        "model": model,
        "max_tokens": cfg.max_tokens,
        "system": system,
        "messages": [{"role": "user", "content": prompt}],
    });
    if stream {
        body["stream"] = json!(true);
    }
    Ok((url, body.to_string()))
}

fn ask_api(cfg: &ClaudeConfig, key: &str, prompt: &str, cancel: &Cancel) -> Result<Answer> {
    let (url, body) = api_request(cfg, SYSTEM, prompt, false)?;
    let timeout = Duration::from_secs(cfg.timeout_secs);
    let timed_out = || Error::TimedOut {
        what: PRODUCER_ID.into(),
        secs: cfg.timeout_secs,
        limit: "waiting for the Messages API ([claude] timeout_secs)".into(),
    };
    let (tx, rx) = mpsc::channel();
    {
        let (url, key) = (url.clone(), key.to_owned());
        // Left to finish on its own when the turn is cancelled; its result is dropped.
        std::thread::spawn(move || {
            let _ = tx.send(post(&url, &key, body, timeout));
        });
    }
    let started = Instant::now();
    let got = loop {
        if cancel.is_cancelled() {
            return Err(cancelled());
        }
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(r) => break r,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if started.elapsed() >= timeout {
                    return Err(timed_out());
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(failed(PRODUCER_ID, "the HTTP request stopped without an answer"))
            }
        }
    };
    let (status, text) = match got {
        Ok(r) => r,
        Err(HttpFailure::TimedOut) => return Err(timed_out()),
        Err(HttpFailure::Other(e)) => {
            return Err(failed(
                PRODUCER_ID,
                format!("cannot reach the Messages API at {url}: {e}"),
            ))
        }
    };
    parse_api_response(cfg, status, &text)
}

fn post(
    url: &str,
    key: &str,
    body: String,
    timeout: Duration,
) -> std::result::Result<(u16, String), HttpFailure> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .build()
        .into();
    let fail = |e: ureq::Error| match e {
        ureq::Error::Timeout(_) => HttpFailure::TimedOut,
        ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::TimedOut => HttpFailure::TimedOut,
        e => HttpFailure::Other(e.to_string()),
    };
    let mut resp = agent
        .post(url)
        .header("x-api-key", key)
        .header("anthropic-version", ANTHROPIC_VERSION)
        .header("content-type", "application/json")
        .send(body)
        .map_err(fail)?;
    let status = resp.status().as_u16();
    let text = resp.body_mut().read_to_string().map_err(fail)?;
    Ok((status, text))
}

/// What a Messages API error said: ` (its type)` and its message's first
/// line (the body's, when it is not the API's error JSON; "no details" when empty).
pub(crate) fn api_error_parts(v: Option<&Value>, text: &str) -> (String, String) {
    let message = v
        .and_then(|v| v["error"]["message"].as_str())
        .map(|m| first_line(m.as_bytes()))
        .unwrap_or_else(|| first_line(text.as_bytes()));
    let kind = v
        .and_then(|v| v["error"]["type"].as_str())
        .map(|k| format!(" ({k})"))
        .unwrap_or_default();
    let message = if message.is_empty() {
        "no details".into()
    } else {
        message
    };
    (kind, message)
}

fn parse_api_response(cfg: &ClaudeConfig, status: u16, text: &str) -> Result<Answer> {
    let value: Option<Value> = serde_json::from_str(text).ok();
    let is_error = value.as_ref().is_some_and(|v| v["type"] == "error");
    if !(200..300).contains(&status) || is_error {
        let (kind, message) = api_error_parts(value.as_ref(), text);
        return Err(failed(
            PRODUCER_ID,
            format!("the Messages API answered HTTP {status}{kind}: {message}"),
        ));
    }
    let v = value.ok_or_else(|| {
        failed(
            PRODUCER_ID,
            format!(
                "the Messages API answered something that is not JSON: {}",
                first_line(text.as_bytes())
            ),
        )
    })?;
    if v["stop_reason"] == "max_tokens" {
        return Err(failed(
            PRODUCER_ID,
            format!(
                "Claude's answer was cut off at max_tokens ({}); nothing was filed: \
                 raise [claude] max_tokens or select less text",
                cfg.max_tokens
            ),
        ));
    }
    let blocks = v["content"]
        .as_array()
        .ok_or_else(|| failed(PRODUCER_ID, "the Messages API answer has no \"content\" list"))?;
    let text: String = blocks
        .iter()
        .filter(|b| b["type"] == "text")
        .filter_map(|b| b["text"].as_str())
        .collect();
    Ok(Answer {
        text,
        model: v["model"].as_str().map(str::to_owned),
        session_id: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_cuts() {
        assert_eq!(tail_chars("aé日🎉", 2), "日🎉");
        assert_eq!(tail_chars("aé", 5), "aé");
        assert_eq!(tail_chars("aé", 0), "");
        assert_eq!(head_chars("aé日🎉", 2), "aé");
        assert_eq!(head_chars("aé", 5), "aé");
    }

    #[test]
    fn regions_merge_across_spaces_not_paragraphs() {
        let r = regions("the quick brown fox", "a slow brown fox");
        assert_eq!(r, vec![(0, 9, "a slow".to_owned())]);
        let r = regions("one two\n\nthree four", "One two\n\nthree Four");
        assert_eq!(r, vec![(0, 3, "One".to_owned()), (15, 19, "Four".to_owned())]);
        // Pure insertion: an empty region.
        let r = regions("a b", "a new b");
        assert_eq!(r.len(), 1);
        let (s, e, ref t) = r[0];
        assert_eq!(s, e);
        assert_eq!(format!("{}{t}{}", &"a b"[..s], &"a b"[e..]), "a new b");
    }

    #[test]
    fn model_is_the_busiest_in_model_usage() {
        let v: Value = serde_json::from_str(
            r#"{"modelUsage":{"small":{"outputTokens":3},"big":{"outputTokens":90}},"model":"x"}"#,
        )
        .unwrap();
        assert_eq!(model_of(&v).as_deref(), Some("big"));
        let v: Value = serde_json::from_str(r#"{"model":"x"}"#).unwrap();
        assert_eq!(model_of(&v).as_deref(), Some("x"));
    }
}
