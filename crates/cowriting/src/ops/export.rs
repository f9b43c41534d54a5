//! Export a document: a standalone HTML page ([`html`]), the HTML a PDF is
//! printed from (the app prints it with its web view's engine), or Markdown
//! with the review data as CriticMarkup ([`critic`]), for other review tools.
//!
//! Rendering is pure: the session's text and its review data become plain
//! data ([`annotations::Annotations`], byte ranges of the text) and the renderers know
//! nothing of sessions or files. An export of the app's open document shows
//! its text as the writer has it (unsaved edits included); the CLI's, the text
//! on disk. Writing the file the writer named goes through the workspace's
//! guard for such files ([`cowriting_workspace::outfile`]): never through a
//! symlink, never over a file unless asked, never among the workspace's own
//! files.

use super::*;
use cowriting_workspace::outfile;
use serde::{Deserialize, Serialize};
use std::path::Path;

pub mod annotations;
pub mod critic;
pub mod html;

#[cfg(feature = "ts")]
use ts_rs::TS;

/// What a document is exported as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[cfg_attr(feature = "ts", derive(TS), ts(export))]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    /// A standalone HTML page.
    Html,
    /// A PDF, printed from the HTML page (by the app: its web view's print engine).
    Pdf,
    /// Markdown with the pending proposals and open threads as CriticMarkup.
    Critic,
}

impl ExportFormat {
    /// The file name ending an export of this format gets.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Html => "html",
            ExportFormat::Pdf => "pdf",
            ExportFormat::Critic => "md",
        }
    }

    /// The name an export of `doc` is offered under: `essay.md` →
    /// `essay.html`, `essay.pdf`, `essay.critic.md`.
    pub fn file_name(self, doc: &DocPath) -> String {
        let name = doc.as_str().rsplit('/').next().unwrap_or(doc.as_str());
        let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
        match self {
            ExportFormat::Critic => format!("{stem}.critic.md"),
            f => format!("{stem}.{}", f.extension()),
        }
    }
}

/// A document rendered for export.
#[derive(Clone, Debug)]
pub struct Rendered {
    pub document: String,
    pub format: ExportFormat,
    /// The page's title (front matter, first heading, or the file's name).
    pub title: String,
    /// The HTML page (for `Html` and `Pdf`) or the CriticMarkup text.
    pub content: String,
    /// Pending proposals and open threads included (0 in a clean copy).
    pub proposals: u32,
    pub threads: u32,
}

/// The review data of `s` as an export shows it (its annotations): pending proposals placed on
/// their targets, stale and orphaned ones listed; open threads (placed, or
/// listed when orphaned or detached). Resolved threads are done with and left out.
pub fn annotations_of(s: &Session) -> annotations::Annotations {
    let mut out = annotations::Annotations::default();
    for p in views::proposals(s, Unit::Byte) {
        let reason = p
            .contract
            .as_ref()
            .map(|c| c.reason.clone())
            .or(p.instruction.clone())
            .filter(|r| !r.trim().is_empty());
        match (p.state, p.from, p.to) {
            (ProposalState::Pending, Some(from), Some(to)) => out.edits.push(annotations::Edit {
                range: from as usize..to as usize,
                replacement: p.replacement,
                author: p.author.label,
                reason,
            }),
            (state, ..) => out.lost_edits.push(annotations::LostEdit {
                target: p.target,
                replacement: p.replacement,
                author: p.author.label,
                why: p.reason.unwrap_or_else(|| format!("{state:?}").to_lowercase()),
            }),
        }
    }
    for t in views::threads(s, Unit::Byte) {
        if t.status != ThreadStatus::Open {
            continue;
        }
        out.notes.push(annotations::Note {
            range: t.from.zip(t.to).map(|(from, to)| from as usize..to as usize),
            anchored_text: t.anchored_text,
            comments: t
                .comments
                .into_iter()
                .map(|c| annotations::Comment {
                    author: c.author.label,
                    body: c.body,
                })
                .collect(),
        });
    }
    out
}

/// The document of `s`, as the session has it, rendered as `format`; review
/// data with `with_review` (CriticMarkup always has it: it is what the format is
/// for); remote images loaded only with `remote_images` ([`html::Images`]).
pub fn render(s: &Session, format: ExportFormat, with_review: bool, remote_images: bool) -> Rendered {
    let text = &s.document().flatten();
    let name = s.doc_path().as_str().rsplit('/').next().unwrap_or_default();
    let fallback = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    let review = (with_review || format == ExportFormat::Critic).then(|| annotations_of(s));
    let (proposals, threads) = review
        .as_ref()
        .map_or((0, 0), |r| (r.edits.len() as u32, r.notes.len() as u32));
    let content = match format {
        ExportFormat::Critic => critic::render(text, review.as_ref().expect("critic has review data")),
        ExportFormat::Html | ExportFormat::Pdf => {
            let images = if remote_images {
                html::Images::Remote
            } else {
                html::Images::Local
            };
            html::render(text, fallback, review.as_ref(), images)
        }
    };
    Rendered {
        document: s.doc_path().to_string(),
        format,
        title: html::title(text, fallback),
        content,
        proposals,
        threads,
    }
}

impl Ops {
    /// `doc` as it is on disk, rendered as `format` (for `Pdf`, the HTML the
    /// PDF is printed from). A clean copy needs no review data: a corrupt
    /// sidecar refuses only an export that shows it.
    pub fn export(
        &self,
        doc: &str,
        format: ExportFormat,
        with_review: bool,
        remote_images: bool,
    ) -> Result<Rendered> {
        let doc = self.doc(doc)?;
        let s = if with_review || format == ExportFormat::Critic {
            self.review_session(&doc)?
        } else {
            self.session(&doc)?
        };
        Ok(render(&s, format, with_review, remote_images))
    }

    /// Write an export's bytes to the file the writer named
    /// ([`outfile::write_named_file`]): refused with `exists` when something
    /// is there, unless `overwrite`; never through a symlink.
    pub fn write_export(
        &self,
        rendered: &Rendered,
        bytes: &[u8],
        target: &Path,
        overwrite: bool,
    ) -> Result<ExportOut> {
        let path = outfile::write_named_file(&self.store, target, bytes, overwrite)?;
        Ok(ExportOut {
            document: rendered.document.clone(),
            format: rendered.format,
            path: path.display().to_string(),
            bytes: u32::try_from(bytes.len()).unwrap_or(u32::MAX),
            title: rendered.title.clone(),
            proposals: rendered.proposals,
            threads: rendered.threads,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_names_follow_the_document() {
        let d = DocPath::parse("notes/essay.v2.md").unwrap();
        assert_eq!(ExportFormat::Html.file_name(&d), "essay.v2.html");
        assert_eq!(ExportFormat::Pdf.file_name(&d), "essay.v2.pdf");
        assert_eq!(ExportFormat::Critic.file_name(&d), "essay.v2.critic.md");
    }
}
