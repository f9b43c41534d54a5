//! The Settings dialog's spelling language and Harper rules, through the API
//! the app calls: the language among the installed dictionaries, Harper's
//! rules listed, choices saved only where they differ from the default, and a
//! language not installed (or a path) and an unknown rule refused with nothing
//! written.
//!
//! One test in its own binary: it points `COWRITING_CONFIG` and
//! `COWRITING_HUNSPELL_DIR` at temporary folders for the whole process.

use cowriting::api::Api;
use cowriting::config::Config;
use cowriting::ErrorCode;

#[test]
fn spelling_language_and_grammar_rules_are_shown_saved_and_checked() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("config.toml");
    let dicts = home.path().join("hunspell");
    std::fs::create_dir(&dicts).unwrap();
    for f in ["zz_ZZ.aff", "zz_ZZ.dic", "yy_YY.aff"] {
        std::fs::write(dicts.join(f), "").unwrap();
    }
    std::env::set_var("COWRITING_CONFIG", &config);
    std::env::set_var("COWRITING_HUNSPELL_DIR", &dicts);
    let ws = tempfile::tempdir().unwrap();
    let mut api = Api::open(ws.path()).unwrap();

    let s = api.settings().unwrap();
    assert_eq!(s.spelling_language, "en_US");
    assert!(
        s.spelling_languages.contains(&"zz_ZZ".to_owned()),
        "{:?}",
        s.spelling_languages
    );
    assert!(
        !s.spelling_languages.contains(&"yy_YY".to_owned()),
        "a .aff without its .dic is no dictionary"
    );
    assert!(s.harper_rules.len() > 100);
    assert_eq!(s.harper_quiet, ["UseTitleCase"]);
    assert!(s.harper_choices.is_empty());
    let curated_on = s
        .harper_rules
        .iter()
        .find(|r| r.curated && r.name != "UseTitleCase")
        .unwrap();

    // Turn title case on, spell check off; a rule set to its default is no choice.
    let mut next = s.clone();
    next.spelling_language = "zz_ZZ".into();
    next.harper_choices.insert("UseTitleCase".into(), true);
    next.harper_choices.insert("SpellCheck".into(), false);
    next.harper_choices.insert(curated_on.name.clone(), true);
    next.trailer = cowriting::config::TrailerStyle::CoAuthoredBy;
    let saved = api.save_settings(&next).unwrap();
    assert_eq!(saved.trailer, cowriting::config::TrailerStyle::CoAuthoredBy);
    assert_eq!(saved.spelling_language, "zz_ZZ");
    assert_eq!(
        saved.harper_choices.into_iter().collect::<Vec<_>>(),
        [
            ("SpellCheck".to_owned(), false),
            ("UseTitleCase".to_owned(), true)
        ]
    );
    let cfg = Config::load_from(&config).unwrap();
    assert_eq!(cfg.spelling.language, "zz_ZZ");
    assert_eq!(cfg.harper.effective_rules().get("UseTitleCase"), Some(&true));
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(text.contains("[harper.rules]"), "{text}");
    assert!(text.contains("trailer = \"co-authored-by\""), "{text}");

    // Refused: a language not installed (or a path), a rule Harper does not have.
    for bad in ["xx_XX", "../../etc/passwd", "yy_YY"] {
        let mut next = api.settings().unwrap();
        next.spelling_language = bad.into();
        let e = api.save_settings(&next).unwrap_err();
        assert_eq!(e.code(), ErrorCode::BadInput, "{bad}: {e}");
    }
    let mut next = api.settings().unwrap();
    next.harper_choices.insert("NoSuchRule".into(), false);
    assert_eq!(api.save_settings(&next).unwrap_err().code(), ErrorCode::BadInput);
    assert_eq!(
        std::fs::read_to_string(&config).unwrap(),
        text,
        "a refused save writes nothing"
    );
}
