//! Running producers on a document and filing what they find: the one path the
//! CLI (`cowriting suggest`), the desktop app ("Check document", "Ask Claude…")
//! and the MCP server share.
//!
//! A run has three steps so that a slow producer never holds the document:
//! [`Job::prepare`] copies the bytes (and pins the selection, for Claude),
//! [`Job::run`] runs the producer with no session borrowed, and [`Job::file`]
//! files the suggestions in the session. When the human typed in between, the
//! suggestions are stale by hash: for a Claude turn whose selection is intact
//! they are migrated explicitly to where the selection now is (new ids,
//! `migratedFrom`); otherwise nothing is filed and the error says why.

use crate::{Cancel, Request, Run};
use cowriting_core::contract::{self, Suggestion};
use cowriting_core::model::new_id;
use cowriting_core::offset::{CharRange, FileByteRange};
use cowriting_workspace::config::Config;
use cowriting_workspace::dictionary::Dictionary;
use cowriting_workspace::error::{Error, ErrorInfo, Result};
use cowriting_workspace::ledger::{author_for, Filed};
use cowriting_workspace::session::{ProposeOptions, Session};

/// Which producer a job runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProducerKind {
    Harper,
    Vale,
    Claude,
    /// An external command from the user's config, by name.
    External(String),
}

impl ProducerKind {
    /// Parse a producer name; external names must be in the config.
    pub fn parse(name: &str, cfg: &Config) -> Result<ProducerKind> {
        match name {
            "harper" => Ok(ProducerKind::Harper),
            "vale" => Ok(ProducerKind::Vale),
            "claude" => Ok(ProducerKind::Claude),
            other if cfg.external.contains_key(other) => Ok(ProducerKind::External(other.to_owned())),
            other => {
                let mut known = vec!["harper".to_owned(), "vale".into(), "claude".into()];
                known.extend(cfg.external.keys().cloned());
                Err(Error::BadInput(format!(
                    "unknown producer {other:?}: choose one of {} (external producers are configured in {})",
                    known.join(", "),
                    Config::path()
                        .map(|p| p.display().to_string())
                        .unwrap_or_else(|| "config.toml".into())
                )))
            }
        }
    }

    pub fn name(&self) -> &str {
        match self {
            ProducerKind::Harper => "harper",
            ProducerKind::Vale => "vale",
            ProducerKind::Claude => "claude",
            ProducerKind::External(n) => n,
        }
    }
}

/// A producer run on a copy of a document.
#[derive(Clone, Debug)]
pub struct Job {
    pub producer: ProducerKind,
    pub doc_id: String,
    pub bytes: Vec<u8>,
    pub selection: Option<FileByteRange>,
    pub instruction: Option<String>,
    pub(crate) pin: Option<(String, String)>,
    /// For Harper: the workspace's words, whose spelling lints are not filed.
    pub(crate) dictionary: Dictionary,
}

/// What a finished job filed.
#[derive(Clone, Debug, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Filing {
    pub producer: String,
    pub turn_id: String,
    pub filed: Vec<Filed>,
    /// Findings reported but not filed, one line each.
    pub skipped: Vec<String>,
    /// Suggestions carried over because the human typed during the run.
    pub migrated: usize,
}

/// What [`Job::run`] returns.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    pub run: Run,
    pub turn_id: String,
}

impl Job {
    /// Copy what `producer` needs from `session`. For Claude `selection` and a
    /// non-empty `instruction` are required.
    pub fn prepare(
        session: &mut Session,
        producer: ProducerKind,
        selection: Option<CharRange>,
        instruction: Option<String>,
    ) -> Result<Job> {
        if producer == ProducerKind::Claude {
            let sel = selection.filter(|r| !r.is_empty());
            if sel.is_none() {
                return Err(Error::BadInput(
                    "Claude needs a selection: the text to edit".into(),
                ));
            }
            if instruction.as_deref().is_none_or(|i| i.trim().is_empty()) {
                return Err(Error::BadInput(
                    "Claude needs an instruction: what to do with the selection".into(),
                ));
            }
        }
        let bytes = session.contract_bytes();
        let mut pin = None;
        if let Some(r) = selection {
            let key = new_id("pin");
            session.pin(&key, r)?;
            pin = Some((key, session.document().slice(r)));
        }
        let dictionary = match producer {
            ProducerKind::Harper => Dictionary::load(session.workspace())?,
            _ => Dictionary::default(),
        };
        Ok(Job {
            dictionary,
            producer,
            doc_id: session.doc_path().as_str().to_owned(),
            selection: selection.map(|r| session.file_range_of(r)),
            instruction,
            bytes,
            pin,
        })
    }

