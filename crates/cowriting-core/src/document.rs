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
    /// The flattened text of the current version, built on first use.
    flat: OnceLock<String>,
    /// Whether that text has a lone `\r`, found on first use.
    lone_cr: OnceLock<bool>,
}

impl Clone for Document {
    fn clone(&self) -> Self {
        Document {
            rope: self.rope.clone(),
            version: self.version,
            bom: self.bom,
            flat: OnceLock::new(),
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
            flat: OnceLock::new(),
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

    /// The whole text as one string (cached per version).
    pub fn text(&self) -> &str {
        self.flat.get_or_init(|| self.rope.to_string())
    }

    /// Whether a `\r` not followed by `\n` ends a line somewhere (VS Code
    /// counts it as a line break, the rope does not). Cached per version.
    pub fn has_lone_cr(&self) -> bool {
        *self.lone_cr.get_or_init(|| {
            let b = self.text().as_bytes();
            memchr::memchr_iter(b'\r', b).any(|i| b.get(i + 1) != Some(&b'\n'))
        })
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
        self.flat = OnceLock::new();
        self.lone_cr = OnceLock::new();
        Ok(())
    }

    /// Replace the whole text (a reload from disk), bumping the version.
    pub fn replace_all(&mut self, other: Document) {
        self.rope = other.rope;
        self.bom = other.bom;
        self.version += 1;
        self.flat = OnceLock::new();
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

    #[test]
    fn bom_and_crlf_round_trip_byte_for_byte() {
        let bytes = b"\xEF\xBB\xBFline one\r\nline two\nthree\r\n".to_vec();
        let doc = Document::from_bytes(&bytes).unwrap();
        assert!(doc.has_bom());
        assert_eq!(doc.text(), "line one\r\nline two\nthree\r\n");
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
        assert_eq!(doc.text(), "abc");
        doc.apply(&ChangeSet::replace(3, CharRange::new(1, 2), "ü").unwrap())
            .unwrap();
        assert_eq!(doc.version(), 1);
        assert_eq!(doc.text(), "aüc");
    }
}
