//! `cowriting` — the command-line client of the cowriting core.
//!
//! Each command opens the document's [`Session`] (or the workspace's
//! [`Store`]) as the desktop app's API does, and answers with the same views
//! (`cowriting::views`): `--json` prints them, the plain output words them for a
//! terminal. Offsets are UTF-8 bytes of the document's text (after a BOM, if
//! any) and must fall on char boundaries; `--unit utf16` reports positions in
//! UTF-16 code units instead. Exit codes: 0 ok, 2 bad input, 3 refused by a
//! guard, 4 corrupt sidecar, 5 a producer failed or is not installed, 6
//! cancelled or timed out, 1 other failures ([`cowriting::ErrorCode::exit_code`]).
//!
//! Not yet through `cowriting::api::Api`: the CLI and MCP still open sessions
//! themselves (one process per command); docs/architecture.md ("Not there
//! yet") says what moving them onto one transport-neutral API leaves.

use clap::{Args, Parser, Subcommand};
use cowriting::anchor::{resolve, Resolution};
use cowriting::check;
use cowriting::error::ErrorInfo;
use cowriting::identity::human_identity;
use cowriting::model::{to_js_json, Fingerprint, ThreadStatus};
use cowriting::views::{self, Unit};
use cowriting::{
    ByteRange, CharRange, DocPath, Document, Error, ProposalState, ProposeOptions, Result, Session, Store,
    Workspace,
};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Parser)]
#[command(
    name = "cowriting",
    version,
    about = "Review Claude's proposed edits, comment threads and attribution in a Markdown workspace"
)]
struct Cli {
    /// The workspace folder (default: the current directory).
    #[arg(short = 'w', long = "workspace", global = true, value_name = "DIR")]
    workspace: Option<PathBuf>,
    /// Print JSON for programs instead of text for people.
    #[arg(long, global = true)]
    json: bool,
    /// What positions in JSON (`from`, `to`) count: UTF-8 bytes of the text, or
    /// UTF-16 code units (JavaScript's).
    #[arg(long, global = true, value_enum, default_value_t = UnitArg::Byte)]
    unit: UnitArg,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum UnitArg {
    Byte,
    Utf16,
}

#[derive(Subcommand)]
enum Command {
    /// Validate sidecars: parse, schema version, dangling anchor ids, docPath.
    Check { docs: Vec<String> },
    /// A Harper checker process (what the app starts): requests on stdin, one
    /// JSON line each, answers on stdout (`cowriting::producers::checker`).
    #[cfg(feature = "harper")]
    #[command(hide = true)]
    HarperChecker,
    /// Pending and stale proposals, open and resolved threads, attribution spans.
    Status { doc: Option<String> },
    /// Propose replacing a range; prints the new proposal id. The document is not touched.
    Propose {
        doc: String,
        #[command(flatten)]
        target: Target,
        /// The proposed text.
        #[arg(long = "replace", value_name = "TEXT")]
        replacement: String,
        /// What the human asked for.
        #[arg(long)]
        instruction: Option<String>,
        /// Groups the proposals of one agent turn.
        #[arg(long = "turn", value_name = "ID")]
        turn: Option<String>,
        /// The model that wrote the replacement.
        #[arg(long)]
        model: Option<String>,
        /// The agent session id.
        #[arg(long)]
        session: Option<String>,
        /// The agent's id.
        #[arg(long, default_value = "claude")]
        agent: String,
    },
    /// List pending proposals with their state: pending, stale or orphaned.
    Proposals { doc: String },
    /// Accept a proposal: the document file and the sidecar are updated.
    Accept {
        doc: String,
        id: String,
        /// Accept with your own version of the replacement.
        #[arg(long = "with", value_name = "TEXT")]
        with: Option<String>,
    },
    /// Reject a proposal: it is removed; the document is untouched.
    Reject { doc: String, id: String },
    /// Comment threads: new, reply, resolve, reopen.
    #[command(subcommand)]
    Thread(ThreadCommand),
    /// List comment threads.
    Threads { doc: String },
    /// List attribution spans.
    Spans { doc: String },
    /// Run a producer on a document and file what it finds as pending proposals;
    /// without --producer, every producer enabled in your settings, one after
    /// the other, as the app's Check document does.
    Suggest {
        doc: String,
        /// harper, vale, claude, or an external producer named in your config.
        #[arg(long)]
        producer: Option<String>,
        /// For claude: what to do with the selection.
        #[arg(long)]
        instruction: Option<String>,
        #[command(flatten)]
        target: OptTarget,
    },
    /// The decision log: what was accepted, changed and rejected.
    Decisions { doc: Option<String> },
    /// Per producer and category: accepted, rejected, changed, pending.
    Eval {
        /// Re-run this producer on every recorded revision (read back from git by
        /// blob id) and compare with what was decided.
        #[arg(long, value_name = "PRODUCER")]
        replay: Option<String>,
    },
    /// Batch anchoring: JSON lines on stdin, one result line each (no workspace
    /// needed). With --text FILE each line is {"id","fingerprint"}; with --batch
    /// each line names its own file: {"id","fingerprint","textPath"}.
    #[command(group(clap::ArgGroup::new("source").required(true).args(["text", "batch"])))]
    Resolve {
        /// The text file to resolve every line in.
        #[arg(long = "text", value_name = "FILE")]
        text: Option<PathBuf>,
        /// Each line names its text file in "textPath" (relative to the current
        /// directory); files are read once.
        #[arg(long)]
        batch: bool,
    },
    /// Git merge driver for sidecars: merge %O %A %B by record id into %A (see `git install`).
    MergeSidecar {
        base: PathBuf,
        ours: PathBuf,
        theirs: PathBuf,
        /// The sidecar's path in the repository, for messages.
        path: Option<String>,
    },
    /// Git integration: `install` the sidecar merge driver and the commit hook.
    #[command(subcommand)]
    Git(GitCommand),
    /// Serve the workspace to an agent over MCP on stdio (`claude mcp add cowriting -- cowriting mcp -w DIR`).
    Mcp,
}

#[derive(Subcommand)]
enum GitCommand {
    /// Set up the sidecar merge driver and the prepare-commit-msg hook (idempotent).
    Install,
    /// What the installed hook runs.
    #[command(subcommand)]
    Hook(GitHook),
}

#[derive(Subcommand)]
enum GitHook {
    /// Add Co-authored-by trailers for agent-written text this commit adds.
    PrepareCommitMsg {
        msg_file: PathBuf,
        source: Option<String>,
        sha: Option<String>,
    },
}

#[derive(Subcommand)]
enum ThreadCommand {
    /// Start a thread on a range.
    New {
        doc: String,
        #[command(flatten)]
        target: Target,
        #[arg(long)]
        body: String,
    },
    /// Reply to a thread.
    Reply {
        doc: String,
        thread: String,
        #[arg(long)]
        body: String,
    },
    /// Mark a thread resolved.
    Resolve { doc: String, thread: String },
    /// Reopen a resolved thread.
    Reopen { doc: String, thread: String },
    /// Keep a relocated thread (its words were re-wrapped) on the text it was
    /// re-attached to.
    Keep { doc: String, thread: String },
    /// Detach a thread from its text; it stays listed as orphaned.
    Detach { doc: String, thread: String },
}

/// The text a command works on: found by content, or given as a byte span.
#[derive(Args)]
struct Target {
    /// The exact text to target.
    #[arg(long, value_name = "TEXT", conflicts_with_all = ["start", "end"], required_unless_present_all = ["start", "end"])]
    find: Option<String>,
    /// Which occurrence of --find (1-based), when it occurs more than once.
    #[arg(long, value_name = "K", requires = "find")]
    nth: Option<usize>,
    /// Start of the byte span.
    #[arg(long, value_name = "B", requires = "end")]
    start: Option<usize>,
    /// End of the byte span (exclusive).
    #[arg(long, value_name = "B", requires = "start")]
    end: Option<usize>,
}

fn main() {
    let cli = Cli::parse();
    let json = cli.json;
    match run(cli) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            let info = worded(&e);
            if json {
                let _ = writeln!(
                    std::io::stderr(),
                    "{}",
                    serde_json::to_string(&info).unwrap_or_default()
                );
            } else {
                let msg = info.message.replace('\n', " ");
                let _ = writeln!(std::io::stderr(), "cowriting: error: {msg}");
            }
            std::process::exit(e.code().exit_code());
        }
    }
}

