//! Search on ripgrep's crates (issue 37): the walk respects `.gitignore`, a
//! hostile workspace (a FIFO, links out of it, a huge file) neither hangs it
//! nor leads it outside, and the finds are handed over document by document,
//! in the answer's order (the documents' sorted order, while the walk goes
//! on), all of them, with the caller able to stop there.
//!
//! In detail: `.gitignore` nested, a name taken back, in a git repository or
//! not; links out absolute, relative, to a folder, and a loop; a 5 GB file;
//! each document's finds handed over once and adding up to the answer, past the
//! limit of 1,000 too, in wide folders listed out of order; folders and files
//! named alike. Measured by `scripts/perf-search.sh` (40,000 pages,
//! beside `rg` and `grep -r`).

use cowriting::ops::{DocFinds, Ops, SearchQuery};
use cowriting::views::Unit;
use cowriting::{Provenance, Store, Target, Workspace};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

/// Far more than any search here needs; a hang runs into it.
const BOUND: Duration = Duration::from_secs(60);

fn ops(dir: &Path) -> Ops {
    let store = std::sync::Arc::new(Store::new(Workspace::open(dir).unwrap()));
    Ops::new(store, Provenance::human("tester"), Unit::Byte)
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// The documents `query` finds text in, each once, sorted.
fn found_in(dir: &Path, query: &str) -> Vec<String> {
    let out = ops(dir).search(&SearchQuery::literal(query)).unwrap();
    let mut docs: Vec<String> = out.hits.iter().map(|h| h.document.clone()).collect();
    docs.dedup();
    docs
}

/// `search` in a thread: its answer, or a failure when it does not come back
/// within [`BOUND`].
fn search_bounded(dir: &Path, query: &str) -> cowriting::ops::SearchOut {
    let (tx, rx) = mpsc::channel();
    let dir = dir.to_owned();
    let query = query.to_owned();
    std::thread::spawn(move || {
        let _ = tx.send(ops(&dir).search(&SearchQuery::literal(query)).unwrap());
    });
    rx.recv_timeout(BOUND).expect("the search hung")
}

#[test]
fn what_gitignore_leaves_out_is_not_searched() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path();
    write(ws, "kept.md", "the needle\n");
    write(ws, "drafts/old.md", "the needle\n");
    write(ws, "notes/scratch.tmp.md", "the needle\n");
    write(ws, "notes/keep.md", "the needle\n");
    write(ws, "notes/deep/again.md", "the needle\n");
    write(ws, "node_modules/pkg/readme.md", "the needle\n");
    write(ws, ".gitignore", "/drafts/\n*.tmp.md\n");
    // A nested .gitignore, and one that takes a name back.
    write(ws, "notes/.gitignore", "deep/\n");
    // Not a git repository: its .gitignore counts all the same.
    assert_eq!(found_in(ws, "needle"), ["kept.md", "notes/keep.md"]);
    write(ws, "notes/.gitignore", "deep/\n!scratch.tmp.md\n");
    assert_eq!(
        found_in(ws, "needle"),
        ["kept.md", "notes/keep.md", "notes/scratch.tmp.md"]
    );
    // In a git repository too.
    git2::Repository::init(ws).unwrap();
    assert_eq!(
        found_in(ws, "needle"),
        ["kept.md", "notes/keep.md", "notes/scratch.tmp.md"]
    );
}

