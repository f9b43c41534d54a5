// The layout's rules: preferences kept in storage (what is not understood is
// the default), how the panels show at a width, and what a toggle changes.
import { describe, expect, it } from "vitest";
import { BREAKPOINT, DEFAULT_PREFS, PREFS_KEY, loadPrefs, paneLayout, savePrefs, togglePane } from "../src/model/layout-state";

const store = (init: Record<string, string> = {}) => {
  const m = new Map(Object.entries(init));
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
};

describe("prefs", () => {
  it("round-trip through storage", () => {
    const s = store();
    savePrefs(s, { sidebar: false, panel: true, readingWidth: false, reflow: true });
    expect(loadPrefs(s)).toEqual({ sidebar: false, panel: true, readingWidth: false, reflow: true });
  });
  it("are the defaults when missing, broken, or of the wrong type; storage that throws is survived", () => {
    expect(loadPrefs(store())).toEqual(DEFAULT_PREFS);
    expect(loadPrefs(null)).toEqual(DEFAULT_PREFS);
    expect(loadPrefs(store({ [PREFS_KEY]: "{not json" }))).toEqual(DEFAULT_PREFS);
    expect(loadPrefs(store({ [PREFS_KEY]: '{"sidebar":"no","panel":false,"extra":1}' }))).toEqual({ ...DEFAULT_PREFS, panel: false });
    expect(() => savePrefs({ setItem: () => { throw new Error("full"); } }, DEFAULT_PREFS)).not.toThrow();
  });
  it("re-flow is \"auto\" until the writer turns it on or off (hard-wrapped documents re-flowed)", () => {
    expect(DEFAULT_PREFS.reflow).toBe("auto");
    const s = store();
    savePrefs(s, { ...DEFAULT_PREFS, reflow: false });
    expect(loadPrefs(s).reflow).toBe(false);
    savePrefs(s, DEFAULT_PREFS);
    expect(loadPrefs(s).reflow).toBe("auto");
    expect(loadPrefs(store({ [PREFS_KEY]: '{"reflow":"on","sidebar":"auto"}' }))).toEqual(DEFAULT_PREFS);
  });
});

describe("paneLayout", () => {
  const wide = 1400;
  it("docks what the writer shows in a wide window", () => {
    expect(paneLayout(DEFAULT_PREFS, wide, null, false)).toEqual({ sidebar: "docked", panel: "docked" });
    expect(paneLayout({ ...DEFAULT_PREFS, panel: false }, wide, null, false)).toEqual({ sidebar: "docked", panel: "hidden" });
  });
  it("hides the sidebar first, then the panel, as the window narrows; one shows over the text when peeked at", () => {
    expect(paneLayout(DEFAULT_PREFS, BREAKPOINT.sidebar - 1, null, false)).toEqual({ sidebar: "hidden", panel: "docked" });
    expect(paneLayout(DEFAULT_PREFS, 760, null, false)).toEqual({ sidebar: "hidden", panel: "hidden" });
    expect(paneLayout(DEFAULT_PREFS, 760, "panel", false)).toEqual({ sidebar: "hidden", panel: "overlay" });
  });
  it("hides both in focus mode", () => {
    expect(paneLayout(DEFAULT_PREFS, wide, "sidebar", true)).toEqual({ sidebar: "hidden", panel: "hidden" });
  });
});

describe("togglePane", () => {
  it("flips the preference where the panel docks, peeks where it cannot", () => {
    expect(togglePane(DEFAULT_PREFS, 1400, null, "sidebar")).toEqual({ prefs: { ...DEFAULT_PREFS, sidebar: false }, peek: null });
    expect(togglePane(DEFAULT_PREFS, 760, null, "sidebar")).toEqual({ prefs: DEFAULT_PREFS, peek: "sidebar" });
    expect(togglePane(DEFAULT_PREFS, 760, "sidebar", "sidebar")).toEqual({ prefs: DEFAULT_PREFS, peek: null });
    expect(togglePane(DEFAULT_PREFS, 760, "sidebar", "panel")).toEqual({ prefs: DEFAULT_PREFS, peek: "panel" });
  });
});