/// `e` in this client's words: an occurrence is chosen with `--nth`.
fn worded(e: &Error) -> ErrorInfo {
    let mut info = e.info();
    match e {
        Error::Ambiguous { text, count, doc } => {
            info.message =
                format!("{text:?} occurs {count} times in {doc}; choose one with --nth 1..{count}");
        }
        Error::NoSuchOccurrence {
            text,
            nth,
            count,
            doc,
        } => {
            let times = if *count == 1 { "time" } else { "times" };
            info.message = format!("--nth {nth}: {text:?} occurs {count} {times} in {doc}");
        }
        _ => {}
    }
    info
}

struct Ctx {
    store: Arc<Store>,
    json: bool,
    /// The unit of positions in JSON views.
    unit: Unit,
}

impl Ctx {
    fn new(workspace: Option<PathBuf>, json: bool, unit: UnitArg) -> Result<Ctx> {
        let dir = match workspace {
            Some(d) => d,
            None => {
                std::env::current_dir().map_err(|e| Error::BadInput(format!("no current directory: {e}")))?
            }
        };
        let ws = Workspace::open(dir)?;
        Ok(Ctx {
            store: Arc::new(Store::new(ws)),
            json,
            unit: match unit {
                UnitArg::Byte => Unit::Byte,
                UnitArg::Utf16 => Unit::Utf16,
            },
        })
    }

    fn ws(&self) -> &Workspace {
        self.store.workspace()
    }

    fn doc(&self, arg: &str) -> Result<DocPath> {
        self.ws().doc_path_for_arg(arg)
    }

    fn session(&self, arg: &str) -> Result<Session> {
        let doc = self.doc(arg)?;
        let identity = human_identity(self.ws().root());
        Session::open(self.store.clone(), doc, identity)
    }

