//! The conflict banner's Compare & merge through the app's API: the writer's
//! unsaved text and another program's change on disk merged by sentence, the
//! writer's choice per hunk applied as the writer's own edit (proposals,
//! threads and attribution follow it; one undo step), the buffer then based on
//! the file merged with (no conflict at the next save, which writes the merge);
//! and a file that changes again while the writer chooses is never merged stale.

use cowriting::api::{Api, MergeOutcome, MergePart, MergeView, TextChange, BACKUP_DIR_ENV};
use cowriting::merge::{Choice, HunkKind};
use cowriting::model::{AgentInfo, Provenance};
use cowriting::{DocPath, ErrorCode, ProposalState, ProposeOptions, Session, Utf16Offset};
use std::path::Path;

const BASE: &str = "Opening stays here. Second is plain. The cat sat on the mat. Middle one is here.\n\n\
                    A second paragraph begins here. It ends here.\n";

/// A workspace holding `d.md` (BASE) with a pending proposal on "Middle one",
/// open in the app's API with a thread on "second paragraph".
fn setup() -> (tempfile::TempDir, tempfile::TempDir, Api, String) {
    let dir = tempfile::tempdir().unwrap();
    let backups = tempfile::tempdir().unwrap();
    std::env::set_var(BACKUP_DIR_ENV, backups.path());
    std::fs::write(dir.path().join("d.md"), BASE).unwrap();
    let mut api = Api::open(dir.path()).unwrap();
    let claude = Provenance::agent("claude", AgentInfo::default());
    let mut agent = Session::open(
        api.store().clone(),
        DocPath::parse("d.md").unwrap(),
        claude.clone(),
    )
    .unwrap();
    let at = BASE.find("Middle one").unwrap();
    let proposal = agent
        .propose(
            cowriting::CharRange::new(at, at + "Middle one".len()),
            "Centre one",
            ProposeOptions {
                author: claude,
                turn_id: None,
                instruction: None,
            },
        )
        .unwrap();
    api.open_document("d.md").unwrap();
    let at = BASE.find("second paragraph").unwrap();
    api.new_thread(
        "d.md",
        Utf16Offset(at),
        Utf16Offset(at + "second paragraph".len()),
        "Is this one needed?",
    )
    .unwrap();
    (dir, backups, api, proposal)
}

/// Replace `old` (once) with `new` in the buffer, as the editor would send it.
fn type_over(api: &mut Api, old: &str, new: &str) {
    let v = api.open_document("d.md").unwrap();
    let at = api.text_of("d.md").find(old).unwrap();
    api.edit(
        "d.md",
        v.version,
        &[TextChange {
            from: Utf16Offset(at),
            to: Utf16Offset(at + old.len()),
            insert: new.into(),
        }],
        true,
    )
    .unwrap();
}

fn text(api: &mut Api) -> String {
    api.text_of("d.md")
}

/// The hunks of a merge view: (side, mine, theirs).
fn hunks(m: &MergeView) -> Vec<(HunkKind, String, String)> {
    m.parts
        .iter()
        .filter_map(|p| match p {
            MergePart::Hunk {
                side, mine, theirs, ..
            } => Some((*side, mine.clone(), theirs.clone())),
            MergePart::Same { .. } => None,
        })
        .collect()
}

fn disk_write(dir: &Path, api: &mut Api, text: &str) -> Vec<cowriting::api::Notice> {
    std::fs::write(dir.join("d.md"), text).unwrap();
    let root = api.root().to_path_buf();
    api.file_changed(&root.join("d.md"))
}

