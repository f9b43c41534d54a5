//! What the operations answer: one type per answer, built of [`crate::views`],
//! serialized one way. `cowriting --json` prints these; the MCP tools return
//! them as `structuredContent` under an `outputSchema` generated from them.

use crate::views::{self, Unit};
use cowriting_producers::eval::Replay;
use cowriting_producers::suggest::{CheckOutcome, Filing};
use cowriting_workspace::check::SidecarReport;
use cowriting_workspace::error::ErrorInfo;
use cowriting_workspace::ledger::EvalRow;
use schemars::JsonSchema;
use serde::Serialize;

/// The documents of a listing, and the ones that could not be read.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct DocumentsOut {
    pub documents: Vec<views::DocSummary>,
    /// Documents that could not be read, with why.
    pub errors: Vec<views::DocError>,
}

/// A page of the documents of a listing (an agent's list, which must stay
/// well under what a tool may answer).
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DocumentsPage {
    pub documents: Vec<views::DocSummary>,
    /// Documents of this page's range that could not be read, with why.
    pub errors: Vec<views::DocError>,
    /// How many documents match, on every page.
    pub total: u32,
    /// Where the next page starts (give it back as `cursor`); none after the last.
    pub next_cursor: Option<String>,
}

/// One page of a document.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadOut {
    pub document: String,
    /// Always `byte`: a page is cut and placed in UTF-8 bytes of the text.
    pub unit: Unit,
    /// The text of the lines shown, exactly, line ends included: a document's
    /// pages put together are its text.
    pub text: String,
    /// The document's lines (a last line without a line end counts; an empty
    /// document has none).
    pub total_lines: u32,
    /// The first line shown (1-based).
    pub from_line: u32,
    /// The last line shown (1-based, inclusive; `fromLine - 1` when the
    /// document is empty).
    pub to_line: u32,
    /// The `from_line` that reads on from here; null when this page reaches
    /// the end of the document.
    pub next_from_line: Option<u32>,
    /// Where `text` is in the document's text: UTF-8 bytes `startByte..endByte`
    /// (the offsets a byte target and the proposals' `from`/`to` use).
    pub start_byte: u32,
    pub end_byte: u32,
    /// The length of the whole text in UTF-8 bytes.
    pub total_bytes: u32,
    /// The proposals waiting on the lines shown (the ones whose text is not in
    /// the document at all are listed with the page starting at line 1).
    pub proposals: Vec<views::ProposalDto>,
    /// The open threads on the lines shown (detached and orphaned ones with the
    /// page starting at line 1).
    pub threads: Vec<views::ThreadDto>,
    /// Proposals waiting on the document that are not on this page.
    pub other_proposals: u32,
    /// Open threads of the document that are not on this page.
    pub other_threads: u32,
    /// Why its review data cannot be read, if it cannot (then no proposals or threads).
    pub sidecar_error: Option<ErrorInfo>,
}

/// A proposal filed (or found already pending).
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProposedOut {
    pub document: String,
    pub unit: Unit,
    /// The proposal filed, or, when `alreadyPending`, the identical one that
    /// was already waiting.
    pub proposal: views::ProposalDto,
    /// The same edit (same target, same replacement) by the same agent was
    /// already pending: nothing was filed, `proposal` is that one.
    pub already_pending: bool,
    /// Other pending proposals whose targets overlap this one's: accepting one
    /// turns the others stale. Filed regardless.
    pub overlapping: Vec<views::ProposalDto>,
    /// Decision-log problems (the proposal was filed regardless).
    pub warnings: Vec<String>,
}

/// Proposals, by document.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ProposalsOut {
    pub documents: Vec<views::DocProposals>,
    pub errors: Vec<views::DocError>,
    /// A page's place in the whole listing (MCP's pages; none for the CLI's whole answer).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub page: Option<ItemsPage>,
}

/// Where a page of proposals or threads stands in the whole listing.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ItemsPage {
    /// How many items (proposals, threads) match, on every page.
    pub total: u32,
    /// Where the next page starts (give it back as `cursor`); none after the last.
    pub next_cursor: Option<String>,
}

/// Threads, by document.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ThreadsOut {
    pub documents: Vec<views::DocThreads>,
    pub errors: Vec<views::DocError>,
    /// A page's place in the whole listing (MCP's pages; none for the CLI's whole answer).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub page: Option<ItemsPage>,
}

