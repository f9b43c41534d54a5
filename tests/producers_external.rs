//! External producers through `tests/fixtures/producers/external/producer.py`
//! (a contract-speaking script; its first argument picks a behaviour), and the
//! JSON Schemas in `docs/schemas/` against the contract types.

use std::path::PathBuf;
use std::thread;
use std::time::Duration;

use cowriting::config::ExternalConfig;
use cowriting::contract::{
    byte_span, to_json, verify, ContractProposal, Decision, Finding, Outcome, Producer, Revision, Source,
    Suggestion,
};
use cowriting::error::{Error, ErrorCode};
use cowriting::producers::external::{self, ExternalRequest};
use cowriting::producers::{Cancel, Request};
use serde_json::Value;

const DOC: &str = "Café: teh 日本 and teh 🎉 end\n";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn script() -> String {
    root()
        .join("tests/fixtures/producers/external/producer.py")
        .to_string_lossy()
        .into_owned()
}

fn cfg(args: &[&str]) -> ExternalConfig {
    ExternalConfig {
        command: script(),
        args: args.iter().map(|s| s.to_string()).collect(),
        timeout_secs: 30,
        output_mib: 64,
    }
}

fn request(bytes: &[u8]) -> Request<'_> {
    Request {
        doc_id: "notes/café.md",
        bytes,
        selection: None,
        instruction: None,
    }
}

fn run(mode: &str) -> cowriting::Result<cowriting::producers::Run> {
    external::run("teh", &cfg(&[mode]), &request(DOC.as_bytes()), &Cancel::new())
}

/// The suggestions the script should make, built by the Rust contract code.
fn expected() -> Vec<Suggestion> {
    let bytes = DOC.as_bytes();
    let producer = Producer {
        id: "teh-fixer".into(),
        version: "0.1.0".into(),
        provenance: "rule:Teh".into(),
    };
    let source = Source::of("notes/café.md", bytes);
    DOC.match_indices("teh")
        .map(|(at, _)| {
            Suggestion::new(
                &producer,
                &source,
                bytes,
                Finding {
                    span: byte_span(at, at + 3),
                    replacement: "the".into(),
                    category: "spelling".into(),
                    reason: "Did you mean \u{201c}the\u{201d}?".into(),
                    confidence: Some(0.9),
                },
            )
            .unwrap()
        })
        .collect()
}

#[test]
fn a_good_producer_is_read_and_its_ids_agree_with_ours() {
    let got = run("good").unwrap();
    let want = expected();
    assert_eq!(want.len(), 2);
    // Ids computed in Python over JCS equal the Rust ones: one contract.
    assert_eq!(got.suggestions, want);
    assert_eq!(to_json(&got.suggestions), to_json(&want));
    for s in &got.suggestions {
        verify(s, &Revision::of(DOC.as_bytes())).unwrap();
    }
    assert_eq!(got.producer.as_ref().map(|p| p.id.as_str()), Some("teh-fixer"));
    assert!(got.skipped.is_empty());

    let obj = run("good-object").unwrap();
    assert_eq!(obj.suggestions, want);
    assert_eq!(obj.skipped, ["teh-fixer: one finding had no fix"]);
}

#[test]
fn the_request_is_one_json_object_on_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("request.json");
    let got = external::run(
        "teh",
        &cfg(&["record", file.to_str().unwrap()]),
        &request(DOC.as_bytes()),
        &Cancel::new(),
    )
    .unwrap();
    assert!(got.suggestions.is_empty());
    let req: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let source = Source::of("notes/café.md", DOC.as_bytes());
    assert_eq!(
        req,
        serde_json::json!({
            "schemaVersion": 1,
            "docId": "notes/café.md",
            "revision": source.revision,
            "sha256": source.sha256,
            "text": DOC,
        })
    );
}

