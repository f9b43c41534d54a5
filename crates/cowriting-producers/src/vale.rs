//! Vale, when installed: `vale --output=JSON --ext=.<ext> <args…>` with the
//! document on stdin, its alerts turned into contract suggestions.
//!
//! What Vale prints (read from its `cmd/vale/json.go`, `internal/core/alert.go`
//! and `internal/lint/action.go`):
//!
//! - one object `{ "<path>": [Alert, …] }`, `{}` when clean; stdin is keyed
//!   `stdin.<ext>`;
//! - an alert's `Line` is 1-based and its `Span` is `[start, end]`, 1-based and
//!   end-inclusive, in Unicode code points from the start of that line — of the
//!   text *after* Vale turned `\r\n` and lone `\r` into `\n`, so lines here are
//!   counted the same way over the original bytes;
//! - for Markdown Vale lints converted text and re-finds `Match` in the source by
//!   search, so the (Line, Span) position is only a hint: the bytes there must be
//!   `Match`, else `Match` is searched on that line and the occurrence nearest the
//!   reported column is taken. Absent, or two equally near: the alert is
//!   **skipped** (reported, never applied) — a guess is never anchored;
//! - exit 0 (no error-level alerts) and 1 (some) are normal; 2 is a runtime
//!   error, described on stderr (as JSON `{"Code", "Text", …}` with
//!   `--output=JSON`).
//!
//! The replacement comes from the alert's `Action`, as Vale's own fixer
//! computes it: `replace` (first candidate), `remove` (""), `edit` (`regex`,
//! `trim`, `trim_left`, `trim_right`, `truncate`, `split`; the result trimmed of
//! white space), `convert` (`simple`, and `lower` / `upper` / `title`).
//! `suggest` needs Vale's configuration (its dictionaries or Tengo scripts), so
//! those alerts, alerts without an action and alerts whose replacement equals
//! the text are skipped with a reason.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde::Deserialize;

use crate::process::{self, Limits};
use crate::{failed, first_line, Cancel, Request, Run};
use cowriting_core::contract::{byte_span, sort_suggestions, Finding, Producer, Source, Suggestion};
use cowriting_workspace::config::ValeConfig;
use cowriting_workspace::error::Result;

/// The producer id of Vale suggestions.
pub const ID: &str = "vale";

/// How long `vale --version` may take before the version is "unknown".
const VERSION_TIMEOUT: Duration = Duration::from_secs(10);

/// Run Vale on the document (stdin, `--ext` from the doc id's extension, `.md`
/// when it has none) and convert its alerts. The version in the suggestions is
/// `vale --version`'s, or `"unknown"` when that does not answer.
pub fn run(cfg: &ValeConfig, req: &Request, cancel: &Cancel) -> Result<Run> {
    let ext = Path::new(req.doc_id)
        .extension()
        .and_then(|e| e.to_str())
        .filter(|e| !e.is_empty())
        .unwrap_or("md");
    let mut cmd = Command::new(&cfg.command);
    cmd.arg("--output=JSON")
        .arg(format!("--ext=.{ext}"))
        .args(&cfg.args);
    let out = process::run(ID, cmd, req.bytes, &Limits::vale(cfg), cancel)?;
    match out.status.code() {
        Some(0 | 1) => {}
        Some(2) => return Err(failed(ID, runtime_error(&out.stderr))),
        Some(code) => {
            return Err(failed(
                ID,
                format!("exited with status {code}: {}", first_line(&out.stderr)),
            ))
        }
        None => {
            return Err(failed(
                ID,
                format!("was killed ({}): {}", out.status, first_line(&out.stderr)),
            ))
        }
    }
    let version = version(cfg, cancel);
    from_output(&out.stdout, req, &version)
}

