//! Typed errors of the core, and the one `{code, message}` shape every client
//! (CLI, desktop IPC, later MCP) shows them in.
//!
//! Codes exist only where a caller branches on them: the CLI maps each to an exit
//! code ([`ErrorCode::exit_code`]); the UI tells "stale proposal" from "disk
//! failure" by code, never by matching message text.

use cowriting_core::document::DocumentError;
use cowriting_core::model::ModelError;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use thiserror::Error;

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong, by what a caller does about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The request was wrong: usage, a path, an offset, a text not found.
    BadInput,
    /// An id or document that does not exist.
    NotFound,
    /// A guard refused: the proposal's text changed (INV-11).
    Stale,
    /// A guard refused: the proposal's text cannot be found.
    Orphaned,
    /// A guard refused: the sidecar was written by a newer version.
    NewerSchema,
    /// The sidecar cannot be parsed; it is never overwritten.
    CorruptSidecar,
    /// The disk failed.
    Io,
    /// A producer (Claude, Vale, an external command) failed or answered badly;
    /// nothing was filed.
    Producer,
    /// The user cancelled a running turn; nothing was filed.
    Cancelled,
    /// A producer took longer than its time limit and was stopped; nothing was filed.
    TimedOut,
    /// A producer's program is not on this machine; nothing was filed.
    NotInstalled,
    /// An edit was made on another version of the text than the one the core
    /// holds (the client's copy and the core's diverged): refused, the client reloads.
    OutOfStep,
    /// A document, folder or file of its review data is already at the name
    /// asked for (new, rename, new folder): nothing was changed.
    Exists,
    /// A guard refused until the writer confirms: the proposal's replacement
    /// holds characters a reader cannot see or that reorder text (bidi
    /// controls, zero-width); what is shown is not what accept would insert.
    NeedsConfirmation,
}

impl ErrorCode {
    /// The CLI's exit code: 2 bad input, 3 refused by a guard, 4 corrupt sidecar,
    /// 5 a producer failed or is not installed, 6 cancelled or timed out, 1
    /// anything else.
    pub fn exit_code(self) -> i32 {
        match self {
            ErrorCode::BadInput | ErrorCode::NotFound | ErrorCode::Exists => 2,
            ErrorCode::Stale
            | ErrorCode::Orphaned
            | ErrorCode::NewerSchema
            | ErrorCode::OutOfStep
            | ErrorCode::NeedsConfirmation => 3,
            ErrorCode::CorruptSidecar => 4,
            ErrorCode::Io => 1,
            ErrorCode::Producer | ErrorCode::NotInstalled => 5,
            ErrorCode::Cancelled | ErrorCode::TimedOut => 6,
        }
    }
}

/// The error shape that crosses process boundaries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ErrorInfo {
    pub code: ErrorCode,
    pub message: String,
}