    /// Run the producer (slow; no session held).
    pub fn run(&self, cfg: &Config, cancel: &Cancel) -> Result<RunOutcome> {
        let req = Request {
            doc_id: &self.doc_id,
            bytes: &self.bytes,
            selection: self.selection,
            instruction: self.instruction.as_deref(),
        };
        let new_turn = cowriting_core::model::new_turn_id;
        match &self.producer {
            ProducerKind::Claude => {
                let turn = crate::claude::edit_selection(&cfg.claude, &req, cancel)?;
                Ok(RunOutcome {
                    run: turn.run,
                    turn_id: turn.turn_id,
                })
            }
            ProducerKind::Vale => Ok(RunOutcome {
                run: crate::vale::run(&cfg.vale, &req, cancel)?,
                turn_id: new_turn(),
            }),
            ProducerKind::External(name) => Ok(RunOutcome {
                run: crate::external::run(name, &cfg.external[name], &req, cancel)?,
                turn_id: new_turn(),
            }),
            ProducerKind::Harper => {
                let setup = crate::harper_rules::HarperSetup::of(cfg);
                let mut run = harper(&req, &setup, cancel)?;
                let text = req.text();
                run.suggestions.retain(|s| {
                    !crate::spelling::silenced(
                        &s.category,
                        text,
                        s.span.start.0,
                        s.span.end.0,
                        &self.dictionary,
                    )
                });
                Ok(RunOutcome {
                    run,
                    turn_id: new_turn(),
                })
            }
        }
    }

    /// File what the run found in `session` (the same document). Unpins.
    pub fn file(&self, session: &mut Session, outcome: RunOutcome) -> Result<Filing> {
        let pinned = self
            .pin
            .as_ref()
            .map(|(k, text)| (session.pinned(k), text.clone()));
        if let Some((k, _)) = &self.pin {
            session.unpin(k);
        }
        let RunOutcome { run, turn_id } = outcome;
        let mut filing = Filing {
            producer: self.producer.name().to_owned(),
            turn_id: turn_id.clone(),
            skipped: run.skipped.clone(),
            ..Filing::default()
        };
        if run.suggestions.is_empty() {
            return Ok(filing);
        }
        let now = session.contract_bytes();
        let mut suggestions = run.suggestions;
        if now != self.bytes {
            suggestions = self.carry_over(session, &now, suggestions, pinned)?;
            filing.migrated = suggestions.len();
        }
        let producer = suggestions[0].producer.clone();
        let opts = ProposeOptions {
            author: author_for(&producer),
            turn_id: Some(turn_id),
            instruction: self.instruction.clone(),
        };
        filing.filed = session.file_suggestions(&suggestions, opts)?;
        Ok(filing)
    }

    /// The document changed during the run: carry suggestions over by the
    /// pinned selection's move when its text is intact; otherwise refuse.
    fn carry_over(
        &self,
        session: &Session,
        now: &[u8],
        suggestions: Vec<Suggestion>,
        pinned: Option<(Option<CharRange>, String)>,
    ) -> Result<Vec<Suggestion>> {
        let what = self.producer.name();
        let (Some((Some(at), text)), Some(sel)) = (pinned, self.selection) else {
            return Err(Error::Producer {
                producer: what.to_owned(),
                message: format!(
                    "{} changed while {what} ran; nothing filed — run it again",
                    self.doc_id
                ),
            });
        };
        if session.document().slice(at) != text {
            return Err(Error::Producer {
                producer: what.to_owned(),
                message: "the selection was edited while the turn ran; nothing filed — ask again".into(),
            });
        }
        let moved_to = session.file_range_of(at).start.0;
        let mut out = Vec::with_capacity(suggestions.len());
        let rev = contract::Revision::of(now);
        for s in &suggestions {
            let start = s.span.start.0 - sel.start.0 + moved_to;
            let span = FileByteRange::new(start, start + s.span.end.0 - s.span.start.0);
            out.push(contract::migrate(s, &self.doc_id, &rev, span)?);
        }
        Ok(out)
    }
}

/// Load what the in-process producers that `cfg` enables for Check document
/// need (Harper's dictionary and rules: seconds in a debug build), so the
/// first check answers at once, in this process (blocking and CPU-bound: a
/// client calls it off its UI thread once it has started). Where the client
/// configured a checker process (`producers::checker`, feature `harper`),
/// nothing: that process loads Harper at the first check (about a second),
/// and is not started before, because a child of a process with a window
/// inherits the window's descriptors (WebKit's lifetime pipe) for as long as
/// it lives. Does nothing when Harper is not enabled or not built in.
pub fn preload_enabled(cfg: &Config) {
    #[cfg(feature = "harper")]
    if cfg.enabled_producers().iter().any(|p| p == crate::harper::ID) && !crate::checker::configured() {
        crate::harper::preload();
    }
    #[cfg(not(feature = "harper"))]
    let _ = cfg;
}

