//! Bad input gets a clear one-line error naming what was wrong, the right exit
//! code, and no file changes: truncated or garbage sidecars, a newer schema,
//! dangling anchor ids, non-UTF-8 documents, paths with `..` or a symlink out of
//! the workspace, a trailing `/` (a folder, not the document), a folder where
//! a sidecar belongs (`check` fails), offsets inside a multi-byte char, an
//! empty `--find`.

mod common;
use common::Ws;

fn ws() -> Ws {
    let ws = Ws::new();
    ws.write("a.md", "Hello wörld 😀 and more.\n");
    ws
}

const VALID: &str = r#"{
  "schemaVersion": 1,
  "docPath": "a.md",
  "anchors": {},
  "threads": [],
  "attributions": [],
  "proposals": []
}
"#;

#[test]
fn truncated_sidecar_is_reported_with_line_and_column_and_never_overwritten() {
    let ws = ws();
    let truncated = &VALID[..40];
    ws.write(".threads/a.md.json", truncated);
    let before = ws.snapshot();
    let err = ws.fails(&["propose", "a.md", "--find", "Hello", "--replace", "Hi"], 4);
    assert!(err.contains(".threads/a.md.json"), "{err}");
    assert!(err.contains("line 3, column"), "{err}");
    assert!(err.contains("not overwritten"), "{err}");
    for args in [
        vec!["thread", "new", "a.md", "--find", "Hello", "--body", "x"],
        vec!["proposals", "a.md"],
        vec!["spans", "a.md"],
    ] {
        ws.fails(&args, 4);
    }
    assert_eq!(ws.snapshot(), before);
    let out = ws.cmd(&["check"]).output().unwrap();
    assert_eq!(out.status.code(), Some(4));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("error .threads/a.md.json"), "{text}");
    // status still reports the document and the problem, and exits 0.
    let st = ws.ok(&["status"]);
    assert!(st.contains("sidecar:") && st.contains("invalid JSON"), "{st}");
}

#[test]
fn garbage_sidecar_is_refused() {
    let ws = ws();
    ws.write(".threads/a.md.json", [0xff, 0xfe, b'{', b'x']);
    let before = ws.snapshot();
    let err = ws.fails(&["propose", "a.md", "--find", "Hello", "--replace", "Hi"], 4);
    assert!(err.contains("not UTF-8") || err.contains("invalid JSON"), "{err}");
    assert_eq!(ws.snapshot(), before);
}

#[test]
fn wrong_shape_names_the_field() {
    let ws = ws();
    ws.write(
        ".threads/a.md.json",
        VALID.replace("\"threads\": []", "\"threads\": [{\"id\": 3}]"),
    );
    let err = ws.fails(&["threads", "a.md"], 4);
    assert!(
        err.contains("threads[0].id: expected a string, found a number"),
        "{err}"
    );
}

#[test]
fn newer_schema_is_refused_with_exit_3_and_left_alone() {
    let ws = ws();
    let newer = VALID.replace("\"schemaVersion\": 1", "\"schemaVersion\": 2");
    ws.write(".threads/a.md.json", &newer);
    let before = ws.snapshot();
    let err = ws.fails(&["propose", "a.md", "--find", "Hello", "--replace", "Hi"], 3);
    assert!(err.contains("schemaVersion 2 is newer"), "{err}");
    ws.fails(&["reject", "a.md", "pr_x"], 3);
    assert_eq!(ws.snapshot(), before);
    assert_eq!(ws.cmd(&["check"]).output().unwrap().status.code(), Some(3));
}

#[test]
fn dangling_anchor_ids_and_doc_path_mismatch_are_reported_by_check() {
    let ws = ws();
    let bad = VALID
        .replace("\"docPath\": \"a.md\"", "\"docPath\": \"b.md\"")
        .replace(
            "\"threads\": []",
            r#""threads": [{"id": "t_1", "anchorId": "a_missing", "status": "open", "comments": []}]"#,
        );
    ws.write(".threads/a.md.json", &bad);
    let out = ws.cmd(&["--json", "check"]).output().unwrap();
    assert_eq!(out.status.code(), Some(4));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let problems: Vec<&str> = v["sidecars"][0]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["message"].as_str().unwrap())
        .collect();
    assert!(problems.iter().any(|p| p.contains("a_missing")), "{problems:?}");
    assert!(
        problems.iter().any(|p| p.contains("docPath is \"b.md\"")),
        "{problems:?}"
    );
    // A clean workspace checks clean.
    let ok = Ws::new();
    ok.write("a.md", "x");
    ok.write(".threads/a.md.json", VALID);
    assert!(ok.ok(&["check"]).contains("ok    .threads/a.md.json"));
}

#[test]
fn non_utf8_document_is_refused() {
    let ws = Ws::new();
    ws.write("latin1.md", b"caf\xe9\n");
    let before = ws.snapshot();
    let err = ws.fails(&["propose", "latin1.md", "--find", "caf", "--replace", "x"], 2);
    assert!(
        err.contains("latin1.md: not UTF-8: invalid byte sequence at byte 3"),
        "{err}"
    );
    assert_eq!(ws.snapshot(), before);
}

