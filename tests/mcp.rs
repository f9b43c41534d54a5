//! `cowriting mcp`: a real MCP session over stdio against the built binary,
//! JSON-RPC by hand (newline-delimited JSON), as an MCP client such as Claude
//! Code speaks it. Answers are compared with the CLI's (`authorship` is the
//! CLI's answer), and every read-only tool leaves the tree's paths, sizes and
//! times as they were.

mod common;

use common::Ws;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A client session with `cowriting mcp -w <ws>`.
struct Mcp {
    child: Child,
    stdin: Option<ChildStdin>,
    out: BufReader<ChildStdout>,
    next_id: u64,
    _home: tempfile::TempDir,
}

impl Mcp {
    /// Start the server and initialize as `test-agent` 1.0.
    fn start(ws: &Ws) -> Mcp {
        Mcp::start_as(ws, "test-agent")
    }

    /// Start the server and initialize as the client `name` 1.0.
    fn start_as(ws: &Ws, name: &str) -> Mcp {
        Mcp::start_with(ws, name, &[])
    }

    /// Start the server with `env` set, and initialize as the client `name` 1.0.
    fn start_with(ws: &Ws, name: &str, env: &[(&str, &std::ffi::OsStr)]) -> Mcp {
        let home = tempfile::tempdir().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_cowriting"))
            .envs(env.iter().copied())
            .env_remove("ANTHROPIC_API_KEY")
            .env("HOME", home.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .arg("mcp")
            .arg("-w")
            .arg(ws.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let out = BufReader::new(child.stdout.take().unwrap());
        let mut mcp = Mcp {
            child,
            stdin,
            out,
            next_id: 1,
            _home: home,
        };
        let init = mcp.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": { "name": name, "version": "1.0" }
            }),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "cowriting", "{init}");
        assert!(init["result"]["capabilities"]["tools"].is_object(), "{init}");
        mcp.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        mcp
    }

    fn send(&mut self, msg: &Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
    }

    /// Send a request; return the whole response (with `result` or `error`).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let mut line = String::new();
            let n = self.out.read_line(&mut line).unwrap();
            assert!(n > 0, "the server closed stdout while {method} was pending");
            let msg: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
            if msg["id"] == json!(id) {
                return msg;
            }
        }
    }

    /// Call a tool: `(isError, text, structuredContent)`. Every answer has both:
    /// readable text, and data with the keys its tool's `outputSchema` requires
    /// (or `{code, message}` for an error).
    fn call(&mut self, tool: &str, args: Value) -> (bool, String, Value) {
        let resp = self.request("tools/call", json!({ "name": tool, "arguments": args }));
        let result = &resp["result"];
        assert!(result.is_object(), "{tool}: no result: {resp}");
        let content = result["content"].as_array().unwrap();
        assert_eq!(content.len(), 1, "{resp}");
        assert_eq!(content[0]["type"], "text");
        let text = content[0]["text"].as_str().unwrap().to_owned();
        assert!(!text.trim().is_empty(), "{tool}: no readable text: {resp}");
        let data = result["structuredContent"].clone();
        let is_error = result["isError"].as_bool().unwrap_or(false);
        if is_error {
            // Every refusal, argument errors included, carries its code.
            let keys: Vec<&String> = data.as_object().unwrap().keys().collect();
            assert_eq!(keys, ["code", "message"], "{resp}");
        } else {
            assert!(data.is_object(), "{tool}: no structuredContent: {resp}");
            let schema = self.output_schema(tool);
            for key in schema["required"].as_array().unwrap() {
                assert!(
                    data.get(key.as_str().unwrap()).is_some(),
                    "{tool}: {key} missing in {data}"
                );
            }
        }
        (is_error, text, data)
    }

    /// The `outputSchema` a tool declares.
    fn output_schema(&mut self, tool: &str) -> Value {
        let list = self.request("tools/list", json!({}));
        let t = list["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == tool)
            .unwrap_or_else(|| panic!("no tool {tool}"));
        t["outputSchema"].clone()
    }

    /// Call a tool that must succeed; its text.
    fn ok(&mut self, tool: &str, args: Value) -> String {
        let (is_error, text, _) = self.call(tool, args.clone());
        assert!(!is_error, "{tool} {args} failed: {text}");
        text
    }

    /// Call a tool that must succeed; its structured answer.
    fn json(&mut self, tool: &str, args: Value) -> Value {
        let (is_error, text, data) = self.call(tool, args.clone());
        assert!(!is_error, "{tool} {args} failed: {text}");
        data
    }

    /// Call a tool that must succeed; its text and its structured answer.
    fn both(&mut self, tool: &str, args: Value) -> (String, Value) {
        let (is_error, text, data) = self.call(tool, args.clone());
        assert!(!is_error, "{tool} {args} failed: {text}");
        (text, data)
    }

    /// Call a tool that must fail; its message (the same in text and data).
    fn err(&mut self, tool: &str, args: Value) -> String {
        self.err_info(tool, args).1
    }

    /// Call a tool that must fail; its `(code, message)`.
    fn err_info(&mut self, tool: &str, args: Value) -> (Option<String>, String) {
        let (is_error, text, data) = self.call(tool, args.clone());
        assert!(is_error, "{tool} {args} should have failed: {text}");
        assert_eq!(text.lines().count(), 1, "errors are one line: {text:?}");
        assert_eq!(data["message"], text.as_str());
        (Some(data["code"].as_str().unwrap().to_owned()), text)
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        // Closing stdin ends the session; the server exits.
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        if !std::thread::panicking() {
            assert!(status.success(), "cowriting mcp exited with {status}");
        }
    }
}

/// Every document's `key` list of a listing answer, in one array.
fn flat(v: &Value, key: &str) -> Value {
    let docs = v["documents"]
        .as_array()
        .unwrap_or_else(|| panic!("no documents in {v}"));
    Value::Array(
        docs.iter()
            .flat_map(|d| d[key].as_array().unwrap().clone())
            .collect(),
    )
}

const TEXT: &str = "# Café notes\n\nThe café is open. The café is warm.\n日本 🎉 the end\n";

/// The keys of an answer, to compare the shapes of two clients' answers.
fn keys(v: &Value) -> Vec<String> {
    v.as_object()
        .unwrap_or_else(|| panic!("{v}"))
        .keys()
        .cloned()
        .collect()
}

fn ws_with_doc() -> Ws {
    let ws = Ws::new();
    ws.write("notes.md", TEXT);
    ws
}

#[test]
fn the_tool_list_has_schemas_and_no_tool_decides() {
    let ws = ws_with_doc();
    let mut mcp = Mcp::start(&ws);
    let resp = mcp.request("tools/list", json!({}));
    let tools = resp["result"]["tools"].as_array().unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "ask_claude_in_thread",
            "authorship",
            "create_document",
            "create_thread",
            "export_authorship",
            "list_documents",
            "list_proposals",
            "list_threads",
            "propose_edit",
            "read_document",
            "recent_decisions",
            "reply_to_thread",
            "review_document",
        ]
    );
    for t in tools {
        let schema = &t["inputSchema"];
        assert_eq!(schema["type"], "object", "{t}");
        assert!(schema["properties"].is_object(), "{t}");
        assert!(!t["description"].as_str().unwrap().is_empty(), "{t}");
    }
    let props = |name: &str| {
        let t = tools.iter().find(|t| t["name"] == name).unwrap();
        let mut p: Vec<String> = t["inputSchema"]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        p.sort();
        let mut req: Vec<String> = t["inputSchema"]["required"]
            .as_array()
            .map(|r| r.iter().map(|x| x.as_str().unwrap().to_owned()).collect())
            .unwrap_or_default();
        req.sort();
        (p, req)
    };
    assert_eq!(
        props("propose_edit"),
        (
            [
                "document",
                "end_byte",
                "find",
                "instruction",
                "model",
                "occurrence",
                "rationale",
                "replacement",
                "start_byte",
                "turn_id"
            ]
            .map(String::from)
            .to_vec(),
            ["document", "replacement"].map(String::from).to_vec()
        )
    );
    assert_eq!(props("reply_to_thread").1, ["body", "document", "thread_id"]);
    // INV-12: no tool, description or argument offers a decision.
    for t in tools {
        // What a tool is and takes (its outputSchema describes the views it
        // answers with, which say what the writer's accept does).
        let offered = json!([t["name"], t["description"], t["inputSchema"]]);
        assert!(
            t["outputSchema"]["type"] == "object",
            "{} has no outputSchema: {t}",
            t["name"]
        );
        let all = offered.to_string().to_lowercase();
        let words: Vec<&str> = all.split(|c: char| !c.is_alphanumeric() && c != '_').collect();
        for verb in [
            "accept",
            "reject",
            "apply",
            "decide",
            "delete",
            "remove",
            "undo",
            "edit_text",
        ] {
            assert!(
                !words
                    .iter()
                    .any(|w| *w == verb || w.split('_').any(|p| p == verb)),
                "{} offers {verb:?}: {t}",
                t["name"]
            );
        }
    }
}

