//! The workspace's review through the real `cowriting` binary (`cowriting
//! inbox`): every document's waiting proposals (pending, stale, orphaned) and
//! open threads (a stale one with why), filed by several processes and
//! agents, grouped by turn and
//! producer (a turn across documents is one group), newest first, with their
//! line and the words around them; filters by document (or folder), producer
//! and state; a corrupt sidecar reported and the rest listed; a symlinked
//! document leading out of the workspace never read.

mod common;
use common::Ws;
use serde_json::Value;

/// Propose through the CLI as `agent` in `turn` (none: no turn); the new id.
fn propose(ws: &Ws, doc: &str, find: &str, replace: &str, agent: &str, turn: Option<&str>) -> String {
    let mut args = vec![
        "propose",
        doc,
        "--find",
        find,
        "--replace",
        replace,
        "--agent",
        agent,
        "--model",
        "sonnet-9",
        "--instruction",
        "Tighten it",
    ];
    if let Some(t) = turn {
        args.extend(["--turn", t]);
    }
    ws.ok(&args).trim().to_owned()
}

/// A workspace with review data in several documents, from several turns and agents.
struct Setup {
    ws: Ws,
    /// turn-a, by claude, in essay.md then notes/ideas.md.
    a_essay: String,
    a_ideas: String,
    /// turn-b, by helper, in story.md.
    b_story: String,
    /// By claude without a turn, in story.md.
    loose: String,
    thread: String,
    _outside: tempfile::TempDir,
}

fn setup() -> Setup {
    let ws = Ws::new();
    ws.write(
        "essay.md",
        "# Essay\n\nThe first draft is where we find out what we mean.\nA second reader helps.\n",
    );
    ws.write(
        "notes/ideas.md",
        "# Ideas\n\nA lantern in the fog, again and again.\n",
    );
    ws.write(
        "story.md",
        "The keeper climbed the hundred steps at dusk.\nThe lamp was lit.\n",
    );
    ws.write("plain.md", "Nothing waits here.\n");
    let a_essay = propose(&ws, "essay.md", "find out", "learn", "claude", Some("turn-a"));
    let a_ideas = propose(
        &ws,
        "notes/ideas.md",
        "again and again",
        "once more",
        "claude",
        Some("turn-a"),
    );
    let b_story = propose(
        &ws,
        "story.md",
        "hundred steps",
        "ninety steps",
        "helper",
        Some("turn-b"),
    );
    let loose = propose(
        &ws,
        "story.md",
        "The lamp was lit.",
        "The lamp burned.",
        "claude",
        None,
    );
    let thread = ws.json(&[
        "thread",
        "new",
        "essay.md",
        "--find",
        "A second reader helps.",
        "--body",
        "Own section?",
    ])["thread"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // The writer edits the target of a_essay by hand: it goes stale.
    let essay = ws.read("essay.md").replace("find out what", "find what");
    ws.write("essay.md", essay);
    // A corrupt sidecar, and a document that is a symlink out of the workspace
    // (with a sidecar of its own, so the listing has a reason to look at it).
    ws.write("broken.md", "Fine text.\n");
    ws.write(".threads/broken.md.json", "{ \"schemaVersion\": 1, \"docPath\": ");
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.md"), "OUTSIDE-SECRET words\n").unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.md"), ws.file("link.md")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.md"), ws.file("link2.md")).unwrap();
    let side = ws.sidecar("story.md").replace("\"story.md\"", "\"link.md\"");
    ws.write(".threads/link.md.json", side);
    Setup {
        ws,
        a_essay,
        a_ideas,
        b_story,
        loose,
        thread,
        _outside: outside,
    }
}

