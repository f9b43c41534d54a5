//! One path guard (`Workspace::resolve`): a cloned repository's links never
//! make a document of the repository's own files, of cowriting's, of a hidden
//! file, or of anything outside.
//!
//! - A real `git clone` of a repository that commits `notes.md -> .git/config`
//!   and a pending proposal on `notes.md` in `.threads/notes.md.json` (the
//!   proposal matches the clone's `.git/config` exactly, so only the guard stands
//!   between the accept and a `core.fsmonitor` command): `cowriting accept` is
//!   refused with `bad_input` and `.git/config` stays byte-identical.
//! - `cowriting mcp`: `read_document`, `propose_edit` and `create_thread` on links to
//!   `.git/config`, `.env`, `.cowriting/decisions.jsonl`, `.threads/x.json` and
//!   through a folder link into `.git` are refused; `list_documents` does not
//!   list them; a link to an ordinary document is read and written through,
//!   the link kept.
//! - A property: no sequence of calls through the one API (`Ops`, what the CLI
//!   and MCP call) on a workspace with links (into dot-folders, to dot-files,
//!   out of the workspace, to ordinary documents, folder links, dangling ones,
//!   loops) changes any file but the ordinary documents named and review data,
//!   inside the workspace or in a sibling folder.

mod common;

use common::Ws;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Every entry under `dir`, never following a link: a folder as `dir`, a link
/// as `-> target`, a file as its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            let v = if m.file_type().is_symlink() {
                format!("-> {}", std::fs::read_link(&p).unwrap().display()).into_bytes()
            } else if m.is_dir() {
                stack.push(p.clone());
                b"dir".to_vec()
            } else {
                std::fs::read(&p).unwrap()
            };
            out.insert(p.strip_prefix(dir).unwrap().to_path_buf(), v);
        }
    }
    out
}

