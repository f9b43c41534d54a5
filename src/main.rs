//! `cowriting` — the command-line client of the cowriting core.
//!
//! Each command is one call of the one API ([`cowriting::ops::Ops`]), the
//! same the MCP server makes: `--json` prints its answer as it is, the plain
//! output words it for a terminal. Offsets are UTF-8 bytes of the document's text (after a BOM, if
//! any) and must fall on char boundaries; `--unit utf16` reports positions in
//! UTF-16 code units instead. Exit codes: 0 ok, 2 bad input, 3 refused by a
//! guard, 4 corrupt sidecar, 5 a producer failed or is not installed, 6
//! cancelled or timed out, 1 other failures ([`cowriting::ErrorCode::exit_code`]).

mod mcp;

use clap::{Args, Parser, Subcommand};
use cowriting::anchor::{resolve, Resolution};
use cowriting::check;
use cowriting::error::ErrorInfo;
use cowriting::identity::human_identity;
use cowriting::model::{to_js_json, Fingerprint};
use cowriting::ops::{
    BatchDecision, BatchOut, DecidedOut, DecidedOutcome, DocumentsOut, EvalOut, ExportFormat, InboxOut,
    ItemState, Ops, Propose, ThreadChange,
};
use cowriting::producers::Cancel;
use cowriting::suggest::CheckOutcome;
use cowriting::views::{self, Unit};
use cowriting::{ByteRange, Document, Error, ProposalState, Result, Store, Workspace};
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
enum ExportFormatArg {
    Html,
    Critic,
    Pdf,
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
    /// Who wrote how much of a document: characters and words by author (you,
    /// each agent with its model, text from before anyone kept track), in all
    /// and per section, and the decisions taken on its proposals.
    Authorship { doc: String },
    /// A new, empty document (`.md` added when the name has no document
    /// ending; missing folders made). Nothing at that name is overwritten.
    New { name: String },
    /// Rename or move a document; its threads, proposals, attribution and
    /// pending suggestions go with it. Nothing at the new name is overwritten.
    Rename { doc: String, to: String },
    /// Move a document, with its threads, proposals and attribution, to the system trash.
    Delete { doc: String },
    /// A new folder (missing parents made).
    Mkdir { name: String },
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
        /// Why this edit, shown with it (default: the instruction).
        #[arg(long)]
        reason: Option<String>,
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
    /// Accept a proposal, or with --all every pending one (of a turn, of a
    /// producer): the document file and the sidecar are updated, a batch in one
    /// transaction.
    Accept {
        doc: String,
        /// The proposal (`pr_…`); not with --all.
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        id: Option<String>,
        #[command(flatten)]
        batch: Batch,
        /// Accept with your own version of the replacement.
        #[arg(long = "with", value_name = "TEXT", conflicts_with = "all")]
        with: Option<String>,
        /// Accept even though the replacement holds characters that are invisible
        /// or reorder the text around them (`proposals` lists them as "hidden");
        /// without it such an accept is refused (exit 3).
        #[arg(long)]
        confirm_hidden: bool,
    },
    /// Reject a proposal, or with --all every one (of a turn, of a producer),
    /// whatever its state: removed in one transaction; the document is untouched.
    Reject {
        doc: String,
        /// The proposal (`pr_…`); not with --all.
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        id: Option<String>,
        #[command(flatten)]
        batch: Batch,
    },
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
    /// Ask Claude to review a document (or the part given by --find or
    /// --start/--end): one turn whose comments become threads and whose edits
    /// become pending proposals, filed as they arrive. Nothing in the
    /// document changes. Exit 5 when Claude failed, 6 when cancelled or timed
    /// out (what was filed before stays filed).
    Review {
        doc: String,
        /// What to look for ("check the argument", "tighten for a general reader").
        #[arg(long)]
        instruction: Option<String>,
        #[command(flatten)]
        target: OptTarget,
    },
    /// The decision log: what was accepted, changed and rejected.
    Decisions { doc: Option<String> },
    /// Export a document as it is on disk: a standalone HTML page (a clean
    /// copy, or with --with-review its pending proposals and open threads),
    /// or Markdown with its proposals and threads as CriticMarkup, for other
    /// review tools. Without -o the export goes to stdout. PDF is made by the
    /// desktop app's print engine (Export… in a document's menu or the
    /// palette); from here, export HTML and print that.
    Export {
        doc: String,
        /// html, critic (Markdown with CriticMarkup), or pdf (the app only).
        #[arg(long, value_enum)]
        format: ExportFormatArg,
        /// Write to FILE (relative to the current folder; anywhere you name,
        /// never through a symlink) instead of stdout.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
        /// HTML: show the pending proposals in place and the open threads as
        /// numbered notes (default: a clean copy).
        #[arg(long)]
        with_review: bool,
        /// Replace FILE when it exists (a symlink is never followed or replaced).
        #[arg(long, requires = "output")]
        force: bool,
        /// HTML: keep remote images (opening the page then contacts the
        /// servers they are on); by default each is its alt text, not loaded.
        #[arg(long)]
        remote_images: bool,
    },
    /// Search every document's text and every thread's comments (the files as
    /// they are on disk). Literal and case-insensitive unless told otherwise.
    Search {
        query: String,
        /// Match case.
        #[arg(long)]
        case_sensitive: bool,
        /// Whole words only.
        #[arg(long)]
        word: bool,
        /// QUERY is a regular expression (Rust `regex` syntax).
        #[arg(long)]
        regex: bool,
    },
    /// Everything waiting for you across the workspace: every pending, stale
    /// or orphaned proposal and every open thread of every document, grouped
    /// by turn and producer, newest first (read from the sidecars: what
    /// agents, scripts and VS Code filed).
    Inbox {
        /// Only this document, or the documents under this folder.
        #[arg(long, value_name = "DOC")]
        document: Option<String>,
        /// Only this producer (harper, claude, …) or author (id or label).
        #[arg(long, value_name = "NAME")]
        producer: Option<String>,
        /// Only proposals in this state, or open threads.
        #[arg(long, value_enum)]
        state: Option<StateArg>,
    },
    /// Spelling and grammar of a document as it is on disk (Harper): what the
    /// app underlines as you type. Nothing is filed; spelling lints of the
    /// workspace's dictionary words are left out.
    Lint { doc: String },
    /// The workspace's dictionary (`.cowriting/dictionary.txt`): words the
    /// spelling checker accepts, in any case. Without a subcommand, list them.
    Dictionary {
        #[command(subcommand)]
        action: Option<DictionaryCommand>,
    },
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
    /// Write the sample workspace (an essay, a story, meeting notes, with
    /// Claude's suggestions, comments and attribution) into DIR, a new or empty
    /// folder, as a git repository with a short history. A folder that already
    /// holds the sample is never written over.
    Sample { dir: PathBuf },
    /// Serve the workspace to an agent over MCP on stdio (`claude mcp add cowriting -- cowriting mcp -w DIR`).
    Mcp,
}

