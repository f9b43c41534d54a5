//! The views every client shows: proposals, threads, attribution spans,
//! decisions and document summaries, built one way and serialized one way.
//!
//! The app (through [`crate::api::Api`]), `cowriting --json` and the MCP server
//! all build their answers here, so a field added to a view appears in all
//! three (`tests/one_view.rs` holds them to it). Positions are in the unit the
//! caller chose ([`Unit`]): the app's UTF-16 code units, the CLI's and MCP's
//! UTF-8 bytes of the text (after a BOM, if any). Each view says nothing about
//! how a client words it: the CLI's lines and MCP's readable text are the
//! clients' own.

use cowriting_core::diff::DiffPart;
use cowriting_core::document::Document;
use cowriting_core::hidden::HiddenChar;
use cowriting_core::model::{AuthorKind, Provenance, ThreadStatus};
use cowriting_core::offset::CharRange;
use cowriting_workspace::error::ErrorInfo;
use cowriting_workspace::ledger::DecisionRecord;
use cowriting_workspace::session::{ProposalState, Session};
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::HashMap;

#[cfg(feature = "ts")]
use ts_rs::TS;

/// The unit a view's `from`/`to` are counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// UTF-16 code units (JavaScript's and CodeMirror's).
    Utf16,
    /// UTF-8 bytes of the text (a BOM is not part of it).
    Byte,
}

impl Unit {
    /// `range` as a pair of offsets in this unit.
    pub fn of(self, doc: &Document, range: CharRange) -> (u32, u32) {
        match self {
            Unit::Utf16 => (
                doc.char_to_utf16(range.start).0 as u32,
                doc.char_to_utf16(range.end).0 as u32,
            ),
            Unit::Byte => {
                let b = doc.char_range_to_bytes(range);
                (b.start.0 as u32, b.end.0 as u32)
            }
        }
    }
}

/// Where a view is: `from`/`to` in the caller's unit, and the 1-based line it
/// starts on; all `None` when it is not in the text.
struct Place {
    from: Option<u32>,
    to: Option<u32>,
    line: Option<u32>,
}

fn place(doc: &Document, unit: Unit, range: Option<CharRange>) -> Place {
    match range {
        Some(r) => {
            let (from, to) = unit.of(doc, r);
            Place {
                from: Some(from),
                to: Some(to),
                line: Some(doc.char_to_line_col(r.start).line as u32 + 1),
            }
        }
        None => Place {
            from: None,
            to: None,
            line: None,
        },
    }
}

/// Who wrote something.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct AuthorDto {
    /// `agent`, `human`, or another kind a different tool wrote.
    #[cfg_attr(feature = "ts", ts(type = r#""agent" | "human" | (string & {})"#))]
    pub kind: AuthorKind,
    pub id: String,
    /// E.g. "claude (claude-sonnet-4-5)", "Ada Marsh" (a name beside the
    /// id) or "ada@example.com".
    pub label: String,
    /// The model an agent named (never the empty string).
    pub model: Option<String>,
    /// The agent's SDK, e.g. `mcp:claude-code/2.1`.
    pub sdk: Option<String>,
    pub session_id: Option<String>,
}

impl From<&Provenance> for AuthorDto {
    fn from(p: &Provenance) -> Self {
        let agent = p.agent.as_ref();
        let some = |s: Option<&String>| s.filter(|s| !s.is_empty()).cloned();
        AuthorDto {
            kind: p.kind.clone(),
            id: p.id.clone(),
            label: match (&p.name, p.model()) {
                (Some(name), None) => name.clone(),
                (Some(name), Some(model)) => format!("{name} ({model})"),
                (None, _) => p.to_string(),
            },
            model: p.model().map(str::to_owned),
            sdk: some(agent.and_then(|a| a.sdk.as_ref())),
            session_id: some(agent.and_then(|a| a.session_id.as_ref())),
        }
    }
}

