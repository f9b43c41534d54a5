//! What you see is what you accept: a proposal whose replacement holds
//! characters a reader cannot see or that reorder the text (a U+202E RIGHT-TO-LEFT
//! OVERRIDE shows "mp4.md" as "dm.4pm"; a zero-width space hides inside a word)
//! is flagged with their code points in every client's answer, and its accept is
//! refused (`needs_confirmation`, exit 3) until the writer confirms, through the
//! real `cowriting` binary. Producers' text is never altered: what is confirmed
//! is exactly what is inserted. The same holds for letters of other scripts that
//! pass for Latin ones where they land (a Cyrillic `о` in "repоrt"). Ordinary
//! scripts (prose in Greek, Cyrillic, Armenian) are not flagged, and a new
//! document's name refuses every character the views flag.

mod common;
use common::Ws;

const DOC: &str = "# Report\n\nThe report is due at 4pm.\n";

fn ws() -> Ws {
    let ws = Ws::new();
    ws.write("notes.md", DOC);
    ws
}

#[test]
fn a_hidden_character_is_flagged_and_accept_asks_first() {
    let ws = ws();
    let id = ws.propose("notes.md", "due at 4pm", "due at \u{202E}mp4\u{202C} sharp");
    let list = ws.proposals("notes.md");
    let hidden = list[0]["hidden"].as_array().unwrap();
    let points: Vec<&str> = hidden.iter().map(|h| h["codePoint"].as_str().unwrap()).collect();
    assert_eq!(points, ["U+202E", "U+202C"], "{list:?}");
    assert_eq!(hidden[0]["name"], "RIGHT-TO-LEFT OVERRIDE");
    assert_eq!(hidden[0]["count"], 1);

    // The text listing says so, and shows the characters escaped.
    let text = ws.ok(&["proposals", "notes.md"]);
    assert!(
        text.contains("hidden: inserts U+202E RIGHT-TO-LEFT OVERRIDE, U+202C POP DIRECTIONAL FORMATTING"),
        "{text}"
    );
    assert!(
        !text.contains('\u{202E}'),
        "never printed raw to a terminal: {text}"
    );

    // Refused unconfirmed: the guard's exit code, the typed code, nothing changed.
    let before = ws.snapshot();
    let out = ws.cmd(&["--json", "accept", "notes.md", &id]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(err["code"], "needs_confirmation", "{err}");
    assert!(err["message"].as_str().unwrap().contains("U+202E"), "{err}");
    assert_eq!(ws.snapshot(), before, "a refused accept changes nothing");

    // Confirmed: exactly the producer's characters, once.
    ws.ok(&["accept", "notes.md", &id, "--confirm-hidden"]);
    assert_eq!(
        ws.read("notes.md"),
        "# Report\n\nThe report is due at \u{202E}mp4\u{202C} sharp.\n"
    );
    assert!(ws.proposals("notes.md").is_empty());
}

#[test]
fn reject_needs_no_confirmation_and_the_writers_own_text_is_theirs() {
    let ws = ws();
    let a = ws.propose("notes.md", "Report", "Re\u{200B}port");
    ws.ok(&["reject", "notes.md", &a]);
    assert_eq!(ws.read("notes.md"), DOC);
    // Accept with the writer's own replacement: what they typed is inserted.
    let b = ws.propose("notes.md", "4pm", "16:00\u{2066}");
    ws.ok(&["accept", "notes.md", &b, "--with", "16:00"]);
    assert_eq!(ws.read("notes.md"), "# Report\n\nThe report is due at 16:00.\n");
}

#[test]
fn ordinary_scripts_are_not_flagged() {
    let ws = ws();
    // Persian with a zero-width non-joiner, an emoji sequence, accents.
    ws.propose("notes.md", "due at 4pm", "می\u{200C}خواهم 👩\u{200D}💻 à 16h");
    let list = ws.proposals("notes.md");
    assert_eq!(list[0]["hidden"], serde_json::json!([]), "{list:?}");
    let id = list[0]["id"].as_str().unwrap();
    ws.ok(&["accept", "notes.md", id]);
}

#[test]
fn a_new_name_refuses_every_hidden_character_the_views_flag() {
    let ws = ws();
    for c in [
        '\u{202E}', '\u{2067}', '\u{200B}', '\u{061C}', '\u{FEFF}', '\u{2060}',
    ] {
        let name = format!("report{c}4pm.md");
        ws.fails(&["new", &name], 2);
    }
}

#[test]
fn a_letter_passing_for_latin_is_flagged_where_it_lands_and_accept_asks_first() {
    let ws = ws();
    // A Cyrillic о inside a Latin word.
    let id = ws.propose("notes.md", "report", "rep\u{043E}rt");
    let list = ws.proposals("notes.md");
    let hidden = list[0]["hidden"].as_array().unwrap();
    assert_eq!(hidden.len(), 1, "{list:?}");
    assert_eq!(hidden[0]["codePoint"], "U+043E");
    assert_eq!(hidden[0]["name"], "CYRILLIC SMALL LETTER O, looks like Latin o");
    let text = ws.ok(&["proposals", "notes.md"]);
    assert!(
        text.contains("hidden: inserts U+043E CYRILLIC SMALL LETTER O"),
        "{text}"
    );
    let before = ws.snapshot();
    ws.fails(&["accept", "notes.md", &id], 3);
    assert_eq!(ws.snapshot(), before, "a refused accept changes nothing");
    ws.ok(&["accept", "notes.md", &id, "--confirm-hidden"]);
    assert_eq!(
        ws.read("notes.md"),
        "# Report\n\nThe rep\u{043E}rt is due at 4pm.\n"
    );

    // A word of Cyrillic look-alikes only ("сору", reading "copy") in a Latin
    // line is flagged there; a Russian word is Russian.
    let posing = ws.propose("notes.md", "4pm", "\u{0441}\u{043E}\u{0440}\u{0443}");
    let russian = ws.propose("notes.md", "due", "\u{043C}\u{0438}\u{0440}");
    let list = ws.proposals("notes.md");
    let of = |id: &str| {
        list.iter().find(|p| p["id"] == id).unwrap()["hidden"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["count"].as_u64().unwrap())
            .sum::<u64>()
    };
    assert_eq!(of(&posing), 4, "{list:?}");
    assert_eq!(of(&russian), 0, "{list:?}");
}

#[test]
fn prose_in_greek_cyrillic_and_armenian_is_not_flagged() {
    let ws = Ws::new();
    ws.write(
        "mixed.md",
        "# Notes\n\nA line.\n\nПривет, мир.\n\nΚαλημέρα.\n\nԲարև.\n",
    );
    for (target, replacement) in [
        ("Привет, мир.", "Привет, дорогой мир: сор и пыль."),
        ("Καλημέρα.", "Καλημέρα, κόσμε, ο φίλος."),
        ("Բարև.", "Բարև ձեզ, հայերեն."),
    ] {
        ws.propose("mixed.md", target, replacement);
    }
    for p in ws.proposals("mixed.md") {
        assert_eq!(p["hidden"], serde_json::json!([]), "{p}");
        ws.ok(&["accept", "mixed.md", p["id"].as_str().unwrap()]);
    }
}

#[test]
fn a_new_name_refuses_letters_passing_for_latin_and_keeps_other_scripts() {
    let ws = ws();
    let err = ws.fails(&["new", "p\u{0430}ypal.md"], 2);
    assert!(err.contains("U+0430 CYRILLIC SMALL LETTER A"), "{err}");
    ws.fails(&["new", "\u{039F}K.md"], 2);
    ws.ok(&["new", "привет.md"]);
    ws.ok(&["new", "Καλημέρα.md"]);
}
