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
//!   Comments are authored by the session identity, so each call opens its
//!   [`Session`] with that agent as identity; an MCP session never edits text,
//!   so no text is ever attributed to the agent as typing.
//! - **Fresh state.** Every call opens a new [`Session`] on the files as they are
//!   on disk now (the app and the CLI may write concurrently); nothing is cached.
//! - **Errors.** A call the core refuses (unknown document, path outside the
//!   workspace, text not found or ambiguous, a byte offset inside a character,
//!   unknown thread) returns a tool result with `isError: true` whose text is the
//!   core's one-line message, so the model reads it and can correct the call;
//!   nothing is written. Arguments that do not fit a tool's schema are tool
//!   errors too (rmcp's message, e.g. ``missing field `document` ``).
//!
//! Offsets in arguments and results (`start_byte`, `end_byte`, `bytes`) are
//! UTF-8 bytes of the text as `read_document` shows it (after a BOM, if any),
//! like the CLI's `--start`/`--end`; lines are 1-based.

use crate::contract::{Outcome, Producer};
use crate::error::{Error, Result};
use crate::ledger::{DecisionRecord, Ledger};
use crate::model::{provenance_value, AgentInfo, Provenance, ThreadStatus};
use crate::offset::{ByteRange, CharRange};
use crate::session::{ProposalState, ProposalView, ProposeOptions, Session, ThreadView};
use crate::store::Store;
use crate::workspace::{DocPath, Workspace};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    ClientNotification, ErrorData, Implementation, JsonRpcMessage, RequestId, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::{RequestContext, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::Transport;
use rmcp::{schemars, tool, tool_handler, tool_router, RoleServer, ServerHandler, ServiceExt};
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

// ---- the transport: stdio, with an answer for requests that are too large ---------

/// The largest request line `cowriting mcp` reads (8 MiB). A longer line is
/// discarded as it streams in (never buffered whole) and answered with a
/// JSON-RPC error `-32600` naming the limit, under the request's `id` when one
/// can be read from it; the server then goes on serving. (rmcp's own stdio
/// transport drops a line over its 16 MiB cap without any answer, so a client
/// would wait forever.)
pub const MAX_REQUEST_BYTES: usize = 8 * 1024 * 1024;

/// The method of the stand-in notification [`CappedLines`] puts where an
/// oversized line was; [`CappedTransport`] answers it and never passes it on.
const OVERSIZED_METHOD: &str = "cowriting/oversizedRequest";

/// The stdio transport of rmcp over [`CappedLines`], answering oversized requests.
struct CappedTransport<R, W>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    inner: AsyncRwTransport<RoleServer, CappedLines<R>, W>,
    /// Marks the stand-ins as ours, so a client cannot forge one.
    nonce: String,
    limit: usize,
    /// An error answer being written; kept here so a cancelled `receive` (rmcp
    /// polls it inside a `select!`) finishes it next time instead of losing it.
    sending: Option<std::pin::Pin<Box<dyn std::future::Future<Output = std::io::Result<()>> + Send>>>,
}

impl<R, W> CappedTransport<R, W>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    fn new(read: R, write: W, limit: usize) -> Self {
        let mut seed = [0u8; 16];
        // Without randomness the stand-ins are still answered, only forgeable.
        let _ = getrandom::fill(&mut seed);
        let nonce: String = seed.iter().map(|b| format!("{b:02x}")).collect();
        CappedTransport {
            inner: AsyncRwTransport::new_server(CappedLines::new(read, limit, nonce.clone()), write),
            nonce,
            limit,
            sending: None,
        }
    }

    /// The id and size of the request a stand-in replaces, when `msg` is ours.
    fn oversized(&self, msg: &RxJsonRpcMessage<RoleServer>) -> Option<(Option<RequestId>, u64)> {
        let JsonRpcMessage::Notification(n) = msg else {
            return None;
        };
        let ClientNotification::CustomNotification(c) = &n.notification else {
            return None;
        };
        let params = c.params.as_ref()?;
        if c.method != OVERSIZED_METHOD || params.get("nonce")?.as_str()? != self.nonce {
            return None;
        }
        let id = match params.get("id") {
            Some(Value::String(s)) => Some(RequestId::String(s.as_str().into())),
            Some(Value::Number(n)) => n.as_i64().map(RequestId::Number),
            _ => None,
        };
        Some((id, params.get("bytes").and_then(Value::as_u64).unwrap_or(0)))
    }
}

