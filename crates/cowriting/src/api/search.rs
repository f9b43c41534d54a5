//! Search across the workspace for the app: the documents it has open as the
//! writer has them (unsaved text included), the others as they are on disk.

use super::*;
use crate::ops::search::search_docs;
use crate::ops::{SearchOut, SearchQuery};

impl Api {
    /// Search every document's text and threads (see the module docs).
    pub fn search(&self, query: &SearchQuery) -> Result<SearchOut> {
        let ops = self.ops();
        search_docs(query, Unit::Utf16, ops.docs(None)?, |doc, f| {
            match self.sessions.get(doc) {
                Some(s) => f(s),
                None => f(&ops.session(doc)?),
            }
            Ok(())
        })
    }
}
