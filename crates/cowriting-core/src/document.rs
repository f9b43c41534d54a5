//! A document: a ropey [`Rope`] with a version counter and the few facts needed
//! to write it back byte for byte.
//!
//! - Text is UTF-8. Bytes that are not UTF-8 are refused with the offset of the
//!   first bad byte; nothing is half-loaded.
//! - A leading byte-order mark is kept aside ([`Document::has_bom`]) and written
//!   back; it is not part of the text, so offsets count from after it.
//! - Line endings are kept exactly as they are (LF, CRLF, or mixed): the rope
//!   holds the `\r` chars. Lines end at `\n` (ropey is built without its CR and
//!   Unicode line-break features), so a CRLF pair is one line break.
//! - Documents over [`MAX_DOCUMENT_BYTES`] are refused.
//!
//! - The rope is the only copy of the text: nothing flattened is kept beside
//!   it. [`Document::flatten`] builds the whole text as a new `String` for the
//!   caller to use and drop; the rest reads the rope ([`Document::slice`],
//!   [`Document::find_all`], [`Document::contains`], its chunks).
//!
//! Conversions between the offset units of [`crate::offset`] are O(log n).

use crate::changeset::{ChangeError, ChangeSet};
use crate::offset::{ByteOffset, ByteRange, CharOffset, CharRange, LineCol, Utf16Offset};
use ropey::Rope;
use std::sync::OnceLock;
use thiserror::Error;

/// The largest document the core opens: 64 MiB.
pub const MAX_DOCUMENT_BYTES: usize = 64 * 1024 * 1024;

const BOM: &str = "\u{feff}";

/// Why bytes could not become a [`Document`], or a position did not fit one.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DocumentError {
    #[error("not UTF-8: invalid byte sequence at byte {at}")]
    NotUtf8 { at: usize },
    #[error("too large: {size} bytes (the limit is {limit} bytes)")]
    TooLarge { size: usize, limit: usize },
    #[error("byte offset {offset} is past the end of the text ({len} bytes)")]
    ByteOutOfRange { offset: usize, len: usize },
    #[error("byte offset {offset} is inside a multi-byte character")]
    NotCharBoundary { offset: usize },
    #[error("UTF-16 offset {offset} is past the end of the text ({len} units)")]
    Utf16OutOfRange { offset: usize, len: usize },
    #[error("UTF-16 offset {offset} is inside a surrogate pair")]
    InsideSurrogatePair { offset: usize },
    #[error("char offset {offset} is past the end of the text ({len} chars)")]
    CharOutOfRange { offset: usize, len: usize },
    #[error("range start {start} is after its end {end}")]
    InvertedRange { start: usize, end: usize },
    #[error(transparent)]
    Change(#[from] ChangeError),
}

/// See the module docs.
#[derive(Debug)]
pub struct Document {
    rope: Rope,
    version: u64,
    bom: bool,
    /// Whether the text has a lone `\r`, found on first use (a fact of the
    /// current version, never the text itself).
    lone_cr: OnceLock<bool>,
}

impl Clone for Document {
    fn clone(&self) -> Self {
        Document {
            rope: self.rope.clone(),
            version: self.version,
            bom: self.bom,
            lone_cr: OnceLock::new(),
        }
    }
}

impl Document {
    /// A document holding `text` (no BOM), at version 0.
    pub fn new(text: &str) -> Self {
        Document {
            rope: Rope::from_str(text),
            version: 0,
            bom: false,
            lone_cr: OnceLock::new(),
        }
    }

    /// Decode file bytes: size limit, UTF-8 validation, BOM.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, DocumentError> {
        if bytes.len() > MAX_DOCUMENT_BYTES {
            return Err(DocumentError::TooLarge {
                size: bytes.len(),
                limit: MAX_DOCUMENT_BYTES,
            });
        }
        let text = std::str::from_utf8(bytes).map_err(|e| DocumentError::NotUtf8 { at: e.valid_up_to() })?;
        let (bom, text) = match text.strip_prefix(BOM) {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let mut doc = Document::new(text);
        doc.bom = bom;
        Ok(doc)
    }

