//! Suggestion contract v1: how every producer (Claude, Harper, Vale, external
//! commands) reports a finding, and how a decision on it is kept.
//!
//! The shapes are fixed by `suggestion-contract-v1.md` (ADR 003):
//!
//! - a [`Suggestion`] is one local change on a half-open **UTF-8 byte** span of
//!   exact source bytes, identified by the SHA-256 of those bytes and their git
//!   blob id ([`Source`]);
//! - a [`ContractProposal`] is what a human decides on: an ordered list of member
//!   suggestion ids (one member for a suggestion shown alone);
//! - a [`Decision`] records `accepted` / `rejected` / `changed`.
//!
//! IDs are `sg_` / `pp_` + lowercase hex SHA-256 over the RFC 8785 (JCS)
//! canonical JSON of the documented fields, so the same input gives the same id
//! on every run, machine and language. Records sort by span start, span end,
//! producer id, then id ([`sort_suggestions`]).
//!
//! Staleness is never guessed ([`verify`]): the current bytes must hash to
//! `source.sha256` and hold `text` at `span`; otherwise it is a
//! [`ContractError::StaleSpan`]. A suggestion whose text is intact after an edit
//! is carried over only by an explicit [`migrate`]: new source, new span, new id,
//! `migratedFrom` naming the old one.
//!
//! Where the records live in a workspace is the business of the `cowriting` crate's `ledger`.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha1::Sha1;
use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::model::type_name as kind;
use crate::offset::{FileByteOffset, FileByteRange};

/// The contract's schema version; records with another are refused.
pub const SCHEMA_VERSION: u32 = 1;

/// Why a contract record was refused or cannot be applied.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ContractError {
    /// A record does not have the contract's shape; `field` is a JSON path.
    #[error("{field}: {problem}")]
    Invalid { field: String, problem: String },
    /// The bytes changed under a suggestion: never applied, never remapped.
    #[error("suggestion {id} is stale: {why}")]
    StaleSpan { id: String, why: String },
}

impl ContractError {
    fn invalid(field: impl Into<String>, problem: impl Into<String>) -> Self {
        ContractError::Invalid {
            field: field.into(),
            problem: problem.into(),
        }
    }
}

/// Who produced a suggestion: `provenance` is `rule:<Rule>` or `model:<model>`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Producer {
    pub id: String,
    pub version: String,
    pub provenance: String,
}

/// The exact bytes a suggestion was made on.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Source {
    /// Workspace-relative, `/`-separated document path.
    pub doc_id: String,
    /// Git blob id of the bytes (hashed without a repository).
    pub revision: String,
    /// Lowercase hex SHA-256 of the bytes.
    pub sha256: String,
}

impl Source {
    /// The source record of `bytes` (the exact file bytes, BOM included).
    pub fn of(doc_id: &str, bytes: &[u8]) -> Source {
        Revision::of(bytes).source(doc_id)
    }
}

/// File bytes with their hashes, computed once. Checking or carrying over many
/// suggestions against one revision takes one of these, so a save with N
/// pending suggestions hashes the document once, not N times.
#[derive(Clone, Debug)]
pub struct Revision<'a> {
    bytes: &'a [u8],
    sha256: String,
    blob: String,
}

impl<'a> Revision<'a> {
    /// Hash `bytes` (the exact file bytes, BOM included): SHA-256 and git blob id.
    pub fn of(bytes: &'a [u8]) -> Revision<'a> {
        Revision {
            bytes,
            sha256: sha256_hex(bytes),
            blob: git_blob_id(bytes),
        }
    }

    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Lowercase hex SHA-256 of the bytes.
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    /// The source record of these bytes as the document `doc_id`.
    pub fn source(&self, doc_id: &str) -> Source {
        Source {
            doc_id: doc_id.to_owned(),
            revision: self.blob.clone(),
            sha256: self.sha256.clone(),
        }
    }
}

/// The git blob id git would give `bytes` (`git hash-object`): the SHA-1 of
/// `blob <len>\0` and the bytes.
pub fn git_blob_id(bytes: &[u8]) -> String {
    let mut h = Sha1::new();
    h.update(format!("blob {}\0", bytes.len()));
    h.update(bytes);
    format!("{:x}", h.finalize())
}

/// Lowercase hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// One local change, as `suggestion-contract-v1.md` fixes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Suggestion {
    pub schema_version: u32,
    pub id: String,
    pub producer: Producer,
    pub source: Source,
    /// Half-open UTF-8 byte offsets into the source bytes (the file's: a BOM included).
    pub span: FileByteRange,
    /// The source text at `span`, exactly.
    pub text: String,
    pub replacement: String,
    pub category: String,
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    /// For a migrated suggestion, the id it was carried over from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migrated_from: Option<String>,
}

