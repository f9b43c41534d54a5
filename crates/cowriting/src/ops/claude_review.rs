//! Claude as an editor, for every client: a **review pass** over a document
//! (or part of it) that files Claude's comments as threads and its edits as
//! pending proposals, and **a question in a thread** that Claude answers
//! with a reply (and edits) — one turn each, filed as the answer streams in
//! ([`cowriting_producers::pass`]): an item as it comes, items read together
//! in one write ([`drive`]).
//!
//! Each item is placed on the text Claude was shown — the turn's copy —
//! ([`cowriting_producers::review::place`]), then carried to the text as it
//! is when the item arrives by the change between the two: the writer's
//! typing in the app (tracked by the session, [`Session::track`]), another
//! writer's save for the CLI and MCP (a diff of the copy and the file). An
//! item whose text was edited meanwhile, or that cannot be placed for
//! certain, is **skipped** with its line and why; nothing is ever filed on a
//! guessed place, and nothing in the document changes (INV-10).
//!
//! Comments and replies are Claude's (an agent author with the model and
//! session), and carry the turn's `turnId` and the writer's `instruction`
//! as fields of the comment; proposals carry them as every proposal does.
//! The prompts recall the writer's last rejected and changed decisions on
//! the document ([`remembered`]).

use super::*;
use cowriting_core::changeset::{ChangeSet, RangeAssoc};
use cowriting_core::contract::{sha256_hex, Producer as ContractProducer, Source};
use cowriting_core::model::Extra;
use cowriting_core::model::{AuthorKind, Provenance};
use cowriting_producers::pass::{self, Event};
use cowriting_producers::review::{self, Ask, Item, Remembered, ReviewRequest, ThreadRequest};
use cowriting_workspace::error::ErrorInfo;
use cowriting_workspace::identity::author_for;
use cowriting_workspace::session::{NewProposals, NewThread};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::ops::Range;
use std::time::{Duration, Instant};

/// An item that was not filed: its line in Claude's answer and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SkippedItem {
    pub line: u32,
    pub reason: String,
}

/// What one item became.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Landed {
    /// A thread Claude started (`thread`: its id).
    Thread { thread: String },
    /// Proposals, one per hunk of one edit.
    Proposals { proposals: Vec<String> },
    /// Claude's reply in the thread asked.
    Reply { thread: String, comment: String },
    /// Not filed.
    Skipped(SkippedItem),
}

/// One turn of Claude as an editor: what it was shown, and what it filed.
pub struct Turn {
    pub turn_id: String,
    pub ask: Ask,
    pub doc_id: String,
    /// The text Claude was shown.
    pub snapshot: String,
    /// The part of it under review (bytes of `snapshot`).
    pub scope: Range<usize>,
    /// The parts of `scope` Claude was shown one request at a time (a
    /// thread: its text): an item is placed in the part it answers
    /// ([`review::Parts`]).
    parts: review::Parts,
    pub instruction: Option<String>,
    /// The thread asked, for [`Ask::Thread`].
    pub thread: Option<String>,
    /// One prompt per request.
    pub prompts: Vec<String>,
    /// Replies kept until the end of the answer, so that they can name the
    /// edits filed with them.
    reply: Option<(u32, String)>,
    /// The edits filed so far: (quote, replacement).
    filed_edits: Vec<(String, String)>,
}

/// The writer's last rejected and changed decisions on `doc`, newest first.
pub fn remembered(ws: &Workspace, doc: &DocPath) -> Vec<Remembered> {
    let Ok(log) = Ledger::of(ws).log() else {
        return Vec::new();
    };
    log.records
        .iter()
        .rev()
        .filter(|r| r.doc_id == doc.as_str() && !r.undone)
        .filter(|r| r.decision.outcome != cowriting_core::contract::Outcome::Accepted)
        .take(review::MEMORY_DECISIONS)
        .map(|r| Remembered {
            outcome: r.decision.outcome.as_str().to_owned(),
            text: r
                .suggestions
                .iter()
                .map(|s| s.text.as_str())
                .collect::<Vec<_>>()
                .join(" … "),
            proposed: r
                .suggestions
                .iter()
                .map(|s| s.replacement.as_str())
                .collect::<Vec<_>>()
                .join(" … "),
            chosen: r.decision.chosen_replacement.clone(),
        })
        .collect()
}

