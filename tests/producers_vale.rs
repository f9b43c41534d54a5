//! The Vale producer on recorded Vale output (`tests/fixtures/producers/vale/`,
//! copies of the shared fixtures) and through a fake `vale` executable.

use std::path::PathBuf;

use cowriting::config::ValeConfig;
use cowriting::contract::{to_json, verify, Revision, Suggestion};
use cowriting::error::{Error, ErrorCode};
use cowriting::producers::{vale, Cancel, Request, Run};
use serde_json::{json, Value};

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/producers")
        .join(rel)
}

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(fixture(rel)).unwrap()
}

fn request<'a>(doc_id: &'a str, bytes: &'a [u8]) -> Request<'a> {
    Request {
        doc_id,
        bytes,
        selection: None,
        instruction: None,
    }
}

/// An alert as Vale prints it.
fn alert(line: usize, span: [usize; 2], check: &str, m: &str, action: Value) -> Value {
    json!({
        "Action": action,
        "Span": span,
        "Check": check,
        "Description": "",
        "Link": "",
        "Message": format!("about '{m}'"),
        "Severity": "warning",
        "Match": m,
        "Line": line,
    })
}

fn remove() -> Value {
    json!({"Name": "remove", "Params": null})
}

fn convert(doc_id: &str, bytes: &[u8], alerts: Vec<Value>) -> Run {
    let out = json!({ "stdin.md": alerts });
    vale::from_output(out.to_string().as_bytes(), &request(doc_id, bytes), "3.15.1").unwrap()
}

fn at(bytes: &[u8], s: &Suggestion) -> String {
    String::from_utf8(bytes[s.span.start.0..s.span.end.0].to_vec()).unwrap()
}

fn check_all(bytes: &[u8], run: &Run) {
    for s in &run.suggestions {
        assert_eq!(at(bytes, s), s.text);
        verify(s, &Revision::of(bytes)).unwrap();
    }
}

#[test]
fn sample1_recorded_output() {
    let bytes = read("vale/sample1-py-lintro/vale_violations.md");
    let json = read("vale/sample1-py-lintro/output.json");
    let req = request("vale_violations.md", &bytes);
    let run = vale::from_output(&json, &req, "3.15.1").unwrap();
    check_all(&bytes, &run);
    let got: Vec<(usize, usize, &str, &str, &str, &str)> = run
        .suggestions
        .iter()
        .map(|s| {
            (
                s.span.start.0,
                s.span.end.0,
                s.text.as_str(),
                s.replacement.as_str(),
                s.category.as_str(),
                s.producer.provenance.as_str(),
            )
        })
        .collect();
    // "# Prose Sample\n\n" is 16 bytes; line 5 starts at 16 + 55 + 1 = 72.
    assert_eq!(
        got,
        vec![
            (16, 23, "The the", "The", "repetition", "rule:Vale.Repetition"),
            (
                115,
                126,
                "words words",
                "words",
                "repetition",
                "rule:Vale.Repetition"
            ),
        ]
    );
    assert_eq!(run.suggestions[0].reason, "'the' is repeated!");
    assert_eq!(run.suggestions[0].producer.id, "vale");
    assert_eq!(run.suggestions[0].producer.version, "3.15.1");
    // The spelling alert needs Vale's dictionaries: reported, not applied.
    assert_eq!(run.skipped.len(), 1, "{:?}", run.skipped);
    assert!(run.skipped[0].contains("Vale.Spelling"), "{}", run.skipped[0]);
    assert!(run.skipped[0].contains("\"performant\""), "{}", run.skipped[0]);
    assert!(run.skipped[0].contains("suggest"), "{}", run.skipped[0]);
    // Byte-identical across runs.
    let again = vale::from_output(&json, &req, "3.15.1").unwrap();
    assert_eq!(to_json(&run.suggestions), to_json(&again.suggestions));
}

