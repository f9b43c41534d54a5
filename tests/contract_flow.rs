//! The suggestion contract in the workspace: filing, decisions on every
//! accept/reject path (CLI and library), undo/redo, explicit migration, eval,
//! Check document from the CLI, and hot-exit backups carrying unsaved text,
//! spans and decisions into a new session.

mod common;

use common::Ws;
use cowriting::contract::{self, Finding, Producer, Source};
use cowriting::history::EditKind;
use cowriting::ledger::Ledger;
use cowriting::model::Provenance;
use cowriting::{CharRange, DocPath, ErrorCode, ProposeOptions, Session, Store, Workspace};
use serde_json::Value;
use std::sync::Arc;

fn session(ws: &Ws) -> Session {
    let store = Arc::new(Store::new(Workspace::open(ws.path()).unwrap()));
    Session::open(
        store,
        DocPath::parse("d.md").unwrap(),
        Provenance::human("me@example.com"),
    )
    .unwrap()
}

fn harper() -> Producer {
    Producer {
        id: "harper".into(),
        version: "9.9".into(),
        provenance: "rule:SpellCheck".into(),
    }
}

fn suggestion(bytes: &[u8], find: &str, replacement: &str) -> contract::Suggestion {
    let text = std::str::from_utf8(bytes).unwrap();
    let start = text.find(find).unwrap();
    contract::Suggestion::new(
        &harper(),
        &Source::of("d.md", bytes),
        bytes,
        Finding {
            span: contract::byte_span(start, start + find.len()),
            replacement: replacement.into(),
            category: "spelling".into(),
            reason: format!("Did you mean {replacement:?}?"),
            confidence: None,
        },
    )
    .unwrap()
}

fn opts() -> ProposeOptions {
    ProposeOptions {
        author: cowriting::ledger::author_for(&harper()),
        turn_id: Some("turn-1".into()),
        instruction: None,
    }
}

/// The decision log, oldest first (`decisions` lists the newest first).
fn decisions(ws: &Ws) -> Vec<Value> {
    let v = ws.json(&["decisions"]);
    let mut log = v["decisions"].as_array().unwrap_or_else(|| panic!("{v}")).clone();
    log.reverse();
    log
}

fn eval_row(ws: &Ws, producer: &str, category: &str) -> Value {
    let v = ws.json(&["eval"]);
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["producer"] == producer && r["category"] == category)
        .cloned()
        .unwrap_or_else(|| panic!("no row {producer}/{category} in {v}"))
}

#[test]
fn cli_accept_change_reject_are_logged_and_counted() {
    let ws = Ws::new();
    ws.write("d.md", "Café one, two, three, four.\n");
    let id = |v: Value| v["proposal"]["id"].as_str().unwrap().to_owned();
    let a = id(ws.json(&[
        "propose",
        "d.md",
        "--find",
        "one",
        "--replace",
        "uno",
        "--instruction",
        "Spanish",
    ]));
    let b = id(ws.json(&["propose", "d.md", "--find", "two", "--replace", "dos"]));
    let c = id(ws.json(&["propose", "d.md", "--find", "three", "--replace", "tres"]));
    let _d = id(ws.json(&["propose", "d.md", "--find", "four", "--replace", "cuatro"]));
    let pending = std::fs::read_to_string(ws.file(".cowriting/suggestions/d.md.json")).unwrap();
    assert_eq!(pending.matches("\"sidecarProposalId\"").count(), 4, "{pending}");
    // A record as the file holds it, by its sidecar id.
    let record = |id: &str| -> serde_json::Value {
        let file: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(ws.file(".cowriting/suggestions/d.md.json")).unwrap(),
        )
        .unwrap();
        file["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["sidecarProposalId"] == id)
            .cloned()
            .unwrap_or_default()
    };
    let (b_filed, c_filed, d_filed) = (record(&b), record(&c), record(&_d));
    ws.ok(&["accept", "d.md", &a]);
    // Deciding one of four leaves the other three records as filed (issue 31).
    assert_eq!(
        (record(&b), record(&c), record(&_d)),
        (b_filed, c_filed, d_filed.clone())
    );
    ws.ok(&["accept", "d.md", &b, "--with", "DOS"]);
    ws.ok(&["reject", "d.md", &c]);
    assert_eq!(record(&_d), d_filed, "never re-minted by others' decisions");
    assert_eq!(ws.read("d.md"), "Café uno, DOS, three, four.\n");
    let log = decisions(&ws);
    let outcomes: Vec<&str> = log.iter().map(|d| d["outcome"].as_str().unwrap()).collect();
    assert_eq!(outcomes, ["accepted", "changed", "rejected"]);
    assert_eq!(log[1]["chosen"], "DOS");
    assert_eq!(log[0]["decidedBy"], "writer@example.com");
    assert_eq!(
        log[0]["id"],
        a.as_str(),
        "the sidecar id, as proposals --json lists it"
    );
    assert!(log[0]["contractProposalId"].as_str().unwrap().starts_with("pp_"));
    // Each record keeps the original suggestion, its producer and revision.
    let s = &log[0]["edits"][0];
    assert_eq!(s["text"], "one");
    assert_eq!(s["proposed"], "uno");
    assert_eq!(s["reason"], "Spanish");
    assert_eq!(
        s["revision"],
        contract::git_blob_id("Café one, two, three, four.\n".as_bytes())
    );
    assert!(s["id"].as_str().unwrap().starts_with("sg_"));
    // The second was decided after the first changed the bytes: migrated explicitly.
    let s2 = &log[1]["edits"][0];
    assert!(s2["migratedFrom"].as_str().unwrap().starts_with("sg_"), "{s2}");
    assert_eq!(s2["text"], "two");
    let row = eval_row(&ws, "claude", "edit");
    assert_eq!(
        (
            row["accepted"].as_u64(),
            row["changed"].as_u64(),
            row["rejected"].as_u64(),
            row["pending"].as_u64()
        ),
        (Some(1), Some(1), Some(1), Some(1))
    );
    let text = ws.ok(&["eval"]);
    assert!(text.contains("claude") && text.contains("edit"), "{text}");
}

