//! The app's Inbox reads again only the documents whose files changed
//! (`cowriting::ops::doc_cache`), and never answers what a fresh read would
//! not: other writers are real `cowriting` processes (propose, accept, resolve,
//! delete, a sidecar removed by hand); every listing is compared with one read
//! from nothing. A sidecar rewritten to the same length with its old time put
//! back is read again; an open document is listed as the writer has it. The
//! document counts (`status`, MCP's `list_documents`, page after page) are kept
//! and checked the same way.

mod common;

use common::Ws;
use cowriting::config::Config;
use cowriting::desk::Desk;
use cowriting::ops::doc_cache::RACY;
use serde_json::Value;
use std::time::Duration;

const DOCS: usize = 12;

fn desk(ws: &Ws) -> Desk {
    let desk = Desk::with_config(|| Ok(Config::default()));
    desk.open(ws.path()).unwrap();
    desk
}

/// The Inbox as the app's desk answers it, and how many closed documents it read.
fn listing(desk: &Desk) -> (Value, usize) {
    let out = desk.inbox().unwrap();
    let read = desk.with(|a| Ok(a.inbox_open().last_read())).unwrap();
    (serde_json::to_value(out).unwrap(), read)
}

/// The same read from nothing: a new desk on the same folder.
fn fresh(ws: &Ws) -> Value {
    serde_json::to_value(desk(ws).inbox().unwrap()).unwrap()
}

/// Past the window in which a file's stamp is not trusted.
fn settle() {
    std::thread::sleep(RACY + Duration::from_millis(500));
}

fn doc(i: usize) -> String {
    format!("notes/d{i:02}.md")
}

/// `DOCS` documents, each with a proposal filed by the CLI.
fn review_each(ws: &Ws) {
    for i in 0..DOCS {
        ws.write(
            &doc(i),
            format!("Paragraph {i} has teh word and a comment here.\n"),
        );
        ws.propose(&doc(i), "teh", "the");
    }
}

/// The one API on `ws` as MCP calls it (positions in bytes), on a store of its own.
fn ops_on(ws: &Ws) -> cowriting::ops::Ops {
    let store = std::sync::Arc::new(cowriting::Store::new(
        cowriting::Workspace::open(ws.path()).unwrap(),
    ));
    cowriting::ops::Ops::new(
        store,
        cowriting::identity::human_identity(ws.path()),
        cowriting::views::Unit::Byte,
    )
}

#[test]
fn only_what_another_writer_changed_is_read_again_and_the_answer_is_a_fresh_one() {
    let ws = Ws::new();
    review_each(&ws);
    ws.ok(&[
        "thread",
        "new",
        &doc(5),
        "--find",
        "a comment",
        "--body",
        "Check this.",
    ]);
    settle();
    let desk = desk(&ws);

    let (first, read) = listing(&desk);
    assert_eq!(
        read, DOCS,
        "the first listing reads every document with review data"
    );
    assert_eq!(first, fresh(&ws));
    assert_eq!(first["documents"].as_array().unwrap().len(), DOCS);
    let (second, read) = listing(&desk);
    assert_eq!(read, 0, "nothing changed: nothing read");
    assert_eq!(second, first);

    // Another process proposes in one document and accepts in another.
    ws.propose(&doc(3), "comment", "note");
    let id = ws.proposals(&doc(7))[0]["id"].as_str().unwrap().to_owned();
    ws.ok(&["accept", &doc(7), &id]);
    let (third, read) = listing(&desk);
    assert_eq!(
        read, 2,
        "the two documents another writer changed, and only those"
    );
    assert_eq!(third, fresh(&ws));
    assert_ne!(third, second);
    // Changed a moment ago, they are read again until they are older than the
    // racy window (how many times depends on the machine's speed), then kept.
    settle();
    assert!(listing(&desk).1 <= 2);
    assert_eq!(listing(&desk).1, 0);

    // A thread resolved, a sidecar removed by hand, a document deleted.
    let thread = ws.sidecar_json(&doc(5))["threads"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    ws.ok(&["thread", "resolve", &doc(5), &thread]);
    std::fs::remove_file(ws.file(&format!(".threads/{}.json", doc(9)))).unwrap();
    ws.ok(&["delete", &doc(11)]);
    let (fourth, read) = listing(&desk);
    assert_eq!(read, 1, "doc 5 read again; the others are gone from the listing");
    assert_eq!(fourth, fresh(&ws));
    let listed: Vec<&str> = fourth["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["document"].as_str().unwrap())
        .collect();
    assert!(
        !listed.contains(&doc(9).as_str()) && !listed.contains(&doc(11).as_str()),
        "{listed:?}"
    );
}

#[test]
fn a_sidecar_rewritten_to_the_same_length_with_its_old_time_put_back_is_read_again() {
    let ws = Ws::new();
    ws.write("a.md", "One teh two.\n");
    ws.propose("a.md", "teh", "the");
    settle();
    let desk = desk(&ws);
    let (before, _) = listing(&desk);
    assert_eq!(listing(&desk).1, 0);

    // Same length, same modification time: only the change time (and what is in it) differs.
    let path = ws.file(".threads/a.md.json");
    let old = std::fs::read_to_string(&path).unwrap();
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    let reason_was = ws.proposals("a.md")[0]["reason"].clone();
    let edited = old.replacen("\"the\"", "\"THE\"", 1);
    assert_eq!(edited.len(), old.len());
    assert_ne!(edited, old);
    std::fs::write(&path, &edited).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), modified);

    let (after, read) = listing(&desk);
    assert_eq!(read, 1);
    assert_ne!(after, before, "{reason_was}");
    assert_eq!(after, fresh(&ws));
}

