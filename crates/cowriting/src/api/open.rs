//! The open documents' sessions, each with its **review revision**: a number
//! that changes whenever the session may have changed, so a view that keeps
//! the revision it last drew compares one number, not the whole review.
//!
//! The revision is taken from one counter for the whole `Api`, so it never
//! repeats (not after a close and a reopen, not across documents). It moves on
//! every mutable borrow of a session: there is no way to change a session
//! without it, which is what makes "same revision, same review" hold. A borrow
//! that changes nothing moves it too; that costs a view one needless redraw,
//! never a stale one.

use cowriting_workspace::session::Session;
use cowriting_workspace::workspace::DocPath;
use std::collections::BTreeMap;

/// See the module docs.
#[derive(Default)]
pub(crate) struct OpenSessions {
    by_doc: BTreeMap<DocPath, (Session, u64)>,
    /// The last revision given out.
    counter: u64,
}

impl OpenSessions {
    fn next(&mut self) -> u64 {
        self.counter += 1;
        self.counter
    }

    pub fn get(&self, doc: &DocPath) -> Option<&Session> {
        self.by_doc.get(doc).map(|(s, _)| s)
    }

    /// A session to change, and its revision moved on.
    pub fn get_mut(&mut self, doc: &DocPath) -> Option<&mut Session> {
        let rev = self.next();
        self.by_doc.get_mut(doc).map(|(s, r)| {
            *r = rev;
            s
        })
    }

    /// A session and the revision its review has now.
    pub fn with_revision(&self, doc: &DocPath) -> Option<(&Session, u64)> {
        self.by_doc.get(doc).map(|(s, r)| (s, *r))
    }

    pub fn contains_key(&self, doc: &DocPath) -> bool {
        self.by_doc.contains_key(doc)
    }

    pub fn insert(&mut self, doc: DocPath, s: Session) {
        let rev = self.next();
        self.by_doc.insert(doc, (s, rev));
    }

    pub fn remove(&mut self, doc: &DocPath) -> Option<Session> {
        self.by_doc.remove(doc).map(|(s, _)| s)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&DocPath, &Session)> {
        self.by_doc.iter().map(|(d, (s, _))| (d, s))
    }

