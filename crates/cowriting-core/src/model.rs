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

use indexmap::IndexMap;
use serde_json::{Map, Value};
use std::fmt;
use std::time::SystemTime;
use thiserror::Error;

pub(crate) mod record;
use record::{open_enum, sidecar_record, Field, Record};

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

sidecar_record! {
    /// A shared record of the `anchors` map: what ties a thread, an attribution
    /// or a proposal to text.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Anchor("an anchor") {
        pub fingerprint: Fingerprint = "fingerprint",
    }
}

impl Anchor {
    /// Take `fp` as this anchor's fingerprint (a thread re-fingerprinted where
    /// its text is now), keeping the unknown fields the old one had.
    pub fn refingerprint(&mut self, mut fp: Fingerprint) {
        fp.extra = std::mem::take(&mut self.fingerprint.extra);
        self.fingerprint = fp;
    }
}

sidecar_record! {
    /// What an anchor remembers of its text: the text itself and up to 32 chars of
    /// context on each side, plus the 0-based line it started on.
    #[derive(Clone, Debug, PartialEq, Eq, Default)]
    pub struct Fingerprint("a fingerprint") {
        pub text: String = "text",
        pub before: String = "before",
        pub after: String = "after",
        pub line_hint: usize = "lineHint",
    }
}

open_enum! {
    /// A thread's `status`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum ThreadStatus("`open`, `resolved`, or another status a different tool wrote") {
        Open = "open",
        Resolved = "resolved",
    }
}

sidecar_record! {
    /// A comment thread anchored to text.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Thread("a thread") {
        pub id: String = "id",
        pub anchor_id: String = "anchorId",
        pub status: ThreadStatus = "status",
        pub comments: Vec<Comment> = "comments",
    }
}

impl Thread {
    /// The field a thread detached from its text carries (`"detached": true`):
    /// our own (the seeds leave threads' other fields to the writer), kept by
    /// every writer that keeps unknown fields.
    pub const DETACHED: &'static str = "detached";

    /// Whether a writer detached this thread from its text: it is listed with
    /// the orphaned threads and never resolved again.
    pub fn detached(&self) -> bool {
        self.extra.get(Self::DETACHED) == Some(&Value::Bool(true))
    }

    pub fn set_detached(&mut self, detached: bool) {
        if detached {
            self.extra.insert(Self::DETACHED.to_owned(), Value::Bool(true));
        } else {
            self.extra.shift_remove(Self::DETACHED);
        }
    }
}

sidecar_record! {
    /// A comment of a thread.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Comment("a comment") {
        pub id: String = "id",
        pub author: Provenance = "author",
        /// Untrusted Markdown: render sanitized, never as live HTML.
        pub body: String = "body",
        pub created_at: String = "createdAt",
    }
}

sidecar_record! {
    /// One contiguous span of text whose author is known.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Attribution("an attribution") {
        pub id: String = "id",
        pub anchor_id: String = "anchorId",
        pub author: Provenance = "author",
        pub created_at: String = "createdAt",
        pub turn_id: Option<String> = "turnId",
        /// What the human asked for when this text was proposed (our addition; optional).
        pub instruction: Option<String> = "instruction",
    }
}

sidecar_record! {
    /// A pending machine edit (pending-only: accept and reject remove it).
    #[derive(Clone, Debug, PartialEq)]
    pub struct Proposal("a proposal") {
        pub id: String = "id",
        /// The anchor's `fingerprint.text` is the exact target text.
        pub anchor_id: String = "anchorId",
        pub replacement: String = "replacement",
        pub author: Provenance = "author",
        pub created_at: String = "createdAt",
        pub turn_id: Option<String> = "turnId",
        pub instruction: Option<String> = "instruction",
    }
}

open_enum! {
    /// An author's `kind`.
    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    pub enum AuthorKind("`agent`, `human`, or another kind a different tool wrote") {
        Agent = "agent",
        Human = "human",
    }
}

sidecar_record! {
    /// Who wrote something: a human (by e-mail or name: the settings', else git's) or an agent.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Provenance("an author") {
        pub kind: AuthorKind = "kind",
        pub id: String = "id",
        /// The name to show beside the id (a writer's "Ada Marsh" beside
        /// "ada@example.com"); optional, kept by the VS Code flow.
        pub name: Option<String> = "name",
        pub agent: Option<AgentInfo> = "agent",
    }
}