/// What a producer knows about one finding; [`Suggestion::new`] adds the rest.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub span: FileByteRange,
    pub replacement: String,
    pub category: String,
    pub reason: String,
    pub confidence: Option<f64>,
}

impl Suggestion {
    /// A suggestion on `bytes` (the exact source bytes, whose identity `source`
    /// is). Refused when the span is out of range or off a char boundary, or
    /// the replacement equals the text.
    pub fn new(
        producer: &Producer,
        source: &Source,
        bytes: &[u8],
        f: Finding,
    ) -> Result<Suggestion, ContractError> {
        let text = span_text(bytes, f.span, "span")?.to_owned();
        if text == f.replacement {
            return Err(ContractError::invalid(
                "replacement",
                format!("equals the text at the span ({text:?}); nothing to change"),
            ));
        }
        if let Some(c) = f.confidence {
            check_confidence(c, "confidence")?;
        }
        let mut s = Suggestion {
            schema_version: SCHEMA_VERSION,
            id: String::new(),
            producer: producer.clone(),
            source: source.clone(),
            span: f.span,
            text,
            replacement: f.replacement,
            category: f.category,
            reason: f.reason,
            confidence: f.confidence,
            migrated_from: None,
        };
        s.id = s.compute_id();
        Ok(s)
    }

    /// `sg_` + hex SHA-256 of the JCS encoding of the id inputs.
    pub fn compute_id(&self) -> String {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct IdInput<'a> {
            schema_version: u32,
            producer_id: &'a str,
            producer_version: &'a str,
            doc_id: &'a str,
            revision: &'a str,
            sha256: &'a str,
            start: usize,
            end: usize,
            category: &'a str,
            replacement: &'a str,
        }
        let input = IdInput {
            schema_version: self.schema_version,
            producer_id: &self.producer.id,
            producer_version: &self.producer.version,
            doc_id: &self.source.doc_id,
            revision: &self.source.revision,
            sha256: &self.source.sha256,
            start: self.span.start.0,
            end: self.span.end.0,
            category: &self.category,
            replacement: &self.replacement,
        };
        format!("sg_{}", jcs_sha256(&input))
    }
}

/// What the human decides on: member suggestions applied together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContractProposal {
    pub schema_version: u32,
    pub id: String,
    /// Member suggestion ids, in suggestion order.
    pub members: Vec<String>,
}

impl ContractProposal {
    /// The proposal of `members` (sorted with [`sort_suggestions`] first).
    pub fn of(members: &[Suggestion]) -> ContractProposal {
        let members: Vec<String> = members.iter().map(|s| s.id.clone()).collect();
        ContractProposal {
            schema_version: SCHEMA_VERSION,
            id: proposal_id(&members),
            members,
        }
    }
}

/// `pp_` + hex SHA-256 of JCS `{schemaVersion, members}`.
pub fn proposal_id(members: &[String]) -> String {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct IdInput<'a> {
        schema_version: u32,
        members: &'a [String],
    }
    format!(
        "pp_{}",
        jcs_sha256(&IdInput {
            schema_version: SCHEMA_VERSION,
            members
        })
    )
}

/// How a human decided a proposal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Accepted,
    Rejected,
    /// Accepted with the human's own replacement.
    Changed,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Accepted => "accepted",
            Outcome::Rejected => "rejected",
            Outcome::Changed => "changed",
        }
    }
}

