//! Spelling as the writer types, in process: the `spellbook` crate (a Rust
//! rewrite of Nuspell) with a Hunspell dictionary from the system (Debian's
//! `hunspell-en-us`, `hunspell-en-gb`, …: `/usr/share/hunspell/<lang>.aff` and
//! `.dic`). Measured for issue 31: about 4 MiB and 36 ms to load, 81 ns a word,
//! where Harper's checker process held 214 MiB; Harper now runs only when asked
//! (Check document, grammar).
//!
//! What is checked is the prose of a Markdown block: its text, not its code
//! (spans and fences), HTML, link destinations, or web and mail addresses; a
//! word is a Unicode word (UAX #29) with a letter in it and no digit, and words
//! written in capitals only or with a capital inside (`HTTP`, `GitHub`) are
//! names the dictionary cannot know and are left alone.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use cowriting_workspace::error::{Error, Result};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use unicode_segmentation::UnicodeSegmentation;

use crate::spelling::{TextLint, SPELLING};

/// The rule every lint here names.
pub const RULE: &str = "Hunspell";

/// How many replacements a lint offers, closest first.
const SUGGESTIONS: usize = 5;

/// A loaded dictionary and its language tag (`en_US`).
pub struct Speller {
    language: String,
    dict: spellbook::Dictionary,
}

/// The dictionaries loaded in this process, by language: each loaded once.
static LOADED: Mutex<Option<HashMap<String, Arc<Speller>>>> = Mutex::new(None);

/// Where Hunspell dictionaries are looked for: `$COWRITING_HUNSPELL_DIR`
/// first, then the system's folders.
fn folders() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::env::var_os("COWRITING_HUNSPELL_DIR")
        .map(PathBuf::from)
        .into_iter()
        .collect();
    out.extend(
        [
            "/usr/share/hunspell",
            "/usr/share/myspell/dicts",
            "/usr/share/myspell",
        ]
        .map(PathBuf::from),
    );
    out
}