#[test]
fn propose_edit_files_an_agent_proposal_and_leaves_the_text_alone() {
    let ws = ws_with_doc();
    let mut mcp = Mcp::start(&ws);
    let filed = mcp.json(
        "propose_edit",
        json!({
            "document": "notes.md",
            "find": "café",
            "occurrence": 2,
            "replacement": "bistro",
            "rationale": "avoid the repetition",
            "instruction": "tighten the prose",
            "turn_id": "turn-7",
            "model": "claude-sonnet-4-5"
        }),
    );
    assert_eq!(filed["document"], "notes.md");
    assert_eq!(filed["unit"], "byte");
    let filed = &filed["proposal"];
    let id = filed["id"].as_str().unwrap().to_owned();
    assert!(id.starts_with("pr_"), "{filed}");
    assert!(filed["contract"]["proposalId"]
        .as_str()
        .unwrap()
        .starts_with("pp_"));
    assert_eq!(filed["line"], 3);
    assert_eq!(filed["state"], "pending");
    assert_eq!(filed["author"]["sdk"], "mcp:test-agent/1.0");
    assert_eq!(filed["author"]["model"], "claude-sonnet-4-5");
    // INV-10: the document is untouched.
    assert_eq!(ws.read_bytes("notes.md"), TEXT.as_bytes());

    let sidecar = ws.sidecar_json("notes.md");
    let p = &sidecar["proposals"][0];
    assert_eq!(p["id"], id.as_str());
    assert_eq!(p["replacement"], "bistro");
    assert_eq!(p["turnId"], "turn-7");
    assert_eq!(p["instruction"], "tighten the prose");
    assert_eq!(p["author"]["kind"], "agent");
    assert_eq!(p["author"]["id"], "test-agent");
    assert_eq!(p["author"]["agent"]["sdk"], "mcp:test-agent/1.0");
    assert_eq!(p["author"]["agent"]["model"], "claude-sonnet-4-5");
    let anchor = &sidecar["anchors"][p["anchorId"].as_str().unwrap()];
    assert_eq!(anchor["fingerprint"]["text"], "café");
    // 32 chars of context, not bytes.
    assert_eq!(
        anchor["fingerprint"]["before"],
        "fé notes\n\nThe café is open. The "
    );

    // The contract ledger keeps the suggestion with the client as producer.
    let ledger: Value = serde_json::from_str(&ws.read(".cowriting/suggestions/notes.md.json")).unwrap();
    let entry = &ledger["entries"][0];
    assert_eq!(entry["sidecarProposalId"], id.as_str());
    let s = &entry["suggestions"][0];
    assert_eq!(
        s["producer"],
        json!({ "id": "test-agent", "version": "1.0", "provenance": "model:claude-sonnet-4-5" })
    );
    assert_eq!(s["reason"], "avoid the repetition");
    assert_eq!(s["text"], "café");
    assert_eq!(s["category"], "edit");

    // A byte span: "日本" is bytes 53..59 of the text.
    let start = TEXT.find("日本").unwrap();
    assert_eq!(start, 53);
    let by_span = mcp.json(
        "propose_edit",
        json!({ "document": "notes.md", "start_byte": start, "end_byte": start + 6, "replacement": "Nihon" }),
    );
    assert_eq!(by_span["proposal"]["line"], 4);
    assert_eq!(by_span["proposal"]["from"], 53);
    assert_eq!(by_span["proposal"]["to"], 59);
    assert_eq!(ws.read_bytes("notes.md"), TEXT.as_bytes());
    let sidecar = ws.sidecar_json("notes.md");
    let p2 = &sidecar["proposals"][1];
    assert_eq!(p2["id"], by_span["proposal"]["id"]);
    assert_eq!(p2["author"]["agent"]["sdk"], "mcp:test-agent/1.0");
    // The seeds' keys, "" when unknown.
    assert_eq!(p2["author"]["agent"]["model"], "", "{p2}");
    assert_eq!(p2["author"]["agent"]["sessionId"], "", "{p2}");
    let ledger: Value = serde_json::from_str(&ws.read(".cowriting/suggestions/notes.md.json")).unwrap();
    let producers: Vec<&Value> = ledger["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["suggestions"][0]["producer"]["provenance"])
        .collect();
    assert!(producers.contains(&&json!("agent:test-agent")), "{ledger}");

    // read_document shows the numbered text and both proposals.
    let text = mcp.ok("read_document", json!({ "document": "notes.md" }));
    assert!(
        text.contains(
            "   1| # Café notes\n   2| \n   3| The café is open. The café is warm.\n   4| 日本 🎉 the end\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "- {id}  pending  line 3, bytes 38..43  \"café\" → \"bistro\"  by agent test-agent (claude-sonnet-4-5)  turn turn-7"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "- {}  pending  line 4, bytes 53..59  \"日本\" → \"Nihon\"",
            by_span["proposal"]["id"].as_str().unwrap()
        )),
        "{text}"
    );

    // The CLI sees the same proposals.
    assert_eq!(ws.proposals("notes.md").len(), 2);
    let docs = mcp.json("list_documents", json!({}));
    assert_eq!(
        docs,
        json!({
            "documents": [{
                "document": "notes.md",
                "proposals": { "pending": 2, "stale": 0, "orphaned": 0 },
                "threads": { "open": 0, "resolved": 0, "orphaned": 0 },
                "spans": { "total": 0, "agent": 0, "human": 0 },
                "sidecarError": null,
            }],
            "errors": [],
            "total": 1,
            "nextCursor": null,
        })
    );
    // The same summary as `cowriting status --json`.
    assert_eq!(docs["documents"], ws.json(&["status"])["documents"]);
}

#[test]
fn threads_and_replies_are_authored_by_the_agent() {
    let ws = ws_with_doc();
    let mut mcp = Mcp::start(&ws);
    let t = mcp.json(
        "create_thread",
        json!({ "document": "notes.md", "find": "🎉", "body": "Is the emoji wanted?", "model": "opus" }),
    );
    let tid = t["thread"]["id"].as_str().unwrap().to_owned();
    assert_eq!(t["thread"]["line"], 4);
    assert_eq!(t["thread"]["comments"][0]["id"], t["commentId"]);
    assert_eq!(t["thread"]["comments"][0]["author"]["model"], "opus");
    let r = mcp.json(
        "reply_to_thread",
        json!({ "document": "notes.md", "thread_id": tid, "body": "Second thought: keep it." }),
    );
    assert!(r["commentId"].as_str().unwrap().starts_with("c_"), "{r}");
    assert_eq!(r["thread"]["comments"][1]["id"], r["commentId"]);
    assert_eq!(r["thread"]["comments"][1]["body"], "Second thought: keep it.");
    // The writer replies with the CLI, as a human: one API, one answer.
    let cli = ws.json(&["thread", "reply", "notes.md", &tid, "--body", "Keep it."]);
    assert_eq!(keys(&cli), keys(&r));
    assert_eq!(cli["thread"]["comments"][1], r["thread"]["comments"][1]);
    assert_eq!(cli["thread"]["comments"][2]["id"], cli["commentId"]);
    assert_eq!(cli["thread"]["comments"][2]["author"]["kind"], "human");
    assert_eq!(ws.read_bytes("notes.md"), TEXT.as_bytes());

    let sidecar = ws.sidecar_json("notes.md");
    let comments = sidecar["threads"][0]["comments"].as_array().unwrap();
    assert_eq!(comments.len(), 3);
    assert_eq!(
        comments[0]["author"],
        json!({ "kind": "agent", "id": "test-agent", "agent": { "sdk": "mcp:test-agent/1.0", "model": "opus", "sessionId": "" } })
    );
    assert_eq!(
        comments[1]["author"],
        json!({ "kind": "agent", "id": "test-agent", "agent": { "sdk": "mcp:test-agent/1.0", "model": "", "sessionId": "" } })
    );
    assert_eq!(comments[2]["author"]["kind"], "human");
    // MCP writes no attribution: nothing is typed as the agent.
    assert_eq!(sidecar["attributions"], json!([]));

    let text = mcp.ok("read_document", json!({ "document": "notes.md" }));
    assert!(
        text.contains(&format!(
            "Open threads (1):\n- {tid}  open  line 4, bytes 60..64  on \"🎉\"\n"
        )),
        "{text}"
    );
    assert!(
        text.contains("    agent test-agent (opus): Is the emoji wanted?\n"),
        "{text}"
    );
    assert!(text.contains("    human Writer: Keep it.\n"), "{text}");

    let open = mcp.json("list_threads", json!({ "status": "open" }));
    assert_eq!(open["documents"][0]["document"], "notes.md");
    let listed = &open["documents"][0]["threads"];
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert_eq!(listed[0]["text"], "🎉");
    assert_eq!((&listed[0]["from"], &listed[0]["to"]), (&json!(60), &json!(64)));
    assert_eq!(listed[0]["relocated"], false);
    assert_eq!(listed[0]["detached"], false);
    assert_eq!(listed[0]["orphaned"], false);
    assert_eq!(listed[0]["anchoredText"], "🎉");
    // The same thread as `cowriting threads --json` shows it.
    assert_eq!(listed[0], ws.json(&["threads", "notes.md"])["threads"][0]);
    ws.ok(&["thread", "resolve", "notes.md", &tid]);
    let open = mcp.json(
        "list_threads",
        json!({ "document": "notes.md", "status": "open" }),
    );
    assert_eq!(open["documents"][0]["threads"], json!([]));
    let resolved = mcp.json("list_threads", json!({ "status": "resolved" }));
    let resolved = &resolved["documents"][0]["threads"];
    assert_eq!(resolved[0]["id"], tid.as_str());
    assert_eq!(resolved[0]["comments"].as_array().unwrap().len(), 3);
    let text = mcp.ok("read_document", json!({ "document": "notes.md" }));
    assert!(text.contains("No open threads."), "{text}");
}

