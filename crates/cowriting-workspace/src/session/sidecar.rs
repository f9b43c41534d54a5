//! The session's sidecar: reading it (and what the disk holds under the unsaved
//! decisions), adopting another writer's changes, and committing decisions in
//! one transaction (`commit_ops`).

use super::*;

impl Session {
    pub(super) fn check_sidecar(&self) -> Result<()> {
        match &self.sidecar_problem {
            None => Ok(()),
            Some(_) => {
                // Re-read: the problem may have been fixed on disk since.
                self.store.load(&self.doc_path).map(|_| ())
            }
        }
    }

    /// Read-modify-write the sidecar and adopt what was written.
    pub(super) fn update<R>(&mut self, f: impl FnMut(&mut Artifact) -> Result<R>) -> Result<R> {
        let lock = lock_existing(&self.store, &self.doc_path)?;
        self.check_sidecar()?;
        // Decided means decided: what the log says was decided leaves with this write.
        let store = self.store.clone();
        let doc = self.doc_path.clone();
        let mut f = f;
        let mut dropped = Vec::new();
        let (artifact, out) = self.store.update_locked(&lock, &self.doc_path, |a| {
            dropped = store.drop_decided(&doc, a, &[], None);
            f(a)
        })?;
        self.warnings.extend(dropped);
        self.sidecar_problem = None;
        self.adopt(artifact);
        Ok(out)
    }

    /// Re-read the sidecar from disk (after another writer changed it).
    pub fn reload_sidecar(&mut self) -> Result<()> {
        match self.store.load(&self.doc_path) {
            Ok(a) => {
                let first = self.sidecar_problem.take().is_some();
                let a = a.unwrap_or_else(|| Artifact::empty(self.doc_path.as_str()));
                if first {
                    self.load_spans(&a);
                }
                self.adopt(a);
                Ok(())
            }
            Err(e) => {
                if matches!(e.code(), ErrorCode::CorruptSidecar | ErrorCode::NewerSchema) {
                    self.sidecar_problem = Some(e.info());
                }
                Err(e)
            }
        }
    }

    /// Take `artifact` as the current sidecar: keep live ranges of anchors whose
    /// fingerprint did not change, resolve new or changed ones, drop the rest.
    pub(super) fn adopt(&mut self, artifact: Artifact) {
        let shown = self.overlaid(&artifact);
        self.base = artifact;
        let old = std::mem::replace(&mut self.artifact, shown);
        let mut tracked = HashMap::with_capacity(self.tracked.len());
        let mut relocated = HashSet::new();
        let proposal_anchors: HashSet<&str> = self
            .artifact
            .proposals
            .iter()
            .map(|p| p.anchor_id.as_str())
            .collect();
        // Threads follow their words through a re-wrap (flagged); proposals stay
        // exact (INV-11), and so does a thread on a proposal's anchor.
        let threads: Vec<(String, bool)> = self
            .artifact
            .threads
            .iter()
            .filter(|t| !t.detached())
            .map(|t| {
                (
                    t.anchor_id.clone(),
                    !proposal_anchors.contains(t.anchor_id.as_str()),
                )
            })
            .collect();
        let ids = threads.into_iter().chain(
            self.artifact
                .proposals
                .iter()
                .map(|p| (p.anchor_id.clone(), false)),
        );
        let resolver = Resolver::new(&self.doc);
        for (id, may_relocate) in ids {
            let Some(fp) = self.artifact.fingerprint(&id) else {
                continue;
            };
            let live = self.tracked.get(&id).copied();
            let unchanged = old.fingerprint(&id).is_some_and(|o| o == fp);
            match (live, unchanged) {
                (Some(r), true) => {
                    if self.relocated.contains(&id) {
                        relocated.insert(id.clone());
                    }
                    tracked.insert(id, r);
                }
                _ => match resolver.resolve(fp, live) {
                    Resolution::Found(r) => {
                        tracked.insert(id, r);
                    }
                    Resolution::Relocated(r) if may_relocate => {
                        relocated.insert(id.clone());
                        tracked.insert(id, r);
                    }
                    // Found by the fallback evidence alone: a thread follows
                    // it; a proposal's anchor is not tracked there (never
                    // applied without asking, see `proposal_view`).
                    Resolution::Likely(r) if may_relocate => {
                        tracked.insert(id, r);
                    }
                    Resolution::Relocated(_) | Resolution::Likely(_) | Resolution::Orphaned => {}
                },
            }
        }
        self.tracked = tracked;
        self.relocated = relocated;
    }

