//! Pure: a document as one standalone HTML file — its Markdown rendered
//! (pulldown-cmark: tables, footnotes, strikethrough, task lists; YAML front
//! matter left out), sanitized (ammonia: no script, no event handler, no
//! `javascript:` link survives, whatever raw HTML the document holds), typeset
//! by an embedded style sheet, with a Content-Security-Policy that allows no
//! script at all. Nothing is fetched from the network: an image with a remote
//! address (a stranger's repository can plant one, in the text or in a
//! comment, as a read receipt) is shown as its alt text, marked "not loaded",
//! its `src` dropped and the page's policy allowing local images only — unless
//! the writer asks for remote images ([`Images::Remote`]).
//!
//! With review data, the pending proposals are shown in place (the target
//! struck through, the replacement inserted after it) and the open threads'
//! text highlighted with a numbered note; the notes (each thread's comments,
//! their Markdown rendered and sanitized too) and whatever has no place in the
//! text follow the document. Marks never overlap ([`super::annotations::Layout`]);
//! a mark that crosses Markdown elements is shown on each piece of text it covers.

use super::annotations::{Annotations, Layout, Mark};
use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};
use std::fmt::Write as _;

/// Which images an exported page may load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Images {
    /// Files beside the document and `data:` images; a remote one is its alt text.
    Local,
    /// Remote images too: opening the page contacts the servers they are on.
    Remote,
}

/// Whether an image's address is fetched from the network: it names a scheme
/// other than `file:` and `data:`, or starts with `//` (the page's own
/// scheme). A relative path is a file beside the document.
fn remote(url: &str) -> bool {
    // Leading blanks and controls are skipped, and `\` is read as `/`, as a
    // browser's URL parser does (`\\host/x` is `//host/x`).
    let u = url
        .trim_start_matches(|c: char| c.is_ascii_whitespace() || c.is_ascii_control())
        .replace('\\', "/");
    if u.starts_with("//") {
        return true;
    }
    match u.split_once(':') {
        Some((scheme, _))
            if scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)) =>
        {
            !scheme.eq_ignore_ascii_case("file") && !scheme.eq_ignore_ascii_case("data")
        }
        _ => false,
    }
}

/// `events` with each remote image (of [`Images::Local`]) turned into its alt
/// text in a "not loaded" mark: nothing in the page names the address.
fn local_images<'a, X>(
    events: impl Iterator<Item = (Event<'a>, X)>,
    images: Images,
) -> impl Iterator<Item = (Event<'a>, X)> {
    let mut depth = 0usize;
    events.map(move |(e, x)| match e {
        Event::Start(Tag::Image { ref dest_url, .. })
            if images == Images::Local && (depth > 0 || remote(dest_url)) =>
        {
            depth += 1;
            let open = if depth == 1 {
                "<span class=\"cw-image-off\" title=\"A remote image, not loaded\">[image: "
            } else {
                ""
            };
            (Event::Html(CowStr::Borrowed(open)), x)
        }
        Event::End(TagEnd::Image) if depth > 0 => {
            depth -= 1;
            let close = if depth == 0 { "]</span>" } else { "" };
            (Event::Html(CowStr::Borrowed(close)), x)
        }
        e => (e, x),
    })
}

/// The Markdown a document is read as.
fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
}

/// The document's title: its front matter's `title:`, else its first
/// heading's text, else `fallback` (the file's name).
pub fn title(text: &str, fallback: &str) -> String {
    let mut in_meta = false;
    let mut heading: Option<String> = None;
    for event in Parser::new_ext(text, options()) {
        match event {
            Event::Start(Tag::MetadataBlock(_)) => in_meta = true,
            Event::End(TagEnd::MetadataBlock(_)) => in_meta = false,
            Event::Text(t) if in_meta => {
                let found = t
                    .lines()
                    .find_map(|l| l.strip_prefix("title:"))
                    .map(|v| v.trim().trim_matches(|c| c == '"' || c == '\'').trim().to_owned());
                if let Some(v) = found.filter(|v| !v.is_empty()) {
                    return v;
                }
            }
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some(h) = heading.take().map(|h| h.trim().to_owned()) {
                    if !h.is_empty() {
                        return h;
                    }
                }
            }
            _ => {}
        }
    }
    fallback.to_owned()
}