#[test]
fn list_proposals_reports_states_against_the_text_on_disk_now() {
    let ws = Ws::new();
    let before = "The opening paragraph sets the scene with care.\n\n\
                  A long middle line that stays exactly as it is, always.\n\n\
                  The closing line mentions a lighthouse keeper.\n";
    ws.write("story.md", before);
    ws.write("other.md", "Nothing to see.\n");
    let mut mcp = Mcp::start(&ws);
    let mut id = |find: &str, replacement: &str| {
        mcp.json(
            "propose_edit",
            json!({ "document": "story.md", "find": find, "replacement": replacement }),
        )["proposal"]["id"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let stale = id("scene", "stage");
    let orphaned = id("lighthouse", "harbour");
    let pending = id("middle", "central");
    let all = mcp.json("list_proposals", json!({}));
    assert_eq!(flat(&all, "proposals").as_array().unwrap().len(), 3);
    assert!(flat(&all, "proposals")
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["state"] == "pending"));

    // The writer edits the file while the server runs: every call reads it anew.
    ws.write(
        "story.md",
        "The opening paragraph sets the mood with care.\n\n\
         A long middle line that stays exactly as it is, always.\n\n",
    );
    let ids = |v: &Value| -> Vec<String> {
        flat(v, "proposals")
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap().to_owned())
            .collect()
    };
    let st = mcp.json(
        "list_proposals",
        json!({ "document": "story.md", "state": "stale" }),
    );
    assert_eq!(ids(&st), [stale.as_str()]);
    assert_eq!(flat(&st, "proposals")[0]["current"], "mood");
    assert_eq!(flat(&st, "proposals")[0]["target"], "scene");
    assert_eq!(flat(&st, "proposals")[0]["line"], 1);
    let or = mcp.json("list_proposals", json!({ "state": "orphaned" }));
    assert_eq!(ids(&or), [orphaned.as_str()]);
    assert_eq!(flat(&or, "proposals")[0]["line"], Value::Null);
    let pe = mcp.json("list_proposals", json!({ "state": "pending" }));
    assert_eq!(ids(&pe), [pending.as_str()]);
    assert_eq!(flat(&pe, "proposals")[0]["from"], 55);
    assert_eq!(flat(&pe, "proposals")[0]["to"], 61);
    // The same proposal as `cowriting proposals --json` lists it.
    let cli = ws.json(&["proposals", "story.md"]);
    let same = cli["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == pending.as_str());
    assert_eq!(Some(&flat(&pe, "proposals")[0]), same);
    assert_eq!(flat(&pe, "proposals")[0]["author"]["id"], "test-agent");
    let none = mcp.json("list_proposals", json!({ "document": "other.md" }));
    assert_eq!(flat(&none, "proposals"), json!([]));

    let text = mcp.ok("read_document", json!({ "document": "story.md" }));
    assert!(
        text.contains(&format!(
            "- {stale}  stale  line 1, bytes 31..35  \"scene\" → \"stage\""
        )),
        "{text}"
    );
    assert!(
        text.contains("    stale: its target text changed from \"scene\" to \"mood\"\n"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "- {orphaned}  orphaned  orphaned  \"lighthouse\" → \"harbour\""
        )),
        "{text}"
    );
    let docs = mcp.json("list_documents", json!({}));
    let counts: Vec<(&Value, &Value)> = docs["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (&d["document"], &d["proposals"]))
        .collect();
    assert_eq!(
        counts,
        [
            (
                &json!("other.md"),
                &json!({ "pending": 0, "stale": 0, "orphaned": 0 })
            ),
            (
                &json!("story.md"),
                &json!({ "pending": 1, "stale": 1, "orphaned": 1 })
            ),
        ]
    );
}

#[test]
fn bad_arguments_are_tool_errors_and_write_nothing() {
    let ws = ws_with_doc();
    let mut mcp = Mcp::start(&ws);
    let id = mcp.json(
        "propose_edit",
        json!({ "document": "notes.md", "find": "open", "replacement": "ajar" }),
    )["proposal"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let tid = mcp.json(
        "create_thread",
        json!({ "document": "notes.md", "find": "warm", "body": "why?" }),
    )["thread"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(!id.is_empty() && !tid.is_empty());
    let e_acute = TEXT.find("é").unwrap();
    let inside = format!(
        "notes.md: byte offset {} is inside a multi-byte character",
        e_acute + 1
    );
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "propose_edit",
            json!({ "document": "missing.md", "find": "x", "replacement": "y" }),
            "missing.md: no such document in the workspace",
        ),
        (
            "read_document",
            json!({ "document": "../outside.md" }),
            "../outside.md: path is outside the workspace ('..' is not allowed)",
        ),
        (
            "propose_edit",
            json!({ "document": "/etc/passwd", "find": "root", "replacement": "y" }),
            "path is outside the workspace (absolute path",
        ),
        (
            "propose_edit",
            json!({ "document": "notes.md", "find": "tea", "replacement": "coffee" }),
            "\"tea\" not found in notes.md",
        ),
        (
            "propose_edit",
            json!({ "document": "notes.md", "find": "café", "replacement": "bar" }),
            "\"café\" occurs 2 times in notes.md; give occurrence 1..2",
        ),
        (
            "propose_edit",
            json!({ "document": "notes.md", "find": "café", "occurrence": 3, "replacement": "bar" }),
            "occurrence 3: \"café\" occurs 2 times in notes.md",
        ),
        (
            "propose_edit",
            json!({ "document": "notes.md", "start_byte": e_acute + 1, "end_byte": e_acute + 2, "replacement": "e" }),
            &inside,
        ),
        (
            "propose_edit",
            json!({ "document": "notes.md", "start_byte": 0, "end_byte": 999, "replacement": "e" }),
            "notes.md: byte offset 999 is past the end of the text (73 bytes)",
        ),
        (
            "propose_edit",
            json!({ "document": "notes.md", "start_byte": 9, "end_byte": 2, "replacement": "e" }),
            "notes.md: range start 9 is after its end 2",
        ),
        (
            "propose_edit",
            json!({ "document": "notes.md", "start_byte": 2, "replacement": "e" }),
            "give the target",
        ),
        (
            "propose_edit",
            json!({ "document": "notes.md", "find": "open", "start_byte": 0, "end_byte": 1, "replacement": "e" }),
            "not both",
        ),
        (
            "propose_edit",
            json!({ "document": "notes.md", "find": "warm", "replacement": "warm" }),
            "the replacement is the same as the target text \"warm\"",
        ),
        (
            "create_thread",
            json!({ "document": "notes.md", "find": "tea", "body": "hm" }),
            "\"tea\" not found in notes.md",
        ),
        (
            "create_thread",
            json!({ "document": "notes.md", "find": "warm", "body": "  " }),
            "the comment body is empty",
        ),
        (
            "reply_to_thread",
            json!({ "document": "notes.md", "thread_id": "t_nope", "body": "hello" }),
            "thread t_nope not found in notes.md",
        ),
        (
            "list_proposals",
            json!({ "document": "missing.md" }),
            "missing.md: no such document in the workspace",
        ),
        (
            "recent_decisions",
            json!({ "document": "../x.md" }),
            "path is outside the workspace",
        ),
    ];
    for (tool, args, want) in cases {
        let before = ws.snapshot();
        let (code, msg) = mcp.err_info(tool, args.clone());
        assert!(msg.contains(want), "{tool} {args}: {msg:?} does not say {want:?}");
        // The codes the app and the CLI use: an unknown thread is not_found;
        // everything else here (a path that names no document included) is a
        // bad request.
        let unknown = want.starts_with("thread t_nope");
        let expected = if unknown { "not_found" } else { "bad_input" };
        assert_eq!(code.as_deref(), Some(expected), "{tool} {args}: {msg}");
        assert!(ws.snapshot() == before, "{tool} {args} wrote something");
    }
    // Arguments that do not fit the schema are refused the same way.
    let before = ws.snapshot();
    let (code, msg) = mcp.err_info("propose_edit", json!({ "find": "open", "replacement": "ajar" }));
    assert!(msg.contains("missing field `document`"), "{msg}");
    assert_eq!(code.as_deref(), Some("bad_input"));
    let (code, msg) = mcp.err_info("list_proposals", json!({ "state": "maybe" }));
    assert!(msg.contains("state: unknown variant `maybe`"), "{msg}");
    assert_eq!(code.as_deref(), Some("bad_input"));
    assert!(ws.snapshot() == before);
    // A corrupt sidecar is never overwritten; reading still shows the text.
    ws.write(".threads/notes.md.json", "{ not json");
    let before = ws.snapshot();
    let (code, msg) = mcp.err_info(
        "propose_edit",
        json!({ "document": "notes.md", "find": "warm", "replacement": "hot" }),
    );
    assert!(msg.contains("not overwritten"), "{msg}");
    assert_eq!(code.as_deref(), Some("corrupt_sidecar"));
    let text = mcp.ok("read_document", json!({ "document": "notes.md" }));
    assert!(text.contains("   3| The café is open."), "{text}");
    assert!(text.contains("cannot be read"), "{text}");
    assert!(ws.snapshot() == before);
}

#[test]
fn recent_decisions_reports_what_the_writer_decided() {
    let ws = Ws::new();
    ws.write("a.md", "One fish, two fish, red fish.\n");
    ws.write("b.md", "Blue fish swim.\n");
    let mut mcp = Mcp::start(&ws);
    assert_eq!(
        mcp.json("recent_decisions", json!({})),
        json!({ "decisions": [], "warnings": [] })
    );
    let mut propose = |doc: &str, find: &str, replacement: &str| {
        mcp.json(
            "propose_edit",
            json!({ "document": doc, "find": find, "replacement": replacement, "rationale": "variety", "turn_id": "t1" }),
        )["proposal"]["id"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let accepted = propose("a.md", "One", "Uno");
    let changed = propose("a.md", "red", "crimson");
    let rejected = propose("b.md", "Blue", "Azure");
    ws.ok(&["accept", "a.md", &accepted]);
    ws.ok(&["accept", "a.md", &changed, "--with", "scarlet"]);
    ws.ok(&["reject", "b.md", &rejected]);
    assert_eq!(ws.read("a.md"), "Uno fish, two fish, scarlet fish.\n");

    let all = mcp.json("recent_decisions", json!({}));
    let list = all["decisions"].as_array().unwrap();
    let summary: Vec<(&str, &str)> = list
        .iter()
        .map(|d| (d["id"].as_str().unwrap(), d["outcome"].as_str().unwrap()))
        .collect();
    assert_eq!(
        summary,
        [
            (rejected.as_str(), "rejected"),
            (changed.as_str(), "changed"),
            (accepted.as_str(), "accepted")
        ]
    );
    let ch = &list[1];
    assert_eq!(ch["document"], "a.md");
    assert_eq!(ch["chosen"], "scarlet");
    assert_eq!(ch["turnId"], "t1");
    assert_eq!(ch["decidedBy"], "writer@example.com");
    let edit = &ch["edits"][0];
    assert_eq!(ch["edits"].as_array().unwrap().len(), 1);
    assert_eq!(
        (
            &edit["text"],
            &edit["proposed"],
            &edit["producer"],
            &edit["reason"],
            &edit["category"]
        ),
        (
            &json!("red"),
            &json!("crimson"),
            &json!("test-agent"),
            &json!("variety"),
            &json!("edit")
        )
    );
    assert!(ch["contractProposalId"].as_str().unwrap().starts_with("pp_"));
    assert_eq!(list[0]["chosen"], Value::Null, "{}", list[0]);
    // The same decisions as `cowriting decisions --json`, newest first.
    let cli = ws.json(&["decisions"])["decisions"].as_array().unwrap().clone();
    assert_eq!(&cli, list);
    assert_eq!(list[0]["edits"][0]["text"], "Blue");

    let a_only = mcp.json("recent_decisions", json!({ "document": "a.md", "limit": 1 }));
    assert_eq!(a_only["decisions"].as_array().unwrap().len(), 1);
    assert_eq!(a_only["decisions"][0]["id"], changed.as_str());
    // Decided proposals are no longer pending.
    assert_eq!(
        flat(&mcp.json("list_proposals", json!({})), "proposals"),
        json!([])
    );
}

#[test]
fn only_documents_are_served_never_git_sidecars_ledger_or_secrets() {
    let ws = ws_with_doc();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.md"), "outside secret\n").unwrap();
    ws.write(".env", "API_KEY=secret\n");
    ws.write("sub/.git/config", "[core]\n");
    ws.write("sub/.git/notes.md", "git's\n");
    ws.write(".git/description.md", "git's\n");
    ws.write(".cowriting/notes.md", "ledger\n");
    ws.write("deep/.threads/notes.md", "sidecar folder\n");
    ws.write("plain.txt", "a text document\n");
    std::os::unix::fs::symlink(outside.path().join("secret.md"), ws.file("secret.md")).unwrap();
    std::os::unix::fs::symlink("notes.md", ws.file("alias.md")).unwrap();
    let mut mcp = Mcp::start(&ws);
    for (doc, want) in [
        (".env", ".env: not a document"),
        (
            "sub/.git/config",
            "sub/.git/config: .git is not a document folder",
        ),
        ("sub/.git/notes.md", ".git is not a document folder"),
        (".git/description.md", ".git is not a document folder"),
        (".cowriting/notes.md", ".cowriting is not a document folder"),
        ("deep/.threads/notes.md", ".threads is not a document folder"),
        (".threads/notes.md.json", ".threads is not a document folder"),
        (
            "secret.md",
            "secret.md: path is outside the workspace (a symlink leads out of the workspace)",
        ),
    ] {
        let msg = mcp.err("read_document", json!({ "document": doc }));
        assert!(msg.contains(want), "{doc}: {msg:?} does not say {want:?}");
        assert!(!msg.contains("secret\n") && !msg.contains("API_KEY"), "{msg}");
        // Given absolutely, the same.
        let abs = ws.file(doc).display().to_string();
        let msg = mcp.err("read_document", json!({ "document": abs }));
        assert!(
            !msg.contains("API_KEY") && !msg.contains("outside secret"),
            "{msg}"
        );
    }
    assert!(mcp
        .ok("read_document", json!({ "document": "plain.txt" }))
        .contains("a text document"));
    assert!(mcp
        .ok("read_document", json!({ "document": "alias.md" }))
        .contains("The café is open."));
    let listed = mcp.json("list_documents", json!({}));
    let names: Vec<&str> = listed["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["document"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["alias.md", "notes.md", "plain.txt"], "{listed}");
}

/// Run `f` on another thread; fail when it takes longer than `secs`.
fn within<T: Send + 'static>(secs: u64, what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(std::time::Duration::from_secs(secs))
        .unwrap_or_else(|_| panic!("{what}: no answer within {secs} s"))
}

#[test]
fn an_oversized_request_is_answered_with_an_error_and_the_session_goes_on() {
    let ws = ws_with_doc();
    let mcp = Mcp::start(&ws);
    let pid = mcp.child.id();
    let big = "a".repeat(50 * 1024 * 1024);
    let started = std::time::Instant::now();
    let mcp = within(60, "the oversized requests", move || {
        let mut mcp = mcp;
        let mut answers = Vec::new();
        // A tool call with the id first (as clients write it), one with the
        // method and the id after the huge params, one with no id, and a
        // request that is not a tool call.
        let lines = [
            format!(
                r#"{{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{{"name":"read_document","arguments":{{"document":"{big}"}}}}}}"#
            ),
            format!(
                r#"{{"jsonrpc":"2.0","params":{{"name":"read_document","arguments":{{"document":"{big}"}}}},"method":"tools/call","id":"late-id"}}"#
            ),
            format!(r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"x":"{big}"}}}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":78,"method":"ping","params":{{"x":"{big}"}}}}"#),
        ];
        for line in &lines {
            let stdin = mcp.stdin.as_mut().unwrap();
            stdin.write_all(line.as_bytes()).unwrap();
            stdin.write_all(b"\n").unwrap();
            stdin.flush().unwrap();
            let mut answer = String::new();
            assert!(
                mcp.out.read_line(&mut answer).unwrap() > 0,
                "the server closed stdout"
            );
            answers.push(serde_json::from_str::<Value>(&answer).unwrap());
        }
        (mcp, answers)
    });
    let (mut mcp, answers) = mcp;
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "pid {pid}"
    );
    let too_large = |msg: &str| {
        assert!(msg.starts_with("request too large: 52428"), "{msg}");
        assert!(msg.contains("8 MiB"), "{msg}");
    };
    // A tool call: a tool error with the typed {code, message}, like any refusal.
    for (answer, id) in answers[..2].iter().zip([json!(77), json!("late-id")]) {
        assert_eq!(answer["jsonrpc"], "2.0", "{answer}");
        assert_eq!(answer["id"], id, "{answer}");
        assert!(answer.get("error").is_none(), "{answer}");
        let result = &answer["result"];
        assert_eq!(result["isError"], true, "{answer}");
        assert_eq!(result["structuredContent"]["code"], "bad_input", "{answer}");
        too_large(result["structuredContent"]["message"].as_str().unwrap());
        too_large(result["content"][0]["text"].as_str().unwrap());
    }
    // No id to answer a tool result under, or not a tool call: a JSON-RPC error.
    for (answer, id) in answers[2..].iter().zip([Value::Null, json!(78)]) {
        assert_eq!(answer["id"], id, "{answer}");
        assert_eq!(answer["error"]["code"], -32600, "{answer}");
        too_large(answer["error"]["message"].as_str().unwrap());
    }
    // The session goes on: a normal request right after is answered.
    let text = mcp.ok("read_document", json!({ "document": "notes.md" }));
    assert!(text.contains("The café is open."), "{text}");
    // Just under the limit is still read (and refused only as a path).
    let long = "b".repeat(7 * 1024 * 1024);
    let msg = mcp.err("read_document", json!({ "document": format!("{long}.md") }));
    assert!(
        !msg.contains("request too large"),
        "{}",
        msg.chars().take(200).collect::<String>()
    );
}

