//! Golden sidecars written by real JavaScript.
//!
//! `tests/fixtures/sidecars/gen.mjs` builds sidecars as JS objects and writes each
//! with `JSON.stringify(x, null, 2) + "\n"`, exactly as the VS Code extension does,
//! next to the document it belongs to (`<name>.json` + `<name>.md`). Here:
//!
//! - every fixture loads and saves back byte for byte (`round_trip::*`);
//! - the committed fixtures are what node writes today (`committed_fixtures_are_javascripts_output`);
//! - through the real CLI, propose then reject leaves the sidecar and the document
//!   byte-identical (`propose_reject::*`);
//! - a CRLF document with a BOM keeps both through `accept`;
//! - after every write through the CLI, the sidecar is what `JSON.stringify`
//!   writes for it (`JSON.stringify(JSON.parse(ours), null, 2) + "\n"`, by node);
//! - compatibility (issue 10): plane-16 text next to lone surrogates, a lone
//!   surrogate accepted into the document, `null` optionals, integer-like keys,
//!   lone-CR line counting, touching attribution records, agent provenance keys.
//!   A fixture `<name>.md.expected` is what node writes for the document after its
//!   first proposal is accepted.
//!
//! To add a fixture: add it to gen.mjs, run `node tests/fixtures/sidecars/gen.mjs`,
//! commit the output and list it in `golden!` below.
//!
//! Node is required (`make test` installs it): a test that needs it fails when it
//! is missing, it does not skip.

mod common;
use common::{node, Ws};
use cowriting::model::{parse_artifact, serialize_artifact};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// What the VS Code extension would write after reading `text`:
/// `JSON.stringify(JSON.parse(text), null, 2) + "\n"`.
fn javascript_rewrites(text: &str) -> String {
    let script = r#"let s = ""; process.stdin.setEncoding("utf8");
process.stdin.on("data", (d) => (s += d));
process.stdin.on("end", () => process.stdout.write(JSON.stringify(JSON.parse(s), null, 2) + "\n"));"#;
    String::from_utf8(node(script, text.as_bytes())).unwrap()
}

/// `text` is exactly what JavaScript writes for the value it holds.
fn assert_javascript_stable(what: &str, text: &str) {
    let js = javascript_rewrites(text);
    assert!(js == text, "{what}: {}", first_difference(&js, text));
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sidecars")
}

