//! Parsing a sidecar: the fast path straight into the typed records, the
//! slow one through `Value` (naming the field at fault, a newer
//! `schemaVersion` first), what the file said that a typed field cannot hold
//! moved into [`Extra`].

use super::*;

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

pub(super) fn syntax_message(e: &serde_json::Error) -> String {
    // serde_json appends " at line L column C"; we report those separately.
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_owned(),
        None => s,
    }
}

pub(crate) struct Ctx<'a> {
    pub(super) path: &'a str,
}

pub(super) fn shape(path: impl Into<String>, message: impl Into<String>) -> ModelError {
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
    pub(super) fn at(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    pub(super) fn object(&self, v: Value) -> Result<Map<String, Value>, ModelError> {
        match v {
            Value::Object(m) => Ok(m),
            other => Err(shape(
                self.path_or_root(),
                format!("expected an object, found {}", type_name(&other)),
            )),
        }
    }

    pub(super) fn path_or_root(&self) -> String {
        if self.path.is_empty() {
            "(top level)".to_owned()
        } else {
            self.path.to_owned()
        }
    }
}

/// Splits an object into its known fields (by name) and the rest, keeping order.
pub(crate) struct Fields {
    pub(super) path: String,
    pub(super) known: Vec<(&'static str, Option<Value>)>,
    pub(super) extra: Extra,
}

impl Fields {
    pub(super) fn split(path: &str, map: Map<String, Value>, names: &[&'static str]) -> Self {
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

    pub(super) fn path(&self, key: &str) -> String {
        Ctx { path: &self.path }.at(key)
    }

    pub(super) fn take(&mut self, key: &str) -> Option<Value> {
        self.known
            .iter_mut()
            .find(|(n, _)| *n == key)
            .and_then(|s| s.1.take())
    }

    pub(super) fn req(&mut self, key: &str) -> Result<Value, ModelError> {
        self.take(key).ok_or_else(|| shape(self.path(key), "missing"))
    }

    pub(super) fn string(&mut self, key: &str) -> Result<String, ModelError> {
        match self.req(key)? {
            Value::String(s) => Ok(s),
            other => Err(shape(
                self.path(key),
                format!("expected a string, found {}", type_name(&other)),
            )),
        }
    }

    /// An optional string; `null` reads as absent and is kept (written back).
    pub(super) fn opt_string(&mut self, key: &str) -> Result<Option<String>, ModelError> {
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

    pub(super) fn uint(&mut self, key: &str) -> Result<u64, ModelError> {
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

    pub(super) fn array(&mut self, key: &str) -> Result<Vec<Value>, ModelError> {
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
pub(super) fn unmark_key(k: String, mut parent: Vec<Seg>, extra: &mut Extra) -> String {
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
pub(super) fn unmark_string(s: &mut String, path: Vec<Seg>, extra: &mut Extra) {
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
pub(super) fn unmark_value(v: &mut Value, path: &mut Vec<Seg>, extra: &mut Extra) {
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

pub(super) fn newer_shown(found: u64) -> String {
    if found == u64::MAX {
        format!("{found} or more")
    } else {
        found.to_string()
    }
}

pub(super) fn artifact_from_value(value: Value) -> Result<Artifact, ModelError> {
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
