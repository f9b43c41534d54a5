//! The authorship of a document handed to other tools and brought from them:
//! an Agent Trace record and iA Writer's Markdown Annotations out
//! ([`Ops::authorship_export`]), iA's annotations in
//! ([`Ops::import_ia_annotations`]). The formats are the pure core's
//! ([`cowriting_core::authorship::agent_trace`], [`cowriting_core::authorship::ia`]);
//! here are the files, the session and git.

use super::*;
use cowriting_core::attribution::SpanAuthor;
use cowriting_core::authorship::{agent_trace, ia};
use cowriting_core::changeset::ChangeSet;
use cowriting_core::model::{now_iso, AgentInfo, AuthorKind};
use serde::Serialize;
use std::path::Path;

/// What the authorship of a document is exported as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum AuthorshipFormat {
    /// An Agent Trace 0.1.0 record (JSON).
    AgentTrace,
    /// The document followed by iA Writer's Markdown Annotations block.
    IaAnnotations,
}

/// An authorship export written to a file.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthorshipFileOut {
    pub document: String,
    pub format: AuthorshipFormat,
    /// The file written (its folder resolved).
    pub path: String,
    pub bytes: u32,
}

/// What an import of iA Writer's annotations did.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportIaOut {
    pub document: String,
    /// The ranges given to an author.
    pub ranges: u32,
    /// The authors, as the annotations name them (`@name <id>`, `&name <id>`),
    /// with what each became.
    pub authors: Vec<ImportedAuthor>,
    /// The block was read off the end of the document and taken out of it.
    pub block_removed: bool,
}

/// An author of imported annotations.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportedAuthor {
    /// The annotation key (`@Ann`, `&gpt-4o <openai>`).
    pub key: String,
    /// `human` (the writer) or `agent`.
    pub kind: String,
    /// The id the text is now attributed to.
    pub id: String,
    /// An agent's model: the name iA Writer gave it.
    pub model: Option<String>,
    /// Characters given to this author.
    pub chars: u32,
}

/// The authors of a session's spans (one per author: kind, id and model), and
/// the spans by index into them.
pub(crate) fn spans_by_author(s: &Session) -> (Vec<Provenance>, Vec<(CharRange, usize)>) {
    let mut authors: Vec<Provenance> = Vec::new();
    let mut spans = Vec::new();
    for sp in s.spans() {
        let a = &sp.who.author;
        let i = match authors.iter().position(|x| x.same_author(a)) {
            Some(i) => i,
            None => {
                authors.push(a.clone());
                authors.len() - 1
            }
        };
        spans.push((sp.range, i));
    }
    (authors, spans)
}

/// Whether spans of `author` cover all of `range`.
fn already(s: &Session, range: CharRange, author: &Provenance) -> bool {
    let mut at = range.start;
    for sp in s.spans() {
        if sp.range.end <= at {
            continue;
        }
        if sp.range.start > at || !sp.who.author.same_author(author) {
            return false;
        }
        at = sp.range.end;
        if at >= range.end {
            return true;
        }
    }
    range.is_empty()
}

fn n(x: usize) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

impl Ops {
    /// The authorship of `doc` (as it is on disk) as `format`: an Agent Trace
    /// record, or the document with iA Writer's annotation block after it.
    /// In a git repository the record's path is from the repository's top, and
    /// its `vcs` names the commit at `HEAD` when the document is committed as
    /// it is (the spec's line numbers are those of the revision it names); a
    /// document with changes not committed has no `vcs`.
    pub fn authorship_export(&self, doc: &str, format: AuthorshipFormat) -> Result<String> {
        let doc = self.doc(doc)?;
        let s = self.review_session(&doc)?;
        let (authors, spans) = spans_by_author(&s);
        let text = &s.document().flatten();
        Ok(match format {
            AuthorshipFormat::AgentTrace => {
                let contributors: Vec<agent_trace::Contributor> = authors
                    .iter()
                    .map(|a| match a.kind {
                        AuthorKind::Human => agent_trace::Contributor::human(),
                        AuthorKind::Agent => agent_trace::Contributor::ai(a.model()),
                        _ => agent_trace::Contributor::unknown(),
                    })
                    .collect();
                let root = self.workspace().root();
                let git = cowriting_git::head_commit(root);
                let path = match &git {
                    Some((_, prefix)) => format!("{prefix}{doc}"),
                    None => doc.to_string(),
                };
                let git = git.filter(|_| cowriting_git::committed_as(root, &path, &s.document().to_bytes()));
                let record = agent_trace::TraceRecord {
                    version: agent_trace::VERSION,
                    id: agent_trace::new_uuid(),
                    timestamp: now_iso(),
                    vcs: git.map(|(revision, _)| agent_trace::Vcs {
                        kind: "git",
                        revision,
                    }),
                    tool: agent_trace::Tool {
                        name: "cowriting".into(),
                        version: env!("CARGO_PKG_VERSION").into(),
                    },
                    files: vec![agent_trace::file(&path, text, &spans, &contributors)],
                };
                let mut out = serde_json::to_string_pretty(&record).expect("a record serializes");
                out.push('\n');
                out
            }
            AuthorshipFormat::IaAnnotations => {
                let authors: Vec<ia::Author> = authors
                    .iter()
                    .map(|a| ia::Author {
                        human: a.kind == AuthorKind::Human,
                        name: match a.kind {
                            AuthorKind::Agent => a.model().map(str::to_owned),
                            _ => Some(a.id.clone()),
                        },
                        identifier: (a.kind != AuthorKind::Human).then(|| a.id.clone()),
                    })
                    .collect();
                ia::annotated(text, &spans, &authors)
            }
        })
    }

