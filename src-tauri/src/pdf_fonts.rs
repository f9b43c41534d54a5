//! The fonts of a printed PDF cut down to the glyphs it shows.
//!
//! WebKitGTK prints through Skia, which on Debian embeds every font it uses
//! whole (its subsetter is not built in): a one-page essay carried DejaVu Sans
//! Bold and DejaVu Serif in full, 560 of its 570 KB. Skia writes each font as a
//! `Type0` font with `Identity-H` encoding over a `CIDFontType2` whose
//! `CIDToGIDMap` is `Identity`, so the two-byte codes of the page's text
//! operators are glyph ids. Those ids are collected from every content stream
//! (pages and the form XObjects they draw), and each `FontFile2` is cut with
//! `subsetter`, which keeps glyph ids as they are: the content streams stay
//! byte-identical.
//!
//! Anything this does not fully understand is left as printed: a font of
//! another shape is not touched; a content stream that does not parse, text
//! shown in a font not found, or any error leaves the whole PDF as it was.

use lopdf::content::Content;
use lopdf::{Dictionary, Document, Object, ObjectId};
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// `pdf` with its embedded TrueType fonts cut to the glyphs its pages show,
/// or `pdf` itself when it cannot be (or is no smaller).
pub fn subset_fonts(pdf: Vec<u8>) -> Vec<u8> {
    match subset(&pdf) {
        Ok(Some(smaller)) if smaller.len() < pdf.len() => smaller,
        Ok(_) => pdf,
        Err(e) => {
            eprintln!("cowriting: the PDF keeps its fonts whole: {e}");
            pdf
        }
    }
}

type Failure = Box<dyn std::error::Error>;

fn subset(pdf: &[u8]) -> Result<Option<Vec<u8>>, Failure> {
    let mut doc = Document::load_mem(pdf)?;
    if doc.is_encrypted() {
        return Ok(None);
    }
    // Glyph ids shown, per font dictionary.
    let mut shown: BTreeMap<ObjectId, BTreeSet<u16>> = BTreeMap::new();
    let mut seen_forms = HashSet::new();
    for page in doc.get_pages().into_values() {
        let fonts = page_fonts(&doc, page)?;
        let content = doc.get_page_content(page);
        collect(
            &doc,
            &content,
            &fonts,
            &page_xobjects(&doc, page),
            &mut shown,
            &mut seen_forms,
        )?;
    }
    // Glyph ids, per embedded font program (two fonts may share one).
    let mut programs: BTreeMap<ObjectId, BTreeSet<u16>> = BTreeMap::new();
    for (font, glyphs) in shown {
        if let Some(file) = identity_truetype(&doc, font) {
            programs.entry(file).or_default().extend(glyphs);
        }
    }
    if programs.is_empty() {
        return Ok(None);
    }
    for (file, mut glyphs) in programs {
        glyphs.insert(0); // .notdef, which every font keeps
        let glyphs: Vec<u16> = glyphs.into_iter().collect();
        let stream = doc.get_object_mut(file)?.as_stream_mut()?;
        let whole = stream
            .decompressed_content()
            .or_else(|_| stream.get_plain_content())?;
        let cut = subsetter::subset(&whole, 0, subsetter::Profile::pdf(&glyphs))?;
        stream.dict.set("Length1", cut.len() as i64);
        stream.set_plain_content(cut);
        stream.compress()?;
    }
    let mut out = Vec::with_capacity(pdf.len() / 4);
    doc.save_to(&mut out)?;
    Ok(Some(out))
}

/// The fonts a resource dictionary names: resource name → font object.
fn fonts_of(doc: &Document, resources: &Dictionary, into: &mut BTreeMap<Vec<u8>, ObjectId>) {
    let Ok(fonts) = resources.get(b"Font").and_then(|f| doc.dereference(f)) else {
        return;
    };
    if let Ok(fonts) = fonts.1.as_dict() {
        for (name, font) in fonts.iter() {
            if let Ok(id) = font.as_reference() {
                into.entry(name.clone()).or_insert(id);
            }
        }
    }
}

