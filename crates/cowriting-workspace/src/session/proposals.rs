//! Proposals: filing one (INV-10) — once: what is already pending is found
//! first — accept (INV-11, exactly where its text is), accept or reject a whole
//! turn, reject.

use super::*;

/// What a new proposal would meet among the pending ones
/// ([`Session::pending_overlaps`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overlaps {
    /// The sidecar id of a pending proposal by the same author (the same
    /// author kind and id: one client, whatever model it names) with the same
    /// target range and the same replacement: the new one would be a duplicate.
    pub identical: Option<String>,
    /// The sidecar ids of the other pending proposals, by anyone, whose targets
    /// overlap (accepting one turns the others stale, INV-11), in sidecar order.
    pub overlapping: Vec<String>,
}

/// What [`Session::accept_batch_and_save`] did.
#[derive(Debug)]
pub struct BatchAccepted {
    /// The change applied to the text (all the accepts, composed).
    pub change: ChangeSet,
    /// The proposals passed over, with why (stale or orphaned), in the order asked.
    pub skipped: Vec<(String, Error)>,
}

/// What [`Session::propose_suggestion_once`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proposed {
    /// The sidecar id (`pr_…`) of the proposal: the new one, or the identical
    /// one that was already pending.
    pub id: String,
    /// The new proposal's ids; `None` when nothing was filed because the same
    /// proposal was already pending.
    pub filed: Option<Filed>,
    /// Pending proposals whose targets overlap this one's (itself excluded).
    pub overlapping: Vec<String>,
}

impl Proposed {
    /// Nothing was filed: the same proposal by the same author was pending.
    pub fn already_pending(&self) -> bool {
        self.filed.is_none()
    }
}

/// Whether two targets meet: they share a char, or an insertion point is
/// strictly inside the other target, or both are insertions at one point.
/// (Ranges that only touch do not: accepting one leaves the other's text.)
fn targets_meet(a: CharRange, b: CharRange) -> bool {
    match (a.is_empty(), b.is_empty()) {
        (false, false) => a.overlaps(&b),
        (true, true) => a.start == b.start,
        (true, false) => b.start < a.start && a.start < b.end,
        (false, true) => a.start < b.start && b.start < a.end,
    }
}

impl Session {
    /// What a proposal by `author` to replace `range` with `replacement` would
    /// meet among the pending proposals (those whose target text is there
    /// exactly; stale and orphaned ones cannot be accepted as they are). A
    /// query: nothing is written.
    pub fn pending_overlaps(&self, range: CharRange, replacement: &str, author: &Provenance) -> Overlaps {
        let mut out = Overlaps::default();
        let resolver = Resolver::new(&self.doc);
        for p in &self.artifact.proposals {
            let Some(r) = self.pending_range(p, &resolver) else {
                continue;
            };
            let same = r == range
                && p.replacement == replacement
                && p.author.kind == author.kind
                && p.author.id == author.id;
            if same && out.identical.is_none() {
                out.identical = Some(p.id.clone());
            } else if targets_meet(r, range) {
                out.overlapping.push(p.id.clone());
            }
        }
        out
    }

    /// Every pending proposal with its range, in the sidecar's order: what
    /// [`Session::proposals`] says of them without the rest of the view (a
    /// client indexes it once for many lookups).
    pub fn pending_ranges(&self) -> Vec<(CharRange, &Proposal)> {
        let resolver = Resolver::new(&self.doc);
        self.artifact
            .proposals
            .iter()
            .filter_map(|p| Some((self.pending_range(p, &resolver)?, p)))
            .collect()
    }

    /// Where `p` is, when it is pending: its state in [`Session::proposals`]
    /// without the rest of the view.
    fn pending_range(&self, p: &Proposal, resolver: &Resolver<'_>) -> Option<CharRange> {
        let fp = self.artifact.fingerprint(&p.anchor_id)?;
        match self.tracked.get(&p.anchor_id) {
            Some(&r) => (r.end.0 <= self.doc.len_chars() && self.doc.slice(r) == fp.text).then_some(r),
            None => match resolver.resolve(fp, None) {
                Resolution::Found(r) => Some(r),
                _ => None,
            },
        }
    }

