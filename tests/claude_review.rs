//! Claude as an editor, without a network or a model: a review pass and a
//! question in a thread through the real `cowriting` CLI with a fake Claude
//! Code on the config's `command` (`tests/fixtures/claude/fake-claude`, which
//! streams `stream-json` with every item split across deltas), the app's path
//! (the `Api`, with the writer typing while items arrive), and the Messages
//! API streamed by a fake server on a loopback port.
//!
//! Items follow another writer's save and skip what it changed; in the app
//! (through the `Desk`) they land while the writer types; a cancel, a failure
//! or silence keeps what landed.

mod common;

use common::Ws;
use cowriting::api::{Api, TextChange};
use cowriting::config::{ClaudeConfig, Config, Transport};
use cowriting::desk::Desk;
use cowriting::offset::Utf16Offset;
use cowriting::producers::pass::{self, Event};
use cowriting::producers::review::{Ask, Item};
use cowriting::producers::Cancel;
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::time::{Duration, Instant};

const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/claude/fake-claude");

fn ws_with(doc: &str, timeout_secs: u64) -> Ws {
    let ws = Ws::new();
    ws.write("essay.md", doc);
    let config = ws.home().join(".config/cowriting/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(
        &config,
        format!("[claude]\ncommand = {FAKE:?}\ntimeout_secs = {timeout_secs}\n"),
    )
    .unwrap();
    ws
}

/// Write Claude's answer lines to a file the fake reads (`[[answer:PATH]]`).
fn answer(ws: &Ws, name: &str, lines: &[&str]) -> String {
    let p = ws.home().join(name);
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    format!("[[answer:{}]]", p.display())
}

