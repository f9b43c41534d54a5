//! The sidecar model, v1: the on-disk format shared with the VS Code cowriting
//! extension (`docs/sidecar-format.md`).
//!
//! Parsing goes through [`serde_json::Value`] (order-preserving, numbers kept as
//! written) so that every field this crate does not know — at any level — is kept
//! in [`Extra`] and written back after the known keys, in its original order.
//! [`serialize_artifact`] writes exactly what `JSON.stringify(x, null, 2) + "\n"`
//! writes in JavaScript for the same value (its own writer, `js::Writer`: key
//! order, escapes, and the strings a Rust `String` cannot hold — see `js`).
//! What the file said that the typed fields cannot hold — `null` optionals,
//! strings with unpaired surrogates — is kept beside each record ([`Extra`]).
//!
//! By concept: the records (`sidecar`), ids and the clock (`ids`), reading
//! (`parse`), writing (`write`) and what JavaScript does where Rust differs
//! (`js`); the declaration every record is made from is `record`. This file
//! holds what the typed fields cannot (`Extra`, `Kept`) and the errors.

use indexmap::IndexMap;
use serde_json::{Map, Value};
use std::fmt;
use std::time::SystemTime;
use thiserror::Error;

mod ids;
mod js;
mod parse;
pub(crate) mod record;
mod sidecar;
mod write;
pub use ids::*;
pub use parse::*;
use record::{open_enum, sidecar_record, Field, Record};
pub use sidecar::*;
pub use write::*;

/// The sidecar schema version this crate reads and writes.
pub const SCHEMA_VERSION: u64 = 1;

/// Fields a newer or different writer put on a record; kept and written back.
///
/// It also remembers, out of sight, what the file said that the typed fields
/// cannot hold (see [`Kept`]): a known optional field written as `null`, and a
/// string — of this record's fields or inside its unknown ones — that held an
/// unpaired UTF-16 surrogate. It dereferences to the map of unknown fields.
#[derive(Clone, Debug, Default)]
pub struct Extra {
    map: Map<String, Value>,
    kept: Option<Box<Kept>>,
}

impl Extra {
    pub fn new() -> Self {
        Extra::default()
    }

    /// Whether the file wrote known optional field `key` as `null` (read as
    /// absent; written back as `null` while the field stays absent).
    pub fn kept_null(&self, key: &str) -> bool {
        self.kept
            .as_ref()
            .is_some_and(|k| k.nulls.iter().any(|n| n == key))
    }

    pub(crate) fn keep_null(&mut self, key: &str) {
        let kept = self.kept.get_or_insert_with(Default::default);
        if !kept.nulls.iter().any(|n| n == key) {
            kept.nulls.push(key.to_owned());
        }
    }

    pub(crate) fn kept(&self) -> Option<&Kept> {
        self.kept.as_deref()
    }

    fn kept_mut(&mut self) -> &mut Kept {
        self.kept.get_or_insert_with(Default::default)
    }

    /// The unknown fields, without what was kept beside them.
    pub fn into_map(self) -> Map<String, Value> {
        self.map
    }
}

impl PartialEq for Extra {
    fn eq(&self, other: &Self) -> bool {
        let empty = Kept::default();
        self.map == other.map
            && self.kept.as_deref().unwrap_or(&empty) == other.kept.as_deref().unwrap_or(&empty)
    }
}

impl Eq for Extra {}

impl std::ops::Deref for Extra {
    type Target = Map<String, Value>;
    fn deref(&self) -> &Self::Target {
        &self.map
    }
}

impl std::ops::DerefMut for Extra {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.map
    }
}

impl From<Map<String, Value>> for Extra {
    fn from(map: Map<String, Value>) -> Self {
        Extra { map, kept: None }
    }
}

impl FromIterator<(String, Value)> for Extra {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Self {
        Extra::from(iter.into_iter().collect::<Map<String, Value>>())
    }
}

impl<'a> IntoIterator for &'a Extra {
    type Item = (&'a String, &'a Value);
    type IntoIter = serde_json::map::Iter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.map.iter()
    }
}

impl serde::Serialize for Extra {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.map.serialize(s)
    }
}

