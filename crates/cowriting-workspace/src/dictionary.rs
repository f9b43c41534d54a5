//! The workspace's own dictionary: words the writers of this workspace told the
//! spelling checker are right ("Add to dictionary" in the app,
//! `cowriting dictionary add` in the CLI).
//!
//! It is one plain text file, `W/.cowriting/dictionary.txt`, one word per line,
//! sorted, so it is committed with the workspace, merges well in git and can be
//! edited by hand (blank lines and lines starting with `#` are ignored). A word
//! matches whatever its case: "Tauri" in the dictionary accepts "tauri" and
//! "TAURI".
//!
//! Adding or removing a word is a read-modify-write under the dictionary's own
//! lock (`locks/dictionary.lock`), checked against what was read before the
//! rename, as every write of workspace files is: two writers adding words at
//! once both keep theirs, and a hand edit made in between is never overwritten.

use crate::error::{Error, Result};
use crate::workspace::{FileChange, Workspace};
use std::collections::BTreeMap;

/// Where the dictionary lives, under the workspace root.
pub const DICTIONARY_FILE: &str = ".cowriting/dictionary.txt";
/// Not `dictionary.txt.lock`: that is the lock of a document `dictionary.txt`.
const DICTIONARY_LOCK: &str = "dictionary.lock";

/// The longest word the dictionary takes, in bytes.
pub const MAX_WORD: usize = 100;

/// The workspace's words, matched whatever their case.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dictionary {
    /// Lower-cased word → the word as written.
    words: BTreeMap<String, String>,
}

impl Dictionary {
    /// Read `W/.cowriting/dictionary.txt` (empty when there is none).
    pub fn load(ws: &Workspace) -> Result<Dictionary> {
        Ok(Dictionary::parse(&read(ws)?.unwrap_or_default()))
    }

    /// The words of a dictionary file's text.
    pub fn parse(text: &str) -> Dictionary {
        let mut d = Dictionary::default();
        for line in text.lines().map(str::trim) {
            if !line.is_empty() && !line.starts_with('#') {
                d.words
                    .entry(line.to_lowercase())
                    .or_insert_with(|| line.to_owned());
            }
        }
        d
    }

    /// Whether `word` is in the dictionary, whatever its case.
    pub fn contains(&self, word: &str) -> bool {
        self.words.contains_key(&word.to_lowercase())
    }

    /// The words as written, in order.
    pub fn words(&self) -> Vec<String> {
        self.words.values().cloned().collect()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Add `word` to the workspace's dictionary (a no-op when it is there in any
    /// case). Answers the dictionary as written.
    pub fn add(ws: &Workspace, word: &str) -> Result<Dictionary> {
        let word = checked(word)?;
        update(ws, |text| {
            let d = Dictionary::parse(text);
            if d.contains(word) {
                return None;
            }
            let mut lines: Vec<&str> = text.lines().collect();
            lines.push(word);
            Some(render(lines))
        })
    }

    /// Remove `word` (in any case) from the workspace's dictionary; a no-op when
    /// it is not there.
    pub fn remove(ws: &Workspace, word: &str) -> Result<Dictionary> {
        let word = checked(word)?.to_lowercase();
        update(ws, |text| {
            let lines: Vec<&str> = text.lines().filter(|l| l.trim().to_lowercase() != word).collect();
            (lines.len() != text.lines().count()).then(|| render(lines))
        })
    }
}

/// A word the dictionary can hold: one line, no spaces, not a comment.
fn checked(word: &str) -> Result<&str> {
    let w = word.trim();
    let bad = |why: &str| {
        Err(Error::BadInput(format!(
            "cannot add {word:?} to the dictionary: {why}"
        )))
    };
    if w.is_empty() {
        return bad("it is empty");
    }
    if w.len() > MAX_WORD {
        return bad(&format!("a word is at most {MAX_WORD} bytes"));
    }
    if w.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return bad("a word has no spaces, line breaks or control characters");
    }
    if w.starts_with('#') {
        return bad("a line starting with # is a comment");
    }
    Ok(w)
}