sidecar_record! {
    /// What an agent author names of itself.
    #[derive(Clone, Debug, PartialEq, Default)]
    pub struct AgentInfo("agent info") {
        pub sdk: Option<String> = "sdk",
        pub model: Option<String> = "model",
        pub session_id: Option<String> = "sessionId",
    }
}

impl Provenance {
    pub fn human(id: impl Into<String>) -> Self {
        Provenance {
            kind: AuthorKind::Human,
            id: id.into(),
            name: None,
            agent: None,
            extra: Extra::new(),
        }
    }

    /// The same author with `name` to show beside the id (none when it is
    /// empty or the id itself).
    pub fn with_name(mut self, name: Option<&str>) -> Self {
        self.name = name
            .map(str::trim)
            .filter(|n| !n.is_empty() && *n != self.id)
            .map(str::to_owned);
        self
    }

    pub fn agent(id: impl Into<String>, info: AgentInfo) -> Self {
        Provenance {
            kind: AuthorKind::Agent,
            id: id.into(),
            name: None,
            agent: Some(info),
            extra: Extra::new(),
        }
    }

    pub fn is_agent(&self) -> bool {
        self.kind == AuthorKind::Agent
    }

    /// Two provenances name the same author when kind, id and agent model agree
    /// (a name, session ids and unknown fields do not make a different author; an empty
    /// model, what writers put when they do not know it, is no model).
    pub fn same_author(&self, other: &Provenance) -> bool {
        self.kind == other.kind && self.id == other.id && self.model() == other.model()
    }