#[test]
fn a_proposal_decided_elsewhere_is_counted_as_such() {
    let ws = Ws::new();
    ws.write("d.md", "alpha beta\n");
    ws.json(&["propose", "d.md", "--find", "beta", "--replace", "gamma"]);
    // Another tool (VS Code) removes the proposal without a ledger.
    let mut sc: Value = ws.sidecar_json("d.md");
    sc["proposals"] = Value::Array(vec![]);
    ws.write(
        ".threads/d.md.json",
        serde_json::to_string_pretty(&sc).unwrap() + "\n",
    );
    let row = eval_row(&ws, "claude", "edit");
    assert_eq!(row["pending"], 0);
    assert_eq!(row["decidedElsewhere"], 1);
}

#[test]
fn undo_takes_a_decision_back_and_redo_makes_it_again() {
    let ws = Ws::new();
    ws.write("d.md", "I recieve mail.\n");
    let mut s = session(&ws);
    let bytes = s.contract_bytes();
    let filed = s
        .file_suggestions(&[suggestion(&bytes, "recieve", "receive")], opts())
        .unwrap();
    let sid = filed[0].sidecar_id.clone();
    let ledger = Ledger::new(ws.path());
    s.accept(&sid, None).unwrap();
    // Decisions reach the disk with their text: nothing yet.
    assert!(ledger.decisions().unwrap().is_empty());
    assert_eq!(ledger.pending(s.doc_path()).unwrap().len(), 1);
    assert!(s.is_dirty());
    s.save().unwrap();
    assert_eq!(ledger.decisions().unwrap().len(), 1);
    assert!(ledger.pending(s.doc_path()).unwrap().is_empty());
    assert_eq!(ws.read("d.md"), "I receive mail.\n");
    s.undo().unwrap();
    assert!(
        !ledger.decisions().unwrap()[0].undone,
        "the undo waits for its text"
    );
    s.save().unwrap();
    let d = ledger.decisions().unwrap();
    assert!(d[0].undone);
    assert_eq!(
        ledger.pending(s.doc_path()).unwrap().len(),
        1,
        "the entry is pending again"
    );
    assert_eq!(ws.read("d.md"), "I recieve mail.\n");
    assert_eq!(eval_row(&ws, "harper", "spelling")["accepted"], 0);
    assert_eq!(eval_row(&ws, "harper", "spelling")["pending"], 1);
    s.redo().unwrap();
    s.save().unwrap();
    let d = ledger.decisions().unwrap();
    assert_eq!(d.len(), 2);
    assert!(!d[1].undone);
    assert_eq!(eval_row(&ws, "harper", "spelling")["accepted"], 1);
    // Accept then undo before saving: nothing ever reaches the log.
    s.undo().unwrap();
    s.redo().unwrap();
    assert!(
        !s.is_dirty(),
        "undo then redo of a saved decision is back to the saved state"
    );
    assert!(s.take_warnings().is_empty());
}

