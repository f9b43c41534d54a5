//! A workspace spelled in one language for everyone who writes in it
//! (`.cowriting/settings.toml`): set by `cowriting dictionary language` and by
//! the app's Settings, honoured by the CLI's lint and the app's spelling as you
//! type, whatever each writer's own language; a dictionary not installed or a
//! path refused with nothing written; a stranger's file naming a path set
//! aside, and said so.
//!
//! Its own binary: it points `COWRITING_CONFIG` at a temporary file for the
//! app's half. Needs Debian's hunspell-en-us and hunspell-en-gb (deps.sh).

mod common;

use common::Ws;
use cowriting::api::Api;
use cowriting::ops::lint_texts;
use cowriting::producers::Cancel;
use cowriting::views::Unit;
use serde_json::Value;

const TEXT: &str = "The colour of the theatre is grey.\n";

fn flagged(lint: &Value) -> Vec<String> {
    lint["lints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_workspace_spelled_in_british_english_is_checked_so_by_every_writer() {
    let ws = Ws::new();
    ws.write("essay.md", TEXT);

    // Each writer's own language (American here): "colour" is misspelled.
    let shown = ws.json(&["dictionary", "language"]);
    assert_eq!(
        (&shown["workspace"], &shown["checkedIn"]),
        (&Value::Null, &Value::from("en_US"))
    );
    assert!(flagged(&ws.json(&["lint", "essay.md"])).contains(&"colour".to_owned()));

    // The workspace says British English: the CLI checks in it.
    let set = ws.json(&["dictionary", "language", "en_GB"]);
    assert_eq!(
        (&set["workspace"], &set["checkedIn"]),
        (&Value::from("en_GB"), &Value::from("en_GB"))
    );
    assert_eq!(
        ws.read(".cowriting/settings.toml"),
        "[spelling]\nlanguage = \"en_GB\"\n"
    );
    assert_eq!(flagged(&ws.json(&["lint", "essay.md"])), Vec::<String>::new());

    // The app, whose writer's own language is American, checks in the
    // workspace's too, and its Settings show both.
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("config.toml");
    std::fs::write(&config, "[spelling]\nlanguage = \"en_US\"\n").unwrap();
    std::env::set_var("COWRITING_CONFIG", &config);
    let mut api = Api::open(ws.path()).unwrap();
    let s = api.settings().unwrap();
    assert_eq!(s.spelling_language, "en_US");
    assert_eq!(s.workspace_spelling_language.as_deref(), Some("en_GB"));
    let app_lint = |api: &Api| {
        let out = lint_texts(
            api.store().workspace(),
            &[TEXT.to_owned()],
            Unit::Utf16,
            &Cancel::new(),
        )
        .unwrap();
        out.lints[0].iter().map(|l| l.text.clone()).collect::<Vec<_>>()
    };
    assert_eq!(app_lint(&api), Vec::<String>::new());

    // Refused, and nothing written: a dictionary not installed, a path.
    for bad in ["xx_XX", "../../../etc/passwd"] {
        let err = ws.fails(&["dictionary", "language", bad], 2);
        assert!(
            err.contains("bad_input") || err.contains("installed"),
            "{bad}: {err}"
        );
        let mut next = api.settings().unwrap();
        next.workspace_spelling_language = Some(bad.into());
        assert_eq!(
            api.save_settings(&next).unwrap_err().code(),
            cowriting::ErrorCode::BadInput
        );
    }
    assert_eq!(
        ws.read(".cowriting/settings.toml"),
        "[spelling]\nlanguage = \"en_GB\"\n"
    );
    assert_eq!(
        std::fs::read_to_string(&config).unwrap(),
        "[spelling]\nlanguage = \"en_US\"\n"
    );

    // Settings: back to each writer's own. The file goes; American again.
    let mut next = api.settings().unwrap();
    next.workspace_spelling_language = None;
    let saved = api.save_settings(&next).unwrap();
    assert_eq!(saved.workspace_spelling_language, None);
    assert!(!ws.file(".cowriting/settings.toml").exists());
    assert!(app_lint(&api).contains(&"colour".to_owned()));
    assert!(flagged(&ws.json(&["lint", "essay.md"])).contains(&"colour".to_owned()));

    // A stranger's file naming a path is set aside, said so; the writer's own applies.
    ws.write(
        ".cowriting/settings.toml",
        "[spelling]\nlanguage = \"../../../tmp/x\"\n",
    );
    let shown = ws.json(&["dictionary", "language"]);
    assert_eq!(
        (&shown["workspace"], &shown["checkedIn"]),
        (&Value::Null, &Value::from("en_US"))
    );
    assert!(
        shown["warnings"][0]
            .as_str()
            .unwrap()
            .contains("not a dictionary name"),
        "{shown}"
    );
    assert!(flagged(&ws.json(&["lint", "essay.md"])).contains(&"colour".to_owned()));
    let s = api.settings().unwrap();
    assert_eq!(s.workspace_spelling_language, None);
    assert!(
        s.workspace_warnings[0].contains("not a dictionary name"),
        "{:?}",
        s.workspace_warnings
    );
    assert!(app_lint(&api).contains(&"colour".to_owned()));
}