    /// Write an authorship export to the file the writer named
    /// ([`cowriting_workspace::outfile::write_named_file`]): refused with
    /// `exists` when something is there, unless `overwrite`; never through a symlink.
    pub fn write_authorship_export(
        &self,
        doc: &str,
        format: AuthorshipFormat,
        content: &str,
        target: &Path,
        overwrite: bool,
    ) -> Result<AuthorshipFileOut> {
        let document = self.doc(doc)?.to_string();
        let path = cowriting_workspace::outfile::write_named_file(
            &self.store,
            target,
            content.as_bytes(),
            overwrite,
        )?;
        Ok(AuthorshipFileOut {
            document,
            format,
            path: path.display().to_string(),
            bytes: n(content.len()),
        })
    }

    /// Bring iA Writer's authorship into `doc`'s attribution: the Markdown
    /// Annotations block at the end of `file` (the text `file` holds is not
    /// used; its hash must fit `doc`'s text), or, without `file`, at the end
    /// of the document itself (then taken out of it, the text left as iA
    /// Writer shows it). `@` authors' ranges become the caller's (the writer),
    /// `&` authors' an agent's: the `<identifier>` as its id (else
    /// `ia-writer`, the tool the text came through) and the name as its
    /// model. Text already that author's keeps its records. One save: the
    /// document (when the block is taken out) and its sidecar. A block whose
    /// hash does not fit the text is refused (`bad_input`) and nothing is
    /// written.
    pub fn import_ia_annotations(&self, doc: &str, file: Option<&Path>) -> Result<ImportIaOut> {
        let doc = self.doc(doc)?;
        let mut s = self.review_session(&doc)?;
        let text = s.document().flatten();
        let (source, own) = match file {
            Some(f) => {
                let bytes = std::fs::read(f).map_err(|e| Error::BadInput(format!("{}: {e}", f.display())))?;
                let content = String::from_utf8(bytes)
                    .map_err(|_| Error::BadInput(format!("{}: not UTF-8 text", f.display())))?;
                (f.display().to_string(), Some(content))
            }
            None => (doc.to_string(), None),
        };
        let bad = |why: &dyn std::fmt::Display| Error::BadInput(format!("{source}: {why}"));
        let (annotated, annotations) = match &own {
            Some(content) => (text.as_str(), ia::split(content).map_err(|e| bad(&e))?.1),
            None => ia::split(&text).map_err(|e| bad(&e))?,
        };
        let ranges = ia::char_ranges(annotated, &annotations).map_err(|e| bad(&e))?;
        let now = now_iso();
        let whos: Vec<(SpanAuthor, ImportedAuthor)> = annotations
            .authors
            .iter()
            .map(|(a, _)| {
                let author = if a.human {
                    self.caller.clone()
                } else {
                    let id = a.identifier.clone().unwrap_or_else(|| "ia-writer".into());
                    Provenance::agent(
                        id,
                        AgentInfo {
                            model: a.name.clone(),
                            ..AgentInfo::default()
                        },
                    )
                };
                let imported = ImportedAuthor {
                    key: a.key(),
                    kind: author.kind.as_str().to_owned(),
                    id: author.id.clone(),
                    model: author.model().map(str::to_owned),
                    chars: 0,
                };
                (
                    SpanAuthor {
                        author,
                        turn_id: None,
                        instruction: None,
                        created_at: now.clone(),
                    },
                    imported,
                )
            })
            .collect();
        let mut authors: Vec<ImportedAuthor> = whos.iter().map(|(_, i)| i.clone()).collect();
        let mut paints = Vec::with_capacity(ranges.len());
        for (r, i) in &ranges {
            authors[*i].chars += n(r.end.0 - r.start.0);
            // Text already this author's keeps its records (an import of
            // what was exported from here changes nothing).
            if !already(&s, *r, &whos[*i].0.author) {
                paints.push((*r, whos[*i].0.clone()));
            }
        }
        let len = s.document().len_chars();
        let change = match own {
            Some(_) => ChangeSet::identity(len),
            None => {
                let keep = annotated.chars().count();
                ChangeSet::replace(len, CharRange::new(keep, len), "").map_err(|e| Error::Document {
                    path: doc.to_string(),
                    source: e.into(),
                })?
            }
        };
        s.attribute(&change, paints)?;
        s.save()?;
        Ok(ImportIaOut {
            document: doc.to_string(),
            ranges: n(ranges.len()),
            authors,
            block_removed: file.is_none(),
        })
    }
}
