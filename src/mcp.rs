//! `cowriting mcp`: the workspace served to an agent (Claude Code, any MCP
//! client) over the Model Context Protocol, on stdio.
//!
//! The agent reads documents with what is already proposed and discussed,
//! files proposals and comments, and reads back what the writer decided. It
//! cannot decide: no tool accepts, rejects or changes text (INV-10, INV-12);
//! the writer does that in the app or with the CLI.
//!
//! - **Who wrote it.** Proposals and comments are authored by an agent named
//!   after the client (`clientInfo.name` of the MCP `initialize` request), with
//!   `sdk` `mcp:<name>/<version>` and the `model` a call names, if it names one.
//!   Each call is one call of the one API ([`cowriting::ops::Ops`]) with that agent
//!   as its caller; no tool edits text, so no text is ever attributed to the
//!   agent as typing.
//! - **Fresh state.** Every call reads the files as they are on disk now (the
//!   app and the CLI may write concurrently); nothing is cached.
//! - **Answers.** Every tool declares an `outputSchema` and answers with
//!   `structuredContent`: the API's answer ([`cowriting::ops::answers`], built of
//!   [`cowriting::views`]), as `cowriting --json` prints it, and with readable
//!   text in `content` for the model (this client's wording).
//! - **Errors.** A call the core refuses (unknown document, path outside the
//!   workspace, text not found or ambiguous, a byte offset inside a character,
//!   unknown thread) returns a tool result with `isError: true` whose text is the
//!   core's one-line message, so the model reads it and can correct the call,
//!   and whose `structuredContent` is `{code, message}` with the codes of
//!   [`cowriting::ErrorCode`]; nothing is written. Arguments that do not fit a
//!   tool's schema are refused the same way, with `bad_input` (`mcp::args`).
//! - **Pages.** `read_document` shows a page of at most 400 lines and 64 KiB
//!   of text, says which lines it shows of how many and the
//!   `from_line` that reads on, and lists the proposals and threads on those
//!   lines.
//! - **Once.** `propose_edit` does not file a proposal the same client already
//!   has pending, and names the pending proposals a new one overlaps
//!   ([`cowriting::Session::propose_suggestion_once`]).
//!
//! Offsets in arguments and results (`start_byte`, `end_byte`, `bytes`) are
//! UTF-8 bytes of the text as `read_document` shows it (after a BOM, if any),
//! like the CLI's `--start`/`--end`; lines are 1-based.

