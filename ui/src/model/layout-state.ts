// The window's layout as the writer set it (pure; unit-tested in
// test/layout-state.test.ts): which side panels are shown, the reading width,
// the re-flow of hard-wrapped paragraphs — kept across restarts in
// localStorage — and how the panels show at a given window width: docked
// beside the text when there is room, else hidden, or over the text while the
// writer opened one ("peek") until they go back to the text.

export interface LayoutPrefs {
  /** The documents and outline on the left. */
  sidebar: boolean;
  /** The review and threads panel on the right. */
  panel: boolean;
  /** The text at a reading width (about 70 characters), centred; off: as wide as the editor. */
  readingWidth: boolean;
  /**
   * Hard-wrapped paragraphs shown joined (display only): always, never, or
   * "auto" (the default: in a document that is hard-wrapped and not very
   * large, reflow.ts `autoReflow`, so the sample or a file wrapped at 80
   * columns does not open ragged, and a text typed a line per paragraph is
   * shown as it is).
   */
  reflow: boolean | "auto";
}

export type Pane = "sidebar" | "panel";
export type PaneShow = "docked" | "overlay" | "hidden";

export const DEFAULT_PREFS: LayoutPrefs = { sidebar: true, panel: true, readingWidth: true, reflow: "auto" };
export const PREFS_KEY = "cowriting.layout";

/**
 * Below these window widths a panel does not dock (the text would be too
 * narrow to write in): the sidebar (230 px) first, then the review panel (330 px).
 */
export const BREAKPOINT: Record<Pane, number> = { sidebar: 1040, panel: 860 };

/** The preferences kept in `storage`; what is missing or not understood is the default. */
export function loadPrefs(storage: Pick<Storage, "getItem"> | null): LayoutPrefs {
  let saved: unknown = null;
  try {
    saved = JSON.parse(storage?.getItem(PREFS_KEY) ?? "null");
  } catch {
    saved = null;
  }
  const out = { ...DEFAULT_PREFS };
  if (saved && typeof saved === "object") {
    for (const k of Object.keys(DEFAULT_PREFS) as (keyof LayoutPrefs)[]) {
      const v = (saved as Record<string, unknown>)[k];
      if (typeof v === "boolean" || (k === "reflow" && v === "auto")) (out as Record<keyof LayoutPrefs, boolean | "auto">)[k] = v;
    }
  }
  return out;
}

export function savePrefs(storage: Pick<Storage, "setItem"> | null, prefs: LayoutPrefs) {
  try {
    storage?.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch {
    // Storage full or refused: the layout holds for this session only.
  }
}

/** Whether `pane` can dock beside the text in a window `width` wide. */
export function fits(pane: Pane, width: number): boolean {
  return width >= BREAKPOINT[pane];
}

/** How each panel shows: focus mode hides both; a narrow window shows only the one peeked at, over the text. */
export function paneLayout(prefs: LayoutPrefs, width: number, peek: Pane | null, focus: boolean): Record<Pane, PaneShow> {
  const show = (pane: Pane): PaneShow => {
    if (focus) return "hidden";
    if (fits(pane, width)) return prefs[pane] ? "docked" : "hidden";
    return peek === pane ? "overlay" : "hidden";
  };
  return { sidebar: show("sidebar"), panel: show("panel") };
}

/**
 * Show or hide `pane` (its button or key): where it docks, the preference
 * flips (and is kept); where it cannot, it shows over the text until the next
 * toggle (or Esc, or a click in the text).
 */
export function togglePane(prefs: LayoutPrefs, width: number, peek: Pane | null, pane: Pane): { prefs: LayoutPrefs; peek: Pane | null } {
  if (fits(pane, width)) return { prefs: { ...prefs, [pane]: !prefs[pane] }, peek: null };
  return { prefs, peek: peek === pane ? null : pane };
}
