//! The editing session through the library API, as the desktop app drives it:
//! live edits, undo/redo that restores review state, save-time persistence.

use cowriting::history::EditKind;
use cowriting::model::{AgentInfo, Provenance};
use cowriting::test_support::parse_marked;
use cowriting::{CharRange, DocPath, ErrorCode, ProposalState, ProposeOptions, Session, Store, Workspace};
use std::sync::Arc;

struct Fixture {
    dir: tempfile::TempDir,
    store: Arc<Store>,
}

impl Fixture {
    /// A workspace with `d.md` holding `text`.
    fn new(text: &str) -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("d.md"), text).unwrap();
        let store = Arc::new(Store::new(Workspace::open(dir.path()).unwrap()));
        Fixture { dir, store }
    }

    fn open(&self) -> Session {
        Session::open(
            self.store.clone(),
            DocPath::parse("d.md").unwrap(),
            Provenance::human("me@example.com"),
        )
        .unwrap()
    }

    fn sidecar_text(&self) -> String {
        std::fs::read_to_string(self.dir.path().join(".threads/d.md.json")).unwrap_or_default()
    }

    fn sidecar(&self) -> serde_json::Value {
        serde_json::from_str(&self.sidecar_text()).unwrap()
    }

    fn file(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("d.md")).unwrap()
    }
}

fn claude() -> Provenance {
    Provenance::agent(
        "claude",
        AgentInfo {
            sdk: Some("test".into()),
            model: Some("sonnet".into()),
            ..AgentInfo::default()
        },
    )
}

fn opts() -> ProposeOptions {
    ProposeOptions {
        author: claude(),
        turn_id: Some("turn-1".into()),
        instruction: Some("improve".into()),
    }
}

/// Text and the one marked range of a marked-text picture.
fn marked(s: &str) -> (String, CharRange) {
    let (text, ranges, _) = parse_marked(s);
    (text, ranges[0])
}

fn text(s: &Session) -> String {
    s.document().flatten()
}

/// Spans as (text, author id) pairs.
fn spans(s: &Session) -> Vec<(String, String)> {
    s.spans()
        .map(|sp| (s.document().slice(sp.range), sp.who.author.id.clone()))
        .collect()
}

#[test]
fn undo_after_accept_restores_the_pending_proposal_and_redo_reapplies() {
    let (doc, target) = marked("The «quick brown» fox.\n");
    let f = Fixture::new(&doc);
    let mut s = f.open();
    let id = s.propose(target, "slow red", opts()).unwrap();
    let pending_sidecar = f.sidecar_text();
    s.accept(&id, None).unwrap();
    assert_eq!(text(&s), "The slow red fox.\n");
    assert!(s.proposals().is_empty());
    assert_eq!(
        f.sidecar_text(),
        pending_sidecar,
        "an accept reaches the disk with its text, at the save"
    );
    assert_eq!(
        spans(&s),
        vec![("slow".into(), "claude".into()), ("red".into(), "claude".into())]
    );
    assert!(s.is_dirty());

    assert!(s.undo().unwrap().is_some());
    assert_eq!(text(&s), doc);
    let views = s.proposals();
    assert_eq!(views.len(), 1);
    assert_eq!(views[0].proposal.id, id);
    assert_eq!(views[0].state, ProposalState::Pending);
    assert_eq!(views[0].range, Some(target));
    assert!(s.spans().next().is_none(), "the Claude tint goes with the text");
    assert_eq!(
        f.sidecar_text(),
        pending_sidecar,
        "the sidecar has the proposal back, byte for byte"
    );
    assert!(!s.is_dirty());

    assert!(s.redo().unwrap().is_some());
    assert_eq!(text(&s), "The slow red fox.\n");
    assert!(s.proposals().is_empty());
    assert_eq!(spans(&s).len(), 2);
    s.save().unwrap();
    assert!(f.sidecar()["proposals"].as_array().unwrap().is_empty());
    assert_eq!(f.sidecar()["attributions"].as_array().unwrap().len(), 2);
}

