// The window's layout (views/panes.ts) with a plain host, no App: the side
// panels docked in a wide window, hidden and shown by their buttons and keys
// (the choice kept in storage, the buttons' pressed state following); in a
// narrow one the sidebar over the text until a document is picked; focus mode
// hiding both and Esc leaving it, the keyboard back in the editor; the reading
// width; Ctrl+Shift+O asking for Go to heading…
import { beforeAll, describe, expect, it } from "vitest";
import type { EditorView } from "@codemirror/view";
import { q } from "./dom";
import { PREFS_KEY } from "../src/model/layout-state";
import { toggleReadingWidth, wirePanes, type PaneActions, type PanesHost } from "../src/views/panes";

const calls: string[] = [];
const host: PanesHost = { view: { focus: () => void calls.push("editor focused") } as unknown as EditorView };
const actions: PaneActions = { headingPicker: () => void calls.push("heading picker") };

const app = () => q(".app")!;
const classes = () => Array.from(app().classList).filter((c) => c !== "app").sort();
const pressed = (b: string) => q(`.tb-${b}`)!.getAttribute("aria-pressed");
const key = (k: string, mods: KeyboardEventInit = {}) => window.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...mods }));
const width = (px: number) => {
  Object.defineProperty(window, "innerWidth", { configurable: true, value: px });
  window.dispatchEvent(new Event("resize"));
};

beforeAll(() => {
  Object.defineProperty(window, "innerWidth", { configurable: true, value: 1400 });
  document.body.innerHTML = `<div class="app">
    <aside class="sidebar"><button class="tree-item" data-path="a.md">a.md</button></aside>
    <main class="main"><div class="topbar"><button class="tb-sidebar"></button><button class="tb-focus"></button><button class="tb-panel"></button></div><div class="editor-host"></div></main>
  </div><div class="modal-root"></div>`;
  wirePanes(host, actions);
});

describe("the layout", () => {
  it("docks both panels in a wide window; a button or its key hides and shows one, the choice kept", () => {
    expect(classes()).toEqual(["panel-docked", "sidebar-docked"]);
    expect([pressed("sidebar"), pressed("panel"), pressed("focus")]).toEqual(["true", "true", "false"]);
    q<HTMLButtonElement>(".tb-sidebar")!.click();
    expect(classes()).toEqual(["panel-docked", "sidebar-hidden"]);
    expect(pressed("sidebar")).toBe("false");
    expect(JSON.parse(localStorage.getItem(PREFS_KEY)!).sidebar).toBe(false);
    key("b", { ctrlKey: true });
    expect(classes()).toEqual(["panel-docked", "sidebar-docked"]);
    key("b", { ctrlKey: true, altKey: true });
    expect(classes()).toEqual(["panel-hidden", "sidebar-docked"]);
    expect(pressed("panel")).toBe("false");
    q<HTMLButtonElement>(".tb-panel")!.click();
    expect(classes()).toEqual(["panel-docked", "sidebar-docked"]);
  });

  it("hides both in focus mode; Esc leaves it, the keyboard back in the editor", () => {
    calls.length = 0;
    q<HTMLButtonElement>(".tb-focus")!.click();
    expect(classes()).toEqual(["focus-mode", "panel-hidden", "sidebar-hidden"]);
    expect(pressed("focus")).toBe("true");
    key("Escape");
    expect(classes()).toEqual(["panel-docked", "sidebar-docked"]);
    key("f", { ctrlKey: true, altKey: true });
    expect(classes()).toContain("focus-mode");
    key("f", { ctrlKey: true, altKey: true });
    expect(classes()).not.toContain("focus-mode");
    expect(calls).toEqual(["editor focused", "editor focused", "editor focused", "editor focused"]);
  });

  it("shows the sidebar over the text in a narrow window until a document is picked in it", () => {
    calls.length = 0;
    width(900);
    expect(classes()).toEqual(["panel-docked", "sidebar-hidden"]);
    key("b", { ctrlKey: true });
    expect(classes()).toEqual(["panel-docked", "sidebar-overlay"]);
    expect(pressed("sidebar")).toBe("true");
    q<HTMLButtonElement>(".tree-item")!.click();
    expect(classes()).toEqual(["panel-docked", "sidebar-hidden"]);
    expect(calls).toEqual(["editor focused"]);
    width(1400);
    expect(classes()).toEqual(["panel-docked", "sidebar-docked"]);
  });

  it("toggles the reading width, and asks for Go to heading… on Ctrl+Shift+O, but not over a dialog", () => {
    calls.length = 0;
    toggleReadingWidth();
    expect(classes()).toContain("reading-wide");
    toggleReadingWidth();
    expect(classes()).not.toContain("reading-wide");
    key("O", { ctrlKey: true, shiftKey: true, code: "KeyO" });
    q(".modal-root")!.append(document.createElement("div"));
    key("O", { ctrlKey: true, shiftKey: true, code: "KeyO" });
    q(".modal-root")!.replaceChildren();
    expect(calls).toEqual(["heading picker"]);
  });
});
