//! The plain output: each answer worded for a terminal (`--json` prints the
//! answer itself). Client wording stays here, never in the core.

use super::*;

pub(crate) fn sample_text(o: &cowriting::ops::SampleOut) -> String {
    let what = if o.written {
        format!("The sample workspace is in {}", o.folder)
    } else {
        format!(
            "{} holds the sample already; nothing of it was overwritten",
            o.folder
        )
    };
    match &o.git {
        Some(g) if g.added => format!(
            "{what}: a git repository on {}, {} commits (git log shows them).",
            g.branch, g.commits
        ),
        Some(g) => format!("{what} (a git repository on {}).", g.branch),
        None => format!("{what} (not a git repository)."),
    }
}

pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

pub(crate) fn search_text(out: &cowriting::ops::SearchOut) -> String {
    if out.hits.is_empty() && out.threads.is_empty() {
        return format!("no match for {:?}", out.query);
    }
    let mut text = String::new();
    for h in &out.hits {
        text.push_str(&search_hit_line(h));
    }
    text.push_str(&search_rest_text(out));
    text
}

/// One text hit as the search shows it: `doc:line: before[text]after`.
pub(crate) fn search_hit_line(h: &cowriting::views::SearchHitDto) -> String {
    format!("{}:{}: {}[{}]{}\n", h.document, h.line, h.before, h.text, h.after)
}

/// What the search shows after its text hits: the thread hits, and whether
/// there were more.
pub(crate) fn search_rest_text(out: &cowriting::ops::SearchOut) -> String {
    let mut text = String::new();
    for t in &out.threads {
        let line = t.thread.line.map(|l| format!(":{l}")).unwrap_or_default();
        let what = match (&t.author, &t.body) {
            (Some(a), Some(b)) => format!("{}: {}", a.id, b.split_whitespace().collect::<Vec<_>>().join(" ")),
            _ => format!("on {:?}", t.thread.anchored_text),
        };
        text.push_str(&format!(
            "{}{line}: thread {} ({}) {what}\n",
            t.document, t.thread.id, t.thread.status
        ));
    }
    if out.truncated {
        text.push_str("… more matches not shown (the first 1000 are)\n");
    }
    text
}

pub(crate) fn inbox_text(out: &InboxOut) -> String {
    if out.groups.is_empty() {
        return "nothing waits for you: no pending proposals, no open threads".into();
    }
    let mut text = String::new();
    let n = |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
    for g in &out.groups {
        let mut docs: Vec<&str> = g.proposals.iter().map(|p| p.document.as_str()).collect();
        docs.extend(g.threads.iter().map(|t| t.document.as_str()));
        docs.dedup();
        let mut head = g.producer.clone();
        if g.author.label != g.producer {
            head.push_str(&format!(" · {}", g.author.label));
        }
        if let Some(t) = &g.turn_id {
            head.push_str(&format!(" · turn {t}"));
        }
        if let Some(i) = &g.instruction {
            head.push_str(&format!(" · {}", short(i, 60)));
        }
        let mut what = Vec::new();
        if !g.proposals.is_empty() {
            what.push(n(g.proposals.len(), "proposal", "proposals"));
        }
        if !g.threads.is_empty() {
            what.push(n(g.threads.len(), "open thread", "open threads"));
        }
        text.push_str(&format!(
            "{head} — {} in {}\n",
            what.join(", "),
            n(docs.len(), "document", "documents")
        ));
        for p in &g.proposals {
            let d = &p.proposal;
            let state = match d.state {
                ProposalState::Pending => "pending",
                ProposalState::Stale => "stale",
                ProposalState::Orphaned => "orphaned",
            };
            let at = d.line.map(|l| format!(":{l}")).unwrap_or_default();
            text.push_str(&format!(
                "  {}{at}  {state:8} {}  {} → {}\n",
                p.document,
                d.id,
                short(&d.target, 50),
                short(&d.replacement, 50)
            ));
            if let Some(r) = &d.reason {
                text.push_str(&format!("      {state}: {r}\n"));
            }
        }
        for t in &g.threads {
            let at = t.thread.line.map(|l| format!(":{l}")).unwrap_or_default();
            let last = t.thread.comments.last();
            text.push_str(&format!(
                "  {}{at}  thread   {}  on {}{}\n",
                t.document,
                t.thread.id,
                short(&t.thread.anchored_text, 40),
                last.map(|c| format!(" — {}: {}", c.author.label, short(&c.body, 60)))
                    .unwrap_or_default()
            ));
        }
    }
    text.trim_end().to_owned()
}