/// A thread as it is after an operation on it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ThreadOut {
    pub document: String,
    pub unit: Unit,
    pub thread: views::ThreadDto,
    /// The comment this operation wrote (a new thread's first comment, a
    /// reply); null when it wrote none (resolve, reopen, keep, detach).
    pub comment_id: Option<String>,
}

/// What the writer decided on a proposal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DecidedOutcome {
    Accepted,
    /// Accepted with the writer's own replacement.
    Changed,
    Rejected,
}

/// A decision made: the document has the change (accepted, changed) or not
/// (rejected), saved, and the decision is in the decision log.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DecidedOut {
    pub document: String,
    /// The proposal decided on (`pr_…`).
    pub id: String,
    pub outcome: DecidedOutcome,
    /// Decision-log problems (the decision went through).
    pub warnings: Vec<String>,
}

/// A batch decision (`accept --all`, `reject --all`): what was decided in its
/// one transaction and what was passed over.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchOut {
    pub document: String,
    /// `accepted` or `rejected`: what was done to each of `decided`.
    pub outcome: DecidedOutcome,
    /// The proposals decided (`pr_…`), in sidecar order.
    pub decided: Vec<String>,
    /// The proposals the filter kept that were not decided, with why (an
    /// accept takes pending ones only).
    pub skipped: Vec<SkippedProposal>,
    pub counts: BatchCounts,
    /// Decision-log problems (the decisions went through).
    pub warnings: Vec<String>,
}

/// How many proposals a batch met.
#[derive(Clone, Copy, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchCounts {
    /// Kept by the filter (`decided + skipped`).
    pub matched: u32,
    pub decided: u32,
    pub skipped: u32,
}

/// A proposal a batch passed over.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SkippedProposal {
    pub id: String,
    pub state: cowriting_workspace::session::ProposalState,
    /// Why it could not be decided as it is.
    pub reason: String,
}

/// Who wrote how much of a document ([`crate::ops::Ops::authorship`]).
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct AuthorshipOut {
    pub document: String,
    /// The document's length in characters (Unicode scalar values), and its words.
    pub total: u32,
    pub words: u32,
    /// Each author's characters and words, most first; `unknown` for text no
    /// one is recorded as having written (there before tracking began).
    pub by_author: Vec<AuthorShare>,
    /// The same per section (a heading to the next; the text before the first heading too).
    pub sections: Vec<SectionShare>,
    /// What the writer decided on this document's proposals (undone ones left out).
    pub decisions: DecisionCounts,
}

/// One author's part.
#[derive(Clone, Debug, Serialize, JsonSchema, PartialEq, Eq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct AuthorShare {
    /// `human`, `agent` or `unknown`.
    pub kind: String,
    /// The author's id (an e-mail or name; an agent's name), none for `unknown`.
    pub id: Option<String>,
    /// The name shown beside the id (`author.name`: "Ada Marsh"), when one was recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub name: Option<String>,
    /// The model, for an agent that named one.
    pub model: Option<String>,
    pub chars: u32,
    pub words: u32,
}

/// A section's parts.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SectionShare {
    /// The heading's text; none for the text before the first heading.
    pub heading: Option<String>,
    /// 1–6; 0 before the first heading.
    pub level: u8,
    /// The heading's line (1-based).
    pub line: u32,
    pub total: u32,
    pub words: u32,
    pub by_author: Vec<AuthorShare>,
}

/// Decisions by outcome.
#[derive(Clone, Debug, Default, Serialize, JsonSchema, PartialEq, Eq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct DecisionCounts {
    pub accepted: u32,
    /// Accepted with the writer's own replacement.
    pub changed: u32,
    pub rejected: u32,
}

/// Decisions from the decision log.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct DecisionsOut {
    /// Newest first; an undone one says so (`undone`).
    pub decisions: Vec<views::DecisionDto>,
    /// Unreadable decision-log lines that were skipped.
    pub warnings: Vec<String>,
}

/// A producer run on one document and what it filed: the [`Filing`]'s
/// fields, with the document and the warnings beside them.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FiledOut {
    pub document: String,
    #[serde(flatten)]
    pub filing: Filing,
    /// Decision-log problems (the proposals were filed regardless).
    pub warnings: Vec<String>,
}

/// What each producer did in Check document.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckDocumentOut {
    pub document: String,
    pub outcomes: Vec<CheckOutcome<Filing>>,
    /// Decision-log problems (what was filed stays filed).
    pub warnings: Vec<String>,
}

