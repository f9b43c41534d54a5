//! The sidecar model, v1: the on-disk format shared with the VS Code cowriting
//! extension (`docs/sidecar-format.md`).
//!
//! Parsing goes through [`serde_json::Value`] (order-preserving, numbers kept as
//! written) so that every field this crate does not know — at any level — is kept
//! in [`Extra`] and written back after the known keys, in its original order.
//! [`serialize_artifact`] writes exactly what `JSON.stringify(x, null, 2) + "\n"`
//! writes in JavaScript for the same value.

use indexmap::IndexMap;
use serde_json::{Map, Value};
use std::fmt;
use std::time::SystemTime;
use thiserror::Error;

/// The sidecar schema version this crate reads and writes.
pub const SCHEMA_VERSION: u64 = 1;

/// Fields a newer or different writer put on a record; kept and written back.
pub type Extra = Map<String, Value>;

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

// ---- the records ------------------------------------------------------------------

/// The whole sidecar of one document.
#[derive(Clone, Debug, PartialEq)]
pub struct Artifact {
    pub schema_version: u64,
    pub doc_path: String,
    /// One shared map; threads, attributions and proposals point into it.
    pub anchors: IndexMap<String, Anchor>,
    pub threads: Vec<Thread>,
    pub attributions: Vec<Attribution>,
    pub proposals: Vec<Proposal>,
    pub extra: Extra,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Anchor {
    pub fingerprint: Fingerprint,
    pub extra: Extra,
}

/// What an anchor remembers of its text: the text itself and up to 32 chars of
/// context on each side, plus the 0-based line it started on.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Fingerprint {
    pub text: String,
    pub before: String,
    pub after: String,
    pub line_hint: usize,
    pub extra: Extra,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThreadStatus {
    Open,
    Resolved,
    /// A status written by another tool; kept as written.
    Other(String),
}

impl ThreadStatus {
    pub fn as_str(&self) -> &str {
        match self {
            ThreadStatus::Open => "open",
            ThreadStatus::Resolved => "resolved",
            ThreadStatus::Other(s) => s,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Thread {
    pub id: String,
    pub anchor_id: String,
    pub status: ThreadStatus,
    pub comments: Vec<Comment>,
    pub extra: Extra,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Comment {
    pub id: String,
    pub author: Provenance,
    /// Untrusted Markdown: render sanitized, never as live HTML.
    pub body: String,
    pub created_at: String,
    pub extra: Extra,
}

/// One contiguous span of text whose author is known.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribution {
    pub id: String,
    pub anchor_id: String,
    pub author: Provenance,
    pub created_at: String,
    pub turn_id: Option<String>,
    /// What the human asked for when this text was proposed (our addition; optional).
    pub instruction: Option<String>,
    pub extra: Extra,
}

/// A pending machine edit (pending-only: accept and reject remove it).
#[derive(Clone, Debug, PartialEq)]
pub struct Proposal {
    pub id: String,
    /// The anchor's `fingerprint.text` is the exact target text.
    pub anchor_id: String,
    pub replacement: String,
    pub author: Provenance,
    pub created_at: String,
    pub turn_id: Option<String>,
    pub instruction: Option<String>,
    pub extra: Extra,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AuthorKind {
    Agent,
    Human,
    Other(String),
}

impl AuthorKind {
    pub fn as_str(&self) -> &str {
        match self {
            AuthorKind::Agent => "agent",
            AuthorKind::Human => "human",
            AuthorKind::Other(s) => s,
        }
    }
}

/// Who wrote something: a human (by git identity) or an agent.
#[derive(Clone, Debug, PartialEq)]
pub struct Provenance {
    pub kind: AuthorKind,
    pub id: String,
    pub agent: Option<AgentInfo>,
    pub extra: Extra,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct AgentInfo {
    pub sdk: Option<String>,
    pub model: Option<String>,
    pub session_id: Option<String>,
    pub extra: Extra,
}

impl Provenance {
    pub fn human(id: impl Into<String>) -> Self {
        Provenance {
            kind: AuthorKind::Human,
            id: id.into(),
            agent: None,
            extra: Extra::new(),
        }
    }

    pub fn agent(id: impl Into<String>, info: AgentInfo) -> Self {
        Provenance {
            kind: AuthorKind::Agent,
            id: id.into(),
            agent: Some(info),
            extra: Extra::new(),
        }
    }

    pub fn is_agent(&self) -> bool {
        self.kind == AuthorKind::Agent
    }

    /// Two provenances name the same author when kind, id and agent model agree
    /// (session ids and unknown fields do not make a different author).
    pub fn same_author(&self, other: &Provenance) -> bool {
        self.kind == other.kind
            && self.id == other.id
            && self.agent.as_ref().and_then(|a| a.model.as_deref())
                == other.agent.as_ref().and_then(|a| a.model.as_deref())
    }
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.agent.as_ref().and_then(|a| a.model.as_deref()) {
            Some(model) => write!(f, "{} ({model})", self.id),
            None => f.write_str(&self.id),
        }
    }
}

impl Artifact {
    /// An empty v1 sidecar for `doc_path`.
    pub fn empty(doc_path: &str) -> Self {
        Artifact {
            schema_version: SCHEMA_VERSION,
            doc_path: doc_path.to_owned(),
            anchors: IndexMap::new(),
            threads: Vec::new(),
            attributions: Vec::new(),
            proposals: Vec::new(),
            extra: Extra::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.anchors.is_empty()
            && self.threads.is_empty()
            && self.attributions.is_empty()
            && self.proposals.is_empty()
            && self.extra.is_empty()
    }

    /// Every anchor id that some record references, in record order.
    pub fn referenced_anchor_ids(&self) -> impl Iterator<Item = &str> {
        self.threads
            .iter()
            .map(|t| t.anchor_id.as_str())
            .chain(self.attributions.iter().map(|a| a.anchor_id.as_str()))
            .chain(self.proposals.iter().map(|p| p.anchor_id.as_str()))
    }

    /// Remove anchors no thread, attribution or proposal references.
    /// Returns how many were removed.
    pub fn prune_anchors(&mut self) -> usize {
        let referenced: std::collections::HashSet<String> =
            self.referenced_anchor_ids().map(str::to_owned).collect();
        let before = self.anchors.len();
        self.anchors.retain(|id, _| referenced.contains(id));
        before - self.anchors.len()
    }

    pub fn proposal(&self, id: &str) -> Option<&Proposal> {
        self.proposals.iter().find(|p| p.id == id)
    }

    pub fn thread(&self, id: &str) -> Option<&Thread> {
        self.threads.iter().find(|t| t.id == id)
    }

    pub fn thread_mut(&mut self, id: &str) -> Option<&mut Thread> {
        self.threads.iter_mut().find(|t| t.id == id)
    }

    pub fn fingerprint(&self, anchor_id: &str) -> Option<&Fingerprint> {
        self.anchors.get(anchor_id).map(|a| &a.fingerprint)
    }
}

// ---- ids and timestamps ------------------------------------------------------------

/// A new turn id, `turn-<random>` (the shape the VS Code flow writes).
pub fn new_turn_id() -> String {
    new_id("turn").replacen('_', "-", 1)
}

/// A fresh opaque id: `<prefix>_<20 hex digits of randomness>`.
pub fn new_id(prefix: &str) -> String {
    let mut bytes = [0u8; 10];
    // The OS random source failing is not something a writer can act on; fall
    // back to the clock so an id is still unique in practice.
    if getrandom::fill(&mut bytes).is_err() {
        let nanos = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes.copy_from_slice(&nanos.to_le_bytes()[..10]);
    }
    let mut id = String::with_capacity(prefix.len() + 21);
    id.push_str(prefix);
    id.push('_');
    for b in bytes {
        id.push_str(&format!("{b:02x}"));
    }
    id
}

/// Now, as JavaScript's `toISOString()` writes it: `2026-06-10T00:00:00.000Z`.
pub fn now_iso() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

// ---- parsing -----------------------------------------------------------------------

/// Parse sidecar text. Checks `schemaVersion` first, so a newer file is reported
/// as such even when its shape has changed.
pub fn parse_artifact(text: &str) -> Result<Artifact, ModelError> {
    // Fast path: straight into the typed records.
    if let Ok(a) = serde_json::from_str::<Artifact>(&lone_surrogates::decode(text)) {
        if a.schema_version == SCHEMA_VERSION {
            return Ok(a);
        }
    }
    // Slow path, for anything the fast path refused: through `Value`, which names
    // the field at fault (and a newer schemaVersion before any shape problem).
    parse_artifact_via_value(text)
}

/// Parse through `Value` only (the reference the fast path is tested against).
pub fn parse_artifact_via_value(text: &str) -> Result<Artifact, ModelError> {
    let text = lone_surrogates::decode(text);
    let value: Value = serde_json::from_str(&text).map_err(|e| ModelError::Syntax {
        line: e.line(),
        column: e.column(),
        message: syntax_message(&e),
    })?;
    artifact_from_value(value)
}

fn syntax_message(e: &serde_json::Error) -> String {
    // serde_json appends " at line L column C"; we report those separately.
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_owned(),
        None => s,
    }
}

struct Ctx<'a> {
    path: &'a str,
}

fn shape(path: impl Into<String>, message: impl Into<String>) -> ModelError {
    ModelError::Shape {
        path: path.into(),
        message: message.into(),
    }
}

/// "a string", "an object", …: what a JSON value is, for error messages.
pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Ctx<'_> {
    fn at(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn object(&self, v: Value) -> Result<Map<String, Value>, ModelError> {
        match v {
            Value::Object(m) => Ok(m),
            other => Err(shape(
                self.path_or_root(),
                format!("expected an object, found {}", type_name(&other)),
            )),
        }
    }

    fn path_or_root(&self) -> String {
        if self.path.is_empty() {
            "(top level)".to_owned()
        } else {
            self.path.to_owned()
        }
    }
}

/// Splits an object into its known fields (by name) and the rest, keeping order.
struct Fields {
    path: String,
    known: Vec<(&'static str, Option<Value>)>,
    extra: Extra,
}

impl Fields {
    fn split(path: &str, map: Map<String, Value>, names: &[&'static str]) -> Self {
        let mut known: Vec<(&'static str, Option<Value>)> = names.iter().map(|n| (*n, None)).collect();
        let mut extra = Extra::new();
        for (k, v) in map {
            match known.iter_mut().find(|(n, _)| *n == k) {
                Some(slot) => slot.1 = Some(v),
                None => {
                    extra.insert(k, v);
                }
            }
        }
        Fields {
            path: path.to_owned(),
            known,
            extra,
        }
    }

    fn path(&self, key: &str) -> String {
        Ctx { path: &self.path }.at(key)
    }

    fn take(&mut self, key: &str) -> Option<Value> {
        self.known
            .iter_mut()
            .find(|(n, _)| *n == key)
            .and_then(|s| s.1.take())
    }

    fn req(&mut self, key: &str) -> Result<Value, ModelError> {
        self.take(key).ok_or_else(|| shape(self.path(key), "missing"))
    }

    fn string(&mut self, key: &str) -> Result<String, ModelError> {
        match self.req(key)? {
            Value::String(s) => Ok(s),
            other => Err(shape(
                self.path(key),
                format!("expected a string, found {}", type_name(&other)),
            )),
        }
    }

    fn opt_string(&mut self, key: &str) -> Result<Option<String>, ModelError> {
        match self.take(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(shape(
                self.path(key),
                format!("expected a string, found {}", type_name(&other)),
            )),
        }
    }

    fn uint(&mut self, key: &str) -> Result<u64, ModelError> {
        match self.req(key)? {
            Value::Number(n) => n
                .as_u64()
                .ok_or_else(|| shape(self.path(key), format!("expected a whole number ≥ 0, found {n}"))),
            other => Err(shape(
                self.path(key),
                format!("expected a number, found {}", type_name(&other)),
            )),
        }
    }

    fn array(&mut self, key: &str) -> Result<Vec<Value>, ModelError> {
        match self.take(key) {
            // A writer that predates a section (F2 before F3/F4) may omit it.
            None => Ok(Vec::new()),
            Some(Value::Array(a)) => Ok(a),
            Some(other) => Err(shape(
                self.path(key),
                format!("expected an array, found {}", type_name(&other)),
            )),
        }
    }
}

/// The version a `schemaVersion` number names when it is newer than ours: a
/// whole number above [`SCHEMA_VERSION`], saturated at `u64::MAX` when it does not
/// fit (with `arbitrary_precision` the number keeps its digits, e.g.
/// `18446744073709551616`, and `as_u64` says `None`). Not a whole number, or
/// not newer: `None` (the shape check names it).
pub fn newer_version(n: &serde_json::Number) -> Option<u64> {
    if let Some(v) = n.as_u64() {
        return (v > SCHEMA_VERSION).then_some(v);
    }
    let digits = n.to_string();
    let whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    // Only digits and not a u64: 2^64 or more.
    whole.then_some(u64::MAX)
}

fn newer_shown(found: u64) -> String {
    if found == u64::MAX {
        format!("{found} or more")
    } else {
        found.to_string()
    }
}

fn artifact_from_value(value: Value) -> Result<Artifact, ModelError> {
    let map = Ctx { path: "" }.object(value)?;
    // schemaVersion first: a newer file must be named as newer, not as malformed.
    if let Some(Value::Number(n)) = map.get("schemaVersion") {
        if let Some(v) = newer_version(n) {
            return Err(ModelError::NewerSchema { found: v });
        }
    }
    let mut f = Fields::split(
        "",
        map,
        &[
            "schemaVersion",
            "docPath",
            "anchors",
            "threads",
            "attributions",
            "proposals",
        ],
    );
    let schema_version = f.uint("schemaVersion")?;
    if schema_version != SCHEMA_VERSION {
        return Err(shape(
            "schemaVersion",
            format!("expected 1, found {schema_version}"),
        ));
    }
    let doc_path = f.string("docPath")?;
    let anchors_value = f.take("anchors").unwrap_or(Value::Object(Map::new()));
    let anchors_map = Ctx { path: "anchors" }.object(anchors_value)?;
    let mut anchors = IndexMap::with_capacity(anchors_map.len());
    for (id, v) in anchors_map {
        let path = format!("anchors.{id}");
        anchors.insert(id, anchor_from(&path, v)?);
    }
    let threads = indexed(&mut f, "threads", thread_from)?;
    let attributions = indexed(&mut f, "attributions", attribution_from)?;
    let proposals = indexed(&mut f, "proposals", proposal_from)?;
    Ok(Artifact {
        schema_version,
        doc_path,
        anchors,
        threads,
        attributions,
        proposals,
        extra: f.extra,
    })
}

fn indexed<T>(
    f: &mut Fields,
    key: &str,
    each: fn(&str, Value) -> Result<T, ModelError>,
) -> Result<Vec<T>, ModelError> {
    f.array(key)?
        .into_iter()
        .enumerate()
        .map(|(i, v)| each(&format!("{key}[{i}]"), v))
        .collect()
}

fn anchor_from(path: &str, v: Value) -> Result<Anchor, ModelError> {
    let mut f = Fields::split(path, Ctx { path }.object(v)?, &["fingerprint"]);
    let fp_path = f.path("fingerprint");
    let fingerprint = fingerprint_from(&fp_path, f.req("fingerprint")?)?;
    Ok(Anchor {
        fingerprint,
        extra: f.extra,
    })
}

fn fingerprint_from(path: &str, v: Value) -> Result<Fingerprint, ModelError> {
    let mut f = Fields::split(
        path,
        Ctx { path }.object(v)?,
        &["text", "before", "after", "lineHint"],
    );
    Ok(Fingerprint {
        text: f.string("text")?,
        before: f.string("before")?,
        after: f.string("after")?,
        line_hint: usize::try_from(f.uint("lineHint")?)
            .map_err(|_| shape(f.path("lineHint"), "too large"))?,
        extra: f.extra,
    })
}

fn thread_from(path: &str, v: Value) -> Result<Thread, ModelError> {
    let mut f = Fields::split(
        path,
        Ctx { path }.object(v)?,
        &["id", "anchorId", "status", "comments"],
    );
    let id = f.string("id")?;
    let anchor_id = f.string("anchorId")?;
    let status = match f.string("status")?.as_str() {
        "open" => ThreadStatus::Open,
        "resolved" => ThreadStatus::Resolved,
        other => ThreadStatus::Other(other.to_owned()),
    };
    let comments_path = f.path("comments");
    let comments = f
        .array("comments")?
        .into_iter()
        .enumerate()
        .map(|(i, v)| comment_from(&format!("{comments_path}[{i}]"), v))
        .collect::<Result<_, _>>()?;
    Ok(Thread {
        id,
        anchor_id,
        status,
        comments,
        extra: f.extra,
    })
}

fn comment_from(path: &str, v: Value) -> Result<Comment, ModelError> {
    let mut f = Fields::split(
        path,
        Ctx { path }.object(v)?,
        &["id", "author", "body", "createdAt"],
    );
    let id = f.string("id")?;
    let author_path = f.path("author");
    let author = provenance_from(&author_path, f.req("author")?)?;
    Ok(Comment {
        id,
        author,
        body: f.string("body")?,
        created_at: f.string("createdAt")?,
        extra: f.extra,
    })
}

fn attribution_from(path: &str, v: Value) -> Result<Attribution, ModelError> {
    let mut f = Fields::split(
        path,
        Ctx { path }.object(v)?,
        &["id", "anchorId", "author", "createdAt", "turnId", "instruction"],
    );
    let id = f.string("id")?;
    let anchor_id = f.string("anchorId")?;
    let author_path = f.path("author");
    let author = provenance_from(&author_path, f.req("author")?)?;
    Ok(Attribution {
        id,
        anchor_id,
        author,
        created_at: f.string("createdAt")?,
        turn_id: f.opt_string("turnId")?,
        instruction: f.opt_string("instruction")?,
        extra: f.extra,
    })
}

fn proposal_from(path: &str, v: Value) -> Result<Proposal, ModelError> {
    let mut f = Fields::split(
        path,
        Ctx { path }.object(v)?,
        &[
            "id",
            "anchorId",
            "replacement",
            "author",
            "createdAt",
            "turnId",
            "instruction",
        ],
    );
    let id = f.string("id")?;
    let anchor_id = f.string("anchorId")?;
    let replacement = f.string("replacement")?;
    let author_path = f.path("author");
    let author = provenance_from(&author_path, f.req("author")?)?;
    Ok(Proposal {
        id,
        anchor_id,
        replacement,
        author,
        created_at: f.string("createdAt")?,
        turn_id: f.opt_string("turnId")?,
        instruction: f.opt_string("instruction")?,
        extra: f.extra,
    })
}

fn provenance_from(path: &str, v: Value) -> Result<Provenance, ModelError> {
    let mut f = Fields::split(path, Ctx { path }.object(v)?, &["kind", "id", "agent"]);
    let kind = match f.string("kind")?.as_str() {
        "agent" => AuthorKind::Agent,
        "human" => AuthorKind::Human,
        other => AuthorKind::Other(other.to_owned()),
    };
    let id = f.string("id")?;
    let agent = match f.take("agent") {
        None => None,
        Some(v) => {
            let agent_path = f.path("agent");
            let mut a = Fields::split(
                &agent_path,
                Ctx { path: &agent_path }.object(v)?,
                &["sdk", "model", "sessionId"],
            );
            Some(AgentInfo {
                sdk: a.opt_string("sdk")?,
                model: a.opt_string("model")?,
                session_id: a.opt_string("sessionId")?,
                extra: a.extra,
            })
        }
    };
    Ok(Provenance {
        kind,
        id,
        agent,
        extra: f.extra,
    })
}

// ---- serializing -------------------------------------------------------------------

/// A provenance as JSON, in sidecar key order.
pub fn provenance_value(p: &Provenance) -> Value {
    serde_json::to_value(p).expect("a provenance serializes")
}

/// Exactly `JSON.stringify(value, null, 2) + "\n"`.
pub fn to_js_json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::with_capacity(4096);
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"  ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
    serde::Serialize::serialize(value, &mut ser).expect("serializing a Value to memory cannot fail");
    out.push(b'\n');
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// The sidecar text for `a`, byte-stable (see the module docs).
pub fn serialize_artifact(a: &Artifact) -> String {
    lone_surrogates::encode(to_js_json(a))
}

/// JavaScript strings are UTF-16 and may hold an unpaired surrogate, which
/// `JSON.stringify` writes as `\udXXX` — for instance when another writer cuts an
/// emoji in half while taking 32 units of context. A Rust string cannot hold one,
/// so on reading each unpaired surrogate escape becomes a char of the last 2,048
/// code points of plane 16 (private use, never typed in practice) and on writing
/// it becomes the same escape again: the file round-trips byte for byte, and such a
/// char simply matches no document text.
mod lone_surrogates {
    use std::borrow::Cow;

    const BASE: u32 = 0x10F800;

    fn hex4(b: &[u8]) -> Option<u32> {
        let s = std::str::from_utf8(b.get(..4)?).ok()?;
        u32::from_str_radix(s, 16).ok()
    }

    /// Replace unpaired `\udXXX` escapes in JSON text with their stand-in chars.
    pub fn decode(text: &str) -> Cow<'_, str> {
        if !(text.contains("\\ud") || text.contains("\\uD")) {
            return Cow::Borrowed(text);
        }
        let b = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        let mut copied = 0;
        while i < b.len() {
            if b[i] != b'\\' {
                i += 1;
                continue;
            }
            if b.get(i + 1) != Some(&b'u') {
                i += 2; // an escaped char, e.g. \\ or \"
                continue;
            }
            let Some(u) = hex4(&b[i + 2..]) else {
                i += 2;
                continue;
            };
            let paired_low = || {
                b.get(i + 6) == Some(&b'\\')
                    && b.get(i + 7) == Some(&b'u')
                    && hex4(&b[i + 8..]).is_some_and(|l| (0xDC00..0xE000).contains(&l))
            };
            if (0xD800..0xDC00).contains(&u) && paired_low() {
                i += 12;
            } else if (0xD800..0xE000).contains(&u) {
                out.push_str(&text[copied..i]);
                out.push(char::from_u32(BASE + (u - 0xD800)).expect("plane 16 is valid"));
                i += 6;
                copied = i;
            } else {
                i += 6;
            }
        }
        out.push_str(&text[copied..]);
        Cow::Owned(out)
    }

    /// Turn stand-in chars back into `\udXXX` escapes in serialized JSON.
    pub fn encode(json: String) -> String {
        // Every stand-in is encoded in UTF-8 as F4 8F [A0-BF] xx.
        if !json.as_bytes().windows(2).any(|w| w == [0xF4, 0x8F]) {
            return json;
        }
        let mut out = String::with_capacity(json.len());
        for c in json.chars() {
            let u = c as u32;
            if u >= BASE {
                out.push_str(&format!("\\u{:04x}", 0xD800 + (u - BASE)));
            } else {
                out.push(c);
            }
        }
        out
    }
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
        let bad = SAMPLE.replace("\"turnId\": \"turn-1\"", "\"turnId\": null");
        assert_eq!(
            parse_artifact(&bad).unwrap_err().to_string(),
            "proposals[0].turnId: expected a string, found null"
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