fn fixture_text(name: &str) -> String {
    let file = fixtures_dir().join(format!("{name}.json"));
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

fn fixture_document(name: &str) -> Vec<u8> {
    let file = fixtures_dir().join(format!("{name}.md"));
    std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// The fixture's `docPath`, read from its own line (so it works even for a
/// fixture the model cannot parse).
fn fixture_doc_path(name: &str) -> String {
    let text = fixture_text(name);
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("  \"docPath\": "))
        .unwrap_or_else(|| panic!("{name}.json has no docPath line"));
    serde_json::from_str(line.trim_end_matches(',')).unwrap()
}

/// Where two texts first differ, with a little context, for a readable failure.
fn first_difference(expected: &str, actual: &str) -> String {
    let (exp, act): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let n = exp.iter().zip(&act).take_while(|(a, b)| a == b).count();
    let from = n.saturating_sub(3);
    let show = |lines: &[&str]| {
        lines
            .iter()
            .enumerate()
            .skip(from)
            .take(n - from + 3)
            .map(|(i, l)| format!("{:5} {l}", i + 1))
            .collect::<Vec<_>>()
            .join("\n")
    };
    format!(
        "first difference at line {} ({} vs {} bytes)\n--- JavaScript wrote:\n{}\n--- we wrote:\n{}",
        n + 1,
        expected.len(),
        actual.len(),
        show(&exp),
        show(&act)
    )
}

// ---- (a) load + save reproduces the file ----------------------------------------

fn assert_round_trip(name: &str) {
    let text = fixture_text(name);
    let artifact = parse_artifact(&text).unwrap_or_else(|e| panic!("{name}.json does not parse: {e}"));
    let back = serialize_artifact(&artifact);
    assert!(back == text, "{name}.json: {}", first_difference(&text, &back));
    // And once more from our own output.
    let again = parse_artifact(&back).unwrap();
    assert_eq!(again, artifact, "{name}.json: reparse differs");
}

// ---- (c) propose then reject through the CLI leaves both files as they were ------

/// A workspace holding fixture `name`: its document at its docPath and its
/// sidecar at `.threads/<docPath>.json`. Returns the docPath.
fn with_fixture(name: &str) -> (Ws, String) {
    let ws = Ws::new();
    let doc = fixture_doc_path(name);
    ws.write(&doc, fixture_document(name));
    ws.write(&sidecar_rel(&doc), fixture_text(name));
    (ws, doc)
}

fn sidecar_rel(doc: &str) -> String {
    format!(".threads/{doc}.json")
}

/// Every generated document holds this sentence once; the CLI tests propose on it.
const SENTINEL_WORD: &str = "placeholder";
const NEW_TEXT: &str = "golden-replacement";

fn assert_propose_reject_leaves_files(name: &str) {
    let (ws, doc) = with_fixture(name);
    let before = ws.snapshot();
    let sidecar_before = ws.read_bytes(&sidecar_rel(&doc));

    let printed = ws.ok(&["propose", &doc, "--find", SENTINEL_WORD, "--replace", NEW_TEXT]);
    let proposed = ws.read_bytes(&sidecar_rel(&doc));
    assert_ne!(proposed, sidecar_before, "{name}: propose did not persist");
    // A write of an unrelated record is still what JavaScript writes.
    assert_javascript_stable(
        &format!("{name} after propose"),
        std::str::from_utf8(&proposed).unwrap(),
    );

    // The CLI's agent provenance has the seeds' keys, in their order ("" when unknown).
    let proposed = String::from_utf8(proposed).unwrap();
    let ours = &proposed[proposed
        .find(&format!("\"replacement\": \"{NEW_TEXT}\""))
        .unwrap()..];
    let agent = "\"agent\": {\n          \"sdk\": \"cowriting-cli\",\n          \"model\": \"\",\n          \"sessionId\": \"\"\n        }";
    assert!(ours.contains(agent), "{name}: {ours}");
    let listed = ws.json(&["proposals", &doc]);
    let ours: Vec<&Value> = listed["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["replacement"] == NEW_TEXT)
        .collect();
    assert_eq!(ours.len(), 1, "{name}: {listed}");
    let id = ours[0]["id"].as_str().unwrap();
    assert_eq!(id, printed.trim(), "{name}: propose printed another id");
    assert_eq!(ours[0]["state"], "pending", "{name}: {listed}");
    assert_eq!(ours[0]["target"], SENTINEL_WORD, "{name}: {listed}");

    ws.ok(&["reject", &doc, id]);
    let after = ws.snapshot();
    // The decision log (.cowriting/) records the reject; everything else is as it was.
    let ledger = |p: &PathBuf| p.components().any(|c| c.as_os_str() == ".cowriting");
    let before: Vec<_> = before.into_iter().filter(|(p, _)| !ledger(p)).collect();
    let after: Vec<_> = after.into_iter().filter(|(p, _)| !ledger(p)).collect();
    let names = |s: &[(PathBuf, Vec<u8>)]| s.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    assert_eq!(
        names(&after),
        names(&before),
        "{name}: files appeared or vanished"
    );
    let sidecar_after = ws.read_bytes(&sidecar_rel(&doc));
    assert!(
        sidecar_after == sidecar_before,
        "{name}: sidecar changed by propose + reject: {}",
        first_difference(
            &String::from_utf8_lossy(&sidecar_before),
            &String::from_utf8_lossy(&sidecar_after)
        )
    );
    assert!(
        after == before,
        "{name}: the document changed by propose + reject"
    );
}

/// One test per fixture in each of `round_trip` and `propose_reject`; attributes
/// (such as `#[ignore = "bug: …"]`) apply to both tests of that fixture.
macro_rules! golden {
    ($( $(#[$attr:meta])* $test:ident => $file:literal, )*) => {
        const FIXTURES: &[&str] = &[$($file),*];

        mod round_trip {
            $( $(#[$attr])* #[test] fn $test() { super::assert_round_trip($file) } )*
        }

        mod propose_reject {
            $( $(#[$attr])* #[test] fn $test() { super::assert_propose_reject_leaves_files($file) } )*
        }
    };
}

golden! {
    empty => "empty",
    threads => "threads",
    attributions => "attributions",
    proposals => "proposals",
    unicode => "unicode",
    numbers => "numbers",
    long_strings => "long-strings",
    unknown_fields => "unknown-fields",
    crlf => "crlf",
    nested_doc_path => "nested-docpath",
    lone_surrogate => "lone-surrogate",
    plane_16 => "plane-16",
    lone_replacement => "lone-replacement",
    nulls => "nulls",
    integer_keys => "integer-keys",
    cr_lines => "cr-lines",
    adjacent_attributions => "adjacent-attributions",
}

/// Committed `.json` / `.md` files in the fixture folder.
fn committed_outputs() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") || n.ends_with(".md") || n.ends_with(".md.expected"))
        .collect();
    names.sort();
    names
}

#[test]
fn every_committed_fixture_is_tested() {
    let mut listed: Vec<String> = FIXTURES
        .iter()
        .flat_map(|f| [format!("{f}.json"), format!("{f}.md"), format!("{f}.md.expected")])
        .filter(|n| !n.ends_with(".expected") || fixtures_dir().join(n).exists())
        .collect();
    listed.sort();
    assert_eq!(
        committed_outputs(),
        listed,
        "list new fixtures in golden! (tests/golden.rs)"
    );
}

// ---- (b) the committed files are what JavaScript writes ---------------------------

#[test]
fn committed_fixtures_are_javascripts_output() {
    node("", b""); // node is required
    let out = tempfile::tempdir().unwrap();
    let run = std::process::Command::new("node")
        .arg(fixtures_dir().join("gen.mjs"))
        .arg(out.path())
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "gen.mjs failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let mut fresh: Vec<String> = std::fs::read_dir(out.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    fresh.sort();
    assert_eq!(
        fresh,
        committed_outputs(),
        "gen.mjs writes other files than are committed; rerun it and commit"
    );
    for name in &fresh {
        let new = std::fs::read(out.path().join(name)).unwrap();
        let old = std::fs::read(fixtures_dir().join(name)).unwrap();
        assert!(
            new == old,
            "{name}: the committed file is not what gen.mjs writes; rerun it and commit: {}",
            first_difference(&String::from_utf8_lossy(&new), &String::from_utf8_lossy(&old))
        );
    }
}

// ---- (d) CRLF + BOM through accept ----------------------------------------------

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Accept the crlf fixture's proposal ("quick brown" → "slow red") through the CLI.
fn accept_crlf() -> (Ws, Vec<u8>, Value) {
    let (ws, doc) = with_fixture("crlf");
    assert_eq!(doc, "crlf.md");
    let original = ws.read_bytes(&doc);
    let listed = ws.json(&["proposals", &doc]);
    let p = &listed["proposals"][0];
    assert_eq!(
        (&p["state"], &p["target"]),
        (&"pending".into(), &"quick brown".into()),
        "{listed}"
    );
    ws.ok(&["accept", &doc, p["id"].as_str().unwrap()]);
    let sidecar: Value = serde_json::from_slice(&ws.read_bytes(&sidecar_rel(&doc))).unwrap();
    (ws, original, sidecar)
}

fn crlf_count(bytes: &[u8]) -> usize {
    bytes.windows(2).filter(|w| w == b"\r\n").count()
}

#[test]
fn crlf_bom_document_keeps_line_endings_and_bom_through_accept() {
    let (ws, original, sidecar) = accept_crlf();
    assert!(original.starts_with(BOM));
    let text = String::from_utf8(original.clone()).unwrap();
    assert_eq!(text.matches("quick brown").count(), 1);
    let expected = text.replace("quick brown", "slow red");
    let after = ws.read_bytes("crlf.md");
    assert!(
        after == expected.as_bytes(),
        "{}",
        first_difference(&expected, &String::from_utf8_lossy(&after))
    );
    // Spelled out: the BOM, every CRLF, and no bare LF.
    assert!(after.starts_with(BOM) && !after[3..].starts_with(BOM));
    assert_eq!(crlf_count(&after), crlf_count(&original));
    let lf = after.iter().filter(|b| **b == b'\n').count();
    assert_eq!(lf, crlf_count(&after), "a bare LF appeared");
    // The proposal is gone; the sidecar is still in our byte-stable form.
    assert_eq!(sidecar["proposals"], Value::Array(vec![]));
    let text = std::fs::read_to_string(ws.file(".threads/crlf.md.json")).unwrap();
    assert_eq!(serialize_artifact(&parse_artifact(&text).unwrap()), text);
}

/// The anchor and fingerprint of the thread / the attribution in the sidecar after accept.
fn anchor_of<'a>(sidecar: &'a Value, section: &str, id_prefix: &str) -> (&'a Value, &'a Value) {
    let record = sidecar[section]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"].as_str().unwrap().starts_with(id_prefix))
        .unwrap_or_else(|| panic!("no {section} record {id_prefix}…: {sidecar:#}"));
    let anchor = &sidecar["anchors"][record["anchorId"].as_str().unwrap()];
    (record, anchor)
}

#[test]
fn accept_keeps_unknown_fields_of_the_records_it_does_not_remove() {
    let (_ws, _, sidecar) = accept_crlf();
    assert_eq!(sidecar["lineEndings"], "crlf", "top level");
    let (thread, anchor) = anchor_of(&sidecar, "threads", "t_313a7b9c1ac5565d91ee");
    assert_eq!(thread["labels"], serde_json::json!(["crlf"]));
    assert_eq!(thread["comments"][0]["mood"], "curious");
    assert_eq!(anchor["tag"], "thread-anchor");
    assert_eq!(anchor["fingerprint"]["text"], "fox\r\njumps");
    assert_eq!(
        anchor["fingerprint"]["scheme"], "crlf",
        "thread fingerprint extra"
    );
    let (human, anchor) = anchor_of(&sidecar, "attributions", "at_8dbd7edf704870459bbb");
    assert_eq!(human["author"]["kind"], "human");
    assert_eq!(human["source"], "keyboard", "attribution extra");
    assert_eq!(anchor["tag"], "attribution-anchor", "attribution anchor extra");
    assert_eq!(
        anchor["fingerprint"]["text"],
        "A human wrote this line on Windows."
    );
    // The accepted words are now Claude's (one span per changed word; the space
    // between them was not rewritten).
    let agent: Vec<(&Value, &Value)> = sidecar["attributions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["author"]["kind"] == "agent")
        .map(|r| {
            (
                &r["turnId"],
                &sidecar["anchors"][r["anchorId"].as_str().unwrap()]["fingerprint"],
            )
        })
        .collect();
    let texts: Vec<&Value> = agent.iter().map(|(_, fp)| &fp["text"]).collect();
    assert_eq!(texts, ["slow", "red"], "{sidecar:#}");
    for (turn, fp) in agent {
        assert_eq!(
            (turn.as_str(), fp["lineHint"].as_u64()),
            (Some("turn-5"), Some(2))
        );
    }
}

#[test]
fn accept_keeps_unknown_fingerprint_fields_of_attribution_anchors() {
    let (_ws, _, sidecar) = accept_crlf();
    let (_, anchor) = anchor_of(&sidecar, "attributions", "at_8dbd7edf704870459bbb");
    assert_eq!(anchor["fingerprint"]["note"], "fp-extra", "{sidecar:#}");
}

/// The fast typed parser and the `Value`-based reference parser read every
/// fixture the same way.
#[test]
fn fast_parser_agrees_with_the_value_parser() {
    for name in committed_outputs().into_iter().filter(|n| n.ends_with(".json")) {
        let text = std::fs::read_to_string(fixtures_dir().join(&name)).unwrap();
        assert_eq!(
            cowriting::model::parse_artifact(&text).unwrap(),
            cowriting::model::parse_artifact_via_value(&text).unwrap(),
            "{name}"
        );
    }
}

// ---- (e) compatibility with the VS Code flow (issue 10) -----------------------------

/// Accept the fixture's first proposal through the CLI; the document after it
/// must be `<name>.md.expected` (what node writes). Returns the workspace, the
/// docPath and the sidecar text after.
fn accept_first(name: &str) -> (Ws, String, String) {
    let (ws, doc) = with_fixture(name);
    let listed = ws.json(&["proposals", &doc]);
    let p = &listed["proposals"][0];
    assert_eq!(p["state"], "pending", "{name}: {listed}");
    ws.ok(&["accept", &doc, p["id"].as_str().unwrap()]);
    let expected = std::fs::read(fixtures_dir().join(format!("{name}.md.expected"))).unwrap();
    let after = ws.read_bytes(&doc);
    assert!(
        after == expected,
        "{name}: {}",
        first_difference(
            &String::from_utf8_lossy(&expected),
            &String::from_utf8_lossy(&after)
        )
    );
    let sidecar = ws.read(&sidecar_rel(&doc));
    assert_javascript_stable(&format!("{name} after accept"), &sidecar);
    (ws, doc, sidecar)
}

fn records<'a>(sidecar: &'a Value, section: &str) -> &'a [Value] {
    sidecar[section].as_array().unwrap()
}

/// Item 1: real U+10F800–U+10FFFF text is text: it anchors, and it survives
/// writes (round trip and propose/reject above) byte for byte, next to lone
/// surrogates, which keep their 6-byte escapes.
#[test]
fn plane_16_text_is_text_and_lone_surrogates_stay_escapes() {
    let text = fixture_text("plane-16");
    let a = parse_artifact(&text).unwrap();
    let doc = cowriting::Document::new(std::str::from_utf8(&fixture_document("plane-16")).unwrap());
    for (id, anchor) in &a.anchors {
        let fp = &anchor.fingerprint;
        let found = cowriting::anchor::resolve(&doc, fp, None).range();
        let found = found.unwrap_or_else(|| panic!("anchor {id} ({:?}) does not resolve", fp.text));
        assert_eq!(doc.slice(found), fp.text, "{id}");
    }
    assert!(a.threads[0].comments[0]
        .body
        .contains("real \u{10FFFF} then lone \u{FFFD}"));
    // In the file: real chars literal, lone surrogates as escapes, never mixed up.
    assert!(text.contains(r#""\ud83dkey": "\ude00value""#), "{text}");
    assert!(text.contains("\\ud83d\u{10FFFF}\\ude00"), "{text}");
    assert_javascript_stable("plane-16", &text);
    // An accept rewrites every record; the plane-16 ones are still as written.
    let (_ws, _doc, after) = accept_first_any("plane-16");
    for needle in [
        "\\ud83d\u{10FFFF}\\ude00",
        "\"\\ud83dkey\": \"\\ude00value\"",
        "\"sess-\u{10FFFF}\"",
        "writer\u{10FFFF}@",
    ] {
        assert!(after.contains(needle), "{needle}: {after}");
    }
}

/// Accept the first proposal (no expected document to compare).
fn accept_first_any(name: &str) -> (Ws, String, String) {
    let (ws, doc) = with_fixture(name);
    let listed = ws.json(&["proposals", &doc]);
    let p = &listed["proposals"][0];
    assert_eq!(p["state"], "pending", "{name}: {listed}");
    ws.ok(&["accept", &doc, p["id"].as_str().unwrap()]);
    let sidecar = ws.read(&sidecar_rel(&doc));
    assert_javascript_stable(&format!("{name} after accept"), &sidecar);
    (ws, doc, sidecar)
}

/// Item 2: a replacement holding a lone surrogate reaches the document as
/// U+FFFD (EF BF BD), exactly what node writes.
#[test]
fn accepting_a_lone_surrogate_writes_what_node_writes() {
    let (ws, doc, _) = accept_first("lone-replacement");
    let bytes = ws.read_bytes(&doc);
    assert!(bytes.windows(3).any(|w| w == b"\xEF\xBF\xBD"));
    assert!(
        !bytes.windows(2).any(|w| w == [0xF4, 0x8F]),
        "a plane-16 stand-in reached the document"
    );
}

/// Item 3: `null` optionals are absent, and stay `null` in the file, also in a
/// record the save rewrote.
#[test]
fn null_optionals_are_read_and_kept() {
    let a = parse_artifact(&fixture_text("nulls")).unwrap();
    assert_eq!(a.proposals[0].turn_id, None);
    assert_eq!(a.proposals[1].author.agent.as_ref().unwrap().model, None);
    let (ws, doc, after) = accept_first("nulls");
    let sidecar: Value = serde_json::from_str(&after).unwrap();
    let by_id = |id: &str| {
        records(&sidecar, "attributions")
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("{id} lost: {after}"))
            .clone()
    };
    let human = by_id("at_fcfa1a1b88a7fc826639");
    let agent = by_id("at_6de0bf2522651b449876");
    let line =
        |r: &Value| sidecar["anchors"][r["anchorId"].as_str().unwrap()]["fingerprint"]["lineHint"].clone();
    // The accepted text added a line above them: rewritten, and still null.
    assert_eq!((line(&human), line(&agent)), (4.into(), 5.into()), "{after}");
    assert!(
        human.as_object().unwrap().get("turnId") == Some(&Value::Null),
        "{human}"
    );
    assert_eq!(agent["turnId"], Value::Null);
    assert_eq!(agent["instruction"], Value::Null);
    assert!(agent.as_object().unwrap().contains_key("instruction"));
    // The other proposal is as written.
    let p2 = &records(&sidecar, "proposals")[0];
    assert_eq!(p2["instruction"], Value::Null);
    assert_eq!(p2["author"]["agent"]["model"], Value::Null);
    assert_eq!(
        ws.json(&["proposals", &doc])["proposals"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

/// Item 5: integer-like keys in JavaScript's order, in records, anchors and
/// unknown values; a write that adds an anchor keeps it so.
#[test]
fn integer_keys_are_ordered_as_javascript_orders_them() {
    let text = fixture_text("integer-keys");
    assert!(text.starts_with("{\n  \"1\": [\n"), "{text}");
    assert_javascript_stable("integer-keys", &text);
    let (_ws, _doc, after) = accept_first_any("integer-keys");
    let anchors: Vec<String> = serde_json::from_str::<Value>(&after).unwrap()["anchors"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(&anchors[..2], ["7", "42"], "{after}");
}

/// Item 6: lines end at "\n", "\r\n" and a lone "\r", as VS Code counts them:
/// fingerprints we build carry the same lineHint as the VS Code flow's, and the
/// hint tells two context-free copies apart.
#[test]
fn line_hints_count_lines_as_vs_code() {
    let a = parse_artifact(&fixture_text("cr-lines")).unwrap();
    let text = String::from_utf8(fixture_document("cr-lines")).unwrap();
    let doc = cowriting::Document::new(&text);
    for (id, anchor) in a
        .anchors
        .iter()
        .filter(|(_, an)| !an.fingerprint.before.is_empty())
    {
        let fp = &anchor.fingerprint;
        let range = cowriting::anchor::resolve(&doc, fp, None).range().unwrap();
        let built = cowriting::anchor::build_fingerprint(&doc, range);
        assert_eq!(&built, fp, "{id}");
    }
    accept_first("cr-lines");
}

/// Item 4: touching records of one author and turn are never merged; both keep
/// their ids, times and unknown fields, in the order they were read.
#[test]
fn touching_attribution_records_stay_apart_and_in_order() {
    let (_ws, _doc, after) = accept_first("adjacent-attributions");
    let sidecar: Value = serde_json::from_str(&after).unwrap();
    let at = records(&sidecar, "attributions");
    let first: Vec<(&str, &str, &str)> = at
        .iter()
        .take(2)
        .map(|r| {
            (
                r["id"].as_str().unwrap(),
                r["createdAt"].as_str().unwrap(),
                r["note"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        first,
        [
            ("at_54238a58e585771f0ae8", "2026-06-10T11:11:00.917Z", "second"),
            ("at_36f7b35dd74f4b412c3b", "2026-06-10T11:10:00.910Z", "first")
        ],
        "{after}"
    );
    let tags: Vec<&str> = at
        .iter()
        .take(2)
        .map(|r| {
            sidecar["anchors"][r["anchorId"].as_str().unwrap()]["tag"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert_eq!(tags, ["second", "first"]);
    assert_eq!(at.len(), 3, "{after}");
    assert_eq!(
        sidecar["anchors"][at[2]["anchorId"].as_str().unwrap()]["fingerprint"]["text"],
        "Accepted"
    );
}

/// Item 7: producers' agent provenance has the seeds' keys in their order, ""
/// when unknown (the CLI's is checked in `propose_reject::*`, MCP's in tests/mcp.rs).
#[test]
fn producer_provenance_has_the_seeds_keys() {
    let producer = |provenance: &str| cowriting::contract::Producer {
        id: "vale".into(),
        version: "3.0".into(),
        provenance: provenance.into(),
    };
    for (provenance, model) in [("rule:vale", ""), ("model:claude-haiku", "claude-haiku")] {
        let author = cowriting::ledger::author_for(&producer(provenance));
        let v = cowriting::model::provenance_value(&author);
        let agent = v["agent"].as_object().unwrap();
        assert_eq!(
            agent
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str().unwrap()))
                .collect::<Vec<_>>(),
            [("sdk", "vale 3.0"), ("model", model), ("sessionId", "")],
            "{provenance}"
        );
    }
}