/// Vale's version (`vale version 3.15.1` → `3.15.1`), or `"unknown"`.
fn version(cfg: &ValeConfig, cancel: &Cancel) -> String {
    let mut cmd = Command::new(&cfg.command);
    cmd.arg("--version");
    let limits = Limits {
        run: VERSION_TIMEOUT.min(Duration::from_secs(cfg.timeout_secs.max(1))),
        ..Limits::vale(cfg)
    };
    match process::run(ID, cmd, b"", &limits, cancel) {
        Ok(out) if out.status.success() => {
            let line = first_line(&out.stdout);
            let v = line.strip_prefix("vale version").unwrap_or(&line).trim();
            if v.is_empty() || v.contains(char::is_whitespace) {
                "unknown".into()
            } else {
                v.to_owned()
            }
        }
        _ => "unknown".into(),
    }
}

/// The message of a Vale runtime error (exit 2), on one line: its JSON
/// `{Code, Text}` on stderr (`Text` is `"E100 [ctx] Runtime error\n\n<what>\n\n
/// Execution stopped with code 1."`, its paragraphs joined), else stderr's first line.
fn runtime_error(stderr: &[u8]) -> String {
    #[derive(Deserialize)]
    struct ValeError {
        #[serde(rename = "Code", default)]
        code: String,
        #[serde(rename = "Text", default)]
        text: String,
    }
    let detail = match serde_json::from_slice::<ValeError>(stderr) {
        Ok(e) if !e.text.trim().is_empty() => {
            let text = e
                .text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with("Execution stopped"))
                .collect::<Vec<_>>()
                .join(": ");
            let text = first_line(text.as_bytes());
            if e.code.is_empty() || text.starts_with(&e.code) {
                text
            } else {
                format!("{} {text}", e.code)
            }
        }
        _ => first_line(stderr),
    };
    if detail.is_empty() {
        "runtime error (exit 2), nothing on stderr".into()
    } else {
        format!("runtime error: {detail}")
    }
}

/// One Vale alert; unknown keys are ignored (Vale adds some over versions).
#[derive(Debug, Deserialize)]
struct Alert {
    #[serde(rename = "Action", default)]
    action: Action,
    #[serde(rename = "Span")]
    span: [usize; 2],
    #[serde(rename = "Check")]
    check: String,
    #[serde(rename = "Message", default)]
    message: String,
    #[serde(rename = "Match")]
    matched: String,
    #[serde(rename = "Line")]
    line: usize,
}

#[derive(Debug, Default, Deserialize)]
struct Action {
    #[serde(rename = "Name", default)]
    name: String,
    /// Go prints a nil slice as `null`.
    #[serde(rename = "Params", default)]
    params: Option<Vec<String>>,
}

/// Convert `vale --output=JSON` output (`json`) for the document `req` into
/// suggestions made by Vale `version` (`"unknown"` when not known).
///
/// Alerts that cannot be anchored exactly or have no known replacement go to
/// [`Run::skipped`], one line each. Output that is not Vale's JSON, or reports
/// on more than one file, is an error.
pub fn from_output(json: &[u8], req: &Request, version: &str) -> Result<Run> {
    let files: indexmap::IndexMap<String, Vec<Alert>> = serde_json::from_slice(json).map_err(|e| {
        failed(
            ID,
            format!(
                "output is not Vale's JSON (line {}, column {}: {e})",
                e.line(),
                e.column()
            ),
        )
    })?;
    if files.len() > 1 {
        let names: Vec<&str> = files.keys().map(String::as_str).collect();
        return Err(failed(
            ID,
            format!(
                "reported on {} files ({}), expected the one document",
                files.len(),
                names.join(", ")
            ),
        ));
    }
    let text = req.text();
    let lines = Lines::of(text);
    let source = Source::of(req.doc_id, req.bytes);
    let mut run = Run {
        producer: Some(producer(version, "rule:*")),
        ..Run::default()
    };
    let mut seen = BTreeSet::new();
    for alert in files.into_values().flatten() {
        let at = format!(
            "{ID} {} at {}:{} {:?}",
            alert.check, alert.line, alert.span[0], alert.matched
        );
        let span = match lines.anchor(text, &alert) {
            Ok(span) => span,
            Err(why) => {
                run.skipped.push(format!("{at}: {why}; not applied"));
                continue;
            }
        };
        let replacement = match replacement(&alert) {
            Ok(r) => r,
            Err(why) => {
                run.skipped.push(format!("{at}: {why}"));
                continue;
            }
        };
        if replacement == text[span.0..span.1] {
            run.skipped.push(format!(
                "{at}: the replacement equals the text; nothing to change"
            ));
            continue;
        }
        let finding = Finding {
            span: byte_span(span.0, span.1),
            replacement,
            category: category(&alert.check),
            reason: alert.message.clone(),
            confidence: None,
        };
        let p = producer(version, &format!("rule:{}", alert.check));
        match Suggestion::new(&p, &source, req.bytes, finding) {
            Ok(s) => {
                // Vale can report one finding twice (two rules, same fix): one id, one record.
                if seen.insert(s.id.clone()) {
                    run.suggestions.push(s);
                }
            }
            Err(e) => run.skipped.push(format!("{at}: {e}")),
        }
    }
    sort_suggestions(&mut run.suggestions);
    Ok(run)
}

