//! # cowriting-core — the pure core of Cowriting Desktop
//!
//! Text, positions and the records that live beside a document, with no file,
//! network or process I/O: everything here is a function of its inputs (and of
//! the clock and the system's randomness, for timestamps and fresh ids). The
//! workspace shell (`cowriting`: store, locks, ledger, sessions), the producers,
//! git and the clients are built on it; none of them is a dependency of it.
//!
//! | module | concept |
//! | --- | --- |
//! | [`offset`] | offset units as types: chars inside, UTF-8 bytes and UTF-16 units at the boundary |
//! | [`changeset`] | the one change type: apply, invert, compose, map |
//! | [`document`] | a document's text (a rope) and unit conversions |
//! | [`diff`] | word diffs of a target and its replacement |
//! | [`hidden`] | characters a reader cannot see or that reorder text (bidi controls, zero-width) |
//! | [`lookalike`] | letters of other scripts that pass for Latin ones in their context (a Cyrillic `а` in `pаypal`) |
//! | [`merge`] | three-way merge of prose: the writer's text and the file's, by sentence |
//! | [`anchor`] | fingerprints and finding their text again, never by a guess |
//! | [`attribution`] | who wrote each span of the text |
//! | [`authorship`] | how much of a text (and of each section) each author wrote |
//! | [`history`] | undo and redo, including decisions |
//! | [`model`] | the sidecar (`.threads/<doc>.json`) as the VS Code extension writes it |
//! | [`contract`] | the suggestion contract: suggestions, proposals, decisions, their ids |
//!
//! The glossary of the words used throughout is in the `cowriting` crate's docs.

pub mod anchor;
pub mod attribution;
pub mod authorship;
pub mod changeset;
pub mod contract;
pub mod diff;
pub mod document;
pub mod hidden;
pub mod history;
pub mod lookalike;
pub mod merge;
pub mod model;
mod model_serde;
pub mod offset;

#[cfg(any(test, feature = "test-support"))]
pub mod test_support;

pub use changeset::{Assoc, ChangeSet, RangeAssoc};
pub use document::Document;
pub use model::{Artifact, Provenance};
pub use offset::{
    ByteOffset, ByteRange, CharOffset, CharRange, FileByteOffset, FileByteRange, LineCol, Utf16Offset,
};