impl Turn {
    /// A review pass over `scope` (chars of the session's text; the whole
    /// text when `None`), cut into parts within the model's budget.
    pub fn review(s: &Session, scope: Option<CharRange>, instruction: Option<String>) -> Result<Turn> {
        let snapshot = s.document().flatten();
        let scope = match scope {
            Some(r) if r.is_empty() => {
                return Err(Error::BadInput(
                    "the selection is empty: select the text to review, or review the whole document".into(),
                ))
            }
            Some(r) => s.document().char_to_byte(r.start).0..s.document().char_to_byte(r.end).0,
            None => 0..snapshot.len(),
        };
        if snapshot[scope.clone()].trim().is_empty() {
            return Err(Error::BadInput("there is no text to review".into()));
        }
        let instruction = instruction.map(|i| i.trim().to_owned()).filter(|i| !i.is_empty());
        let memory = remembered(s.workspace(), s.doc_path());
        let parts = review::sections(&snapshot, scope.clone(), review::SECTION_CHARS);
        let count = parts.len();
        let prompts = parts
            .iter()
            .enumerate()
            .map(|(i, part)| {
                review::review_prompt(&ReviewRequest {
                    doc_id: s.doc_path().as_str(),
                    text: &snapshot,
                    part: part.clone(),
                    index: i + 1,
                    count,
                    instruction: instruction.as_deref(),
                    memory: &memory,
                })
            })
            .collect();
        let parts = review::Parts::new(&snapshot, parts);
        Ok(Turn {
            turn_id: cowriting_core::model::new_turn_id(),
            ask: Ask::Review,
            doc_id: s.doc_path().to_string(),
            snapshot,
            scope,
            parts,
            instruction,
            thread: None,
            prompts,
            reply: None,
            filed_edits: Vec::new(),
        })
    }

    /// A question in `thread`: Claude is shown the thread, its text and the
    /// text around it, and may edit only the thread's text.
    pub fn thread(s: &Session, thread: &str, instruction: Option<String>) -> Result<Turn> {
        let view = s
            .threads()
            .into_iter()
            .find(|t| t.thread.id == thread)
            .ok_or_else(|| Error::NotFound {
                what: "thread",
                id: thread.to_owned(),
                doc: s.doc_path().to_string(),
            })?;
        let range = view.range.ok_or_else(|| {
            Error::BadInput(format!(
                "thread {thread} is not on any text now (its text was deleted or it was detached): \
                 Claude needs the text it is about"
            ))
        })?;
        let snapshot = s.document().flatten();
        let anchored = s.document().char_to_byte(range.start).0..s.document().char_to_byte(range.end).0;
        let instruction = instruction.map(|i| i.trim().to_owned()).filter(|i| !i.is_empty());
        let comments: Vec<(String, String)> = view
            .thread
            .comments
            .iter()
            .map(|c| (c.author.id.clone(), c.body.clone()))
            .collect();
        let memory = remembered(s.workspace(), s.doc_path());
        let prompt = review::thread_prompt(&ThreadRequest {
            doc_id: s.doc_path().as_str(),
            text: &snapshot,
            anchored: anchored.clone(),
            comments: &comments,
            instruction: instruction.as_deref(),
            memory: &memory,
        });
        let parts = review::Parts::new(&snapshot, vec![anchored.clone()]);
        Ok(Turn {
            turn_id: cowriting_core::model::new_turn_id(),
            ask: Ask::Thread,
            doc_id: s.doc_path().to_string(),
            snapshot,
            scope: anchored,
            parts,
            instruction,
            thread: Some(thread.to_owned()),
            prompts: vec![prompt],
            reply: None,
            filed_edits: Vec::new(),
        })
    }

    fn extra(&self) -> Extra {
        let mut e = Extra::new();
        e.insert("turnId".into(), Value::String(self.turn_id.clone()));
        if let Some(i) = &self.instruction {
            e.insert("instruction".into(), Value::String(i.clone()));
        }
        e
    }