#[test]
fn undo_after_reject_restores_the_proposal_without_touching_text() {
    let (doc, target) = marked("Keep «this» text.\n");
    let f = Fixture::new(&doc);
    let mut s = f.open();
    let id = s.propose(target, "that", opts()).unwrap();
    let version = s.document().version();
    s.reject(&id).unwrap();
    assert_eq!(text(&s), doc);
    assert_eq!(
        s.document().version(),
        version,
        "reject does not touch the document"
    );
    assert!(s.proposals().is_empty());
    s.undo().unwrap();
    assert_eq!(s.proposals()[0].proposal.id, id);
    assert_eq!(f.sidecar()["proposals"][0]["id"], id.as_str());
    s.redo().unwrap();
    assert!(s.proposals().is_empty());
}

#[test]
fn typing_inside_the_target_makes_it_stale_and_undo_makes_it_decidable() {
    let (doc, target) = marked("A «careful sentence» here.\n");
    let f = Fixture::new(&doc);
    let mut s = f.open();
    let id = s.propose(target, "bold sentence", opts()).unwrap();
    // Type "ly" after "careful".
    s.replace(CharRange::point(target.start.0 + 7), "ly", EditKind::Typing)
        .unwrap();
    let v = s.proposal(&id).unwrap();
    assert_eq!(v.state, ProposalState::Stale);
    assert_eq!(v.current.as_deref(), Some("carefully sentence"));
    let before = text(&s);
    let err = s.accept(&id, None).unwrap_err();
    assert_eq!(err.code(), ErrorCode::Stale, "{err}");
    assert_eq!(text(&s), before, "INV-11: nothing applied");
    assert_eq!(f.sidecar()["proposals"].as_array().unwrap().len(), 1);
    s.undo().unwrap();
    assert_eq!(s.proposal(&id).unwrap().state, ProposalState::Pending);
    s.accept(&id, None).unwrap();
    assert_eq!(text(&s), "A bold sentence here.\n");
}

#[test]
fn typing_next_to_a_proposal_or_span_does_not_join_it() {
    let (doc, target) = marked("x «word» y\n");
    let f = Fixture::new(&doc);
    let mut s = f.open();
    let id = s.propose(target, "term", opts()).unwrap();
    s.replace(CharRange::point(target.end.0), "s", EditKind::Typing)
        .unwrap();
    s.replace(CharRange::point(target.start.0), "_", EditKind::Typing)
        .unwrap();
    let v = s.proposal(&id).unwrap();
    assert_eq!(v.state, ProposalState::Pending);
    assert_eq!(s.document().slice(v.range.unwrap()), "word");
    s.accept(&id, None).unwrap();
    assert_eq!(text(&s), "x _terms y\n");
    let sp = spans(&s);
    assert!(sp.contains(&("term".into(), "claude".into())), "{sp:?}");
    assert!(sp.contains(&("s".into(), "me@example.com".into())), "{sp:?}");
    assert!(sp.contains(&("_".into(), "me@example.com".into())), "{sp:?}");
}

#[test]
fn human_typing_inside_claude_text_splits_the_span_and_everything_persists() {
    let (doc, target) = marked("Start «old words here» end.\n");
    let f = Fixture::new(&doc);
    let mut s = f.open();
    let id = s.propose(target, "brand new phrasing", opts()).unwrap();
    s.accept(&id, None).unwrap();
    // "Start brand new phrasing end." — type inside "new".
    let at = text(&s).find("new").unwrap() + 1;
    s.replace(CharRange::point(at), "EW-n", EditKind::Typing).unwrap();
    assert_eq!(text(&s), "Start brand nEW-new phrasing end.\n");
    assert_eq!(
        spans(&s),
        vec![
            ("brand".into(), "claude".into()),
            ("n".into(), "claude".into()),
            ("EW-n".into(), "me@example.com".into()),
            ("ew".into(), "claude".into()),
            ("phrasing".into(), "claude".into()),
        ]
    );
    let report = s.save().unwrap();
    assert_eq!(report.sidecar_skipped, None);
    assert_eq!(f.file(), "Start brand nEW-new phrasing end.\n");
    let sc = f.sidecar();
    assert_eq!(sc["attributions"].as_array().unwrap().len(), 5);
    // Reload: the spans come back from the sidecar.
    let s2 = f.open();
    assert_eq!(spans(&s2), spans(&s));
    assert_eq!(s2.spans().next().unwrap().who.turn_id.as_deref(), Some("turn-1"));
}

