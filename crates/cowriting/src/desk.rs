//! The desk: what the desktop app holds while it runs — the open workspace's
//! [`Api`] behind one lock, and the running jobs (a producer run, Check
//! document, a review pass, a question in a thread) by the UI's id, for
//! [`Desk::cancel_job`]. The app's commands are one call each on it; its
//! tests drive it without a window.
//!
//! Every job goes the same way: prepared under the lock (a copy of the text,
//! the session told to track the writer's changes from it), run off the lock
//! (the writer keeps typing), then filed in the open session or dropped (a
//! failure, a cancel). Progress is a callback ([`JobProgress`] for Check
//! document, [`ReviewProgress`] for a review pass): the app turns each into an
//! event; the desk knows nothing of windows or events.
//!
//! Its rules are the CLI's: Check document is [`crate::ops::check_document`],
//! a review pass is [`crate::ops::claude_review::drive`]; only where a job's session
//! comes from differs (the open one here, one on the files for `ops`).

use crate::api::review_pass::{ReviewJob, ReviewProgress};
use crate::api::{Api, FilingDto, Job, JobProgress, RestoreReport, SearchProgress, WorkspaceInfo};
use crate::ops::claude_review::{drive, InSession, ReviewOut};
use crate::ops::{InboxOut, LintsOut, SearchOut, SearchQuery};
use crate::views::Unit;
use cowriting_core::offset::Utf16Offset;
use cowriting_producers::suggest::{CheckOutcome, ProducerKind};
use cowriting_producers::Cancel;
use cowriting_workspace::config::Config;
use cowriting_workspace::error::{Error, Result};
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

/// Where a job's settings come from: the user's config file
/// ([`Config::load`]), read again for every job, so a change in Settings
/// counts from the next one; a test gives its own. The workspace's own
/// settings are put first ([`Desk::job_config`]).
type ConfigSource = Box<dyn Fn() -> Result<Config> + Send + Sync>;

/// See the module docs.
pub struct Desk {
    api: Mutex<Option<Api>>,
    /// Running jobs by the UI's id.
    jobs: Mutex<HashMap<String, Cancel>>,
    config: ConfigSource,
}

// The app shares its desk between threads (commands, the watcher, hot exit).
const _: fn() = || {
    fn shared<T: Send + Sync>() {}
    shared::<Desk>();
};

impl Default for Desk {
    fn default() -> Self {
        Desk::new()
    }
}

/// What opening a workspace gave.
pub struct Opened {
    pub info: WorkspaceInfo,
    /// What was restored from a crashed session's backups.
    pub restored: RestoreReport,
    /// The workspace's folder, as the API resolved it.
    pub root: std::path::PathBuf,
}

/// A job's cancel, registered under the UI's id while it runs.
struct Running<'a> {
    desk: &'a Desk,
    id: String,
    cancel: Cancel,
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        lock(&self.desk.jobs).remove(&self.id);
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn no_workspace() -> Error {
    Error::BadInput("no workspace is open".into())
}

impl Desk {
    /// A desk with no workspace open, reading the user's settings for each job.
    pub fn new() -> Desk {
        Desk::with_config(Config::load)
    }

    /// A desk whose jobs take their settings from `config`.
    pub fn with_config(config: impl Fn() -> Result<Config> + Send + Sync + 'static) -> Desk {
        Desk {
            api: Mutex::default(),
            jobs: Mutex::default(),
            config: Box::new(config),
        }
    }

    /// Open `dir` as the workspace (in place of the one open): a crashed
    /// session's unsaved buffers are restored before anything is shown.
    pub fn open(&self, dir: &Path) -> Result<Opened> {
        let mut api = Api::open(dir)?;
        let restored = api.restore_backups();
        let opened = Opened {
            info: api.workspace(),
            restored,
            root: api.root().to_path_buf(),
        };
        *lock(&self.api) = Some(api);
        Ok(opened)
    }

    /// Run `f` on the open workspace's API, under the lock.
    pub fn with<T>(&self, f: impl FnOnce(&mut Api) -> Result<T>) -> Result<T> {
        f(lock(&self.api).as_mut().ok_or_else(no_workspace)?)
    }