#[test]
fn an_open_document_is_listed_as_the_writer_has_it_not_as_kept() {
    let ws = Ws::new();
    ws.write("a.md", "One teh two.\n");
    ws.propose("a.md", "teh", "the");
    settle();
    let desk = desk(&ws);
    assert_eq!(listing(&desk).1, 1);
    desk.with(|a| a.open_document("a.md")).unwrap();
    let id = desk.with(|a| a.review("a.md")).unwrap().proposals[0].id.clone();
    desk.with(|a| a.reject("a.md", &id)).unwrap();
    let (open, read) = listing(&desk);
    assert_eq!(read, 0, "the open document comes from memory");
    assert_eq!(open["groups"].as_array().unwrap().len(), 0, "{open}");
}

/// The document counts (`status`, MCP's `list_documents`) kept the same way:
/// a server listing page after page reads only what another writer changed,
/// and every answer is the one a fresh read gives.
#[test]
fn document_counts_are_read_again_only_where_files_changed_and_match_a_fresh_read() {
    use cowriting::ops::doc_cache::SummaryCache;
    use cowriting::ops::DocFilter;
    let ws = Ws::new();
    review_each(&ws);
    ws.write("plain.md", "No review here.\n");
    settle();
    let ops = || ops_on(&ws);
    let server = ops();
    let mut cache = SummaryCache::new();
    let listing = |cache: &mut SummaryCache| {
        let all = server.documents_cached(cache).unwrap();
        assert_eq!(
            serde_json::to_value(&all).unwrap(),
            serde_json::to_value(ops().documents(None).unwrap()).unwrap(),
            "a kept answer is a fresh one"
        );
        all
    };

    let first = listing(&mut cache);
    assert_eq!(
        cache.last_read(),
        DOCS,
        "the first listing reads every reviewed document"
    );
    assert_eq!(first.documents.len(), DOCS + 1);
    listing(&mut cache);
    assert_eq!(cache.last_read(), 0, "nothing changed: nothing read");

    // Pages, as MCP asks for them, read nothing more.
    let filter = DocFilter {
        folder: None,
        has_pending: true,
        has_threads: false,
    };
    let page = server.documents_page(&filter, None, 5, Some(&mut cache)).unwrap();
    assert_eq!(cache.last_read(), 0);
    let next = server
        .documents_page(&filter, page.next_cursor.as_deref(), 5, Some(&mut cache))
        .unwrap();
    assert_eq!(cache.last_read(), 0);
    assert_eq!(page.documents.len() + next.documents.len(), 10);

    // Another process accepts in one document and comments in another; a
    // sidecar is removed by hand.
    let id = ws.proposals(&doc(7))[0]["id"].as_str().unwrap().to_owned();
    ws.ok(&["accept", &doc(7), &id]);
    ws.ok(&[
        "thread",
        "new",
        &doc(2),
        "--find",
        "a comment",
        "--body",
        "Check this.",
    ]);
    std::fs::remove_file(ws.file(&format!(".threads/{}.json", doc(9)))).unwrap();
    let third = listing(&mut cache);
    assert_eq!(
        cache.last_read(),
        2,
        "the two documents another writer changed, and only those"
    );
    let count = |d: usize| {
        third
            .documents
            .iter()
            .find(|s| s.document == doc(d))
            .map(|s| (s.proposals.pending, s.threads.open))
    };
    assert_eq!(count(7), Some((0, 0)));
    assert_eq!(count(2), Some((1, 1)));
    assert_eq!(count(9), Some((0, 0)), "no review data left: nothing on it");
    settle();
    listing(&mut cache);
    assert_eq!(listing(&mut cache).documents.len(), DOCS + 1);
    assert_eq!(cache.last_read(), 0);
}

/// MCP's `list_proposals` and `list_threads` with their kept views: what
/// another process files or decides shows at the next page, as a fresh read
/// shows it, and nothing unchanged is read again.
#[test]
fn proposals_and_threads_pages_read_again_only_what_changed() {
    use cowriting::ops::doc_cache::{ProposalsCache, ThreadsCache};
    let ws = Ws::new();
    review_each(&ws);
    settle();
    let ops = || ops_on(&ws);
    let server = ops();
    let (mut proposals, mut threads) = (ProposalsCache::new(), ThreadsCache::new());
    let page = |p: &mut ProposalsCache, t: &mut ThreadsCache| {
        let a = server.proposals_page(None, None, None, 1000, Some(p)).unwrap();
        let b = server.threads_page(None, None, None, 1000, Some(t)).unwrap();
        assert_eq!(
            serde_json::to_value(&a).unwrap(),
            serde_json::to_value(ops().proposals_page(None, None, None, 1000, None).unwrap()).unwrap()
        );
        assert_eq!(
            serde_json::to_value(&b).unwrap(),
            serde_json::to_value(ops().threads_page(None, None, None, 1000, None).unwrap()).unwrap()
        );
        (a, b)
    };
    page(&mut proposals, &mut threads);
    assert_eq!((proposals.last_read(), threads.last_read()), (DOCS, DOCS));
    page(&mut proposals, &mut threads);
    assert_eq!((proposals.last_read(), threads.last_read()), (0, 0));

    let id = ws.proposals(&doc(4))[0]["id"].as_str().unwrap().to_owned();
    ws.ok(&["reject", &doc(4), &id]);
    ws.ok(&[
        "thread",
        "new",
        &doc(6),
        "--find",
        "a comment",
        "--body",
        "Check this.",
    ]);
    let (a, b) = page(&mut proposals, &mut threads);
    assert_eq!((proposals.last_read(), threads.last_read()), (2, 2));
    let pending: usize = a.documents.iter().map(|d| d.proposals.len()).sum();
    let open: usize = b.documents.iter().map(|d| d.threads.len()).sum();
    assert_eq!((pending, open), (DOCS - 1, 1));
}