#[test]
fn a_fifo_links_out_and_a_huge_file_neither_hang_the_search_nor_lead_it_outside() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    let outside = tmp.path().join("outside");
    write(&ws, "a.md", "a needle inside\n");
    write(&outside, "secret.md", "a needle outside\n");
    write(&outside, "folder/more.md", "a needle outside\n");
    // A FIFO with a document's name (a read of it would wait for a writer forever).
    let fifo = ws.join("pipe.md");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    // Links out: to a file, to a folder, absolute and relative; a loop.
    std::os::unix::fs::symlink(outside.join("secret.md"), ws.join("secret.md")).unwrap();
    std::os::unix::fs::symlink("../outside/secret.md", ws.join("relative.md")).unwrap();
    std::os::unix::fs::symlink(&outside, ws.join("folder")).unwrap();
    std::os::unix::fs::symlink("loop.md", ws.join("loop.md")).unwrap();
    // A link inside is searched through, under its own name.
    std::os::unix::fs::symlink("a.md", ws.join("alias.md")).unwrap();
    // 5 GB (sparse): refused by its size before a byte is read.
    let big = std::fs::File::create(ws.join("big.md")).unwrap();
    big.set_len(5 << 30).unwrap();
    drop(big);

    let out = search_bounded(&ws, "needle");
    let docs: Vec<(&str, &str)> = out
        .hits
        .iter()
        .map(|h| (h.document.as_str(), h.after.as_str()))
        .collect();
    assert_eq!(docs, [("a.md", " inside"), ("alias.md", " inside")], "{docs:?}");
    let errors: Vec<&str> = out.errors.iter().map(|e| e.document.as_str()).collect();
    assert_eq!(errors, ["big.md"], "{errors:?}");
    assert!(
        out.errors[0].error.message.contains("too large"),
        "{:?}",
        out.errors[0]
    );
}

/// A workspace of `n` documents `d00.md`…, each with `per` hits, the even ones
/// with a thread (so a session) whose comment matches too.
fn many(n: usize, per: usize) -> (tempfile::TempDir, Ops) {
    let tmp = tempfile::tempdir().unwrap();
    for i in 0..n {
        write(
            tmp.path(),
            &format!("d{i:02}.md"),
            &"a needle here.\n".repeat(per),
        );
    }
    let ops = ops(tmp.path());
    for i in (0..n).step_by(2) {
        ops.new_thread(
            &format!("d{i:02}.md"),
            Target::Text {
                text: "here",
                occurrence: Some(1),
            },
            "a needle in the thread",
        )
        .unwrap();
    }
    (tmp, ops)
}

#[test]
fn finds_are_handed_over_per_document_in_the_answers_order_all_of_them() {
    let (_tmp, ops) = many(12, 3);
    let query = SearchQuery::literal("needle");
    let mut seen = Vec::new();
    let mut hits = Vec::new();
    let mut threads = Vec::new();
    let streamed = ops
        .search_streamed(&query, |f: DocFinds<'_>| {
            seen.push(f.document.to_string());
            hits.extend(f.hits.iter().map(|h| (h.document.clone(), h.from)));
            threads.extend(f.threads.iter().map(|t| t.thread.id.clone()));
            ControlFlow::Continue(())
        })
        .unwrap();
    assert!(!streamed.stopped);
    // Every document once, in order.
    let all: Vec<String> = (0..12).map(|i| format!("d{i:02}.md")).collect();
    assert_eq!(seen, all);
    // What was handed over is the answer, in its order.
    let out = &streamed.out;
    let answer: Vec<(String, u32)> = out.hits.iter().map(|h| (h.document.clone(), h.from)).collect();
    assert_eq!(hits, answer);
    assert_eq!(hits.len(), 12 * 3);
    let answer_threads: Vec<String> = out.threads.iter().map(|t| t.thread.id.clone()).collect();
    assert_eq!(threads, answer_threads);
    assert_eq!(threads.len(), 6);
    // And the same as the search that hands nothing over answers.
    let plain = ops.search(&query).unwrap();
    assert_eq!(
        serde_json::to_value(&plain).unwrap(),
        serde_json::to_value(out).unwrap()
    );
}

#[test]
fn past_the_limit_what_is_handed_over_is_what_the_answer_keeps() {
    // 3 documents of 400 hits: the third is cut at 1,000 in all.
    let tmp = tempfile::tempdir().unwrap();
    for i in 0..3 {
        write(tmp.path(), &format!("d{i}.md"), &"needle ".repeat(400));
    }
    let ops = ops(tmp.path());
    let mut handed = 0;
    let streamed = ops
        .search_streamed(&SearchQuery::literal("needle"), |f| {
            handed += f.hits.len();
            ControlFlow::Continue(())
        })
        .unwrap();
    assert_eq!(handed, cowriting::ops::search::MAX_HITS);
    assert_eq!(streamed.out.hits.len(), handed);
    assert!(streamed.out.truncated);
}