/// A decision, as the contract fixes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Decision {
    pub schema_version: u32,
    pub proposal_id: String,
    pub outcome: Outcome,
    /// For `changed`: the replacement the human chose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen_replacement: Option<String>,
    pub decided_at: String,
    /// The deciding human's id: their e-mail, else their name (the user's settings,
    /// else git's `user.email` / `user.name`), else `$USER`.
    pub decided_by: String,
}

/// The contract's sort order: span start, span end, producer id, id.
pub fn sort_suggestions(list: &mut [Suggestion]) {
    list.sort_by(|a, b| {
        (a.span.start, a.span.end, &a.producer.id, &a.id).cmp(&(
            b.span.start,
            b.span.end,
            &b.producer.id,
            &b.id,
        ))
    });
}

/// Serialize suggestions as a JSON array in contract order, two-space indent,
/// one trailing newline: byte-identical for the same input.
pub fn to_json(list: &[Suggestion]) -> String {
    let mut sorted = list.to_vec();
    sort_suggestions(&mut sorted);
    let mut out = serde_json::to_string_pretty(&sorted).expect("suggestions serialize");
    out.push('\n');
    out
}

/// Before display or application: the bytes must be the source's bytes and
/// hold the suggestion's text at its span. Anything else is a stale span.
pub fn verify(s: &Suggestion, rev: &Revision) -> Result<(), ContractError> {
    let stale = |why: String| ContractError::StaleSpan {
        id: s.id.clone(),
        why,
    };
    let bytes = rev.bytes();
    if rev.sha256() != s.source.sha256 {
        return Err(stale(format!(
            "{} changed since it was made (sha256 {} is now {})",
            s.source.doc_id,
            short(&s.source.sha256),
            short(rev.sha256())
        )));
    }
    match bytes.get(s.span.start.0..s.span.end.0) {
        Some(b) if b == s.text.as_bytes() => Ok(()),
        Some(b) => Err(stale(format!(
            "bytes {} hold {:?}, not {:?}",
            s.span,
            String::from_utf8_lossy(b),
            s.text
        ))),
        None => Err(stale(format!(
            "span {} is past the end ({} bytes)",
            s.span,
            bytes.len()
        ))),
    }
}

fn short(hex: &str) -> &str {
    &hex[..hex.len().min(12)]
}

/// Carry `old` over to the revision `rev`, where its text now sits at `span`: a new
/// suggestion (new source, span and id) that names `old` as `migratedFrom`.
/// Refused — stale — when the text at `span` is not `old.text`.
pub fn migrate(
    old: &Suggestion,
    doc_id: &str,
    rev: &Revision,
    span: FileByteRange,
) -> Result<Suggestion, ContractError> {
    let here = rev.bytes().get(span.start.0..span.end.0);
    if here != Some(old.text.as_bytes()) {
        return Err(ContractError::StaleSpan {
            id: old.id.clone(),
            why: format!("its text {:?} is no longer at {span}", old.text),
        });
    }
    let mut s = old.clone();
    s.source = rev.source(doc_id);
    s.span = span;
    s.migrated_from = Some(old.migrated_from.clone().unwrap_or_else(|| old.id.clone()));
    s.id = s.compute_id();
    Ok(s)
}

/// The text of `span` in `bytes`, refusing spans out of range or off a char
/// boundary; `field` names the span in the error.
pub fn span_text<'a>(bytes: &'a [u8], span: FileByteRange, field: &str) -> Result<&'a str, ContractError> {
    let (start, end) = (span.start.0, span.end.0);
    if start > end {
        return Err(ContractError::invalid(
            field,
            format!("start {start} is after end {end}"),
        ));
    }
    if end > bytes.len() {
        return Err(ContractError::invalid(
            field,
            format!(
                "end {end} is past the end of the document ({} bytes)",
                bytes.len()
            ),
        ));
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|e| ContractError::invalid("source", format!("not UTF-8 at byte {}", e.valid_up_to())))?;
    for (name, at) in [("start", start), ("end", end)] {
        if !text.is_char_boundary(at) {
            return Err(ContractError::invalid(
                format!("{field}.{name}"),
                format!("byte {at} is inside a multi-byte character"),
            ));
        }
    }
    Ok(&text[start..end])
}

