//! A sidecar record declared once.
//!
//! Each record of the sidecar (a fingerprint, an anchor, an author, a comment,
//! a thread, an attribution, a proposal) is read two ways — straight from the
//! text into typed fields (the fast path, [`serde::Deserialize`]) and through
//! a `Value` that names the field at fault (the slow path, [`Record::from_value`])
//! — written as `JSON.stringify(x, null, 2)` writes it ([`super::js::Writer`]),
//! and serialized to a `Value` ([`serde::Serialize`], for the merge driver and
//! the CLI). [`sidecar_record!`] declares the record's struct, its fields' keys
//! and their order **once** and derives all four from that declaration; what a
//! field of a given type does on each path (required or optional, `null` kept,
//! a nested record, a list of them) is its [`Field`] impl, written once per
//! type. The artifact itself (the file's top level, with its version gate and
//! its anchors map) is written by hand in `model.rs` and `model_serde.rs`.

use super::js::{Item, WriteJs};
use super::{shape, Extra, Fields, ModelError};
use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, Visitor};
use serde::ser::{Serialize, SerializeMap};
use serde_json::Value;
use std::fmt;

/// A string that must be present as a string (never `null`).
pub(crate) struct Str(pub String);

impl<'de> Deserialize<'de> for Str {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Str)
    }
}

/// A map key, borrowed from the input when it has no escapes (most do): known
/// keys are matched without allocating.
pub(crate) struct Key<'de>(pub std::borrow::Cow<'de, str>);

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

/// A required field the fast path did not find.
pub(crate) fn req<T>(v: Option<T>, key: &str) -> Result<T, String> {
    v.ok_or_else(|| format!("missing {key}"))
}

/// What a field of one type does on each path. `key` is its name in the file;
/// `extra` is its record's unknown fields, which also remember a known
/// optional field the file wrote as `null`.
pub(crate) trait Field: Sized {
    /// What the fast path reads for it (a `null` where this cannot be `null`
    /// fails the fast path, and the slow path reads the file).
    type Fast: DeserializeOwned;
    /// The slow path: take it out of the record's known fields.
    fn read(f: &mut Fields, key: &'static str) -> Result<Self, ModelError>;
    /// The fast path: what was found under `key`, if anything.
    fn from_fast(v: Option<Self::Fast>, key: &str) -> Result<Self, String>;
    /// How the writer writes it; `None`: not written.
    fn item<'a>(&'a self, key: &str, extra: &Extra) -> Option<Item<'a>>;
    /// As a `Value`'s entry; not written when [`Field::item`] writes nothing.
    fn entry<M: SerializeMap>(&self, m: &mut M, key: &str, extra: &Extra) -> Result<(), M::Error>;
}

/// A record [`sidecar_record!`] declared.
pub(crate) trait Record: Serialize + DeserializeOwned + WriteJs {
    /// Its keys, in the order it writes them.
    const KEYS: &'static [&'static str];
    /// The slow path: the record at `path` (for messages) from its `Value`.
    fn from_value(path: &str, v: Value) -> Result<Self, ModelError>;
}

/// An optional field's item: its value's, else `null` where the file wrote
/// `null` (and the field is still absent), else nothing.
fn or_kept_null<'a>(item: Option<Item<'a>>, key: &str, extra: &Extra) -> Option<Item<'a>> {
    item.or_else(|| extra.kept_null(key).then_some(Item::Null))
}

/// [`or_kept_null`] as a `Value`'s entry.
fn entry_or_kept_null<M: SerializeMap, T: Serialize>(
    m: &mut M,
    key: &str,
    v: Option<&T>,
    extra: &Extra,
) -> Result<(), M::Error> {
    match v {
        Some(v) => m.serialize_entry(key, v),
        None if extra.kept_null(key) => m.serialize_entry(key, &()),
        None => Ok(()),
    }
}

impl Field for String {
    type Fast = Str;
    fn read(f: &mut Fields, key: &'static str) -> Result<Self, ModelError> {
        f.string(key)
    }
    fn from_fast(v: Option<Str>, key: &str) -> Result<Self, String> {
        req(v, key).map(|s| s.0)
    }
    fn item<'a>(&'a self, _: &str, _: &Extra) -> Option<Item<'a>> {
        Some(Item::Str(self))
    }
    fn entry<M: SerializeMap>(&self, m: &mut M, key: &str, _: &Extra) -> Result<(), M::Error> {
        m.serialize_entry(key, self)
    }
}

/// An optional string: absent, or `null` (read as absent, kept and written
/// back as `null` while it stays absent).
impl Field for Option<String> {
    type Fast = Str;
    fn read(f: &mut Fields, key: &'static str) -> Result<Self, ModelError> {
        f.opt_string(key)
    }
    fn from_fast(v: Option<Str>, _: &str) -> Result<Self, String> {
        Ok(v.map(|s| s.0))
    }
    fn item<'a>(&'a self, key: &str, extra: &Extra) -> Option<Item<'a>> {
        or_kept_null(self.as_deref().map(Item::Str), key, extra)
    }
    fn entry<M: SerializeMap>(&self, m: &mut M, key: &str, extra: &Extra) -> Result<(), M::Error> {
        entry_or_kept_null(m, key, self.as_ref(), extra)
    }
}

