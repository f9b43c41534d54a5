//! Editing: every change through one place (`apply_with`, which maps every
//! position-bearing thing), undo and redo with their review steps, and the text
//! on disk (reload, keep the buffer, merge the two).

use super::*;

impl Session {
    pub(super) fn snapshot(&self) -> Snapshot {
        Snapshot {
            spans: self.spans.clone(),
            tracked: self.tracked.clone(),
        }
    }

    /// Apply a human edit: the text changes, every anchor and span maps through
    /// the change, and the inserted text is attributed to this session's human.
    pub fn apply_change(&mut self, change: &ChangeSet, kind: EditKind) -> Result<()> {
        let who = SpanAuthor {
            author: self.identity.clone(),
            turn_id: None,
            instruction: None,
            created_at: now_iso(),
        };
        let paints = change
            .inserted_ranges()
            .into_iter()
            .map(|r| (r, Some(who.clone())))
            .collect();
        self.apply_with(change, kind, paints, Vec::new())
    }

    /// Replace `range` with `text` as a human edit (a convenience over
    /// [`Session::apply_change`]).
    pub fn replace(&mut self, range: CharRange, text: &str, kind: EditKind) -> Result<()> {
        let change = ChangeSet::replace(self.doc.len_chars(), range, text).map_err(|e| Error::Document {
            path: self.doc_path.to_string(),
            source: e.into(),
        })?;
        self.apply_change(&change, kind)
    }

    /// Apply `change` and give each of `paints` (ranges of the text after it)
    /// to its author, as one undo step: how authorship brought from another
    /// tool (iA Writer's annotations) becomes spans. Saved with the next save.
    pub fn attribute(&mut self, change: &ChangeSet, paints: Vec<(CharRange, SpanAuthor)>) -> Result<()> {
        let paints = paints.into_iter().map(|(r, who)| (r, Some(who))).collect();
        self.apply_with(change, EditKind::Other, paints, Vec::new())
    }

    /// The one place a change is applied and everything with a position maps.
    pub(super) fn apply_with(
        &mut self,
        change: &ChangeSet,
        kind: EditKind,
        paints: Vec<(CharRange, Option<SpanAuthor>)>,
        review: Vec<ReviewOp>,
    ) -> Result<()> {
        let inverse = change.invert(self.doc.rope());
        // A keystroke that joins the current typing group needs no snapshot
        // (cloning every span per keystroke would be the slow path).
        let before = if self.history.joins_group(change, kind, !review.is_empty()) {
            None
        } else {
            Some(self.snapshot())
        };
        if !change.is_identity() {
            self.doc.apply(change).map_err(|source| Error::Document {
                path: self.doc_path.to_string(),
                source,
            })?;
            self.map_positions(change);
        }
        for (range, who) in paints {
            self.spans.paint(range, who);
        }
        self.history.record(change.clone(), inverse, kind, review, before);
        #[cfg(debug_assertions)]
        self.check_invariants();
        Ok(())
    }

    /// Panics naming the invariant that does not hold:
    /// 1. every tracked anchor range lies within the text;
    /// 2. every tracked anchor is an anchor of the sidecar as the session has it;
    /// 3. every relocated anchor is tracked;
    /// 4. every pinned range lies within the text;
    /// 5. the attribution spans keep their own invariants and lie within the text.
    ///
    /// Run after every change in debug builds and by the randomized tests
    /// (`tests/proptest_core.rs`); O(anchors + spans).
    pub fn check_invariants(&self) {
        let len = self.doc.len_chars();
        for (id, r) in &self.tracked {
            assert!(
                r.start <= r.end && r.end.0 <= len,
                "Session invariant 1: anchor {id} at {r:?} is outside the text ({len} chars)"
            );
            assert!(
                self.artifact.anchors.contains_key(id),
                "Session invariant 2: tracked anchor {id} is not in the sidecar"
            );
        }
        for id in &self.relocated {
            assert!(
                self.tracked.contains_key(id),
                "Session invariant 3: relocated anchor {id} is not tracked"
            );
        }
        for (key, r) in &self.pins {
            assert!(
                r.start <= r.end && r.end.0 <= len,
                "Session invariant 4: pin {key} at {r:?} is outside the text ({len} chars)"
            );
        }
        self.spans.check_invariants();
        if let Some(last) = self.spans.iter().last() {
            assert!(
                last.range.end.0 <= len,
                "Session invariant 5: a span ends at {:?}, past the text ({len} chars)",
                last.range.end
            );
        }
    }

