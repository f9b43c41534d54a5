// The tabs (views/tabs.ts) drawn from a plain model, with no App: names,
// the unsaved and preview marks, the one tab in the Tab order, the editor
// named by the shown tab; a click and Enter show a document, Delete and ×
// close one (the keyboard then on the document shown), the arrows move along.
import { beforeEach, describe, expect, it } from "vitest";
import { q } from "./dom";
import { renderTabs, type TabActions, type TabsModel } from "../src/views/tabs";

const g = globalThis as unknown as { CSS?: { escape?: (s: string) => string } };
if (!g.CSS?.escape) g.CSS = { ...g.CSS, escape: (s: string) => s.replace(/["\\]/g, "\\$&") };

/** Actions that note what was asked; closing resolves with `after` as the document shown. */
function noting(after: string | null = null) {
  const calls: string[] = [];
  const actions: TabActions = {
    activate: (path) => void calls.push(`activate ${path}`),
    close: async (path) => {
      calls.push(`close ${path}`);
      return after;
    },
  };
  return { calls, actions };
}

const MODEL: TabsModel = {
  tabs: [
    { path: "essay.md", dirty: false, preview: false },
    { path: "drafts/notes.md", dirty: true, preview: false },
    { path: "b.md", dirty: false, preview: true },
  ],
  active: "drafts/notes.md",
};

const tab = (path: string) => q(`.tab[data-path="${path}"]`)!;
const label = (path: string) => q(`.tab[data-path="${path}"] .tab-label`)!;
const key = (k: string, target: Element) => target.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));

beforeEach(() => {
  document.body.innerHTML = `<div class="tabs"></div><div class="editor-host"></div>`;
});

describe("the tabs", () => {
  it("draw each document with its marks, the shown one selected and in the Tab order", () => {
    renderTabs(MODEL, noting().actions);
    const tabs = Array.from(document.querySelectorAll<HTMLElement>(".tab"));
    expect(tabs.map((t) => t.dataset.path)).toEqual(["essay.md", "drafts/notes.md", "b.md"]);
    expect(tabs.map((t) => t.className)).toEqual(["tab", "tab active dirty", "tab preview"]);
    expect(tabs.map((t) => t.querySelector(".tab-name")!.textContent)).toEqual(["essay.md", "notes.md", "b.md"]);
    expect(tabs.map((t) => t.querySelector(".tab-label")!.getAttribute("aria-label"))).toEqual(["essay.md", "notes.md, unsaved", "b.md, preview"]);
    expect(tabs.map((t) => t.querySelector(".tab-label")!.getAttribute("aria-selected"))).toEqual(["false", "true", "false"]);
    expect(tabs.map((t) => t.querySelector(".tab-label")!.getAttribute("tabindex"))).toEqual(["-1", "0", "-1"]);
    expect(tab("b.md").title).toMatch(/^b\.md \(opened from the Inbox/);
    const host = q(".editor-host")!;
    expect(host.getAttribute("aria-labelledby")).toBe(label("drafts/notes.md").id);
    expect(host.hasAttribute("aria-label")).toBe(false);
  });

  it("with none shown: the first tab in the Tab order; with none at all, the editor says so", () => {
    renderTabs({ ...MODEL, active: null }, noting().actions);
    expect(label("essay.md").getAttribute("tabindex")).toBe("0");
    expect(q(".editor-host")!.getAttribute("aria-label")).toBe("No document open");
    renderTabs({ tabs: [], active: null }, noting().actions);
    expect(q(".tab")).toBeNull();
    expect(q(".editor-host")!.getAttribute("aria-label")).toBe("No document open");
    expect(q(".editor-host")!.hasAttribute("aria-labelledby")).toBe(false);
  });

  it("show a document by a click, Enter or Space; close one by × or Delete, the keyboard then on the document shown", async () => {
    const { calls, actions } = noting("essay.md");
    renderTabs(MODEL, actions);
    tab("b.md").click();
    key("Enter", label("essay.md"));
    key(" ", label("essay.md"));
    q<HTMLButtonElement>('.tab[data-path="b.md"] .tab-close')!.click();
    expect(calls).toEqual(["activate b.md", "activate essay.md", "activate essay.md", "close b.md"]);
    key("Delete", label("drafts/notes.md"));
    expect(calls[calls.length - 1]).toBe("close drafts/notes.md");
    await new Promise((r) => setTimeout(r, 0));
    expect(document.activeElement).toBe(label("essay.md"));
    expect(label("essay.md").tabIndex).toBe(0);
    expect(label("drafts/notes.md").tabIndex).toBe(-1);
  });

  it("move the keyboard along with the arrows, Home and End, and keep its place when drawn again", () => {
    const { calls, actions } = noting();
    renderTabs(MODEL, actions);
    label("drafts/notes.md").focus();
    key("ArrowRight", label("drafts/notes.md"));
    expect(document.activeElement).toBe(label("b.md"));
    key("Home", label("b.md"));
    expect(document.activeElement).toBe(label("essay.md"));
    key("End", label("essay.md"));
    expect(document.activeElement).toBe(label("b.md"));
    expect(calls, "moving is not showing").toEqual([]);
    renderTabs({ ...MODEL, tabs: MODEL.tabs.map((t) => ({ ...t, dirty: false })) }, actions);
    expect(document.activeElement).toBe(label("b.md"));
    expect(tab("drafts/notes.md").className).toBe("tab active");
  });
});