    /// [`Session::propose_suggestion`], once: when the same author already
    /// has the same proposal pending (the same target range and replacement),
    /// nothing is filed and that one is returned; otherwise the proposal is
    /// filed. Either way the pending proposals its target overlaps are named.
    /// (The check reads the sidecar as this session last read it, just before
    /// filing.)
    pub fn propose_suggestion_once(
        &mut self,
        range: CharRange,
        replacement: &str,
        producer: &contract::Producer,
        category: &str,
        reason: &str,
        opts: ProposeOptions,
    ) -> Result<Proposed> {
        self.check_range(range)?;
        self.check_sidecar()?;
        let met = self.pending_overlaps(range, replacement, &opts.author);
        if let Some(id) = met.identical {
            return Ok(Proposed {
                id,
                filed: None,
                overlapping: met.overlapping,
            });
        }
        let filed = self.propose_suggestion(range, replacement, producer, category, reason, opts)?;
        Ok(Proposed {
            id: filed.sidecar_id.clone(),
            filed: Some(filed),
            overlapping: met.overlapping,
        })
    }

    /// File a proposal to replace `range` with `replacement`. The document is not
    /// touched (INV-10); the proposal is in the sidecar when this returns.
    pub fn propose(&mut self, range: CharRange, replacement: &str, opts: ProposeOptions) -> Result<String> {
        self.check_range(range)?;
        let target = self.doc.slice(range);
        if target == replacement {
            return Err(Error::BadInput(format!(
                "the replacement is the same as the target text {target:?}; nothing to propose"
            )));
        }
        let fingerprint = build_fingerprint(&self.doc, range);
        let anchor_id = new_id("a");
        let id = new_id("pr");
        let proposal = Proposal {
            id: id.clone(),
            anchor_id: anchor_id.clone(),
            replacement: replacement.to_owned(),
            author: opts.author,
            created_at: now_iso(),
            turn_id: opts.turn_id,
            instruction: opts.instruction,
            extra: Extra::new(),
        };
        self.add_anchored(range, anchor_id, fingerprint, |a| {
            a.proposals.push(proposal.clone())
        })?;
        Ok(id)
    }

    /// Persist a new record on a new anchor for `range` (read-modify-write), and
    /// track the anchor live.
    pub(super) fn add_anchored(
        &mut self,
        range: CharRange,
        anchor_id: String,
        fingerprint: cowriting_core::model::Fingerprint,
        push: impl Fn(&mut Artifact),
    ) -> Result<()> {
        self.update(|a| {
            a.anchors.insert(
                anchor_id.clone(),
                Anchor {
                    fingerprint: fingerprint.clone(),
                    extra: Extra::new(),
                },
            );
            push(a);
            Ok(())
        })?;
        self.tracked.insert(anchor_id, range);
        Ok(())
    }

    pub(super) fn check_range(&self, range: CharRange) -> Result<()> {
        if range.start > range.end || range.end.0 > self.doc.len_chars() {
            return Err(Error::BadInput(format!(
                "range {range} is outside {} ({} chars)",
                self.doc_path,
                self.doc.len_chars()
            )));
        }
        Ok(())
    }

    /// Accept a proposal (a human gesture, INV-12): its replacement — or the
    /// human's edited version `with` — replaces the target text in the buffer,
    /// attributed word by word; the proposal leaves the sidecar, and the decision
    /// is logged, when the buffer is saved (until then the decision is unsaved
    /// and the buffer dirty). Refused when the proposal is stale or orphaned
    /// (INV-11). Undo brings it back. Returns the change applied to the text.
    pub fn accept(&mut self, id: &str, with: Option<&str>) -> Result<ChangeSet> {
        self.accept_impl(id, with, false)
    }

    /// [`Session::accept`], then save, as one transaction ([`crate::txn`]): the
    /// sidecar, the ledger entry, the document (the commit point) and the
    /// decision log. A crash anywhere leaves the proposal pending with the text
    /// untouched, or decided with its text in place — never applied twice.
    pub fn accept_and_save(&mut self, id: &str, with: Option<&str>) -> Result<ChangeSet> {
        self.accept_impl(id, with, true)
    }

