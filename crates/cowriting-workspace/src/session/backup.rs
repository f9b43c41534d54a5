//! Hot exit: an unsaved buffer, its attribution spans and its unsaved review
//! decisions, as a [`Backup`] the app journals outside the workspace within
//! about a second of each change, and restores after a crash (VS Code's
//! `files.hotExit`, vim's swap files).
//!
//! A backup is self-contained: the text, the spans as attribution records with
//! their exact char ranges, and each unsaved decision with its proposal record,
//! so restoring needs nothing but the document's file. The restored buffer
//! starts a fresh undo history; nothing reaches the workspace until the writer
//! saves.

use super::{Session, Unsaved};
use crate::error::{Error, Result};
use cowriting_core::attribution::{RecordMeta, Span, SpanAuthor, Spans};
use cowriting_core::contract::{sha256_hex, Outcome};
use cowriting_core::history::EditKind;
use cowriting_core::model::{parse_artifact, serialize_artifact, Anchor, Artifact, Attribution};
use cowriting_core::offset::CharRange;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The format version of [`Backup`].
pub const BACKUP_VERSION: u32 = 1;

/// See the module docs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Backup {
    pub version: u32,
    /// The document (workspace-relative).
    pub doc: String,
    /// SHA-256 (hex) of the file the buffer was last loaded from or saved to.
    pub base: String,
    pub text: String,
    pub bom: bool,
    /// The records the rest refers to, as a sidecar: one proposal (with its
    /// anchor) per decision, one attribution (with its anchor) per span.
    pub records: String,
    /// The unsaved decisions in order; `proposal` indexes `records.proposals`.
    pub decisions: Vec<BackupDecision>,
    /// The char range of each of `records.attributions`.
    pub spans: Vec<[usize; 2]>,
    /// Names this snapshot to the journal of changes appended after it (the
    /// app's hot-exit journal): only lines carrying it apply. 0: no journal.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub epoch: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// One unsaved decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BackupDecision {
    pub proposal: usize,
    /// `None`: an undone decision (the proposal comes back at the save).
    pub outcome: Option<Outcome>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<String>,
}

/// The unsaved decisions as they were when [`Session::unsaved_mark`] was
/// taken: equal marks, the same decisions (which proposals, which way, which
/// alternative). The hot-exit journal appends text changes only while its
/// snapshot's decisions still hold.
#[derive(Clone, Debug, PartialEq)]
pub struct UnsavedMark(Vec<Unsaved>);

/// What [`Session::restore_backup`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restored {
    /// The file changed on disk since the buffer was based on it (another program
    /// wrote it after the crash): saving will replace that version.
    pub file_changed: bool,
    /// Unsaved decisions carried over.
    pub decisions: usize,
}

impl Session {
    /// See [`UnsavedMark`].
    pub fn unsaved_mark(&self) -> UnsavedMark {
        UnsavedMark(self.unsaved.clone())
    }

    /// The buffer as a [`Backup`], or `None` when there is nothing unsaved.
    pub fn backup(&self) -> Option<Backup> {
        if !self.is_dirty() {
            return None;
        }
        let mut records = Artifact::empty(self.doc_path.as_str());
        let mut decisions = Vec::with_capacity(self.unsaved.len());
        for op in &self.unsaved {
            let (proposal, anchor, outcome, chosen) = match op {
                Unsaved::Decided {
                    proposal,
                    anchor,
                    outcome,
                    chosen,
                    ..
                } => (proposal, anchor, Some(*outcome), chosen.clone()),
                Unsaved::Restored { proposal, anchor } => (proposal, anchor, None, None),
            };
            records.anchors.insert(proposal.anchor_id.clone(), anchor.clone());
            decisions.push(BackupDecision {
                proposal: records.proposals.len(),
                outcome,
                chosen,
            });
            records.proposals.push(proposal.clone());
        }
        let spans = self
            .spans
            .iter()
            .map(|span| [span.range.start.0, span.range.end.0])
            .collect();
        self.add_span_records(&mut records, self.spans.iter(), "backup");
        let base = self.saved_sha.get_or_init(|| {
            let mut saved = cowriting_core::document::Document::new(&self.saved.to_string());
            saved.set_bom(self.saved_bom);
            sha256_hex(&saved.to_bytes())
        });
        Some(Backup {
            version: BACKUP_VERSION,
            doc: self.doc_path.as_str().to_owned(),
            base: base.clone(),
            text: self.doc.flatten(),
            bom: self.doc.has_bom(),
            records: serialize_artifact(&records),
            decisions,
            spans,
            epoch: 0,
        })
    }

