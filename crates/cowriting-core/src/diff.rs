//! Word-level diffs for prose (`similar`, Unicode word boundaries).
//!
//! One diff serves two purposes: showing a proposal inline (struck-through
//! removed words, inserted words) and applying an accepted proposal as a change
//! that touches only the words that differ, so unchanged words keep their
//! attribution.

use crate::changeset::ChangeSet;
use crate::offset::CharRange;
use serde::Serialize;
use similar::{ChangeTag, TextDiff};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "lowercase")]
pub enum DiffTag {
    Equal,
    Delete,
    Insert,
}

/// One run of a word diff.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct DiffPart {
    pub tag: DiffTag,
    pub text: String,
}

/// The word diff of `old` → `new`, neighbouring runs of one tag joined.
pub fn word_diff(old: &str, new: &str) -> Vec<DiffPart> {
    let diff = TextDiff::from_unicode_words(old, new);
    let mut out: Vec<DiffPart> = Vec::new();
    for change in diff.iter_all_changes() {
        let tag = match change.tag() {
            ChangeTag::Equal => DiffTag::Equal,
            ChangeTag::Delete => DiffTag::Delete,
            ChangeTag::Insert => DiffTag::Insert,
        };
        match out.last_mut() {
            Some(last) if last.tag == tag => last.text.push_str(change.value()),
            _ => out.push(DiffPart {
                tag,
                text: change.value().to_owned(),
            }),
        }
    }
    out
}

/// The change that turns `range` of a document of `doc_len` chars (holding
/// `old`) into `new`, touching only the words that differ.
pub fn word_change(doc_len: usize, range: CharRange, old: &str, new: &str) -> ChangeSet {
    let mut cs = ChangeSet::default();
    cs.retain(range.start.0);
    for part in word_diff(old, new) {
        let n = part.text.chars().count();
        match part.tag {
            DiffTag::Equal => cs.retain(n),
            DiffTag::Delete => cs.delete(n),
            DiffTag::Insert => cs.insert(&part.text),
        }
    }
    cs.retain(doc_len - range.end.0);
    cs
}

/// The change from `old` to `new` (whole texts), for a reload from disk: a line
/// diff, refined to words inside each changed region so that anchors and spans
/// on words that did not change keep their place.
pub fn text_change(old: &str, new: &str) -> ChangeSet {
    let diff = similar::TextDiff::configure()
        .timeout(std::time::Duration::from_millis(500))
        .diff_lines(old, new);
    let old_lines = diff.old_slices();
    let new_lines = diff.new_slices();
    let mut cs = ChangeSet::default();
    for op in diff.ops() {
        let (tag, o, n) = op.as_tag_tuple();
        let old_text: String = old_lines[o].concat();
        match tag {
            similar::DiffTag::Equal => cs.retain(old_text.chars().count()),
            _ => {
                let new_text: String = new_lines[n].concat();
                if old_text.len() + new_text.len() <= 64 * 1024 {
                    for part in word_diff(&old_text, &new_text) {
                        match part.tag {
                            DiffTag::Equal => cs.retain(part.text.chars().count()),
                            DiffTag::Delete => cs.delete(part.text.chars().count()),
                            DiffTag::Insert => cs.insert(&part.text),
                        }
                    }
                } else {
                    cs.insert(&new_text);
                    cs.delete(old_text.chars().count());
                }
            }
        }
    }
    cs
}

/// For each char of `new`, whether it comes unchanged from `base` (by word diff).
/// Used for accept-with-changes: words the human kept from the agent's
/// replacement are the agent's; the rest are the human's.
pub fn chars_kept_from(base: &str, new: &str) -> Vec<bool> {
    let mut out = Vec::with_capacity(new.len());
    for part in word_diff(base, new) {
        let n = part.text.chars().count();
        match part.tag {
            DiffTag::Equal => out.extend(std::iter::repeat_n(true, n)),
            DiffTag::Insert => out.extend(std::iter::repeat_n(false, n)),
            DiffTag::Delete => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diffs_by_word() {
        let d = word_diff("the quick fox", "the slow fox");
        assert_eq!(
            d,
            vec![
                DiffPart {
                    tag: DiffTag::Equal,
                    text: "the ".into()
                },
                DiffPart {
                    tag: DiffTag::Delete,
                    text: "quick".into()
                },
                DiffPart {
                    tag: DiffTag::Insert,
                    text: "slow".into()
                },
                DiffPart {
                    tag: DiffTag::Equal,
                    text: " fox".into()
                },
            ]
        );
    }

    #[test]
    fn word_change_touches_only_changed_words() {
        let doc = "Intro. the quick fox. End.";
        let range = CharRange::new(7, 20);
        let cs = word_change(26, range, "the quick fox", "the slow fox");
        assert_eq!(cs.apply_to_string(doc).unwrap(), "Intro. the slow fox. End.");
        assert_eq!(cs.inserted_ranges(), vec![CharRange::new(11, 15)]);
    }

    #[test]
    fn text_change_turns_old_into_new() {
        let old = "one\ntwo words here\nthree\n";
        let new = "zero\none\ntwo words there\n";
        let cs = text_change(old, new);
        cs.check_invariants();
        assert_eq!(cs.apply_to_string(old).unwrap(), new);
        // "two words " is kept: a position inside it maps to the same word.
        let at = old.find("words").unwrap();
        let mapped = cs.map_pos(crate::offset::CharOffset(at), crate::changeset::Assoc::After);
        assert_eq!(&new[mapped.0..mapped.0 + 5], "words");
    }

    #[test]
    fn kept_chars() {
        assert_eq!(
            chars_kept_from("a big cat", "a small cat")
                .iter()
                .filter(|k| !**k)
                .count(),
            5
        );
    }
}