#[test]
fn sample2_unicode_columns_are_code_points() {
    let expected = String::from_utf8(read("vale/sample2-vale-unicode/expected-line-output.txt")).unwrap();
    for file in ["test.txt", "test.rst"] {
        let bytes = read(&format!("vale/sample2-vale-unicode/{file}"));
        // path:Line:Col:Check:Message → an alert whose Match is the quoted word.
        let mut alerts = Vec::new();
        let mut words = Vec::new();
        for l in expected.lines().filter(|l| l.starts_with(&format!("{file}:"))) {
            let parts: Vec<&str> = l.splitn(5, ':').collect();
            let (line, col, check, message) = (
                parts[1].parse::<usize>().unwrap(),
                parts[2].parse::<usize>().unwrap(),
                parts[3],
                parts[4],
            );
            let m = message.split('\'').nth(1).unwrap();
            let len = m.chars().count();
            let mut a = alert(line, [col, col + len - 1], check, m, remove());
            a["Message"] = message.into();
            alerts.push(a);
            words.push(m.to_owned());
        }
        assert_eq!(words, ["TODO", "probably", "very"]);
        let out = json!({ file: alerts });
        let run = vale::from_output(out.to_string().as_bytes(), &request(file, &bytes), "3.15.1").unwrap();
        assert!(run.skipped.is_empty(), "{:?}", run.skipped);
        check_all(&bytes, &run);
        let spans: Vec<(usize, usize, &str)> = run
            .suggestions
            .iter()
            .map(|s| (s.span.start.0, s.span.end.0, s.text.as_str()))
            .collect();
        // Column 36 of line 1 is byte 37 (two é before it); column 55 of line 2
        // is byte 55 of that line (an ï before it).
        assert_eq!(
            spans,
            vec![(37, 41, "TODO"), (135, 143, "probably"), (191, 195, "very")]
        );
        assert_eq!(run.suggestions[0].category, "annotations");
        assert_eq!(run.suggestions[0].reason, "'TODO' left in text");
        assert!(run.suggestions.iter().all(|s| s.replacement.is_empty()));
    }
}

#[test]
fn sample3_suggest_actions_are_skipped() {
    for name in ["spell.json", "script.json"] {
        let a: Value =
            serde_json::from_slice(&read(&format!("vale/sample3-vale-fix-alerts/{name}"))).unwrap();
        let m = a["Match"].as_str().unwrap().to_owned();
        // A document where the alert's line holds its Match at its Span start.
        let line = a["Line"].as_u64().unwrap() as usize;
        let col = a["Span"][0].as_u64().unwrap() as usize;
        let mut doc = "x\n".repeat(line - 1);
        doc.push_str(&" ".repeat(col - 1));
        doc.push_str(&m);
        doc.push('\n');
        let run = convert("a.md", doc.as_bytes(), vec![a.clone()]);
        assert!(run.suggestions.is_empty());
        assert_eq!(run.skipped.len(), 1);
        let why = &run.skipped[0];
        assert!(why.contains(a["Check"].as_str().unwrap()), "{why}");
        assert!(why.contains("needs Vale's configuration"), "{why}");
        assert!(why.contains(a["Action"]["Params"][0].as_str().unwrap()), "{why}");
    }
}

#[test]
fn crlf_and_cr_count_as_one_line_break() {
    let doc = "Intro line\r\nThe the cat\r\nold\rmäc line with very good\r\n";
    let bytes = doc.as_bytes();
    let run = convert(
        "a.md",
        bytes,
        vec![
            alert(4, [15, 18], "Vale.Hedging", "very", remove()),
            alert(
                2,
                [1, 7],
                "Vale.Repetition",
                "The the",
                json!({"Name": "edit", "Params": ["truncate", " "]}),
            ),
        ],
    );
    assert!(run.skipped.is_empty(), "{:?}", run.skipped);
    check_all(bytes, &run);
    let spans: Vec<(usize, usize, &str, &str)> = run
        .suggestions
        .iter()
        .map(|s| {
            (
                s.span.start.0,
                s.span.end.0,
                s.text.as_str(),
                s.replacement.as_str(),
            )
        })
        .collect();
    // Line 2 starts after "Intro line\r\n" (12); line 4 after "old\r" at 12+13+4,
    // and "mäc line with " is 15 bytes.
    assert_eq!(spans, vec![(12, 19, "The the", "The"), (44, 48, "very", "")]);
}

