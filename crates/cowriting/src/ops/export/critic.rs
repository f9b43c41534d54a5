//! Pure: a document's text with its review data as CriticMarkup
//! (<http://criticmarkup.com/spec.php>), for other review tools.
//!
//! - A pending proposal: `{~~old~>new~~}`, `{++new++}` (nothing replaced) or
//!   `{--old--}` (replaced by nothing), followed by who proposed it and why as
//!   a comment: `{>>claude (claude-sonnet-4-5): tighter<<}`.
//! - An open thread: `{==its text==}{>>ada: first comment<<}{>>bob: a reply<<}`,
//!   a comment each, in order (a reply is never run into the comment before it).
//!   Marks never nest or overlap ([`super::annotations::Layout`] says what goes
//!   where): a thread over a proposal becomes a bare comment after it.
//! - What has no place in the text (an orphaned or detached thread, a stale or
//!   orphaned proposal, one overlapping a placed proposal) is listed after the
//!   text, one comment per paragraph.
//! - Comments are one line (CriticMarkup marks do not span paragraphs): the
//!   line breaks of a comment's body become spaces.
//! - The text's own CriticMarkup-like sequences are broken with an HTML
//!   character reference, which Markdown shows as the same character: an
//!   opening `{++`, `{--`, `{~~`, `{==`, `{>>` anywhere becomes `&#123;++`…;
//!   inside a mark (or a comment) a closing `++}`, `--}`, `~~}`, `==}`, `<<}`
//!   becomes `++&#125;`…, and `~>` becomes `~&gt;`. (In a code span or block
//!   Markdown shows the reference as written; that is the price of a file no
//!   CriticMarkup processor misreads.) Everything else — line ends (CRLF
//!   kept), multibyte text — is copied as it is.

use super::annotations::{Annotations, Layout, Mark};

/// The opening pairs after a `{`, and the closing pairs before a `}`.
const OPENERS: [&str; 5] = ["++", "--", "~~", "==", ">>"];
const CLOSERS: [&str; 5] = ["++", "--", "~~", "==", "<<"];

/// `text` with `review` as CriticMarkup.
pub fn render(text: &str, review: &Annotations) -> String {
    let layout = Layout::of(review, text.len());
    let mut out = String::with_capacity(text.len() + 64 * layout.placed.len());
    let mut at = 0;
    for p in &layout.placed {
        out.push_str(&escape(&text[at..p.range.start], false));
        let inner = &text[p.range.clone()];
        match p.mark {
            Mark::Edit(i) => {
                let e = &review.edits[i];
                let new = escape(&e.replacement, true);
                if inner.is_empty() {
                    out.push_str(&format!("{{++{new}++}}"));
                } else if e.replacement.is_empty() {
                    out.push_str(&format!("{{--{}--}}", escape(inner, true)));
                } else {
                    out.push_str(&format!("{{~~{}~>{new}~~}}", escape(inner, true)));
                }
                let who = match &e.reason {
                    Some(r) if !r.trim().is_empty() => format!("{}: {}", e.author, r),
                    _ => e.author.clone(),
                };
                out.push_str(&comment(&who));
            }
            Mark::Highlight(i) => {
                out.push_str(&format!("{{=={}==}}", escape(inner, true)));
                out.push_str(&thread_comments(&review.notes[i].comments));
            }
            Mark::Comment(i) => out.push_str(&thread_comments(&review.notes[i].comments)),
        }
        at = p.range.end;
    }
    out.push_str(&escape(&text[at..], false));

    let mut after: Vec<String> = Vec::new();
    for &i in &layout.overlapping_edits {
        let e = &review.edits[i];
        after.push(format!(
            "Proposal by {} not marked (it overlaps another): “{}” → “{}”",
            e.author,
            text.get(e.range.clone()).unwrap_or_default(),
            e.replacement
        ));
    }
    for e in &review.lost_edits {
        after.push(format!(
            "Proposal by {} not placed ({}): “{}” → “{}”",
            e.author, e.why, e.target, e.replacement
        ));
    }
    for &i in &layout.unplaced_notes {
        let n = &review.notes[i];
        after.push(format!(
            "Thread not placed (its text is gone) on “{}”: {}",
            n.anchored_text,
            thread_words(&n.comments)
        ));
    }
    if !after.is_empty() {
        let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(nl);
        }
        for a in after {
            out.push_str(nl);
            out.push_str(&comment(&a));
            out.push_str(nl);
        }
    }
    out
}

