//! Trailers that credit agents whose text a commit adds (the
//! `prepare-commit-msg` hook): `Assisted-by: AGENT:MODEL` by default, or
//! `Co-authored-by`, or none ([`TrailerStyle`]: the repository's `git config
//! cowriting.trailer`, else the user's `[git] trailer`).

use crate::{git_err, open_repo};
use cowriting_core::anchor::{Resolution, Resolver};
use cowriting_core::document::Document;
use cowriting_core::model::{parse_artifact, Provenance};
use cowriting_core::offset::CharRange;
use cowriting_workspace::config::TrailerStyle;
use cowriting_workspace::error::{Error, Result};
use cowriting_workspace::fsutil;
use cowriting_workspace::workspace::{is_document_name, SIDECAR_DIR};
use serde::Serialize;
use std::path::{Path, PathBuf};

// ---- Co-authored-by ----------------------------------------------------------------

/// The checkers built in that apply rules ([`writes_text`]).
pub const RULE_CHECKERS: [&str; 2] = ["harper", "vale"];

/// The rule checkers: the built-in ones and the user's external producers.
fn rule_checkers() -> Vec<String> {
    let mut all: Vec<String> = RULE_CHECKERS.map(String::from).into();
    if let Ok(cfg) = cowriting_workspace::config::Config::load() {
        all.extend(cfg.external.into_keys());
    }
    all
}

/// Whether `author` is an agent that writes text, and so a co-author of what it
/// wrote: a language model or an agent client (Claude, an MCP client, `propose
/// --agent`), not a rule checker (`checkers`: Harper, Vale, the user's external
/// producers) whose accepted fix is the writer's choice of a rule's correction.
/// A checker that names a model (an external producer backed by one) writes.
pub fn writes_text(author: &Provenance, checkers: &[String]) -> bool {
    if !author.is_agent() {
        return false;
    }
    let model = author
        .agent
        .as_ref()
        .and_then(|a| a.model.as_deref())
        .unwrap_or("");
    !model.trim().is_empty() || !checkers.iter().any(|c| c.eq_ignore_ascii_case(&author.id))
}

/// The trailer crediting `agent`: `Claude <noreply@anthropic.com>` for the agent id
/// `claude` or any model whose name contains `claude` (case-insensitively);
/// otherwise `<id> <id@users.noreply.cowriting>`, with the address part of the id
/// reduced to letters, digits, `.`, `_` and `-`.
pub fn co_author_trailer(agent: &Provenance) -> String {
    let model = agent
        .agent
        .as_ref()
        .and_then(|a| a.model.as_deref())
        .unwrap_or("");
    if agent.id.eq_ignore_ascii_case("claude") || model.to_ascii_lowercase().contains("claude") {
        return "Co-authored-by: Claude <noreply@anthropic.com>".to_owned();
    }
    let name: String = agent
        .id
        .chars()
        .filter(|c| !matches!(c, '<' | '>') && !c.is_control())
        .collect();
    let name = if name.trim().is_empty() {
        "agent"
    } else {
        name.trim()
    };
    let local: String = agent
        .id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let local = if local.trim_matches('-').is_empty() {
        "agent"
    } else {
        &local
    };
    format!("Co-authored-by: {name} <{local}@users.noreply.cowriting>")
}

/// The trailer crediting `agent` in `style`: `Assisted-by: <id>:<model>` (the
/// model when it named one; whitespace, colons and control characters in
/// either made `-`), [`co_author_trailer`], or none.
pub fn agent_trailer(agent: &Provenance, style: TrailerStyle) -> Option<String> {
    let clean = |s: &str| -> String {
        s.trim()
            .chars()
            .map(|c| {
                if c.is_whitespace() || c.is_control() || c == ':' {
                    '-'
                } else {
                    c
                }
            })
            .collect()
    };
    match style {
        TrailerStyle::None => None,
        TrailerStyle::CoAuthoredBy => Some(co_author_trailer(agent)),
        TrailerStyle::AssistedBy => {
            let id = clean(&agent.id);
            let id = if id.is_empty() { "agent".to_owned() } else { id };
            let model = agent
                .agent
                .as_ref()
                .and_then(|a| a.model.as_deref())
                .map(clean)
                .filter(|m| !m.is_empty());
            Some(match model {
                Some(m) => format!("Assisted-by: {id}:{m}"),
                None => format!("Assisted-by: {id}"),
            })
        }
    }
}