// ---- agents' needs: pages, plain numbers, proposals filed once ---------------------

/// A 2,000-line document: lines of varied length (some far longer than
/// average, so pages are cut by bytes as well as by lines), multi-byte
/// characters, a CRLF line, and no line end after the last line.
fn long_text() -> String {
    let mut text = String::new();
    for i in 1..=2000 {
        let pad = "é日🎉x".repeat((i * 7) % 41);
        let end = if i == 700 { "\r\n" } else { "\n" };
        text.push_str(&format!("line {i} {pad}{end}"));
        if i == 1200 {
            // One line longer than a page's 64 KiB: shown whole, on its own page.
            text.push_str(&format!("line 1200b {}\n", "w".repeat(70 * 1024)));
        }
    }
    text.pop(); // the last line has no line end
    text
}

/// Walk `doc` page by page as an agent does; every page's answer.
fn walk(mcp: &mut Mcp, doc: &str) -> Vec<Value> {
    let mut pages = Vec::new();
    let mut args = json!({ "document": doc });
    loop {
        let page = mcp.json("read_document", args.clone());
        let next = page["nextFromLine"].clone();
        pages.push(page);
        if next.is_null() {
            return pages;
        }
        args["from_line"] = next;
        assert!(pages.len() < 100, "the pages do not end");
    }
}

