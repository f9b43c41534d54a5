//! Randomized: sidecar strings and keys against a naive model of JavaScript.
//!
//! A JavaScript string is a sequence of UTF-16 code units and may hold unpaired
//! surrogates. The naive model ([`stringify`]) is `JSON.stringify` of such a
//! string, written from the spec; [`js_order`] is the order JavaScript lists an
//! object's keys in. The properties: a sidecar holding random strings (drawn
//! from plane 16, lone surrogates, U+2028/2029, controls, quotes…) in every kind
//! of place parses and serializes back to exactly the naive model's text, and the
//! parsed, document-facing strings are what Node's UTF-8 encoder would write
//! (each unpaired surrogate as U+FFFD). The naive model itself is checked
//! against real node on a sample, string by string, and a whole sidecar of them
//! is what node writes after reading it, as the VS Code flow's seeds read and
//! write sidecars (node is required: `make test` installs it).

mod common;

use cowriting::model::{parse_artifact, serialize_artifact, to_js_json};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use serde_json::{Map, Value};

fn scalar(c: u32) -> Vec<u16> {
    let mut buf = [0u16; 2];
    char::from_u32(c).unwrap().encode_utf16(&mut buf).to_vec()
}

/// Code points that stress the model: the last of plane 16 (once stand-ins),
/// unpaired surrogates, separators, controls, escapes, a BOM, U+FFFD, emoji.
fn unit_run() -> impl Strategy<Value = Vec<u16>> {
    prop_oneof![
        (0x10F800u32..=0x10FFFF).prop_map(scalar),
        (0x10F000u32..0x10F800).prop_map(scalar),
        Just(scalar(0x10FFFF)),
        (0xD800u16..0xE000).prop_map(|u| vec![u]),
        prop::sample::select(vec![0x2028u32, 0x2029, 0xFEFF, 0xFFFD, 0x1F600, 0xE9, 0x7F, 0x85])
            .prop_map(scalar),
        (0u16..0x20).prop_map(|u| vec![u]),
        prop::sample::select(vec!['"', '\\', '/', 'a', ' ', 'u', 'd', '8']).prop_map(|c| vec![c as u16]),
    ]
}

fn js_string() -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(unit_run(), 0..8).prop_map(|runs| runs.concat())
}

/// `JSON.stringify(s)` for a string given as UTF-16 units (ES2019, well-formed).
fn stringify(units: &[u16]) -> String {
    let mut out = String::from("\"");
    for c in char::decode_utf16(units.iter().copied()) {
        match c {
            Ok('"') => out.push_str("\\\""),
            Ok('\\') => out.push_str("\\\\"),
            Ok('\u{8}') => out.push_str("\\b"),
            Ok('\u{c}') => out.push_str("\\f"),
            Ok('\n') => out.push_str("\\n"),
            Ok('\r') => out.push_str("\\r"),
            Ok('\t') => out.push_str("\\t"),
            Ok(c) if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            Ok(c) => out.push(c),
            Err(e) => out.push_str(&format!("\\u{:04x}", e.unpaired_surrogate())),
        }
    }
    out.push('"');
    out
}

/// What Node's UTF-8 encoder writes for the string: unpaired surrogates as U+FFFD.
fn document_facing(units: &[u16]) -> String {
    String::from_utf16_lossy(units)
}