#[test]
fn a_match_away_from_its_span_is_found_on_the_line() {
    let doc = "# T\n\nTrès **bien**, it is very good.\n";
    let bytes = doc.as_bytes();
    // Vale reports columns of converted Markdown; here it points at column 3.
    let run = convert(
        "a.md",
        bytes,
        vec![alert(
            3,
            [3, 6],
            "Style.Very",
            "very",
            json!({"Name": "replace", "Params": ["quite", "really"]}),
        )],
    );
    assert!(run.skipped.is_empty(), "{:?}", run.skipped);
    let s = &run.suggestions[0];
    // Line 3 starts at byte 5; "Très **bien**, it is " is 22 bytes.
    assert_eq!((s.span.start.0, s.span.end.0), (27, 31));
    assert_eq!(s.text, "very");
    assert_eq!(s.replacement, "quite");
    assert_eq!(s.category, "very");
    verify(s, &Revision::of(bytes)).unwrap();
}

#[test]
fn unanchorable_and_ambiguous_alerts_are_skipped_with_a_reason() {
    let doc = "Ça va, very well.\nvery xx very\n";
    let run = convert(
        "a.md",
        doc.as_bytes(),
        vec![
            alert(1, [8, 13], "Style.Absent", "absent", remove()),
            // "very" is at columns 1 and 9 of line 2; reported at 5, both are 4 away.
            alert(2, [5, 8], "Style.Tie", "very", remove()),
            alert(9, [1, 1], "Style.PastEnd", "x", remove()),
        ],
    );
    assert!(run.suggestions.is_empty(), "{:?}", run.suggestions);
    assert_eq!(run.skipped.len(), 3, "{:?}", run.skipped);
    assert!(run.skipped[0].contains("Style.Absent"), "{}", run.skipped[0]);
    assert!(
        run.skipped[0].contains("\"absent\" is not on line 1"),
        "{}",
        run.skipped[0]
    );
    assert!(run.skipped[0].contains("not applied"), "{}", run.skipped[0]);
    assert!(run.skipped[1].contains("occurs 2 times"), "{}", run.skipped[1]);
    assert!(
        run.skipped[2].contains("line 9 is past the end"),
        "{}",
        run.skipped[2]
    );
}

#[test]
fn actions_become_replacements() {
    let doc = "FooBar end.?! and THIS and dup dup\n";
    let bytes = doc.as_bytes();
    let run = convert(
        "a.md",
        bytes,
        vec![
            alert(
                1,
                [1, 6],
                "S.Regex",
                "FooBar",
                json!({"Name": "edit", "Params": ["regex", "([A-Z]\\w+)([A-Z]\\w+)", "$1-$2"]}),
            ),
            alert(
                1,
                [8, 13],
                "S.Trim",
                "end.?!",
                json!({"Name": "edit", "Params": ["trim_right", ".?!"]}),
            ),
            alert(
                1,
                [19, 22],
                "S.Lower",
                "THIS",
                json!({"Name": "convert", "Params": ["lower"]}),
            ),
            alert(
                1,
                [28, 34],
                "S.Split",
                "dup dup",
                json!({"Name": "edit", "Params": ["split", " ", "1"]}),
            ),
            // Replacement equal to the text: nothing to change.
            alert(
                1,
                [15, 17],
                "S.Same",
                "and",
                json!({"Name": "replace", "Params": ["and"]}),
            ),
            alert(1, [15, 17], "S.None", "and", json!({"Name": "", "Params": null})),
            alert(
                1,
                [15, 17],
                "S.Odd",
                "and",
                json!({"Name": "frobnicate", "Params": []}),
            ),
        ],
    );
    check_all(bytes, &run);
    let got: Vec<(&str, &str)> = run
        .suggestions
        .iter()
        .map(|s| (s.text.as_str(), s.replacement.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("FooBar", "Foo-Bar"),
            ("end.?!", "end"),
            ("THIS", "this"),
            ("dup dup", "dup")
        ]
    );
    assert_eq!(run.skipped.len(), 3, "{:?}", run.skipped);
    assert!(run.skipped[0].contains("equals the text"), "{}", run.skipped[0]);
    assert!(run.skipped[1].contains("no action"), "{}", run.skipped[1]);
    assert!(
        run.skipped[2].contains("unknown action \"frobnicate\""),
        "{}",
        run.skipped[2]
    );
}