use cowriting::error::{Error, ErrorInfo, Result};
use cowriting::identity::AgentClient;
use cowriting::model::ThreadStatus;
use cowriting::offset::ByteRange;
use cowriting::ops::claude_review::ReviewOut;
use cowriting::ops::doc_cache::{ProposalsCache, SummaryCache, ThreadsCache};
use cowriting::ops::{
    AuthorshipFormat, AuthorshipOut, DecisionsOut, DocFilter, DocumentsPage, NewDocumentOut, Ops,
    ProposalsOut, Propose, ProposedOut, ReadOut, ThreadOut, ThreadsOut,
};
use cowriting::producers::Cancel;
use cowriting::session::{ProposalState, Target};
use cowriting::store::Store;
use cowriting::views::{self, Unit};
use cowriting::workspace::Workspace;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::service::RequestContext;
use rmcp::{schemars, tool, tool_handler, tool_router, RoleServer, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod args;
mod transport;
use args::{Args, Whole};
use transport::CappedTransport;
pub use transport::MAX_REQUEST_BYTES;

/// Serve the workspace at `root` over MCP on stdin/stdout until the client
/// closes the connection. Runs on a current-thread runtime; tool calls are
/// handled one at a time.
pub fn serve_stdio(root: &Path) -> Result<()> {
    let server = CowritingMcp::new(Workspace::open(root)?);
    let stdio_error = |source| Error::Io {
        path: PathBuf::from("stdio"),
        source,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(stdio_error)?;
    runtime.block_on(async move {
        let (stdin, stdout) = rmcp::transport::stdio();
        let running = server
            .serve(CappedTransport::new(stdin, stdout, MAX_REQUEST_BYTES))
            .await
            .map_err(|e| Error::BadInput(format!("MCP session did not start: {e}")))?;
        running
            .waiting()
            .await
            .map_err(|e| stdio_error(std::io::Error::other(e)))?;
        Ok(())
    })
}

/// The MCP server of one workspace.
#[derive(Clone)]
pub struct CowritingMcp {
    store: Arc<Store>,
    /// Each reviewed document's counts as last read, while its files keep
    /// their stamps: `list_documents` page after page reads only what changed.
    summaries: Arc<std::sync::Mutex<SummaryCache>>,
    /// The same for `list_proposals` and `list_threads` (positions in bytes, as every tool's).
    proposals: Arc<std::sync::Mutex<ProposalsCache>>,
    threads: Arc<std::sync::Mutex<ThreadsCache>>,
    tool_router: ToolRouter<Self>,
}

// ---- arguments ---------------------------------------------------------------------

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct ReadArgs {
    /// Workspace-relative document path, e.g. `chapters/one.md` (an absolute path inside the workspace also works).
    document: String,
    /// The first line to show (1-based; default 1). To read the next page, give the `nextFromLine` of the last answer.
    #[serde(default)]
    from_line: Whole<1>,
    /// The last line to show (1-based, inclusive; default: as far as one page goes). A page is at most 400 lines and 64 KiB of text.
    #[serde(default)]
    to_line: Whole<1>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct ProposeEditArgs {
    /// Workspace-relative document path.
    document: String,
    /// The exact text to replace (give this, or start_byte and end_byte).
    #[serde(default)]
    find: Option<String>,
    /// Which occurrence of `find` (1-based), when it occurs more than once.
    #[serde(default)]
    occurrence: Whole<1>,
    /// Start of the target as a UTF-8 byte offset into the text (instead of `find`).
    #[serde(default)]
    start_byte: Whole<0>,
    /// End (exclusive) of the target as a UTF-8 byte offset into the text.
    #[serde(default)]
    end_byte: Whole<0>,
    /// The proposed text that would replace the target.
    replacement: String,
    /// Why this edit: shown to the writer with the proposal.
    #[serde(default)]
    rationale: Option<String>,
    /// What the writer asked for, in their words.
    #[serde(default)]
    instruction: Option<String>,
    /// Groups the proposals of one request (one agent turn).
    #[serde(default)]
    turn_id: Option<String>,
    /// The model that wrote the replacement, e.g. `claude-sonnet-4-5`.
    #[serde(default)]
    model: Option<String>,
}

/// A proposal state to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum StateArg {
    /// Its target text is there, exactly.
    Pending,
    /// Its target text changed since it was proposed.
    Stale,
    /// Its target text cannot be found any more.
    Orphaned,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct ListProposalsArgs {
    /// Only this document (default: every document of the workspace).
    #[serde(default)]
    document: Option<String>,
    /// Only proposals in this state (default: all).
    #[serde(default)]
    state: Option<StateArg>,
    /// Where to go on from: the `nextCursor` of the page before.
    #[serde(default)]
    cursor: Option<String>,
    /// At most this many proposals (default 100, at most 500).
    #[serde(default)]
    limit: Whole<1>,
}

/// A thread status to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum StatusArg {
    Open,
    Resolved,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct ListThreadsArgs {
    /// Only this document (default: every document of the workspace).
    #[serde(default)]
    document: Option<String>,
    /// Only threads with this status (default: all).
    #[serde(default)]
    status: Option<StatusArg>,
    /// Where to go on from: the `nextCursor` of the page before.
    #[serde(default)]
    cursor: Option<String>,
    /// At most this many threads (default 100, at most 500).
    #[serde(default)]
    limit: Whole<1>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct CreateDocumentArgs {
    /// Workspace-relative path of the new document (`.md` is added when it has
    /// no document ending; missing folders are made).
    document: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct CreateThreadArgs {
    /// Workspace-relative document path.
    document: String,
    /// The exact text the thread is about.
    find: String,
    /// Which occurrence of `find` (1-based), when it occurs more than once.
    #[serde(default)]
    occurrence: Whole<1>,
    /// The first comment (Markdown).
    body: String,
    /// The model writing the comment.
    #[serde(default)]
    model: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct ReplyArgs {
    /// Workspace-relative document path.
    document: String,
    /// The thread's id (`t_…`), from read_document or list_threads.
    thread_id: String,
    /// The reply (Markdown).
    body: String,
    /// The model writing the reply.
    #[serde(default)]
    model: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct ReviewArgs {
    /// Workspace-relative document path.
    document: String,
    /// What Claude should look for ("check the argument", "tighten for a general reader").
    #[serde(default)]
    instruction: Option<String>,
    /// Review only this part: its exact text (default: the whole document).
    #[serde(default)]
    find: Option<String>,
    /// Which occurrence of `find` (1-based), when it occurs more than once.
    #[serde(default)]
    occurrence: Whole<1>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct AskInThreadArgs {
    /// Workspace-relative document path.
    document: String,
    /// The thread's id (`t_…`), from read_document or list_threads.
    thread_id: String,
    /// What to ask Claude, beyond the thread itself.
    #[serde(default)]
    instruction: Option<String>,
}

/// A page of `list_documents` holds this many documents unless asked for
/// fewer (a page of 100 is about 30 KB of JSON, well under what a client lets
/// a tool answer), and never more than `MAX_PAGE`.
const PAGE: usize = 100;
const MAX_PAGE: usize = 500;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct ListDocumentsArgs {
    /// Only documents in this folder (workspace-relative), at any depth.
    #[serde(default)]
    folder: Option<String>,
    /// Only documents with proposals pending.
    #[serde(default)]
    has_pending: bool,
    /// Only documents with open comment threads.
    #[serde(default)]
    has_threads: bool,
    /// Where to go on from: the `nextCursor` of the page before.
    #[serde(default)]
    cursor: Option<String>,
    /// At most this many documents (default 100, at most 500).
    #[serde(default)]
    limit: Whole<1>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct AuthorshipArgs {
    /// Workspace-relative document path.
    document: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct ExportAuthorshipArgs {
    /// Workspace-relative document path.
    document: String,
    /// `agent-trace` (an Agent Trace 0.1.0 record, JSON) or `ia-annotations`
    /// (the document followed by iA Writer's Markdown Annotations block).
    format: AuthorshipFormat,
}

/// A document's authorship in a file format, to be saved where it is wanted.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
struct AuthorshipExportOut {
    document: String,
    format: AuthorshipFormat,
    /// The file's text, as `cowriting authorship DOC --format FORMAT` prints it.
    content: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct RecentDecisionsArgs {
    /// Only this document (default: every document).
    #[serde(default)]
    document: Option<String>,
    /// At most this many, newest first (default 20).
    #[serde(default)]
    limit: Whole<1>,
}

/// Who the client is, from its `initialize` request.
struct Client {
    name: String,
    version: String,
}

impl Client {
    fn of(ctx: &RequestContext<RoleServer>) -> Client {
        let info = ctx.client_info();
        let name = info
            .as_ref()
            .map(|i| i.name.trim().to_owned())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "mcp-client".to_owned());
        let version = info
            .map(|i| i.version.trim().to_owned())
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "unknown".to_owned());
        Client { name, version }
    }

    /// This client, naming `model` (or not), as [`AgentClient`]: one mapping
    /// to an author and a producer for every client.
    fn agent(&self, model: Option<&str>) -> AgentClient {
        AgentClient {
            name: self.name.clone(),
            version: self.version.clone(),
            sdk: format!("mcp:{}/{}", self.name, self.version),
            model: model.map(str::to_owned),
            session_id: None,
        }
    }
}

// ---- answers -----------------------------------------------------------------------

/// A tool's answer: readable text for the model in `content`, and the same
/// answer as data in `structuredContent` (the shapes of [`cowriting::views`], as
/// `cowriting --json` prints them), described by the tool's `outputSchema`.
/// A refusal is `isError: true` with the core's one-line message as text and
/// `{code, message}` as data, the codes the app and the CLI use.
fn answer<T: Serialize>(r: Result<(String, T)>) -> CallToolResult {
    match r {
        Ok((text, data)) => {
            let mut out = CallToolResult::structured(serde_json::to_value(data).expect("views serialize"));
            out.content = vec![ContentBlock::text(text)];
            out
        }
        Err(e) => {
            let info = worded(&e);
            let message = info.message.replace('\n', " ");
            let mut out = CallToolResult::structured_error(json!({ "code": info.code, "message": message }));
            out.content = vec![ContentBlock::text(message)];
            out
        }
    }
}

/// The `outputSchema` of a tool answering `T`.
fn schema<T: JsonSchema + 'static>() -> Arc<rmcp::model::JsonObject> {
    rmcp::handler::server::tool::schema_for_output::<T>()
}

#[tool_router]
impl CowritingMcp {
    pub fn new(ws: Workspace) -> CowritingMcp {
        CowritingMcp {
            store: Arc::new(Store::new(ws)),
            summaries: Default::default(),
            proposals: Default::default(),
            threads: Default::default(),
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        description = "List the workspace's documents, a page at a time (100 by default), in name order, each with its number of pending, stale and orphaned proposals and open comment threads. Narrow it with `folder`, `has_pending` (only documents with proposals pending) and `has_threads` (only documents with open threads). The answer says how many match (`total`) and, when there are more, the `cursor` that lists the next page (`nextCursor`).",
        annotations(read_only_hint = true, open_world_hint = false),
        output_schema = schema::<DocumentsPage>()
    )]
    fn list_documents(
        &self,
        Parameters(a): Parameters<Args<ListDocumentsArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        answer(
            a.get()
                .and_then(|a| self.list_documents_impl(a, &Client::of(&ctx))),
        )
    }

    #[tool(
        description = "Read a document, a page at a time: its text with 1-based line numbers (`   1| …`), then the proposals already pending on those lines (id, state, line, target → replacement, author, turn) and the open comment threads on them (id, line, anchored text, comments). A page is at most 400 lines and 64 KiB; the answer says which lines it shows of how many, and the `from_line` that reads on (`nextFromLine`, null at the end). Choose lines with `from_line`/`to_line`. Read this before proposing, so as not to propose what is already proposed.",
        annotations(read_only_hint = true, open_world_hint = false),
        output_schema = schema::<ReadOut>()
    )]
    fn read_document(
        &self,
        Parameters(a): Parameters<Args<ReadArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        answer(
            a.get()
                .and_then(|a| self.read_document_impl(a, &Client::of(&ctx))),
        )
    }

    #[tool(
        description = "Propose replacing a piece of a document's text. The document is NOT changed: the proposal waits for the writer, who reviews it in Cowriting. Target the text with `find` (its exact text; add `occurrence` when it occurs more than once) or with `start_byte`/`end_byte` (UTF-8 byte offsets into the text). Returns the new proposal, with its id. The same edit you already proposed and is still pending is not filed twice (`alreadyPending`); pending proposals whose targets overlap this one are listed (`overlapping`).",
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false),
        output_schema = schema::<ProposedOut>()
    )]
    fn propose_edit(
        &self,
        Parameters(a): Parameters<Args<ProposeEditArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        answer(a.get().and_then(|a| self.propose_edit_impl(a, &Client::of(&ctx))))
    }

    #[tool(
        description = "List proposals waiting for the writer, optionally for one document and one state: pending (can be taken as is), stale (its target text changed since) or orphaned (its target text is gone). A page at a time (100 proposals, `limit` up to 500): `total` says how many match, `nextCursor` (given back as `cursor`) reads on; documents with none are left out.",
        annotations(read_only_hint = true, open_world_hint = false),
        output_schema = schema::<ProposalsOut>()
    )]
    fn list_proposals(
        &self,
        Parameters(a): Parameters<Args<ListProposalsArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        answer(
            a.get()
                .and_then(|a| self.list_proposals_impl(a, &Client::of(&ctx))),
        )
    }

    #[tool(
        description = "List comment threads with their comments, optionally for one document and one status (open or resolved). A page at a time (100 threads, `limit` up to 500): `total` says how many match, `nextCursor` (given back as `cursor`) reads on; documents with none are left out.",
        annotations(read_only_hint = true, open_world_hint = false),
        output_schema = schema::<ThreadsOut>()
    )]
    fn list_threads(
        &self,
        Parameters(a): Parameters<Args<ListThreadsArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        answer(a.get().and_then(|a| self.list_threads_impl(a, &Client::of(&ctx))))
    }

    #[tool(
        description = "Start a comment thread on a piece of text (its exact text in `find`; add `occurrence` when it occurs more than once). The document is not changed. Returns the thread, with its id.",
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false),
        output_schema = schema::<ThreadOut>()
    )]
    fn create_thread(
        &self,
        Parameters(a): Parameters<Args<CreateThreadArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        answer(
            a.get()
                .and_then(|a| self.create_thread_impl(a, &Client::of(&ctx))),
        )
    }

    #[tool(
        description = "Create a new, empty document for the writer (nothing at that name is overwritten: an existing one is an `exists` error). Returns its path.",
        annotations(read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false),
        output_schema = schema::<NewDocumentOut>()
    )]
    fn create_document(
        &self,
        Parameters(a): Parameters<Args<CreateDocumentArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        answer(a.get().and_then(|a| {
            let out = self.ops(&Client::of(&ctx), None).new_document(&a.document)?;
            Ok((format!("Created {}", out.document), out))
        }))
    }

    #[tool(
        description = "Reply to a comment thread. Returns the thread with the new comment, and the comment's id.",
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false),
        output_schema = schema::<ThreadOut>()
    )]
    fn reply_to_thread(
        &self,
        Parameters(a): Parameters<Args<ReplyArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        answer(a.get().and_then(|a| self.reply_impl(a, &Client::of(&ctx))))
    }

    #[tool(
        description = "Ask Claude (the writer's configured Claude: Claude Code or the Messages API) to review a document, or the part of it given by `find`, as `instruction` says. One turn: Claude's comments become comment threads and its edits pending proposals, all sharing the answer's `turnId`; nothing in the document changes. Items Claude quoted wrongly are not filed and are listed in `skipped` with why. Takes as long as Claude does (minutes for a long document); cancelling the request stops it and keeps what was filed.",
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = true),
        output_schema = schema::<ReviewOut>()
    )]
    async fn review_document(
        &self,
        Parameters(a): Parameters<Args<ReviewArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let ops = self.ops(&Client::of(&ctx), None);
        claude_turn(&ctx, a.get(), move |a, cancel| {
            let target = a.find.as_deref().map(|text| Target::Text {
                text,
                occurrence: a.occurrence.get(),
            });
            ops.review_pass(&a.document, target, a.instruction.clone(), cancel, &mut |_| {})
        })
        .await
    }

    #[tool(
        description = "Ask Claude in a comment thread: Claude reads the thread, its text and the text around it, and replies in the thread as itself; it may also propose edits of the thread's text (pending proposals of the same turn, named in its reply). Nothing in the document changes.",
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = true),
        output_schema = schema::<ReviewOut>()
    )]
    async fn ask_claude_in_thread(
        &self,
        Parameters(a): Parameters<Args<AskInThreadArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let ops = self.ops(&Client::of(&ctx), None);
        claude_turn(&ctx, a.get(), move |a, cancel| {
            ops.ask_in_thread(
                &a.document,
                &a.thread_id,
                a.instruction.clone(),
                cancel,
                &mut |_| {},
            )
        })
        .await
    }

    #[tool(
        description = "What the writer decided on earlier proposals, newest first: accepted, changed (with the text the writer chose instead) or rejected. Check it before proposing, so as not to propose a rejected edit again.",
        annotations(read_only_hint = true, open_world_hint = false),
        output_schema = schema::<DecisionsOut>()
    )]
    fn recent_decisions(
        &self,
        Parameters(a): Parameters<Args<RecentDecisionsArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        answer(
            a.get()
                .and_then(|a| self.recent_decisions_impl(a, &Client::of(&ctx))),
        )
    }

    #[tool(
        description = "Who wrote how much of a document: characters and words by author (the writer, each agent with its model, and text from before anyone kept track), in all and per section (a heading to the next), and how many proposals the writer accepted, accepted with changes and rejected. For a disclosure of AI assistance, or to see where the writer's own voice is.",
        annotations(read_only_hint = true, open_world_hint = false),
        output_schema = schema::<AuthorshipOut>()
    )]
    fn authorship(
        &self,
        Parameters(a): Parameters<Args<AuthorshipArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        answer(a.get().and_then(|a| {
            let out = self.ops(&Client::of(&ctx), None).authorship(&a.document)?;
            Ok((authorship_said(&out), out))
        }))
    }

    #[tool(
        description = "A document's authorship as a file another tool reads, returned as text (nothing is written): `agent-trace`, an Agent Trace 0.1.0 record (JSON: the line ranges each contributor, human or AI with its model, wrote; with the git commit when the document is committed as it is), or `ia-annotations`, the document followed by iA Writer's Markdown Annotations block (authors' character ranges and a SHA-256 of the text).",
        annotations(read_only_hint = true, open_world_hint = false),
        output_schema = schema::<AuthorshipExportOut>()
    )]
    fn export_authorship(
        &self,
        Parameters(a): Parameters<Args<ExportAuthorshipArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        answer(a.get().and_then(|a| {
            let format = a.format;
            let ops = self.ops(&Client::of(&ctx), None);
            let out = AuthorshipExportOut {
                content: ops.authorship_export(&a.document, format)?,
                document: ops.doc(&a.document)?.to_string(),
                format,
            };
            Ok((export_said(&out), out))
        }))
    }
}

