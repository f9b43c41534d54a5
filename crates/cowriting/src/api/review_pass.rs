//! Claude as an editor in the app: a review pass over an open document (or
//! its selection), or a question in one of its threads, prepared here and
//! run by [`crate::desk::Desk`]. Prepared under the
//! desk's lock — the turn takes a copy of the text and the session tracks
//! every change the writer makes from it ([`Session::track`]) — run off the
//! lock and off the UI thread, and each item filed in the open session as it
//! arrives, items read together in one write (placed on the copy, carried to
//! the text as it is then, [`crate::ops::claude_review::Turn::file_all`]), with
//! progress for the UI after each
//! (which then fetches the review in order with the writer's edits).

use super::*;
use crate::ops::claude_review::{Landed, ReviewOut, Turn};
use serde::Serialize;
#[cfg(feature = "ts")]
use ts_rs::TS;

/// A review pass or a thread question, prepared.
pub struct ReviewJob {
    pub(crate) path: String,
    pub(crate) turn: Turn,
    /// The name the session tracks the writer's changes from the turn's copy under.
    pub(crate) key: String,
    pub(crate) out: ReviewOut,
}

/// What happened in a running pass, for the UI (event `review-progress`).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ReviewProgress {
    /// The UI's id of the job (what `cancel_job` takes).
    pub job: String,
    pub path: String,
    pub turn_id: String,
    /// The part being reviewed, of how many (1-based).
    pub part: u32,
    pub parts: u32,
    /// What the last item became, when this progress is about one.
    pub landed: Option<Landed>,
    /// Threads and proposals filed so far, and items not placed.
    pub threads: u32,
    pub proposals: u32,
    pub skipped: u32,
}

impl Api {
    /// Prepare a review pass of the open document `path` — of the selection
    /// `from`..`to` (UTF-16) when given — as `instruction` says.
    pub fn prepare_review(
        &mut self,
        path: &str,
        from: Option<Utf16Offset>,
        to: Option<Utf16Offset>,
        instruction: Option<String>,
    ) -> Result<ReviewJob> {
        let s = self.session_mut(path)?;
        let scope = match (from, to) {
            (Some(a), Some(b)) if a != b => Some(Self::range_of(s, a, b)?),
            _ => None,
        };
        let turn = Turn::review(s, scope, instruction)?;
        Ok(Self::job(s, path, turn))
    }

    /// Prepare a question to Claude in `thread` of the open document `path`.
    pub fn prepare_thread_ask(
        &mut self,
        path: &str,
        thread: &str,
        instruction: Option<String>,
    ) -> Result<ReviewJob> {
        let s = self.session_mut(path)?;
        let turn = Turn::thread(s, thread, instruction)?;
        Ok(Self::job(s, path, turn))
    }

    fn job(s: &mut Session, path: &str, turn: Turn) -> ReviewJob {
        let key = format!("review-{}", turn.turn_id);
        s.track(&key);
        let out = ReviewOut {
            document: s.doc_path().to_string(),
            turn_id: turn.turn_id.clone(),
            ..ReviewOut::default()
        };
        ReviewJob {
            path: path.to_owned(),
            turn,
            key,
            out,
        }
    }
}
