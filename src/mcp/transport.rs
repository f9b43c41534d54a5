//! The transport of `cowriting mcp`: rmcp's stdio transport with an answer
//! for a request too large to read — a tool error or a JSON-RPC error under the
//! request's `id`, never silence — and the streaming scan that finds that `id`
//! in a line it does not keep.

use super::answer;
use cowriting::error::Error;
use rmcp::model::{ClientNotification, ErrorData, JsonRpcMessage, RequestId, ServerResult};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::Transport;
use rmcp::RoleServer;
use serde_json::Value;

/// The largest request line `cowriting mcp` reads (8 MiB). A longer line is
/// discarded as it streams in (never buffered whole) and answered under the
/// request's `id` when one can be read from it: a tool call (`tools/call`, the
/// one request an agent fills with text) with a tool error, the typed
/// `{code: "bad_input", message}` every refusal has; anything else with a
/// JSON-RPC error `-32600`; both name the limit. The server then goes on serving. (rmcp's own stdio
/// transport drops a line over its 16 MiB cap without any answer, so a client
/// would wait forever.)
pub const MAX_REQUEST_BYTES: usize = 8 * 1024 * 1024;

/// The method of the stand-in notification [`CappedLines`] puts where an
/// oversized line was; [`CappedTransport`] answers it and never passes it on.
const OVERSIZED_METHOD: &str = "cowriting/oversizedRequest";

/// The stdio transport of rmcp over [`CappedLines`], answering oversized requests.
pub(super) struct CappedTransport<R, W>
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
    pub(super) fn new(read: R, write: W, limit: usize) -> Self {
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

    /// The id, method and size of the request a stand-in replaces, when `msg` is ours.
    fn oversized(
        &self,
        msg: &RxJsonRpcMessage<RoleServer>,
    ) -> Option<(Option<RequestId>, Option<String>, u64)> {
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
        let method = params.get("method").and_then(Value::as_str).map(str::to_owned);
        Some((
            id,
            method,
            params.get("bytes").and_then(Value::as_u64).unwrap_or(0),
        ))
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
            let Some((id, method, bytes)) = self.oversized(&msg) else {
                return Some(msg);
            };
            let message = format!(
                "request too large: {bytes} bytes, more than the {} MiB a request to cowriting mcp may have; not read",
                self.limit / (1024 * 1024)
            );
            let reply = match id {
                Some(id) if method.as_deref() == Some("tools/call") => {
                    TxJsonRpcMessage::<RoleServer>::response(
                        ServerResult::CallToolResult(answer::<()>(Err(Error::BadInput(message)))),
                        id,
                    )
                }
                id => TxJsonRpcMessage::<RoleServer>::error(ErrorData::invalid_request(message, None), id),
            };
            self.sending = Some(Box::pin(self.inner.send(reply)));
        }
    }

    async fn close(&mut self) -> std::result::Result<(), Self::Error> {
        self.inner.close().await
    }
}

/// A reader of newline-delimited messages that passes on only whole lines of at
/// most `limit` bytes. A longer line is dropped as it streams (its `id` and
/// `method`, when it has them at the top level, are picked out on the way) and
/// replaced by a short stand-in notification [`CappedTransport`] answers.
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
                            "params": {
                                "nonce": self.nonce,
                                "id": scanner.id(),
                                "method": scanner.method(),
                                "bytes": scanner.bytes,
                            },
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

/// Picks the top-level `"id"` and `"method"` out of a JSON-RPC message
/// streaming past, without keeping the message: tracks strings, escapes and
/// nesting depth only.
#[derive(Default)]
struct IdScanner {
    bytes: u64,
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// At depth 1: where we are in `"key": value,`.
    at: KeyState,
    key: Vec<u8>,
    /// The raw bytes of the `id` or `method` value (which: `capturing_id`)
    /// while it streams past.
    capture: Option<Vec<u8>>,
    capturing_id: bool,
    id: Option<Value>,
    method: Option<Value>,
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

    /// The method, when the message had a readable top-level string `method`.
    fn method(&self) -> Value {
        match &self.method {
            Some(v @ Value::String(_)) => v.clone(),
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
            let value = serde_json::from_slice(&raw).ok();
            if self.capturing_id {
                self.id = value;
            } else {
                self.method = value;
            }
            self.done = self.id.is_some() && self.method.is_some();
        }
    }

    fn byte(&mut self, b: u8) {
        if let Some(c) = self.capture.as_mut() {
            if c.len() > 1024 {
                // No id or method is that long: give up on it.
                self.capture = None;
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
                if self.key == b"id" || self.key == b"method" {
                    self.capturing_id = self.key == b"id";
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
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
