//! iA Writer's [Markdown Annotations] 0.1: authorship kept as a block at the
//! end of a Markdown file.
//!
//! ```text
//! Text.
//!
//! ---
//! Annotations: 0,5 SHA-256 3a5b…
//! @Ann <ann@example.com>: 0,3
//! &claude-sonnet-4-5 <claude>: 3,2
//! ...
//! ```
//!
//! The file is the text, a line break, the block: a line `---`, annotations
//! (`key: value`, a key's `:` escaped as `\:`, a value continued on lines
//! indented two spaces more than its key), a line `...`. The first
//! annotation is the hash: a range of the text, `SHA-256` and the hex digest
//! (at least 32 digits) of that range's UTF-8; it may leave out the text's
//! last line break (iA Writer does, and so does [`block`]), and it covers
//! every annotated range. An author's key is `@` (a human) or `&` (anyone
//! else: an AI) with an optional name and `<identifier>`; its value, ranges
//! `location,length` (a bare location is one long). Ranges count grapheme
//! clusters of the text.
//!
//! [Markdown Annotations]: https://github.com/iainc/Markdown-Annotations

use crate::offset::CharRange;
use sha2::{Digest, Sha256};
use unicode_segmentation::UnicodeSegmentation;

/// An author of an annotation block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Author {
    /// `@` (a human), else `&`.
    pub human: bool,
    pub name: Option<String>,
    pub identifier: Option<String>,
}

impl Author {
    /// The annotation key: `@name <identifier>`, with `:`, `<`, `>` and `\` escaped.
    pub fn key(&self) -> String {
        let esc = |s: &str| {
            let mut o = String::with_capacity(s.len());
            for c in s.chars() {
                if matches!(c, ':' | '<' | '>' | '\\') {
                    o.push('\\');
                }
                // A line break cannot be in a key.
                o.push(if c == '\n' || c == '\r' { ' ' } else { c });
            }
            o
        };
        let mut k = String::from(if self.human { "@" } else { "&" });
        if let Some(n) = &self.name {
            k.push_str(&esc(n.trim()));
        }
        if let Some(id) = &self.identifier {
            if self.name.is_some() {
                k.push(' ');
            }
            k.push('<');
            k.push_str(&esc(id));
            k.push('>');
        }
        k
    }
}

/// A parsed annotation block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotations {
    /// The hashed range of the text, in grapheme clusters: `(location, length)`.
    pub hashed: (usize, usize),
    /// The hex digest as written (lower case).
    pub hash: String,
    /// The authors and their ranges (`(location, length)` in grapheme clusters).
    pub authors: Vec<(Author, Vec<(usize, usize)>)>,
}

/// Why a block cannot be read or does not fit the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IaError {
    #[error("no Markdown Annotations block (a line `---`, annotations, a line `...` at the end)")]
    NoBlock,
    #[error("the annotation block does not start with a hash annotation (`Annotations: 0,N SHA-256 …`)")]
    NoHash,
    #[error("the annotations' hash does not match the text (it was changed after iA Writer wrote them)")]
    Mismatch,
    #[error("an author's range {0},{1} is outside the hashed text")]
    OutOfRange(usize, usize),
}

fn sha256_hex(s: &str) -> String {
    format!("{:x}", Sha256::digest(s.as_bytes()))
}

/// The char offset of each grapheme cluster's start, and the text's length last.
fn grapheme_starts(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut chars = 0;
    for g in text.graphemes(true) {
        out.push(chars);
        chars += g.chars().count();
    }
    out.push(chars);
    out
}

