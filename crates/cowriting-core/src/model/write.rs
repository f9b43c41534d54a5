//! Writing a sidecar exactly as `JSON.stringify(x, null, 2) + "\n"` does,
//! through [`super::js`]'s writer.

use super::*;

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