pub(crate) fn lint_text(out: &cowriting::ops::LintOut) -> String {
    if out.lints.is_empty() {
        return format!("{}: no spelling or grammar lints", out.document);
    }
    let mut text = String::new();
    for l in &out.lints {
        let fix = match l.replacements.as_slice() {
            [] => String::new(),
            r => format!(
                " → {}",
                r.iter().map(|r| format!("{r:?}")).collect::<Vec<_>>().join(", ")
            ),
        };
        text.push_str(&format!(
            "{}:{}: {}: {:?}: {}{fix}\n",
            out.document, l.line, l.category, l.text, l.message
        ));
    }
    text
}

pub(crate) fn decisions_text(decisions: &[views::DecisionDto]) -> String {
    if decisions.is_empty() {
        return "no decisions recorded".into();
    }
    let mut out = String::new();
    for d in decisions {
        let first = d.edits.first();
        out.push_str(&format!(
            "{}  {:8}{}  {}  {}  by {}  {}\n",
            d.decided_at,
            d.outcome,
            if d.undone { " (undone)" } else { "" },
            d.document,
            d.id,
            d.decided_by,
            first
                .map(|e| format!("{}/{}", e.producer, e.category))
                .unwrap_or_default()
        ));
        for e in &d.edits {
            out.push_str(&format!(
                "    - {}\n    + {}\n",
                short(&e.text, 70),
                short(&e.proposed, 70)
            ));
        }
        if let Some(c) = &d.chosen {
            out.push_str(&format!("    chosen: {}\n", short(c, 70)));
        }
    }
    out
}

pub(crate) fn eval_text(o: &EvalOut) -> String {
    let rows = &o.rows;
    let mut out = String::new();
    if rows.is_empty() {
        out.push_str("no contract proposals recorded\n");
    } else {
        let elsewhere = rows.iter().any(|r| r.tally.decided_elsewhere > 0);
        out.push_str(&format!(
            "{:<14} {:<14} {:>8} {:>8} {:>8} {:>8}{}\n",
            "producer",
            "category",
            "accepted",
            "changed",
            "rejected",
            "pending",
            if elsewhere { "  elsewhere" } else { "" }
        ));
        for r in rows {
            out.push_str(&format!(
                "{:<14} {:<14} {:>8} {:>8} {:>8} {:>8}{}\n",
                r.producer,
                r.category,
                r.tally.accepted,
                r.tally.changed,
                r.tally.rejected,
                r.tally.pending,
                if r.tally.decided_elsewhere > 0 {
                    format!("  {:>9}", r.tally.decided_elsewhere)
                } else {
                    String::new()
                }
            ));
        }
    }
    if let Some(rep) = &o.replay {
        out.push_str(&rep.to_text());
    }
    out.trim_end().to_owned()
}

/// `from..to`, or `-` when not in the text.
pub(crate) fn bytes_text(from: Option<u32>, to: Option<u32>) -> String {
    match (from, to) {
        (Some(f), Some(t)) => format!("{f}..{t}"),
        _ => "-".into(),
    }
}

pub(crate) fn short(s: &str, n: usize) -> String {
    let one_line = s.replace('\n', "⏎");
    if one_line.chars().count() <= n {
        format!("{one_line:?}")
    } else {
        let cut: String = one_line.chars().take(n).collect();
        format!("{cut:?}…")
    }
}