/// A whole number ≥ 0 (`lineHint`).
impl Field for usize {
    type Fast = usize;
    fn read(f: &mut Fields, key: &'static str) -> Result<Self, ModelError> {
        usize::try_from(f.uint(key)?).map_err(|_| shape(f.path(key), "too large"))
    }
    fn from_fast(v: Option<usize>, key: &str) -> Result<Self, String> {
        req(v, key)
    }
    fn item<'a>(&'a self, _: &str, _: &Extra) -> Option<Item<'a>> {
        Some(Item::UInt(*self as u64))
    }
    fn entry<M: SerializeMap>(&self, m: &mut M, key: &str, _: &Extra) -> Result<(), M::Error> {
        m.serialize_entry(key, self)
    }
}

/// Declares a value of an open set: a few known names, and whatever another
/// tool wrote, kept as written (`Other`). It is a string everywhere: in the
/// file (its [`Field`] impl), on the wire (`Serialize`, with a JSON Schema
/// naming the known values) and in messages (`Display`).
macro_rules! open_enum {
    (
        $(#[$meta:meta])*
        pub enum $ty:ident ($schema:literal) { $($variant:ident = $name:literal),* $(,)? }
    ) => {
        $(#[$meta])*
        pub enum $ty {
            $($variant,)*
            /// A value written by another tool; kept as written.
            Other(String),
        }

        impl $ty {
            pub fn as_str(&self) -> &str {
                match self {
                    $($ty::$variant => $name,)*
                    $ty::Other(s) => s,
                }
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl From<String> for $ty {
            fn from(s: String) -> Self {
                match s.as_str() {
                    $($name => $ty::$variant,)*
                    _ => $ty::Other(s),
                }
            }
        }

        impl $crate::model::record::Field for $ty {
            type Fast = $crate::model::record::Str;
            fn read(
                f: &mut $crate::model::Fields,
                key: &'static str,
            ) -> Result<Self, $crate::model::ModelError> {
                f.string(key).map($ty::from)
            }
            fn from_fast(v: Option<$crate::model::record::Str>, key: &str) -> Result<Self, String> {
                $crate::model::record::req(v, key).map(|s| $ty::from(s.0))
            }
            fn item<'a>(
                &'a self,
                _: &str,
                _: &$crate::model::Extra,
            ) -> Option<$crate::model::js::Item<'a>> {
                Some($crate::model::js::Item::Str(self.as_str()))
            }
            fn entry<M: serde::ser::SerializeMap>(
                &self,
                m: &mut M,
                key: &str,
                _: &$crate::model::Extra,
            ) -> Result<(), M::Error> {
                m.serialize_entry(key, self.as_str())
            }
        }

        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
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
                    "description": $schema,
                    "examples": [$($name),*],
                })
            }
        }
    };
}
pub(crate) use open_enum;

/// A nested record, required.
impl<R: Record> Field for R {
    type Fast = R;
    fn read(f: &mut Fields, key: &'static str) -> Result<Self, ModelError> {
        let path = f.path(key);
        R::from_value(&path, f.req(key)?)
    }
    fn from_fast(v: Option<R>, key: &str) -> Result<Self, String> {
        req(v, key)
    }
    fn item<'a>(&'a self, _: &str, _: &Extra) -> Option<Item<'a>> {
        Some(Item::Js(self))
    }
    fn entry<M: SerializeMap>(&self, m: &mut M, key: &str, _: &Extra) -> Result<(), M::Error> {
        m.serialize_entry(key, self)
    }
}

/// A nested record, optional: absent, or `null` (kept, as for strings).
impl<R: Record> Field for Option<R> {
    type Fast = R;
    fn read(f: &mut Fields, key: &'static str) -> Result<Self, ModelError> {
        match f.take(key) {
            None => Ok(None),
            Some(Value::Null) => {
                f.extra.keep_null(key);
                Ok(None)
            }
            Some(v) => R::from_value(&f.path(key), v).map(Some),
        }
    }
    fn from_fast(v: Option<R>, _: &str) -> Result<Self, String> {
        Ok(v)
    }
    fn item<'a>(&'a self, key: &str, extra: &Extra) -> Option<Item<'a>> {
        or_kept_null(self.as_ref().map(|r| Item::Js(r)), key, extra)
    }
    fn entry<M: SerializeMap>(&self, m: &mut M, key: &str, extra: &Extra) -> Result<(), M::Error> {
        entry_or_kept_null(m, key, self.as_ref(), extra)
    }
}

