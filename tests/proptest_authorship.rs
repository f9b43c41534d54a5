//! The authorship counts (`cowriting_core::authorship`) against a naive model:
//! random texts (words, apostrophes, hyphens, headings, code fences, CJK and
//! emoji) with random spans of random authors; each author's characters are
//! the characters their spans cover, each word goes to the author of its first
//! character, the sections partition the text and their counts add up.
//!
//! And iA Writer's annotation block, written for random texts (combining
//! marks, emoji, flags, CRLF, `---` and `...` lines) with spans of authors
//! whose names need escaping, split off the file and read back: each grapheme
//! cluster is its first char's author's, and writing it again gives the same
//! file.

use cowriting::authorship::report;
use cowriting::offset::CharRange;
use proptest::prelude::*;

/// Words the slow way: a word starts at a letter or digit that does not
/// continue one (the character before is not a letter or digit, and is not an
/// apostrophe or hyphen between two letters or digits).
fn word_starts(chars: &[char]) -> Vec<usize> {
    let alnum = |i: usize| chars.get(i).is_some_and(|c| c.is_alphanumeric());
    let joins = |i: usize| {
        matches!(chars.get(i), Some('\'' | '\u{2019}' | '-')) && i > 0 && alnum(i - 1) && alnum(i + 1)
    };
    (0..chars.len())
        .filter(|&i| {
            if !alnum(i) || i == 0 {
                return alnum(i);
            }
            // Walk back over the word this character may continue.
            !(alnum(i - 1) || joins(i - 1))
        })
        .collect()
}

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z]{1,8}".prop_map(|s| s),
        Just(" ".into()),
        Just("\n".into()),
        Just("don't".into()),
        Just("well-known".into()),
        Just(" - ".into()),
        Just("'".into()),
        Just("\n# Heading\n".into()),
        Just("\n## Sub heading ##\n".into()),
        Just("\n```\n# not a heading\n```\n".into()),
        Just("日本語".into()),
        Just("🎉".into()),
        Just("e\u{301}".into()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn counts_match_the_naive_model(
        pieces in prop::collection::vec(piece(), 0..40),
        cuts in prop::collection::vec((0usize..400, 0usize..400, 0usize..3), 0..8),
    ) {
        let text: String = pieces.concat();
        let chars: Vec<char> = text.chars().collect();
        let len = chars.len();
        // Non-overlapping spans: later ones win over earlier where they meet.
        let mut who: Vec<Option<usize>> = vec![None; len];
        for (a, b, author) in &cuts {
            let (s, e) = ((*a).min(*b).min(len), (*a).max(*b).min(len));
            for w in &mut who[s..e] { *w = Some(*author); }
        }
        let mut spans = Vec::new();
        let mut i = 0;
        while i < len {
            let Some(a) = who[i] else { i += 1; continue };
            let start = i;
            while i < len && who[i] == Some(a) { i += 1; }
            spans.push((CharRange::new(start, i), a));
        }
        let (whole, sections) = report(&text, &spans, 3);

        let starts = word_starts(&chars);
        for author in 0..3 {
            let chars_of = who.iter().filter(|w| **w == Some(author)).count();
            let words_of = starts.iter().filter(|&&i| who[i] == Some(author)).count();
            prop_assert_eq!(whole.by_author[author], (chars_of, words_of), "author {}", author);
        }
        let unknown_words = starts.iter().filter(|&&i| who[i].is_none()).count();
        prop_assert_eq!(whole.unknown, (who.iter().filter(|w| w.is_none()).count(), unknown_words));
        prop_assert_eq!((whole.chars, whole.words), (len, starts.len()));

        // The sections partition the text, in order, and their counts add up.
        let mut at = 0;
        for s in &sections {
            prop_assert_eq!(s.range.start.0, at);
            at = s.range.end.0;
        }
        prop_assert_eq!(at, len);
        prop_assert_eq!(sections.iter().map(|s| s.counts.chars).sum::<usize>(), len);
        for author in 0..3 {
            prop_assert_eq!(
                sections.iter().map(|s| s.counts.by_author[author].0).sum::<usize>(),
                whole.by_author[author].0
            );
        }
        // A heading's section starts at its line, never inside code.
        for s in sections.iter().filter(|s| s.heading.is_some()) {
            prop_assert!(s.range.start.0 == 0 || chars[s.range.start.0 - 1] == '\n');
            prop_assert_eq!(chars[s.range.start.0..].iter().take_while(|c| **c == '#').count(), usize::from(s.level));
        }
    }
}

