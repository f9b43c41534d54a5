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
//! - **Answers.** Every tool declares an `outputSchema` and answers with
//!   `structuredContent` in the shapes of [`crate::views`] (the same views
//!   `cowriting --json` prints and the app shows), and with readable text in
//!   `content` for the model.
//! - **Errors.** A call the core refuses (unknown document, path outside the
//!   workspace, text not found or ambiguous, a byte offset inside a character,
//!   unknown thread) returns a tool result with `isError: true` whose text is the
//!   core's one-line message, so the model reads it and can correct the call,
//!   and whose `structuredContent` is `{code, message}` with the codes of
//!   [`crate::ErrorCode`]; nothing is written. Arguments that do not fit a
//!   tool's schema are refused the same way, with `bad_input` (`mcp::args`).
//! - **Pages.** `read_document` shows a page of at most 400 lines and 64 KiB
//!   of text, says which lines it shows of how many and the
//!   `from_line` that reads on, and lists the proposals and threads on those
//!   lines.
//! - **Once.** `propose_edit` does not file a proposal the same client already
//!   has pending, and names the pending proposals a new one overlaps
//!   ([`Session::propose_suggestion_once`]).
//!
//! Offsets in arguments and results (`start_byte`, `end_byte`, `bytes`) are
//! UTF-8 bytes of the text as `read_document` shows it (after a BOM, if any),
//! like the CLI's `--start`/`--end`; lines are 1-based.

use crate::contract::Producer;
use crate::document::Document;
use crate::error::{Error, ErrorInfo, Result};
use crate::identity::AgentClient;
use crate::ledger::Ledger;
use crate::model::{Provenance, ThreadStatus};
use crate::offset::{ByteRange, CharRange};
use crate::session::{ProposalState, ProposeOptions, Session, Target};
use crate::store::Store;
use crate::views::{self, Unit};
use crate::workspace::{DocPath, Workspace};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ClientNotification, ContentBlock, ErrorData, Implementation, JsonRpcMessage, RequestId,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::Transport;
use rmcp::{schemars, tool, tool_handler, tool_router, RoleServer, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod args;
use args::{Args, Whole};

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

    /// The agent author of what this client files.
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

    fn author(&self, model: Option<String>) -> Provenance {
        self.agent(model.as_deref()).author()
    }

    /// The contract producer of what this client proposes.
    fn producer(&self, model: Option<&str>) -> Producer {
        self.agent(model).producer()
    }
}

// ---- answers -----------------------------------------------------------------------

/// A tool's answer: readable text for the model in `content`, and the same
/// answer as data in `structuredContent` (the shapes of [`crate::views`], as
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
            let info = e.info();
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

/// `list_documents`.
#[derive(Serialize, JsonSchema)]
struct DocumentsOut {
    documents: Vec<views::DocSummary>,
    /// Documents that could not be read, with why.
    errors: Vec<views::DocError>,
}

/// `read_document`: one page of the document.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ReadOut {
    document: String,
    unit: Unit,
    /// The text of the lines shown, exactly, line ends included: a document's
    /// pages put together are its text.
    text: String,
    /// The document's lines (a last line without a line end counts; an empty
    /// document has none).
    total_lines: u32,
    /// The first line shown (1-based).
    from_line: u32,
    /// The last line shown (1-based, inclusive; `fromLine - 1` when the
    /// document is empty).
    to_line: u32,
    /// The `from_line` that reads on from here; null when this page reaches
    /// the end of the document.
    next_from_line: Option<u32>,
    /// Where `text` is in the document's text: UTF-8 bytes `startByte..endByte`
    /// (the offsets `propose_edit` and the proposals' `from`/`to` use).
    start_byte: u32,
    end_byte: u32,
    /// The length of the whole text in UTF-8 bytes.
    total_bytes: u32,
    /// The proposals waiting on the lines shown (the ones whose text is not in
    /// the document at all are listed with the page starting at line 1).
    proposals: Vec<views::ProposalDto>,
    /// The open threads on the lines shown (detached and orphaned ones with the
    /// page starting at line 1).
    threads: Vec<views::ThreadDto>,
    /// Proposals waiting on the document that are not on this page
    /// (`list_proposals` lists every one).
    other_proposals: u32,
    /// Open threads of the document that are not on this page.
    other_threads: u32,
    /// Why its review data cannot be read, if it cannot (then no proposals or threads).
    sidecar_error: Option<ErrorInfo>,
}

