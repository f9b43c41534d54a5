//! Saving: the text and every unsaved decision in one transaction, and what of
//! the session's state a save writes into the sidecar.

use super::*;

impl Session {
    /// Write the document, and with it its unsaved decisions and what a save
    /// keeps in the sidecar (thread anchors re-fingerprinted where they now are,
    /// attribution spans as records; proposal anchors never), in one
    /// transaction. A corrupt or newer sidecar is left alone and reported in the
    /// [`SaveReport`]; the document is saved regardless — unless decisions
    /// taken on it are unsaved, which cannot be written without the sidecar.
    pub fn save(&mut self) -> Result<SaveReport> {
        self.save_with(false)
            .map(|r| r.expect("an unguarded save always writes"))
    }

    /// Save as [`Session::save`] does, unless the file on disk changed since
    /// this session last loaded or saved it (checked under the document's
    /// lock): then nothing is written and the answer is `None` — an automatic
    /// save never overwrites another program's change; the writer decides.
    pub fn save_unless_changed(&mut self) -> Result<Option<SaveReport>> {
        self.save_with(true)
    }

    fn save_with(&mut self, guarded: bool) -> Result<Option<SaveReport>> {
        for attempt in 0..REDO_LIMIT {
            if attempt > 0 {
                crate::fsutil::backoff(attempt);
            }
            let lock = lock_and_recover(&self.store, &self.doc_path)?;
            if guarded && self.changed_on_disk().unwrap_or(true) {
                return Ok(None);
            }
            self.history.seal();
            if let Err(e) = self.check_sidecar() {
                if !self.unsaved.is_empty() {
                    return Err(e);
                }
                self.store.workspace().write_document(&self.doc_path, &self.doc)?;
                self.saved_now();
                return Ok(Some(SaveReport {
                    sidecar_skipped: Some(e.info()),
                }));
            }
            let ops = self.unsaved.clone();
            match self.commit_ops(&lock, "save", &ops, true) {
                Ok(after) => {
                    self.unsaved.clear();
                    self.saved_now();
                    self.sidecar_problem = None;
                    self.adopt(after);
                    drop(lock);
                    self.sweep_strays();
                    return Ok(Some(SaveReport {
                        sidecar_skipped: None,
                    }));
                }
                Err(CommitError::Changed) => continue,
                Err(CommitError::Failed(e)) => return Err(e),
            }
        }
        Err(self.gave_up("save"))
    }

    /// What a save writes into the sidecar, computed from the live state.
    pub(super) fn persistence(&self) -> Persistence {
        let proposal_anchors: std::collections::HashSet<&str> = self
            .artifact
            .proposals
            .iter()
            .map(|p| p.anchor_id.as_str())
            .collect();
        let thread_fingerprints = self
            .artifact
            .threads
            .iter()
            .filter(|t| !proposal_anchors.contains(t.anchor_id.as_str()))
            .filter(|t| !t.detached() && !self.relocated.contains(&t.anchor_id))
            .filter_map(|t| {
                self.tracked
                    .get(&t.anchor_id)
                    .map(|r| (t.anchor_id.clone(), build_fingerprint(&self.doc, *r)))
            })
            .collect();
        let mut attributions = Vec::with_capacity(self.spans.len() + self.orphan_attributions.len());
        for span in self.spans.in_record_order() {
            let meta = span.record.as_deref().cloned().unwrap_or_else(|| RecordMeta {
                id: new_id("at"),
                anchor_id: new_id("a"),
                ..RecordMeta::default()
            });
            let mut fingerprint = build_fingerprint(&self.doc, span.range);
            fingerprint.extra = meta.fingerprint_extra;
            attributions.push((
                Attribution {
                    id: meta.id,
                    anchor_id: meta.anchor_id.clone(),
                    author: span.who.author.clone(),
                    created_at: span.who.created_at.clone(),
                    turn_id: span.who.turn_id.clone(),
                    instruction: span.who.instruction.clone(),
                    extra: meta.extra,
                },
                Anchor {
                    fingerprint,
                    extra: meta.anchor_extra,
                },
            ));
        }
        attributions.extend(self.orphan_attributions.iter().cloned());
        Persistence {
            thread_fingerprints,
            attributions,
        }
    }
}