pub(crate) fn sidecars_text(reports: &[check::SidecarReport]) -> String {
    if reports.is_empty() {
        return "no sidecars in this workspace".into();
    }
    let mut out = String::new();
    for r in reports {
        let tag = match r.worst() {
            Some(check::Severity::Error) => "error",
            Some(check::Severity::Newer) => "newer",
            _ => "ok",
        };
        out.push_str(&format!("{tag:5} {}\n", r.file));
        for p in &r.problems {
            let kind = match p.severity {
                check::Severity::Warning => "warning",
                check::Severity::Newer => "refused",
                check::Severity::Error => "problem",
            };
            out.push_str(&format!("      {kind}: {}\n", p.message));
        }
    }
    out
}

/// An author of an authorship answer in words: `id (kind, model)`, or
/// `unknown` for text from before tracking (the MCP tool words it too).
pub(crate) fn author_label(a: &cowriting::ops::AuthorShare, unknown: &str) -> String {
    let id = match (&a.name, &a.id) {
        (Some(name), Some(id)) => Some(format!("{name} <{id}>")),
        (_, id) => id.clone(),
    };
    match (a.kind.as_str(), &id, &a.model) {
        ("unknown", ..) => unknown.to_owned(),
        (kind, Some(id), Some(model)) => format!("{id} ({kind}, {model})"),
        (kind, Some(id), None) => format!("{id} ({kind})"),
        (kind, None, _) => kind.to_owned(),
    }
}

pub(crate) fn authorship_text(o: &cowriting::ops::AuthorshipOut) -> String {
    let who = |a: &cowriting::ops::AuthorShare| author_label(a, "from before tracking");
    let pct = |part: u32, total: u32| {
        if total == 0 {
            0
        } else {
            (u64::from(part) * 100 + u64::from(total) / 2) / u64::from(total)
        }
    };
    let mut out = format!("{}: {} characters, {} words\n", o.document, o.total, o.words);
    for a in &o.by_author {
        out.push_str(&format!(
            "  {:>3}%  {:>8} chars {:>7} words  {}\n",
            pct(a.chars, o.total),
            a.chars,
            a.words,
            who(a)
        ));
    }
    let d = &o.decisions;
    if d.accepted + d.changed + d.rejected == 0 {
        // None logged is not "the writer decided nothing": agent text with no
        // decision was accepted before the log was kept, or in VS Code.
        out.push_str("Decisions: none in the decision log");
        if o.by_author.iter().any(|a| a.kind == "agent" && a.chars > 0) {
            out.push_str(
                " (the agents' text was accepted before it was kept, or in a tool that does not keep it)",
            );
        }
        out.push('\n');
    } else {
        out.push_str(&format!(
            "Decisions: {} accepted, {} accepted with changes, {} rejected\n",
            d.accepted, d.changed, d.rejected
        ));
    }
    if o.sections.len() > 1 {
        out.push_str("Sections:\n");
        for s in &o.sections {
            let name = match &s.heading {
                Some(h) => format!("{} {h}", "#".repeat(usize::from(s.level))),
                None => "(before the first heading)".to_owned(),
            };
            let parts: Vec<String> = s
                .by_author
                .iter()
                .map(|a| format!("{} {}%", who(a), pct(a.chars, s.total)))
                .collect();
            out.push_str(&format!("  line {}: {name}: {}\n", s.line, parts.join(", ")));
        }
    }
    out
}

pub(crate) fn status_text(o: &DocumentsOut) -> String {
    let mut out = String::new();
    for r in &o.documents {
        let (p, t, sp) = (&r.proposals, &r.threads, &r.spans);
        out.push_str(&format!(
            "{}: proposals {} pending, {} stale, {} orphaned · threads {} open, {} resolved{} · spans {} ({} agent, {} human)\n",
            r.document, p.pending, p.stale, p.orphaned, t.open, t.resolved,
            if t.orphaned > 0 { format!(", {} orphaned", t.orphaned) } else { String::new() },
            sp.total, sp.agent, sp.human,
        ));
        if let Some(e) = &r.sidecar_error {
            out.push_str(&format!("  sidecar: {}\n", e.message));
        }
    }
    for e in &o.errors {
        out.push_str(&format!("{}: error: {}\n", e.document, e.error.message));
    }
    out
}