#[test]
fn thread_anchors_follow_edits_and_are_refingerprinted_at_save_but_proposals_are_not() {
    let (doc, target) = marked("Para one.\n\nThe «anchored words» stay.\n");
    let f = Fixture::new(&doc);
    let mut s = f.open();
    let t = s.new_thread(target, "A comment").unwrap();
    let p = s.propose(target, "other words", opts()).unwrap();
    let p_anchor = f.sidecar()["proposals"][0]["anchorId"]
        .as_str()
        .unwrap()
        .to_owned();
    let p_fp_before = f.sidecar()["anchors"][&p_anchor].clone();
    // Insert a line at the top and edit inside the thread's text.
    s.replace(CharRange::point(0), "New first line.\n", EditKind::Other)
        .unwrap();
    let inside = text(&s).find("anchored").unwrap() + "anchored".len();
    s.replace(CharRange::point(inside), " (and edited)", EditKind::Other)
        .unwrap();
    let th = s.threads().into_iter().find(|v| v.thread.id == t).unwrap();
    assert_eq!(th.text, "anchored (and edited) words");
    assert_eq!(s.proposal(&p).unwrap().state, ProposalState::Stale);
    s.save().unwrap();
    let sc = f.sidecar();
    let t_anchor = sc["threads"][0]["anchorId"].as_str().unwrap();
    assert_eq!(
        sc["anchors"][t_anchor]["fingerprint"]["text"],
        "anchored (and edited) words"
    );
    assert_eq!(sc["anchors"][t_anchor]["fingerprint"]["lineHint"], 3);
    assert_eq!(
        sc["anchors"][&p_anchor], p_fp_before,
        "INV-11: proposal anchors are never re-fingerprinted"
    );
}

/// The thread's view in `s`.
fn thread(s: &Session, id: &str) -> cowriting::ThreadView {
    s.threads().into_iter().find(|v| v.thread.id == id).unwrap()
}

#[test]
fn a_thread_follows_its_rewrapped_words_flagged_until_kept_and_a_proposal_goes_stale() {
    let (doc, target) = marked("Intro line.\n\nThe writer «commented on these words» and went on.\n");
    let f = Fixture::new(&doc);
    let mut s = f.open();
    let t = s.new_thread(target, "A comment").unwrap();
    let p = s.propose(target, "other words", opts()).unwrap();
    drop(s);
    // Another program re-wraps the paragraph.
    std::fs::write(
        f.dir.path().join("d.md"),
        "Intro line.\n\nThe writer commented\n    on these\nwords and went on.\n",
    )
    .unwrap();
    let mut s = f.open();
    let v = thread(&s, &t);
    assert!(v.relocated, "{v:?}");
    assert_eq!(v.text, "commented\n    on these\nwords");
    assert_eq!(v.anchored_text, "commented on these words");
    let pv = s.proposal(&p).unwrap();
    assert_eq!(
        pv.state,
        ProposalState::Stale,
        "INV-11: a proposal's target stays exact"
    );
    assert!(s.accept(&p, None).is_err());
    // A save keeps the flag: the fingerprint is not rewritten under the writer.
    let before = f.sidecar()["anchors"].clone();
    s.save().unwrap();
    assert_eq!(f.sidecar()["anchors"], before);
    assert!(thread(&f.open(), &t).relocated);
    // Keep here: fingerprinted where it is, flag gone, for every reader.
    s.keep_thread_here(&t).unwrap();
    assert!(!thread(&s, &t).relocated);
    let sc = f.sidecar();
    let anchor = sc["threads"][0]["anchorId"].as_str().unwrap();
    assert_eq!(
        sc["anchors"][anchor]["fingerprint"]["text"],
        "commented\n    on these\nwords"
    );
    let again = thread(&f.open(), &t);
    assert!(!again.relocated && again.range.is_some());
}

