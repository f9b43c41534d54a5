//! The authorship of a text as an [Agent Trace] record: the lines each
//! contributor wrote, for tools that read AI attribution of code.
//!
//! Agent Trace 0.1.0 (README §6, `schemas.ts`; CC BY 4.0): a record names
//! its `version`, `id` (a UUID), `timestamp`, optional `vcs` and `tool`, and
//! `files`, each with `conversations` whose `contributor` (`human`, `ai`,
//! `mixed`, `unknown`; an AI's `model_id` as `provider/model`) wrote its
//! `ranges` of 1-indexed lines (`start_line`..=`end_line`). The spec leaves
//! what `content_hash` hashes to the tool; here it is `sha256:` and the hex
//! SHA-256 of the range's lines as UTF-8, from the start of `start_line` to
//! the end of `end_line` without its line break.
//!
//! A line belongs to every author who wrote one of its characters that is
//! not white space (a line with text of two authors is in both
//! conversations); blank lines belong to no one. Characters no span covers
//! are the `unknown` contributor's. There is one conversation per
//! contributor, in the order they first appear in the text.
//!
//! [Agent Trace]: https://github.com/cursor/agent-trace

use crate::offset::CharRange;
use serde::Serialize;
use sha2::{Digest, Sha256};

/// The version of the spec these records follow.
pub const VERSION: &str = "0.1.0";

/// A contributor: `type` and, for an AI, its model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Contributor {
    #[serde(rename = "type")]
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_id: Option<String>,
}

impl Contributor {
    pub fn human() -> Self {
        Contributor {
            kind: "human",
            model_id: None,
        }
    }

    /// An AI, its model named as models.dev does (`anthropic/claude-…`, see [`model_id`]).
    pub fn ai(model: Option<&str>) -> Self {
        Contributor {
            kind: "ai",
            model_id: model.filter(|m| !m.is_empty()).map(model_id),
        }
    }

    pub fn unknown() -> Self {
        Contributor {
            kind: "unknown",
            model_id: None,
        }
    }
}

/// A model's id as models.dev writes it (`provider/model-name`): a name with
/// a `/` as it is, else the provider of its family prefixed, as the spec's
/// reference implementation does (`claude-` → `anthropic/`, `gpt-`, `o1`,
/// `o3` → `openai/`, `gemini-` → `google/`); other names as they are.
pub fn model_id(model: &str) -> String {
    if model.contains('/') {
        return model.to_owned();
    }
    let provider = [
        ("claude-", "anthropic"),
        ("gpt-", "openai"),
        ("o1", "openai"),
        ("o3", "openai"),
        ("gemini-", "google"),
    ]
    .iter()
    .find(|(prefix, _)| model.starts_with(prefix))
    .map(|(_, p)| *p);
    match provider {
        Some(p) => format!("{p}/{model}"),
        None => model.to_owned(),
    }
}

/// A trace record (`files` of one document).
#[derive(Clone, Debug, Serialize)]
pub struct TraceRecord {
    pub version: &'static str,
    pub id: String,
    pub timestamp: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vcs: Option<Vcs>,
    pub tool: Tool,
    pub files: Vec<TraceFile>,
}