#[test]
fn a_merge_takes_each_side_per_hunk_as_the_writers_edit_and_the_next_save_writes_it() {
    let (dir, _backups, mut api, proposal) = setup();
    type_over(&mut api, "The cat sat", "The black cat sat");
    type_over(&mut api, "It ends here.", "It ends here, for now.");
    let mine = text(&mut api);
    let theirs = BASE
        .replace("Opening stays", "Opening changed")
        .replace("The cat sat", "The cat lay")
        .replace("It ends here.", "It stops here.");
    assert_eq!(
        disk_write(dir.path(), &mut api, &theirs),
        vec![cowriting::api::Notice::Conflict { path: "d.md".into() }]
    );

    let view = api.merge_view("d.md").unwrap();
    assert_eq!(
        hunks(&view),
        vec![
            (
                HunkKind::Theirs,
                "Opening stays here. ".into(),
                "Opening changed here. ".into()
            ),
            (
                HunkKind::Conflict,
                "The black cat sat on the mat. ".into(),
                "The cat lay on the mat. ".into()
            ),
            (
                HunkKind::Conflict,
                "It ends here, for now.\n".into(),
                "It stops here.\n".into()
            ),
        ]
    );
    // Each side's words against the base, for the writer to see what changed.
    let MergePart::Hunk { mine_diff, .. } = view
        .parts
        .iter()
        .find(|p| {
            matches!(
                p,
                MergePart::Hunk {
                    side: HunkKind::Conflict,
                    ..
                }
            )
        })
        .unwrap()
    else {
        unreachable!()
    };
    assert!(mine_diff.iter().any(|d| d.text == "black "), "{mine_diff:?}");

    // Theirs' opening (automatic), my cat, their ending.
    let out = api
        .apply_merge(
            "d.md",
            &view.token,
            &[None, Some(Choice::Mine), Some(Choice::Theirs)],
        )
        .unwrap();
    let MergeOutcome::Applied { applied } = out else {
        panic!("not applied: {out:?}")
    };
    let merged =
        "Opening changed here. Second is plain. The black cat sat on the mat. Middle one is here.\n\n\
                  A second paragraph begins here. It stops here.\n";
    assert_eq!(text(&mut api), merged);
    assert!(applied.dirty, "merged, not saved");
    // The UI applies `changes` to the text it shows (mine) and gets the merge.
    let mut shown = mine.clone();
    for c in applied.changes.iter().rev() {
        shown.replace_range(c.from.0..c.to.0, &c.insert);
    }
    assert_eq!(shown, merged);

    // The proposal and the thread followed their text through the merge.
    let review = api.review("d.md").unwrap();
    let p = review.proposals.iter().find(|p| p.id == proposal).unwrap();
    assert_eq!(p.state, ProposalState::Pending);
    assert_eq!(
        &merged[p.from.unwrap() as usize..p.to.unwrap() as usize],
        "Middle one"
    );
    let t = &review.threads[0];
    assert_eq!(
        &merged[t.from.unwrap() as usize..t.to.unwrap() as usize],
        "second paragraph"
    );
    // The words the merge brought in are the writer's edit ("changed" from theirs included).
    assert!(
        review
            .spans
            .iter()
            .any(|s| s.text.contains("changed") && s.author.kind == cowriting::model::AuthorKind::Human),
        "{:?}",
        review.spans
    );

    // One undo step: undo gives mine back, redo the merge.
    api.undo("d.md").unwrap();
    assert_eq!(text(&mut api), mine);
    api.redo("d.md").unwrap();
    assert_eq!(text(&mut api), merged);

    // Based on theirs now: the file is no conflict, and even autosave (which
    // never writes over a change on disk) writes the merge, byte for byte.
    let root = api.root().to_path_buf();
    assert!(
        api.file_changed(&root.join("d.md")).is_empty(),
        "no conflict left"
    );
    let saved = api.autosave("d.md").unwrap();
    assert!(!saved.conflict && !saved.dirty);
    assert_eq!(std::fs::read_to_string(dir.path().join("d.md")).unwrap(), merged);
    let sidecar = std::fs::read_to_string(dir.path().join(".threads/d.md.json")).unwrap();
    assert!(sidecar.contains(&proposal) && sidecar.contains("Is this one needed?"));
}