    pub(super) fn accept_impl(&mut self, id: &str, with: Option<&str>, save: bool) -> Result<ChangeSet> {
        for attempt in 0..REDO_LIMIT {
            if attempt > 0 {
                crate::fsutil::backoff(attempt);
            }
            let lock = lock_existing(&self.store, &self.doc_path)?;
            // Decide on what is on disk now, not on what this session last saw.
            self.check_sidecar()?;
            if save && !self.is_dirty() && self.changed_on_disk()? {
                self.reload_from_disk()?;
            }
            let fresh = self.store.load_or_empty(&self.doc_path)?;
            self.adopt(fresh);
            let unsaved_before = self.unsaved.len();
            let change = self.accept_in_buffer(id, with)?;
            if !save {
                return Ok(change);
            }
            if self.commit_accept_step(lock, unsaved_before)? {
                return Ok(change);
            }
        }
        Err(self.gave_up("accept"))
    }

    /// The buffer half of an accept: checks, the change, the paint, the undo
    /// step and the unsaved decision.
    pub(super) fn accept_in_buffer(&mut self, id: &str, with: Option<&str>) -> Result<ChangeSet> {
        let change = self.accept_checked(id, with, |s, id, range| s.revalidate_entry(id, range))?;
        self.refresh();
        Ok(change)
    }

    /// [`Session::accept_in_buffer`] with the contract check `members` (the
    /// proposal's ledger members as they hold before the change, given its id and
    /// its range now). The caller refreshes the shown sidecar afterwards (once,
    /// for a batch: a refresh per proposal made accepting n of them O(n²)).
    fn accept_checked(
        &mut self,
        id: &str,
        with: Option<&str>,
        members: impl FnOnce(&mut Self, &str, CharRange) -> Result<Option<Vec<Suggestion>>>,
    ) -> Result<ChangeSet> {
        let view = self.proposal(id)?;
        let range = match view.state {
            ProposalState::Pending => view.range.expect("a pending proposal has a range"),
            // Its exact text at a likely place the writer looked at and confirmed.
            ProposalState::Stale
                if view.likely_place
                    && self.confirmed_places.contains(id)
                    && view.range.is_some()
                    && view.current.as_deref() == Some(view.target.as_str()) =>
            {
                view.range.expect("checked")
            }
            ProposalState::Stale => {
                return Err(Error::Stale {
                    id: id.to_owned(),
                    reason: view.reason.unwrap_or_default(),
                })
            }
            ProposalState::Orphaned => {
                return Err(Error::Orphaned {
                    id: id.to_owned(),
                    target: view.target,
                })
            }
        };
        let p = view.proposal;
        if with.is_none_or(|w| w == p.replacement) {
            self.check_confirmed(&p.id, &p.replacement, Some(range))?;
        }
        // Before application the contract record must hold (or be migrated
        // explicitly); a member whose text is gone is a stale-span conflict.
        let members = members(self, &p.id, range)?;
        let anchor = self.artifact.anchors[&p.anchor_id].clone();
        let final_text = with.unwrap_or(&p.replacement).to_owned();
        let outcome = match with {
            Some(w) if w != p.replacement => Outcome::Changed,
            _ => Outcome::Accepted,
        };
        let change = word_change(self.doc.len_chars(), range, &view.target, &final_text);
        let paints = self.accept_paints(&change, range, &p, &final_text, with.is_some());
        let review = vec![ReviewOp::ProposalDecided {
            proposal: p.clone(),
            anchor: anchor.clone(),
            outcome,
            chosen: Some(final_text.clone()),
        }];
        self.apply_with(&change, EditKind::Other, paints, review)?;
        self.tracked.remove(&p.anchor_id);
        self.unsaved.push(Unsaved::Decided {
            proposal: p,
            anchor,
            outcome,
            chosen: Some(final_text),
            members,
        });
        Ok(change)
    }

    /// The writer saw and confirmed the hidden characters of these proposals
    /// (a client asked): their accept may insert them. Kept for the session.
    pub fn confirm_hidden<I: IntoIterator<Item = S>, S: Into<String>>(&mut self, ids: I) {
        self.confirmed_hidden.extend(ids.into_iter().map(Into::into));
    }