/// How `repo` credits agents: its `git config cowriting.trailer`, else the
/// user's `[git] trailer`, else [`TrailerStyle::AssistedBy`].
pub fn trailer_style(repo: &git2::Repository) -> TrailerStyle {
    repo.config()
        .ok()
        .and_then(|c| c.get_string("cowriting.trailer").ok())
        .and_then(|s| TrailerStyle::parse(&s))
        .or_else(|| {
            cowriting_workspace::config::Config::load()
                .ok()
                .map(|c| c.git.trailer)
        })
        .unwrap_or_default()
}

/// Whether `line` is a trailer (`Token: value`).
fn is_trailer(line: &str) -> bool {
    match line.split_once(':') {
        Some((key, value)) => {
            !key.is_empty()
                && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && (value.is_empty() || value.starts_with(' '))
        }
        None => false,
    }
}

/// `Co-authored-by`'s address, lowercased, for spotting a trailer already there.
fn co_author_email(line: &str) -> Option<String> {
    let (key, value) = line.trim().split_once(':')?;
    if !key.trim().eq_ignore_ascii_case("co-authored-by") {
        return None;
    }
    let start = value.find('<')?;
    let end = value[start..].find('>')? + start;
    Some(value[start + 1..end].trim().to_ascii_lowercase())
}

/// A commit message with trailers added ([`add_trailers`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trailered {
    pub text: String,
    /// Trailers added to the message.
    pub added: Vec<String>,
    /// Trailers only suggested, as comment lines, because the message had no text.
    pub hinted: Vec<String>,
}

/// Add `trailers` to a commit message as `git interpret-trailers` would: after the
/// message's last non-comment line — joining its trailer block when the last
/// paragraph is one, else after a blank line — and before trailing comment lines
/// (and a `>8` scissors line). Trailers already present (the same `Co-authored-by`
/// address, any case) are not added.
///
/// A message with no text yet (an editor is about to open) gets the trailers as
/// *comment lines* to uncomment, not as text: a trailer alone would make git commit
/// an editor session the writer left without writing a message, instead of
/// aborting it as "empty".
pub fn add_trailers(message: &str, trailers: &[String], comment: char) -> Trailered {
    let is_comment = |l: &str| l.starts_with(comment);
    let scissors = format!("{comment} ------------------------ >8 ------------------------");
    let (body, tail) = match message.split('\n').position(|l| l == scissors) {
        Some(i) => {
            let at: usize = message.split('\n').take(i).map(|l| l.len() + 1).sum();
            message.split_at(at)
        }
        None => (message, ""),
    };
    let mut lines: Vec<&str> = body.split('\n').collect();
    let present: Vec<String> = lines
        .iter()
        .filter(|l| !is_comment(l))
        .filter_map(|l| co_author_email(l))
        .collect();
    let mut added: Vec<String> = Vec::new();
    for t in trailers {
        let email = co_author_email(t);
        let dup = email.as_ref().is_some_and(|e| present.contains(e))
            || added.iter().any(|a| a.eq_ignore_ascii_case(t))
            || lines.iter().any(|l| l.trim().eq_ignore_ascii_case(t));
        if !dup {
            added.push(t.clone());
        }
    }
    if added.is_empty() {
        return Trailered {
            text: message.to_owned(),
            added,
            hinted: Vec::new(),
        };
    }
    let mut hinted = Vec::new();
    let hints: Vec<String>;
    let content = |l: &str| !l.trim().is_empty() && !is_comment(l);
    match lines.iter().rposition(|l| content(l)) {
        None => {
            // No text yet: a blank subject line, then the trailers as comments.
            hints = std::iter::once(format!(
                "{comment} cowriting: this commit adds agent-written text; to credit it, uncomment:"
            ))
            .chain(added.iter().map(|t| format!("{comment} {t}")))
            .collect();
            let first_comment = lines.iter().position(|l| is_comment(l)).unwrap_or(lines.len());
            let mut v = vec!["", ""];
            v.extend(hints.iter().map(String::as_str));
            lines.splice(0..first_comment, v);
            hinted = std::mem::take(&mut added);
        }
        Some(last) => {
            let first = lines.iter().position(|l| content(l)).unwrap_or(0);
            let para_start = lines[..=last]
                .iter()
                .rposition(|l| l.trim().is_empty())
                .map_or(0, |i| i + 1);
            // The subject is never a trailer block, even when it looks like one.
            let block = para_start > first
                && lines[para_start..=last]
                    .iter()
                    .all(|l| is_trailer(l) || is_comment(l));
            let mut v: Vec<&str> = if block { Vec::new() } else { vec![""] };
            v.extend(added.iter().map(String::as_str));
            lines.splice(last + 1..last + 1, v);
        }
    }
    let mut out = lines.join("\n");
    if !out.ends_with('\n') && (body.ends_with('\n') || !tail.is_empty() || body.trim().is_empty()) {
        out.push('\n');
    }
    out.push_str(tail);
    Trailered {
        text: out,
        added,
        hinted,
    }
}