    /// Add to `records` one attribution (and its anchor) per span of `spans`,
    /// in order, as [`Session::backup`] writes them: a span's own record, or
    /// for a span that has none yet ids `at_{prefix}{i}` / `a_{prefix}{i}`
    /// (`prefix` starting with `backup`: [`Session::restore_backup`] gives such
    /// spans fresh ids at the save).
    pub fn add_span_records(
        &self,
        records: &mut Artifact,
        spans: impl IntoIterator<Item = Span>,
        prefix: &str,
    ) {
        for (i, span) in spans.into_iter().enumerate() {
            let meta = span.record.as_deref().cloned().unwrap_or_else(|| RecordMeta {
                id: format!("at_{prefix}{i}"),
                anchor_id: format!("a_{prefix}{i}"),
                ..RecordMeta::default()
            });
            let mut fingerprint = cowriting_core::anchor::build_fingerprint(&self.doc, span.range);
            fingerprint.extra = meta.fingerprint_extra.clone();
            records.anchors.insert(
                meta.anchor_id.clone(),
                Anchor {
                    fingerprint,
                    extra: meta.anchor_extra.clone(),
                },
            );
            records.attributions.push(Attribution {
                id: meta.id,
                anchor_id: meta.anchor_id,
                author: span.who.author.clone(),
                created_at: span.who.created_at.clone(),
                turn_id: span.who.turn_id.clone(),
                instruction: span.who.instruction.clone(),
                extra: meta.extra,
            });
        }
    }

    /// Put a [`Backup`] of this document into the buffer: its text (as one undo
    /// step), its spans and its unsaved decisions. The file is not touched.
    pub fn restore_backup(&mut self, backup: &Backup) -> Result<Restored> {
        let bad =
            |why: String| Error::BadInput(format!("the backup of {} cannot be restored: {why}", backup.doc));
        if backup.version != BACKUP_VERSION {
            return Err(bad(format!(
                "format version {} is not {BACKUP_VERSION}",
                backup.version
            )));
        }
        if backup.doc != self.doc_path.as_str() {
            return Err(bad(format!("it is of {}", backup.doc)));
        }
        let records = parse_artifact(&backup.records).map_err(|e| bad(e.to_string()))?;
        let len = backup.text.chars().count();
        if backup.spans.len() != records.attributions.len()
            || backup.spans.iter().any(|[s, e]| s > e || *e > len)
            || backup
                .decisions
                .iter()
                .any(|d| d.proposal >= records.proposals.len())
        {
            return Err(bad("its records do not fit its text".into()));
        }
        let file_changed = match self.disk_document() {
            Ok(disk) => sha256_hex(&disk.to_bytes()) != backup.base,
            Err(_) => true,
        };
        let change = cowriting_core::diff::text_change(&self.doc.flatten(), &backup.text);
        self.apply_with(&change, EditKind::Other, Vec::new(), Vec::new())?;
        // History starts afresh: undoing the restored text while keeping its
        // decisions would save decisions without their text.
        self.history = Default::default();
        self.doc.set_bom(backup.bom);
        let mut spans = Spans::new();
        for (at, [s, e]) in records.attributions.iter().zip(&backup.spans) {
            let Some(anchor) = records.anchors.get(&at.anchor_id) else {
                continue;
            };
            if s == e {
                continue;
            }
            let backup_id = at.id.starts_with("at_backup");
            spans.insert_loaded(Span {
                range: CharRange::new(*s, *e),
                who: Arc::new(SpanAuthor {
                    author: at.author.clone(),
                    turn_id: at.turn_id.clone(),
                    instruction: at.instruction.clone(),
                    created_at: at.created_at.clone(),
                }),
                // Spans that had no record yet get fresh ids at the save.
                record: (!backup_id).then(|| {
                    Arc::new(RecordMeta {
                        id: at.id.clone(),
                        anchor_id: at.anchor_id.clone(),
                        extra: at.extra.clone(),
                        anchor_extra: anchor.extra.clone(),
                        fingerprint_extra: anchor.fingerprint.extra.clone(),
                    })
                }),
            });
        }
        self.spans = spans;
        // The buffer started from the backup's base, which the file no longer holds.
        self.base_unknown = file_changed;
        self.unsaved = backup
            .decisions
            .iter()
            .map(|d| {
                let proposal = records.proposals[d.proposal].clone();
                let anchor = records
                    .anchors
                    .get(&proposal.anchor_id)
                    .cloned()
                    .unwrap_or_else(|| Anchor {
                        fingerprint: Default::default(),
                        extra: Default::default(),
                    });
                match d.outcome {
                    Some(outcome) => Unsaved::Decided {
                        proposal,
                        anchor,
                        outcome,
                        chosen: d.chosen.clone(),
                        members: None,
                    },
                    None => Unsaved::Restored { proposal, anchor },
                }
            })
            .collect();
        self.refresh();
        Ok(Restored {
            file_changed,
            decisions: self.unsaved.len(),
        })
    }
}
