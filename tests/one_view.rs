//! One view, three clients: the same proposal, thread and span read the same
//! through the app's API, `cowriting --json` and (in `tests/mcp.rs`) the MCP
//! server. Positions differ only by the unit the caller chose.

mod common;

use common::Ws;
use cowriting::api::Api;
use serde_json::{json, Value};

/// Text whose UTF-8 bytes, chars and UTF-16 units all differ after the emoji.
const TEXT: &str = "# Café ☕ notes\n\nThe 🎉 party starts at eight, the party ends late.\n";

fn review_in_the_app(ws: &Ws) -> Value {
    // The app's API, in this process (the backups it would keep go to a temp dir).
    let backups = tempfile::tempdir().unwrap();
    std::env::set_var(cowriting::api::BACKUP_DIR_ENV, backups.path());
    let mut api = Api::open(ws.path()).unwrap();
    let doc = api.open_document("notes.md").unwrap();
    serde_json::to_value(doc.review).unwrap()
}

#[test]
fn the_app_and_the_cli_show_one_proposal_thread_and_span_alike() {
    let ws = Ws::new();
    ws.write("notes.md", TEXT);
    let filed = ws.json(&[
        "propose",
        "notes.md",
        "--find",
        "party",
        "--nth",
        "2",
        "--replace",
        "feast",
        "--instruction",
        "vary it",
        "--turn",
        "turn-1",
        "--model",
        "claude-sonnet-4-5",
    ]);
    // `propose --json` answers the proposal as every listing shows it, with
    // what filing it met: a new proposal, overlapping none.
    assert_eq!(filed["alreadyPending"], false);
    assert_eq!(filed["overlapping"], json!([]));
    let filed = filed["proposal"].clone();
    assert_eq!(ws.json(&["proposals", "notes.md"])["proposals"][0], filed);
    assert!(filed["contract"]["proposalId"]
        .as_str()
        .unwrap()
        .starts_with("pp_"));
    let accepted = ws.json(&["propose", "notes.md", "--find", "eight", "--replace", "nine"]);
    ws.ok(&["accept", "notes.md", accepted["proposal"]["id"].as_str().unwrap()]);
    ws.ok(&["thread", "new", "notes.md", "--find", "notes", "--body", "Title?"]);

    let app = review_in_the_app(&ws);
    let cli = |what: &str, unit: &str| ws.json(&["--unit", unit, what, "notes.md"]);

    let listed = cli("proposals", "utf16");
    assert_eq!(listed["unit"], "utf16");
    assert_eq!(listed["document"], "notes.md");
    assert_eq!(listed["proposals"], app["proposals"]);
    let p = &listed["proposals"][0];
    assert_eq!(p["id"], filed["id"]);
    // Another proposal's accept changed the bytes under it, and its contract
    // record stays as filed (issue 31: a decision touches only what it decides).
    assert_eq!(p["contract"]["proposalId"], filed["contract"]["proposalId"]);
    assert_eq!(p["author"]["model"], "claude-sonnet-4-5");
    assert_eq!(p["turnId"], "turn-1");
    assert_eq!(p["line"], 3);

    assert_eq!(cli("threads", "utf16")["threads"], app["threads"]);
    assert_eq!(cli("spans", "utf16")["spans"], app["spans"]);

    // The same proposal in bytes: only the positions differ.
    let now = TEXT.replace("eight", "nine");
    let at = now.rfind("party").unwrap();
    let bytes = &cli("proposals", "byte")["proposals"][0];
    assert_eq!((&bytes["from"], &bytes["to"]), (&json!(at), &json!(at + 5)));
    let units = now[..at].encode_utf16().count();
    assert_eq!((&p["from"], &p["to"]), (&json!(units), &json!(units + 5)));
    assert_ne!(units, at, "the text has characters outside ASCII before it");
    let strip = |mut v: Value| {
        let o = v.as_object_mut().unwrap();
        o.remove("from");
        o.remove("to");
        v
    };
    assert_eq!(strip(bytes.clone()), strip(p.clone()));

    // The attributed span of the accepted word, in both units.
    let spans = cli("spans", "byte");
    let span = spans["spans"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["text"] == "nine")
        .unwrap_or_else(|| panic!("no span on the accepted word: {spans}"));
    let nine = now.find("nine").unwrap();
    assert_eq!((&span["from"], &span["to"]), (&json!(nine), &json!(nine + 4)));
    assert_eq!(span["author"]["kind"], "agent");
}