fn producer(version: &str, provenance: &str) -> Producer {
    Producer {
        id: ID.into(),
        version: version.into(),
        provenance: provenance.into(),
    }
}

/// `Vale.Spelling` → `spelling`, `write-good.Weasel` → `weasel`: the rule's
/// name, lower-cased.
fn category(check: &str) -> String {
    check
        .rsplit('.')
        .next()
        .filter(|r| !r.is_empty())
        .unwrap_or(check)
        .to_lowercase()
}

/// Line starts and ends (before the break) of the original text, with `\r\n`,
/// lone `\r` and `\n` each one break — as Vale counts after normalizing.
struct Lines(Vec<(usize, usize)>);

impl Lines {
    fn of(text: &str) -> Lines {
        let b = text.as_bytes();
        let mut lines = Vec::new();
        let mut start = 0;
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'\n' => {
                    lines.push((start, i));
                    i += 1;
                    start = i;
                }
                b'\r' => {
                    lines.push((start, i));
                    i += if b.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
                    start = i;
                }
                _ => i += 1,
            }
        }
        lines.push((start, b.len()));
        Lines(lines)
    }

    /// The byte range of the alert's `Match`: at its (Line, Span) when the
    /// bytes there are `Match`, else the unique nearest occurrence on the line.
    fn anchor(&self, text: &str, a: &Alert) -> std::result::Result<(usize, usize), String> {
        if a.matched.is_empty() {
            return Err("the alert has an empty Match".into());
        }
        let &(ls, le) = a
            .line
            .checked_sub(1)
            .and_then(|i| self.0.get(i))
            .ok_or_else(|| format!("line {} is past the end ({} lines)", a.line, self.0.len()))?;
        let line = &text[ls..le];
        let col = a.span[0].saturating_sub(1);
        // Where Span's start column is, in bytes (None past the line's end).
        let expected = line
            .char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(line.len()))
            .nth(col);
        if let Some(at) = expected {
            if text[ls + at..].starts_with(&a.matched) {
                return Ok((ls + at, ls + at + a.matched.len()));
            }
        }
        // Every occurrence on the line, overlapping ones included, by char column.
        let mut hits: Vec<(usize, usize)> = Vec::new();
        let mut from = 0;
        while let Some(found) = line[from..].find(&a.matched) {
            let at = from + found;
            hits.push((at, line[..at].chars().count()));
            from = at + line[at..].chars().next().map_or(1, char::len_utf8);
        }
        let distance = |c: usize| c.abs_diff(col);
        let best = hits.iter().map(|&(_, c)| distance(c)).min();
        let nearest: Vec<usize> = hits
            .iter()
            .filter(|&&(_, c)| Some(distance(c)) == best)
            .map(|&(at, _)| at)
            .collect();
        match nearest.as_slice() {
            [at] => Ok((ls + at, ls + at + a.matched.len())),
            [] => Err(format!("{:?} is not on line {}", a.matched, a.line)),
            many => Err(format!(
                "{:?} occurs {} times on line {} equally near column {}",
                a.matched,
                many.len(),
                a.line,
                a.span[0]
            )),
        }
    }
}

