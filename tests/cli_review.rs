//! The F4 propose/accept scenarios of the VS Code flow's test strategy, driven
//! through the real `cowriting` binary: propose leaves the document untouched;
//! accept replaces and attributes; reject; pending survives reload and re-anchors
//! after an external move; editing the target makes it stale (accept refused,
//! exit 3, nothing changed) and restoring it makes it decidable again; several
//! proposals decided out of order. Plus threads and spans.

mod common;
use common::Ws;

const DOC: &str = "# Notes\n\nThe quick brown fox jumps over the lazy dog.\n\nA second paragraph — with ünïcode 😀 and more words.\n";

fn ws() -> Ws {
    let ws = Ws::new();
    ws.write("docs/notes.md", DOC);
    ws
}

#[test]
fn propose_leaves_the_document_untouched_and_persists_at_once() {
    let ws = ws();
    let id = ws.ok(&[
        "propose",
        "docs/notes.md",
        "--find",
        "quick brown",
        "--replace",
        "slow red",
        "--instruction",
        "make it calmer",
        "--turn",
        "turn-7",
        "--model",
        "claude-sonnet",
        "--session",
        "sess-1",
    ]);
    let id = id.trim();
    assert!(id.starts_with("pr_"), "{id}");
    assert_eq!(ws.read("docs/notes.md"), DOC, "INV-10: the document is untouched");
    let sc = ws.sidecar_json("docs/notes.md");
    assert_eq!(sc["docPath"], "docs/notes.md");
    let p = &sc["proposals"][0];
    assert_eq!(p["id"], id);
    assert_eq!(p["replacement"], "slow red");
    assert_eq!(p["turnId"], "turn-7");
    assert_eq!(p["instruction"], "make it calmer");
    assert_eq!(p["author"]["kind"], "agent");
    assert_eq!(p["author"]["id"], "claude");
    assert_eq!(p["author"]["agent"]["model"], "claude-sonnet");
    assert_eq!(p["author"]["agent"]["sessionId"], "sess-1");
    let anchor = &sc["anchors"][p["anchorId"].as_str().unwrap()]["fingerprint"];
    assert_eq!(anchor["text"], "quick brown");
    assert_eq!(anchor["lineHint"], 2);

    let list = ws.proposals("docs/notes.md");
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["state"], "pending");
    let start = DOC.find("quick brown").unwrap();
    assert_eq!(list[0]["from"], start);
    assert_eq!(list[0]["to"], start + "quick brown".len());
    assert_eq!(list[0]["target"], "quick brown");
}