/// `inbox --state`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum StateArg {
    Pending,
    Stale,
    Orphaned,
    /// Open threads.
    Open,
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
enum DictionaryCommand {
    /// Add words.
    Add {
        #[arg(required = true)]
        words: Vec<String>,
    },
    /// Remove words.
    Remove {
        #[arg(required = true)]
        words: Vec<String>,
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
    /// Ask Claude in a thread: it replies in the thread (and may propose
    /// edits of the thread's text, named in its reply).
    Ask {
        doc: String,
        thread: String,
        /// What to ask, beyond the thread itself.
        #[arg(long)]
        instruction: Option<String>,
    },
}

/// The text a command works on: found by content, or given as a byte span.
/// A batch decision's selection (`accept --all`, `reject --all`).
#[derive(Args)]
struct Batch {
    /// Every proposal of the document (accept: the pending ones; stale and
    /// orphaned ones are listed as skipped), in one transaction.
    #[arg(long)]
    all: bool,
    /// With --all: only the proposals of this turn.
    #[arg(long = "turn", value_name = "ID", requires = "all")]
    turn: Option<String>,
    /// With --all: only the proposals of this producer (its id, e.g. `harper`,
    /// `claude`; or the author's id or name).
    #[arg(long, value_name = "NAME", requires = "all")]
    producer: Option<String>,
}

impl Batch {
    /// A filter names which proposals of a batch: without --all it is a usage error.
    fn check(&self) -> Result<()> {
        if !self.all && (self.turn.is_some() || self.producer.is_some()) {
            return Err(Error::BadInput(
                "--turn and --producer choose among the proposals of --all; with an id, leave them out"
                    .into(),
            ));
        }
        Ok(())
    }

    fn filter(self) -> cowriting::ops::BatchFilter {
        cowriting::ops::BatchFilter {
            turn: self.turn,
            producer: self.producer,
        }
    }
}

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

/// What every command shares: the one API ([`Ops`]) for the caller, and how
/// to print its answers.
struct Ctx {
    ops: Ops,
    json: bool,
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
        let identity = human_identity(ws.root());
        // Text for people counts bytes; JSON counts what --unit says.
        let unit = match unit {
            UnitArg::Utf16 if json => Unit::Utf16,
            _ => Unit::Byte,
        };
        Ok(Ctx {
            ops: Ops::new(Arc::new(Store::new(ws)), identity, unit),
            json,
        })
    }

    fn ws(&self) -> &Workspace {
        self.ops.workspace()
    }

