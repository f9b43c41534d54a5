//! Direct (de)serialization of the sidecar model — the fast path.
//!
//! `model.rs` defines the shape through `serde_json::Value` (order-preserving,
//! precise error paths). For large sidecars that costs a whole `Value` tree per
//! load and per save, so the records also (de)serialize themselves here: known
//! keys straight into typed fields, only unknown keys as `Value`. Both paths
//! produce the same artifact and the same bytes (tested); when the fast parse
//! fails, `parse_artifact` re-parses through `Value` to name the field at fault
//! (or to read what only the slow path reads: `null` optionals, unpaired
//! surrogates). The sidecar text itself is written by `model::js::Writer`; these
//! `Serialize` impls give the records as `Value`s (the git merge driver, the CLI's
//! output), lone surrogates in their document-facing form.

use crate::model::{
    AgentInfo, Anchor, Artifact, Attribution, AuthorKind, Comment, Extra, Fingerprint, Proposal, Provenance,
    Thread, ThreadStatus,
};
use indexmap::IndexMap;
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;
use std::fmt;

/// A string that must be present as a string (never `null`).
struct Str(String);

impl<'de> Deserialize<'de> for Str {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Str)
    }
}

/// A map key, borrowed from the input when it has no escapes (most do): known
/// keys are matched without allocating.
struct Key<'de>(std::borrow::Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KV;
        impl<'de> Visitor<'de> for KV {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(v)))
            }
        }
        d.deserialize_str(KV)
    }
}

/// Declares a record's Deserialize: each known key parsed as its type, every
/// other key kept in `extra`, in order.
macro_rules! record {
    ($ty:ident, $what:literal, |$($field:ident : $fty:ty = $key:literal),* $(,)?| $build:expr) => {
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $ty;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str($what)
                    }
                    #[allow(unused_mut)]
                    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<$ty, A::Error> {
                        $(let mut $field: Option<$fty> = None;)*
                        let mut extra = Extra::new();
                        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
                            match &*k {
                                $($key => $field = Some(m.next_value()?),)*
                                _ => {
                                    let v: Value = m.next_value()?;
                                    extra.insert(k.into_owned(), v);
                                }
                            }
                        }
                        #[allow(clippy::redundant_closure_call)]
                        let built = ($build)($($field,)* extra);
                        built.map_err(de::Error::custom)
                    }
                }
                d.deserialize_map(V)
            }
        }
    };
}

fn req<T>(v: Option<T>, key: &str) -> Result<T, String> {
    v.ok_or_else(|| format!("missing {key}"))
}

record!(Fingerprint, "a fingerprint", |text: Str = "text", before: Str = "before", after: Str = "after", line_hint: usize = "lineHint"| {
    |text: Option<Str>, before: Option<Str>, after: Option<Str>, line_hint: Option<usize>, extra| -> Result<Fingerprint, String> {
        Ok(Fingerprint {
            text: req(text, "text")?.0,
            before: req(before, "before")?.0,
            after: req(after, "after")?.0,
            line_hint: req(line_hint, "lineHint")?,
            extra,
        })
    }
});

record!(Anchor, "an anchor", |fingerprint: Fingerprint = "fingerprint"| {
    |fingerprint: Option<Fingerprint>, extra| -> Result<Anchor, String> {
        Ok(Anchor { fingerprint: req(fingerprint, "fingerprint")?, extra })
    }
});

record!(AgentInfo, "agent info", |sdk: Str = "sdk", model: Str = "model", session_id: Str = "sessionId"| {
    |sdk: Option<Str>, model: Option<Str>, session_id: Option<Str>, extra| -> Result<AgentInfo, String> {
        Ok(AgentInfo { sdk: sdk.map(|s| s.0), model: model.map(|s| s.0), session_id: session_id.map(|s| s.0), extra })
    }
});

record!(Provenance, "an author", |kind: Str = "kind", id: Str = "id", agent: AgentInfo = "agent"| {
    |kind: Option<Str>, id: Option<Str>, agent: Option<AgentInfo>, extra| -> Result<Provenance, String> {
        let kind = match req(kind, "kind")?.0.as_str() {
            "agent" => AuthorKind::Agent,
            "human" => AuthorKind::Human,
            other => AuthorKind::Other(other.to_owned()),
        };
        Ok(Provenance { kind, id: req(id, "id")?.0, agent, extra })
    }
});