    /// A session whose sidecar must be readable (every review command).
    fn review_session(&self, arg: &str) -> Result<Session> {
        let s = self.session(arg)?;
        if s.sidecar_problem().is_some() {
            // Re-read to get the typed error, with its file and position.
            self.store.load(s.doc_path())?;
        }
        Ok(s)
    }

    /// Print the result; a closed pipe (`cowriting decisions | head`) is not an error.
    fn print(&self, human: impl FnOnce() -> String, machine: impl FnOnce() -> Value) {
        let out = if self.json {
            to_js_json(&machine())
        } else {
            let text = human();
            if text.is_empty() {
                return;
            }
            format!("{}\n", text.trim_end_matches('\n'))
        };
        let _ = std::io::stdout().lock().write_all(out.as_bytes());
    }
}

/// An optional target (the selection for `suggest --producer claude`).
#[derive(Args)]
struct OptTarget {
    /// The exact text to target.
    #[arg(long, value_name = "TEXT", conflicts_with_all = ["start", "end"])]
    find: Option<String>,
    /// Which occurrence of --find (1-based), when it occurs more than once.
    #[arg(long, value_name = "K", requires = "find")]
    nth: Option<usize>,
    /// Start of the byte span.
    #[arg(long, value_name = "B", requires = "end")]
    start: Option<usize>,
    /// End of the byte span (exclusive).
    #[arg(long, value_name = "B", requires = "start")]
    end: Option<usize>,
}

fn run(cli: Cli) -> Result<i32> {
    if let Command::Resolve { text, .. } = &cli.command {
        return resolve_lines(text.as_deref());
    }
    #[cfg(feature = "harper")]
    if let Command::HarperChecker = cli.command {
        let ok = cowriting::producers::checker::serve_stdio() == std::process::ExitCode::SUCCESS;
        return Ok(if ok { 0 } else { 1 });
    }
    let ctx = Ctx::new(cli.workspace, cli.json, cli.unit)?;
    match cli.command {
        Command::Check { docs } => cmd_check(&ctx, &docs),
        Command::Status { doc } => cmd_status(&ctx, doc.as_deref()),
        Command::Propose {
            doc,
            target,
            replacement,
            instruction,
            turn,
            model,
            session,
            agent,
        } => {
            let mut s = ctx.review_session(&doc)?;
            let range = target_range(&s, &target)?;
            let client = cowriting::identity::AgentClient {
                name: agent,
                version: format!("cowriting-cli {}", env!("CARGO_PKG_VERSION")),
                sdk: "cowriting-cli".into(),
                model,
                session_id: session,
            };
            let (author, producer) = (client.author(), client.producer());
            let reason = instruction.clone().unwrap_or_default();
            let proposed = s.propose_suggestion_once(
                range,
                &replacement,
                &producer,
                "edit",
                &reason,
                ProposeOptions {
                    author,
                    turn_id: turn,
                    instruction,
                },
            )?;
            warn(&mut s);
            let id = proposed.id.clone();
            // The proposal as `proposals --json` lists it (its contract id in
            // `contract`), and what it met among the pending ones.
            let shown = views::proposal(&s, ctx.unit, &id);
            let overlapping = views::proposals_named(&s, ctx.unit, &proposed.overlapping);
            if proposed.already_pending() {
                eprintln!(
                    "cowriting: {id} is already pending: the same edit by the same agent; not filed again"
                );
            }
            for p in &overlapping {
                eprintln!(
                    "cowriting: note: it overlaps pending {} by {} on {:?} (accepting one turns the other stale)",
                    p.id, p.author.label, p.target
                );
            }
            ctx.print(
                || id.clone(),
                || {
                    let mut v = json!(shown);
                    if let Some(o) = v.as_object_mut() {
                        o.insert("alreadyPending".into(), json!(proposed.already_pending()));
                        o.insert("overlapping".into(), json!(overlapping));
                    }
                    v
                },
            );
            Ok(0)
        }
        Command::Proposals { doc } => cmd_proposals(&ctx, &doc),
        Command::Accept { doc, id, with } => {
            let mut s = ctx.review_session(&doc)?;
            s.accept_and_save(&id, with.as_deref())?;
            warn(&mut s);
            ctx.print(
                || format!("accepted {id}; {} updated", s.doc_path()),
                || json!({ "accepted": id, "changed": with.is_some() }),
            );
            Ok(0)
        }
        Command::Reject { doc, id } => {
            let mut s = ctx.review_session(&doc)?;
            s.reject(&id)?;
            warn(&mut s);
            ctx.print(|| format!("rejected {id}"), || json!({ "rejected": id }));
            Ok(0)
        }
        Command::Thread(t) => cmd_thread(&ctx, t),
        Command::Threads { doc } => cmd_threads(&ctx, &doc),
        Command::Spans { doc } => cmd_spans(&ctx, &doc),
        Command::Suggest {
            doc,
            producer,
            instruction,
            target,
        } => match producer {
            Some(p) => cmd_suggest(&ctx, &doc, &p, instruction, &target),
            None => cmd_check_document(&ctx, &doc, instruction, &target),
        },
        Command::Decisions { doc } => cmd_decisions(&ctx, doc.as_deref()),
        Command::Eval { replay } => cmd_eval(&ctx, replay.as_deref()),
        Command::Mcp => cowriting::mcp::serve_stdio(ctx.ws().root()).map(|()| 0),
        Command::Resolve { .. } => unreachable!("handled above"),
        #[cfg(feature = "harper")]
        Command::HarperChecker => unreachable!("handled above"),
        Command::MergeSidecar {
            base,
            ours,
            theirs,
            path,
        } => {
            let name = path.as_deref().unwrap_or("sidecar");
            for n in cowriting::gitops::run_merge_driver(&base, &ours, &theirs, Some(name))? {
                eprintln!("cowriting merge-sidecar: {name}: {n}");
            }
            Ok(0)
        }
        Command::Git(g) => cmd_git(&ctx, g),
    }
}