    /// The bytes to write: BOM (when the file had one) and the text, exactly.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.rope.len_bytes() + 3);
        if self.bom {
            out.extend_from_slice(BOM.as_bytes());
        }
        for chunk in self.rope.chunks() {
            out.extend_from_slice(chunk.as_bytes());
        }
        out
    }

    pub fn rope(&self) -> &Rope {
        &self.rope
    }

    /// The whole text as one new string: O(n) time and memory on every call.
    /// For an algorithm that truly needs it contiguous, for the operation at
    /// hand; never kept (the rope is the document's one copy of its text).
    pub fn flatten(&self) -> String {
        self.rope.to_string()
    }

    /// Whether a `\r` not followed by `\n` ends a line somewhere (VS Code
    /// counts it as a line break, the rope does not). Found over the rope's
    /// chunks, cached per version.
    pub fn has_lone_cr(&self) -> bool {
        *self.lone_cr.get_or_init(|| {
            // Only the `\r`s are looked at; one that ends a chunk is decided by
            // the next chunk's first byte.
            let mut pending = false;
            for chunk in self.rope.chunks() {
                let b = chunk.as_bytes();
                let Some(&first) = b.first() else {
                    continue;
                };
                if pending && first != b'\n' {
                    return true;
                }
                pending = false;
                for i in memchr::memchr_iter(b'\r', b) {
                    match b.get(i + 1) {
                        Some(b'\n') => {}
                        Some(_) => return true,
                        None => pending = true,
                    }
                }
            }
            pending
        })
    }

    /// Every place a line ends as VS Code counts lines, in order: the byte
    /// offset of each `\n`, and of each lone `\r` (one not followed by `\n`,
    /// flagged `true`). Read from the rope's chunks (a CRLF pair split between
    /// two chunks is still one pair).
    pub fn vs_code_breaks(&self) -> impl Iterator<Item = (ByteOffset, bool)> + '_ {
        Breaks {
            chunks: self.rope.chunks(),
            chunk: &[],
            base: 0,
            pos: 0,
            pending_cr: None,
        }
    }

    /// The byte offset of every occurrence of a non-empty `needle`, in order,
    /// overlapping ones included; searched over the rope's chunks (an
    /// occurrence split between chunks is found too), nothing flattened.
    pub fn find_all(&self, needle: &str) -> Vec<ByteOffset> {
        self.find_in(needle, ByteRange::new(0, self.len_bytes()))
    }

    /// [`Document::find_all`], of the occurrences that start in `starts`
    /// (they may end past it).
    pub fn find_in(&self, needle: &str, starts: ByteRange) -> Vec<ByteOffset> {
        let mut out = Vec::new();
        self.find_each(needle, starts, |at| {
            out.push(at);
            true
        });
        out
    }

    /// The first of [`Document::find_in`].
    pub fn find_first_in(&self, needle: &str, starts: ByteRange) -> Option<ByteOffset> {
        let mut found = None;
        self.find_each(needle, starts, |at| {
            found = Some(at);
            false
        });
        found
    }

    /// Whether a non-empty `needle` occurs in the text (see [`Document::find_all`]).
    pub fn contains(&self, needle: &str) -> bool {
        self.find_first_in(needle, ByteRange::new(0, self.len_bytes()))
            .is_some()
    }

    /// Whether the text from byte `at` on begins with `s` (`at` need not be a
    /// char boundary: then it does not).
    pub fn holds_at(&self, at: ByteOffset, s: &str) -> bool {
        let len = self.rope.len_bytes();
        match at.0.checked_add(s.len()) {
            Some(end) if end <= len => {}
            _ => return false,
        }
        let mut rest = s.as_bytes();
        if rest.is_empty() {
            return true;
        }
        // Most often within one chunk: no iterator.
        let (chunk, chunk_start, _, _) = self.rope.chunk_at_byte(at.0);
        let off = at.0 - chunk_start;
        if off + rest.len() <= chunk.len() {
            return &chunk.as_bytes()[off..off + rest.len()] == rest;
        }
        let (chunks, chunk_start, _, _) = self.rope.chunks_at_byte(at.0);
        let mut skip = at.0 - chunk_start;
        for chunk in chunks {
            let c = &chunk.as_bytes()[skip..];
            skip = 0;
            let k = c.len().min(rest.len());
            if c[..k] != rest[..k] {
                return false;
            }
            rest = &rest[k..];
            if rest.is_empty() {
                return true;
            }
        }
        false
    }

    /// Whether the text before byte `at` ends with `s`.
    pub fn holds_before(&self, at: ByteOffset, s: &str) -> bool {
        at.0 >= s.len() && self.holds_at(ByteOffset(at.0 - s.len()), s)
    }

    /// Calls `hit` with each occurrence of `needle` that starts in `starts`,
    /// in order, while it returns true.
    fn find_each(&self, needle: &str, starts: ByteRange, mut hit: impl FnMut(ByteOffset) -> bool) {
        let n = needle.len();
        let (from, to) = (starts.start.0, starts.end.0.min(self.rope.len_bytes()));
        if n == 0 || from >= to {
            return;
        }
        let finder = memchr::memmem::Finder::new(needle.as_bytes());
        // The bytes an occurrence starting in `from..to` can reach, most often
        // within one chunk: searched there, with no iterator.
        let reach = to.saturating_add(n - 1).min(self.rope.len_bytes());
        let (chunk, chunk_start, _, _) = self.rope.chunk_at_byte(from);
        if reach <= chunk_start + chunk.len() {
            let hay = &chunk.as_bytes()[from - chunk_start..reach - chunk_start];
            let mut pos = 0;
            while let Some(i) = finder.find(&hay[pos..]) {
                if !hit(ByteOffset(from + pos + i)) {
                    return;
                }
                pos += i + 1;
            }
            return;
        }
        let (chunks, mut base, _, _) = self.rope.chunks_at_byte(from);
        // The last `n - 1` bytes before the current chunk: an occurrence that
        // starts there ends in this chunk (or a later one).
        let mut carry: Vec<u8> = Vec::with_capacity(2 * n);
        let mut report = |at: usize| at < from || hit(ByteOffset(at));
        for chunk in chunks {
            if base - carry.len() >= to {
                return;
            }
            let chunk = chunk.as_bytes();
            if !carry.is_empty() {
                let kept = carry.len();
                carry.extend_from_slice(&chunk[..chunk.len().min(n - 1)]);
                let mut pos = 0;
                while let Some(i) = finder.find(&carry[pos..]) {
                    let at = base - kept + pos + i;
                    if pos + i >= kept || at >= to {
                        break;
                    }
                    if !report(at) {
                        return;
                    }
                    pos += i + 1;
                }
                carry.truncate(kept);
            }
            let mut pos = 0;
            while let Some(i) = finder.find(&chunk[pos..]) {
                let at = base + pos + i;
                if at >= to {
                    return;
                }
                if !report(at) {
                    return;
                }
                pos += i + 1;
            }
            if chunk.len() >= n - 1 {
                carry.clear();
                carry.extend_from_slice(&chunk[chunk.len() - (n - 1)..]);
            } else {
                carry.extend_from_slice(chunk);
                let drop = carry.len().saturating_sub(n - 1);
                carry.drain(..drop);
            }
            base += chunk.len();
        }
    }

    /// Bumped by every applied change.
    pub fn version(&self) -> u64 {
        self.version
    }

    pub fn has_bom(&self) -> bool {
        self.bom
    }

    /// Whether the file is written with a byte-order mark.
    pub fn set_bom(&mut self, bom: bool) {
        self.bom = bom;
    }

    pub fn len_chars(&self) -> usize {
        self.rope.len_chars()
    }

    pub fn len_bytes(&self) -> usize {
        self.rope.len_bytes()
    }

    pub fn len_utf16(&self) -> usize {
        self.rope.len_utf16_cu()
    }

    /// Number of lines (a document always has at least one).
    pub fn len_lines(&self) -> usize {
        self.rope.len_lines()
    }

    /// The text of `range`.
    pub fn slice(&self, range: CharRange) -> String {
        self.rope.slice(range.as_range()).into()
    }

    /// Apply a change and bump the version. The rope is untouched on error.
    pub fn apply(&mut self, change: &ChangeSet) -> Result<(), DocumentError> {
        change.apply(&mut self.rope)?;
        self.version += 1;
        self.lone_cr = OnceLock::new();
        Ok(())
    }

    /// Replace the whole text (a reload from disk), bumping the version.
    pub fn replace_all(&mut self, other: Document) {
        self.rope = other.rope;
        self.bom = other.bom;
        self.version += 1;
        self.lone_cr = OnceLock::new();
    }

    // ---- conversions -----------------------------------------------------------

    /// A byte offset that must fall on a char boundary within the text.
    pub fn byte_to_char(&self, offset: ByteOffset) -> Result<CharOffset, DocumentError> {
        let len = self.rope.len_bytes();
        if offset.0 > len {
            return Err(DocumentError::ByteOutOfRange {
                offset: offset.0,
                len,
            });
        }
        let c = self.rope.byte_to_char(offset.0);
        if self.rope.char_to_byte(c) != offset.0 {
            return Err(DocumentError::NotCharBoundary { offset: offset.0 });
        }
        Ok(CharOffset(c))
    }

    pub fn char_to_byte(&self, offset: CharOffset) -> ByteOffset {
        ByteOffset(self.rope.char_to_byte(offset.0.min(self.len_chars())))
    }

    /// A UTF-16 offset that must not split a surrogate pair.
    pub fn utf16_to_char(&self, offset: Utf16Offset) -> Result<CharOffset, DocumentError> {
        let len = self.rope.len_utf16_cu();
        if offset.0 > len {
            return Err(DocumentError::Utf16OutOfRange {
                offset: offset.0,
                len,
            });
        }
        let c = self.rope.utf16_cu_to_char(offset.0);
        if self.rope.char_to_utf16_cu(c) != offset.0 {
            return Err(DocumentError::InsideSurrogatePair { offset: offset.0 });
        }
        Ok(CharOffset(c))
    }

    pub fn char_to_utf16(&self, offset: CharOffset) -> Utf16Offset {
        Utf16Offset(self.rope.char_to_utf16_cu(offset.0.min(self.len_chars())))
    }

    pub fn char_to_line_col(&self, offset: CharOffset) -> LineCol {
        let c = offset.0.min(self.len_chars());
        let line = self.rope.char_to_line(c);
        LineCol {
            line,
            col: c - self.rope.line_to_char(line),
        }
    }

    /// The char offset at which `line` starts (clamped to the last line).
    pub fn line_to_char(&self, line: usize) -> CharOffset {
        let line = line.min(self.len_lines().saturating_sub(1));
        CharOffset(self.rope.line_to_char(line))
    }

    /// A char offset checked against the document length.
    pub fn check_char(&self, offset: CharOffset) -> Result<CharOffset, DocumentError> {
        if offset.0 > self.len_chars() {
            return Err(DocumentError::CharOutOfRange {
                offset: offset.0,
                len: self.len_chars(),
            });
        }
        Ok(offset)
    }

    /// A byte range checked and converted to chars.
    pub fn byte_range_to_chars(&self, range: ByteRange) -> Result<CharRange, DocumentError> {
        if range.start > range.end {
            return Err(DocumentError::InvertedRange {
                start: range.start.0,
                end: range.end.0,
            });
        }
        Ok(CharRange {
            start: self.byte_to_char(range.start)?,
            end: self.byte_to_char(range.end)?,
        })
    }

    /// `from..to` in UTF-16 code units as chars; an inverted range, an offset
    /// past the end or inside a surrogate pair is refused.
    pub fn utf16_range_to_chars(
        &self,
        from: Utf16Offset,
        to: Utf16Offset,
    ) -> Result<CharRange, DocumentError> {
        if from > to {
            return Err(DocumentError::InvertedRange {
                start: from.0,
                end: to.0,
            });
        }
        Ok(CharRange {
            start: self.utf16_to_char(from)?,
            end: self.utf16_to_char(to)?,
        })
    }

    pub fn char_range_to_bytes(&self, range: CharRange) -> ByteRange {
        ByteRange {
            start: self.char_to_byte(range.start),
            end: self.char_to_byte(range.end),
        }
    }
}