/// "More on the next page" in a listing's words, with the cursor to give back.
fn push_more(text: &mut String, page: Option<&cowriting::ops::ItemsPage>, what: &str) {
    if let Some(next) = page.and_then(|p| p.next_cursor.as_deref()) {
        let total = page.map_or(0, |p| p.total);
        text.push_str(&format!("({total} {what} in all; more with cursor \"{next}\")\n"));
    }
}

/// An authorship export's answer in words: the file's text itself.
fn export_said(o: &AuthorshipExportOut) -> String {
    o.content.clone()
}

/// An authorship answer in words for the model.
fn authorship_said(o: &AuthorshipOut) -> String {
    let who = |a: &cowriting::ops::AuthorShare| crate::text::author_label(a, "text from before tracking");
    let part = |a: &cowriting::ops::AuthorShare, total: u32| {
        let pct = if total == 0 {
            0
        } else {
            u64::from(a.chars) * 100 / u64::from(total)
        };
        format!("{}: {} characters ({pct}%), {} words", who(a), a.chars, a.words)
    };
    let mut out = format!("{}: {} characters, {} words\n", o.document, o.total, o.words);
    for a in &o.by_author {
        out.push_str(&format!("- {}\n", part(a, o.total)));
    }
    let d = &o.decisions;
    if d.accepted + d.changed + d.rejected == 0 {
        out.push_str("Proposals decided: none in the decision log (agents' text here, if any, was accepted before it was kept or in a tool that does not keep it)\n");
    } else {
        out.push_str(&format!(
            "Proposals decided: {} accepted, {} accepted with the writer's changes, {} rejected\n",
            d.accepted, d.changed, d.rejected
        ));
    }
    for s in &o.sections {
        let name = s.heading.as_deref().unwrap_or("(before the first heading)");
        let parts: Vec<String> = s.by_author.iter().map(|a| part(a, s.total)).collect();
        out.push_str(&format!(
            "Section at line {} \"{name}\": {}\n",
            s.line,
            parts.join("; ")
        ));
    }
    out
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for CowritingMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("cowriting", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Cowriting: a writer's Markdown workspace. Read a document (read_document) and what the \
                 writer decided before (recent_decisions), then propose edits (propose_edit) and comment \
                 (create_thread, reply_to_thread). Proposals never change the text; the writer reviews \
                 each one in Cowriting.",
            )
    }
}

