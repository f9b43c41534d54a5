//! `cowriting` — the command-line client of the cowriting core.
//!
//! Each command is one call of the one API ([`cowriting::ops::Ops`]), the
//! same the MCP server makes: `--json` prints its answer as it is, the plain
//! output words it for a terminal. Offsets are UTF-8 bytes of the document's text (after a BOM, if
//! any) and must fall on char boundaries; `--unit utf16` reports positions in
//! UTF-16 code units instead. Exit codes: 0 ok, 2 bad input, 3 refused by a
//! guard, 4 corrupt sidecar, 5 a producer failed or is not installed, 6
//! cancelled or timed out, 1 other failures ([`cowriting::ErrorCode::exit_code`]).
//!
//! Here: the dispatch. The `clap` tree is in `args`, each group of verbs in
//! `commands::*`, the wording for people in `text`, the `resolve` line
//! protocol in `resolve`, the MCP server in `mcp`.

mod args;
mod commands;
mod mcp;
mod resolve;
mod text;

use args::*;
use commands::*;
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
        return documents::sample(dir, cli.json);
    }
    let ctx = Ctx::new(cli.workspace, cli.json, cli.unit)?;
    match cli.command {
        Command::Check { docs } => documents::check(&ctx, &docs),
        Command::Status { doc } => documents::status(&ctx, doc.as_deref()),
        Command::New { name } => documents::new(&ctx, &name),
        Command::Rename { doc, to } => documents::rename(&ctx, &doc, &to),
        Command::Delete { doc } => documents::delete(&ctx, &doc),
        Command::Mkdir { name } => documents::mkdir(&ctx, &name),
        Command::Propose(a) => decide::propose(&ctx, a),
        Command::Proposals { doc } => decide::proposals(&ctx, &doc),
        Command::Accept(a) => decide::accept(&ctx, a),
        Command::Reject { doc, id, batch } => decide::reject(&ctx, &doc, id, batch),
        Command::Decisions { doc } => decide::decisions(&ctx, doc.as_deref()),
        Command::Inbox {
            document,
            producer,
            state,
        } => decide::inbox(&ctx, document, producer, state),
        Command::Eval { replay } => decide::eval(&ctx, replay.as_deref()),
        Command::Suggest {
            doc,
            producer,
            instruction,
            target,
        } => match producer {
            Some(p) => producers::suggest(&ctx, &doc, &p, instruction, &target),
            None => producers::check_document(&ctx, &doc, instruction, &target),
        },
        Command::Review {
            doc,
            instruction,
            target,
        } => producers::review(&ctx, &doc, instruction, &target),
        Command::Thread(t) => threads::thread(&ctx, t),
        Command::Threads { doc } => threads::threads(&ctx, &doc),
        Command::Spans { doc } => threads::spans(&ctx, &doc),
        Command::Export(a) => export::export(&ctx, a),
        Command::Authorship(a) => export::authorship(&ctx, a),
        Command::Search {
            query,
            case_sensitive,
            word,
            regex,
        } => search::search(
            &ctx,
            &cowriting::ops::SearchQuery {
                text: query,
                case_sensitive,
                whole_word: word,
                regex,
            },
        ),
        Command::Lint { doc } => spelling::lint(&ctx, &doc),
        Command::Dictionary { action } => spelling::dictionary(&ctx, action),
        Command::Git(g) => git::git(&ctx, g),
        Command::MergeSidecar {
            base,
            ours,
            theirs,
            path,
        } => git::merge_sidecar(&base, &ours, &theirs, path.as_deref()),
        Command::Mcp => mcp::serve_stdio(ctx.ws().root()).map(|()| 0),
        Command::Resolve { .. } | Command::Sample { .. } => unreachable!("handled above"),
        #[cfg(feature = "harper")]
        Command::HarperChecker => unreachable!("handled above"),
    }
}