    /// File `items` — each `(line, part, item, by)`: line `line` of the answer
    /// to part `part`, 1-based, made by `by` — in `s`, whose text is the
    /// turn's copy changed by `change` (`None`: unchanged), as **one** write
    /// ([`Session::file_batch`]): a burst of items costs one rewrite of the
    /// sidecar, not one per item. Each item is placed in the part Claude was
    /// shown when it wrote it. Returns what each item became, in order; an
    /// item that cannot be placed is [`Landed::Skipped`]; a reply is kept for
    /// [`Turn::finish`] (`None`). An error is the disk's or the sidecar's,
    /// and then nothing of the batch is filed.
    pub fn file_all(
        &mut self,
        s: &mut Session,
        change: Option<&ChangeSet>,
        items: Vec<(usize, usize, Item, ContractProducer)>,
    ) -> Result<Vec<Option<Landed>>> {
        enum Slot {
            Kept,
            Done(Landed),
            Thread(usize),
            Edit(usize, String, String),
        }
        let mut slots = Vec::with_capacity(items.len());
        let mut threads = Vec::new();
        let mut edits: Vec<NewProposals> = Vec::new();
        // What is pending (an earlier pass) and what this batch proposes, so
        // an edit is never filed twice: (range, replacement, author kind and id).
        type Key = (CharRange, String, AuthorKind, String);
        let key = |r: CharRange, replacement: &str, who: &Provenance| -> Key {
            (r, replacement.to_owned(), who.kind.clone(), who.id.clone())
        };
        let mut known: HashMap<Key, String> = HashMap::new();
        for (r, p) in s.pending_ranges() {
            known
                .entry(key(r, &p.replacement, &p.author))
                .or_insert_with(|| p.id.clone());
        }
        // The text as it is (one copy and hash for the whole batch).
        let bytes = s.contract_bytes();
        let source = Source::of(&self.doc_id, &bytes);
        debug_assert_eq!(source.sha256, sha256_hex(&bytes));
        for (line, part, item, by) in items {
            let line = line as u32;
            let skip = |reason: String| Slot::Done(Landed::Skipped(SkippedItem { line, reason }));
            let (quote, occurrence, loose) = match &item {
                Item::Comment {
                    quote, occurrence, ..
                } => (quote, *occurrence, true),
                Item::Edit {
                    quote, occurrence, ..
                } => (quote, *occurrence, false),
                Item::Reply { body } => {
                    // Kept for the end of the answer (it names the edits).
                    self.reply = Some((line, body.clone()));
                    slots.push(Slot::Kept);
                    continue;
                }
            };
            let at = match self.parts.place(&self.snapshot, part, quote, occurrence, loose) {
                None => {
                    slots.push(skip(format!("part {part} was never asked for")));
                    continue;
                }
                Some(Err(why)) => {
                    slots.push(skip(why.to_string()));
                    continue;
                }
                Some(Ok(at)) => at,
            };
            let shown = self.snapshot[at.bytes].to_owned();
            let range = CharRange::new(at.chars.start, at.chars.end);
            let now = match change {
                None => Some(range),
                Some(c) => c.map_range(range, RangeAssoc::Exclusive),
            };
            let Some(now) = now.filter(|r| s.document().slice(*r) == shown) else {
                slots.push(skip(
                    "the text it is about was edited while Claude was answering".into(),
                ));
                continue;
            };
            let author = author_for(&by);
            match item {
                Item::Comment { body, .. } => {
                    threads.push(NewThread {
                        range: now,
                        body,
                        author,
                        extra: self.extra(),
                    });
                    slots.push(Slot::Thread(threads.len() - 1));
                }
                Item::Edit {
                    replacement, reason, ..
                } => {
                    let reason =
                        reason
                            .or_else(|| self.instruction.clone())
                            .unwrap_or_else(|| match self.ask {
                                Ask::Review => "Claude's review".into(),
                                Ask::Thread => "Claude's answer in the thread".into(),
                            });
                    let req = cowriting_producers::Request {
                        doc_id: &self.doc_id,
                        bytes: &bytes,
                        selection: Some(s.file_range_of(now)),
                        instruction: Some(&reason),
                    };
                    let mut suggestions =
                        cowriting_producers::claude::hunks(&req, &replacement, &by, &source)?;
                    if suggestions.is_empty() {
                        slots.push(skip("the edit changes nothing".into()));
                        continue;
                    }
                    // The same edit already pending from Claude (an earlier
                    // pass, or earlier in this answer) is not filed twice.
                    let mut already = Vec::new();
                    let mut keys = Vec::new();
                    suggestions.retain(|g| {
                        let Ok(r) = s.char_range_of(g.span) else {
                            return true;
                        };
                        let k = key(r, &g.replacement, &author);
                        if let Some(id) = known.get(&k) {
                            already.push(id.clone());
                            return false;
                        }
                        keys.push(k);
                        true
                    });
                    if suggestions.is_empty() {
                        slots.push(skip(format!(
                            "the same edit is already pending ({})",
                            already.join(", ")
                        )));
                        continue;
                    }
                    for k in keys {
                        known.insert(k, "earlier in this answer".into());
                    }
                    edits.push(NewProposals {
                        suggestions,
                        opts: ProposeOptions {
                            author,
                            turn_id: Some(self.turn_id.clone()),
                            instruction: self.instruction.clone(),
                        },
                    });
                    slots.push(Slot::Edit(edits.len() - 1, shown, replacement));
                }
                Item::Reply { .. } => unreachable!("replies continue above"),
            }
        }
        let (filed, thread_ids) = if edits.is_empty() && threads.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            s.file_batch(&edits, &threads)?
        };
        let mut filed: Vec<Option<Vec<String>>> = filed
            .into_iter()
            .map(|g| Some(g.into_iter().map(|f| f.sidecar_id).collect()))
            .collect();
        Ok(slots
            .into_iter()
            .map(|slot| match slot {
                Slot::Kept => None,
                Slot::Done(landed) => Some(landed),
                Slot::Thread(i) => Some(Landed::Thread {
                    thread: thread_ids[i].clone(),
                }),
                Slot::Edit(i, shown, replacement) => {
                    self.filed_edits.push((shown, replacement));
                    Some(Landed::Proposals {
                        proposals: filed[i].take().expect("each group once"),
                    })
                }
            })
            .collect())
    }

    /// At the end of a thread's answer: post the reply it kept, naming the
    /// edits filed with it. `None` when there is no reply to post (a review,
    /// or an answer without one: then an edit-only answer gets a reply that
    /// names its edits).
    pub fn finish(&mut self, s: &mut Session, by: &ContractProducer) -> Result<Option<Landed>> {
        let Some(thread) = self.thread.clone() else {
            return Ok(None);
        };
        let reply = self.reply.take();
        if reply.is_none() && self.filed_edits.is_empty() {
            return Ok(None);
        }
        let mut body = reply.map(|(_, b)| b).unwrap_or_default();
        let n = self.filed_edits.len();
        if n > 0 {
            if !body.is_empty() {
                body.push_str("\n\n");
            }
            body.push_str(&format!(
                "_I proposed {} edit{} on this text — accept or reject {} in the document:_",
                n,
                if n == 1 { "" } else { "s" },
                if n == 1 { "it" } else { "them" }
            ));
            for (quote, replacement) in &self.filed_edits {
                let show = |t: &str| {
                    let one: String = t.split_whitespace().collect::<Vec<_>>().join(" ");
                    if one.chars().count() > 80 {
                        format!("{}…", one.chars().take(80).collect::<String>())
                    } else {
                        one
                    }
                };
                body.push_str(&if replacement.trim().is_empty() {
                    format!("\n- delete “{}”", show(quote))
                } else {
                    format!("\n- “{}” → “{}”", show(quote), show(replacement))
                });
            }
        }
        let comment = s.reply_as(&thread, &body, author_for(by), self.extra())?;
        Ok(Some(Landed::Reply { thread, comment }))
    }
}

