// Characters a reader cannot see, or that reorder the text around them (bidi
// controls such as U+202E, zero-width spaces, …), shown wherever text is shown:
// `report<U+202E>4pm.md` would read "reportmp4.md"; here it reads
// "report⟨U+202E⟩4pm.md", the marker styled and named in its tooltip. The table
// is the core's (`cowriting_core::hidden::RANGES`; a Rust test keeps
// hidden-chars.json equal to it).
//
// Letters of other scripts that pass for Latin ones where they stand (a Cyrillic
// "а" in "pаypal.md", ./lookalike.ts) are visible, so they are shown as
// themselves, outlined and named in their tooltip, and written out as ⟨U+0430⟩
// in plain strings.
import table from "./hidden-chars.json";
import { flaggedLookalikes, lookalike } from "./lookalike";

const cp = (n: number) => `U+${n.toString(16).toUpperCase().padStart(4, "0")}`;
const esc = (n: number) => `\\u{${n.toString(16)}}`;

/** Every hidden character, globally: for `replace` and `matchAll` only (a `test` would leave `lastIndex` behind). */
export const HIDDEN = new RegExp(`[${table.map((r) => (r.from === r.to ? esc(r.from) : `${esc(r.from)}-${esc(r.to)}`)).join("")}]`, "gu");

/** One hidden character (no flags kept between calls): for CodeMirror's special characters. */
export const HIDDEN_ONE = new RegExp(HIDDEN.source, "u");

/** Whether `s` holds any hidden character. */
export function hasHidden(s: string): boolean {
  return HIDDEN_ONE.test(s);
}

/** `U+202E RIGHT-TO-LEFT OVERRIDE` for U+202E. */
export function describe(ch: string): string {
  const n = ch.codePointAt(0) ?? 0;
  const row = table.find((r) => r.from <= n && n <= r.to);
  return `${cp(n)}${row ? ` ${row.name}` : ""}`;
}

/** `s` with each hidden character, and each letter passing for a Latin one, written out as ⟨U+202E⟩: for attributes, titles, plain strings. */
export function visibleText(s: string): string {
  const looks = flaggedLookalikes(s);
  let out = s;
  if (looks.length) {
    out = "";
    let at = 0;
    for (const i of looks) {
      out += `${s.slice(at, i)}⟨${cp(s.codePointAt(i) ?? 0)}⟩`;
      at = i + 1; // look-alikes are all in the BMP
    }
    out += s.slice(at);
  }
  return hasHidden(out) ? out.replace(HIDDEN, (c) => `⟨${cp(c.codePointAt(0) ?? 0)}⟩`) : out;
}

/** The mark on a letter that passes for a Latin one: the letter itself, outlined and named. */
export function lookalikeMarker(ch: string): HTMLElement {
  const m = document.createElement("span");
  m.className = "lookalike-char";
  m.textContent = ch;
  const l = lookalike(ch);
  m.title = `Looks like Latin "${l?.like ?? "?"}" but is ${cp(ch.codePointAt(0) ?? 0)} ${l?.name ?? ""}`;
  return m;
}

/** The marker shown in place of one hidden character. */
export function hiddenMarker(ch: string): HTMLElement {
  const m = document.createElement("span");
  m.className = "hidden-char";
  m.textContent = `⟨${cp(ch.codePointAt(0) ?? 0)}⟩`;
  m.title = `Hidden character: ${describe(ch)}`;
  return m;
}

/** `s` as DOM nodes: text, with each hidden character a marker and each look-alike marked. */
export function visibleNodes(s: string): (Node | string)[] {
  const looks = flaggedLookalikes(s);
  if (!looks.length && !hasHidden(s)) return [s];
  const marks: [number, string, boolean][] = looks.map((i) => [i, s[i], true]);
  for (const m of s.matchAll(HIDDEN)) marks.push([m.index ?? 0, m[0], false]);
  marks.sort((a, b) => a[0] - b[0]);
  const out: (Node | string)[] = [];
  let at = 0;
  for (const [i, ch, look] of marks) {
    if (i > at) out.push(s.slice(at, i));
    out.push(look ? lookalikeMarker(ch) : hiddenMarker(ch));
    at = i + ch.length;
  }
  if (at < s.length) out.push(s.slice(at));
  return out;
}

/** Set an element's text, hidden characters shown. */
export function setText(el: Element, s: string) {
  el.replaceChildren(...visibleNodes(s));
}

/** Mark the hidden characters and look-alikes in every text node under `root` (sanitized Markdown). */
export function markHidden(root: Node) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const hits: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const data = (n as Text).data;
    if (hasHidden(data) || flaggedLookalikes(data).length) hits.push(n as Text);
  }
  for (const t of hits) t.replaceWith(...visibleNodes(t.data));
}
