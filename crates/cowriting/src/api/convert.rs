//! The boundary conversion: CodeMirror's UTF-16 replacements ↔ the core's
//! change sets in chars. Untrusted offsets are checked here.

use super::*;

/// A core change as UTF-16 replacements against `before`.
pub(super) fn to_text_changes(before: &Document, change: &ChangeSet) -> Vec<TextChange> {
    let mut out: Vec<TextChange> = Vec::new();
    let mut pos = 0usize;
    let at = |p: usize| before.char_to_utf16(cowriting_core::offset::CharOffset(p));
    for op in change.ops() {
        match op {
            Operation::Retain(n) => pos += n,
            Operation::Insert(s) => out.push(TextChange {
                from: at(pos),
                to: at(pos),
                insert: s.clone(),
            }),
            Operation::Delete(n) => {
                let from = at(pos);
                let to = at(pos + n);
                match out.last_mut() {
                    // Insert then delete at one place is one replacement.
                    Some(last) if last.from == from && last.to == from => last.to = to,
                    _ => out.push(TextChange {
                        from,
                        to,
                        insert: String::new(),
                    }),
                }
                pos += n;
            }
        }
    }
    out
}

/// UTF-16 replacements from the UI → a core change. Untrusted: offsets are
/// checked, must be in order, and must not split a surrogate pair.
pub fn from_text_changes(
    doc: &Document,
    changes: &[TextChange],
) -> std::result::Result<ChangeSet, cowriting_core::document::DocumentError> {
    let mut ranges = Vec::with_capacity(changes.len());
    for c in changes {
        let range = doc.utf16_range_to_chars(c.from, c.to)?;
        ranges.push((range, c.insert.as_str()));
    }
    Ok(ChangeSet::from_changes(doc.len_chars(), ranges)?)
}