    /// `disk` with the unsaved decisions applied, as this session shows it.
    pub(super) fn overlaid(&self, disk: &Artifact) -> Artifact {
        let mut a = disk.clone();
        for op in &self.unsaved {
            apply_unsaved(&mut a, op);
        }
        a
    }

    /// Show the unsaved decisions as they are now.
    pub(super) fn refresh(&mut self) {
        let base = self.base.clone();
        self.adopt(base);
    }

    /// The error when the files kept changing under `what` through every redo.
    pub(super) fn gave_up(&self, what: &str) -> Error {
        Error::io(self.store.workspace().root())(std::io::Error::other(format!(
            "other programs kept changing {}'s files under the {what}; gave up after {REDO_LIMIT} tries",
            self.doc_path
        )))
    }

    /// The index of the last unsaved decision about `id`.
    pub(super) fn last_unsaved(&self, id: &str) -> Option<usize> {
        self.unsaved.iter().rposition(|o| o.id() == id)
    }

    /// Write `ops` in one transaction, with the buffer and what a save persists
    /// when `with_text`. Returns the sidecar as written.
    pub(super) fn commit_ops(
        &mut self,
        lock: &DocLock,
        op: &'static str,
        ops: &[Unsaved],
        with_text: bool,
    ) -> std::result::Result<Artifact, CommitError> {
        let (disk, sidecar_bytes) = match self.store.load_bytes(&self.doc_path)? {
            Some((a, b)) => (a, Some(b)),
            None => (Artifact::empty(self.doc_path.as_str()), None),
        };
        let mut after = disk.clone();
        let mut txn = Txn::new(op, &self.doc_path);
        // Decided means decided: a proposal the log says was decided leaves the
        // sidecar and the pending file with this write (unless this transaction
        // puts it back: an undo).
        let restoring: Vec<String> = ops
            .iter()
            .filter(|o| matches!(o, Unsaved::Restored { .. }))
            .map(|o| o.id().to_owned())
            .collect();
        let dropped =
            self.store
                .drop_decided(&self.doc_path, &mut after, &restoring, sidecar_bytes.as_deref());
        self.warnings.extend(dropped);
        let decided = match self.store.decided() {
            Ok(d) => d,
            Err(e) if e.code() == ErrorCode::BadInput => return Err(e.into()),
            Err(_) => Default::default(),
        };
        // A ledger that cannot be read never stops a human's decision.
        let pending = match self.ledger.pending_with_bytes(&self.doc_path) {
            Ok(p) => Some(p),
            // A path the guard refuses refuses the decision; an unreadable file only warns.
            Err(e) if e.code() == ErrorCode::BadInput => return Err(e.into()),
            Err(e) => {
                if !ops.is_empty() {
                    self.warnings.push(format!(
                        "the decision log and contract records were not updated: {e}"
                    ));
                }
                None
            }
        };
        let mut entries = pending.as_ref().map(|(_, e)| e.clone()).unwrap_or_default();
        entries.retain(|e| {
            let dead =
                decided.anywhere(&e.sidecar_proposal_id) && !restoring.contains(&e.sidecar_proposal_id);
            if dead {
                self.warnings.push(format!(
                    "{}: the contract record of {} was pending again though its decision is logged; dropped",
                    self.doc_path, e.sidecar_proposal_id
                ));
            }
            !dead
        });
        for o in ops {
            apply_unsaved(&mut after, o);
            let id = o.id().to_owned();
            match o {
                Unsaved::Decided {
                    outcome,
                    chosen,
                    members,
                    ..
                } => {
                    let found = match entries.iter().position(|e| e.sidecar_proposal_id == id) {
                        Some(i) => Some(entries.remove(i)),
                        // Left under the document's old name by a merge of a rename.
                        None if pending.is_some() => {
                            match self.ledger.stray_entry(&self.doc_path, &id, &decided) {
                                Ok(Some((old, e))) => {
                                    if !self.strays.contains(&old) {
                                        self.strays.push(old);
                                    }
                                    Some(e)
                                }
                                Ok(None) => None,
                                Err(e) if e.code() == ErrorCode::BadInput => return Err(e.into()),
                                Err(e) => {
                                    self.warnings
                                        .push(format!("contract records under other names unreadable: {e}"));
                                    None
                                }
                            }
                        }
                        None => None,
                    };
                    if let Some(e) = found {
                        let d = self.ledger.prepare_decision(
                            &self.doc_path,
                            &e,
                            *outcome,
                            chosen.as_deref(),
                            &self.identity,
                            members.clone(),
                        );
                        txn.log.push(d.line);
                    }
                    txn.removed.push(id);
                }
                Unsaved::Restored { .. } => {
                    if pending.is_some() {
                        match self.ledger.prepare_undo(&self.doc_path, &id) {
                            Ok(Some((line, entry))) => {
                                txn.log.push(line);
                                if !entries.iter().any(|e| e.sidecar_proposal_id == id) {
                                    entries.push(entry);
                                }
                            }
                            Ok(None) => {}
                            Err(e) if e.code() == ErrorCode::BadInput => return Err(e.into()),
                            Err(e) => self
                                .warnings
                                .push(format!("the undo of {id} is not in the decision log: {e}")),
                        }
                    }
                    txn.restored.push(id);
                }
            }
        }
        if with_text {
            self.persistence().apply(&mut after);
            let file = self.store.workspace().doc_file(&self.doc_path)?;
            let now = match crate::fsutil::read_regular(&file) {
                Ok(b) => Some(b),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(Error::io(&file)(e).into()),
            };
            let bytes = self.doc.to_bytes();
            if now.as_deref() != Some(bytes.as_slice()) {
                txn.document = Some((bytes, now.as_deref().map(crate::fsutil::sha256)));
            }
        }
        after.prune_anchors();
        let unchanged = after == disk || (sidecar_bytes.is_none() && after.is_empty());
        if !unchanged {
            txn.sidecar = Some((sidecar_bytes, after.clone()));
        }
        if let Some((bytes, before)) = pending {
            if before != entries {
                txn.pending = Some((bytes, entries));
            }
        }
        // Not held across the append: the next read folds on in place.
        drop(decided);
        let warnings = txn.commit(&self.store, lock)?;
        self.warnings.extend(warnings);
        Ok(after)
    }

