//! The Claude producer, without a network or a model: Claude Code is a fake
//! executable (`tests/fixtures/claude/fake-claude`, answering by a marker in
//! the prompt), and the Messages API a fake HTTP server on a loopback port.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use cowriting::config::{ClaudeConfig, Transport};
use cowriting::contract::{verify, Producer, Revision, Source, Suggestion};
use cowriting::error::{Error, ErrorCode};
use cowriting::offset::FileByteRange;
use cowriting::producers::claude::{
    build_prompt, check_answer, edit_selection, edit_selection_with, hunks, Turn,
};
use cowriting::producers::{Cancel, Request};
use serde_json::Value;

const DOC: &str = "# Notes\n\nIntro.\n\nThe café was very nice and the 日本 garden was big 🎉 too.\n\nEnd.\n";
const SELECTION: &str = "The café was very nice and the 日本 garden was big 🎉 too.";
const ANSWER: &str = "The café was lovely, and the 日本 garden was vast 🎉 too.";

fn sel_range(doc: &str, sel: &str) -> FileByteRange {
    let start = doc.find(sel).expect("selection is in the document");
    FileByteRange::new(start, start + sel.len())
}

fn request<'a>(doc: &'a str, sel: &str, instruction: &'a str) -> Request<'a> {
    Request {
        doc_id: "notes/a.md",
        bytes: doc.as_bytes(),
        selection: Some(sel_range(doc, sel)),
        instruction: Some(instruction),
    }
}

fn fake_cli() -> ClaudeConfig {
    ClaudeConfig {
        transport: Some(Transport::Cli),
        command: concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/claude/fake-claude").into(),
        timeout_secs: 30,
        ..ClaudeConfig::default()
    }
}

fn run_cli(cfg: &ClaudeConfig, instruction: &str) -> Result<Turn, Error> {
    edit_selection_with(cfg, &request(DOC, SELECTION, instruction), &Cancel::new(), None)
}

fn producer_message(e: &Error) -> String {
    match e {
        Error::Producer { producer, message } => {
            assert_eq!(producer, "claude");
            assert!(!message.contains('\n'), "one line: {message:?}");
            message.clone()
        }
        other => panic!("expected a producer error, got {other:?}"),
    }
}

/// The document with every suggestion applied (they do not overlap).
fn apply(doc: &str, list: &[Suggestion]) -> String {
    let mut out = doc.to_owned();
    for s in list.iter().rev() {
        out.replace_range(s.span.start.0..s.span.end.0, &s.replacement);
    }
    out
}

/// What every turn's suggestions must satisfy, whatever the text.
fn check_suggestions(turn: &Turn, doc: &str, instruction: &str) {
    let producer = turn.run.producer.as_ref().expect("a run names its producer");
    assert!(!turn.run.suggestions.is_empty());
    for s in &turn.run.suggestions {
        assert_eq!(s.text.as_bytes(), &doc.as_bytes()[s.span.start.0..s.span.end.0]);
        assert_eq!(s.category, "rewrite");
        assert_eq!(s.reason, instruction.trim());
        assert_eq!(&s.producer, producer);
        assert_eq!(s.source, Source::of("notes/a.md", doc.as_bytes()));
        verify(s, &Revision::of(doc.as_bytes())).unwrap();
    }
    let spans: Vec<_> = turn.run.suggestions.iter().map(|s| s.span).collect();
    let mut sorted = spans.clone();
    sorted.sort();
    assert_eq!(spans, sorted, "contract order");
    assert!(
        turn.turn_id.starts_with("turn-") && turn.turn_id.len() > 10,
        "{}",
        turn.turn_id
    );
}

/// (text, replacement) of each suggestion, in order.
fn pairs(list: &[Suggestion]) -> Vec<(&str, &str)> {
    list.iter()
        .map(|s| (s.text.as_str(), s.replacement.as_str()))
        .collect()
}

fn expected_doc() -> String {
    DOC.replace(SELECTION, ANSWER)
}

fn read_record(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the fake recorded its input")).unwrap()
}

// ---- the CLI transport, through the fake `claude` ----