/// A list of records; absent reads as empty (a writer that predates a section
/// may omit it), and an empty list is written as `[]`.
impl<R: Record> Field for Vec<R> {
    type Fast = Vec<R>;
    fn read(f: &mut Fields, key: &'static str) -> Result<Self, ModelError> {
        let path = f.path(key);
        f.array(key)?
            .into_iter()
            .enumerate()
            .map(|(i, v)| R::from_value(&format!("{path}[{i}]"), v))
            .collect()
    }
    fn from_fast(v: Option<Vec<R>>, _: &str) -> Result<Self, String> {
        Ok(v.unwrap_or_default())
    }
    fn item<'a>(&'a self, _: &str, _: &Extra) -> Option<Item<'a>> {
        Some(Item::Js(self))
    }
    fn entry<M: SerializeMap>(&self, m: &mut M, key: &str, _: &Extra) -> Result<(), M::Error> {
        m.serialize_entry(key, self)
    }
}

/// The fast path of a record: each known key parsed as its type, every other
/// key kept in `extra`, in order; then `build` from what was found.
macro_rules! fast_deserialize {
    ($ty:ident, $what:literal, |$($field:ident : $fty:ty = $key:literal),* $(,)?| $build:expr) => {
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> serde::de::Visitor<'de> for V {
                    type Value = $ty;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str($what)
                    }
                    #[allow(unused_mut)]
                    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<$ty, A::Error> {
                        $(let mut $field: Option<$fty> = None;)*
                        let mut extra = $crate::model::Extra::new();
                        while let Some($crate::model::record::Key(k)) =
                            m.next_key::<$crate::model::record::Key<'de>>()?
                        {
                            match &*k {
                                $($key => $field = Some(m.next_value()?),)*
                                _ => {
                                    let v: serde_json::Value = m.next_value()?;
                                    extra.insert(k.into_owned(), v);
                                }
                            }
                        }
                        #[allow(clippy::redundant_closure_call)]
                        let built = ($build)($($field,)* extra);
                        built.map_err(serde::de::Error::custom)
                    }
                }
                d.deserialize_map(V)
            }
        }
    };
}
pub(crate) use fast_deserialize;

/// Declares a sidecar record: the struct (with `extra`, its unknown fields)
/// and, from the one list of fields and keys, its slow reader
/// ([`Record::from_value`]), its fast reader (`Deserialize`), its writer
/// ([`WriteJs`]) and its `Serialize`, all in the declared key order.
macro_rules! sidecar_record {
    (
        $(#[$meta:meta])*
        pub struct $ty:ident ($what:literal) {
            $($(#[$fmeta:meta])* pub $field:ident : $fty:ty = $key:literal),* $(,)?
        }
    ) => {
        $(#[$meta])*
        pub struct $ty {
            $($(#[$fmeta])* pub $field: $fty,)*
            /// Fields another writer put on the record, kept and written back.
            pub extra: $crate::model::Extra,
        }

        impl $crate::model::record::Record for $ty {
            const KEYS: &'static [&'static str] = &[$($key),*];
            fn from_value(path: &str, v: serde_json::Value) -> Result<Self, $crate::model::ModelError> {
                let map = $crate::model::Ctx { path }.object(v)?;
                let mut f = $crate::model::Fields::split(path, map, Self::KEYS);
                $(let $field = <$fty as $crate::model::record::Field>::read(&mut f, $key)?;)*
                Ok($ty { $($field,)* extra: f.extra })
            }
        }

        $crate::model::record::fast_deserialize!($ty, $what, |$($field: <$fty as $crate::model::record::Field>::Fast = $key),*| {
            |$($field: Option<<$fty as $crate::model::record::Field>::Fast>,)* extra| -> Result<$ty, String> {
                Ok($ty {
                    $($field: <$fty as $crate::model::record::Field>::from_fast($field, $key)?,)*
                    extra,
                })
            }
        });

        impl $crate::model::js::WriteJs for $ty {
            fn write_js(&self, w: &mut $crate::model::js::Writer) {
                let extra = &self.extra;
                let mut known = Vec::with_capacity(<Self as $crate::model::record::Record>::KEYS.len());
                $(
                    if let Some(item) = $crate::model::record::Field::item(&self.$field, $key, extra) {
                        known.push(($key, item));
                    }
                )*
                w.record(&known, extra);
            }
        }

        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap as _;
                let mut m = s.serialize_map(None)?;
                $($crate::model::record::Field::entry(&self.$field, &mut m, $key, &self.extra)?;)*
                for (k, v) in self.extra.iter() {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
    };
}
pub(crate) use sidecar_record;

#[cfg(test)]
mod tests {
    use super::super::{Comment, Fingerprint, Proposal, Provenance, Thread};
    use super::Record;

    #[test]
    fn each_record_writes_its_keys_in_the_declared_order() {
        assert_eq!(Fingerprint::KEYS, ["text", "before", "after", "lineHint"]);
        assert_eq!(Provenance::KEYS, ["kind", "id", "name", "agent"]);
        assert_eq!(Comment::KEYS, ["id", "author", "body", "createdAt"]);
        assert_eq!(Thread::KEYS, ["id", "anchorId", "status", "comments"]);
        assert_eq!(
            Proposal::KEYS,
            [
                "id",
                "anchorId",
                "replacement",
                "author",
                "createdAt",
                "turnId",
                "instruction"
            ]
        );
    }
}