impl<R, W> Transport<RoleServer> for CappedTransport<R, W>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl std::future::Future<Output = std::result::Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if let Some(sending) = self.sending.as_mut() {
                let sent = sending.await;
                self.sending = None;
                sent.ok()?;
            }
            let msg = self.inner.receive().await?;
            let Some((id, bytes)) = self.oversized(&msg) else {
                return Some(msg);
            };
            let error = ErrorData::invalid_request(
                format!(
                    "request too large: {bytes} bytes, more than the {} MiB a request to cowriting mcp may have; not read",
                    self.limit / (1024 * 1024)
                ),
                None,
            );
            self.sending = Some(Box::pin(
                self.inner.send(TxJsonRpcMessage::<RoleServer>::error(error, id)),
            ));
        }
    }

    async fn close(&mut self) -> std::result::Result<(), Self::Error> {
        self.inner.close().await
    }
}

/// A reader of newline-delimited messages that passes on only whole lines of at
/// most `limit` bytes. A longer line is dropped as it streams (its `id`, when it
/// has one at the top level, is picked out on the way) and replaced by a short
/// stand-in notification [`CappedTransport`] answers.
struct CappedLines<R> {
    inner: R,
    limit: usize,
    nonce: String,
    /// The line being read, while it is within the limit.
    line: Vec<u8>,
    /// Set while the rest of an oversized line is skipped.
    skipping: Option<IdScanner>,
    /// Whole lines ready to be read.
    out: Vec<u8>,
    out_pos: usize,
    chunk: Box<[u8]>,
    eof: bool,
}

impl<R> CappedLines<R> {
    fn new(inner: R, limit: usize, nonce: String) -> Self {
        CappedLines {
            inner,
            limit,
            nonce,
            line: Vec::new(),
            skipping: None,
            out: Vec::new(),
            out_pos: 0,
            chunk: vec![0; 64 * 1024].into_boxed_slice(),
            eof: false,
        }
    }

    /// Take in bytes read from the peer.
    fn take_in(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let newline = memchr::memchr(b'\n', bytes);
            let (piece, rest) = match newline {
                Some(i) => bytes.split_at(i + 1),
                None => (bytes, &[][..]),
            };
            bytes = rest;
            let ends = newline.is_some();
            if self.skipping.is_none() && self.line.len() + piece.len() > self.limit {
                let mut scanner = IdScanner::default();
                scanner.feed(&self.line);
                // Give the memory back: the line is not kept.
                self.line = Vec::new();
                self.skipping = Some(scanner);
            }
            match self.skipping.as_mut() {
                Some(scanner) => {
                    scanner.feed(piece);
                    if ends {
                        let scanner = self.skipping.take().unwrap_or_default();
                        let stand_in = serde_json::json!({
                            "jsonrpc": "2.0",
                            "method": OVERSIZED_METHOD,
                            "params": { "nonce": self.nonce, "id": scanner.id(), "bytes": scanner.bytes },
                        });
                        self.out.extend_from_slice(stand_in.to_string().as_bytes());
                        self.out.push(b'\n');
                    }
                }
                None => {
                    self.line.extend_from_slice(piece);
                    if ends {
                        self.out.append(&mut self.line);
                    }
                }
            }
        }
    }
}

impl<R: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for CappedLines<R> {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        use std::task::Poll;
        let this = self.get_mut();
        loop {
            if this.out_pos < this.out.len() {
                let n = buf.remaining().min(this.out.len() - this.out_pos);
                buf.put_slice(&this.out[this.out_pos..this.out_pos + n]);
                this.out_pos += n;
                if this.out_pos == this.out.len() {
                    this.out.clear();
                    this.out_pos = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if this.eof {
                // A last line without a newline is passed on as it is.
                if !this.line.is_empty() {
                    this.out.append(&mut this.line);
                    continue;
                }
                return Poll::Ready(Ok(()));
            }
            let mut space = std::mem::take(&mut this.chunk);
            let mut chunk = tokio::io::ReadBuf::new(&mut space);
            let read = std::pin::Pin::new(&mut this.inner).poll_read(cx, &mut chunk);
            let filled = chunk.filled().len();
            if let Poll::Ready(Ok(())) = read {
                if filled == 0 {
                    this.eof = true;
                } else {
                    this.take_in(&space[..filled]);
                }
            }
            this.chunk = space;
            match read {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(())) => {}
            }
        }
    }
}