#[test]
fn cli_answer_becomes_per_hunk_suggestions() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("record.json");
    let instruction = format!("Make it livelier. [[fake:good]] [[record:{}]]", record.display());
    let turn = run_cli(&fake_cli(), &instruction).unwrap();
    check_suggestions(&turn, DOC, &instruction);
    assert_eq!(turn.transport, Transport::Cli);
    // The busiest model of `modelUsage`, not the configured (unset) one.
    assert_eq!(turn.model.as_deref(), Some("fake-big-model"));
    assert_eq!(
        turn.session_id.as_deref(),
        Some("0f3c9a8e-5d1b-4c1e-9a57-3b2f1c8d7e61")
    );
    assert_eq!(
        turn.run.producer,
        Some(Producer {
            id: "claude".into(),
            version: "cli".into(),
            provenance: "model:fake-big-model".into(),
        })
    );
    assert_eq!(
        pairs(&turn.run.suggestions),
        vec![("very nice", "lovely,"), ("big", "vast")]
    );
    let base = DOC.find(SELECTION).unwrap();
    let at = |w: &str| base + SELECTION.find(w).unwrap();
    assert_eq!(
        turn.run.suggestions[0].span,
        FileByteRange::new(at("very"), at("very") + "very nice".len())
    );
    assert_eq!(
        turn.run.suggestions[1].span,
        FileByteRange::new(at("big"), at("big") + 3)
    );
    assert_eq!(apply(DOC, &turn.run.suggestions), expected_doc());

    // The prompt came on stdin, the arguments as documented, in the temp dir.
    let rec = read_record(&record);
    assert_eq!(
        rec["argv"],
        serde_json::json!(["-p", "--output-format", "json", "--max-turns", "1", "--tools", ""])
    );
    let stdin = rec["stdin"].as_str().unwrap();
    assert!(stdin.contains("<instruction>\nMake it livelier."), "{stdin}");
    assert!(
        stdin.contains(&format!("<selection>\n{SELECTION}\n</selection>")),
        "{stdin}"
    );
    assert!(stdin.contains("# Notes\n\nIntro.\n\n"), "context before: {stdin}");
    assert!(stdin.contains("\n\nEnd.\n"), "context after: {stdin}");
    assert_eq!(
        Path::new(rec["cwd"].as_str().unwrap()).canonicalize().unwrap(),
        std::env::temp_dir().canonicalize().unwrap()
    );

    // Another turn gets another id.
    let again = run_cli(&fake_cli(), "Make it livelier. [[fake:good]]").unwrap();
    assert_ne!(again.turn_id, turn.turn_id);
}

#[test]
fn cli_passes_the_model_and_reads_verbose_output() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("record.json");
    let mut cfg = fake_cli();
    cfg.model = Some("sonnet".into());
    let instruction = format!("Livelier [[fake:verbose]] [[record:{}]]", record.display());
    let turn = run_cli(&cfg, &instruction).unwrap();
    let argv = read_record(&record)["argv"].clone();
    assert_eq!(
        argv.as_array().unwrap()[7..],
        serde_json::json!(["--model", "sonnet"]).as_array().unwrap()[..]
    );
    // No `modelUsage`: the model of the init message.
    assert_eq!(turn.model.as_deref(), Some("fake-init-model"));
    assert_eq!(turn.session_id.as_deref(), Some("s-verbose"));
    assert_eq!(apply(DOC, &turn.run.suggestions), expected_doc());
}

#[test]
fn cli_uses_no_shell() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display();
    let record = dir.path().join("record.json");
    let doc = format!("Intro.\n\nRun $(touch {d}/p1) ; touch {d}/p2 && `touch {d}/p3` | cat > {d}/p4 now.\n");
    let sel = doc.lines().nth(2).unwrap().to_owned();
    let mut cfg = fake_cli();
    let model = format!("m; touch {d}/p5 $(touch {d}/p6)");
    cfg.model = Some(model.clone());
    let instruction = format!(
        "Fix it; $(touch {d}/p7) [[fake:unchanged]] [[record:{}]]",
        record.display()
    );
    let e = edit_selection_with(&cfg, &request(&doc, &sel, &instruction), &Cancel::new(), None).unwrap_err();
    assert!(
        producer_message(&e).contains("Claude returned the selection unchanged"),
        "{e}"
    );
    let rec = read_record(&record);
    assert_eq!(
        rec["argv"][8],
        Value::String(model),
        "the model is one literal argument"
    );
    let stdin = rec["stdin"].as_str().unwrap();
    assert!(stdin.contains(&format!("<selection>\n{sel}\n</selection>")));
    assert!(stdin.contains(&format!("Fix it; $(touch {d}/p7)")));
    for p in ["p1", "p2", "p3", "p4", "p5", "p6", "p7"] {
        assert!(!dir.path().join(p).exists(), "{p} was created: a shell ran");
    }
}

