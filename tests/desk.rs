//! The desk the app holds (`cowriting::desk::Desk`), driven without a window:
//! producer jobs prepared under its lock, run off it and filed in the open
//! session (the job then forgotten); Check document with its progress and
//! outcomes (a failure not stopping the next; nothing enabled, no outcomes);
//! cancel by the UI's job id (nothing filed, the rest unrun); a job whose
//! document changed while it ran filing nothing and saying so; every call
//! without a workspace open saying so; a search handing each document's finds
//! over as it goes (adding up to the answer, the open document as the writer
//! has it) and stopped by its job id. The producers are the contract
//! fixture (`tests/fixtures/producers/external/producer.py`: "the" for every
//! "teh"), behind a script that waits when a test needs the run to last.

mod common;

use common::Ws;
use cowriting::api::TextChange;
use cowriting::config::Config;
use cowriting::desk::Desk;
use cowriting::suggest::CheckOutcome;
use cowriting::{ErrorCode, Utf16Offset};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const PRODUCER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/producers/external/producer.py"
);

const DOC: &str = "One teh two teh three teh.\n";

/// A program that waits until `flag` exists, then runs the fixture producer.
fn waiting_producer(dir: &Path, flag: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join("waiting-producer");
    std::fs::write(
        &script,
        format!("#!/bin/sh\nwhile [ ! -e {flag:?} ]; do sleep 0.02; done\nexec {PRODUCER:?} good\n",),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// A desk on a new workspace holding `d.md`, open, with these settings.
fn desk(ws: &Ws, config: &str) -> Desk {
    ws.write("d.md", DOC);
    let cfg = Config::parse(config).unwrap();
    let desk = Desk::with_config(move || Ok(cfg.clone()));
    desk.open(ws.path()).unwrap();
    desk.with(|a| a.open_document("d.md")).unwrap();
    desk
}

fn external(name: &str, command: &Path, args: &str) -> String {
    format!(
        "[external.{name}]\ncommand = {:?}\nargs = [{args}]\n",
        command.display().to_string()
    )
}

fn pending(desk: &Desk) -> usize {
    desk.with(|a| a.review("d.md")).unwrap().proposals.len()
}

fn wait_running(desk: &Desk, job: &str) {
    let start = Instant::now();
    while !desk.is_running(job) {
        assert!(start.elapsed() < Duration::from_secs(20), "{job} never started");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_producer_run_files_in_the_open_session_and_forgets_its_job() {
    let ws = Ws::new();
    let desk = desk(&ws, &external("thefix", Path::new(PRODUCER), "\"good\""));
    let filing = desk
        .run_producer("d.md", "thefix", None, None, None, "job-1")
        .unwrap();
    assert_eq!(filing.producer, "thefix");
    assert_eq!(filing.filed, 3);
    assert_eq!(filing.review.proposals.len(), 3);
    assert_eq!(pending(&desk), 3);
    assert!(!desk.is_running("job-1"));
    // An unknown producer, or a document not open, is refused before anything runs.
    let e = desk
        .run_producer("d.md", "nonesuch", None, None, None, "job-2")
        .unwrap_err();
    assert_eq!(e.info().code, ErrorCode::BadInput, "{e}");
    let e = desk
        .run_producer("other.md", "thefix", None, None, None, "job-3")
        .unwrap_err();
    assert!(e.to_string().contains("other.md"), "{e}");
    assert!(!desk.is_running("job-3"), "a refused job is forgotten too");
}

#[test]
fn check_document_runs_each_enabled_producer_telling_progress_and_a_failure_does_not_stop_it() {
    let ws = Ws::new();
    let config = format!(
        "[producers]\nenabled = [\"vale\", \"thefix\"]\n\n[vale]\ncommand = \"/nonexistent/cowriting-test/vale\"\n\n{}",
        external("thefix", Path::new(PRODUCER), "\"good\"")
    );
    let desk = desk(&ws, &config);
    let mut progress = Vec::new();
    let outcomes = desk
        .check_document("d.md", "check-1", &mut |p| {
            progress.push((p.job, p.producer));
        })
        .unwrap();
    assert_eq!(
        progress,
        [
            ("check-1".into(), "vale".into()),
            ("check-1".into(), "thefix".into())
        ],
        "progress names each producer as it starts"
    );
    assert_eq!(outcomes.len(), 2);
    assert!(
        matches!(&outcomes[0], CheckOutcome::Failed { producer, error } if producer == "vale" && error.code == ErrorCode::NotInstalled),
        "{:?}",
        serde_json::to_value(&outcomes).unwrap()
    );
    assert!(matches!(&outcomes[1], CheckOutcome::Filed { filing, .. } if filing.filed == 3));
    assert_eq!(pending(&desk), 3);
    assert!(!desk.is_running("check-1"));
}

#[test]
fn check_document_with_nothing_enabled_answers_no_outcomes() {
    let ws = Ws::new();
    let desk = desk(&ws, "[producers]\nenabled = []\n");
    let mut told = 0;
    let outcomes = desk.check_document("d.md", "check", &mut |_| told += 1).unwrap();
    assert!(outcomes.is_empty());
    assert_eq!(told, 0);
}

#[test]
fn cancel_stops_the_running_producer_files_nothing_and_leaves_the_rest_unrun() {
    let ws = Ws::new();
    let config = format!(
        "[producers]\nenabled = [\"slow\", \"thefix\"]\n\n{}\n{}",
        external("slow", Path::new(PRODUCER), "\"sleep\""),
        external("thefix", Path::new(PRODUCER), "\"good\"")
    );
    let desk = desk(&ws, &config);
    let started = Instant::now();
    let outcomes = std::thread::scope(|scope| {
        let check = scope.spawn(|| desk.check_document("d.md", "check-2", &mut |_| {}));
        wait_running(&desk, "check-2");
        // The fixture sleeps 30 s: give it time to start, then cancel.
        std::thread::sleep(Duration::from_millis(300));
        desk.cancel_job("check-2");
        check.join().unwrap().unwrap()
    });
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "the cancel stopped the run"
    );
    assert!(
        matches!(&outcomes[0], CheckOutcome::Failed { producer, error } if producer == "slow" && error.code == ErrorCode::Cancelled),
        "{:?}",
        serde_json::to_value(&outcomes).unwrap()
    );
    assert!(matches!(&outcomes[1], CheckOutcome::NotRun { producer, .. } if producer == "thefix"));
    assert_eq!(pending(&desk), 0, "nothing filed");
    assert!(!desk.is_running("check-2"));
    // A cancel for a job that is not running does nothing.
    desk.cancel_job("check-2");
    assert_eq!(
        desk.run_producer("d.md", "thefix", None, None, None, "check-2")
            .unwrap()
            .filed,
        3,
        "a later job of the same id is not cancelled"
    );
}

#[test]
fn a_job_whose_document_changed_while_it_ran_files_nothing_and_says_so() {
    let ws = Ws::new();
    let flag = ws.home().join("go");
    let program = waiting_producer(ws.home(), &flag);
    let desk = desk(&ws, &external("thefix", &program, ""));
    let out = std::thread::scope(|scope| {
        let run = scope.spawn(|| desk.run_producer("d.md", "thefix", None, None, None, "job"));
        wait_running(&desk, "job");
        // The writer types while the producer reads its copy.
        desk.with(|a| {
            let version = a.open_document("d.md")?.version;
            a.edit(
                "d.md",
                version,
                &[TextChange {
                    from: Utf16Offset(0),
                    to: Utf16Offset(0),
                    insert: "Now. ".into(),
                }],
                true,
            )
        })
        .unwrap();
        std::fs::write(&flag, "").unwrap();
        run.join().unwrap()
    });
    let e = out.unwrap_err();
    assert_eq!(e.info().code, ErrorCode::Producer, "{e}");
    assert!(e.to_string().contains("changed while thefix ran"), "{e}");
    assert_eq!(pending(&desk), 0, "nothing filed on a text it was not run on");
    let text = desk.with(|a| Ok(a.text_of("d.md"))).unwrap();
    assert_eq!(text, format!("Now. {DOC}"), "the writer's typing stays");
}

/// The Search tab's search: the finds handed over as documents are searched,
/// in the answer's order, adding up to the answer (the open document as the
/// writer has it, unsaved text included). Said for every document when told
/// to say as often as it can (how far it got, finds or not); said twice when
/// told to say rarely (the first find at once, the rest before the answer).
/// Cancelled by its job id, it stops at the next document, hands nothing
/// more over and forgets the id.
#[test]
fn a_search_hands_over_its_finds_as_it_goes_and_stops_when_cancelled() {
    use cowriting::ops::SearchQuery;
    use std::time::Duration;
    let ws = Ws::new();
    let desk = desk(&ws, "");
    let many = 270;
    for i in 0..many {
        let text = if i % 50 == 0 { "a needle here\n" } else { "hay\n" };
        ws.write(&format!("p/{i:04}.md"), text);
    }
    // Unsaved text of the open document is searched as the writer has it.
    desk.with(|a| {
        let v = a.open_document("d.md")?;
        let insert = "needle typed ".to_owned();
        a.edit(
            "d.md",
            v.version,
            &[TextChange {
                from: Utf16Offset(0),
                to: Utf16Offset(0),
                insert,
            }],
            true,
        )
    })
    .unwrap();
    let q = SearchQuery::literal("needle");
    let hits_of = |told: &[cowriting::api::SearchProgress]| -> Vec<String> {
        told.iter()
            .flat_map(|p| p.hits.iter().map(|h| format!("{}:{}", h.document, h.from)))
            .collect()
    };
    for (every, said) in [
        (Duration::ZERO, "each document"),
        (Duration::from_secs(3600), "rarely"),
    ] {
        let mut told = Vec::new();
        let out = desk
            .search_streamed(&q, "s1", every, &mut |p| told.push(p))
            .unwrap();
        let answered: Vec<String> = out
            .hits
            .iter()
            .map(|h| format!("{}:{}", h.document, h.from))
            .collect();
        assert_eq!(
            hits_of(&told),
            answered,
            "{said}: the finds handed over are the answer's, in its order"
        );
        assert_eq!(out.hits.len(), usize::div_ceil(many, 50) + 1, "{answered:?}");
        assert!(
            answered.contains(&"d.md:0".to_owned()),
            "the unsaved text: {answered:?}"
        );
        assert!(told.iter().all(|p| p.job == "s1"));
        let counts: Vec<u32> = told.iter().map(|p| p.searched).collect();
        assert!(counts.windows(2).all(|w| w[0] < w[1]), "{said}: {counts:?}");
        if every.is_zero() {
            assert_eq!(told.len(), many + 1, "said for every document");
            assert!(
                told.iter().any(|p| p.hits.is_empty() && p.searched > 1),
                "a document with nothing found still says how far it got"
            );
        } else {
            assert_eq!(
                told.len(),
                2,
                "the first find at once, the rest at the end: {counts:?}"
            );
            assert_eq!(told[0].hits.len(), 1, "the first find alone");
        }
        assert!(!desk.is_running("s1"), "the job forgotten once answered");
    }
    // Cancelled after its first find: the search stops there.
    let mut first = 0;
    let out = desk
        .search_streamed(&q, "s2", Duration::ZERO, &mut |p| {
            if !p.hits.is_empty() {
                first += 1;
                desk.cancel_job("s2");
            }
        })
        .unwrap();
    assert_eq!(first, 1, "nothing handed over after the cancel");
    // The answer is what was searched before it stopped: the document the
    // cancel found still counts, none after it.
    assert!(out.hits.len() <= 2, "{} hits: the search went on", out.hits.len());
    assert!(!desk.is_running("s2"));
}

#[test]
fn without_a_workspace_every_call_says_so() {
    let desk = Desk::with_config(|| Ok(Config::default()));
    for e in [
        desk.with(|a| Ok(a.workspace())).map(|_| ()).unwrap_err(),
        desk.run_producer("d.md", "harper", None, None, None, "j")
            .map(|_| ())
            .unwrap_err(),
        desk.inbox().map(|_| ()).unwrap_err(),
    ] {
        assert_eq!(e.info().code, ErrorCode::BadInput);
        assert_eq!(e.info().message, "no workspace is open");
    }
}
