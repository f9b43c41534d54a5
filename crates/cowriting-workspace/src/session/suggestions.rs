//! The suggestion contract: the bytes producers see, byte ↔ char ranges, filing
//! contract suggestions as proposals, keeping their ledger entries in step with
//! the text (revalidate, migrate at save), pins for a running producer.

use super::*;

impl Session {
    /// The workspace's contract ledger.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// The exact bytes the contract speaks of: the buffer as it would be saved
    /// (BOM included).
    pub fn contract_bytes(&self) -> Vec<u8> {
        self.doc.to_bytes()
    }

    pub(super) fn bom_len(&self) -> usize {
        if self.doc.has_bom() {
            3
        } else {
            0
        }
    }

    /// A contract byte span (into [`Session::contract_bytes`]) as chars.
    pub fn char_range_of(&self, span: FileByteRange) -> Result<CharRange> {
        let bom = self.bom_len();
        if span.start.0 < bom || span.end.0 < span.start.0 {
            return Err(Error::BadInput(format!(
                "byte span {span} is not inside the text of {}",
                self.doc_path
            )));
        }
        let conv = |b: usize| {
            self.doc
                .byte_to_char(ByteOffset(b - bom))
                .map_err(|source| Error::Document {
                    path: self.doc_path.to_string(),
                    source,
                })
        };
        Ok(CharRange {
            start: conv(span.start.0)?,
            end: conv(span.end.0)?,
        })
    }

    /// A char range as a contract byte span (file bytes, a BOM included).
    pub fn file_range_of(&self, range: CharRange) -> FileByteRange {
        let bom = self.bom_len();
        FileByteRange::new(
            self.doc.char_to_byte(range.start).0 + bom,
            self.doc.char_to_byte(range.end).0 + bom,
        )
    }

    /// File contract suggestions, each as one one-member proposal: a pending
    /// proposal in the sidecar (author and turn from `opts`) and its record in
    /// the ledger. Every suggestion must hold against the buffer now (its
    /// source hash and span text, [`contract::verify`]); a stale one refuses the
    /// whole batch and nothing is filed. Overlapping suggestions are filed as
    /// separate proposals: accepting one turns the other stale (INV-11).
    pub fn file_suggestions(
        &mut self,
        suggestions: &[Suggestion],
        opts: ProposeOptions,
    ) -> Result<Vec<Filed>> {
        let batch = [NewProposals {
            suggestions: suggestions.to_vec(),
            opts,
        }];
        let (mut filed, _) = self.file_batch(&batch, &[])?;
        Ok(filed.pop().unwrap_or_default())
    }

