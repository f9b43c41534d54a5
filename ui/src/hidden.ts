// Characters a reader cannot see, or that reorder the text around them (bidi
// controls such as U+202E, zero-width spaces, …), shown wherever text is shown:
// `report<U+202E>4pm.md` would read "reportmp4.md"; here it reads
// "report⟨U+202E⟩4pm.md", the marker styled and named in its tooltip. The table
// is the core's (`cowriting_core::hidden::RANGES`; a Rust test keeps
// hidden-chars.json equal to it).
import table from "./hidden-chars.json";

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

/** `s` with each hidden character written out as ⟨U+202E⟩: for attributes, titles, plain strings. */
export function visibleText(s: string): string {
  return hasHidden(s) ? s.replace(HIDDEN, (c) => `⟨${cp(c.codePointAt(0) ?? 0)}⟩`) : s;
}

/** The marker shown in place of one hidden character. */
export function hiddenMarker(ch: string): HTMLElement {
  const m = document.createElement("span");
  m.className = "hidden-char";
  m.textContent = `⟨${cp(ch.codePointAt(0) ?? 0)}⟩`;
  m.title = `Hidden character: ${describe(ch)}`;
  return m;
}

/** `s` as DOM nodes: text, with each hidden character a marker. */
export function visibleNodes(s: string): (Node | string)[] {
  if (!hasHidden(s)) return [s];
  const out: (Node | string)[] = [];
  let at = 0;
  for (const m of s.matchAll(HIDDEN)) {
    const i = m.index ?? 0;
    if (i > at) out.push(s.slice(at, i));
    out.push(hiddenMarker(m[0]));
    at = i + m[0].length;
  }
  if (at < s.length) out.push(s.slice(at));
  return out;
}

/** Set an element's text, hidden characters shown. */
export function setText(el: Element, s: string) {
  el.replaceChildren(...visibleNodes(s));
}

/** Mark the hidden characters in every text node under `root` (sanitized Markdown). */
export function markHidden(root: Node) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const hits: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (hasHidden((n as Text).data)) hits.push(n as Text);
  for (const t of hits) t.replaceWith(...visibleNodes(t.data));
}