record!(Comment, "a comment", |id: Str = "id", author: Provenance = "author", body: Str = "body", created_at: Str = "createdAt"| {
    |id: Option<Str>, author: Option<Provenance>, body: Option<Str>, created_at: Option<Str>, extra| -> Result<Comment, String> {
        Ok(Comment {
            id: req(id, "id")?.0,
            author: req(author, "author")?,
            body: req(body, "body")?.0,
            created_at: req(created_at, "createdAt")?.0,
            extra,
        })
    }
});

record!(Thread, "a thread", |id: Str = "id", anchor_id: Str = "anchorId", status: Str = "status", comments: Vec<Comment> = "comments"| {
    |id: Option<Str>, anchor_id: Option<Str>, status: Option<Str>, comments: Option<Vec<Comment>>, extra| -> Result<Thread, String> {
        let status = match req(status, "status")?.0.as_str() {
            "open" => ThreadStatus::Open,
            "resolved" => ThreadStatus::Resolved,
            other => ThreadStatus::Other(other.to_owned()),
        };
        Ok(Thread { id: req(id, "id")?.0, anchor_id: req(anchor_id, "anchorId")?.0, status, comments: comments.unwrap_or_default(), extra })
    }
});

record!(Attribution, "an attribution", |id: Str = "id", anchor_id: Str = "anchorId", author: Provenance = "author", created_at: Str = "createdAt", turn_id: Str = "turnId", instruction: Str = "instruction"| {
    |id: Option<Str>, anchor_id: Option<Str>, author: Option<Provenance>, created_at: Option<Str>, turn_id: Option<Str>, instruction: Option<Str>, extra| -> Result<Attribution, String> {
        Ok(Attribution {
            id: req(id, "id")?.0,
            anchor_id: req(anchor_id, "anchorId")?.0,
            author: req(author, "author")?,
            created_at: req(created_at, "createdAt")?.0,
            turn_id: turn_id.map(|s| s.0),
            instruction: instruction.map(|s| s.0),
            extra,
        })
    }
});

record!(Proposal, "a proposal", |id: Str = "id", anchor_id: Str = "anchorId", replacement: Str = "replacement", author: Provenance = "author", created_at: Str = "createdAt", turn_id: Str = "turnId", instruction: Str = "instruction"| {
    |id: Option<Str>, anchor_id: Option<Str>, replacement: Option<Str>, author: Option<Provenance>, created_at: Option<Str>, turn_id: Option<Str>, instruction: Option<Str>, extra| -> Result<Proposal, String> {
        Ok(Proposal {
            id: req(id, "id")?.0,
            anchor_id: req(anchor_id, "anchorId")?.0,
            replacement: req(replacement, "replacement")?.0,
            author: req(author, "author")?,
            created_at: req(created_at, "createdAt")?.0,
            turn_id: turn_id.map(|s| s.0),
            instruction: instruction.map(|s| s.0),
            extra,
        })
    }
});

record!(Artifact, "a sidecar", |schema_version: u64 = "schemaVersion", doc_path: Str = "docPath", anchors: IndexMap<String, Anchor> = "anchors", threads: Vec<Thread> = "threads", attributions: Vec<Attribution> = "attributions", proposals: Vec<Proposal> = "proposals"| {
    |schema_version: Option<u64>, doc_path: Option<Str>, anchors: Option<IndexMap<String, Anchor>>, threads: Option<Vec<Thread>>, attributions: Option<Vec<Attribution>>, proposals: Option<Vec<Proposal>>, extra| -> Result<Artifact, String> {
        Ok(Artifact {
            schema_version: req(schema_version, "schemaVersion")?,
            doc_path: req(doc_path, "docPath")?.0,
            anchors: anchors.unwrap_or_default(),
            threads: threads.unwrap_or_default(),
            attributions: attributions.unwrap_or_default(),
            proposals: proposals.unwrap_or_default(),
            extra,
        })
    }
});

// ---- serializing: known keys in the documented order, then the extras ---------------

fn extras<M: SerializeMap>(m: &mut M, extra: &Extra) -> Result<(), M::Error> {
    for (k, v) in extra {
        m.serialize_entry(k, v)?;
    }
    Ok(())
}

