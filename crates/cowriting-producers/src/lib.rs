//! Producers: what turns a document into contract [`Suggestion`]s.
//!
//! | producer | where it runs | module |
//! |---|---|---|
//! | Harper (`harper-core`), spelling and grammar | in process, behind the `harper` feature (`harper`); in the app, in a checker process it keeps while used (`checker`) | `harper`, `checker` |
//! | Vale, when installed | `vale --output=JSON` subprocess | [`vale`] |
//! | any command from the user's config | subprocess, contract on stdin/stdout | [`external`] |
//! | Claude, "edit this selection" | `claude -p` subprocess or the Messages API | [`claude`] |
//! | Claude as an editor: a review pass, an answer in a thread (streamed JSON Lines) | the same, streaming | [`review`] (the format), [`claude_stream`] (the transports), [`pass`] (a turn) |
//!
//! Spelling as the writer types ([`spelling`]) is a Hunspell dictionary in
//! process ([`hunspell`], the `spellbook` crate): underlines, not proposals.
//! Harper runs only when asked (Check document).
//!
//! Every producer gets a [`Request`] (the exact document bytes and their
//! identity) and returns a [`Run`]; nothing here touches the workspace — filing
//! the suggestions as proposals is [`cowriting_workspace::ledger`]'s job. Commands come only
//! from the user's [`cowriting_workspace::config::Config`], never from the workspace, and are
//! started without a shell, with document text on stdin or as an argument, each
//! through [`process`]: in its own process group, ended when this process dies,
//! within its producer's limits of time and output.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use cowriting_core::contract::{Producer, Suggestion};
use cowriting_core::offset::FileByteRange;
use cowriting_workspace::error::Error;

#[cfg(feature = "harper")]
pub mod checker;
pub mod claude;
pub mod claude_stream;
pub mod eval;
pub mod external;
#[cfg(feature = "harper")]
pub mod harper;
pub mod harper_rules;
pub mod hunspell;
pub mod pass;
pub mod process;
pub mod review;
pub mod spelling;
pub mod suggest;
pub mod vale;

/// What a producer is asked to look at.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// Workspace-relative document path (the contract's `docId`).
    pub doc_id: &'a str,
    /// The exact UTF-8 bytes the suggestions will be made on.
    pub bytes: &'a [u8],
    /// For Claude: the selection to rewrite.
    pub selection: Option<FileByteRange>,
    /// For Claude: what the human asked for.
    pub instruction: Option<&'a str>,
}

impl Request<'_> {
    /// The document as text (the bytes are a document, so they are UTF-8).
    pub fn text(&self) -> &str {
        std::str::from_utf8(self.bytes).expect("a request's bytes are a document's UTF-8 text")
    }
}

/// What a producer returned.
#[derive(Clone, Debug, Default)]
pub struct Run {
    /// Who produced them (also each suggestion's `producer`).
    pub producer: Option<Producer>,
    /// In contract order.
    pub suggestions: Vec<Suggestion>,
    /// Findings that could not be anchored or turned into a suggestion, each a
    /// one-line reason; reported to the human, never applied.
    pub skipped: Vec<String>,
}

/// A flag a running turn polls; set it to cancel.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn new() -> Self {
        Cancel::default()
    }
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// A producer failure with a one-line message.
pub fn failed(producer: &str, message: impl Into<String>) -> Error {
    Error::Producer {
        producer: producer.to_owned(),
        message: message.into(),
    }
}

/// The first line of a process's stderr, trimmed, for an error message.
pub fn first_line(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let line = s.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    let mut line = line.to_owned();
    if line.len() > 300 {
        let cut = (0..=300).rev().find(|&i| line.is_char_boundary(i)).unwrap_or(0);
        line.truncate(cut);
        line.push('…');
    }
    line
}
