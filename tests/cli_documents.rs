//! Documents as files through the real `cowriting` binary: `new`, `rename`,
//! `delete` (to the system trash: each test's own `XDG_DATA_HOME`), `mkdir`.
//! A rename takes the sidecar (its `docPath` rewritten, the VS Code location
//! `.threads/<new>.json`) and the pending ledger entries with it, and the
//! proposals stay decidable under the new name; nothing is ever overwritten
//! (exit 2, code `exists`); hostile names (`..`, absolute paths, symlinked
//! folders out, line breaks, U+2028, FIFOs) change nothing, inside or outside;
//! a rename while other processes add comments loses no record; a writer
//! holding the document's lock makes the rename wait.

mod common;
use common::Ws;
use serde_json::Value;
use std::path::Path;
use std::process::{Command as Proc, Stdio};
use std::time::Duration;

fn ws() -> Ws {
    let ws = Ws::new();
    ws.write("notes.md", "The quick brown fox jumps over the lazy dog.\n");
    ws
}

/// `cowriting --json <args>` expected to fail with exit `code`: its `{code, message}`.
fn json_error(ws: &Ws, args: &[&str], exit: i32) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let err = ws.fails(&all, exit);
    serde_json::from_str(err.trim()).unwrap()
}

/// Every file and folder under `dir` with its bytes, but cowriting's lock
/// files (runtime coordination state, git-ignored; taking a lock makes them).
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let kind = e.file_type().unwrap();
            if p.ends_with(".cowriting/locks") {
                continue;
            }
            let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            if kind.is_dir() {
                if rel != ".cowriting" {
                    out.push((format!("{rel}/"), Vec::new()));
                }
                stack.push(p);
            } else if kind.is_file() {
                out.push((rel, std::fs::read(&p).unwrap()));
            } else {
                out.push((rel, b"(not a regular file)".to_vec()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn new_documents_get_md_and_folders_and_never_overwrite() {
    let ws = ws();
    assert_eq!(ws.ok(&["new", "ideas"]).trim(), "ideas.md");
    assert_eq!(ws.read("ideas.md"), "");
    let out = ws.json(&["new", "drafts/2026/first draft"]);
    assert_eq!(out["document"], "drafts/2026/first draft.md");
    assert!(ws.file("drafts/2026/first draft.md").is_file());
    let listed = ws.json(&["status"]);
    let names: Vec<&str> = listed["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["document"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"drafts/2026/first draft.md"), "{listed}");

    // Something at the name: refused, exit 2, code `exists`, nothing changed.
    let before = files(ws.path());
    for name in ["notes", "notes.md", "ideas"] {
        let e = json_error(&ws, &["new", name], 2);
        assert_eq!(e["code"], "exists", "{e}");
        assert!(e["message"].as_str().unwrap().contains("already exists"), "{e}");
    }
    assert_eq!(
        ws.read("notes.md"),
        "The quick brown fox jumps over the lazy dog.\n"
    );
    assert_eq!(files(ws.path()), before);

    // Folders.
    assert_eq!(ws.ok(&["mkdir", "chapters/one"]).trim(), "chapters/one");
    assert!(ws.file("chapters/one").is_dir());
    assert_eq!(json_error(&ws, &["mkdir", "chapters/one"], 2)["code"], "exists");
    assert_eq!(json_error(&ws, &["mkdir", "notes.md"], 2)["code"], "bad_input");
}

#[test]
fn a_rename_takes_the_review_data_and_the_proposals_stay_decidable() {
    let ws = ws();
    let id = ws.propose("notes.md", "quick", "swift");
    let other = ws.propose("notes.md", "lazy", "sleepy");
    ws.ok(&[
        "thread",
        "new",
        "notes.md",
        "--find",
        "brown fox",
        "--body",
        "Which fox?",
    ]);
    ws.ok(&["reject", "notes.md", &other]);
    let sidecar_before = ws.sidecar_json("notes.md");
    let pending_before: Value =
        serde_json::from_str(&ws.read(".cowriting/suggestions/notes.md.json")).unwrap();
    assert_eq!(pending_before["entries"].as_array().unwrap().len(), 1);

    let out = ws.ok(&["rename", "notes.md", "chapters/One"]);
    assert_eq!(out.trim(), "notes.md → chapters/One.md");
    assert!(!ws.file("notes.md").exists());
    assert!(!ws.file(".threads/notes.md.json").exists());
    assert!(!ws.file(".cowriting/suggestions/notes.md.json").exists());
    assert_eq!(
        ws.read("chapters/One.md"),
        "The quick brown fox jumps over the lazy dog.\n"
    );
    // The sidecar at the VS Code location of the new name, its docPath the new
    // name, every record as it was.
    let mut sidecar = ws.sidecar_json("chapters/One.md");
    assert_eq!(sidecar["docPath"], "chapters/One.md");
    sidecar["docPath"] = sidecar_before["docPath"].clone();
    assert_eq!(sidecar, sidecar_before);
    let pending: Value =
        serde_json::from_str(&ws.read(".cowriting/suggestions/chapters/One.md.json")).unwrap();
    assert_eq!(pending["docId"], "chapters/One.md");
    assert_eq!(pending["entries"], pending_before["entries"]);
    assert_eq!(ws.json(&["check"])["ok"], true);

    // Under the new name: the proposal pending and decidable, the thread there.
    let proposals = ws.proposals("chapters/One.md");
    assert_eq!(proposals.len(), 1);
    assert_eq!(proposals[0]["id"], id.as_str());
    assert_eq!(proposals[0]["state"], "pending");
    let threads = ws.json(&["threads", "chapters/One.md"]);
    assert_eq!(threads["threads"][0]["comments"][0]["body"], "Which fox?");
    ws.ok(&["accept", "chapters/One.md", &id]);
    assert_eq!(
        ws.read("chapters/One.md"),
        "The swift brown fox jumps over the lazy dog.\n"
    );
    let decisions = ws.json(&["decisions"]);
    let docs: Vec<&str> = decisions["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["document"].as_str().unwrap())
        .collect();
    // The decision made under the old name follows the document (as `git log
    // --follow` reads history); the log's lines stay as they were written.
    assert_eq!(docs, ["chapters/One.md", "chapters/One.md"], "{decisions}");
    let log = ws.read(".cowriting/decisions.jsonl");
    let lines: Vec<Value> = log.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3, "{log}");
    assert_eq!(
        lines[0]["docId"], "notes.md",
        "the first decision as written: {log}"
    );
    assert_eq!(
        (&lines[1]["renamed"], &lines[1]["from"], &lines[1]["to"]),
        (
            &Value::Bool(true),
            &Value::from("notes.md"),
            &Value::from("chapters/One.md")
        )
    );

    // The old name is free again: a new document there starts with nothing.
    ws.ok(&["new", "notes.md"]);
    assert!(ws.proposals("notes.md").is_empty());
    let decisions = ws.json(&["decisions", "notes.md"]);
    assert_eq!(decisions["decisions"], Value::Array(vec![]), "{decisions}");
}

#[test]
fn a_rename_never_overwrites_and_refuses_what_it_cannot_carry() {
    let ws = ws();
    ws.ok(&["thread", "new", "notes.md", "--find", "fox", "--body", "x"]);
    ws.write("taken.md", "mine\n");
    // A sidecar left by a document of that name (another tool deleted it).
    ws.write(
        ".threads/ghost.md.json",
        "{\n  \"schemaVersion\": 1,\n  \"docPath\": \"ghost.md\",\n  \"anchors\": {},\n  \"threads\": [],\n  \"attributions\": [],\n  \"proposals\": []\n}\n",
    );
    let before = files(ws.path());
    for (to, why) in [
        ("taken.md", "a file"),
        ("taken", "a file"),
        ("ghost.md", "a sidecar"),
    ] {
        let e = json_error(&ws, &["rename", "notes.md", to], 2);
        assert_eq!(e["code"], "exists", "{to}: {e}");
        assert!(e["message"].as_str().unwrap().contains(why), "{to}: {e}");
    }
    assert_eq!(
        json_error(&ws, &["rename", "notes.md", "notes"], 2)["code"],
        "bad_input"
    );
    assert_eq!(
        json_error(&ws, &["rename", "nothing.md", "x.md"], 2)["code"],
        "bad_input"
    );
    assert_eq!(files(ws.path()), before, "nothing changed");

    // A sidecar that cannot be read is never rewritten: the rename is refused.
    ws.write(".threads/notes.md.json", "{ \"schemaVersion\": 1, ");
    let before = files(ws.path());
    let e = json_error(&ws, &["rename", "notes.md", "fine.md"], 4);
    assert_eq!(e["code"], "corrupt_sidecar", "{e}");
    assert_eq!(files(ws.path()), before);
}

#[test]
fn hostile_names_change_nothing_inside_or_outside() {
    let ws = ws();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.md"), "secret\n").unwrap();
    std::os::unix::fs::symlink(outside.path(), ws.file("out")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.md"), ws.file("alias.md")).unwrap();
    let st = Proc::new("mkfifo").arg(ws.file("pipe.md")).status().unwrap();
    assert!(st.success());
    let abs = outside.path().join("x.md");
    let abs = abs.to_str().unwrap();
    let inside_before = files(ws.path());
    let outside_before = files(outside.path());

    let refused: Vec<Vec<&str>> = vec![
        vec!["new", "../escape"],
        vec!["new", "a/../../escape"],
        vec!["new", abs],
        vec!["new", "out/new"],
        vec!["new", "out/deeper/new"],
        vec!["new", "line\nbreak"],
        vec!["new", "line\u{2028}separator"],
        vec!["new", "bidi\u{202E}dm"],
        vec!["new", ".hidden"],
        vec!["new", ".threads/x"],
        vec!["new", ".cowriting/locks/x"],
        vec!["new", "pipe.md"],
        vec!["mkdir", "out/sub"],
        vec!["mkdir", "../up"],
        vec!["mkdir", "pipe.md"],
        vec!["rename", "notes.md", "../escape"],
        vec!["rename", "notes.md", abs],
        vec!["rename", "notes.md", "out/moved"],
        vec!["rename", "notes.md", "line\nbreak"],
        vec!["rename", "notes.md", "u\u{2028}2028"],
        vec!["rename", "notes.md", "pipe.md"],
        vec!["rename", "pipe.md", "fifo2.md"],
        vec!["rename", "alias.md", "kept.md"],
        vec!["rename", "out/secret.md", "here.md"],
        vec!["rename", "../x.md", "here.md"],
        vec!["delete", "pipe.md"],
        vec!["delete", "alias.md"],
        vec!["delete", "out/secret.md"],
        vec!["delete", "../x.md"],
        vec!["delete", abs],
    ];
    let trash = tempfile::tempdir().unwrap();
    for args in &refused {
        let out = ws
            .cmd(&{
                let mut a = vec!["--json"];
                a.extend_from_slice(args);
                a
            })
            .env("XDG_DATA_HOME", trash.path())
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let e: Value = serde_json::from_slice(&out.stderr).unwrap();
        assert!(
            ["bad_input", "exists"].contains(&e["code"].as_str().unwrap()),
            "{args:?}: {e}"
        );
    }
    assert_eq!(files(outside.path()), outside_before, "nothing outside changed");
    assert_eq!(files(ws.path()), inside_before, "nothing inside changed");
    assert_eq!(
        std::fs::read_dir(trash.path()).unwrap().count(),
        0,
        "nothing went to the trash"
    );
}

#[test]
fn delete_moves_the_document_and_its_review_data_to_the_trash() {
    let ws = ws();
    ws.propose("notes.md", "quick", "swift");
    ws.ok(&["thread", "new", "notes.md", "--find", "fox", "--body", "Keep?"]);
    let sidecar = ws.sidecar("notes.md");
    let pending = ws.read(".cowriting/suggestions/notes.md.json");
    let trash = tempfile::tempdir().unwrap();
    let out = ws
        .cmd(&["--json", "delete", "notes.md"])
        .env("XDG_DATA_HOME", trash.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        out,
        serde_json::json!({"document": "notes.md", "sidecar": true, "pending": true})
    );
    assert!(!ws.file("notes.md").exists());
    assert!(!ws.file(".threads/notes.md.json").exists());
    assert!(!ws.file(".cowriting/suggestions/notes.md.json").exists());

    // In the trash, each with where it came from.
    let t = trash.path().join("Trash");
    assert_eq!(
        std::fs::read_to_string(t.join("files/notes.md")).unwrap(),
        "The quick brown fox jumps over the lazy dog.\n"
    );
    let mut in_trash: Vec<String> = std::fs::read_dir(t.join("files"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    in_trash.sort();
    assert_eq!(in_trash.len(), 3, "{in_trash:?}");
    let contents: Vec<String> = in_trash
        .iter()
        .map(|n| std::fs::read_to_string(t.join("files").join(n)).unwrap())
        .collect();
    assert!(contents.contains(&sidecar));
    assert!(contents.contains(&pending));
    let root = ws.path().canonicalize().unwrap();
    let info = std::fs::read_to_string(t.join("info/notes.md.trashinfo")).unwrap();
    assert!(
        info.contains(&format!("Path={}", root.join("notes.md").display())),
        "{info}"
    );

    // Gone from the listing; deleting it again names the missing document.
    assert!(ws.json(&["status"])["documents"].as_array().unwrap().is_empty());
    let again = ws
        .cmd(&["delete", "notes.md"])
        .env("XDG_DATA_HOME", trash.path())
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("no such document"));
}

/// One writer process: new threads on `doc` with bodies `w<k>-<n>`; when the
/// document is gone (renamed) it goes on under `to`. The bodies it wrote.
fn comment_writer(ws: &Ws, k: usize, count: usize, from: &str, to: &str) -> Vec<String> {
    let mut doc = from.to_owned();
    let mut written = Vec::new();
    for n in 0..count {
        let body = format!("w{k}-{n}");
        loop {
            let out = ws
                .cmd(&["thread", "new", &doc, "--find", "fox", "--body", &body])
                .output()
                .unwrap();
            if out.status.success() {
                written.push(body.clone());
                break;
            }
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{doc} {body}: {err}");
            assert!(err.contains("no such document"), "{doc} {body}: {err}");
            assert_eq!(doc, from, "only the old name can be gone: {err}");
            doc = to.to_owned();
        }
    }
    written
}

#[test]
fn a_rename_while_other_processes_comment_loses_no_record() {
    let ws = ws();
    let (writers, each) = (3, 12);
    let written = std::thread::scope(|s| {
        let handles: Vec<_> = (0..writers)
            .map(|k| {
                let ws = &ws;
                s.spawn(move || comment_writer(ws, k, each, "notes.md", "renamed/notes.md"))
            })
            .collect();
        // Rename once some comments are in.
        let deadline = std::time::Instant::now() + Duration::from_secs(120);
        while ws.sidecar("notes.md").matches("\"body\"").count() < 4 {
            assert!(std::time::Instant::now() < deadline, "the writers never wrote");
            std::thread::sleep(Duration::from_millis(20));
        }
        ws.ok(&["rename", "notes.md", "renamed/notes"]);
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect::<Vec<_>>()
    });
    assert_eq!(written.len(), writers * each);
    assert!(!ws.file("notes.md").exists());
    assert!(
        !ws.file(".threads/notes.md.json").exists(),
        "no record written under the old name after the move"
    );
    let threads = ws.json(&["threads", "renamed/notes.md"]);
    let mut bodies: Vec<String> = threads["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["comments"][0]["body"].as_str().unwrap().to_owned())
        .collect();
    bodies.sort();
    let mut expected = written.clone();
    expected.sort();
    assert_eq!(bodies, expected, "every comment once, under the new name");
    assert_eq!(ws.json(&["check"])["ok"], true);
}

#[test]
fn a_writer_that_read_the_document_before_the_rename_writes_nothing_under_the_old_name() {
    use cowriting::ops::Ops;
    use cowriting::views::Unit;
    use cowriting::{DocPath, ErrorCode, Store, Target, Workspace};
    let ws = ws();
    let store = std::sync::Arc::new(Store::new(Workspace::open(ws.path()).unwrap()));
    let ops = Ops::new(store, cowriting::identity::human_identity(ws.path()), Unit::Byte);
    let mut s = ops.session(&DocPath::parse("notes.md").unwrap()).unwrap();
    // Another process renames it between this writer's read and its write.
    ws.ok(&["rename", "notes.md", "moved.md"]);
    let fox = Target::Text {
        text: "fox",
        occurrence: None,
    };
    let err = Ops::new_thread_in(&mut s, fox, "late").unwrap_err();
    assert_eq!(err.code(), ErrorCode::BadInput, "{err}");
    assert_eq!(err.to_string(), "notes.md: no such document in the workspace");
    assert!(
        !ws.file(".threads/notes.md.json").exists(),
        "no sidecar for a name nobody has"
    );
    assert!(!ws.file("notes.md").exists());
    assert!(ws.file("moved.md").exists());
}

#[test]
fn a_writer_holding_the_lock_makes_the_rename_wait() {
    let ws = ws();
    ws.ok(&["thread", "new", "notes.md", "--find", "fox", "--body", "before"]);
    let lock = ws.file(&format!(
        ".cowriting/locks/{}",
        cowriting::lock::lock_file_name(&cowriting::DocPath::parse("notes.md").unwrap())
    ));
    // flock(1) holds the same flock(2) lock another writer would, until told to stop.
    let mut holder = Proc::new("flock")
        .arg(&lock)
        .args(["-c", "echo held; read line"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("flock(1) from util-linux");
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(holder.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    assert_eq!(line.trim(), "held");
    let mut rename = Proc::new(env!("CARGO_BIN_EXE_cowriting"))
        .env("HOME", ws.home())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .arg("-w")
        .arg(ws.path())
        .args(["rename", "notes.md", "later.md"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        rename.try_wait().unwrap().is_none(),
        "the rename waits for the lock"
    );
    assert!(
        ws.file("notes.md").exists(),
        "nothing moved while the writer holds it"
    );
    drop(holder.stdin.take());
    holder.wait().unwrap();
    let out = rename.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(ws.file("later.md").exists());
    assert_eq!(
        ws.json(&["threads", "later.md"])["threads"][0]["comments"][0]["body"],
        "before"
    );
}

#[test]
fn a_symlinked_document_is_renamed_and_deleted_as_a_link_its_target_untouched() {
    let ws = ws();
    std::os::unix::fs::symlink("notes.md", ws.file("alias.md")).unwrap();
    ws.ok(&["rename", "alias.md", "other"]);
    let link = std::fs::read_link(ws.file("other.md")).unwrap();
    assert_eq!(
        link,
        Path::new("notes.md"),
        "the link moved, pointing where it did"
    );
    // Moved into another folder, a relative link would lead elsewhere: refused.
    let e = json_error(&ws, &["rename", "other.md", "sub/other"], 2);
    assert_eq!(e["code"], "bad_input", "{e}");
    assert!(e["message"].as_str().unwrap().contains("symlink"), "{e}");
    let trash = tempfile::tempdir().unwrap();
    let out = ws
        .cmd(&["delete", "other.md"])
        .env("XDG_DATA_HOME", trash.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::symlink_metadata(ws.file("other.md")).is_err());
    assert_eq!(
        ws.read("notes.md"),
        "The quick brown fox jumps over the lazy dog.\n"
    );
    let trashed = trash.path().join("Trash/files/other.md");
    assert!(std::fs::symlink_metadata(&trashed)
        .unwrap()
        .file_type()
        .is_symlink());
}