fn cmd_git(ctx: &Ctx, g: GitCommand) -> Result<i32> {
    match g {
        GitCommand::Install => {
            let exe = std::env::current_exe()
                .map_err(|e| Error::BadInput(format!("cannot find the cowriting executable: {e}")))?;
            let r = cowriting::gitops::install(ctx.ws().root(), &exe)?;
            ctx.print(
                || r.lines.join("\n"),
                || serde_json::to_value(&r).unwrap_or(Value::Null),
            );
        }
        // The hook never blocks a commit: problems are warnings.
        GitCommand::Hook(GitHook::PrepareCommitMsg { msg_file, source, .. }) => {
            match cowriting::gitops::run_prepare_commit_msg(ctx.ws().root(), &msg_file, source.as_deref()) {
                Ok(r) => {
                    r.warnings
                        .iter()
                        .for_each(|w| eprintln!("cowriting: warning: {w}"));
                    r.added.iter().for_each(|t| eprintln!("cowriting: added {t}"));
                }
                Err(e) => eprintln!("cowriting: warning: no Co-authored-by trailers: {e}"),
            }
        }
    }
    Ok(0)
}

fn target_range(s: &Session, t: &Target) -> Result<CharRange> {
    range_of(s, t.find.as_deref(), t.nth, t.start, t.end)
}

/// The range `--find TEXT [--nth K]` or `--start B --end B` names.
fn range_of(
    s: &Session,
    find: Option<&str>,
    nth: Option<usize>,
    start: Option<usize>,
    end: Option<usize>,
) -> Result<CharRange> {
    match (find, start, end) {
        (Some(text), _, _) => s.resolve_target(cowriting::Target::Text {
            text,
            occurrence: nth,
        }),
        (None, Some(start), Some(end)) => {
            s.resolve_target(cowriting::Target::Bytes(ByteRange::new(start, end)))
        }
        _ => Err(Error::BadInput("give --find TEXT or --start B --end B".into())),
    }
}

/// Ledger problems after a review command: the decision went through, the
/// log did not; said on stderr.
/// The decision log's unreadable lines, named (they were skipped).
fn log_warnings(log: &cowriting::ledger::Log) {
    for w in &log.warnings {
        eprintln!("cowriting: warning: {w}");
    }
}

fn warn(s: &mut Session) {
    for w in s.take_warnings() {
        eprintln!("cowriting: warning: {w}");
    }
}

/// `suggest DOC` without `--producer`: Check document. Exit 0 when every
/// producer that ran filed; else the first failure's exit code.
fn cmd_check_document(ctx: &Ctx, doc: &str, instruction: Option<String>, t: &OptTarget) -> Result<i32> {
    if instruction.is_some() || t.find.is_some() || t.start.is_some() {
        return Err(Error::BadInput(
            "--instruction, --find and --start go with --producer (Check document looks at the whole text)"
                .into(),
        ));
    }
    let cfg = cowriting::config::Config::load()?;
    let enabled = cfg.producers.enabled.clone();
    if enabled.is_empty() {
        return Err(Error::BadInput(
            "no producers are enabled: name one with --producer, or enable them in the settings".into(),
        ));
    }
    let mut s = ctx.review_session(doc)?;
    let cancel = cowriting::producers::Cancel::new();
    let outcomes = cowriting::suggest::check_document(&enabled, &cancel, |name| {
        let producer = cowriting::suggest::Producer::parse(name, &cfg).map_err(|e| e.info())?;
        cowriting::suggest::run_and_file(&mut s, &cfg, producer, None, None, &cancel).map_err(|e| e.info())
    });
    warn(&mut s);
    let exit = outcomes
        .iter()
        .find_map(|o| match o {
            cowriting::suggest::CheckOutcome::Failed { error, .. } => Some(error.code.exit_code()),
            _ => None,
        })
        .unwrap_or(0);
    ctx.print(
        || {
            let lines: Vec<String> = outcomes
                .iter()
                .map(|o| match o {
                    cowriting::suggest::CheckOutcome::Filed { producer, filing } => format!(
                        "{producer}: {} proposal{} filed (turn {}){}",
                        filing.filed.len(),
                        if filing.filed.len() == 1 { "" } else { "s" },
                        filing.turn_id,
                        if filing.skipped.is_empty() {
                            String::new()
                        } else {
                            format!(", {} not filed", filing.skipped.len())
                        }
                    ),
                    cowriting::suggest::CheckOutcome::Failed { producer, error } => {
                        let m = error
                            .message
                            .strip_prefix(&format!("{producer}: "))
                            .unwrap_or(&error.message);
                        match error.code {
                            cowriting::ErrorCode::NotInstalled => format!("{producer}: not installed ({m})"),
                            cowriting::ErrorCode::TimedOut => format!("{producer}: timed out ({m})"),
                            _ => format!("{producer}: failed ({m})"),
                        }
                    }
                    cowriting::suggest::CheckOutcome::NotRun { producer, .. } => {
                        format!("{producer}: not run")
                    }
                })
                .collect();
            lines.join("\n")
        },
        || json!({ "document": s.doc_path().as_str(), "outcomes": outcomes }),
    );
    Ok(exit)
}

