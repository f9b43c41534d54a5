//! The sidecar's records: the artifact, its anchors, threads, comments,
//! proposals, attributions and provenance, each declared once
//! (`sidecar_record!`), with what they answer about themselves.

use super::*;

/// The whole sidecar of one document.
#[derive(Clone, Debug, PartialEq)]
pub struct Artifact {
    pub schema_version: u64,
    pub doc_path: String,
    /// One shared map; threads, attributions and proposals point into it.
    pub anchors: IndexMap<String, Anchor>,
    pub threads: Vec<Thread>,
    pub attributions: Vec<Attribution>,
    pub proposals: Vec<Proposal>,
    pub extra: Extra,
}

sidecar_record! {
    /// A shared record of the `anchors` map: what ties a thread, an attribution
    /// or a proposal to text.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Anchor("an anchor") {
        pub fingerprint: Fingerprint = "fingerprint",
    }
}

impl Anchor {
    /// Take `fp` as this anchor's fingerprint (a thread re-fingerprinted where
    /// its text is now), keeping the unknown fields the old one had.
    pub fn refingerprint(&mut self, mut fp: Fingerprint) {
        fp.extra = std::mem::take(&mut self.fingerprint.extra);
        self.fingerprint = fp;
    }
}

sidecar_record! {
    /// What an anchor remembers of its text: the text itself and up to 32 chars of
    /// context on each side, plus the 0-based line it started on.
    #[derive(Clone, Debug, PartialEq, Eq, Default)]
    pub struct Fingerprint("a fingerprint") {
        pub text: String = "text",
        pub before: String = "before",
        pub after: String = "after",
        pub line_hint: usize = "lineHint",
    }
}

open_enum! {
    /// A thread's `status`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum ThreadStatus("`open`, `resolved`, or another status a different tool wrote") {
        Open = "open",
        Resolved = "resolved",
    }
}

sidecar_record! {
    /// A comment thread anchored to text.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Thread("a thread") {
        pub id: String = "id",
        pub anchor_id: String = "anchorId",
        pub status: ThreadStatus = "status",
        pub comments: Vec<Comment> = "comments",
    }
}

impl Thread {
    /// The field a thread detached from its text carries (`"detached": true`):
    /// our own (the seeds leave threads' other fields to the writer), kept by
    /// every writer that keeps unknown fields.
    pub const DETACHED: &'static str = "detached";

    /// Whether a writer detached this thread from its text: it is listed with
    /// the orphaned threads and never resolved again.
    pub fn detached(&self) -> bool {
        self.extra.get(Self::DETACHED) == Some(&Value::Bool(true))
    }

    pub fn set_detached(&mut self, detached: bool) {
        if detached {
            self.extra.insert(Self::DETACHED.to_owned(), Value::Bool(true));
        } else {
            self.extra.shift_remove(Self::DETACHED);
        }
    }
}

sidecar_record! {
    /// A comment of a thread.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Comment("a comment") {
        pub id: String = "id",
        pub author: Provenance = "author",
        /// Untrusted Markdown: render sanitized, never as live HTML.
        pub body: String = "body",
        pub created_at: String = "createdAt",
    }
}

sidecar_record! {
    /// One contiguous span of text whose author is known.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Attribution("an attribution") {
        pub id: String = "id",
        pub anchor_id: String = "anchorId",
        pub author: Provenance = "author",
        pub created_at: String = "createdAt",
        pub turn_id: Option<String> = "turnId",
        /// What the human asked for when this text was proposed (our addition; optional).
        pub instruction: Option<String> = "instruction",
    }
}

sidecar_record! {
    /// A pending machine edit (pending-only: accept and reject remove it).
    #[derive(Clone, Debug, PartialEq)]
    pub struct Proposal("a proposal") {
        pub id: String = "id",
        /// The anchor's `fingerprint.text` is the exact target text.
        pub anchor_id: String = "anchorId",
        pub replacement: String = "replacement",
        pub author: Provenance = "author",
        pub created_at: String = "createdAt",
        pub turn_id: Option<String> = "turnId",
        pub instruction: Option<String> = "instruction",
    }
}

open_enum! {
    /// An author's `kind`.
    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    pub enum AuthorKind("`agent`, `human`, or another kind a different tool wrote") {
        Agent = "agent",
        Human = "human",
    }
}

