//! What JavaScript does with strings and objects, where Rust differs.
//!
//! **Unpaired surrogates.** JavaScript strings are UTF-16 and may hold an
//! unpaired surrogate, which `JSON.stringify` writes as `\udXXX` — for instance
//! when another writer cuts an emoji in half while taking 32 units of context. A
//! Rust string cannot hold one. While parsing (the slow path only), [`mark`]
//! rewrites the JSON text so that each unpaired surrogate escape becomes
//! [`MARK`] followed by a char standing for it, and each real U+10FFFF becomes
//! two [`MARK`]s; so after parsing, a `MARK` in a string always starts one of
//! these pairs and nothing collides with real text. [`unmark`] then turns each
//! string back into its document-facing form (an unpaired surrogate as U+FFFD,
//! what Node's UTF-8 encoder writes for one) plus, when it held an unpaired
//! surrogate, its UTF-16 units, which the record keeps ([`Kept`]) and the
//! [`Writer`] writes back while the field is unchanged.
//!
//! **Key order.** JavaScript objects list array-index keys (canonical integers
//! below 2^32 − 1) first, ascending, then the other keys in insertion order;
//! `JSON.stringify` writes them so. The [`Writer`] does the same for every
//! object it writes: records, the anchors map, and unknown values.

use super::{Anchor, Artifact, Extra, Kept, SegRef};
use indexmap::IndexMap;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt::Write as _;

/// Starts each pair [`mark`] writes. U+10FFFF is a noncharacter.
pub const MARK: char = '\u{10FFFF}';
/// `MARK` + `LONE_BASE + (u − 0xD800)` stands for unpaired surrogate `u`.
const LONE_BASE: u32 = 0x10F000;

fn hex4(b: &[u8]) -> Option<u32> {
    let h = b.get(..4)?;
    if !h.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    u32::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
}

/// Whether the JSON text needs [`mark`]: it has a surrogate escape or a
/// literal U+10FFFF.
pub fn needs_marking(text: &str) -> bool {
    text.contains("\\ud") || text.contains("\\uD") || text.contains(MARK)
}

/// See the module docs. Text that needs nothing is borrowed.
pub fn mark(text: &str) -> Cow<'_, str> {
    if !needs_marking(text) {
        return Cow::Borrowed(text);
    }
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 16);
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        if b[i] == 0xF4 && text[i..].starts_with(MARK) {
            out.push_str(&text[copied..i]);
            out.push(MARK);
            out.push(MARK);
            i += MARK.len_utf8();
            copied = i;
            continue;
        }
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        if b.get(i + 1) != Some(&b'u') {
            i += 2; // an escaped char, e.g. \\ or \"
            continue;
        }
        let Some(u) = hex4(&b[i + 2..]) else {
            i += 2;
            continue;
        };
        if (0xD800..0xDC00).contains(&u) {
            let low = (b.get(i + 6) == Some(&b'\\') && b.get(i + 7) == Some(&b'u'))
                .then(|| hex4(&b[i + 8..]))
                .flatten()
                .filter(|l| (0xDC00..0xE000).contains(l));
            if let Some(l) = low {
                if 0x10000 + ((u - 0xD800) << 10) + (l - 0xDC00) == MARK as u32 {
                    out.push_str(&text[copied..i]);
                    out.push(MARK);
                    out.push(MARK);
                    copied = i + 12;
                }
                i += 12;
                continue;
            }
        }
        if (0xD800..0xE000).contains(&u) {
            out.push_str(&text[copied..i]);
            out.push(MARK);
            out.push(char::from_u32(LONE_BASE + (u - 0xD800)).expect("plane 16 is valid"));
            i += 6;
            copied = i;
        } else {
            i += 6;
        }
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// A parsed string of marked text as the file meant it: `None` when it has
/// no mark (it is as written); else its document-facing form, and its UTF-16
/// units when it held an unpaired surrogate.
pub fn unmark(s: &str) -> Option<(String, Option<Vec<u16>>)> {
    if !s.contains(MARK) {
        return None;
    }
    let mut lossy = String::with_capacity(s.len());
    let mut units: Vec<u16> = Vec::with_capacity(s.len());
    let mut lone = false;
    let mut buf = [0u16; 2];
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let stands_for = match (c, chars.peek()) {
            (MARK, Some(&n)) if (LONE_BASE..LONE_BASE + 0x800).contains(&(n as u32)) => {
                Some(0xD800 + (n as u32 - LONE_BASE))
            }
            _ => None,
        };
        if let Some(u) = stands_for {
            chars.next();
            lossy.push('\u{FFFD}');
            units.push(u as u16);
            lone = true;
            continue;
        }
        if c == MARK && chars.peek() == Some(&MARK) {
            chars.next();
        }
        lossy.push(c);
        units.extend_from_slice(c.encode_utf16(&mut buf));
    }
    Some((lossy, lone.then_some(units)))
}