/// The revision the line numbers refer to.
#[derive(Clone, Debug, Serialize)]
pub struct Vcs {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub revision: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Tool {
    pub name: String,
    pub version: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct TraceFile {
    pub path: String,
    pub conversations: Vec<Conversation>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Conversation {
    pub contributor: Contributor,
    pub ranges: Vec<LineRange>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineRange {
    pub start_line: usize,
    pub end_line: usize,
    pub content_hash: String,
}

/// The file entry of `text` at `path` whose spans (`(range, author index)`,
/// char ranges, not overlapping) are `spans`, `contributors[i]` being author
/// `i`'s (two authors may share a contributor: their lines are one
/// conversation's). See the module docs.
pub fn file(path: &str, text: &str, spans: &[(CharRange, usize)], contributors: &[Contributor]) -> TraceFile {
    let chars: Vec<char> = text.chars().collect();
    // The contributor of each char (an index into `kinds`).
    let mut kinds: Vec<Contributor> = Vec::new();
    let mut kind_of_author = Vec::with_capacity(contributors.len());
    for c in contributors {
        kind_of_author.push(index_of(&mut kinds, c));
    }
    let unknown = index_of(&mut kinds, &Contributor::unknown());
    let mut who = vec![unknown; chars.len()];
    for (r, a) in spans {
        let end = r.end.0.min(chars.len());
        let k = kind_of_author.get(*a).copied().unwrap_or(unknown);
        for w in who.iter_mut().take(end).skip(r.start.0) {
            *w = k;
        }
    }
    // Lines (as char ranges without their break) and who wrote on each.
    let mut lines: Vec<CharRange> = Vec::new();
    let mut on_line: Vec<Vec<usize>> = vec![Vec::new(); kinds.len()];
    let mut start = 0;
    for (i, c) in chars.iter().enumerate() {
        let line = lines.len() + 1;
        if !c.is_whitespace() {
            let seen = &mut on_line[who[i]];
            if seen.last() != Some(&line) {
                seen.push(line);
            }
        }
        if *c == '\n' {
            lines.push(CharRange::new(start, i));
            start = i + 1;
        }
    }
    if start < chars.len() {
        lines.push(CharRange::new(start, chars.len()));
    }
    let hash = |from: usize, to: usize| {
        let s: String = chars[lines[from - 1].start.0..lines[to - 1].end.0]
            .iter()
            .collect();
        format!("sha256:{:x}", Sha256::digest(s.as_bytes()))
    };
    let mut order: Vec<usize> = (0..kinds.len()).filter(|k| !on_line[*k].is_empty()).collect();
    order.sort_by_key(|k| on_line[*k][0]);
    let conversations = order
        .into_iter()
        .map(|k| {
            let mut ranges: Vec<(usize, usize)> = Vec::new();
            for &l in &on_line[k] {
                match ranges.last_mut() {
                    Some(r) if r.1 + 1 == l => r.1 = l,
                    _ => ranges.push((l, l)),
                }
            }
            Conversation {
                contributor: kinds[k].clone(),
                ranges: ranges
                    .into_iter()
                    .map(|(s, e)| LineRange {
                        start_line: s,
                        end_line: e,
                        content_hash: hash(s, e),
                    })
                    .collect(),
            }
        })
        .collect();
    TraceFile {
        path: path.to_owned(),
        conversations,
    }
}

fn index_of(kinds: &mut Vec<Contributor>, c: &Contributor) -> usize {
    match kinds.iter().position(|k| k == c) {
        Some(i) => i,
        None => {
            kinds.push(c.clone());
            kinds.len() - 1
        }
    }
}

/// A fresh random (version 4) UUID, as a record's `id`.
pub fn new_uuid() -> String {
    let mut b = [0u8; 16];
    if getrandom::fill(&mut b).is_err() {
        // As `model::new_id` does: the clock, when the OS gives no randomness.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        b = nanos.to_le_bytes();
    }
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_go_to_every_author_on_them_and_blank_lines_to_no_one() {
        // "Ab\n\ncd ef\n": author 0 wrote "Ab\n", author 1 "cd", nobody " ef".
        let text = "Ab\n\ncd ef\n";
        let f = file(
            "d.md",
            text,
            &[(CharRange::new(0, 3), 0), (CharRange::new(4, 6), 1)],
            &[Contributor::human(), Contributor::ai(Some("claude-x"))],
        );
        let got: Vec<_> = f
            .conversations
            .iter()
            .map(|c| {
                (
                    c.contributor.kind,
                    c.contributor.model_id.clone(),
                    c.ranges
                        .iter()
                        .map(|r| (r.start_line, r.end_line))
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("human", None, vec![(1, 1)]),
                ("ai", Some("anthropic/claude-x".into()), vec![(3, 3)]),
                ("unknown", None, vec![(3, 3)]),
            ]
        );
        assert_eq!(
            f.conversations[0].ranges[0].content_hash,
            format!("sha256:{:x}", Sha256::digest(b"Ab"))
        );
    }

    #[test]
    fn uuids_are_version_4() {
        let u = new_uuid();
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
        assert!(matches!(&u[19..20], "8" | "9" | "a" | "b"), "{u}");
    }
}