    /// The writer looked at where these proposals were likely placed (their
    /// exact text, found where the words around it changed) and confirmed it:
    /// accept applies them there. A proposal whose place is not likely (or no
    /// longer is) is not affected. Kept for the session.
    pub fn confirm_place<I: IntoIterator<Item = S>, S: Into<String>>(&mut self, ids: I) {
        self.confirmed_places.extend(ids.into_iter().map(Into::into));
    }

    /// The characters of `replacement`, put in place of `range`, that a
    /// reader cannot see, that reorder the text, or that pass for Latin
    /// letters in the line it lands in ([`cowriting_core::hidden::hidden_chars_in`]).
    pub fn hidden_in(
        &self,
        replacement: &str,
        range: Option<CharRange>,
    ) -> Vec<cowriting_core::hidden::HiddenChar> {
        let Some(r) = range.filter(|r| r.end.0 <= self.doc.len_chars()) else {
            return cowriting_core::hidden::hidden_chars(replacement);
        };
        // Its line, up to 200 chars either side.
        const SIDE: usize = 200;
        let rope = self.doc.rope();
        let from = r.start.0.saturating_sub(SIDE);
        let before: String = rope.slice(from..r.start.0).chars().collect();
        let before = before.rsplit('\n').next().unwrap_or_default();
        let to = (r.end.0 + SIDE).min(rope.len_chars());
        let after: String = rope.slice(r.end.0..to).chars().collect();
        let after = after.split('\n').next().unwrap_or_default();
        cowriting_core::hidden::hidden_chars_in(before, replacement, after)
    }

    /// Refused unless confirmed: a replacement holding characters a reader
    /// cannot see, that reorder the text around them ([`cowriting_core::hidden`])
    /// or that pass for Latin letters where it lands, is not what the writer saw.
    fn check_confirmed(&self, id: &str, replacement: &str, range: Option<CharRange>) -> Result<()> {
        if self.confirmed_hidden.contains(id) {
            return Ok(());
        }
        let hidden = self.hidden_in(replacement, range);
        if hidden.is_empty() {
            return Ok(());
        }
        Err(Error::HiddenUnconfirmed {
            id: id.to_owned(),
            chars: hidden
                .iter()
                .map(|h| format!("{} {}", h.code_point, h.name))
                .collect::<Vec<_>>()
                .join(", "),
        })
    }

    /// Every one of `ids` that would insert hidden characters is confirmed: a
    /// batch is refused whole, before it decides anything.
    fn check_all_confirmed(&self, ids: &[String]) -> Result<()> {
        let asked: HashSet<&str> = ids.iter().map(String::as_str).collect();
        let resolver = Resolver::new(&self.doc);
        for p in &self.artifact.proposals {
            if asked.contains(p.id.as_str()) {
                self.check_confirmed(&p.id, &p.replacement, self.pending_range(p, &resolver))?;
            }
        }
        Ok(())
    }

    /// The ids of a turn's proposals, in document order: the pending ones (what
    /// can be accepted), or all of them whatever their state.
    pub fn turn_proposals(&self, turn: &str, pending_only: bool) -> Vec<String> {
        self.proposals()
            .into_iter()
            .filter(|v| v.proposal.turn_id.as_deref() == Some(turn))
            .filter(|v| !pending_only || v.state == ProposalState::Pending)
            .map(|v| v.proposal.id)
            .collect()
    }

    /// Accept every pending proposal of a turn, as one undo step
    /// ([`Session::accept_all`]); refused when the turn has none.
    pub fn accept_turn(&mut self, turn: &str) -> Result<ChangeSet> {
        let ids = self.turn_proposals(turn, true);
        if ids.is_empty() {
            return Err(Error::BadInput(format!(
                "turn {turn} has no acceptable proposal in {}",
                self.doc_path
            )));
        }
        self.accept_all(&ids)
    }

