//! The workspace's review for the app (the Inbox tab): the documents it has
//! open as the writer has them (an accept waiting for its save is not listed
//! again), the others as they are on disk, read off the app's lock.

use super::*;
use crate::ops::doc_cache::InboxCache;
use crate::ops::inbox::{doc_items, DocItems};
use crate::ops::{InboxFilter, InboxOut};
use cowriting_workspace::error::ErrorInfo;

impl Api {
    /// The open documents' items (taken under the app's lock: they are in
    /// memory), the one API to read the others with, off that lock, and what
    /// was read of them last time ([`Ops::inbox_cached`]).
    pub fn inbox_open(&self) -> InboxOpen {
        let open = self
            .sessions
            .iter()
            .map(|(d, s)| (d.clone(), doc_items(s, Unit::Utf16)))
            .collect();
        InboxOpen {
            ops: self.ops(),
            open,
            cache: self.inbox_cache.clone(),
        }
    }

    /// The workspace's review, all of it, in one call (the lock held throughout).
    pub fn inbox(&self) -> Result<InboxOut> {
        self.inbox_open().read()
    }
}

/// What [`Api::inbox_open`] takes under the app's lock for the Inbox to be read off it.
pub struct InboxOpen {
    ops: Ops,
    open: std::collections::BTreeMap<DocPath, std::result::Result<DocItems, ErrorInfo>>,
    cache: Arc<std::sync::Mutex<InboxCache>>,
}

impl InboxOpen {
    /// The workspace's review: the open documents as given, the closed ones
    /// read where their files changed since the last time.
    pub fn read(self) -> Result<InboxOut> {
        let mut cache = self
            .cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        self.ops
            .inbox_cached(&InboxFilter::default(), self.open, &mut cache)
    }

    /// How many closed documents the last listing read from their files.
    pub fn last_read(&self) -> usize {
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .last_read()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowriting_workspace::session::ProposeOptions;

    fn propose(api: &Api, doc: &str, at: (usize, usize), by: &str, turn: &str) -> String {
        let mut s = Session::open(
            api.store().clone(),
            DocPath::parse(doc).unwrap(),
            Provenance::human("h"),
        )
        .unwrap();
        let opts = ProposeOptions {
            author: Provenance::human("bot"),
            turn_id: Some(turn.into()),
            instruction: None,
        };
        s.propose(CharRange::new(at.0, at.1), by, opts).unwrap()
    }

    /// Every answer carrying a review says what the document's entry in the
    /// file tree is now, exactly as the workspace's listing has it.
    #[test]
    fn a_review_carries_the_tree_entry_the_listing_has() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "one two three\n").unwrap();
        let mut api = Api::open(dir.path()).unwrap();
        let p1 = propose(&api, "a.md", (0, 3), "1", "t");
        propose(&api, "a.md", (4, 7), "2", "t");
        let listed = |api: &Api| {
            let e = api
                .workspace()
                .documents
                .into_iter()
                .find(|d| d.path == "a.md")
                .unwrap();
            (e.proposals, e.open_threads, e.sidecar_error)
        };
        let of = |e: &DocEntry| (e.proposals, e.open_threads, e.sidecar_error);
        let opened = api.open_document("a.md").unwrap();
        assert_eq!(of(&opened.review.entry), (2, 0, false));
        let accepted = api.accept("a.md", &p1, None).unwrap();
        assert_eq!(of(&accepted.review.entry), (1, 0, false));
        assert_eq!(of(&accepted.review.entry), listed(&api));
        let threaded = api
            .new_thread("a.md", Utf16Offset(6), Utf16Offset(11), "why?")
            .unwrap();
        assert_eq!(of(&threaded.entry), (1, 1, false));
        assert_eq!(of(&threaded.entry), listed(&api));
        let saved = api.save("a.md").unwrap();
        assert_eq!(of(&saved.review.entry), listed(&api));
        assert_eq!(saved.review.entry.path, "a.md");
    }

    /// The open documents are listed as the writer has them (an accept waiting
    /// for its save is not listed again, though the file still has it); the
    /// others as they are on disk; positions in UTF-16.
    #[test]
    fn open_documents_are_listed_as_the_writer_has_them() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "😀 one two\n").unwrap();
        std::fs::write(dir.path().join("b.md"), "three four\n").unwrap();
        let mut api = Api::open(dir.path()).unwrap();
        let a1 = propose(&api, "a.md", (2, 5), "1", "t");
        let a2 = propose(&api, "a.md", (6, 9), "2", "t");
        let b1 = propose(&api, "b.md", (0, 5), "3", "t");
        let listed = |out: &InboxOut| -> Vec<(String, String)> {
            out.groups
                .iter()
                .flat_map(|g| {
                    g.proposals
                        .iter()
                        .map(|p| (p.document.clone(), p.proposal.id.clone()))
                })
                .collect()
        };
        let all = api.inbox().unwrap();
        assert_eq!(all.groups.len(), 1, "one turn across two documents");
        assert_eq!(
            listed(&all),
            [
                ("a.md".into(), a1.clone()),
                ("a.md".into(), a2.clone()),
                ("b.md".into(), b1.clone())
            ]
        );
        assert_eq!(
            all.groups[0].proposals[0].proposal.from,
            Some(3),
            "UTF-16: the emoji counts 2"
        );

        api.open_document("a.md").unwrap();
        api.accept_all("a.md", std::slice::from_ref(&a1)).unwrap();
        assert_eq!(
            listed(&api.inbox().unwrap()),
            [("a.md".into(), a2.clone()), ("b.md".into(), b1.clone())]
        );
        let on_disk = api.ops().inbox(&InboxFilter::default()).unwrap();
        assert_eq!(listed(&on_disk).len(), 3, "not saved yet: the file still has it");
        api.save("a.md").unwrap();
        assert_eq!(
            listed(&api.ops().inbox(&InboxFilter::default()).unwrap()).len(),
            2
        );
    }
}