    /// Print an answer: as it is with `--json`, else as `human` words it. A
    /// closed pipe (`cowriting decisions | head`) is not an error.
    fn print<T: serde::Serialize>(&self, answer: &T, human: impl FnOnce(&T) -> String) {
        let out = if self.json {
            to_js_json(&serde_json::to_value(answer).unwrap_or(Value::Null))
        } else {
            let text = human(answer);
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

impl OptTarget {
    fn target(&self) -> Option<cowriting::Target<'_>> {
        target_of(self.find.as_deref(), self.nth, self.start, self.end)
    }
}

impl Target {
    fn target(&self) -> Result<cowriting::Target<'_>> {
        target_of(self.find.as_deref(), self.nth, self.start, self.end)
            .ok_or_else(|| Error::BadInput("give --find TEXT or --start B --end B".into()))
    }
}

/// The target `--find TEXT [--nth K]` or `--start B --end B` names.
fn target_of(
    find: Option<&str>,
    nth: Option<usize>,
    start: Option<usize>,
    end: Option<usize>,
) -> Option<cowriting::Target<'_>> {
    match (find, start, end) {
        (Some(text), _, _) => Some(cowriting::Target::Text {
            text,
            occurrence: nth,
        }),
        (None, Some(start), Some(end)) => Some(cowriting::Target::Bytes(ByteRange::new(start, end))),
        _ => None,
    }
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
    if let Command::Sample { dir } = &cli.command {
        let out = cowriting::ops::sample::create_sample(dir)?;
        warn(&out.warnings);
        let text = if cli.json {
            to_js_json(&serde_json::to_value(&out).unwrap_or(Value::Null))
        } else {
            format!("{}\n", sample_text(&out))
        };
        let _ = std::io::stdout().lock().write_all(text.as_bytes());
        return Ok(0);
    }
    let ctx = Ctx::new(cli.workspace, cli.json, cli.unit)?;
    let ops = &ctx.ops;
    match cli.command {
        Command::Check { docs } => {
            let out = ops.check_sidecars(&docs)?;
            ctx.print(&out, |o| sidecars_text(&o.sidecars));
            Ok(check::exit_code(&out.sidecars))
        }
        Command::Status { doc } => {
            let out = ops.documents(doc.as_deref())?;
            ctx.print(&out, status_text);
            Ok(0)
        }
        Command::Authorship { doc } => {
            let out = ops.authorship(&doc)?;
            ctx.print(&out, authorship_text);
            Ok(0)
        }
        Command::New { name } => {
            let out = ops.new_document(&name)?;
            ctx.print(&out, |o| o.document.clone());
            Ok(0)
        }
        Command::Rename { doc, to } => {
            let out = ops.rename_document(&doc, &to)?;
            ctx.print(&out, |o| format!("{} → {}", o.from, o.to));
            Ok(0)
        }
        Command::Delete { doc } => {
            let out = ops.trash_document(&doc)?;
            ctx.print(&out, |o| {
                let with = if o.sidecar {
                    ", with its threads and proposals,"
                } else {
                    ""
                };
                format!("{}{with} moved to the trash", o.document)
            });
            Ok(0)
        }
        Command::Mkdir { name } => {
            let out = ops.new_folder(&name)?;
            ctx.print(&out, |o| o.folder.clone());
            Ok(0)
        }
        Command::Propose {
            doc,
            target,
            replacement,
            instruction,
            reason,
            turn,
            model,
            session,
            agent,
        } => {
            let agent = cowriting::identity::AgentClient {
                name: agent,
                version: format!("cowriting-cli {}", env!("CARGO_PKG_VERSION")),
                sdk: "cowriting-cli".into(),
                model,
                session_id: session,
            };
            let out = ops.propose(Propose {
                document: &doc,
                target: target.target()?,
                replacement: &replacement,
                agent: &agent,
                reason,
                instruction,
                turn_id: turn,
            })?;
            warn(&out.warnings);
            if out.already_pending {
                eprintln!(
                    "cowriting: {} is already pending: the same edit by the same agent; not filed again",
                    out.proposal.id
                );
            }
            for p in &out.overlapping {
                eprintln!(
                    "cowriting: note: it overlaps pending {} by {} on {:?} (accepting one turns the other stale)",
                    p.id, p.author.label, p.target
                );
            }
            ctx.print(&out, |o| o.proposal.id.clone());
            Ok(0)
        }
        Command::Proposals { doc } => {
            let out = one(ops.proposals(Some(&doc), None)?.documents)?;
            ctx.print(&out, proposals_text);
            Ok(0)
        }
        Command::Accept {
            doc,
            id: Some(id),
            with,
            confirm_hidden,
            batch,
        } => {
            batch.check()?;
            decided(&ctx, ops.accept(&doc, &id, with.as_deref(), confirm_hidden)?)
        }
        Command::Accept {
            doc,
            batch,
            confirm_hidden,
            ..
        } => batch_decided(
            &ctx,
            ops.decide_all(&doc, BatchDecision::Accept, &batch.filter(), confirm_hidden)?,
        ),
        Command::Reject {
            doc,
            id: Some(id),
            batch,
        } => {
            batch.check()?;
            decided(&ctx, ops.reject(&doc, &id)?)
        }
        Command::Reject { doc, batch, .. } => batch_decided(
            &ctx,
            ops.decide_all(&doc, BatchDecision::Reject, &batch.filter(), false)?,
        ),
        Command::Thread(t) => cmd_thread(&ctx, t),
        Command::Export {
            doc,
            format,
            output,
            with_review,
            force,
            remote_images,
        } => {
            let format = match format {
                ExportFormatArg::Html => ExportFormat::Html,
                ExportFormatArg::Critic => ExportFormat::Critic,
                ExportFormatArg::Pdf => {
                    return Err(Error::BadInput(
                        "--format pdf: a PDF is printed by the desktop app (open the document in Cowriting, then Export… in its menu or the palette); here, export --format html and print that"
                            .into(),
                    ))
                }
            };
            let rendered = ops.export(&doc, format, with_review, remote_images)?;
            match output {
                None => {
                    let _ = std::io::stdout().lock().write_all(rendered.content.as_bytes());
                }
                Some(path) => {
                    let out = ops.write_export(&rendered, rendered.content.as_bytes(), &path, force)?;
                    ctx.print(&out, |o| o.path.clone());
                }
            }
            Ok(0)
        }
        Command::Threads { doc } => {
            let out = one(ops.threads(Some(&doc), None)?.documents)?;
            ctx.print(&out, threads_text);
            Ok(0)
        }
        Command::Spans { doc } => {
            let out = ops.spans(&doc)?;
            ctx.print(&out, spans_text);
            Ok(0)
        }
        Command::Suggest {
            doc,
            producer,
            instruction,
            target,
        } => match producer {
            Some(p) => cmd_suggest(&ctx, &doc, &p, instruction, &target),
            None => cmd_check_document(&ctx, &doc, instruction, &target),
        },
        Command::Review {
            doc,
            instruction,
            target,
        } => {
            let out = ops.review_pass(&doc, target.target(), instruction, &Cancel::new(), &mut |_| {})?;
            finish_review(&ctx, &out)
        }
        Command::Decisions { doc } => {
            let out = ops.decisions(doc.as_deref(), None)?;
            warn(&out.warnings);
            ctx.print(&out, |o| decisions_text(&o.decisions));
            Ok(0)
        }
        Command::Search {
            query,
            case_sensitive,
            word,
            regex,
        } => {
            let out = ops.search(&cowriting::ops::SearchQuery {
                text: query,
                case_sensitive,
                whole_word: word,
                regex,
            })?;
            for e in &out.errors {
                eprintln!("cowriting: {}: not searched: {}", e.document, e.error.message);
            }
            ctx.print(&out, search_text);
            Ok(0)
        }
        Command::Inbox {
            document,
            producer,
            state,
        } => {
            let out = ops.inbox(&cowriting::ops::InboxFilter {
                document,
                producer,
                state: state.map(|s| match s {
                    StateArg::Pending => ItemState::Pending,
                    StateArg::Stale => ItemState::Stale,
                    StateArg::Orphaned => ItemState::Orphaned,
                    StateArg::Open => ItemState::Open,
                }),
            })?;
            for e in &out.errors {
                eprintln!("cowriting: {}: not read: {}", e.document, e.error.message);
            }
            ctx.print(&out, inbox_text);
            Ok(0)
        }
        Command::Lint { doc } => {
            let out = ops.lint(&doc, &Cancel::new())?;
            ctx.print(&out, lint_text);
            Ok(0)
        }
        Command::Dictionary { action } => {
            match action {
                None => {}
                Some(DictionaryCommand::Add { words }) => {
                    for w in &words {
                        ops.add_word(w)?;
                    }
                }
                Some(DictionaryCommand::Remove { words }) => {
                    for w in &words {
                        ops.remove_word(w)?;
                    }
                }
            }
            let out = ops.dictionary()?;
            ctx.print(&out, |d| {
                if d.words.is_empty() {
                    format!("no words in {}", d.file)
                } else {
                    d.words.join("\n")
                }
            });
            Ok(0)
        }
        Command::Eval { replay } => {
            let out = ops.eval(replay.as_deref())?;
            warn(&out.warnings);
            ctx.print(&out, eval_text);
            Ok(0)
        }
        Command::Mcp => mcp::serve_stdio(ctx.ws().root()).map(|()| 0),
        Command::Resolve { .. } | Command::Sample { .. } => unreachable!("handled above"),
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

fn sample_text(o: &cowriting::ops::SampleOut) -> String {
    let what = if o.written {
        format!("The sample workspace is in {}", o.folder)
    } else {
        format!(
            "{} holds the sample already; nothing of it was overwritten",
            o.folder
        )
    };
    match &o.git {
        Some(g) if g.added => format!(
            "{what}: a git repository on {}, {} commits (git log shows them).",
            g.branch, g.commits
        ),
        Some(g) => format!("{what} (a git repository on {}).", g.branch),
        None => format!("{what} (not a git repository)."),
    }
}

/// The one document of a listing that named it.
fn one<T>(mut documents: Vec<T>) -> Result<T> {
    documents
        .pop()
        .ok_or_else(|| Error::BadInput("no such document".into()))
}

fn cmd_git(ctx: &Ctx, g: GitCommand) -> Result<i32> {
    match g {
        GitCommand::Install => {
            let exe = std::env::current_exe()
                .map_err(|e| Error::BadInput(format!("cannot find the cowriting executable: {e}")))?;
            let r = cowriting::gitops::install(ctx.ws().root(), &exe)?;
            ctx.print(&r, |r| r.lines.join("\n"));
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

/// Problems the operation met after it went through (an unreadable
/// decision-log line, a log that could not be written), said on stderr.
fn warn(warnings: &[String]) {
    for w in warnings {
        eprintln!("cowriting: warning: {w}");
    }
}

fn decided(ctx: &Ctx, out: DecidedOut) -> Result<i32> {
    warn(&out.warnings);
    ctx.print(&out, |o| match o.outcome {
        DecidedOutcome::Rejected => format!("rejected {}", o.id),
        _ => format!("accepted {}; {} updated", o.id, o.document),
    });
    Ok(0)
}

/// A batch decision: one line; each proposal passed over said on stderr.
fn batch_decided(ctx: &Ctx, out: BatchOut) -> Result<i32> {
    warn(&out.warnings);
    if !ctx.json {
        for s in &out.skipped {
            eprintln!("cowriting: skipped {}: {}", s.id, s.reason);
        }
    }
    ctx.print(&out, |o| {
        let verb = match o.outcome {
            DecidedOutcome::Rejected => "rejected",
            _ => "accepted",
        };
        if o.counts.matched == 0 {
            return format!("no proposal of {} matched; nothing decided", o.document);
        }
        format!(
            "{verb} {} of {} proposal{} in {}; {} skipped",
            o.counts.decided,
            o.counts.matched,
            if o.counts.matched == 1 { "" } else { "s" },
            o.document,
            o.counts.skipped
        )
    });
    Ok(0)
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
    if cowriting::config::Config::load()?.enabled_producers().is_empty() {
        return Err(Error::BadInput(
            "no producers are enabled: name one with --producer, or enable them in the settings".into(),
        ));
    }
    let out = ctx.ops.check_document(doc, &Cancel::new())?;
    warn(&out.warnings);
    let exit = out
        .outcomes
        .iter()
        .find_map(|o| match o {
            CheckOutcome::Failed { error, .. } => Some(error.code.exit_code()),
            _ => None,
        })
        .unwrap_or(0);
    ctx.print(&out, |o| {
        let lines: Vec<String> = o
            .outcomes
            .iter()
            .map(|o| match o {
                CheckOutcome::Filed { producer, filing } => format!(
                    "{producer}: {} proposal{} filed (turn {}){}",
                    filing.filed.len(),
                    plural(filing.filed.len()),
                    filing.turn_id,
                    if filing.skipped.is_empty() {
                        String::new()
                    } else {
                        format!(", {} not filed", filing.skipped.len())
                    }
                ),
                CheckOutcome::Failed { producer, error } => {
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
                CheckOutcome::NotRun { producer, .. } => format!("{producer}: not run"),
            })
            .collect();
        lines.join("\n")
    });
    Ok(exit)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn cmd_suggest(
    ctx: &Ctx,
    doc: &str,
    producer: &str,
    instruction: Option<String>,
    t: &OptTarget,
) -> Result<i32> {
    let selection = t.target();
    if producer == "claude" {
        // This client's words for what the core would refuse.
        if selection.is_none() {
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
    let out = ctx
        .ops
        .suggest(doc, producer, selection, instruction, &Cancel::new())?;
    warn(&out.warnings);
    ctx.print(&out, |o| {
        let mut text = format!(
            "{}: {} proposal{} filed in {} (turn {})",
            o.filing.producer,
            o.filing.filed.len(),
            plural(o.filing.filed.len()),
            o.document,
            o.filing.turn_id
        );
        for f in &o.filing.filed {
            text.push_str(&format!("\n  {}  ({})", f.sidecar_id, f.proposal_id));
        }
        for k in &o.filing.skipped {
            text.push_str(&format!("\n  skipped: {k}"));
        }
        text
    });
    Ok(0)
}

fn search_text(out: &cowriting::ops::SearchOut) -> String {
    if out.hits.is_empty() && out.threads.is_empty() {
        return format!("no match for {:?}", out.query);
    }
    let mut text = String::new();
    for h in &out.hits {
        text.push_str(&format!(
            "{}:{}: {}[{}]{}\n",
            h.document, h.line, h.before, h.text, h.after
        ));
    }
    for t in &out.threads {
        let line = t.thread.line.map(|l| format!(":{l}")).unwrap_or_default();
        let what = match (&t.author, &t.body) {
            (Some(a), Some(b)) => format!("{}: {}", a.id, b.split_whitespace().collect::<Vec<_>>().join(" ")),
            _ => format!("on {:?}", t.thread.anchored_text),
        };
        text.push_str(&format!(
            "{}{line}: thread {} ({}) {what}\n",
            t.document, t.thread.id, t.thread.status
        ));
    }
    if out.truncated {
        text.push_str("… more matches not shown (the first 1000 are)\n");
    }
    text
}

fn inbox_text(out: &InboxOut) -> String {
    if out.groups.is_empty() {
        return "nothing waits for you: no pending proposals, no open threads".into();
    }
    let mut text = String::new();
    let n = |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
    for g in &out.groups {
        let mut docs: Vec<&str> = g.proposals.iter().map(|p| p.document.as_str()).collect();
        docs.extend(g.threads.iter().map(|t| t.document.as_str()));
        docs.dedup();
        let mut head = g.producer.clone();
        if g.author.label != g.producer {
            head.push_str(&format!(" · {}", g.author.label));
        }
        if let Some(t) = &g.turn_id {
            head.push_str(&format!(" · turn {t}"));
        }
        if let Some(i) = &g.instruction {
            head.push_str(&format!(" · {}", short(i, 60)));
        }
        let mut what = Vec::new();
        if !g.proposals.is_empty() {
            what.push(n(g.proposals.len(), "proposal", "proposals"));
        }
        if !g.threads.is_empty() {
            what.push(n(g.threads.len(), "open thread", "open threads"));
        }
        text.push_str(&format!(
            "{head} — {} in {}\n",
            what.join(", "),
            n(docs.len(), "document", "documents")
        ));
        for p in &g.proposals {
            let d = &p.proposal;
            let state = match d.state {
                ProposalState::Pending => "pending",
                ProposalState::Stale => "stale",
                ProposalState::Orphaned => "orphaned",
            };
            let at = d.line.map(|l| format!(":{l}")).unwrap_or_default();
            text.push_str(&format!(
                "  {}{at}  {state:8} {}  {} → {}\n",
                p.document,
                d.id,
                short(&d.target, 50),
                short(&d.replacement, 50)
            ));
            if let Some(r) = &d.reason {
                text.push_str(&format!("      {state}: {r}\n"));
            }
        }
        for t in &g.threads {
            let at = t.thread.line.map(|l| format!(":{l}")).unwrap_or_default();
            let last = t.thread.comments.last();
            text.push_str(&format!(
                "  {}{at}  thread   {}  on {}{}\n",
                t.document,
                t.thread.id,
                short(&t.thread.anchored_text, 40),
                last.map(|c| format!(" — {}: {}", c.author.label, short(&c.body, 60)))
                    .unwrap_or_default()
            ));
        }
    }
    text.trim_end().to_owned()
}

fn lint_text(out: &cowriting::ops::LintOut) -> String {
    if out.lints.is_empty() {
        return format!("{}: no spelling or grammar lints", out.document);
    }
    let mut text = String::new();
    for l in &out.lints {
        let fix = match l.replacements.as_slice() {
            [] => String::new(),
            r => format!(
                " → {}",
                r.iter().map(|r| format!("{r:?}")).collect::<Vec<_>>().join(", ")
            ),
        };
        text.push_str(&format!(
            "{}:{}: {}: {:?}: {}{fix}\n",
            out.document, l.line, l.category, l.text, l.message
        ));
    }
    text
}

fn decisions_text(decisions: &[views::DecisionDto]) -> String {
    if decisions.is_empty() {
        return "no decisions recorded".into();
    }
    let mut out = String::new();
    for d in decisions {
        let first = d.edits.first();
        out.push_str(&format!(
            "{}  {:8}{}  {}  {}  by {}  {}\n",
            d.decided_at,
            d.outcome,
            if d.undone { " (undone)" } else { "" },
            d.document,
            d.id,
            d.decided_by,
            first
                .map(|e| format!("{}/{}", e.producer, e.category))
                .unwrap_or_default()
        ));
        for e in &d.edits {
            out.push_str(&format!(
                "    - {}\n    + {}\n",
                short(&e.text, 70),
                short(&e.proposed, 70)
            ));
        }
        if let Some(c) = &d.chosen {
            out.push_str(&format!("    chosen: {}\n", short(c, 70)));
        }
    }
    out
}

fn eval_text(o: &EvalOut) -> String {
    let rows = &o.rows;
    let mut out = String::new();
    if rows.is_empty() {
        out.push_str("no contract proposals recorded\n");
    } else {
        let elsewhere = rows.iter().any(|r| r.tally.decided_elsewhere > 0);
        out.push_str(&format!(
            "{:<14} {:<14} {:>8} {:>8} {:>8} {:>8}{}\n",
            "producer",
            "category",
            "accepted",
            "changed",
            "rejected",
            "pending",
            if elsewhere { "  elsewhere" } else { "" }
        ));
        for r in rows {
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
    if let Some(rep) = &o.replay {
        out.push_str(&rep.to_text());
    }
    out.trim_end().to_owned()
}

/// `from..to`, or `-` when not in the text.
fn bytes_text(from: Option<u32>, to: Option<u32>) -> String {
    match (from, to) {
        (Some(f), Some(t)) => format!("{f}..{t}"),
        _ => "-".into(),
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

fn sidecars_text(reports: &[check::SidecarReport]) -> String {
    if reports.is_empty() {
        return "no sidecars in this workspace".into();
    }
    let mut out = String::new();
    for r in reports {
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
}

fn authorship_text(o: &cowriting::ops::AuthorshipOut) -> String {
    let who = |a: &cowriting::ops::AuthorShare| match (a.kind.as_str(), &a.id, &a.model) {
        ("unknown", ..) => "from before tracking".to_owned(),
        (kind, Some(id), Some(model)) => format!("{id} ({kind}, {model})"),
        (kind, Some(id), None) => format!("{id} ({kind})"),
        (kind, None, _) => kind.to_owned(),
    };
    let pct = |part: u32, total: u32| {
        if total == 0 {
            0
        } else {
            (u64::from(part) * 100 + u64::from(total) / 2) / u64::from(total)
        }
    };
    let mut out = format!("{}: {} characters, {} words\n", o.document, o.total, o.words);
    for a in &o.by_author {
        out.push_str(&format!(
            "  {:>3}%  {:>8} chars {:>7} words  {}\n",
            pct(a.chars, o.total),
            a.chars,
            a.words,
            who(a)
        ));
    }
    let d = &o.decisions;
    out.push_str(&format!(
        "Decisions: {} accepted, {} accepted with changes, {} rejected\n",
        d.accepted, d.changed, d.rejected
    ));
    if o.sections.len() > 1 {
        out.push_str("Sections:\n");
        for s in &o.sections {
            let name = match &s.heading {
                Some(h) => format!("{} {h}", "#".repeat(usize::from(s.level))),
                None => "(before the first heading)".to_owned(),
            };
            let parts: Vec<String> = s
                .by_author
                .iter()
                .map(|a| format!("{} {}%", who(a), pct(a.chars, s.total)))
                .collect();
            out.push_str(&format!("  line {}: {name}: {}\n", s.line, parts.join(", ")));
        }
    }
    out
}

fn status_text(o: &DocumentsOut) -> String {
    let mut out = String::new();
    for r in &o.documents {
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
    for e in &o.errors {
        out.push_str(&format!("{}: error: {}\n", e.document, e.error.message));
    }
    out
}

fn proposals_text(d: &views::DocProposals) -> String {
    if d.proposals.is_empty() {
        return format!("no pending proposals in {}", d.document);
    }
    let mut out = String::new();
    for p in &d.proposals {
        let state = match p.state {
            ProposalState::Pending => "pending",
            ProposalState::Stale => "stale",
            ProposalState::Orphaned => "orphaned",
        };
        out.push_str(&format!(
            "{}  {state:8} bytes {}  by {}",
            p.id,
            bytes_text(p.from, p.to),
            p.author.label
        ));
        if let Some(t) = &p.turn_id {
            out.push_str(&format!("  turn {t}"));
        }
        out.push('\n');
        out.push_str(&format!(
            "    - {}\n    + {}\n",
            short(&p.target, 70),
            short(&p.replacement, 70)
        ));
        if let Some(i) = &p.instruction {
            out.push_str(&format!("    instruction: {}\n", short(i, 70)));
        }
        if let Some(r) = &p.reason {
            out.push_str(&format!("    {state}: {r}\n"));
        }
        if !p.hidden.is_empty() {
            let which: Vec<String> = p
                .hidden
                .iter()
                .map(|h| format!("{} {}", h.code_point, h.name))
                .collect();
            out.push_str(&format!(
                "    hidden: inserts {} (invisible or reordering the text); accept asks for --confirm-hidden\n",
                which.join(", ")
            ));
        }
    }
    out
}

/// Print what a review pass or a question in a thread filed; the exit code
/// of why it stopped early, if it did.
fn finish_review(ctx: &Ctx, out: &cowriting::ops::review::ReviewOut) -> Result<i32> {
    warn(&out.warnings);
    ctx.print(out, |o| {
        let n = |k: usize, what: &str| format!("{k} {what}{}", plural(k));
        let mut text = format!(
            "claude: {}, {} filed in {} (turn {}{})",
            n(o.threads.len(), "comment"),
            n(o.proposals.len(), "proposal"),
            o.document,
            o.turn_id,
            o.model.as_deref().map(|m| format!(", {m}")).unwrap_or_default()
        );
        if let Some(c) = &o.reply {
            text.push_str(&format!("\n  reply {c}"));
        }
        for t in &o.threads {
            text.push_str(&format!("\n  thread {t}"));
        }
        for p in &o.proposals {
            text.push_str(&format!("\n  proposal {p}"));
        }
        if !o.skipped.is_empty() {
            text.push_str(&format!(
                "\n{} of {} suggestions could not be placed:",
                o.skipped.len(),
                o.items
            ));
            for k in &o.skipped {
                text.push_str(&format!("\n  line {}: {}", k.line, k.reason));
            }
        }
        text
    });
    match &out.stopped {
        Some(e) => {
            eprintln!("cowriting: claude stopped early: {}", e.message);
            Ok(e.code.exit_code())
        }
        None => Ok(0),
    }
}

fn cmd_thread(ctx: &Ctx, t: ThreadCommand) -> Result<i32> {
    let ops = &ctx.ops;
    let (out, said) = match t {
        ThreadCommand::Ask {
            doc,
            thread,
            instruction,
        } => {
            let out = ops.ask_in_thread(&doc, &thread, instruction, &Cancel::new(), &mut |_| {})?;
            return finish_review(ctx, &out);
        }
        ThreadCommand::New { doc, target, body } => {
            let out = ops.new_thread(&doc, target.target()?, &body)?;
            let id = out.thread.id.clone();
            (out, id)
        }
        ThreadCommand::Reply { doc, thread, body } => {
            let out = ops.reply(&doc, &thread, &body)?;
            let id = out.comment_id.clone().unwrap_or_default();
            (out, id)
        }
        ThreadCommand::Resolve { doc, thread } => (
            ops.change_thread(&doc, &thread, ThreadChange::Resolve)?,
            format!("{thread} resolved"),
        ),
        ThreadCommand::Reopen { doc, thread } => (
            ops.change_thread(&doc, &thread, ThreadChange::Reopen)?,
            format!("{thread} open"),
        ),
        ThreadCommand::Keep { doc, thread } => (
            ops.change_thread(&doc, &thread, ThreadChange::KeepHere)?,
            format!("{thread} kept here"),
        ),
        ThreadCommand::Detach { doc, thread } => (
            ops.change_thread(&doc, &thread, ThreadChange::Detach)?,
            format!("{thread} detached"),
        ),
    };
    ctx.print(&out, |_| said);
    Ok(0)
}

fn threads_text(d: &views::DocThreads) -> String {
    if d.threads.is_empty() {
        return format!("no threads in {}", d.document);
    }
    let mut out = String::new();
    for t in &d.threads {
        let place = match (t.from, t.to) {
            (Some(f), Some(to)) if t.relocated => {
                format!("bytes {f}..{to} (re-wrapped since; keep or detach)")
            }
            (Some(f), Some(to)) => format!("bytes {f}..{to}"),
            _ if t.detached => "detached".into(),
            _ => "orphaned".into(),
        };
        out.push_str(&format!(
            "{}  {:8} {place}  on {}\n",
            t.id,
            t.status,
            short(&t.text, 60)
        ));
        for c in &t.comments {
            out.push_str(&format!(
                "    {} ({}): {}\n",
                c.author.label,
                c.created_at,
                short(&c.body, 70)
            ));
        }
    }
    out
}

fn spans_text(d: &views::DocSpans) -> String {
    if d.spans.is_empty() && d.orphaned.is_empty() {
        return format!("no attribution spans in {}", d.document);
    }
    let mut out = String::new();
    for sp in &d.spans {
        out.push_str(&format!(
            "bytes {:12} {} {}{}  {}\n",
            bytes_text(Some(sp.from), Some(sp.to)),
            sp.author.kind,
            sp.author.label,
            sp.turn_id
                .as_ref()
                .map(|t| format!("  turn {t}"))
                .unwrap_or_default(),
            short(&sp.text, 50)
        ));
    }
    for o in &d.orphaned {
        out.push_str(&format!(
            "orphaned     {} {}  ({})\n",
            o.author.kind, o.author.label, o.id
        ));
    }
    out
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
