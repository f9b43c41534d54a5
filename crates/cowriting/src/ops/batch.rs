//! Batch decisions (`cowriting accept DOC --all`, `reject DOC --all`): every
//! proposal of a document a [`BatchFilter`] keeps (a turn, a producer),
//! decided in one transaction of the document's [`Session`] — the sidecar, the
//! pending ledger file, the text and the decision log each written once for
//! the lot, however many there are.
//!
//! Accept takes the pending proposals only: a stale or orphaned one (its text
//! changed or gone, or turned stale by an earlier accept of the batch whose
//! target overlapped its own) is passed over and answered as skipped, never an
//! error of the batch. Reject takes every one kept, whatever its state. A
//! replacement holding hidden characters the writer did not confirm refuses
//! the whole batch before anything is decided (`needs_confirmation`).

use super::*;
use std::collections::HashSet;

/// Which decision a batch makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchDecision {
    Accept,
    Reject,
}

/// Which proposals of a document a batch takes; `None` takes every one.
#[derive(Clone, Debug, Default)]
pub struct BatchFilter {
    /// Only the proposals of this turn (`turnId`).
    pub turn: Option<String>,
    /// Only the proposals of this producer: its contract producer id (`harper`,
    /// `claude`), or the author's id or label; any case (as the inbox's filter).
    pub producer: Option<String>,
}

impl BatchFilter {
    /// Whether `p` is one the batch takes, whatever its state.
    pub fn keeps(&self, p: &views::ProposalDto) -> bool {
        self.turn
            .as_deref()
            .is_none_or(|t| p.turn_id.as_deref() == Some(t))
            && self
                .producer
                .as_deref()
                .is_none_or(|want| inbox::producer_matches(want, &views::producer_of(p), &p.author))
    }
}

/// The proposals of a batch, as `s` has them now: the ids to decide, and the
/// ones kept by the filter that cannot be (for an accept: stale, orphaned).
pub fn select(
    s: &Session,
    decision: BatchDecision,
    filter: &BatchFilter,
) -> (Vec<String>, Vec<SkippedProposal>) {
    let (mut take, mut skip) = (Vec::new(), Vec::new());
    for p in views::proposals(s, Unit::Byte) {
        if !filter.keeps(&p) {
            continue;
        }
        if decision == BatchDecision::Reject || p.state == ProposalState::Pending {
            take.push(p.id);
        } else {
            skip.push(SkippedProposal {
                reason: p
                    .reason
                    .unwrap_or_else(|| format!("it is {}", state_name(p.state))),
                id: p.id,
                state: p.state,
            });
        }
    }
    (take, skip)
}

fn state_name(s: ProposalState) -> &'static str {
    match s {
        ProposalState::Pending => "pending",
        ProposalState::Stale => "stale",
        ProposalState::Orphaned => "orphaned",
    }
}

impl Ops {
    /// Decide every proposal of `doc` that `filter` keeps, in one transaction
    /// (see the module docs). With `confirm_hidden` the writer saw the hidden
    /// characters of the replacements; without it a batch holding any is
    /// refused whole with `needs_confirmation` and nothing is decided.
    pub fn decide_all(
        &self,
        doc: &str,
        decision: BatchDecision,
        filter: &BatchFilter,
        confirm_hidden: bool,
    ) -> Result<BatchOut> {
        let mut s = self.review(doc)?;
        let (ids, mut skipped) = select(&s, decision, filter);
        let matched = ids.len() + skipped.len();
        let mut decided = Vec::new();
        if !ids.is_empty() {
            match decision {
                BatchDecision::Accept => {
                    if confirm_hidden {
                        s.confirm_hidden(ids.iter().cloned());
                    }
                    let done = s.accept_batch_and_save(&ids)?;
                    let passed: HashSet<&str> = done.skipped.iter().map(|(id, _)| id.as_str()).collect();
                    let left: HashSet<String> = s.proposals().into_iter().map(|v| v.proposal.id).collect();
                    for (id, e) in &done.skipped {
                        skipped.push(SkippedProposal {
                            id: id.clone(),
                            state: if e.code() == cowriting_workspace::error::ErrorCode::Orphaned {
                                ProposalState::Orphaned
                            } else {
                                ProposalState::Stale
                            },
                            reason: e.to_string(),
                        });
                    }
                    decided = ids
                        .into_iter()
                        .filter(|id| !passed.contains(id.as_str()) && !left.contains(id))
                        .collect();
                }
                BatchDecision::Reject => {
                    s.reject_all(&ids)?;
                    // Another writer may have decided some since they were listed.
                    let left: HashSet<String> = s.proposals().into_iter().map(|v| v.proposal.id).collect();
                    decided = ids.into_iter().filter(|id| !left.contains(id)).collect();
                }
            }
        }
        Ok(BatchOut {
            document: s.doc_path().to_string(),
            outcome: match decision {
                BatchDecision::Accept => DecidedOutcome::Accepted,
                BatchDecision::Reject => DecidedOutcome::Rejected,
            },
            counts: BatchCounts {
                matched: matched as u32,
                decided: decided.len() as u32,
                skipped: skipped.len() as u32,
            },
            decided,
            skipped,
            warnings: s.take_warnings(),
        })
    }
}