/// Picks the top-level `"id"` out of a JSON-RPC message streaming past, without
/// keeping the message: tracks strings, escapes and nesting depth only.
#[derive(Default)]
struct IdScanner {
    bytes: u64,
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// At depth 1: where we are in `"key": value,`.
    at: KeyState,
    key: Vec<u8>,
    /// The raw bytes of the `id` value while it streams past.
    capture: Option<Vec<u8>>,
    id: Option<Value>,
    done: bool,
}

#[derive(Default, Clone, Copy, PartialEq, Eq)]
enum KeyState {
    #[default]
    Key,
    InKey,
    Colon,
    Value,
}

impl IdScanner {
    /// The id, when the message had a readable top-level number or string `id`.
    fn id(&self) -> Value {
        match &self.id {
            Some(v @ (Value::Number(_) | Value::String(_))) => v.clone(),
            _ => Value::Null,
        }
    }

    fn feed(&mut self, bytes: &[u8]) {
        self.bytes += bytes.len() as u64;
        if self.done {
            return;
        }
        for &b in bytes {
            self.byte(b);
            if self.done {
                return;
            }
        }
    }

    fn end_capture(&mut self) {
        if let Some(mut raw) = self.capture.take() {
            raw.pop(); // the `,` or `}` that ended it
            self.id = serde_json::from_slice(&raw).ok();
            self.done = true;
        }
    }

    fn byte(&mut self, b: u8) {
        if let Some(c) = self.capture.as_mut() {
            if c.len() > 1024 {
                // No id is that long: give up on it.
                self.capture = None;
                self.done = true;
                return;
            }
            c.push(b);
        }
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
                if self.at == KeyState::InKey {
                    self.at = KeyState::Colon;
                }
                return;
            }
            if self.at == KeyState::InKey && self.key.len() <= 8 {
                self.key.push(b);
            }
            return;
        }
        match b {
            b'"' => {
                self.in_string = true;
                if self.depth == 1 && self.at == KeyState::Key {
                    self.at = KeyState::InKey;
                    self.key.clear();
                }
            }
            b'{' | b'[' => {
                if self.depth == 0 && b == b'[' {
                    self.done = true; // a batch: no one id to answer under
                }
                self.depth += 1;
            }
            b'}' | b']' => {
                if self.depth == 1 {
                    self.end_capture();
                }
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 0 {
                    self.done = true;
                }
            }
            b':' if self.depth == 1 && self.at == KeyState::Colon => {
                self.at = KeyState::Value;
                if self.key == b"id" {
                    self.capture = Some(Vec::new());
                }
            }
            b',' if self.depth == 1 => {
                self.end_capture();
                self.at = KeyState::Key;
            }
            _ => {}
        }
    }
}

/// The MCP server of one workspace.
#[derive(Clone)]
pub struct CowritingMcp {
    store: Arc<Store>,
    tool_router: ToolRouter<Self>,
}