    /// The lock itself, for what must hold it across its own I/O (hot exit's
    /// backups and their removal at quit); `None` inside while no workspace is open.
    pub fn api(&self) -> MutexGuard<'_, Option<Api>> {
        lock(&self.api)
    }

    /// A job's settings: the source's, with the open workspace's own (its
    /// spelling language) put first, as `Ops` has them.
    fn job_config(&self) -> Result<Config> {
        let mut cfg = (self.config)()?;
        if let Some(api) = lock(&self.api).as_ref() {
            api.store().workspace().apply_settings(&mut cfg, &mut Vec::new());
        }
        Ok(cfg)
    }

    /// Ask the running job `job` to stop; an unknown id is ignored (the job
    /// may have ended).
    pub fn cancel_job(&self, job: &str) {
        if let Some(c) = lock(&self.jobs).get(job) {
            c.cancel();
        }
    }

    /// Whether a job of that id is running (a producer run or a review pass
    /// once prepared: its copy of the text taken; a Check document from its start).
    pub fn is_running(&self, job: &str) -> bool {
        lock(&self.jobs).contains_key(job)
    }

    fn start(&self, job: &str) -> Running<'_> {
        let cancel = Cancel::new();
        lock(&self.jobs).insert(job.to_owned(), cancel.clone());
        Running {
            desk: self,
            id: job.to_owned(),
            cancel,
        }
    }

    /// Run `producer` ("claude", "harper", "vale", an external one) on the
    /// open document `path` — on the selection `from`..`to` (UTF-16) when
    /// given, which Claude needs with an instruction — and file what it finds.
    /// Blocks until filed; `job` cancels it (nothing is filed).
    pub fn run_producer(
        &self,
        path: &str,
        producer: &str,
        from: Option<Utf16Offset>,
        to: Option<Utf16Offset>,
        instruction: Option<String>,
        job: &str,
    ) -> Result<FilingDto> {
        let cfg = self.job_config()?;
        let producer = ProducerKind::parse(producer, &cfg)?;
        let prepared = self.with(|a| a.prepare_job(path, producer, from, to, instruction))?;
        let running = self.start(job);
        self.run_prepared(&cfg, path, prepared, &running.cancel)
    }

    /// Run a job prepared under the lock ([`Api::prepare_job`]) off it, then
    /// file what it found or, when it failed or was cancelled, drop it.
    fn run_prepared(&self, cfg: &Config, path: &str, prepared: Job, cancel: &Cancel) -> Result<FilingDto> {
        match prepared.run(cfg, cancel) {
            Ok(outcome) => self.with(|a| a.file_job(path, &prepared, outcome)),
            Err(e) => {
                // A document closed meanwhile has nothing to forget.
                let _ = self.with(|a| {
                    a.drop_job(path, &prepared);
                    Ok(())
                });
                Err(e)
            }
        }
    }

    /// Check document on the open document `path`: every producer enabled in
    /// the settings, in turn ([`crate::ops::check_document`]), each prepared,
    /// run and filed as [`Desk::run_producer`] does; `progress` is told which
    /// is starting. No outcomes when none is enabled. `job` cancels the whole
    /// check: the running producer stops and the rest are not run.
    pub fn check_document(
        &self,
        path: &str,
        job: &str,
        progress: &mut dyn FnMut(JobProgress),
    ) -> Result<Vec<CheckOutcome<FilingDto>>> {
        let cfg = self.job_config()?;
        let running = self.start(job);
        let cancel = &running.cancel;
        Ok(crate::ops::check_document(
            &cfg,
            cancel,
            &mut |producer| {
                progress(JobProgress {
                    job: job.to_owned(),
                    producer: producer.to_owned(),
                })
            },
            &mut |producer| {
                let prepared = self.with(|a| a.prepare_job(path, producer, None, None, None))?;
                self.run_prepared(&cfg, path, prepared, cancel)
            },
        ))
    }

    /// Ask Claude to review the open document `path` (the selection
    /// `from`..`to` in UTF-16 units, or all of it) as `instruction` says: its
    /// comments become threads and its edits pending proposals, filed one by
    /// one as they arrive while the writer keeps typing, `progress` told of
    /// each. `job` cancels it; what landed stays.
    #[allow(clippy::too_many_arguments)]
    pub fn review_document(
        &self,
        path: &str,
        from: Option<Utf16Offset>,
        to: Option<Utf16Offset>,
        instruction: Option<String>,
        job: &str,
        progress: &mut dyn FnMut(ReviewProgress),
    ) -> Result<ReviewOut> {
        let cfg = self.job_config()?;
        let prepared = self.with(|a| a.prepare_review(path, from, to, instruction))?;
        self.run_review(&cfg, prepared, job, progress)
    }

    /// Ask Claude in `thread` of the open document `path`: its reply (and
    /// edits of the thread's text), filed as [`Desk::review_document`] files a review.
    pub fn ask_claude(
        &self,
        path: &str,
        thread: &str,
        instruction: Option<String>,
        job: &str,
        progress: &mut dyn FnMut(ReviewProgress),
    ) -> Result<ReviewOut> {
        let cfg = self.job_config()?;
        let prepared = self.with(|a| a.prepare_thread_ask(path, thread, instruction))?;
        self.run_review(&cfg, prepared, job, progress)
    }

    /// Run a prepared pass ([`drive`]): Claude is asked off the lock; each
    /// item is filed under it as it arrives, in the open session, through
    /// the writer's changes since the turn's copy. Cancel or a failure keeps
    /// what was filed: the answer then says why it stopped (`stopped`); it is
    /// an error only when nothing was filed.
    fn run_review(
        &self,
        cfg: &Config,
        prepared: ReviewJob,
        job: &str,
        progress: &mut dyn FnMut(ReviewProgress),
    ) -> Result<ReviewOut> {
        let running = self.start(job);
        let ReviewJob { path, turn, key, out } = prepared;
        let turn_id = turn.turn_id.clone();
        let mut in_session = |_: &str, f: &mut InSession| -> Result<()> {
            self.with(|a| {
                let s = a.session_mut(&path)?;
                let change = s.tracked_change(&key).filter(|c| !c.is_identity()).cloned();
                f(s, change.as_ref())
            })
        };
        let done = drive(
            turn,
            out,
            cfg,
            &running.cancel,
            &mut in_session,
            &mut |out, part, landed| {
                progress(ReviewProgress {
                    job: job.to_owned(),
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
        // The turn is over: its copy's changes are no longer tracked (a
        // document closed meanwhile has nothing to untrack).
        let _ = self.with(|a| {
            if let Ok(s) = a.session_mut(&path) {
                s.untrack(&key);
            }
            Ok(())
        });
        done
    }

    /// Spelling as the writer types: the lints of `texts` (UTF-16 units),
    /// checked off the lock.
    pub fn lint(&self, texts: &[String]) -> Result<LintsOut> {
        let store = self.with(|a| Ok(a.store().clone()))?;
        crate::ops::lint_texts(store.workspace(), texts, Unit::Utf16, &Cancel::new())
    }

    /// Search every document (the open ones as the writer has them, searched
    /// under the lock) and thread; the files are read off the lock, so a
    /// search of a large workspace never holds up typing or saving. As the
    /// Search tab runs it: the first find handed to `progress` as soon as its
    /// document is searched, then the finds gathered and handed over at most
    /// once per `every` (with how many documents were searched, finds or
    /// not), the rest before the answer; in the answer's order, adding up to
    /// it. The app passes [`crate::api::SEARCH_PROGRESS_EVERY`]. Under the UI's `job` id:
    /// cancelling it (a newer search) stops the search at the next document,
    /// nothing more handed over, its answer what was found so far.
    pub fn search_streamed(
        &self,
        query: &SearchQuery,
        job: &str,
        every: std::time::Duration,
        progress: &mut dyn FnMut(SearchProgress),
    ) -> Result<SearchOut> {
        let (ops, open) = self.with(|a| a.search_open(query))?;
        let running = self.start(job);
        let mut told = SearchProgress {
            job: job.to_owned(),
            searched: 0,
            hits: Vec::new(),
            threads: Vec::new(),
        };
        let has_finds = |p: &SearchProgress| !p.hits.is_empty() || !p.threads.is_empty();
        let mut found_any = false;
        let mut last = std::time::Instant::now();
        let mut say = |told: &mut SearchProgress, last: &mut std::time::Instant| {
            progress(SearchProgress {
                job: told.job.clone(),
                searched: told.searched,
                hits: std::mem::take(&mut told.hits),
                threads: std::mem::take(&mut told.threads),
            });
            *last = std::time::Instant::now();
        };
        let streamed = ops.search_with_streamed(query, open, |f| {
            if running.cancel.is_cancelled() {
                return ControlFlow::Break(());
            }
            told.searched += 1;
            told.hits.extend_from_slice(f.hits);
            told.threads.extend_from_slice(f.threads);
            let first = !found_any && has_finds(&told);
            found_any |= first;
            if first || last.elapsed() >= every {
                say(&mut told, &mut last);
            }
            ControlFlow::Continue(())
        })?;
        if !running.cancel.is_cancelled() && has_finds(&told) {
            say(&mut told, &mut last);
        }
        Ok(streamed.out)
    }

    /// The workspace's review (the Inbox): the open documents as the writer
    /// has them, taken under the lock; the rest read off it.
    pub fn inbox(&self) -> Result<InboxOut> {
        self.with(|a| Ok(a.inbox_open()))?.read()
    }
}