/// The standalone page of `text`, titled [`title`]; with `review`, its
/// review data shown (see the module docs).
pub fn render(text: &str, fallback_title: &str, review: Option<&Annotations>, images: Images) -> String {
    let title = title(text, fallback_title);
    let mut body = match review {
        Some(r) => with_review(text, r, images),
        None => markdown(text, images),
    };
    body = sanitizer(images).clean(&body).to_string();
    let mut page = String::with_capacity(body.len() + CSS.len() + 512);
    page.push_str("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n");
    page.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    // No script may run, whatever the sanitizer let through; styles are
    // this page's own; images are local ones unless remote ones were asked for.
    let img_src = match images {
        Images::Local => "data: file:",
        Images::Remote => "* data: file:",
    };
    let _ = writeln!(
        page,
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src {img_src}\">"
    );
    page.push_str("<meta name=\"generator\" content=\"Cowriting\">\n");
    let _ = writeln!(page, "<title>{}</title>", escape(&title));
    let _ = writeln!(page, "<style>\n{CSS}</style>\n</head>\n<body>");
    let class = if review.is_some() {
        "doc with-review"
    } else {
        "doc"
    };
    let _ = writeln!(page, "<main class=\"{class}\">\n{body}</main>\n</body>\n</html>");
    page
}

/// Markdown to HTML, unsanitized.
fn markdown(text: &str, images: Images) -> String {
    let mut out = String::with_capacity(text.len() * 3 / 2);
    let events = local_images(Parser::new_ext(text, options()).map(|e| (e, ())), images).map(|(e, ())| e);
    pulldown_cmark::html::push_html(&mut out, events);
    out
}

/// `s` as HTML text.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The note number of each thread, in the order the reader meets them: the
/// placed ones in text order, then those not placed.
fn note_numbers(review: &Annotations, layout: &Layout) -> Vec<usize> {
    let mut number = vec![0; review.notes.len()];
    let placed = layout.placed.iter().filter_map(|p| match p.mark {
        Mark::Highlight(i) | Mark::Comment(i) => Some(i),
        Mark::Edit(_) => None,
    });
    for (n, i) in (1..).zip(placed.chain(layout.unplaced_notes.iter().copied())) {
        number[i] = n;
    }
    number
}

/// The document's HTML with the review in place, and the notes after it.
fn with_review(text: &str, review: &Annotations, images: Images) -> String {
    let layout = Layout::of(review, text.len());
    let numbers = note_numbers(review, &layout);
    // What each mark leaves after the text it covers, by where it ends.
    let mut ends: Vec<(usize, usize)> = layout
        .placed
        .iter()
        .enumerate()
        .map(|(k, p)| (p.range.end, k))
        .collect();
    ends.sort();
    let mut w = Writer {
        text,
        review,
        layout: &layout,
        numbers: &numbers,
        ends,
        next_end: 0,
        out: Vec::new(),
    };
    for (event, range) in local_images(Parser::new_ext(text, options()).into_offset_iter(), images) {
        match event {
            Event::Text(t) if text.get(range.clone()) == Some(&*t) => w.text_at(range),
            e @ (Event::Text(_) | Event::Code(_) | Event::InlineMath(_) | Event::DisplayMath(_)) => {
                w.flush(range.start);
                w.wrapped(e, range.clone());
                w.flush(range.end);
            }
            // After an inline element the next event places what a mark
            // leaves (outside the element); a block's end places it inside.
            e @ Event::End(
                TagEnd::Emphasis
                | TagEnd::Strong
                | TagEnd::Strikethrough
                | TagEnd::Link
                | TagEnd::Image
                | TagEnd::Superscript
                | TagEnd::Subscript,
            ) => w.out.push(e),
            e @ Event::End(_) => {
                w.flush(range.end);
                w.out.push(e);
            }
            e => {
                w.flush(range.start);
                w.out.push(e);
            }
        }
    }
    w.flush(usize::MAX);
    let mut html = String::with_capacity(text.len() * 2);
    pulldown_cmark::html::push_html(&mut html, w.out.into_iter());
    html.push_str(&notes_section(text, review, &layout, &numbers, images));
    html
}