// ---- arguments ---------------------------------------------------------------------

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct DocumentArgs {
    /// Workspace-relative document path, e.g. `chapters/one.md` (an absolute path inside the workspace also works).
    document: String,
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
    occurrence: Option<usize>,
    /// Start of the target as a UTF-8 byte offset into the text (instead of `find`).
    #[serde(default)]
    start_byte: Option<usize>,
    /// End (exclusive) of the target as a UTF-8 byte offset into the text.
    #[serde(default)]
    end_byte: Option<usize>,
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
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct CreateThreadArgs {
    /// Workspace-relative document path.
    document: String,
    /// The exact text the thread is about.
    find: String,
    /// Which occurrence of `find` (1-based), when it occurs more than once.
    #[serde(default)]
    occurrence: Option<usize>,
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
struct RecentDecisionsArgs {
    /// Only this document (default: every document).
    #[serde(default)]
    document: Option<String>,
    /// At most this many, newest first (default 20).
    #[serde(default)]
    limit: Option<usize>,
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

    /// The agent author of what this client files.
    fn author(&self, model: Option<String>) -> Provenance {
        Provenance::agent(
            self.name.clone(),
            AgentInfo {
                sdk: Some(format!("mcp:{}/{}", self.name, self.version)),
                // Every writer in the seeds sets model and sessionId ("" when unknown).
                model: Some(model.unwrap_or_default()),
                session_id: Some(String::new()),
                extra: Default::default(),
            },
        )
    }

    /// The contract producer of what this client proposes.
    fn producer(&self, model: Option<&str>) -> Producer {
        Producer {
            id: self.name.clone(),
            version: self.version.clone(),
            provenance: match model {
                Some(m) => format!("model:{m}"),
                None => format!("agent:{}", self.name),
            },
        }
    }
}

/// A tool's answer: text for the model, or the core's one-line message as a tool error.
type ToolResult = std::result::Result<String, String>;

fn answer(r: Result<String>) -> ToolResult {
    r.map_err(|e| e.to_string().replace('\n', " "))
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).expect("JSON values serialize")
}

#[tool_router]
impl CowritingMcp {
    pub fn new(ws: Workspace) -> CowritingMcp {
        CowritingMcp {
            store: Arc::new(Store::new(ws)),
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        description = "List the workspace's documents, each with its number of pending, stale and orphaned proposals and open comment threads.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    fn list_documents(&self, ctx: RequestContext<RoleServer>) -> ToolResult {
        answer(self.list_documents_impl(&Client::of(&ctx)))
    }

    #[tool(
        description = "Read a document: its text with 1-based line numbers (`   1| …`), then the proposals already pending on it (id, state, line, target → replacement, author, turn) and its open comment threads (id, line, anchored text, comments). Read this before proposing, so as not to propose what is already proposed.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    fn read_document(
        &self,
        Parameters(a): Parameters<DocumentArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> ToolResult {
        answer(self.read_document_impl(&a.document, &Client::of(&ctx)))
    }

    #[tool(
        description = "Propose replacing a piece of a document's text. The document is NOT changed: the proposal waits for the writer, who reviews it in Cowriting. Target the text with `find` (its exact text; add `occurrence` when it occurs more than once) or with `start_byte`/`end_byte` (UTF-8 byte offsets into the text). Returns the new proposal's id.",
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    fn propose_edit(
        &self,
        Parameters(a): Parameters<ProposeEditArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> ToolResult {
        answer(self.propose_edit_impl(a, &Client::of(&ctx)))
    }

    #[tool(
        description = "List proposals waiting for the writer, optionally for one document and one state: pending (can be taken as is), stale (its target text changed since) or orphaned (its target text is gone).",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    fn list_proposals(
        &self,
        Parameters(a): Parameters<ListProposalsArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> ToolResult {
        answer(self.list_proposals_impl(a, &Client::of(&ctx)))
    }

    #[tool(
        description = "List comment threads with their comments, optionally for one document and one status (open or resolved).",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    fn list_threads(
        &self,
        Parameters(a): Parameters<ListThreadsArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> ToolResult {
        answer(self.list_threads_impl(a, &Client::of(&ctx)))
    }

    #[tool(
        description = "Start a comment thread on a piece of text (its exact text in `find`; add `occurrence` when it occurs more than once). The document is not changed. Returns the thread's id.",
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    fn create_thread(
        &self,
        Parameters(a): Parameters<CreateThreadArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> ToolResult {
        answer(self.create_thread_impl(a, &Client::of(&ctx)))
    }

    #[tool(
        description = "Reply to a comment thread. Returns the new comment's id.",
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    fn reply_to_thread(
        &self,
        Parameters(a): Parameters<ReplyArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> ToolResult {
        answer(self.reply_impl(a, &Client::of(&ctx)))
    }

    #[tool(
        description = "What the writer decided on earlier proposals, newest first: accepted, changed (with the text the writer chose instead) or rejected. Check it before proposing, so as not to propose a rejected edit again.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    fn recent_decisions(&self, Parameters(a): Parameters<RecentDecisionsArgs>) -> ToolResult {
        answer(self.recent_decisions_impl(a))
    }
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
    fn ws(&self) -> &Workspace {
        self.store.workspace()
    }

    fn doc(&self, arg: &str) -> Result<DocPath> {
        self.ws().doc_path_for_arg(arg)
    }

    /// A fresh session on the disk state of `doc`, with `identity` as its author.
    fn open(&self, doc: &DocPath, identity: Provenance) -> Result<Session> {
        Session::open(self.store.clone(), doc.clone(), identity)
    }

    /// A fresh session whose sidecar must be readable (for every write).
    fn open_for_review(&self, doc: &DocPath, identity: Provenance) -> Result<Session> {
        let s = self.open(doc, identity)?;
        if s.sidecar_problem().is_some() {
            // Re-read for the typed error, with its file and position.
            self.store.load(doc)?;
        }
        Ok(s)
    }

    /// The documents a listing covers: `doc`, or every document with text or a sidecar.
    fn docs(&self, doc: Option<&str>) -> Result<Vec<DocPath>> {
        if let Some(d) = doc {
            return Ok(vec![self.doc(d)?]);
        }
        let mut all = self.ws().list_documents();
        for (d, _) in self.ws().list_sidecars() {
            if !all.contains(&d) && self.ws().doc_file(&d).is_ok_and(|f| f.is_file()) {
                all.push(d);
            }
        }
        all.sort();
        Ok(all)
    }

    fn list_documents_impl(&self, client: &Client) -> Result<String> {
        let mut rows = Vec::new();
        for d in self.docs(None)? {
            let row = match self.open(&d, client.author(None)) {
                Ok(s) => {
                    let props = s.proposals();
                    let count = |st: ProposalState| props.iter().filter(|p| p.state == st).count();
                    let open = s
                        .threads()
                        .iter()
                        .filter(|t| t.thread.status == ThreadStatus::Open)
                        .count();
                    let mut row = json!({
                        "document": d.as_str(),
                        "pendingProposals": count(ProposalState::Pending),
                        "staleProposals": count(ProposalState::Stale),
                        "orphanedProposals": count(ProposalState::Orphaned),
                        "openThreads": open,
                    });
                    if let Some(p) = s.sidecar_problem() {
                        row["sidecarError"] = json!(p.message);
                    }
                    row
                }
                Err(e) => json!({ "document": d.as_str(), "error": e.to_string() }),
            };
            rows.push(row);
        }
        Ok(pretty(&json!({ "documents": rows })))
    }

    fn read_document_impl(&self, document: &str, client: &Client) -> Result<String> {
        let doc = self.doc(document)?;
        let s = self.open(&doc, client.author(None))?;
        let d = s.document();
        let text = d.text();
        let lines: Vec<&str> = text.split('\n').collect();
        let shown = if text.ends_with('\n') {
            &lines[..lines.len() - 1]
        } else {
            &lines[..]
        };
        let width = shown.len().to_string().len().max(4);
        let mut out = format!(
            "{doc} — {} line{}, {} bytes\n",
            shown.len(),
            if shown.len() == 1 { "" } else { "s" },
            text.len()
        );
        for (i, line) in shown.iter().enumerate() {
            out.push_str(&format!("{:>width$}| {}\n", i + 1, line.trim_end_matches('\r')));
        }
        if let Some(p) = s.sidecar_problem() {
            out.push_str(&format!(
                "\nThe review data of this document cannot be read ({}); proposals and comments are unavailable.\n",
                p.message
            ));
            return Ok(out);
        }
        let props = s.proposals();
        if props.is_empty() {
            out.push_str("\nNo proposals pending.\n");
        } else {
            out.push_str(&format!("\nProposals pending ({}):\n", props.len()));
            for v in &props {
                out.push_str(&proposal_line(&s, v));
            }
        }
        let threads: Vec<ThreadView> = s
            .threads()
            .into_iter()
            .filter(|t| t.thread.status == ThreadStatus::Open)
            .collect();
        if threads.is_empty() {
            out.push_str("\nNo open threads.\n");
        } else {
            out.push_str(&format!("\nOpen threads ({}):\n", threads.len()));
            for t in &threads {
                out.push_str(&format!(
                    "- {}  {}  on {:?}\n",
                    t.thread.id,
                    place(&s, t.range),
                    t.text
                ));
                for c in &t.thread.comments {
                    out.push_str(&format!(
                        "    {} {}: {}\n",
                        c.author.kind.as_str(),
                        c.author,
                        c.body.replace('\n', "\n      ")
                    ));
                }
            }
        }
        Ok(out)
    }

    fn propose_edit_impl(&self, a: ProposeEditArgs, client: &Client) -> Result<String> {
        let doc = self.doc(&a.document)?;
        let mut s = self.open_for_review(&doc, client.author(a.model.clone()))?;
        let range = match (&a.find, a.start_byte, a.end_byte) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
                return Err(Error::BadInput(
                    "give either find or start_byte and end_byte, not both".into(),
                ))
            }
            (Some(text), None, None) => find(&s, text, a.occurrence)?,
            (None, Some(start), Some(end)) => {
                if a.occurrence.is_some() {
                    return Err(Error::BadInput(
                        "occurrence goes with find, not with a byte span".into(),
                    ));
                }
                s.document()
                    .byte_range_to_chars(ByteRange::new(start, end))
                    .map_err(|source| Error::Document {
                        path: doc.to_string(),
                        source,
                    })?
            }
            (None, _, _) => {
                return Err(Error::BadInput(
                    "give the target: find (its exact text), or start_byte and end_byte".into(),
                ))
            }
        };
        let producer = client.producer(a.model.as_deref());
        let reason = a
            .rationale
            .clone()
            .or_else(|| a.instruction.clone())
            .unwrap_or_default();
        let filed = s.propose_suggestion(
            range,
            &a.replacement,
            &producer,
            "edit",
            &reason,
            ProposeOptions {
                author: client.author(a.model),
                turn_id: a.turn_id,
                instruction: a.instruction,
            },
        )?;
        let line = s.document().char_to_line_col(range.start).line + 1;
        let mut v = json!({
            "id": filed.sidecar_id,
            "contractProposalId": filed.proposal_id,
            "document": doc.as_str(),
            "line": line,
            "state": "pending",
        });
        let warnings = s.take_warnings();
        if !warnings.is_empty() {
            v["warnings"] = json!(warnings);
        }
        Ok(pretty(&v))
    }

    fn list_proposals_impl(&self, a: ListProposalsArgs, client: &Client) -> Result<String> {
        let mut list = Vec::new();
        for doc in self.docs(a.document.as_deref())? {
            let s = match (self.open_for_review(&doc, client.author(None)), &a.document) {
                (Ok(s), _) => s,
                (Err(e), Some(_)) => return Err(e),
                (Err(e), None) => {
                    list.push(json!({ "document": doc.as_str(), "error": e.to_string() }));
                    continue;
                }
            };
            for v in s.proposals() {
                if a.state.is_some_and(|want| state_arg(v.state) != want) {
                    continue;
                }
                list.push(proposal_json(&s, &v));
            }
        }
        Ok(pretty(&json!({ "proposals": list })))
    }

    fn list_threads_impl(&self, a: ListThreadsArgs, client: &Client) -> Result<String> {
        let mut list = Vec::new();
        for doc in self.docs(a.document.as_deref())? {
            let s = match (self.open_for_review(&doc, client.author(None)), &a.document) {
                (Ok(s), _) => s,
                (Err(e), Some(_)) => return Err(e),
                (Err(e), None) => {
                    list.push(json!({ "document": doc.as_str(), "error": e.to_string() }));
                    continue;
                }
            };
            for t in s.threads() {
                let keep = match a.status {
                    None => true,
                    Some(StatusArg::Open) => t.thread.status == ThreadStatus::Open,
                    Some(StatusArg::Resolved) => t.thread.status == ThreadStatus::Resolved,
                };
                if keep {
                    list.push(thread_json(&s, &t));
                }
            }
        }
        Ok(pretty(&json!({ "threads": list })))
    }

    fn create_thread_impl(&self, a: CreateThreadArgs, client: &Client) -> Result<String> {
        let doc = self.doc(&a.document)?;
        let mut s = self.open_for_review(&doc, client.author(a.model))?;
        let range = find(&s, &a.find, a.occurrence)?;
        let id = s.new_thread(range, &a.body)?;
        let line = s.document().char_to_line_col(range.start).line + 1;
        Ok(pretty(
            &json!({ "id": id, "document": doc.as_str(), "line": line }),
        ))
    }

    fn reply_impl(&self, a: ReplyArgs, client: &Client) -> Result<String> {
        let doc = self.doc(&a.document)?;
        let mut s = self.open_for_review(&doc, client.author(a.model))?;
        let id = s.reply(&a.thread_id, &a.body)?;
        Ok(pretty(
            &json!({ "id": id, "thread": a.thread_id, "document": doc.as_str() }),
        ))
    }

    fn recent_decisions_impl(&self, a: RecentDecisionsArgs) -> Result<String> {
        let doc = a.document.as_deref().map(|d| self.doc(d)).transpose()?;
        let log = Ledger::new(self.ws().root()).log()?;
        let records = log.records;
        let limit = a.limit.unwrap_or(20);
        let list: Vec<Value> = records
            .iter()
            .rev()
            .filter(|r| !r.undone)
            .filter(|r| doc.as_ref().is_none_or(|d| d.as_str() == r.doc_id))
            .take(limit)
            .map(decision_json)
            .collect();
        let mut out = json!({ "decisions": list });
        if !log.warnings.is_empty() {
            // Unreadable log lines were skipped; say which.
            out["warnings"] = json!(log.warnings);
        }
        Ok(pretty(&out))
    }
}

/// Find `text` (the `occurrence`-th, 1-based), with messages that name this
/// tool's argument rather than the CLI's flag.
fn find(s: &Session, text: &str, occurrence: Option<usize>) -> Result<CharRange> {
    match s.find(text, occurrence) {
        Err(Error::Ambiguous { text, count, doc }) => Err(Error::BadInput(format!(
            "{text:?} occurs {count} times in {doc}; give occurrence 1..{count}"
        ))),
        Err(Error::BadInput(_)) if !text.is_empty() && occurrence.is_some() => {
            let count = s.document().text().match_indices(text).count();
            Err(Error::BadInput(format!(
                "occurrence {}: {text:?} occurs {count} time{} in {}",
                occurrence.unwrap_or_default(),
                if count == 1 { "" } else { "s" },
                s.doc_path()
            )))
        }
        r => r,
    }
}

fn state_arg(s: ProposalState) -> StateArg {
    match s {
        ProposalState::Pending => StateArg::Pending,
        ProposalState::Stale => StateArg::Stale,
        ProposalState::Orphaned => StateArg::Orphaned,
    }
}

fn state_word(s: ProposalState) -> &'static str {
    match s {
        ProposalState::Pending => "pending",
        ProposalState::Stale => "stale",
        ProposalState::Orphaned => "orphaned",
    }
}

/// `line N, bytes a..b`, or `orphaned` when the text cannot be placed.
fn place(s: &Session, range: Option<CharRange>) -> String {
    match range {
        Some(r) => {
            let d = s.document();
            let b = d.char_range_to_bytes(r);
            format!(
                "line {}, bytes {}..{}",
                d.char_to_line_col(r.start).line + 1,
                b.start,
                b.end
            )
        }
        None => "orphaned".into(),
    }
}

fn proposal_line(s: &Session, v: &ProposalView) -> String {
    let p = &v.proposal;
    let mut out = format!(
        "- {}  {}  {}  {:?} → {:?}  by {} {}",
        p.id,
        state_word(v.state),
        place(s, v.range),
        v.target,
        p.replacement,
        p.author.kind.as_str(),
        p.author
    );
    if let Some(t) = &p.turn_id {
        out.push_str(&format!("  turn {t}"));
    }
    out.push('\n');
    if let Some(r) = &v.reason {
        out.push_str(&format!("    {}: {r}\n", state_word(v.state)));
    }
    out
}

fn span_json(s: &Session, range: Option<CharRange>) -> (Value, Value) {
    match range {
        Some(r) => {
            let d = s.document();
            let b = d.char_range_to_bytes(r);
            (
                json!(d.char_to_line_col(r.start).line + 1),
                json!({ "start": b.start.0, "end": b.end.0 }),
            )
        }
        None => (Value::Null, Value::Null),
    }
}

fn proposal_json(s: &Session, v: &ProposalView) -> Value {
    let p = &v.proposal;
    let (line, bytes) = span_json(s, v.range);
    let mut o = json!({
        "document": s.doc_path().as_str(),
        "id": p.id,
        "state": v.state,
        "line": line,
        "bytes": bytes,
        "target": v.target,
        "replacement": p.replacement,
        "author": provenance_value(&p.author),
        "createdAt": p.created_at,
    });
    for (k, val) in [
        ("turnId", &p.turn_id),
        ("instruction", &p.instruction),
        ("current", &v.current),
        ("reason", &v.reason),
    ] {
        if let Some(x) = val {
            o[k] = json!(x);
        }
    }
    o
}

fn thread_json(s: &Session, t: &ThreadView) -> Value {
    let (line, bytes) = span_json(s, t.range);
    let comments: Vec<Value> = t
        .thread
        .comments
        .iter()
        .map(|c| {
            json!({
                "id": c.id,
                "author": provenance_value(&c.author),
                "body": c.body,
                "createdAt": c.created_at,
            })
        })
        .collect();
    json!({
        "document": s.doc_path().as_str(),
        "id": t.thread.id,
        "status": t.thread.status.as_str(),
        "orphaned": t.range.is_none(),
        "relocated": t.relocated,
        "detached": t.thread.detached(),
        "line": line,
        "bytes": bytes,
        "text": t.text,
        "anchoredText": t.anchored_text,
        "comments": comments,
    })
}

fn decision_json(r: &DecisionRecord) -> Value {
    let edits: Vec<Value> = r
        .suggestions
        .iter()
        .map(|s| {
            json!({
                "text": s.text,
                "proposed": s.replacement,
                "producer": s.producer.id,
                "reason": s.reason,
            })
        })
        .collect();
    let mut o = json!({
        "decidedAt": r.decision.decided_at,
        "outcome": r.decision.outcome.as_str(),
        "document": r.doc_id,
        "proposalId": r.sidecar_proposal_id,
        "decidedBy": r.decision.decided_by,
        "edits": edits,
    });
    if let Some(t) = &r.turn_id {
        o["turnId"] = json!(t);
    }
    if r.decision.outcome == Outcome::Changed {
        o["chosen"] = json!(r.decision.chosen_replacement);
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    fn id_of(message: &str) -> Value {
        let mut scanner = IdScanner::default();
        // Byte by byte and whole: the same.
        for b in message.as_bytes() {
            scanner.feed(std::slice::from_ref(b));
        }
        let mut whole = IdScanner::default();
        whole.feed(message.as_bytes());
        assert_eq!(scanner.id(), whole.id(), "{message}");
        whole.id()
    }

    #[test]
    fn the_top_level_id_is_picked_out_wherever_it_is() {
        assert_eq!(id_of(r#"{"jsonrpc":"2.0","id":7,"method":"x"}"#), json!(7));
        assert_eq!(
            id_of(r#"{ "method":"x", "params":{"id":1,"s":"\"id\":2"}, "id" : "abc" }"#),
            json!("abc")
        );
        assert_eq!(id_of(r#"{"params":{"a":[{"id":3}]},"id":-4}"#), json!(-4));
        assert_eq!(id_of(r#"{"params":{"id":3}}"#), Value::Null);
        assert_eq!(id_of(r#"{"id":{"nested":1}}"#), Value::Null);
        assert_eq!(id_of(r#"[{"id":1}]"#), Value::Null);
        assert_eq!(id_of(r#"{"id":"unterminated"#), Value::Null);
        assert_eq!(id_of("not json"), Value::Null);
    }

    #[test]
    fn lines_over_the_limit_become_stand_ins_and_the_rest_passes() {
        let big = format!(r#"{{"id":5,"x":"{}"}}"#, "y".repeat(100));
        let input = format!("{{\"a\":1}}\n{big}\n{{\"b\":2}}\nlast");
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let out = runtime.block_on(async {
            let mut r = CappedLines::new(input.as_bytes(), 50, "n0nce".into());
            let mut out = String::new();
            r.read_to_string(&mut out).await.unwrap();
            out
        });
        let lines: Vec<&str> = out.split('\n').collect();
        assert_eq!(lines[0], r#"{"a":1}"#);
        let stand_in: Value = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(stand_in["method"], OVERSIZED_METHOD);
        assert_eq!(stand_in["params"]["id"], 5);
        assert_eq!(stand_in["params"]["nonce"], "n0nce");
        assert_eq!(stand_in["params"]["bytes"], big.len() + 1);
        assert_eq!(&lines[2..], [r#"{"b":2}"#, "last"]);
    }
}