// ---- the tools' work ---------------------------------------------------------------

impl CowritingMcp {
    /// The one API, for this client naming `model` (or not): what a call
    /// writes is authored by the client's agent; positions are bytes.
    fn ops(&self, client: &Client, model: Option<&str>) -> Ops {
        Ops::new(self.store.clone(), client.agent(model).author(), Unit::Byte)
    }

    fn list_documents_impl(&self, a: ListDocumentsArgs, client: &Client) -> Result<(String, DocumentsPage)> {
        let filter = DocFilter {
            folder: a.folder.as_deref(),
            has_pending: a.has_pending,
            has_threads: a.has_threads,
        };
        let limit = a.limit.get().unwrap_or(PAGE).min(MAX_PAGE);
        let mut summaries = self
            .summaries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let out = self.ops(client, None).documents_page(
            &filter,
            a.cursor.as_deref(),
            limit,
            Some(&mut summaries),
        )?;
        drop(summaries);
        let mut text = String::new();
        for d in &out.documents {
            let (p, t) = (&d.proposals, &d.threads);
            text.push_str(&format!(
                "{}: {} pending, {} stale, {} orphaned proposals; {} open threads\n",
                d.document, p.pending, p.stale, p.orphaned, t.open
            ));
            if let Some(e) = &d.sidecar_error {
                text.push_str(&format!("    review data unreadable: {}\n", e.message));
            }
        }
        push_errors(&mut text, &out.errors);
        if out.documents.is_empty() {
            text.push_str("No documents.\n");
        }
        if let Some(next) = &out.next_cursor {
            text.push_str(&format!(
                "{} of {} documents shown; the next page: list_documents with cursor {next:?}\n",
                out.documents.len(),
                out.total
            ));
        }
        Ok((text, out))
    }