/// A proposal waiting for the writer.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ProposalDto {
    /// The sidecar id (`pr_…`): what accept and reject take.
    pub id: String,
    pub state: ProposalState,
    /// The target (pending) or the text now in its place (stale); `None` when orphaned.
    pub from: Option<u32>,
    pub to: Option<u32>,
    /// The 1-based line `from` is on.
    pub line: Option<u32>,
    /// What the proposal replaces.
    pub target: String,
    pub replacement: String,
    /// For a stale proposal, the text now where the target was.
    pub current: Option<String>,
    /// Why it cannot be accepted (stale, orphaned).
    pub reason: Option<String>,
    /// Word diff of target → replacement.
    pub diff: Vec<DiffPart>,
    pub author: AuthorDto,
    pub turn_id: Option<String>,
    pub instruction: Option<String>,
    pub created_at: String,
    /// The contract record behind the proposal, when a producer filed it.
    pub contract: Option<ContractDto>,
    /// Characters in the replacement that a reader cannot see or that reorder
    /// the text around them (bidi controls, zero-width): shown marked, and
    /// accept asks the writer once before inserting them. Empty for most.
    pub hidden: Vec<HiddenChar>,
    /// A stale proposal whose exact target text was found only at a likely
    /// place (the words around it changed): `from`/`to` are that place, and
    /// accept applies it there once the writer confirmed it (the app asks;
    /// `cowriting accept --at-likely-place`).
    pub likely_place: bool,
}

/// What the suggestion contract knows of a proposal: who produced it and why.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ContractDto {
    /// The contract proposal id (`pp_…`).
    pub proposal_id: String,
    pub producer: String,
    pub producer_version: String,
    /// `rule:<Rule>` or `model:<model>`.
    pub provenance: String,
    pub category: String,
    pub reason: String,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct CommentDto {
    pub id: String,
    pub author: AuthorDto,
    /// Untrusted Markdown: the UI renders it sanitized.
    pub body: String,
    pub created_at: String,
    /// The turn an agent's comment came from (Claude's review pass and
    /// answers in threads write it), as the turn of its proposals.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub turn_id: Option<String>,
}

/// A comment thread.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ThreadDto {
    pub id: String,
    /// `open`, `resolved`, or another status a different tool wrote.
    #[cfg_attr(feature = "ts", ts(type = r#""open" | "resolved" | (string & {})"#))]
    pub status: ThreadStatus,
    /// `None` when the thread is orphaned or detached.
    pub from: Option<u32>,
    pub to: Option<u32>,
    pub line: Option<u32>,
    /// Its text now (as commented on, when it is not placed).
    pub text: String,
    /// Not placed, and not detached: its text cannot be found.
    pub orphaned: bool,
    /// Re-attached to its words after their whitespace changed; `anchoredText`
    /// is the text as commented on. "Keep here" or "detach" settles it.
    pub relocated: bool,
    /// Detached from its text by a writer: listed, never placed.
    pub detached: bool,
    pub anchored_text: String,
    pub comments: Vec<CommentDto>,
}

/// An attribution span: who wrote this text.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SpanDto {
    /// The attribution record's id, when it came from one.
    pub id: Option<String>,
    pub from: u32,
    pub to: u32,
    pub line: u32,
    pub text: String,
    pub author: AuthorDto,
    pub turn_id: Option<String>,
    pub instruction: Option<String>,
    pub created_at: String,
}

/// Where a search matched a document's text, with the words around it on its line.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SearchHitDto {
    pub document: String,
    pub from: u32,
    pub to: u32,
    pub line: u32,
    /// Up to 40 characters of the line before the match.
    pub before: String,
    /// What matched.
    pub text: String,
    /// Up to 40 characters of the line after it.
    pub after: String,
}

/// A thread a search matched: in a comment (the first that matched) or in the
/// text it is anchored to.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ThreadHitDto {
    pub document: String,
    pub thread: ThreadDto,
    /// The comment that matched (none when only the anchored text did).
    pub comment: Option<String>,
    pub author: Option<AuthorDto>,
    pub body: Option<String>,
}

/// A spelling or grammar lint: underlined as the writer types, never filed.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct LintDto {
    pub from: u32,
    pub to: u32,
    /// The 1-based line of the linted text it starts on.
    pub line: u32,
    /// The text it is about.
    pub text: String,
    /// Harper's kind of lint, lower case: `spelling`, `grammar`, `punctuation`, …
    pub category: String,
    pub rule: String,
    /// Why, in one line.
    pub message: String,
    /// What to write instead, closest to what was written first (may be none).
    pub replacements: Vec<String>,
}