#[test]
fn the_caller_stops_the_search_and_nothing_after_is_searched() {
    let (_tmp, ops) = many(12, 2);
    let mut calls = Vec::new();
    let streamed = ops
        .search_streamed(&SearchQuery::literal("needle"), |f| {
            calls.push(f.document.to_string());
            if f.document.as_str() == "d03.md" {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
    assert!(streamed.stopped);
    assert_eq!(calls, ["d00.md", "d01.md", "d02.md", "d03.md"]);
    let docs: std::collections::BTreeSet<&str> =
        streamed.out.hits.iter().map(|h| h.document.as_str()).collect();
    assert_eq!(
        docs.into_iter().collect::<Vec<_>>(),
        ["d00.md", "d01.md", "d02.md", "d03.md"]
    );
    assert_eq!(streamed.out.hits.len(), 4 * 2);
    assert!(streamed.out.errors.is_empty());
    // Not stopped, every document.
    let all = ops.search(&SearchQuery::literal("needle")).unwrap();
    assert_eq!(all.hits.len(), 12 * 2);
}

/// The finds come in the documents' sorted order, though the walk hands them
/// over as it goes: a folder is taken where its path sorts (`guide.md`
/// before `guide/…`, `guide-x/…` before both, `guide/b.md` before
/// `guide/b/…`). A document with review data that the walk leaves out (an
/// ignored folder) comes after the walk's documents.
#[test]
fn finds_come_in_the_documents_sorted_order_folders_and_files_named_alike() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path();
    // Written out of order, so no listing hands them over sorted by chance.
    let docs = [
        "z.md",
        "guide0.md",
        "guide/b/c.md",
        "guide-x/d.md",
        "guide/b.md",
        "Guide.md",
        "guide.md",
        "a.md",
        "guide/a.md",
        "guide 2.md",
    ];
    for rel in docs {
        write(ws, rel, "the needle\n");
    }
    write(ws, ".gitignore", "ignored/\n");
    write(ws, "ignored/late.md", "the needle\n");
    let ops = ops(ws);
    ops.new_thread(
        "ignored/late.md",
        Target::Text {
            text: "needle",
            occurrence: Some(1),
        },
        "a comment",
    )
    .unwrap();
    let mut seen = Vec::new();
    let streamed = ops
        .search_streamed(&SearchQuery::literal("needle"), |f| {
            seen.push(f.document.to_string());
            ControlFlow::Continue(())
        })
        .unwrap();
    let mut expected: Vec<String> = docs.iter().map(|d| d.to_string()).collect();
    expected.sort();
    expected.push("ignored/late.md".into());
    assert_eq!(seen, expected);
    let answer: Vec<&str> = streamed.out.hits.iter().map(|h| h.document.as_str()).collect();
    assert_eq!(answer, expected);
}

/// Past the limit, in folders whose listing is not their sorted order: the
/// readers take the documents in the order they are handed over, so the one
/// wanted next is never behind readers held back by the limit (a search
/// that read in one order and handed over in another waited here forever).
#[test]
fn past_the_limit_in_wide_folders_the_search_ends_with_the_first_documents() {
    let tmp = tempfile::tempdir().unwrap();
    let mut all = Vec::new();
    for i in (0..400).rev() {
        let rel = format!("f{}/p{:03}.md", i % 4, (i * 37) % 400);
        write(tmp.path(), &rel, &"a needle\n".repeat(20));
        all.push(rel);
    }
    all.sort();
    let out = search_bounded(tmp.path(), "needle");
    assert!(out.truncated);
    assert_eq!(out.hits.len(), cowriting::ops::search::MAX_HITS);
    let mut docs: Vec<&str> = out.hits.iter().map(|h| h.document.as_str()).collect();
    docs.dedup();
    assert_eq!(
        docs,
        all[..docs.len()].iter().map(String::as_str).collect::<Vec<_>>()
    );
    assert_eq!(docs.len(), cowriting::ops::search::MAX_HITS / 20);
}