/// What a review pass filed.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ReviewOut {
    pub document: String,
    pub turn_id: String,
    /// The model that answered, when known.
    pub model: Option<String>,
    /// How many requests the pass took (parts of the document).
    pub parts: u32,
    /// How many items Claude's answer held (those that could not be read
    /// or placed included).
    pub items: u32,
    /// Threads Claude started.
    pub threads: Vec<String>,
    /// Proposals Claude filed.
    pub proposals: Vec<String>,
    /// Claude's reply, for a question in a thread.
    pub reply: Option<String>,
    /// Items not filed, with why.
    pub skipped: Vec<SkippedItem>,
    /// Why the pass stopped before its end (cancelled, timed out, Claude
    /// failed); what was filed before stays filed.
    pub stopped: Option<ErrorInfo>,
    /// Decision-log problems (what was filed is filed regardless).
    pub warnings: Vec<String>,
}

impl ReviewOut {
    /// Record what an item became.
    pub fn add(&mut self, landed: &Landed) {
        match landed {
            Landed::Thread { thread } => self.threads.push(thread.clone()),
            Landed::Proposals { proposals } => self.proposals.extend(proposals.iter().cloned()),
            Landed::Reply { comment, .. } => self.reply = Some(comment.clone()),
            Landed::Skipped(s) => self.skipped.push(s.clone()),
        }
    }
}