    pub(super) fn map_positions(&mut self, change: &ChangeSet) {
        let Some(touched) = change.touched_range() else {
            return;
        };
        let delta = change.len_after() as isize - change.len() as isize;
        self.tracked.retain(|_, r| {
            if r.end < touched.start || (r.end == touched.start && !r.is_empty()) {
                true
            } else if r.start > touched.end || (r.start == touched.end && !r.is_empty()) {
                r.start.0 = (r.start.0 as isize + delta) as usize;
                r.end.0 = (r.end.0 as isize + delta) as usize;
                true
            } else {
                match change.map_range(*r, RangeAssoc::Exclusive) {
                    Some(m) => {
                        *r = m;
                        true
                    }
                    None => false,
                }
            }
        });
        self.spans.map(change);
        for t in self.trackers.values_mut() {
            // Both are of this text: composing cannot fail.
            if let Ok(c) = t.compose(change) {
                *t = c;
            }
        }
        self.pins
            .retain(|_, r| match change.map_range(*r, RangeAssoc::Exclusive) {
                Some(m) => {
                    *r = m;
                    true
                }
                None => false,
            });
    }

    /// Undo the last step: text, positions, and any review decision it made
    /// (an accepted or rejected proposal is pending again). Returns the change
    /// applied to the text (an identity change for a reject), or `None` when
    /// there is nothing to undo. An undone decision that had reached the disk is
    /// written back with the text at the next save (at once for a reject, which
    /// changes no text).
    pub fn undo(&mut self) -> Result<Option<ChangeSet>> {
        let Some(mut entry) = self.history.pop_undo() else {
            return Ok(None);
        };
        if let Err(e) = self.review_step(&entry.review, entry.change.is_identity(), true) {
            self.history.push_undo(entry);
            return Err(e);
        }
        let after = self.snapshot();
        self.doc.apply(&entry.inverse).map_err(|source| Error::Document {
            path: self.doc_path.to_string(),
            source,
        })?;
        self.map_positions(&entry.inverse);
        self.restore(&entry.before);
        entry.after = Some(after);
        let change = entry.inverse.clone();
        self.history.push_redo(entry);
        self.refresh();
        Ok(Some(change))
    }

    /// Redo the last undone step. Returns the change applied to the text, or
    /// `None` when there is nothing to redo.
    pub fn redo(&mut self) -> Result<Option<ChangeSet>> {
        let Some(entry) = self.history.pop_redo() else {
            return Ok(None);
        };
        if let Err(e) = self.review_step(&entry.review, entry.change.is_identity(), false) {
            self.history.push_redo(entry);
            return Err(e);
        }
        self.doc.apply(&entry.change).map_err(|source| Error::Document {
            path: self.doc_path.to_string(),
            source,
        })?;
        self.map_positions(&entry.change);
        if let Some(after) = &entry.after {
            self.restore(after);
        }
        let change = entry.change.clone();
        self.history.push_undo(entry);
        self.refresh();
        Ok(Some(change))
    }

    /// The review half of an undo (`undo`) or redo of a step's decisions. A
    /// decision still unsaved is simply taken back (or put back); one on disk
    /// becomes an unsaved decision the other way — or, when the step changes no
    /// text and nothing about the proposal is unsaved, is written at once.
    pub(super) fn review_step(&mut self, review: &[ReviewOp], no_text: bool, undo: bool) -> Result<()> {
        if review.is_empty() {
            return Ok(());
        }
        let ops: Vec<Unsaved> = review
            .iter()
            .map(
                |ReviewOp::ProposalDecided {
                     proposal,
                     anchor,
                     outcome,
                     chosen,
                 }| {
                    if undo {
                        Unsaved::Restored {
                            proposal: proposal.clone(),
                            anchor: anchor.clone(),
                        }
                    } else {
                        Unsaved::Decided {
                            proposal: proposal.clone(),
                            anchor: anchor.clone(),
                            outcome: *outcome,
                            chosen: chosen.clone(),
                            members: None,
                        }
                    }
                },
            )
            .collect();
        let mut now = Vec::new();
        for op in ops {
            let takes_back = |o: &Unsaved| {
                matches!(
                    (o, undo),
                    (Unsaved::Decided { .. }, true) | (Unsaved::Restored { .. }, false)
                )
            };
            match self.last_unsaved(op.id()) {
                Some(i) if takes_back(&self.unsaved[i]) => {
                    self.unsaved.remove(i);
                }
                Some(_) => self.unsaved.push(op),
                None if no_text => now.push(op),
                None => self.unsaved.push(op),
            }
        }
        if now.is_empty() {
            return Ok(());
        }
        for attempt in 0..REDO_LIMIT {
            if attempt > 0 {
                crate::fsutil::backoff(attempt);
            }
            let lock = lock_existing(&self.store, &self.doc_path)?;
            match self.commit_ops(&lock, if undo { "undo" } else { "redo" }, &now, false) {
                Ok(after) => {
                    self.adopt(after);
                    drop(lock);
                    self.sweep_strays();
                    return Ok(());
                }
                Err(CommitError::Changed) => continue,
                Err(CommitError::Failed(e)) => return Err(e),
            }
        }
        Err(self.gave_up("decision"))
    }

