//! Spelling: `lint` (the dictionary's and Harper's findings, nothing filed)
//! and `dictionary` (the workspace's words and its language).

use super::*;

pub(crate) fn lint(ctx: &Ctx, doc: &str) -> Result<i32> {
    let out = ctx.ops.lint(doc, &Cancel::new())?;
    ctx.print(&out, lint_text);
    Ok(0)
}

/// `dictionary [add|remove WORD…]`: the workspace's words after the change;
/// `dictionary language [LANG|--mine]`: the language it is checked in.
pub(crate) fn dictionary(ctx: &Ctx, action: Option<DictionaryCommand>) -> Result<i32> {
    let ops = &ctx.ops;
    match action {
        Some(DictionaryCommand::Language { language, mine }) => {
            let out = match (language, mine) {
                (Some(l), _) => ops.set_spelling_language(Some(&l))?,
                (None, true) => ops.set_spelling_language(None)?,
                (None, false) => ops.spelling_language()?,
            };
            warn(&out.warnings);
            ctx.print(&out, |o| match &o.workspace {
                Some(l) => format!("{l} (this workspace's, in {})", o.file),
                None => format!("{} (your own; the workspace says none)", o.checked_in),
            });
            return Ok(0);
        }
        Some(DictionaryCommand::Add { words }) => {
            for w in &words {
                ops.add_word(w)?;
            }
        }
        Some(DictionaryCommand::Remove { words }) => {
            for w in &words {
                ops.remove_word(w)?;
            }
        }
        None => {}
    }
    let out = ops.dictionary()?;
    ctx.print(&out, |d| {
        if d.words.is_empty() {
            format!("no words in {}", d.file)
        } else {
            d.words.join("\n")
        }
    });
    Ok(0)
}
