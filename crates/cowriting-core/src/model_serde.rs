//! Direct (de)serialization of the sidecar artifact — the fast path.
//!
//! `model.rs` defines the shape through `serde_json::Value` (order-preserving,
//! precise error paths). For large sidecars that costs a whole `Value` tree per
//! load and per save, so the records also (de)serialize themselves: known
//! keys straight into typed fields, only unknown keys as `Value`. Each record's
//! fast reader and `Serialize` come from its one declaration
//! (`model::record::sidecar_record!`); the artifact's, written here, use the
//! same pieces. Both paths produce the same artifact and the same bytes
//! (tested); when the fast parse fails, `parse_artifact` re-parses through
//! `Value` to name the field at fault (or to read what only the slow path
//! reads: `null` optionals, unpaired surrogates). The sidecar text itself is
//! written by `model::js::Writer`; these `Serialize` impls give the records as
//! `Value`s (the git merge driver, the CLI's output), lone surrogates in their
//! document-facing form.

use crate::model::record::{fast_deserialize, req, Str};
use crate::model::{Anchor, Artifact, Attribution, Extra, Proposal, Thread};
use indexmap::IndexMap;
use serde::ser::{Serialize, SerializeMap, Serializer};

fast_deserialize!(Artifact, "a sidecar", |schema_version: u64 = "schemaVersion", doc_path: Str = "docPath", anchors: IndexMap<String, Anchor> = "anchors", threads: Vec<Thread> = "threads", attributions: Vec<Attribution> = "attributions", proposals: Vec<Proposal> = "proposals"| {
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