#[test]
fn a_detached_thread_is_listed_unplaced_and_stays_so() {
    let (doc, target) = marked("Some «text» here.\n");
    let f = Fixture::new(&doc);
    let mut s = f.open();
    let t = s.new_thread(target, "first").unwrap();
    s.detach_thread(&t).unwrap();
    let v = thread(&s, &t);
    assert!(v.range.is_none() && v.thread.detached());
    assert_eq!(v.text, "text");
    assert_eq!(f.sidecar()["threads"][0]["detached"], true);
    let v = thread(&f.open(), &t);
    assert!(v.range.is_none(), "a detached thread is never placed again");
    assert_eq!(s.keep_thread_here(&t).unwrap_err().code(), ErrorCode::BadInput);
    assert_eq!(
        s.detach_thread("t_missing").unwrap_err().code(),
        ErrorCode::NotFound
    );
}

#[test]
fn replies_and_status_persist_immediately() {
    let (doc, target) = marked("Some «text».\n");
    let f = Fixture::new(&doc);
    let mut s = f.open();
    let t = s.new_thread(target, "first").unwrap();
    s.reply(&t, "second").unwrap();
    s.set_thread_status(&t, cowriting::model::ThreadStatus::Resolved)
        .unwrap();
    let sc = f.sidecar();
    assert_eq!(sc["threads"][0]["status"], "resolved");
    assert_eq!(sc["threads"][0]["comments"][1]["body"], "second");
    assert_eq!(sc["threads"][0]["comments"][1]["author"]["id"], "me@example.com");
    assert_eq!(s.reply("t_missing", "x").unwrap_err().code(), ErrorCode::NotFound);
}

#[test]
fn a_concurrent_writers_records_survive_our_updates() {
    let (doc, target) = marked("One «two» three.\n");
    let f = Fixture::new(&doc);
    let mut s = f.open();
    s.propose(target, "2", opts()).unwrap();
    // VS Code adds a thread (with a field we do not know) behind our back.
    let mut sc = f.sidecar();
    sc["anchors"]["a_vs"] = serde_json::json!({"fingerprint": {"text": "three", "before": "One two ", "after": ".\n", "lineHint": 0}});
    sc["threads"] = serde_json::json!([{"id": "t_vs", "anchorId": "a_vs", "status": "open", "comments": [], "x-future": {"k": 1}}]);
    std::fs::write(
        f.dir.path().join(".threads/d.md.json"),
        serde_json::to_string_pretty(&sc).unwrap(),
    )
    .unwrap();
    s.propose(CharRange::new(0, 3), "Uno", opts()).unwrap();
    let after = f.sidecar();
    assert_eq!(after["threads"][0]["id"], "t_vs");
    assert_eq!(after["threads"][0]["x-future"]["k"], 1);
    assert_eq!(after["proposals"].as_array().unwrap().len(), 2);
    // And the session sees the thread, anchored.
    let th = s.threads();
    assert_eq!(th.len(), 1);
    assert_eq!(th[0].text, "three");
}

#[test]
fn a_corrupt_sidecar_leaves_the_document_editable_and_is_never_written() {
    let f = Fixture::new("Text to edit.\n");
    std::fs::create_dir_all(f.dir.path().join(".threads")).unwrap();
    std::fs::write(f.dir.path().join(".threads/d.md.json"), "{ broken").unwrap();
    let mut s = f.open();
    let problem = s.sidecar_problem().unwrap().clone();
    assert_eq!(problem.code, ErrorCode::CorruptSidecar);
    s.replace(CharRange::new(0, 4), "More", EditKind::Other).unwrap();
    let err = s.propose(CharRange::new(0, 4), "Less", opts()).unwrap_err();
    assert_eq!(err.code(), ErrorCode::CorruptSidecar);
    let report = s.save().unwrap();
    assert_eq!(report.sidecar_skipped.unwrap().code, ErrorCode::CorruptSidecar);
    assert_eq!(f.file(), "More to edit.\n", "the document is saved");
    assert_eq!(f.sidecar_text(), "{ broken", "the sidecar is not");
    // Once someone repairs the file, review works again.
    std::fs::remove_file(f.dir.path().join(".threads/d.md.json")).unwrap();
    s.reload_sidecar().unwrap();
    assert!(s.sidecar_problem().is_none());
    s.propose(CharRange::new(0, 4), "Less", opts()).unwrap();
}