/// The form and image XObjects a resource dictionary names.
fn xobjects_of(doc: &Document, resources: &Dictionary, into: &mut BTreeMap<Vec<u8>, ObjectId>) {
    let Ok(xobjects) = resources.get(b"XObject").and_then(|x| doc.dereference(x)) else {
        return;
    };
    if let Ok(xobjects) = xobjects.1.as_dict() {
        for (name, x) in xobjects.iter() {
            if let Ok(id) = x.as_reference() {
                into.entry(name.clone()).or_insert(id);
            }
        }
    }
}

fn page_resources(doc: &Document, page: ObjectId) -> Result<Vec<&Dictionary>, Failure> {
    let (inline, ids) = doc.get_page_resources(page)?;
    let mut all: Vec<&Dictionary> = inline.into_iter().collect();
    for id in ids {
        all.push(doc.get_dictionary(id)?);
    }
    Ok(all)
}

fn page_fonts(doc: &Document, page: ObjectId) -> Result<BTreeMap<Vec<u8>, ObjectId>, Failure> {
    let mut fonts = BTreeMap::new();
    for r in page_resources(doc, page)? {
        fonts_of(doc, r, &mut fonts);
    }
    Ok(fonts)
}

fn page_xobjects(doc: &Document, page: ObjectId) -> BTreeMap<Vec<u8>, ObjectId> {
    let mut xobjects = BTreeMap::new();
    for r in page_resources(doc, page).unwrap_or_default() {
        xobjects_of(doc, r, &mut xobjects);
    }
    xobjects
}

/// The glyph ids `content` shows, added to `shown` per font; form XObjects
/// it draws are read too, with their own resources.
fn collect(
    doc: &Document,
    content: &[u8],
    fonts: &BTreeMap<Vec<u8>, ObjectId>,
    xobjects: &BTreeMap<Vec<u8>, ObjectId>,
    shown: &mut BTreeMap<ObjectId, BTreeSet<u16>>,
    seen_forms: &mut HashSet<ObjectId>,
) -> Result<(), Failure> {
    let content = Content::decode_strict(content)?;
    let mut font: Option<ObjectId> = None;
    for op in &content.operations {
        let strings: Vec<&Object> = match (op.operator.as_str(), op.operands.as_slice()) {
            ("Tf", [name, _size]) => {
                let name = name.as_name()?;
                font = Some(*fonts.get(name).ok_or("text in a font the page does not name")?);
                continue;
            }
            ("Tj" | "'", [.., s]) | ("\"", [_, _, s]) => vec![s],
            ("TJ", [array]) => array
                .as_array()?
                .iter()
                .filter(|o| matches!(o, Object::String(..)))
                .collect(),
            ("Do", [name]) => {
                let Some(&id) = xobjects.get(name.as_name()?) else {
                    continue;
                };
                let Ok(form) = doc.get_object(id).and_then(Object::as_stream) else {
                    continue;
                };
                let is_form = form
                    .dict
                    .get(b"Subtype")
                    .and_then(Object::as_name)
                    .is_ok_and(|s| s == b"Form");
                if !is_form || !seen_forms.insert(id) {
                    continue;
                }
                let (mut inner_fonts, mut inner_x) = (BTreeMap::new(), BTreeMap::new());
                if let Ok((_, r)) = form.dict.get(b"Resources").and_then(|r| doc.dereference(r)) {
                    if let Ok(r) = r.as_dict() {
                        fonts_of(doc, r, &mut inner_fonts);
                        xobjects_of(doc, r, &mut inner_x);
                    }
                }
                let body = form
                    .decompressed_content()
                    .or_else(|_| form.get_plain_content())?;
                collect(doc, &body, &inner_fonts, &inner_x, shown, seen_forms)?;
                continue;
            }
            _ => continue,
        };
        let font = font.ok_or("text shown before a font is chosen")?;
        let glyphs = shown.entry(font).or_default();
        for s in strings {
            for pair in s.as_str()?.chunks(2) {
                // (A lone last byte cannot be an Identity-H code: it keeps the
                // font's glyph 0-255 range that byte could name.)
                match pair {
                    [hi, lo] => glyphs.insert(u16::from_be_bytes([*hi, *lo])),
                    [b] => glyphs.insert(u16::from(*b)),
                    _ => false,
                };
            }
        }
    }
    Ok(())
}