/// An attribution record whose text cannot be placed any more.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrphanedSpanDto {
    pub id: String,
    pub author: AuthorDto,
}

/// A document's proposals.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DocProposals {
    pub document: String,
    pub unit: Unit,
    pub proposals: Vec<ProposalDto>,
}

/// A document's threads.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DocThreads {
    pub document: String,
    pub unit: Unit,
    pub threads: Vec<ThreadDto>,
}

/// A document's attribution.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DocSpans {
    pub document: String,
    pub unit: Unit,
    pub spans: Vec<SpanDto>,
    pub orphaned: Vec<OrphanedSpanDto>,
}

/// Proposals by state.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
pub struct ProposalCounts {
    pub pending: u32,
    pub stale: u32,
    pub orphaned: u32,
}

/// Threads by status, and how many are not in the text.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
pub struct ThreadCounts {
    pub open: u32,
    pub resolved: u32,
    pub orphaned: u32,
}

/// Attribution spans by kind of author.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
pub struct SpanCounts {
    pub total: u32,
    pub agent: u32,
    pub human: u32,
}

/// A document and what waits on it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DocSummary {
    pub document: String,
    pub proposals: ProposalCounts,
    pub threads: ThreadCounts,
    pub spans: SpanCounts,
    /// Why its review data cannot be read (corrupt or newer sidecar), if it cannot.
    pub sidecar_error: Option<ErrorInfo>,
}

impl DocSummary {
    /// A document with no review data: nothing waits on it.
    pub fn nothing(document: String) -> DocSummary {
        DocSummary {
            document,
            proposals: ProposalCounts::default(),
            threads: ThreadCounts::default(),
            spans: SpanCounts::default(),
            sidecar_error: None,
        }
    }
}

/// A document a listing could not read, and why.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct DocError {
    pub document: String,
    pub error: ErrorInfo,
}

/// One suggestion a decision was about (a contract suggestion, `sg_…`).
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DecidedEdit {
    pub id: String,
    /// The text the suggestion would replace.
    pub text: String,
    pub proposed: String,
    pub producer: String,
    pub category: String,
    pub reason: String,
    /// The git blob id of the document's bytes the suggestion was made on.
    pub revision: String,
    /// The suggestion it was carried over from, when the text moved under it.
    pub migrated_from: Option<String>,
}

/// What the writer decided on a proposal.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DecisionDto {
    pub document: String,
    /// The sidecar id of the proposal decided on (`pr_…`), as in [`ProposalDto::id`].
    pub id: String,
    /// The contract proposal id (`pp_…`), as in [`ContractDto::proposal_id`].
    pub contract_proposal_id: String,
    /// `accepted`, `changed` or `rejected`.
    pub outcome: String,
    /// What the writer chose instead, when the outcome is `changed`.
    pub chosen: Option<String>,
    pub decided_at: String,
    pub decided_by: String,
    pub turn_id: Option<String>,
    /// An undo later took this decision back.
    pub undone: bool,
    pub edits: Vec<DecidedEdit>,
}

/// The contract records of a session's pending proposals, by sidecar id. A
/// ledger that cannot be read leaves proposals without their contract details;
/// the review itself goes on.
fn contracts(s: &Session) -> HashMap<String, ContractDto> {
    s.ledger()
        .pending(s.doc_path())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|e| {
            let first = e.suggestions.first()?;
            Some((
                e.sidecar_proposal_id.clone(),
                ContractDto {
                    proposal_id: e.proposal.id.clone(),
                    producer: first.producer.id.clone(),
                    producer_version: first.producer.version.clone(),
                    provenance: first.producer.provenance.clone(),
                    category: first.category.clone(),
                    reason: first.reason.clone(),
                },
            ))
        })
        .collect()
}