fn cmd_suggest(
    ctx: &Ctx,
    doc: &str,
    producer: &str,
    instruction: Option<String>,
    t: &OptTarget,
) -> Result<i32> {
    let cfg = cowriting::config::Config::load()?;
    let producer = cowriting::suggest::Producer::parse(producer, &cfg)?;
    let mut s = ctx.review_session(doc)?;
    let selection = match (&t.find, t.start, t.end) {
        (None, None, None) => None,
        (find, start, end) => Some(range_of(&s, find.as_deref(), t.nth, start, end)?),
    };
    if producer == cowriting::suggest::Producer::Claude {
        // This client's words for what the core would refuse.
        if selection.is_none_or(|r| r.is_empty()) {
            return Err(Error::BadInput(
                "--producer claude needs a selection: give --find TEXT or --start B --end B".into(),
            ));
        }
        if instruction.as_deref().is_none_or(|i| i.trim().is_empty()) {
            return Err(Error::BadInput(
                "--producer claude needs --instruction TEXT".into(),
            ));
        }
    }
    let cancel = cowriting::producers::Cancel::new();
    let filing = cowriting::suggest::run_and_file(&mut s, &cfg, producer, selection, instruction, &cancel)?;
    warn(&mut s);
    ctx.print(
        || {
            let mut out = format!(
                "{}: {} proposal{} filed in {} (turn {})",
                filing.producer,
                filing.filed.len(),
                if filing.filed.len() == 1 { "" } else { "s" },
                s.doc_path(),
                filing.turn_id
            );
            for f in &filing.filed {
                out.push_str(&format!("\n  {}  ({})", f.sidecar_id, f.proposal_id));
            }
            for k in &filing.skipped {
                out.push_str(&format!("\n  skipped: {k}"));
            }
            out
        },
        || {
            json!({
                "producer": filing.producer,
                "turnId": filing.turn_id,
                "filed": filing.filed,
                "skipped": filing.skipped,
                "migrated": filing.migrated,
            })
        },
    );
    Ok(0)
}

fn cmd_decisions(ctx: &Ctx, doc: Option<&str>) -> Result<i32> {
    let ledger = cowriting::ledger::Ledger::new(ctx.ws().root());
    let doc = doc.map(|d| ctx.doc(d)).transpose()?;
    let log = ledger.log()?;
    log_warnings(&log);
    let records: Vec<_> = log
        .records
        .into_iter()
        .filter(|d| doc.as_ref().is_none_or(|p| p.as_str() == d.doc_id))
        .collect();
    ctx.print(
        || {
            if records.is_empty() {
                return "no decisions recorded".into();
            }
            let mut out = String::new();
            for d in &records {
                let first = d.suggestions.first();
                out.push_str(&format!(
                    "{}  {:8}{}  {}  {}  by {}  {}\n",
                    d.decision.decided_at,
                    d.decision.outcome.as_str(),
                    if d.undone { " (undone)" } else { "" },
                    d.doc_id,
                    d.sidecar_proposal_id,
                    d.decision.decided_by,
                    first
                        .map(|s| format!("{}/{}", s.producer.id, s.category))
                        .unwrap_or_default()
                ));
                for s in &d.suggestions {
                    out.push_str(&format!(
                        "    - {}\n    + {}\n",
                        short(&s.text, 70),
                        short(&s.replacement, 70)
                    ));
                }
                if let Some(c) = &d.decision.chosen_replacement {
                    out.push_str(&format!("    chosen: {}\n", short(c, 70)));
                }
            }
            out
        },
        || json!({ "decisions": records.iter().map(views::decision).collect::<Vec<_>>() }),
    );
    Ok(0)
}

