//! The conflict banner's Compare & merge: the writer's unsaved text ("mine")
//! and the file another program changed on disk ("theirs"), merged three ways
//! from the text the buffer was loaded from or last saved as ("base"), by
//! sentence ([`cowriting_core::merge`]). The view shows every hunk with each
//! side's word diff; applying takes the writer's choice per hunk, makes the
//! result the buffer as the writer's own edit, and bases the buffer on the
//! file it was merged with. Choices made on a merge of other texts (the file
//! changed again meanwhile, or the buffer did) are never applied: the answer
//! is the merge of the texts as they are now.

use super::*;
use cowriting_core::diff::word_diff;
use cowriting_core::merge::{Choice, Merge, Part};
use cowriting_workspace::fsutil::sha256;

/// The three texts of a merge, and the file as read for it.
struct Texts {
    /// `None`: not known (restored after a crash over a changed file).
    base: Option<String>,
    theirs: Document,
}

impl Texts {
    fn of(s: &Session) -> Result<Texts> {
        Ok(Texts {
            base: s.merge_base(),
            theirs: s.disk_document()?,
        })
    }

    fn merge(&self, s: &Session) -> Merge {
        // The merge reads contiguous texts: flattened for it, dropped after it.
        let (mine, theirs) = (s.document().flatten(), self.theirs.flatten());
        match &self.base {
            Some(base) => Merge::new(base, &mine, &theirs),
            None => Merge::without_base(&mine, &theirs),
        }
    }

    /// Names the three texts (and the file's byte order mark): any change to one changes it.
    fn token(&self, s: &Session) -> String {
        let mut bytes = vec![u8::from(self.base.is_some()), u8::from(self.theirs.has_bom())];
        let base = self.base.as_deref().unwrap_or("");
        bytes.extend_from_slice(&(base.len() as u64).to_le_bytes());
        bytes.extend_from_slice(base.as_bytes());
        for t in [s.document().rope(), self.theirs.rope()] {
            bytes.extend_from_slice(&(t.len_bytes() as u64).to_le_bytes());
            for chunk in t.chunks() {
                bytes.extend_from_slice(chunk.as_bytes());
            }
        }
        sha256(&bytes).iter().map(|b| format!("{b:02x}")).collect()
    }

    fn view(&self, s: &Session) -> MergeView {
        let known = self.base.is_some();
        let parts = self
            .merge(s)
            .parts
            .into_iter()
            .map(|p| match p {
                Part::Same(text) => MergePart::Same { text },
                Part::Hunk(h) => MergePart::Hunk {
                    side: h.kind,
                    // With no base, each side is shown against the other.
                    mine_diff: word_diff(if known { &h.base } else { &h.theirs }, &h.mine),
                    theirs_diff: word_diff(if known { &h.base } else { &h.mine }, &h.theirs),
                    base: h.base,
                    mine: h.mine,
                    theirs: h.theirs,
                },
            })
            .collect();
        MergeView {
            path: s.doc_path().to_string(),
            token: self.token(s),
            base_known: known,
            parts,
        }
    }
}

impl Api {
    /// The merge of the writer's text with the file on disk ("Compare & merge…").
    pub fn merge_view(&self, path: &str) -> Result<MergeView> {
        let s = self.session(path)?;
        Ok(Texts::of(s)?.view(s))
    }

    /// Apply the writer's `choices` (one per hunk, in order; `None` takes a
    /// one-sided hunk's own side, and is refused for a conflict) to the merge
    /// named by `token`. When the file on disk or the buffer changed since,
    /// nothing is applied and the answer is the merge as it is now.
    pub fn apply_merge(
        &mut self,
        path: &str,
        token: &str,
        choices: &[Option<Choice>],
    ) -> Result<MergeOutcome> {
        let s = self.session_mut(path)?;
        let texts = Texts::of(s)?;
        if texts.token(s) != token {
            return Ok(MergeOutcome::Changed { merge: texts.view(s) });
        }
        let merged = texts
            .merge(s)
            .resolve(choices)
            .map_err(|e| Error::BadInput(format!("{path}: {e}")))?;
        let before = s.document().clone();
        let change = s.apply_merge(&merged, &texts.theirs)?;
        let doc = s.doc_path().clone();
        let applied = self.applied(&doc, &before, change.as_ref())?;
        // The backup's base is the file merged with.
        self.backup_stale(&doc);
        Ok(MergeOutcome::Applied { applied })
    }
}
