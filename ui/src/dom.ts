// The two DOM helpers every view uses: `$` (a required element) and `h` (an
// element with attributes and children; text goes in as text nodes, never HTML,
// with hidden characters — bidi overrides, zero-width spaces — shown as markers,
// and in tooltips and labels written out: see hidden.ts).
import { visibleNodes, visibleText } from "./hidden";

export const $ = <T extends HTMLElement = HTMLElement>(sel: string, root: ParentNode = document): T => {
  const el = root.querySelector(sel);
  if (!el) throw new Error(`missing ${sel}`);
  return el as T;
};

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string>> = {},
  ...children: (Node | string | null)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.append(...visibleNodes(v));
    else if (k === "title" || k === "aria-label") el.setAttribute(k, visibleText(v));
    else el.setAttribute(k, v);
  }
  for (const c of children) if (c !== null) el.append(...(typeof c === "string" ? visibleNodes(c) : [c]));
  return el;
}