fn check_confidence(c: f64, field: &str) -> Result<(), ContractError> {
    if (0.0..=1.0).contains(&c) {
        Ok(())
    } else {
        Err(ContractError::invalid(field, format!("{c} is not in [0, 1]")))
    }
}

/// Validate one suggestion record from an untrusted producer against the
/// document it claims to be about (`doc_id` at `rev`): shape, schema version,
/// source identity, span, text and id. `at` prefixes field paths (`[3]`).
pub fn validate_suggestion(
    v: &Value,
    doc_id: &str,
    rev: &Revision,
    at: &str,
) -> Result<Suggestion, ContractError> {
    let bytes = rev.bytes();
    let field = |f: &str| format!("{at}.{f}");
    let obj = v
        .as_object()
        .ok_or_else(|| ContractError::invalid(at, format!("expected an object, found {}", kind(v))))?;
    for (key, want) in [
        ("schemaVersion", "a number"),
        ("id", "a string"),
        ("producer", "an object"),
        ("source", "an object"),
        ("span", "an object"),
        ("text", "a string"),
        ("replacement", "a string"),
        ("category", "a string"),
        ("reason", "a string"),
    ] {
        if !obj.contains_key(key) {
            return Err(ContractError::invalid(
                field(key),
                format!("missing (expected {want})"),
            ));
        }
    }
    if obj["schemaVersion"].as_u64() != Some(SCHEMA_VERSION as u64) {
        return Err(ContractError::invalid(
            field("schemaVersion"),
            format!("is {}, this build reads {SCHEMA_VERSION}", obj["schemaVersion"]),
        ));
    }
    for key in ["id", "text", "replacement", "category", "reason"] {
        if !obj[key].is_string() {
            return Err(ContractError::invalid(
                field(key),
                format!("expected a string, found {}", kind(&obj[key])),
            ));
        }
    }
    for (parent, keys) in [
        ("producer", &["id", "version", "provenance"][..]),
        ("source", &["docId", "revision", "sha256"][..]),
    ] {
        let o = obj[parent].as_object().ok_or_else(|| {
            ContractError::invalid(
                field(parent),
                format!("expected an object, found {}", kind(&obj[parent])),
            )
        })?;
        for k in keys {
            match o.get(*k) {
                Some(Value::String(_)) => {}
                Some(other) => {
                    return Err(ContractError::invalid(
                        format!("{at}.{parent}.{k}"),
                        format!("expected a string, found {}", kind(other)),
                    ))
                }
                None => {
                    return Err(ContractError::invalid(
                        format!("{at}.{parent}.{k}"),
                        "missing (expected a string)",
                    ))
                }
            }
        }
    }
    let span = obj["span"].as_object().ok_or_else(|| {
        ContractError::invalid(
            field("span"),
            format!("expected an object, found {}", kind(&obj["span"])),
        )
    })?;
    let mut ends = [0usize; 2];
    for (i, k) in ["start", "end"].iter().enumerate() {
        ends[i] = span.get(*k).and_then(Value::as_u64).ok_or_else(|| {
            ContractError::invalid(format!("{at}.span.{k}"), "missing or not a non-negative integer")
        })? as usize;
    }
    if let Some(c) = obj.get("confidence") {
        let c = c.as_f64().ok_or_else(|| {
            ContractError::invalid(
                field("confidence"),
                format!("expected a number, found {}", kind(c)),
            )
        })?;
        check_confidence(c, &field("confidence"))?;
    }
    let s: Suggestion =
        serde_json::from_value(v.clone()).map_err(|e| ContractError::invalid(at, e.to_string()))?;
    if s.source.doc_id != doc_id {
        return Err(ContractError::invalid(
            field("source.docId"),
            format!("is {:?}, the document is {doc_id:?}", s.source.doc_id),
        ));
    }
    let expect = rev.source(doc_id);
    if s.source.sha256 != expect.sha256 {
        return Err(ContractError::invalid(
            field("source.sha256"),
            format!("{} is not the document's ({})", s.source.sha256, expect.sha256),
        ));
    }
    if s.source.revision != expect.revision {
        return Err(ContractError::invalid(
            field("source.revision"),
            format!(
                "{} is not the document's git blob id ({})",
                s.source.revision, expect.revision
            ),
        ));
    }
    let actual = span_text(bytes, FileByteRange::new(ends[0], ends[1]), &field("span"))?;
    if actual != s.text {
        return Err(ContractError::invalid(
            field("text"),
            format!(
                "is {:?} but bytes {}..{} hold {actual:?}",
                s.text, ends[0], ends[1]
            ),
        ));
    }
    if s.text == s.replacement {
        return Err(ContractError::invalid(
            field("replacement"),
            "equals the text; nothing to change",
        ));
    }
    let id = s.compute_id();
    if s.id != id {
        return Err(ContractError::invalid(
            field("id"),
            format!("{} does not match its content (expected {id})", s.id),
        ));
    }
    Ok(s)
}

