//! `cowriting` — the command-line client of the cowriting core.
//!
//! Each command is one call of the one API ([`cowriting::ops::Ops`]), the
//! same the MCP server makes: `--json` prints its answer as it is, the plain
//! output words it for a terminal. Offsets are UTF-8 bytes of the document's text (after a BOM, if
//! any) and must fall on char boundaries; `--unit utf16` reports positions in
//! UTF-16 code units instead. Exit codes: 0 ok, 2 bad input, 3 refused by a
//! guard, 4 corrupt sidecar, 5 a producer failed or is not installed, 6
//! cancelled or timed out, 1 other failures ([`cowriting::ErrorCode::exit_code`]).

mod args;
mod mcp;
mod resolve;
mod text;

use args::*;
use resolve::*;
use text::*;

use clap::{Args, Parser, Subcommand};
use cowriting::anchor::{resolve, Resolution};
use cowriting::check;
use cowriting::error::ErrorInfo;
use cowriting::identity::human_identity;
use cowriting::model::{to_js_json, Fingerprint};
use cowriting::ops::{
    AuthorshipFormat, BatchDecision, BatchOut, DecidedOut, DecidedOutcome, DocumentsOut, EvalOut,
    ExportFormat, InboxOut, ItemState, Ops, Propose, ThreadChange,
};
use cowriting::producers::Cancel;
use cowriting::suggest::CheckOutcome;
use cowriting::views::{self, Unit};
use cowriting::{ByteRange, Document, Error, ProposalState, Result, Store, Workspace};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn main() {
    let cli = Cli::parse();
    let json = cli.json;
    match run(cli) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            let info = worded(&e);
            if json {
                let _ = writeln!(
                    std::io::stderr(),
                    "{}",
                    serde_json::to_string(&info).unwrap_or_default()
                );
            } else {
                let msg = info.message.replace('\n', " ");
                let _ = writeln!(std::io::stderr(), "cowriting: error: {msg}");
            }
            std::process::exit(e.code().exit_code());
        }
    }
}

/// `e` in this client's words: an occurrence is chosen with `--nth`.
fn worded(e: &Error) -> ErrorInfo {
    let mut info = e.info();
    match e {
        Error::Ambiguous { text, count, doc } => {
            info.message =
                format!("{text:?} occurs {count} times in {doc}; choose one with --nth 1..{count}");
        }
        Error::NoSuchOccurrence {
            text,
            nth,
            count,
            doc,
        } => {
            let times = if *count == 1 { "time" } else { "times" };
            info.message = format!("--nth {nth}: {text:?} occurs {count} {times} in {doc}");
        }
        _ => {}
    }
    info
}

/// What every command shares: the one API ([`Ops`]) for the caller, and how
/// to print its answers.
struct Ctx {
    ops: Ops,
    json: bool,
}

impl Ctx {
    fn new(workspace: Option<PathBuf>, json: bool, unit: UnitArg) -> Result<Ctx> {
        let dir = match workspace {
            Some(d) => d,
            None => {
                std::env::current_dir().map_err(|e| Error::BadInput(format!("no current directory: {e}")))?
            }
        };
        let ws = Workspace::open(dir)?;
        let identity = human_identity(ws.root());
        // Text for people counts bytes; JSON counts what --unit says.
        let unit = match unit {
            UnitArg::Utf16 if json => Unit::Utf16,
            _ => Unit::Byte,
        };
        Ok(Ctx {
            ops: Ops::new(Arc::new(Store::new(ws)), identity, unit),
            json,
        })
    }

    fn ws(&self) -> &Workspace {
        self.ops.workspace()
    }

    /// Print an answer: as it is with `--json`, else as `human` words it. A
    /// closed pipe (`cowriting decisions | head`) is not an error.
    fn print<T: serde::Serialize>(&self, answer: &T, human: impl FnOnce(&T) -> String) {
        let out = if self.json {
            to_js_json(&serde_json::to_value(answer).unwrap_or(Value::Null))
        } else {
            let text = human(answer);
            if text.is_empty() {
                return;
            }
            format!("{}\n", text.trim_end_matches('\n'))
        };
        let _ = std::io::stdout().lock().write_all(out.as_bytes());
    }
}

