//! Offset units as types.
//!
//! Three programs look at the same text and count it three ways: ropey counts
//! **chars** (Unicode scalar values), CodeMirror counts **UTF-16 code units**, and
//! the suggestion contract and the CLI count **UTF-8 bytes**. A bare `usize`
//! crossing between them is a bug waiting for an emoji, so each unit is a newtype
//! and conversions happen only through [`crate::Document`] (O(log n) via ropey),
//! at the boundary where a position enters or leaves the core.
//!
//! Inside the core every position is a [`CharOffset`] and every range a
//! [`CharRange`].

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;

// On the wire each offset is a bare number: a one-field tuple struct is a serde
// *newtype* struct, which serde_json (and toml) write and read as its field, so no
// `#[serde(transparent)]` is needed — and ts-rs cannot parse that attribute (it
// warned at every `make bindings` / `make lint`). The tests below pin the format.
macro_rules! offset_newtype {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub struct $name(pub usize);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

offset_newtype!(
    /// A position counted in Unicode scalar values (ropey's unit; the core's unit).
    CharOffset
);
offset_newtype!(
    /// A position counted in UTF-8 bytes (the suggestion contract's and the CLI's unit).
    ByteOffset
);
offset_newtype!(
    /// A position counted in UTF-16 code units (CodeMirror's and JavaScript's unit).
    ///
    /// On the wire a number; in the TypeScript bindings a number branded
    /// `Utf16Offset`, so the UI cannot pass a count of anything else where the
    /// core expects one.
    #[cfg_attr(
        feature = "ts",
        derive(ts_rs::TS),
        ts(export, type = r#"number & { readonly __unit: "utf16" }"#)
    )]
    Utf16Offset
);
offset_newtype!(
    /// A position counted in UTF-8 bytes of a document's **file**, a BOM (if
    /// any) included: the suggestion contract's unit, since producers read the
    /// file's bytes. [`ByteOffset`] counts the *text's* bytes, after the BOM;
    /// on a file with a BOM the two differ by three, so they are different
    /// types, converted only by the session (`Session::char_range_of`,
    /// `Session::file_range_of`).
    FileByteOffset
);

/// A 0-based line and a 0-based column counted in chars. Lines end at `\n`
/// (a `\r\n` pair counts as one line break; a lone `\r` does not end a line).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct LineCol {
    pub line: usize,
    pub col: usize,
}

/// A half-open range `[start, end)` of chars.
///
/// Invariant: `start <= end` (checked by [`CharRange::new`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CharRange {
    pub start: CharOffset,
    pub end: CharOffset,
}

impl CharRange {
    /// A range from `start` to `end`. Panics in debug builds if `start > end`.
    pub fn new(start: usize, end: usize) -> Self {
        debug_assert!(start <= end, "CharRange start {start} > end {end}");
        CharRange {
            start: CharOffset(start),
            end: CharOffset(end),
        }
    }

    /// An empty range (an insertion point) at `at`.
    pub fn point(at: usize) -> Self {
        Self::new(at, at)
    }

    pub fn len(&self) -> usize {
        self.end.0 - self.start.0
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    pub fn as_range(&self) -> Range<usize> {
        self.start.0..self.end.0
    }

    /// Whether the two ranges share at least one char.
    pub fn overlaps(&self, other: &CharRange) -> bool {
        self.start < other.end && other.start < self.end
    }
}

impl fmt::Display for CharRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// A half-open range of UTF-8 bytes of the text (after a BOM, if any), as the
/// CLI and MCP speak it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ByteRange {
    pub start: ByteOffset,
    pub end: ByteOffset,
}

impl ByteRange {
    pub fn new(start: usize, end: usize) -> Self {
        ByteRange {
            start: ByteOffset(start),
            end: ByteOffset(end),
        }
    }
}

impl fmt::Display for ByteRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// A half-open range of UTF-8 bytes of a document's file, a BOM included (the
/// suggestion contract's spans); see [`FileByteOffset`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct FileByteRange {
    pub start: FileByteOffset,
    pub end: FileByteOffset,
}

impl FileByteRange {
    pub fn new(start: usize, end: usize) -> Self {
        FileByteRange {
            start: FileByteOffset(start),
            end: FileByteOffset(end),
        }
    }
}

impl fmt::Display for FileByteRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every offset is a bare number in JSON, both ways (no wrapper object or array).
    #[test]
    fn offsets_are_bare_numbers_on_the_wire() {
        fn check<T: Serialize + for<'de> Deserialize<'de> + PartialEq + fmt::Debug>(v: T) {
            assert_eq!(serde_json::to_string(&v).unwrap(), "42");
            assert_eq!(serde_json::from_str::<T>("42").unwrap(), v);
            assert!(serde_json::from_str::<T>("[42]").is_err());
        }
        check(CharOffset(42));
        check(ByteOffset(42));
        check(Utf16Offset(42));
        check(FileByteOffset(42));
        assert_eq!(
            serde_json::to_string(&ByteRange::new(1, 2)).unwrap(),
            r#"{"start":1,"end":2}"#
        );
    }
}