    /// The agent's model, when one is named (an empty one is not).
    pub fn model(&self) -> Option<&str> {
        self.agent
            .as_ref()
            .and_then(|a| a.model.as_deref())
            .filter(|m| !m.is_empty())
    }
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.model() {
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
    // Fast path: straight into the typed records. It holds only what a typed
    // field can: a text with surrogate escapes (or U+10FFFF, the marker the
    // slow path uses) and a file with `null` optionals go the slow way.
    if !js::needs_marking(text) {
        if let Ok(a) = serde_json::from_str::<Artifact>(text) {
            if a.schema_version == SCHEMA_VERSION {
                return Ok(a);
            }
        }
    }
    // Slow path, for anything the fast path refused: through `Value`, which names
    // the field at fault (and a newer schemaVersion before any shape problem).
    parse_artifact_via_value(text)
}

/// Parse through `Value` only (the reference the fast path is tested against).
pub fn parse_artifact_via_value(text: &str) -> Result<Artifact, ModelError> {
    let text = js::mark(text);
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

pub(crate) struct Ctx<'a> {
    path: &'a str,
}

fn shape(path: impl Into<String>, message: impl Into<String>) -> ModelError {
    ModelError::Shape {
        path: path.into(),
        message: message.into(),
    }
}

/// "a string", "an object", …: what a JSON value is, for error messages.
pub fn type_name(v: &Value) -> &'static str {
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
pub(crate) struct Fields {
    path: String,
    known: Vec<(&'static str, Option<Value>)>,
    extra: Extra,
}

impl Fields {
    fn split(path: &str, map: Map<String, Value>, names: &[&'static str]) -> Self {
        let mut known: Vec<(&'static str, Option<Value>)> = names.iter().map(|n| (*n, None)).collect();
        let mut extra = Extra::new();
        for (k, mut v) in map {
            let k = unmark_key(k, Vec::new(), &mut extra);
            match known.iter_mut().find(|(n, _)| *n == k) {
                Some(slot) => {
                    // Known strings here; known objects are split in their turn.
                    if let Value::String(s) = &mut v {
                        unmark_string(s, vec![Seg::Key(k)], &mut extra);
                    }
                    slot.1 = Some(v)
                }
                None => {
                    unmark_value(&mut v, &mut vec![Seg::Key(k.clone())], &mut extra);
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

    /// An optional string; `null` reads as absent and is kept (written back).
    fn opt_string(&mut self, key: &str) -> Result<Option<String>, ModelError> {
        match self.take(key) {
            None => Ok(None),
            Some(Value::Null) => {
                self.extra.keep_null(key);
                Ok(None)
            }
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

/// A key as the file meant it (see [`js::mark`]); one holding an unpaired
/// surrogate is kept in `extra` under `parent` + its document-facing form.
fn unmark_key(k: String, mut parent: Vec<Seg>, extra: &mut Extra) -> String {
    match js::unmark(&k) {
        None => k,
        Some((lossy, None)) => lossy,
        Some((lossy, Some(units))) => {
            parent.push(Seg::Key(lossy.clone()));
            extra.kept_mut().strings.push(KeptString {
                path: parent,
                key: true,
                lossy: lossy.clone(),
                units,
            });
            lossy
        }
    }
}

/// A string value as the file meant it, in place; kept when it held an
/// unpaired surrogate.
fn unmark_string(s: &mut String, path: Vec<Seg>, extra: &mut Extra) {
    match js::unmark(s) {
        None => {}
        Some((lossy, None)) => *s = lossy,
        Some((lossy, Some(units))) => {
            *s = lossy.clone();
            extra.kept_mut().strings.push(KeptString {
                path,
                key: false,
                lossy,
                units,
            });
        }
    }
}

/// [`unmark_string`] / [`unmark_key`] through an unknown value.
fn unmark_value(v: &mut Value, path: &mut Vec<Seg>, extra: &mut Extra) {
    match v {
        Value::String(s) => unmark_string(s, path.clone(), extra),
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                path.push(Seg::Index(i));
                unmark_value(item, path, extra);
                path.pop();
            }
        }
        Value::Object(m) => {
            let taken = std::mem::take(m);
            for (k, mut item) in taken {
                let k = unmark_key(k, path.clone(), extra);
                path.push(Seg::Key(k.clone()));
                unmark_value(&mut item, path, extra);
                path.pop();
                m.insert(k, item);
            }
        }
        _ => {}
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
        let id = unmark_key(id, vec![Seg::Key("anchors".to_owned())], &mut f.extra);
        let path = format!("anchors.{id}");
        anchors.insert(id, Anchor::from_value(&path, v)?);
    }
    let threads = Field::read(&mut f, "threads")?;
    let attributions = Field::read(&mut f, "attributions")?;
    let proposals = Field::read(&mut f, "proposals")?;
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

// ---- serializing -------------------------------------------------------------------

/// A provenance as JSON, in sidecar key order.
pub fn provenance_value(p: &Provenance) -> Value {
    serde_json::to_value(p).expect("a provenance serializes")
}

/// Exactly `JSON.stringify(value, null, 2) + "\n"` (key order included: see
/// `js::array_index`).
pub fn to_js_json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    let v = serde_json::to_value(value).expect("serializing to a Value cannot fail");
    let mut w = js::Writer::default();
    w.value_at(&v, None, &mut Vec::new());
    w.finish()
}

/// The sidecar text for `a`, byte-stable (see the module docs).
pub fn serialize_artifact(a: &Artifact) -> String {
    let mut w = js::Writer::default();
    w.artifact(a);
    w.finish()
}

/// What JavaScript does with strings and objects, where Rust differs.
///
/// **Unpaired surrogates.** JavaScript strings are UTF-16 and may hold an
/// unpaired surrogate, which `JSON.stringify` writes as `\udXXX` — for instance
/// when another writer cuts an emoji in half while taking 32 units of context. A
/// Rust string cannot hold one. While parsing (the slow path only), [`mark`]
/// rewrites the JSON text so that each unpaired surrogate escape becomes
/// [`MARK`] followed by a char standing for it, and each real U+10FFFF becomes
/// two [`MARK`]s; so after parsing, a `MARK` in a string always starts one of
/// these pairs and nothing collides with real text. [`unmark`] then turns each
/// string back into its document-facing form (an unpaired surrogate as U+FFFD,
/// what Node's UTF-8 encoder writes for one) plus, when it held an unpaired
/// surrogate, its UTF-16 units, which the record keeps ([`Kept`]) and the
/// [`Writer`] writes back while the field is unchanged.
///
/// **Key order.** JavaScript objects list array-index keys (canonical integers
/// below 2^32 − 1) first, ascending, then the other keys in insertion order;
/// `JSON.stringify` writes them so. The [`Writer`] does the same for every
/// object it writes: records, the anchors map, and unknown values.
mod js {
    use super::{Anchor, Artifact, Extra, Kept, SegRef};
    use indexmap::IndexMap;
    use serde_json::{Map, Value};
    use std::borrow::Cow;
    use std::fmt::Write as _;

    /// Starts each pair [`mark`] writes. U+10FFFF is a noncharacter.
    pub const MARK: char = '\u{10FFFF}';
    /// `MARK` + `LONE_BASE + (u − 0xD800)` stands for unpaired surrogate `u`.
    const LONE_BASE: u32 = 0x10F000;

    fn hex4(b: &[u8]) -> Option<u32> {
        let h = b.get(..4)?;
        if !h.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        u32::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
    }

    /// Whether the JSON text needs [`mark`]: it has a surrogate escape or a
    /// literal U+10FFFF.
    pub fn needs_marking(text: &str) -> bool {
        text.contains("\\ud") || text.contains("\\uD") || text.contains(MARK)
    }

    /// See the module docs. Text that needs nothing is borrowed.
    pub fn mark(text: &str) -> Cow<'_, str> {
        if !needs_marking(text) {
            return Cow::Borrowed(text);
        }
        let b = text.as_bytes();
        let mut out = String::with_capacity(text.len() + 16);
        let mut i = 0;
        let mut copied = 0;
        while i < b.len() {
            if b[i] == 0xF4 && text[i..].starts_with(MARK) {
                out.push_str(&text[copied..i]);
                out.push(MARK);
                out.push(MARK);
                i += MARK.len_utf8();
                copied = i;
                continue;
            }
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
            if (0xD800..0xDC00).contains(&u) {
                let low = (b.get(i + 6) == Some(&b'\\') && b.get(i + 7) == Some(&b'u'))
                    .then(|| hex4(&b[i + 8..]))
                    .flatten()
                    .filter(|l| (0xDC00..0xE000).contains(l));
                if let Some(l) = low {
                    if 0x10000 + ((u - 0xD800) << 10) + (l - 0xDC00) == MARK as u32 {
                        out.push_str(&text[copied..i]);
                        out.push(MARK);
                        out.push(MARK);
                        copied = i + 12;
                    }
                    i += 12;
                    continue;
                }
            }
            if (0xD800..0xE000).contains(&u) {
                out.push_str(&text[copied..i]);
                out.push(MARK);
                out.push(char::from_u32(LONE_BASE + (u - 0xD800)).expect("plane 16 is valid"));
                i += 6;
                copied = i;
            } else {
                i += 6;
            }
        }
        out.push_str(&text[copied..]);
        Cow::Owned(out)
    }

    /// A parsed string of marked text as the file meant it: `None` when it has
    /// no mark (it is as written); else its document-facing form, and its UTF-16
    /// units when it held an unpaired surrogate.
    pub fn unmark(s: &str) -> Option<(String, Option<Vec<u16>>)> {
        if !s.contains(MARK) {
            return None;
        }
        let mut lossy = String::with_capacity(s.len());
        let mut units: Vec<u16> = Vec::with_capacity(s.len());
        let mut lone = false;
        let mut buf = [0u16; 2];
        let mut chars = s.chars().peekable();
        while let Some(c) = chars.next() {
            let stands_for = match (c, chars.peek()) {
                (MARK, Some(&n)) if (LONE_BASE..LONE_BASE + 0x800).contains(&(n as u32)) => {
                    Some(0xD800 + (n as u32 - LONE_BASE))
                }
                _ => None,
            };
            if let Some(u) = stands_for {
                chars.next();
                lossy.push('\u{FFFD}');
                units.push(u as u16);
                lone = true;
                continue;
            }
            if c == MARK && chars.peek() == Some(&MARK) {
                chars.next();
            }
            lossy.push(c);
            units.extend_from_slice(c.encode_utf16(&mut buf));
        }
        Some((lossy, lone.then_some(units)))
    }

    /// The index JavaScript gives key `k` when it is an array index: a
    /// canonical decimal integer below 2^32 − 1 (`"0"`, `"42"`; not `"042"`,
    /// `"-1"`, `"4294967295"`).
    pub fn array_index(k: &str) -> Option<u32> {
        let b = k.as_bytes();
        if b.is_empty() || b.len() > 10 || !b.iter().all(u8::is_ascii_digit) || (b[0] == b'0' && b.len() > 1)
        {
            return None;
        }
        let n: u64 = k.parse().ok()?;
        (n < u64::from(u32::MAX)).then_some(n as u32)
    }

    /// Keys of an object in JavaScript's order: array indexes ascending, then
    /// the rest as given.
    fn js_order<'a, T>(entries: impl Iterator<Item = (&'a String, T)>) -> Vec<(&'a String, T)> {
        let mut index: Vec<(u32, &'a String, T)> = Vec::new();
        let mut rest: Vec<(&'a String, T)> = Vec::new();
        for (k, v) in entries {
            match array_index(k) {
                Some(n) => index.push((n, k, v)),
                None => rest.push((k, v)),
            }
        }
        if index.is_empty() {
            return rest;
        }
        index.sort_by_key(|(n, _, _)| *n);
        index.into_iter().map(|(_, k, v)| (k, v)).chain(rest).collect()
    }

    /// A known field's value.
    pub enum Item<'a> {
        Str(&'a str),
        UInt(u64),
        Null,
        With(&'a dyn Fn(&mut Writer)),
        /// A record, or a list of them.
        Js(&'a dyn WriteJs),
    }

    /// What writes itself as `JSON.stringify` would: a declared record
    /// (`sidecar_record!`), or a list of them.
    pub trait WriteJs {
        fn write_js(&self, w: &mut Writer);
    }

    impl<T: WriteJs> WriteJs for Vec<T> {
        fn write_js(&self, w: &mut Writer) {
            w.out.push('[');
            w.depth += 1;
            for (i, item) in self.iter().enumerate() {
                w.next(i);
                item.write_js(w);
            }
            w.close(self.len(), "[]", ']');
        }
    }

    /// Writes `JSON.stringify(x, null, 2)`.
    #[derive(Default)]
    pub struct Writer {
        out: String,
        depth: usize,
    }

    impl Writer {
        pub fn finish(mut self) -> String {
            self.out.push('\n');
            self.out
        }

        fn newline(&mut self) {
            self.out.push('\n');
            for _ in 0..self.depth {
                self.out.push_str("  ");
            }
        }

        /// A string, escaped as `JSON.stringify` escapes it.
        pub fn str(&mut self, s: &str) {
            self.out.push('"');
            let b = s.as_bytes();
            let mut copied = 0;
            for (i, &c) in b.iter().enumerate() {
                if c >= 0x20 && c != b'"' && c != b'\\' {
                    continue;
                }
                self.out.push_str(&s[copied..i]);
                copied = i + 1;
                self.escape(c);
            }
            self.out.push_str(&s[copied..]);
            self.out.push('"');
        }

        fn escape(&mut self, c: u8) {
            match c {
                b'"' => self.out.push_str("\\\""),
                b'\\' => self.out.push_str("\\\\"),
                b'\n' => self.out.push_str("\\n"),
                b'\r' => self.out.push_str("\\r"),
                b'\t' => self.out.push_str("\\t"),
                0x08 => self.out.push_str("\\b"),
                0x0c => self.out.push_str("\\f"),
                c => {
                    let _ = write!(self.out, "\\u{:04x}", c);
                }
            }
        }

        /// A JavaScript string given as UTF-16 units: an unpaired surrogate is
        /// written `\udXXX` (lowercase), as `JSON.stringify` writes it.
        fn units(&mut self, units: &[u16]) {
            self.out.push('"');
            for c in char::decode_utf16(units.iter().copied()) {
                match c {
                    Ok(c) if c.is_ascii() && (c < ' ' || c == '"' || c == '\\') => self.escape(c as u8),
                    Ok(c) => self.out.push(c),
                    Err(e) => {
                        let _ = write!(self.out, "\\u{:04x}", e.unpaired_surrogate());
                    }
                }
            }
            self.out.push('"');
        }

        /// A string at `path` of a record whose kept strings are `kept`.
        fn str_at(&mut self, s: &str, kept: Option<&Kept>, path: &[SegRef<'_>], key: bool) {
            match kept.and_then(|k| k.units_for(path, key, s)) {
                Some(units) => self.units(units),
                None => self.str(s),
            }
        }

        /// Opens entry `i` of an object or array.
        fn next(&mut self, i: usize) {
            if i > 0 {
                self.out.push(',');
            }
            self.newline();
        }

        fn close(&mut self, n: usize, empty: &str, close: char) {
            self.depth -= 1;
            if n == 0 {
                self.out.truncate(self.out.len() - 1);
                self.out.push_str(empty);
            } else {
                self.newline();
                self.out.push(close);
            }
        }

        /// Any JSON value; `kept`/`path` name where it sits in a record.
        pub fn value_at<'a>(&mut self, v: &'a Value, kept: Option<&Kept>, path: &mut Vec<SegRef<'a>>) {
            match v {
                Value::Null => self.out.push_str("null"),
                Value::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
                // Kept as written (`arbitrary_precision`).
                Value::Number(n) => {
                    let _ = write!(self.out, "{n}");
                }
                Value::String(s) => self.str_at(s, kept, path, false),
                Value::Array(items) => {
                    self.out.push('[');
                    self.depth += 1;
                    for (i, item) in items.iter().enumerate() {
                        self.next(i);
                        path.push(SegRef::Index(i));
                        self.value_at(item, kept, path);
                        path.pop();
                    }
                    self.close(items.len(), "[]", ']');
                }
                Value::Object(m) => self.object_at(m, kept, path),
            }
        }

        fn object_at<'a>(
            &mut self,
            m: &'a Map<String, Value>,
            kept: Option<&Kept>,
            path: &mut Vec<SegRef<'a>>,
        ) {
            self.out.push('{');
            self.depth += 1;
            let entries = js_order(m.iter());
            for (i, (k, v)) in entries.iter().enumerate() {
                self.next(i);
                path.push(SegRef::Key(k));
                self.str_at(k, kept, path, true);
                self.out.push_str(": ");
                self.value_at(v, kept, path);
                path.pop();
            }
            self.close(entries.len(), "{}", '}');
        }

        /// A record: its array-index unknown keys, its known fields in order,
        /// then its other unknown fields in order.
        pub fn record(&mut self, known: &[(&'static str, Item<'_>)], extra: &Extra) {
            let kept = extra.kept().filter(|k| k.has_strings());
            let (index, rest): (Vec<_>, Vec<_>) = js_order(extra.iter())
                .into_iter()
                .partition(|(k, _)| array_index(k).is_some());
            self.out.push('{');
            self.depth += 1;
            let mut n = 0;
            self.unknown(&mut n, &index, kept);
            for (k, item) in known {
                self.next(n);
                n += 1;
                self.str(k);
                self.out.push_str(": ");
                match item {
                    Item::Str(s) => self.str_at(s, kept, &[SegRef::Key(k)], false),
                    Item::UInt(u) => {
                        let _ = write!(self.out, "{u}");
                    }
                    Item::Null => self.out.push_str("null"),
                    Item::With(f) => f(self),
                    Item::Js(r) => r.write_js(self),
                }
            }
            self.unknown(&mut n, &rest, kept);
            self.close(n, "{}", '}');
        }

        fn unknown<'a>(&mut self, n: &mut usize, entries: &[(&'a String, &'a Value)], kept: Option<&Kept>) {
            let mut path: Vec<SegRef<'a>> = Vec::new();
            for (k, v) in entries {
                self.next(*n);
                *n += 1;
                path.push(SegRef::Key(k));
                self.str_at(k, kept, &path, true);
                self.out.push_str(": ");
                self.value_at(v, kept, &mut path);
                path.pop();
            }
        }

        pub fn artifact(&mut self, a: &Artifact) {
            let anchors = |w: &mut Writer| w.anchors(&a.anchors, a.extra.kept());
            self.record(
                &[
                    ("schemaVersion", Item::UInt(a.schema_version)),
                    ("docPath", Item::Str(&a.doc_path)),
                    ("anchors", Item::With(&anchors)),
                    ("threads", Item::Js(&a.threads)),
                    ("attributions", Item::Js(&a.attributions)),
                    ("proposals", Item::Js(&a.proposals)),
                ],
                &a.extra,
            );
        }

        fn anchors(&mut self, anchors: &IndexMap<String, Anchor>, kept: Option<&Kept>) {
            self.out.push('{');
            self.depth += 1;
            let entries = js_order(anchors.iter());
            for (i, (id, anchor)) in entries.iter().enumerate() {
                self.next(i);
                self.str_at(id, kept, &[SegRef::Key("anchors"), SegRef::Key(id)], true);
                self.out.push_str(": ");
                anchor.write_js(self);
            }
            self.close(entries.len(), "{}", '}');
        }
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
