//! One review across the workspace (the inbox): every proposal waiting for the
//! writer (pending, stale, orphaned) and every open thread of every document,
//! grouped by turn and producer, newest first.
//!
//! It is read from each document's sidecar and pending ledger, so it shows
//! what any writer filed — an agent over MCP, the CLI, the VS Code extension —
//! whether the app was open or not. Only documents with review data are read
//! (a sidecar under `.threads/`, or a session the caller has open): each
//! through its [`Session`], so what is not a document of the workspace (a
//! symlink leading out of it, a name under `.git`) is never read, and a
//! sidecar that cannot be read is listed in `errors`, not fatal.
//!
//! The CLI reads the files as they are ([`Ops::inbox`]); the app gives the
//! documents it has open as the writer has them ([`doc_items`] on its
//! sessions, under its lock) and the rest are read off its lock
//! ([`Ops::inbox_with`]), again only where their files changed
//! ([`Ops::inbox_cached`], `doc_cache`).

use super::doc_cache::InboxCache;
use super::search::around;
use super::*;
use crate::views::{InboxDoc, InboxGroup, InboxProposal, InboxThread, LineContext};
use cowriting_core::document::Document;
use cowriting_core::model::AuthorKind;
use cowriting_workspace::error::ErrorInfo;
use std::collections::BTreeMap;

/// Which items a listing keeps, by their state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemState {
    /// Proposals that can be accepted.
    Pending,
    /// Proposals whose text changed under them.
    Stale,
    /// Proposals whose text cannot be found.
    Orphaned,
    /// Open threads.
    Open,
}

impl ItemState {
    fn of(p: ProposalState) -> ItemState {
        match p {
            ProposalState::Pending => ItemState::Pending,
            ProposalState::Stale => ItemState::Stale,
            ProposalState::Orphaned => ItemState::Orphaned,
        }
    }
}

/// What a listing keeps; `None` keeps everything.
#[derive(Clone, Debug, Default)]
pub struct InboxFilter {
    /// A document, or a folder: the documents under it.
    pub document: Option<String>,
    /// A producer (`harper`, `claude`), or an author's id or label; any case.
    pub producer: Option<String>,
    pub state: Option<ItemState>,
}

/// One document's items, before grouping.
#[derive(Clone, Debug, Default)]
pub struct DocItems {
    pub proposals: Vec<InboxProposal>,
    pub threads: Vec<InboxThread>,
}

/// A document's items as `s` has them (its text, and its review data as read
/// or as the caller changed it since), or why its review data cannot be read.
pub fn doc_items(s: &Session, unit: Unit) -> std::result::Result<DocItems, ErrorInfo> {
    if let Some(problem) = s.sidecar_problem() {
        return Err(problem.clone());
    }
    let doc = s.document();
    let name = s.doc_path().to_string();
    let proposals = views::proposals(s, unit)
        .into_iter()
        .map(|p| InboxProposal {
            document: name.clone(),
            producer: views::producer_of(&p),
            context: p.from.zip(p.to).and_then(|(f, e)| context(doc, unit, f, e)),
            proposal: p,
        })
        .collect();
    let threads = views::threads(s, unit)
        .into_iter()
        .filter(|t| t.status == ThreadStatus::Open)
        .map(|t| {
            let author = t
                .comments
                .first()
                .map_or_else(|| (&Provenance::human("unknown")).into(), |c| c.author.clone());
            (author, t)
        })
        .map(|(author, t)| InboxThread {
            document: name.clone(),
            producer: author.label.clone(),
            author,
            updated_at: t
                .comments
                .iter()
                .map(|c| c.created_at.clone())
                .max()
                .unwrap_or_default(),
            context: t.from.zip(t.to).and_then(|(f, e)| context(doc, unit, f, e)),
            thread: t,
        })
        .collect();
    Ok(DocItems { proposals, threads })
}

