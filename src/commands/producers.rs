//! Producers and Claude: `suggest` (one producer, or Check document),
//! `review` (Claude's review pass), `thread ask` (its answer is printed here).

use super::*;

/// `suggest DOC` without `--producer`: Check document. Exit 0 when every
/// producer that ran filed; else the first failure's exit code.
pub(crate) fn check_document(
    ctx: &Ctx,
    doc: &str,
    instruction: Option<String>,
    t: &OptTarget,
) -> Result<i32> {
    if instruction.is_some() || t.find.is_some() || t.start.is_some() {
        return Err(Error::BadInput(
            "--instruction, --find and --start go with --producer (Check document looks at the whole text)"
                .into(),
        ));
    }
    let out = ctx.ops.check_document(doc, &Cancel::new())?;
    warn(&out.warnings);
    let exit = out
        .outcomes
        .iter()
        .find_map(|o| match o {
            CheckOutcome::Failed { error, .. } => Some(error.code.exit_code()),
            _ => None,
        })
        .unwrap_or(0);
    ctx.print(&out, |o| {
        let lines: Vec<String> = o
            .outcomes
            .iter()
            .map(|o| match o {
                CheckOutcome::Filed { producer, filing } => format!(
                    "{producer}: {} proposal{} filed (turn {}){}",
                    filing.filed.len(),
                    plural(filing.filed.len()),
                    filing.turn_id,
                    if filing.skipped.is_empty() {
                        String::new()
                    } else {
                        format!(", {} not filed", filing.skipped.len())
                    }
                ),
                CheckOutcome::Failed { producer, error } => {
                    let m = error
                        .message
                        .strip_prefix(&format!("{producer}: "))
                        .unwrap_or(&error.message);
                    match error.code {
                        cowriting::ErrorCode::NotInstalled => format!("{producer}: not installed ({m})"),
                        cowriting::ErrorCode::TimedOut => format!("{producer}: timed out ({m})"),
                        _ => format!("{producer}: failed ({m})"),
                    }
                }
                CheckOutcome::NotRun { producer, .. } => format!("{producer}: not run"),
            })
            .collect();
        lines.join("\n")
    });
    Ok(exit)
}

pub(crate) fn suggest(
    ctx: &Ctx,
    doc: &str,
    producer: &str,
    instruction: Option<String>,
    t: &OptTarget,
) -> Result<i32> {
    let selection = t.target();
    if producer == "claude" {
        // This client's words for what the core would refuse.
        if selection.is_none() {
            return Err(Error::BadInput(
                "--producer claude needs a selection: give --find TEXT or --start B --end B".into(),
            ));
        }
        if instruction.as_deref().is_none_or(|i| i.trim().is_empty()) {
            return Err(Error::BadInput(
                "--producer claude needs --instruction TEXT".into(),
            ));
        }
    }
    let out = ctx
        .ops
        .suggest(doc, producer, selection, instruction, &Cancel::new())?;
    warn(&out.warnings);
    ctx.print(&out, |o| {
        let mut text = format!(
            "{}: {} proposal{} filed in {} (turn {})",
            o.filing.producer,
            o.filing.filed.len(),
            plural(o.filing.filed.len()),
            o.document,
            o.filing.turn_id
        );
        for f in &o.filing.filed {
            text.push_str(&format!("\n  {}  ({})", f.sidecar_id, f.proposal_id));
        }
        for k in &o.filing.skipped {
            text.push_str(&format!("\n  skipped: {k}"));
        }
        text
    });
    Ok(0)
}

/// `review DOC`: Claude's review pass over the document or a selection.
pub(crate) fn review(ctx: &Ctx, doc: &str, instruction: Option<String>, target: &OptTarget) -> Result<i32> {
    let out = ctx
        .ops
        .review_pass(doc, target.target(), instruction, &Cancel::new(), &mut |_| {})?;
    finish_review(ctx, &out)
}

/// Print what a review pass or a question in a thread filed; the exit code
/// of why it stopped early, if it did.
pub(crate) fn finish_review(ctx: &Ctx, out: &cowriting::ops::claude_review::ReviewOut) -> Result<i32> {
    warn(&out.warnings);
    ctx.print(out, |o| {
        let n = |k: usize, what: &str| format!("{k} {what}{}", plural(k));
        let mut text = format!(
            "claude: {}, {} filed in {} (turn {}{})",
            n(o.threads.len(), "comment"),
            n(o.proposals.len(), "proposal"),
            o.document,
            o.turn_id,
            o.model.as_deref().map(|m| format!(", {m}")).unwrap_or_default()
        );
        if let Some(c) = &o.reply {
            text.push_str(&format!("\n  reply {c}"));
        }
        for t in &o.threads {
            text.push_str(&format!("\n  thread {t}"));
        }
        for p in &o.proposals {
            text.push_str(&format!("\n  proposal {p}"));
        }
        if !o.skipped.is_empty() {
            text.push_str(&format!(
                "\n{} of {} suggestions could not be placed:",
                o.skipped.len(),
                o.items
            ));
            for k in &o.skipped {
                text.push_str(&format!("\n  line {}: {}", k.line, k.reason));
            }
        }
        text
    });
    match &out.stopped {
        Some(e) => {
            eprintln!("cowriting: claude stopped early: {}", e.message);
            Ok(e.code.exit_code())
        }
        None => Ok(0),
    }
}