/// The file's text for `lines`: the comments first as they were, then the
/// words sorted (case-insensitively) and each once, one per line.
fn render(lines: Vec<&str>) -> String {
    let (comments, words): (Vec<&str>, Vec<&str>) = lines
        .into_iter()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .partition(|l| l.starts_with('#'));
    let words: BTreeMap<String, &str> = words.into_iter().map(|w| (w.to_lowercase(), w)).collect();
    let mut out = String::new();
    for l in comments.into_iter().chain(words.into_values()) {
        out.push_str(l);
        out.push('\n');
    }
    out
}

fn read(ws: &Workspace) -> Result<Option<String>> {
    ws.read_internal_text(DICTIONARY_FILE)
}

/// Read-modify-write the dictionary under its lock; `f` answers the new text,
/// or `None` to leave the file as it is.
fn update(ws: &Workspace, f: impl Fn(&str) -> Option<String>) -> Result<Dictionary> {
    let after = ws.update_internal_text(DICTIONARY_FILE, DICTIONARY_LOCK, "the dictionary", |text| {
        Ok(f(text.unwrap_or_default()).map_or(FileChange::Keep, FileChange::Write))
    })?;
    Ok(Dictionary::parse(after.as_deref().unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws() -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::open(dir.path()).unwrap();
        (dir, ws)
    }

    #[test]
    fn words_match_whatever_their_case_and_the_file_stays_sorted() {
        let (dir, ws) = ws();
        assert!(Dictionary::load(&ws).unwrap().is_empty());
        Dictionary::add(&ws, "Tauri").unwrap();
        Dictionary::add(&ws, " ropey ").unwrap();
        let d = Dictionary::add(&ws, "TAURI").unwrap();
        assert!(d.contains("tauri") && d.contains("ROPEY"));
        assert!(!d.contains("taur"));
        assert_eq!(d.words(), ["ropey", "Tauri"]);
        let file = dir.path().join(DICTIONARY_FILE);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "ropey\nTauri\n");
        let d = Dictionary::remove(&ws, "tauri").unwrap();
        assert_eq!(d.words(), ["ropey"]);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "ropey\n");
        // Removing what is not there writes nothing.
        Dictionary::remove(&ws, "nope").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "ropey\n");
    }

    #[test]
    fn hand_edits_and_comments_are_kept() {
        let (dir, ws) = ws();
        let file = dir.path().join(DICTIONARY_FILE);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, "# our words\n\nzeta\nAlpha\n").unwrap();
        let d = Dictionary::add(&ws, "beta").unwrap();
        assert_eq!(d.words(), ["Alpha", "beta", "zeta"]);
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "# our words\nAlpha\nbeta\nzeta\n"
        );
    }

    #[test]
    fn what_is_not_a_word_is_refused() {
        let (dir, ws) = ws();
        for bad in [
            "",
            "  ",
            "two words",
            "line\nbreak",
            "#hash",
            "a\u{2028}b",
            &"x".repeat(101),
        ] {
            let e = Dictionary::add(&ws, bad).unwrap_err();
            assert_eq!(e.info().code, crate::ErrorCode::BadInput, "{bad:?}");
        }
        assert!(!dir.path().join(DICTIONARY_FILE).exists());
    }

    #[test]
    fn the_dictionarys_lock_is_not_a_documents() {
        // A document named dictionary.txt, locked by a writer (in this process
        // two opens of one lock file conflict): the dictionary is not held up.
        let (_dir, ws) = ws();
        let doc = crate::workspace::DocPath::parse("dictionary.txt").unwrap();
        let _held = ws.lock_doc(&doc).unwrap();
        assert_eq!(Dictionary::add(&ws, "word").unwrap().words(), ["word"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_dictionary_is_refused_and_its_target_untouched() {
        let (dir, ws) = ws();
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("words.txt");
        std::fs::write(&target, "secret\n").unwrap();
        std::fs::create_dir_all(dir.path().join(".cowriting")).unwrap();
        std::os::unix::fs::symlink(&target, dir.path().join(DICTIONARY_FILE)).unwrap();
        assert!(Dictionary::add(&ws, "word").is_err());
        assert!(Dictionary::load(&ws).is_err());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "secret\n");
    }
}
