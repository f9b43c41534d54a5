//! Claude as an editor in the app: a review pass over an open document (or
//! its selection), or a question in one of its threads. Prepared under the
//! state lock — the turn takes a copy of the text and the session tracks
//! every change the writer makes from it ([`Session::track`]) — run off the
//! lock and off the UI thread, and each item filed in the open session as it
//! arrives, items read together in one write (placed on the copy, carried to
//! the text as it is then, [`crate::ops::review::Turn::file_all`]), with
//! progress for the UI after each
//! (which then fetches the review in order with the writer's edits).

use super::*;
use crate::ops::review::{drive, InSession, Landed, ReviewOut, Turn};
use cowriting_producers::Cancel;
use serde::Serialize;
use std::sync::Mutex;
#[cfg(feature = "ts")]
use ts_rs::TS;

/// A review pass or a thread question, prepared.
pub struct ReviewJob {
    path: String,
    turn: Turn,
    key: String,
    out: ReviewOut,
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

fn with_api<T>(api: &Mutex<Option<Api>>, f: impl FnOnce(&mut Api) -> Result<T>) -> Result<T> {
    let mut guard = api.lock().unwrap_or_else(|e| e.into_inner());
    let api = guard
        .as_mut()
        .ok_or_else(|| Error::BadInput("no workspace is open".into()))?;
    f(api)
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

/// Run a prepared pass: Claude is asked off the lock; each item is filed
/// under `api`'s lock as it arrives, and `progress` told. Cancel (through
/// `cancel`) or a failure keeps what was filed: the answer then says why it
/// stopped (`out.stopped`); it is an error only when nothing was filed.
pub fn run_review_job(
    api: &Mutex<Option<Api>>,
    cfg: &Config,
    job: ReviewJob,
    ui_job: &str,
    cancel: &Cancel,
    progress: &mut dyn FnMut(ReviewProgress),
) -> Result<ReviewOut> {
    let ReviewJob { path, turn, key, out } = job;
    let turn_id = turn.turn_id.clone();
    let mut in_session = |_: &str, f: &mut InSession| -> Result<()> {
        with_api(api, |a| {
            let s = a.session_mut(&path)?;
            let change = s.tracked_change(&key).filter(|c| !c.is_identity()).cloned();
            f(s, change.as_ref())
        })
    };
    let done = drive(
        turn,
        out,
        cfg,
        cancel,
        &mut in_session,
        &mut |out, part, landed| {
            progress(ReviewProgress {
                job: ui_job.to_owned(),
                path: path.clone(),
                turn_id: turn_id.clone(),
                part,
                parts: out.parts,
                landed: landed.cloned(),
                threads: out.threads.len() as u32,
                proposals: out.proposals.len() as u32,
                skipped: out.skipped.len() as u32,
            })
        },
    );
    // The turn is over: its copy's changes are no longer tracked (a document
    // closed meanwhile has nothing to untrack).
    let _ = with_api(api, |a| {
        if let Ok(s) = a.session_mut(&path) {
            s.untrack(&key);
        }
        Ok(())
    });
    done
}
