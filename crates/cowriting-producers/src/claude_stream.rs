//! Claude's answer as it is written: the two transports of [`crate::claude`],
//! streaming. Each piece of answer text is handed to the caller as it
//! arrives, so the items of a review can be filed while the rest is coming.
//!
//! - **CLI**: `claude -p --output-format stream-json --verbose
//!   --include-partial-messages --max-turns 1 --tools "" [--model M]`, the
//!   prompt on stdin, started without a shell in the system temp directory.
//!   Text comes from the partial messages' `text_delta`s; a Claude Code that
//!   sends no partial messages still works: the whole `assistant` message's
//!   text, else the `result`'s, is used once.
//! - **API**: the Messages API with `"stream": true`; text from the
//!   server-sent events' `content_block_delta`s.
//!
//! A stream is **timed out** when nothing arrives for `timeout_secs` (a long
//! review keeps writing) or when it has run for `run_secs` however much it
//! writes, is **stopped** past `output_mib` of output, and can be cancelled at
//! any moment ([`crate::process`]'s limits, the API's stream held to the
//! same); each stops it at once (the process and its group are killed) and is
//! an error — what the caller filed from earlier text stays filed.

use std::io::{BufRead, BufReader, Read};
use std::process::Command;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::claude::{cancelled, model_of, PRODUCER_ID};
use crate::process::{self, Limits};
use crate::{failed, first_line, Cancel};
use cowriting_workspace::config::{ClaudeConfig, Transport};
use cowriting_workspace::error::{Error, Result};

/// What a finished stream reported of itself.
#[derive(Clone, Debug, Default)]
pub struct StreamEnd {
    /// The model that answered, when the transport said.
    pub model: Option<String>,
    /// Claude Code's session id.
    pub session_id: Option<String>,
}