/// A sidecar, as `JSON.stringify(x, null, 2) + "\n"` writes it, with the
/// string in every kind of place: fingerprint, comment body, author id,
/// replacement, turnId, unknown values; and, prefixed with `k` (so that it is
/// never an array index, which JavaScript would list first), as the anchor id
/// and an unknown key.
fn sidecar(units: &[u16]) -> String {
    let s = stringify(units);
    let k = stringify(&[&[u16::from(b'k')], units].concat());
    format!(
        r#"{{
  "schemaVersion": 1,
  "docPath": "doc.md",
  "anchors": {{
    {k}: {{
      "fingerprint": {{
        "text": {s},
        "before": {s},
        "after": "",
        "lineHint": 0,
        {k}: [
          {s}
        ]
      }}
    }}
  }},
  "threads": [
    {{
      "id": "t_1",
      "anchorId": {k},
      "status": "open",
      "comments": [
        {{
          "id": "c_1",
          "author": {{
            "kind": "human",
            "id": {s}
          }},
          "body": {s},
          "createdAt": "2026-06-10T00:00:00.000Z"
        }}
      ]
    }}
  ],
  "attributions": [],
  "proposals": [
    {{
      "id": "pr_1",
      "anchorId": {k},
      "replacement": {s},
      "author": {{
        "kind": "agent",
        "id": "claude",
        "agent": {{
          "sdk": "@cline/sdk",
          "model": "",
          "sessionId": {s}
        }}
      }},
      "createdAt": "2026-06-10T00:00:00.000Z",
      "turnId": {s},
      "x": {{
        "nested": {s}
      }}
    }}
  ],
  "unknown": {s}
}}
"#
    )
}

/// Keys, some array indexes, some only nearly.
fn key() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "0",
        "1",
        "2",
        "10",
        "42",
        "042",
        "-1",
        "1.5",
        "4294967294",
        "4294967295",
        "99999999999",
        "a",
        "b",
        "",
        "z0",
    ])
    .prop_map(str::to_owned)
}

/// The order JavaScript lists the keys of an object built by inserting `keys`
/// in order: array indexes (canonical integers below 2^32 − 1) ascending, then
/// the rest in insertion order.
fn js_order(keys: &[String]) -> Vec<String> {
    let index = |k: &str| {
        let canonical =
            !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) && (k == "0" || !k.starts_with('0'));
        canonical
            .then(|| k.parse::<u64>().ok())
            .flatten()
            .filter(|&n| n < (1 << 32) - 1)
    };
    let mut seen: Vec<String> = Vec::new();
    for k in keys {
        if !seen.contains(k) {
            seen.push(k.clone());
        }
    }
    let mut idx: Vec<(u64, String)> = seen
        .iter()
        .filter_map(|k| index(k).map(|n| (n, k.clone())))
        .collect();
    idx.sort();
    idx.into_iter()
        .map(|(_, k)| k)
        .chain(seen.into_iter().filter(|k| index(k).is_none()))
        .collect()
}

fn object(keys: &[String]) -> Value {
    let mut m = Map::new();
    for (i, k) in keys.iter().enumerate() {
        m.insert(k.clone(), Value::from(i));
    }
    Value::Object(m)
}

