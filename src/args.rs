//! The command line: the `clap` tree of commands, their arguments and how a
//! target (`--find`/`--nth` or `--start`/`--end`) is read from them.

use super::*;

#[derive(Parser)]
#[command(
    name = "cowriting",
    version,
    about = "Review Claude's proposed edits, comment threads and attribution in a Markdown workspace"
)]
pub(crate) struct Cli {
    /// The workspace folder (default: the current directory).
    #[arg(short = 'w', long = "workspace", global = true, value_name = "DIR")]
    pub(crate) workspace: Option<PathBuf>,
    /// Print JSON for programs instead of text for people.
    #[arg(long, global = true)]
    pub(crate) json: bool,
    /// What positions in JSON (`from`, `to`) count: UTF-8 bytes of the text, or
    /// UTF-16 code units (JavaScript's).
    #[arg(long, global = true, value_enum, default_value_t = UnitArg::Byte)]
    pub(crate) unit: UnitArg,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum ExportFormatArg {
    Html,
    Critic,
    Pdf,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum UnitArg {
    Byte,
    Utf16,
}

#[derive(Subcommand)]
pub(crate) enum Command {
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
    /// and per section, and the decisions taken on its proposals. With
    /// --format, the same authorship for other tools: an Agent Trace record,
    /// or the document with iA Writer's annotation block; `import-ia` brings
    /// iA Writer's authorship in.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Authorship(AuthorshipArgs),
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
    Propose(ProposeArgs),
    /// List pending proposals with their state: pending, stale or orphaned.
    Proposals { doc: String },
    /// Accept a proposal, or with --all every pending one (of a turn, of a
    /// producer): the document file and the sidecar are updated, a batch in one
    /// transaction.
    Accept(AcceptArgs),
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
    Export(ExportArgs),
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
pub(crate) enum StateArg {
    Pending,
    Stale,
    Orphaned,
    /// Open threads.
    Open,
}

#[derive(Subcommand)]
pub(crate) enum GitCommand {
    /// Set up the sidecar merge driver and the prepare-commit-msg hook (idempotent).
    Install {
        /// How this repository's commits credit an agent's accepted text:
        /// `assisted-by` (`Assisted-by: claude:<model>`, the default),
        /// `co-authored-by` or `none` (kept in `git config cowriting.trailer`).
        #[arg(long, value_name = "STYLE")]
        trailer: Option<String>,
    },
    /// What the installed hook runs.
    #[command(subcommand)]
    Hook(GitHook),
}

#[derive(Subcommand)]
pub(crate) enum GitHook {
    /// Add trailers crediting the agents whose text this commit adds.
    PrepareCommitMsg {
        msg_file: PathBuf,
        source: Option<String>,
        sha: Option<String>,
    },
}

#[derive(Subcommand)]
pub(crate) enum DictionaryCommand {
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
    /// The language this workspace is spelled in, for everyone who writes in
    /// it (`.cowriting/settings.toml`, before each writer's own): show it, set
    /// it to an installed Hunspell dictionary (`en_GB`), or leave it to each
    /// writer with --mine.
    Language {
        #[arg(conflicts_with = "mine")]
        language: Option<String>,
        /// Each writer's own language (the workspace says none).
        #[arg(long)]
        mine: bool,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum AuthorshipFormatArg {
    AgentTrace,
    IaAnnotations,
}

#[derive(Subcommand)]
pub(crate) enum AuthorshipCommand {
    /// Bring iA Writer's authorship into the document's attribution: the
    /// Markdown Annotations block at the end of FILE (an iA Writer file of the
    /// same text), or without FILE at the end of the document itself (then
    /// taken out of it). Human (`@`) text becomes yours, AI (`&`) text the
    /// agent's with the model iA Writer names. Refused, nothing written, when
    /// the block's hash does not match the document's text.
    #[command(name = "import-ia")]
    ImportIa { doc: String, file: Option<PathBuf> },
}

#[derive(Subcommand)]
pub(crate) enum ThreadCommand {
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
/// The arguments of `authorship`.
#[derive(Args)]
pub(crate) struct AuthorshipArgs {
    #[arg(required = true)]
    pub(crate) doc: Option<String>,
    /// agent-trace (Agent Trace 0.1.0 JSON: the lines each author wrote)
    /// or ia-annotations (the document and iA Writer's Markdown
    /// Annotations block: what iA Writer opens with its authorship).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub(crate) format: Option<AuthorshipFormatArg>,
    /// Write the export to FILE (relative to the current folder; never
    /// through a symlink) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE", requires = "format")]
    pub(crate) output: Option<PathBuf>,
    /// Replace FILE when it exists (a symlink is never followed or replaced).
    #[arg(long, requires = "output")]
    pub(crate) force: bool,
    #[command(subcommand)]
    pub(crate) action: Option<AuthorshipCommand>,
}

/// The arguments of `propose`.
#[derive(Args)]
pub(crate) struct ProposeArgs {
    pub(crate) doc: String,
    #[command(flatten)]
    pub(crate) target: Target,
    /// The proposed text.
    #[arg(long = "replace", value_name = "TEXT")]
    pub(crate) replacement: String,
    /// What the human asked for.
    #[arg(long)]
    pub(crate) instruction: Option<String>,
    /// Why this edit, shown with it (default: the instruction).
    #[arg(long)]
    pub(crate) reason: Option<String>,
    /// Groups the proposals of one agent turn.
    #[arg(long = "turn", value_name = "ID")]
    pub(crate) turn: Option<String>,
    /// The model that wrote the replacement.
    #[arg(long)]
    pub(crate) model: Option<String>,
    /// The agent session id.
    #[arg(long)]
    pub(crate) session: Option<String>,
    /// The agent's id.
    #[arg(long, default_value = "claude")]
    pub(crate) agent: String,
}

/// The arguments of `accept`.
#[derive(Args)]
pub(crate) struct AcceptArgs {
    pub(crate) doc: String,
    /// The proposal (`pr_…`); not with --all.
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    pub(crate) id: Option<String>,
    #[command(flatten)]
    pub(crate) batch: Batch,
    /// Accept with your own version of the replacement.
    #[arg(long = "with", value_name = "TEXT", conflicts_with = "all")]
    pub(crate) with: Option<String>,
    /// Accept even though the replacement holds characters that are invisible
    /// or reorder the text around them (`proposals` lists them as "hidden");
    /// without it such an accept is refused (exit 3).
    #[arg(long)]
    pub(crate) confirm_hidden: bool,
    /// Accept a proposal whose exact text was found only at a likely place
    /// (the words around it changed; `proposals` says "likely place"),
    /// there; without it such a proposal is stale (exit 3). Not with --all.
    #[arg(long, conflicts_with = "all")]
    pub(crate) at_likely_place: bool,
}

/// The arguments of `export`.
#[derive(Args)]
pub(crate) struct ExportArgs {
    pub(crate) doc: String,
    /// html, critic (Markdown with CriticMarkup), or pdf (the app only).
    #[arg(long, value_enum)]
    pub(crate) format: ExportFormatArg,
    /// Write to FILE (relative to the current folder; anywhere you name,
    /// never through a symlink) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// HTML: show the pending proposals in place and the open threads as
    /// numbered notes (default: a clean copy).
    #[arg(long)]
    pub(crate) with_review: bool,
    /// Replace FILE when it exists (a symlink is never followed or replaced).
    #[arg(long, requires = "output")]
    pub(crate) force: bool,
    /// HTML: keep remote images (opening the page then contacts the
    /// servers they are on); by default each is its alt text, not loaded.
    #[arg(long)]
    pub(crate) remote_images: bool,
}

#[derive(Args)]
pub(crate) struct Batch {
    /// Every proposal of the document (accept: the pending ones; stale and
    /// orphaned ones are listed as skipped), in one transaction.
    #[arg(long)]
    pub(crate) all: bool,
    /// With --all: only the proposals of this turn.
    #[arg(long = "turn", value_name = "ID", requires = "all")]
    pub(crate) turn: Option<String>,
    /// With --all: only the proposals of this producer (its id, e.g. `harper`,
    /// `claude`; or the author's id or name).
    #[arg(long, value_name = "NAME", requires = "all")]
    pub(crate) producer: Option<String>,
}

impl Batch {
    /// A filter names which proposals of a batch: without --all it is a usage error.
    pub(crate) fn check(&self) -> Result<()> {
        if !self.all && (self.turn.is_some() || self.producer.is_some()) {
            return Err(Error::BadInput(
                "--turn and --producer choose among the proposals of --all; with an id, leave them out"
                    .into(),
            ));
        }
        Ok(())
    }

    pub(crate) fn filter(self) -> cowriting::ops::BatchFilter {
        cowriting::ops::BatchFilter {
            turn: self.turn,
            producer: self.producer,
        }
    }
}

#[derive(Args)]
pub(crate) struct Target {
    /// The exact text to target.
    #[arg(long, value_name = "TEXT", conflicts_with_all = ["start", "end"], required_unless_present_all = ["start", "end"])]
    pub(crate) find: Option<String>,
    /// Which occurrence of --find (1-based), when it occurs more than once.
    #[arg(long, value_name = "K", requires = "find")]
    pub(crate) nth: Option<usize>,
    /// Start of the byte span.
    #[arg(long, value_name = "B", requires = "end")]
    pub(crate) start: Option<usize>,
    /// End of the byte span (exclusive).
    #[arg(long, value_name = "B", requires = "start")]
    pub(crate) end: Option<usize>,
}

/// An optional target (the selection for `suggest --producer claude`).
#[derive(Args)]
pub(crate) struct OptTarget {
    /// The exact text to target.
    #[arg(long, value_name = "TEXT", conflicts_with_all = ["start", "end"])]
    pub(crate) find: Option<String>,
    /// Which occurrence of --find (1-based), when it occurs more than once.
    #[arg(long, value_name = "K", requires = "find")]
    pub(crate) nth: Option<usize>,
    /// Start of the byte span.
    #[arg(long, value_name = "B", requires = "end")]
    pub(crate) start: Option<usize>,
    /// End of the byte span (exclusive).
    #[arg(long, value_name = "B", requires = "start")]
    pub(crate) end: Option<usize>,
}

impl OptTarget {
    pub(crate) fn target(&self) -> Option<cowriting::Target<'_>> {
        target_of(self.find.as_deref(), self.nth, self.start, self.end)
    }
}

impl Target {
    pub(crate) fn target(&self) -> Result<cowriting::Target<'_>> {
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
