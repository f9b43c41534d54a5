//! Replaying a producer on the revisions its decisions were made on, to compare
//! producer versions like with like (`cowriting eval --replay PRODUCER`).
//!
//! For every effective decision on a suggestion of the producer, the exact
//! source bytes are read back from git by their blob id (the ledger keeps them
//! in the object database when it files), the producer runs on them as it is
//! configured now, and its suggestions are compared with what was decided: a
//! decided suggestion is *reproduced* when the new run suggests the same
//! replacement on the same span. A better version keeps suggesting what was
//! accepted, stops suggesting what was rejected, and suggests the human's own
//! text where they changed it.
//!
//! Claude turns cannot be replayed: the selection and the model's sampling are
//! not reproducible, and the selection is not recorded.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::Serialize;

use crate::suggest::{Job, ProducerKind};
use crate::Cancel;
use cowriting_core::contract::Outcome;
use cowriting_workspace::config::Config;
use cowriting_workspace::error::{Error, Result};
use cowriting_workspace::ledger::{read_revision, Ledger};

/// How one outcome fares under the replay.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OutcomeReplay {
    pub decided: usize,
    /// The same replacement on the same span is suggested again.
    pub reproduced: usize,
    /// For `changed`: the human's chosen text is what the producer suggests now.
    pub now_suggests_chosen: usize,
}

/// One revision replayed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RevisionReplay {
    pub doc_id: String,
    pub revision: String,
    /// Versions of the producer the decisions at this revision were made with.
    pub recorded_versions: Vec<String>,
    pub decided: usize,
    pub reproduced: usize,
    /// Suggestions of the new run that no decision here covers.
    pub new_suggestions: usize,
    /// Why the revision could not be replayed (not in git, producer failed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The whole replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Replay {
    pub producer: String,
    /// The version the replay ran (from the new run's suggestions), if it found any.
    pub current_version: Option<String>,
    pub by_outcome: BTreeMap<String, OutcomeReplay>,
    pub revisions: Vec<RevisionReplay>,
}

impl Replay {
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "\nreplay of {} (now {}) on {} revision{}:\n",
            self.producer,
            self.current_version.as_deref().unwrap_or("unknown version"),
            self.revisions.len(),
            if self.revisions.len() == 1 { "" } else { "s" }
        );
        for (outcome, r) in &self.by_outcome {
            out.push_str(&format!(
                "  {outcome:<9} {} decided, {} suggested again",
                r.decided, r.reproduced
            ));
            if outcome == "changed" {
                out.push_str(&format!(
                    ", {} now suggest the chosen text",
                    r.now_suggests_chosen
                ));
            }
            out.push('\n');
        }
        for r in &self.revisions {
            let rev = &r.revision[..r.revision.len().min(12)];
            match &r.error {
                Some(e) => out.push_str(&format!("  {} @ {rev}: not replayed: {e}\n", r.doc_id)),
                None => out.push_str(&format!(
                    "  {} @ {rev} (recorded {}): {}/{} reproduced, {} new\n",
                    r.doc_id,
                    r.recorded_versions.join(", "),
                    r.reproduced,
                    r.decided,
                    r.new_suggestions
                )),
            }
        }
        out
    }
}

