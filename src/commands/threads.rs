//! Comment threads: `thread new|reply|resolve|reopen|keep|detach|ask`,
//! `threads`, and `spans` (who wrote which text).

use super::*;

pub(crate) fn thread(ctx: &Ctx, t: ThreadCommand) -> Result<i32> {
    let ops = &ctx.ops;
    let (out, said) = match t {
        ThreadCommand::Ask {
            doc,
            thread,
            instruction,
        } => {
            let out = ops.ask_in_thread(&doc, &thread, instruction, &Cancel::new(), &mut |_| {})?;
            return producers::finish_review(ctx, &out);
        }
        ThreadCommand::New { doc, target, body } => {
            let out = ops.new_thread(&doc, target.target()?, &body)?;
            let id = out.thread.id.clone();
            (out, id)
        }
        ThreadCommand::Reply { doc, thread, body } => {
            let out = ops.reply(&doc, &thread, &body)?;
            let id = out.comment_id.clone().unwrap_or_default();
            (out, id)
        }
        ThreadCommand::Resolve { doc, thread } => (
            ops.change_thread(&doc, &thread, ThreadChange::Resolve)?,
            format!("{thread} resolved"),
        ),
        ThreadCommand::Reopen { doc, thread } => (
            ops.change_thread(&doc, &thread, ThreadChange::Reopen)?,
            format!("{thread} open"),
        ),
        ThreadCommand::Keep { doc, thread } => (
            ops.change_thread(&doc, &thread, ThreadChange::KeepHere)?,
            format!("{thread} kept here"),
        ),
        ThreadCommand::Detach { doc, thread } => (
            ops.change_thread(&doc, &thread, ThreadChange::Detach)?,
            format!("{thread} detached"),
        ),
    };
    ctx.print(&out, |_| said);
    Ok(0)
}

pub(crate) fn threads(ctx: &Ctx, doc: &str) -> Result<i32> {
    let out = one(ctx.ops.threads(Some(doc), None)?.documents)?;
    ctx.print(&out, threads_text);
    Ok(0)
}

pub(crate) fn spans(ctx: &Ctx, doc: &str) -> Result<i32> {
    let out = ctx.ops.spans(doc)?;
    ctx.print(&out, spans_text);
    Ok(0)
}
