//! Pages of a document, for [`super::Ops::read`]: at most [`PAGE_LINES`]
//! lines and [`PAGE_BYTES`] bytes, cut at line ends.

use cowriting_core::document::Document;

/// The most lines one page shows.
const PAGE_LINES: usize = 400;
/// The most text one page shows, in UTF-8 bytes (a single longer line is
/// shown whole, so that every page moves on).
const PAGE_BYTES: usize = 64 * 1024;

/// The lines one page shows. Lines end at `\n`, as the
/// document counts them (a `\r\n` pair is one line end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Page {
    pub(crate) total_lines: usize,
    /// 1-based, inclusive; `to_line == from_line - 1` for an empty document.
    pub(crate) from_line: usize,
    pub(crate) to_line: usize,
    /// `to_line + 1`, unless the page reaches the end.
    pub(crate) next_from_line: Option<usize>,
    /// Bytes of the text, line ends included.
    pub(crate) start_byte: usize,
    pub(crate) end_byte: usize,
}

impl Page {
    /// The page of `d` from line `from` (default 1) to line `to` (default and
    /// at most the last line), cut at [`PAGE_LINES`] lines or [`PAGE_BYTES`]
    /// bytes, whichever comes first. Refused (with the reason) when `from` is
    /// past the end or `to` before `from`.
    pub(crate) fn of(
        d: &Document,
        from: Option<usize>,
        to: Option<usize>,
    ) -> std::result::Result<Page, String> {
        let rope = d.rope();
        let ends_open = d.len_bytes() > 0 && rope.byte(d.len_bytes() - 1) != b'\n';
        // The rope counts the empty line after a last line end; a reader does not.
        let total = rope.len_lines() - usize::from(!ends_open);
        let from = from.unwrap_or(1);
        if let Some(to) = to.filter(|&to| to < from) {
            return Err(format!("to_line {to} is before from_line {from}"));
        }
        if from > total.max(1) {
            return Err(format!(
                "from_line {from} is past the end ({total} line{})",
                if total == 1 { "" } else { "s" }
            ));
        }
        // Byte where 0-based line `i` starts (the end of the text past the last).
        let line_start = |i: usize| {
            if i >= rope.len_lines() {
                d.len_bytes()
            } else {
                rope.line_to_byte(i)
            }
        };
        let want = to.unwrap_or(total).min(total);
        let start = line_start(from - 1);
        let mut to_line = from - 1;
        while to_line < want
            && to_line + 1 - from < PAGE_LINES
            && (to_line < from || line_start(to_line + 1) - start <= PAGE_BYTES)
        {
            to_line += 1;
        }
        Ok(Page {
            total_lines: total,
            from_line: from,
            to_line,
            next_from_line: (to_line < total).then_some(to_line + 1),
            start_byte: start,
            end_byte: line_start(to_line),
        })
    }

    /// Whether a proposal or thread at bytes `from..to` is on this page: its
    /// target shares a byte with the page (an insertion point inside it, or at
    /// the very end on the last page). One not in the text (`None`) goes with
    /// the page starting at line 1.
    pub(crate) fn shows(&self, from: Option<u32>, to: Option<u32>) -> bool {
        let (Some(f), Some(t)) = (from, to) else {
            return self.from_line == 1;
        };
        let (f, t) = (f as usize, t as usize);
        if f == t {
            self.start_byte <= f
                && (f < self.end_byte || (self.next_from_line.is_none() && f == self.end_byte))
        } else {
            f < self.end_byte && t > self.start_byte
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(text: &str, from: Option<usize>, to: Option<usize>) -> std::result::Result<Page, String> {
        Page::of(&Document::new(text), from, to)
    }

    #[test]
    fn pages_count_lines_as_a_reader_does_and_stop_at_their_limits() {
        let p = page("a\nb\r\nc", None, None).unwrap();
        assert_eq!(
            (p.total_lines, p.from_line, p.to_line, p.next_from_line),
            (3, 1, 3, None)
        );
        assert_eq!((p.start_byte, p.end_byte), (0, 6));
        assert_eq!(page("a\nb\n", None, None).unwrap().total_lines, 2);
        let empty = page("", None, None).unwrap();
        assert_eq!((empty.total_lines, empty.to_line, empty.end_byte), (0, 0, 0));
        assert!(
            empty.shows(Some(0), Some(0)),
            "an insertion into an empty document"
        );
        assert_eq!(
            page("", Some(2), None).unwrap_err(),
            "from_line 2 is past the end (0 lines)"
        );
        let p = page("a\nb\nc\n", Some(2), Some(2)).unwrap();
        assert_eq!(
            (p.to_line, p.next_from_line, p.start_byte, p.end_byte),
            (2, Some(3), 2, 4)
        );
        assert!(p.shows(Some(2), Some(3)) && p.shows(Some(3), Some(5)));
        assert!(!p.shows(Some(4), Some(4)) && !p.shows(Some(0), Some(2)));
        assert!(!p.shows(None, None), "unplaced ones go with line 1's page");
        assert_eq!(
            page("a\nb\n", Some(2), Some(1)).unwrap_err(),
            "to_line 1 is before from_line 2"
        );
        // 1,000 short lines: 400 a page.
        let many = "x\n".repeat(1000);
        let p = page(&many, None, None).unwrap();
        assert_eq!((p.to_line, p.next_from_line), (400, Some(401)));
        assert_eq!(page(&many, Some(801), None).unwrap().to_line, 1000);
        // Long lines: as many as fit in 64 KiB, and always at least one.
        let wide = format!("{}\n", "y".repeat(1023)).repeat(100);
        assert_eq!(page(&wide, None, None).unwrap().to_line, 64);
        let huge = format!("{}\nz\n", "y".repeat(100 * 1024));
        let p = page(&huge, None, None).unwrap();
        assert_eq!((p.to_line, p.next_from_line), (1, Some(2)));
    }
}