    /// File several groups of suggestions ([`Session::file_suggestions`]'
    /// rules, each group with its own options) and new threads as **one**
    /// transaction: one read-modify-write of the sidecar and of the pending
    /// file, whatever the number of items. So a producer that answers with
    /// many items at once (a review pass) files them in O(items + files), not
    /// one rewrite of the growing sidecar per item. Returns the filed
    /// proposals group by group and the new threads' ids, in order. A stale
    /// suggestion, a range outside the text or an empty body refuses the
    /// whole batch, and nothing is written.
    pub fn file_batch(
        &mut self,
        proposals: &[NewProposals],
        threads: &[NewThread],
    ) -> Result<(Vec<Vec<Filed>>, Vec<String>)> {
        self.check_sidecar()?;
        let bytes = self.contract_bytes();
        let rev = contract::Revision::of(&bytes);
        // (range, anchor id, anchor) of every new proposal and thread.
        let mut anchors = Vec::new();
        let mut entries = Vec::new();
        let mut new_proposals = Vec::new();
        let mut filed = Vec::with_capacity(proposals.len());
        for group in proposals {
            let mut suggestions = group.suggestions.clone();
            contract::sort_suggestions(&mut suggestions);
            let opts = &group.opts;
            let mut in_group = Vec::with_capacity(suggestions.len());
            for s in suggestions {
                contract::verify(&s, &rev)?;
                if s.source.doc_id != self.doc_path.as_str() {
                    return Err(Error::BadInput(format!(
                        "suggestion {} is about {}, not {}",
                        s.id, s.source.doc_id, self.doc_path
                    )));
                }
                let range = self.char_range_of(s.span)?;
                let proposal = Proposal {
                    id: new_id("pr"),
                    anchor_id: new_id("a"),
                    replacement: s.replacement.clone(),
                    author: opts.author.clone(),
                    created_at: now_iso(),
                    turn_id: opts.turn_id.clone(),
                    instruction: opts.instruction.clone(),
                    extra: Extra::new(),
                };
                let anchor = Anchor {
                    fingerprint: build_fingerprint(&self.doc, range),
                    extra: Extra::new(),
                };
                let entry = Entry::new(proposal.id.clone(), opts.turn_id.clone(), vec![s]);
                in_group.push(Filed {
                    sidecar_id: proposal.id.clone(),
                    proposal_id: entry.proposal.id.clone(),
                });
                entries.push(entry);
                anchors.push((range, proposal.anchor_id.clone(), anchor));
                new_proposals.push(proposal);
            }
            filed.push(in_group);
        }
        let mut new_threads = Vec::with_capacity(threads.len());
        for t in threads {
            self.check_range(t.range)?;
            check_body(&t.body)?;
            let anchor_id = new_id("a");
            let comment = Comment {
                author: t.author.clone(),
                extra: t.extra.clone(),
                ..self.comment(&t.body)
            };
            anchors.push((
                t.range,
                anchor_id.clone(),
                Anchor {
                    fingerprint: build_fingerprint(&self.doc, t.range),
                    extra: Extra::new(),
                },
            ));
            new_threads.push(Thread {
                id: new_id("t"),
                anchor_id,
                status: ThreadStatus::Open,
                comments: vec![comment],
                extra: Extra::new(),
            });
        }
        if entries.is_empty() {
            // Threads alone: the sidecar's own read-modify-write.
            self.update(|a| {
                for (_, anchor_id, anchor) in &anchors {
                    a.anchors.insert(anchor_id.clone(), anchor.clone());
                }
                a.threads.extend(new_threads.iter().cloned());
                Ok(())
            })?;
        } else {
            self.file_in_txn(&bytes, &anchors, &new_proposals, &new_threads, &entries)?;
        }
        for (range, anchor_id, _) in anchors {
            self.tracked.insert(anchor_id, range);
        }
        Ok((filed, new_threads.into_iter().map(|t| t.id).collect()))
    }

    /// The proposals (with their ledger entries) and threads of a batch, in
    /// one transaction over the sidecar and the pending file.
    fn file_in_txn(
        &mut self,
        bytes: &[u8],
        anchors: &[(CharRange, String, Anchor)],
        new_proposals: &[Proposal],
        new_threads: &[Thread],
        entries: &[Entry],
    ) -> Result<()> {
        crate::ledger::keep_revision(self.store.workspace().root(), bytes);
        let mut attempt = 0;
        let written = loop {
            attempt += 1;
            if attempt > REDO_LIMIT {
                return Err(self.gave_up("filing"));
            }
            if attempt > 1 {
                crate::fsutil::backoff(attempt);
            }
            let lock = lock_existing(&self.store, &self.doc_path)?;
            let (disk, sidecar_bytes) = match self.store.load_bytes(&self.doc_path)? {
                Some((a, b)) => (a, Some(b)),
                None => (Artifact::empty(self.doc_path.as_str()), None),
            };
            let mut after = disk;
            let dropped = self
                .store
                .drop_decided(&self.doc_path, &mut after, &[], sidecar_bytes.as_deref());
            self.warnings.extend(dropped);
            for (_, anchor_id, anchor) in anchors {
                after.anchors.insert(anchor_id.clone(), anchor.clone());
            }
            after.proposals.extend(new_proposals.iter().cloned());
            after.threads.extend(new_threads.iter().cloned());
            let mut txn = Txn::new("propose", &self.doc_path);
            txn.sidecar = Some((sidecar_bytes, after.clone()));
            match self.ledger.pending_with_bytes(&self.doc_path) {
                Ok((bytes, mut have)) => {
                    // Decided means decided: a record brought back dies here too.
                    if let Ok(decided) = self.store.decided() {
                        have.retain(|e| !decided.anywhere(&e.sidecar_proposal_id));
                    }
                    have.extend(entries.iter().cloned());
                    txn.pending = Some((bytes, have));
                }
                Err(e) if e.code() == ErrorCode::BadInput => return Err(e),
                // The proposals are filed and reviewable; only their contract
                // records are missing, so no decision on them can be recorded.
                Err(e) => self.warnings.push(format!("contract records not kept: {e}")),
            }
            match txn.commit(&self.store, &lock) {
                Ok(w) => {
                    self.warnings.extend(w);
                    break after;
                }
                Err(CommitError::Changed) => continue,
                Err(CommitError::Failed(e)) => return Err(e),
            }
        };
        self.sidecar_problem = None;
        self.adopt(written);
        Ok(())
    }