#[test]
fn cli_fenced_answer_is_unwrapped() {
    let turn = run_cli(&fake_cli(), "Livelier [[fake:fenced]]").unwrap();
    assert_eq!(
        pairs(&turn.run.suggestions),
        vec![("very nice", "lovely,"), ("big", "vast")]
    );
    assert_eq!(apply(DOC, &turn.run.suggestions), expected_doc());
}

#[test]
fn cli_bad_answers_file_nothing_and_say_why() {
    let cases = [
        (
            "is_error",
            "Claude Code reported an error: Credit balance is too low",
        ),
        (
            "max_turns",
            "Claude Code stopped without an answer: error_max_turns (it tried to use a tool)",
        ),
        ("empty", "Claude returned an empty answer; nothing was filed"),
        (
            "chatter",
            "starts with a preamble (\"Here is the revised text:\")",
        ),
        (
            "signoff",
            "ends with commentary (\"Let me know if you'd like a different tone!\")",
        ),
        (
            "unchanged",
            "Claude returned the selection unchanged; nothing was filed",
        ),
        (
            "notjson",
            "Claude Code printed something that is not its JSON result: Welcome to Claude Code!",
        ),
        (
            "fail",
            "Claude Code exited with status 1: Error: Invalid API key · Please run /login",
        ),
    ];
    thread::scope(|scope| {
        for (mode, want) in cases {
            scope.spawn(move || {
                let e = run_cli(&fake_cli(), &format!("Livelier [[fake:{mode}]]")).unwrap_err();
                assert_eq!(e.code(), ErrorCode::Producer, "{mode}: {e}");
                let m = producer_message(&e);
                assert!(m.contains(want), "{mode}: {m:?} should contain {want:?}");
            });
        }
    });
}

#[test]
fn cli_not_installed_says_what_to_do() {
    let mut cfg = fake_cli();
    cfg.command = "/nonexistent/dir/claude".into();
    let e = run_cli(&cfg, "Livelier").unwrap_err();
    assert_eq!(e.code(), ErrorCode::NotInstalled, "{e:?}");
    let m = e.to_string();
    assert!(
        m.starts_with("claude: \"/nonexistent/dir/claude\" is not installed"),
        "{m}"
    );
    assert!(m.contains("install Claude Code, or set ANTHROPIC_API_KEY"), "{m}");
    assert!(!m.contains('\n'), "one line: {m:?}");
}

#[test]
fn cli_can_be_cancelled() {
    let cancel = Cancel::new();
    let c = cancel.clone();
    let t = thread::spawn(move || {
        thread::sleep(Duration::from_millis(200));
        c.cancel();
    });
    let e = edit_selection_with(
        &fake_cli(),
        &request(DOC, SELECTION, "Livelier [[fake:slow]]"),
        &cancel,
        None,
    )
    .unwrap_err();
    t.join().unwrap();
    assert!(matches!(e, Error::Cancelled { .. }), "{e:?}");
    assert_eq!(e.code(), ErrorCode::Cancelled);
}

#[test]
fn cli_times_out() {
    let mut cfg = fake_cli();
    cfg.timeout_secs = 1;
    let e = run_cli(&cfg, "Livelier [[fake:slow]]").unwrap_err();
    assert!(matches!(e, Error::TimedOut { secs: 1, .. }), "{e:?}");
    assert_eq!(e.code(), ErrorCode::TimedOut);
}