/// The replacement Vale's own fixer would compute for the alert's action.
fn replacement(a: &Alert) -> std::result::Result<String, String> {
    let params = a.action.params.as_deref().unwrap_or(&[]);
    let m = a.matched.as_str();
    let bad = |what: &str| Err(format!("action {:?} {what}; no replacement", a.action.name));
    match a.action.name.as_str() {
        "replace" => match params.first() {
            Some(first) => Ok(first.clone()),
            None => bad("has no candidates"),
        },
        "remove" => Ok(String::new()),
        "edit" => edit(m, params).map_err(|why| format!("action \"edit\" {why}; no replacement")),
        "convert" => match params.first().map(String::as_str) {
            Some("simple") => Ok(simple_case(m)),
            Some("lower") => Ok(m.to_lowercase()),
            Some("upper") => Ok(m.to_uppercase()),
            Some("title") => Ok(title_case(m)),
            Some(other) => bad(&format!("converts to {other:?}, which is not known here")),
            None => bad("has no parameters"),
        },
        "suggest" => bad(&format!(
            "needs Vale's configuration ({})",
            params.first().map_or("no parameters", String::as_str)
        )),
        "" => Err("the rule has no action; no replacement known".into()),
        other => Err(format!("unknown action {other:?}; no replacement known")),
    }
}

/// Vale's `edit` action on `m`; the result is trimmed of white space, as Vale does.
fn edit(m: &str, params: &[String]) -> std::result::Result<String, String> {
    let p = |i: usize| params.get(i).map(String::as_str);
    let want = |n: usize| -> std::result::Result<(), String> {
        if params.len() == n {
            Ok(())
        } else {
            Err(format!(
                "{:?} takes {} parameters, has {}",
                params[0],
                n - 1,
                params.len() - 1
            ))
        }
    };
    let out = match p(0) {
        None => return Err("has no parameters".into()),
        Some("regex") => {
            want(3)?;
            let re = regex::Regex::new(&params[1])
                .map_err(|e| format!("has a bad pattern ({})", first_line(e.to_string().as_bytes())))?;
            re.replace_all(m, params[2].as_str()).into_owned()
        }
        Some("trim_right") => {
            want(2)?;
            m.trim_end_matches(|c| params[1].contains(c)).to_owned()
        }
        Some("trim_left") => {
            want(2)?;
            m.trim_start_matches(|c| params[1].contains(c)).to_owned()
        }
        Some("trim") => {
            want(2)?;
            m.trim_matches(|c| params[1].contains(c)).to_owned()
        }
        Some("truncate") => {
            want(2)?;
            split_on(m, &params[1]).next().unwrap_or(m).to_owned()
        }
        Some("split") => {
            // Vale takes ["split", sep, index]; a missing index is the first part.
            if !(2..=3).contains(&params.len()) {
                return Err(format!(
                    "\"split\" takes 1 or 2 parameters, has {}",
                    params.len() - 1
                ));
            }
            let index = match p(2) {
                Some(i) => i
                    .parse::<usize>()
                    .map_err(|_| format!("has a bad split index {i:?}"))?,
                None => 0,
            };
            match split_on(m, &params[1]).nth(index) {
                Some(part) => part.to_owned(),
                None => return Err(format!("split index {index} is out of range")),
            }
        }
        Some(other) => return Err(format!("operation {other:?} is not known")),
    };
    Ok(out.trim().to_owned())
}

/// Go's `strings.Split`: an empty separator splits into chars.
fn split_on<'a>(s: &'a str, sep: &'a str) -> Box<dyn Iterator<Item = &'a str> + 'a> {
    if sep.is_empty() {
        Box::new(s.char_indices().map(move |(i, c)| &s[i..i + c.len_utf8()]))
    } else {
        Box::new(s.split(sep))
    }
}