    /// Restore spans, and the live ranges the snapshot knew (anchors added since
    /// keep their mapped ranges).
    pub(super) fn restore(&mut self, snap: &Snapshot) {
        self.spans = snap.spans.clone();
        for (id, r) in &snap.tracked {
            self.tracked.insert(id.clone(), *r);
        }
    }

    /// End the current typing group.
    pub fn seal_undo_group(&mut self) {
        self.history.seal();
    }

    /// The document's file as it is on disk now (to compare with the buffer).
    pub fn disk_document(&self) -> Result<Document> {
        self.store.workspace().read_document(&self.doc_path)
    }

    /// Whether the file on disk differs from what this session last loaded or saved.
    pub fn changed_on_disk(&self) -> Result<bool> {
        let disk = self.disk_document()?;
        Ok(*disk.rope() != self.saved || disk.has_bom() != self.saved_bom)
    }

    /// Load the file from disk into the buffer (another program changed it). The
    /// change is a diff, so anchors on text that did not change keep their place;
    /// the attribution spans are then those of the file's sidecar (the buffer is
    /// the file now), and decisions taken on the old buffer are dropped with it.
    /// It is an undo step like any other. Returns the change, or `None` when the
    /// text is the same.
    pub fn reload_from_disk(&mut self) -> Result<Option<ChangeSet>> {
        let disk = self.disk_document()?;
        self.saved = disk.rope().clone();
        self.saved_bom = disk.has_bom();
        self.saved_sha = Default::default();
        self.base_unknown = false;
        // The buffer becomes the file: decisions taken on the old buffer go with it.
        if !self.unsaved.is_empty() {
            self.unsaved.clear();
            self.refresh();
        }
        if disk.rope() == self.doc.rope() {
            self.doc.set_bom(disk.has_bom());
            return Ok(None);
        }
        let change = cowriting_core::diff::text_change(&self.doc.flatten(), &disk.flatten());
        self.apply_with(&change, EditKind::Other, Vec::new(), Vec::new())?;
        self.doc.set_bom(disk.has_bom());
        self.history.seal();
        // The buffer is now the file: who wrote what is what its sidecar says
        // (another writer's accept attributed its words there).
        if let Ok(Some(a)) = self.store.load(&self.doc_path) {
            self.load_spans(&a);
            self.adopt(a);
        }
        Ok(Some(change))
    }

    /// The text the buffer was loaded from or last saved as: the base of a
    /// merge with the file on disk ([`cowriting_core::merge`]). `None` when it
    /// is not known: the buffer was restored after a crash from a backup made
    /// on a file that has changed since.
    pub fn merge_base(&self) -> Option<String> {
        (!self.base_unknown).then(|| self.saved.to_string())
    }

    /// The writer merged their text with the file on disk (`theirs`, as read
    /// for the merge): `merged` becomes the buffer as the writer's own edit —
    /// one undo step, through [`Session::apply_change`], so attribution,
    /// anchors and pins map through it and only the words that differ are
    /// painted as the writer's — and `theirs` is what the buffer is based on
    /// now: the next save writes over it, and a later change on disk is a
    /// conflict again. Returns the change, or `None` when the text is the same.
    pub fn apply_merge(&mut self, merged: &str, theirs: &Document) -> Result<Option<ChangeSet>> {
        self.history.seal();
        let change = (self.doc.rope() != merged)
            .then(|| cowriting_core::diff::text_change(&self.doc.flatten(), merged));
        if let Some(change) = &change {
            self.apply_change(change, EditKind::Other)?;
            self.history.seal();
        }
        self.saved = theirs.rope().clone();
        self.saved_bom = theirs.has_bom();
        self.saved_sha = Default::default();
        self.base_unknown = false;
        Ok(change)
    }

    /// Treat the file on disk as seen (the writer chose "keep mine"): the buffer
    /// stays, is dirty, and the next save overwrites the file.
    pub fn keep_buffer(&mut self) -> Result<()> {
        let disk = self.disk_document()?;
        self.saved = disk.rope().clone();
        self.saved_bom = disk.has_bom();
        self.saved_sha = Default::default();
        self.base_unknown = false;
        Ok(())
    }
}
