//! The one API: every operation a client asks of a workspace — list, read,
//! propose, comment, decide, check, evaluate — as a call in and an answer
//! ([`answers`]) out, built of the same [`crate::views`].
//!
//! The CLI and its MCP server (package `cowriting-cli`, `src/`) call these and
//! do nothing else but parse their arguments and word the answers: `cowriting
//! --json` prints the answer as it is, MCP returns it as `structuredContent`.
//! The desktop app's [`crate::api::Api`] is the window layer above the same
//! [`Session`] operations: it keeps sessions open with unsaved buffers and
//! hot-exit backups, starts threads and changes their state with the `*_in` functions
//! here, and answers with the review the UI repaints from.
//!
//! Each call opens the document's [`Session`] on the files as they are now
//! (other writers may have changed them since the last call) and, when it
//! writes, writes through the session's one write protocol before it answers.
//! Nothing is cached between calls but the [`Store`]'s locks.
//!
//! [`Ops`] carries who is asking (the author of what a call writes) and the
//! [`Unit`] its positions are answered in; both are the client's: the CLI's
//! user and `--unit`, the MCP client's agent and bytes. Errors are the core's
//! typed [`Error`]s; a client may reword one (the CLI names `--nth`, MCP
//! `occurrence`) but branches on its code only.

use crate::views::{self, Unit};
use cowriting_core::model::{Provenance, ThreadStatus};
use cowriting_core::offset::CharRange;
use cowriting_producers::suggest::{self, ProducerKind};
use cowriting_producers::Cancel;
use cowriting_workspace::config::Config;
use cowriting_workspace::error::{Error, Result};
use cowriting_workspace::identity::AgentClient;
use cowriting_workspace::ledger::Ledger;
use cowriting_workspace::session::{ProposalState, ProposeOptions, Session, Target};
use cowriting_workspace::store::Store;
use cowriting_workspace::workspace::{DocPath, Workspace};
use std::sync::Arc;

pub mod answers;
pub mod authorship;
pub mod batch;
pub mod claude_review;
pub mod doc_cache;
mod documents;
pub mod export;
pub mod inbox;
use doc_cache::{DocCache, ProposalsCache, SummaryCache, ThreadsCache};
mod page;
pub mod sample;
pub mod search;
pub mod spelling;
pub use answers::*;
pub use authorship::{AuthorshipFileOut, AuthorshipFormat, ImportIaOut, ImportedAuthor};
pub use batch::{BatchDecision, BatchFilter};
pub use export::ExportFormat;
pub use inbox::{InboxFilter, ItemState};
use page::Page;
pub use search::{DocFinds, SearchQuery, Streamed};
pub use spelling::lint_texts;

/// A workspace, as one caller sees it. Cheap to make: a client may make one
/// per call (MCP does, for each call's agent).
#[derive(Clone)]
pub struct Ops {
    store: Arc<Store>,
    /// The author of what this caller writes (comments, decisions).
    caller: Provenance,
    /// The unit positions are answered in.
    unit: Unit,
}

/// Which documents a page of the listing keeps ([`Ops::documents_page`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct DocFilter<'a> {
    /// Only documents in this folder, at any depth.
    pub folder: Option<&'a str>,
    /// Only documents with proposals pending.
    pub has_pending: bool,
    /// Only documents with open threads.
    pub has_threads: bool,
}

/// A proposal to file ([`Ops::propose`]).
pub struct Propose<'a> {
    pub document: &'a str,
    pub target: Target<'a>,
    pub replacement: &'a str,
    /// The agent that proposes: its author and contract producer.
    pub agent: &'a AgentClient,
    /// Why this edit, shown with it (default: the instruction).
    pub reason: Option<String>,
    /// What the writer asked for, in their words.
    pub instruction: Option<String>,
    /// Groups the proposals of one request (one agent turn).
    pub turn_id: Option<String>,
}

/// A change of a thread's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadChange {
    Resolve,
    Reopen,
    /// Keep a relocated thread on the text it was re-attached to.
    KeepHere,
    /// Detach it from the text (it stays listed).
    Detach,
}