fn cmd_eval(ctx: &Ctx, replay: Option<&str>) -> Result<i32> {
    let ledger = cowriting::ledger::Ledger::new(ctx.ws().root());
    log_warnings(&ledger.log()?);
    let store = ctx.store.clone();
    let rows = cowriting::ledger::eval(&ledger, |doc| {
        store
            .load(doc)
            .ok()
            .flatten()
            .map(|a| a.proposals.iter().map(|p| p.id.clone()).collect())
            .unwrap_or_default()
    })?;
    let replayed = match replay {
        Some(name) => {
            let cfg = cowriting::config::Config::load()?;
            let producer = cowriting::suggest::Producer::parse(name, &cfg)?;
            Some(cowriting::eval::replay(
                ctx.ws().root(),
                &ledger,
                &cfg,
                &producer,
            )?)
        }
        None => None,
    };
    ctx.print(
        || {
            let mut out = String::new();
            if rows.is_empty() {
                out.push_str("no contract proposals recorded\n");
            } else {
                out.push_str(&format!(
                    "{:<14} {:<14} {:>8} {:>8} {:>8} {:>8}{}\n",
                    "producer",
                    "category",
                    "accepted",
                    "changed",
                    "rejected",
                    "pending",
                    if rows.iter().any(|r| r.tally.decided_elsewhere > 0) {
                        "  elsewhere"
                    } else {
                        ""
                    }
                ));
                for r in &rows {
                    out.push_str(&format!(
                        "{:<14} {:<14} {:>8} {:>8} {:>8} {:>8}{}\n",
                        r.producer,
                        r.category,
                        r.tally.accepted,
                        r.tally.changed,
                        r.tally.rejected,
                        r.tally.pending,
                        if r.tally.decided_elsewhere > 0 {
                            format!("  {:>9}", r.tally.decided_elsewhere)
                        } else {
                            String::new()
                        }
                    ));
                }
            }
            if let Some(rep) = &replayed {
                out.push_str(&rep.to_text());
            }
            out.trim_end().to_owned()
        },
        || json!({ "rows": rows, "replay": replayed }),
    );
    Ok(0)
}

fn bytes_text(doc: &Document, r: Option<CharRange>) -> String {
    match r {
        Some(r) => {
            let b = doc.char_range_to_bytes(r);
            format!("{}..{}", b.start, b.end)
        }
        None => "-".into(),
    }
}

fn short(s: &str, n: usize) -> String {
    let one_line = s.replace('\n', "⏎");
    if one_line.chars().count() <= n {
        format!("{one_line:?}")
    } else {
        let cut: String = one_line.chars().take(n).collect();
        format!("{cut:?}…")
    }
}

fn cmd_check(ctx: &Ctx, docs: &[String]) -> Result<i32> {
    let docs: Vec<DocPath> = docs.iter().map(|d| ctx.doc(d)).collect::<Result<_>>()?;
    let reports = check::check(ctx.ws(), &docs);
    ctx.print(
        || {
            if reports.is_empty() {
                return "no sidecars in this workspace".into();
            }
            let mut out = String::new();
            for r in &reports {
                let tag = match r.worst() {
                    Some(check::Severity::Error) => "error",
                    Some(check::Severity::Newer) => "newer",
                    _ => "ok",
                };
                out.push_str(&format!("{tag:5} {}\n", r.file));
                for p in &r.problems {
                    let kind = match p.severity {
                        check::Severity::Warning => "warning",
                        check::Severity::Newer => "refused",
                        check::Severity::Error => "problem",
                    };
                    out.push_str(&format!("      {kind}: {}\n", p.message));
                }
            }
            out
        },
        || {
            json!({
                "ok": reports.iter().all(check::SidecarReport::ok),
                "sidecars": reports,
            })
        },
    );
    Ok(check::exit_code(&reports))
}

fn cmd_status(ctx: &Ctx, doc: Option<&str>) -> Result<i32> {
    let docs: Vec<DocPath> = match doc {
        Some(d) => vec![ctx.doc(d)?],
        None => {
            let mut all = ctx.ws().list_documents();
            for (d, _) in ctx.ws().list_sidecars() {
                if !all.contains(&d) {
                    all.push(d);
                }
            }
            all.sort();
            all
        }
    };
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for d in docs {
        match ctx.session(d.as_str()) {
            Ok(s) => rows.push(views::summary(&s)),
            Err(e) if doc.is_none() => errors.push(views::DocError {
                document: d.to_string(),
                error: e.info(),
            }),
            Err(e) => return Err(e),
        }
    }
    ctx.print(
        || {
            let mut out = String::new();
            for r in &rows {
                let (p, t, sp) = (&r.proposals, &r.threads, &r.spans);
                out.push_str(&format!(
                    "{}: proposals {} pending, {} stale, {} orphaned · threads {} open, {} resolved{} · spans {} ({} agent, {} human)\n",
                    r.document, p.pending, p.stale, p.orphaned, t.open, t.resolved,
                    if t.orphaned > 0 { format!(", {} orphaned", t.orphaned) } else { String::new() },
                    sp.total, sp.agent, sp.human,
                ));
                if let Some(e) = &r.sidecar_error {
                    out.push_str(&format!("  sidecar: {}\n", e.message));
                }
            }
            for e in &errors {
                out.push_str(&format!("{}: error: {}\n", e.document, e.error.message));
            }
            out
        },
        || json!({ "documents": rows, "errors": errors }),
    );
    Ok(0)
}