#[test]
fn cli_is_the_default_and_edit_selection_reads_the_environment() {
    // Forced to the CLI, `edit_selection` works whatever the environment holds.
    let turn = edit_selection(
        &fake_cli(),
        &request(DOC, SELECTION, "Livelier [[fake:good]]"),
        &Cancel::new(),
    )
    .unwrap();
    assert_eq!(turn.transport, Transport::Cli);
    // No key, no transport configured: the CLI.
    let mut cfg = fake_cli();
    cfg.transport = None;
    assert_eq!(
        run_cli(&cfg, "Livelier [[fake:good]]").unwrap().transport,
        Transport::Cli
    );
}

#[test]
fn bad_requests_run_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("record.json");
    let instruction = format!("Livelier [[record:{}]]", record.display());
    let cafe = DOC.find("café").unwrap();
    let reqs = [
        (
            Request {
                selection: None,
                ..request(DOC, SELECTION, &instruction)
            },
            "needs a selection",
        ),
        (
            Request {
                instruction: None,
                ..request(DOC, SELECTION, &instruction)
            },
            "needs an instruction",
        ),
        (
            Request {
                instruction: Some("  \n "),
                ..request(DOC, SELECTION, &instruction)
            },
            "needs an instruction",
        ),
        (
            Request {
                selection: Some(FileByteRange::new(cafe, cafe)),
                ..request(DOC, SELECTION, &instruction)
            },
            "the selection is empty",
        ),
        (
            // Inside "é".
            Request {
                selection: Some(FileByteRange::new(cafe, cafe + 4)),
                ..request(DOC, SELECTION, &instruction)
            },
            "is inside a multi-byte character",
        ),
        (
            Request {
                selection: Some(FileByteRange::new(0, DOC.len() + 1)),
                ..request(DOC, SELECTION, &instruction)
            },
            "is past the end of notes/a.md",
        ),
    ];
    for (req, want) in reqs {
        let e = edit_selection_with(&fake_cli(), &req, &Cancel::new(), None).unwrap_err();
        assert_eq!(e.code(), ErrorCode::BadInput, "{e}");
        assert!(e.to_string().contains(want), "{e} should contain {want:?}");
    }
    assert!(!record.exists(), "the fake claude was started");
}

// ---- the API transport, through a fake Messages API ----

struct Captured {
    request_line: String,
    headers: BTreeMap<String, String>,
    body: Value,
}

/// A one-request HTTP server on a loopback port answering `status` + `body`,
/// after `hold` fires (or is dropped) when given. Returns its base URL.
fn fake_api(status: u16, body: &str, hold: Option<mpsc::Receiver<()>>) -> (String, mpsc::Receiver<Captured>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel();
    let body = body.to_owned();
    thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut request_line = String::new();
        reader.read_line(&mut request_line).unwrap();
        let mut headers = BTreeMap::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let (k, v) = line.split_once(':').unwrap();
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_owned());
        }
        let len: usize = headers["content-length"].parse().unwrap();
        let mut raw = vec![0; len];
        reader.read_exact(&mut raw).unwrap();
        let _ = tx.send(Captured {
            request_line: request_line.trim_end().to_owned(),
            headers,
            body: serde_json::from_slice(&raw).unwrap(),
        });
        if let Some(hold) = hold {
            let _ = hold.recv_timeout(Duration::from_secs(60));
        }
        let _ = write!(
            stream,
            "HTTP/1.1 {status} Whatever\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
    });
    (url, rx)
}

fn api_cfg(url: &str) -> ClaudeConfig {
    ClaudeConfig {
        transport: Some(Transport::Api),
        model: Some("fake-api-model".into()),
        api_url: format!("{url}/"),
        max_tokens: 777,
        timeout_secs: 30,
        ..ClaudeConfig::default()
    }
}

fn run_api(cfg: &ClaudeConfig, cancel: &Cancel) -> Result<Turn, Error> {
    edit_selection_with(
        cfg,
        &request(DOC, SELECTION, "Livelier"),
        cancel,
        Some("test-key"),
    )
}

const GOOD_MESSAGE: &str = r#"{"id":"msg_01","type":"message","role":"assistant","model":"fake-api-model-2024",
"content":[{"type":"text","text":"The café was lovely, and the 日本 "},{"type":"text","text":"garden was vast 🎉 too."}],
"stop_reason":"end_turn","usage":{"input_tokens":800,"output_tokens":40}}"#;

