//! Harper on real prose with multi-byte characters (`--features harper`).
#![cfg(feature = "harper")]

mod common;

use std::time::Instant;

use cowriting::contract::{to_json, verify, Revision};
use cowriting::producers::harper_rules::HarperSetup;
use cowriting::producers::{harper, Request};

const PROSE: &str = "# Notes\n\nCafé owners in Zürich recieve teh best résumés. 日本 is nice.\n\nIt is a   emoji 🎉 test, and and it works.\n";

fn request(bytes: &[u8]) -> Request<'_> {
    Request {
        doc_id: "notes/zürich.md",
        bytes,
        selection: None,
        instruction: None,
    }
}

#[test]
fn harper_suggestions_sit_on_exact_byte_spans() {
    let bytes = PROSE.as_bytes();
    let t0 = Instant::now();
    let first = harper::check(&request(bytes)).unwrap();
    let cold = t0.elapsed();
    let t1 = Instant::now();
    let second = harper::check(&request(bytes)).unwrap();
    let warm = t1.elapsed();
    // Reported, not asserted: timings are the machine's business.
    eprintln!("harper first check (dictionary + linter load): {cold:?}; second: {warm:?}");

    assert!(!first.suggestions.is_empty());
    for s in &first.suggestions {
        let (a, b) = (s.span.start.0, s.span.end.0);
        assert!(PROSE.is_char_boundary(a) && PROSE.is_char_boundary(b), "{s:?}");
        assert_eq!(&PROSE[a..b], s.text, "{s:?}");
        assert_ne!(s.text, s.replacement);
        verify(s, &Revision::of(bytes)).unwrap();
        assert_eq!(s.producer.id, "harper");
        assert_eq!(s.producer.version, harper::version());
        assert!(s.producer.provenance.starts_with("rule:"), "{s:?}");
        assert!(!s.category.is_empty() && s.category == s.category.to_lowercase());
        assert!(!s.reason.is_empty());
    }
    // Harper's overlapping lints are reduced to one.
    for pair in first.suggestions.windows(2) {
        assert!(pair[0].span.end <= pair[1].span.start, "{pair:#?}");
    }
    let find = |word: &str| {
        first
            .suggestions
            .iter()
            .find(|s| s.text == word)
            .unwrap_or_else(|| panic!("no suggestion on {word:?}: {:#?}", first.suggestions))
    };
    let recieve = find("recieve");
    assert_eq!(recieve.replacement, "receive");
    assert_eq!(recieve.category, "spelling");
    // After "Café" and "Zürich", byte and char offsets differ by two.
    let at = PROSE.find("recieve").unwrap();
    assert_eq!((recieve.span.start.0, recieve.span.end.0), (at, at + 7));
    assert_ne!(at, PROSE[..at].chars().count());
    let teh = find("teh");
    assert_eq!(teh.replacement, "the");
    // Accented words Harper knows are not flagged (it does suggest "Zurich").
    for word in ["Café", "résumés"] {
        assert!(
            first.suggestions.iter().all(|s| s.text != word),
            "{word} flagged: {:#?}",
            first.suggestions
        );
    }
    // Deterministic: byte-identical output on a second run.
    assert_eq!(to_json(&first.suggestions), to_json(&second.suggestions));
    assert_eq!(first.skipped, second.skipped);
}

// ---- Harper in a checker process (what the app does) ------------------------------------

use cowriting::producers::checker::{Checker, Spec};
use cowriting::producers::Cancel;
use cowriting::ErrorCode;
use std::sync::Arc;
use std::time::Duration;

/// A checker whose process is this build's CLI (`cowriting harper-checker`).
fn checker(idle: Duration) -> Arc<Checker> {
    Checker::new(Spec {
        program: env!("CARGO_BIN_EXE_cowriting").into(),
        args: vec!["harper-checker".into()],
        idle,
    })
    .unwrap()
}

fn alive(pid: u32) -> bool {
    // A reaped child has no /proc entry; a zombie would say "State: Z".
    std::fs::read_to_string(format!("/proc/{pid}/status")).is_ok_and(|s| !s.contains("State:\tZ"))
}