/// What the hook did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct HookReport {
    /// The trailers added to the message.
    pub added: Vec<String>,
    /// Trailers suggested as comment lines (the message had no text yet).
    pub hinted: Vec<String>,
    /// Problems that did not stop the commit (a sidecar that does not parse, …).
    pub warnings: Vec<String>,
}

/// The char ranges of `new` that a word diff from `old` marks as inserted.
fn inserted_ranges(old: &str, new: &str) -> Vec<CharRange> {
    let diff = similar::TextDiff::configure()
        .timeout(std::time::Duration::from_secs(2))
        .diff_unicode_words(old, new);
    let mut out: Vec<CharRange> = Vec::new();
    let mut pos = 0usize;
    for change in diff.iter_all_changes() {
        let n = change.value().chars().count();
        match change.tag() {
            similar::ChangeTag::Equal => pos += n,
            similar::ChangeTag::Delete => {}
            similar::ChangeTag::Insert => {
                match out.last_mut() {
                    Some(last) if last.end.0 == pos => last.end.0 += n,
                    _ => out.push(CharRange::new(pos, pos + n)),
                }
                pos += n;
            }
        }
    }
    out
}

/// The sidecar paths that may belong to the document at repository path `doc`,
/// nearest first: `a/b/.threads/c.md.json`, `a/.threads/b/c.md.json`,
/// `.threads/a/b/c.md.json`.
fn sidecar_candidates(doc: &str) -> Vec<String> {
    let parts: Vec<&str> = doc.split('/').collect();
    (0..parts.len())
        .rev()
        .map(|i| {
            let dir = parts[..i].join("/");
            let rest = parts[i..].join("/");
            if dir.is_empty() {
                format!("{SIDECAR_DIR}/{rest}.json")
            } else {
                format!("{dir}/{SIDECAR_DIR}/{rest}.json")
            }
        })
        .collect()
}

fn blob_text(repo: &git2::Repository, id: git2::Oid) -> std::result::Result<Option<Document>, String> {
    if id.is_zero() {
        return Ok(None);
    }
    let blob = repo.find_blob(id).map_err(|e| e.message().to_owned())?;
    Document::from_bytes(blob.content())
        .map(Some)
        .map_err(|e| e.to_string())
}

