//! Search across the workspace: every document's text and every thread's
//! comments and anchored text. The CLI searches the files as they are on disk
//! ([`Ops::search`]); the app searches its open documents as the writer has
//! them, unsaved text included, searched under the app's lock
//! ([`crate::api::Api::search_open`]), and the files off it
//! ([`Ops::search_with`]). Both place and show a hit one way.

use super::*;
use cowriting_core::document::Document;
use cowriting_core::offset::ByteRange;
use regex::{Regex, RegexBuilder};
use std::collections::BTreeMap;

/// What to look for.
#[derive(Clone, Debug, Default)]
pub struct SearchQuery {
    pub text: String,
    pub case_sensitive: bool,
    /// Only whole words (the match starts and ends at a word boundary).
    pub whole_word: bool,
    /// `text` is a regular expression (Rust's `regex` syntax), else literal.
    pub regex: bool,
}

/// The most hits one search answers (text and thread hits together); the
/// answer says when there were more.
pub const MAX_HITS: usize = 1000;

/// How many characters of context a text hit shows on each side, at most.
const CONTEXT_CHARS: usize = 40;

impl SearchQuery {
    /// A literal search for `text`, any case.
    pub fn literal(text: impl Into<String>) -> SearchQuery {
        SearchQuery {
            text: text.into(),
            ..SearchQuery::default()
        }
    }

    /// The query as a regular expression; an empty query or a bad expression
    /// is a `bad_input` error.
    pub fn matcher(&self) -> Result<Regex> {
        if self.text.is_empty() {
            return Err(Error::BadInput("search for what? The query is empty".into()));
        }
        let pattern = if self.regex {
            self.text.clone()
        } else {
            regex::escape(&self.text)
        };
        let pattern = if self.whole_word {
            format!(r"\b(?:{pattern})\b")
        } else {
            pattern
        };
        RegexBuilder::new(&pattern)
            .case_insensitive(!self.case_sensitive)
            .multi_line(true)
            .size_limit(1 << 20)
            .build()
            .map_err(|e| Error::BadInput(format!("not a regular expression: {}", one_line(&e.to_string()))))
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What one search found so far.
#[derive(Default)]
struct Found {
    hits: Vec<views::SearchHitDto>,
    threads: Vec<views::ThreadHitDto>,
    /// More matched than [`MAX_HITS`].
    truncated: bool,
}

impl Found {
    fn full(&mut self) -> bool {
        let full = self.hits.len() + self.threads.len() >= MAX_HITS;
        self.truncated |= full;
        full
    }
}

/// Add what `re` finds in `s` (its text as the session has it, then its
/// threads) to `found`, up to [`MAX_HITS`] in all.
fn search_session(s: &Session, re: &Regex, unit: Unit, found: &mut Found) {
    let name = s.doc_path().as_str();
    search_text(s.document(), name, re, unit, found);
    for t in views::threads(s, unit) {
        let matched = t.comments.iter().find(|c| re.is_match(&c.body));
        if matched.is_none() && !re.is_match(&t.anchored_text) {
            continue;
        }
        if found.full() {
            return;
        }
        found.threads.push(views::ThreadHitDto {
            document: name.to_owned(),
            comment: matched.map(|c| c.id.clone()),
            author: matched.map(|c| c.author.clone()),
            body: matched.map(|c| c.body.clone()),
            thread: t,
        });
    }
}

/// The hits of `re` in the text of `doc` (named `name`).
fn search_text(
    doc: &cowriting_core::document::Document,
    name: &str,
    re: &Regex,
    unit: Unit,
    found: &mut Found,
) {
    for m in re.find_iter(doc.text()) {
        if m.is_empty() {
            continue;
        }
        if found.full() {
            return;
        }
        found.hits.push(hit(doc, unit, name, m.start(), m.end()));
    }
}

/// The words around bytes `start..end` of `text` on its lines: up to
/// [`CONTEXT_CHARS`] characters before it on its first line and after it on
/// its last, trimmed at the outer ends.
pub(crate) fn around(text: &str, start: usize, end: usize) -> (String, String) {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    let before = &text[line_start..start];
    let before: String = {
        let skip = before.chars().count().saturating_sub(CONTEXT_CHARS);
        before.chars().skip(skip).collect()
    };
    let after: String = text[end..line_end].chars().take(CONTEXT_CHARS).collect();
    (
        before.trim_start().to_owned(),
        after.trim_end_matches('\r').to_owned(),
    )
}

/// A text hit at bytes `start..end` of `doc`, with the words around it on its line.
fn hit(doc: &Document, unit: Unit, name: &str, start: usize, end: usize) -> views::SearchHitDto {
    let text = doc.text();
    let (before, after) = around(text, start, end);
    let range = doc
        .byte_range_to_chars(ByteRange::new(start, end))
        .expect("a regex match is on char boundaries");
    let (from, to) = unit.of(doc, range);
    views::SearchHitDto {
        document: name.to_owned(),
        from,
        to,
        line: doc.char_to_line_col(range.start).line as u32 + 1,
        before,
        text: text[start..end].to_owned(),
        after,
    }
}

/// The open documents' finds, made under the app's lock from the texts as the
/// writer has them ([`crate::api::Api::search_open`]); the rest of the search
/// reads the files off that lock ([`Ops::search_with`]).
pub struct OpenFinds {
    re: Regex,
    docs: BTreeMap<DocPath, Found>,
}

impl OpenFinds {
    /// What `query` finds in each of `sessions`.
    pub(crate) fn new<'s>(
        query: &SearchQuery,
        unit: Unit,
        sessions: impl Iterator<Item = (&'s DocPath, &'s Session)>,
    ) -> Result<OpenFinds> {
        let re = query.matcher()?;
        let docs = sessions
            .map(|(doc, s)| (doc.clone(), finds(s, &re, unit)))
            .collect();
        Ok(OpenFinds { re, docs })
    }
}

/// What `re` finds in one session, up to [`MAX_HITS`].
fn finds(s: &Session, re: &Regex, unit: Unit) -> Found {
    let mut found = Found::default();
    search_session(s, re, unit, &mut found);
    found
}

impl Found {
    /// Add one document's finds, up to [`MAX_HITS`] in all (text hits first,
    /// as they were found).
    fn add(&mut self, doc: Found) {
        for h in doc.hits {
            if self.full() {
                return;
            }
            self.hits.push(h);
        }
        for t in doc.threads {
            if self.full() {
                return;
            }
            self.threads.push(t);
        }
        self.truncated |= doc.truncated;
    }
}

impl Ops {
    /// Search every document of the workspace as it is on disk, and their
    /// threads.
    pub fn search(&self, query: &SearchQuery) -> Result<SearchOut> {
        self.search_with(query, OpenFinds::new(query, self.unit, std::iter::empty())?)
    }