/// `propose_edit`.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ProposedOut {
    document: String,
    unit: Unit,
    /// The proposal filed, or, when `alreadyPending`, the identical one that
    /// was already waiting.
    proposal: views::ProposalDto,
    /// The same edit (same target, same replacement) by the same client was
    /// already pending: nothing was filed, `proposal` is that one.
    already_pending: bool,
    /// Other pending proposals whose targets overlap this one's: accepting one
    /// turns the others stale. Filed regardless.
    overlapping: Vec<views::ProposalDto>,
    /// Ledger problems (the proposal was filed regardless).
    warnings: Vec<String>,
}

/// `list_proposals`.
#[derive(Serialize, JsonSchema)]
struct ProposalsOut {
    documents: Vec<views::DocProposals>,
    errors: Vec<views::DocError>,
}

/// `list_threads`.
#[derive(Serialize, JsonSchema)]
struct ThreadsOut {
    documents: Vec<views::DocThreads>,
    errors: Vec<views::DocError>,
}

/// `create_thread` and `reply_to_thread`: the thread as it is now.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ThreadOut {
    document: String,
    unit: Unit,
    thread: views::ThreadDto,
    /// The comment this call wrote.
    comment_id: String,
}

/// `recent_decisions`.
#[derive(Serialize, JsonSchema)]
struct DecisionsOut {
    /// Newest first.
    decisions: Vec<views::DecisionDto>,
    /// Unreadable decision-log lines that were skipped.
    warnings: Vec<String>,
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
        annotations(read_only_hint = true, open_world_hint = false),
        output_schema = schema::<DocumentsOut>()
    )]
    fn list_documents(&self, ctx: RequestContext<RoleServer>) -> CallToolResult {
        answer(self.list_documents_impl(&Client::of(&ctx)))
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
        description = "List proposals waiting for the writer, optionally for one document and one state: pending (can be taken as is), stale (its target text changed since) or orphaned (its target text is gone).",
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
        description = "List comment threads with their comments, optionally for one document and one status (open or resolved).",
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
        description = "What the writer decided on earlier proposals, newest first: accepted, changed (with the text the writer chose instead) or rejected. Check it before proposing, so as not to propose a rejected edit again.",
        annotations(read_only_hint = true, open_world_hint = false),
        output_schema = schema::<DecisionsOut>()
    )]
    fn recent_decisions(&self, Parameters(a): Parameters<Args<RecentDecisionsArgs>>) -> CallToolResult {
        answer(a.get().and_then(|a| self.recent_decisions_impl(a)))
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

    /// A listing over `document` (one, whose failure is the answer) or every
    /// document (whose failures are listed apart).
    fn each<T>(
        &self,
        document: Option<&str>,
        client: &Client,
        view: impl Fn(&Session) -> T,
    ) -> Result<(Vec<T>, Vec<views::DocError>)> {
        let (mut out, mut errors) = (Vec::new(), Vec::new());
        for doc in self.docs(document)? {
            match self.open_for_review(&doc, client.author(None)) {
                Ok(s) => out.push(view(&s)),
                Err(e) if document.is_none() => errors.push(views::DocError {
                    document: doc.to_string(),
                    error: e.info(),
                }),
                Err(e) => return Err(e),
            }
        }
        Ok((out, errors))
    }

    fn list_documents_impl(&self, client: &Client) -> Result<(String, DocumentsOut)> {
        let (mut documents, mut errors) = (Vec::new(), Vec::new());
        for d in self.docs(None)? {
            match self.open(&d, client.author(None)) {
                Ok(s) => documents.push(views::summary(&s)),
                Err(e) => errors.push(views::DocError {
                    document: d.to_string(),
                    error: e.info(),
                }),
            }
        }
        let mut text = String::new();
        for d in &documents {
            let (p, t) = (&d.proposals, &d.threads);
            text.push_str(&format!(
                "{}: {} pending, {} stale, {} orphaned proposals; {} open threads\n",
                d.document, p.pending, p.stale, p.orphaned, t.open
            ));
            if let Some(e) = &d.sidecar_error {
                text.push_str(&format!("    review data unreadable: {}\n", e.message));
            }
        }
        push_errors(&mut text, &errors);
        if text.is_empty() {
            text.push_str("No documents.\n");
        }
        Ok((text, DocumentsOut { documents, errors }))
    }

    fn read_document_impl(&self, a: ReadArgs, client: &Client) -> Result<(String, ReadOut)> {
        let doc = self.doc(&a.document)?;
        let s = self.open(&doc, client.author(None))?;
        let d = s.document();
        let page = Page::of(d, a.from_line.get(), a.to_line.get())
            .map_err(|m| Error::BadInput(format!("{doc}: {m}")))?;
        let text = d.rope().byte_slice(page.start_byte..page.end_byte).to_string();
        let whole = page.from_line == 1 && page.next_from_line.is_none();
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let mut out = if whole {
            format!(
                "{doc} — {} line{}, {} bytes\n",
                page.total_lines,
                plural(page.total_lines),
                d.len_bytes()
            )
        } else {
            format!(
                "{doc} — lines {}–{} of {}, bytes {}..{} of {}\n",
                page.from_line,
                page.to_line,
                page.total_lines,
                page.start_byte,
                page.end_byte,
                d.len_bytes()
            )
        };
        let width = page.total_lines.to_string().len().max(4);
        for (i, line) in text.split_inclusive('\n').enumerate() {
            let line = line.strip_suffix('\n').unwrap_or(line).trim_end_matches('\r');
            out.push_str(&format!("{:>width$}| {line}\n", page.from_line + i));
        }
        if let Some(next) = page.next_from_line {
            out.push_str(&format!(
                "(lines {next}–{} not shown: read_document with from_line {next} reads on)\n",
                page.total_lines
            ));
        }
        let n = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
        let mut data = ReadOut {
            document: doc.to_string(),
            unit: Unit::Byte,
            text,
            total_lines: n(page.total_lines),
            from_line: n(page.from_line),
            to_line: n(page.to_line),
            next_from_line: page.next_from_line.map(n),
            start_byte: n(page.start_byte),
            end_byte: n(page.end_byte),
            total_bytes: n(d.len_bytes()),
            proposals: Vec::new(),
            threads: Vec::new(),
            other_proposals: 0,
            other_threads: 0,
            sidecar_error: s.sidecar_problem().cloned(),
        };
        if let Some(p) = s.sidecar_problem() {
            out.push_str(&format!(
                "\nThe review data of this document cannot be read ({}); proposals and comments are unavailable.\n",
                p.message
            ));
            return Ok((out, data));
        }
        let (proposals, others): (Vec<_>, Vec<_>) = views::proposals(&s, Unit::Byte)
            .into_iter()
            .partition(|p| page.shows(p.from, p.to));
        let (threads, other_threads): (Vec<_>, Vec<_>) = views::threads(&s, Unit::Byte)
            .into_iter()
            .filter(|t| t.status == ThreadStatus::Open.as_str())
            .partition(|t| page.shows(t.from, t.to));
        data.proposals = proposals;
        data.threads = threads;
        data.other_proposals = n(others.len());
        data.other_threads = n(other_threads.len());
        let on = if whole { "" } else { " on these lines" };
        let elsewhere = |count: usize, what: &str, tool: &str| match count {
            0 => String::new(),
            1 => format!("1 more {what} on other lines ({tool} lists every one).\n"),
            k => format!("{k} more {what}s on other lines ({tool} lists every one).\n"),
        };
        if data.proposals.is_empty() {
            out.push_str(&format!("\nNo proposals pending{on}.\n"));
        } else {
            out.push_str(&format!("\nProposals pending{on} ({}):\n", data.proposals.len()));
            for p in &data.proposals {
                out.push_str(&proposal_text(p));
            }
        }
        out.push_str(&elsewhere(others.len(), "proposal", "list_proposals"));
        if data.threads.is_empty() {
            out.push_str(&format!("\nNo open threads{on}.\n"));
        } else {
            out.push_str(&format!("\nOpen threads{on} ({}):\n", data.threads.len()));
            for t in &data.threads {
                out.push_str(&thread_text(t));
            }
        }
        out.push_str(&elsewhere(other_threads.len(), "open thread", "list_threads"));
        Ok((out, data))
    }

    fn propose_edit_impl(&self, a: ProposeEditArgs, client: &Client) -> Result<(String, ProposedOut)> {
        let doc = self.doc(&a.document)?;
        let mut s = self.open_for_review(&doc, client.author(a.model.clone()))?;
        let (occurrence, start, end) = (a.occurrence.get(), a.start_byte.get(), a.end_byte.get());
        let range = match (&a.find, start, end) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
                return Err(Error::BadInput(
                    "give either find or start_byte and end_byte, not both".into(),
                ))
            }
            (Some(text), None, None) => find(&s, text, occurrence)?,
            (None, Some(start), Some(end)) => {
                if occurrence.is_some() {
                    return Err(Error::BadInput(
                        "occurrence goes with find, not with a byte span".into(),
                    ));
                }
                s.resolve_target(Target::Bytes(ByteRange::new(start, end)))?
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
        let proposed = s.propose_suggestion_once(
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
        let proposal = views::proposal(&s, Unit::Byte, &proposed.id).ok_or_else(|| Error::NotFound {
            what: "proposal",
            id: proposed.id.clone(),
            doc: doc.to_string(),
        })?;
        let overlapping = views::proposals_named(&s, Unit::Byte, &proposed.overlapping);
        let warnings = s.take_warnings();
        let mut text = if proposed.already_pending() {
            format!(
                "Already pending: {} is this same edit by {} {}, not filed again:\n{}",
                proposal.id,
                proposal.author.kind,
                proposal.author.label,
                proposal_text(&proposal)
            )
        } else {
            format!("Proposed {} in {doc}:\n{}", proposal.id, proposal_text(&proposal))
        };
        if !overlapping.is_empty() {
            text.push_str(&format!(
                "It overlaps {} other pending proposal{} (accepting one turns the other stale):\n",
                overlapping.len(),
                if overlapping.len() == 1 { "" } else { "s" }
            ));
            for p in &overlapping {
                text.push_str(&proposal_text(p));
            }
        }
        for w in &warnings {
            text.push_str(&format!("warning: {w}\n"));
        }
        Ok((
            text,
            ProposedOut {
                document: doc.to_string(),
                unit: Unit::Byte,
                already_pending: proposed.already_pending(),
                proposal,
                overlapping,
                warnings,
            },
        ))
    }

    fn list_proposals_impl(&self, a: ListProposalsArgs, client: &Client) -> Result<(String, ProposalsOut)> {
        let (mut documents, errors) = self.each(a.document.as_deref(), client, |s| {
            views::doc_proposals(s, Unit::Byte)
        })?;
        if let Some(want) = a.state {
            for d in &mut documents {
                d.proposals.retain(|p| state_arg(p.state) == want);
            }
        }
        let mut text = String::new();
        for d in documents.iter().filter(|d| !d.proposals.is_empty()) {
            text.push_str(&format!("{}:\n", d.document));
            for p in &d.proposals {
                text.push_str(&proposal_text(p));
            }
        }
        push_errors(&mut text, &errors);
        if text.is_empty() {
            text.push_str("No proposals.\n");
        }
        Ok((text, ProposalsOut { documents, errors }))
    }

    fn list_threads_impl(&self, a: ListThreadsArgs, client: &Client) -> Result<(String, ThreadsOut)> {
        let (mut documents, errors) = self.each(a.document.as_deref(), client, |s| {
            views::doc_threads(s, Unit::Byte)
        })?;
        if let Some(want) = a.status {
            let want = match want {
                StatusArg::Open => ThreadStatus::Open,
                StatusArg::Resolved => ThreadStatus::Resolved,
            };
            for d in &mut documents {
                d.threads.retain(|t| t.status == want.as_str());
            }
        }
        let mut text = String::new();
        for d in documents.iter().filter(|d| !d.threads.is_empty()) {
            text.push_str(&format!("{}:\n", d.document));
            for t in &d.threads {
                text.push_str(&thread_text(t));
            }
        }
        push_errors(&mut text, &errors);
        if text.is_empty() {
            text.push_str("No threads.\n");
        }
        Ok((text, ThreadsOut { documents, errors }))
    }

    /// The thread `id` as it is now, with a line saying what was written.
    fn thread_out(
        &self,
        s: &Session,
        id: &str,
        comment_id: String,
        said: &str,
    ) -> Result<(String, ThreadOut)> {
        let thread = views::threads(s, Unit::Byte)
            .into_iter()
            .find(|t| t.id == id)
            .ok_or_else(|| Error::NotFound {
                what: "thread",
                id: id.to_owned(),
                doc: s.doc_path().to_string(),
            })?;
        let text = format!("{said} in {}:\n{}", s.doc_path(), thread_text(&thread));
        Ok((
            text,
            ThreadOut {
                document: s.doc_path().to_string(),
                unit: Unit::Byte,
                thread,
                comment_id,
            },
        ))
    }

    fn create_thread_impl(&self, a: CreateThreadArgs, client: &Client) -> Result<(String, ThreadOut)> {
        let doc = self.doc(&a.document)?;
        let mut s = self.open_for_review(&doc, client.author(a.model))?;
        let range = find(&s, &a.find, a.occurrence.get())?;
        let id = s.new_thread(range, &a.body)?;
        let comment = s
            .threads()
            .into_iter()
            .find(|t| t.thread.id == id)
            .and_then(|t| t.thread.comments.first().map(|c| c.id.clone()))
            .unwrap_or_default();
        self.thread_out(&s, &id, comment, &format!("Started thread {id}"))
    }

    fn reply_impl(&self, a: ReplyArgs, client: &Client) -> Result<(String, ThreadOut)> {
        let doc = self.doc(&a.document)?;
        let mut s = self.open_for_review(&doc, client.author(a.model))?;
        let id = s.reply(&a.thread_id, &a.body)?;
        let said = format!("Replied {id} to thread {}", a.thread_id);
        self.thread_out(&s, &a.thread_id, id, &said)
    }

    fn recent_decisions_impl(&self, a: RecentDecisionsArgs) -> Result<(String, DecisionsOut)> {
        let doc = a.document.as_deref().map(|d| self.doc(d)).transpose()?;
        let log = Ledger::new(self.ws().root()).log()?;
        let limit = a.limit.get().unwrap_or(20);
        let decisions: Vec<views::DecisionDto> = log
            .records
            .iter()
            .rev()
            .filter(|r| !r.undone)
            .filter(|r| doc.as_ref().is_none_or(|d| d.as_str() == r.doc_id))
            .take(limit)
            .map(views::decision)
            .collect();
        let mut text = String::new();
        for d in &decisions {
            text.push_str(&format!(
                "- {}  {}  {}  {}\n",
                d.decided_at, d.outcome, d.document, d.id
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
        for w in &log.warnings {
            text.push_str(&format!("warning: {w}\n"));
        }
        if decisions.is_empty() {
            text.insert_str(0, "No decisions recorded.\n");
        }
        Ok((
            text,
            DecisionsOut {
                decisions,
                warnings: log.warnings,
            },
        ))
    }
}

/// Find `text` (the `occurrence`-th, 1-based), with messages that name this
/// tool's argument.
fn find(s: &Session, text: &str, occurrence: Option<usize>) -> Result<CharRange> {
    match s.resolve_target(Target::Text { text, occurrence }) {
        Err(Error::Ambiguous { text, count, doc }) => Err(Error::BadInput(format!(
            "{text:?} occurs {count} times in {doc}; give occurrence 1..{count}"
        ))),
        r => r,
    }
}

/// The most lines one `read_document` page shows.
const PAGE_LINES: usize = 400;
/// The most text one page shows, in UTF-8 bytes (a single longer line is
/// shown whole, so that every page moves on).
const PAGE_BYTES: usize = 64 * 1024;

/// The lines one `read_document` page shows. Lines end at `\n`, as the
/// document counts them (a `\r\n` pair is one line end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Page {
    total_lines: usize,
    /// 1-based, inclusive; `to_line == from_line - 1` for an empty document.
    from_line: usize,
    to_line: usize,
    /// `to_line + 1`, unless the page reaches the end.
    next_from_line: Option<usize>,
    /// Bytes of the text, line ends included.
    start_byte: usize,
    end_byte: usize,
}

impl Page {
    /// The page of `d` from line `from` (default 1) to line `to` (default and
    /// at most the last line), cut at [`PAGE_LINES`] lines or [`PAGE_BYTES`]
    /// bytes, whichever comes first. Refused (with the reason) when `from` is
    /// past the end or `to` before `from`.
    fn of(d: &Document, from: Option<usize>, to: Option<usize>) -> std::result::Result<Page, String> {
        let rope = d.rope();
        let ends_open = d.len_bytes() > 0 && rope.byte(d.len_bytes() - 1) != b'\n';
        // The rope counts the empty line after a last line end; a reader does not.
        let total = rope.len_lines() - usize::from(!ends_open);
        let from = from.unwrap_or(1);
        if let Some(to) = to.filter(|&to| to < from) {
            return Err(format!("to_line {to} is before from_line {from}"));
        }
        if from > total.max(1) {
            return Err(format!(
                "from_line {from} is past the end ({total} line{})",
                if total == 1 { "" } else { "s" }
            ));
        }
        // Byte where 0-based line `i` starts (the end of the text past the last).
        let line_start = |i: usize| {
            if i >= rope.len_lines() {
                d.len_bytes()
            } else {
                rope.line_to_byte(i)
            }
        };
        let want = to.unwrap_or(total).min(total);
        let start = line_start(from - 1);
        let mut to_line = from - 1;
        while to_line < want
            && to_line + 1 - from < PAGE_LINES
            && (to_line < from || line_start(to_line + 1) - start <= PAGE_BYTES)
        {
            to_line += 1;
        }
        Ok(Page {
            total_lines: total,
            from_line: from,
            to_line,
            next_from_line: (to_line < total).then_some(to_line + 1),
            start_byte: start,
            end_byte: line_start(to_line),
        })
    }

    /// Whether a proposal or thread at bytes `from..to` is on this page: its
    /// target shares a byte with the page (an insertion point inside it, or at
    /// the very end on the last page). One not in the text (`None`) goes with
    /// the page starting at line 1.
    fn shows(&self, from: Option<u32>, to: Option<u32>) -> bool {
        let (Some(f), Some(t)) = (from, to) else {
            return self.from_line == 1;
        };
        let (f, t) = (f as usize, t as usize);
        if f == t {
            self.start_byte <= f
                && (f < self.end_byte || (self.next_from_line.is_none() && f == self.end_byte))
        } else {
            f < self.end_byte && t > self.start_byte
        }
    }
}

fn state_arg(s: ProposalState) -> StateArg {
    match s {
        ProposalState::Pending => StateArg::Pending,
        ProposalState::Stale => StateArg::Stale,
        ProposalState::Orphaned => StateArg::Orphaned,
    }
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

    fn page(text: &str, from: Option<usize>, to: Option<usize>) -> std::result::Result<Page, String> {
        Page::of(&Document::new(text), from, to)
    }

    #[test]
    fn pages_count_lines_as_a_reader_does_and_stop_at_their_limits() {
        let p = page("a\nb\r\nc", None, None).unwrap();
        assert_eq!(
            (p.total_lines, p.from_line, p.to_line, p.next_from_line),
            (3, 1, 3, None)
        );
        assert_eq!((p.start_byte, p.end_byte), (0, 6));
        assert_eq!(page("a\nb\n", None, None).unwrap().total_lines, 2);
        let empty = page("", None, None).unwrap();
        assert_eq!((empty.total_lines, empty.to_line, empty.end_byte), (0, 0, 0));
        assert!(
            empty.shows(Some(0), Some(0)),
            "an insertion into an empty document"
        );
        assert_eq!(
            page("", Some(2), None).unwrap_err(),
            "from_line 2 is past the end (0 lines)"
        );
        let p = page("a\nb\nc\n", Some(2), Some(2)).unwrap();
        assert_eq!(
            (p.to_line, p.next_from_line, p.start_byte, p.end_byte),
            (2, Some(3), 2, 4)
        );
        assert!(p.shows(Some(2), Some(3)) && p.shows(Some(3), Some(5)));
        assert!(!p.shows(Some(4), Some(4)) && !p.shows(Some(0), Some(2)));
        assert!(!p.shows(None, None), "unplaced ones go with line 1's page");
        assert_eq!(
            page("a\nb\n", Some(2), Some(1)).unwrap_err(),
            "to_line 1 is before from_line 2"
        );
        // 1,000 short lines: 400 a page.
        let many = "x\n".repeat(1000);
        let p = page(&many, None, None).unwrap();
        assert_eq!((p.to_line, p.next_from_line), (400, Some(401)));
        assert_eq!(page(&many, Some(801), None).unwrap().to_line, 1000);
        // Long lines: as many as fit in 64 KiB, and always at least one.
        let wide = format!("{}\n", "y".repeat(1023)).repeat(100);
        assert_eq!(page(&wide, None, None).unwrap().to_line, 64);
        let huge = format!("{}\nz\n", "y".repeat(100 * 1024));
        let p = page(&huge, None, None).unwrap();
        assert_eq!((p.to_line, p.next_from_line), (1, Some(2)));
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