/// What a record's file said that its typed fields cannot hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    /// Known optional fields written as `null`.
    nulls: Vec<String>,
    /// Strings holding an unpaired surrogate, as JavaScript held them.
    strings: Vec<KeptString>,
}

/// A string that is not valid Unicode: a Rust `String` cannot hold an unpaired
/// surrogate, so the record's field (or the unknown value) holds its
/// document-facing form — each unpaired surrogate as U+FFFD, what Node's UTF-8
/// encoder writes for one — and this keeps the UTF-16 code units as written.
/// They are written back while the field still holds exactly `lossy`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct KeptString {
    /// Where: the field's key, then keys and indexes inside an unknown value.
    path: Vec<Seg>,
    /// The string is the key at the end of `path`, not a value.
    key: bool,
    lossy: String,
    units: Vec<u16>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Seg {
    Key(String),
    Index(usize),
}

/// A step of a path while writing (borrowed).
#[derive(Clone, Copy, Debug)]
pub(crate) enum SegRef<'a> {
    Key(&'a str),
    Index(usize),
}

fn path_is(stored: &[Seg], at: &[SegRef<'_>]) -> bool {
    stored.len() == at.len()
        && stored.iter().zip(at).all(|(s, a)| match (s, a) {
            (Seg::Key(s), SegRef::Key(a)) => s == a,
            (Seg::Index(s), SegRef::Index(a)) => s == a,
            _ => false,
        })
}

impl Kept {
    fn units_for(&self, at: &[SegRef<'_>], key: bool, current: &str) -> Option<&[u16]> {
        self.strings
            .iter()
            .find(|k| k.key == key && k.lossy == current && path_is(&k.path, at))
            .map(|k| k.units.as_slice())
    }

    fn has_strings(&self) -> bool {
        !self.strings.is_empty()
    }
}

/// A sidecar that does not have the v1 shape. `path` is a JSON path such as
/// `threads[2].comments[0].author.kind`.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ModelError {
    #[error("invalid JSON at line {line}, column {column}: {message}")]
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{path}: {message}")]
    Shape { path: String, message: String },
    /// `found` saturates: a version of 2^64 or more is `u64::MAX` (and said so).
    #[error(
        "schemaVersion {} is newer than this version of cowriting understands ({SCHEMA_VERSION})",
        newer_shown(*found)
    )]
    NewerSchema { found: u64 },
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"{
  "schemaVersion": 1,
  "docPath": "docs/x.md",
  "anchors": {
    "a_1": {
      "fingerprint": {
        "text": "old text",
        "before": "",
        "after": " — ünïcode 😀",
        "lineHint": 0
      }
    }
  },
  "threads": [],
  "attributions": [],
  "proposals": [
    {
      "id": "pr_1",
      "anchorId": "a_1",
      "replacement": "new \"text\"\n\ttab",
      "author": {
        "kind": "agent",
        "id": "claude",
        "agent": {
          "sdk": "@cline/sdk",
          "model": "sonnet",
          "sessionId": "s1"
        }
      },
      "createdAt": "2026-06-10T00:00:00.000Z",
      "turnId": "turn-1",
      "instruction": "tighten"
    }
  ]
}
"#;

    #[test]
    fn round_trips_byte_for_byte() {
        let a = parse_artifact(SAMPLE).unwrap();
        assert_eq!(a.proposals[0].instruction.as_deref(), Some("tighten"));
        assert_eq!(serialize_artifact(&a), SAMPLE);
    }

    #[test]
    fn fast_and_value_parsers_agree() {
        let text = SAMPLE.replace(
            "\"lineHint\": 0",
            "\"lineHint\": 0,\n        \"future\": [1e+21, {\"b\": 2}]",
        );
        assert_eq!(
            parse_artifact(&text).unwrap(),
            parse_artifact_via_value(&text).unwrap()
        );
        // A record the fast path refuses still gets the precise message.
        let bad = SAMPLE.replace("\"turnId\": \"turn-1\"", "\"turnId\": 7");
        assert_eq!(
            parse_artifact(&bad).unwrap_err().to_string(),
            "proposals[0].turnId: expected a string, found a number"
        );
    }

    #[test]
    fn null_optionals_read_as_absent_and_are_written_back() {
        let text = SAMPLE
            .replace("\"turnId\": \"turn-1\"", "\"turnId\": null")
            .replace("\"sessionId\": \"s1\"", "\"sessionId\": null");
        let mut a = parse_artifact(&text).unwrap();
        assert_eq!(a.proposals[0].turn_id, None);
        assert_eq!(a.proposals[0].author.agent.as_ref().unwrap().session_id, None);
        assert_eq!(serialize_artifact(&a), text);
        // A modified record keeps its null; a value set replaces it.
        a.proposals[0].replacement = "changed".into();
        let out = serialize_artifact(&a);
        assert!(out.contains("\"turnId\": null,\n      \"instruction\""), "{out}");
        a.proposals[0].turn_id = Some("turn-2".into());
        assert!(serialize_artifact(&a).contains("\"turnId\": \"turn-2\""));
        // The Value form (the merge driver's) keeps it too.
        let v = serde_json::to_value(parse_artifact(&text).unwrap()).unwrap();
        assert_eq!(v["proposals"][0]["turnId"], Value::Null);
        assert_eq!(to_js_json(&v), text);
    }

    #[test]
    fn marking_never_collides_with_real_text() {
        // Real U+10FFFF (literal and escaped), real stand-in range chars, and
        // lone surrogates side by side.
        let cases = [
            ("\u{10FFFF}", "\u{10FFFF}", None),
            ("\\udbff\\udfff", "\u{10FFFF}", None),
            ("\u{10F000}\u{10F800}", "\u{10F000}\u{10F800}", None),
            ("\\ud800", "\u{FFFD}", Some(vec![0xD800])),
            (
                "a\\uDC00\u{10FFFF}\u{10F000}",
                "a\u{FFFD}\u{10FFFF}\u{10F000}",
                Some(vec![0x61, 0xDC00, 0xDBFF, 0xDFFF, 0xDBFC, 0xDC00]),
            ),
            ("\\\\ud800", "\\ud800", None),
        ];
        for (json_inner, lossy, units) in cases {
            let json = format!("\"{json_inner}\"");
            let marked = js::mark(&json);
            let parsed: String = serde_json::from_str(&marked).unwrap();
            let got = js::unmark(&parsed).unwrap_or((parsed.clone(), None));
            assert_eq!(got, (lossy.to_owned(), units), "{json_inner}");
        }
    }

    #[test]
    fn integer_keys_go_first_as_in_javascript() {
        for (k, index) in [
            ("0", true),
            ("42", true),
            ("4294967294", true),
            ("042", false),
            ("-1", false),
            ("4294967295", false),
            ("1.5", false),
            ("", false),
            (" 1", false),
        ] {
            assert_eq!(js::array_index(k).is_some(), index, "{k}");
        }
        let v = serde_json::json!({"b": 1, "10": 2, "a": 3, "2": 4, "042": 5, "4294967295": 6});
        assert_eq!(
            to_js_json(&v),
            "{\n  \"2\": 4,\n  \"10\": 2,\n  \"b\": 1,\n  \"a\": 3,\n  \"042\": 5,\n  \"4294967295\": 6\n}\n"
        );
    }

    #[test]
    fn optional_fields_are_omitted_not_null() {
        let mut a = parse_artifact(SAMPLE).unwrap();
        a.proposals[0].turn_id = None;
        a.proposals[0].instruction = None;
        let s = serialize_artifact(&a);
        assert!(!s.contains("turnId"));
        assert!(!s.contains("instruction"));
        assert!(!s.contains("null"));
    }

    #[test]
    fn unknown_fields_survive_at_every_level_in_order() {
        let text = SAMPLE
            .replace(
                "\"docPath\": \"docs/x.md\",",
                "\"docPath\": \"docs/x.md\",\n  \"zeta\": 0.1,",
            )
            .replace(
                "\"lineHint\": 0",
                "\"lineHint\": 0,\n        \"future\": [1e+21, 5e-7, {\"b\": 2, \"a\": 1}]",
            )
            .replace(
                "\"instruction\": \"tighten\"",
                "\"instruction\": \"tighten\",\n      \"score\": 12345678901234567890123",
            );
        let a = parse_artifact(&text).unwrap();
        let back = serialize_artifact(&a);
        // Unknown keys go after the known ones; their values are written as read.
        assert!(back.contains("\"future\": [\n"));
        assert!(back.contains("1e+21,\n          5e-7,"), "{back}");
        assert!(back.ends_with("  ],\n  \"zeta\": 0.1\n}\n"), "{back}");
        assert!(back.contains("\"score\": 12345678901234567890123"));
        let reparsed = parse_artifact(&back).unwrap();
        assert_eq!(reparsed, a);
        assert_eq!(a.extra.keys().collect::<Vec<_>>(), vec!["zeta"]);
    }

    #[test]
    fn escapes_like_javascript() {
        let v = Value::String("q\" b\\ \u{1} \u{8}\u{c}\n\r\t \u{7f} é \u{2028}".to_owned());
        assert_eq!(
            to_js_json(&v),
            "\"q\\\" b\\\\ \\u0001 \\b\\f\\n\\r\\t \u{7f} é \u{2028}\"\n"
        );
        assert_eq!(
            to_js_json(&serde_json::json!({"a": [], "b": {}})),
            "{\n  \"a\": [],\n  \"b\": {}\n}\n"
        );
    }

    #[test]
    fn newer_schema_is_named() {
        let err = parse_artifact(r#"{"schemaVersion": 2, "whatever": true}"#).unwrap_err();
        assert_eq!(err, ModelError::NewerSchema { found: 2 });
        // Past u64: still newer, never "corrupt".
        for huge in ["18446744073709551616", "99999999999999999999999999999999"] {
            let err = parse_artifact(&format!(r#"{{"schemaVersion": {huge}, "docPath": 3}}"#)).unwrap_err();
            assert_eq!(err, ModelError::NewerSchema { found: u64::MAX }, "{huge}");
            assert!(
                err.to_string()
                    .starts_with("schemaVersion 18446744073709551615 or more is newer"),
                "{err}"
            );
        }
        let err = parse_artifact(r#"{"schemaVersion": 18446744073709551615}"#).unwrap_err();
        assert_eq!(err, ModelError::NewerSchema { found: u64::MAX });
        // Not whole numbers, negative, zero: malformed, not newer.
        for bad in ["1.5", "-3", "0", "2e400"] {
            let err = parse_artifact(&format!(r#"{{"schemaVersion": {bad}}}"#)).unwrap_err();
            assert!(
                matches!(err, ModelError::Shape { .. } | ModelError::Syntax { .. }),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn shape_errors_name_the_field() {
        let bad = SAMPLE.replace("\"kind\": \"agent\"", "\"kind\": 7");
        assert_eq!(
            parse_artifact(&bad).unwrap_err().to_string(),
            "proposals[0].author.kind: expected a string, found a number"
        );
        let bad = SAMPLE.replace("\"lineHint\": 0", "\"lineHint\": -1");
        assert_eq!(
            parse_artifact(&bad).unwrap_err().to_string(),
            "anchors.a_1.fingerprint.lineHint: expected a whole number ≥ 0, found -1"
        );
    }

    #[test]
    fn syntax_errors_have_line_and_column() {
        let err = parse_artifact("{\n  \"schemaVersion\": 1,\n  oops\n}").unwrap_err();
        match err {
            ModelError::Syntax { line, column, .. } => assert_eq!((line, column), (3, 3)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn prune_keeps_anchors_of_every_record_kind() {
        let mut a = parse_artifact(SAMPLE).unwrap();
        a.anchors.insert(
            "a_orphan".into(),
            Anchor {
                fingerprint: Fingerprint::default(),
                extra: Extra::new(),
            },
        );
        assert_eq!(a.prune_anchors(), 1);
        assert!(a.anchors.contains_key("a_1"));
        a.proposals.clear();
        assert_eq!(a.prune_anchors(), 1);
        assert!(a.anchors.is_empty());
    }

    #[test]
    fn ids_and_timestamps_have_the_documented_form() {
        let id = new_id("pr");
        assert!(id.starts_with("pr_") && id.len() == 23, "{id}");
        assert_ne!(new_id("pr"), new_id("pr"));
        let ts = now_iso();
        assert_eq!(ts.len(), 24, "{ts}");
        assert!(ts.ends_with('Z') && ts.as_bytes()[19] == b'.');
    }
}