    /// Reject every proposal of a turn, whatever its state, as one undo step
    /// ([`Session::reject_all`]); refused when the turn has none.
    pub fn reject_turn(&mut self, turn: &str) -> Result<()> {
        let ids = self.turn_proposals(turn, false);
        if ids.is_empty() {
            return Err(Error::BadInput(format!(
                "turn {turn} has no proposal in {}",
                self.doc_path
            )));
        }
        self.reject_all(&ids)
    }

    /// Accept several proposals as one undo step (accept all of a turn). Stops at
    /// the first that cannot be accepted, leaving the ones before it accepted;
    /// returns the combined change. Refused whole, before anything is decided,
    /// when one would insert hidden characters not confirmed
    /// ([`Session::confirm_hidden`]).
    ///
    /// One gesture, one read: the sidecar is read once, and every proposal's
    /// contract members are checked (and carried over) against the bytes as they
    /// are before the first accept — one hash of the document and one ledger
    /// read for the lot, not one per proposal.
    pub fn accept_all(&mut self, ids: &[String]) -> Result<ChangeSet> {
        self.accept_all_impl(ids, false, None)
    }

    /// [`Session::accept_all`], then save, as one transaction ([`crate::txn`]):
    /// the sidecar, the pending ledger file, the document (the commit point) and
    /// the decision log are each written once for the whole batch, under one
    /// hold of the document's lock. A crash anywhere leaves every proposal of
    /// the batch pending with the text untouched, or every one decided.
    pub fn accept_all_and_save(&mut self, ids: &[String]) -> Result<ChangeSet> {
        self.accept_all_impl(ids, true, None)
    }

    /// A batch of accepts (`cowriting accept --all`): [`Session::accept_all_and_save`],
    /// except that a proposal that cannot be accepted as it is now — stale or
    /// orphaned, perhaps by an earlier accept of the batch whose target
    /// overlapped its own — is passed over and answered in
    /// [`BatchAccepted::skipped`] instead of stopping the batch. Hidden
    /// characters not confirmed still refuse the whole batch first.
    pub fn accept_batch_and_save(&mut self, ids: &[String]) -> Result<BatchAccepted> {
        let mut skipped = Vec::new();
        let change = self.accept_all_impl(ids, true, Some(&mut skipped))?;
        Ok(BatchAccepted { change, skipped })
    }

    fn accept_all_impl(
        &mut self,
        ids: &[String],
        save: bool,
        mut skipped: Option<&mut Vec<(String, Error)>>,
    ) -> Result<ChangeSet> {
        if ids.is_empty() {
            return Err(Error::BadInput("no proposals to accept".into()));
        }
        // Each once: the shown sidecar is refreshed only after the batch, so a
        // repeated id must not find its proposal's target text a second time.
        let mut seen = HashSet::new();
        let ids: Vec<String> = ids
            .iter()
            .filter(|id| seen.insert(id.as_str()))
            .cloned()
            .collect();
        let ids = &ids[..];
        for attempt in 0..REDO_LIMIT {
            if attempt > 0 {
                crate::fsutil::backoff(attempt);
            }
            let lock = lock_existing(&self.store, &self.doc_path)?;
            self.check_sidecar()?;
            if save && !self.is_dirty() && self.changed_on_disk()? {
                self.reload_from_disk()?;
            }
            let fresh = self.store.load_or_empty(&self.doc_path)?;
            self.adopt(fresh);
            let lock = if save {
                Some(lock)
            } else {
                drop(lock);
                None
            };
            self.check_all_confirmed(ids)?;
            let mut checked = self.revalidate_entries(ids);
            let unsaved_before = self.unsaved.len();
            if let Some(list) = skipped.as_deref_mut() {
                list.clear();
            }
            let decided = self.decide_all(ids, |s, id| {
                let members = checked.remove(id).unwrap_or(Ok(None));
                match s.accept_checked(id, None, |_, _, _| members) {
                    Ok(change) => Ok(Some(change)),
                    Err(e) if matches!(e.code(), ErrorCode::Stale | ErrorCode::Orphaned) => {
                        match skipped.as_deref_mut() {
                            Some(list) => {
                                list.push((id.to_owned(), e));
                                Ok(None)
                            }
                            None => Err(e),
                        }
                    }
                    Err(e) => Err(e),
                }
            });
            self.refresh();
            let change = decided?;
            let Some(lock) = lock else {
                return Ok(change);
            };
            if self.unsaved.len() == unsaved_before {
                // Nothing of the batch could be accepted: nothing to write.
                return Ok(change);
            }
            if self.commit_accept_step(lock, unsaved_before)? {
                return Ok(change);
            }
        }
        Err(self.gave_up("accept"))
    }

