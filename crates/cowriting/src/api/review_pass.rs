//! Claude as an editor in the app: a review pass over an open document (or
//! its selection), or a question in one of its threads. Prepared under the
//! state lock — the turn takes a copy of the text and the session tracks
//! every change the writer makes from it ([`Session::track`]) — run off the
//! lock and off the UI thread, and each item filed in the open session the
//! moment it arrives (placed on the copy, carried to the text as it is then,
//! [`crate::ops::review::Turn::file`]), with progress for the UI after each
//! (which then fetches the review in order with the writer's edits).

use super::*;
use crate::ops::review::{Landed, ReviewOut, Turn};
use cowriting_core::contract::Producer as ContractProducer;
use cowriting_producers::pass::{self, Event};
use cowriting_producers::review;
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
    by: Option<ContractProducer>,
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
            by: None,
        }
    }

    /// File one item of a running pass in the open session.
    fn file_review_item(
        &mut self,
        job: &mut ReviewJob,
        line: usize,
        item: review::Item,
        by: &ContractProducer,
    ) -> Result<Option<Landed>> {
        let s = self.session_mut(&job.path)?;
        let change = s.tracked_change(&job.key).filter(|c| !c.is_identity()).cloned();
        let landed = job.turn.file(s, change.as_ref(), line, item, by)?;
        job.out.warnings.extend(s.take_warnings());
        Ok(landed)
    }

    /// End a pass: post the reply a thread question kept, stop tracking.
    fn finish_review_job(&mut self, job: &mut ReviewJob, by: &ContractProducer) -> Result<()> {
        // A document closed meanwhile: nothing more to post in it.
        let Ok(s) = self.session_mut(&job.path) else {
            return Ok(());
        };
        s.untrack(&job.key);
        if let Some(landed) = job.turn.finish(s, by)? {
            job.out.add(&landed);
        }
        job.out.warnings.extend(s.take_warnings());
        Ok(())
    }
}

/// Run a prepared pass: Claude is asked off the lock; each item is filed
/// under `api`'s lock as it arrives, and `progress` told. Cancel (through
/// `cancel`) or a failure keeps what was filed: the answer then says why it
/// stopped (`out.stopped`); it is an error only when nothing was filed.
pub fn run_review_job(
    api: &Mutex<Option<Api>>,
    cfg: &Config,
    mut job: ReviewJob,
    ui_job: &str,
    cancel: &Cancel,
    progress: &mut dyn FnMut(ReviewProgress),
) -> Result<ReviewOut> {
    let api_key = match pass::api_key_from_env() {
        Ok(k) => k,
        Err(e) => {
            let _ = with_api(api, |a| a.finish_review_job(&mut job, &fallback(cfg)));
            return Err(e);
        }
    };
    let prompts = std::mem::take(&mut job.turn.prompts);
    let ask = job.turn.ask;
    let mut part = 0u32;
    let ran = {
        let job = &mut job;
        let mut report = |job: &ReviewJob, part: u32, landed: Option<Landed>| {
            progress(ReviewProgress {
                job: ui_job.to_owned(),
                path: job.path.clone(),
                turn_id: job.turn.turn_id.clone(),
                part,
                parts: job.out.parts,
                landed,
                threads: job.out.threads.len() as u32,
                proposals: job.out.proposals.len() as u32,
                skipped: job.out.skipped.len() as u32,
            })
        };
        pass::run(&cfg.claude, api_key.as_deref(), &prompts, ask, cancel, &mut |e| {
            match e {
                Event::Part { index, count } => {
                    part = index as u32;
                    job.out.parts = count as u32;
                    report(job, part, None);
                }
                Event::Invalid { line, reason } => {
                    job.out.items += 1;
                    let landed = Landed::Skipped(review_item_skipped(line, format!("not an item: {reason}")));
                    job.out.add(&landed);
                    report(job, part, Some(landed));
                }
                Event::Item { line, item, by, .. } => {
                    job.out.items += 1;
                    job.by = Some(by.clone());
                    if let Some(landed) = with_api(api, |a| a.file_review_item(job, line, item, by))? {
                        job.out.add(&landed);
                        report(job, part, Some(landed));
                    }
                }
            }
            Ok(())
        })
    };
    let by = match &ran {
        Ok(end) => end.producer.clone(),
        Err(_) => job.by.clone().unwrap_or_else(|| fallback(cfg)),
    };
    if let Ok(end) = &ran {
        job.out.model = end.model.clone();
    }
    with_api(api, |a| a.finish_review_job(&mut job, &by))?;
    if let Err(e) = ran {
        if job.out.threads.is_empty() && job.out.proposals.is_empty() && job.out.reply.is_none() {
            return Err(e);
        }
        job.out.stopped = Some(crate::ops::review::stopped_info(&e));
    }
    Ok(job.out)
}

fn review_item_skipped(line: usize, reason: String) -> crate::ops::review::SkippedItem {
    crate::ops::review::SkippedItem {
        line: line as u32,
        reason,
    }
}

fn fallback(cfg: &Config) -> ContractProducer {
    crate::ops::review::fallback_producer(cfg)
}
