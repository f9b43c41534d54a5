//! Search across the workspace: every document's text and every thread's
//! comments and anchored text. The CLI searches the files as they are on disk
//! ([`Ops::search`]); the app searches its open documents as the writer has
//! them, unsaved text included, searched under the app's lock
//! ([`crate::api::Api::search_open`]), and the files off it
//! ([`Ops::search_with`]). Both place and show a hit one way.
//!
//! The files are found and matched with ripgrep's crates: `ignore` walks the
//! workspace as git would list it (`.gitignore`, `.ignore` and git's exclude
//! files respected, hidden names and `node_modules` left out, no link
//! followed), each document found is read through the one path guard
//! ([`cowriting_workspace::workspace::Workspace::read_document_bytes`]: a
//! regular file inside the workspace, or nothing), and `grep-searcher` tells
//! whether it holds a match at all; only a document that does is decoded and
//! its hits placed, by the same expression on its text as before. The finds
//! are handed over document by document, in the answer's order, as they are
//! made ([`Ops::search_streamed`]), and the caller may stop the search there.

use super::*;
use cowriting_core::document::Document;
use cowriting_core::offset::ByteRange;
use cowriting_workspace::workspace::DocReader;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{Searcher, SearcherBuilder, Sink, SinkMatch};
use regex::{Regex, RegexBuilder};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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
        RegexBuilder::new(&self.pattern()?)
            .case_insensitive(!self.case_sensitive)
            .multi_line(true)
            .size_limit(1 << 20)
            .build()
            .map_err(|e| Error::BadInput(format!("not a regular expression: {}", one_line(&e.to_string()))))
    }

    /// The same expression as [`SearchQuery::matcher`], for `grep-searcher`
    /// over a file's bytes.
    fn grep_matcher(&self) -> Result<RegexMatcher> {
        RegexMatcherBuilder::new()
            .case_insensitive(!self.case_sensitive)
            .multi_line(true)
            .size_limit(1 << 20)
            .build(&self.pattern()?)
            .map_err(|e| Error::BadInput(format!("not a regular expression: {}", one_line(&e.to_string()))))
    }

    /// The expression's source: the text escaped unless it is a regular
    /// expression, in word boundaries for whole words.
    fn pattern(&self) -> Result<String> {
        if self.text.is_empty() {
            return Err(Error::BadInput("search for what? The query is empty".into()));
        }
        let pattern = if self.regex {
            self.text.clone()
        } else {
            regex::escape(&self.text)
        };
        Ok(if self.whole_word {
            format!(r"\b(?:{pattern})\b")
        } else {
            pattern
        })
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
    // The regex reads contiguous text: flattened for this search, dropped after it.
    let text = doc.flatten();
    for m in re.find_iter(&text) {
        if m.is_empty() {
            continue;
        }
        if found.full() {
            return;
        }
        found.hits.push(hit(doc, unit, name, m.start(), m.end()));
    }
}

/// The words around `range` of `doc` on its lines: up to [`CONTEXT_CHARS`]
/// characters before it on its first line and after it on its last, trimmed
/// at the outer ends. Read from the rope (lines end at `\n`).
pub(crate) fn around(doc: &Document, range: CharRange) -> (String, String) {
    let rope = doc.rope();
    let (start, end) = (range.start.0, range.end.0);
    let line_start = rope.line_to_char(rope.char_to_line(start));
    let last = rope.char_to_line(end);
    // The `\n` that ends the line `end` is on, or the end of the text.
    let line_end = if last + 1 < rope.len_lines() {
        rope.line_to_char(last + 1) - 1
    } else {
        rope.len_chars()
    };
    let before: String = rope
        .slice(line_start.max(start.saturating_sub(CONTEXT_CHARS))..start)
        .into();
    let after: String = rope.slice(end..line_end.min(end + CONTEXT_CHARS)).into();
    (
        before.trim_start().to_owned(),
        after.trim_end_matches('\r').to_owned(),
    )
}