    /// Write the buffer's last accept step — one accept, or a batch merged into
    /// one undo step: the unsaved decisions from `unsaved_before` on — with
    /// every unsaved decision before it, as one transaction, then release
    /// `lock`. `true` when written; `false` when the files changed under it
    /// (the step is taken back and the caller redoes it on what is there now);
    /// an error when the write failed (taken back too: neither the decisions
    /// nor their text are on disk).
    fn commit_accept_step(&mut self, lock: DocLock, unsaved_before: usize) -> Result<bool> {
        let ops = self.unsaved.clone();
        match self.commit_ops(&lock, "accept", &ops, true) {
            Ok(after) => {
                self.unsaved.clear();
                self.saved_now();
                self.adopt(after);
                drop(lock);
                self.sweep_strays();
                Ok(true)
            }
            Err(e) => {
                self.unsaved.truncate(unsaved_before);
                self.undo_buffer_only();
                self.refresh();
                match e {
                    CommitError::Changed => Ok(false),
                    CommitError::Failed(e) => Err(e),
                }
            }
        }
    }

    /// Reject several proposals as one undo step (reject all of a turn), in one
    /// transaction: one read and one write of the sidecar and the ledger, and one
    /// decision-log append, however many there are. Stops at the first unknown
    /// id, rejecting the ones before it; refused only when none was rejected.
    /// (Those whose acceptance is still unsaved wait for the save, as with
    /// [`Session::reject`].)
    pub fn reject_all(&mut self, ids: &[String]) -> Result<()> {
        if ids.is_empty() {
            return Err(Error::BadInput("no proposals to reject".into()));
        }
        for attempt in 0..REDO_LIMIT {
            if attempt > 0 {
                crate::fsutil::backoff(attempt);
            }
            let lock = lock_existing(&self.store, &self.doc_path)?;
            self.check_sidecar()?;
            let fresh = self.store.load_or_empty(&self.doc_path)?;
            self.adopt(fresh);
            let mut failure = None;
            let mut ops = Vec::with_capacity(ids.len());
            let mut review = Vec::with_capacity(ids.len());
            for id in ids {
                match self.artifact.proposal(id) {
                    Some(p) => {
                        let (op, step) = self.rejection(p.clone());
                        ops.push(op);
                        review.push(step);
                    }
                    None => {
                        failure = Some(self.not_found("proposal", id));
                        break;
                    }
                }
            }
            if ops.is_empty() {
                return Err(failure.unwrap_or_else(|| Error::BadInput("no proposals to reject".into())));
            }
            let (waiting, now): (Vec<Unsaved>, Vec<Unsaved>) = ops
                .into_iter()
                .partition(|op| self.last_unsaved(op.id()).is_some());
            if now.is_empty() {
                self.refresh();
            } else {
                match self.commit_ops(&lock, "reject", &now, false) {
                    Ok(after) => {
                        self.adopt(after);
                        drop(lock);
                        self.sweep_strays();
                    }
                    Err(CommitError::Changed) => continue,
                    Err(CommitError::Failed(e)) => return Err(e),
                }
            }
            if !waiting.is_empty() {
                self.unsaved.extend(waiting);
                self.refresh();
            }
            let identity = ChangeSet::identity(self.doc.len_chars());
            return self.apply_with(&identity, EditKind::Other, Vec::new(), review);
        }
        Err(self.gave_up("reject"))
    }

    /// The rejection of `p`: the decision to write, and its step in the undo history.
    fn rejection(&self, p: Proposal) -> (Unsaved, ReviewOp) {
        let anchor = self
            .artifact
            .anchors
            .get(&p.anchor_id)
            .cloned()
            .unwrap_or_else(|| Anchor {
                fingerprint: Default::default(),
                extra: Extra::new(),
            });
        let review = ReviewOp::ProposalDecided {
            proposal: p.clone(),
            anchor: anchor.clone(),
            outcome: Outcome::Rejected,
            chosen: None,
        };
        let op = Unsaved::Decided {
            proposal: p,
            anchor,
            outcome: Outcome::Rejected,
            chosen: None,
            members: None,
        };
        (op, review)
    }