/// A thread's comments in one line of a comment of its own (the list of what
/// has no place): `ada: first — bob: reply`.
fn thread_words(comments: &[super::annotations::Comment]) -> String {
    comments
        .iter()
        .map(|c| format!("{}: {}", c.author, c.body))
        .collect::<Vec<_>>()
        .join(" — ")
}

/// A thread's comments, a `{>>author: body<<}` each, in order.
fn thread_comments(comments: &[super::annotations::Comment]) -> String {
    comments
        .iter()
        .map(|c| comment(&format!("{}: {}", c.author, c.body)))
        .collect()
}

/// `{>>words<<}`, on one line, escaped.
fn comment(words: &str) -> String {
    let one_line = words.split_whitespace().collect::<Vec<_>>().join(" ");
    format!("{{>>{}<<}}", escape(&one_line, true))
}

/// `s` with CriticMarkup delimiters broken (see the module docs); closers and
/// `~>` too when `inside` a mark.
fn escape(s: &str, inside: bool) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    let mut i = 0;
    while i < b.len() {
        // Bytes, not chars: every delimiter is ASCII, so a match never cuts a char.
        let rest = &b[i..];
        let (skip, with) = if b[i] == b'{' && OPENERS.iter().any(|o| rest[1..].starts_with(o.as_bytes())) {
            (1, "&#123;")
        } else if inside
            && i + 2 < b.len()
            && b[i + 2] == b'}'
            && CLOSERS.iter().any(|c| rest.starts_with(c.as_bytes()))
        {
            // `++}` → `++&#125;`: the pair is copied, the brace replaced.
            out.push_str(&s[last..i + 2]);
            out.push_str("&#125;");
            i += 3;
            last = i;
            continue;
        } else if inside && rest.starts_with(b"~>") {
            out.push_str(&s[last..i + 1]);
            out.push_str("&gt;");
            i += 2;
            last = i;
            continue;
        } else {
            i += 1;
            continue;
        };
        out.push_str(&s[last..i]);
        out.push_str(with);
        i += skip;
        last = i;
    }
    out.push_str(&s[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::super::annotations::{Comment, Edit, LostEdit, Note};
    use super::*;
    use regex::Regex;

    /// A CriticMarkup reader as the spec's processors work (regular
    /// expressions, lazy), undoing this module's escapes: the text with every
    /// change accepted, or every change rejected; comments and highlights dropped.
    fn read(critic: &str, accept: bool) -> String {
        let re = Regex::new(
            r"(?s)\{\+\+(.*?)\+\+\}|\{--(.*?)--\}|\{~~(.*?)~>(.*?)~~\}|\{==(.*?)==\}|\{>>(.*?)<<\}",
        )
        .unwrap();
        let kept = re.replace_all(critic, |c: &regex::Captures| {
            let g = |n| c.get(n).map(|m| m.as_str()).unwrap_or("");
            let t = if c.get(1).is_some() {
                if accept {
                    g(1)
                } else {
                    ""
                }
            } else if c.get(2).is_some() {
                if accept {
                    ""
                } else {
                    g(2)
                }
            } else if c.get(3).is_some() {
                if accept {
                    g(4)
                } else {
                    g(3)
                }
            } else {
                g(5)
            };
            unescape(t)
        });
        unescape(&kept)
    }

    fn unescape(s: &str) -> String {
        let mut s = s.to_owned();
        for o in OPENERS {
            s = s.replace(&format!("&#123;{o}"), &format!("{{{o}"));
        }
        for c in CLOSERS {
            s = s.replace(&format!("{c}&#125;"), &format!("{c}}}"));
        }
        s.replace("~&gt;", "~>")
    }

    fn edit(text: &str, target: &str, nth: usize, replacement: &str) -> Edit {
        let start = text.match_indices(target).nth(nth).unwrap().0;
        Edit {
            range: start..start + target.len(),
            replacement: replacement.into(),
            author: "claude".into(),
            reason: Some("tighter".into()),
        }
    }

    fn note(text: &str, target: &str, body: &str) -> Note {
        let start = text.find(target).unwrap();
        Note {
            range: Some(start..start + target.len()),
            anchored_text: target.into(),
            comments: vec![
                Comment {
                    author: "ada".into(),
                    body: body.into(),
                },
                Comment {
                    author: "bob".into(),
                    body: "agreed\n\nsee above".into(),
                },
            ],
        }
    }

    #[test]
    fn each_kind_of_mark_as_the_spec_writes_it() {
        let text = "The cat sat on the mat.\n";
        let review = Annotations {
            edits: vec![
                edit(text, "cat", 0, "dog"),
                Edit {
                    range: 7..7,
                    replacement: " quietly".into(),
                    author: "claude".into(),
                    reason: None,
                },
                edit(text, " the", 0, ""),
            ],
            notes: vec![note(text, "mat", "Which mat?")],
            lost_edits: vec![],
        };
        assert_eq!(
            render(text, &review),
            "The {~~cat~>dog~~}{>>claude: tighter<<}{++ quietly++}{>>claude<<} sat on{-- the--}{>>claude: tighter<<} \
             {==mat==}{>>ada: Which mat?<<}{>>bob: agreed see above<<}.\n"
        );
    }

    #[test]
    fn the_texts_own_markup_is_not_read_as_marks_and_round_trips() {
        let text = "Use {++ and ++} for additions, {>>x<<} and a~>b; café 😀\r\nSecond {== line ==}\r\n";
        let review = Annotations {
            edits: vec![
                edit(text, "{++ and ++}", 0, "{-- x --} ~> y"),
                edit(text, "café", 0, "naïve 😀"),
            ],
            notes: vec![note(text, "{== line ==}", "<<} is a closer {++")],
            lost_edits: vec![],
        };
        let out = render(text, &review);
        // The reader sees exactly the marks made here: two changes and their
        // comments, one highlight and its two comments — no others.
        let marks = Regex::new(r"\{(\+\+|--|~~|==|>>)")
            .unwrap()
            .find_iter(&out)
            .count();
        assert_eq!(marks, 2 * 2 + 3, "{out}");
        assert_eq!(read(&out, false), text, "{out}");
        let accepted = text
            .replace("{++ and ++}", "{-- x --} ~> y")
            .replace("café", "naïve 😀");
        assert_eq!(read(&out, true), accepted, "{out}");
        assert!(out.contains("\r\nSecond"), "CRLF kept: {out:?}");
    }

    #[test]
    fn threads_touching_proposals_and_each_other_stay_readable() {
        let text = "alpha beta gamma delta\n";
        let review = Annotations {
            // beta gamma → B G; a thread on "alpha beta" overlaps it; one on
            // "delta"; one on "gamma delta" overlaps both.
            edits: vec![edit(text, "beta gamma", 0, "B G")],
            notes: vec![
                note(text, "alpha beta", "first"),
                note(text, "delta", "second"),
                note(text, "gamma delta", "third"),
            ],
            lost_edits: vec![],
        };
        let out = render(text, &review);
        assert_eq!(
            out,
            "alpha {~~beta gamma~>B G~~}{>>claude: tighter<<}{>>ada: first<<}{>>bob: agreed see above<<} \
             {==delta==}{>>ada: second<<}{>>bob: agreed see above<<}{>>ada: third<<}{>>bob: agreed see above<<}\n"
        );
        assert_eq!(read(&out, false), text);
        assert_eq!(read(&out, true), "alpha B G delta\n");
    }

    #[test]
    fn what_has_no_place_is_listed_after_the_text() {
        let text = "One line";
        let review = Annotations {
            edits: vec![edit(text, "One line", 0, "A line"), edit(text, "line", 0, "row")],
            notes: vec![Note {
                range: None,
                anchored_text: "gone words".into(),
                comments: vec![Comment {
                    author: "ada".into(),
                    body: "why?".into(),
                }],
            }],
            lost_edits: vec![LostEdit {
                target: "old".into(),
                replacement: "new".into(),
                author: "harper".into(),
                why: "its text changed".into(),
            }],
        };
        let out = render(text, &review);
        assert!(out.starts_with("{~~One line~>A line~~}"), "{out}");
        assert!(
            out.contains("\n\n{>>Proposal by claude not marked (it overlaps another): “line” → “row”<<}\n"),
            "{out}"
        );
        assert!(
            out.contains("{>>Proposal by harper not placed (its text changed): “old” → “new”<<}"),
            "{out}"
        );
        assert!(
            out.contains("{>>Thread not placed (its text is gone) on “gone words”: ada: why?<<}"),
            "{out}"
        );
        assert_eq!(read(&out, false).trim_end(), "One line");
    }

    #[test]
    fn no_review_is_the_text_escaped() {
        assert_eq!(render("a {==b==} c", &Annotations::default()), "a &#123;==b==} c");
        assert_eq!(render("", &Annotations::default()), "");
    }
}