/// `JSON.stringify(o, null, 2) + "\n"` of `{k: first index of k}` for `keys`.
fn naive_object(keys: &[String]) -> String {
    let order = js_order(keys);
    if order.is_empty() {
        return "{}\n".to_owned();
    }
    let first = |k: &String| keys.iter().rposition(|x| x == k).unwrap();
    let body: Vec<String> = order
        .iter()
        .map(|k| {
            format!(
                "  {}: {}",
                stringify(&k.encode_utf16().collect::<Vec<_>>()),
                first(k)
            )
        })
        .collect();
    format!("{{\n{}\n}}\n", body.join(",\n"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// parse → serialize is exactly what JSON.stringify writes, and the parsed
    /// strings are the document-facing form.
    #[test]
    fn strings_round_trip_as_javascript_writes_them(units in js_string()) {
        let text = sidecar(&units);
        let a = parse_artifact(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(serialize_artifact(&a), text.clone());
        let lossy = document_facing(&units);
        prop_assert_eq!(&a.proposals[0].replacement, &lossy);
        prop_assert_eq!(&a.threads[0].comments[0].body, &lossy);
        prop_assert_eq!(&a.anchors[format!("k{lossy}").as_str()].fingerprint.text, &lossy);
        prop_assert_eq!(a.proposals[0].turn_id.as_deref(), Some(lossy.as_str()));
        // A change elsewhere leaves every such string as written.
        let mut b = a.clone();
        b.threads[0].comments[0].created_at = "2026-06-11T00:00:00.000Z".into();
        prop_assert_eq!(serialize_artifact(&b), text.replace("2026-06-10T00:00:00.000Z\"\n        }", "2026-06-11T00:00:00.000Z\"\n        }"));
        // Through the fast path's and the slow path's door alike.
        prop_assert_eq!(serialize_artifact(&cowriting::model::parse_artifact_via_value(&text).unwrap()), text);
    }

    /// Objects are written in JavaScript's key order.
    #[test]
    fn keys_are_written_in_javascript_order(keys in prop::collection::vec(key(), 0..10)) {
        prop_assert_eq!(to_js_json(&object(&keys)), naive_object(&keys));
        // In a record's unknown fields too, array indexes before the known keys.
        let extra = serde_json::to_string(&object(&keys)).unwrap();
        let text = format!(r#"{{"schemaVersion": 1, "docPath": "d.md", "x": {extra}}}"#);
        let a = parse_artifact(&text).unwrap();
        let out = serialize_artifact(&a);
        let again = serialize_artifact(&parse_artifact(&out).unwrap());
        prop_assert_eq!(&again, &out);
        prop_assert!(out.contains(&naive_object(&keys).replace('\n', "\n  ").trim_end().to_owned()), "{}", out);
    }
}

/// Runs `script` in node with `input` on stdin; its stdout as text. Node is required.
fn node(script: &str, input: &str) -> String {
    String::from_utf8(common::node(script, input.as_bytes())).unwrap()
}

fn sample<S: Strategy>(s: S, n: usize) -> Vec<S::Value> {
    let mut runner = TestRunner::deterministic();
    (0..n)
        .map(|_| s.new_tree(&mut runner).unwrap().current())
        .collect()
}

const READ_STDIN: &str =
    r#"let s = ""; process.stdin.setEncoding("utf8"); process.stdin.on("data", (d) => (s += d));"#;

/// The naive `JSON.stringify` agrees with node's, string by string, and a whole
/// sidecar of them is what node writes after reading it.
#[test]
fn naive_stringify_is_nodes() {
    let cases = sample(js_string(), 300);
    let input = serde_json::to_string(&cases).unwrap();
    let script = format!(
        "{READ_STDIN} process.stdin.on(\"end\", () => process.stdout.write(JSON.parse(s).map((u) => JSON.stringify(String.fromCharCode(...u))).join(\"\\n\")));"
    );
    let got = node(&script, &input);
    let got: Vec<&str> = got.split('\n').collect();
    assert_eq!(got.len(), cases.len());
    for (units, js) in cases.iter().zip(got) {
        assert_eq!(stringify(units), js, "{units:04x?}");
    }
    // And a sidecar holding each: node's rewrite is byte-identical to ours.
    let texts: Vec<String> = cases.iter().take(60).map(|u| sidecar(u)).collect();
    let script = format!(
        "{READ_STDIN} process.stdin.on(\"end\", () => process.stdout.write(JSON.stringify(JSON.parse(s).map((t) => JSON.stringify(JSON.parse(t), null, 2) + \"\\n\"))));"
    );
    let rewritten: Vec<String> =
        serde_json::from_str(&node(&script, &serde_json::to_string(&texts).unwrap())).unwrap();
    for (text, js) in texts.iter().zip(&rewritten) {
        assert_eq!(js, text);
        assert_eq!(&serialize_artifact(&parse_artifact(text).unwrap()), js);
    }
}

/// The naive key order is node's.
#[test]
fn naive_key_order_is_nodes() {
    let cases = sample(prop::collection::vec(key(), 0..10), 300);
    let input = serde_json::to_string(&cases).unwrap();
    let script = format!(
        "{READ_STDIN} process.stdin.on(\"end\", () => process.stdout.write(JSON.stringify(JSON.parse(s).map((keys) => {{ const o = {{}}; keys.forEach((k, i) => (o[k] = i)); return JSON.stringify(o, null, 2) + \"\\n\"; }}))));"
    );
    let got: Vec<String> = serde_json::from_str(&node(&script, &input)).unwrap();
    for (keys, js) in cases.iter().zip(&got) {
        assert_eq!(&naive_object(keys), js, "{keys:?}");
        assert_eq!(&to_js_json(&object(keys)), js, "{keys:?}");
    }
}