/// The line and the words around `from..to` (in `unit`) of `doc`.
fn context(doc: &Document, unit: Unit, from: u32, to: u32) -> Option<LineContext> {
    let chars = |at: u32| match unit {
        Unit::Utf16 => doc
            .utf16_to_char(cowriting_core::offset::Utf16Offset(at as usize))
            .ok(),
        Unit::Byte => doc
            .byte_to_char(cowriting_core::offset::ByteOffset(at as usize))
            .ok(),
    };
    let (start, end) = (chars(from)?, chars(to)?);
    let (before, after) = around(doc, CharRange::new(start.0, end.0));
    Some(LineContext {
        line: doc.char_to_line_col(start).line as u32 + 1,
        before,
        after,
    })
}

/// Whether `want` names this producer: the producer (a contract's, else the
/// author's label), or the author's id or label; any case. The inbox's filter
/// and a batch decision's ([`super::BatchFilter`]).
pub(crate) fn producer_matches(want: &str, producer: &str, author: &views::AuthorDto) -> bool {
    [producer, author.id.as_str(), author.label.as_str()]
        .iter()
        .any(|have| have.eq_ignore_ascii_case(want))
}

impl InboxFilter {
    fn keeps_producer(&self, producer: &str, author: &views::AuthorDto) -> bool {
        self.producer
            .as_deref()
            .is_none_or(|want| producer_matches(want, producer, author))
    }

    fn keeps_proposal(&self, p: &InboxProposal) -> bool {
        self.state.is_none_or(|s| s == ItemState::of(p.proposal.state))
            && self.keeps_producer(&p.producer, &p.proposal.author)
    }

    fn keeps_thread(&self, t: &InboxThread) -> bool {
        self.state.is_none_or(|s| s == ItemState::Open) && self.keeps_producer(&t.producer, &t.author)
    }
}

/// Group the documents' items (see the module docs), keeping what `filter` keeps.
fn assemble(
    unit: Unit,
    items: Vec<(DocPath, DocItems)>,
    errors: Vec<views::DocError>,
    filter: &InboxFilter,
) -> InboxOut {
    let mut groups: BTreeMap<String, InboxGroup> = BTreeMap::new();
    let mut documents = Vec::new();
    for (doc, d) in items {
        let mut counts = InboxDoc {
            document: doc.to_string(),
            ..InboxDoc::default()
        };
        for p in d.proposals.into_iter().filter(|p| filter.keeps_proposal(p)) {
            *match p.proposal.state {
                ProposalState::Pending => &mut counts.pending,
                ProposalState::Stale => &mut counts.stale,
                ProposalState::Orphaned => &mut counts.orphaned,
            } += 1;
            let key = match &p.proposal.turn_id {
                Some(turn) => format!("turn:{turn}:{}", p.producer),
                None => format!("proposal:{}:{}", p.document, p.proposal.id),
            };
            let g = groups.entry(key.clone()).or_insert_with(|| InboxGroup {
                key,
                turn_id: p.proposal.turn_id.clone(),
                producer: p.producer.clone(),
                author: p.proposal.author.clone(),
                instruction: None,
                created_at: String::new(),
                proposals: Vec::new(),
                threads: Vec::new(),
            });
            if g.instruction.is_none() {
                g.instruction.clone_from(&p.proposal.instruction);
            }
            if p.proposal.created_at > g.created_at {
                g.created_at.clone_from(&p.proposal.created_at);
            }
            g.proposals.push(p);
        }
        for t in d.threads.into_iter().filter(|t| filter.keeps_thread(t)) {
            counts.open_threads += 1;
            // An agent's comments of a turn (Claude's review pass) go with that
            // turn's proposals; other threads by who started them.
            let turn = t
                .thread
                .comments
                .first()
                .filter(|c| c.author.kind == AuthorKind::Agent)
                .and_then(|c| c.turn_id.clone());
            let key = match &turn {
                Some(turn) => format!("turn:{turn}:{}", t.author.id),
                None => format!("threads:{}", t.author.id),
            };
            let g = groups.entry(key.clone()).or_insert_with(|| InboxGroup {
                key,
                turn_id: turn.clone(),
                producer: t.producer.clone(),
                author: t.author.clone(),
                instruction: None,
                created_at: String::new(),
                proposals: Vec::new(),
                threads: Vec::new(),
            });
            if t.updated_at > g.created_at {
                g.created_at.clone_from(&t.updated_at);
            }
            g.threads.push(t);
        }
        if counts.pending + counts.stale + counts.orphaned + counts.open_threads > 0 {
            documents.push(counts);
        }
    }
    let mut groups: Vec<InboxGroup> = groups.into_values().collect();
    // Within a group: by document (the order they were read in: by path),
    // then by place; what is not placed last.
    let place = |line: Option<u32>, from: Option<u32>| (line.is_none(), from.unwrap_or(u32::MAX));
    for g in &mut groups {
        g.proposals.sort_by(|a, b| {
            (&a.document, place(a.proposal.line, a.proposal.from))
                .cmp(&(&b.document, place(b.proposal.line, b.proposal.from)))
        });
        g.threads.sort_by(|a, b| {
            (&a.document, place(a.thread.line, a.thread.from))
                .cmp(&(&b.document, place(b.thread.line, b.thread.from)))
        });
    }
    groups.sort_by(|a, b| b.created_at.cmp(&a.created_at).then_with(|| a.key.cmp(&b.key)));
    InboxOut {
        unit,
        groups,
        documents,
        errors,
    }
}

