//! # cowriting-workspace — the shell over a workspace's files
//!
//! The layer between the pure core (`cowriting-core`: offsets, change sets,
//! documents, anchoring, the sidecar and contract models) and everything that
//! runs producers, talks git or serves a client. It owns every read and write of
//! a workspace:
//!
//! | module | what it owns |
//! | --- | --- |
//! | [`workspace`] | the folder, its documents ([`DocPath`]) and the containment guard |
//! | [`fsutil`] | reads that never follow a link or hang on a FIFO, atomic writes checked against what was read |
//! | [`lock`] | the per-document lock every read-modify-write holds |
//! | [`store`] | sidecars and documents on disk ([`Store`]) |
//! | [`documents`] | documents as files: new, rename (review data follows), to the trash, new folders |
//! | [`ledger`] | the suggestion contract's ledger and decision log |
//! | [`txn`] | decisions as transactions with a recovery record |
//! | [`session`] | one open document: editing, undo, proposals, threads, saving ([`Session`]) |
//! | [`identity`] | who is writing: the human (their settings, else git, else `$USER`), agents' provenance |
//! | [`config`] | the user's settings file |
//! | [`dictionary`] | the workspace's own words for the spelling checker |
//! | [`check`] | `cowriting check`: what is wrong with the sidecars |
//! | [`error`] | the typed errors and their one `{code, message}` shape |
//!
//! It knows nothing of producers, git integration beyond reading identity and
//! revisions, the API or any client; those are the layers above
//! (`cowriting-producers`, `cowriting-git`, `cowriting`).

pub mod check;
pub mod config;
pub mod dictionary;
pub mod documents;
pub mod error;
pub mod fsutil;
pub mod identity;
pub mod ledger;
pub mod lock;
pub mod outfile;
pub mod session;
pub mod store;
pub mod txn;
pub mod workspace;
pub mod workspace_settings;

pub use error::{Error, ErrorCode, ErrorInfo, Result};
pub use session::{
    NewProposals, NewThread, ProposalState, ProposalView, ProposeOptions, SaveReport, Session, Target,
    ThreadView,
};
pub use store::Store;
pub use workspace::{DocPath, Workspace};