/// The session's proposals, in sidecar order.
pub fn proposals(s: &Session, unit: Unit) -> Vec<ProposalDto> {
    let d = s.document();
    let contracts = contracts(s);
    s.proposals()
        .into_iter()
        .map(|v| {
            let at = place(d, unit, v.range);
            let hidden = s.hidden_in(&v.proposal.replacement, v.range);
            let p = v.proposal;
            ProposalDto {
                hidden,
                contract: contracts.get(&p.id).cloned(),
                id: p.id,
                state: v.state,
                from: at.from,
                to: at.to,
                line: at.line,
                target: v.target,
                replacement: p.replacement,
                current: v.current,
                reason: v.reason,
                diff: v.diff,
                likely_place: v.likely_place,
                author: (&p.author).into(),
                turn_id: p.turn_id,
                instruction: p.instruction,
                created_at: p.created_at,
            }
        })
        .collect()
}

/// Who produced a proposal, as listings group and filter by it: its contract's
/// producer (`harper`, `claude`, …), else its author's label.
pub fn producer_of(p: &ProposalDto) -> String {
    p.contract
        .as_ref()
        .map_or_else(|| p.author.label.clone(), |c| c.producer.clone())
}

/// One proposal of the session, by its sidecar id.
pub fn proposal(s: &Session, unit: Unit, id: &str) -> Option<ProposalDto> {
    proposals(s, unit).into_iter().find(|p| p.id == id)
}

/// The session's proposals named by `ids` (sidecar ids), in the order of
/// `ids`; an id that is not in the sidecar is left out.
pub fn proposals_named(s: &Session, unit: Unit, ids: &[String]) -> Vec<ProposalDto> {
    if ids.is_empty() {
        return Vec::new();
    }
    let all = proposals(s, unit);
    ids.iter()
        .filter_map(|id| all.iter().find(|p| &p.id == id).cloned())
        .collect()
}

