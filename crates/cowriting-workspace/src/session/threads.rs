//! Comment threads: new, reply, resolve, keep a relocated thread here, detach.

use super::*;

impl Session {
    /// Start a thread on `range` with a first comment by this session's human.
    pub fn new_thread(&mut self, range: CharRange, body: &str) -> Result<String> {
        let comment = self.comment(body);
        self.new_thread_with(range, comment)
    }

    /// Start a thread on `range` whose first comment is `author`'s (an agent
    /// commenting from the writer's session: Claude's review pass), with
    /// `extra` fields on the comment (its `turnId`).
    pub fn new_thread_as(
        &mut self,
        range: CharRange,
        body: &str,
        author: Provenance,
        extra: Extra,
    ) -> Result<String> {
        let comment = self.comment_as(body, author, extra);
        self.new_thread_with(range, comment)
    }

    /// A comment by `author`, not this session's human, with `extra` fields.
    fn comment_as(&self, body: &str, author: Provenance, extra: Extra) -> Comment {
        Comment {
            author,
            extra,
            ..self.comment(body)
        }
    }

    fn new_thread_with(&mut self, range: CharRange, comment: Comment) -> Result<String> {
        self.check_range(range)?;
        check_body(&comment.body)?;
        let fingerprint = build_fingerprint(&self.doc, range);
        let anchor_id = new_id("a");
        let id = new_id("t");
        let thread = Thread {
            id: id.clone(),
            anchor_id: anchor_id.clone(),
            status: ThreadStatus::Open,
            comments: vec![comment],
            extra: Extra::new(),
        };
        self.add_anchored(range, anchor_id, fingerprint, |a| a.threads.push(thread.clone()))?;
        Ok(id)
    }

    pub(super) fn comment(&self, body: &str) -> Comment {
        Comment {
            id: new_id("c"),
            author: self.identity.clone(),
            body: body.to_owned(),
            created_at: now_iso(),
            extra: Extra::new(),
        }
    }

    /// Reply to a thread; returns the new comment's id.
    pub fn reply(&mut self, thread_id: &str, body: &str) -> Result<String> {
        let comment = self.comment(body);
        self.reply_with(thread_id, comment)
    }

    /// Reply to a thread as `author` (Claude answering in the thread), with
    /// `extra` fields on the comment; returns the new comment's id.
    pub fn reply_as(
        &mut self,
        thread_id: &str,
        body: &str,
        author: Provenance,
        extra: Extra,
    ) -> Result<String> {
        let comment = self.comment_as(body, author, extra);
        self.reply_with(thread_id, comment)
    }

    fn reply_with(&mut self, thread_id: &str, comment: Comment) -> Result<String> {
        check_body(&comment.body)?;
        let cid = comment.id.clone();
        let doc = self.doc_path.to_string();
        let missing = || Error::NotFound {
            what: "thread",
            id: thread_id.to_owned(),
            doc: doc.clone(),
        };
        self.update(|a| {
            let t = a.thread_mut(thread_id).ok_or_else(missing)?;
            t.comments.push(comment.clone());
            Ok(())
        })?;
        Ok(cid)
    }

    /// Resolve or reopen a thread.
    pub fn set_thread_status(&mut self, thread_id: &str, status: ThreadStatus) -> Result<()> {
        let doc = self.doc_path.to_string();
        let missing = || Error::NotFound {
            what: "thread",
            id: thread_id.to_owned(),
            doc: doc.clone(),
        };
        self.update(|a| {
            let t = a.thread_mut(thread_id).ok_or_else(missing)?;
            t.status = status.clone();
            Ok(())
        })
    }

    /// Keep a relocated thread where it was re-attached: its text there becomes
    /// what it is about. Written at once when the buffer is saved (else with
    /// the next save, which fingerprints it where it is then).
    pub fn keep_thread_here(&mut self, thread_id: &str) -> Result<()> {
        let anchor_id = self.thread_anchor(thread_id)?;
        let Some(range) = self.tracked.get(&anchor_id).copied() else {
            return Err(Error::BadInput(format!(
                "thread {thread_id} is not attached to any text; there is nowhere to keep it"
            )));
        };
        self.relocated.remove(&anchor_id);
        if self.is_dirty() {
            return Ok(());
        }
        let fingerprint = build_fingerprint(&self.doc, range);
        self.update(|a| {
            if let Some(anchor) = a.anchors.get_mut(&anchor_id) {
                anchor.refingerprint(fingerprint.clone());
            }
            Ok(())
        })
    }

    /// Detach a thread from its text: it stays, with its comments and the text
    /// it was about, among the orphaned threads, and is never placed again.
    pub fn detach_thread(&mut self, thread_id: &str) -> Result<()> {
        let anchor_id = self.thread_anchor(thread_id)?;
        let doc = self.doc_path.to_string();
        self.update(|a| {
            let t = a.thread_mut(thread_id).ok_or_else(|| Error::NotFound {
                what: "thread",
                id: thread_id.to_owned(),
                doc: doc.clone(),
            })?;
            t.set_detached(true);
            Ok(())
        })?;
        self.relocated.remove(&anchor_id);
        Ok(())
    }

    pub(super) fn thread_anchor(&self, thread_id: &str) -> Result<String> {
        self.artifact
            .threads
            .iter()
            .find(|t| t.id == thread_id)
            .map(|t| t.anchor_id.clone())
            .ok_or_else(|| self.not_found("thread", thread_id))
    }
}