/// A text hit at bytes `start..end` of `doc`, with the words around it on its line.
fn hit(doc: &Document, unit: Unit, name: &str, start: usize, end: usize) -> views::SearchHitDto {
    let range = doc
        .byte_range_to_chars(ByteRange::new(start, end))
        .expect("a regex match is on char boundaries");
    let (before, after) = around(doc, range);
    let (from, to) = unit.of(doc, range);
    views::SearchHitDto {
        document: name.to_owned(),
        from,
        to,
        line: doc.char_to_line_col(range.start).line as u32 + 1,
        before,
        text: doc.slice(range),
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

/// One document's finds, handed to [`Ops::search_streamed`]'s caller as soon as
/// the document is searched: what it adds to the answer (nothing past
/// [`MAX_HITS`]), or why it could not be searched.
pub struct DocFinds<'a> {
    pub document: &'a DocPath,
    pub hits: &'a [views::SearchHitDto],
    pub threads: &'a [views::ThreadHitDto],
    pub error: Option<&'a views::DocError>,
}

/// What [`Ops::search_streamed`] answers: the search's answer (all that was
/// handed over, in the same order) and whether the caller stopped it.
pub struct Streamed {
    pub out: SearchOut,
    /// The caller answered [`ControlFlow::Break`]: the documents after that
    /// one were not searched.
    pub stopped: bool,
}

/// A `grep-searcher` sink that stops at the first match: whether a file
/// holds one at all.
struct AnyMatch(bool);

impl Sink for AnyMatch {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, _: &SinkMatch<'_>) -> std::result::Result<bool, std::io::Error> {
        self.0 = true;
        Ok(false)
    }
}

/// How many documents the walk hands on at a time (to the readers, and to
/// the hand-over), and a reader reads before it hands its finds back.
const CHUNK: usize = 32;

/// The byte-order mark a document's file may start with (not part of its text).
const BOM: &[u8] = "\u{feff}".as_bytes();

impl Ops {
    /// Search every document of the workspace as it is on disk, and their
    /// threads.
    pub fn search(&self, query: &SearchQuery) -> Result<SearchOut> {
        Ok(self.search_streamed(query, |_| ControlFlow::Continue(()))?.out)
    }