    fn read_document_impl(&self, a: ReadArgs, client: &Client) -> Result<(String, ReadOut)> {
        let page = self
            .ops(client, None)
            .read(&a.document, a.from_line.get(), a.to_line.get())?;
        let doc = &page.document;
        let whole = page.from_line == 1 && page.next_from_line.is_none();
        let plural = |n: u32| if n == 1 { "" } else { "s" };
        let mut out = if whole {
            format!(
                "{doc} — {} line{}, {} bytes\n",
                page.total_lines,
                plural(page.total_lines),
                page.total_bytes
            )
        } else {
            format!(
                "{doc} — lines {}–{} of {}, bytes {}..{} of {}\n",
                page.from_line,
                page.to_line,
                page.total_lines,
                page.start_byte,
                page.end_byte,
                page.total_bytes
            )
        };
        let width = page.total_lines.to_string().len().max(4);
        for (i, line) in page.text.split_inclusive('\n').enumerate() {
            let line = line.strip_suffix('\n').unwrap_or(line).trim_end_matches('\r');
            out.push_str(&format!("{:>width$}| {line}\n", page.from_line as usize + i));
        }
        if let Some(next) = page.next_from_line {
            out.push_str(&format!(
                "(lines {next}–{} not shown: read_document with from_line {next} reads on)\n",
                page.total_lines
            ));
        }
        if let Some(p) = &page.sidecar_error {
            out.push_str(&format!(
                "\nThe review data of this document cannot be read ({}); proposals and comments are unavailable.\n",
                p.message
            ));
            return Ok((out, page));
        }
        let on = if whole { "" } else { " on these lines" };
        let elsewhere = |count: u32, what: &str, tool: &str| match count {
            0 => String::new(),
            1 => format!("1 more {what} on other lines ({tool} lists every one).\n"),
            k => format!("{k} more {what}s on other lines ({tool} lists every one).\n"),
        };
        if page.proposals.is_empty() {
            out.push_str(&format!("\nNo proposals pending{on}.\n"));
        } else {
            out.push_str(&format!("\nProposals pending{on} ({}):\n", page.proposals.len()));
            for p in &page.proposals {
                out.push_str(&proposal_text(p));
            }
        }
        out.push_str(&elsewhere(page.other_proposals, "proposal", "list_proposals"));
        if page.threads.is_empty() {
            out.push_str(&format!("\nNo open threads{on}.\n"));
        } else {
            out.push_str(&format!("\nOpen threads{on} ({}):\n", page.threads.len()));
            for t in &page.threads {
                out.push_str(&thread_text(t));
            }
        }
        out.push_str(&elsewhere(page.other_threads, "open thread", "list_threads"));
        Ok((out, page))
    }