/// How many bytes of items (as JSON) a page of proposals or threads holds at
/// most, whatever its `limit` (at least one item): a page an agent reads whole,
/// its text and its structured answer together well under Claude Code's
/// 25,000 tokens for a tool's answer. 100 proposals of a sentence each were
/// 99 KiB (both forms) before.
pub const PAGE_BYTES: usize = 24 * 1024;

/// `docs` cut to the items `cursor..cursor + limit` (counted across the
/// documents, in order), fewer when they would hold more than `max_bytes` of
/// JSON (at least one), documents left with none dropped (unless
/// `keep_empty`: a document the caller named); and where the page
/// stands. A cursor is a count of items, as the page before answered it.
fn page_of<D, T: serde::Serialize>(
    mut docs: Vec<D>,
    items: impl Fn(&mut D) -> &mut Vec<T>,
    cursor: Option<&str>,
    limit: usize,
    max_bytes: usize,
    keep_empty: bool,
) -> Result<(Vec<D>, ItemsPage)> {
    let skip: usize = match cursor {
        None => 0,
        Some(c) => c.parse().map_err(|_| {
            Error::BadInput(format!(
                "{c:?} is not a cursor of this listing (give back nextCursor)"
            ))
        })?,
    };
    // As many of the items from `skip` on as fit.
    let (mut seen, mut fit, mut bytes) = (0usize, 0usize, 0usize);
    'fill: for d in &mut docs {
        for it in items(d).iter() {
            if seen >= skip {
                let size = serde_json::to_vec(it).map_or(0, |v| v.len());
                if fit == limit || (fit > 0 && bytes + size > max_bytes) {
                    break 'fill;
                }
                bytes += size;
                fit += 1;
            }
            seen += 1;
        }
    }
    let limit = fit.max(1);
    let mut total = 0usize;
    let mut out = Vec::new();
    for mut d in docs {
        let list = items(&mut d);
        let (from, n) = (total, list.len());
        total += n;
        // This document's items that fall on the page.
        let start = skip.saturating_sub(from).min(n);
        let end = (skip + limit).saturating_sub(from).min(n);
        if start < end || keep_empty {
            list.truncate(end);
            list.drain(..start);
            out.push(d);
        }
    }
    let next = skip + limit;
    Ok((
        out,
        ItemsPage {
            total: u32::try_from(total).unwrap_or(u32::MAX),
            next_cursor: (next < total).then(|| next.to_string()),
        },
    ))
}

impl Ops {
    pub fn new(store: Arc<Store>, caller: Provenance, unit: Unit) -> Ops {
        Ops { store, caller, unit }
    }

    /// The same workspace, for another caller or unit.
    pub fn with(&self, caller: Provenance, unit: Unit) -> Ops {
        Ops::new(self.store.clone(), caller, unit)
    }

    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    pub fn workspace(&self) -> &Workspace {
        self.store.workspace()
    }

    pub fn unit(&self) -> Unit {
        self.unit
    }

    /// The document a client names: a workspace-relative path, or an absolute
    /// one inside the workspace.
    pub fn doc(&self, arg: &str) -> Result<DocPath> {
        self.workspace().doc_path_for_arg(arg)
    }

    /// A session on `doc` as it is on disk now.
    pub fn session(&self, doc: &DocPath) -> Result<Session> {
        Session::open(self.store.clone(), doc.clone(), self.caller.clone())
    }

    /// A session whose review data must be readable (every review operation):
    /// a corrupt or newer sidecar is refused with its typed error, naming the
    /// file and the place.
    pub fn review_session(&self, doc: &DocPath) -> Result<Session> {
        let s = self.session(doc)?;
        if s.sidecar_problem().is_some() {
            self.store.load(doc)?;
        }
        Ok(s)
    }

    fn review(&self, arg: &str) -> Result<Session> {
        self.review_session(&self.doc(arg)?)
    }

    /// The documents a listing covers: `doc`, or every document with text or a
    /// sidecar.
    pub(crate) fn docs(&self, doc: Option<&str>) -> Result<Vec<DocPath>> {
        if let Some(d) = doc {
            return Ok(vec![self.doc(d)?]);
        }
        let ws = self.workspace();
        let mut all = ws.list_documents();
        for (d, _) in ws.list_sidecars() {
            if !all.contains(&d) {
                all.push(d);
            }
        }
        all.sort();
        Ok(all)
    }