    /// [`Ops::search`], handing each document's finds to `each` as soon as
    /// that document is searched (every document, in the answer's order,
    /// those with nothing found too, so a caller can stop a search that finds
    /// nothing); `each` answering [`ControlFlow::Break`] stops the search
    /// there.
    pub fn search_streamed(
        &self,
        query: &SearchQuery,
        each: impl FnMut(DocFinds<'_>) -> ControlFlow<()>,
    ) -> Result<Streamed> {
        self.search_in(query, OpenFinds::new(query, self.unit, std::iter::empty())?, each)
    }

    /// Search every document, taking `open`'s finds for the documents it has
    /// and reading the others from disk: a document that cannot be read is
    /// listed as not searched.
    pub fn search_with(&self, query: &SearchQuery, open: OpenFinds) -> Result<SearchOut> {
        Ok(self.search_in(query, open, |_| ControlFlow::Continue(()))?.out)
    }

    /// [`Ops::search_with`], handing each document's finds to `each` as
    /// [`Ops::search_streamed`] does (the app's Search tab, which shows them
    /// as they come and stops a search the writer replaced).
    pub fn search_with_streamed(
        &self,
        query: &SearchQuery,
        open: OpenFinds,
        each: impl FnMut(DocFinds<'_>) -> ControlFlow<()>,
    ) -> Result<Streamed> {
        self.search_in(query, open, each)
    }

    /// The search of [`Ops::search_streamed`] and [`Ops::search_with`].
    /// Documents are the files the walk finds ([`Ops::walk_docs`]), in its
    /// order, then those with review data or open in `open` that it did not
    /// find, sorted.
    ///
    /// Three stages run at once, as ripgrep's do: the walk, on a thread of
    /// its own; a few reading threads, which take the documents the walk
    /// found that have neither review data nor an open buffer, in the walk's
    /// order, and read and match them; and this thread, which hands each
    /// document's finds over in the walk's order as soon as they are made,
    /// opening a session here for a document with review data. So the first
    /// finds are handed over before the walk is done, and reading a large
    /// tree does not wait for its listing.
    fn search_in(
        &self,
        query: &SearchQuery,
        mut open: OpenFinds,
        mut each: impl FnMut(DocFinds<'_>) -> ControlFlow<()>,
    ) -> Result<Streamed> {
        let grep = query.grep_matcher()?;
        let reader = self.workspace().document_reader()?;
        let mut found = Found::default();
        let mut errors = Vec::new();
        let mut stopped = false;
        // Only a document with review data has threads to search too, and a
        // session to open for them; the rest are read as bytes, with no lock
        // taken and no folder listed (a docs tree of 38,000 pages), and
        // decoded only when they hold a match.
        let reviewed: HashSet<DocPath> = self
            .workspace()
            .list_sidecars()
            .into_iter()
            .map(|(d, _)| d)
            .collect();
        let opened: HashSet<DocPath> = open.docs.keys().cloned().collect();
        // The walk's documents, numbered in its order, in chunks of CHUNK: to
        // this thread, and (those to read from disk) to the readers, whose
        // finds come back a chunk at a time. One message per document made
        // three threads wake each other 150,000 times on 40,000 pages (strace).
        let (walked_tx, walked) = std::sync::mpsc::channel::<Vec<(usize, DocPath)>>();
        let (to_read_tx, to_read) = std::sync::mpsc::channel::<Vec<(usize, DocPath)>>();
        let to_read = std::sync::Mutex::new(to_read);
        let halt = AtomicBool::new(false);
        // Hits read but not handed over yet: a reader takes no next chunk
        // while they are more than MAX_HITS, so what waits stays bounded
        // (by MAX_HITS and a chunk a reader) however slow a session or a
        // caller is. The readers take the chunks in the order they are handed
        // over and never stop inside one, so the document handed over next is
        // never behind a waiting reader (and documents without a hit never
        // wait).
        let waiting = AtomicUsize::new(0);
        let readers = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, 4);
        let (read_tx, read) = std::sync::mpsc::channel::<Vec<(usize, Result<Found>)>>();
        std::thread::scope(|scope| {
            let (reviewed, opened, halt) = (&reviewed, &opened, &halt);
            scope.spawn(move || {
                let (mut n, mut walked, mut to_read) = (0, Vec::new(), Vec::new());
                // The readers' chunk goes first: the hand-over waits on it.
                let send = |walked: &mut Vec<_>, to_read: &mut Vec<_>| {
                    if !to_read.is_empty() {
                        // A reader still running takes it; none (stopped): no matter.
                        let _ = to_read_tx.send(std::mem::take(to_read));
                    }
                    walked.is_empty() || walked_tx.send(std::mem::take(walked)).is_ok()
                };
                self.walk_docs(|doc| {
                    if halt.load(Ordering::Relaxed) {
                        return ControlFlow::Break(());
                    }
                    if !reviewed.contains(&doc) && !opened.contains(&doc) {
                        to_read.push((n, doc.clone()));
                    }
                    walked.push((n, doc));
                    n += 1;
                    if walked.len() == CHUNK && !send(&mut walked, &mut to_read) {
                        return ControlFlow::Break(()); // the search is over
                    }
                    ControlFlow::Continue(())
                });
                send(&mut walked, &mut to_read);
                // Dropping the senders here ends the readers and the hand-over.
            });
            for _ in 0..readers {
                let read_tx = read_tx.clone();
                let (to_read, waiting) = (&to_read, &waiting);
                let (reader, grep, re, unit) = (&reader, &grep, &open.re, self.unit);
                scope.spawn(move || {
                    let mut searcher = SearcherBuilder::new().multi_line(true).line_number(false).build();
                    loop {
                        while waiting.load(Ordering::Relaxed) > MAX_HITS && !halt.load(Ordering::Relaxed) {
                            std::thread::sleep(std::time::Duration::from_millis(1));
                        }
                        if halt.load(Ordering::Relaxed) {
                            break;
                        }
                        let next = to_read.lock().unwrap_or_else(|e| e.into_inner()).recv();
                        let Ok(chunk) = next else {
                            break; // the walk is over and every document taken
                        };
                        let mut read = Vec::with_capacity(chunk.len());
                        for (n, doc) in chunk {
                            let f = search_file(reader, &doc, grep, &mut searcher, re, unit);
                            if let Ok(f) = &f {
                                waiting.fetch_add(f.hits.len(), Ordering::Relaxed);
                            }
                            read.push((n, f));
                        }
                        if read_tx.send(read).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(read_tx);
            let mut ready: HashMap<usize, Result<Found>> = HashMap::new();
            let mut handed: HashSet<DocPath> = HashSet::new();
            // The walk's documents as it finds them; then those it did not
            // find (review data or an open buffer for a file ignored, gone or
            // not a regular file), sorted.
            let mut rest: Option<std::vec::IntoIter<DocPath>> = None;
            let mut chunk = Vec::new().into_iter();
            loop {
                if found.truncated {
                    break;
                }
                let (n, doc) = match &mut rest {
                    None => match chunk.next() {
                        Some((n, doc)) => (Some(n), doc),
                        None => match walked.recv() {
                            Ok(next) => {
                                chunk = next.into_iter();
                                continue;
                            }
                            Err(_) => {
                                let mut left: Vec<DocPath> = reviewed
                                    .iter()
                                    .chain(opened.iter())
                                    .filter(|d| !handed.contains(*d))
                                    .cloned()
                                    .collect();
                                left.sort();
                                left.dedup();
                                rest = Some(left.into_iter());
                                continue;
                            }
                        },
                    },
                    Some(left) => match left.next() {
                        Some(doc) => (None, doc),
                        None => break,
                    },
                };
                let finds = match open.docs.remove(&doc) {
                    Some(f) => Ok(f),
                    None if reviewed.contains(&doc) => {
                        self.session(&doc).map(|s| finds(&s, &open.re, self.unit))
                    }
                    None => {
                        let n = n.expect("a document read from disk was found by the walk");
                        loop {
                            if let Some(f) = ready.remove(&n) {
                                if let Ok(f) = &f {
                                    waiting.fetch_sub(f.hits.len(), Ordering::Relaxed);
                                }
                                break f;
                            }
                            match read.recv() {
                                Ok(chunk) => ready.extend(chunk),
                                Err(_) => {
                                    unreachable!("the readers search every document the walk hands them before they end")
                                }
                            }
                        }
                    }
                };
                let (h, t, e) = (found.hits.len(), found.threads.len(), errors.len());
                match finds {
                    Ok(f) => found.add(f),
                    Err(e) => errors.push(views::DocError {
                        document: doc.to_string(),
                        error: e.info(),
                    }),
                }
                let flow = each(DocFinds {
                    document: &doc,
                    hits: &found.hits[h..],
                    threads: &found.threads[t..],
                    error: errors[e..].first(),
                });
                if reviewed.contains(&doc) || opened.contains(&doc) {
                    handed.insert(doc);
                }
                if flow.is_break() {
                    stopped = true;
                    break;
                }
            }
            // Stopped or cut: the walk stops at its next document, the readers at their next chunk.
            halt.store(true, Ordering::Relaxed);
            drop(walked);
            drop(read);
        });
        Ok(Streamed {
            out: SearchOut {
                query: query.text.clone(),
                unit: self.unit,
                hits: found.hits,
                threads: found.threads,
                truncated: found.truncated,
                errors,
            },
            stopped,
        })
    }

    /// The documents the search walks to, each handed to `found` as the walk
    /// comes to it, until it answers [`ControlFlow::Break`]: ripgrep's walk of
    /// the workspace (`.gitignore`, `.ignore` and git's excludes respected;
    /// hidden names, `node_modules` and what is not a document's name left
    /// out; no link followed: a link to a document is kept only when the
    /// guard lets it through to a regular file inside; a FIFO, socket or
    /// device never). Each folder's entries are taken in the order of their
    /// names, each read as if it ended in `/`, so the walk's order is the
    /// documents' sorted order, but for a document whose name runs on in a
    /// folder's with a char below `/` (`a.md` and `a.md.d/`: the folder
    /// first).
    fn walk_docs(&self, mut found: impl FnMut(DocPath) -> ControlFlow<()>) {
        let ws = self.workspace();
        let root = ws.root();
        let walk = ignore::WalkBuilder::new(root)
            .hidden(true)
            .follow_links(false)
            // A workspace need not be a git repository for its .gitignore to count.
            .require_git(false)
            .filter_entry(|e| e.file_name() != "node_modules")
            .sort_by_file_name(|a, b| {
                let (a, b) = (a.as_encoded_bytes().iter(), b.as_encoded_bytes().iter());
                a.chain(b"/").cmp(b.chain(b"/"))
            })
            .build();
        for entry in walk.flatten() {
            let Some(kind) = entry.file_type() else { continue };
            if !(kind.is_file() || kind.is_symlink()) {
                continue;
            }
            let Some(name) = entry.file_name().to_str() else {
                continue;
            };
            if !cowriting_workspace::workspace::is_document_name(name) {
                continue;
            }
            let Some(doc) = entry
                .path()
                .strip_prefix(root)
                .ok()
                .and_then(|rel| rel.to_str())
                .and_then(|rel| DocPath::parse(rel).ok())
            else {
                continue;
            };
            let regular = kind.is_file()
                || ws
                    .doc_file(&doc)
                    .is_ok_and(|t| std::fs::symlink_metadata(t).is_ok_and(|m| m.is_file()));
            if regular && found(doc).is_break() {
                return;
            }
        }
    }
}

/// What `re` finds in the text of `doc`, read from disk through the guard
/// ([`DocReader`]): `grep` over its bytes first, and the document decoded and
/// its hits placed only when there is a match (bytes that are no document,
/// such as invalid UTF-8, are refused as a read would refuse them).
fn search_file(
    reader: &DocReader,
    doc: &DocPath,
    grep: &RegexMatcher,
    searcher: &mut Searcher,
    re: &Regex,
    unit: Unit,
) -> Result<Found> {
    let bytes = reader.read_bytes(doc)?;
    let text = bytes.strip_prefix(BOM).unwrap_or(&bytes);
    let decoded = || {
        cowriting_core::document::Document::from_bytes(&bytes).map_err(|source| Error::Document {
            path: doc.to_string(),
            source,
        })
    };
    if std::str::from_utf8(text).is_err() {
        return decoded().map(|_| Found::default());
    }
    let mut any = AnyMatch(false);
    searcher
        .search_slice(grep, text, &mut any)
        .map_err(|e| Error::Io {
            path: doc.as_str().into(),
            source: e,
        })?;
    let mut f = Found::default();
    if any.0 {
        search_text(&decoded()?, doc.as_str(), re, unit, &mut f);
    }
    Ok(f)
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
        let text = doc.flatten();
        let start = text.find("très").unwrap();
        let h = hit(&doc, Unit::Utf16, "a.md", start, start + "très".len());
        assert_eq!((h.line, h.text.as_str()), (3, "très"));
        assert_eq!(h.before, "Le café est ");
        assert_eq!(h.after, " « bon » ici, vraiment.");
        let utf16 = text[..start].encode_utf16().count() as u32;
        assert_eq!((h.from, h.to), (utf16, utf16 + 4));
        let h = hit(&doc, Unit::Byte, "a.md", start, start + "très".len());
        assert_eq!((h.from, h.to), (start as u32, (start + 5) as u32));
    }

    /// What `around` said when it read the flattened text: the rope must say the same.
    fn around_flat(text: &str, start: usize, end: usize) -> (String, String) {
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
        let before = &text[line_start..start];
        let skip = before.chars().count().saturating_sub(CONTEXT_CHARS);
        let before: String = before.chars().skip(skip).collect();
        let after: String = text[end..line_end].chars().take(CONTEXT_CHARS).collect();
        (
            before.trim_start().to_owned(),
            after.trim_end_matches('\r').to_owned(),
        )
    }

    #[test]
    fn the_words_around_a_range_are_read_from_the_rope_as_from_the_flat_text() {
        let long = "é".repeat(50);
        for text in [
            "one\ntwo three\r\nfour\n".to_owned(),
            format!("{long} mid {long}\r\n\n  x\ry\n"),
            "\n\n\r\n".to_owned(),
            "no newline at all, quite a long line of words to cut at thirty-two chars".to_owned(),
            String::new(),
        ] {
            let doc = Document::new(&text);
            let bounds: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
            for (i, &s) in bounds.iter().enumerate() {
                for &e in bounds[i..].iter().step_by(3) {
                    let range = doc.byte_range_to_chars(ByteRange::new(s, e)).unwrap();
                    assert_eq!(around(&doc, range), around_flat(&text, s, e), "{text:?} {s}..{e}");
                }
            }
        }
    }
}