#[test]
fn api_answer_becomes_per_hunk_suggestions() {
    let (url, seen) = fake_api(200, GOOD_MESSAGE, None);
    let mut cfg = api_cfg(&url);
    // No transport configured: the key decides.
    cfg.transport = None;
    let turn = run_api(&cfg, &Cancel::new()).unwrap();
    check_suggestions(&turn, DOC, "Livelier");
    assert_eq!(turn.transport, Transport::Api);
    assert_eq!(turn.model.as_deref(), Some("fake-api-model-2024"));
    assert_eq!(turn.session_id, None);
    let p = turn.run.producer.as_ref().unwrap();
    assert_eq!(
        (p.version.as_str(), p.provenance.as_str()),
        ("api", "model:fake-api-model-2024")
    );
    assert_eq!(
        pairs(&turn.run.suggestions),
        vec![("very nice", "lovely,"), ("big", "vast")]
    );

    let req = seen.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(req.request_line, "POST /v1/messages HTTP/1.1");
    assert_eq!(req.headers["x-api-key"], "test-key");
    assert_eq!(req.headers["anthropic-version"], "2023-06-01");
    assert_eq!(req.headers["content-type"], "application/json");
    assert_eq!(req.body["model"], "fake-api-model");
    assert_eq!(req.body["max_tokens"].as_u64(), Some(777));
    assert!(req.body["system"].is_string());
    let messages = req.body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0]["role"], "user");
    let prompt = messages[0]["content"].as_str().unwrap();
    assert_eq!(
        prompt,
        build_prompt(&request(DOC, SELECTION, "Livelier")).unwrap()
    );
    assert!(prompt.contains(&format!("<selection>\n{SELECTION}\n</selection>")));
}

#[test]
fn api_errors_name_status_and_message() {
    let (url, _seen) = fake_api(
        401,
        r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
        None,
    );
    let m = producer_message(&run_api(&api_cfg(&url), &Cancel::new()).unwrap_err());
    assert_eq!(
        m,
        "the Messages API answered HTTP 401 (authentication_error): invalid x-api-key"
    );

    let (url, _seen) = fake_api(500, "upstream exploded\nstack", None);
    let m = producer_message(&run_api(&api_cfg(&url), &Cancel::new()).unwrap_err());
    assert_eq!(m, "the Messages API answered HTTP 500: upstream exploded");
}

#[test]
fn api_cut_off_answer_is_refused() {
    let body = GOOD_MESSAGE.replace("end_turn", "max_tokens");
    let (url, _seen) = fake_api(200, &body, None);
    let m = producer_message(&run_api(&api_cfg(&url), &Cancel::new()).unwrap_err());
    assert!(
        m.contains("Claude's answer was cut off at max_tokens (777)"),
        "{m}"
    );
}

#[test]
fn api_can_be_cancelled_and_times_out() {
    let (release, hold) = mpsc::channel();
    let (url, seen) = fake_api(200, GOOD_MESSAGE, Some(hold));
    let cancel = Cancel::new();
    let c = cancel.clone();
    let t = thread::spawn(move || {
        // Cancel once the request is in flight.
        let _ = seen.recv_timeout(Duration::from_secs(10));
        thread::sleep(Duration::from_millis(200));
        c.cancel();
    });
    let e = run_api(&api_cfg(&url), &cancel).unwrap_err();
    t.join().unwrap();
    assert!(matches!(e, Error::Cancelled { .. }), "{e:?}");
    drop(release);

    let (_release, hold) = mpsc::channel::<()>();
    let (url, _seen) = fake_api(200, GOOD_MESSAGE, Some(hold));
    let mut cfg = api_cfg(&url);
    cfg.timeout_secs = 1;
    let e = run_api(&cfg, &Cancel::new()).unwrap_err();
    assert!(matches!(e, Error::TimedOut { secs: 1, .. }), "{e:?}");
}

#[test]
fn api_needs_a_model_and_a_key() {
    let mut cfg = api_cfg("http://127.0.0.1:9");
    cfg.model = None;
    let e = run_api(&cfg, &Cancel::new()).unwrap_err();
    assert_eq!(e.code(), ErrorCode::BadInput);
    assert!(e.to_string().contains("set [claude] model"), "{e}");

    let e = edit_selection_with(
        &api_cfg("http://127.0.0.1:9"),
        &request(DOC, SELECTION, "Livelier"),
        &Cancel::new(),
        None,
    )
    .unwrap_err();
    assert!(e.to_string().contains("ANTHROPIC_API_KEY is not set"), "{e}");
}

