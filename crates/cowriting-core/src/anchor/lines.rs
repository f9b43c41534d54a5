//! Lines as VS Code counts them (`lineHint`).

use crate::document::Document;

/// Lines as VS Code counts them (`lineHint`): `\n`, `\r\n` and a lone `\r`
/// each end one. The rope's own lines end only at `\n` (a CRLF counts once
/// there too), so for a document with no lone `\r` they are the same and the
/// rope answers; otherwise a table of line starts does.
pub(super) enum Lines<'a> {
    Rope(&'a Document),
    /// Byte offset of the start of every line (the first is 0).
    Starts(Vec<usize>),
}

impl<'a> Lines<'a> {
    pub(super) fn of(doc: &'a Document) -> Self {
        if !doc.has_lone_cr() {
            return Lines::Rope(doc);
        }
        let starts = std::iter::once(0)
            .chain(doc.vs_code_breaks().map(|(b, _)| b.0 + 1))
            .collect();
        Lines::Starts(starts)
    }

    pub(super) fn count(&self) -> usize {
        match self {
            Lines::Rope(doc) => doc.len_lines(),
            Lines::Starts(starts) => starts.len(),
        }
    }

    /// The byte where line `l` (< count) starts.
    pub(super) fn start_byte(&self, l: usize) -> usize {
        match self {
            Lines::Rope(doc) => doc.char_to_byte(doc.line_to_char(l)).0,
            Lines::Starts(starts) => starts[l],
        }
    }

    pub(super) fn line_of_byte(&self, byte: usize) -> usize {
        match self {
            Lines::Rope(doc) => doc.rope().byte_to_line(byte),
            Lines::Starts(starts) => starts.partition_point(|&s| s <= byte) - 1,
        }
    }
}