/// The block for `text` whose spans (`(range, author index)`, char ranges, not
/// overlapping) are `spans`, `authors[i]` being author `i` (authors with the
/// same key are one). A grapheme cluster is its first char's author's; text
/// no span covers is not annotated. Ends with a line break.
pub fn block(text: &str, spans: &[(CharRange, usize)], authors: &[Author]) -> String {
    let starts = grapheme_starts(text);
    let graphemes = starts.len() - 1;
    let hashed = if text.ends_with('\n') {
        graphemes - 1
    } else {
        graphemes
    };
    let hashed_text: String = text.chars().take(starts[hashed]).collect();
    let mut keys: Vec<String> = Vec::new();
    let key_of: Vec<usize> = authors
        .iter()
        .map(|a| {
            let k = a.key();
            keys.iter().position(|x| *x == k).unwrap_or_else(|| {
                keys.push(k);
                keys.len() - 1
            })
        })
        .collect();
    // The key of each grapheme's first char.
    let mut spans: Vec<&(CharRange, usize)> = spans.iter().collect();
    spans.sort_by_key(|(r, _)| r.start);
    let mut ranges: Vec<Vec<(usize, usize)>> = vec![Vec::new(); keys.len()];
    let mut first_seen: Vec<usize> = vec![usize::MAX; keys.len()];
    let mut si = 0;
    for (g, &c) in starts.iter().take(hashed).enumerate() {
        while si < spans.len() && spans[si].0.end.0 <= c {
            si += 1;
        }
        let Some((r, a)) = spans.get(si) else { break };
        if r.start.0 > c {
            continue;
        }
        let Some(&k) = key_of.get(*a) else { continue };
        first_seen[k] = first_seen[k].min(g);
        match ranges[k].last_mut() {
            Some(last) if last.0 + last.1 == g => last.1 += 1,
            _ => ranges[k].push((g, 1)),
        }
    }
    let mut order: Vec<usize> = (0..keys.len()).filter(|k| !ranges[*k].is_empty()).collect();
    order.sort_by_key(|k| first_seen[*k]);
    let mut out = String::from("---\n");
    out.push_str(&format!(
        "Annotations: 0,{hashed} SHA-256 {}  \n",
        sha256_hex(&hashed_text)
    ));
    for k in order {
        let values: Vec<String> = ranges[k]
            .iter()
            .map(|(l, n)| {
                if *n == 1 {
                    l.to_string()
                } else {
                    format!("{l},{n}")
                }
            })
            .collect();
        out.push_str(&format!("{}: {}  \n", keys[k], values.join(" ")));
    }
    out.push_str("...\n");
    out
}

/// The file iA Writer reads: `text`, a line break, and its [`block`].
pub fn annotated(text: &str, spans: &[(CharRange, usize)], authors: &[Author]) -> String {
    format!("{text}\n{}", block(text, spans, authors))
}

/// Split a file into its text and its annotation block: [`IaError::NoBlock`]
/// when it does not end with one, [`IaError::NoHash`] when the block does not
/// start with a hash annotation. The text is what comes before the line break
/// before `---`.
pub fn split(file: &str) -> Result<(&str, Annotations), IaError> {
    let body = file.trim_end_matches(['\n', '\r', ' ', '\t']);
    let dots = body.rfind('\n').map_or(0, |i| i + 1);
    if body[dots..].trim_end() != "..." {
        return Err(IaError::NoBlock);
    }
    // The last line `---` before it.
    let mut end = dots;
    let start = loop {
        let line_start = body[..end.saturating_sub(1)].rfind('\n').map_or(0, |i| i + 1);
        if end == 0 {
            return Err(IaError::NoBlock);
        }
        if body[line_start..end - 1].trim_end_matches(['\r', ' ', '\t']) == "---" {
            break line_start;
        }
        end = line_start;
    };
    let lines: Vec<&str> = body[start..dots]
        .lines()
        .skip(1)
        .map(|l| l.trim_end_matches('\r'))
        .collect();
    let annotations = parse_annotations(&lines)?;
    let text = if start == 0 { "" } else { &file[..start - 1] };
    Ok((text, annotations))
}