/// Acceptance by producer and category, and optionally a replay.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EvalOut {
    pub rows: Vec<EvalRow>,
    pub replay: Option<Replay>,
    /// Unreadable decision-log lines that were skipped.
    pub warnings: Vec<String>,
}

/// The sidecars checked, and whether all are sound.
#[derive(Clone, Debug, Serialize)]
pub struct SidecarsOut {
    pub ok: bool,
    pub sidecars: Vec<SidecarReport>,
}

/// Harper's lints of the texts an app has on screen, one list per text.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct LintsOut {
    /// The unit of each lint's `from`/`to`, counted from the start of its text.
    pub unit: Unit,
    pub lints: Vec<Vec<views::LintDto>>,
}

/// Harper's lints of a document as it is on disk.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LintOut {
    pub document: String,
    pub unit: Unit,
    pub lints: Vec<views::LintDto>,
}

/// The workspace's dictionary: the words its spelling lints leave out.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct DictionaryOut {
    /// Where it is, relative to the workspace root.
    pub file: String,
    /// The words as written, in order (any case matches).
    pub words: Vec<String>,
}

/// The spelling language where `ops` is: what the workspace says (its
/// `.cowriting/settings.toml`), and the language checked in.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpellingLanguageOut {
    /// Where the workspace says it, relative to the workspace root.
    pub file: String,
    /// The workspace's language, for everyone who writes in it; `None`: each writer's own.
    pub workspace: Option<String>,
    /// The language spelling is checked in here: the workspace's, else the user's.
    pub checked_in: String,
    /// What was set aside in the workspace's file.
    pub warnings: Vec<String>,
}

/// What a search across the workspace found.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SearchOut {
    pub query: String,
    /// The unit of the hits' `from`/`to` (and the threads' positions).
    pub unit: Unit,
    /// In the documents' text, by document then position.
    pub hits: Vec<views::SearchHitDto>,
    /// Threads whose comments or anchored text match.
    pub threads: Vec<views::ThreadHitDto>,
    /// More matched than are listed (the first 1,000 are).
    pub truncated: bool,
    /// Documents that could not be searched, with why.
    pub errors: Vec<views::DocError>,
}

/// A new document, made empty.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct NewDocumentOut {
    /// Its workspace-relative path (`.md` added when the name had no document ending).
    pub document: String,
}

/// A document renamed or moved, with its review data.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct RenamedOut {
    pub from: String,
    pub to: String,
}

/// A document moved to the system trash, with what went with it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TrashedOut {
    pub document: String,
    /// Its sidecar (threads, proposals, attribution) went to the trash too.
    pub sidecar: bool,
    /// Its pending suggestions' ledger file went to the trash too.
    pub pending: bool,
}

/// A new folder.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct FolderOut {
    /// Its workspace-relative path.
    pub folder: String,
}

/// The workspace's review: every proposal waiting for the writer and every
/// open thread, grouped by turn and producer, newest first.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct InboxOut {
    /// The unit of the proposals' and threads' `from`/`to`.
    pub unit: Unit,
    pub groups: Vec<views::InboxGroup>,
    /// The documents with something listed, by path, with their counts.
    pub documents: Vec<views::InboxDoc>,
    /// Documents whose review data could not be read, with why.
    pub errors: Vec<views::DocError>,
}

/// The sample workspace written to a folder ([`super::sample::create_sample`]).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SampleOut {
    /// The folder.
    pub folder: String,
    /// Whether its files were written now (false: the sample was there
    /// already, and nothing of it was overwritten).
    pub written: bool,
    /// Its git repository, when it has one.
    pub git: Option<SampleGit>,
    /// What went wrong without stopping it (no git history could be written).
    pub warnings: Vec<String>,
}

/// The sample's git repository.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SampleGit {
    /// The branch checked out.
    pub branch: String,
    /// The commits written now (0 when the repository was there already).
    pub commits: usize,
    /// Whether the history was written now.
    pub added: bool,
}

/// An export written to the file the writer named.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ExportOut {
    pub document: String,
    pub format: super::ExportFormat,
    /// The file written (its folder resolved).
    pub path: String,
    pub bytes: u32,
    /// The title the page was given.
    pub title: String,
    /// Pending proposals and open threads the export shows (0 in a clean copy).
    pub proposals: u32,
    pub threads: u32,
}