/// Replay `producer` on every revision its effective decisions were made on.
pub fn replay(root: &Path, ledger: &Ledger, cfg: &Config, producer: &ProducerKind) -> Result<Replay> {
    if *producer == ProducerKind::Claude {
        return Err(Error::BadInput(
            "Claude turns cannot be replayed (the selection is not recorded and answers are not reproducible); replay a deterministic producer".into(),
        ));
    }
    let name = producer.name().to_owned();
    // An external producer may report another id than its config name: its
    // decisions are found by what it reports when it runs (below).
    let external = matches!(producer, ProducerKind::External(_));
    let decisions: Vec<_> = ledger
        .decisions()?
        .into_iter()
        .filter(|d| !d.undone && (external || d.producer_id() == name))
        .collect();
    let mut groups: BTreeMap<(String, String), Vec<_>> = BTreeMap::new();
    for d in decisions {
        let Some(rev) = d.revision().map(str::to_owned) else {
            continue;
        };
        groups.entry((d.doc_id.clone(), rev)).or_default().push(d);
    }
    let mut out = Replay {
        producer: name.clone(),
        current_version: None,
        by_outcome: BTreeMap::new(),
        revisions: Vec::new(),
    };
    let cancel = Cancel::new();
    for ((doc_id, revision), records) in groups {
        let mut rr = RevisionReplay {
            doc_id: doc_id.clone(),
            revision: revision.clone(),
            recorded_versions: recorded_versions(records.iter()),
            decided: records.len(),
            reproduced: 0,
            new_suggestions: 0,
            error: None,
        };
        let run = read_revision(root, &revision).and_then(|bytes| {
            let job = Job {
                producer: producer.clone(),
                doc_id: doc_id.clone(),
                bytes,
                selection: None,
                instruction: None,
                pin: None,
                dictionary: Default::default(),
            };
            job.run(cfg, &cancel)
        });
        let run = match run {
            Ok(o) => o.run,
            Err(_) if external && !records.iter().any(|d| d.producer_id() == name) => continue,
            Err(e) => {
                rr.error = Some(e.to_string());
                for d in &records {
                    out.by_outcome
                        .entry(d.decision.outcome.as_str().to_owned())
                        .or_default()
                        .decided += 1;
                }
                out.revisions.push(rr);
                continue;
            }
        };
        if let Some(s) = run.suggestions.first() {
            out.current_version = Some(s.producer.version.clone());
        }
        let reported: BTreeSet<&str> = run
            .suggestions
            .iter()
            .map(|s| s.producer.id.as_str())
            .chain([name.as_str()])
            .collect();
        let records: Vec<_> = records
            .iter()
            .filter(|d| reported.contains(d.producer_id()))
            .collect();
        if records.is_empty() {
            continue;
        }
        rr.decided = records.len();
        rr.recorded_versions = recorded_versions(records.iter().copied());
        let now: BTreeSet<(usize, usize, &str)> = run
            .suggestions
            .iter()
            .map(|s| (s.span.start.0, s.span.end.0, s.replacement.as_str()))
            .collect();
        let mut covered: BTreeSet<(usize, usize)> = BTreeSet::new();
        for d in &records {
            let tally = out
                .by_outcome
                .entry(d.decision.outcome.as_str().to_owned())
                .or_default();
            tally.decided += 1;
            let again = d
                .suggestions
                .iter()
                .all(|s| now.contains(&(s.span.start.0, s.span.end.0, s.replacement.as_str())));
            if again {
                tally.reproduced += 1;
                rr.reproduced += 1;
            }
            if d.decision.outcome == Outcome::Changed {
                if let (Some(chosen), [s]) = (&d.decision.chosen_replacement, d.suggestions.as_slice()) {
                    if now.contains(&(s.span.start.0, s.span.end.0, chosen.as_str())) {
                        tally.now_suggests_chosen += 1;
                    }
                }
            }
            for s in &d.suggestions {
                covered.insert((s.span.start.0, s.span.end.0));
            }
        }
        rr.new_suggestions = run
            .suggestions
            .iter()
            .filter(|s| !covered.contains(&(s.span.start.0, s.span.end.0)))
            .count();
        out.revisions.push(rr);
    }
    Ok(out)
}

/// The producer versions `records` were made with, sorted, once each.
fn recorded_versions<'a>(
    records: impl Iterator<Item = &'a cowriting_workspace::ledger::DecisionRecord>,
) -> Vec<String> {
    records
        .flat_map(|d| d.suggestions.iter().map(|s| s.producer.version.clone()))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}