/// The annotations of a block's lines (between `---` and `...`).
fn parse_annotations(lines: &[&str]) -> Result<Annotations, IaError> {
    // Key and value, continuation lines joined by line breaks.
    let mut entries: Vec<(String, String)> = Vec::new();
    let mut key_indent = 0;
    let mut cont_indent: Option<usize> = None;
    for line in lines {
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        if !entries.is_empty() && (line.trim().is_empty() || indent >= key_indent + 2) {
            let min = *cont_indent.get_or_insert(indent.max(key_indent + 2));
            let v = &mut entries.last_mut().expect("not empty").1;
            v.push('\n');
            v.push_str(line.get(min.min(line.len())..).unwrap_or("").trim_end());
            continue;
        }
        let Some((key, value)) = split_key(line) else {
            return Err(IaError::NoBlock);
        };
        key_indent = indent;
        cont_indent = None;
        entries.push((key, value.trim().to_owned()));
    }
    let mut entries = entries.into_iter();
    let (_, hash) = entries.next().ok_or(IaError::NoHash)?;
    let parts: Vec<&str> = hash.split_whitespace().collect();
    let hashed = match parts.as_slice() {
        [range, "SHA-256", digest]
            if (32..=64).contains(&digest.len()) && digest.chars().all(|c| c.is_ascii_hexdigit()) =>
        {
            (
                parse_range(range).ok_or(IaError::NoHash)?,
                digest.to_ascii_lowercase(),
            )
        }
        _ => return Err(IaError::NoHash),
    };
    let mut authors: Vec<(Author, Vec<(usize, usize)>)> = Vec::new();
    for (key, value) in entries {
        let Some(author) = parse_author(&key) else {
            continue;
        };
        // Author annotations with content are not authorship (a later version's).
        let Some(ranges) = value
            .split_whitespace()
            .map(parse_range)
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        match authors.iter_mut().find(|(a, _)| *a == author) {
            Some((_, r)) => r.extend(ranges),
            None => authors.push((author, ranges)),
        }
    }
    Ok(Annotations {
        hashed: hashed.0,
        hash: hashed.1,
        authors,
    })
}

/// `key: value` with `\:` in the key; the key unescaped and trimmed.
fn split_key(line: &str) -> Option<(String, &str)> {
    let mut key = String::new();
    let mut chars = line.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some((_, ':')) => key.push(':'),
                Some((_, n)) => {
                    key.push('\\');
                    key.push(n);
                }
                None => key.push('\\'),
            },
            ':' => return Some((key.trim().to_owned(), &line[i + 1..])),
            _ => key.push(c),
        }
    }
    None
}

/// `location` or `location,length`.
fn parse_range(s: &str) -> Option<(usize, usize)> {
    let (l, n) = s.split_once(',').unwrap_or((s, "1"));
    let digits = |x: &str| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit());
    (digits(l) && digits(n)).then(|| Some((l.parse().ok()?, n.parse().ok()?)))?
}

/// An author key: `@` or `&`, a name, an `<identifier>` (the rest, a session, ignored).
fn parse_author(key: &str) -> Option<Author> {
    let human = match key.chars().next()? {
        '@' => true,
        '&' => false,
        _ => return None,
    };
    let rest = &key[1..];
    let (mut name, mut identifier) = (String::new(), None);
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => name.extend(chars.next()),
            '<' => {
                let (mut id, mut depth) = (String::new(), 1);
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => id.extend(chars.next()),
                        '<' => {
                            depth += 1;
                            id.push(c);
                        }
                        '>' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                            id.push(c);
                        }
                        _ => id.push(c),
                    }
                }
                identifier = Some(id);
                break;
            }
            ',' => break,
            _ => name.push(c),
        }
    }
    let name = name.trim();
    Some(Author {
        human,
        name: (!name.is_empty()).then(|| name.to_owned()),
        identifier,
    })
}