pub(crate) fn proposals_text(d: &views::DocProposals) -> String {
    if d.proposals.is_empty() {
        return format!("no pending proposals in {}", d.document);
    }
    let mut out = String::new();
    for p in &d.proposals {
        let state = match p.state {
            ProposalState::Pending => "pending",
            ProposalState::Stale => "stale",
            ProposalState::Orphaned => "orphaned",
        };
        out.push_str(&format!(
            "{}  {state:8} bytes {}  by {}",
            p.id,
            bytes_text(p.from, p.to),
            p.author.label
        ));
        if let Some(t) = &p.turn_id {
            out.push_str(&format!("  turn {t}"));
        }
        out.push('\n');
        out.push_str(&format!(
            "    - {}\n    + {}\n",
            short(&p.target, 70),
            short(&p.replacement, 70)
        ));
        if let Some(i) = &p.instruction {
            out.push_str(&format!("    instruction: {}\n", short(i, 70)));
        }
        if let Some(r) = &p.reason {
            out.push_str(&format!("    {state}: {r}\n"));
        }
        if p.likely_place {
            out.push_str("    likely place: accept it there with --at-likely-place\n");
        }
        if !p.hidden.is_empty() {
            let which: Vec<String> = p
                .hidden
                .iter()
                .map(|h| format!("{} {}", h.code_point, h.name))
                .collect();
            out.push_str(&format!(
                "    hidden: inserts {} (invisible, reordering the text, or passing for Latin letters); accept asks for --confirm-hidden\n",
                which.join(", ")
            ));
        }
    }
    out
}

pub(crate) fn threads_text(d: &views::DocThreads) -> String {
    if d.threads.is_empty() {
        return format!("no threads in {}", d.document);
    }
    let mut out = String::new();
    for t in &d.threads {
        let place = match (t.from, t.to) {
            (Some(f), Some(to)) if t.relocated => {
                format!("bytes {f}..{to} (re-wrapped since; keep or detach)")
            }
            (Some(f), Some(to)) => format!("bytes {f}..{to}"),
            _ if t.detached => "detached".into(),
            _ => "orphaned".into(),
        };
        out.push_str(&format!(
            "{}  {:8} {place}  on {}\n",
            t.id,
            t.status,
            short(&t.text, 60)
        ));
        for c in &t.comments {
            out.push_str(&format!(
                "    {} ({}): {}\n",
                c.author.label,
                c.created_at,
                short(&c.body, 70)
            ));
        }
    }
    out
}

pub(crate) fn spans_text(d: &views::DocSpans) -> String {
    if d.spans.is_empty() && d.orphaned.is_empty() {
        return format!("no attribution spans in {}", d.document);
    }
    let mut out = String::new();
    for sp in &d.spans {
        out.push_str(&format!(
            "bytes {:12} {} {}{}  {}\n",
            bytes_text(Some(sp.from), Some(sp.to)),
            sp.author.kind,
            sp.author.label,
            sp.turn_id
                .as_ref()
                .map(|t| format!("  turn {t}"))
                .unwrap_or_default(),
            short(&sp.text, 50)
        ));
    }
    for o in &d.orphaned {
        out.push_str(&format!(
            "orphaned     {} {}  ({})\n",
            o.author.kind, o.author.label, o.id
        ));
    }
    out
}

/// What `authorship import-ia` did, in words.
pub(crate) fn import_ia_text(o: &cowriting::ops::ImportIaOut) -> String {
    let mut out = format!(
        "{}: {} range{} of iA Writer's annotations imported",
        o.document,
        o.ranges,
        if o.ranges == 1 { "" } else { "s" }
    );
    if o.block_removed {
        out.push_str(" (the block taken off the end of the document)");
    }
    for a in &o.authors {
        let who = match &a.model {
            Some(m) => format!("{} ({m})", a.id),
            None => a.id.clone(),
        };
        out.push_str(&format!(
            "\n  {}: {} characters, now {} {who}",
            a.key, a.chars, a.kind
        ));
    }
    out
}