fn cmd_proposals(ctx: &Ctx, doc: &str) -> Result<i32> {
    let s = ctx.review_session(doc)?;
    let d = s.document();
    let views = s.proposals();
    ctx.print(
        || {
            if views.is_empty() {
                return format!("no pending proposals in {}", s.doc_path());
            }
            let mut out = String::new();
            for v in &views {
                let p = &v.proposal;
                let state = match v.state {
                    ProposalState::Pending => "pending",
                    ProposalState::Stale => "stale",
                    ProposalState::Orphaned => "orphaned",
                };
                out.push_str(&format!(
                    "{}  {state:8} bytes {}  by {}",
                    p.id,
                    bytes_text(d, v.range),
                    p.author
                ));
                if let Some(t) = &p.turn_id {
                    out.push_str(&format!("  turn {t}"));
                }
                out.push('\n');
                out.push_str(&format!(
                    "    - {}\n    + {}\n",
                    short(&v.target, 70),
                    short(&p.replacement, 70)
                ));
                if let Some(i) = &p.instruction {
                    out.push_str(&format!("    instruction: {}\n", short(i, 70)));
                }
                if let Some(r) = &v.reason {
                    out.push_str(&format!("    {state}: {r}\n"));
                }
            }
            out
        },
        || json!(views::doc_proposals(&s, ctx.unit)),
    );
    Ok(0)
}

fn cmd_thread(ctx: &Ctx, t: ThreadCommand) -> Result<i32> {
    match t {
        ThreadCommand::New { doc, target, body } => {
            let mut s = ctx.review_session(&doc)?;
            let range = target_range(&s, &target)?;
            let id = s.new_thread(range, &body)?;
            ctx.print(|| id.clone(), || json!({ "id": id }));
        }
        ThreadCommand::Reply { doc, thread, body } => {
            let mut s = ctx.review_session(&doc)?;
            let cid = s.reply(&thread, &body)?;
            ctx.print(|| cid.clone(), || json!({ "thread": thread, "comment": cid }));
        }
        ThreadCommand::Resolve { doc, thread } => set_status(ctx, &doc, &thread, ThreadStatus::Resolved)?,
        ThreadCommand::Reopen { doc, thread } => set_status(ctx, &doc, &thread, ThreadStatus::Open)?,
        ThreadCommand::Keep { doc, thread } => {
            let mut s = ctx.review_session(&doc)?;
            s.keep_thread_here(&thread)?;
            ctx.print(
                || format!("{thread} kept here"),
                || json!({ "thread": thread, "kept": true }),
            );
        }
        ThreadCommand::Detach { doc, thread } => {
            let mut s = ctx.review_session(&doc)?;
            s.detach_thread(&thread)?;
            ctx.print(
                || format!("{thread} detached"),
                || json!({ "thread": thread, "detached": true }),
            );
        }
    }
    Ok(0)
}

fn set_status(ctx: &Ctx, doc: &str, thread: &str, status: ThreadStatus) -> Result<()> {
    let mut s = ctx.review_session(doc)?;
    let word = status.as_str().to_owned();
    s.set_thread_status(thread, status)?;
    ctx.print(
        || format!("{thread} {word}"),
        || json!({ "thread": thread, "status": word }),
    );
    Ok(())
}

fn cmd_threads(ctx: &Ctx, doc: &str) -> Result<i32> {
    let s = ctx.review_session(doc)?;
    let d = s.document();
    let views = s.threads();
    ctx.print(
        || {
            if views.is_empty() {
                return format!("no threads in {}", s.doc_path());
            }
            let mut out = String::new();
            for v in &views {
                let t = &v.thread;
                let place = match v.range {
                    Some(r) if v.relocated => format!(
                        "bytes {} (re-wrapped since; keep or detach)",
                        bytes_text(d, Some(r))
                    ),
                    Some(r) => format!("bytes {}", bytes_text(d, Some(r))),
                    None if t.detached() => "detached".into(),
                    None => "orphaned".into(),
                };
                out.push_str(&format!(
                    "{}  {:8} {place}  on {}\n",
                    t.id,
                    t.status.as_str(),
                    short(&v.text, 60)
                ));
                for c in &t.comments {
                    out.push_str(&format!(
                        "    {} ({}): {}\n",
                        c.author,
                        c.created_at,
                        short(&c.body, 70)
                    ));
                }
            }
            out
        },
        || json!(views::doc_threads(&s, ctx.unit)),
    );
    Ok(0)
}

fn cmd_spans(ctx: &Ctx, doc: &str) -> Result<i32> {
    let s = ctx.review_session(doc)?;
    let d = s.document();
    let spans: Vec<_> = s.spans().collect();
    let orphans: Vec<_> = s.orphaned_attributions().collect();
    ctx.print(
        || {
            if spans.is_empty() && orphans.is_empty() {
                return format!("no attribution spans in {}", s.doc_path());
            }
            let mut out = String::new();
            for sp in &spans {
                out.push_str(&format!(
                    "bytes {:12} {} {}{}  {}\n",
                    bytes_text(d, Some(sp.range)),
                    sp.who.author.kind.as_str(),
                    sp.who.author,
                    sp.who
                        .turn_id
                        .as_ref()
                        .map(|t| format!("  turn {t}"))
                        .unwrap_or_default(),
                    short(&d.slice(sp.range), 50)
                ));
            }
            for o in &orphans {
                out.push_str(&format!(
                    "orphaned     {} {}  ({})\n",
                    o.author.kind.as_str(),
                    o.author,
                    o.id
                ));
            }
            out
        },
        || json!(views::doc_spans(&s, ctx.unit)),
    );
    Ok(0)
}

