//! The workspace's documents: `check`, `status`, `new`, `rename`, `delete`,
//! `mkdir`, and `sample` (which needs no workspace).

use super::*;

/// `sample DIR`: the bundled sample workspace written to `dir`.
pub(crate) fn sample(dir: &Path, json: bool) -> Result<i32> {
    let out = cowriting::ops::sample::create_sample(dir)?;
    warn(&out.warnings);
    let text = if json {
        to_js_json(&serde_json::to_value(&out).unwrap_or(Value::Null))
    } else {
        format!("{}\n", sample_text(&out))
    };
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(0)
}

/// `check [DOC…]`: the sidecars checked; the exit code says the worst found.
pub(crate) fn check(ctx: &Ctx, docs: &[String]) -> Result<i32> {
    let out = ctx.ops.check_sidecars(docs)?;
    ctx.print(&out, |o| sidecars_text(&o.sidecars));
    Ok(check::exit_code(&out.sidecars))
}

pub(crate) fn status(ctx: &Ctx, doc: Option<&str>) -> Result<i32> {
    let out = ctx.ops.documents(doc)?;
    ctx.print(&out, status_text);
    Ok(0)
}

pub(crate) fn new(ctx: &Ctx, name: &str) -> Result<i32> {
    let out = ctx.ops.new_document(name)?;
    ctx.print(&out, |o| o.document.clone());
    Ok(0)
}

pub(crate) fn rename(ctx: &Ctx, doc: &str, to: &str) -> Result<i32> {
    let out = ctx.ops.rename_document(doc, to)?;
    ctx.print(&out, |o| format!("{} → {}", o.from, o.to));
    Ok(0)
}

pub(crate) fn delete(ctx: &Ctx, doc: &str) -> Result<i32> {
    let out = ctx.ops.trash_document(doc)?;
    ctx.print(&out, |o| {
        let with = if o.sidecar {
            ", with its threads and proposals,"
        } else {
            ""
        };
        format!("{}{with} moved to the trash", o.document)
    });
    Ok(0)
}

pub(crate) fn mkdir(ctx: &Ctx, name: &str) -> Result<i32> {
    let out = ctx.ops.new_folder(name)?;
    ctx.print(&out, |o| o.folder.clone());
    Ok(0)
}