    /// [`Session::propose`] through the contract: the edit becomes a one-member
    /// contract proposal by `producer` (category and reason as given), filed
    /// with its ledger record so its decision is logged. The same checks and
    /// errors as `propose`.
    pub fn propose_suggestion(
        &mut self,
        range: CharRange,
        replacement: &str,
        producer: &contract::Producer,
        category: &str,
        reason: &str,
        opts: ProposeOptions,
    ) -> Result<Filed> {
        self.check_range(range)?;
        let target = self.doc.slice(range);
        if target == replacement {
            return Err(Error::BadInput(format!(
                "the replacement is the same as the target text {target:?}; nothing to propose"
            )));
        }
        let bytes = self.contract_bytes();
        let source = contract::Source::of(self.doc_path.as_str(), &bytes);
        let suggestion = Suggestion::new(
            producer,
            &source,
            &bytes,
            contract::Finding {
                span: self.file_range_of(range),
                replacement: replacement.to_owned(),
                category: category.to_owned(),
                reason: reason.to_owned(),
                confidence: None,
            },
        )?;
        let mut filed = self.file_suggestions(&[suggestion], opts)?;
        Ok(filed.remove(0))
    }

    /// Check the ledger entry of `sidecar_id` against the buffer before it is
    /// applied at `range`: members that still hold are kept; members whose
    /// bytes moved but whose text is intact are migrated explicitly (new
    /// revision, span and id, `migratedFrom`); a member whose text is gone is a
    /// stale-span conflict. Returns the migrated members, if any migrated.
    pub(super) fn revalidate_entry(
        &mut self,
        sidecar_id: &str,
        range: CharRange,
    ) -> Result<Option<Vec<Suggestion>>> {
        let entry = match self.ledger.pending(&self.doc_path) {
            Ok(entries) => match entries.into_iter().find(|e| e.sidecar_proposal_id == sidecar_id) {
                Some(e) => Some(e),
                None => self.stray_entry(sidecar_id),
            },
            Err(e) => {
                self.warnings.push(format!("contract records unreadable: {e}"));
                None
            }
        };
        let Some(entry) = entry else { return Ok(None) };
        let bytes = self.contract_bytes();
        let migrated = self.migrated(&entry, &contract::Revision::of(&bytes), range)?;
        if migrated.is_some() {
            crate::ledger::keep_revision(self.store.workspace().root(), &bytes);
        }
        Ok(migrated)
    }