/// Vale's `convert`/`simple` (twine `strcase.Simple`): lower case, words split
/// at non-alphanumerics and lower→upper steps, joined by single spaces.
fn simple_case(s: &str) -> String {
    let mut out = String::new();
    let mut prev = ' ';
    for c in s.chars() {
        let alnum = c.is_alphanumeric();
        if (prev.is_lowercase() && c.is_uppercase()) || !alnum {
            out.push(' ');
        }
        if alnum || c == ' ' {
            out.extend(c.to_lowercase());
        }
        prev = c;
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Each white-space separated word with its first letter upper-cased.
fn title_case(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut at_word_start = true;
    for c in s.chars() {
        if at_word_start && c.is_alphabetic() {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
        at_word_start = c.is_whitespace();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alert(line: usize, span: [usize; 2], m: &str) -> Alert {
        Alert {
            action: Action::default(),
            span,
            check: "Test.Rule".into(),
            message: String::new(),
            matched: m.into(),
            line,
        }
    }

    #[test]
    fn lines_treat_crlf_and_cr_as_one_break() {
        let t = "a\r\nb\rc\nd";
        let l = Lines::of(t);
        assert_eq!(l.0, vec![(0, 1), (3, 4), (5, 6), (7, 8)]);
        assert_eq!(l.anchor(t, &alert(3, [1, 1], "c")), Ok((5, 6)));
        assert_eq!(l.anchor(t, &alert(4, [1, 1], "d")), Ok((7, 8)));
        assert!(l.anchor(t, &alert(5, [1, 1], "d")).is_err());
    }

    #[test]
    fn nearest_occurrence_wins_ties_are_refused() {
        let t = "ab x ab x ab";
        let l = Lines::of(t);
        // "ab" sits at columns 1, 6 and 11. Reported at column 4: 6 is nearest.
        assert_eq!(l.anchor(t, &alert(1, [4, 5], "ab")), Ok((5, 7)));
        // Reported at column 3: 1 is nearest.
        assert_eq!(l.anchor(t, &alert(1, [3, 4], "ab")), Ok((0, 2)));
        // "x" at columns 1 and 3, reported at 2: a tie is refused, not guessed.
        let t2 = "x.x";
        let l2 = Lines::of(t2);
        let e = l2.anchor(t2, &alert(1, [2, 2], "x")).unwrap_err();
        assert!(e.contains("occurs 2 times"), "{e}");
    }

    #[test]
    fn edits_follow_vale() {
        let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(edit("The the", &p(&["truncate", " "])).unwrap(), "The");
        assert_eq!(edit("end.?!", &p(&["trim_right", ".?!"])).unwrap(), "end");
        assert_eq!(edit("  x", &p(&["trim_left", " "])).unwrap(), "x");
        assert_eq!(edit("--x--", &p(&["trim", "-"])).unwrap(), "x");
        assert_eq!(edit("a-b-c", &p(&["split", "-", "1"])).unwrap(), "b");
        assert_eq!(edit("a-b-c", &p(&["split", "-"])).unwrap(), "a");
        assert!(edit("a-b", &p(&["split", "-", "5"])).is_err());
        assert_eq!(
            edit("FooBar", &p(&["regex", "([A-Z]\\w+)([A-Z]\\w+)", "$1-$2"])).unwrap(),
            "Foo-Bar"
        );
        assert!(edit("x", &p(&["regex", "(", "y"])).is_err());
        assert!(edit("x", &p(&["frobnicate", "y"])).is_err());
        assert_eq!(simple_case("FooBar_baz"), "foo bar baz");
        assert_eq!(title_case("élan vital"), "Élan Vital");
        assert_eq!(category("Vale.Spelling"), "spelling");
        assert_eq!(category("write-good.Weasel"), "weasel");
    }

    #[test]
    fn runtime_errors_read_vales_json() {
        let e100 = br#"{
  "Code": "E100",
  "Text": "E100 [--config] Runtime error\n\npath 'x.ini' does not exist\n\nExecution stopped with code 1."
}"#;
        assert_eq!(
            runtime_error(e100),
            "runtime error: E100 [--config] Runtime error: path 'x.ini' does not exist"
        );
        let e201 = br#"{"Line": 3, "Path": "a.yml", "Text": "bad token", "Code": "E201", "Span": 2}"#;
        assert_eq!(runtime_error(e201), "runtime error: E201 bad token");
        assert_eq!(runtime_error(b"boom\nmore"), "runtime error: boom");
        assert_eq!(runtime_error(b""), "runtime error (exit 2), nothing on stderr");
    }
}
