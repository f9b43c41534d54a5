//! Search across the workspace for the app: the documents it has open as the
//! writer has them (unsaved text included), the others as they are on disk,
//! read off the app's lock.

use super::*;
use crate::ops::search::OpenFinds;
use crate::ops::{SearchOut, SearchQuery};

impl Api {
    /// What `query` finds in the open documents (searched under the app's
    /// lock: they are in memory) and the one API to search the others with,
    /// off that lock ([`Ops::search_with`]).
    pub fn search_open(&self, query: &SearchQuery) -> Result<(Ops, OpenFinds)> {
        let ops = self.ops();
        let open = OpenFinds::new(query, ops.unit(), self.sessions.iter())?;
        Ok((ops, open))
    }

    /// Search every document's text and threads in one call (the lock held
    /// throughout).
    pub fn search(&self, query: &SearchQuery) -> Result<SearchOut> {
        let (ops, open) = self.search_open(query)?;
        ops.search_with(query, open)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::TextChange;
    use crate::ops::search::MAX_HITS;
    use cowriting_core::offset::Utf16Offset;

    fn q(text: &str) -> SearchQuery {
        SearchQuery::literal(text)
    }

    /// The open document is searched as the writer has it (unsaved text
    /// included), the others on disk; hits come in the documents' order, and
    /// the cap holds across both, the answer saying there was more.
    #[test]
    fn open_documents_as_the_writer_has_them_the_others_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "fox on disk\n").unwrap();
        std::fs::write(dir.path().join("b.md"), "fox saved\n").unwrap();
        std::fs::write(dir.path().join("c.md"), "fox in c\n").unwrap();
        let mut api = Api::open(dir.path()).unwrap();
        let v = api.open_document("b.md").unwrap();
        let end = api.text_of("b.md").encode_utf16().count();
        let insert = "fox typed\n".to_owned();
        api.edit(
            "b.md",
            v.version,
            &[TextChange {
                from: Utf16Offset(end),
                to: Utf16Offset(end),
                insert,
            }],
            true,
        )
        .unwrap();
        // A file changed on disk after it was opened: the search reads the buffer.
        std::fs::write(dir.path().join("b.md"), "nothing here\n").unwrap();

        let (ops, open) = api.search_open(&q("fox")).unwrap();
        drop(api); // the rest of the search needs no Api (the app's lock is free)
        let out = ops.search_with(&q("fox"), open).unwrap();
        let found: Vec<(&str, u32, &str)> = out
            .hits
            .iter()
            .map(|h| (h.document.as_str(), h.line, h.after.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                ("a.md", 1, " on disk"),
                ("b.md", 1, " saved"),
                ("b.md", 2, " typed"),
                ("c.md", 1, " in c")
            ]
        );
        assert!(!out.truncated);

        std::fs::write(dir.path().join("a.md"), "x\n".repeat(MAX_HITS)).unwrap();
        std::fs::write(dir.path().join("c.md"), "none\n").unwrap();
        let api = Api::open(dir.path()).unwrap();
        let out = api.search(&q("x")).unwrap();
        assert_eq!(out.hits.len(), MAX_HITS);
        assert!(!out.truncated, "exactly the cap: nothing more");
        std::fs::write(dir.path().join("c.md"), "x\n").unwrap();
        let out = Api::open(dir.path()).unwrap().search(&q("x")).unwrap();
        assert_eq!(out.hits.len(), MAX_HITS);
        assert!(out.truncated, "one more in another document");
    }
}