/// What arrives in a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chunk<'a> {
    /// The next piece of the answer's text.
    Text(&'a str),
    /// The model answering, as soon as the transport names it.
    Model(&'a str),
}

/// What the caller does with each chunk; an error stops the stream.
pub type OnText<'a> = dyn FnMut(Chunk) -> Result<()> + 'a;

/// Stream Claude's answer to `prompt` over `transport`.
pub fn stream(
    cfg: &ClaudeConfig,
    transport: Transport,
    api_key: Option<&str>,
    system: &str,
    prompt: &str,
    cancel: &Cancel,
    on_text: &mut OnText<'_>,
) -> Result<StreamEnd> {
    match transport {
        Transport::Cli => stream_cli(cfg, prompt, cancel, on_text),
        Transport::Api => {
            let key = api_key.ok_or_else(|| {
                Error::BadInput("[claude] transport is \"api\" but ANTHROPIC_API_KEY is not set".into())
            })?;
            stream_api(cfg, key, system, prompt, cancel, on_text)
        }
    }
}

/// Wait for the next message of the Messages API's stream, checking cancel,
/// the inactivity timeout and the request's wall clock (the limits Claude
/// Code runs under, [`Limits::claude`]).
fn next<T>(
    rx: &mpsc::Receiver<T>,
    limits: &Limits,
    cancel: &Cancel,
    started: Instant,
    last: &mut Instant,
) -> Result<Option<T>> {
    loop {
        if cancel.is_cancelled() {
            return Err(cancelled());
        }
        if started.elapsed() >= limits.run {
            return Err(limits.timed_out(PRODUCER_ID, false));
        }
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(v) => {
                *last = Instant::now();
                return Ok(Some(v));
            }
            Err(mpsc::RecvTimeoutError::Timeout)
                if limits.silence.as_ref().is_some_and(|(d, _)| last.elapsed() >= *d) =>
            {
                return Err(limits.timed_out(PRODUCER_ID, true))
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(None),
        }
    }
}

/// Claude Code's flag for partial messages (an older one refuses it: then
/// the stream is read without, each message whole).
const PARTIAL: &str = "--include-partial-messages";

fn stream_cli(
    cfg: &ClaudeConfig,
    prompt: &str,
    cancel: &Cancel,
    on_text: &mut OnText<'_>,
) -> Result<StreamEnd> {
    match stream_cli_with(cfg, prompt, cancel, on_text, true) {
        Err(Error::Producer { message, .. }) if message.contains(PARTIAL) => {
            stream_cli_with(cfg, prompt, cancel, on_text, false)
        }
        r => r,
    }
}

fn stream_cli_with(
    cfg: &ClaudeConfig,
    prompt: &str,
    cancel: &Cancel,
    on_text: &mut OnText<'_>,
    partial: bool,
) -> Result<StreamEnd> {
    let mut cmd = Command::new(&cfg.command);
    cmd.args(["-p", "--output-format", "stream-json", "--verbose"]);
    if partial {
        cmd.arg(PARTIAL);
    }
    cmd.args(["--max-turns", "1", "--tools", ""]);
    if let Some(m) = &cfg.model {
        cmd.arg("--model").arg(m);
    }
    cmd.current_dir(std::env::temp_dir());
    let mut reader = CliEvents::default();
    let end = process::run_lines(
        PRODUCER_ID,
        cmd,
        prompt.as_bytes(),
        &Limits::claude(cfg),
        cancel,
        &mut |line| reader.line(line, on_text),
    )
    .map_err(|e| match e {
        Error::NotInstalled {
            producer, program, ..
        } => Error::NotInstalled {
            producer,
            program,
            hint: Some("install Claude Code, or set ANTHROPIC_API_KEY to use the Messages API".into()),
        },
        e => e,
    })?;
    reader.finish(end.status.success(), end.status.code(), &end.stderr, on_text)
}

/// Reads Claude Code's stream-json events.
#[derive(Default)]
struct CliEvents {
    model: Option<String>,
    session_id: Option<String>,
    /// Text deltas seen in the current message.
    deltas: usize,
    /// Any text handed on at all.
    any_text: bool,
    result: Option<Value>,
    first_other: Option<String>,
}

impl CliEvents {
    fn line(&mut self, line: &str, on_text: &mut OnText<'_>) -> Result<()> {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            if self.first_other.is_none() && !line.trim().is_empty() {
                self.first_other = Some(first_line(line.as_bytes()));
            }
            return Ok(());
        };
        match v["type"].as_str() {
            Some("system") => {
                if let Some(m) = v["model"].as_str() {
                    self.model = Some(m.to_owned());
                    on_text(Chunk::Model(m))?;
                }
                if let Some(s) = v["session_id"].as_str() {
                    self.session_id = Some(s.to_owned());
                }
            }
            Some("stream_event") => {
                let e = &v["event"];
                match e["type"].as_str() {
                    Some("message_start") => self.deltas = 0,
                    Some("content_block_delta") if e["delta"]["type"] == "text_delta" => {
                        if let Some(t) = e["delta"]["text"].as_str() {
                            self.deltas += 1;
                            self.any_text = true;
                            on_text(Chunk::Text(t))?;
                        }
                    }
                    _ => {}
                }
            }
            Some("assistant") => {
                let m = &v["message"];
                if let Some(model) = m["model"].as_str() {
                    self.model = Some(model.to_owned());
                    on_text(Chunk::Model(model))?;
                }
                if self.deltas == 0 {
                    let text: String = m["content"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter(|b| b["type"] == "text")
                        .filter_map(|b| b["text"].as_str())
                        .collect();
                    if !text.is_empty() {
                        self.any_text = true;
                        on_text(Chunk::Text(&text))?;
                    }
                }
                // A message ends its last line.
                on_text(Chunk::Text("\n"))?;
                self.deltas = 0;
            }
            Some("result") => self.result = Some(v),
            _ => {}
        }
        Ok(())
    }

    fn finish(
        mut self,
        success: bool,
        code: Option<i32>,
        stderr: &[u8],
        on_text: &mut OnText<'_>,
    ) -> Result<StreamEnd> {
        let exit = || match code {
            Some(c) => format!("exited with status {c}"),
            None => "was killed by a signal".into(),
        };
        let Some(result) = self.result.take() else {
            let mut line = first_line(stderr);
            if line.is_empty() {
                line = self.first_other.clone().unwrap_or_else(|| "no output".into());
            }
            return Err(failed(
                PRODUCER_ID,
                if success {
                    format!("Claude Code ended without its result: {line}")
                } else {
                    format!("Claude Code {}: {line}", exit())
                },
            ));
        };
        if result["is_error"].as_bool() == Some(true) {
            let why = result["result"]
                .as_str()
                .map(|r| first_line(r.as_bytes()))
                .filter(|r| !r.is_empty())
                .or_else(|| result["subtype"].as_str().map(str::to_owned))
                .unwrap_or_else(|| "no details".into());
            return Err(failed(
                PRODUCER_ID,
                format!("Claude Code reported an error: {why}"),
            ));
        }
        if let Some(st) = result["subtype"].as_str().filter(|s| *s != "success") {
            return Err(failed(
                PRODUCER_ID,
                format!("Claude Code stopped without an answer: {st}"),
            ));
        }
        if !success {
            return Err(failed(
                PRODUCER_ID,
                format!("Claude Code {}: {}", exit(), first_line(stderr)),
            ));
        }
        if !self.any_text {
            if let Some(t) = result["result"].as_str() {
                on_text(Chunk::Text(t))?;
                on_text(Chunk::Text("\n"))?;
            }
        }
        Ok(StreamEnd {
            model: model_of(&result).or(self.model),
            session_id: result["session_id"]
                .as_str()
                .map(str::to_owned)
                .or(self.session_id),
        })
    }
}