#[test]
fn undo_groups_consecutive_typing() {
    let f = Fixture::new("ab\n");
    let mut s = f.open();
    for (i, c) in ["x", "y", "z"].iter().enumerate() {
        s.replace(CharRange::point(1 + i), c, EditKind::Typing).unwrap();
    }
    s.replace(CharRange::new(0, 1), "A", EditKind::Other).unwrap();
    assert_eq!(text(&s), "Axyzb\n");
    s.undo().unwrap();
    assert_eq!(text(&s), "axyzb\n");
    s.undo().unwrap();
    assert_eq!(text(&s), "ab\n", "three keystrokes are one undo step");
    assert!(s.undo().unwrap().is_none());
    s.redo().unwrap();
    assert_eq!(text(&s), "axyzb\n");
    assert_eq!(spans(&s), vec![("xyz".into(), "me@example.com".into())]);
}

#[test]
fn accept_with_changes_attributes_changed_words_to_the_human() {
    let (doc, target) = marked("We «walked to the old mill» today.\n");
    let f = Fixture::new(&doc);
    let mut s = f.open();
    let id = s.propose(target, "strolled to the ancient mill", opts()).unwrap();
    s.accept(&id, Some("strolled to the crumbling mill")).unwrap();
    assert_eq!(text(&s), "We strolled to the crumbling mill today.\n");
    assert_eq!(
        spans(&s),
        vec![
            ("strolled".into(), "claude".into()),
            ("crumbling".into(), "me@example.com".into())
        ]
    );
}

#[test]
fn accepting_all_of_a_turn_is_one_undo_step() {
    let f = Fixture::new("one two three four\n");
    let mut s = f.open();
    let a = s.propose(CharRange::new(0, 3), "ONE", opts()).unwrap();
    let b = s.propose(CharRange::new(8, 13), "THREE", opts()).unwrap();
    let c = s.propose(CharRange::new(14, 18), "FOUR", opts()).unwrap();
    s.accept_all(&[a.clone(), b.clone()]).unwrap();
    assert_eq!(text(&s), "ONE two THREE four\n");
    assert_eq!(s.proposals().len(), 1, "only the third is left");
    s.undo().unwrap();
    assert_eq!(text(&s), "one two three four\n", "one undo restores both");
    assert_eq!(s.proposals().len(), 3);
    s.reject_all(&[a, b, c]).unwrap();
    assert!(s.proposals().is_empty());
    assert_eq!(text(&s), "one two three four\n");
    s.undo().unwrap();
    assert_eq!(
        s.proposals().len(),
        3,
        "one undo brings every rejected proposal back"
    );
    assert!(f.sidecar()["proposals"].as_array().unwrap().len() == 3);
}

#[test]
fn a_batch_saved_at_once_skips_what_turned_stale_and_applies_each_id_once() {
    let f = Fixture::new("cat and cat, one two three\n");
    let mut s = f.open();
    let cat = s.propose(CharRange::new(0, 3), "dog", opts()).unwrap();
    let one_two = s.propose(CharRange::new(13, 20), "1 2", opts()).unwrap();
    let two_three = s.propose(CharRange::new(17, 26), "2 3", opts()).unwrap();
    let ids = [cat.clone(), cat.clone(), one_two.clone(), two_three.clone()];
    let done = s.accept_batch_and_save(&ids).unwrap();
    assert_eq!(
        f.file(),
        "dog and cat, 1 2 three\n",
        "saved; the repeated id applied once"
    );
    assert_eq!(done.skipped.len(), 1, "{:?}", done.skipped);
    assert_eq!(done.skipped[0].0, two_three, "made stale by the accept before it");
    assert!(!s.is_dirty());
    let left: Vec<String> = s.proposals().into_iter().map(|v| v.proposal.id).collect();
    assert_eq!(left, vec![two_three]);
    s.undo().unwrap();
    assert_eq!(text(&s), "cat and cat, one two three\n", "one undo step");
}