#[test]
fn clean_and_malformed_output() {
    let run = vale::from_output(b"{}\n", &request("a.md", b"fine"), "3.15.1").unwrap();
    assert!(run.suggestions.is_empty() && run.skipped.is_empty());
    let e = vale::from_output(b"{\"a.md\": [}", &request("a.md", b"x"), "1").unwrap_err();
    assert!(matches!(e, Error::Producer { .. }));
    assert!(e.to_string().contains("line 1, column 11"), "{e}");
    let e = vale::from_output(b"{\"a.md\": [], \"b.md\": []}", &request("a.md", b"x"), "1").unwrap_err();
    assert!(e.to_string().contains("2 files"), "{e}");
}

// ---- the process path, with tests/fixtures/producers/fake-vale ----

fn fake(args: &[&str]) -> ValeConfig {
    ValeConfig {
        command: fixture("fake-vale").to_string_lossy().into_owned(),
        args: args.iter().map(|s| s.to_string()).collect(),
        timeout_secs: 30,
        ..ValeConfig::default()
    }
}

#[test]
fn runs_vale_with_the_document_on_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("record");
    let output = fixture("vale/sample1-py-lintro/output.json");
    let bytes = read("vale/sample1-py-lintro/vale_violations.md");
    // Vale exits 1 when error-level alerts exist: a normal answer.
    let cfg = fake(&[
        "--fake-json",
        output.to_str().unwrap(),
        "--fake-exit",
        "1",
        "--fake-record",
        record.to_str().unwrap(),
    ]);
    let run = vale::run(&cfg, &request("notes/prose.md", &bytes), &Cancel::new()).unwrap();
    assert_eq!(run.suggestions.len(), 2);
    assert_eq!(run.suggestions[0].producer.version, "3.15.1");
    assert_eq!(run.suggestions[0].source.doc_id, "notes/prose.md");
    let recorded = std::fs::read(&record).unwrap();
    let (args, stdin) = split_record(&recorded);
    assert_eq!(&args[..2], ["--output=JSON", "--ext=.md"]);
    assert_eq!(args[2], "--fake-json");
    assert_eq!(stdin, bytes);
    // The extension follows the document's.
    run_ok(
        &fake(&["--fake-record", record.to_str().unwrap()]),
        "doc.rst",
        b"x",
    );
    let (args, _) = split_record(&std::fs::read(&record).unwrap());
    assert_eq!(args[1], "--ext=.rst");
}

fn run_ok(cfg: &ValeConfig, doc_id: &str, bytes: &[u8]) -> Run {
    vale::run(cfg, &request(doc_id, bytes), &Cancel::new()).unwrap()
}

fn split_record(r: &[u8]) -> (Vec<String>, Vec<u8>) {
    let sep = b"\n---\n";
    let at = r.windows(sep.len()).position(|w| w == sep).unwrap();
    let args = String::from_utf8(r[..at].to_vec())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    (args, r[at + sep.len()..].to_vec())
}

#[test]
fn exit_2_is_a_runtime_error_with_stderr() {
    // What Vale prints on stderr with --output=JSON (cmd/vale/error.go).
    let err = r#"{"Code": "E100", "Text": "E100 [--config] Runtime error\n\npath 'nope.ini' does not exist\n\nExecution stopped with code 1."}"#;
    let cfg = fake(&["--fake-exit", "2", "--fake-stderr", err]);
    let e = vale::run(&cfg, &request("a.md", b"x"), &Cancel::new()).unwrap_err();
    assert!(
        matches!(&e, Error::Producer { producer, .. } if producer == "vale"),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "vale: runtime error: E100 [--config] Runtime error: path 'nope.ini' does not exist"
    );
    let cfg = fake(&["--fake-exit", "2", "--fake-stderr", "plain failure\nsecond line"]);
    let e = vale::run(&cfg, &request("a.md", b"x"), &Cancel::new()).unwrap_err();
    assert_eq!(e.to_string(), "vale: runtime error: plain failure");
}

#[test]
fn not_installed_is_a_clear_error() {
    let cfg = ValeConfig {
        command: "/nonexistent/cowriting-test/vale".into(),
        ..ValeConfig::default()
    };
    let e = vale::run(&cfg, &request("a.md", b"x"), &Cancel::new()).unwrap_err();
    assert!(
        matches!(&e, Error::NotInstalled { producer, .. } if producer == "vale"),
        "{e:?}"
    );
    assert_eq!(e.code(), ErrorCode::NotInstalled);
    assert!(e.to_string().contains("is not installed"), "{e}");
}