/// Wait (bounded generously: a loaded machine) until `f` holds.
fn until(what: &str, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Prose long enough that Harper takes a while on it.
fn long_prose() -> String {
    PROSE.repeat(4000)
}

#[test]
fn the_checker_process_answers_as_harper_in_process_does() {
    let bytes = PROSE.as_bytes();
    let c = checker(Duration::from_secs(600));
    assert_eq!(c.pid(), None, "no process before it is needed");
    let there = c
        .check(&request(bytes), &HarperSetup::default(), &Cancel::new())
        .unwrap();
    let here = harper::check(&request(bytes)).unwrap();
    assert_eq!(to_json(&there.suggestions), to_json(&here.suggestions));
    assert_eq!(there.skipped, here.skipped);
    assert_eq!(there.producer, here.producer);
    // One process serves check after check.
    let pid = c.pid().expect("running");
    let again = c
        .check(
            &request(b"No mistakes here.\n"),
            &HarperSetup::default(),
            &Cancel::new(),
        )
        .unwrap();
    assert!(again.suggestions.is_empty(), "{:#?}", again.suggestions);
    assert_eq!(c.pid(), Some(pid));
    drop(c);
    assert!(!alive(pid), "a dropped checker ends its process");
}

#[test]
fn an_idle_checker_process_exits_and_the_next_check_starts_another() {
    let c = checker(Duration::from_millis(500));
    c.start();
    let first = c.pid().expect("started");
    until("the idle checker to exit", || c.pid().is_none());
    until("its process to be gone", || !alive(first));
    let run = c
        .check(
            &request(PROSE.as_bytes()),
            &HarperSetup::default(),
            &Cancel::new(),
        )
        .unwrap();
    assert!(!run.suggestions.is_empty(), "a new process served the check");
}

#[test]
fn a_checker_process_killed_mid_check_fails_that_check_only() {
    let c = checker(Duration::from_secs(600));
    c.start();
    let pid = c.pid().expect("started");
    let text = long_prose();
    let run = std::thread::scope(|s| {
        let checking =
            s.spawn(|| c.check(&request(text.as_bytes()), &HarperSetup::default(), &Cancel::new()));
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            !checking.is_finished(),
            "the check of {} bytes took under 300 ms",
            text.len()
        );
        let killed = std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        checking.join().unwrap()
    });
    let e = run.unwrap_err();
    assert_eq!(e.code(), ErrorCode::Producer, "{e}");
    assert!(e.to_string().contains("stopped"), "{e}");
    assert!(e.to_string().contains("nothing was filed"), "{e}");
    // The next check starts a new process.
    let run = c
        .check(
            &request(PROSE.as_bytes()),
            &HarperSetup::default(),
            &Cancel::new(),
        )
        .unwrap();
    assert!(!run.suggestions.is_empty());
    assert_ne!(c.pid(), Some(pid));
}

#[test]
fn cancelling_a_check_kills_the_checker_process() {
    let c = checker(Duration::from_secs(600));
    c.start();
    let pid = c.pid().expect("started");
    let text = long_prose();
    let cancel = Cancel::new();
    let run = std::thread::scope(|s| {
        let checking = s.spawn(|| c.check(&request(text.as_bytes()), &HarperSetup::default(), &cancel));
        std::thread::sleep(Duration::from_millis(300));
        cancel.cancel();
        checking.join().unwrap()
    });
    assert_eq!(run.unwrap_err().code(), ErrorCode::Cancelled);
    assert!(!alive(pid), "the cancelled check's process is gone");
    assert_eq!(c.pid(), None);
}

/// Harper lists "write" first for "writen"; the closest of its suggestions,
/// "written", is the one filed.
#[test]
fn the_suggestion_filed_is_the_closest_of_harpers_not_its_first() {
    let text = "The letter was writen by hand.\n";
    let run = harper::check(&request(text.as_bytes())).unwrap();
    let s = run
        .suggestions
        .iter()
        .find(|s| s.text == "writen")
        .unwrap_or_else(|| panic!("no suggestion on \"writen\": {:#?}", run.suggestions));
    assert_eq!(s.replacement, "written");
}