    fn propose_edit_impl(&self, a: ProposeEditArgs, client: &Client) -> Result<(String, ProposedOut)> {
        let (occurrence, start, end) = (a.occurrence.get(), a.start_byte.get(), a.end_byte.get());
        let target = match (&a.find, start, end) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
                return Err(Error::BadInput(
                    "give either find or start_byte and end_byte, not both".into(),
                ))
            }
            (Some(text), None, None) => Target::Text { text, occurrence },
            (None, Some(start), Some(end)) => {
                if occurrence.is_some() {
                    return Err(Error::BadInput(
                        "occurrence goes with find, not with a byte span".into(),
                    ));
                }
                Target::Bytes(ByteRange::new(start, end))
            }
            (None, _, _) => {
                return Err(Error::BadInput(
                    "give the target: find (its exact text), or start_byte and end_byte".into(),
                ))
            }
        };
        let agent = client.agent(a.model.as_deref());
        let out = self.ops(client, a.model.as_deref()).propose(Propose {
            document: &a.document,
            target,
            replacement: &a.replacement,
            agent: &agent,
            reason: a.rationale,
            instruction: a.instruction,
            turn_id: a.turn_id,
        })?;
        let proposal = &out.proposal;
        let mut text = if out.already_pending {
            format!(
                "Already pending: {} is this same edit by {} {}, not filed again:\n{}",
                proposal.id,
                proposal.author.kind,
                proposal.author.label,
                proposal_text(proposal)
            )
        } else {
            format!(
                "Proposed {} in {}:\n{}",
                proposal.id,
                out.document,
                proposal_text(proposal)
            )
        };
        if !out.overlapping.is_empty() {
            text.push_str(&format!(
                "It overlaps {} other pending proposal{} (accepting one turns the other stale):\n",
                out.overlapping.len(),
                if out.overlapping.len() == 1 { "" } else { "s" }
            ));
            for p in &out.overlapping {
                text.push_str(&proposal_text(p));
            }
        }
        for w in &out.warnings {
            text.push_str(&format!("warning: {w}\n"));
        }
        Ok((text, out))
    }

    fn list_proposals_impl(&self, a: ListProposalsArgs, client: &Client) -> Result<(String, ProposalsOut)> {
        let state = a.state.map(|s| match s {
            StateArg::Pending => ProposalState::Pending,
            StateArg::Stale => ProposalState::Stale,
            StateArg::Orphaned => ProposalState::Orphaned,
        });
        let limit = a.limit.get().unwrap_or(PAGE).min(MAX_PAGE);
        let mut kept = self
            .proposals
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let out = self.ops(client, None).proposals_page(
            a.document.as_deref(),
            state,
            a.cursor.as_deref(),
            limit,
            Some(&mut kept),
        )?;
        drop(kept);
        let mut text = String::new();
        for d in out.documents.iter().filter(|d| !d.proposals.is_empty()) {
            text.push_str(&format!("{}:\n", d.document));
            for p in &d.proposals {
                text.push_str(&proposal_text(p));
            }
        }
        push_errors(&mut text, &out.errors);
        if text.is_empty() {
            text.push_str("No proposals.\n");
        }
        push_more(&mut text, out.page.as_ref(), "proposals");
        Ok((text, out))
    }

    fn list_threads_impl(&self, a: ListThreadsArgs, client: &Client) -> Result<(String, ThreadsOut)> {
        let status = a.status.map(|s| match s {
            StatusArg::Open => ThreadStatus::Open,
            StatusArg::Resolved => ThreadStatus::Resolved,
        });
        let limit = a.limit.get().unwrap_or(PAGE).min(MAX_PAGE);
        let mut kept = self
            .threads
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let out = self.ops(client, None).threads_page(
            a.document.as_deref(),
            status,
            a.cursor.as_deref(),
            limit,
            Some(&mut kept),
        )?;
        drop(kept);
        let mut text = String::new();
        for d in out.documents.iter().filter(|d| !d.threads.is_empty()) {
            text.push_str(&format!("{}:\n", d.document));
            for t in &d.threads {
                text.push_str(&thread_text(t));
            }
        }
        push_errors(&mut text, &out.errors);
        if text.is_empty() {
            text.push_str("No threads.\n");
        }
        push_more(&mut text, out.page.as_ref(), "threads");
        Ok((text, out))
    }

    fn create_thread_impl(&self, a: CreateThreadArgs, client: &Client) -> Result<(String, ThreadOut)> {
        let target = Target::Text {
            text: &a.find,
            occurrence: a.occurrence.get(),
        };
        let out = self
            .ops(client, a.model.as_deref())
            .new_thread(&a.document, target, &a.body)?;
        let said = format!("Started thread {}", out.thread.id);
        Ok((thread_said(&out, &said), out))
    }

    fn reply_impl(&self, a: ReplyArgs, client: &Client) -> Result<(String, ThreadOut)> {
        let out = self
            .ops(client, a.model.as_deref())
            .reply(&a.document, &a.thread_id, &a.body)?;
        let said = format!(
            "Replied {} to thread {}",
            out.comment_id.as_deref().unwrap_or_default(),
            a.thread_id
        );
        Ok((thread_said(&out, &said), out))
    }

    fn recent_decisions_impl(
        &self,
        a: RecentDecisionsArgs,
        client: &Client,
    ) -> Result<(String, DecisionsOut)> {
        let out = self
            .ops(client, None)
            .decisions(a.document.as_deref(), Some(a.limit.get().unwrap_or(20)))?;
        let mut text = String::new();
        for d in &out.decisions {
            text.push_str(&format!(
                "- {}  {}{}  {}  {}\n",
                d.decided_at,
                d.outcome,
                if d.undone { " (undone since)" } else { "" },
                d.document,
                d.id
            ));
            for e in &d.edits {
                text.push_str(&format!(
                    "    {:?} → {:?} ({}/{})\n",
                    e.text, e.proposed, e.producer, e.category
                ));
            }
            if let Some(c) = &d.chosen {
                text.push_str(&format!("    the writer chose: {c:?}\n"));
            }
        }
        for w in &out.warnings {
            text.push_str(&format!("warning: {w}\n"));
        }
        if out.decisions.is_empty() {
            text.insert_str(0, "No decisions recorded.\n");
        }
        Ok((text, out))
    }
}