    /// Decide each of `ids` in turn, then merge what was done into one undo step
    /// (`decide` answers `None` for one it passed over: no step of its own).
    /// The first failure stops it; it is returned only when nothing was decided.
    pub(super) fn decide_all(
        &mut self,
        ids: &[String],
        mut decide: impl FnMut(&mut Self, &str) -> Result<Option<ChangeSet>>,
    ) -> Result<ChangeSet> {
        let mut total = ChangeSet::identity(self.doc.len_chars());
        let mut done = 0;
        let mut failure = None;
        for id in ids {
            match decide(self, id) {
                Ok(Some(c)) => {
                    total = total.compose(&c).expect("consecutive changes compose");
                    done += 1;
                }
                Ok(None) => {}
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        self.history.merge_last(done);
        match failure {
            Some(e) if done == 0 => Err(e),
            _ => Ok(total),
        }
    }

    /// Who gets each inserted piece of an accepted change: the proposal's author
    /// for its words; with accept-with-changes, the human for words the human
    /// changed.
    pub(super) fn accept_paints(
        &self,
        change: &ChangeSet,
        range: CharRange,
        p: &Proposal,
        final_text: &str,
        changed_by_human: bool,
    ) -> Vec<(CharRange, Option<SpanAuthor>)> {
        let now = now_iso();
        let agent = SpanAuthor {
            author: p.author.clone(),
            turn_id: p.turn_id.clone(),
            instruction: p.instruction.clone(),
            created_at: now.clone(),
        };
        let human = SpanAuthor {
            author: self.identity.clone(),
            turn_id: None,
            instruction: None,
            created_at: now,
        };
        let inserted = change.inserted_ranges();
        if !changed_by_human {
            return inserted.into_iter().map(|r| (r, Some(agent.clone()))).collect();
        }
        let kept = chars_kept_from(&p.replacement, final_text);
        let is_agent = |pos: usize| kept.get(pos - range.start.0).copied().unwrap_or(false);
        let mut paints = Vec::new();
        for r in inserted {
            let mut run_start = r.start.0;
            for pos in r.start.0 + 1..=r.end.0 {
                if pos == r.end.0 || is_agent(pos) != is_agent(run_start) {
                    let who = if is_agent(run_start) { &agent } else { &human };
                    paints.push((CharRange::new(run_start, pos), Some(who.clone())));
                    run_start = pos;
                }
            }
        }
        paints
    }

    pub(super) fn undo_buffer_only(&mut self) {
        if let Some(entry) = self.history.pop_undo() {
            if self.doc.apply(&entry.inverse).is_ok() {
                self.map_positions(&entry.inverse);
                self.restore(&entry.before);
            }
        }
    }

    /// Reject a proposal (a human gesture): it leaves the sidecar and the
    /// decision is logged, in one transaction; the document is untouched. Works
    /// whatever the proposal's state. (When a decision about it is still unsaved,
    /// the reject waits for the save too.) Undo brings it back.
    pub fn reject(&mut self, id: &str) -> Result<()> {
        self.reject_all(&[id.to_owned()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_meet_when_they_share_a_char_or_an_insertion_is_inside() {
        let r = CharRange::new;
        assert!(targets_meet(r(2, 5), r(4, 8)));
        assert!(targets_meet(r(2, 5), r(2, 5)));
        assert!(!targets_meet(r(2, 5), r(5, 8)), "touching");
        assert!(targets_meet(r(3, 3), r(2, 5)));
        assert!(
            !targets_meet(r(2, 2), r(2, 5)),
            "an insertion before a target leaves it"
        );
        assert!(
            !targets_meet(r(2, 5), r(5, 5)),
            "an insertion after a target leaves it"
        );
        assert!(targets_meet(r(4, 4), r(4, 4)));
        assert!(!targets_meet(r(4, 4), r(6, 6)));
    }
}