struct Writer<'a> {
    text: &'a str,
    review: &'a Annotations,
    layout: &'a Layout,
    numbers: &'a [usize],
    /// `(end, index into layout.placed)`, sorted.
    ends: Vec<(usize, usize)>,
    next_end: usize,
    out: Vec<Event<'a>>,
}

impl<'a> Writer<'a> {
    /// The mark covering the non-empty bytes `a..b`, if any.
    fn covering(&self, a: usize, b: usize) -> Option<Mark> {
        self.layout
            .placed
            .iter()
            .find(|p| !p.range.is_empty() && p.range.start < b && a < p.range.end)
            .map(|p| p.mark)
    }

    fn html(&mut self, s: String) {
        self.out.push(Event::InlineHtml(CowStr::from(s)));
    }

    /// What each mark ending at or before `at` leaves after its text.
    fn flush(&mut self, at: usize) {
        while let Some(&(end, k)) = self.ends.get(self.next_end) {
            if end > at {
                break;
            }
            self.next_end += 1;
            let s = match self.layout.placed[k].mark {
                Mark::Edit(i) => {
                    let e = &self.review.edits[i];
                    if e.replacement.is_empty() {
                        continue;
                    }
                    format!(
                        "<ins class=\"cw-ins\" title=\"{}\">{}</ins>",
                        escape(&who(&e.author, e.reason.as_deref())),
                        escape(&e.replacement)
                    )
                }
                Mark::Highlight(i) | Mark::Comment(i) => {
                    let n = self.numbers[i];
                    format!("<sup class=\"cw-ref\"><a href=\"#cw-note-{n}\" id=\"cw-ref-{n}\">{n}</a></sup>")
                }
            };
            self.html(s);
        }
    }

    fn open(&mut self, mark: Mark) {
        let s = match mark {
            Mark::Edit(i) => {
                let e = &self.review.edits[i];
                format!(
                    "<del class=\"cw-del\" title=\"{}\">",
                    escape(&who(&e.author, e.reason.as_deref()))
                )
            }
            _ => "<mark class=\"cw-thread\">".to_owned(),
        };
        self.html(s);
    }

    fn close(&mut self, mark: Mark) {
        self.html(match mark {
            Mark::Edit(_) => "</del>".to_owned(),
            _ => "</mark>".to_owned(),
        });
    }

    /// An event that is one piece (code, a text whose source is not its text):
    /// inside the mark it touches, if any.
    fn wrapped(&mut self, e: Event<'a>, range: std::ops::Range<usize>) {
        match self.covering(range.start, range.end) {
            Some(m) => {
                self.open(m);
                self.out.push(e);
                self.close(m);
            }
            None => self.out.push(e),
        }
    }

    /// A text that is its source bytes `range`: cut where marks start and end.
    fn text_at(&mut self, range: std::ops::Range<usize>) {
        let mut cuts: Vec<usize> = self
            .layout
            .placed
            .iter()
            .flat_map(|p| [p.range.start, p.range.end])
            .filter(|&c| range.start < c && c < range.end)
            .collect();
        cuts.push(range.end);
        cuts.sort_unstable();
        cuts.dedup();
        let mut a = range.start;
        self.flush(a);
        for b in cuts {
            let piece = Event::Text(CowStr::Borrowed(&self.text[a..b]));
            self.wrapped(piece, a..b);
            self.flush(b);
            a = b;
        }
    }
}

/// "claude (sonnet): tighter".
fn who(author: &str, reason: Option<&str>) -> String {
    match reason.map(str::trim).filter(|r| !r.is_empty()) {
        Some(r) => format!("Proposed by {author}: {r}"),
        None => format!("Proposed by {author}"),
    }
}