#[derive(Debug, Error)]
pub enum Error {
    #[error("{0}")]
    BadInput(String),
    #[error("{path}: {source}")]
    Document { path: String, source: DocumentError },
    #[error("{path}: path is outside the workspace ({why})")]
    OutsideWorkspace { path: String, why: &'static str },
    #[error("{path}: no such document in the workspace")]
    MissingDocument { path: String },
    #[error("{what} {id} not found in {doc}")]
    NotFound {
        what: &'static str,
        id: String,
        doc: String,
    },
    /// A proposal the decision log says was decided (and not undone): a copy
    /// of its sidecar from before the decision brought it back. Never applied
    /// or decided again.
    #[error("proposal {id} in {doc} was already {outcome} by {by} at {at} (the decision log says so); not applied again")]
    AlreadyDecided {
        id: String,
        doc: String,
        outcome: &'static str,
        by: String,
        at: String,
    },
    #[error("{text:?} not found in {doc}")]
    TextNotFound { text: String, doc: String },
    /// The text occurs `count` times and no occurrence was named. (Clients
    /// reword it with their own way of naming one: the CLI's `--nth`, MCP's
    /// `occurrence`.)
    #[error("{text:?} occurs {count} times in {doc}; say which occurrence, 1..{count}")]
    Ambiguous { text: String, count: usize, doc: String },
    /// Occurrence `nth` (1-based) was asked for; the text occurs `count` times.
    #[error("occurrence {nth}: {text:?} occurs {count} time{} in {doc}", if *.count == 1 { "" } else { "s" })]
    NoSuchOccurrence {
        text: String,
        nth: usize,
        count: usize,
        doc: String,
    },
    #[error("proposal {id} is stale: {reason}; not applied")]
    Stale { id: String, reason: String },
    #[error("proposal {id} is orphaned: its target text {target:?} is not in the document; not applied")]
    Orphaned { id: String, target: String },
    #[error("{file}: {source}; not overwritten")]
    NewerSchema { file: PathBuf, source: ModelError },
    #[error("{file}: {source}; not overwritten")]
    CorruptSidecar { file: PathBuf, source: ModelError },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    /// A contract record was malformed, or its span is stale.
    #[error("{0}")]
    Contract(#[from] cowriting_core::contract::ContractError),
    /// A producer failed or answered badly; `producer` names it.
    #[error("{producer}: {message}")]
    Producer { producer: String, message: String },
    #[error("{what} was cancelled; nothing was filed")]
    Cancelled { what: String },
    /// `limit` says which limit it reached and the setting that sets it:
    /// `"without output ([claude] timeout_secs)"`, `"of running ([claude] run_secs)"`.
    #[error("{what} timed out after {secs} s {limit}; nothing was filed")]
    TimedOut { what: String, secs: u64, limit: String },
    /// `program` is not on `PATH`; `hint` says what else would do.
    #[error("{producer}: {program:?} is not installed (not found on PATH){}", hint_text(.hint))]
    NotInstalled {
        producer: String,
        program: String,
        hint: Option<String>,
    },
    /// `path` (a document, a folder, or a document's sidecar or ledger file,
    /// `what` says which) is already there: never overwritten.
    #[error("{path}: {what} already exists; nothing was changed")]
    Exists { path: String, what: &'static str },
    /// An edit based on `version` of `path`'s text, which is at `current`.
    #[error("{path}: edit for version {version}, but the document is at version {current}; reload it")]
    OutOfStep {
        path: String,
        version: u64,
        current: u64,
    },
    /// Proposal `id`'s replacement holds hidden characters (`chars`: their
    /// code points and names); accepted only once the writer confirmed it.
    #[error("proposal {id} inserts characters that are invisible or reorder the text around them ({chars}); not applied until confirmed")]
    HiddenUnconfirmed { id: String, chars: String },
}

fn hint_text(hint: &Option<String>) -> String {
    hint.as_deref().map(|h| format!(": {h}")).unwrap_or_default()
}

impl Error {
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::BadInput(_)
            | Error::Document { .. }
            | Error::OutsideWorkspace { .. }
            | Error::MissingDocument { .. }
            | Error::TextNotFound { .. }
            | Error::Ambiguous { .. }
            | Error::NoSuchOccurrence { .. } => ErrorCode::BadInput,
            Error::NotFound { .. } | Error::AlreadyDecided { .. } => ErrorCode::NotFound,
            Error::Stale { .. } => ErrorCode::Stale,
            Error::Orphaned { .. } => ErrorCode::Orphaned,
            Error::NewerSchema { .. } => ErrorCode::NewerSchema,
            Error::CorruptSidecar { .. } => ErrorCode::CorruptSidecar,
            Error::Io { .. } => ErrorCode::Io,
            Error::Contract(cowriting_core::contract::ContractError::Invalid { .. }) => ErrorCode::BadInput,
            Error::Contract(cowriting_core::contract::ContractError::StaleSpan { .. }) => ErrorCode::Stale,
            Error::Producer { .. } => ErrorCode::Producer,
            Error::Cancelled { .. } => ErrorCode::Cancelled,
            Error::TimedOut { .. } => ErrorCode::TimedOut,
            Error::NotInstalled { .. } => ErrorCode::NotInstalled,
            Error::OutOfStep { .. } => ErrorCode::OutOfStep,
            Error::Exists { .. } => ErrorCode::Exists,
            Error::HiddenUnconfirmed { .. } => ErrorCode::NeedsConfirmation,
        }
    }

    /// A file that could not be parsed (it may be half-written by a writer that takes no lock).
    pub fn is_corrupt(&self) -> bool {
        matches!(self, Error::CorruptSidecar { .. })
    }

    pub fn info(&self) -> ErrorInfo {
        ErrorInfo {
            code: self.code(),
            message: self.to_string(),
        }
    }

    /// An I/O failure on `path`, as a closure for `map_err`. A name longer than
    /// a file name may be is the request's fault, not the disk's: bad input.
    pub fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Error {
        let path = path.into();
        move |source| {
            use crate::fsutil::NAME_MAX;
            if source.raw_os_error() == Some(libc::ENAMETOOLONG) {
                let review = [".threads", ".cowriting"]
                    .iter()
                    .any(|d| path.components().any(|c| c.as_os_str() == *d));
                return Error::BadInput(format!(
                    "{}: a name longer than a file name may be ({NAME_MAX} bytes){}",
                    path.display(),
                    if review {
                        format!("; a document's review data is kept under its name and `.json` (`.threads/<name>.json`, where VS Code reads it), so a document whose name has more than {} bytes can have no proposals or threads: rename it", NAME_MAX - ".json".len())
                    } else {
                        String::new()
                    }
                ));
            }
            Error::Io { path, source }
        }
    }

    /// A sidecar that failed to parse, classified.
    pub fn sidecar(file: PathBuf, source: ModelError) -> Error {
        match source {
            ModelError::NewerSchema { .. } => Error::NewerSchema { file, source },
            _ => Error::CorruptSidecar { file, source },
        }
    }
}
