//! Characters a reader cannot see, or that change how the text around them is
//! shown: bidirectional controls (which reorder what follows them, so
//! `report<U+202E>4pm.md` shows as `reportmp4.md`), zero-width and other
//! invisible format characters, line and paragraph separators.
//!
//! One definition for every client: a new name refuses them, a proposal whose
//! replacement holds them is flagged with their code points and its accept asks
//! once, and every view shows them visibly (the UI's `ui/src/hidden.ts` keeps
//! the same set; `tests/one_view.rs` compares the two).
//!
//! Zero-width joiner and non-joiner (U+200C, U+200D) are left out: Persian,
//! the Indic scripts and emoji sequences need them in ordinary prose.
//!
//! Visible letters that pass for Latin ones in their context (a Cyrillic `а`
//! in `pаypal`, [`crate::lookalike`]) are flagged with them where a text is
//! judged as a whole ([`hidden_chars`], [`visible`]), not by [`is_hidden`].

use serde::Serialize;

/// Whether `c` is hidden or reorders text (see the module's docs).
pub fn is_hidden(c: char) -> bool {
    name(c).is_some()
}

/// The hidden characters, as inclusive ranges with their Unicode names, in
/// code point order. `ui/src/hidden-chars.json` holds the same table for the
/// UI (a test here keeps the two equal).
pub const RANGES: &[(char, char, &str)] = &[
    ('\u{00AD}', '\u{00AD}', "SOFT HYPHEN"),
    ('\u{034F}', '\u{034F}', "COMBINING GRAPHEME JOINER"),
    ('\u{061C}', '\u{061C}', "ARABIC LETTER MARK"),
    ('\u{115F}', '\u{115F}', "HANGUL CHOSEONG FILLER"),
    ('\u{1160}', '\u{1160}', "HANGUL JUNGSEONG FILLER"),
    ('\u{180E}', '\u{180E}', "MONGOLIAN VOWEL SEPARATOR"),
    ('\u{200B}', '\u{200B}', "ZERO WIDTH SPACE"),
    ('\u{200E}', '\u{200E}', "LEFT-TO-RIGHT MARK"),
    ('\u{200F}', '\u{200F}', "RIGHT-TO-LEFT MARK"),
    ('\u{2028}', '\u{2028}', "LINE SEPARATOR"),
    ('\u{2029}', '\u{2029}', "PARAGRAPH SEPARATOR"),
    ('\u{202A}', '\u{202A}', "LEFT-TO-RIGHT EMBEDDING"),
    ('\u{202B}', '\u{202B}', "RIGHT-TO-LEFT EMBEDDING"),
    ('\u{202C}', '\u{202C}', "POP DIRECTIONAL FORMATTING"),
    ('\u{202D}', '\u{202D}', "LEFT-TO-RIGHT OVERRIDE"),
    ('\u{202E}', '\u{202E}', "RIGHT-TO-LEFT OVERRIDE"),
    ('\u{2060}', '\u{2060}', "WORD JOINER"),
    ('\u{2061}', '\u{2061}', "FUNCTION APPLICATION"),
    ('\u{2062}', '\u{2062}', "INVISIBLE TIMES"),
    ('\u{2063}', '\u{2063}', "INVISIBLE SEPARATOR"),
    ('\u{2064}', '\u{2064}', "INVISIBLE PLUS"),
    ('\u{2066}', '\u{2066}', "LEFT-TO-RIGHT ISOLATE"),
    ('\u{2067}', '\u{2067}', "RIGHT-TO-LEFT ISOLATE"),
    ('\u{2068}', '\u{2068}', "FIRST STRONG ISOLATE"),
    ('\u{2069}', '\u{2069}', "POP DIRECTIONAL ISOLATE"),
    ('\u{206A}', '\u{206F}', "DEPRECATED FORMAT CHARACTER"),
    ('\u{3164}', '\u{3164}', "HANGUL FILLER"),
    ('\u{FEFF}', '\u{FEFF}', "ZERO WIDTH NO-BREAK SPACE"),
    ('\u{FFA0}', '\u{FFA0}', "HALFWIDTH HANGUL FILLER"),
    ('\u{FFF9}', '\u{FFFB}', "INTERLINEAR ANNOTATION CHARACTER"),
    ('\u{E0001}', '\u{E0001}', "TAG CHARACTER"),
    ('\u{E0020}', '\u{E007F}', "TAG CHARACTER"),
];

/// The Unicode name of a hidden character, `None` for any other.
pub fn name(c: char) -> Option<&'static str> {
    let i = RANGES.partition_point(|&(_, to, _)| to < c);
    RANGES
        .get(i)
        .filter(|&&(from, _, _)| from <= c)
        .map(|&(_, _, n)| n)
}

/// One hidden character found in a text: which, and how often.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct HiddenChar {
    /// `U+202E`.
    pub code_point: String,
    /// `RIGHT-TO-LEFT OVERRIDE`.
    pub name: String,
    pub count: u32,
}

/// The hidden characters in `text`, each once, in the order first met —
/// with the letters that pass for Latin ones there
/// ([`crate::lookalike::flagged`]: named "CYRILLIC SMALL LETTER A, looks
/// like Latin a"), which a reader also does not see for what they are.
pub fn hidden_chars(text: &str) -> Vec<HiddenChar> {
    hidden_chars_in("", text, "")
}