#[test]
fn api_unreachable_is_a_producer_error() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let m = producer_message(
        &run_api(&api_cfg(&format!("http://127.0.0.1:{port}")), &Cancel::new()).unwrap_err(),
    );
    assert!(
        m.starts_with(&format!(
            "cannot reach the Messages API at http://127.0.0.1:{port}/v1/messages"
        )),
        "{m}"
    );
}

// ---- pure parts ----

#[test]
fn prompt_holds_instruction_selection_and_cut_context() {
    let before = format!("{}{}", "x".repeat(10), "é".repeat(2500));
    let after = format!("{}{}", "日".repeat(1999), "🎉".repeat(600));
    let doc = format!("{before}SEL 🎉 ECT{after}");
    let p = build_prompt(&request(&doc, "SEL 🎉 ECT", "  Shorten it.  ")).unwrap();
    let between = |open: &str, close: &str| {
        let s = p.find(open).unwrap_or_else(|| panic!("{open} in {p}")) + open.len();
        let e = s + p[s..].find(close).unwrap();
        p[s..e].to_owned()
    };
    assert_eq!(between("<instruction>\n", "\n</instruction>"), "Shorten it.");
    assert_eq!(between("<selection>\n", "\n</selection>"), "SEL 🎉 ECT");
    let b = between("continues above\">\n", "\n</before>");
    assert_eq!(b, "é".repeat(2000));
    let a = between("continues below\">\n", "\n</after>");
    assert_eq!(a, format!("{}🎉", "日".repeat(1999)));
    assert!(p.contains("ONLY the replacement text"));
    assert!(p.contains("no code fences"));

    // Short context is whole, and says so.
    let p = build_prompt(&request(DOC, SELECTION, "x")).unwrap();
    assert!(
        p.contains("<before note=\"from the start of the document\">\n# Notes\n\nIntro.\n\n\n</before>"),
        "{p}"
    );
    assert!(
        p.contains("<after note=\"to the end of the document\">\n\n\nEnd.\n\n</after>"),
        "{p}"
    );
    // Selection at the very start: no <before>.
    let p = build_prompt(&request(DOC, "# Notes", "x")).unwrap();
    assert!(!p.contains("<before"), "{p}");
}

#[test]
fn check_answer_cases() {
    let ok = |orig: &str, ans: &str| check_answer(orig, ans).unwrap();
    let err = |orig: &str, ans: &str| producer_message(&check_answer(orig, ans).unwrap_err());

    assert_eq!(ok("a big cat", "a small cat"), "a small cat");
    // Edge whitespace mirrors the selection's.
    assert_eq!(ok("a big cat", "a small cat\n"), "a small cat");
    assert_eq!(ok("a big cat", "\n\na small cat  \n"), "a small cat");
    assert_eq!(ok("a big cat\n", "a small cat"), "a small cat\n");
    assert_eq!(ok("  - a big cat\n\n", "- a small cat\n"), "  - a small cat\n\n");
    // Fences: one enclosing pair is stripped when the selection is not fenced …
    assert_eq!(ok("a big cat", "```\na small cat\n```"), "a small cat");
    assert_eq!(ok("a big cat", "```markdown\na small cat\n```\n"), "a small cat");
    assert_eq!(ok("a big cat", "~~~~\na `x` cat\n~~~~"), "a `x` cat");
    // … kept when the selection is itself fenced, or the answer is not one block.
    assert_eq!(ok("```\nlet x;\n```", "```\nlet y;\n```"), "```\nlet y;\n```");
    assert_eq!(
        ok("a big cat", "```\none\n```\nand\n```\ntwo\n```"),
        "```\none\n```\nand\n```\ntwo\n```"
    );
    assert_eq!(
        err("a big cat", "```\n\n```"),
        "Claude returned an empty code block; nothing was filed"
    );

    assert_eq!(
        err("a big cat", ""),
        "Claude returned an empty answer; nothing was filed"
    );
    assert_eq!(
        err("a big cat", " \n\t "),
        "Claude returned an empty answer; nothing was filed"
    );
    assert_eq!(
        err("a big cat", "a big cat"),
        "Claude returned the selection unchanged; nothing was filed"
    );
    assert_eq!(
        err("a big cat", "a big cat\n"),
        "Claude returned the selection unchanged; nothing was filed"
    );

    for chatty in [
        "Here is the revised text:\n\na small cat",
        "Sure! Here's a tighter version:\na small cat",
        "Certainly, here is the edited paragraph:\n\na small cat",
        "Sure!\n\na small cat",
    ] {
        assert!(
            err("a big cat", chatty).contains("starts with a preamble"),
            "{chatty}"
        );
    }
    assert!(err("a big cat", "a small cat\n\nLet me know if you want more.").contains("ends with commentary"));
    assert!(err("a big cat", "a small cat\n\nI hope this helps!").contains("ends with commentary"));
    // Not chatter: a list's own lead-in, a line already in the selection, a
    // one-line answer that starts with "Sure".
    assert_eq!(
        ok("Steps:\n1. go", "Here are the steps:\n1. go"),
        "Here are the steps:\n1. go"
    );
    assert_eq!(
        ok("Here is the revised text:\nold", "Here is the revised text:\nnew"),
        "Here is the revised text:\nnew"
    );
    assert_eq!(ok("Maybe.", "Sure."), "Sure.");
}

