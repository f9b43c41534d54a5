//! Producer runs for the app, the steps [`crate::desk::Desk`] takes: prepare
//! under its lock, run off it ([`Job::run`]), file the outcome or drop the job.

use super::*;

impl Api {
    /// Copy what a run of `producer` needs from an open document (the desk
    /// then runs it off the lock with [`Job::run`] and files it with
    /// [`Api::file_job`]). `from`/`to` are the selection in UTF-16 units
    /// (required for Claude).
    pub fn prepare_job(
        &mut self,
        path: &str,
        producer: ProducerKind,
        from: Option<Utf16Offset>,
        to: Option<Utf16Offset>,
        instruction: Option<String>,
    ) -> Result<Job> {
        let s = self.session_mut(path)?;
        let selection = match (from, to) {
            (Some(a), Some(b)) => Some(Self::range_of(s, a, b)?),
            _ => None,
        };
        Job::prepare(s, producer, selection, instruction)
    }

    /// File what a job found in its document.
    pub fn file_job(&mut self, path: &str, job: &Job, outcome: RunOutcome) -> Result<FilingDto> {
        let s = self.session_mut(path)?;
        let filing = job.file(s, outcome)?;
        let warnings = s.take_warnings();
        let doc = s.doc_path().clone();
        Ok(FilingDto {
            producer: filing.producer,
            turn_id: filing.turn_id,
            filed: filing.filed.len() as u32,
            skipped: filing.skipped,
            migrated: filing.migrated as u32,
            warnings,
            review: self.review_now(&doc)?,
        })
    }

    /// Forget a job that failed or was cancelled (its selection pin).
    pub fn drop_job(&mut self, path: &str, job: &Job) {
        if let Ok(s) = self.session_mut(path) {
            job.abandon(s);
        }
    }
}