/// What the HTTP thread sends.
enum Http {
    /// Status and body of an answer that is not a stream.
    Whole(u16, String),
    /// One line of the event stream.
    Line(String),
    Failed(String),
    /// The connection went silent (the HTTP client's own read timeout).
    TimedOut,
    /// More than the output cap: reading stopped.
    Over,
    End,
}

fn stream_api(
    cfg: &ClaudeConfig,
    key: &str,
    system: &str,
    prompt: &str,
    cancel: &Cancel,
    on_text: &mut OnText<'_>,
) -> Result<StreamEnd> {
    let (url, body) = crate::claude::api_request(cfg, system, prompt, true)?;
    let timeout = Duration::from_secs(cfg.timeout_secs);
    let limits = Limits::claude(cfg);
    // Bounded: the reader waits on the connection when the stream outpaces us.
    let (tx, rx) = mpsc::sync_channel(64);
    {
        let (url, key) = (url.clone(), key.to_owned());
        let cap = limits.output;
        // Left to finish on its own when cancelled: its sends then fail and it stops.
        std::thread::spawn(move || post_stream(&url, &key, body, timeout, cap, &tx));
    }
    let started = Instant::now();
    let mut last = started;
    let mut end = StreamEnd::default();
    let mut data = String::new();
    let mut stop_reason: Option<String> = None;
    let mut done = false;
    while let Some(got) = next(&rx, &limits, cancel, started, &mut last)? {
        match got {
            Http::Whole(status, text) => return Err(api_error(status, &text)),
            Http::TimedOut => return Err(limits.timed_out(PRODUCER_ID, true)),
            Http::Over => return Err(limits.over(PRODUCER_ID, "stream from the Messages API")),
            Http::Failed(e) => {
                return Err(failed(
                    PRODUCER_ID,
                    format!("cannot reach the Messages API at {url}: {e}"),
                ))
            }
            Http::End => break,
            Http::Line(line) => {
                if let Some(d) = line.strip_prefix("data:") {
                    data.push_str(d.strip_prefix(' ').unwrap_or(d));
                    continue;
                }
                if !line.is_empty() || data.is_empty() {
                    continue;
                }
                // A blank line ends an event.
                let event: Value = serde_json::from_str(&std::mem::take(&mut data))
                    .map_err(|_| failed(PRODUCER_ID, "the Messages API sent an event that is not JSON"))?;
                match event["type"].as_str() {
                    Some("message_start") => {
                        if let Some(m) = event["message"]["model"].as_str() {
                            end.model = Some(m.to_owned());
                            on_text(Chunk::Model(m))?;
                        }
                    }
                    Some("content_block_delta") if event["delta"]["type"] == "text_delta" => {
                        if let Some(t) = event["delta"]["text"].as_str() {
                            on_text(Chunk::Text(t))?;
                        }
                    }
                    Some("message_delta") => {
                        stop_reason = event["delta"]["stop_reason"].as_str().map(str::to_owned);
                    }
                    Some("message_stop") => done = true,
                    Some("error") => {
                        let m = event["error"]["message"].as_str().unwrap_or("no details");
                        return Err(failed(
                            PRODUCER_ID,
                            format!(
                                "the Messages API stopped with an error: {}",
                                first_line(m.as_bytes())
                            ),
                        ));
                    }
                    _ => {}
                }
            }
        }
    }
    on_text(Chunk::Text("\n"))?;
    if stop_reason.as_deref() == Some("max_tokens") {
        return Err(failed(
            PRODUCER_ID,
            format!(
                "Claude's answer was cut off at max_tokens ({}); what arrived before was kept: \
                 raise [claude] max_tokens or review less text",
                cfg.max_tokens
            ),
        ));
    }
    if !done {
        return Err(failed(
            PRODUCER_ID,
            "the Messages API stream ended before the message did",
        ));
    }
    Ok(end)
}

