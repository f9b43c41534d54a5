//! Spelling as the writer types: the words of the text on screen checked
//! against a Hunspell dictionary ([`crate::hunspell`], in process, a few MiB),
//! each misspelled one with the dictionary's closest words, for the app to
//! underline. Nothing is filed: a fix the writer clicks is the writer's own
//! edit. Grammar is Harper's, on demand: Check document files its findings as
//! proposals ([`crate::suggest`]), in the app's checker process, which starts
//! only then and exits when idle.
//!
//! Both ways leave out spelling lints of the words in the workspace's
//! [`Dictionary`].

use cowriting_workspace::dictionary::Dictionary;
use cowriting_workspace::error::Result;
use serde::{Deserialize, Serialize};

use crate::Cancel;

/// The category of the lints the dictionary can silence.
pub const SPELLING: &str = "spelling";

/// One lint of a text: where (bytes of the text linted), what kind, why, and
/// the replacements offered, closest to what was written first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextLint {
    pub start: usize,
    pub end: usize,
    /// Harper's lint kind, lower case: `spelling`, `grammar`, `punctuation`, …
    pub category: String,
    /// The rule that found it.
    pub rule: String,
    /// One line.
    pub message: String,
    pub replacements: Vec<String>,
}

/// Whether `dictionary` says a finding of `category` on bytes `start..end` of
/// `text` is wrong: a spelling finding on one of its words. For lints as the
/// writer types and for Check document's Harper suggestions alike.
pub fn silenced(category: &str, text: &str, start: usize, end: usize, dictionary: &Dictionary) -> bool {
    category == SPELLING && text.get(start..end).is_some_and(|w| dictionary.contains(w))
}

/// Check the spelling of each of `texts` (Markdown blocks) against the
/// Hunspell dictionary of `language`; the answer has one list per text, in
/// order. `dictionary`'s words are left out.
pub fn lint(
    texts: &[String],
    dictionary: &Dictionary,
    language: &str,
    cancel: &Cancel,
) -> Result<Vec<Vec<TextLint>>> {
    let speller = crate::hunspell::Speller::get(language)?;
    let mut all = Vec::with_capacity(texts.len());
    for text in texts {
        if cancel.is_cancelled() {
            return Err(cowriting_workspace::error::Error::Cancelled {
                what: "spelling".into(),
            });
        }
        let mut lints = speller.lint(text);
        lints.retain(|l| !silenced(&l.category, text, l.start, l.end, dictionary));
        all.push(lints);
    }
    Ok(all)
}