/// The trailers (in the repository's [`trailer_style`]) for the agents whose
/// attributed text the staged changes (HEAD → `index`) add, in order of first
/// appearance, and warnings.
pub fn staged_co_authors(repo: &git2::Repository, index: &git2::Index) -> Result<(Vec<String>, Vec<String>)> {
    let style = trailer_style(repo);
    if style == TrailerStyle::None {
        return Ok((Vec::new(), Vec::new()));
    }
    let head = repo.head().ok().and_then(|h| h.peel_to_tree().ok());
    let diff = repo
        .diff_tree_to_index(head.as_ref(), Some(index), None)
        .map_err(git_err("git diff --cached"))?;
    let mut trailers: Vec<String> = Vec::new();
    let mut warnings = Vec::new();
    let checkers = rule_checkers();
    for delta in diff.deltas() {
        use git2::Delta;
        if !matches!(
            delta.status(),
            Delta::Added | Delta::Modified | Delta::Renamed | Delta::Copied | Delta::Typechange
        ) {
            continue;
        }
        let Some(path) = delta.new_file().path().and_then(Path::to_str) else {
            continue;
        };
        let name = path.rsplit('/').next().unwrap_or(path);
        if !is_document_name(name) || path.split('/').any(|p| p.starts_with('.') || p == "node_modules") {
            continue;
        }
        let Some(sidecar) = sidecar_candidates(path)
            .into_iter()
            .find_map(|c| index.get_path(Path::new(&c), 0).map(|e| (c, e.id)))
        else {
            continue;
        };
        let texts = blob_text(repo, delta.old_file().id()).and_then(|old| {
            blob_text(repo, delta.new_file().id()).map(|new| (old, new.unwrap_or_else(|| Document::new(""))))
        });
        let (old, new) = match texts {
            Ok(t) => t,
            Err(e) => {
                warnings.push(format!("{path}: {e}; skipped"));
                continue;
            }
        };
        let artifact = match repo
            .find_blob(sidecar.1)
            .map_err(|e| e.message().to_owned())
            .and_then(|b| {
                std::str::from_utf8(b.content())
                    .map_err(|_| "not UTF-8".to_owned())
                    .and_then(|s| parse_artifact(s).map_err(|e| e.to_string()))
            }) {
            Ok(a) => a,
            Err(e) => {
                warnings.push(format!("{}: {e}; skipped", sidecar.0));
                continue;
            }
        };
        let added = inserted_ranges(
            &old.as_ref().map_or_else(String::new, Document::flatten),
            &new.flatten(),
        );
        if added.is_empty() {
            continue;
        }
        let resolver = Resolver::new(&new);
        for at in artifact
            .attributions
            .iter()
            .filter(|a| writes_text(&a.author, &checkers))
        {
            let Some(fp) = artifact.fingerprint(&at.anchor_id) else {
                continue;
            };
            if let Resolution::Found(r) = resolver.resolve(fp, None) {
                if added.iter().any(|a| a.overlaps(&r)) {
                    if let Some(t) = agent_trailer(&at.author, style) {
                        if !trailers.contains(&t) {
                            trailers.push(t);
                        }
                    }
                }
            }
        }
    }
    Ok((trailers, warnings))
}

/// The hook: add the staged agents' trailers to the message in `msg_file`.
/// `source` is git's second argument (`message`, `template`, `merge`, `squash`,
/// `commit`, or none); merges are skipped.
pub fn prepare_commit_msg(
    repo: &git2::Repository,
    index: &git2::Index,
    msg_file: &Path,
    source: Option<&str>,
) -> Result<HookReport> {
    let mut report = HookReport::default();
    if source == Some("merge") {
        return Ok(report);
    }
    let (trailers, warnings) = staged_co_authors(repo, index)?;
    report.warnings = warnings;
    if trailers.is_empty() {
        return Ok(report);
    }
    let message = std::fs::read_to_string(msg_file).map_err(Error::io(msg_file))?;
    let comment = repo
        .config()
        .ok()
        .and_then(|c| c.get_string("core.commentChar").ok())
        .and_then(|s| s.chars().next())
        .filter(|c| *c != 'a') // "auto": git picks a char itself; '#' by default
        .unwrap_or('#');
    let edit = add_trailers(&message, &trailers, comment);
    if edit.text != message {
        fsutil::atomic_write(msg_file, edit.text.as_bytes()).map_err(Error::io(msg_file))?;
    }
    report.added = edit.added;
    report.hinted = edit.hinted;
    Ok(report)
}

