//! Documents as files through the one API: new, rename (the sidecar and the
//! pending ledger entries follow), to the system trash, new folders
//! ([`cowriting_workspace::documents`] does the work under the locks).

use super::*;
use cowriting_workspace::documents;

impl Ops {
    /// A new, empty document named `name` (`.md` added when it has no
    /// document ending; missing folders made); refused with `exists` when
    /// anything is at that name.
    pub fn new_document(&self, name: &str) -> Result<NewDocumentOut> {
        let doc = documents::new_document(&self.store, name)?;
        Ok(NewDocumentOut {
            document: doc.to_string(),
        })
    }

    /// Rename or move `from` to `to`; its sidecar and pending suggestions go
    /// with it. Refused with `exists` when anything is at the new name.
    pub fn rename_document(&self, from: &str, to: &str) -> Result<RenamedOut> {
        let from = self.doc(from)?;
        let to = documents::rename_document(&self.store, &from, to)?;
        Ok(RenamedOut {
            from: from.to_string(),
            to: to.to_string(),
        })
    }

    /// Move `doc` and its review data to the system trash.
    pub fn trash_document(&self, doc: &str) -> Result<TrashedOut> {
        let doc = self.doc(doc)?;
        let t = documents::trash_document(&self.store, &doc)?;
        Ok(TrashedOut {
            document: t.document.to_string(),
            sidecar: t.sidecar,
            pending: t.pending,
        })
    }

    /// A new folder (its missing parents made); refused with `exists` when it is there.
    pub fn new_folder(&self, name: &str) -> Result<FolderOut> {
        Ok(FolderOut {
            folder: documents::new_folder(self.workspace(), name)?,
        })
    }
}