#[test]
fn read_document_pages_a_long_document_and_its_pages_make_the_text() {
    let ws = Ws::new();
    let text = long_text();
    let total = text.split('\n').count();
    assert_eq!(total, 2001);
    ws.write("long.md", &text);
    let mut mcp = Mcp::start(&ws);
    // A proposal far down, a thread near the top.
    let far = mcp.json(
        "propose_edit",
        json!({ "document": "long.md", "find": "line 1500 ", "replacement": "LINE 1500 " }),
    )["proposal"]["id"]
        .clone();
    let near = mcp.json(
        "create_thread",
        json!({ "document": "long.md", "find": "line 10 ", "body": "why ten?" }),
    )["thread"]["id"]
        .clone();

    let pages = walk(&mut mcp, "long.md");
    let mut joined = String::new();
    let mut expect_line = 1;
    let mut expect_byte = 0;
    let (mut seen_far, mut seen_near) = (0, 0);
    for p in &pages {
        let t = p["text"].as_str().unwrap();
        let (from, to) = (p["fromLine"].as_u64().unwrap(), p["toLine"].as_u64().unwrap());
        assert_eq!(from, expect_line, "pages follow on: {}", p["fromLine"]);
        assert_eq!(p["startByte"], expect_byte);
        assert_eq!(p["endByte"].as_u64().unwrap() - expect_byte, t.len() as u64);
        assert_eq!(p["totalLines"], total);
        assert_eq!(p["totalBytes"], text.len());
        let lines = to - from + 1;
        assert_eq!(t.split_inclusive('\n').count() as u64, lines);
        assert!(lines <= 400, "a page of {lines} lines");
        assert!(t.len() <= 64 * 1024 || lines == 1, "a page of {} bytes", t.len());
        // Each page lists what is on its lines and counts the rest.
        let ids =
            |k: &str| -> Vec<Value> { p[k].as_array().unwrap().iter().map(|x| x["id"].clone()).collect() };
        let here = ids("proposals").contains(&far);
        seen_far += usize::from(here);
        assert_eq!(p["otherProposals"], if here { 0 } else { 1 }, "{}", p["fromLine"]);
        let here = ids("threads").contains(&near);
        seen_near += usize::from(here);
        assert_eq!(p["otherThreads"], if here { 0 } else { 1 });
        joined.push_str(t);
        expect_line = to + 1;
        expect_byte = p["endByte"].as_u64().unwrap();
    }
    assert_eq!(joined, text, "the pages put together are the text");
    assert_eq!((seen_far, seen_near), (1, 1));
    assert!(pages.len() >= 6, "{} pages", pages.len());
    // Cut by bytes, not only by lines: some page before the long line has fewer than 400.
    assert!(pages.iter().any(
        |p| p["toLine"].as_u64().unwrap() - p["fromLine"].as_u64().unwrap() + 1 < 400
            && p["text"].as_str().unwrap().len() > 60 * 1024
    ));
    // The long line is a page of its own.
    assert!(pages.iter().any(|p| p["fromLine"] == 1201 && p["toLine"] == 1201));

    // The readable page says where it is and how to go on.
    let first = mcp.ok("read_document", json!({ "document": "long.md" }));
    let to = pages[0]["toLine"].as_u64().unwrap();
    assert!(
        first.starts_with(&format!("long.md — lines 1–{to} of 2001, bytes 0..")),
        "{}",
        first.chars().take(200).collect::<String>()
    );
    assert!(
        first.contains(&format!("read_document with from_line {} reads on", to + 1)),
        "{first}"
    );
    assert!(
        first.contains("  10| line 10 "),
        "{}",
        first.chars().take(500).collect::<String>()
    );
    assert!(first.contains("Open threads on these lines (1):"));
    assert!(first.contains("No proposals pending on these lines.\n1 more proposal on other lines"));
    let last = mcp.ok(
        "read_document",
        json!({ "document": "long.md", "from_line": 2001 }),
    );
    assert!(last.contains("2001| line 2000 "), "{last}");
    assert!(!last.contains("not shown"), "{last}");
}

#[test]
fn read_document_shows_the_lines_asked_for() {
    let ws = ws_with_doc();
    let mut mcp = Mcp::start(&ws);
    let lines: Vec<&str> = TEXT.split_inclusive('\n').collect();
    let page = mcp.json(
        "read_document",
        json!({ "document": "notes.md", "from_line": 2, "to_line": "3" }),
    );
    assert_eq!(page["text"], lines[1..3].concat());
    assert_eq!(
        (page["fromLine"].clone(), page["toLine"].clone()),
        (json!(2), json!(3))
    );
    assert_eq!(page["nextFromLine"], 4);
    assert_eq!(page["totalLines"], 4);
    assert_eq!(page["startByte"], lines[0].len());
    let text = mcp.ok(
        "read_document",
        json!({ "document": "notes.md", "from_line": "3", "to_line": 3 }),
    );
    assert!(
        text.starts_with("notes.md — lines 3–3 of 4, bytes 15..53 of 73\n   3| The café is open. The café is warm.\n(lines 4–4 not shown: read_document with from_line 4 reads on)\n"),
        "{text}"
    );
    // A to_line past the end stops at the end; the whole document reads as before.
    let page = mcp.json(
        "read_document",
        json!({ "document": "notes.md", "from_line": 4, "to_line": 99 }),
    );
    assert_eq!(page["text"], lines[3]);
    assert!(page["nextFromLine"].is_null());
    let whole = mcp.json("read_document", json!({ "document": "notes.md" }));
    assert_eq!(whole["text"], TEXT);
    assert_eq!(
        (whole["fromLine"].clone(), whole["toLine"].clone()),
        (json!(1), json!(4))
    );
    // An empty document has no lines.
    ws.write("empty.md", "");
    let empty = mcp.json("read_document", json!({ "document": "empty.md" }));
    assert_eq!(
        (
            empty["text"].clone(),
            empty["totalLines"].clone(),
            empty["toLine"].clone(),
            empty["nextFromLine"].clone()
        ),
        (json!(""), json!(0), json!(0), Value::Null)
    );
    for (args, want) in [
        (json!({ "from_line": 5 }), "notes.md: from_line 5 is past the end (4 lines)"),
        (json!({ "from_line": 3, "to_line": 2 }), "notes.md: to_line 2 is before from_line 3"),
        (json!({ "from_line": 0 }), "from_line: expected a whole number of at least 1"),
        (json!({ "to_line": -1 }), "to_line: expected a whole number of at least 1"),
        (json!({ "from_line": "abc" }), "from_line: expected a whole number of at least 1 (a JSON number or a numeric string such as \"3\"), got \"abc\""),
        (json!({ "from_line": 1.5 }), "got 1.5"),
    ] {
        let mut args = args;
        args["document"] = json!("notes.md");
        let (code, msg) = mcp.err_info("read_document", args.clone());
        assert_eq!(code.as_deref(), Some("bad_input"), "{args}: {msg}");
        assert!(msg.contains(want), "{args}: {msg:?} does not say {want:?}");
    }
}