fn git(dir: &Path, home: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_cloned_repository_cannot_turn_an_accept_into_code() {
    let ws = Ws::new();
    let home = ws.home().to_path_buf();
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    let pwned = tmp.path().join("pwned");
    std::fs::create_dir(&src).unwrap();
    git(&src, &home, &["init", "-q", "-b", "main"]);
    std::fs::write(src.join("a.md"), "The quick brown fox.\n").unwrap();
    git(&src, &home, &["add", "-A"]);
    git(&src, &home, &["commit", "-qm", "a"]);
    // What the victim's `.git/config` will hold: a clone's config is the same
    // for the same source and branch.
    let clone = |to: &Path| {
        git(
            tmp.path(),
            &home,
            &["clone", "-q", src.to_str().unwrap(), to.to_str().unwrap()],
        )
    };
    clone(&tmp.path().join("probe"));
    let config = std::fs::read_to_string(tmp.path().join("probe/.git/config")).unwrap();
    assert!(config.contains("bare = false"), "{config}");

    // The attacker files a proposal against that text under the name notes.md,
    // then makes notes.md a link to .git/config, and commits both.
    let run_in = |dir: &Path, args: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("cowriting")
            .unwrap()
            .env("HOME", &home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .arg("-w")
            .arg(dir)
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    std::fs::write(src.join("notes.md"), &config).unwrap();
    let payload = format!("bare = false\n\tfsmonitor = touch {}", pwned.display());
    let id = run_in(
        &src,
        &[
            "propose",
            "notes.md",
            "--find",
            "bare = false",
            "--replace",
            &payload,
        ],
    )
    .trim()
    .to_owned();
    assert!(id.starts_with("pr_"), "{id}");
    std::fs::remove_file(src.join("notes.md")).unwrap();
    symlink(".git/config", src.join("notes.md")).unwrap();
    symlink(".git", src.join("gitdir")).unwrap();
    symlink("a.md", src.join("alias.md")).unwrap();
    git(&src, &home, &["add", "-A"]);
    git(&src, &home, &["commit", "-qm", "notes"]);
    assert!(git(&src, &home, &["ls-files", "-s", "notes.md"]).starts_with("120000"));

    // The victim clones it.
    clone(ws.path());
    let ws_config = ws.read_bytes(".git/config");
    assert_eq!(
        ws_config,
        config.as_bytes(),
        "the proposal's text is the clone's config"
    );
    assert!(std::fs::symlink_metadata(ws.file("notes.md"))
        .unwrap()
        .file_type()
        .is_symlink());
    let outside_before = snapshot(tmp.path());
    let git_before = snapshot(&ws.file(".git"));

    let out = ws.fails(&["accept", "notes.md", &id], 2);
    assert!(out.contains("notes.md: path is outside the workspace"), "{out}");
    assert!(out.contains("hidden"), "{out}");
    for args in [
        vec!["accept", "notes.md", &id, "--json"],
        vec!["propose", "notes.md", "--find", "bare", "--replace", "x"],
        vec!["thread", "new", "notes.md", "--find", "bare", "--body", "x"],
        vec!["reject", "notes.md", &id],
        vec!["propose", "gitdir/config.md", "--find", "x", "--replace", "y"],
        vec!["export", "notes.md", "--format", "html"],
        vec!["rename", "notes.md", "moved.md"],
        vec!["delete", "notes.md"],
    ] {
        ws.fails(&args, 2);
    }
    let listed = ws.json(&["status"]);
    let names: Vec<&str> = listed["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["document"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a.md", "alias.md"], "{listed}");
    // `check` names the refusal (a warning: the sidecar itself is sound).
    let out = ws.cmd(&["check"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("notes.md: path is outside the workspace"), "{text}");
    // The link to an ordinary document still works, and stays a link.
    let ok = ws.propose("alias.md", "quick", "slow");
    ws.ok(&["accept", "alias.md", &ok]);
    assert_eq!(ws.read("a.md"), "The slow brown fox.\n");
    assert!(std::fs::symlink_metadata(ws.file("alias.md"))
        .unwrap()
        .file_type()
        .is_symlink());

    assert_eq!(
        ws.read_bytes(".git/config"),
        ws_config,
        ".git/config is byte-identical"
    );
    assert_eq!(
        snapshot(&ws.file(".git")),
        git_before,
        "nothing under .git changed"
    );
    git(ws.path(), &home, &["status", "--short"]);
    assert!(!pwned.exists(), "git status ran the repository's command");
    assert_eq!(snapshot(tmp.path()), outside_before);
}

/// A minimal MCP client over stdio (newline-delimited JSON-RPC).
struct Mcp {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
    next: u64,
}

impl Mcp {
    fn start(ws: &Ws) -> Mcp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cowriting"))
            .env("HOME", ws.home())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env_remove("ANTHROPIC_API_KEY")
            .args(["mcp", "-w"])
            .arg(ws.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        let mut mcp = Mcp { child, out, next: 1 };
        let init = mcp.request(
            "initialize",
            json!({ "protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": { "name": "guard-test", "version": "1.0" } }),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "cowriting", "{init}");
        mcp.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        mcp
    }

    fn send(&mut self, msg: &Value) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let mut line = String::new();
            assert!(
                self.out.read_line(&mut line).unwrap() > 0,
                "the server closed stdout"
            );
            let msg: Value = serde_json::from_str(&line).unwrap();
            if msg["id"] == json!(id) {
                return msg;
            }
        }
    }

    /// `(isError, structuredContent)` of a tool call.
    fn call(&mut self, tool: &str, args: Value) -> (bool, Value) {
        let resp = self.request("tools/call", json!({ "name": tool, "arguments": args }));
        let result = &resp["result"];
        assert!(result.is_object(), "{resp}");
        (result["isError"] == true, result["structuredContent"].clone())
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

#[test]
fn mcp_never_reads_or_writes_through_a_link_into_hidden_places() {
    let ws = Ws::new();
    let outside = tempfile::tempdir().unwrap();
    let secret = "url = https://token:ghp_secret@example.com/r.git\nquick\n";
    ws.write(".git/config", secret);
    ws.write(".env", "API_TOKEN=quick-secret\n");
    ws.write(".cowriting/decisions.jsonl", "");
    ws.write(".threads/x.json", "{\"quick\": 1}\n");
    ws.write("a.md", "The quick brown fox.\n");
    std::fs::write(outside.path().join("o.md"), "quick outside\n").unwrap();
    for (name, target) in [
        ("config.md", PathBuf::from(".git/config")),
        ("env.md", PathBuf::from(".env")),
        ("log.md", PathBuf::from(".cowriting/decisions.jsonl")),
        ("side.md", PathBuf::from(".threads/x.json")),
        ("gitdir", PathBuf::from(".git")),
        ("out.md", outside.path().join("o.md")),
        ("alias.md", PathBuf::from("a.md")),
    ] {
        symlink(target, ws.file(name)).unwrap();
    }
    let before = snapshot(ws.path());
    let outside_before = snapshot(outside.path());
    let mut mcp = Mcp::start(&ws);
    let (err, docs) = mcp.call("list_documents", json!({}));
    assert!(!err, "{docs}");
    let names: Vec<&str> = docs["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["document"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a.md", "alias.md"], "{docs}");
    for doc in [
        "config.md",
        "env.md",
        "log.md",
        "side.md",
        "gitdir/config.md",
        "out.md",
    ] {
        let (err, data) = mcp.call("read_document", json!({ "document": doc }));
        assert!(err, "{doc}: {data}");
        assert_eq!(data["code"], "bad_input", "{doc}: {data}");
        let msg = data["message"].as_str().unwrap();
        assert!(msg.contains("outside the workspace"), "{doc}: {msg}");
        assert!(!msg.contains("ghp_secret") && !msg.contains("API_TOKEN"), "{msg}");
        let (err, data) = mcp.call(
            "propose_edit",
            json!({ "document": doc, "find": "quick", "replacement": "slow" }),
        );
        assert!(err, "{doc}: {data}");
        assert_eq!(data["code"], "bad_input", "{doc}: {data}");
        let msg = data["message"].as_str().unwrap();
        assert!(msg.contains("outside the workspace"), "{doc}: {msg}");
    }
    for doc in ["config.md", "env.md", "gitdir/config.md"] {
        let (err, data) = mcp.call(
            "create_thread",
            json!({ "document": doc, "find": "quick", "body": "hm" }),
        );
        assert!(err, "{doc}: {data}");
        assert_eq!(data["code"], "bad_input", "{doc}: {data}");
        let msg = data["message"].as_str().unwrap();
        assert!(msg.contains("outside the workspace"), "{doc}: {msg}");
    }
    // A link to an ordinary document: read and proposed on through it.
    let (err, page) = mcp.call("read_document", json!({ "document": "alias.md" }));
    assert!(!err, "{page}");
    let (err, data) = mcp.call(
        "propose_edit",
        json!({ "document": "alias.md", "find": "quick", "replacement": "slow" }),
    );
    assert!(!err, "{data}");
    drop(mcp);
    let id = ws.json(&["proposals", "alias.md"])["proposals"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    ws.ok(&["accept", "alias.md", &id]);
    assert_eq!(ws.read("a.md"), "The slow brown fox.\n");
    let after = snapshot(ws.path());
    for (path, bytes) in &before {
        let review = path.starts_with(".threads") && path != Path::new(".threads/x.json")
            || path.starts_with(".cowriting") && path != Path::new(".cowriting/decisions.jsonl");
        if path == Path::new("a.md") || review {
            continue;
        }
        if path == Path::new(".cowriting/decisions.jsonl") {
            assert!(after[path].starts_with(bytes), "the log is only appended to");
            continue;
        }
        assert_eq!(after.get(path), Some(bytes), "{} changed", path.display());
    }
    assert_eq!(snapshot(outside.path()), outside_before);
}

// ---- the property ---------------------------------------------------------------

/// Links a generated workspace may hold: its name, its target (`{ws}` and
/// `{out}` stand for the two folders' absolute paths), and, for a link to a
/// document, the document it leads to.
const LINKS: [(&str, &str, Option<&str>); 21] = [
    ("git.md", ".git/config", None),
    ("env.md", ".env", None),
    ("log.md", ".cowriting/decisions.jsonl", None),
    ("side.md", ".threads/x.json", None),
    ("mods.md", ".gitmodules", None),
    ("hid.md", "sub/.hidden/c.md", None),
    ("absgit.md", "{ws}/.git/config", None),
    ("up.md", "real/../.git/config", None),
    ("out.md", "{out}/o.md", None),
    ("relout.md", "../outside/o.md", None),
    ("dangle.md", "nothing.md", None),
    ("loop.md", "loop.md", None),
    ("chain.md", "git.md", None),
    ("ok.md", "a.md", Some("a.md")),
    ("okabs.md", "{ws}/real/b.md", Some("real/b.md")),
    ("fgit", ".git", None),
    ("fhid", "sub/.hidden", None),
    ("fout", "{out}/dir", None),
    ("fcw", ".cowriting", None),
    ("freal", "real", Some("real")),
    ("fup", "..", None),
];

/// The document names calls may use: `(name, the link it goes through)`.
const NAMES: [(&str, Option<&str>); 23] = [
    ("a.md", None),
    ("real/b.md", None),
    ("git.md", Some("git.md")),
    ("env.md", Some("env.md")),
    ("log.md", Some("log.md")),
    ("side.md", Some("side.md")),
    ("mods.md", Some("mods.md")),
    ("hid.md", Some("hid.md")),
    ("absgit.md", Some("absgit.md")),
    ("up.md", Some("up.md")),
    ("out.md", Some("out.md")),
    ("relout.md", Some("relout.md")),
    ("dangle.md", Some("dangle.md")),
    ("loop.md", Some("loop.md")),
    ("chain.md", Some("chain.md")),
    ("ok.md", Some("ok.md")),
    ("okabs.md", Some("okabs.md")),
    ("fgit/hooks/pre-commit.md", Some("fgit")),
    ("fhid/c.md", Some("fhid")),
    ("fout/p.md", Some("fout")),
    ("fcw/decisions.md", Some("fcw")),
    ("freal/b.md", Some("freal")),
    ("fup/outside/o.md", Some("fup")),
];

/// How many of [`NAMES`] one case's calls use; the first is one of
/// [`ORDINARY`] (those that can be ordinary documents), the rest any.
const POOL: usize = 4;
/// `a.md`, `real/b.md`, `ok.md`, `okabs.md`, `freal/b.md` in [`NAMES`].
const ORDINARY: [usize; 5] = [0, 1, 15, 16, 21];

#[derive(Clone, Debug)]
enum Call {
    Read(usize),
    Propose(usize),
    AcceptLast(usize),
    /// Propose, then accept at once: the write the attack is after.
    ProposeAccept(usize),
    RejectLast(usize),
    Thread(usize),
    Export(usize),
    Rename(usize),
    Status,
    Search,
    Inbox,
    Check,
}

/// A call on one of the case's [`POOL`] names (an index into its pool), so
/// that a proposal is often followed by a decision on the same document.
fn call() -> impl Strategy<Value = Call> {
    let n = 0..POOL;
    prop_oneof![
        3 => n.clone().prop_map(Call::Read),
        3 => n.clone().prop_map(Call::Propose),
        3 => n.clone().prop_map(Call::AcceptLast),
        3 => n.clone().prop_map(Call::ProposeAccept),
        1 => n.clone().prop_map(Call::RejectLast),
        2 => n.clone().prop_map(Call::Thread),
        1 => n.clone().prop_map(Call::Export),
        1 => n.prop_map(Call::Rename),
        1 => Just(Call::Status),
        1 => Just(Call::Search),
        1 => Just(Call::Inbox),
        1 => Just(Call::Check),
    ]
}

/// The planted files, inside the workspace (`tmp/ws`) and beside it (`tmp/outside`).
fn plant(tmp: &Path, links: &[bool]) -> (PathBuf, PathBuf) {
    let (ws, out) = (tmp.join("ws"), tmp.join("outside"));
    let files = [
        ("ws/a.md", "The quick brown fox.\n"),
        ("ws/real/b.md", "A quick note.\n"),
        ("ws/.git/config", "[core]\n\tquick = 1\n"),
        ("ws/.git/hooks/README", "quick hooks\n"),
        ("ws/.env", "QUICK=secret\n"),
        ("ws/.gitmodules", "# quick\n"),
        ("ws/.cowriting/decisions.jsonl", ""),
        ("ws/.threads/x.json", "{\"quick\": 1}\n"),
        ("ws/sub/.hidden/c.md", "a quick hidden note\n"),
        ("outside/o.md", "quick outside\n"),
        ("outside/dir/p.md", "quick outside too\n"),
    ];
    for (rel, text) in files {
        let p = tmp.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    for ((name, target, _), on) in LINKS.iter().zip(links) {
        if *on {
            let t = target
                .replace("{ws}", ws.to_str().unwrap())
                .replace("{out}", out.to_str().unwrap());
            symlink(t, ws.join(name)).unwrap();
        }
    }
    (ws, out)
}

/// Whether `name` is an ordinary document of the workspace as planted.
fn ordinary(name: &str, links: &[bool]) -> bool {
    match NAMES.iter().find(|(n, _)| *n == name).unwrap().1 {
        None => true,
        Some(link) => {
            let i = LINKS.iter().position(|(n, _, _)| *n == link).unwrap();
            links[i] && LINKS[i].2.is_some()
        }
    }
}

fn run(links: &[bool], pool: &[usize], calls: &[Call]) -> Result<(), TestCaseError> {
    use cowriting::identity::AgentClient;
    use cowriting::ops::{ExportFormat, InboxFilter, Ops, Propose, SearchQuery};
    use cowriting::views::Unit;
    use cowriting::{ErrorCode, Provenance, Store, Target, Workspace};
    let tmp = tempfile::tempdir().unwrap();
    let (ws_dir, _out) = plant(tmp.path(), links);
    let before = snapshot(tmp.path());
    let store = std::sync::Arc::new(Store::new(Workspace::open(&ws_dir).unwrap()));
    let ops = Ops::new(store, Provenance::human("tester"), Unit::Byte);
    let agent = AgentClient {
        name: "prop".into(),
        version: "1".into(),
        sdk: "test".into(),
        model: None,
        session_id: None,
    };
    let mut last: BTreeMap<&str, String> = BTreeMap::new();
    let mut renamed: Vec<(String, String)> = Vec::new();
    let quick = Target::Text {
        text: "quick",
        occurrence: Some(1),
    };
    for (step, c) in calls.iter().enumerate() {
        // A document may be named only while no rename has moved things.
        let fresh = renamed.is_empty();
        let refused = |name: &str, r: Result<(), cowriting::Error>| -> Result<(), TestCaseError> {
            if !ordinary(name, links) {
                match r {
                    Ok(()) => return Err(TestCaseError::fail(format!("{c:?}: {name} was let through"))),
                    Err(e) => prop_assert_eq!(e.code(), ErrorCode::BadInput, "{:?}: {}", c, e),
                }
            }
            Ok(())
        };
        match c {
            Call::Read(i) => {
                let name = NAMES[pool[*i]].0;
                let r = ops.read(name, None, None);
                if fresh && ordinary(name, links) {
                    prop_assert!(r.is_ok(), "{}: {:?}", name, r.err());
                }
                refused(name, r.map(|_| ()))?;
            }
            Call::Propose(i) => {
                let name = NAMES[pool[*i]].0;
                let r = ops.propose(Propose {
                    document: name,
                    target: quick,
                    replacement: "slow",
                    agent: &agent,
                    reason: None,
                    instruction: None,
                    turn_id: None,
                });
                if let Ok(p) = &r {
                    last.insert(name, p.proposal.id.clone());
                }
                refused(name, r.map(|_| ()))?;
            }
            Call::ProposeAccept(i) => {
                let name = NAMES[pool[*i]].0;
                let r = ops
                    .propose(Propose {
                        document: name,
                        target: quick,
                        replacement: "slow",
                        agent: &agent,
                        reason: None,
                        instruction: None,
                        turn_id: None,
                    })
                    .and_then(|p| ops.accept(name, &p.proposal.id, None, false, false));
                refused(name, r.map(|_| ()))?;
            }
            Call::AcceptLast(i) | Call::RejectLast(i) => {
                let name = NAMES[pool[*i]].0;
                let id = last.remove(name).unwrap_or_else(|| "pr_none".into());
                let r = match c {
                    Call::AcceptLast(_) => ops.accept(name, &id, None, false, false),
                    _ => ops.reject(name, &id),
                };
                // NotFound (no such proposal) would mean the document was read.
                refused(name, r.map(|_| ()))?;
            }
            Call::Thread(i) => {
                let name = NAMES[pool[*i]].0;
                let r = ops.new_thread(name, quick, "why quick?");
                refused(name, r.map(|_| ()))?;
            }
            Call::Export(i) => {
                let name = NAMES[pool[*i]].0;
                let r = ops.export(name, ExportFormat::Html, true, false);
                if let Ok(page) = &r {
                    prop_assert!(!page.content.contains("secret"), "{}", name);
                }
                refused(name, r.map(|_| ()))?;
            }
            Call::Rename(i) => {
                let name = NAMES[pool[*i]].0;
                let to = format!("moved{step}.md");
                let r = ops.rename_document(name, &to);
                if r.is_ok() {
                    renamed.push((name.to_owned(), to));
                }
                refused(name, r.map(|_| ()))?;
            }
            Call::Status => {
                let out = ops.documents(None).unwrap();
                for d in &out.documents {
                    let known = NAMES.iter().any(|(n, _)| *n == d.document);
                    prop_assert!(!known || ordinary(&d.document, links), "{} listed", d.document);
                }
            }
            Call::Search => {
                let out = ops.search(&SearchQuery::literal("quick")).unwrap();
                for h in &out.hits {
                    let known = NAMES.iter().any(|(n, _)| *n == h.document);
                    prop_assert!(!known || ordinary(&h.document, links), "{} searched", h.document);
                }
            }
            Call::Inbox => {
                ops.inbox(&InboxFilter::default()).unwrap();
            }
            Call::Check => {
                ops.check_sidecars(&[]).unwrap();
            }
        }
    }
    drop(ops);
    // Nothing changed but the ordinary documents, the entries a rename moved,
    // and review data (the decision log only appended to).
    let after = snapshot(tmp.path());
    let paths: BTreeSet<&PathBuf> = before.keys().chain(after.keys()).collect();
    let moved: BTreeSet<PathBuf> = renamed
        .iter()
        .flat_map(|(from, to)| [from, to])
        .map(|n| Path::new("ws").join(n))
        .collect();
    for path in paths {
        if before.get(path) == after.get(path) {
            continue;
        }
        let rel = path.strip_prefix("ws").ok();
        let review = rel.is_some_and(|r| {
            (r.starts_with(".threads") && r != Path::new(".threads/x.json"))
                || (r.starts_with(".cowriting") && r != Path::new(".cowriting/decisions.jsonl"))
        });
        let documents = [Path::new("a.md"), Path::new("real/b.md")];
        let allowed = review
            || rel.is_some_and(|r| documents.contains(&r))
            || moved.contains(path)
            || (!renamed.is_empty() && rel.is_some_and(|r| r.to_string_lossy().starts_with("moved")));
        if rel == Some(Path::new(".cowriting/decisions.jsonl")) {
            let (b, a) = (&before[path], after.get(path));
            prop_assert!(a.is_some_and(|a| a.starts_with(b)), "the log was rewritten");
            continue;
        }
        prop_assert!(
            allowed,
            "{} changed (names {:?}, calls {:?})",
            path.display(),
            pool,
            calls
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// No sequence of calls on a workspace containing links reads or writes
    /// outside the documents it names.
    #[test]
    fn no_calls_reach_past_the_documents_they_name(
        links in proptest::collection::vec(any::<bool>(), LINKS.len()),
        pool in (proptest::sample::select(&ORDINARY[..]), proptest::collection::vec(0..NAMES.len(), POOL - 1))
            .prop_map(|(first, mut rest)| { rest.insert(0, first); rest }),
        calls in proptest::collection::vec(call(), 1..14),
    ) {
        run(&links, &pool, &calls)?;
    }
}