/// The notes after the document: each thread's comments, and what has no
/// place in the text.
fn notes_section(
    text: &str,
    review: &Annotations,
    layout: &Layout,
    numbers: &[usize],
    images: Images,
) -> String {
    let placed_edits = layout
        .placed
        .iter()
        .filter(|p| matches!(p.mark, Mark::Edit(_)))
        .count();
    let mut s = String::from("<section class=\"cw-review\">\n<h2>Annotations</h2>\n");
    let _ = writeln!(
        s,
        "<p class=\"cw-summary\">{} shown in place (<del>removed</del> <ins>inserted</ins>); {} with {} (<mark>highlighted</mark>, numbered).</p>",
        count(placed_edits, "pending proposal", "pending proposals"),
        count(review.notes.len(), "open thread", "open threads"),
        if review.notes.len() == 1 { "its comments" } else { "their comments" },
    );
    let mut order: Vec<usize> = (0..review.notes.len()).collect();
    order.sort_by_key(|&i| numbers[i]);
    if !order.is_empty() {
        s.push_str("<ol class=\"cw-notes\">\n");
        for i in order {
            let n = &review.notes[i];
            let num = numbers[i];
            let _ = write!(s, "<li id=\"cw-note-{num}\">");
            if n.range.is_none() {
                s.push_str("<p class=\"cw-lost\">Not placed: its text is gone.</p>");
            }
            let _ = write!(
                s,
                "<blockquote class=\"cw-quote\">{}</blockquote>",
                escape(&n.anchored_text)
            );
            for c in &n.comments {
                let _ = write!(
                    s,
                    "<div class=\"cw-comment\"><p class=\"cw-author\">{}</p>{}</div>",
                    escape(&c.author),
                    markdown(&c.body, images)
                );
            }
            if n.range.is_some() {
                let _ = write!(
                    s,
                    "<p class=\"cw-back\"><a href=\"#cw-ref-{num}\">↩ back to the text</a></p>"
                );
            }
            s.push_str("</li>\n");
        }
        s.push_str("</ol>\n");
    }
    let mut lost: Vec<String> = layout
        .overlapping_edits
        .iter()
        .map(|&i| {
            let e = &review.edits[i];
            format!(
                "{}: <del>{}</del> → <ins>{}</ins> (overlaps a proposal shown in place)",
                escape(&e.author),
                escape(text.get(e.range.clone()).unwrap_or_default()),
                escape(&e.replacement)
            )
        })
        .collect();
    lost.extend(review.lost_edits.iter().map(|e| {
        format!(
            "{}: <del>{}</del> → <ins>{}</ins> ({})",
            escape(&e.author),
            escape(&e.target),
            escape(&e.replacement),
            escape(&e.why)
        )
    }));
    if !lost.is_empty() {
        s.push_str("<h3>Proposals not shown in place</h3>\n<ul class=\"cw-lost-edits\">\n");
        for l in lost {
            let _ = writeln!(s, "<li>{l}</li>");
        }
        s.push_str("</ul>\n");
    }
    s.push_str("</section>\n");
    s
}