/// An agent reads who wrote how much: the same answer as `cowriting authorship`.
#[test]
fn authorship_is_the_clis_answer() {
    let ws = ws_with_doc();
    let mut mcp = Mcp::start(&ws);
    let p = mcp.json(
        "propose_edit",
        json!({ "document": "notes.md", "find": "café", "occurrence": 1, "replacement": "bistro", "model": "m-1" }),
    );
    let id = p["proposal"]["id"].as_str().unwrap().to_owned();
    ws.ok(&["accept", "notes.md", &id]);
    let (text, out) = mcp.both("authorship", json!({ "document": "notes.md" }));
    assert_eq!(out, ws.json(&["authorship", "notes.md"]));
    assert!(text.contains("test-agent (agent, m-1): 6 characters"), "{text}");
    assert!(text.contains("1 accepted"), "{text}");

    // Its file formats too: iA's block as the CLI prints it, byte for byte;
    // the Agent Trace record the CLI's but for its own id and time.
    let (text, out) = mcp.both(
        "export_authorship",
        json!({ "document": "notes.md", "format": "ia-annotations" }),
    );
    let cli = ws.ok(&["authorship", "notes.md", "--format", "ia-annotations"]);
    assert_eq!(out["content"], cli.as_str());
    assert_eq!(text, cli);
    assert_eq!(
        (out["document"].as_str(), out["format"].as_str()),
        (Some("notes.md"), Some("ia-annotations"))
    );
    assert!(cli.contains("&m-1 <test-agent>: 18,6"), "{cli}");
    let (_, out) = mcp.both(
        "export_authorship",
        json!({ "document": "notes.md", "format": "agent-trace" }),
    );
    let strip = |mut v: Value| {
        let o = v.as_object_mut().unwrap();
        assert!(o.remove("id").is_some() && o.remove("timestamp").is_some(), "{v}");
        v
    };
    let mcp_trace: Value = serde_json::from_str(out["content"].as_str().unwrap()).unwrap();
    let cli_trace = ws.json(&["authorship", "notes.md", "--format", "agent-trace"]);
    assert_eq!(strip(mcp_trace), strip(cli_trace));
    // A format it does not know is bad input, said by code.
    let bad = mcp.request(
        "tools/call",
        json!({ "name": "export_authorship", "arguments": { "document": "notes.md", "format": "docx" } }),
    );
    assert_eq!(bad["result"]["isError"], true, "{bad}");
}

/// Proposals and threads of a whole workspace are listed a page at a time:
/// documents with none left out, every item once across the pages, in order,
/// `total` on every page, a bad cursor refused by code.
#[test]
fn list_proposals_and_threads_page_a_large_review() {
    let ws = Ws::new();
    for i in 0..12 {
        ws.write(
            &format!("d{i:02}.md"),
            "one two three four five six seven eight nine ten eleven twelve.\n",
        );
    }
    ws.write("quiet.md", "Nothing to review.\n");
    let mut mcp = Mcp::start(&ws);
    let words = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    for i in 0..12 {
        for w in words {
            mcp.ok(
                "propose_edit",
                json!({ "document": format!("d{i:02}.md"), "find": w, "replacement": w.to_uppercase() }),
            );
        }
        mcp.ok(
            "create_thread",
            json!({ "document": format!("d{i:02}.md"), "find": "twelve", "body": "Why twelve?" }),
        );
    }
    // An untouched document with a sidecar of nothing is not listed either.
    mcp.ok(
        "create_thread",
        json!({ "document": "quiet.md", "find": "Nothing", "body": "Really?" }),
    );
    let t = mcp.json("list_threads", json!({ "document": "quiet.md" }));
    let quiet = t["documents"][0]["threads"][0]["id"].as_str().unwrap().to_owned();
    ws.ok(&["thread", "resolve", "quiet.md", &quiet]);

    for (tool, key, want) in [
        ("list_proposals", "proposals", 120),
        ("list_threads", "threads", 12),
    ] {
        let mut seen: Vec<(String, String)> = Vec::new();
        let mut cursor: Option<String> = None;
        let mut pages = 0;
        loop {
            // 35: pages cut inside a document (10 proposals each).
            let mut args = json!({ "limit": 35 });
            if key == "threads" {
                args["status"] = json!("open");
            }
            if let Some(c) = &cursor {
                args["cursor"] = json!(c);
            }
            let (text, page) = mcp.both(tool, args);
            pages += 1;
            assert_eq!(page["total"], want, "{tool}: {page}");
            for d in page["documents"].as_array().unwrap() {
                let items = d[key].as_array().unwrap();
                assert!(!items.is_empty(), "{tool}: a document with none is left out");
                for it in items {
                    seen.push((
                        d["document"].as_str().unwrap().to_owned(),
                        it["id"].as_str().unwrap().to_owned(),
                    ));
                }
            }
            match page["nextCursor"].as_str() {
                Some(c) => {
                    assert!(text.contains(&format!("cursor {c:?}")), "{text}");
                    cursor = Some(c.to_owned());
                }
                None => break,
            }
            assert!(pages < 10, "the pages end");
        }
        assert_eq!(seen.len(), want, "{tool}: every item once");
        let mut unique = seen.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), want, "{tool}: none twice");
        assert!(
            seen.windows(2).all(|w| w[0].0 <= w[1].0),
            "{tool}: in document order"
        );
        assert!(
            seen.iter().all(|(d, _)| d != "quiet.md"),
            "{tool}: quiet.md has nothing open"
        );
        assert_eq!(pages, want.div_ceil(35), "{tool}");
    }
    let (code, _) = mcp.err_info("list_proposals", json!({ "cursor": "page two" }));
    assert_eq!(code.as_deref(), Some("bad_input"));
}

/// A workspace of many documents is listed a page at a time, each page small
/// enough for an agent, filtered by folder and by what waits; the pages, put
/// together, are the whole listing, once each.
#[test]
fn list_documents_pages_a_large_workspace_and_filters_it() {
    let ws = Ws::new();
    for i in 0..230 {
        ws.write(&format!("guide/p{i:03}.md"), "A page of the guide.\n");
    }
    for i in 0..20 {
        ws.write(&format!("notes/n{i:02}.md"), "A note with a word.\n");
    }
    let mut mcp = Mcp::start(&ws);
    mcp.ok(
        "propose_edit",
        json!({ "document": "guide/p007.md", "find": "page", "replacement": "leaf" }),
    );
    mcp.ok(
        "create_thread",
        json!({ "document": "notes/n03.md", "find": "word", "body": "Which?" }),
    );
    let mut names = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let mut args = json!({});
        if let Some(c) = &cursor {
            args["cursor"] = json!(c);
        }
        let (text, page) = mcp.both("list_documents", args);
        pages += 1;
        assert_eq!(page["total"], 250);
        assert!(page["documents"].as_array().unwrap().len() <= 100);
        assert!(
            page.to_string().len() < 40_000,
            "a page is small: {} bytes",
            page.to_string().len()
        );
        names.extend(
            page["documents"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d["document"].as_str().unwrap().to_owned()),
        );
        match page["nextCursor"].as_str() {
            Some(c) => {
                assert!(text.contains(&format!("cursor {c:?}")), "{text}");
                cursor = Some(c.to_owned());
            }
            None => break,
        }
        assert!(pages < 10, "the pages end");
    }
    assert_eq!(pages, 3);
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(names, sorted, "in name order, once each");
    assert_eq!(names.len(), 250);

    let pending = mcp.json("list_documents", json!({ "has_pending": true }));
    assert_eq!(pending["total"], 1);
    assert_eq!(pending["documents"][0]["document"], "guide/p007.md");
    let threads = mcp.json(
        "list_documents",
        json!({ "has_threads": true, "folder": "notes" }),
    );
    assert_eq!(threads["documents"][0]["document"], "notes/n03.md");
    assert_eq!(threads["total"], 1);
    let notes = mcp.json("list_documents", json!({ "folder": "notes/", "limit": 5 }));
    assert_eq!(notes["total"], 20);
    assert_eq!(notes["documents"].as_array().unwrap().len(), 5);
    assert_eq!(notes["nextCursor"], "notes/n04.md");
    let none = mcp.json("list_documents", json!({ "folder": "guid" }));
    assert_eq!(none["total"], 0, "a folder is a whole name, not a prefix");
}