#[test]
fn a_file_that_changes_again_while_the_writer_chooses_is_never_merged_stale() {
    let (dir, _backups, mut api, _) = setup();
    type_over(&mut api, "The cat sat", "The black cat sat");
    let mine = text(&mut api);
    let first = BASE.replace("The cat sat", "The cat lay");
    disk_write(dir.path(), &mut api, &first);
    let view = api.merge_view("d.md").unwrap();
    assert_eq!(hunks(&view).len(), 1);

    // Another writer changes the file again before the writer applies.
    let second = first.replace("Opening stays", "Opening moved");
    assert_eq!(
        disk_write(dir.path(), &mut api, &second),
        vec![cowriting::api::Notice::Conflict { path: "d.md".into() }]
    );
    let out = api
        .apply_merge("d.md", &view.token, &[Some(Choice::Theirs)])
        .unwrap();
    let MergeOutcome::Changed { merge } = out else {
        panic!("applied on a stale file: {out:?}")
    };
    assert_eq!(text(&mut api), mine, "nothing applied");
    assert_ne!(merge.token, view.token);
    assert_eq!(
        hunks(&merge)[0],
        (
            HunkKind::Theirs,
            "Opening stays here. ".into(),
            "Opening moved here. ".into()
        )
    );

    // The buffer changing since the view is refused the same way.
    type_over(&mut api, "It ends here.", "It ends here, for now.");
    let out = api
        .apply_merge("d.md", &merge.token, &[None, Some(Choice::Theirs)])
        .unwrap();
    let MergeOutcome::Changed { merge } = out else {
        panic!("applied over a changed buffer: {out:?}")
    };
    assert!(text(&mut api).contains("for now"));

    // Choices that do not fit the merge are refused, naming the problem.
    let e = api.apply_merge("d.md", &merge.token, &[None]).unwrap_err();
    assert_eq!(e.code(), ErrorCode::BadInput, "{e}");
    let e = api
        .apply_merge("d.md", &merge.token, &[None, None, None])
        .unwrap_err();
    assert_eq!(e.code(), ErrorCode::BadInput, "{e}");
    assert!(e.to_string().contains("both sides"), "{e}");

    // On the merge as it is now, the choice applies.
    let MergeOutcome::Applied { .. } = api
        .apply_merge("d.md", &merge.token, &[None, Some(Choice::Both), None])
        .unwrap()
    else {
        panic!("not applied")
    };
    assert_eq!(
        text(&mut api),
        BASE.replace("Opening stays", "Opening moved")
            .replace("It ends here.", "It ends here, for now.")
            .replace(
                "The cat sat on the mat. ",
                "The black cat sat on the mat. The cat lay on the mat. "
            )
    );
}

#[test]
fn after_a_crash_over_a_changed_file_the_base_is_unknown_and_every_difference_is_the_writers_choice() {
    let (dir, _backups, mut api, _) = setup();
    type_over(&mut api, "The cat sat", "The black cat sat");
    let mine = text(&mut api);
    // The backup is journaled; the app dies; another writer changes the file.
    assert!(cowriting::api::write_backups(&api.backups_due()).is_empty());
    drop(api);
    let theirs = BASE.replace("Opening stays", "Opening moved");
    std::fs::write(dir.path().join("d.md"), &theirs).unwrap();

    let mut api = Api::open(dir.path()).unwrap();
    let report = api.restore_backups();
    assert!(
        report.restored.iter().any(|r| r.path == "d.md" && r.file_changed),
        "{report:?}"
    );
    assert_eq!(text(&mut api), mine);
    let view = api.merge_view("d.md").unwrap();
    // Not "changed only in your version" against the file as the base: both are choices.
    assert!(!view.base_known);
    assert_eq!(
        hunks(&view),
        vec![
            (
                HunkKind::Conflict,
                "Opening stays here. ".into(),
                "Opening moved here. ".into()
            ),
            (
                HunkKind::Conflict,
                "The black cat sat on the mat. ".into(),
                "The cat sat on the mat. ".into()
            ),
        ]
    );
    let MergeOutcome::Applied { .. } = api
        .apply_merge("d.md", &view.token, &[Some(Choice::Theirs), Some(Choice::Mine)])
        .unwrap()
    else {
        panic!("not applied")
    };
    assert_eq!(text(&mut api), theirs.replace("The cat sat", "The black cat sat"));
    // Based on the file now: a merge again would be a three-way one with nothing left to choose.
    let again = api.merge_view("d.md").unwrap();
    assert!(again.base_known);
    assert!(hunks(&again).iter().all(|h| h.0 == HunkKind::Mine));
}