/// [`Document::vs_code_breaks`]: a walk over the chunks that allocates nothing
/// (a `\r` that ends a chunk waits for the next chunk's first byte).
struct Breaks<'a> {
    chunks: ropey::iter::Chunks<'a>,
    chunk: &'a [u8],
    /// The byte offset of `chunk` in the text.
    base: usize,
    /// Where in `chunk` to look on from.
    pos: usize,
    pending_cr: Option<usize>,
}

impl Iterator for Breaks<'_> {
    type Item = (ByteOffset, bool);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.pos < self.chunk.len() {
                if let Some(at) = self.pending_cr.take() {
                    if self.chunk[self.pos] != b'\n' {
                        return Some((ByteOffset(at), true));
                    }
                }
                let Some(i) = memchr::memchr2(b'\n', b'\r', &self.chunk[self.pos..]) else {
                    self.pos = self.chunk.len();
                    continue;
                };
                let i = self.pos + i;
                self.pos = i + 1;
                if self.chunk[i] == b'\n' {
                    return Some((ByteOffset(self.base + i), false));
                }
                match self.chunk.get(i + 1) {
                    // A CRLF pair: its `\n` comes next.
                    Some(b'\n') => {}
                    Some(_) => return Some((ByteOffset(self.base + i), true)),
                    None => self.pending_cr = Some(self.base + i),
                }
            } else {
                match self.chunks.next() {
                    Some(c) => {
                        self.base += self.chunk.len();
                        self.chunk = c.as_bytes();
                        self.pos = 0;
                    }
                    None => return self.pending_cr.take().map(|at| (ByteOffset(at), true)),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_cr_is_seen_per_version() {
        let mut doc = Document::new("a\r\nb\n");
        assert!(!doc.has_lone_cr(), "CRLF is not a lone CR");
        // Deleting the LF of the CRLF leaves a lone CR, and the cache knows.
        doc.apply(&ChangeSet::replace(doc.len_chars(), crate::offset::CharRange::new(2, 3), "").unwrap())
            .unwrap();
        assert!(doc.has_lone_cr());
        doc.replace_all(Document::new("c\n"));
        assert!(!doc.has_lone_cr());
        assert!(Document::new("x\r").has_lone_cr());
    }

    /// A document of many chunks whose every chunk seam falls inside what is
    /// searched for, and whose `\r\n` pairs and lone `\r`s sit on seams too.
    fn seamy() -> (String, Document) {
        let unit = "ab\rcd\r\nab\r\r\nxé";
        let text = unit.repeat(4000);
        let doc = Document::new(&text);
        assert!(doc.rope().chunks().count() > 20, "the test needs many chunks");
        assert!(
            doc.rope().chunks().any(|c| c.ends_with('\r')),
            "the test needs a `\\r` at a chunk's end"
        );
        (text, doc)
    }

    #[test]
    fn searching_the_rope_finds_what_a_flat_search_finds_across_chunk_seams() {
        let (text, doc) = seamy();
        for needle in [
            "ab",
            "\r\n",
            "b\rc",
            "\r\r\nxéab",
            "éab\rcd\r\nab\r\r\nxéa",
            "é",
            "zz",
            &text[..7000],
        ] {
            let flat: Vec<usize> = (0..text.len())
                .filter(|&i| text.as_bytes()[i..].starts_with(needle.as_bytes()))
                .collect();
            let found: Vec<usize> = doc.find_all(needle).into_iter().map(|b| b.0).collect();
            assert_eq!(found, flat, "{needle:?}");
            assert_eq!(doc.contains(needle), !flat.is_empty());
            // Within a range: the starts in it, ends may pass it.
            let (from, to) = (text.len() / 3 + 1, 2 * text.len() / 3);
            let inside: Vec<usize> = flat.iter().copied().filter(|&i| i >= from && i < to).collect();
            let got: Vec<usize> = doc
                .find_in(needle, ByteRange::new(from, to))
                .into_iter()
                .map(|b| b.0)
                .collect();
            assert_eq!(got, inside, "{needle:?} in {from}..{to}");
            assert_eq!(
                doc.find_first_in(needle, ByteRange::new(from, to)).map(|b| b.0),
                inside.first().copied()
            );
            // Small ranges, most within one chunk, some across a seam.
            for from in (0..text.len()).step_by(331) {
                let to = from + 40;
                let inside: Vec<usize> = flat.iter().copied().filter(|&i| i >= from && i < to).collect();
                let got: Vec<usize> = doc
                    .find_in(needle, ByteRange::new(from, to))
                    .into_iter()
                    .map(|b| b.0)
                    .collect();
                assert_eq!(got, inside, "{needle:?} in {from}..{to}");
            }
        }
        for at in (0..text.len()).step_by(997) {
            let (before, after) = (
                &text.as_bytes()[at.saturating_sub(40)..at],
                &text.as_bytes()[at..(at + 40).min(text.len())],
            );
            if let (Ok(before), Ok(after)) = (std::str::from_utf8(before), std::str::from_utf8(after)) {
                assert!(doc.holds_at(ByteOffset(at), after) && doc.holds_before(ByteOffset(at), before));
                // The text has no `!`: one byte more never agrees, at the end or not.
                assert!(!doc.holds_at(ByteOffset(at), &format!("{after}!")));
                assert!(!doc.holds_before(ByteOffset(at), &format!("!{before}")));
            }
        }
        assert!(!doc.holds_at(ByteOffset(text.len() - 1), "é"));
        assert!(doc.holds_at(ByteOffset(text.len()), ""));
    }

    #[test]
    fn line_breaks_are_read_across_chunk_seams() {
        let (text, doc) = seamy();
        let b = text.as_bytes();
        let flat: Vec<(usize, bool)> = memchr::memchr2_iter(b'\n', b'\r', b)
            .filter(|&i| b[i] == b'\n' || b.get(i + 1) != Some(&b'\n'))
            .map(|i| (i, b[i] == b'\r'))
            .collect();
        let got: Vec<(usize, bool)> = doc.vs_code_breaks().map(|(o, cr)| (o.0, cr)).collect();
        assert_eq!(got, flat);
        assert!(doc.has_lone_cr());
        assert!(!Document::new(&"ab\r\ncd\n".repeat(4000)).has_lone_cr());
        // The one `\r` of a text ends a chunk: the next chunk's first byte decides.
        let plain = "a".repeat(10_000);
        let seam = Document::new(&plain).rope().chunks().next().unwrap().len();
        let mut lone = plain.clone();
        lone.replace_range(seam - 1..seam, "\r");
        let lone = Document::new(&lone);
        assert!(
            lone.rope().chunks().next().unwrap().ends_with('\r'),
            "the test needs its `\\r` at the first chunk's end"
        );
        assert!(lone.has_lone_cr());
        let mut pair = plain.clone();
        pair.replace_range(seam - 1..seam + 1, "\r\n");
        assert!(!Document::new(&pair).has_lone_cr());
        assert!(Document::new(&format!("{plain}\r")).has_lone_cr());
    }

    #[test]
    fn bom_and_crlf_round_trip_byte_for_byte() {
        let bytes = b"\xEF\xBB\xBFline one\r\nline two\nthree\r\n".to_vec();
        let doc = Document::from_bytes(&bytes).unwrap();
        assert!(doc.has_bom());
        assert_eq!(doc.flatten(), "line one\r\nline two\nthree\r\n");
        assert_eq!(doc.to_bytes(), bytes);
        // CRLF counts once: three line breaks, four lines (the last empty).
        assert_eq!(doc.len_lines(), 4);
        assert_eq!(doc.char_to_line_col(CharOffset(10)), LineCol { line: 1, col: 0 });
    }

    #[test]
    fn lone_cr_does_not_end_a_line() {
        let doc = Document::new("a\rb\nc");
        assert_eq!(doc.len_lines(), 2);
    }

    #[test]
    fn refuses_non_utf8_with_offset() {
        let err = Document::from_bytes(b"ok \xff bad").unwrap_err();
        assert_eq!(err, DocumentError::NotUtf8 { at: 3 });
        assert_eq!(err.to_string(), "not UTF-8: invalid byte sequence at byte 3");
    }

    #[test]
    fn refuses_oversized() {
        let big = vec![b'a'; MAX_DOCUMENT_BYTES + 1];
        assert!(matches!(
            Document::from_bytes(&big),
            Err(DocumentError::TooLarge { .. })
        ));
    }

    #[test]
    fn offset_conversions_with_emoji_and_cjk() {
        // "a😀中b": bytes a=0, 😀=1..5, 中=5..8, b=8; utf16 a=0, 😀=1..3, 中=3, b=4
        let doc = Document::new("a😀中b");
        assert_eq!(doc.byte_to_char(ByteOffset(5)).unwrap(), CharOffset(2));
        assert_eq!(
            doc.byte_to_char(ByteOffset(2)),
            Err(DocumentError::NotCharBoundary { offset: 2 })
        );
        assert_eq!(
            doc.byte_to_char(ByteOffset(10)),
            Err(DocumentError::ByteOutOfRange { offset: 10, len: 9 })
        );
        assert_eq!(doc.utf16_to_char(Utf16Offset(3)).unwrap(), CharOffset(2));
        assert_eq!(
            doc.utf16_to_char(Utf16Offset(2)),
            Err(DocumentError::InsideSurrogatePair { offset: 2 })
        );
        assert_eq!(doc.char_to_utf16(CharOffset(4)), Utf16Offset(5));
        assert_eq!(doc.char_to_byte(CharOffset(3)), ByteOffset(8));
    }

    #[test]
    fn apply_bumps_version_and_refreshes_text() {
        let mut doc = Document::new("abc");
        assert_eq!(doc.flatten(), "abc");
        doc.apply(&ChangeSet::replace(3, CharRange::new(1, 2), "ü").unwrap())
            .unwrap();
        assert_eq!(doc.version(), 1);
        assert_eq!(doc.flatten(), "aüc");
    }
}
