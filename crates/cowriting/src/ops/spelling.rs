//! Spelling and grammar as the writer types ([`cowriting_producers::spelling`])
//! and the workspace's dictionary ([`Dictionary`]), for every client: the
//! app lints the paragraphs on screen ([`lint_texts`]), the CLI a whole
//! document ([`Ops::lint`]); both add and remove words the same way.

use super::*;
use cowriting_producers::spelling::{self, TextLint};
use cowriting_workspace::dictionary::Dictionary;
use cowriting_workspace::workspace_settings::WorkspaceSettings;

/// Check the spelling of `texts` (the app's paragraphs on screen, as it has
/// them: unsaved text included) against the workspace's language (its
/// `.cowriting/settings.toml`), else the user's (`[spelling] language`),
/// leaving out the workspace's words; positions in
/// `unit` of each text. The dictionary loads at the first call (tens of ms):
/// call it off any lock and off the UI thread.
pub fn lint_texts(ws: &Workspace, texts: &[String], unit: Unit, cancel: &Cancel) -> Result<LintsOut> {
    let dictionary = Dictionary::load(ws)?;
    // (What the workspace's settings file had set aside is said in Settings.)
    let language = ws.config(&mut Vec::new())?.spelling.language;
    let all = spelling::lint(texts, &dictionary, &language, cancel)?;
    Ok(LintsOut {
        unit,
        lints: all
            .into_iter()
            .zip(texts)
            .map(|(lints, text)| views_of(text, lints, unit))
            .collect(),
    })
}

/// The views of `lints` of `text`, in order.
fn views_of(text: &str, lints: Vec<TextLint>, unit: Unit) -> Vec<views::LintDto> {
    // Where each start and end is, found in one pass over the text.
    let mut marks: Vec<usize> = lints.iter().flat_map(|l| [l.start, l.end]).collect();
    marks.sort_unstable();
    marks.dedup();
    let mut table = Vec::with_capacity(marks.len());
    let (mut at, mut chars) = (Position::default(), text.char_indices().peekable());
    for m in marks {
        while let Some((_, c)) = chars.next_if(|&(i, _)| i < m) {
            at.utf16 += c.len_utf16();
            at.line += usize::from(c == '\n');
        }
        table.push((m, at));
    }
    let position = |byte: usize| {
        let i = table.partition_point(|&(m, _)| m < byte);
        table[i].1
    };
    let offset = |byte: usize| match unit {
        Unit::Utf16 => position(byte).utf16 as u32,
        Unit::Byte => byte as u32,
    };
    lints
        .into_iter()
        .map(|l| views::LintDto {
            from: offset(l.start),
            to: offset(l.end),
            line: position(l.start).line as u32 + 1,
            text: text.get(l.start..l.end).unwrap_or_default().to_owned(),
            category: l.category,
            rule: l.rule,
            message: l.message,
            replacements: l.replacements,
        })
        .collect()
}

#[derive(Clone, Copy, Debug, Default)]
struct Position {
    utf16: usize,
    line: usize,
}

impl Ops {
    /// Lint `doc` as it is on disk (see [`lint_texts`]).
    pub fn lint(&self, doc: &str, cancel: &Cancel) -> Result<LintOut> {
        let doc = self.doc(doc)?;
        let text = self.workspace().read_document(&doc)?.flatten();
        let mut out = lint_texts(self.workspace(), &[text], self.unit, cancel)?;
        Ok(LintOut {
            document: doc.to_string(),
            unit: self.unit,
            lints: out.lints.pop().unwrap_or_default(),
        })
    }

    /// The workspace's dictionary.
    pub fn dictionary(&self) -> Result<DictionaryOut> {
        Ok(DictionaryOut::of(&Dictionary::load(self.workspace())?))
    }

    /// Add `word` to the workspace's dictionary.
    pub fn add_word(&self, word: &str) -> Result<DictionaryOut> {
        Ok(DictionaryOut::of(&Dictionary::add(self.workspace(), word)?))
    }

    /// Remove `word` from the workspace's dictionary.
    pub fn remove_word(&self, word: &str) -> Result<DictionaryOut> {
        Ok(DictionaryOut::of(&Dictionary::remove(self.workspace(), word)?))
    }
}

/// `language` if a Hunspell dictionary of that name is installed, else
/// `bad_input` naming those that are.
pub(crate) fn installed(language: &str) -> Result<&str> {
    let installed = cowriting_producers::hunspell::installed();
    if installed.iter().any(|l| l == language) {
        return Ok(language);
    }
    Err(Error::BadInput(format!(
        "no Hunspell dictionary {language:?} is installed: choose from {}",
        installed.join(", ")
    )))
}

impl Ops {
    /// The workspace's spelling language, and the language checked in here.
    pub fn spelling_language(&self) -> Result<SpellingLanguageOut> {
        let (cfg, warnings) = self.config()?;
        let ours = WorkspaceSettings::load(self.workspace()).ok();
        Ok(SpellingLanguageOut {
            file: cowriting_workspace::workspace_settings::SETTINGS_FILE.to_owned(),
            workspace: ours.and_then(|o| o.spelling_language),
            checked_in: cfg.spelling.language,
            warnings,
        })
    }

    /// Set the workspace's spelling language (an installed dictionary), or
    /// with `None` leave it to each writer.
    pub fn set_spelling_language(&self, language: Option<&str>) -> Result<SpellingLanguageOut> {
        let language = language.map(installed).transpose()?;
        WorkspaceSettings::set_spelling_language(self.workspace(), language)?;
        self.spelling_language()
    }
}

impl DictionaryOut {
    fn of(d: &Dictionary) -> DictionaryOut {
        DictionaryOut {
            file: cowriting_workspace::dictionary::DICTIONARY_FILE.to_owned(),
            words: d.words(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lint(start: usize, end: usize) -> TextLint {
        TextLint {
            start,
            end,
            category: "spelling".into(),
            rule: "R".into(),
            message: "m".into(),
            replacements: vec![],
        }
    }

    #[test]
    fn lints_are_placed_in_the_callers_unit_with_their_line() {
        // "é" is 2 bytes and 1 UTF-16 unit, "😀" 4 bytes and 2 units.
        let text = "é 😀 teh\nx wrod";
        let t = text.find("teh").unwrap();
        let w = text.find("wrod").unwrap();
        let lints = vec![lint(t, t + 3), lint(w, w + 4)];
        let v = views_of(text, lints.clone(), Unit::Utf16);
        assert_eq!(
            (v[0].from, v[0].to, v[0].line, v[0].text.as_str()),
            (5, 8, 1, "teh")
        );
        assert_eq!(
            (v[1].from, v[1].to, v[1].line, v[1].text.as_str()),
            (11, 15, 2, "wrod")
        );
        let v = views_of(text, lints, Unit::Byte);
        assert_eq!((v[0].from, v[0].to), (t as u32, t as u32 + 3));
        assert_eq!((v[1].from, v[1].to, v[1].line), (w as u32, w as u32 + 4, 2));
        // A lint inside another (ends out of order) and an empty one.
        let v = views_of("abcdef", vec![lint(0, 6), lint(1, 2), lint(3, 3)], Unit::Utf16);
        assert_eq!(
            v.iter().map(|l| (l.from, l.to)).collect::<Vec<_>>(),
            [(0, 6), (1, 2), (3, 3)]
        );
    }
}