/// The authors' ranges of `a` as char ranges of `text` (`(range, index into
/// a.authors)`), once its hash is checked against `text` and every range is
/// inside the hashed text.
pub fn char_ranges(text: &str, a: &Annotations) -> Result<Vec<(CharRange, usize)>, IaError> {
    let starts = grapheme_starts(text);
    let graphemes = starts.len() - 1;
    let (loc, len) = a.hashed;
    if loc.checked_add(len).is_none_or(|end| end > graphemes) {
        return Err(IaError::Mismatch);
    }
    let hashed: String = text
        .chars()
        .skip(starts[loc])
        .take(starts[loc + len] - starts[loc])
        .collect();
    if !sha256_hex(&hashed).starts_with(&a.hash) {
        return Err(IaError::Mismatch);
    }
    let mut out = Vec::new();
    for (i, (_, ranges)) in a.authors.iter().enumerate() {
        for &(l, n) in ranges {
            if l < loc || l.checked_add(n).is_none_or(|e| e > loc + len) {
                return Err(IaError::OutOfRange(l, n));
            }
            if n > 0 {
                out.push((CharRange::new(starts[l], starts[l + n]), i));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of the format's README.
    const README: &str = "Markdown Annotations embed authorship in text while preserving its readability and portability.\n\n---\nAnnotations: 0,95 SHA-256 1132bf5e376a605f5beed4b204456114  \n@Human: 0,20 33,4 45,6 62,4  \n&AI: 20,13 37,8 51,11 66,29  \n...\n";

    #[test]
    fn reads_the_formats_own_example() {
        let (text, a) = split(README).expect("a block");
        assert!(text.ends_with("portability.\n"), "{text:?}");
        assert_eq!(a.hashed, (0, 95));
        assert_eq!(a.authors.len(), 2);
        assert_eq!(a.authors[0].0.name.as_deref(), Some("Human"));
        assert!(a.authors[0].0.human && !a.authors[1].0.human);
        let r = char_ranges(text, &a).unwrap();
        let ai: usize = r
            .iter()
            .filter(|(_, i)| *i == 1)
            .map(|(r, _)| r.end.0 - r.start.0)
            .sum();
        assert_eq!(ai, 13 + 8 + 11 + 29);
        // Written back, the same block.
        let spans: Vec<_> = r.clone();
        let authors: Vec<Author> = a.authors.iter().map(|(x, _)| x.clone()).collect();
        // (with the whole digest: iA Writer writes 32 of its 64 digits)
        let whole = sha256_hex(text.trim_end_matches('\n'));
        assert!(whole.starts_with("1132bf5e376a605f5beed4b204456114"));
        let expected = README.replace("1132bf5e376a605f5beed4b204456114", &whole);
        assert_eq!(annotated(text, &spans, &authors), expected);
        // One changed letter and the hash no longer fits.
        let changed = text.replacen("text", "Text", 1);
        assert_eq!(char_ranges(&changed, &a), Err(IaError::Mismatch));
    }

    #[test]
    fn ranges_count_grapheme_clusters() {
        // "e\u{301}" is one grapheme of two chars; the flag two chars too.
        let text = "e\u{301}x🇫🇷y\n";
        let authors = [Author {
            human: false,
            name: Some("m".into()),
            identifier: Some("a:b".into()),
        }];
        let b = block(text, &[(CharRange::new(2, 5), 0)], &authors);
        assert!(b.contains("Annotations: 0,4 SHA-256 "), "{b}");
        assert!(b.contains("&m <a\\:b>: 1,2  \n"), "{b}");
        let file = annotated(text, &[(CharRange::new(2, 5), 0)], &authors);
        let (t, a) = split(&file).unwrap();
        assert_eq!(t, text);
        assert_eq!(a.authors[0].0, authors[0]);
        assert_eq!(char_ranges(t, &a).unwrap(), [(CharRange::new(2, 5), 0)]);
    }

    #[test]
    fn keys_escape_and_continuation_lines_join() {
        let file = "T\n---\nAnnotations: 0,1 SHA-256 e632b7095b0bf32c260fa4c539e9fd7b852d0de454e9be26f24d0d6f91d069d3\n@A\\: B <x<y>z> , s: 0\n  1\n...";
        let (_, a) = split(file).unwrap();
        assert_eq!(a.authors[0].0.name.as_deref(), Some("A: B"));
        assert_eq!(a.authors[0].0.identifier.as_deref(), Some("x<y>z"));
        assert_eq!(a.authors[0].1, [(0, 1), (1, 1)]);
        assert_eq!(split("Just text.\n"), Err(IaError::NoBlock));
        assert_eq!(split("T\n---\n@A: 0,1\n...\n"), Err(IaError::NoHash));
        assert_eq!(split("T\n---\nno colon here\n...\n"), Err(IaError::NoBlock));
    }
}
