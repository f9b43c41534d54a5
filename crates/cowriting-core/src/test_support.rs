//! Marked-text helpers for tests: `"Hello «world»"` is the text `Hello world`
//! with the range of `world` marked, `"aˇb"` marks a position.

use crate::offset::CharRange;

/// Parse marked text: returns the plain text, the `«…»` ranges and the `ˇ` positions
/// (all in chars of the plain text).
pub fn parse_marked(marked: &str) -> (String, Vec<CharRange>, Vec<usize>) {
    let mut text = String::with_capacity(marked.len());
    let mut ranges = Vec::new();
    let mut points = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut n = 0;
    for c in marked.chars() {
        match c {
            '«' => open.push(n),
            '»' => {
                let start = open.pop().expect("» without «");
                ranges.push(CharRange::new(start, n));
            }
            'ˇ' => points.push(n),
            c => {
                text.push(c);
                n += 1;
            }
        }
    }
    assert!(open.is_empty(), "« without »");
    ranges.sort();
    (text, ranges, points)
}

/// Mark `ranges` in `text` (the inverse of [`parse_marked`] for ranges).
pub fn mark(text: &str, ranges: &[CharRange]) -> String {
    let mut out = String::with_capacity(text.len() + 4 * ranges.len());
    for (i, c) in text.chars().enumerate() {
        for r in ranges {
            if r.end.0 == i && !r.is_empty() {
                out.push('»');
            }
        }
        for r in ranges {
            if r.start.0 == i {
                out.push('«');
                if r.is_empty() {
                    out.push('»');
                }
            }
        }
        out.push(c);
    }
    let n = text.chars().count();
    for r in ranges {
        if r.start.0 == n && r.is_empty() {
            out.push_str("«»");
        } else if r.end.0 == n {
            out.push('»');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let (text, ranges, points) = parse_marked("Hello «wörld»ˇ!");
        assert_eq!(text, "Hello wörld!");
        assert_eq!(ranges, vec![CharRange::new(6, 11)]);
        assert_eq!(points, vec![11]);
        assert_eq!(mark(&text, &ranges), "Hello «wörld»!");
    }
}
