//! Harper on real prose with multi-byte characters (`--features harper`).
#![cfg(feature = "harper")]

use std::time::Instant;

use cowriting::contract::{to_json, verify, Revision};
use cowriting::producers::{harper, Request};

const PROSE: &str = "# Notes\n\nCafé owners in Zürich recieve teh best résumés. 日本 is nice.\n\nIt is a   emoji 🎉 test, and and it works.\n";

fn request(bytes: &[u8]) -> Request<'_> {
    Request {
        doc_id: "notes/zürich.md",
        bytes,
        selection: None,
        instruction: None,
    }
}

#[test]
fn harper_suggestions_sit_on_exact_byte_spans() {
    let bytes = PROSE.as_bytes();
    let t0 = Instant::now();
    let first = harper::check(&request(bytes)).unwrap();
    let cold = t0.elapsed();
    let t1 = Instant::now();
    let second = harper::check(&request(bytes)).unwrap();
    let warm = t1.elapsed();
    // Reported, not asserted: timings are the machine's business.
    eprintln!("harper first check (dictionary + linter load): {cold:?}; second: {warm:?}");

    assert!(!first.suggestions.is_empty());
    for s in &first.suggestions {
        let (a, b) = (s.span.start.0, s.span.end.0);
        assert!(PROSE.is_char_boundary(a) && PROSE.is_char_boundary(b), "{s:?}");
        assert_eq!(&PROSE[a..b], s.text, "{s:?}");
        assert_ne!(s.text, s.replacement);
        verify(s, &Revision::of(bytes)).unwrap();
        assert_eq!(s.producer.id, "harper");
        assert_eq!(s.producer.version, harper::version());
        assert!(s.producer.provenance.starts_with("rule:"), "{s:?}");
        assert!(!s.category.is_empty() && s.category == s.category.to_lowercase());
        assert!(!s.reason.is_empty());
    }
    // Harper's overlapping lints are reduced to one.
    for pair in first.suggestions.windows(2) {
        assert!(pair[0].span.end <= pair[1].span.start, "{pair:#?}");
    }
    let find = |word: &str| {
        first
            .suggestions
            .iter()
            .find(|s| s.text == word)
            .unwrap_or_else(|| panic!("no suggestion on {word:?}: {:#?}", first.suggestions))
    };
    let recieve = find("recieve");
    assert_eq!(recieve.replacement, "receive");
    assert_eq!(recieve.category, "spelling");
    // After "Café" and "Zürich", byte and char offsets differ by two.
    let at = PROSE.find("recieve").unwrap();
    assert_eq!((recieve.span.start.0, recieve.span.end.0), (at, at + 7));
    assert_ne!(at, PROSE[..at].chars().count());
    let teh = find("teh");
    assert_eq!(teh.replacement, "the");
    // Accented words Harper knows are not flagged (it does suggest "Zurich").
    for word in ["Café", "résumés"] {
        assert!(
            first.suggestions.iter().all(|s| s.text != word),
            "{word} flagged: {:#?}",
            first.suggestions
        );
    }
    // Deterministic: byte-identical output on a second run.
    assert_eq!(to_json(&first.suggestions), to_json(&second.suggestions));
    assert_eq!(first.skipped, second.skipped);
}