#[test]
fn every_number_argument_is_a_plain_integer_with_its_minimum() {
    let ws = ws_with_doc();
    let mut mcp = Mcp::start(&ws);
    let resp = mcp.request("tools/list", json!({}));
    let mut numbers = Vec::new();
    for t in resp["result"]["tools"].as_array().unwrap() {
        let schema = &t["inputSchema"];
        // No `null` anywhere: not in a type, an anyOf, a default.
        assert!(!schema.to_string().contains("null"), "{}: {schema}", t["name"]);
        for (name, p) in schema["properties"].as_object().unwrap() {
            // One plain type, or a reference to one (an enum).
            assert!(
                p["type"].is_string() || (p.get("type").is_none() && p["$ref"].is_string()),
                "{}.{name}: {p}",
                t["name"]
            );
            if p["type"] == "integer" {
                numbers.push((
                    format!("{}.{name}", t["name"].as_str().unwrap()),
                    p["minimum"].clone(),
                ));
                assert!(p.get("format").is_none(), "{p}");
                assert!(!p["description"].as_str().unwrap_or("").is_empty(), "{p}");
            }
        }
    }
    numbers.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        numbers,
        [
            ("create_thread.occurrence", json!(1)),
            ("list_documents.limit", json!(1)),
            ("list_proposals.limit", json!(1)),
            ("list_threads.limit", json!(1)),
            ("propose_edit.end_byte", json!(0)),
            ("propose_edit.occurrence", json!(1)),
            ("propose_edit.start_byte", json!(0)),
            ("read_document.from_line", json!(1)),
            ("read_document.to_line", json!(1)),
            ("recent_decisions.limit", json!(1)),
            ("review_document.occurrence", json!(1)),
        ]
        .map(|(n, m)| (n.to_owned(), m))
    );
}

#[test]
fn numbers_come_as_numbers_or_numeric_strings_and_nothing_else() {
    let ws = ws_with_doc();
    let mut mcp = Mcp::start(&ws);
    let bad = [
        json!("abc"),
        json!(-1),
        json!(0),
        json!("-1"),
        json!(""),
        json!(true),
        json!({ "n": 1 }),
    ];
    for (tool, field, base) in [
        (
            "propose_edit",
            "occurrence",
            json!({ "document": "notes.md", "find": "café", "replacement": "bar" }),
        ),
        (
            "create_thread",
            "occurrence",
            json!({ "document": "notes.md", "find": "café", "body": "hm" }),
        ),
        ("recent_decisions", "limit", json!({})),
        ("read_document", "from_line", json!({ "document": "notes.md" })),
    ] {
        for v in &bad {
            let mut args = base.clone();
            args[field] = v.clone();
            let before = ws.snapshot();
            let (code, msg) = mcp.err_info(tool, args.clone());
            assert_eq!(code.as_deref(), Some("bad_input"), "{tool} {args}: {msg}");
            assert!(
                msg.starts_with(&format!(
                    "bad arguments: {field}: expected a whole number of at least 1"
                )),
                "{tool} {args}: {msg}"
            );
            assert!(ws.snapshot() == before, "{tool} {args} wrote something");
        }
    }
    // Byte offsets start at 0: -1 and "abc" are refused, 0 and "0" are not.
    for v in [json!(-1), json!("abc"), json!("1e3"), json!(2.5)] {
        let before = ws.snapshot();
        let (code, msg) = mcp.err_info(
            "propose_edit",
            json!({ "document": "notes.md", "start_byte": v, "end_byte": 1, "replacement": "x" }),
        );
        assert_eq!(code.as_deref(), Some("bad_input"), "{msg}");
        assert!(
            msg.contains("start_byte: expected a whole number of at least 0"),
            "{msg}"
        );
        assert!(ws.snapshot() == before);
    }
    // Numeric strings do what numbers do.
    let by_string = mcp.json(
        "propose_edit",
        json!({ "document": "notes.md", "find": "café", "occurrence": "2", "replacement": "bistro" }),
    );
    assert_eq!(by_string["proposal"]["from"], 38);
    let span = mcp.json(
        "propose_edit",
        json!({ "document": "notes.md", "start_byte": "0", "end_byte": " 1", "replacement": "" }),
    );
    assert_eq!(
        (span["proposal"]["from"].clone(), span["proposal"]["to"].clone()),
        (json!(0), json!(1))
    );
    let t = mcp.json(
        "create_thread",
        json!({ "document": "notes.md", "find": "café", "occurrence": "1", "body": "hm" }),
    );
    assert_eq!(t["thread"]["from"], 19);
    let d = mcp.json("recent_decisions", json!({ "limit": "5" }));
    assert_eq!(d["decisions"], json!([]));
    // Not given, or null: the default.
    let d = mcp.json("recent_decisions", json!({ "limit": null }));
    assert_eq!(d["decisions"], json!([]));
    assert_eq!(
        ws.sidecar_json("notes.md")["proposals"].as_array().unwrap().len(),
        2
    );
}

#[test]
fn the_same_proposal_is_filed_once_and_overlaps_are_named() {
    let ws = ws_with_doc();
    let mut mcp = Mcp::start(&ws);
    let args = json!({ "document": "notes.md", "find": "café is open", "replacement": "café is closed" });
    let first = mcp.json("propose_edit", args.clone());
    assert_eq!(first["alreadyPending"], false);
    assert_eq!(first["overlapping"], json!([]));
    let id = first["proposal"]["id"].clone();
    // The CLI files through the same API and answers the same way.
    let cli = ws.json(&["propose", "notes.md", "--find", "notes", "--replace", "jottings"]);
    assert_eq!(keys(&cli), keys(&first));
    assert_eq!(keys(&cli["proposal"]), keys(&first["proposal"]));
    ws.ok(&["reject", "notes.md", cli["proposal"]["id"].as_str().unwrap()]);
    // The same edit again — by bytes this time, naming another model — is not filed twice.
    let (is_error, text, again) = mcp.call(
        "propose_edit",
        json!({ "document": "notes.md", "start_byte": 19, "end_byte": 32, "replacement": "café is closed", "model": "another" }),
    );
    assert!(!is_error, "{text}");
    assert_eq!(again["alreadyPending"], true, "{again}");
    assert_eq!(again["proposal"]["id"], id);
    assert_eq!(again["proposal"], first["proposal"]);
    assert!(
        text.starts_with(&format!(
            "Already pending: {} is this same edit by agent test-agent, not filed again:\n",
            id.as_str().unwrap()
        )),
        "{text}"
    );
    let sidecar = ws.sidecar_json("notes.md");
    assert_eq!(sidecar["proposals"].as_array().unwrap().len(), 1, "{sidecar}");
    assert_eq!(sidecar["anchors"].as_object().unwrap().len(), 1, "{sidecar}");
    let ledger: Value = serde_json::from_str(&ws.read(".cowriting/suggestions/notes.md.json")).unwrap();
    assert_eq!(ledger["entries"].as_array().unwrap().len(), 1);

    // Another replacement of an overlapping target is filed, and says what it overlaps.
    let (is_error, text, other) = mcp.call(
        "propose_edit",
        json!({ "document": "notes.md", "find": "open. The", "replacement": "open; the" }),
    );
    assert!(!is_error, "{text}");
    assert_eq!(other["alreadyPending"], false);
    let overlapping = other["overlapping"].as_array().unwrap();
    assert_eq!(overlapping.len(), 1, "{other}");
    assert_eq!(overlapping[0]["id"], id);
    assert_eq!(overlapping[0]["target"], "café is open");
    assert_eq!(overlapping[0]["author"]["id"], "test-agent");
    assert!(
        text.contains(&format!(
            "It overlaps 1 other pending proposal (accepting one turns the other stale):\n- {}  pending  line 3, bytes 19..32  \"café is open\" → \"café is closed\"  by agent test-agent",
            id.as_str().unwrap()
        )),
        "{text}"
    );
    // The same edit by another client is its own proposal, overlapping both.
    drop(mcp);
    let mut other_client = Mcp::start_as(&ws, "other-agent");
    let theirs = other_client.json("propose_edit", args);
    assert_eq!(theirs["alreadyPending"], false);
    assert_ne!(theirs["proposal"]["id"], id);
    let named: Vec<&Value> = theirs["overlapping"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["id"])
        .collect();
    assert_eq!(named, [&id, &other["proposal"]["id"]]);
    // Touching is not overlapping: " café is warm" starts where "open. The" ends.
    let next = other_client.json(
        "propose_edit",
        json!({ "document": "notes.md", "find": " café is warm", "replacement": " café is cosy" }),
    );
    assert_eq!(next["overlapping"], json!([]));
    assert_eq!(
        ws.sidecar_json("notes.md")["proposals"].as_array().unwrap().len(),
        4
    );
    assert_eq!(ws.read_bytes("notes.md"), TEXT.as_bytes());
}