/// The `FontFile2` of `font` when it is the shape Skia writes (Type0,
/// Identity-H, a CIDFontType2 with an identity CID-to-glyph map), else `None`.
fn identity_truetype(doc: &Document, font: ObjectId) -> Option<ObjectId> {
    let name = |d: &Dictionary, key: &[u8]| d.get(key).and_then(Object::as_name).ok().map(<[u8]>::to_vec);
    let font = doc.get_dictionary(font).ok()?;
    if name(font, b"Subtype")? != b"Type0" || name(font, b"Encoding")? != b"Identity-H" {
        return None;
    }
    let descendants = doc
        .dereference(font.get(b"DescendantFonts").ok()?)
        .ok()?
        .1
        .as_array()
        .ok()?;
    let [cid] = descendants.as_slice() else {
        return None;
    };
    let cid = doc.dereference(cid).ok()?.1.as_dict().ok()?;
    if name(cid, b"Subtype")? != b"CIDFontType2" || name(cid, b"CIDToGIDMap")? != b"Identity" {
        return None;
    }
    let descriptor = doc
        .dereference(cid.get(b"FontDescriptor").ok()?)
        .ok()?
        .1
        .as_dict()
        .ok()?;
    descriptor.get(b"FontFile2").ok()?.as_reference().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::{dictionary, Stream};
    use std::process::Command;

    const SERIF: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf";
    const BOLD: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

    /// A one-page PDF in Skia's shape: two Type0/Identity-H fonts embedded
    /// whole, text in both, some of it drawn from a form XObject.
    fn printed_like_skia() -> Vec<u8> {
        let mut doc = Document::with_version("1.4");
        let mut font = |path: &str, base: &str| {
            let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path} (fonts-dejavu-core): {e}"));
            let mut file = Stream::new(dictionary! { "Length1" => bytes.len() as i64 }, bytes);
            file.compress().unwrap();
            let file = doc.add_object(file);
            let descriptor = doc.add_object(dictionary! {
                "Type" => "FontDescriptor", "FontName" => base, "Flags" => 4,
                "FontBBox" => vec![(-1000).into(), (-400).into(), 2000.into(), 1000.into()],
                "ItalicAngle" => 0, "Ascent" => 928, "Descent" => -236, "CapHeight" => 700, "StemV" => 80,
                "FontFile2" => file,
            });
            let cid = doc.add_object(dictionary! {
                "Type" => "Font", "Subtype" => "CIDFontType2", "BaseFont" => base,
                "CIDSystemInfo" => dictionary! { "Registry" => Object::string_literal("Adobe"),
                    "Ordering" => Object::string_literal("Identity"), "Supplement" => 0 },
                "FontDescriptor" => descriptor, "CIDToGIDMap" => "Identity", "DW" => 600,
            });
            doc.add_object(dictionary! {
                "Type" => "Font", "Subtype" => "Type0", "BaseFont" => base,
                "Encoding" => "Identity-H", "DescendantFonts" => vec![cid.into()],
            })
        };
        let (f1, f2) = (
            font(SERIF, "AAAAAA+DejaVuSerif"),
            font(BOLD, "BAAAAA+DejaVuSans-Bold"),
        );
        // Glyph ids 36..=61 are A..Z in DejaVu, 68..=93 a..z.
        let form = doc.add_object(Stream::new(
            dictionary! { "Type" => "XObject", "Subtype" => "Form",
            "BBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
            "Resources" => dictionary! { "Font" => dictionary! { "G" => f2 } } },
            b"BT /G 30 Tf 72 500 Td <0037004B0048> Tj ET".to_vec(),
        ));
        let page_content = doc.add_object(Stream::new(
            dictionary! {},
            b"BT /F 24 Tf 72 700 Td <002B00480052004F> Tj 0 -40 Td [<0027>-120<005200580045>] TJ ET /X Do"
                .to_vec(),
        ));
        let pages = doc.new_object_id();
        let page = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages, "Contents" => page_content,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
            "Resources" => dictionary! { "Font" => dictionary! { "F" => f1 }, "XObject" => dictionary! { "X" => form } },
        });
        doc.objects.insert(
            pages,
            Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1 }),
        );
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages });
        doc.trailer.set("Root", catalog);
        let mut out = Vec::new();
        doc.save_to(&mut out).unwrap();
        out
    }

    /// The page drawn by poppler, as a greyscale bitmap.
    fn render(pdf: &[u8], dir: &std::path::Path, name: &str) -> Vec<u8> {
        let file = dir.join(format!("{name}.pdf"));
        std::fs::write(&file, pdf).unwrap();
        let out = Command::new("pdftoppm")
            .args(["-r", "40", "-gray", "-singlefile"])
            .arg(&file)
            .arg(dir.join(name))
            .output()
            .expect("pdftoppm (poppler-utils) runs");
        assert!(
            out.status.success(),
            "pdftoppm: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read(dir.join(format!("{name}.pgm"))).unwrap()
    }

    #[test]
    fn fonts_are_cut_to_the_glyphs_shown_and_the_page_looks_the_same() {
        let whole = printed_like_skia();
        let cut = subset_fonts(whole.clone());
        assert!(
            cut.len() * 10 < whole.len(),
            "{} bytes cut from {}",
            cut.len(),
            whole.len()
        );
        let dir = tempfile::tempdir().unwrap();
        let (before, after) = (
            render(&whole, dir.path(), "whole"),
            render(&cut, dir.path(), "cut"),
        );
        assert!(
            before.iter().filter(|&&p| p < 128).count() > 200,
            "the page shows text"
        );
        assert!(
            before == after,
            "the page drawn with the cut fonts differs from the original"
        );
    }

    #[test]
    fn a_glyph_shown_only_in_a_form_keeps_its_outline() {
        // Cut without reading the form: its word ("The", in the bold font)
        // would lose its outlines, and the page would look different.
        let whole = printed_like_skia();
        let doc = Document::load_mem(&whole).unwrap();
        let mut shown = BTreeMap::new();
        for page in doc.get_pages().into_values() {
            let fonts = page_fonts(&doc, page).unwrap();
            collect(
                &doc,
                &doc.get_page_content(page),
                &fonts,
                &page_xobjects(&doc, page),
                &mut shown,
                &mut HashSet::new(),
            )
            .unwrap();
        }
        let bold: Vec<_> = shown.values().filter(|g| g.contains(&0x37)).collect();
        assert_eq!(
            bold.len(),
            1,
            "the form's glyphs are counted under its own font: {shown:?}"
        );
        assert_eq!(
            bold[0].iter().copied().collect::<Vec<_>>(),
            vec![0x37, 0x48, 0x4B]
        );
    }

    #[test]
    fn what_is_not_understood_is_left_as_printed() {
        // Not a PDF; a PDF whose page text names a font it does not have.
        assert_eq!(
            subset_fonts(b"%PDF-1.4 garbage".to_vec()),
            b"%PDF-1.4 garbage".to_vec()
        );
        let whole = printed_like_skia();
        let mut doc = Document::load_mem(&whole).unwrap();
        let page = *doc.get_pages().values().next().unwrap();
        let content = doc.get_page_contents(page)[0];
        doc.get_object_mut(content)
            .unwrap()
            .as_stream_mut()
            .unwrap()
            .set_plain_content(b"BT /Nope 12 Tf <0024> Tj ET".to_vec());
        let mut odd = Vec::new();
        doc.save_to(&mut odd).unwrap();
        assert_eq!(subset_fonts(odd.clone()), odd);
    }
}