// ---- iA Writer's Markdown Annotations: written and read back ----

use cowriting::authorship::ia;

fn ia_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,6}".prop_map(|s| s),
        Just(" ".into()),
        Just("\n".into()),
        Just("\r\n".into()),
        Just("e\u{301}".into()),
        Just("👋🏽".into()),
        Just("🇫🇷".into()),
        Just("東京".into()),
        Just("---".into()),
        Just("...".into()),
        Just("a: b".into()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Any text with any spans of humans and agents (names with the
    /// characters a key escapes): the block written, split off the annotated
    /// file and read back gives each grapheme cluster in the hashed text the
    /// author of its first char, and writing that back gives the same file.
    #[test]
    fn ia_blocks_round_trip(
        pieces in prop::collection::vec(ia_piece(), 0..30),
        cuts in prop::collection::vec((0usize..200, 0usize..200, 0usize..4), 0..8),
        trailing_newline in any::<bool>(),
    ) {
        let mut text: String = pieces.concat();
        if trailing_newline {
            text.push('\n');
        }
        let chars: Vec<char> = text.chars().collect();
        let len = chars.len();
        let mut who: Vec<Option<usize>> = vec![None; len];
        for (a, b, author) in &cuts {
            let (s, e) = ((*a).min(*b).min(len), (*a).max(*b).min(len));
            for w in &mut who[s..e] { *w = Some(*author); }
        }
        let mut spans = Vec::new();
        let mut i = 0;
        while i < len {
            let Some(a) = who[i] else { i += 1; continue };
            let start = i;
            while i < len && who[i] == Some(a) { i += 1; }
            spans.push((CharRange::new(start, i), a));
        }
        let authors = [
            ia::Author { human: true, name: Some("Ann: <a>".into()), identifier: None },
            ia::Author { human: false, name: Some("claude-x".into()), identifier: Some("cl\\aude".into()) },
            ia::Author { human: false, name: None, identifier: Some("gpt<4>".into()) },
            ia::Author { human: true, name: Some("Bo".into()), identifier: Some("b@x.org".into()) },
        ];
        let file = ia::annotated(&text, &spans, &authors);
        let (back, parsed) = ia::split(&file).expect("the file ends with its block");
        prop_assert_eq!(back, text.as_str());
        let ranges = ia::char_ranges(back, &parsed).expect("the hash fits");
        // Each hashed grapheme cluster is its first char's author's.
        let mut got: Vec<Option<usize>> = vec![None; len];
        for (r, k) in &ranges {
            let a = authors.iter().position(|x| *x == parsed.authors[*k].0).expect("a known author");
            for w in &mut got[r.start.0..r.end.0] { *w = Some(a); }
        }
        let mut at = 0;
        let hashed_graphemes = parsed.hashed.1;
        for (g, cluster) in unicode_clusters(&text).into_iter().enumerate() {
            let n = cluster.chars().count();
            let want = if g < hashed_graphemes { who[at] } else { None };
            for (c, g) in got.iter().enumerate().skip(at).take(n) {
                prop_assert_eq!(*g, want, "char {} of {:?}", c, text);
            }
            at += n;
        }
        let again: Vec<(CharRange, usize)> = ranges.clone();
        let authors_back: Vec<ia::Author> = parsed.authors.iter().map(|(a, _)| a.clone()).collect();
        prop_assert_eq!(ia::annotated(back, &again, &authors_back), file);
    }
}

fn unicode_clusters(text: &str) -> Vec<&str> {
    use unicode_segmentation::UnicodeSegmentation;
    text.graphemes(true).collect()
}
