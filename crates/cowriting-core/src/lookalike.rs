//! Letters of other scripts that pass for Latin ones: a Cyrillic `а` in
//! `pаypal.md`, a Greek `Ο` in `ΟK`. They are visible, so [`crate::hidden`]'s
//! markers alone do not catch them, but a reader takes `pаypal` for `paypal`:
//! what the writer sees is not what a name, a link or an accepted proposal
//! holds. VS Code highlights such "ambiguous characters"; this is the same
//! idea, kept narrow so that Greek, Cyrillic and Armenian prose is never
//! flagged.
//!
//! A look-alike ([`LOOKALIKES`], after Unicode's confusables of the Latin
//! letters) is **flagged** when
//! - its word (a run of letters and digits) also holds a Latin letter
//!   (`pаypal`, `ΟK`): a mixed word, never ordinary prose in any script; or
//! - its word is made of look-alikes only (`сору`, all Cyrillic, reading
//!   "copy") in a text that holds Latin letters and no other letter of that
//!   script: a Latin text with a word that only pretends to be Latin.
//!
//! The UI's `ui/src/lookalike.ts` applies the same rule to the same table
//! (`ui/src/lookalike-chars.json`); the cases of `ui/test/lookalike-cases.json`
//! are checked against both.

/// Letters that look like a Latin letter: (the letter, the Latin letter it
/// passes for, its Unicode name), in code point order. From Unicode's
/// `confusables.txt`, the Greek, Cyrillic and Armenian letters whose
/// prototype is one ASCII letter and that read as it in ordinary fonts.
pub const LOOKALIKES: &[(char, char, &str)] = &[
    ('\u{0391}', 'A', "GREEK CAPITAL LETTER ALPHA"),
    ('\u{0392}', 'B', "GREEK CAPITAL LETTER BETA"),
    ('\u{0395}', 'E', "GREEK CAPITAL LETTER EPSILON"),
    ('\u{0396}', 'Z', "GREEK CAPITAL LETTER ZETA"),
    ('\u{0397}', 'H', "GREEK CAPITAL LETTER ETA"),
    ('\u{0399}', 'I', "GREEK CAPITAL LETTER IOTA"),
    ('\u{039A}', 'K', "GREEK CAPITAL LETTER KAPPA"),
    ('\u{039C}', 'M', "GREEK CAPITAL LETTER MU"),
    ('\u{039D}', 'N', "GREEK CAPITAL LETTER NU"),
    ('\u{039F}', 'O', "GREEK CAPITAL LETTER OMICRON"),
    ('\u{03A1}', 'P', "GREEK CAPITAL LETTER RHO"),
    ('\u{03A4}', 'T', "GREEK CAPITAL LETTER TAU"),
    ('\u{03A5}', 'Y', "GREEK CAPITAL LETTER UPSILON"),
    ('\u{03A7}', 'X', "GREEK CAPITAL LETTER CHI"),
    ('\u{03B1}', 'a', "GREEK SMALL LETTER ALPHA"),
    ('\u{03B9}', 'i', "GREEK SMALL LETTER IOTA"),
    ('\u{03BD}', 'v', "GREEK SMALL LETTER NU"),
    ('\u{03BF}', 'o', "GREEK SMALL LETTER OMICRON"),
    ('\u{03C1}', 'p', "GREEK SMALL LETTER RHO"),
    ('\u{0405}', 'S', "CYRILLIC CAPITAL LETTER DZE"),
    (
        '\u{0406}',
        'I',
        "CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I",
    ),
    ('\u{0408}', 'J', "CYRILLIC CAPITAL LETTER JE"),
    ('\u{0410}', 'A', "CYRILLIC CAPITAL LETTER A"),
    ('\u{0412}', 'B', "CYRILLIC CAPITAL LETTER VE"),
    ('\u{0415}', 'E', "CYRILLIC CAPITAL LETTER IE"),
    ('\u{041A}', 'K', "CYRILLIC CAPITAL LETTER KA"),
    ('\u{041C}', 'M', "CYRILLIC CAPITAL LETTER EM"),
    ('\u{041D}', 'H', "CYRILLIC CAPITAL LETTER EN"),
    ('\u{041E}', 'O', "CYRILLIC CAPITAL LETTER O"),
    ('\u{0420}', 'P', "CYRILLIC CAPITAL LETTER ER"),
    ('\u{0421}', 'C', "CYRILLIC CAPITAL LETTER ES"),
    ('\u{0422}', 'T', "CYRILLIC CAPITAL LETTER TE"),
    ('\u{0425}', 'X', "CYRILLIC CAPITAL LETTER HA"),
    ('\u{0430}', 'a', "CYRILLIC SMALL LETTER A"),
    ('\u{0435}', 'e', "CYRILLIC SMALL LETTER IE"),
    ('\u{043E}', 'o', "CYRILLIC SMALL LETTER O"),
    ('\u{0440}', 'p', "CYRILLIC SMALL LETTER ER"),
    ('\u{0441}', 'c', "CYRILLIC SMALL LETTER ES"),
    ('\u{0443}', 'y', "CYRILLIC SMALL LETTER U"),
    ('\u{0445}', 'x', "CYRILLIC SMALL LETTER HA"),
    ('\u{0455}', 's', "CYRILLIC SMALL LETTER DZE"),
    ('\u{0456}', 'i', "CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I"),
    ('\u{0458}', 'j', "CYRILLIC SMALL LETTER JE"),
    ('\u{04AE}', 'Y', "CYRILLIC CAPITAL LETTER STRAIGHT U"),
    ('\u{04AF}', 'y', "CYRILLIC SMALL LETTER STRAIGHT U"),
    ('\u{04BB}', 'h', "CYRILLIC SMALL LETTER SHHA"),
    ('\u{04C0}', 'I', "CYRILLIC LETTER PALOCHKA"),
    ('\u{04CF}', 'l', "CYRILLIC SMALL LETTER PALOCHKA"),
    ('\u{0501}', 'd', "CYRILLIC SMALL LETTER KOMI DE"),
    ('\u{051A}', 'Q', "CYRILLIC CAPITAL LETTER QA"),
    ('\u{051B}', 'q', "CYRILLIC SMALL LETTER QA"),
    ('\u{051C}', 'W', "CYRILLIC CAPITAL LETTER WE"),
    ('\u{051D}', 'w', "CYRILLIC SMALL LETTER WE"),
    ('\u{0566}', 'q', "ARMENIAN SMALL LETTER ZA"),
    ('\u{0570}', 'h', "ARMENIAN SMALL LETTER HO"),
    ('\u{0578}', 'n', "ARMENIAN SMALL LETTER VO"),
    ('\u{057D}', 'u', "ARMENIAN SMALL LETTER SEH"),
    ('\u{0581}', 'g', "ARMENIAN SMALL LETTER CO"),
    ('\u{0585}', 'o', "ARMENIAN SMALL LETTER OH"),
];

