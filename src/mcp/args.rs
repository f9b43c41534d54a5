//! The tools' arguments as generic MCP clients send them.
//!
//! - **[`Args`]** wraps each tool's argument struct: whatever the client sent is
//!   read here, never refused by rmcp, so every argument the tool cannot take
//!   (a missing `document`, an unknown `state`, a number that is not one)
//!   becomes a refusal with the code `bad_input` and a message naming the
//!   argument (`occurrence: …`), like every other refusal of the server. Its
//!   `inputSchema` is the struct's, with optional arguments given their plain
//!   type: `"type": "integer"`, not `["integer", "null"]`, which clients that
//!   fill one field per type cannot fill. (An explicit `null` is still read
//!   as "not given".)
//! - **[`Whole`]** is every optional whole-number argument: one deserializer
//!   and one schema, `{"type": "integer", "minimum": MIN}`. It takes a JSON
//!   number or a numeric string (`3`, `"3"`: some clients send every argument
//!   as a string), and refuses anything else, or a number below `MIN`.

use cowriting::error::{Error, Result};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, DeserializeOwned, Deserializer, IntoDeserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// A tool's arguments, `T`, or why the client's do not make one.
#[derive(Debug)]
pub struct Args<T>(std::result::Result<T, String>);

impl<T> Args<T> {
    /// The arguments, or a `bad_input` refusal saying which one is wrong.
    pub fn get(self) -> Result<T> {
        self.0.map_err(|m| Error::BadInput(format!("bad arguments: {m}")))
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Args<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let read = match Value::deserialize(d)? {
            Value::Object(fields) => T::deserialize(Fields(fields)).map_err(|e| e.to_string()),
            other => Err(format!("expected an object of named arguments, got {other}")),
        };
        Ok(Args(read))
    }
}

impl<T: JsonSchema> JsonSchema for Args<T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        format!("cowriting::mcp::Args<{}>", T::schema_id()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = T::json_schema(generator);
        plain_optionals(&mut schema);
        schema
    }
}

/// Takes `null` out of the schema of every optional argument (not in
/// `required`): `["string", "null"]` becomes `"string"`, and `anyOf: [X,
/// {"type": "null"}]` becomes X.
fn plain_optionals(schema: &mut Schema) {
    let Some(obj) = schema.as_object_mut() else {
        return;
    };
    let required: Vec<String> = obj
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default();
    let Some(Value::Object(props)) = obj.get_mut("properties") else {
        return;
    };
    for (name, prop) in props.iter_mut() {
        let Value::Object(p) = prop else { continue };
        if required.contains(name) {
            continue;
        }
        if let Some(Value::Array(types)) = p.get("type") {
            let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
            let kept = match <[Value; 1]>::try_from(kept) {
                Ok([one]) => one,
                Err(many) => Value::Array(many),
            };
            p.insert("type".into(), kept);
        }
        for key in ["anyOf", "oneOf"] {
            let Some(Value::Array(alts)) = p.get(key) else {
                continue;
            };
            let alts: Vec<Value> = alts
                .iter()
                .filter(|a| a.get("type") != Some(&Value::from("null")))
                .cloned()
                .collect();
            p.remove(key);
            match <[Value; 1]>::try_from(alts) {
                Ok([Value::Object(one)]) => {
                    for (k, v) in one {
                        p.entry(k).or_insert(v);
                    }
                }
                Ok([one]) => {
                    p.insert(key.into(), Value::Array(vec![one]));
                }
                Err(many) => {
                    p.insert(key.into(), Value::Array(many));
                }
            }
        }
        // A `null` default says nothing to a client that cannot send null.
        if p.get("default") == Some(&Value::Null) {
            p.remove("default");
        }
    }
}

/// The arguments object as a serde map that names the argument in an error
/// about its value (`occurrence: expected …`); serde alone says what was
/// wrong, not where. (One level is all tool arguments have.)
struct Fields(Map<String, Value>);

