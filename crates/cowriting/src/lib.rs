//! # cowriting — the one API of Cowriting Desktop
//!
//! A writer and Claude (and grammar checkers) work on a folder of Markdown files
//! in git. Machines **propose** edits; a human accepts or rejects each one;
//! accepted text stays **attributed** to whoever wrote it; comment **threads**
//! anchor to text. Everything persists in the JSON sidecars the VS Code cowriting
//! extension writes (`.threads/<doc>.json`), so both tools can work on one
//! workspace without losing each other's data.
//!
//! The code is in layers, each a package of the workspace (see
//! `docs/architecture.md`): the pure primitives (offsets, change sets,
//! documents, diffs, anchoring, attribution, history, the sidecar and contract
//! models) in `cowriting-core`; the shell over a workspace's files
//! (containment, locks, store, ledger, transactions, sessions) in
//! `cowriting-workspace`; the producers in `cowriting-producers`; git in
//! `cowriting-git`. This crate is the layer above them all — **the one API**,
//! [`ops`], the [`views`] every client shows, and the desktop app's window
//! layer, [`api::Api`] — and re-exports every layer below under the path it
//! always had ([`offset`], [`session`], [`producers`], [`gitops`], …), so a
//! client names one crate. It knows nothing of any UI, command line or
//! transport: the `cowriting` CLI and its MCP server (package `cowriting-cli`)
//! make every call through [`ops`]; the desktop app (`src-tauri/`) through
//! its [`desk::Desk`]: the [`api::Api`], which keeps sessions open above the
//! same operations, and the jobs running on them. All work
//! on [`Session`] for one open document, [`Store`] and [`Workspace`] beneath
//! it, and answer with the same [`views`].
//!
//! ## House rules
//!
//! - **One change type.** Every edit is a [`ChangeSet`]; every position-bearing
//!   thing maps through it in [`Session`], in one place.
//! - **Offset units are types** ([`offset`]): chars inside the core; UTF-8 bytes
//!   and UTF-16 units only at the boundary, converted by [`Document`].
//! - **Guard, don't rebase.** A proposal applies only where its exact text still
//!   is (INV-11); otherwise it is stale, loudly, never moved by a guess.
//! - **Never lose data.** Unknown sidecar fields are kept; a sidecar that cannot
//!   be parsed, or is newer, is never overwritten; every write is atomic.
//!
//! ## Glossary
//!
//! | word | meaning |
//! | --- | --- |
//! | **workspace** | the folder the writer opened; the only place the core touches |
//! | **document** | a UTF-8 text file in the workspace, named by a [`DocPath`] |
//! | **sidecar** | `.threads/<docPath>.json`, the [`Artifact`] of one document |
//! | **anchor** | a shared record (`anchors` map) that ties a thread, attribution or proposal to text |
//! | **fingerprint** | what an anchor remembers: the exact text, up to 32 chars of context each side, a line hint |
//! | **resolve** | finding a fingerprint's text again ([`anchor::resolve`]); never a guess |
//! | **orphaned** | an anchor whose text cannot be placed; kept, shown apart, never moved |
//! | **stale** | a proposal whose neighbourhood is there but whose target text changed |
//! | **span** | a contiguous range of text with one known author ([`attribution::Spans`]) |
//! | **attribution** | the sidecar record of a span |
//! | **proposal** | a pending machine edit: anchor + replacement + author (pending-only) |
//! | **turn** | one request to an agent; its proposals share a `turnId` |
//! | **provenance** | who wrote something: a human (their settings' or git's e-mail, else name) or an agent (model) |
//! | **thread** | a comment thread anchored to text; open or resolved |
//! | **revision** | a version of a document's bytes (git blob id, in the suggestion contract); `contract::Revision` holds the bytes with their hashes, computed once and shared by every suggestion checked against them |
//! | **change set** | an edit: retain / delete / insert over the whole document, in chars |

pub mod api;
pub mod desk;
pub mod ops;
pub mod views;

// The layers below, under the paths they always had (`cowriting::offset`,
// `cowriting::session`, `cowriting::producers`, `cowriting::gitops`, ...).
pub use cowriting_core::{
    anchor, attribution, authorship, changeset, contract, diff, document, hidden, history, merge, model,
    offset,
};
pub use cowriting_git as gitops;
pub use cowriting_producers as producers;
pub use cowriting_producers::{eval, suggest};
pub use cowriting_workspace::{
    check, config, error, fsutil, identity, ledger, lock, session, store, txn, workspace,
};

#[cfg(any(test, feature = "test-support"))]
pub use cowriting_core::test_support;

pub use changeset::{Assoc, ChangeSet, RangeAssoc};
pub use document::Document;
pub use error::{Error, ErrorCode, ErrorInfo, Result};
pub use model::{Artifact, Provenance};
pub use offset::{
    ByteOffset, ByteRange, CharOffset, CharRange, FileByteOffset, FileByteRange, LineCol, Utf16Offset,
};
pub use session::{ProposalState, ProposalView, ProposeOptions, SaveReport, Session, Target, ThreadView};
pub use store::Store;
pub use workspace::{DocPath, Workspace};