fn claude() -> Producer {
    Producer {
        id: "claude".into(),
        version: "cli".into(),
        provenance: "model:default".into(),
    }
}

fn split(doc: &str, sel: &str, answer: &str) -> Vec<Suggestion> {
    let req = request(doc, sel, "Edit");
    let list = hunks(&req, answer, &claude(), &Source::of("notes/a.md", doc.as_bytes())).unwrap();
    for s in &list {
        assert_eq!(s.text.as_bytes(), &doc.as_bytes()[s.span.start.0..s.span.end.0]);
        verify(s, &Revision::of(doc.as_bytes())).unwrap();
    }
    assert_eq!(apply(doc, &list), doc.replacen(sel, answer, 1));
    list
}

#[test]
fn hunks_on_multibyte_text() {
    let doc = "前書き。\n\nCafé crème — 日本 est loin 🎉 et beau.\n\n終わり 🎉\n";
    let sel = "Café crème — 日本 est loin 🎉 et beau.";
    let list = split(doc, sel, "Café noir — le 日本 est très loin 🎉🎉 et beau.");
    assert_eq!(
        pairs(&list),
        vec![("crème", "noir"), ("", "le "), ("", "très "), ("", "🎉")]
    );
    let at = |w: &str| doc.find(w).unwrap();
    assert_eq!(list[1].span, FileByteRange::new(at("日本 est"), at("日本 est")));
    assert_eq!(list[2].span, FileByteRange::new(at("loin"), at("loin")));
    // The new emoji goes next to the old one, on a char boundary.
    let e = at("🎉 et");
    assert!(list[3].span.start.0 == e || list[3].span.start.0 == e + "🎉".len());
    // Pure insertion: an empty span where the words go; pure deletion: empty replacement.
    let list = split(doc, sel, "Café crème — 日本 est vraiment loin 🎉 et beau.");
    assert_eq!(pairs(&list), vec![("", "vraiment ")]);
    let at = doc.find("loin").unwrap();
    assert_eq!(list[0].span, FileByteRange::new(at, at));
    let list = split(doc, sel, "Café — 日本 est loin 🎉 et beau.");
    assert_eq!(pairs(&list), vec![("crème ", "")]);
    // Edits in two paragraphs stay two proposals; across one line break they merge.
    let doc = "one two\n\nthree four\nfive six\n";
    let list = split(doc, doc, "One two\n\nthree Four\nFive six\n");
    assert_eq!(pairs(&list), vec![("one", "One"), ("four\nfive", "Four\nFive")]);
}

#[test]
fn hunks_refuse_a_source_of_other_bytes() {
    let req = request(DOC, SELECTION, "Edit");
    let e = hunks(&req, ANSWER, &claude(), &Source::of("notes/a.md", b"other")).unwrap_err();
    assert_eq!(e.code(), ErrorCode::BadInput);
}