#[test]
fn an_accept_discarded_with_its_buffer_leaves_the_proposal_pending() {
    let ws = Ws::new();
    ws.write("d.md", "I recieve mail.\n");
    let before = ws.snapshot();
    let mut s = session(&ws);
    let bytes = s.contract_bytes();
    let filed = s
        .file_suggestions(&[suggestion(&bytes, "recieve", "receive")], opts())
        .unwrap();
    let filed_state = ws.snapshot();
    assert_ne!(filed_state, before);
    s.accept(&filed[0].sidecar_id, None).unwrap();
    assert!(s.proposals().is_empty(), "the session shows it decided");
    // The writer closes the tab and discards.
    drop(s);
    assert_eq!(ws.snapshot(), filed_state, "nothing of the decision is on disk");
    let s = session(&ws);
    assert_eq!(s.proposals().len(), 1);
    assert!(Ledger::new(ws.path()).decisions().unwrap().is_empty());
}

#[test]
fn stale_suggestions_are_refused_and_records_are_verified_at_decision_time() {
    let ws = Ws::new();
    ws.write("d.md", "Teh start. Some recieve.\n");
    let mut s = session(&ws);
    let old = s.contract_bytes();
    let sug = suggestion(&old, "recieve", "receive");
    // The human types before the producer's result is filed: stale by hash.
    s.replace(CharRange::new(0, 0), "New. ", EditKind::Typing)
        .unwrap();
    let e = s
        .file_suggestions(std::slice::from_ref(&sug), opts())
        .unwrap_err();
    assert_eq!(e.code(), ErrorCode::Stale, "{e}");
    assert!(e.to_string().contains("changed since it was made"), "{e}");
    assert!(!ws.file(".threads/d.md.json").exists(), "nothing filed");
    // A span whose text differs is stale too, even when the hash is right.
    let mut wrong = suggestion(&s.contract_bytes(), "start", "begin");
    wrong.text = "stars".into();
    let e = contract::verify(&wrong, &contract::Revision::of(&s.contract_bytes()))
        .unwrap_err()
        .to_string();
    assert!(e.contains("hold \"start\", not \"stars\""), "{e}");
    // Filed on the current bytes, then the human edits elsewhere and saves:
    // the record stays what its producer said at the revision it saw, byte
    // for byte (issue 31: a save rewrites no record nobody decided).
    let now = s.contract_bytes();
    let filed = s
        .file_suggestions(&[suggestion(&now, "recieve", "receive")], opts())
        .unwrap();
    let pending_file = ws.file(".cowriting/suggestions/d.md.json");
    let as_filed = std::fs::read(&pending_file).unwrap();
    s.replace(CharRange::new(0, 0), "Intro. ", EditKind::Typing)
        .unwrap();
    s.save().unwrap();
    assert_eq!(
        std::fs::read(&pending_file).unwrap(),
        as_filed,
        "a save leaves the record as filed"
    );
    let saved = std::fs::read(ws.file("d.md")).unwrap();
    let ledger = Ledger::new(ws.path());
    let entry = &ledger.pending(s.doc_path()).unwrap()[0];
    assert_eq!(entry.sidecar_proposal_id, filed[0].sidecar_id);
    assert_eq!(entry.suggestions[0].source.revision, contract::git_blob_id(&now));
    // Verified at decision time, where the sidecar's anchor says the text is
    // now: the decision carries the suggestion migrated explicitly.
    s.accept(&filed[0].sidecar_id, None).unwrap();
    s.save().unwrap();
    let decided = ledger.decisions().unwrap();
    let m = &decided.last().unwrap().suggestions[0];
    assert_eq!(m.source.revision, contract::git_blob_id(&saved));
    let original = suggestion(&now, "recieve", "receive").id;
    assert_eq!(m.migrated_from.as_deref(), Some(original.as_str()));
    contract::verify(m, &contract::Revision::of(&saved)).unwrap();
    // A proposal whose target text was edited is stale, its record left as it was.
    let bytes = s.contract_bytes();
    let filed = s
        .file_suggestions(&[suggestion(&bytes, "Some", "Several")], opts())
        .unwrap();
    let as_filed = std::fs::read(&pending_file).unwrap();
    let r = s.find("Some", None).unwrap();
    s.replace(CharRange::new(r.start.0, r.start.0 + 1), "s", EditKind::Typing)
        .unwrap();
    s.save().unwrap();
    assert_eq!(
        std::fs::read(&pending_file).unwrap(),
        as_filed,
        "a stale entry is left as it was"
    );
    assert_eq!(
        s.accept(&filed[0].sidecar_id, None).unwrap_err().code(),
        ErrorCode::Stale
    );
}