/// `e` in this client's words: an occurrence is chosen with `occurrence`.
fn worded(e: &Error) -> ErrorInfo {
    let mut info = e.info();
    if let Error::Ambiguous { text, count, doc } = e {
        info.message = format!("{text:?} occurs {count} times in {doc}; give occurrence 1..{count}");
    }
    info
}

/// What a thread operation wrote, and the thread as it is now.
/// A turn of Claude as an editor for a tool: its arguments checked, run off
/// the server's thread, answered with what it filed.
async fn claude_turn<A: Send + 'static>(
    ctx: &RequestContext<RoleServer>,
    args: Result<A>,
    f: impl FnOnce(A, &Cancel) -> Result<ReviewOut> + Send + 'static,
) -> CallToolResult {
    let a = match args {
        Ok(a) => a,
        Err(e) => return answer::<ReviewOut>(Err(e)),
    };
    answer(
        blocking_with_cancel(ctx, move |cancel| f(a, cancel))
            .await
            .map(|out| (review_said(&out), out)),
    )
}

/// Run a slow call off the server's thread; the request's cancellation cancels it.
async fn blocking_with_cancel<T: Send + 'static>(
    ctx: &RequestContext<RoleServer>,
    f: impl FnOnce(&Cancel) -> Result<T> + Send + 'static,
) -> Result<T> {
    let cancel = Cancel::new();
    let (ct, on_cancel) = (ctx.ct.clone(), cancel.clone());
    let watch = tokio::spawn(async move {
        ct.cancelled().await;
        on_cancel.cancel();
    });
    let r = tokio::task::spawn_blocking(move || f(&cancel)).await;
    watch.abort();
    r.map_err(|e| Error::BadInput(format!("the review stopped: {e}")))?
}

