//! Running Claude as an editor: the requests of one turn (the parts of a
//! review pass, or one question in a thread) in turn over one transport, the
//! answer's lines read as items as they arrive ([`run`]). What to do with
//! each item — place it, file it — is the caller's: it gets an [`Event`] per
//! part, item and unreadable line, in the order they arrive.

use crate::claude::{transport_name, PRODUCER_ID};
use crate::claude_stream::{self, Chunk, StreamEnd};
use crate::review::{parse_item, Ask, Item, LineBuffer};
use crate::Cancel;
use cowriting_core::contract::Producer;
use cowriting_workspace::config::{ClaudeConfig, Transport};
use cowriting_workspace::error::{Error, Result};

/// Something that happened in a pass.
#[derive(Debug)]
pub enum Event<'a> {
    /// Part `index` of `count` (1-based) starts.
    Part { index: usize, count: usize },
    /// A complete item, on `line` of the answer (counted across the parts),
    /// made by `by` (the model known so far).
    Item {
        line: usize,
        part: usize,
        item: Item,
        by: &'a Producer,
    },
    /// A line that should have been an item and is not, and why.
    Invalid { line: usize, reason: String },
    /// Every complete line read so far has been handed on: a moment to file
    /// what a client holds back (items arriving together are filed together).
    Drained,
}

/// How a pass went, when it went to the end.
#[derive(Clone, Debug)]
pub struct PassEnd {
    pub producer: Producer,
    pub model: Option<String>,
    pub session_id: Option<String>,
    pub transport: Transport,
}

/// The API key in the environment (`ANTHROPIC_API_KEY`; empty counts as unset).
pub fn api_key_from_env() -> Result<Option<String>> {
    match std::env::var_os("ANTHROPIC_API_KEY").filter(|k| !k.is_empty()) {
        Some(k) => k
            .into_string()
            .map(Some)
            .map_err(|_| Error::BadInput("ANTHROPIC_API_KEY is not valid UTF-8".into())),
        None => Ok(None),
    }
}

/// The contract producer of a pass's proposals.
fn producer(transport: Transport, model: Option<&str>) -> Producer {
    Producer {
        id: PRODUCER_ID.into(),
        version: transport_name(transport).into(),
        provenance: format!("model:{}", model.unwrap_or("default")),
    }
}

/// Ask each of `prompts` in turn and hand on what comes back. A thread's
/// answer has one reply: a second is [`Event::Invalid`]. An error from
/// `on_event` (filing failed) stops the pass with it; cancel or a timeout
/// stops it with [`Error::Cancelled`] / [`Error::TimedOut`], more output than
/// Claude's cap with [`Error::Producer`] ([`crate::process`]) — in every case
/// what `on_event` already did stays done.
pub fn run(
    cfg: &ClaudeConfig,
    api_key: Option<&str>,
    prompts: &[String],
    ask: Ask,
    cancel: &Cancel,
    on_event: &mut dyn FnMut(Event) -> Result<()>,
) -> Result<PassEnd> {
    let transport = cfg.transport(api_key.is_some());
    let mut lines = LineBuffer::new();
    let mut replies = 0;
    let mut end = StreamEnd {
        model: cfg.model.clone(),
        session_id: None,
    };
    let count = prompts.len();
    for (i, prompt) in prompts.iter().enumerate() {
        if cancel.is_cancelled() {
            return Err(Error::Cancelled {
                what: PRODUCER_ID.into(),
            });
        }
        on_event(Event::Part { index: i + 1, count })?;
        let model = std::cell::RefCell::new(end.model.clone());
        // A line of the answer, or (`None`) the end of what was read so far.
        let mut handle = |got: Option<(usize, &str)>| -> Result<()> {
            let Some((line, text)) = got else {
                return on_event(Event::Drained);
            };
            match parse_item(text, ask) {
                Ok(None) => Ok(()),
                Ok(Some(Item::Reply { .. })) if replies > 0 => on_event(Event::Invalid {
                    line,
                    reason: "a second reply (the first was kept)".into(),
                }),
                Ok(Some(item)) => {
                    if matches!(item, Item::Reply { .. }) {
                        replies += 1;
                    }
                    let by = producer(transport, model.borrow().as_deref());
                    on_event(Event::Item {
                        line,
                        part: i + 1,
                        item,
                        by: &by,
                    })
                }
                Err(reason) => on_event(Event::Invalid { line, reason }),
            }
        };
        let got = claude_stream::stream(
            cfg,
            transport,
            api_key,
            crate::review::SYSTEM,
            prompt,
            cancel,
            &mut |chunk| match chunk {
                Chunk::Model(m) => {
                    *model.borrow_mut() = Some(m.to_owned());
                    Ok(())
                }
                Chunk::Text(text) => {
                    let mut any = false;
                    for (n, line) in lines.push(text) {
                        handle(Some((n, &line)))?;
                        any = true;
                    }
                    if any {
                        handle(None)?;
                    }
                    Ok(())
                }
            },
        );
        if let Some((n, line)) = lines.finish() {
            handle(Some((n, &line)))?;
        }
        let got = got?;
        end.session_id = got.session_id.or(end.session_id);
        if got.model.is_some() {
            end.model = got.model;
        }
        *model.borrow_mut() = end.model.clone();
    }
    Ok(PassEnd {
        producer: producer(transport, end.model.as_deref()),
        model: end.model,
        session_id: end.session_id,
        transport,
    })
}