#[test]
fn accept_replaces_the_text_and_attributes_only_changed_words() {
    let ws = ws();
    let id = ws.propose(
        "docs/notes.md",
        "The quick brown fox jumps",
        "The slow brown fox leaps",
    );
    let out = ws.ok(&["accept", "docs/notes.md", &id]);
    assert!(out.contains("accepted"), "{out}");
    let text = ws.read("docs/notes.md");
    assert_eq!(
        text,
        DOC.replace("The quick brown fox jumps", "The slow brown fox leaps")
    );
    let sc = ws.sidecar_json("docs/notes.md");
    assert_eq!(
        sc["proposals"].as_array().unwrap().len(),
        0,
        "INV-13: decided proposals leave"
    );
    let spans = ws.json(&["spans", "docs/notes.md"]);
    let spans = spans["spans"].as_array().unwrap();
    let texts: Vec<&str> = spans.iter().map(|s| s["text"].as_str().unwrap()).collect();
    assert_eq!(
        texts,
        vec!["slow", "leaps"],
        "unchanged words keep their (absent) attribution"
    );
    for s in spans {
        assert_eq!(s["author"]["kind"], "agent");
        assert_eq!(s["author"]["model"], "sonnet");
        assert_eq!(s["turnId"], "turn-1");
        let (a, b) = (
            s["from"].as_u64().unwrap() as usize,
            s["to"].as_u64().unwrap() as usize,
        );
        assert_eq!(
            &text[a..b],
            s["text"].as_str().unwrap(),
            "byte spans point at the text"
        );
    }
    // The attribution records are in the sidecar, each on its own fingerprinted anchor.
    let records = sc["attributions"].as_array().unwrap();
    assert_eq!(records.len(), 2);
    let fp = &sc["anchors"][records[0]["anchorId"].as_str().unwrap()]["fingerprint"];
    assert_eq!(fp["text"], "slow");
    // Attribution survives a reload and a later human edit elsewhere.
    ws.write("docs/notes.md", format!("Preface added later.\n\n{text}"));
    let again = ws.json(&["spans", "docs/notes.md"]);
    let texts: Vec<&str> = again["spans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, vec!["slow", "leaps"]);
}

#[test]
fn accept_with_changes_gives_the_humans_words_to_the_human() {
    let ws = ws();
    let id = ws.propose("docs/notes.md", "quick brown fox", "slow red fox");
    ws.ok(&["accept", "docs/notes.md", &id, "--with", "slow golden fox"]);
    assert!(ws.read("docs/notes.md").contains("The slow golden fox jumps"));
    let spans = ws.json(&["spans", "docs/notes.md"]);
    let who: Vec<(String, String)> = spans["spans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["text"].as_str().unwrap().to_owned(),
                s["author"]["kind"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        who,
        vec![
            ("slow".to_owned(), "agent".to_owned()),
            ("golden".to_owned(), "human".to_owned())
        ]
    );
    let human = &spans["spans"][1]["author"];
    assert_eq!(
        human["id"], "writer@example.com",
        "identity comes from git config"
    );
}

#[test]
fn reject_leaves_the_document_untouched() {
    let ws = ws();
    let before_sidecar = {
        // A sidecar that exists before the proposal: reject must restore it exactly.
        let t = ws.ok(&[
            "thread",
            "new",
            "docs/notes.md",
            "--find",
            "lazy dog",
            "--body",
            "Which dog?",
        ]);
        assert!(t.trim().starts_with("t_"));
        ws.sidecar("docs/notes.md")
    };
    let id = ws.propose("docs/notes.md", "lazy", "sleepy");
    assert_ne!(ws.sidecar("docs/notes.md"), before_sidecar);
    ws.ok(&["reject", "docs/notes.md", &id]);
    assert_eq!(ws.read("docs/notes.md"), DOC);
    assert_eq!(
        ws.sidecar("docs/notes.md"),
        before_sidecar,
        "propose + reject is byte-identical"
    );
    assert!(ws.proposals("docs/notes.md").is_empty());
}

#[test]
fn pending_survives_reload_and_re_anchors_after_an_external_move() {
    let ws = ws();
    let id = ws.propose("docs/notes.md", "second paragraph", "next paragraph");
    // Another program moves text around: a paragraph is added above.
    let moved = DOC.replace("# Notes\n\n", "# Notes\n\nA brand new opening paragraph.\n\n");
    ws.write("docs/notes.md", &moved);
    let list = ws.proposals("docs/notes.md");
    assert_eq!(list[0]["state"], "pending");
    let start = moved.find("second paragraph").unwrap();
    assert_eq!(list[0]["from"], start, "re-anchored at the new position");
    ws.ok(&["accept", "docs/notes.md", &id]);
    assert_eq!(
        ws.read("docs/notes.md"),
        moved.replace("second paragraph", "next paragraph")
    );
}

#[test]
fn editing_the_target_makes_it_stale_and_restoring_makes_it_decidable() {
    let ws = ws();
    let id = ws.propose("docs/notes.md", "quick brown fox", "slow red fox");
    let edited = DOC.replace("quick brown fox", "quick grey fox");
    ws.write("docs/notes.md", &edited);
    let list = ws.proposals("docs/notes.md");
    assert_eq!(list[0]["state"], "stale");
    assert_eq!(list[0]["current"], "quick grey fox");
    assert!(list[0]["reason"].as_str().unwrap().contains("changed"));
    let before = ws.snapshot();
    let err = ws.fails(&["accept", "docs/notes.md", &id], 3);
    assert!(err.contains("stale"), "{err}");
    assert_eq!(ws.snapshot(), before, "a refused accept changes nothing");
    // Rejecting a stale proposal is always possible — but first, restore the text.
    ws.write("docs/notes.md", DOC);
    assert_eq!(ws.proposals("docs/notes.md")[0]["state"], "pending");
    ws.ok(&["accept", "docs/notes.md", &id]);
    assert!(ws.read("docs/notes.md").contains("The slow red fox jumps"));
}

#[test]
fn a_proposal_at_a_likely_place_is_applied_there_only_once_the_writer_says_so() {
    // Its exact words, found only where the text around them changed (quotes
    // made curly right beside them): stale, shown at that place, and applied
    // there with --at-likely-place (the app asks once); never without.
    let ws = Ws::new();
    let old = "Some \"word\" here and more context on both of the sides, word.\n";
    ws.write("q.md", old);
    let id = ws.ok(&[
        "propose",
        "q.md",
        "--find",
        "word",
        "--nth",
        "1",
        "--replace",
        "term",
    ]);
    let id = id.trim();
    let new = "Some “word” here and more context on both of the sides, word.\n";
    ws.write("q.md", new);
    let list = ws.proposals("q.md");
    assert_eq!(
        (&list[0]["state"], &list[0]["likelyPlace"]),
        (&"stale".into(), &true.into()),
        "{list:?}"
    );
    assert_eq!(list[0]["current"], "word");
    let before = ws.snapshot();
    let err = ws.fails(&["accept", "q.md", id], 3);
    assert!(err.contains("stale") && err.contains("check the place"), "{err}");
    assert_eq!(ws.snapshot(), before, "a refused accept changes nothing");
    ws.ok(&["accept", "q.md", id, "--at-likely-place"]);
    assert_eq!(
        ws.read("q.md"),
        "Some “term” here and more context on both of the sides, word.\n"
    );
    assert!(ws.proposals("q.md").is_empty());
    // An ordinary stale proposal is not taken by the flag.
    ws.write("q.md", new);
    let id = ws.propose("q.md", "context on both", "text on each");
    ws.write("q.md", new.replace("context on both", "context on all"));
    assert_eq!(ws.proposals("q.md")[0]["likelyPlace"], false);
    ws.fails(&["accept", "q.md", &id, "--at-likely-place"], 3);
}

#[test]
fn orphaned_proposal_is_refused_but_rejectable() {
    let ws = ws();
    let id = ws.propose("docs/notes.md", "lazy dog", "sleeping hound");
    ws.write("docs/notes.md", "Completely different text now.\n");
    let list = ws.proposals("docs/notes.md");
    assert_eq!(list[0]["state"], "orphaned");
    assert!(list[0].get("span").is_none());
    let before = ws.snapshot();
    let err = ws.fails(&["accept", "docs/notes.md", &id], 3);
    assert!(err.contains("orphaned"), "{err}");
    assert_eq!(ws.snapshot(), before);
    ws.ok(&["reject", "docs/notes.md", &id]);
    assert!(ws.proposals("docs/notes.md").is_empty());
    assert_eq!(ws.read("docs/notes.md"), "Completely different text now.\n");
}

#[test]
fn several_proposals_decided_out_of_order() {
    let ws = ws();
    let a = ws.propose("docs/notes.md", "quick", "swift");
    let b = ws.propose("docs/notes.md", "lazy", "drowsy");
    let c = ws.propose("docs/notes.md", "second paragraph", "closing paragraph");
    let d = ws.propose("docs/notes.md", "more words", "fewer words");
    ws.ok(&["accept", "docs/notes.md", &c]);
    ws.ok(&["reject", "docs/notes.md", &a]);
    ws.ok(&["accept", "docs/notes.md", &d]);
    ws.ok(&["accept", "docs/notes.md", &b]);
    let expected = DOC
        .replace("lazy", "drowsy")
        .replace("second paragraph", "closing paragraph")
        .replace("more words", "fewer words");
    assert_eq!(ws.read("docs/notes.md"), expected);
    assert!(ws.proposals("docs/notes.md").is_empty());
    let texts: Vec<String> = ws.json(&["spans", "docs/notes.md"])["spans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["text"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(texts, vec!["drowsy", "closing", "fewer"]);
    ws.ok(&["check"]);
}

#[test]
fn find_with_nth_and_byte_spans_target_the_right_text() {
    let ws = Ws::new();
    ws.write("a.md", "one 😀 two 😀 three\n");
    ws.fails(&["propose", "a.md", "--find", "😀", "--replace", "x"], 2);
    let id = ws.ok(&["propose", "a.md", "--find", "😀", "--nth", "2", "--replace", "🎉"]);
    let p = &ws.proposals("a.md")[0];
    assert_eq!(p["id"], id.trim());
    assert_eq!(p["from"], "one 😀 two ".len());
    // The same target by byte span.
    let start = "one 😀 ".len();
    let id2 = ws.ok(&[
        "propose",
        "a.md",
        "--start",
        &start.to_string(),
        "--end",
        &(start + 3).to_string(),
        "--replace",
        "2",
    ]);
    ws.ok(&["accept", "a.md", id2.trim()]);
    ws.ok(&["accept", "a.md", id.trim()]);
    assert_eq!(ws.read("a.md"), "one 😀 2 🎉 three\n");
}

#[test]
fn threads_new_reply_resolve_reopen_and_follow_edits() {
    let ws = ws();
    let t = ws.ok(&[
        "thread",
        "new",
        "docs/notes.md",
        "--find",
        "lazy dog",
        "--body",
        "Is the dog **really** lazy?",
    ]);
    let t = t.trim();
    let c = ws.ok(&[
        "thread",
        "reply",
        "docs/notes.md",
        t,
        "--body",
        "<script>alert(1)</script> yes",
    ]);
    assert!(c.trim().starts_with("c_"));
    ws.ok(&["thread", "resolve", "docs/notes.md", t]);
    let threads = ws.json(&["threads", "docs/notes.md"]);
    let th = &threads["threads"][0];
    assert_eq!(th["status"], "resolved");
    assert_eq!(th["comments"].as_array().unwrap().len(), 2);
    assert_eq!(
        th["comments"][1]["body"], "<script>alert(1)</script> yes",
        "bodies are stored verbatim"
    );
    assert_eq!(th["comments"][0]["author"]["id"], "writer@example.com");
    ws.ok(&["thread", "reopen", "docs/notes.md", t]);
    // The anchored text moves; the thread follows it.
    let moved = format!("Intro.\n\n{DOC}");
    ws.write("docs/notes.md", &moved);
    let threads = ws.json(&["threads", "docs/notes.md"]);
    let th = &threads["threads"][0];
    assert_eq!(th["status"], "open");
    assert_eq!(th["from"], moved.find("lazy dog").unwrap());
    // Unknown thread id: exit 2 and nothing written.
    let before = ws.snapshot();
    let err = ws.fails(&["thread", "reply", "docs/notes.md", "t_nope", "--body", "hi"], 2);
    assert!(err.contains("t_nope"), "{err}");
    assert_eq!(ws.snapshot(), before);
}

#[test]
fn status_counts_everything() {
    let ws = ws();
    ws.propose("docs/notes.md", "quick", "swift");
    let stale = ws.propose("docs/notes.md", "lazy dog", "sleepy dog");
    let t = ws.ok(&[
        "thread",
        "new",
        "docs/notes.md",
        "--find",
        "fox",
        "--body",
        "fox?",
    ]);
    ws.ok(&[
        "thread",
        "new",
        "docs/notes.md",
        "--find",
        "Notes",
        "--body",
        "title?",
    ]);
    ws.ok(&["thread", "resolve", "docs/notes.md", t.trim()]);
    ws.write("docs/notes.md", DOC.replace("lazy dog", "lazy cat"));
    let _ = stale;
    let st = ws.json(&["status", "docs/notes.md"]);
    let d = &st["documents"][0];
    assert_eq!(d["proposals"]["pending"], 1);
    assert_eq!(d["proposals"]["stale"], 1);
    assert_eq!(d["threads"]["open"], 1);
    assert_eq!(d["threads"]["resolved"], 1);
    let text = ws.ok(&["status"]);
    assert!(
        text.contains("docs/notes.md: proposals 1 pending, 1 stale"),
        "{text}"
    );
}

#[test]
fn resolve_batch_reads_json_lines() {
    let ws = Ws::new();
    ws.write("t.txt", "alpha beta gamma\nbeta again\n");
    let input = concat!(
        r#"{"id":1,"fingerprint":{"text":"gamma","before":"alpha beta ","after":"\nbeta again\n","lineHint":0}}"#,
        "\n",
        r#"{"id":"b","fingerprint":{"text":"beta","before":"","after":"","lineHint":1}}"#,
        "\n",
        r#"{"id":"gone","fingerprint":{"text":"delta","before":"","after":"","lineHint":0}}"#,
        "\n"
    );
    let out = ws
        .cmd(&["resolve", "--text", ws.file("t.txt").to_str().unwrap()])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(out.status.success());
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(
        lines,
        vec![
            r#"{"id":1,"start":11,"end":16}"#,
            r#"{"id":"b","start":17,"end":21}"#,
            r#"{"id":"gone","orphaned":true}"#
        ]
    );
    let bad = ws
        .cmd(&["resolve", "--text", ws.file("t.txt").to_str().unwrap()])
        .write_stdin("{not json}\n")
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("stdin line 1"));
}

#[test]
fn resolve_batch_reads_each_lines_own_file_relative_to_the_current_directory() {
    let ws = Ws::new();
    ws.write(
        "a.md",
        "First the context before, some anchored words here, and the context after it.\n",
    );
    ws.write(
        "sub/b.md",
        "First the context before, some anchored\n  words here, and the context after it.\n",
    );
    let fp = r#""fingerprint":{"text":"some anchored words here","before":"First the context before, ","after":", and the context after it.\n","lineHint":0}"#;
    let input = [
        format!(r#"{{"id":"a",{fp},"textPath":"a.md"}}"#),
        format!(r#"{{"id":"b",{fp},"textPath":"sub/b.md"}}"#),
        format!(r#"{{"id":"missing",{fp},"textPath":"nope.md"}}"#),
        format!(r#"{{"id":"a2",{fp},"textPath":"a.md"}}"#),
    ]
    .join("\n");
    let out = ws
        .cmd(&["resolve", "--batch"])
        .current_dir(ws.file(""))
        .write_stdin(input)
        .output()
        .unwrap();
    let lines: Vec<serde_json::Value> = std::str::from_utf8(&out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(lines[0], serde_json::json!({"id":"a","start":26,"end":50}));
    // Re-wrapped: placed on its words, flagged stale.
    assert_eq!(
        lines[1],
        serde_json::json!({"id":"b","start":26,"end":52,"stale":true})
    );
    assert_eq!(lines[2]["error"]["code"], "bad_input", "{:?}", lines[2]);
    assert_eq!(lines[3]["start"], 26);
    // A line that could not be answered gives the exit code of its error.
    assert_eq!(out.status.code(), Some(2));
    // Every line must name its file.
    let bad = ws
        .cmd(&["resolve", "--batch"])
        .current_dir(ws.file(""))
        .write_stdin(format!(r#"{{"id":1,{fp}}}"#))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("textPath"));
}

#[test]
fn two_proposals_sharing_an_id_are_two_proposals_accept_takes_one() {
    let ws = Ws::new();
    ws.write(
        "d.md",
        "The first sentence is here. The second sentence is there.\n",
    );
    ws.json(&["propose", "d.md", "--find", "first", "--replace", "opening"]);
    ws.json(&["propose", "d.md", "--find", "second", "--replace", "closing"]);
    // Another tool wrote both with one id.
    let mut sc = ws.sidecar_json("d.md");
    for p in sc["proposals"].as_array_mut().unwrap() {
        p["id"] = "pr_dup".into();
    }
    ws.write(
        ".threads/d.md.json",
        serde_json::to_string_pretty(&sc).unwrap() + "\n",
    );
    ws.json(&["accept", "d.md", "pr_dup"]);
    assert_eq!(
        ws.read("d.md"),
        "The opening sentence is here. The second sentence is there.\n"
    );
    let left = ws.sidecar_json("d.md")["proposals"].as_array().unwrap().clone();
    assert_eq!(left.len(), 1, "the other record with the same id is kept");
    assert_eq!(left[0]["replacement"], "closing");
}

#[test]
fn propose_files_the_same_edit_once_and_notes_overlaps() {
    let ws = ws();
    let run = |args: &[&str]| {
        let out = ws.cmd(args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let propose = [
        "propose",
        "docs/notes.md",
        "--find",
        "quick brown",
        "--replace",
        "slow red",
    ];
    let (id, err) = run(&propose);
    let id = id.trim().to_owned();
    assert!(id.starts_with("pr_") && err.is_empty(), "{id} {err}");
    // Again, by the same agent (another model): the same id, nothing filed, a note, exit 0.
    let (again, err) = run(&[&propose[..], &["--model", "other"]].concat());
    assert_eq!(again.trim(), id);
    assert_eq!(
        err,
        format!("cowriting: {id} is already pending: the same edit by the same agent; not filed again\n")
    );
    assert_eq!(ws.proposals("docs/notes.md").len(), 1);
    let again = ws.json(&propose);
    assert_eq!(
        (
            again["proposal"]["id"].as_str(),
            again["alreadyPending"].as_bool()
        ),
        (Some(id.as_str()), Some(true))
    );
    assert_eq!(again["overlapping"], serde_json::json!([]));
    assert_eq!(
        ws.sidecar_json("docs/notes.md")["proposals"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // Another agent's same edit is filed; an overlapping one is filed and names what it overlaps.
    let theirs = ws.json(&[&propose[..], &["--agent", "vale"]].concat());
    assert_eq!(theirs["alreadyPending"], false);
    assert_eq!(theirs["overlapping"][0]["id"], id.as_str());
    let (other, err) = run(&[
        "propose",
        "docs/notes.md",
        "--find",
        "brown fox",
        "--replace",
        "red fox",
    ]);
    assert_ne!(other.trim(), id);
    assert!(
        err.contains(&format!(
            "cowriting: note: it overlaps pending {id} by claude on \"quick brown\""
        )),
        "{err}"
    );
    assert_eq!(ws.proposals("docs/notes.md").len(), 3);
    assert_eq!(ws.read("docs/notes.md"), DOC);
}

/// `cowriting search`: every document's text (with the line and the words
/// around each match) and every thread's comments; case, whole words and
/// regular expressions as asked; nothing found says so, a bad expression is
/// bad input (exit 2).
#[test]
fn search_finds_text_in_every_document_and_in_threads() {
    let ws = ws();
    ws.write("story.md", "Fox tales.\nThe FOX again, and foxes.\n");
    ws.ok(&[
        "thread",
        "new",
        "docs/notes.md",
        "--find",
        "lazy dog",
        "--body",
        "Is the fox too quick here?",
    ]);
    let v = ws.json(&["search", "fox"]);
    let hits: Vec<(String, u64, String)> = v["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["document"].as_str().unwrap().to_owned(),
                h["line"].as_u64().unwrap(),
                format!(
                    "{}[{}]{}",
                    h["before"].as_str().unwrap(),
                    h["text"].as_str().unwrap(),
                    h["after"].as_str().unwrap()
                ),
            )
        })
        .collect();
    assert_eq!(
        hits,
        [
            (
                "docs/notes.md".into(),
                3,
                "The quick brown [fox] jumps over the lazy dog.".into()
            ),
            ("story.md".into(), 1, "[Fox] tales.".into()),
            ("story.md".into(), 2, "The [FOX] again, and foxes.".into()),
            ("story.md".into(), 2, "The FOX again, and [fox]es.".into()),
        ]
    );
    // Byte offsets by default: the match is there.
    let h = &v["hits"][0];
    let (from, to) = (
        h["from"].as_u64().unwrap() as usize,
        h["to"].as_u64().unwrap() as usize,
    );
    assert_eq!(&DOC[from..to], "fox");
    let threads = v["threads"].as_array().unwrap();
    assert_eq!(threads.len(), 1, "{v}");
    assert_eq!(threads[0]["document"], "docs/notes.md");
    assert_eq!(threads[0]["body"], "Is the fox too quick here?");
    assert_eq!(threads[0]["thread"]["anchoredText"], "lazy dog");

    let count = |args: &[&str]| ws.json(args)["hits"].as_array().unwrap().len();
    assert_eq!(count(&["search", "fox", "--case-sensitive"]), 2);
    assert_eq!(count(&["search", "fox", "--word"]), 3);
    assert_eq!(count(&["search", r"fox(es)?\b", "--regex", "--word"]), 4);
    // Text for people: file:line: context.
    let text = ws.ok(&["search", "foxes"]);
    assert_eq!(text.trim(), "story.md:2: The FOX again, and [foxes].");
    assert_eq!(
        ws.ok(&["search", "no such words"]).trim(),
        "no match for \"no such words\""
    );
    let err = ws.fails(&["search", "(", "--regex"], 2);
    assert!(err.contains("not a regular expression"), "{err}");
}

/// Who writes: the name and e-mail of the user's settings (each unset one
/// defaulting to git's), else git's, else `$USER` — on comments, typed text
/// and decisions, from the moment they are set.
#[test]
fn the_writer_named_in_the_settings_writes_comments_and_decides() {
    let ws = ws();
    std::fs::remove_file(ws.home().join(".gitconfig")).unwrap();
    let config = ws.home().join(".config/cowriting/config.toml");
    let comment = |body: &str| {
        let t = ws.ok(&[
            "thread",
            "new",
            "docs/notes.md",
            "--find",
            "lazy dog",
            "--body",
            body,
        ]);
        let threads = ws.json(&["threads", "docs/notes.md"]);
        let th = threads["threads"]
            .as_array()
            .unwrap()
            .iter()
            .find(|th| th["id"] == t.trim())
            .cloned()
            .unwrap();
        th["comments"][0]["author"].clone()
    };
    // No settings, no git identity: the login.
    assert_eq!(comment("one")["id"], "tester");
    // A name in the settings.
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "[user]\nname = \"Ada Lovelace\"\n").unwrap();
    let author = comment("two");
    assert_eq!(
        (&author["kind"], &author["id"]),
        (&"human".into(), &"Ada Lovelace".into())
    );
    // An e-mail is the id (as the VS Code extension writes it); the decision is theirs too.
    std::fs::write(
        &config,
        "[user]\nname = \"Ada Lovelace\"\nemail = \"ada@example.org\"\n",
    )
    .unwrap();
    assert_eq!(comment("three")["id"], "ada@example.org");
    let id = ws.propose("docs/notes.md", "quick", "swift");
    ws.ok(&["accept", "docs/notes.md", &id]);
    let log = ws.json(&["decisions"]);
    assert_eq!(log["decisions"][0]["decidedBy"], "ada@example.org", "{log}");
    // Settings come before git; git's e-mail before the settings' name alone.
    std::fs::write(
        ws.home().join(".gitconfig"),
        "[user]\n\temail = git@example.com\n",
    )
    .unwrap();
    assert_eq!(comment("four")["id"], "ada@example.org");
    std::fs::write(&config, "[user]\nname = \"Ada Lovelace\"\n").unwrap();
    assert_eq!(
        comment("five")["id"],
        "git@example.com",
        "an unset e-mail defaults to git's"
    );
}