    /// Search every document, taking `open`'s finds for the documents it has
    /// and reading the others from disk: a document that cannot be read is
    /// listed as not searched.
    pub fn search_with(&self, query: &SearchQuery, mut open: OpenFinds) -> Result<SearchOut> {
        let mut found = Found::default();
        let mut errors = Vec::new();
        // Only a document with review data has threads to search too, and a
        // session to open for them; the rest are read as text, with no lock
        // taken and no folder listed (a docs tree of 38,000 pages).
        let reviewed: std::collections::HashSet<DocPath> = self
            .workspace()
            .list_sidecars()
            .into_iter()
            .map(|(d, _)| d)
            .collect();
        for doc in self.docs(None)? {
            if found.truncated {
                break;
            }
            let finds = match open.docs.remove(&doc) {
                Some(f) => Ok(f),
                None if reviewed.contains(&doc) => self.session(&doc).map(|s| finds(&s, &open.re, self.unit)),
                None => self.workspace().read_document(&doc).map(|d| {
                    let mut f = Found::default();
                    search_text(&d, doc.as_str(), &open.re, self.unit, &mut f);
                    f
                }),
            };
            match finds {
                Ok(f) => found.add(f),
                Err(e) => errors.push(views::DocError {
                    document: doc.to_string(),
                    error: e.info(),
                }),
            }
        }
        Ok(SearchOut {
            query: query.text.clone(),
            unit: self.unit,
            hits: found.hits,
            threads: found.threads,
            truncated: found.truncated,
            errors,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowriting_workspace::error::ErrorCode;

    fn q(text: &str) -> SearchQuery {
        SearchQuery::literal(text)
    }

    #[test]
    fn the_query_becomes_a_matcher_as_asked() {
        assert!(q("a.b").matcher().unwrap().is_match("A.B"));
        assert!(!q("a.b").matcher().unwrap().is_match("axb"), "literal by default");
        let re = SearchQuery {
            regex: true,
            ..q("a.b")
        };
        assert!(re.matcher().unwrap().is_match("axb"));
        let cs = SearchQuery {
            case_sensitive: true,
            ..q("Draft")
        };
        assert!(!cs.matcher().unwrap().is_match("draft"));
        let word = SearchQuery {
            whole_word: true,
            ..q("draft")
        };
        assert!(word.matcher().unwrap().is_match("a draft."));
        assert!(!word.matcher().unwrap().is_match("drafts"));
        for bad in [
            q(""),
            SearchQuery {
                regex: true,
                ..q("(")
            },
        ] {
            assert_eq!(bad.matcher().unwrap_err().info().code, ErrorCode::BadInput);
        }
    }

    #[test]
    fn a_hit_has_its_line_and_the_words_around_it() {
        let doc = Document::new("# T\n\nLe café est très « bon » ici, vraiment.\r\nEnd");
        let start = doc.text().find("très").unwrap();
        let h = hit(&doc, Unit::Utf16, "a.md", start, start + "très".len());
        assert_eq!((h.line, h.text.as_str()), (3, "très"));
        assert_eq!(h.before, "Le café est ");
        assert_eq!(h.after, " « bon » ici, vraiment.");
        let utf16 = doc.text()[..start].encode_utf16().count() as u32;
        assert_eq!((h.from, h.to), (utf16, utf16 + 4));
        let h = hit(&doc, Unit::Byte, "a.md", start, start + "très".len());
        assert_eq!((h.from, h.to), (start as u32, (start + 5) as u32));
    }
}
