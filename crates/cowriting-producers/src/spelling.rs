//! Spelling and grammar as the writer types: Harper's lints of the text on
//! screen, each with its message and the replacements it offers, for the app
//! to underline. Nothing is filed: a fix the writer clicks is the writer's own
//! edit. (Check document is the other way in: it files Harper's findings as
//! proposals, [`crate::suggest`].)
//!
//! Both ways leave out spelling lints of the words in the workspace's
//! [`Dictionary`]. Harper runs where `checker` says: in the app's
//! checker process, else in this process; a build without the `harper`
//! feature answers a producer error.

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

/// Lint each of `texts` with Harper; the answer has one list per text, in
/// order. Spelling lints of `dictionary`'s words are left out.
pub fn lint(texts: &[String], dictionary: &Dictionary, cancel: &Cancel) -> Result<Vec<Vec<TextLint>>> {
    let mut all = harper_lints(texts, cancel)?;
    for (lints, text) in all.iter_mut().zip(texts) {
        lints.retain(|l| !silenced(&l.category, text, l.start, l.end, dictionary));
    }
    Ok(all)
}

#[cfg(feature = "harper")]
fn harper_lints(texts: &[String], cancel: &Cancel) -> Result<Vec<Vec<TextLint>>> {
    crate::checker::lint(texts, cancel)
}

#[cfg(not(feature = "harper"))]
fn harper_lints(_texts: &[String], _cancel: &Cancel) -> Result<Vec<Vec<TextLint>>> {
    Err(cowriting_workspace::error::Error::Producer {
        producer: "harper".into(),
        message: "this build of cowriting has no Harper (build with --features harper)".into(),
    })
}
