//! External producers: any command the user's config names
//! (`[external.<name>]`), speaking the suggestion contract on stdin/stdout.
//!
//! ## Protocol (version 1)
//!
//! The command is started directly (never through a shell) with the
//! configured `args`, and gets on **stdin** one JSON object
//! (`docs/schemas/external-request.schema.json`):
//!
//! ```json
//! {"schemaVersion": 1, "docId": "notes/a.md", "revision": "<git blob id>",
//!  "sha256": "<hex>", "text": "<the whole document>"}
//! ```
//!
//! It writes on **stdout** either a JSON array of contract suggestions
//! (`docs/schemas/suggestion.schema.json`) or an object
//! `{"suggestions": [...], "skipped": ["<one-line reason>", ...]}` (`skipped`
//! optional: findings it could not turn into suggestions, shown to the human).
//! Spans are half-open UTF-8 **byte** offsets into the exact document bytes;
//! `source` repeats the request's `docId`, `revision` and `sha256`; `id` is the
//! contract id (`sg_` + SHA-256 of the JCS id inputs). It exits 0; anything on
//! stderr is ignored unless it fails.
//!
//! Every record is checked with [`validate_suggestion`]. **Any** bad record —
//! output that is not JSON, a wrong shape or schema version, a span out of range
//! or inside a character, a `text` that is not the bytes at the span, another
//! document's `docId`/`revision`/`sha256`, an id that does not match its
//! content, a duplicate id — refuses the whole run with
//! [`Error::Producer`](cowriting_workspace::error::Error::Producer) naming the producer and the
//! field (`suggestions[2].span.end`): nothing of that run is filed. So is a
//! non-zero exit (with stderr's first line), a timeout (`timeout_secs`), more
//! output than `output_mib` and a cancel.

use std::collections::BTreeMap;
use std::process::Command;

use serde::Serialize;
use serde_json::Value;

use crate::process::{self, Limits};
use crate::{failed, first_line, Cancel, Request, Run};
use cowriting_core::contract::{sort_suggestions, validate_suggestion, Revision, Source, SCHEMA_VERSION};
use cowriting_core::model::type_name as kind;
use cowriting_workspace::config::ExternalConfig;
use cowriting_workspace::error::Result;

/// What an external producer gets on stdin.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExternalRequest<'a> {
    pub schema_version: u32,
    pub doc_id: &'a str,
    pub revision: String,
    pub sha256: String,
    pub text: &'a str,
}

impl<'a> ExternalRequest<'a> {
    /// The request for the document `req`.
    pub fn of(req: &'a Request<'_>) -> ExternalRequest<'a> {
        let source = Source::of(req.doc_id, req.bytes);
        ExternalRequest {
            schema_version: SCHEMA_VERSION,
            doc_id: req.doc_id,
            revision: source.revision,
            sha256: source.sha256,
            text: req.text(),
        }
    }
}

/// Run the external producer `name` (configured as `cfg`) on the document and
/// check its answer; see the module docs for the protocol.
pub fn run(name: &str, cfg: &ExternalConfig, req: &Request, cancel: &Cancel) -> Result<Run> {
    let input = serde_json::to_vec(&ExternalRequest::of(req)).expect("a request serializes");
    let mut cmd = Command::new(&cfg.command);
    cmd.args(&cfg.args);
    let out = process::run(name, cmd, &input, &Limits::external(name, cfg), cancel)?;
    if !out.status.success() {
        let how = match out.status.code() {
            Some(code) => format!("exited with status {code}"),
            None => format!("was killed ({})", out.status),
        };
        let line = first_line(&out.stderr);
        return Err(failed(
            name,
            if line.is_empty() {
                format!("{how}; nothing was filed")
            } else {
                format!("{how}: {line}; nothing was filed")
            },
        ));
    }
    from_output(name, &out.stdout, req)
}

/// Check an external producer's stdout against the document `req`; any bad
/// record refuses the whole run.
pub fn from_output(name: &str, stdout: &[u8], req: &Request) -> Result<Run> {
    from_value(name, parse_output(name, stdout)?, req)
}

/// A producer's stdout as JSON, or the refusal of the whole run.
pub fn parse_output(name: &str, stdout: &[u8]) -> Result<Value> {
    serde_json::from_slice(stdout).map_err(|e| {
        failed(
            name,
            format!(
                "output is not JSON (line {}, column {}: {e}); the whole run is refused",
                e.line(),
                e.column()
            ),
        )
    })
}

/// [`from_output`] of output already parsed.
pub fn from_value(name: &str, value: Value, req: &Request) -> Result<Run> {
    let refuse = |m: String| failed(name, format!("{m}; the whole run is refused"));
    let (records, skipped) = match value {
        Value::Array(list) => (list, Vec::new()),
        Value::Object(mut obj) => {
            if let Some(key) = obj.keys().find(|k| *k != "suggestions" && *k != "skipped") {
                return Err(refuse(format!(
                    "{key}: unknown key (expected \"suggestions\" and optionally \"skipped\")"
                )));
            }
            let records = match obj.remove("suggestions") {
                Some(Value::Array(list)) => list,
                Some(other) => {
                    return Err(refuse(format!(
                        "suggestions: expected an array, found {}",
                        kind(&other)
                    )))
                }
                None => return Err(refuse("suggestions: missing".into())),
            };
            let skipped = match obj.remove("skipped") {
                None => Vec::new(),
                Some(Value::Array(list)) => list
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| match v {
                        Value::String(s) => Ok(first_line(s.as_bytes())),
                        other => Err(refuse(format!(
                            "skipped[{i}]: expected a string, found {}",
                            kind(&other)
                        ))),
                    })
                    .collect::<Result<Vec<_>>>()?,
                Some(other) => {
                    return Err(refuse(format!(
                        "skipped: expected an array, found {}",
                        kind(&other)
                    )))
                }
            };
            (records, skipped)
        }
        other => {
            return Err(refuse(format!(
                "expected a JSON array of suggestions or {{\"suggestions\": [...]}}, found {}",
                kind(&other)
            )))
        }
    };
    let mut suggestions = Vec::with_capacity(records.len());
    let mut ids: BTreeMap<String, usize> = BTreeMap::new();
    let rev = Revision::of(req.bytes);
    for (i, v) in records.iter().enumerate() {
        let at = format!("suggestions[{i}]");
        let s = validate_suggestion(v, req.doc_id, &rev, &at).map_err(|e| refuse(e.to_string()))?;
        if let Some(first) = ids.insert(s.id.clone(), i) {
            return Err(refuse(format!("{at}.id: duplicates suggestions[{first}]")));
        }
        suggestions.push(s);
    }
    sort_suggestions(&mut suggestions);
    let producer = suggestions.first().map(|s| s.producer.clone()).filter(|p| {
        suggestions
            .iter()
            .all(|s| s.producer.id == p.id && s.producer.version == p.version)
    });
    Ok(Run {
        producer,
        suggestions,
        skipped,
    })
}