#[test]
fn paths_outside_the_workspace_are_refused() {
    let ws = ws();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("x.md"), "secret text\n").unwrap();
    std::os::unix::fs::symlink(outside.path(), ws.file("link")).unwrap();
    let before = ws.snapshot();
    for doc in ["../x.md", "sub/../../x.md", "/etc/hostname", "link/x.md"] {
        let err = ws.fails(&["propose", doc, "--find", "secret", "--replace", "x"], 2);
        assert!(err.contains("outside the workspace"), "{doc}: {err}");
    }
    assert_eq!(ws.snapshot(), before);
    assert_eq!(
        std::fs::read_to_string(outside.path().join("x.md")).unwrap(),
        "secret text\n"
    );
    assert!(!outside.path().join(".threads").exists());
    // A sidecar folder that is a symlink out is refused too.
    let ws2 = Ws::new();
    ws2.write("a.md", "Hello\n");
    std::os::unix::fs::symlink(outside.path(), ws2.file(".threads")).unwrap();
    let err = ws2.fails(&["propose", "a.md", "--find", "Hello", "--replace", "Hi"], 2);
    assert!(err.contains("outside the workspace"), "{err}");
    assert!(std::fs::read_dir(outside.path()).unwrap().count() == 1);
}

#[test]
fn a_trailing_slash_names_a_folder_not_the_document() {
    let ws = ws();
    let before = ws.snapshot();
    for doc in ["a.md/", "a.md//", "a.md/."] {
        let err = ws.fails(&["propose", doc, "--find", "Hello", "--replace", "Hi"], 2);
        assert!(err.contains("names a folder"), "{doc}: {err}");
        ws.fails(&["proposals", doc], 2);
    }
    assert_eq!(ws.snapshot(), before);
}

#[test]
fn check_reports_a_folder_where_a_sidecar_belongs() {
    let ws = ws();
    std::fs::create_dir_all(ws.file(".threads/a.md.json")).unwrap();
    let out = ws.cmd(&["check"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{text}");
    assert!(text.contains("not a regular file (a folder)"), "{text}");
    let out = ws.cmd(&["check", "a.md"]).output().unwrap();
    assert_eq!(out.status.code(), Some(4));
}

#[test]
fn offsets_inside_a_multibyte_char_or_past_the_end_are_refused() {
    let ws = ws();
    let before = ws.snapshot();
    // "ö" is bytes 7..9.
    let err = ws.fails(
        &["propose", "a.md", "--start", "8", "--end", "10", "--replace", "x"],
        2,
    );
    assert!(
        err.contains("byte offset 8 is inside a multi-byte character"),
        "{err}"
    );
    let err = ws.fails(
        &[
            "propose",
            "a.md",
            "--start",
            "0",
            "--end",
            "999",
            "--replace",
            "x",
        ],
        2,
    );
    assert!(err.contains("past the end"), "{err}");
    let err = ws.fails(
        &["propose", "a.md", "--start", "5", "--end", "2", "--replace", "x"],
        2,
    );
    assert!(err.contains("after its end"), "{err}");
    assert_eq!(ws.snapshot(), before);
}

#[test]
fn empty_absent_and_ambiguous_find_are_refused() {
    let ws = ws();
    let before = ws.snapshot();
    let err = ws.fails(&["propose", "a.md", "--find", "", "--replace", "x"], 2);
    assert!(err.contains("empty"), "{err}");
    let err = ws.fails(&["propose", "a.md", "--find", "absent", "--replace", "x"], 2);
    assert!(err.contains("\"absent\" not found in a.md"), "{err}");
    let err = ws.fails(&["propose", "a.md", "--find", "o", "--replace", "x"], 2);
    assert!(
        err.contains("occurs 2 times in a.md; choose one with --nth 1..2"),
        "{err}"
    );
    let err = ws.fails(
        &["propose", "a.md", "--find", "o", "--nth", "3", "--replace", "x"],
        2,
    );
    assert!(err.contains("--nth 3: \"o\" occurs 2 times in a.md"), "{err}");
    // Claude needs a selection and an instruction, said in this client's flags.
    let err = ws.fails(
        &[
            "suggest",
            "a.md",
            "--producer",
            "claude",
            "--instruction",
            "Shorter",
        ],
        2,
    );
    assert!(err.contains("give --find TEXT or --start B --end B"), "{err}");
    let err = ws.fails(&["suggest", "a.md", "--producer", "claude", "--find", "Hello"], 2);
    assert!(err.contains("needs --instruction TEXT"), "{err}");
    let err = ws.fails(&["propose", "a.md", "--find", "Hello", "--replace", "Hello"], 2);
    assert!(err.contains("same as the target"), "{err}");
    let err = ws.fails(&["thread", "new", "a.md", "--find", "Hello", "--body", "  "], 2);
    assert!(err.contains("comment body is empty"), "{err}");
    assert_eq!(ws.snapshot(), before);
}

#[test]
fn missing_document_and_unknown_ids() {
    let ws = ws();
    let err = ws.fails(&["proposals", "nope.md"], 2);
    assert!(err.contains("nope.md: no such document"), "{err}");
    let err = ws.fails(&["accept", "a.md", "pr_unknown"], 2);
    assert!(err.contains("proposal pr_unknown not found in a.md"), "{err}");
    let err = ws.fails(&["reject", "a.md", "pr_unknown"], 2);
    assert!(err.contains("pr_unknown"), "{err}");
    // Usage errors are exit 2 as well.
    assert_eq!(
        ws.cmd(&["propose", "a.md"]).output().unwrap().status.code(),
        Some(2)
    );
}

#[test]
fn json_errors_have_code_and_message() {
    let ws = ws();
    let out = ws
        .cmd(&["--json", "accept", "a.md", "pr_unknown"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(v["code"], "not_found");
    assert!(v["message"].as_str().unwrap().contains("pr_unknown"));
}
