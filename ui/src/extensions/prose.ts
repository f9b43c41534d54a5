// Prose, not code: the editor's theme (a serif face, a readable measure) and
// the Markdown highlighting (headings, emphasis, links, code, quotes).
import type { Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { tags } from "@lezer/highlight";

const highlight = HighlightStyle.define([
  { tag: tags.heading1, fontSize: "1.45em", fontWeight: "700" },
  { tag: tags.heading2, fontSize: "1.25em", fontWeight: "700" },
  { tag: [tags.heading3, tags.heading4, tags.heading5, tags.heading6], fontWeight: "700" },
  { tag: tags.strong, fontWeight: "700" },
  { tag: tags.emphasis, fontStyle: "italic" },
  { tag: tags.strikethrough, textDecoration: "line-through" },
  { tag: tags.link, color: "var(--link)", textDecoration: "underline" },
  { tag: tags.url, color: "var(--muted)" },
  { tag: tags.monospace, fontFamily: "var(--mono)", color: "var(--code)" },
  { tag: tags.quote, color: "var(--muted)", fontStyle: "italic" },
  { tag: [tags.processingInstruction, tags.meta], color: "var(--muted)" },
]);

/** Markdown's syntax as prose shows it. */
export const proseHighlighting: Extension = syntaxHighlighting(highlight);

/** Prose, not code: a serif face, a readable measure. */
export const proseTheme: Extension = EditorView.theme({
  "&": { height: "100%" },
  ".cm-scroller": { fontFamily: "var(--serif)", fontSize: "17px", lineHeight: "1.7" },
  ".cm-gutters": { backgroundColor: "var(--bg)", color: "var(--muted)", border: "none" },
});