/// Harper: in the checker process when the client configured one, else here.
#[cfg(feature = "harper")]
fn harper(req: &Request, setup: &crate::harper_rules::HarperSetup, cancel: &Cancel) -> Result<Run> {
    crate::checker::check(req, setup, cancel)
}

#[cfg(not(feature = "harper"))]
fn harper(_req: &Request, _setup: &crate::harper_rules::HarperSetup, _cancel: &Cancel) -> Result<Run> {
    Err(Error::Producer {
        producer: "harper".into(),
        message: "this build of cowriting has no Harper (build with --features harper)".into(),
    })
}

impl Job {
    /// Forget a job that will not be filed (failed, cancelled): unpin its selection.
    pub fn abandon(&self, session: &mut Session) {
        if let Some((k, _)) = &self.pin {
            session.unpin(k);
        }
    }
}

/// Run `producer` on `session`'s document and file the result, in one go
/// (the CLI; the app splits the steps to keep the UI responsive).
pub fn run_and_file(
    session: &mut Session,
    cfg: &Config,
    producer: ProducerKind,
    selection: Option<CharRange>,
    instruction: Option<String>,
    cancel: &Cancel,
) -> Result<Filing> {
    let job = Job::prepare(session, producer, selection, instruction)?;
    let outcome = match job.run(cfg, cancel) {
        Ok(o) => o,
        Err(e) => {
            job.abandon(session);
            return Err(e);
        }
    };
    job.file(session, outcome)
}

/// How one producer of a Check document ended (`F`: what the client shows of a
/// filing). Serialized as `{producer, filing}`, `{producer, error}` or
/// `{producer, notRun: true}`.
#[derive(Clone, Debug, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(untagged)]
pub enum CheckOutcome<F> {
    Filed {
        producer: String,
        filing: F,
    },
    Failed {
        producer: String,
        error: ErrorInfo,
    },
    NotRun {
        producer: String,
        #[serde(rename = "notRun")]
        not_run: bool,
    },
}

impl<F> CheckOutcome<F> {
    pub fn producer(&self) -> &str {
        match self {
            CheckOutcome::Filed { producer, .. }
            | CheckOutcome::Failed { producer, .. }
            | CheckOutcome::NotRun { producer, .. } => producer,
        }
    }
}

/// Check document: each of `producers` in turn on one document, `run` preparing,
/// running and filing one of them. A producer that fails (not installed, timed
/// out, a bad answer) does not stop the others; once `cancel` is set the rest
/// are not run. The app and `cowriting suggest` (without `--producer`) both
/// check this way.
pub fn check_document<F>(
    producers: &[String],
    cancel: &Cancel,
    mut run: impl FnMut(&str) -> std::result::Result<F, ErrorInfo>,
) -> Vec<CheckOutcome<F>> {
    let mut out = Vec::with_capacity(producers.len());
    for p in producers {
        let producer = p.clone();
        if cancel.is_cancelled() {
            out.push(CheckOutcome::NotRun {
                producer,
                not_run: true,
            });
            continue;
        }
        out.push(match run(p) {
            Ok(filing) => CheckOutcome::Filed { producer, filing },
            Err(error) => CheckOutcome::Failed { producer, error },
        });
    }
    out
}

#[cfg(test)]
mod check_tests {
    use super::*;
    use cowriting_workspace::error::ErrorCode;

    #[test]
    fn a_failure_does_not_stop_the_others_and_a_cancel_leaves_the_rest_unrun() {
        let names: Vec<String> = ["harper", "vale", "lint", "later"].map(String::from).into();
        let cancel = Cancel::new();
        let mut ran = Vec::new();
        let out = check_document(&names, &cancel, |p| {
            ran.push(p.to_owned());
            match p {
                "vale" => Err(Error::NotInstalled {
                    producer: "vale".into(),
                    program: "vale".into(),
                    hint: None,
                }
                .info()),
                "lint" => {
                    cancel.cancel();
                    Ok(1)
                }
                _ => Ok(3),
            }
        });
        assert_eq!(ran, ["harper", "vale", "lint"]);
        let json = serde_json::to_value(&out).unwrap();
        assert_eq!(json[0], serde_json::json!({ "producer": "harper", "filing": 3 }));
        assert_eq!(json[1]["error"]["code"], "not_installed");
        assert_eq!(json[2], serde_json::json!({ "producer": "lint", "filing": 1 }));
        assert_eq!(
            json[3],
            serde_json::json!({ "producer": "later", "notRun": true })
        );
        assert!(
            matches!(&out[1], CheckOutcome::Failed { error, .. } if error.code == ErrorCode::NotInstalled)
        );
    }
}
