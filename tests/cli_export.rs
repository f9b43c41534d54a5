//! `cowriting export` through the real binary: a standalone HTML page (clean,
//! or with the review in place), Markdown with CriticMarkup (of tricky text:
//! proposals, threads and what has no place), to stdout or to a file the writer
//! names — never over an existing file without `--force`, never through a
//! symlink, never among the workspace's own files. PDF is the app's, and the
//! CLI says so.

mod common;
use common::Ws;
use serde_json::Value;

const TEXT: &str = "# Café notes\r\n\r\nThe quick brown fox — naïve 😀 — jumps {++ over ++} the dog.\r\n\r\n<script>alert('x')</script>\r\n";

fn ws() -> Ws {
    let ws = Ws::new();
    ws.write("notes.md", TEXT);
    ws
}

fn json_error(ws: &Ws, args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    serde_json::from_str(ws.fails(&all, 2).trim()).unwrap()
}

#[test]
fn html_to_stdout_clean_by_default_and_with_the_review_when_asked() {
    let ws = ws();
    ws.propose("notes.md", "quick", "swift");
    ws.ok(&[
        "thread",
        "new",
        "notes.md",
        "--find",
        "naïve 😀",
        "--body",
        "Too *cute*?",
    ]);
    let clean = ws.ok(&["export", "notes.md", "--format", "html"]);
    assert!(clean.starts_with("<!DOCTYPE html>"), "{clean}");
    assert!(clean.contains("<title>Café notes</title>"), "{clean}");
    assert!(
        clean.contains("The quick brown fox — naïve 😀 — jumps {++ over ++} the dog."),
        "{clean}"
    );
    assert!(!clean.contains("<script") && !clean.contains("alert"), "{clean}");
    let body = &clean[clean.find("<main").unwrap()..];
    assert!(
        !body.contains("cw-del") && !body.contains("cw-review") && !body.contains("Too"),
        "a clean copy: {body}"
    );

    let review = ws.ok(&["export", "notes.md", "--format", "html", "--with-review"]);
    assert!(review.contains("<del class=\"cw-del\""), "{review}");
    assert!(review.contains(">quick</del><ins class=\"cw-ins\""), "{review}");
    assert!(review.contains(">swift</ins>"), "{review}");
    assert!(
        review.contains("<mark class=\"cw-thread\">naïve 😀</mark><sup class=\"cw-ref\">"),
        "{review}"
    );
    assert!(review.contains("<p>Too <em>cute</em>?</p>"), "{review}");
    assert!(
        !review.contains("<script") && !review.contains("alert"),
        "{review}"
    );
}

#[test]
fn critic_markup_of_proposals_threads_and_what_has_no_place() {
    let ws = ws();
    ws.propose("notes.md", "brown fox", "red fox");
    ws.propose("notes.md", "the dog", "");
    ws.ok(&[
        "thread",
        "new",
        "notes.md",
        "--find",
        "Café",
        "--body",
        "Accent\nkept?",
    ]);
    let out = ws.ok(&["export", "notes.md", "--format", "critic"]);
    assert!(
        // The writer by the name beside their id (git's user.name here).
        out.starts_with("# {==Café==}{>>Writer: Accent kept?<<} notes\r\n"),
        "{out:?}"
    );
    assert!(out.contains("The quick {~~brown fox~>red fox~~}{>>claude (sonnet)<<} — naïve 😀 — jumps &#123;++ over ++} {--the dog--}{>>claude (sonnet)<<}."), "{out:?}");
    // A proposal whose text changed is not placed: listed after the text.
    let changed = TEXT.replace("the dog", "a cat");
    ws.write("notes.md", &changed);
    let out = ws.ok(&["export", "notes.md", "--format", "critic"]);
    assert!(!out.contains("{--"), "{out:?}");
    assert!(
        out.contains("\r\n\r\n{>>Proposal by claude (sonnet) not placed ("),
        "{out:?}"
    );
    assert!(out.contains("“the dog” → “”<<}"), "{out:?}");
}

#[test]
fn a_file_is_written_once_and_replaced_only_with_force() {
    let ws = ws();
    let out_dir = tempfile::tempdir().unwrap();
    let target = out_dir.path().join("notes.html");
    let t = target.to_str().unwrap();
    let answer = ws.json(&["export", "notes.md", "--format", "html", "-o", t]);
    assert_eq!(answer["format"], "html");
    assert_eq!(answer["title"], "Café notes");
    assert_eq!(
        answer["path"],
        out_dir
            .path()
            .canonicalize()
            .unwrap()
            .join("notes.html")
            .to_str()
            .unwrap()
    );
    let first = std::fs::read_to_string(&target).unwrap();
    assert!(first.contains("<h1>Café notes</h1>"), "{first}");

    std::fs::write(&target, "mine").unwrap();
    let err = json_error(&ws, &["export", "notes.md", "--format", "html", "-o", t]);
    assert_eq!(err["code"], "exists", "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "mine");
    ws.ok(&["export", "notes.md", "--format", "critic", "-o", t, "--force"]);
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        TEXT.replace("{++", "&#123;++")
    );
}

#[test]
fn a_symlink_at_the_target_is_never_followed() {
    let ws = ws();
    let out_dir = tempfile::tempdir().unwrap();
    let victim = out_dir.path().join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    let link = out_dir.path().join("notes.html");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    for force in [false, true] {
        let mut args = vec![
            "export",
            "notes.md",
            "--format",
            "html",
            "-o",
            link.to_str().unwrap(),
        ];
        if force {
            args.push("--force");
        }
        let err = json_error(&ws, &args);
        assert_eq!(err["code"], "bad_input", "{err}");
        assert!(
            err["message"].as_str().unwrap().contains("symbolic link"),
            "{err}"
        );
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
}

#[test]
fn the_workspaces_own_folders_are_refused_and_nothing_changes() {
    let ws = ws();
    ws.propose("notes.md", "quick", "swift");
    let before = ws.snapshot();
    for target in [".threads/notes.md.html", ".cowriting/x.html", ".git/x.md"] {
        std::fs::create_dir_all(ws.file(target).parent().unwrap()).unwrap();
        let path = ws.file(target);
        let err = json_error(
            &ws,
            &[
                "export",
                "notes.md",
                "--format",
                "critic",
                "-o",
                path.to_str().unwrap(),
                "--force",
            ],
        );
        assert_eq!(err["code"], "bad_input", "{target}: {err}");
        assert!(!path.exists(), "{target}");
    }
    let _ = std::fs::remove_dir(ws.file(".git"));
    assert_eq!(ws.snapshot(), before);
    // A name of its own inside the workspace is fine (a document, under its lock).
    ws.ok(&[
        "export",
        "notes.md",
        "--format",
        "critic",
        "-o",
        ws.file("notes.critic.md").to_str().unwrap(),
    ]);
    assert!(ws.read("notes.critic.md").contains("{~~quick~>swift~~}"));
}

#[test]
fn pdf_is_the_apps_and_says_so() {
    let ws = ws();
    let err = json_error(
        &ws,
        &["export", "notes.md", "--format", "pdf", "-o", "/tmp/never.pdf"],
    );
    assert_eq!(err["code"], "bad_input");
    assert!(err["message"].as_str().unwrap().contains("desktop app"), "{err}");
    let help = ws.ok(&["export", "--help"]);
    assert!(help.contains("PDF is made by the desktop app"), "{help}");
}