fn post_stream(url: &str, key: &str, body: String, timeout: Duration, cap: u64, tx: &mpsc::SyncSender<Http>) {
    // The client's own timeouts are a backstop, later than the stream's
    // inactivity timeout (which the reader applies and words).
    let backstop = timeout + Duration::from_secs(10);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_connect(Some(backstop))
        .timeout_recv_response(Some(backstop))
        .timeout_per_read(Some(backstop))
        .http_status_as_error(false)
        .build()
        .into();
    let resp = agent
        .post(url)
        .header("x-api-key", key)
        .header("anthropic-version", crate::claude::ANTHROPIC_VERSION)
        .header("content-type", "application/json")
        .header("accept", "text/event-stream")
        .send(body);
    let mut resp = match resp {
        Ok(r) => r,
        Err(ureq::Error::Timeout(_)) => {
            let _ = tx.send(Http::TimedOut);
            return;
        }
        Err(e) => {
            let _ = tx.send(Http::Failed(e.to_string()));
            return;
        }
    };
    let status = resp.status().as_u16();
    let is_stream = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/event-stream"));
    if !(200..300).contains(&status) || !is_stream {
        let text = resp.body_mut().read_to_string().unwrap_or_default();
        let _ = tx.send(Http::Whole(status, text));
        return;
    }
    // At most `cap` bytes are read, a line's included.
    let mut reader = BufReader::new(resp.body_mut().as_reader().take(cap.saturating_add(1)));
    let mut total = 0u64;
    loop {
        let mut line = Vec::new();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(n) => {
                total += n as u64;
                if total > cap {
                    let _ = tx.send(Http::Over);
                    return;
                }
                if line.ends_with(b"\n") {
                    line.pop();
                }
                if line.ends_with(b"\r") {
                    line.pop();
                }
                if tx
                    .send(Http::Line(String::from_utf8_lossy(&line).into_owned()))
                    .is_err()
                {
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                let _ = tx.send(Http::TimedOut);
                return;
            }
            Err(e) => {
                let _ = tx.send(Http::Failed(e.to_string()));
                return;
            }
        }
    }
    // The last event may lack its blank line.
    let _ = tx.send(Http::Line(String::new()));
    let _ = tx.send(Http::End);
}

fn api_error(status: u16, text: &str) -> Error {
    let v: Option<Value> = serde_json::from_str(text).ok();
    let (kind, message) = crate::claude::api_error_parts(v.as_ref(), text);
    if (200..300).contains(&status) {
        return failed(
            PRODUCER_ID,
            format!("the Messages API answered without streaming: {message}"),
        );
    }
    failed(
        PRODUCER_ID,
        format!("the Messages API answered HTTP {status}{kind}: {message}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(lines: &[&str]) -> (Result<StreamEnd>, String) {
        let mut text = String::new();
        let mut r = CliEvents::default();
        let mut on = |c: Chunk| {
            if let Chunk::Text(t) = c {
                text.push_str(t);
            }
            Ok(())
        };
        for l in lines {
            r.line(l, &mut on).unwrap();
        }
        let end = r.finish(true, Some(0), b"", &mut on);
        (end, text)
    }

    #[test]
    fn partial_messages_are_used_once() {
        let (end, text) = read(&[
            r#"{"type":"system","subtype":"init","model":"m-init","session_id":"s1"}"#,
            r#"{"type":"stream_event","event":{"type":"message_start","message":{}}}"#,
            r#"{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"text_delta","text":"{\"kind\":"}}}"#,
            r#"{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"text_delta","text":"1}"}}}"#,
            r#"{"type":"assistant","message":{"model":"m-msg","content":[{"type":"text","text":"{\"kind\":1}"}]}}"#,
            r#"{"type":"result","subtype":"success","is_error":false,"result":"{\"kind\":1}","session_id":"s1"}"#,
        ]);
        assert_eq!(text, "{\"kind\":1}\n");
        let end = end.unwrap();
        assert_eq!(end.model.as_deref(), Some("m-msg"));
        assert_eq!(end.session_id.as_deref(), Some("s1"));
    }

    #[test]
    fn without_partial_messages_the_message_then_the_result_is_used() {
        let (_, text) = read(&[
            r#"{"type":"assistant","message":{"content":[{"type":"text","text":"a\nb"}]}}"#,
            r#"{"type":"result","subtype":"success","is_error":false,"result":"a\nb"}"#,
        ]);
        assert_eq!(text, "a\nb\n");
        let (_, text) = read(&[r#"{"type":"result","subtype":"success","is_error":false,"result":"only"}"#]);
        assert_eq!(text, "only\n");
    }

    #[test]
    fn errors_and_missing_results_say_why() {
        let (end, _) = read(&[r#"{"type":"result","subtype":"error_max_turns","is_error":false}"#]);
        assert!(end.unwrap_err().to_string().contains("error_max_turns"));
        let (end, _) = read(&["Please log in."]);
        assert!(end.unwrap_err().to_string().contains("Please log in."));
    }
}