/// What a review pass or a thread question filed, for the model.
fn review_said(out: &ReviewOut) -> String {
    let mut text = format!(
        "Claude filed {} comment thread(s) and {} proposal(s) in {} (turn {}){}.",
        out.threads.len(),
        out.proposals.len(),
        out.document,
        out.turn_id,
        if out.reply.is_some() {
            " and replied in the thread"
        } else {
            ""
        }
    );
    if !out.skipped.is_empty() {
        text.push_str(&format!(
            " {} of {} suggestions could not be placed:",
            out.skipped.len(),
            out.items
        ));
        for k in &out.skipped {
            text.push_str(&format!(" line {}: {};", k.line, k.reason));
        }
    }
    if let Some(e) = &out.stopped {
        text.push_str(&format!(" Stopped early: {}.", e.message));
    }
    text
}

fn thread_said(out: &ThreadOut, said: &str) -> String {
    format!("{said} in {}:\n{}", out.document, thread_text(&out.thread))
}

// ---- readable text: this client's wording of the views ----------------------------

/// `line N, bytes a..b`, or what keeps it out of the text.
fn place_text(line: Option<u32>, from: Option<u32>, to: Option<u32>, unplaced: &str) -> String {
    match (line, from, to) {
        (Some(l), Some(f), Some(t)) => format!("line {l}, bytes {f}..{t}"),
        _ => unplaced.to_owned(),
    }
}

fn proposal_text(p: &views::ProposalDto) -> String {
    let state = serde_json::to_value(p.state).ok();
    let state = state.as_ref().and_then(Value::as_str).unwrap_or("");
    let mut out = format!(
        "- {}  {state}  {}  {:?} → {:?}  by {} {}",
        p.id,
        place_text(p.line, p.from, p.to, "orphaned"),
        p.target,
        p.replacement,
        p.author.kind,
        p.author.label
    );
    if let Some(t) = &p.turn_id {
        out.push_str(&format!("  turn {t}"));
    }
    out.push('\n');
    if let Some(r) = &p.reason {
        out.push_str(&format!("    {state}: {r}\n"));
    }
    out
}

fn thread_text(t: &views::ThreadDto) -> String {
    let unplaced = if t.detached { "detached" } else { "orphaned" };
    let mut out = format!(
        "- {}  {}  {}  on {:?}\n",
        t.id,
        t.status,
        place_text(t.line, t.from, t.to, unplaced),
        t.text
    );
    for c in &t.comments {
        out.push_str(&format!(
            "    {} {}: {}\n",
            c.author.kind,
            c.author.label,
            c.body.replace('\n', "\n      ")
        ));
    }
    out
}

fn push_errors(text: &mut String, errors: &[views::DocError]) {
    for e in errors {
        text.push_str(&format!(
            "{}: error: {}\n",
            e.document,
            e.error.message.replace('\n', " ")
        ));
    }
}
