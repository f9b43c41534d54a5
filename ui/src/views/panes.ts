// The window's layout (model/layout-state.ts holds the rules): the side panels shown
// or hidden (buttons at the tab bar's ends, Ctrl+B and Ctrl+Alt+B, kept across
// restarts), docked when the window has room and over the text when it has not;
// focus mode (Ctrl+Alt+F: no panels, the tab and status bars faded, the text
// centred at its reading width; Esc or the same key leaves); the reading width
// (Ctrl+Alt+R) and the re-flow of hard-wrapped paragraphs (Ctrl+Alt+W).
// Of the app it needs only the editor (`PanesHost`: the keyboard goes back to
// it, re-flow is shown in it) and, for its keys, Go to heading… (`PaneActions`).
import type { EditorView } from "@codemirror/view";
import { $ } from "../dom";
import { reflowOn, setReflow } from "../extensions/reflow";
import { loadPrefs, paneLayout, savePrefs, togglePane, type LayoutPrefs, type Pane } from "../model/layout-state";
import { modalOpen } from "./modal";

/** What the layout uses of the app: the editor shown (null: none). */
export interface PanesHost {
  readonly view: EditorView | null;
}

/** What the layout's keys do beyond the layout. */
export interface PaneActions {
  /** Go to heading… (Ctrl+Shift+O). */
  headingPicker(): void;
}

const storage = (): Storage | null => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

/** The layout now: the writer's preferences, the panel shown over the text in a narrow window, focus mode. */
export const panes = {
  prefs: loadPrefs(storage()),
  peek: null as Pane | null,
  focus: false,
};

/** Set the window's classes for the layout now (and the buttons' pressed state). */
export function applyLayout() {
  const root = $(".app");
  const shown = paneLayout(panes.prefs, window.innerWidth, panes.peek, panes.focus);
  for (const pane of ["sidebar", "panel"] as Pane[]) {
    for (const s of ["docked", "overlay", "hidden"]) root.classList.toggle(`${pane}-${s}`, shown[pane] === s);
    $(`.tb-${pane}`).setAttribute("aria-pressed", String(shown[pane] !== "hidden"));
  }
  root.classList.toggle("focus-mode", panes.focus);
  root.classList.toggle("reading-wide", !panes.prefs.readingWidth);
  $(".tb-focus").setAttribute("aria-pressed", String(panes.focus));
}

function setPrefs(prefs: LayoutPrefs) {
  panes.prefs = prefs;
  savePrefs(storage(), prefs);
  applyLayout();
}

/** Show or hide the sidebar or the review panel (in focus mode: leave it, and show the panel). */
export function toggle(pane: Pane) {
  const leaving = panes.focus;
  panes.focus = false;
  if (leaving && paneLayout(panes.prefs, window.innerWidth, panes.peek, false)[pane] !== "hidden") return applyLayout();
  const next = togglePane(panes.prefs, window.innerWidth, panes.peek, pane);
  panes.peek = next.peek;
  setPrefs(next.prefs);
}

/** Make sure `pane` shows (e.g. a thread clicked in the text while the panel is hidden). */
export function showPane(pane: Pane) {
  if (paneLayout(panes.prefs, window.innerWidth, panes.peek, panes.focus)[pane] !== "hidden") return;
  toggle(pane);
}

/** Focus mode on or off. */
export function toggleFocus(host: PanesHost) {
  panes.focus = !panes.focus;
  panes.peek = null;
  applyLayout();
  host.view?.focus();
}

export function toggleReadingWidth() {
  setPrefs({ ...panes.prefs, readingWidth: !panes.prefs.readingWidth });
}

/**
 * Hard-wrapped paragraphs shown joined, or as the file has them: the other of what the document shows
 * now (from "auto" too), then for every document.
 */
export function toggleReflow(host: PanesHost) {
  const now = host.view ? reflowOn(host.view.state) : panes.prefs.reflow === true;
  setPrefs({ ...panes.prefs, reflow: !now });
  setReflow(host.view, !now);
}

/** Esc: close the panel shown over the text, else leave focus mode. False when there was neither. */
function escape(host: PanesHost): boolean {
  if (panes.peek) {
    panes.peek = null;
  } else if (panes.focus) {
    panes.focus = false;
  } else return false;
  applyLayout();
  host.view?.focus();
  return true;
}

/** The buttons, the keys (window-wide, before the others: Esc leaves focus mode first), the window's resizing. */
export function wirePanes(host: PanesHost, actions: PaneActions) {
  $(".tb-sidebar").addEventListener("click", () => toggle("sidebar"));
  $(".tb-panel").addEventListener("click", () => toggle("panel"));
  $(".tb-focus").addEventListener("click", () => toggleFocus(host));
  window.addEventListener("resize", () => applyLayout());
  setReflow(null, panes.prefs.reflow);
  // A panel over the text goes once the writer is back in the text, or picked a document or heading.
  $(".main").addEventListener("mousedown", (e) => {
    if (panes.peek && !(e.target as Element).closest(".topbar")) escape(host);
  });
  $(".sidebar").addEventListener("click", (e) => {
    if (panes.peek === "sidebar" && (e.target as Element).closest(".tree-item, .outline-item")) escape(host);
  });
  window.addEventListener("keydown", (e) => {
    if (modalOpen() || e.defaultPrevented) return;
    const mod = e.ctrlKey || e.metaKey;
    // The letter by its key, or where Alt changed the character (macOS), by its place.
    const is = (letter: string) => e.code === `Key${letter.toUpperCase()}` || e.key.toLowerCase() === letter;
    let act: (() => void) | null = null;
    if (mod && !e.shiftKey && !e.altKey && is("b")) act = () => toggle("sidebar");
    else if (mod && !e.shiftKey && e.altKey && is("b")) act = () => toggle("panel");
    else if (mod && !e.shiftKey && e.altKey && is("f")) act = () => toggleFocus(host);
    else if (mod && e.shiftKey && !e.altKey && is("o")) act = () => actions.headingPicker();
    else if (mod && !e.shiftKey && e.altKey && is("r")) act = () => toggleReadingWidth();
    else if (mod && !e.shiftKey && e.altKey && is("w")) act = () => toggleReflow(host);
    else if (e.key === "Escape" && !mod && !e.shiftKey && !e.altKey && escape(host)) act = () => undefined;
    if (!act) return;
    e.preventDefault();
    act();
  });
  applyLayout();
}