impl<'de> Deserializer<'de> for Fields {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> serde_json::Result<V::Value> {
        visitor.visit_map(FieldsAccess {
            fields: self.0.into_iter(),
            value: None,
            key: String::new(),
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct FieldsAccess {
    fields: serde_json::map::IntoIter,
    value: Option<Value>,
    key: String,
}

impl<'de> MapAccess<'de> for FieldsAccess {
    type Error = serde_json::Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> serde_json::Result<Option<K::Value>> {
        let Some((key, value)) = self.fields.next() else {
            return Ok(None);
        };
        self.value = Some(value);
        self.key.clone_from(&key);
        seed.deserialize(key.into_deserializer()).map(Some)
    }

    fn next_value_seed<S: de::DeserializeSeed<'de>>(&mut self, seed: S) -> serde_json::Result<S::Value> {
        let value = self.value.take().unwrap_or(Value::Null);
        seed.deserialize(value)
            .map_err(|e| de::Error::custom(format_args!("{}: {e}", self.key)))
    }
}

/// An optional whole-number argument of at least `MIN`: lines and occurrences
/// count from 1, byte offsets from 0. Not given (or `null`) is `None`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Whole<const MIN: usize>(Option<usize>);

impl<const MIN: usize> Whole<MIN> {
    pub fn get(self) -> Option<usize> {
        self.0
    }
}

impl<'de, const MIN: usize> Deserialize<'de> for Whole<MIN> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let value = Value::deserialize(d)?;
        let n = match &value {
            Value::Null => return Ok(Whole(None)),
            Value::Number(n) => n.as_u64().or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0)
                    .map(|f| f as u64)
            }),
            Value::String(s) => {
                let s = s.trim();
                (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| s.parse::<u64>().ok())
                    .flatten()
            }
            _ => None,
        };
        match n.and_then(|n| usize::try_from(n).ok()) {
            Some(n) if n >= MIN => Ok(Whole(Some(n))),
            _ => Err(de::Error::custom(format_args!(
                "expected a whole number of at least {MIN} (a JSON number or a numeric string such as \"3\"), got {value}"
            ))),
        }
    }
}

impl<const MIN: usize> JsonSchema for Whole<MIN> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("WholeFrom{MIN}").into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({ "type": "integer", "minimum": MIN })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, Deserialize, JsonSchema)]
    struct Example {
        /// Required.
        name: String,
        /// A line.
        #[serde(default)]
        line: Whole<1>,
        /// A byte.
        #[serde(default)]
        byte: Whole<0>,
        #[serde(default)]
        note: Option<String>,
    }

    fn read(v: Value) -> Result<Example> {
        serde_json::from_value::<Args<Example>>(v).unwrap().get()
    }

    #[test]
    fn whole_numbers_come_as_numbers_or_numeric_strings() {
        let e = read(json!({ "name": "a", "line": 3, "byte": "0", "note": null })).unwrap();
        assert_eq!((e.line.get(), e.byte.get()), (Some(3), Some(0)));
        assert_eq!((e.name.as_str(), e.note), ("a", None));
        let e = read(json!({ "name": "a", "line": " 12 ", "byte": 7.0 })).unwrap();
        assert_eq!((e.line.get(), e.byte.get()), (Some(12), Some(7)));
        let e = read(json!({ "name": "a", "line": null })).unwrap();
        assert_eq!((e.line.get(), e.byte.get()), (None, None));
        for (bad, shown) in [
            (json!("abc"), "\"abc\""),
            (json!(-1), "-1"),
            (json!(0), "0"),
            (json!("0"), "\"0\""),
            (json!("-1"), "\"-1\""),
            (json!(1.5), "1.5"),
            (json!("3x"), "\"3x\""),
            (json!(""), "\"\""),
            (json!(true), "true"),
            (json!([1]), "[1]"),
        ] {
            let e = read(json!({ "name": "a", "line": bad })).unwrap_err();
            assert_eq!(e.code(), cowriting::error::ErrorCode::BadInput);
            let msg = e.to_string();
            assert!(
                msg.contains("line: expected a whole number of at least 1") && msg.contains(shown),
                "{msg}"
            );
        }
        let e = read(json!({ "name": "a", "byte": -1 })).unwrap_err();
        assert!(
            e.to_string()
                .contains("byte: expected a whole number of at least 0"),
            "{e}"
        );
    }

    #[test]
    fn other_argument_errors_are_bad_input_too() {
        let e = read(json!({ "line": 1 })).unwrap_err();
        assert_eq!(e.code(), cowriting::error::ErrorCode::BadInput);
        assert!(e.to_string().contains("missing field `name`"), "{e}");
        let e = serde_json::from_value::<Args<Example>>(json!([1]))
            .unwrap()
            .get()
            .unwrap_err();
        assert!(e.to_string().contains("expected an object"), "{e}");
    }

    #[test]
    fn optional_arguments_have_plain_types_in_the_schema() {
        let schema = serde_json::to_value(schemars::schema_for!(Args<Example>)).unwrap();
        let props = &schema["properties"];
        assert_eq!(props["line"]["type"], "integer", "{schema}");
        assert_eq!(props["line"]["minimum"], 1);
        assert_eq!(props["line"]["description"], "A line.");
        assert_eq!(props["byte"]["type"], "integer");
        assert_eq!(props["byte"]["minimum"], 0);
        assert_eq!(props["note"]["type"], "string", "{schema}");
        assert_eq!(schema["required"], json!(["name"]));
        assert!(!schema.to_string().contains("null"), "{schema}");
    }
}