/// The target `--find TEXT [--nth K]` or `--start B --end B` names.
fn target_of(
    find: Option<&str>,
    nth: Option<usize>,
    start: Option<usize>,
    end: Option<usize>,
) -> Option<cowriting::Target<'_>> {
    match (find, start, end) {
        (Some(text), _, _) => Some(cowriting::Target::Text {
            text,
            occurrence: nth,
        }),
        (None, Some(start), Some(end)) => Some(cowriting::Target::Bytes(ByteRange::new(start, end))),
        _ => None,
    }
}

fn run(cli: Cli) -> Result<i32> {
    if let Command::Resolve { text, .. } = &cli.command {
        return resolve_lines(text.as_deref());
    }
    #[cfg(feature = "harper")]
    if let Command::HarperChecker = cli.command {
        let ok = cowriting::producers::checker::serve_stdio() == std::process::ExitCode::SUCCESS;
        return Ok(if ok { 0 } else { 1 });
    }
    if let Command::Sample { dir } = &cli.command {
        let out = cowriting::ops::sample::create_sample(dir)?;
        warn(&out.warnings);
        let text = if cli.json {
            to_js_json(&serde_json::to_value(&out).unwrap_or(Value::Null))
        } else {
            format!("{}\n", sample_text(&out))
        };
        let _ = std::io::stdout().lock().write_all(text.as_bytes());
        return Ok(0);
    }
    let ctx = Ctx::new(cli.workspace, cli.json, cli.unit)?;
    let ops = &ctx.ops;
    match cli.command {
        Command::Check { docs } => {
            let out = ops.check_sidecars(&docs)?;
            ctx.print(&out, |o| sidecars_text(&o.sidecars));
            Ok(check::exit_code(&out.sidecars))
        }
        Command::Status { doc } => {
            let out = ops.documents(doc.as_deref())?;
            ctx.print(&out, status_text);
            Ok(0)
        }
        Command::Authorship {
            action: Some(AuthorshipCommand::ImportIa { doc, file }),
            ..
        } => {
            let out = ops.import_ia_annotations(&doc, file.as_deref())?;
            ctx.print(&out, import_ia_text);
            Ok(0)
        }
        Command::Authorship {
            doc,
            format,
            output,
            force,
            action: None,
        } => {
            let doc = doc.unwrap_or_default();
            let Some(format) = format else {
                let out = ops.authorship(&doc)?;
                ctx.print(&out, authorship_text);
                return Ok(0);
            };
            let format = match format {
                AuthorshipFormatArg::AgentTrace => AuthorshipFormat::AgentTrace,
                AuthorshipFormatArg::IaAnnotations => AuthorshipFormat::IaAnnotations,
            };
            let content = ops.authorship_export(&doc, format)?;
            match output {
                None => {
                    let _ = std::io::stdout().lock().write_all(content.as_bytes());
                }
                Some(path) => {
                    let out = ops.write_authorship_export(&doc, format, &content, &path, force)?;
                    ctx.print(&out, |o| o.path.clone());
                }
            }
            Ok(0)
        }
        Command::New { name } => {
            let out = ops.new_document(&name)?;
            ctx.print(&out, |o| o.document.clone());
            Ok(0)
        }
        Command::Rename { doc, to } => {
            let out = ops.rename_document(&doc, &to)?;
            ctx.print(&out, |o| format!("{} → {}", o.from, o.to));
            Ok(0)
        }
        Command::Delete { doc } => {
            let out = ops.trash_document(&doc)?;
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
        Command::Mkdir { name } => {
            let out = ops.new_folder(&name)?;
            ctx.print(&out, |o| o.folder.clone());
            Ok(0)
        }
        Command::Propose {
            doc,
            target,
            replacement,
            instruction,
            reason,
            turn,
            model,
            session,
            agent,
        } => {
            let agent = cowriting::identity::AgentClient {
                name: agent,
                version: format!("cowriting-cli {}", env!("CARGO_PKG_VERSION")),
                sdk: "cowriting-cli".into(),
                model,
                session_id: session,
            };
            let out = ops.propose(Propose {
                document: &doc,
                target: target.target()?,
                replacement: &replacement,
                agent: &agent,
                reason,
                instruction,
                turn_id: turn,
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
        Command::Proposals { doc } => {
            let out = one(ops.proposals(Some(&doc), None)?.documents)?;
            ctx.print(&out, proposals_text);
            Ok(0)
        }
        Command::Accept {
            doc,
            id: Some(id),
            with,
            confirm_hidden,
            at_likely_place,
            batch,
        } => {
            batch.check()?;
            decided(
                &ctx,
                ops.accept(&doc, &id, with.as_deref(), confirm_hidden, at_likely_place)?,
            )
        }
        Command::Accept {
            doc,
            batch,
            confirm_hidden,
            ..
        } => batch_decided(
            &ctx,
            ops.decide_all(&doc, BatchDecision::Accept, &batch.filter(), confirm_hidden)?,
        ),
        Command::Reject {
            doc,
            id: Some(id),
            batch,
        } => {
            batch.check()?;
            decided(&ctx, ops.reject(&doc, &id)?)
        }
        Command::Reject { doc, batch, .. } => batch_decided(
            &ctx,
            ops.decide_all(&doc, BatchDecision::Reject, &batch.filter(), false)?,
        ),
        Command::Thread(t) => cmd_thread(&ctx, t),
        Command::Export {
            doc,
            format,
            output,
            with_review,
            force,
            remote_images,
        } => {
            let format = match format {
                ExportFormatArg::Html => ExportFormat::Html,
                ExportFormatArg::Critic => ExportFormat::Critic,
                ExportFormatArg::Pdf => {
                    return Err(Error::BadInput(
                        "--format pdf: a PDF is printed by the desktop app (open the document in Cowriting, then Export… in its menu or the palette); here, export --format html and print that"
                            .into(),
                    ))
                }
            };
            let rendered = ops.export(&doc, format, with_review, remote_images)?;
            match output {
                None => {
                    let _ = std::io::stdout().lock().write_all(rendered.content.as_bytes());
                }
                Some(path) => {
                    let out = ops.write_export(&rendered, rendered.content.as_bytes(), &path, force)?;
                    ctx.print(&out, |o| o.path.clone());
                }
            }
            Ok(0)
        }
        Command::Threads { doc } => {
            let out = one(ops.threads(Some(&doc), None)?.documents)?;
            ctx.print(&out, threads_text);
            Ok(0)
        }
        Command::Spans { doc } => {
            let out = ops.spans(&doc)?;
            ctx.print(&out, spans_text);
            Ok(0)
        }
        Command::Suggest {
            doc,
            producer,
            instruction,
            target,
        } => match producer {
            Some(p) => cmd_suggest(&ctx, &doc, &p, instruction, &target),
            None => cmd_check_document(&ctx, &doc, instruction, &target),
        },
        Command::Review {
            doc,
            instruction,
            target,
        } => {
            let out = ops.review_pass(&doc, target.target(), instruction, &Cancel::new(), &mut |_| {})?;
            finish_review(&ctx, &out)
        }
        Command::Decisions { doc } => {
            let out = ops.decisions(doc.as_deref(), None)?;
            warn(&out.warnings);
            ctx.print(&out, |o| decisions_text(&o.decisions));
            Ok(0)
        }
        Command::Search {
            query,
            case_sensitive,
            word,
            regex,
        } => {
            let query = cowriting::ops::SearchQuery {
                text: query,
                case_sensitive,
                whole_word: word,
                regex,
            };
            // Text hits are printed as they are found; the threads, the
            // count and the JSON answer once the search is done.
            let mut stdout = std::io::stdout();
            let out = ops
                .search_streamed(&query, |f| {
                    if let Some(e) = f.error {
                        eprintln!("cowriting: {}: not searched: {}", e.document, e.error.message);
                    }
                    if !ctx.json && !f.hits.is_empty() {
                        let lines: String = f.hits.iter().map(search_hit_line).collect();
                        // A closed pipe (`| head`) stops the search.
                        if stdout
                            .write_all(lines.as_bytes())
                            .and_then(|()| stdout.flush())
                            .is_err()
                        {
                            return std::ops::ControlFlow::Break(());
                        }
                    }
                    std::ops::ControlFlow::Continue(())
                })?
                .out;
            if ctx.json || (out.hits.is_empty() && out.threads.is_empty()) {
                ctx.print(&out, search_text);
            } else {
                ctx.print(&out, search_rest_text);
            }
            Ok(0)
        }
        Command::Inbox {
            document,
            producer,
            state,
        } => {
            let out = ops.inbox(&cowriting::ops::InboxFilter {
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
        Command::Lint { doc } => {
            let out = ops.lint(&doc, &Cancel::new())?;
            ctx.print(&out, lint_text);
            Ok(0)
        }
        Command::Dictionary {
            action: Some(DictionaryCommand::Language { language, mine }),
        } => {
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
            Ok(0)
        }
        Command::Dictionary { action } => {
            match action {
                None => {}
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
                Some(DictionaryCommand::Language { .. }) => unreachable!("answered above"),
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
        Command::Eval { replay } => {
            let out = ops.eval(replay.as_deref())?;
            warn(&out.warnings);
            ctx.print(&out, eval_text);
            Ok(0)
        }
        Command::Mcp => mcp::serve_stdio(ctx.ws().root()).map(|()| 0),
        Command::Resolve { .. } | Command::Sample { .. } => unreachable!("handled above"),
        #[cfg(feature = "harper")]
        Command::HarperChecker => unreachable!("handled above"),
        Command::MergeSidecar {
            base,
            ours,
            theirs,
            path,
        } => {
            let name = path.as_deref().unwrap_or("sidecar");
            for n in cowriting::gitops::run_merge_driver(&base, &ours, &theirs, Some(name))? {
                eprintln!("cowriting merge-sidecar: {name}: {n}");
            }
            Ok(0)
        }
        Command::Git(g) => cmd_git(&ctx, g),
    }
}

/// The one document of a listing that named it.
fn one<T>(mut documents: Vec<T>) -> Result<T> {
    documents
        .pop()
        .ok_or_else(|| Error::BadInput("no such document".into()))
}

fn cmd_git(ctx: &Ctx, g: GitCommand) -> Result<i32> {
    match g {
        GitCommand::Install { trailer } => {
            let style = trailer
                .map(|t| {
                    cowriting::config::TrailerStyle::parse(&t).ok_or_else(|| {
                        Error::BadInput(format!(
                            "--trailer {t:?}: say assisted-by, co-authored-by or none"
                        ))
                    })
                })
                .transpose()?;
            let exe = std::env::current_exe()
                .map_err(|e| Error::BadInput(format!("cannot find the cowriting executable: {e}")))?;
            let mut r = cowriting::gitops::install(ctx.ws().root(), &exe)?;
            if let Some(style) = style {
                r.lines
                    .push(cowriting::gitops::set_trailer_style(ctx.ws().root(), style)?);
                r.changed = true;
            }
            ctx.print(&r, |r| r.lines.join("\n"));
        }
        // The hook never blocks a commit: problems are warnings.
        GitCommand::Hook(GitHook::PrepareCommitMsg { msg_file, source, .. }) => {
            match cowriting::gitops::run_prepare_commit_msg(ctx.ws().root(), &msg_file, source.as_deref()) {
                Ok(r) => {
                    r.warnings
                        .iter()
                        .for_each(|w| eprintln!("cowriting: warning: {w}"));
                    r.added.iter().for_each(|t| eprintln!("cowriting: added {t}"));
                }
                Err(e) => eprintln!("cowriting: warning: no trailers crediting agents: {e}"),
            }
        }
    }
    Ok(0)
}

/// Problems the operation met after it went through (an unreadable
/// decision-log line, a log that could not be written), said on stderr.
fn warn(warnings: &[String]) {
    for w in warnings {
        eprintln!("cowriting: warning: {w}");
    }
}

fn decided(ctx: &Ctx, out: DecidedOut) -> Result<i32> {
    warn(&out.warnings);
    ctx.print(&out, |o| match o.outcome {
        DecidedOutcome::Rejected => format!("rejected {}", o.id),
        _ => format!("accepted {}; {} updated", o.id, o.document),
    });
    Ok(0)
}

/// A batch decision: one line; each proposal passed over said on stderr.
fn batch_decided(ctx: &Ctx, out: BatchOut) -> Result<i32> {
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

/// `suggest DOC` without `--producer`: Check document. Exit 0 when every
/// producer that ran filed; else the first failure's exit code.
fn cmd_check_document(ctx: &Ctx, doc: &str, instruction: Option<String>, t: &OptTarget) -> Result<i32> {
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

fn cmd_suggest(
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

/// Print what a review pass or a question in a thread filed; the exit code
/// of why it stopped early, if it did.
fn finish_review(ctx: &Ctx, out: &cowriting::ops::review::ReviewOut) -> Result<i32> {
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

fn cmd_thread(ctx: &Ctx, t: ThreadCommand) -> Result<i32> {
    let ops = &ctx.ops;
    let (out, said) = match t {
        ThreadCommand::Ask {
            doc,
            thread,
            instruction,
        } => {
            let out = ops.ask_in_thread(&doc, &thread, instruction, &Cancel::new(), &mut |_| {})?;
            return finish_review(ctx, &out);
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