impl Ops {
    /// The review of every document of the workspace as it is on disk (see
    /// the module docs), keeping what `filter` keeps.
    pub fn inbox(&self, filter: &InboxFilter) -> Result<InboxOut> {
        self.inbox_with(filter, BTreeMap::new())
    }

    /// [`Ops::inbox`], with the items of the documents a client has open
    /// (as it has them) given: those are not read again.
    pub fn inbox_with(
        &self,
        filter: &InboxFilter,
        open: BTreeMap<DocPath, std::result::Result<DocItems, ErrorInfo>>,
    ) -> Result<InboxOut> {
        self.inbox_cached(filter, open, &mut InboxCache::new())
    }

    /// [`Ops::inbox_with`], reading again only the closed documents whose
    /// files changed since `cache` last read them ([`InboxCache`]).
    pub fn inbox_cached(
        &self,
        filter: &InboxFilter,
        mut open: BTreeMap<DocPath, std::result::Result<DocItems, ErrorInfo>>,
        cache: &mut InboxCache,
    ) -> Result<InboxOut> {
        let ws = self.workspace();
        let mut docs: Vec<DocPath> = ws.list_sidecars().into_iter().map(|(d, _)| d).collect();
        docs.extend(open.keys().cloned());
        docs.sort();
        docs.dedup();
        if let Some(want) = filter.document.as_deref() {
            let want = want.trim_end_matches('/');
            let named = self.doc(want).ok();
            let folder = format!("{}/", named.as_ref().map_or(want, |d| d.as_str()));
            docs.retain(|d| named.as_ref() == Some(d) || d.as_str().starts_with(&folder));
            let exists = match &named {
                Some(d) => docs.contains(d) || ws.list_documents().contains(d),
                None => ws.list_folders().iter().any(|f| f == want),
            };
            if !exists {
                return Err(Error::BadInput(format!(
                    "{want}: no such document or folder in the workspace"
                )));
            }
        }
        let (mut items, mut errors) = (Vec::new(), Vec::new());
        cache.begin();
        if filter.document.is_none() {
            cache.retain(&docs.iter().collect());
        }
        for doc in docs {
            let read = match open.remove(&doc) {
                Some(given) => given,
                None => cache.get(ws, &doc, || {
                    self.session(&doc)
                        .map_err(|e| e.info())
                        .and_then(|s| doc_items(&s, self.unit))
                }),
            };
            match read {
                Ok(d) => items.push((doc, d)),
                Err(error) => errors.push(views::DocError {
                    document: doc.to_string(),
                    error,
                }),
            }
        }
        Ok(assemble(self.unit, items, errors, filter))
    }
}
