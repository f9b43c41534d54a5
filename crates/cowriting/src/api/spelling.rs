//! Spelling and grammar as the writer types: the workspace's dictionary. The
//! lints themselves are [`crate::ops::lint_texts`], which the app calls off
//! the API's lock (Harper may take a while to load).

use super::*;
use crate::ops::DictionaryOut;

impl Api {
    /// Add `word` to the workspace's dictionary ("Add to dictionary").
    pub fn add_word(&self, word: &str) -> Result<DictionaryOut> {
        self.ops().add_word(word)
    }

    /// The workspace's dictionary, as Settings lists it.
    pub fn dictionary(&self) -> Result<DictionaryOut> {
        self.ops().dictionary()
    }

    /// Take `word` out of the workspace's dictionary (Settings' remove).
    pub fn remove_word(&self, word: &str) -> Result<DictionaryOut> {
        self.ops().remove_word(word)
    }
}