    /// Every session to change, by document (each revision moved on).
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&DocPath, &mut Session)> {
        let base = self.counter;
        self.counter += self.by_doc.len() as u64;
        self.by_doc.iter_mut().zip(1..).map(move |((d, (s, r)), i)| {
            *r = base + i;
            (d, s)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowriting_core::model::Provenance;
    use cowriting_workspace::store::Store;
    use cowriting_workspace::workspace::Workspace;
    use std::sync::Arc;

    #[test]
    fn a_revision_moves_on_with_every_change_and_never_repeats() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "a\n").unwrap();
        std::fs::write(dir.path().join("b.md"), "b\n").unwrap();
        let store = Arc::new(Store::new(Workspace::open(dir.path()).unwrap()));
        let me = Provenance::human("me");
        let (a, b) = (DocPath::parse("a.md").unwrap(), DocPath::parse("b.md").unwrap());
        let mut open = OpenSessions::default();
        open.insert(
            a.clone(),
            Session::open(store.clone(), a.clone(), me.clone()).unwrap(),
        );
        open.insert(
            b.clone(),
            Session::open(store.clone(), b.clone(), me.clone()).unwrap(),
        );
        let mut seen = vec![
            open.with_revision(&a).unwrap().1,
            open.with_revision(&b).unwrap().1,
        ];
        // Reading does not move it.
        assert_eq!(open.with_revision(&a).unwrap().1, seen[0]);
        open.get_mut(&a).unwrap();
        seen.push(open.with_revision(&a).unwrap().1);
        open.iter_mut().for_each(drop);
        seen.push(open.with_revision(&a).unwrap().1);
        seen.push(open.with_revision(&b).unwrap().1);
        // Closed and opened again: a revision it never had.
        let s = open.remove(&b).unwrap();
        open.insert(b.clone(), s);
        seen.push(open.with_revision(&b).unwrap().1);
        let mut unique = seen.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), seen.len(), "{seen:?}");
        // A document not open has none, and asking does not open it.
        assert!(open.get_mut(&DocPath::parse("c.md").unwrap()).is_none());
        assert!(!open.contains_key(&DocPath::parse("c.md").unwrap()));
    }

    /// Against the naive model (the whole review, serialized): through random
    /// decisions, edits, threads, saves, undo and other writers' proposals,
    /// one revision always comes with one review, and every answer's
    /// revision is the one a fresh read gives.
    #[test]
    fn one_revision_one_review_through_random_operations() {
        use crate::api::{Api, TextChange};
        use cowriting_core::offset::{CharRange, Utf16Offset};
        use cowriting_workspace::session::ProposeOptions;
        use std::collections::HashMap;

        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("d.md"), "one two three four five six\n").unwrap();
        let mut api = Api::open(dir.path()).unwrap();
        api.open_document("d.md").unwrap();
        let doc = DocPath::parse("d.md").unwrap();
        let sidecar = dir.path().join(".threads/d.md.json");
        let mut seen: HashMap<u64, String> = HashMap::new();
        let mut last = (0, String::new());
        let mut rng = 0x2545_f491_4f6c_dd1d_u64;
        let mut roll = |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n
        };
        for step in 0..400 {
            let review = api.review("d.md").unwrap();
            let pending: Vec<String> = review.proposals.iter().map(|p| p.id.clone()).collect();
            let threads: Vec<String> = review.threads.iter().map(|t| t.id.clone()).collect();
            let pick = |ids: &[String], k: u64| ids.get(k as usize % ids.len().max(1)).cloned();
            let len = api.sessions.get(&doc).unwrap().document().len_chars() as u64;
            let answered = match roll(10) {
                0 => {
                    // Another writer proposes; the watcher tells the app.
                    let store = api.store().clone();
                    let mut other =
                        Session::open(store, doc.clone(), cowriting_core::model::Provenance::human("o"))
                            .unwrap();
                    let at = roll(len.saturating_sub(4).max(1)) as usize;
                    let opts = ProposeOptions {
                        author: cowriting_core::model::Provenance::human("bot"),
                        turn_id: None,
                        instruction: None,
                    };
                    let _ = other.propose(CharRange::new(at, at + 3), "X", opts);
                    drop(other);
                    api.file_changed(&sidecar);
                    None
                }
                1 => pick(&pending, roll(99))
                    .and_then(|id| api.accept("d.md", &id, None).ok())
                    .map(|a| a.review),
                2 => pick(&pending, roll(99))
                    .and_then(|id| api.reject("d.md", &id).ok())
                    .map(|a| a.review),
                3 => {
                    let version = api.sessions.get(&doc).unwrap().document().version();
                    let at = Utf16Offset(roll(len) as usize);
                    let change = TextChange {
                        from: at,
                        to: at,
                        insert: "w ".into(),
                    };
                    api.edit("d.md", version, &[change], true).unwrap();
                    None
                }
                4 => api.undo("d.md").ok().map(|a| a.review),
                5 => api.redo("d.md").ok().map(|a| a.review),
                6 => {
                    let at = roll(len.saturating_sub(3).max(1)) as usize;
                    api.new_thread("d.md", Utf16Offset(at), Utf16Offset(at + 2), "hm")
                        .ok()
                }
                7 => pick(&threads, roll(99))
                    .and_then(|t| api.set_thread_resolved("d.md", &t, roll(2) == 0).ok()),
                8 => api.save("d.md").ok().map(|r| r.review),
                _ => {
                    api.seal_undo_group("d.md").unwrap();
                    None
                }
            };
            let now = api.review("d.md").unwrap();
            if let Some(a) = answered {
                assert_eq!(
                    a.revision, now.revision,
                    "step {step}: the answer's revision is the current one"
                );
            }
            let json = serde_json::to_string(&serde_json::json!({
                "proposals": now.proposals, "threads": now.threads, "spans": now.spans,
                "undo": now.can_undo, "redo": now.can_redo, "entry": now.entry,
            }))
            .unwrap();
            if let Some(before) = seen.get(&now.revision) {
                assert_eq!(
                    before, &json,
                    "step {step}: revision {} came with two reviews",
                    now.revision
                );
            }
            if json != last.1 {
                assert_ne!(
                    now.revision, last.0,
                    "step {step}: the review changed, its revision did not"
                );
            }
            seen.insert(now.revision, json.clone());
            last = (now.revision, json);
        }
        assert!(
            seen.len() > 100,
            "the operations changed the review: {} revisions",
            seen.len()
        );
    }
}