fn ids(group: &Value) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = group["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["document"].as_str().unwrap().to_owned(),
                p["proposal"]["id"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    out.extend(group["threads"].as_array().unwrap().iter().map(|t| {
        (
            t["document"].as_str().unwrap().to_owned(),
            t["thread"]["id"].as_str().unwrap().to_owned(),
        )
    }));
    out
}

fn pair(doc: &str, id: &str) -> (String, String) {
    (doc.to_owned(), id.to_owned())
}

#[test]
fn the_inbox_lists_every_document_by_turn_and_producer_newest_first() {
    let s = setup();
    let out = s.ws.cmd(&["--json", "inbox"]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        !stdout.contains("OUTSIDE-SECRET"),
        "nothing outside the workspace is read: {stdout}"
    );
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["unit"], "byte");
    let groups = v["groups"].as_array().unwrap();
    let keys: Vec<&str> = groups.iter().map(|g| g["key"].as_str().unwrap()).collect();
    // Newest first: the thread, the loose proposal, turn-b, turn-a.
    assert_eq!(
        keys,
        [
            "threads:writer@example.com".to_owned(),
            format!("proposal:story.md:{}", s.loose),
            "turn:turn-b:helper".to_owned(),
            "turn:turn-a:claude".to_owned(),
        ],
        "{v:#}"
    );
    // One turn across two documents is one group, by document.
    let a = &groups[3];
    assert_eq!(
        ids(a),
        [pair("essay.md", &s.a_essay), pair("notes/ideas.md", &s.a_ideas)]
    );
    assert_eq!(
        (a["turnId"].as_str(), a["producer"].as_str()),
        (Some("turn-a"), Some("claude"))
    );
    assert_eq!(a["instruction"], "Tighten it");
    assert_eq!(a["author"]["model"], "sonnet-9");
    // The hand edit made the essay's proposal stale, with why; the other is pending.
    let essay = &a["proposals"][0];
    assert_eq!(essay["proposal"]["state"], "stale");
    assert!(
        essay["proposal"]["reason"].as_str().unwrap().contains("changed"),
        "{essay:#}"
    );
    let ideas = &a["proposals"][1];
    assert_eq!(ideas["proposal"]["state"], "pending");
    assert_eq!(ideas["context"]["line"], 3);
    assert_eq!(ideas["context"]["before"], "A lantern in the fog, ");
    assert_eq!(ideas["context"]["after"], ".");
    assert_eq!(ids(&groups[2]), [pair("story.md", &s.b_story)]);
    assert_eq!(ids(&groups[1]), [pair("story.md", &s.loose)]);
    let threads = &groups[0];
    assert_eq!(ids(threads), [pair("essay.md", &s.thread)]);
    assert_eq!(threads["threads"][0]["context"]["line"], 4);
    assert_eq!(
        threads["threads"][0]["thread"]["comments"][0]["body"],
        "Own section?"
    );

    // Per document, what is listed; plain.md has nothing, so is not there.
    let docs: Vec<(String, u64, u64, u64)> = v["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["document"].as_str().unwrap().to_owned(),
                d["pending"].as_u64().unwrap(),
                d["stale"].as_u64().unwrap(),
                d["openThreads"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        docs,
        [
            ("essay.md".into(), 0, 1, 1),
            ("notes/ideas.md".into(), 1, 0, 0),
            ("story.md".into(), 2, 0, 0)
        ]
    );
    // The corrupt sidecar and the symlink out are reported, not fatal; the
    // symlink without a sidecar is not a document at all.
    let errors: Vec<(&str, &str)> = v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["document"].as_str().unwrap(),
                e["error"]["code"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        errors,
        [("broken.md", "corrupt_sidecar"), ("link.md", "bad_input")],
        "{v:#}"
    );
    assert!(!stdout.contains("link2.md"));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("broken.md: not read"), "{err}");
}

#[test]
fn the_inbox_filters_by_document_folder_producer_and_state() {
    let s = setup();
    let listed = |args: &[&str]| -> Vec<(String, String)> {
        let mut all = vec!["inbox"];
        all.extend_from_slice(args);
        let v = s.ws.json(&all);
        v["groups"].as_array().unwrap().iter().flat_map(ids).collect()
    };
    assert_eq!(
        listed(&["--document", "notes"]),
        [pair("notes/ideas.md", &s.a_ideas)]
    );
    assert_eq!(
        listed(&["--document", "notes/"]),
        [pair("notes/ideas.md", &s.a_ideas)]
    );
    assert_eq!(
        listed(&["--document", "story.md"]),
        [pair("story.md", &s.loose), pair("story.md", &s.b_story)]
    );
    assert_eq!(listed(&["--producer", "HELPER"]), [pair("story.md", &s.b_story)]);
    assert_eq!(
        listed(&["--producer", "writer@example.com"]),
        [pair("essay.md", &s.thread)]
    );
    assert_eq!(listed(&["--state", "stale"]), [pair("essay.md", &s.a_essay)]);
    assert_eq!(listed(&["--state", "open"]), [pair("essay.md", &s.thread)]);
    assert_eq!(
        listed(&["--state", "pending", "--producer", "claude"]),
        [pair("story.md", &s.loose), pair("notes/ideas.md", &s.a_ideas)]
    );
    assert!(
        listed(&["--document", "plain.md"]).is_empty(),
        "a document with nothing waiting"
    );
    // What does not exist is said, not listed as empty.
    let err = s.ws.fails(&["inbox", "--document", "nowhere.md"], 2);
    assert!(err.contains("nowhere.md"), "{err}");
    s.ws.fails(&["inbox", "--document", "../outside"], 2);
}

#[test]
fn the_inbox_words_groups_for_a_terminal_and_follows_decisions() {
    let s = setup();
    let text = s.ws.ok(&["inbox"]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("Writer — 1 open thread in 1 document"),
        "{text}"
    );
    let head = lines
        .iter()
        .position(|l| l.starts_with("claude · claude (sonnet-9) · turn turn-a"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(lines[head].ends_with("— 2 proposals in 2 documents"), "{text}");
    assert!(
        lines[head + 1].starts_with(&format!("  essay.md:3  stale    {}", s.a_essay)),
        "{text}"
    );
    assert!(lines[head + 2].contains("stale: "), "{text}");
    assert!(
        lines[head + 3].starts_with(&format!("  notes/ideas.md:3  pending  {}", s.a_ideas)),
        "{text}"
    );
    // Decisions made elsewhere (another process) leave the inbox.
    s.ws.ok(&["accept", "notes/ideas.md", &s.a_ideas]);
    s.ws.ok(&["reject", "essay.md", &s.a_essay]);
    s.ws.ok(&["thread", "resolve", "essay.md", &s.thread]);
    let v = s.ws.json(&["inbox"]);
    let keys: Vec<&str> = v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            format!("proposal:story.md:{}", s.loose).as_str(),
            "turn:turn-b:helper"
        ]
    );
    assert_eq!(
        s.ws.read("notes/ideas.md"),
        "# Ideas\n\nA lantern in the fog, once more.\n"
    );
}