#[test]
fn any_bad_record_refuses_the_whole_run() {
    let cases = [
        ("not-json", "output is not JSON (line 2, column 3"),
        ("not-array", "expected a JSON array of suggestions"),
        ("unknown-key", "extra: unknown key"),
        ("wrong-schema", "suggestions[1].schemaVersion: is 2"),
        ("out-of-range", "suggestions[1].span: end 40 is past the end"),
        (
            "off-boundary",
            "suggestions[1].span.start: byte 4 is inside a multi-byte character",
        ),
        ("wrong-text", "suggestions[1].text: is \"tah\" but bytes"),
        ("wrong-sha", "suggestions[1].source.sha256"),
        ("wrong-revision", "suggestions[1].source.revision"),
        ("wrong-doc", "suggestions[1].source.docId: is \"other.md\""),
        ("bad-id", "suggestions[1].id: sg_0000"),
        ("duplicate", "suggestions[1].id: duplicates suggestions[0]"),
    ];
    for (mode, want) in cases {
        let e = run(mode).unwrap_err();
        assert!(
            matches!(&e, Error::Producer { producer, .. } if producer == "teh"),
            "{mode}: {e:?}"
        );
        let msg = e.to_string();
        assert!(msg.starts_with("teh: "), "{mode}: {msg}");
        assert!(msg.contains(want), "{mode}: {msg} should contain {want}");
        assert!(msg.contains("the whole run is refused"), "{mode}: {msg}");
        assert!(!msg.contains('\n'), "{mode}: one line: {msg}");
    }
}

#[test]
fn a_failing_producer_names_its_first_stderr_line() {
    let e = run("fail").unwrap_err();
    assert!(matches!(e, Error::Producer { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "teh: exited with status 3: checker crashed: out of cheese; nothing was filed"
    );
    let missing = ExternalConfig {
        command: "/nonexistent/cowriting-test/checker".into(),
        args: vec![],
        timeout_secs: 5,
        output_mib: 64,
    };
    let e = external::run("teh", &missing, &request(b"x"), &Cancel::new()).unwrap_err();
    assert_eq!(e.code(), ErrorCode::NotInstalled, "{e:?}");
    assert!(e.to_string().contains("is not installed"), "{e}");
}

#[test]
fn a_slow_producer_times_out() {
    let mut c = cfg(&["sleep"]);
    c.timeout_secs = 1;
    let e = external::run("teh", &c, &request(DOC.as_bytes()), &Cancel::new()).unwrap_err();
    assert!(
        matches!(&e, Error::TimedOut { what, secs: 1, .. } if what == "teh"),
        "{e:?}"
    );
    assert_eq!(e.code(), ErrorCode::TimedOut);
    assert!(
        e.to_string().contains("[external.teh] timeout_secs"),
        "the message names the limit: {e}"
    );
}

/// A producer that prints without end is stopped at its output cap, its
/// memory never more than the cap: a failure naming the limit.
#[test]
fn a_producer_printing_without_end_is_stopped_at_its_cap() {
    let c = ExternalConfig {
        command: "/bin/sh".into(),
        args: vec!["-c".into(), "yes".into()],
        timeout_secs: 600,
        output_mib: 1,
    };
    let e = external::run("teh", &c, &request(DOC.as_bytes()), &Cancel::new()).unwrap_err();
    assert_eq!(e.code(), ErrorCode::Producer, "{e:?}");
    let m = e.to_string();
    assert!(
        m.contains("more than 1 MiB on its standard output") && m.contains("[external.teh] output_mib"),
        "{m}"
    );
}

#[test]
fn a_running_producer_can_be_cancelled() {
    let cancel = Cancel::new();
    let flag = cancel.clone();
    let canceller = thread::spawn(move || {
        thread::sleep(Duration::from_millis(200));
        flag.cancel();
    });
    let e = external::run("teh", &cfg(&["sleep"]), &request(DOC.as_bytes()), &cancel).unwrap_err();
    canceller.join().unwrap();
    assert!(matches!(&e, Error::Cancelled { what } if what == "teh"), "{e:?}");
}

// ---- docs/schemas ----

fn schema(name: &str) -> Value {
    let path = root().join("docs/schemas").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        v["$schema"], "https://json-schema.org/draft/2020-12/schema",
        "{name}"
    );
    v
}

fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
    k.sort();
    k
}