/// The index JavaScript gives key `k` when it is an array index: a
/// canonical decimal integer below 2^32 − 1 (`"0"`, `"42"`; not `"042"`,
/// `"-1"`, `"4294967295"`).
pub fn array_index(k: &str) -> Option<u32> {
    let b = k.as_bytes();
    if b.is_empty() || b.len() > 10 || !b.iter().all(u8::is_ascii_digit) || (b[0] == b'0' && b.len() > 1) {
        return None;
    }
    let n: u64 = k.parse().ok()?;
    (n < u64::from(u32::MAX)).then_some(n as u32)
}

/// Keys of an object in JavaScript's order: array indexes ascending, then
/// the rest as given.
fn js_order<'a, T>(entries: impl Iterator<Item = (&'a String, T)>) -> Vec<(&'a String, T)> {
    let mut index: Vec<(u32, &'a String, T)> = Vec::new();
    let mut rest: Vec<(&'a String, T)> = Vec::new();
    for (k, v) in entries {
        match array_index(k) {
            Some(n) => index.push((n, k, v)),
            None => rest.push((k, v)),
        }
    }
    if index.is_empty() {
        return rest;
    }
    index.sort_by_key(|(n, _, _)| *n);
    index.into_iter().map(|(_, k, v)| (k, v)).chain(rest).collect()
}

/// A known field's value.
pub enum Item<'a> {
    Str(&'a str),
    UInt(u64),
    Null,
    With(&'a dyn Fn(&mut Writer)),
    /// A record, or a list of them.
    Js(&'a dyn WriteJs),
}

/// What writes itself as `JSON.stringify` would: a declared record
/// (`sidecar_record!`), or a list of them.
pub trait WriteJs {
    fn write_js(&self, w: &mut Writer);
}

impl<T: WriteJs> WriteJs for Vec<T> {
    fn write_js(&self, w: &mut Writer) {
        w.out.push('[');
        w.depth += 1;
        for (i, item) in self.iter().enumerate() {
            w.next(i);
            item.write_js(w);
        }
        w.close(self.len(), "[]", ']');
    }
}

/// Writes `JSON.stringify(x, null, 2)`.
#[derive(Default)]
pub struct Writer {
    out: String,
    depth: usize,
}

impl Writer {
    pub fn finish(mut self) -> String {
        self.out.push('\n');
        self.out
    }

    fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
    }

    /// A string, escaped as `JSON.stringify` escapes it.
    pub fn str(&mut self, s: &str) {
        self.out.push('"');
        let b = s.as_bytes();
        let mut copied = 0;
        for (i, &c) in b.iter().enumerate() {
            if c >= 0x20 && c != b'"' && c != b'\\' {
                continue;
            }
            self.out.push_str(&s[copied..i]);
            copied = i + 1;
            self.escape(c);
        }
        self.out.push_str(&s[copied..]);
        self.out.push('"');
    }

    fn escape(&mut self, c: u8) {
        match c {
            b'"' => self.out.push_str("\\\""),
            b'\\' => self.out.push_str("\\\\"),
            b'\n' => self.out.push_str("\\n"),
            b'\r' => self.out.push_str("\\r"),
            b'\t' => self.out.push_str("\\t"),
            0x08 => self.out.push_str("\\b"),
            0x0c => self.out.push_str("\\f"),
            c => {
                let _ = write!(self.out, "\\u{:04x}", c);
            }
        }
    }

    /// A JavaScript string given as UTF-16 units: an unpaired surrogate is
    /// written `\udXXX` (lowercase), as `JSON.stringify` writes it.
    fn units(&mut self, units: &[u16]) {
        self.out.push('"');
        for c in char::decode_utf16(units.iter().copied()) {
            match c {
                Ok(c) if c.is_ascii() && (c < ' ' || c == '"' || c == '\\') => self.escape(c as u8),
                Ok(c) => self.out.push(c),
                Err(e) => {
                    let _ = write!(self.out, "\\u{:04x}", e.unpaired_surrogate());
                }
            }
        }
        self.out.push('"');
    }

    /// A string at `path` of a record whose kept strings are `kept`.
    fn str_at(&mut self, s: &str, kept: Option<&Kept>, path: &[SegRef<'_>], key: bool) {
        match kept.and_then(|k| k.units_for(path, key, s)) {
            Some(units) => self.units(units),
            None => self.str(s),
        }
    }

    /// Opens entry `i` of an object or array.
    fn next(&mut self, i: usize) {
        if i > 0 {
            self.out.push(',');
        }
        self.newline();
    }

    fn close(&mut self, n: usize, empty: &str, close: char) {
        self.depth -= 1;
        if n == 0 {
            self.out.truncate(self.out.len() - 1);
            self.out.push_str(empty);
        } else {
            self.newline();
            self.out.push(close);
        }
    }

    /// Any JSON value; `kept`/`path` name where it sits in a record.
    pub fn value_at<'a>(&mut self, v: &'a Value, kept: Option<&Kept>, path: &mut Vec<SegRef<'a>>) {
        match v {
            Value::Null => self.out.push_str("null"),
            Value::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            // Kept as written (`arbitrary_precision`).
            Value::Number(n) => {
                let _ = write!(self.out, "{n}");
            }
            Value::String(s) => self.str_at(s, kept, path, false),
            Value::Array(items) => {
                self.out.push('[');
                self.depth += 1;
                for (i, item) in items.iter().enumerate() {
                    self.next(i);
                    path.push(SegRef::Index(i));
                    self.value_at(item, kept, path);
                    path.pop();
                }
                self.close(items.len(), "[]", ']');
            }
            Value::Object(m) => self.object_at(m, kept, path),
        }
    }

    fn object_at<'a>(&mut self, m: &'a Map<String, Value>, kept: Option<&Kept>, path: &mut Vec<SegRef<'a>>) {
        self.out.push('{');
        self.depth += 1;
        let entries = js_order(m.iter());
        for (i, (k, v)) in entries.iter().enumerate() {
            self.next(i);
            path.push(SegRef::Key(k));
            self.str_at(k, kept, path, true);
            self.out.push_str(": ");
            self.value_at(v, kept, path);
            path.pop();
        }
        self.close(entries.len(), "{}", '}');
    }

    /// A record: its array-index unknown keys, its known fields in order,
    /// then its other unknown fields in order.
    pub fn record(&mut self, known: &[(&'static str, Item<'_>)], extra: &Extra) {
        let kept = extra.kept().filter(|k| k.has_strings());
        let (index, rest): (Vec<_>, Vec<_>) = js_order(extra.iter())
            .into_iter()
            .partition(|(k, _)| array_index(k).is_some());
        self.out.push('{');
        self.depth += 1;
        let mut n = 0;
        self.unknown(&mut n, &index, kept);
        for (k, item) in known {
            self.next(n);
            n += 1;
            self.str(k);
            self.out.push_str(": ");
            match item {
                Item::Str(s) => self.str_at(s, kept, &[SegRef::Key(k)], false),
                Item::UInt(u) => {
                    let _ = write!(self.out, "{u}");
                }
                Item::Null => self.out.push_str("null"),
                Item::With(f) => f(self),
                Item::Js(r) => r.write_js(self),
            }
        }
        self.unknown(&mut n, &rest, kept);
        self.close(n, "{}", '}');
    }

    fn unknown<'a>(&mut self, n: &mut usize, entries: &[(&'a String, &'a Value)], kept: Option<&Kept>) {
        let mut path: Vec<SegRef<'a>> = Vec::new();
        for (k, v) in entries {
            self.next(*n);
            *n += 1;
            path.push(SegRef::Key(k));
            self.str_at(k, kept, &path, true);
            self.out.push_str(": ");
            self.value_at(v, kept, &mut path);
            path.pop();
        }
    }

    pub fn artifact(&mut self, a: &Artifact) {
        let anchors = |w: &mut Writer| w.anchors(&a.anchors, a.extra.kept());
        self.record(
            &[
                ("schemaVersion", Item::UInt(a.schema_version)),
                ("docPath", Item::Str(&a.doc_path)),
                ("anchors", Item::With(&anchors)),
                ("threads", Item::Js(&a.threads)),
                ("attributions", Item::Js(&a.attributions)),
                ("proposals", Item::Js(&a.proposals)),
            ],
            &a.extra,
        );
    }

    fn anchors(&mut self, anchors: &IndexMap<String, Anchor>, kept: Option<&Kept>) {
        self.out.push('{');
        self.depth += 1;
        let entries = js_order(anchors.iter());
        for (i, (id, anchor)) in entries.iter().enumerate() {
            self.next(i);
            self.str_at(id, kept, &[SegRef::Key("anchors"), SegRef::Key(id)], true);
            self.out.push_str(": ");
            anchor.write_js(self);
        }
        self.close(entries.len(), "{}", '}');
    }
}