#[test]
fn a_corrupt_ledger_does_not_block_review() {
    let ws = Ws::new();
    ws.write("d.md", "one two\n");
    ws.write(".cowriting/suggestions/d.md.json", "{ broken");
    let out = ws
        .cmd(&["propose", "d.md", "--find", "two", "--replace", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("warning: contract records not kept"), "{err}");
    assert_eq!(
        std::fs::read_to_string(ws.file(".cowriting/suggestions/d.md.json")).unwrap(),
        "{ broken"
    );
}

/// A settings file (in a temporary folder, kept alive by the returned guard)
/// holding `before`, then the external producer `thefix` (the fixture script,
/// answering "good").
fn thefix_config(before: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let producer = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/producers/external/producer.py");
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    let thefix = format!(
        "[external.thefix]\ncommand = {:?}\nargs = [\"good\"]\n",
        producer.display().to_string()
    );
    std::fs::write(&config, format!("{before}{thefix}")).unwrap();
    (dir, config)
}

#[test]
fn eval_replays_a_producer_on_the_recorded_revisions_read_back_from_git() {
    let ws = Ws::new();
    ws.write("d.md", "One teh two teh three teh.\n");
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(ws.path())
            .args(["-c", "user.name=W", "-c", "user.email=w@example.com"])
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    git(&["init", "-q"]);
    let (_cfg_dir, config) = thefix_config("");
    let run = |args: &[&str]| {
        let out = ws.cmd(args).env("COWRITING_CONFIG", &config).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let filed: Value =
        serde_json::from_str(&run(&["--json", "suggest", "d.md", "--producer", "thefix"])).unwrap();
    let ids: Vec<String> = filed["filed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["sidecarId"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids.len(), 3, "{filed}");
    // Nothing was committed: the revisions are readable because the ledger kept them.
    run(&["accept", "d.md", &ids[0]]);
    run(&["reject", "d.md", &ids[1]]);
    let replay: Value = serde_json::from_str(&run(&["--json", "eval", "--replay", "thefix"])).unwrap();
    let r = &replay["replay"];
    assert!(
        r["revisions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|x| x["error"].is_null()),
        "{replay}"
    );
    assert_eq!(r["byOutcome"]["accepted"]["decided"], 1, "{replay}");
    assert_eq!(r["byOutcome"]["accepted"]["reproduced"], 1, "{replay}");
    assert_eq!(r["byOutcome"]["rejected"]["decided"], 1, "{replay}");
    assert_eq!(
        r["byOutcome"]["rejected"]["reproduced"], 1,
        "the same producer suggests it again: {replay}"
    );
    let text = run(&["eval", "--replay", "thefix"]);
    assert!(text.contains("replay of thefix"), "{text}");
    // Claude turns are not replayable, and say so.
    let out = ws
        .cmd(&["eval", "--replay", "claude"])
        .env("COWRITING_CONFIG", &config)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot be replayed"));
}

#[test]
fn a_backup_carries_unsaved_text_spans_and_decisions_into_a_new_session() {
    let ws = Ws::new();
    ws.write("d.md", "I recieve mail. Teh end.\n");
    let mut s = session(&ws);
    let bytes = s.contract_bytes();
    let filed = s
        .file_suggestions(
            &[
                suggestion(&bytes, "recieve", "receive"),
                suggestion(&bytes, "Teh", "The"),
            ],
            opts(),
        )
        .unwrap();
    assert!(s.backup().is_none(), "nothing unsaved, nothing to back up");
    s.accept(&filed[0].sidecar_id, None).unwrap();
    s.reject(&filed[1].sidecar_id).unwrap();
    let end = s.document().len_chars();
    s.replace(
        cowriting::CharRange::new(end, end),
        "More.\n",
        cowriting::history::EditKind::Other,
    )
    .unwrap();
    let on_disk = ws.snapshot();
    let backup = s.backup().expect("dirty");
    // Through JSON, as the app journals it.
    let backup: cowriting::session::Backup =
        serde_json::from_str(&serde_json::to_string(&backup).unwrap()).unwrap();
    drop(s); // the crash
    assert_eq!(ws.snapshot(), on_disk);
    let mut s = session(&ws);
    let r = s.restore_backup(&backup).unwrap();
    assert!(!r.file_changed);
    assert_eq!(
        r.decisions, 1,
        "the accept waits for the save; the reject was written"
    );
    assert_eq!(s.document().flatten(), "I receive mail. Teh end.\nMore.\n");
    assert!(s.proposals().is_empty());
    assert!(s.is_dirty());
    let claude: Vec<String> = s
        .spans()
        .filter(|sp| sp.who.author.id == "harper")
        .map(|sp| s.document().slice(sp.range))
        .collect();
    assert_eq!(claude, ["receive"], "the accepted word keeps its author");
    s.save().unwrap();
    assert_eq!(ws.read("d.md"), "I receive mail. Teh end.\nMore.\n");
    let d = Ledger::new(ws.path()).decisions().unwrap();
    assert_eq!(d.len(), 2, "both decisions logged once");
}

#[test]
fn check_document_from_the_cli_runs_every_enabled_producer_and_a_missing_one_does_not_stop_it() {
    let ws = Ws::new();
    ws.write("d.md", "One teh two teh three teh.\n");
    let (_cfg_dir, config) = thefix_config(
        "[producers]\nenabled = [\"vale\", \"thefix\"]\n\n[vale]\ncommand = \"/nonexistent/cowriting-test/vale\"\n\n",
    );
    let out = ws
        .cmd(&["--json", "suggest", "d.md"])
        .env("COWRITING_CONFIG", &config)
        .output()
        .unwrap();
    // Vale is not installed: the check goes on, and the exit status says a producer did not run.
    assert_eq!(
        out.status.code(),
        Some(5),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["document"], "d.md");
    let outcomes = v["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 2, "{v}");
    assert_eq!(outcomes[0]["producer"], "vale");
    assert_eq!(outcomes[0]["error"]["code"], "not_installed", "{v}");
    assert_eq!(outcomes[1]["producer"], "thefix");
    assert_eq!(outcomes[1]["filing"]["filed"].as_array().unwrap().len(), 3, "{v}");
    assert_eq!(ws.sidecar_json("d.md")["proposals"].as_array().unwrap().len(), 3);
    // The same in words.
    let out = ws
        .cmd(&["suggest", "d.md"])
        .env("COWRITING_CONFIG", &config)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("vale: not installed (\"/nonexistent/cowriting-test/vale\" is not installed"),
        "{text}"
    );
    assert!(text.contains("\nthefix: "), "{text}");
    // Check document looks at the whole text.
    let out = ws
        .cmd(&["suggest", "d.md", "--find", "teh"])
        .env("COWRITING_CONFIG", &config)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Accept all checks every member against one revision of the buffer — the
/// bytes before the first accept — not against each intermediate text (which
/// hashed the document, and kept a copy of it in git, once per proposal); and
/// reject all decides the lot in one write.
#[test]
fn deciding_all_of_a_turn_uses_one_revision_and_one_write() {
    let ws = Ws::new();
    ws.write("d.md", "Teh one, tow two, thre three, fuor four.\n");
    let mut s = session(&ws);
    let bytes = s.contract_bytes();
    let filed = s
        .file_suggestions(
            &[
                suggestion(&bytes, "Teh", "The"),
                suggestion(&bytes, "tow", "two"),
                suggestion(&bytes, "thre", "three"),
                suggestion(&bytes, "fuor", "four"),
            ],
            opts(),
        )
        .unwrap();
    let ids: Vec<String> = filed.iter().map(|f| f.sidecar_id.clone()).collect();
    // Typed after filing: every member must be carried over to new bytes.
    s.replace(CharRange::point(0), "So. ", EditKind::Typing).unwrap();
    let before = s.contract_bytes();
    s.accept_all(&ids[..3]).unwrap();
    s.save().unwrap();
    assert_eq!(ws.read("d.md"), "So. The one, two two, three three, fuor four.\n");
    let ledger = Ledger::new(ws.path());
    let decided = ledger.decisions().unwrap();
    assert_eq!(decided.len(), 3);
    let revision = contract::git_blob_id(&before);
    for d in &decided {
        assert_eq!(
            d.revision(),
            Some(revision.as_str()),
            "{:?}",
            d.sidecar_proposal_id
        );
        assert!(d.suggestions.iter().all(|m| m.migrated_from.is_some()));
    }

    // Reject all: one unknown id stops it there, the ones before it are decided.
    let mut s = session(&ws);
    let err = s.reject_all(&["pr_unknown".to_owned()]).unwrap_err();
    assert_eq!(err.code(), ErrorCode::NotFound, "{err}");
    s.reject_all(&[ids[3].clone(), "pr_unknown".to_owned()]).unwrap();
    assert!(s.proposals().is_empty());
    assert!(ws.sidecar_json("d.md")["proposals"]
        .as_array()
        .unwrap()
        .is_empty());
    let log = ledger.decisions().unwrap();
    assert_eq!(log.len(), 4);
    assert_eq!(log[3].sidecar_proposal_id, ids[3]);
    s.undo().unwrap();
    assert_eq!(s.proposals().len(), 1, "undo brings the rejected one back");
}