/// [`prepare_commit_msg`] for the repository that holds `dir`, on the index git
/// names in `GIT_INDEX_FILE` (a partial or `-a` commit) or the repository's own.
pub fn run_prepare_commit_msg(dir: &Path, msg_file: &Path, source: Option<&str>) -> Result<HookReport> {
    let repo = open_repo(dir)?;
    let index = match std::env::var_os("GIT_INDEX_FILE") {
        Some(p) if !p.is_empty() => {
            let p = PathBuf::from(p);
            let p = if p.is_absolute() {
                p
            } else {
                std::env::current_dir().map(|d| d.join(&p)).unwrap_or(p)
            };
            git2::Index::open(&p).map_err(git_err(&p.display().to_string()))?
        }
        _ => repo.index().map_err(git_err("git index"))?,
    };
    prepare_commit_msg(&repo, &index, msg_file, source.filter(|s| !s.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_checkers_are_not_co_authors_agents_and_models_are() {
        use cowriting_core::model::AgentInfo;
        let agent = |id: &str, model: &str| {
            Provenance::agent(
                id,
                AgentInfo {
                    sdk: Some(format!("{id} 1.0")),
                    model: Some(model.to_owned()),
                    session_id: Some(String::new()),
                    extra: Default::default(),
                },
            )
        };
        let checkers: Vec<String> = ["harper", "vale", "house-style"].map(String::from).into();
        assert!(!writes_text(&agent("harper", ""), &checkers));
        assert!(!writes_text(&agent("Vale", ""), &checkers));
        assert!(!writes_text(&agent("house-style", ""), &checkers));
        assert!(
            writes_text(&agent("house-style", "gpt-x"), &checkers),
            "backed by a model"
        );
        assert!(writes_text(&agent("claude", "claude-sonnet-4"), &checkers));
        assert!(writes_text(&agent("claude-code", ""), &checkers), "an MCP agent");
        assert!(!writes_text(&Provenance::human("w@x"), &checkers));
    }

    #[test]
    fn trailers_go_after_a_blank_line_before_comments() {
        let t = vec!["Co-authored-by: Claude <noreply@anthropic.com>".to_owned()];
        assert_eq!(
            add_trailers("msg\n", &t, '#').text,
            "msg\n\nCo-authored-by: Claude <noreply@anthropic.com>\n"
        );
        assert_eq!(
            add_trailers("Subject\n\nBody.\n\n# Please enter\n#\n", &t, '#').text,
            "Subject\n\nBody.\n\nCo-authored-by: Claude <noreply@anthropic.com>\n\n# Please enter\n#\n"
        );
        // An existing trailer block is joined.
        assert_eq!(
            add_trailers("S\n\nSigned-off-by: A <a@x>\n", &t, '#').text,
            "S\n\nSigned-off-by: A <a@x>\nCo-authored-by: Claude <noreply@anthropic.com>\n"
        );
        // A subject that looks like a trailer is not a trailer block.
        assert_eq!(
            add_trailers("fix: bug\n", &t, '#').text,
            "fix: bug\n\nCo-authored-by: Claude <noreply@anthropic.com>\n"
        );
        // No text yet: suggested as comments, so an untouched editor still aborts.
        let edit = add_trailers("\n# Please enter\n", &t, '#');
        assert_eq!(
            edit.text,
            "\n\n# cowriting: this commit adds agent-written text; to credit it, uncomment:\n\
             # Co-authored-by: Claude <noreply@anthropic.com>\n# Please enter\n"
        );
        assert_eq!((edit.added.len(), edit.hinted.len()), (0, 1));
        // Scissors: the diff below is left alone.
        let s = "msg\n# ------------------------ >8 ------------------------\ndiff\n";
        assert_eq!(
            add_trailers(s, &t, '#').text,
            "msg\n\nCo-authored-by: Claude <noreply@anthropic.com>\n# ------------------------ >8 ------------------------\ndiff\n"
        );
        // Present already (any case): nothing added.
        let edit = add_trailers("msg\n\nco-authored-by: claude <NoReply@Anthropic.com>\n", &t, '#');
        assert!(edit.added.is_empty() && edit.hinted.is_empty());
        assert_eq!(
            edit.text,
            "msg\n\nco-authored-by: claude <NoReply@Anthropic.com>\n"
        );
    }

    #[test]
    fn trailer_names_follow_the_rule() {
        use cowriting_core::model::AgentInfo;
        let claude = Provenance::agent("claude", AgentInfo::default());
        assert_eq!(
            co_author_trailer(&claude),
            "Co-authored-by: Claude <noreply@anthropic.com>"
        );
        let by_model = Provenance::agent(
            "helper",
            AgentInfo {
                model: Some("Claude-Sonnet".into()),
                ..AgentInfo::default()
            },
        );
        assert_eq!(
            co_author_trailer(&by_model),
            "Co-authored-by: Claude <noreply@anthropic.com>"
        );
        let other = Provenance::agent("vale bot/1", AgentInfo::default());
        assert_eq!(
            co_author_trailer(&other),
            "Co-authored-by: vale bot/1 <vale-bot-1@users.noreply.cowriting>"
        );
    }

    #[test]
    fn inserted_ranges_are_in_chars() {
        let r = inserted_ranges("日本 text", "日本 new text é");
        let new = "日本 new text é";
        let got: Vec<String> = r
            .iter()
            .map(|r| new.chars().skip(r.start.0).take(r.len()).collect())
            .collect();
        assert_eq!(
            got.concat().split_whitespace().collect::<Vec<_>>(),
            vec!["new", "é"]
        );
    }

    #[test]
    fn sidecar_candidates_nearest_first() {
        assert_eq!(
            sidecar_candidates("a/b.md"),
            vec!["a/.threads/b.md.json", ".threads/a/b.md.json"]
        );
    }
}