#[test]
fn an_agent_creates_a_document_and_never_overwrites_one() {
    let ws = ws_with_doc();
    let mut mcp = Mcp::start(&ws);
    let (err, text, data) = mcp.call("create_document", json!({ "document": "drafts/outline" }));
    assert!(!err, "{text}");
    assert_eq!(data, json!({ "document": "drafts/outline.md" }));
    assert_eq!(text, "Created drafts/outline.md");
    assert_eq!(ws.read("drafts/outline.md"), "");
    for taken in ["notes.md", "drafts/outline"] {
        let (err, _, data) = mcp.call("create_document", json!({ "document": taken }));
        assert!(err);
        assert_eq!(data["code"], "exists", "{data}");
    }
    assert_eq!(ws.read("notes.md"), TEXT);
    let (err, _, data) = mcp.call("create_document", json!({ "document": "../outside" }));
    assert!(err);
    assert_eq!(data["code"], "bad_input", "{data}");
}

/// An agent asks Claude for a review and in a thread: Claude's comments,
/// edits and reply are filed (a fake Claude Code on the config's command).
#[test]
fn an_agent_asks_claude_to_review_and_to_answer_in_a_thread() {
    let ws = ws_with_doc();
    let config = ws.home().join("cowriting.toml");
    let fake = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/claude/fake-claude");
    std::fs::write(&config, format!("[claude]\ncommand = {fake:?}\n")).unwrap();
    let answer = ws.home().join("answer.jsonl");
    std::fs::write(
        &answer,
        concat!(
            r#"{"kind":"comment","quote":"The café is warm.","body":"Cosy?"}"#,
            "\n",
            r#"{"kind":"edit","quote":"The café","replacement":"Our café"}"#,
            "\n",
            r#"{"kind":"edit","quote":"The café","occurrence":1,"replacement":"Our café"}"#,
            "\n",
        ),
    )
    .unwrap();
    let mut mcp = Mcp::start_with(&ws, "test-agent", &[("COWRITING_CONFIG", config.as_os_str())]);
    let marker = format!("[[answer:{}]]", answer.display());
    let (err, text, data) = mcp.call(
        "review_document",
        json!({ "document": "notes.md", "instruction": marker }),
    );
    assert!(!err, "{text}");
    assert_eq!(data["threads"].as_array().unwrap().len(), 1, "{data}");
    assert_eq!(data["proposals"].as_array().unwrap().len(), 1, "{data}");
    assert_eq!(data["skipped"][0]["line"], 2, "{data}");
    assert!(text.contains("1 of 3 suggestions could not be placed"), "{text}");
    let thread = data["threads"][0].as_str().unwrap().to_owned();
    std::fs::write(&answer, r#"{"kind":"reply","body":"Warm and cosy."}"#).unwrap();
    let (err, text, data) = mcp.call(
        "ask_claude_in_thread",
        json!({ "document": "notes.md", "thread_id": thread, "instruction": marker }),
    );
    assert!(!err, "{text}");
    assert!(data["reply"].is_string(), "{data}");
    assert_eq!(ws.read_bytes("notes.md"), TEXT.as_bytes());
    let side = ws.sidecar_json("notes.md");
    let t = side["threads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == thread.as_str())
        .unwrap();
    assert_eq!(t["comments"][1]["body"], "Warm and cosy.");
    assert_eq!(t["comments"][1]["author"]["id"], "claude");
    // Not there: a typed refusal.
    let (err, _, data) = mcp.call(
        "ask_claude_in_thread",
        json!({ "document": "notes.md", "thread_id": "t_nope" }),
    );
    assert!(err);
    assert_eq!(data["code"], "not_found", "{data}");
}

#[test]
fn a_proposal_that_inserts_hidden_characters_is_flagged_for_the_agent_too() {
    let ws = ws_with_doc();
    let mut mcp = Mcp::start(&ws);
    let filed = mcp.json(
        "propose_edit",
        json!({ "document": "notes.md", "find": "the end", "replacement": "the \u{202E}dne\u{202C}" }),
    );
    let hidden: Vec<&str> = filed["proposal"]["hidden"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["codePoint"].as_str().unwrap())
        .collect();
    assert_eq!(hidden, ["U+202E", "U+202C"], "{filed}");
    // The producer's text is kept as it was sent, not silently altered.
    assert_eq!(
        ws.sidecar_json("notes.md")["proposals"][0]["replacement"],
        "the \u{202E}dne\u{202C}"
    );
    let listed = mcp.json("list_proposals", json!({ "document": "notes.md" }));
    assert_eq!(
        flat(&listed, "proposals")[0]["hidden"][0]["name"],
        "RIGHT-TO-LEFT OVERRIDE",
        "{listed}"
    );
}

/// The read-only tools (`readOnlyHint`) make and change nothing in the
/// workspace: its whole tree (paths, kinds, sizes and modification times,
/// `.cowriting/` and `.threads/` included; a lock file made and removed
/// changes its folder's time) is the same before and after each, in a
/// workspace that has been written. The CLI's read-only commands:
/// `tests/read_only.rs`.
#[test]
fn read_only_tools_make_and_change_nothing() {
    let ws = ws_with_doc();
    ws.write("other.md", "Nothing reviewed here.\n");
    let id = ws.propose("notes.md", "open", "ajar");
    ws.ok(&["accept", "notes.md", id.trim()]);
    ws.propose("notes.md", "warm", "hot");
    ws.ok(&[
        "thread", "new", "notes.md", "--find", "café", "--nth", "1", "--body", "which?",
    ]);
    let mut mcp = Mcp::start(&ws);
    let tools = mcp.request("tools/list", json!({}));
    let read_only: Vec<String> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["annotations"]["readOnlyHint"] == json!(true))
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    let calls: Vec<(&str, Value)> = vec![
        ("list_documents", json!({})),
        ("list_documents", json!({ "has_pending": true })),
        ("read_document", json!({ "document": "notes.md" })),
        ("read_document", json!({ "document": "other.md" })),
        ("list_proposals", json!({})),
        ("list_proposals", json!({ "document": "notes.md" })),
        ("list_threads", json!({})),
        ("list_threads", json!({ "document": "notes.md" })),
        ("recent_decisions", json!({})),
        ("authorship", json!({ "document": "notes.md" })),
        (
            "export_authorship",
            json!({ "document": "notes.md", "format": "agent-trace" }),
        ),
        (
            "export_authorship",
            json!({ "document": "notes.md", "format": "ia-annotations" }),
        ),
    ];
    let called: std::collections::BTreeSet<&str> = calls.iter().map(|(t, _)| *t).collect();
    assert_eq!(
        called.into_iter().collect::<Vec<_>>(),
        read_only
            .iter()
            .map(String::as_str)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>(),
        "every read-only tool is called"
    );
    let mut changed = Vec::new();
    for (tool, args) in calls {
        let before = common::stat_tree(ws.path());
        std::thread::sleep(std::time::Duration::from_millis(20));
        mcp.json(tool, args.clone());
        let diff = common::tree_changes(&before, &common::stat_tree(ws.path()));
        if !diff.is_empty() {
            changed.push(format!("{tool} {args}:\n  {}", diff.join("\n  ")));
        }
    }
    assert!(
        changed.is_empty(),
        "read-only tools wrote:\n{}",
        changed.join("\n")
    );
}

/// A page of long proposals and threads is cut by its size, not only by its
/// count: each stays well under what an agent reads whole (Claude Code caps a
/// tool's answer at 25,000 tokens), and the pages together hold every item once.
#[test]
fn list_proposals_and_threads_pages_are_cut_by_size() {
    let ws = Ws::new();
    let sentence = "This sentence says a good deal more than it needs to about the weather today. ";
    ws.write("long.md", sentence.repeat(60));
    let mut mcp = Mcp::start(&ws);
    let long_reason = "Shorter and plainer: the reader wants the point, not the weather. ".repeat(8);
    for n in 1..=60 {
        mcp.ok(
            "propose_edit",
            json!({ "document": "long.md", "find": sentence.trim_end(), "occurrence": n,
                    "replacement": "It was sunny.", "rationale": long_reason }),
        );
        mcp.ok(
            "create_thread",
            json!({ "document": "long.md", "find": sentence.trim_end(), "occurrence": n, "body": long_reason }),
        );
    }
    for (tool, key) in [("list_proposals", "proposals"), ("list_threads", "threads")] {
        let (mut seen, mut cursor, mut pages) = (Vec::new(), None::<String>, 0);
        loop {
            let mut args = json!({ "limit": 500 });
            if let Some(c) = &cursor {
                args["cursor"] = json!(c);
            }
            let (text, page) = mcp.both(tool, args);
            pages += 1;
            let size = text.len() + page.to_string().len();
            assert!(size < 60_000, "{tool}: a page of {size} bytes");
            for d in page["documents"].as_array().unwrap() {
                for it in d[key].as_array().unwrap() {
                    seen.push(it["id"].as_str().unwrap().to_owned());
                }
            }
            match page["nextCursor"].as_str() {
                Some(c) => cursor = Some(c.to_owned()),
                None => break,
            }
            assert!(pages < 60, "{tool}: the pages end");
        }
        assert!(pages > 1, "{tool}: 60 long items do not fit one page");
        let mut unique = seen.clone();
        unique.sort();
        unique.dedup();
        assert_eq!((seen.len(), unique.len()), (60, 60), "{tool}: every item once");
    }
}