/// An optional field: its value, else `null` where the file wrote `null`.
fn opt<M: SerializeMap>(m: &mut M, key: &str, v: &Option<String>, extra: &Extra) -> Result<(), M::Error> {
    match v {
        Some(v) => m.serialize_entry(key, v),
        None if extra.kept_null(key) => m.serialize_entry(key, &()),
        None => Ok(()),
    }
}

impl Serialize for Fingerprint {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("text", &self.text)?;
        m.serialize_entry("before", &self.before)?;
        m.serialize_entry("after", &self.after)?;
        m.serialize_entry("lineHint", &self.line_hint)?;
        extras(&mut m, &self.extra)?;
        m.end()
    }
}

impl Serialize for Anchor {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("fingerprint", &self.fingerprint)?;
        extras(&mut m, &self.extra)?;
        m.end()
    }
}

impl Serialize for AgentInfo {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        opt(&mut m, "sdk", &self.sdk, &self.extra)?;
        opt(&mut m, "model", &self.model, &self.extra)?;
        opt(&mut m, "sessionId", &self.session_id, &self.extra)?;
        extras(&mut m, &self.extra)?;
        m.end()
    }
}

impl Serialize for Provenance {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("kind", self.kind.as_str())?;
        m.serialize_entry("id", &self.id)?;
        if let Some(a) = &self.agent {
            m.serialize_entry("agent", a)?;
        } else if self.extra.kept_null("agent") {
            m.serialize_entry("agent", &())?;
        }
        extras(&mut m, &self.extra)?;
        m.end()
    }
}

impl Serialize for Comment {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("id", &self.id)?;
        m.serialize_entry("author", &self.author)?;
        m.serialize_entry("body", &self.body)?;
        m.serialize_entry("createdAt", &self.created_at)?;
        extras(&mut m, &self.extra)?;
        m.end()
    }
}

impl Serialize for Thread {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("id", &self.id)?;
        m.serialize_entry("anchorId", &self.anchor_id)?;
        m.serialize_entry("status", self.status.as_str())?;
        m.serialize_entry("comments", &self.comments)?;
        extras(&mut m, &self.extra)?;
        m.end()
    }
}

impl Serialize for Attribution {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("id", &self.id)?;
        m.serialize_entry("anchorId", &self.anchor_id)?;
        m.serialize_entry("author", &self.author)?;
        m.serialize_entry("createdAt", &self.created_at)?;
        opt(&mut m, "turnId", &self.turn_id, &self.extra)?;
        opt(&mut m, "instruction", &self.instruction, &self.extra)?;
        extras(&mut m, &self.extra)?;
        m.end()
    }
}

impl Serialize for Proposal {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("id", &self.id)?;
        m.serialize_entry("anchorId", &self.anchor_id)?;
        m.serialize_entry("replacement", &self.replacement)?;
        m.serialize_entry("author", &self.author)?;
        m.serialize_entry("createdAt", &self.created_at)?;
        opt(&mut m, "turnId", &self.turn_id, &self.extra)?;
        opt(&mut m, "instruction", &self.instruction, &self.extra)?;
        extras(&mut m, &self.extra)?;
        m.end()
    }
}

impl Serialize for Artifact {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("schemaVersion", &self.schema_version)?;
        m.serialize_entry("docPath", &self.doc_path)?;
        m.serialize_entry("anchors", &AnchorMap(&self.anchors))?;
        m.serialize_entry("threads", &self.threads)?;
        m.serialize_entry("attributions", &self.attributions)?;
        m.serialize_entry("proposals", &self.proposals)?;
        extras(&mut m, &self.extra)?;
        m.end()
    }
}

struct AnchorMap<'a>(&'a IndexMap<String, Anchor>);

impl Serialize for AnchorMap<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// A value of an open set (a few known names, and whatever another tool
/// wrote, kept as written) on the wire: its string, with a JSON Schema that
/// names the known ones.
macro_rules! open_enum_wire {
    ($ty:ident, $what:literal, [$($known:literal),*]) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl schemars::JsonSchema for $ty {
            fn inline_schema() -> bool {
                true
            }
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($ty).into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({
                    "type": "string",
                    "description": $what,
                    "examples": [$($known),*],
                })
            }
        }
    };
}

open_enum_wire!(
    ThreadStatus,
    "`open`, `resolved`, or another status a different tool wrote",
    ["open", "resolved"]
);
open_enum_wire!(
    AuthorKind,
    "`agent`, `human`, or another kind a different tool wrote",
    ["agent", "human"]
);