/// The dictionaries installed (a `.aff` with its `.dic`) in the folders
/// looked in, by name, sorted, once each.
pub fn installed() -> Vec<String> {
    let mut out = Vec::new();
    for dir in folders() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.filter_map(|e| e.ok()) {
            let name = e.file_name().to_string_lossy().into_owned();
            let Some(lang) = name.strip_suffix(".aff") else {
                continue;
            };
            let named = !lang.is_empty()
                && lang
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if named && dir.join(format!("{lang}.dic")).is_file() {
                out.push(lang.to_owned());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

impl Speller {
    /// The dictionary of `language` (`en_US`, `en_GB`, …), loaded once per process.
    pub fn get(language: &str) -> Result<Arc<Speller>> {
        let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        let map = loaded.get_or_insert_with(HashMap::new);
        if let Some(s) = map.get(language) {
            return Ok(s.clone());
        }
        let s = Arc::new(Speller::load(language, &folders())?);
        map.insert(language.to_owned(), s.clone());
        Ok(s)
    }

    /// The dictionary of `language` from the first of `folders` that has it.
    pub fn load(language: &str, folders: &[PathBuf]) -> Result<Speller> {
        let bad = |message: String| Error::Producer {
            producer: "spelling".into(),
            message,
        };
        if !cowriting_workspace::workspace_settings::valid_language(language) {
            return Err(bad(format!(
                "{language:?} is not a dictionary name (say en_US, en_GB, …)"
            )));
        }
        let found = folders
            .iter()
            .map(|d| {
                (
                    d.join(format!("{language}.aff")),
                    d.join(format!("{language}.dic")),
                )
            })
            .find(|(aff, dic)| aff.is_file() && dic.is_file());
        let Some((aff, dic)) = found else {
            return Err(Error::NotInstalled {
                producer: "spelling".into(),
                program: format!("{language}.dic"),
                hint: Some(format!(
                    "no Hunspell dictionary for {language} in {}; on Debian: apt-get install hunspell-{}",
                    folders
                        .iter()
                        .map(|d| d.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    language.to_ascii_lowercase().replace('_', "-")
                )),
            });
        };
        let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| bad(format!("{}: {e}", p.display())));
        let dict = spellbook::Dictionary::new(&read(&aff)?, &read(&dic)?)
            .map_err(|e| bad(format!("{}: {e}", aff.display())))?;
        Ok(Speller {
            language: language.to_owned(),
            dict,
        })
    }

    /// Whether `word` is spelled right (a typographic apostrophe read as `'`).
    pub fn check(&self, word: &str) -> bool {
        self.dict.check(word)
            || (word.contains('\u{2019}') && self.dict.check(&word.replace('\u{2019}', "'")))
    }

    /// The lints of one Markdown `text`: each misspelled word, with the
    /// dictionary's closest words (a typographic apostrophe kept as written).
    pub fn lint(&self, text: &str) -> Vec<TextLint> {
        let mut out = Vec::new();
        for (start, end) in words(text) {
            let word = &text[start..end];
            if self.check(word) {
                continue;
            }
            let mut replacements = Vec::new();
            let plain = word.replace('\u{2019}', "'");
            self.dict.suggest(&plain, &mut replacements);
            closest_first(&plain, &mut replacements);
            replacements.truncate(SUGGESTIONS);
            if word.contains('\u{2019}') {
                for r in &mut replacements {
                    *r = r.replace('\'', "\u{2019}");
                }
            }
            out.push(TextLint {
                start,
                end,
                category: SPELLING.into(),
                rule: RULE.into(),
                message: format!("“{word}” is not in the {} dictionary", self.language),
                replacements,
            });
        }
        out
    }
}

/// `candidates` in order of closeness to `typed`: fewest edits first (optimal
/// string alignment: a swap of two letters is one); among as close, one word
/// before a split into two ("Tech" before "T eh"), then the same letters in
/// another order ("teh" → "the"), then those that hold every letter typed, in
/// order (a letter left out, as in "writen" for "written", is likelier than one
/// typed too many); else as the dictionary gave them.
fn closest_first(typed: &str, candidates: &mut [String]) {
    let mut sorted_typed: Vec<char> = typed.to_lowercase().chars().collect();
    sorted_typed.sort_unstable();
    let kind = |c: &str| {
        let mut letters: Vec<char> = c.to_lowercase().chars().collect();
        letters.sort_unstable();
        if letters == sorted_typed {
            return 0; // the same letters, another order
        }
        let mut rest = c.chars();
        if typed.chars().all(|t| rest.any(|l| l == t)) {
            1 // every letter typed, in order: one was left out
        } else {
            2
        }
    };
    candidates.sort_by_key(|c| (strsim::osa_distance(typed, c), c.contains([' ', '-']), kind(c)));
}

/// The words of `text` (a Markdown block) to check, as byte ranges: its prose,
/// not its code, HTML, link destinations or addresses (see the module's docs).
pub fn words(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut code = 0usize;
    for (event, range) in Parser::new_ext(
        text,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS,
    )
    .into_offset_iter()
    {
        match event {
            Event::Start(Tag::CodeBlock(_) | Tag::MetadataBlock(_) | Tag::HtmlBlock) => code += 1,
            Event::End(TagEnd::CodeBlock | TagEnd::MetadataBlock(_) | TagEnd::HtmlBlock) => {
                code = code.saturating_sub(1)
            }
            // A text whose source is its text (not an escape or entity): checked in place.
            Event::Text(t) if code == 0 && text.get(range.clone()) == Some(&*t) => {
                prose_words(text, range.start, range.end, &mut out)
            }
            _ => {}
        }
    }
    out
}

/// The words to check in `text[from..to]`, a stretch of prose.
fn prose_words(text: &str, from: usize, to: usize, out: &mut Vec<(usize, usize)>) {
    let part = &text[from..to];
    // Whitespace-separated runs that are addresses are left out whole.
    let mut skip: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    for run in part.split_whitespace() {
        let i = at + part[at..].find(run).unwrap_or(0);
        at = i + run.len();
        let lower = run.to_ascii_lowercase();
        if lower.contains("://")
            || lower.starts_with("www.")
            || (run.contains('@') && run.contains('.'))
            || run.contains('/')
        {
            skip.push((i, i + run.len()));
        }
    }
    for (i, w) in part.split_word_bound_indices() {
        if skip.iter().any(|&(a, b)| a <= i && i < b) {
            continue;
        }
        let letters = w.chars().filter(|c| c.is_alphabetic()).count();
        if letters == 0 || w.chars().any(|c| c.is_numeric() || c == '_') {
            continue;
        }
        // The dictionaries are of Latin-script languages: a word in another
        // script (日本語, Ελληνικά) is not theirs to judge.
        if w.chars().any(|c| c.is_alphabetic() && !latin(c)) {
            continue;
        }
        // Capitals only (two letters or more), or a capital after the first
        // letter: an acronym or a name written as its owner writes it.
        let upper_inside = w.chars().skip(1).any(char::is_uppercase);
        if upper_inside {
            continue;
        }
        // A word ends at an apostrophe that closes a quote ("writers'").
        let w = w.trim_end_matches(['\'', '\u{2019}']);
        if w.is_empty() {
            continue;
        }
        out.push((from + i, from + i + w.len()));
    }
}

/// Whether `c` is a letter of the Latin script (Basic Latin to Latin Extended-B,
/// the IPA and Latin Extended Additional blocks).
fn latin(c: char) -> bool {
    matches!(c as u32, 0x41..=0x24F | 0x250..=0x2AF | 0x1E00..=0x1EFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(text: &str) -> Vec<&str> {
        words(text).into_iter().map(|(a, b)| &text[a..b]).collect()
    }

    #[test]
    fn prose_words_only() {
        assert_eq!(
            list("The writer's draft, re-read twice."),
            ["The", "writer's", "draft", "re", "read", "twice"]
        );
        assert_eq!(
            list("Use `cargo buld` and see https://exmple.com/pth or ada@exmple.org, then [a lnk](http://x.y/zz)."),
            ["Use", "and", "see", "or", "then", "a", "lnk"]
        );
        assert_eq!(list("```\nfn mian() {}\n```\n"), Vec::<&str>::new());
        assert_eq!(
            list("An HTTP API on GitHub in 2026, v2 and x86_64."),
            ["An", "on", "in", "and"]
        );
        assert_eq!(list("<span class=\"wrng\">txt</span>"), ["txt"]);
        assert_eq!(
            list("Don’t stop; the writers’ room."),
            ["Don’t", "stop", "the", "writers", "room"]
        );
        assert_eq!(list("日本語 Ελληνικά naïve café"), ["naïve", "café"]);
    }

    fn system() -> Speller {
        Speller::load("en_US", &folders())
            .expect("the en_US Hunspell dictionary (Debian's hunspell-en-us, which `make test` installs)")
    }

    #[test]
    fn misspelled_words_with_the_closest_words_first() {
        let s = system();
        let text = "Jorunn said the letter was writen by hand. Don’t recieve it.";
        let lints = s.lint(text);
        let wrong: Vec<&str> = lints.iter().map(|l| &text[l.start..l.end]).collect();
        assert_eq!(wrong, ["Jorunn", "writen", "recieve"]);
        let writen = &lints[1];
        assert_eq!(
            writen.replacements.first().map(String::as_str),
            Some("written"),
            "{:?}",
            writen.replacements
        );
        assert_eq!((writen.category.as_str(), writen.rule.as_str()), (SPELLING, RULE));
        assert!(writen.message.contains("en_US"), "{}", writen.message);
        assert_eq!(lints[2].replacements.first().map(String::as_str), Some("receive"));
    }

    #[test]
    fn the_closest_words_first() {
        let mut c: Vec<String> = ["write", "written", "writhen", "writes", "writer"]
            .map(String::from)
            .into();
        closest_first("writen", &mut c);
        assert_eq!(
            c[0], "written",
            "a letter left out before one typed too many: {c:?}"
        );
        let mut c: Vec<String> = ["deceive", "receive", "relieve"].map(String::from).into();
        closest_first("recieve", &mut c);
        assert_eq!(c[0], "receive", "two letters swapped: one edit: {c:?}");
        // What en_GB's dictionary answers for "Teh": splits and an insertion
        // are one edit too, but a swap is the slip.
        let mut c: Vec<String> = ["T eh", "Te h", "Tech", "The", "Th"].map(String::from).into();
        closest_first("Teh", &mut c);
        assert_eq!(c[..3], ["The", "Tech", "Th"], "{c:?}");
    }

    #[test]
    fn a_dictionary_that_is_not_there_is_named() {
        let e = Speller::load("xx_YY", &[PathBuf::from("/nonexistent")])
            .err()
            .unwrap();
        assert_eq!(e.code(), cowriting_workspace::error::ErrorCode::NotInstalled);
        assert!(e.to_string().contains("hunspell-xx-yy"), "{e}");
        let e = Speller::load("../etc/passwd", &folders()).err().unwrap();
        assert_eq!(e.code(), cowriting_workspace::error::ErrorCode::Producer);
    }
}