#[test]
fn a_turn_is_accepted_or_rejected_whole_and_only_its_own_proposals() {
    let f = Fixture::new("one two three four\n");
    let mut s = f.open();
    let other = ProposeOptions {
        turn_id: Some("turn-2".into()),
        ..opts()
    };
    s.propose(CharRange::new(0, 3), "ONE", opts()).unwrap();
    s.propose(CharRange::new(8, 13), "THREE", opts()).unwrap();
    let c = s.propose(CharRange::new(14, 18), "FOUR", other).unwrap();
    assert_eq!(s.turn_proposals("turn-1", true).len(), 2);
    s.accept_turn("turn-1").unwrap();
    assert_eq!(text(&s), "ONE two THREE four\n");
    assert_eq!(s.turn_proposals("turn-1", false), Vec::<String>::new());
    let e = s.accept_turn("turn-1").unwrap_err();
    assert_eq!(e.code(), ErrorCode::BadInput, "{e}");
    assert!(e.to_string().contains("d.md"), "names the document: {e}");
    s.undo().unwrap();
    assert_eq!(text(&s), "one two three four\n", "one undo step");
    assert_eq!(s.turn_proposals("turn-1", true).len(), 2);
    s.reject_turn("turn-2").unwrap();
    assert_eq!(s.turn_proposals("turn-2", false), Vec::<String>::new());
    assert!(s.proposals().iter().all(|v| v.proposal.id != c));
    assert_eq!(s.proposals().len(), 2, "turn-1's are still pending");
    assert_eq!(
        s.reject_turn("no-such-turn").unwrap_err().code(),
        ErrorCode::BadInput
    );
    assert_eq!(s.accept_all(&[]).unwrap_err().code(), ErrorCode::BadInput);
    assert_eq!(s.reject_all(&[]).unwrap_err().code(), ErrorCode::BadInput);
}

#[test]
fn one_resolver_names_the_same_text_by_words_bytes_and_utf16() {
    use cowriting::{ByteRange, Target, Utf16Offset};
    let f = Fixture::new("café 😀 café 😀 end");
    let s = f.open();
    let second = s
        .resolve_target(Target::Text {
            text: "café 😀",
            occurrence: Some(2),
        })
        .unwrap();
    assert_eq!(second, CharRange::new(7, 13));
    // "café 😀 " is 11 bytes and 8 UTF-16 units, "café 😀" 10 and 7 (é is 2 bytes, 1 unit; 😀 4 bytes, 2 units).
    let by_bytes = s.resolve_target(Target::Bytes(ByteRange::new(11, 21))).unwrap();
    let by_utf16 = s
        .resolve_target(Target::Utf16 {
            from: Utf16Offset(8),
            to: Utf16Offset(15),
        })
        .unwrap();
    assert_eq!((by_bytes, by_utf16), (second, second));
    // One set of refusals, each naming the document, all bad input.
    let refused = [
        s.resolve_target(Target::Text {
            text: "café",
            occurrence: None,
        }),
        s.resolve_target(Target::Text {
            text: "café",
            occurrence: Some(3),
        }),
        s.resolve_target(Target::Text {
            text: "absent",
            occurrence: None,
        }),
        s.resolve_target(Target::Bytes(ByteRange::new(4, 2))),
        s.resolve_target(Target::Bytes(ByteRange::new(4, 5))), // inside é
        s.resolve_target(Target::Utf16 {
            from: Utf16Offset(6),
            to: Utf16Offset(8),
        }), // inside 😀
        s.resolve_target(Target::Utf16 {
            from: Utf16Offset(9),
            to: Utf16Offset(3),
        }),
        s.resolve_target(Target::Utf16 {
            from: Utf16Offset(0),
            to: Utf16Offset(99),
        }),
    ];
    for r in refused {
        let e = r.unwrap_err();
        assert_eq!(e.code(), ErrorCode::BadInput, "{e}");
        assert!(e.to_string().contains("d.md"), "{e}");
    }
}

#[test]
fn on_a_bom_file_text_bytes_and_file_bytes_are_three_apart_and_never_mixed() {
    use cowriting::{ByteRange, FileByteRange, Target};
    let f = Fixture::new("\u{feff}café end");
    let s = f.open();
    let end = s.find("end", None).unwrap();
    // The CLI's and MCP's bytes are the text's; the contract's are the file's.
    let text = s.resolve_target(Target::Bytes(ByteRange::new(6, 9))).unwrap();
    assert_eq!(text, end);
    let file = s.file_range_of(end);
    assert_eq!(file, FileByteRange::new(9, 12));
    assert_eq!(&s.contract_bytes()[9..12], b"end");
    assert_eq!(s.char_range_of(file).unwrap(), end);
    // A file span inside the BOM is not in the text.
    assert!(s.char_range_of(FileByteRange::new(1, 4)).is_err());
}