impl Ops {
    /// Ask Claude to review `doc` (or the `range` of it), as `instruction`
    /// says: one turn, its comments and edits filed as they arrive.
    pub fn review_pass(
        &self,
        doc: &str,
        range: Option<Target<'_>>,
        instruction: Option<String>,
        cancel: &Cancel,
        on_landed: &mut dyn FnMut(&Landed),
    ) -> Result<ReviewOut> {
        let (cfg, _) = self.config()?;
        let doc = self.doc(doc)?;
        let s = self.review_session(&doc)?;
        let scope = range.map(|t| s.resolve_target(t)).transpose()?;
        let turn = Turn::review(&s, scope, instruction)?;
        drop(s);
        self.run_turn(&cfg, &doc, turn, cancel, on_landed)
    }

    /// Ask Claude in `thread` of `doc`: its reply (and edits of the thread's text).
    pub fn ask_in_thread(
        &self,
        doc: &str,
        thread: &str,
        instruction: Option<String>,
        cancel: &Cancel,
        on_landed: &mut dyn FnMut(&Landed),
    ) -> Result<ReviewOut> {
        let (cfg, _) = self.config()?;
        let doc = self.doc(doc)?;
        let s = self.review_session(&doc)?;
        let turn = Turn::thread(&s, thread, instruction)?;
        drop(s);
        self.run_turn(&cfg, &doc, turn, cancel, on_landed)
    }

    /// Run `turn`, filing each item in a session opened on the files as they
    /// are when it arrives (another writer may have saved meanwhile).
    fn run_turn(
        &self,
        cfg: &Config,
        doc: &DocPath,
        turn: Turn,
        cancel: &Cancel,
        on_landed: &mut dyn FnMut(&Landed),
    ) -> Result<ReviewOut> {
        let out = ReviewOut {
            document: doc.to_string(),
            ..ReviewOut::default()
        };
        let mut in_session = |snapshot: &str, f: &mut InSession| -> Result<()> {
            let mut s = self.review_session(doc)?;
            let change = (s.document().rope() != snapshot)
                .then(|| cowriting_core::diff::text_change(snapshot, &s.document().flatten()));
            f(&mut s, change.as_ref())
        };
        drive(turn, out, cfg, cancel, &mut in_session, &mut |_, _, landed| {
            if let Some(l) = landed {
                on_landed(l)
            }
        })
    }
}

/// What a turn does in the session an item files into: given the session
/// and the change from the turn's copy to its text (`None`: unchanged).
pub type InSession<'a> = dyn FnMut(&mut Session, Option<&ChangeSet>) -> Result<()> + 'a;

