//! Deciding and listing proposals: `propose`, `proposals`, `accept`,
//! `reject` (one, or a batch with --all), `decisions`, `inbox`, `eval`.

use super::*;

pub(crate) fn propose(ctx: &Ctx, a: ProposeArgs) -> Result<i32> {
    let agent = cowriting::identity::AgentClient {
        name: a.agent,
        version: format!("cowriting-cli {}", env!("CARGO_PKG_VERSION")),
        sdk: "cowriting-cli".into(),
        model: a.model,
        session_id: a.session,
    };
    let out = ctx.ops.propose(Propose {
        document: &a.doc,
        target: a.target.target()?,
        replacement: &a.replacement,
        agent: &agent,
        reason: a.reason,
        instruction: a.instruction,
        turn_id: a.turn,
    })?;
    warn(&out.warnings);
    if out.already_pending {
        eprintln!(
            "cowriting: {} is already pending: the same edit by the same agent; not filed again",
            out.proposal.id
        );
    }
    for p in &out.overlapping {
        eprintln!(
            "cowriting: note: it overlaps pending {} by {} on {:?} (accepting one turns the other stale)",
            p.id, p.author.label, p.target
        );
    }
    ctx.print(&out, |o| o.proposal.id.clone());
    Ok(0)
}

pub(crate) fn proposals(ctx: &Ctx, doc: &str) -> Result<i32> {
    let out = one(ctx.ops.proposals(Some(doc), None)?.documents)?;
    ctx.print(&out, proposals_text);
    Ok(0)
}

/// `accept DOC ID` or `accept DOC --all [--turn T] [--producer P]`.
pub(crate) fn accept(ctx: &Ctx, a: AcceptArgs) -> Result<i32> {
    match a.id {
        Some(id) => {
            a.batch.check()?;
            decided(
                ctx,
                ctx.ops.accept(
                    &a.doc,
                    &id,
                    a.with.as_deref(),
                    a.confirm_hidden,
                    a.at_likely_place,
                )?,
            )
        }
        None => batch_decided(
            ctx,
            ctx.ops
                .decide_all(&a.doc, BatchDecision::Accept, &a.batch.filter(), a.confirm_hidden)?,
        ),
    }
}

/// `reject DOC ID` or `reject DOC --all [--turn T] [--producer P]`.
pub(crate) fn reject(ctx: &Ctx, doc: &str, id: Option<String>, batch: Batch) -> Result<i32> {
    match id {
        Some(id) => {
            batch.check()?;
            decided(ctx, ctx.ops.reject(doc, &id)?)
        }
        None => batch_decided(
            ctx,
            ctx.ops
                .decide_all(doc, BatchDecision::Reject, &batch.filter(), false)?,
        ),
    }
}

pub(crate) fn decided(ctx: &Ctx, out: DecidedOut) -> Result<i32> {
    warn(&out.warnings);
    ctx.print(&out, |o| match o.outcome {
        DecidedOutcome::Rejected => format!("rejected {}", o.id),
        _ => format!("accepted {}; {} updated", o.id, o.document),
    });
    Ok(0)
}

/// A batch decision: one line; each proposal passed over said on stderr.
pub(crate) fn batch_decided(ctx: &Ctx, out: BatchOut) -> Result<i32> {
    warn(&out.warnings);
    if !ctx.json {
        for s in &out.skipped {
            eprintln!("cowriting: skipped {}: {}", s.id, s.reason);
        }
    }
    ctx.print(&out, |o| {
        let verb = match o.outcome {
            DecidedOutcome::Rejected => "rejected",
            _ => "accepted",
        };
        if o.counts.matched == 0 {
            return format!("no proposal of {} matched; nothing decided", o.document);
        }
        format!(
            "{verb} {} of {} proposal{} in {}; {} skipped",
            o.counts.decided,
            o.counts.matched,
            if o.counts.matched == 1 { "" } else { "s" },
            o.document,
            o.counts.skipped
        )
    });
    Ok(0)
}

pub(crate) fn decisions(ctx: &Ctx, doc: Option<&str>) -> Result<i32> {
    let out = ctx.ops.decisions(doc, None)?;
    warn(&out.warnings);
    ctx.print(&out, |o| decisions_text(&o.decisions));
    Ok(0)
}

pub(crate) fn inbox(
    ctx: &Ctx,
    document: Option<String>,
    producer: Option<String>,
    state: Option<StateArg>,
) -> Result<i32> {
    let out = ctx.ops.inbox(&cowriting::ops::InboxFilter {
        document,
        producer,
        state: state.map(|s| match s {
            StateArg::Pending => ItemState::Pending,
            StateArg::Stale => ItemState::Stale,
            StateArg::Orphaned => ItemState::Orphaned,
            StateArg::Open => ItemState::Open,
        }),
    })?;
    for e in &out.errors {
        eprintln!("cowriting: {}: not read: {}", e.document, e.error.message);
    }
    ctx.print(&out, inbox_text);
    Ok(0)
}

pub(crate) fn eval(ctx: &Ctx, replay: Option<&str>) -> Result<i32> {
    let out = ctx.ops.eval(replay)?;
    warn(&out.warnings);
    ctx.print(&out, eval_text);
    Ok(0)
}