/// The Latin letter `c` passes for, and `c`'s name; `None` for any other.
pub fn lookalike(c: char) -> Option<(char, &'static str)> {
    LOOKALIKES
        .binary_search_by_key(&c, |&(k, _, _)| k)
        .ok()
        .map(|i| (LOOKALIKES[i].1, LOOKALIKES[i].2))
}

/// The script a look-alike's word is checked against: Greek, Cyrillic or
/// Armenian (by block), `None` for other characters.
fn script(c: char) -> Option<u8> {
    match c {
        '\u{0370}'..='\u{03FF}' | '\u{1F00}'..='\u{1FFF}' => Some(0),
        '\u{0400}'..='\u{052F}'
        | '\u{1C80}'..='\u{1C8F}'
        | '\u{2DE0}'..='\u{2DFF}'
        | '\u{A640}'..='\u{A69F}' => Some(1),
        '\u{0530}'..='\u{058F}' | '\u{FB13}'..='\u{FB17}' => Some(2),
        _ => None,
    }
}

fn word_char(c: char) -> bool {
    c.is_alphabetic() || c.is_numeric()
}

/// The byte offsets of the flagged look-alikes in `text` (see the module's
/// docs), in order.
pub fn flagged(text: &str) -> Vec<usize> {
    if !text.chars().any(|c| lookalike(c).is_some()) {
        return Vec::new();
    }
    let latin_text = text.chars().any(|c| c.is_ascii_alphabetic());
    // Scripts with a letter in the text that is not a look-alike: their
    // words are that script's own.
    let mut native = [false; 3];
    for c in text
        .chars()
        .filter(|c| c.is_alphabetic() && lookalike(*c).is_none())
    {
        if let Some(s) = script(c) {
            native[s as usize] = true;
        }
    }
    let mut out = Vec::new();
    let mut word: Vec<(usize, char)> = Vec::new();
    let mut close = |word: &mut Vec<(usize, char)>| {
        let looks: Vec<usize> = word
            .iter()
            .filter(|(_, c)| lookalike(*c).is_some())
            .map(|&(i, _)| i)
            .collect();
        if !looks.is_empty() {
            let mixed = word.iter().any(|(_, c)| c.is_ascii_alphabetic());
            let posing = latin_text
                && word
                    .iter()
                    .all(|(_, c)| !c.is_alphabetic() || lookalike(*c).is_some())
                && word
                    .iter()
                    .filter_map(|(_, c)| script(*c))
                    .all(|s| !native[s as usize]);
            if mixed || posing {
                out.extend(looks);
            }
        }
        word.clear();
    };
    for (i, c) in text.char_indices() {
        if word_char(c) {
            word.push((i, c));
        } else {
            close(&mut word);
        }
    }
    close(&mut word);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_each_passes_for_an_ascii_letter() {
        assert!(LOOKALIKES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(LOOKALIKES
            .iter()
            .all(|&(c, l, _)| l.is_ascii_alphabetic() && script(c).is_some()));
    }

    #[test]
    fn a_mixed_word_is_flagged_and_prose_is_not() {
        assert_eq!(flagged("p\u{0430}ypal.md"), vec![1]);
        assert_eq!(flagged("\u{039F}K then"), vec![0]);
        // Russian, Greek and Armenian prose, and a Russian word in it.
        assert!(flagged("Привет, мир: сор и пыль").is_empty());
        assert!(flagged("Καλημέρα κόσμε, ο φίλος").is_empty());
        assert!(flagged("Բարև ձեզ, հայերեն").is_empty());
        assert!(flagged("naïve café, plain English").is_empty());
    }

    #[test]
    fn a_word_posing_as_latin_in_a_latin_text_is_flagged() {
        // "сору" is Cyrillic throughout and reads "copy".
        assert_eq!(
            flagged("please \u{0441}\u{043E}\u{0440}\u{0443} this"),
            vec![7, 9, 11, 13]
        );
        // The same word in Russian text is Russian.
        assert!(flagged("\u{0441}\u{043E}\u{0440}\u{0443} и ещё").is_empty());
    }

    /// The UI's `ui/src/lookalike.ts` runs the same cases (indices in
    /// characters) on the same table.
    #[test]
    fn the_shared_cases_and_the_uis_table() {
        #[derive(serde::Deserialize)]
        struct Case {
            text: String,
            flagged: Vec<usize>,
        }
        let cases: Vec<Case> =
            serde_json::from_str(include_str!("../../../ui/test/lookalike-cases.json")).unwrap();
        for case in &cases {
            let chars: Vec<usize> = flagged(&case.text)
                .into_iter()
                .map(|b| case.text[..b].chars().count())
                .collect();
            assert_eq!(chars, case.flagged, "{:?}", case.text);
        }
        #[derive(serde::Deserialize)]
        struct Row {
            cp: u32,
            like: char,
            name: String,
        }
        let ui: Vec<Row> =
            serde_json::from_str(include_str!("../../../ui/src/lookalike-chars.json")).unwrap();
        let ui: Vec<(u32, char, &str)> = ui.iter().map(|r| (r.cp, r.like, r.name.as_str())).collect();
        let core: Vec<(u32, char, &str)> = LOOKALIKES.iter().map(|&(c, l, n)| (c as u32, l, n)).collect();
        assert_eq!(ui, core, "ui/src/lookalike-chars.json and LOOKALIKES differ");
    }
}