fn count(n: usize, one: &str, many: &str) -> String {
    match n {
        0 => format!("no {many}"),
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// The sanitizer: ammonia's defaults (no script, style, event handler,
/// `javascript:` URL, form or frame), plus what rendered Markdown and the
/// review marks need: ids and classes (footnotes, notes), task list
/// checkboxes, table cells' alignment.
fn sanitizer(images: Images) -> ammonia::Builder<'static> {
    let mut b = ammonia::Builder::default();
    if images == Images::Local {
        // Raw HTML's <img> (Markdown's images are turned into their alt text
        // before this): a remote address is dropped, never fetched.
        b.attribute_filter(|element, attribute, value| {
            let fetched = matches!(attribute, "src" | "srcset" | "poster" | "background");
            if fetched && remote(value) {
                let _ = element;
                None
            } else {
                Some(value.into())
            }
        });
    }
    b.add_tags(["input", "section", "main"])
        .add_generic_attributes(["id", "class", "title"])
        .add_tag_attributes("input", ["type", "checked", "disabled"])
        .add_tag_attributes("th", ["style"])
        .add_tag_attributes("td", ["style"])
        .filter_style_properties(["text-align"].into_iter().collect())
        // No link opens a window (no `target` is allowed), so none needs `noopener`.
        .link_rel(None);
    b
}

/// The page's style: a book-like text column, quiet headings, tables and
/// code that read on screen and on paper; the review marks in the app's colours.
const CSS: &str = r#"
:root { color-scheme: light; }
html { font-size: 17px; }
body { margin: 0; background: #fff; color: #1f2328;
  font-family: "Iowan Old Style", "Palatino Linotype", Palatino, "Book Antiqua", Georgia, "DejaVu Serif", serif;
  line-height: 1.6; text-rendering: optimizeLegibility; font-kerning: normal; hyphens: auto; }
main.doc { max-width: 38em; margin: 0 auto; padding: 3.5em 1.5em 5em; }
h1, h2, h3, h4, h5, h6 { font-family: system-ui, -apple-system, "Segoe UI", "Helvetica Neue", "DejaVu Sans", sans-serif;
  line-height: 1.25; margin: 1.8em 0 0.6em; font-weight: 650; break-after: avoid; }
h1 { font-size: 2em; margin-top: 0; } h2 { font-size: 1.45em; } h3 { font-size: 1.2em; } h4, h5, h6 { font-size: 1em; }
p, ul, ol, dl, table, pre, blockquote, figure { margin: 0 0 1em; }
a { color: #0b5cad; text-decoration-thickness: 0.06em; text-underline-offset: 0.15em; }
img { max-width: 100%; height: auto; }
.cw-image-off { color: #57606a; font-style: italic; }
hr { border: 0; border-top: 1px solid #d0d7de; margin: 2em 0; }
blockquote { margin-left: 0; padding: 0 0 0 1em; border-left: 3px solid #d0d7de; color: #57606a; }
code, pre, kbd { font-family: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.86em; }
code { background: #f3f4f6; padding: 0.1em 0.3em; border-radius: 4px; }
pre { background: #f6f8fa; padding: 0.9em 1em; border-radius: 6px; overflow-x: auto; line-height: 1.45; }
pre code { background: none; padding: 0; font-size: 1em; }
table { border-collapse: collapse; display: block; overflow-x: auto; font-size: 0.94em; }
th, td { border: 1px solid #d0d7de; padding: 0.35em 0.7em; }
th { background: #f6f8fa; font-weight: 600; }
li > p { margin-bottom: 0.4em; }
li:has(> input[type=checkbox]) { list-style: none; margin-left: -1.3em; }
input[type=checkbox] { margin: 0 0.45em 0 0; vertical-align: -0.1em; }
.footnote-definition { font-size: 0.9em; color: #57606a; display: flex; gap: 0.5em; }
.footnote-definition p { margin: 0; }
sup { line-height: 0; }
del.cw-del, .cw-review del { color: #a40e26; background: #ffebe9; text-decoration-color: #a40e26; }
ins.cw-ins, .cw-review ins { color: #116329; background: #dafbe1; text-decoration: none; white-space: pre-wrap; }
mark.cw-thread, .cw-review mark { background: #fff5b1; border-bottom: 2px solid #d4a72c; color: inherit; }
sup.cw-ref a { font-family: system-ui, sans-serif; font-size: 0.72em; font-weight: 600; color: #9a6700; text-decoration: none; padding: 0 0.1em; }
.cw-review { margin-top: 3em; padding-top: 1em; border-top: 2px solid #d0d7de; font-size: 0.92em; }
.cw-review h2 { margin-top: 0; }
.cw-summary { color: #57606a; }
.cw-notes { padding-left: 1.6em; }
.cw-notes > li { margin-bottom: 1.2em; }
.cw-quote { font-style: italic; margin-bottom: 0.5em; }
.cw-comment { margin: 0 0 0.5em; }
.cw-comment > :last-child { margin-bottom: 0; }
.cw-author { font-family: system-ui, sans-serif; font-weight: 600; font-size: 0.9em; margin: 0; color: #1f2328; }
.cw-back, .cw-lost { font-family: system-ui, sans-serif; font-size: 0.85em; margin: 0; color: #57606a; }
.cw-back a { color: #57606a; }
@page { margin: 20mm 18mm; }
@media print {
  html { font-size: 11pt; }
  main.doc { max-width: none; padding: 0; }
  a { color: inherit; }
  pre, blockquote, table, figure, img { break-inside: avoid; }
  .cw-back { display: none; }
}
"#;

#[cfg(test)]
mod tests {
    use super::super::annotations::{Comment, Edit, Note};
    use super::*;

    #[test]
    fn the_title_is_the_front_matters_then_the_first_headings_then_the_name() {
        assert_eq!(title("---\ntitle: \"An Essay\"\n---\n# Other\n", "f"), "An Essay");
        assert_eq!(
            title("Intro\n\n## The `real` title\n\n# Later\n", "f"),
            "The real title"
        );
        assert_eq!(title("Setext\n======\n", "f"), "Setext");
        assert_eq!(title("no heading here\n", "notes"), "notes");
    }

    #[test]
    fn a_clean_page_is_standalone_typeset_and_has_no_script() {
        let text = "# Tale <i>of</i> two\n\nSome *text* with ~~struck~~ words[^1].\n\n\
                    | a | b |\n|:--|--:|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo\n\n\
                    [^1]: A footnote.\n\n<script>alert(1)</script>\n\n<img src=x onerror=\"alert(2)\">\n\n\
                    [link](javascript:alert(3)) <a href=\"#\" onclick=\"alert(4)\">a</a>\n\n<style>body{display:none}</style>\n";
        let page = render(text, "tale", None, Images::Remote);
        assert!(
            page.starts_with("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">"),
            "{page}"
        );
        assert!(page.contains("<title>Tale of two</title>"), "{page}");
        assert!(page.contains("default-src 'none'"), "{page}");
        assert!(page.contains("<style>\n\n:root"), "{page}");
        let body = &page[page.find("<main").unwrap()..];
        for bad in ["<script", "alert", "onerror", "onclick", "javascript:", "<style"] {
            assert!(!body.contains(bad), "{bad} in {body}");
        }
        assert!(body.contains("<del>struck</del>"), "{body}");
        assert!(body.contains("<table>"), "{body}");
        assert!(body.contains("style=\"text-align:left\""), "{body}");
        assert!(
            body.contains("<input") && body.contains("checked") && body.contains("type=\"checkbox\""),
            "{body}"
        );
        assert!(body.contains("class=\"footnote-definition\""), "{body}");
        assert!(body.contains("<img src=\"x\">"), "{body}");
        assert!(!body.contains("cw-review"), "clean copy: {body}");
    }

    #[test]
    fn remote_images_are_their_alt_text_unless_asked_for() {
        let text = "# T\n\n![chart](https://tracker.example/c.png) ![local](img/a.png) ![mixed](HTTP://x.example/a)\n\n\
                    ![proto](//cdn.example/a.png)\n\n\
                    <img src=\"https://tracker.example/raw.png\" alt=\"raw\"> <img src=\" https://tracker.example/sp.png\">\n";
        let page = render(text, "t", None, Images::Local);
        let body = &page[page.find("<main").unwrap()..];
        assert!(!body.contains("example"), "no remote address left: {body}");
        assert!(body.contains("[image: chart]"), "{body}");
        assert!(
            body.contains("[image: mixed]") && body.contains("[image: proto]"),
            "{body}"
        );
        assert!(body.contains("<img src=\"img/a.png\" alt=\"local\">"), "{body}");
        for (url, fetched) in [
            ("https://x/a.png", true),
            ("  HTTP://x/a.png", true),
            ("//x/a.png", true),
            ("\\\\x\\a.png", true),
            ("ftp://x/a", true),
            ("img/a.png", false),
            ("/abs/a.png", false),
            ("file:///a.png", false),
            ("data:image/png;base64,AA", false),
            ("a:b/c.png", true),
            ("c.png?x=1:2", false),
        ] {
            assert_eq!(remote(url), fetched, "{url}");
        }
        assert!(
            page.contains("img-src data: file:\""),
            "the policy allows local images only: {page}"
        );
        let asked = render(text, "t", None, Images::Remote);
        assert!(asked.contains("src=\"https://tracker.example/c.png\""), "{asked}");
        assert!(asked.contains("img-src * data: file:"), "{asked}");
        // A comment's image, in the review's notes, likewise.
        let r = Annotations {
            edits: vec![],
            notes: vec![Note {
                range: None,
                anchored_text: "gone".into(),
                comments: vec![Comment {
                    author: "ada".into(),
                    body: "look ![pixel](https://tracker.example/p.gif)".into(),
                }],
            }],
            lost_edits: vec![],
        };
        let page = render(text, "t", Some(&r), Images::Local);
        assert!(!page.contains("tracker.example"), "{page}");
        assert!(page.contains("[image: pixel]"), "{page}");
    }

    fn review(text: &str) -> Annotations {
        let at = |s: &str| {
            let i = text.find(s).unwrap();
            i..i + s.len()
        };
        Annotations {
            edits: vec![
                Edit {
                    range: at("quick"),
                    replacement: "slow <b>".into(),
                    author: "claude (sonnet)".into(),
                    reason: Some("pace".into()),
                },
                Edit {
                    range: at("fox jumps"),
                    replacement: "".into(),
                    author: "harper".into(),
                    reason: None,
                },
            ],
            notes: vec![
                Note {
                    range: Some(at("lazy **dog**")),
                    anchored_text: "lazy **dog**".into(),
                    comments: vec![Comment {
                        author: "ada".into(),
                        body: "Which *dog*? <script>alert(5)</script>".into(),
                    }],
                },
                Note {
                    range: None,
                    anchored_text: "gone".into(),
                    comments: vec![Comment {
                        author: "bob".into(),
                        body: "lost".into(),
                    }],
                },
            ],
            lost_edits: vec![],
        }
    }

    #[test]
    fn a_review_copy_marks_proposals_and_threads_in_place() {
        let text = "# Title\n\nThe quick brown fox jumps over the lazy **dog**. 😀\r\n";
        let page = render(text, "t", Some(&review(text)), Images::Local);
        let body = &page[page.find("<main").unwrap()..];
        assert!(
            body.contains("The <del class=\"cw-del\" title=\"Proposed by claude (sonnet): pace\">quick</del><ins class=\"cw-ins\" title=\"Proposed by claude (sonnet): pace\">slow &lt;b&gt;</ins> brown "),
            "{body}"
        );
        assert!(
            body.contains("<del class=\"cw-del\" title=\"Proposed by harper\">fox jumps</del> over"),
            "{body}"
        );
        // A thread over emphasis: each piece of its text highlighted, one note after.
        assert!(
            body.contains("<mark class=\"cw-thread\">lazy </mark><strong><mark class=\"cw-thread\">dog</mark></strong><sup class=\"cw-ref\"><a href=\"#cw-note-1\" id=\"cw-ref-1\">1</a></sup>. 😀"),
            "{body}"
        );
        assert!(body.contains("<li id=\"cw-note-1\">"), "{body}");
        assert!(body.contains("<em>dog</em>"), "comment Markdown rendered: {body}");
        assert!(
            body.contains("<li id=\"cw-note-2\"><p class=\"cw-lost\">Not placed"),
            "{body}"
        );
        assert!(!body.contains("<script") && !body.contains("alert"), "{body}");
        assert!(body.contains("2 pending proposals shown in place"), "{body}");
    }

    #[test]
    fn marks_in_code_and_across_paragraphs() {
        let text = "Use `let x` here.\n\nNext para.\n";
        let r = Annotations {
            notes: vec![Note {
                range: Some(text.find("x` here.").unwrap()..text.find("Next").unwrap() + 4),
                anchored_text: "x".into(),
                comments: vec![],
            }],
            ..Annotations::default()
        };
        let page = render(text, "t", Some(&r), Images::Local);
        let body = &page[page.find("<main").unwrap()..];
        assert!(body.contains("<mark class=\"cw-thread\"><code>let x</code></mark><mark class=\"cw-thread\"> here.</mark></p>"), "{body}");
        assert!(
            body.contains("<p><mark class=\"cw-thread\">Next</mark><sup class=\"cw-ref\">"),
            "{body}"
        );
    }
}