    /// After a decision on an entry found under a document's old name (and
    /// with no lock held: this takes the old name's): remove from those pending
    /// files every entry whose decision is logged. A crash before this leaves
    /// the entry there, dead (decided): [`crate::ledger::eval`] does not count
    /// it and the next sweep removes it.
    pub(super) fn sweep_strays(&mut self) {
        for old in std::mem::take(&mut self.strays) {
            let swept = lock_and_recover(&self.store, &old).and_then(|lock| {
                let decided = self.store.decided()?;
                self.ledger.sweep_decided_locked(&lock, &old, &decided)
            });
            if let Err(e) = swept {
                self.warnings.push(format!(
                    "the contract records left under {old} were not tidied: {e}"
                ));
            }
        }
    }

    /// After a transaction that wrote the text: the buffer is what is saved.
    pub(super) fn saved_now(&mut self) {
        self.saved = self.doc.rope().clone();
        self.saved_bom = self.doc.has_bom();
        self.saved_sha = Default::default();
        self.base_unknown = false;
    }

    /// Place the sidecar's attribution records as live spans.
    pub(super) fn load_spans(&mut self, a: &Artifact) {
        self.spans = Spans::new();
        self.orphan_attributions.clear();
        let resolver = Resolver::new(&self.doc);
        for at in &a.attributions {
            let anchor = a.anchors.get(&at.anchor_id);
            let found = anchor.and_then(|an| resolver.resolve(&an.fingerprint, None).range());
            match (found, anchor) {
                (Some(range), Some(an)) if !range.is_empty() => self.spans.insert_loaded(Span {
                    range,
                    who: Arc::new(SpanAuthor {
                        author: at.author.clone(),
                        turn_id: at.turn_id.clone(),
                        instruction: at.instruction.clone(),
                        created_at: at.created_at.clone(),
                    }),
                    record: Some(Arc::new(RecordMeta {
                        id: at.id.clone(),
                        anchor_id: at.anchor_id.clone(),
                        extra: at.extra.clone(),
                        anchor_extra: an.extra.clone(),
                        fingerprint_extra: an.fingerprint.extra.clone(),
                    })),
                }),
                (_, Some(an)) => self.orphan_attributions.push((at.clone(), an.clone())),
                (_, None) => {}
            }
        }
    }
}