fn strings(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect();
    k.sort();
    k
}

/// `required` is exactly the keys a record always has, `properties` exactly
/// the keys it can have, unknown keys are refused — at this level and below.
fn check_object(name: &str, schema: &Value, always: &Value, full: &Value) {
    assert_eq!(schema["type"], "object", "{name}");
    assert_eq!(schema["additionalProperties"], false, "{name}");
    assert_eq!(strings(&schema["required"]), keys(always), "{name}: required");
    assert_eq!(keys(&schema["properties"]), keys(full), "{name}: properties");
    for (k, v) in full.as_object().unwrap() {
        if v.is_object() {
            let sub = &schema["properties"][k];
            check_object(&format!("{name}.{k}"), sub, &always[k], v);
        }
    }
}

#[test]
fn schemas_match_the_contract_types() {
    let mut s = expected().remove(0);
    let full = serde_json::to_value(&s).unwrap();
    s.confidence = None;
    let always = serde_json::to_value(&s).unwrap();
    s.migrated_from = Some(s.id.clone());
    let with_migrated = serde_json::to_value(&s).unwrap();
    let mut full_all = full.clone();
    full_all["migratedFrom"] = with_migrated["migratedFrom"].clone();
    let sg = schema("suggestion.schema.json");
    check_object("suggestion", &sg, &always, &full_all);
    assert_eq!(sg["properties"]["id"]["pattern"], "^sg_[0-9a-f]{64}$");
    assert_eq!(sg["properties"]["migratedFrom"]["pattern"], "^sg_[0-9a-f]{64}$");
    assert_eq!(sg["properties"]["confidence"]["minimum"], 0);
    assert_eq!(sg["properties"]["confidence"]["maximum"], 1);
    assert_eq!(sg["properties"]["schemaVersion"]["const"], 1);

    let p = ContractProposal::of(&expected());
    let pv = serde_json::to_value(&p).unwrap();
    let pp = schema("proposal.schema.json");
    check_object("proposal", &pp, &pv, &pv);
    assert_eq!(pp["properties"]["id"]["pattern"], "^pp_[0-9a-f]{64}$");
    assert_eq!(
        pp["properties"]["members"]["items"]["pattern"],
        "^sg_[0-9a-f]{64}$"
    );

    let d = Decision {
        schema_version: 1,
        proposal_id: p.id.clone(),
        outcome: Outcome::Changed,
        chosen_replacement: Some("thé".into()),
        decided_at: "2026-01-02T03:04:05Z".into(),
        decided_by: "writer@example.com".into(),
    };
    let dfull = serde_json::to_value(&d).unwrap();
    let dalways = serde_json::to_value(Decision {
        outcome: Outcome::Accepted,
        chosen_replacement: None,
        ..d.clone()
    })
    .unwrap();
    let ds = schema("decision.schema.json");
    check_object("decision", &ds, &dalways, &dfull);
    assert_eq!(
        strings(&ds["properties"]["outcome"]["enum"]),
        ["accepted", "changed", "rejected"]
    );
    assert_eq!(ds["if"]["properties"]["outcome"]["const"], "changed");
    assert_eq!(strings(&ds["then"]["required"]), ["chosenReplacement"]);

    let bytes = DOC.as_bytes();
    let r = serde_json::to_value(ExternalRequest::of(&request(bytes))).unwrap();
    let rs = schema("external-request.schema.json");
    check_object("external-request", &rs, &r, &r);

    let resp = schema("external-response.schema.json");
    let forms = resp["oneOf"].as_array().unwrap();
    assert_eq!(forms[0]["items"]["$ref"], "suggestion.schema.json");
    assert_eq!(
        forms[1]["properties"]["suggestions"]["items"]["$ref"],
        "suggestion.schema.json"
    );
    assert_eq!(strings(&forms[1]["required"]), ["suggestions"]);
    assert_eq!(keys(&forms[1]["properties"]), ["skipped", "suggestions"]);
}