    /// `view` of `document` (whose failure is the answer), or of every
    /// document with review data (a sidecar; whose failures are listed apart).
    /// A document without any has nothing to list and is not read: a docs
    /// tree of 38,000 pages with a few reviewed is read a few pages deep.
    ///
    /// With `cache` (and no `document`), a document whose files kept their
    /// stamps since the cache read it is not read again ([`doc_cache`]); the
    /// cache must be used with one `view` (and one unit) only.
    fn each<T: Clone>(
        &self,
        document: Option<&str>,
        open: impl Fn(&DocPath) -> Result<Session>,
        view: impl Fn(&Session) -> T,
        cache: Option<&mut DocCache<T>>,
    ) -> Result<(Vec<T>, Vec<views::DocError>)> {
        let docs = match document {
            Some(_) => self.docs(document)?,
            None => {
                let mut reviewed: Vec<DocPath> = self
                    .workspace()
                    .list_sidecars()
                    .into_iter()
                    .map(|(d, _)| d)
                    .collect();
                reviewed.sort();
                reviewed
            }
        };
        let (mut out, mut errors) = (Vec::new(), Vec::new());
        if let (Some(cache), None) = (cache, document) {
            let ws = self.workspace();
            cache.begin();
            cache.retain(&docs.iter().collect());
            for doc in &docs {
                match cache.get(ws, doc, || open(doc).map(|s| view(&s)).map_err(|e| e.info())) {
                    Ok(v) => out.push(v),
                    Err(error) => errors.push(views::DocError {
                        document: doc.to_string(),
                        error,
                    }),
                }
            }
            return Ok((out, errors));
        }
        for doc in docs {
            match open(&doc) {
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

    /// What waits on `doc`, or on every document.
    pub fn documents(&self, doc: Option<&str>) -> Result<DocumentsOut> {
        match doc {
            Some(_) => {
                let (documents, errors) = self.each(doc, |d| self.session(d), views::summary, None)?;
                Ok(DocumentsOut { documents, errors })
            }
            None => self.every_document(None),
        }
    }

    /// What waits on every document, reading again only the reviewed
    /// documents whose files changed since `cache` last read them
    /// ([`doc_cache`]): a server that lists page after page opens no session
    /// for a document nobody touched.
    pub fn documents_cached(&self, cache: &mut SummaryCache) -> Result<DocumentsOut> {
        self.every_document(Some(cache))
    }

    /// Every document's summary, through `cache` when there is one (a
    /// one-shot listing stamps no file it will not look at again).
    fn every_document(&self, cache: Option<&mut SummaryCache>) -> Result<DocumentsOut> {
        let ws = self.workspace();
        let (mut documents, errors) = self.each(None, |d| self.session(d), views::summary, cache)?;
        // Every document is listed; those without review data have nothing on them.
        let listed: std::collections::HashSet<String> =
            documents.iter().map(|d| d.document.clone()).collect();
        let failed: std::collections::HashSet<&str> = errors.iter().map(|e| e.document.as_str()).collect();
        for d in ws.list_documents() {
            let name = d.to_string();
            if !listed.contains(&name) && !failed.contains(name.as_str()) {
                documents.push(views::DocSummary::nothing(name));
            }
        }
        documents.sort_by(|a, b| a.document.cmp(&b.document));
        Ok(DocumentsOut { documents, errors })
    }

    /// Who wrote how much of `doc` (as it is on disk), in all and per
    /// section, and what the writer decided on its proposals.
    pub fn authorship(&self, doc: &str) -> Result<AuthorshipOut> {
        let doc = self.doc(doc)?;
        let s = self.session(&doc)?;
        self.authorship_of(&s)
    }

    /// [`Ops::authorship`] of the text `s` holds (the app's open buffer,
    /// its unsaved edits included).
    pub fn authorship_of(&self, s: &Session) -> Result<AuthorshipOut> {
        let doc = s.doc_path().clone();
        // Authors by who they are (kind, id, model); spans by author index.
        let mut authors: Vec<AuthorShare> = Vec::new();
        let mut spans = Vec::new();
        for sp in s.spans() {
            let a = &sp.who.author;
            let share = AuthorShare {
                kind: a.kind.as_str().to_owned(),
                id: Some(a.id.clone()),
                name: a.name.clone(),
                model: a.agent.as_ref().and_then(|g| g.model.clone()),
                chars: 0,
                words: 0,
            };
            // One author whatever name a span shows (the last one named wins).
            let same = |x: &AuthorShare| x.kind == share.kind && x.id == share.id && x.model == share.model;
            let i = match authors.iter().position(same) {
                Some(i) => {
                    if share.name.is_some() {
                        authors[i].name.clone_from(&share.name);
                    }
                    i
                }
                None => {
                    authors.push(share);
                    authors.len() - 1
                }
            };
            spans.push((sp.range, i));
        }
        let text = s.document().flatten();
        let (whole, sections) = cowriting_core::authorship::report(&text, &spans, authors.len());
        let n = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
        let shares = |c: &cowriting_core::authorship::Counts| {
            let mut out: Vec<AuthorShare> = authors
                .iter()
                .zip(&c.by_author)
                .filter(|(_, (chars, _))| *chars > 0)
                .map(|(a, (chars, words))| AuthorShare {
                    chars: n(*chars),
                    words: n(*words),
                    ..a.clone()
                })
                .collect();
            if c.unknown.0 > 0 {
                out.push(AuthorShare {
                    kind: "unknown".into(),
                    id: None,
                    name: None,
                    model: None,
                    chars: n(c.unknown.0),
                    words: n(c.unknown.1),
                });
            }
            out.sort_by_key(|a| std::cmp::Reverse(a.chars));
            out
        };
        let mut decisions = DecisionCounts::default();
        for d in self.decisions(Some(doc.as_str()), None)?.decisions {
            if d.undone {
                continue;
            }
            match d.outcome.as_str() {
                "accepted" => decisions.accepted += 1,
                "changed" => decisions.changed += 1,
                "rejected" => decisions.rejected += 1,
                _ => {}
            }
        }
        Ok(AuthorshipOut {
            document: doc.to_string(),
            total: n(whole.chars),
            words: n(whole.words),
            by_author: shares(&whole),
            sections: sections
                .iter()
                .map(|sec| SectionShare {
                    heading: sec.heading.clone(),
                    level: sec.level,
                    line: n(sec.line),
                    total: n(sec.counts.chars),
                    words: n(sec.counts.words),
                    by_author: shares(&sec.counts),
                })
                .collect(),
            decisions,
        })
    }

    /// A page of at most `limit` documents of those `filter` keeps, in name
    /// order, after the document `after` (the last page's `next_cursor`).
    /// With `cache`, as [`Ops::documents_cached`].
    pub fn documents_page(
        &self,
        filter: &DocFilter<'_>,
        after: Option<&str>,
        limit: usize,
        cache: Option<&mut SummaryCache>,
    ) -> Result<DocumentsPage> {
        let all = self.every_document(cache)?;
        let folder = filter.folder.map(|f| format!("{}/", f.trim_matches('/')));
        let inside = |name: &str| folder.as_deref().is_none_or(|f| name.starts_with(f));
        let matching: Vec<views::DocSummary> = all
            .documents
            .into_iter()
            .filter(|d| {
                inside(&d.document)
                    && (!filter.has_pending || d.proposals.pending > 0)
                    && (!filter.has_threads || d.threads.open > 0)
            })
            .collect();
        let total = matching.len();
        let start = after.map_or(0, |a| matching.partition_point(|d| d.document.as_str() <= a));
        let documents: Vec<views::DocSummary> = matching.into_iter().skip(start).take(limit.max(1)).collect();
        let next_cursor = (start + documents.len() < total)
            .then(|| documents.last().map(|d| d.document.clone()))
            .flatten();
        let last = documents.last().map(|d| d.document.clone());
        // A document that could not be read is reported on the page its name falls in.
        let on_page = |name: &str| {
            inside(name)
                && after.is_none_or(|a| name > a)
                && (next_cursor.is_none() || last.as_deref().is_some_and(|l| name <= l))
        };
        let errors = all.errors.into_iter().filter(|e| on_page(&e.document)).collect();
        Ok(DocumentsPage {
            documents,
            errors,
            total: u32::try_from(total).unwrap_or(u32::MAX),
            next_cursor,
        })
    }

    /// A page of `doc`: lines `from_line..=to_line` (1-based; default from the
    /// first, as far as a page goes), with the proposals and open threads on
    /// them. Positions are bytes, whatever this caller's unit.
    pub fn read(&self, doc: &str, from_line: Option<usize>, to_line: Option<usize>) -> Result<ReadOut> {
        let doc = self.doc(doc)?;
        let s = self.session(&doc)?;
        let d = s.document();
        let page = Page::of(d, from_line, to_line).map_err(|m| Error::BadInput(format!("{doc}: {m}")))?;
        let n = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
        let mut out = ReadOut {
            document: doc.to_string(),
            unit: Unit::Byte,
            text: d.rope().byte_slice(page.start_byte..page.end_byte).to_string(),
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
        if out.sidecar_error.is_some() {
            return Ok(out);
        }
        let (proposals, others): (Vec<_>, Vec<_>) = views::proposals(&s, Unit::Byte)
            .into_iter()
            .partition(|p| page.shows(p.from, p.to));
        let (threads, other_threads): (Vec<_>, Vec<_>) = views::threads(&s, Unit::Byte)
            .into_iter()
            .filter(|t| t.status == ThreadStatus::Open)
            .partition(|t| page.shows(t.from, t.to));
        out.proposals = proposals;
        out.threads = threads;
        out.other_proposals = n(others.len());
        out.other_threads = n(other_threads.len());
        Ok(out)
    }

    /// File a proposal: the document is not touched. The same edit by the
    /// same agent that is still pending is not filed again
    /// ([`Session::propose_suggestion_once`]).
    pub fn propose(&self, p: Propose<'_>) -> Result<ProposedOut> {
        let author = p.agent.author();
        let mut s = self.with(author.clone(), self.unit).review(p.document)?;
        let range = s.resolve_target(p.target)?;
        let reason = p.reason.or_else(|| p.instruction.clone()).unwrap_or_default();
        let proposed = s.propose_suggestion_once(
            range,
            p.replacement,
            &p.agent.producer(),
            "edit",
            &reason,
            ProposeOptions {
                author,
                turn_id: p.turn_id,
                instruction: p.instruction,
            },
        )?;
        let proposal = views::proposal(&s, self.unit, &proposed.id).ok_or_else(|| Error::NotFound {
            what: "proposal",
            id: proposed.id.clone(),
            doc: s.doc_path().to_string(),
        })?;
        Ok(ProposedOut {
            document: s.doc_path().to_string(),
            unit: self.unit,
            already_pending: proposed.already_pending(),
            proposal,
            overlapping: views::proposals_named(&s, self.unit, &proposed.overlapping),
            warnings: s.take_warnings(),
        })
    }

    /// The proposals of `doc` (or of every document), optionally of one state.
    pub fn proposals(&self, doc: Option<&str>, state: Option<ProposalState>) -> Result<ProposalsOut> {
        self.proposals_cached(doc, state, None)
    }

    /// [`Ops::proposals`], with `cache` for a listing of every document (see `each`).
    pub fn proposals_cached(
        &self,
        doc: Option<&str>,
        state: Option<ProposalState>,
        cache: Option<&mut ProposalsCache>,
    ) -> Result<ProposalsOut> {
        let (mut documents, errors) = self.each(
            doc,
            |d| self.review_session(d),
            |s| views::doc_proposals(s, self.unit),
            cache,
        )?;
        if let Some(want) = state {
            for d in &mut documents {
                d.proposals.retain(|p| p.state == want);
            }
        }
        Ok(ProposalsOut {
            documents,
            errors,
            page: None,
        })
    }

    /// The threads of `doc` (or of every document), optionally of one status.
    pub fn threads(&self, doc: Option<&str>, status: Option<ThreadStatus>) -> Result<ThreadsOut> {
        self.threads_cached(doc, status, None)
    }

    /// [`Ops::threads`], with `cache` for a listing of every document (see `each`).
    pub fn threads_cached(
        &self,
        doc: Option<&str>,
        status: Option<ThreadStatus>,
        cache: Option<&mut ThreadsCache>,
    ) -> Result<ThreadsOut> {
        let (mut documents, errors) = self.each(
            doc,
            |d| self.review_session(d),
            |s| views::doc_threads(s, self.unit),
            cache,
        )?;
        if let Some(want) = status {
            for d in &mut documents {
                d.threads.retain(|t| t.status == want);
            }
        }
        Ok(ThreadsOut {
            documents,
            errors,
            page: None,
        })
    }

    /// A page of [`Ops::proposals`]: at most `limit` proposals (and at most
    /// [`PAGE_BYTES`] of them) after the
    /// first `cursor` ones (a cursor is what the page before answered as
    /// `nextCursor`), documents with none left out (but a document named). A proposal decided
    /// between two pages shifts the rest by one. With `cache`, as [`Ops::proposals_cached`].
    pub fn proposals_page(
        &self,
        doc: Option<&str>,
        state: Option<ProposalState>,
        cursor: Option<&str>,
        limit: usize,
        cache: Option<&mut ProposalsCache>,
    ) -> Result<ProposalsOut> {
        let all = self.proposals_cached(doc, state, cache)?;
        let named = doc.is_some();
        let (documents, page) = page_of(
            all.documents,
            |d| &mut d.proposals,
            cursor,
            limit,
            PAGE_BYTES,
            named,
        )?;
        Ok(ProposalsOut {
            documents,
            errors: all.errors,
            page: Some(page),
        })
    }

    /// A page of [`Ops::threads`], as [`Ops::proposals_page`] pages proposals.
    pub fn threads_page(
        &self,
        doc: Option<&str>,
        status: Option<ThreadStatus>,
        cursor: Option<&str>,
        limit: usize,
        cache: Option<&mut ThreadsCache>,
    ) -> Result<ThreadsOut> {
        let all = self.threads_cached(doc, status, cache)?;
        let named = doc.is_some();
        let (documents, page) = page_of(
            all.documents,
            |d| &mut d.threads,
            cursor,
            limit,
            PAGE_BYTES,
            named,
        )?;
        Ok(ThreadsOut {
            documents,
            errors: all.errors,
            page: Some(page),
        })
    }

    /// Who wrote what in `doc`.
    pub fn spans(&self, doc: &str) -> Result<views::DocSpans> {
        Ok(views::doc_spans(&self.review(doc)?, self.unit))
    }

    /// The thread `id` of `s` as it is now.
    fn thread_out(&self, s: &Session, id: &str, comment_id: Option<String>) -> Result<ThreadOut> {
        let thread = views::threads(s, self.unit)
            .into_iter()
            .find(|t| t.id == id)
            .ok_or_else(|| Error::NotFound {
                what: "thread",
                id: id.to_owned(),
                doc: s.doc_path().to_string(),
            })?;
        Ok(ThreadOut {
            document: s.doc_path().to_string(),
            unit: self.unit,
            thread,
            comment_id,
        })
    }

    /// Start a thread on the target's text with a first comment.
    pub fn new_thread(&self, doc: &str, target: Target<'_>, body: &str) -> Result<ThreadOut> {
        let mut s = self.review(doc)?;
        let (id, comment) = Ops::new_thread_in(&mut s, target, body)?;
        self.thread_out(&s, &id, comment)
    }

    /// [`Ops::new_thread`] in a session the caller keeps open (the app's):
    /// the thread's id and its first comment's.
    pub fn new_thread_in(
        s: &mut Session,
        target: Target<'_>,
        body: &str,
    ) -> Result<(String, Option<String>)> {
        let range = s.resolve_target(target)?;
        let id = s.new_thread(range, body)?;
        let first = s
            .threads()
            .into_iter()
            .find(|t| t.thread.id == id)
            .and_then(|t| t.thread.comments.first().map(|c| c.id.clone()));
        Ok((id, first))
    }

    /// Reply to a thread.
    pub fn reply(&self, doc: &str, thread: &str, body: &str) -> Result<ThreadOut> {
        let mut s = self.review(doc)?;
        let comment = s.reply(thread, body)?;
        self.thread_out(&s, thread, Some(comment))
    }

    /// Resolve, reopen, keep here or detach a thread.
    pub fn change_thread(&self, doc: &str, thread: &str, change: ThreadChange) -> Result<ThreadOut> {
        let mut s = self.review(doc)?;
        Ops::change_thread_in(&mut s, thread, change)?;
        self.thread_out(&s, thread, None)
    }

    /// [`Ops::change_thread`] in a session the caller keeps open.
    pub fn change_thread_in(s: &mut Session, thread: &str, change: ThreadChange) -> Result<()> {
        match change {
            ThreadChange::Resolve => s.set_thread_status(thread, ThreadStatus::Resolved),
            ThreadChange::Reopen => s.set_thread_status(thread, ThreadStatus::Open),
            ThreadChange::KeepHere => s.keep_thread_here(thread),
            ThreadChange::Detach => s.detach_thread(thread),
        }
    }

    /// Accept a proposal (with the writer's own replacement, when `with` is
    /// given): the document and its review data are saved, the decision logged.
    /// A replacement holding hidden characters (the view's `hidden`) is refused
    /// with `needs_confirmation` unless `confirm_hidden` says the writer saw them.
    /// A proposal whose exact text is only at a likely place (the view's
    /// `likelyPlace`: the words around it changed) is stale unless
    /// `at_likely_place` says the writer checked that place.
    pub fn accept(
        &self,
        doc: &str,
        id: &str,
        with: Option<&str>,
        confirm_hidden: bool,
        at_likely_place: bool,
    ) -> Result<DecidedOut> {
        let mut s = self.review(doc)?;
        if confirm_hidden {
            s.confirm_hidden([id]);
        }
        if at_likely_place {
            s.confirm_place([id]);
        }
        s.accept_and_save(id, with)?;
        Ok(DecidedOut {
            document: s.doc_path().to_string(),
            id: id.to_owned(),
            outcome: match with {
                Some(_) => DecidedOutcome::Changed,
                None => DecidedOutcome::Accepted,
            },
            warnings: s.take_warnings(),
        })
    }

    /// Reject a proposal: it is gone from the review data; the text is untouched.
    pub fn reject(&self, doc: &str, id: &str) -> Result<DecidedOut> {
        let mut s = self.review(doc)?;
        s.reject(id)?;
        Ok(DecidedOut {
            document: s.doc_path().to_string(),
            id: id.to_owned(),
            outcome: DecidedOutcome::Rejected,
            warnings: s.take_warnings(),
        })
    }

    /// The user's settings as they apply in this workspace (its own spelling
    /// language first: `.cowriting/settings.toml`), and what was set aside in
    /// the workspace's file.
    pub fn config(&self) -> Result<(Config, Vec<String>)> {
        let mut warnings = Vec::new();
        let cfg = self.workspace().config(&mut warnings)?;
        Ok((cfg, warnings))
    }

    /// Decisions from the decision log, newest first: of `doc` (or all), at
    /// most `limit` of them.
    pub fn decisions(&self, doc: Option<&str>, limit: Option<usize>) -> Result<DecisionsOut> {
        let doc = doc.map(|d| self.doc(d)).transpose()?;
        let log = Ledger::of(self.workspace()).log()?;
        let decisions = log
            .records
            .iter()
            .rev()
            .filter(|r| doc.as_ref().is_none_or(|d| d.as_str() == r.doc_id))
            .take(limit.unwrap_or(usize::MAX))
            .map(views::decision)
            .collect();
        Ok(DecisionsOut {
            decisions,
            warnings: log.warnings,
        })
    }

    /// Run one producer on `doc` (on `selection`, for Claude, with the
    /// writer's `instruction`) and file what it found.
    pub fn suggest(
        &self,
        doc: &str,
        producer: &str,
        selection: Option<Target<'_>>,
        instruction: Option<String>,
        cancel: &Cancel,
    ) -> Result<FiledOut> {
        let (cfg, mut warnings) = self.config()?;
        let producer = ProducerKind::parse(producer, &cfg)?;
        let mut s = self.review(doc)?;
        let selection: Option<CharRange> = selection.map(|t| s.resolve_target(t)).transpose()?;
        let filing = suggest::run_and_file(&mut s, &cfg, producer, selection, instruction, cancel)?;
        warnings.extend(s.take_warnings());
        Ok(FiledOut {
            document: s.doc_path().to_string(),
            filing,
            warnings,
        })
    }

    /// Check document: every producer enabled in the settings, in turn, on
    /// the whole of `doc` ([`check_document`]). Refused when none is enabled
    /// (the app answers no outcomes instead: its writer enables them in
    /// Settings).
    pub fn check_document(&self, doc: &str, cancel: &Cancel) -> Result<CheckDocumentOut> {
        let (cfg, mut warnings) = self.config()?;
        if cfg.enabled_producers().is_empty() {
            return Err(Error::BadInput(
                "no producers are enabled: name one with --producer, or enable them in the settings".into(),
            ));
        }
        let mut s = self.review(doc)?;
        let outcomes = check_document(&cfg, cancel, &mut |_| {}, &mut |producer| {
            suggest::run_and_file(&mut s, &cfg, producer, None, None, cancel)
        });
        warnings.extend(s.take_warnings());
        Ok(CheckDocumentOut {
            document: s.doc_path().to_string(),
            outcomes,
            warnings,
        })
    }

    /// Acceptance by producer and category from the decision log; with
    /// `replay`, that producer run again on each decided revision.
    pub fn eval(&self, replay: Option<&str>) -> Result<EvalOut> {
        let root = self.workspace().root();
        let ledger = Ledger::new(root);
        let log = ledger.log()?;
        let store = self.store.clone();
        let live = |doc: &DocPath| -> std::collections::HashSet<String> {
            store
                .load(doc)
                .ok()
                .flatten()
                .map(|a| a.proposals.iter().map(|p| p.id.clone()).collect())
                .unwrap_or_default()
        };
        // Entries left under the name of a document that is gone (a merge of a
        // rename on one branch with proposals filed on the other) are pending
        // when their proposal is in any sidecar: read every one, once, if asked.
        let mut everywhere: Option<std::collections::HashSet<String>> = None;
        let rows = cowriting_workspace::ledger::eval(&ledger, &log.records, |doc| {
            if std::fs::symlink_metadata(root.join(doc.as_str())).is_ok() {
                return live(doc);
            }
            everywhere
                .get_or_insert_with(|| {
                    self.docs(None)
                        .unwrap_or_default()
                        .iter()
                        .flat_map(&live)
                        .collect()
                })
                .clone()
        })?;
        let replay = match replay {
            Some(name) => {
                let (cfg, _) = self.config()?;
                let producer = ProducerKind::parse(name, &cfg)?;
                Some(cowriting_producers::eval::replay(root, &ledger, &cfg, &producer)?)
            }
            None => None,
        };
        Ok(EvalOut {
            rows,
            replay,
            warnings: log.warnings,
        })
    }

    /// Check sidecars (of `docs`, or all): parse, schema version, dangling
    /// anchor ids, `docPath`.
    pub fn check_sidecars(&self, docs: &[String]) -> Result<SidecarsOut> {
        let docs: Vec<DocPath> = docs.iter().map(|d| self.doc(d)).collect::<Result<_>>()?;
        let sidecars = cowriting_workspace::check::check(self.workspace(), &docs);
        Ok(SidecarsOut {
            ok: sidecars.iter().all(cowriting_workspace::check::SidecarReport::ok),
            sidecars,
        })
    }
}

/// Check document, for every client (`cowriting suggest DOC` through
/// [`Ops::check_document`], the app's through
/// [`crate::desk::Desk::check_document`]): every producer enabled in `cfg`, in
/// turn ([`suggest::check_document`]: a failure does not stop the next, a
/// cancel leaves the rest unrun). `started` is told each producer's name
/// before it runs; `run` prepares, runs and files one producer, as the
/// client keeps its sessions.
pub fn check_document<F>(
    cfg: &Config,
    cancel: &Cancel,
    started: &mut dyn FnMut(&str),
    run: &mut dyn FnMut(ProducerKind) -> Result<F>,
) -> Vec<suggest::CheckOutcome<F>> {
    suggest::check_document(&cfg.enabled_producers(), cancel, |name| {
        started(name);
        ProducerKind::parse(name, cfg)
            .and_then(&mut *run)
            .map_err(|e| e.info())
    })
}
