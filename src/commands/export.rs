//! What leaves the workspace: `export` (HTML, CriticMarkup) and `authorship`
//! (the report, its Agent Trace and iA Writer exports, iA's import).

use super::*;

pub(crate) fn export(ctx: &Ctx, a: ExportArgs) -> Result<i32> {
    let format = match a.format {
        ExportFormatArg::Html => ExportFormat::Html,
        ExportFormatArg::Critic => ExportFormat::Critic,
        ExportFormatArg::Pdf => {
            return Err(Error::BadInput(
                "--format pdf: a PDF is printed by the desktop app (open the document in Cowriting, then Export… in its menu or the palette); here, export --format html and print that"
                    .into(),
            ))
        }
    };
    let rendered = ctx.ops.export(&a.doc, format, a.with_review, a.remote_images)?;
    match a.output {
        None => {
            let _ = std::io::stdout().lock().write_all(rendered.content.as_bytes());
        }
        Some(path) => {
            let out = ctx
                .ops
                .write_export(&rendered, rendered.content.as_bytes(), &path, a.force)?;
            ctx.print(&out, |o| o.path.clone());
        }
    }
    Ok(0)
}

/// `authorship DOC [--format F [-o FILE]]` or `authorship import-ia DOC [FILE]`.
pub(crate) fn authorship(ctx: &Ctx, a: AuthorshipArgs) -> Result<i32> {
    let ops = &ctx.ops;
    if let Some(AuthorshipCommand::ImportIa { doc, file }) = a.action {
        let out = ops.import_ia_annotations(&doc, file.as_deref())?;
        ctx.print(&out, import_ia_text);
        return Ok(0);
    }
    let doc = a.doc.unwrap_or_default();
    let Some(format) = a.format else {
        let out = ops.authorship(&doc)?;
        ctx.print(&out, authorship_text);
        return Ok(0);
    };
    let format = match format {
        AuthorshipFormatArg::AgentTrace => AuthorshipFormat::AgentTrace,
        AuthorshipFormatArg::IaAnnotations => AuthorshipFormat::IaAnnotations,
    };
    let content = ops.authorship_export(&doc, format)?;
    match a.output {
        None => {
            let _ = std::io::stdout().lock().write_all(content.as_bytes());
        }
        Some(path) => {
            let out = ops.write_authorship_export(&doc, format, &content, &path, a.force)?;
            ctx.print(&out, |o| o.path.clone());
        }
    }
    Ok(0)
}