fn review(ws: &Ws, args: &[&str]) -> (Option<i32>, Value, String) {
    let mut all = vec!["--json", "review"];
    all.extend_from_slice(args);
    let out = ws.cmd(&all).env_remove("ANTHROPIC_API_KEY").output().unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (
        out.status.code(),
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn thread_by_id<'a>(side: &'a Value, id: &Value) -> &'a Value {
    side["threads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| &t["id"] == id)
        .unwrap_or_else(|| panic!("thread {id} not in {side}"))
}

const DOC: &str = "# On revision\n\nWriting is rewriting. The first draft finds the argument; \
the second draft makes it.\n\nA second reader helps. A second reader helps more than a\nthird \
draft does.\n";

/// Every item is placed exactly or not at all, and what lands carries the
/// turn: Claude's comments as threads by Claude, its edits as proposals.
#[test]
fn a_review_files_what_it_can_place_and_says_what_it_cannot() {
    let ws = ws_with(DOC, 120);
    let before = ws.read_bytes("essay.md");
    let lines = [
        r#"{"kind":"comment","quote":"Writing is rewriting.","body":"A strong opening; keep it."}"#,
        "",
        "```",
        r#"{"kind":"edit","quote":"A second reader helps","replacement":"A second reader always helps","reason":"stronger"}"#,
        r#"{"kind":"edit","quote":"A second reader helps","occurrence":2,"replacement":"Another reader helps","reason":"vary"}"#,
        r#"{"kind":"comment","quote":"a sentence that is not there","body":"?"}"#,
        r#"{"kind":"comment","quote":"more than a third draft does.","body":"Says it across a line break."}"#,
        r#"{"kind":"edit","quote":"more than a third draft","replacement":"more than a fourth draft","reason":"x"}"#,
        r#"{"kind":"edit","quote":"second draft","occurrence":3,"replacement":"next draft"}"#,
        r#"{"kind":"comment","quote":"#,
        "```",
    ];
    let marker = answer(&ws, "a.jsonl", &lines);
    let instruction = format!("Check the argument {marker}");
    let (code, out, err) = review(&ws, &["essay.md", "--instruction", &instruction]);
    assert_eq!(code, Some(0), "{err} {out}");
    // The document never changes.
    assert_eq!(ws.read_bytes("essay.md"), before);
    let turn = out["turnId"].as_str().unwrap().to_owned();
    assert!(turn.starts_with("turn-"), "{out}");
    assert_eq!(out["model"], "fake-stream-model");
    assert_eq!(out["parts"], 1);
    assert_eq!(out["items"], 8, "{out}");
    assert_eq!(out["threads"].as_array().unwrap().len(), 2, "{out}");
    assert_eq!(out["proposals"].as_array().unwrap().len(), 1, "{out}");
    let skipped: Vec<(u64, String)> = out["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["line"].as_u64().unwrap(),
                s["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let lines_skipped: Vec<u64> = skipped.iter().map(|s| s.0).collect();
    assert_eq!(lines_skipped, vec![4, 6, 8, 9, 10], "{skipped:?}");
    assert!(skipped[0].1.contains("occurs 2 times"), "{skipped:?}");
    assert!(skipped[1].1.contains("not in the reviewed text"), "{skipped:?}");
    // An edit's quote must be exact: the line break is not a space.
    assert!(skipped[2].1.contains("not in the reviewed text"), "{skipped:?}");
    assert!(
        skipped[3].1.contains("occurrence 3") && skipped[3].1.contains("1 time"),
        "{skipped:?}"
    );
    assert!(skipped[4].1.starts_with("not an item"), "{skipped:?}");

    // The proposal is on the second occurrence, by Claude, in the turn.
    let side = ws.sidecar_json("essay.md");
    let p = &side["proposals"][0];
    assert_eq!(p["turnId"], turn.as_str());
    assert_eq!(p["instruction"], instruction.as_str());
    assert_eq!(p["author"]["kind"], "agent");
    assert_eq!(p["author"]["id"], "claude");
    assert_eq!(p["author"]["agent"]["model"], "fake-stream-model");
    let listed = ws.json(&["proposals", "essay.md"]);
    let lp = &listed["proposals"][0];
    let second = DOC.rfind("A second reader helps").unwrap();
    assert_eq!(lp["from"].as_u64().unwrap() as usize, second, "{lp}");
    assert_eq!(lp["replacement"], "Another");
    // The comments are Claude's, with the turn and the instruction; the
    // hard-wrapped quote found its text across the line break.
    let t0 = thread_by_id(&side, &out["threads"][0]);
    let c = &t0["comments"][0];
    assert_eq!(c["author"]["kind"], "agent");
    assert_eq!(c["author"]["agent"]["model"], "fake-stream-model");
    assert_eq!(c["turnId"], turn.as_str());
    assert_eq!(c["instruction"], instruction.as_str());
    let t1 = thread_by_id(&side, &out["threads"][1]);
    assert_eq!(
        side["anchors"][t1["anchorId"].as_str().unwrap()]["fingerprint"]["text"],
        "more than a\nthird draft does."
    );

    // One turn in the workspace's review: Claude's comments with its proposals.
    let inbox = ws.json(&["inbox"]);
    let group = inbox["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["turnId"] == turn.as_str())
        .unwrap_or_else(|| panic!("no group of the turn: {inbox}"));
    assert_eq!(group["threads"].as_array().unwrap().len(), 2, "{group}");
    assert_eq!(group["proposals"].as_array().unwrap().len(), 1, "{group}");
    // Threads say their turn.
    let listed = ws.json(&["threads", "essay.md"]);
    assert_eq!(listed["threads"][0]["comments"][0]["turnId"], turn.as_str());

    // Without partial messages (an older Claude Code): the same filing.
    let ws2 = ws_with(DOC, 120);
    let marker = answer(&ws2, "a.jsonl", &lines);
    let (code, out2, err) = review(
        &ws2,
        &["essay.md", "--instruction", &format!("{marker} [[nopartial]]")],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out2["skipped"], out["skipped"]);
    assert_eq!(out2["threads"].as_array().unwrap().len(), 2);
    assert_eq!(out2["proposals"].as_array().unwrap().len(), 1);

    // An older Claude Code that does not know --include-partial-messages: read whole.
    let ws3 = ws_with(DOC, 120);
    let marker = answer(&ws3, "a.jsonl", &lines);
    let (code, out3, err) = review(&ws3, &["essay.md", "--instruction", &format!("{marker} [[old]]")]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out3["skipped"], out["skipped"]);

    // The same edit again (a second pass): not filed twice.
    let marker = answer(&ws, "b.jsonl", &lines[4..5]);
    let (_, again, _) = review(&ws, &["essay.md", "--instruction", &marker]);
    assert_eq!(again["proposals"], Value::Array(vec![]), "{again}");
    assert!(
        again["skipped"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("already pending"),
        "{again}"
    );

    // People read the same: which could not be placed, and why.
    let marker = answer(&ws, "c.jsonl", &lines[5..6]);
    let text = ws.ok(&["review", "essay.md", "--instruction", &marker]);
    assert!(text.contains("1 of 1 suggestions could not be placed"), "{text}");
    assert!(
        text.contains("line 1: the quoted text is not in the reviewed text"),
        "{text}"
    );
}

/// `--find` reviews a part: quotes are looked for in that part only.
/// An answer read all at once (600 edits in one burst) is filed in a few
/// writes, not one rewrite of the growing sidecar per item (issue 30: 1,000
/// edits took 52 s, 2,000 took 161 s). Measured without timing: the fault
/// hook aborts the process before its 300th durable step (a rename, a
/// removal, a log line), and filing item by item takes three or more per
/// item. Every edit is filed once, with its ledger record; an edit twice in
/// the burst is filed once.
#[test]
fn a_burst_of_items_is_filed_in_a_few_writes_each_once() {
    const N: usize = 600;
    let doc: String = std::iter::once("# Long\n\n".to_owned())
        .chain((0..N).map(|k| format!("Sentence number {k} is here.\n\n")))
        .collect();
    let ws = ws_with(&doc, 120);
    let mut lines: Vec<String> = (0..N)
        .map(|k| {
            serde_json::json!({"kind": "edit", "quote": format!("Sentence number {k} is here."),
                "replacement": format!("Sentence number {k} is there.")})
            .to_string()
        })
        .collect();
    lines.push(lines[7].clone());
    lines.push(r#"{"kind":"comment","quote":"Sentence number 3 is here.","body":"Why three?"}"#.into());
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let marker = answer(&ws, "burst.jsonl", &refs);
    let out = ws
        .cmd(&["--json", "review", "essay.md", "--instruction"])
        .arg(format!("{marker} [[nopartial]]"))
        .env_remove("ANTHROPIC_API_KEY")
        .env("COWRITING_FAULT_AT", "300")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "aborted before its 300th durable step? {err}"
    );
    let out: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out["parts"], 1, "{out}");
    assert_eq!(out["items"], N as u64 + 2);
    assert_eq!(out["proposals"].as_array().unwrap().len(), N);
    assert_eq!(out["threads"].as_array().unwrap().len(), 1);
    let skipped = out["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(skipped[0]["line"], N as u64 + 1);
    assert!(
        skipped[0]["reason"].as_str().unwrap().contains("already pending"),
        "{skipped:?}"
    );
    // In the sidecar once each (each narrowed to its word: "here" → "there"),
    // in the order Claude wrote them, each with its contract record.
    let side = ws.sidecar_json("essay.md");
    let filed = side["proposals"].as_array().unwrap();
    assert_eq!(filed.len(), N);
    assert!(filed.iter().all(|p| p["replacement"] == "there"), "{filed:?}");
    let listed = ws.json(&["proposals", "essay.md"]);
    let listed = listed["proposals"].as_array().unwrap();
    assert_eq!(listed.len(), N);
    assert!(listed.iter().all(|p| p["state"] == "pending"), "{listed:?}");
    let at: Vec<u64> = listed.iter().map(|p| p["from"].as_u64().unwrap()).collect();
    let expected: Vec<u64> = (0..N)
        .map(|k| {
            (doc.find(&format!("Sentence number {k} is here.")).unwrap()
                + format!("Sentence number {k} is ").len()) as u64
        })
        .collect();
    assert_eq!(at, expected, "each on its own sentence, in order");
    let pending: Value = serde_json::from_str(&ws.read(".cowriting/suggestions/essay.md.json")).unwrap();
    assert_eq!(
        pending["entries"].as_array().unwrap().len(),
        N,
        "one contract record per proposal"
    );
    assert_eq!(ws.read("essay.md"), doc, "the document never changes");
}

#[test]
fn a_review_of_a_part_places_quotes_in_that_part_only() {
    let ws = ws_with(DOC, 120);
    let marker = answer(
        &ws,
        "a.jsonl",
        &[
            r#"{"kind":"comment","quote":"Writing is rewriting.","body":"outside"}"#,
            r#"{"kind":"comment","quote":"A second reader helps.","body":"inside, once"}"#,
        ],
    );
    let (code, out, err) = review(
        &ws,
        &[
            "essay.md",
            "--find",
            "A second reader helps. A second",
            "--instruction",
            &marker,
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out["threads"].as_array().unwrap().len(), 1, "{out}");
    assert_eq!(out["skipped"][0]["line"], 1, "{out}");
    // Inside the part the quote is unique, though the document has it twice.
    let threads = ws.json(&["threads", "essay.md"]);
    assert_eq!(
        threads["threads"][0]["from"].as_u64().unwrap() as usize,
        DOC.find("A second reader helps.").unwrap()
    );
}

/// A review in parts places each item in the part Claude was shown when it
/// wrote it: `occurrence` counts there (as the prompt says), and a quote
/// unique in its part is placed, though the document has it in every part.
/// The fake answers every part with the same lines, as a Claude that follows
/// the prompt literally would.
#[test]
fn a_review_in_parts_places_each_item_in_its_own_part() {
    let mut doc = String::from("# Four parts\n\n");
    for i in 1..=4 {
        doc.push_str(&format!("## Section {i}\n\nSay it again. The point stands.\n\n"));
        for j in 0..320 {
            doc.push_str(&format!("Sentence {j} of section {i} fills the page. "));
        }
        doc.push_str("\n\nSay it again.\n\n");
    }
    let ws = ws_with(&doc, 120);
    let marker = answer(
        &ws,
        "a.jsonl",
        &[
            r#"{"kind":"edit","quote":"Say it again.","occurrence":2,"replacement":"Say it once more.","reason":"echo"}"#,
            r#"{"kind":"comment","quote":"The point stands.","body":"Which point?"}"#,
        ],
    );
    let (code, out, err) = review(&ws, &["essay.md", "--instruction", &marker]);
    assert_eq!(code, Some(0), "{err} {out}");
    assert_eq!(out["parts"], 4, "each section is a part: {out}");
    assert_eq!(out["skipped"], Value::Array(vec![]), "{out}");
    assert_eq!(out["proposals"].as_array().unwrap().len(), 4, "{out}");
    assert_eq!(out["threads"].as_array().unwrap().len(), 4, "{out}");
    let section = |i: usize| {
        let start = doc.find(&format!("## Section {i}\n")).unwrap();
        let end = doc.find(&format!("## Section {}\n", i + 1)).unwrap_or(doc.len());
        start..end
    };
    // Each edit on the second "Say it again." of its own section (its one
    // hunk: "again." → "once more.").
    let mut edits: Vec<usize> = ws.json(&["proposals", "essay.md"])["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["from"].as_u64().unwrap() as usize)
        .collect();
    edits.sort();
    let want: Vec<usize> = (1..=4)
        .map(|i| section(i).start + doc[section(i)].rfind("Say it again.").unwrap() + "Say it ".len())
        .collect();
    assert_eq!(edits, want);
    // Each comment on its own section's "The point stands.".
    let mut comments: Vec<usize> = ws.json(&["threads", "essay.md"])["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["from"].as_u64().unwrap() as usize)
        .collect();
    comments.sort();
    let want: Vec<usize> = (1..=4)
        .map(|i| section(i).start + doc[section(i)].find("The point stands.").unwrap())
        .collect();
    assert_eq!(comments, want);
}

/// A long document is reviewed section by section, in one turn.
#[test]
fn a_long_document_is_reviewed_in_sections_of_one_turn() {
    let mut doc = String::new();
    for i in 0..30 {
        doc.push_str(&format!("## Part {i}\n\n"));
        for j in 0..40 {
            doc.push_str(&format!(
                "Sentence {j} of part {i} says something in order to fill it. "
            ));
        }
        doc.push_str("\n\n");
    }
    assert!(doc.len() > 2 * cowriting::producers::review::SECTION_CHARS);
    let ws = ws_with(&doc, 120);
    let record = ws.home().join("last-prompt.json");
    let (code, out, err) = review(
        &ws,
        &[
            "essay.md",
            "--instruction",
            &format!("[[record:{}]]", record.display()),
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let parts = out["parts"].as_u64().unwrap();
    assert!(parts >= 3, "{out}");
    // The fake comments on each part's first sentence and proposes one edit per part.
    assert_eq!(out["threads"].as_array().unwrap().len() as u64, parts, "{out}");
    let side = ws.sidecar_json("essay.md");
    for t in side["threads"].as_array().unwrap() {
        assert_eq!(t["comments"][0]["turnId"], out["turnId"]);
    }
    let prompt: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let stdin = prompt["stdin"].as_str().unwrap();
    assert!(stdin.contains(&format!("part {parts} of {parts}")), "{stdin}");
    // Claude Code is started without a shell, outside the workspace.
    assert_ne!(Path::new(prompt["cwd"].as_str().unwrap()), ws.path());
}

/// Claude failing midway, or going silent, stops the pass: what landed stays
/// filed, and the exit code says why (5 failed, 6 timed out).
#[test]
fn a_pass_that_stops_early_keeps_what_landed() {
    let lines = [
        r#"{"kind":"comment","quote":"Writing is rewriting.","body":"first"}"#,
        r#"{"kind":"comment","quote":"A second reader helps more","body":"second"}"#,
    ];
    let ws = ws_with(DOC, 120);
    let marker = answer(&ws, "a.jsonl", &lines);
    let (code, out, err) = review(&ws, &["essay.md", "--instruction", &format!("{marker} [[fail]]")]);
    assert_eq!(code, Some(5), "{err} {out}");
    assert!(
        err.contains("stopped early") && err.contains("overloaded"),
        "{err}"
    );
    assert_eq!(out["threads"].as_array().unwrap().len(), 1, "{out}");
    assert_eq!(out["stopped"]["code"], "producer");
    assert_eq!(
        ws.sidecar_json("essay.md")["threads"].as_array().unwrap().len(),
        1
    );

    let ws = ws_with(DOC, 3);
    let marker = answer(&ws, "a.jsonl", &lines);
    let (code, out, err) = review(
        &ws,
        &["essay.md", "--instruction", &format!("{marker} [[stall]]")],
    );
    assert_eq!(code, Some(6), "{err} {out}");
    assert_eq!(out["stopped"]["code"], "timed_out");
    assert_eq!(out["threads"].as_array().unwrap().len(), 1, "{out}");

    // Nothing landed: a plain failure, nothing filed.
    let ws = ws_with(DOC, 3);
    let marker = answer(&ws, "a.jsonl", &lines[..0]);
    let (code, _, err) = review(&ws, &["essay.md", "--instruction", &format!("{marker} [[fail]]")]);
    assert_eq!(code, Some(5), "{err}");
    assert_eq!(ws.sidecar("essay.md"), "");
}

/// The writer's refusals reach the next prompt, so Claude does not repeat them.
#[test]
fn the_next_prompt_recalls_what_the_writer_refused() {
    let ws = ws_with(DOC, 120);
    let marker = answer(
        &ws,
        "a.jsonl",
        &[
            r#"{"kind":"edit","quote":"Writing is rewriting.","replacement":"Writing is revising.","reason":"precise"}"#,
        ],
    );
    let (_, out, _) = review(&ws, &["essay.md", "--instruction", &marker]);
    let id = out["proposals"][0].as_str().unwrap().to_owned();
    ws.ok(&["reject", "essay.md", &id]);
    let record = ws.home().join("prompt.json");
    let (code, _, err) = review(
        &ws,
        &[
            "essay.md",
            "--instruction",
            &format!("[[record:{}]]", record.display()),
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let stdin: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let stdin = stdin["stdin"].as_str().unwrap();
    assert!(stdin.contains("<decisions>"), "{stdin}");
    assert!(
        stdin.contains(r#"- rejected: "rewriting" → "revising""#),
        "{stdin}"
    );
}

/// Claude answers in a thread: one reply by Claude that names the edits it
/// proposed on the thread's text (only there).
#[test]
fn claude_answers_in_a_thread_and_names_its_edits() {
    let ws = ws_with(DOC, 120);
    let t = ws.ok(&[
        "thread",
        "new",
        "essay.md",
        "--find",
        "A second reader helps.",
        "--body",
        "Too short?",
    ]);
    let t = t.trim();
    let marker = answer(
        &ws,
        "a.jsonl",
        &[
            r#"{"kind":"edit","quote":"helps","replacement":"helps a great deal","reason":"fuller"}"#,
            r#"{"kind":"reply","body":"It is short, but it works. I would add weight:"}"#,
            r#"{"kind":"edit","quote":"Writing is rewriting.","replacement":"x"}"#,
            r#"{"kind":"reply","body":"second"}"#,
        ],
    );
    let out = ws
        .cmd(&["--json", "thread", "ask", "essay.md", t, "--instruction", &marker])
        .env_remove("ANTHROPIC_API_KEY")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out: Value = serde_json::from_slice(&out.stdout).unwrap();
    let proposal = out["proposals"][0].as_str().unwrap();
    assert_eq!(out["proposals"].as_array().unwrap().len(), 1, "{out}");
    let skipped: Vec<u64> = out["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["line"].as_u64().unwrap())
        .collect();
    assert_eq!(skipped, vec![3, 4], "{out}");
    let side = ws.sidecar_json("essay.md");
    let th = thread_by_id(&side, &Value::String(t.into()));
    let comments = th["comments"].as_array().unwrap();
    assert_eq!(comments.len(), 2);
    let reply = &comments[1];
    assert_eq!(reply["id"], out["reply"]);
    assert_eq!(reply["author"]["id"], "claude");
    assert_eq!(reply["turnId"], out["turnId"]);
    let body = reply["body"].as_str().unwrap();
    assert!(body.starts_with("It is short, but it works."), "{body}");
    assert!(
        body.contains("“helps” → “helps a great deal”"),
        "the reply names its edit: {body}"
    );
    assert!(!body.contains(proposal), "by its words, not its id: {body}");
    assert_eq!(side["proposals"][0]["turnId"], out["turnId"]);
    // A thread with no text to show is refused with a reason.
    ws.ok(&["thread", "detach", "essay.md", t]);
    let err = ws.fails(&["thread", "ask", "essay.md", t], 2);
    assert!(err.contains("not on any text"), "{err}");
}

/// Another writer saves the document while Claude is still answering: items
/// follow their text to where it moved, and an item whose text that writer
/// changed is skipped — never filed on a guess.
#[test]
fn items_follow_another_writers_save_and_skip_what_it_changed() {
    let ws = ws_with(DOC, 120);
    let record = ws.home().join("started.json");
    let marker = answer(
        &ws,
        "a.jsonl",
        &[
            r#"{"kind":"comment","quote":"A second reader helps.","body":"moved"}"#,
            r#"{"kind":"edit","quote":"The first draft finds the argument;","replacement":"The first draft finds it;"}"#,
        ],
    );
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("cowriting"))
        .env("HOME", ws.home())
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("COWRITING_CONFIG")
        .env_remove("ANTHROPIC_API_KEY")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .arg("-w")
        .arg(ws.path())
        .args(["--json", "review", "essay.md", "--instruction"])
        .arg(format!("{marker} [[delay:2]] [[record:{}]]", record.display()))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !record.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the fake never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // A writer without locks (as the VS Code extension saves): a new first
    // paragraph, and the first draft's sentence rewritten.
    let changed = DOC
        .replace(
            "# On revision\n\n",
            "# On revision\n\nA new opening paragraph.\n\n",
        )
        .replace(
            "The first draft finds the argument;",
            "The first draft looks for the argument;",
        );
    std::fs::write(ws.file("essay.md"), &changed).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let out: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out["threads"].as_array().unwrap().len(), 1, "{out}");
    assert_eq!(out["proposals"], Value::Array(vec![]), "{out}");
    assert!(
        out["skipped"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("edited while Claude"),
        "{out}"
    );
    let threads = ws.json(&["threads", "essay.md"]);
    let from = threads["threads"][0]["from"].as_u64().unwrap() as usize;
    assert_eq!(from, changed.find("A second reader helps.").unwrap(), "{threads}");
    assert_eq!(ws.read("essay.md"), changed, "the document is the other writer's");
}

// ---- the app's path: the writer types while items arrive ----

fn cfg_with(command: &str, timeout_secs: u64) -> Config {
    Config {
        claude: ClaudeConfig {
            transport: Some(Transport::Cli),
            command: command.into(),
            timeout_secs,
            ..ClaudeConfig::default()
        },
        ..Config::default()
    }
}

fn utf16(n: usize) -> Utf16Offset {
    Utf16Offset(n)
}

/// The app's pass: items are filed in the open session as they arrive,
/// carried through what the writer typed meanwhile (not yet saved); cancel
/// keeps what landed.
#[test]
fn in_the_app_items_land_through_the_writers_typing_and_cancel_keeps_them() {
    let ws = ws_with(DOC, 120);
    let desk = Desk::with_config(|| Ok(cfg_with(FAKE, 120)));
    desk.open(ws.path()).unwrap();
    let with = |f: &mut dyn FnMut(&mut Api)| {
        desk.with(|a| {
            f(a);
            Ok(())
        })
        .unwrap()
    };
    with(&mut |a| {
        a.open_document("essay.md").unwrap();
    });
    let marker = answer(
        &ws,
        "a.jsonl",
        &[
            r#"{"kind":"comment","quote":"A second reader helps.","body":"one"}"#,
            r#"{"kind":"edit","quote":"finds the argument","replacement":"discovers the argument"}"#,
            r#"{"kind":"comment","quote":"Writing is rewriting.","body":"three"}"#,
            r#"{"kind":"comment","quote":"the second draft makes it.","body":"four"}"#,
        ],
    );
    let typed = "New words. ";
    let mut landed = 0;
    let out = std::thread::scope(|scope| {
        let runner = scope.spawn(|| {
            let mut seen = Vec::new();
            let instruction = Some(format!("{marker} [[delay:1]]"));
            let out = desk.review_document("essay.md", None, None, instruction, "ui-job", &mut |p| {
                assert_eq!(p.job, "ui-job");
                if p.landed.is_some() {
                    seen.push(p);
                    if seen.len() == 2 {
                        desk.cancel_job("ui-job");
                    }
                }
            });
            (out, seen.len())
        });
        // The writer types at the top while Claude reads: after the turn took
        // its copy, before any item lands.
        while !desk.is_running("ui-job") {
            std::thread::sleep(Duration::from_millis(5));
        }
        with(&mut |a| {
            let version = a.open_document("essay.md").unwrap().version;
            a.edit(
                "essay.md",
                version,
                &[TextChange {
                    from: utf16(15),
                    to: utf16(15),
                    insert: typed.into(),
                }],
                true,
            )
            .unwrap();
        });
        let (out, seen) = runner.join().unwrap();
        landed = seen;
        out.unwrap()
    });
    assert!(!desk.is_running("ui-job"), "the job is forgotten once it ends");
    assert_eq!(landed, 2);
    assert_eq!(
        out.stopped.as_ref().unwrap().code,
        cowriting::ErrorCode::Cancelled,
        "{out:?}"
    );
    assert_eq!(out.threads.len(), 1);
    assert_eq!(out.proposals.len(), 1);
    with(&mut |a| {
        let review = a.review("essay.md").unwrap();
        let t = &review.threads[0];
        let text = a.text_of("essay.md");
        let at = text.find("A second reader helps.").unwrap();
        assert_eq!(
            t.from.map(|f| f as usize),
            Some(at),
            "the thread moved with the typing"
        );
        let p = &review.proposals[0];
        assert_eq!(p.from.map(|f| f as usize), Some(text.find("finds").unwrap()));
        assert!(text.starts_with(&format!("# On revision\n\n{typed}")), "{text:?}");
    });
    // The document on disk is untouched; the review data is written.
    assert_eq!(ws.read("essay.md"), DOC);
    assert_eq!(
        ws.sidecar_json("essay.md")["threads"].as_array().unwrap().len(),
        1
    );
}

// ---- the Messages API, streamed by a fake server ----

/// A server on a loopback port that answers one request with `status` and
/// server-sent events made of `events` (each `(name, data)`), `pause` between them.
fn fake_sse(
    status: u16,
    events: Vec<(String, String)>,
    pause: Duration,
) -> (String, std::thread::JoinHandle<String>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let handle = std::thread::spawn(move || {
        let (mut conn, _) = listener.accept().unwrap();
        let mut reader = BufReader::new(conn.try_clone().unwrap());
        let mut len = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                len = v.trim().parse().unwrap();
            }
            if line == "\r\n" {
                break;
            }
        }
        let mut body = vec![0; len];
        std::io::Read::read_exact(&mut reader, &mut body).unwrap();
        if status != 200 {
            let text = r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
            write!(
                conn,
                "HTTP/1.1 {status} Error\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}",
                text.len()
            )
            .unwrap();
            return String::from_utf8(body).unwrap();
        }
        let _ = write!(
            conn,
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n"
        );
        for (name, data) in events {
            if write!(conn, "event: {name}\ndata: {data}\n\n")
                .and_then(|_| conn.flush())
                .is_err()
            {
                break;
            }
            std::thread::sleep(pause);
        }
        String::from_utf8(body).unwrap()
    });
    (url, handle)
}

fn sse_answer(text: &str, stop: &str) -> Vec<(String, String)> {
    let mut ev = vec![(
        "message_start".to_owned(),
        r#"{"type":"message_start","message":{"model":"fake-api-model-9","content":[]}}"#.to_owned(),
    )];
    let chars: Vec<char> = text.chars().collect();
    for piece in chars.chunks(5) {
        let t: String = piece.iter().collect();
        ev.push((
            "content_block_delta".into(),
            serde_json::json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":t}}).to_string(),
        ));
    }
    ev.push((
        "message_delta".into(),
        serde_json::json!({"type":"message_delta","delta":{"stop_reason":stop}}).to_string(),
    ));
    ev.push(("message_stop".into(), r#"{"type":"message_stop"}"#.into()));
    ev
}

fn api_cfg(url: &str) -> ClaudeConfig {
    ClaudeConfig {
        transport: Some(Transport::Api),
        model: Some("fake-api-model".into()),
        api_url: url.into(),
        timeout_secs: 60,
        ..ClaudeConfig::default()
    }
}

fn run_api(cfg: &ClaudeConfig) -> (Result<pass::PassEnd, cowriting::Error>, Vec<String>) {
    let mut got = Vec::new();
    let r = pass::run(
        cfg,
        Some("sk-test"),
        &["the prompt".to_owned()],
        Ask::Review,
        &Cancel::new(),
        &mut |e| {
            match e {
                Event::Item {
                    item: Item::Comment { quote, .. },
                    by,
                    ..
                } => got.push(format!("{quote} by {}", by.provenance)),
                Event::Invalid { line, .. } => got.push(format!("invalid {line}")),
                _ => {}
            }
            Ok(())
        },
    );
    (r, got)
}

#[test]
fn the_messages_api_streams_items_as_they_come() {
    let text = "{\"kind\":\"comment\",\"quote\":\"a\",\"body\":\"b\"}\nnot json\n{\"kind\":\"comment\",\"quote\":\"é\",\"body\":\"c\"}";
    let (url, server) = fake_sse(200, sse_answer(text, "end_turn"), Duration::from_millis(1));
    let (r, got) = run_api(&api_cfg(&url));
    let end = r.unwrap();
    assert_eq!(end.model.as_deref(), Some("fake-api-model-9"));
    assert_eq!(
        got,
        vec![
            "a by model:fake-api-model-9",
            "invalid 2",
            "é by model:fake-api-model-9"
        ]
    );
    let body: Value = serde_json::from_str(&server.join().unwrap()).unwrap();
    assert_eq!(body["stream"], true);
    assert_eq!(body["model"], "fake-api-model");
    assert_eq!(body["messages"][0]["content"], "the prompt");

    // Cut off at max_tokens: what came is handed on, and the pass fails saying so.
    let (url, _s) = fake_sse(200, sse_answer(text, "max_tokens"), Duration::from_millis(1));
    let (r, got) = run_api(&api_cfg(&url));
    assert_eq!(got.len(), 3);
    assert!(r.unwrap_err().to_string().contains("max_tokens"));

    // An HTTP error says what the API said.
    let (url, _s) = fake_sse(529, vec![], Duration::ZERO);
    let (r, got) = run_api(&api_cfg(&url));
    assert!(got.is_empty());
    let e = r.unwrap_err().to_string();
    assert!(e.contains("529") && e.contains("Overloaded"), "{e}");

    // A stream that stops sending times out (nothing for timeout_secs).
    let mut slow = sse_answer(text, "end_turn");
    slow.truncate(3);
    let (url, _s) = fake_sse(200, slow, Duration::from_secs(30));
    let mut cfg = api_cfg(&url);
    cfg.timeout_secs = 2;
    let (r, _) = run_api(&cfg);
    assert_eq!(r.unwrap_err().info().code, cowriting::ErrorCode::TimedOut);
}
