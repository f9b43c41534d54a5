// The outline in the sidebar: the document's headings indented by level (kept
// by extensions/outline.ts as the writer types), the one the cursor is under
// marked; a click jumps there (drawn from a plain model with its jump action).
// "Go to heading…" (Ctrl+Shift+O) picks one by a fuzzy match of its words.
import { EditorView } from "@codemirror/view";
import type { App } from "../main";
import { $, h } from "../dom";
import { outlineOf, type OutlineInfo } from "../extensions/outline";
import { fuzzyScore } from "../model/util";
import { openPicker } from "./palette";

/** The outline version the sidebar shows (rebuilt only when the headings changed, not when they moved). */
let shown = -1;

/** What the outline shows: the headings and the one the cursor is under (extensions/outline.ts), and whether a document is shown. */
export interface OutlineModel extends Pick<OutlineInfo, "headings" | "current" | "version"> {
  documentShown: boolean;
}

/** What the outline does: a heading clicked (its index). */
export interface OutlineActions {
  jump(i: number): void;
}

/** Show the outline in the sidebar (rebuilt when its version changed; else only the current heading's mark moves). */
export function renderOutline(model: OutlineModel, actions: OutlineActions) {
  const list = $(".outline");
  if (model.version !== shown) {
    shown = model.version;
    list.replaceChildren();
    if (!model.headings.length) list.append(h("div", { class: "outline-empty", text: model.documentShown ? "No headings." : "" }));
    model.headings.forEach((hd, i) => {
      const item = h("button", { class: `outline-item lvl-${hd.level}`, "data-index": String(i), title: hd.text }, hd.text || "(empty heading)");
      item.addEventListener("click", () => actions.jump(i));
      list.append(item);
    });
  }
  const was = list.querySelector(".outline-item.current");
  const now = model.current >= 0 ? list.children[model.current] : null;
  if (was !== now) {
    was?.classList.remove("current");
    was?.removeAttribute("aria-current");
    if (now instanceof HTMLElement) {
      now.classList.add("current");
      now.setAttribute("aria-current", "location");
      // Keep it in sight in the outline's own scroll (not the window's).
      if (now.offsetTop < list.scrollTop || now.offsetTop + now.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = now.offsetTop - list.clientHeight / 3;
      }
    }
  }
}

/** Put the cursor at the start of heading `i`, scrolled to the top of the editor, and focus the text. */
export function jumpToHeading(app: App, i: number) {
  const view = app.view;
  const outline = view ? outlineOf(view) : null;
  if (!view || !outline?.headings[i]) return;
  const from = outline.at(i);
  view.dispatch({
    selection: { anchor: from },
    effects: EditorView.scrollIntoView(from, { y: "start", yMargin: 24 }),
    userEvent: "select",
  });
  view.focus();
}

/** "Go to heading…": the headings, filtered as the writer types (fuzzy), chosen with the arrows and Enter. */
export function openHeadingPicker(app: App) {
  if (!app.view) return;
  const { headings, current } = outlineOf(app.view);
  openPicker<number>(app, {
    placeholder: "Go to heading…",
    label: "Heading",
    listClass: "heading-list",
    filter: (typed) => {
      const q = typed.trim();
      if (!q) return headings.map((_, i) => i);
      return headings
        .map((hd, i) => ({ i, s: fuzzyScore(q, hd.text) }))
        .filter((x): x is { i: number; s: number } => x.s !== null)
        .sort((a, b) => b.s - a.s || a.i - b.i)
        .map((x) => x.i);
    },
    row: (i) => {
      const hd = headings[i];
      return h("li", { class: `lvl-${hd.level}`, "data-index": String(i) }, h("span", { text: hd.text || "(empty heading)" }), h("kbd", { text: "#".repeat(hd.level) }));
    },
    pick: (i) => jumpToHeading(app, i),
    none: () => (headings.length ? "No heading matches." : "This document has no headings."),
    initial: Math.max(0, current),
  });
}