/// Items that arrive within this long of the last filing wait, and are filed
/// with what follows them in one write; an item that comes later is filed at
/// once. So Claude's items appear as it writes them, and a burst (an answer
/// read all at once) costs a few writes, not one rewrite of the growing
/// sidecar per item.
const FILE_GAP: Duration = Duration::from_millis(100);

/// …and at least this many times as long as the last filing took: filing
/// takes at most a fifth of a pass's time however large the sidecar grows,
/// so a pass stays linear in its items.
const FILE_GAP_PER_COST: u32 = 4;

/// When what waits may be filed: [`FILE_GAP`] and [`FILE_GAP_PER_COST`]
/// since the last filing ended (`filed`: when, and how long it took).
fn may_file(filed: Option<(Instant, Duration)>) -> bool {
    filed.is_none_or(|(at, took)| at.elapsed() >= FILE_GAP.max(took * FILE_GAP_PER_COST))
}

/// An item (or a line that is none) read and not yet filed.
enum Waiting {
    Item(usize, usize, Item, ContractProducer),
    Invalid(SkippedItem),
}

/// Run `turn` for a client: Claude is asked, and each item filed as it
/// arrives in the session `in_session` gives (with the turn's copy; the
/// app's open session and its tracked change, or a session on the files and
/// a diff) — items read together filed together (within 100 ms of the last filing); `progress`
/// is told of each part (no item) and of what each item became. At the end
/// a thread's kept reply is posted. Cancel, a failure or silence keeps what
/// was filed and what was read before it: the answer says why it stopped
/// (`stopped`); it is an error only when nothing was filed.
pub fn drive(
    mut turn: Turn,
    mut out: ReviewOut,
    cfg: &Config,
    cancel: &Cancel,
    in_session: &mut dyn FnMut(&str, &mut InSession) -> Result<()>,
    progress: &mut dyn FnMut(&ReviewOut, u32, Option<&Landed>),
) -> Result<ReviewOut> {
    out.turn_id.clone_from(&turn.turn_id);
    let api_key = pass::api_key_from_env()?;
    let prompts = std::mem::take(&mut turn.prompts);
    // The copy again, for `in_session` while the turn files (one copy a turn).
    let snapshot = turn.snapshot.clone();
    let mut last_by = None;
    let mut part = 0u32;
    let mut waiting = Vec::new();
    let mut filed: Option<(Instant, Duration)> = None;
    let ran = pass::run(
        &cfg.claude,
        api_key.as_deref(),
        &prompts,
        turn.ask,
        cancel,
        &mut |e| {
            match e {
                Event::Part { index, count } => {
                    file_when_due(
                        &mut filed,
                        &mut turn,
                        &mut waiting,
                        &snapshot,
                        &mut out,
                        part,
                        in_session,
                        progress,
                    )?;
                    part = index as u32;
                    out.parts = count as u32;
                    progress(&out, part, None);
                }
                Event::Invalid { line, reason } => {
                    out.items += 1;
                    waiting.push(Waiting::Invalid(SkippedItem {
                        line: line as u32,
                        reason: format!("not an item: {reason}"),
                    }));
                }
                Event::Item {
                    line,
                    part: in_part,
                    item,
                    by,
                } => {
                    out.items += 1;
                    last_by = Some(by.clone());
                    waiting.push(Waiting::Item(line, in_part, item, by.clone()));
                }
                Event::Drained => {
                    file_when_due(
                        &mut filed,
                        &mut turn,
                        &mut waiting,
                        &snapshot,
                        &mut out,
                        part,
                        in_session,
                        progress,
                    )?;
                }
            }
            Ok(())
        },
    );
    // What was read and waits is filed, whatever stopped the pass (a
    // filing error counts when the pass had none of its own).
    let flushed = file_waiting(
        &mut turn,
        &mut waiting,
        &snapshot,
        &mut out,
        part,
        in_session,
        progress,
    );
    let ran = match (ran, flushed) {
        (Ok(end), Ok(())) => Ok(end),
        (Ok(_), Err(e)) | (Err(e), _) => Err(e),
    };
    let (by, ran) = match ran {
        Ok(end) => {
            out.model = end.model;
            (end.producer, Ok(()))
        }
        Err(e) => (last_by.unwrap_or_else(|| fallback_producer(cfg)), Err(e)),
    };
    // A kept reply is posted with what is known, even after a stop.
    let mut landed = None;
    let finished = in_session(&snapshot, &mut |s, _| {
        landed = turn.finish(s, &by)?;
        out.warnings.extend(s.take_warnings());
        Ok(())
    });
    if let Some(landed) = &landed {
        out.add(landed);
        progress(&out, part, Some(landed));
    }
    match ran.and(finished) {
        Ok(()) => Ok(out),
        Err(e) if out.threads.is_empty() && out.proposals.is_empty() && out.reply.is_none() => Err(e),
        Err(e) => {
            out.stopped = Some(stopped_info(&e));
            Ok(out)
        }
    }
}