sidecar_record! {
    /// Who wrote something: a human (by e-mail or name: the settings', else git's) or an agent.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Provenance("an author") {
        pub kind: AuthorKind = "kind",
        pub id: String = "id",
        /// The name to show beside the id (a writer's "Ada Marsh" beside
        /// "ada@example.com"); optional, kept by the VS Code flow.
        pub name: Option<String> = "name",
        pub agent: Option<AgentInfo> = "agent",
    }
}

sidecar_record! {
    /// What an agent author names of itself.
    #[derive(Clone, Debug, PartialEq, Default)]
    pub struct AgentInfo("agent info") {
        pub sdk: Option<String> = "sdk",
        pub model: Option<String> = "model",
        pub session_id: Option<String> = "sessionId",
    }
}

impl Provenance {
    pub fn human(id: impl Into<String>) -> Self {
        Provenance {
            kind: AuthorKind::Human,
            id: id.into(),
            name: None,
            agent: None,
            extra: Extra::new(),
        }
    }

    /// The same author with `name` to show beside the id (none when it is
    /// empty or the id itself).
    pub fn with_name(mut self, name: Option<&str>) -> Self {
        self.name = name
            .map(str::trim)
            .filter(|n| !n.is_empty() && *n != self.id)
            .map(str::to_owned);
        self
    }

    pub fn agent(id: impl Into<String>, info: AgentInfo) -> Self {
        Provenance {
            kind: AuthorKind::Agent,
            id: id.into(),
            name: None,
            agent: Some(info),
            extra: Extra::new(),
        }
    }

    pub fn is_agent(&self) -> bool {
        self.kind == AuthorKind::Agent
    }

    /// Two provenances name the same author when kind, id and agent model agree
    /// (a name, session ids and unknown fields do not make a different author; an empty
    /// model, what writers put when they do not know it, is no model).
    pub fn same_author(&self, other: &Provenance) -> bool {
        self.kind == other.kind && self.id == other.id && self.model() == other.model()
    }

    /// The agent's model, when one is named (an empty one is not).
    pub fn model(&self) -> Option<&str> {
        self.agent
            .as_ref()
            .and_then(|a| a.model.as_deref())
            .filter(|m| !m.is_empty())
    }
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.model() {
            Some(model) => write!(f, "{} ({model})", self.id),
            None => f.write_str(&self.id),
        }
    }
}

impl Artifact {
    /// An empty v1 sidecar for `doc_path`.
    pub fn empty(doc_path: &str) -> Self {
        Artifact {
            schema_version: SCHEMA_VERSION,
            doc_path: doc_path.to_owned(),
            anchors: IndexMap::new(),
            threads: Vec::new(),
            attributions: Vec::new(),
            proposals: Vec::new(),
            extra: Extra::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.anchors.is_empty()
            && self.threads.is_empty()
            && self.attributions.is_empty()
            && self.proposals.is_empty()
            && self.extra.is_empty()
    }

    /// Every anchor id that some record references, in record order.
    pub fn referenced_anchor_ids(&self) -> impl Iterator<Item = &str> {
        self.threads
            .iter()
            .map(|t| t.anchor_id.as_str())
            .chain(self.attributions.iter().map(|a| a.anchor_id.as_str()))
            .chain(self.proposals.iter().map(|p| p.anchor_id.as_str()))
    }

    /// Remove anchors no thread, attribution or proposal references.
    /// Returns how many were removed.
    pub fn prune_anchors(&mut self) -> usize {
        let referenced: std::collections::HashSet<String> =
            self.referenced_anchor_ids().map(str::to_owned).collect();
        let before = self.anchors.len();
        self.anchors.retain(|id, _| referenced.contains(id));
        before - self.anchors.len()
    }

    pub fn proposal(&self, id: &str) -> Option<&Proposal> {
        self.proposals.iter().find(|p| p.id == id)
    }

    pub fn thread(&self, id: &str) -> Option<&Thread> {
        self.threads.iter().find(|t| t.id == id)
    }

    pub fn thread_mut(&mut self, id: &str) -> Option<&mut Thread> {
        self.threads.iter_mut().find(|t| t.id == id)
    }

    pub fn fingerprint(&self, anchor_id: &str) -> Option<&Fingerprint> {
        self.anchors.get(anchor_id).map(|a| &a.fingerprint)
    }
}