fn jcs_sha256<T: Serialize>(value: &T) -> String {
    let canonical = serde_json_canonicalizer::to_vec(value).expect("id inputs serialize");
    sha256_hex(&canonical)
}

/// A byte span from two offsets, for producers.
pub fn byte_span(start: usize, end: usize) -> FileByteRange {
    FileByteRange {
        start: FileByteOffset(start),
        end: FileByteOffset(end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn harper() -> Producer {
        Producer {
            id: "harper".into(),
            version: "1.2.3".into(),
            provenance: "rule:SpellCheck".into(),
        }
    }

    fn finding(start: usize, end: usize, replacement: &str) -> Finding {
        Finding {
            span: byte_span(start, end),
            replacement: replacement.into(),
            category: "spelling".into(),
            reason: "Did you mean …?".into(),
            confidence: None,
        }
    }

    #[test]
    fn blob_id_is_gits() {
        // `printf 'hello\n' | git hash-object --stdin`
        assert_eq!(
            git_blob_id(b"hello\n"),
            "ce013625030ba8dba906f756967f9e9ca394464a"
        );
        // `git hash-object /dev/null`
        assert_eq!(git_blob_id(b""), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn ids_are_stable_and_change_with_every_input() {
        let bytes = "Café teh end".as_bytes();
        let src = Source::of("a.md", bytes);
        let s = Suggestion::new(&harper(), &src, bytes, finding(6, 9, "the")).unwrap();
        assert_eq!(s.text, "teh");
        let again = Suggestion::new(&harper(), &src, bytes, finding(6, 9, "the")).unwrap();
        assert_eq!(s.id, again.id);
        assert!(s.id.starts_with("sg_") && s.id.len() == 3 + 64);
        let mut other = harper();
        other.version = "1.2.4".into();
        let variants = [
            Suggestion::new(&other, &src, bytes, finding(6, 9, "the")).unwrap(),
            Suggestion::new(&harper(), &src, bytes, finding(6, 9, "thee")).unwrap(),
            Suggestion::new(&harper(), &Source::of("b.md", bytes), bytes, finding(6, 9, "the")).unwrap(),
            Suggestion::new(&harper(), &src, bytes, finding(5, 9, "the")).unwrap(),
        ];
        for v in &variants {
            assert_ne!(v.id, s.id);
        }
        let mut cat = s.clone();
        cat.category = "grammar".into();
        assert_ne!(cat.compute_id(), s.id);
        // The reason is not an id input.
        let mut reason = s.clone();
        reason.reason = "other".into();
        assert_eq!(reason.compute_id(), s.id);
    }

    #[test]
    fn proposal_id_depends_on_member_order() {
        let a = proposal_id(&["sg_a".into(), "sg_b".into()]);
        let b = proposal_id(&["sg_b".into(), "sg_a".into()]);
        assert_ne!(a, b);
        assert!(a.starts_with("pp_"));
    }

    #[test]
    fn spans_off_char_boundaries_are_refused() {
        let bytes = "Café".as_bytes();
        let src = Source::of("a.md", bytes);
        let e = Suggestion::new(&harper(), &src, bytes, finding(0, 4, "x")).unwrap_err();
        assert!(
            e.to_string()
                .contains("span.end: byte 4 is inside a multi-byte character"),
            "{e}"
        );
        let e = Suggestion::new(&harper(), &src, bytes, finding(0, 9, "x")).unwrap_err();
        assert!(e.to_string().contains("past the end"), "{e}");
    }

    #[test]
    fn verify_and_migrate() {
        let bytes = b"one teh two";
        let s = Suggestion::new(&harper(), &Source::of("a.md", bytes), bytes, finding(4, 7, "the")).unwrap();
        verify(&s, &Revision::of(bytes)).unwrap();
        let edited = b"zero one teh two";
        let e = verify(&s, &Revision::of(edited)).unwrap_err();
        assert!(matches!(e, ContractError::StaleSpan { .. }));
        let m = migrate(&s, "a.md", &Revision::of(edited), byte_span(9, 12)).unwrap();
        assert_eq!(m.migrated_from.as_deref(), Some(s.id.as_str()));
        assert_ne!(m.id, s.id);
        verify(&m, &Revision::of(edited)).unwrap();
        assert!(migrate(&s, "a.md", &Revision::of(b"one ten two"), byte_span(4, 7)).is_err());
        // A second migration still names the original.
        let m2 = migrate(&m, "a.md", &Revision::of(b"-zero one teh two"), byte_span(10, 13)).unwrap();
        assert_eq!(m2.migrated_from.as_deref(), Some(s.id.as_str()));
    }

    #[test]
    fn validation_names_the_field() {
        let bytes = "a teh b".as_bytes();
        let s = Suggestion::new(&harper(), &Source::of("a.md", bytes), bytes, finding(2, 5, "the")).unwrap();
        let good = serde_json::to_value(&s).unwrap();
        assert_eq!(
            validate_suggestion(&good, "a.md", &Revision::of(bytes), "[0]").unwrap(),
            s
        );
        type Mutation = fn(&mut Value);
        let cases: Vec<(Mutation, &str)> = vec![
            (
                |v| v["text"] = "tah".into(),
                "[0].text: is \"tah\" but bytes 2..5 hold \"teh\"",
            ),
            (
                |v| v["span"]["end"] = 99.into(),
                "[0].span: end 99 is past the end",
            ),
            (|v| v["id"] = "sg_x".into(), "[0].id: sg_x does not match"),
            (|v| v["schemaVersion"] = 2.into(), "[0].schemaVersion: is 2"),
            (
                |v| v["producer"]["id"] = 3.into(),
                "[0].producer.id: expected a string",
            ),
            (|v| v["source"]["sha256"] = "00".into(), "[0].source.sha256"),
            (
                |v| v["confidence"] = 2.into(),
                "[0].confidence: 2 is not in [0, 1]",
            ),
            (
                |v| {
                    v.as_object_mut().unwrap().remove("category");
                },
                "[0].category: missing",
            ),
        ];
        for (mutate, want) in cases {
            let mut v = good.clone();
            mutate(&mut v);
            let e = validate_suggestion(&v, "a.md", &Revision::of(bytes), "[0]")
                .unwrap_err()
                .to_string();
            assert!(e.contains(want), "{e} should contain {want}");
        }
    }

    #[test]
    fn output_is_sorted_and_byte_stable() {
        let bytes = b"aa bb cc";
        let src = Source::of("a.md", bytes);
        let b = Suggestion::new(&harper(), &src, bytes, finding(3, 5, "BB")).unwrap();
        let a = Suggestion::new(&harper(), &src, bytes, finding(0, 2, "AA")).unwrap();
        let one = to_json(&[b.clone(), a.clone()]);
        let two = to_json(&[a.clone(), b.clone()]);
        assert_eq!(one, two);
        assert!(one.find(&a.id).unwrap() < one.find(&b.id).unwrap());
    }
}