/// [`file_waiting`] when something waits and [`may_file`] says it is time;
/// `filed` keeps when the last filing ended and how long it took.
#[allow(clippy::too_many_arguments)]
fn file_when_due(
    filed: &mut Option<(Instant, Duration)>,
    turn: &mut Turn,
    waiting: &mut Vec<Waiting>,
    snapshot: &str,
    out: &mut ReviewOut,
    part: u32,
    in_session: &mut dyn FnMut(&str, &mut InSession) -> Result<()>,
    progress: &mut dyn FnMut(&ReviewOut, u32, Option<&Landed>),
) -> Result<()> {
    if waiting.is_empty() || !may_file(*filed) {
        return Ok(());
    }
    let started = Instant::now();
    file_waiting(turn, waiting, snapshot, out, part, in_session, progress)?;
    *filed = Some((Instant::now(), started.elapsed()));
    Ok(())
}

/// File what waits, in one session and one write ([`Turn::file_all`]),
/// and tell `progress` of each, in the order they were read.
fn file_waiting(
    turn: &mut Turn,
    waiting: &mut Vec<Waiting>,
    snapshot: &str,
    out: &mut ReviewOut,
    part: u32,
    in_session: &mut dyn FnMut(&str, &mut InSession) -> Result<()>,
    progress: &mut dyn FnMut(&ReviewOut, u32, Option<&Landed>),
) -> Result<()> {
    if waiting.is_empty() {
        return Ok(());
    }
    let mut order = Vec::with_capacity(waiting.len());
    let mut batch = Vec::new();
    for w in waiting.drain(..) {
        match w {
            Waiting::Invalid(skipped) => order.push(Some(skipped)),
            Waiting::Item(line, in_part, item, by) => {
                order.push(None);
                batch.push((line, in_part, item, by));
            }
        }
    }
    let mut results = Vec::new();
    if !batch.is_empty() {
        in_session(snapshot, &mut |s, change| {
            results = turn.file_all(s, change, std::mem::take(&mut batch))?;
            out.warnings.extend(s.take_warnings());
            Ok(())
        })?;
    }
    let mut results = results.into_iter();
    for o in order {
        let landed = match o {
            Some(skipped) => Some(Landed::Skipped(skipped)),
            None => results.next().flatten(),
        };
        if let Some(landed) = landed {
            out.add(&landed);
            progress(out, part, Some(&landed));
        }
    }
    Ok(())
}

/// Why a pass stopped early, said for a pass that filed something.
pub fn stopped_info(e: &Error) -> ErrorInfo {
    let mut info = e.info();
    info.message = match e {
        Error::Cancelled { .. } => "cancelled; what was filed before stays filed".into(),
        Error::TimedOut { secs, limit, .. } => {
            format!("timed out after {secs} s {limit}; what was filed before stays filed")
        }
        _ => format!("{}; what was filed before stays filed", info.message),
    };
    info
}

/// The producer to name when a pass stopped before any item said who made it.
pub fn fallback_producer(cfg: &Config) -> ContractProducer {
    ContractProducer {
        id: cowriting_producers::claude::PRODUCER_ID.into(),
        version: "cli".into(),
        provenance: format!("model:{}", cfg.claude.model.as_deref().unwrap_or("default")),
    }
}
