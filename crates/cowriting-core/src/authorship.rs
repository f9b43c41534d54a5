//! Who wrote how much: the characters and words of a text by author, for the
//! whole text and per section (a Markdown heading to the next), from the
//! attribution spans. Characters are Unicode scalar values; the characters no
//! span covers are the *unknown* author's (text that was there before anyone
//! kept track). A word is counted for the author of its first character.
//!
//! Checked against a per-character model by `tests/proptest_authorship.rs`.
//! Exported as an Agent Trace record ([`agent_trace`]) and as iA Writer's
//! Markdown Annotations ([`ia`]), which are read back too.

pub mod agent_trace;
pub mod ia;

use crate::offset::CharRange;

/// Characters and words of one author (by index into the caller's authors;
/// [`Counts::unknown`] for text no span covers).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// By author index: `(chars, words)`.
    pub by_author: Vec<(usize, usize)>,
    pub unknown: (usize, usize),
    pub chars: usize,
    pub words: usize,
}

/// A section of the text: a heading's line to the next heading's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The heading's text without its `#`s; `None` before the first heading.
    pub heading: Option<String>,
    /// The heading's level (1–6); 0 before the first heading.
    pub level: u8,
    /// 1-based line of the heading (1 before the first heading).
    pub line: usize,
    pub range: CharRange,
    pub counts: Counts,
}

/// The counts of `text` whose spans (`(range, author index)`, ranges in
/// chars, not overlapping) are `spans`, among `authors` authors: the whole
/// text's, and each section's.
pub fn report(text: &str, spans: &[(CharRange, usize)], authors: usize) -> (Counts, Vec<Section>) {
    let chars: Vec<char> = text.chars().collect();
    // The author of each char: index, or `authors` for unknown.
    let mut who = vec![authors; chars.len()];
    for (r, a) in spans {
        let end = r.end.0.min(chars.len());
        for w in who.iter_mut().take(end).skip(r.start.0) {
            *w = (*a).min(authors);
        }
    }
    let sections = sections(&chars);
    let count = |range: CharRange| {
        let mut c = Counts {
            by_author: vec![(0, 0); authors],
            ..Counts::default()
        };
        let mut in_word = false;
        for i in range.start.0..range.end.0 {
            let a = who[i];
            let word = chars[i].is_alphanumeric();
            let new_word = word && !in_word;
            let entry = if a < authors {
                &mut c.by_author[a]
            } else {
                &mut c.unknown
            };
            entry.0 += 1;
            entry.1 += usize::from(new_word);
            c.words += usize::from(new_word);
            c.chars += 1;
            in_word = word || (in_word && is_joiner(&chars, i));
        }
        c
    };
    let whole = count(CharRange::new(0, chars.len()));
    let sections = sections
        .into_iter()
        .map(|(heading, level, line, range)| Section {
            heading,
            level,
            line,
            range,
            counts: count(range),
        })
        .collect();
    (whole, sections)
}

/// An apostrophe or hyphen between two letters keeps a word whole (`don't`, `well-known`).
fn is_joiner(chars: &[char], i: usize) -> bool {
    matches!(chars[i], '\'' | '\u{2019}' | '-')
        && chars.get(i + 1).is_some_and(|c| c.is_alphanumeric())
        && i > 0
        && chars[i - 1].is_alphanumeric()
}

/// The sections of `chars`: ATX headings (`#` to `######` and a space, up to
/// three spaces in) outside fenced code; the text before the first heading is
/// a section when it is not empty.
fn sections(chars: &[char]) -> Vec<(Option<String>, u8, usize, CharRange)> {
    let mut out: Vec<(Option<String>, u8, usize, CharRange)> = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let (mut start, mut line) = (0, 1);
    while start < chars.len() || (start == 0 && chars.is_empty()) {
        let end = chars[start..]
            .iter()
            .position(|&c| c == '\n')
            .map_or(chars.len(), |i| start + i);
        let text: String = chars[start..end].iter().collect();
        let trimmed = text.trim_start_matches(' ');
        let indent = text.len() - trimmed.len();
        let fence_char = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        let run = fence_char.map_or(0, |f| trimmed.chars().take_while(|c| *c == f).count());
        if indent <= 3 && run >= 3 {
            match fence {
                None => fence = Some((fence_char.unwrap_or('`'), run)),
                Some((f, n)) if Some(f) == fence_char && run >= n && trimmed[run..].trim().is_empty() => {
                    fence = None
                }
                Some(_) => {}
            }
        } else if fence.is_none() && indent <= 3 {
            let level = trimmed.chars().take_while(|c| *c == '#').count();
            let after = &trimmed[level..];
            if (1..=6).contains(&level)
                && (after.is_empty() || after.starts_with(' ') || after.starts_with('\t'))
            {
                let heading = after.trim().trim_end_matches('#').trim_end().to_owned();
                if let Some(last) = out.last_mut() {
                    last.3 = CharRange::new(last.3.start.0, start);
                } else if start > 0 {
                    out.push((None, 0, 1, CharRange::new(0, start)));
                }
                out.push((
                    Some(heading),
                    level as u8,
                    line,
                    CharRange::new(start, chars.len()),
                ));
            }
        }
        if end >= chars.len() {
            break;
        }
        start = end + 1;
        line += 1;
    }
    if out.is_empty() && !chars.is_empty() {
        out.push((None, 0, 1, CharRange::new(0, chars.len())));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_follow_headings_outside_code() {
        let text = "Intro.\n# One\nA b.\n```\n# not a heading\n```\n## Two ##\nc\n";
        let (whole, s) = report(text, &[], 0);
        assert_eq!(whole.chars, text.chars().count());
        let heads: Vec<_> = s.iter().map(|s| (s.heading.clone(), s.level, s.line)).collect();
        assert_eq!(
            heads,
            [
                (None, 0, 1),
                (Some("One".into()), 1, 2),
                (Some("Two".into()), 2, 7)
            ]
        );
        assert_eq!(s.iter().map(|s| s.counts.chars).sum::<usize>(), whole.chars);
    }

    #[test]
    fn words_and_chars_go_to_the_author_of_each_char() {
        // "Don't stop" : author 0 wrote "Don't", unknown the rest.
        let (c, _) = report("Don't stop", &[(CharRange::new(0, 5), 0)], 1);
        assert_eq!(c.by_author, [(5, 1)]);
        assert_eq!(c.unknown, (5, 1));
        assert_eq!((c.chars, c.words), (10, 2));
    }
}