/// The session's threads, in sidecar order.
pub fn threads(s: &Session, unit: Unit) -> Vec<ThreadDto> {
    let d = s.document();
    s.threads()
        .into_iter()
        .map(|v| {
            let at = place(d, unit, v.range);
            let detached = v.thread.detached();
            ThreadDto {
                id: v.thread.id,
                status: v.thread.status.clone(),
                orphaned: at.from.is_none() && !detached,
                from: at.from,
                to: at.to,
                line: at.line,
                text: v.text,
                relocated: v.relocated,
                detached,
                anchored_text: v.anchored_text,
                comments: v
                    .thread
                    .comments
                    .iter()
                    .map(|c| CommentDto {
                        id: c.id.clone(),
                        author: (&c.author).into(),
                        body: c.body.clone(),
                        created_at: c.created_at.clone(),
                        turn_id: c.extra.get("turnId").and_then(|v| v.as_str()).map(str::to_owned),
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The session's attribution spans, in text order.
pub fn spans(s: &Session, unit: Unit) -> Vec<SpanDto> {
    let d = s.document();
    s.spans()
        .map(|sp| {
            let (from, to) = unit.of(d, sp.range);
            SpanDto {
                id: sp.record.as_ref().map(|r| r.id.clone()),
                from,
                to,
                line: d.char_to_line_col(sp.range.start).line as u32 + 1,
                text: d.slice(sp.range),
                author: (&sp.who.author).into(),
                turn_id: sp.who.turn_id.clone(),
                instruction: sp.who.instruction.clone(),
                created_at: sp.who.created_at.clone(),
            }
        })
        .collect()
}

pub fn doc_proposals(s: &Session, unit: Unit) -> DocProposals {
    DocProposals {
        document: s.doc_path().to_string(),
        unit,
        proposals: proposals(s, unit),
    }
}

pub fn doc_threads(s: &Session, unit: Unit) -> DocThreads {
    DocThreads {
        document: s.doc_path().to_string(),
        unit,
        threads: threads(s, unit),
    }
}

pub fn doc_spans(s: &Session, unit: Unit) -> DocSpans {
    DocSpans {
        document: s.doc_path().to_string(),
        unit,
        spans: spans(s, unit),
        orphaned: s
            .orphaned_attributions()
            .map(|o| OrphanedSpanDto {
                id: o.id.clone(),
                author: (&o.author).into(),
            })
            .collect(),
    }
}

/// What waits on the session's document.
pub fn summary(s: &Session) -> DocSummary {
    let mut proposals = ProposalCounts::default();
    for p in s.proposals() {
        *match p.state {
            ProposalState::Pending => &mut proposals.pending,
            ProposalState::Stale => &mut proposals.stale,
            ProposalState::Orphaned => &mut proposals.orphaned,
        } += 1;
    }
    let mut threads = ThreadCounts::default();
    for t in s.threads() {
        match t.thread.status {
            ThreadStatus::Open => threads.open += 1,
            _ => threads.resolved += 1,
        }
        threads.orphaned += u32::from(t.range.is_none() && !t.thread.detached());
    }
    let mut spans = SpanCounts::default();
    for sp in s.spans() {
        spans.total += 1;
        if sp.who.author.is_agent() {
            spans.agent += 1;
        } else {
            spans.human += 1;
        }
    }
    DocSummary {
        document: s.doc_path().to_string(),
        proposals,
        threads,
        spans,
        sidecar_error: s.sidecar_problem().cloned(),
    }
}

/// A decision from the ledger.
pub fn decision(r: &DecisionRecord) -> DecisionDto {
    DecisionDto {
        document: r.doc_id.clone(),
        id: r.sidecar_proposal_id.clone(),
        contract_proposal_id: r.decision.proposal_id.clone(),
        outcome: r.decision.outcome.as_str().to_owned(),
        chosen: r.decision.chosen_replacement.clone(),
        decided_at: r.decision.decided_at.clone(),
        decided_by: r.decision.decided_by.clone(),
        turn_id: r.turn_id.clone(),
        undone: r.undone,
        edits: r
            .suggestions
            .iter()
            .map(|s| DecidedEdit {
                id: s.id.clone(),
                text: s.text.clone(),
                proposed: s.replacement.clone(),
                producer: s.producer.id.clone(),
                category: s.category.clone(),
                reason: s.reason.clone(),
                revision: s.source.revision.clone(),
                migrated_from: s.migrated_from.clone(),
            })
            .collect(),
    }
}

/// Where an item of the workspace's review is, as a line of its document: the
/// 1-based line it starts on and the words around it there.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct LineContext {
    pub line: u32,
    /// Up to 40 characters of its first line before it.
    pub before: String,
    /// Up to 40 characters of its last line after it.
    pub after: String,
}

/// A proposal in the workspace's review: the proposal, its document, who
/// produced it and the words around it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct InboxProposal {
    pub document: String,
    /// Its contract's producer (`harper`, `claude`, …), else its author's label:
    /// what the review groups and filters by.
    pub producer: String,
    /// `None` when it is not placed in the text (orphaned).
    pub context: Option<LineContext>,
    pub proposal: ProposalDto,
}

/// An open thread in the workspace's review.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct InboxThread {
    pub document: String,
    /// Who started it (its first comment's author; `unknown` for a thread
    /// without comments), and their label: what the review groups and filters by.
    pub author: AuthorDto,
    pub producer: String,
    /// When it was last written to (its last comment).
    pub updated_at: String,
    /// `None` when it is not placed in the text (orphaned, detached).
    pub context: Option<LineContext>,
    pub thread: ThreadDto,
}

/// A group of the workspace's review: the proposals of one turn of one
/// producer (across documents), a proposal filed without a turn, or the open
/// threads one author started.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct InboxGroup {
    /// Stable while the group has items: `turn:<turnId>:<producer>`,
    /// `proposal:<document>:<id>` or `threads:<author id>`.
    pub key: String,
    pub turn_id: Option<String>,
    pub producer: String,
    /// The author of its first item (the model an agent named is in it).
    pub author: AuthorDto,
    /// What the writer asked for, when the producer recorded it.
    pub instruction: Option<String>,
    /// Its newest item's time: groups come newest first.
    pub created_at: String,
    /// By document, then by place in it.
    pub proposals: Vec<InboxProposal>,
    pub threads: Vec<InboxThread>,
}

/// A document's part in the workspace's review.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct InboxDoc {
    pub document: String,
    pub pending: u32,
    pub stale: u32,
    pub orphaned: u32,
    pub open_threads: u32,
}