/// [`hidden_chars`] of `text` as it reads between `before` and `after` (a
/// replacement in its line: a Cyrillic `а` inserted into `pypal` makes a
/// mixed word only there); only characters of `text` are counted.
pub fn hidden_chars_in(before: &str, text: &str, after: &str) -> Vec<HiddenChar> {
    let whole;
    let (joined, from) = if before.is_empty() && after.is_empty() {
        (text, 0)
    } else {
        whole = format!("{before}{text}{after}");
        (whole.as_str(), before.len())
    };
    let looks = crate::lookalike::flagged(joined);
    let mut out: Vec<(char, HiddenChar)> = Vec::new();
    for (i, c) in text.char_indices() {
        let name = match name(c) {
            Some(n) => n.to_owned(),
            None if looks.binary_search(&(from + i)).is_ok() => {
                let (like, n) = crate::lookalike::lookalike(c).expect("flagged look-alikes are in the table");
                format!("{n}, looks like Latin {like}")
            }
            None => continue,
        };
        match out.iter_mut().find(|(k, _)| *k == c) {
            Some((_, h)) => h.count += 1,
            None => out.push((
                c,
                HiddenChar {
                    code_point: code_point(c),
                    name,
                    count: 1,
                },
            )),
        }
    }
    out.into_iter().map(|(_, h)| h).collect()
}

/// `U+202E` for U+202E.
pub fn code_point(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

/// `text` with each hidden character, and each letter passing for a Latin
/// one, written out as `<U+202E>`: for a terminal, a log line or a window
/// title, where it cannot be styled.
pub fn visible(text: &str) -> String {
    let looks = crate::lookalike::flagged(text);
    if looks.is_empty() && !text.chars().any(is_hidden) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 16);
    for (i, c) in text.char_indices() {
        if is_hidden(c) || looks.binary_search(&i).is_ok() {
            out.push('<');
            out.push_str(&code_point(c));
            out.push('>');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_hidden_character_once_with_its_count() {
        let found = hidden_chars("report\u{202E}4pm.md \u{200B}a\u{200B} \u{202E}");
        assert_eq!(
            found,
            vec![
                HiddenChar {
                    code_point: "U+202E".into(),
                    name: "RIGHT-TO-LEFT OVERRIDE".into(),
                    count: 2
                },
                HiddenChar {
                    code_point: "U+200B".into(),
                    name: "ZERO WIDTH SPACE".into(),
                    count: 2
                },
            ]
        );
    }

    #[test]
    fn ordinary_prose_has_none() {
        // Joiners that scripts and emoji need, accents, CJK, a tab, a newline.
        for text in [
            "naïve café",
            "می\u{200C}خواهم",
            "👩\u{200D}💻",
            "日本語",
            "a\tb\nc",
            "",
        ] {
            assert!(hidden_chars(text).is_empty(), "{text:?}");
        }
    }

    #[test]
    fn a_letter_passing_for_latin_is_named_in_its_context() {
        let found = hidden_chars("p\u{0430}ypal");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code_point, "U+0430");
        assert_eq!(found[0].name, "CYRILLIC SMALL LETTER A, looks like Latin a");
        // Alone it is a Russian word; inserted into a Latin one it is not.
        assert!(hidden_chars("\u{0430}").is_empty());
        assert_eq!(hidden_chars_in("p", "\u{0430}", "ypal and more").len(), 1);
        assert!(hidden_chars_in("Привет ", "\u{0430}", " мир").is_empty());
        assert_eq!(visible("p\u{0430}ypal.md"), "p<U+0430>ypal.md");
    }

    #[test]
    fn visible_writes_them_out() {
        assert_eq!(visible("report\u{202E}4pm.md"), "report<U+202E>4pm.md");
        assert_eq!(visible("plain"), "plain");
        assert_eq!(visible("\u{E0041}"), "<U+E0041>");
    }

    #[test]
    fn the_ui_holds_the_same_table() {
        #[derive(serde::Deserialize)]
        struct Row {
            from: u32,
            to: u32,
            name: String,
        }
        let ui: Vec<Row> = serde_json::from_str(include_str!("../../../ui/src/hidden-chars.json")).unwrap();
        let ui: Vec<(u32, u32, &str)> = ui.iter().map(|r| (r.from, r.to, r.name.as_str())).collect();
        let core: Vec<(u32, u32, &str)> = RANGES.iter().map(|&(a, b, n)| (a as u32, b as u32, n)).collect();
        assert_eq!(ui, core, "ui/src/hidden-chars.json and hidden::RANGES differ");
        assert!(
            RANGES.windows(2).all(|w| w[0].1 < w[1].0),
            "sorted, not overlapping"
        );
    }

    #[test]
    fn every_bidi_control_is_hidden() {
        for c in ('\u{202A}'..='\u{202E}')
            .chain('\u{2066}'..='\u{2069}')
            .chain(['\u{200E}', '\u{200F}', '\u{061C}'])
        {
            assert!(is_hidden(c), "{}", code_point(c));
        }
    }
}