/// A word added to the workspace's dictionary (by the CLI, in another process)
/// is no longer linted, nor filed by Check document; removing it brings it back.
#[test]
fn the_workspaces_dictionary_silences_its_words_for_lint_and_check() {
    let ws = common::Ws::new();
    ws.write("essay.md", "Jorunn wrote it with teh team.\n");
    let lint = || {
        ws.json(&["lint", "essay.md"])["lints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["text"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let before = lint();
    assert!(before.contains(&"Jorunn".to_owned()), "{before:?}");
    assert!(before.contains(&"teh".to_owned()), "{before:?}");

    assert_eq!(ws.ok(&["dictionary", "add", "jorunN"]).trim(), "jorunN");
    assert_eq!(ws.read(".cowriting/dictionary.txt"), "jorunN\n");
    let after = lint();
    assert!(
        !after.contains(&"Jorunn".to_owned()),
        "any case matches: {after:?}"
    );
    assert!(after.contains(&"teh".to_owned()), "{after:?}");

    // Check document files no proposal on the word either.
    ws.ok(&["suggest", "essay.md", "--producer", "harper"]);
    let v = ws.json(&["proposals", "essay.md"]);
    let texts: Vec<&str> = v["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["target"].as_str().unwrap_or_default())
        .collect();
    assert!(texts.contains(&"teh"), "{v}");
    assert!(!texts.contains(&"Jorunn"), "{v}");

    assert_eq!(
        ws.ok(&["dictionary", "remove", "JORUNN"]).trim(),
        "no words in .cowriting/dictionary.txt"
    );
    assert!(lint().contains(&"Jorunn".to_owned()));
    // What is not a word is refused with the bad-input exit code, nothing written.
    ws.fails(&["dictionary", "add", "two words"], 2);
    assert_eq!(ws.read(".cowriting/dictionary.txt"), "");
}

/// What Harper costs in memory: the resident set before it is loaded, once its
/// dictionary and lint group are (`preload`), and after it has linted this
/// repository's README. A measurement for docs/performance.md, not a check
/// (memory is the machine's business): run it alone,
/// `cargo test --locked --features harper --test producers_harper -- --ignored --nocapture harper_memory`.
#[test]
#[ignore = "a measurement, run alone: see docs/performance.md"]
fn harper_memory() {
    let rss_mib = || {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap();
        kb as f64 / 1024.0
    };
    let before = rss_mib();
    harper::preload();
    let loaded = rss_mib();
    let readme = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let run = harper::check(&request(&readme)).unwrap();
    let linted = rss_mib();
    eprintln!(
        "resident set: {before:.1} MiB before Harper; {loaded:.1} MiB with its dictionary and lint group loaded; \
         {linted:.1} MiB after linting the README ({} bytes, {} suggestions)",
        readme.len(),
        run.suggestions.len()
    );
}

/// `harper-rules.json` (what Settings lists without loading Harper) is this
/// Harper's list. `COWRITING_WRITE_HARPER_RULES=1` writes it.
#[test]
fn the_rule_list_file_is_this_harpers() {
    use cowriting::producers::harper_rules::RULES_JSON;
    let live = harper::rule_list();
    let mut text = serde_json::to_string_pretty(&live).unwrap();
    text.push('\n');
    if std::env::var_os("COWRITING_WRITE_HARPER_RULES").is_some() {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("crates/cowriting-producers/src/harper-rules.json");
        std::fs::write(file, &text).unwrap();
        return;
    }
    assert!(
        RULES_JSON == text,
        "crates/cowriting-producers/src/harper-rules.json is stale: run \
         COWRITING_WRITE_HARPER_RULES=1 cargo test --features harper --test producers_harper"
    );
}

fn rules_of(run: &cowriting::producers::Run) -> Vec<String> {
    run.suggestions
        .iter()
        .map(|s| s.producer.provenance.clone())
        .collect()
}

#[test]
fn a_check_runs_as_the_writers_setup_says_in_process_and_in_the_checker() {
    use cowriting::config::Config;
    use cowriting::producers::harper_rules::HarperSetup;
    let heading = b"# A heading in sentence case about the colour of things\n\nThe colour is grey.\n";
    let curated = harper::check(&request(heading)).unwrap();
    assert!(
        rules_of(&curated).iter().any(|r| r == "rule:UseTitleCase"),
        "Harper's curated set asks for title case: {:?}",
        rules_of(&curated)
    );
    assert!(
        curated.suggestions.iter().any(|s| s.text == "colour"),
        "and checks as American English"
    );
    // The writer's configuration: title case quiet by default, British English.
    let mut cfg = Config::parse("[spelling]\nlanguage = \"en_GB\"\n").unwrap();
    let british = HarperSetup::of(&cfg);
    let run = harper::check_with(&request(heading), &british).unwrap();
    assert!(
        !rules_of(&run).iter().any(|r| r == "rule:UseTitleCase"),
        "{:?}",
        rules_of(&run)
    );
    assert!(
        !run.suggestions.iter().any(|s| s.text == "colour"),
        "colour is British"
    );
    // A rule the writer turns back on runs again; one they turn off does not.
    cfg.harper.rules.insert("UseTitleCase".into(), true);
    cfg.harper.rules.insert("SpellCheck".into(), false);
    let chosen = HarperSetup::of(&cfg);
    let typo = b"# A heading in sentence case\n\nThe collour is grey.\n";
    let run = harper::check_with(&request(typo), &chosen).unwrap();
    assert!(rules_of(&run).iter().any(|r| r == "rule:UseTitleCase"));
    assert!(
        !rules_of(&run).iter().any(|r| r == "rule:SpellCheck"),
        "{:?}",
        rules_of(&run)
    );
    // The checker process is given the same setup.
    let c = checker(Duration::from_secs(60));
    let there = c.check(&request(heading), &british, &Cancel::new()).unwrap();
    assert_eq!(
        rules_of(&there),
        rules_of(&harper::check_with(&request(heading), &british).unwrap())
    );
    assert!(!there.suggestions.iter().any(|s| s.text == "colour"));
}