    /// [`Session::revalidate_entry`] for each pending proposal of `ids`, against
    /// one revision of the buffer (read and hashed once). Ids missing from the
    /// answer have no ledger entry or are not pending (accepting them refuses).
    pub(super) fn revalidate_entries(
        &mut self,
        ids: &[String],
    ) -> HashMap<String, Result<Option<Vec<Suggestion>>>> {
        let mut entries: HashMap<String, Entry> = match self.ledger.pending(&self.doc_path) {
            Ok(entries) => entries
                .into_iter()
                .map(|e| (e.sidecar_proposal_id.clone(), e))
                .collect(),
            Err(e) => {
                self.warnings.push(format!("contract records unreadable: {e}"));
                return HashMap::new();
            }
        };
        let bytes = self.contract_bytes();
        let rev = contract::Revision::of(&bytes);
        let mut out = HashMap::with_capacity(ids.len());
        let mut any_migrated = false;
        for id in ids {
            let entry = entries.remove(id).or_else(|| self.stray_entry(id));
            let (Some(entry), Ok(view)) = (entry, self.proposal(id)) else {
                continue;
            };
            let Some(range) = view.range.filter(|_| view.state == ProposalState::Pending) else {
                continue;
            };
            let members = self.migrated(&entry, &rev, range).map_err(Error::from);
            any_migrated |= matches!(members, Ok(Some(_)));
            out.insert(id.clone(), members);
        }
        if any_migrated {
            crate::ledger::keep_revision(self.store.workspace().root(), &bytes);
        }
        out
    }

    /// The entry of `sidecar_id` left under a document's old name
    /// ([`Ledger::stray_entry`]), if any.
    fn stray_entry(&mut self, sidecar_id: &str) -> Option<Entry> {
        let found = self
            .store
            .decided()
            .and_then(|d| self.ledger.stray_entry(&self.doc_path, sidecar_id, &d));
        match found {
            Ok(e) => e.map(|(_, e)| e),
            Err(e) => {
                self.warnings
                    .push(format!("contract records under other names unreadable: {e}"));
                None
            }
        }
    }

    /// The members of `entry` carried over to `rev`, where the proposal's
    /// target now sits at `range`; `None` when they hold as they are.
    pub(super) fn migrated(
        &self,
        entry: &Entry,
        rev: &contract::Revision,
        range: CharRange,
    ) -> std::result::Result<Option<Vec<Suggestion>>, contract::ContractError> {
        if entry.suggestions.iter().all(|s| contract::verify(s, rev).is_ok()) {
            return Ok(None);
        }
        let origin = entry
            .suggestions
            .iter()
            .map(|s| s.span.start.0)
            .min()
            .unwrap_or(0);
        let now = self.file_range_of(range).start.0;
        let mut out = Vec::with_capacity(entry.suggestions.len());
        for s in &entry.suggestions {
            let start = s.span.start.0 - origin + now;
            let span = FileByteRange::new(start, start + (s.span.end.0 - s.span.start.0));
            out.push(contract::migrate(s, self.doc_path.as_str(), rev, span)?);
        }
        Ok(Some(out))
    }

    /// Problems with the ledger since the last call (a decision that could not
    /// be logged, say); the review itself went through.
    pub fn take_warnings(&mut self) -> Vec<String> {
        self.warnings.extend(crate::txn::take_recovery_warnings());
        // A read-modify-write redone after another writer's change says the
        // same thing again: once is enough.
        let mut seen = HashSet::new();
        let mut out = std::mem::take(&mut self.warnings);
        out.retain(|w| seen.insert(w.clone()));
        out
    }

    /// Track `range` through every change until [`Session::unpin`], under `key`
    /// (a selection a producer is working on while the human keeps typing).
    pub fn pin(&mut self, key: &str, range: CharRange) -> Result<()> {
        self.check_range(range)?;
        self.pins.insert(key.to_owned(), range);
        Ok(())
    }

    /// Where a pinned range is now; `None` when its text was deleted.
    pub fn pinned(&self, key: &str) -> Option<CharRange> {
        self.pins.get(key).copied()
    }

    pub fn unpin(&mut self, key: &str) {
        self.pins.remove(key);
    }

    /// Keep every change from the text as it is now, composed, under `key`
    /// until [`Session::untrack`]: a producer that took a copy of the text
    /// maps what it found in the copy to the text as it is then (Claude's
    /// review pass, while the writer keeps typing).
    pub fn track(&mut self, key: &str) {
        self.trackers
            .insert(key.to_owned(), ChangeSet::identity(self.doc.len_chars()));
    }

    /// The change from the text when `key` was tracked to the text now.
    pub fn tracked_change(&self, key: &str) -> Option<&ChangeSet> {
        self.trackers.get(key)
    }

    pub fn untrack(&mut self, key: &str) {
        self.trackers.remove(key);
    }
}