/// Read and check a text file for `resolve`.
fn read_text(file: &Path) -> Result<Document> {
    let bytes = std::fs::read(file).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Error::BadInput(format!("{}: no such file", file.display())),
        _ => Error::Io {
            path: file.to_path_buf(),
            source: e,
        },
    })?;
    Document::from_bytes(&bytes).map_err(|source| Error::Document {
        path: file.display().to_string(),
        source,
    })
}

/// Texts of `resolve --batch`, read once each. Bounded: past the budget the
/// oldest are dropped (a batch over a whole repository need not hold it all).
struct Texts {
    docs: HashMap<PathBuf, std::result::Result<Document, ErrorInfo>>,
    order: std::collections::VecDeque<PathBuf>,
    bytes: usize,
}

impl Texts {
    const BUDGET_BYTES: usize = 256 * 1024 * 1024;

    fn get(&mut self, path: &Path) -> &std::result::Result<Document, ErrorInfo> {
        if !self.docs.contains_key(path) {
            let doc = read_text(path).map_err(|e| e.info());
            self.bytes += doc.as_ref().map_or(0, Document::len_bytes);
            while self.bytes > Self::BUDGET_BYTES && !self.order.is_empty() {
                let old = self.order.pop_front().expect("not empty");
                if let Some(Ok(d)) = self.docs.remove(&old) {
                    self.bytes -= d.len_bytes();
                }
            }
            self.order.push_back(path.to_path_buf());
            self.docs.insert(path.to_path_buf(), doc);
        }
        &self.docs[path]
    }
}

/// `resolve`: one output line per input line, in order. With `--text FILE`
/// every line resolves in that file; else (`--batch`) in its `textPath`. A
/// line whose file cannot be read answers `{"id","error":{code,message}}`, the
/// rest go on, and the exit code is then that error's.
fn resolve_lines(text: Option<&Path>) -> Result<i32> {
    let fixed = text.map(read_text).transpose()?;
    let mut texts = Texts {
        docs: HashMap::new(),
        order: Default::default(),
        bytes: 0,
    };
    let mut exit = 0;
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (n, line) in stdin.lock().lines().enumerate() {
        let line = line.map_err(|e| Error::BadInput(format!("stdin: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let bad = |m: String| Error::BadInput(format!("stdin line {}: {m}", n + 1));
        let (id, fp, path) = parse_resolve_line(&line, fixed.is_none()).map_err(bad)?;
        let doc = match (&fixed, path) {
            (Some(d), _) => Ok(d),
            (None, Some(p)) => texts.get(Path::new(&p)).as_ref(),
            (None, None) => unreachable!("parse_resolve_line asks for textPath in batch mode"),
        };
        let id = serde_json::to_string(&id).expect("a JSON value serializes");
        let written = match doc {
            Err(e) => {
                exit = e.code.exit_code();
                let error = json!({ "code": e.code, "message": e.message });
                writeln!(out, r#"{{"id":{id},"error":{error}}}"#)
            }
            Ok(doc) => match resolve(doc, &fp, None) {
                Resolution::Found(r) => {
                    let b = doc.char_range_to_bytes(r);
                    writeln!(out, r#"{{"id":{id},"start":{},"end":{}}}"#, b.start.0, b.end.0)
                }
                Resolution::Relocated(r) => {
                    let b = doc.char_range_to_bytes(r);
                    writeln!(
                        out,
                        r#"{{"id":{id},"start":{},"end":{},"stale":true}}"#,
                        b.start.0, b.end.0
                    )
                }
                Resolution::Orphaned => writeln!(out, r#"{{"id":{id},"orphaned":true}}"#),
            },
        };
        written.map_err(|e| Error::BadInput(format!("stdout: {e}")))?;
    }
    out.flush().map_err(|e| Error::BadInput(format!("stdout: {e}")))?;
    Ok(exit)
}

/// One stdin line of `resolve`.
#[derive(serde::Deserialize)]
struct ResolveLine {
    id: Value,
    fingerprint: ResolveFingerprint,
    #[serde(rename = "textPath")]
    text_path: Option<String>,
}

#[derive(serde::Deserialize)]
struct ResolveFingerprint {
    text: String,
    #[serde(default)]
    before: String,
    #[serde(default)]
    after: String,
    #[serde(default, rename = "lineHint")]
    line_hint: usize,
}

/// One line of `resolve`: its id, fingerprint and (when `with_path`) text path.
fn parse_resolve_line(
    line: &str,
    with_path: bool,
) -> std::result::Result<(Value, Fingerprint, Option<String>), String> {
    let l: ResolveLine = serde_json::from_str(line).map_err(|e| format!("{e}"))?;
    if with_path && l.text_path.is_none() {
        return Err("missing \"textPath\" (a file, relative to the current directory)".into());
    }
    let fp = l.fingerprint;
    Ok((
        l.id,
        Fingerprint {
            text: fp.text,
            before: fp.before,
            after: fp.after,
            line_hint: fp.line_hint,
            extra: Default::default(),
        },
        l.text_path.filter(|_| with_path),
    ))
}
