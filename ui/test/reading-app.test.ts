// Reading and navigating (issue 13), against a test double of the Backend: the
// outline (headings, kept as the writer types, a click jumps, the cursor's
// heading marked; Go to heading…), the selected proposal marked in the text
// with its card's line and context and line breaks as ⏎, and the layout (side
// panels hidden and shown and remembered, over the text in a narrow window,
// focus mode, re-flow). The real app: tests/e2e/reading.test.mjs.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { EditorView } from "@codemirror/view";
import { q, stubLayout, until } from "./dom";
import type { ProposalDto } from "../src/bindings/ProposalDto";
import type { ReviewDto } from "../src/bindings/ReviewDto";

const TEXT = [
  "# Why We Write Drafts", // 0
  "",
  "Every piece of writing begins as a mess.",
  "The first draft is where we find out.",
  "",
  "```sh",
  "# not a heading",
  "```",
  "",
  "Working with a machine",
  "----------------------",
  "",
  "A language model can be that second reader.",
  "",
  "### Last words",
  "The end.",
].join("\n");

const at = (s: string) => TEXT.indexOf(s);

function proposal(id: string, from: number, to: number, diff: ProposalDto["diff"]): ProposalDto {
  return {
    id,
    state: "pending",
    from,
    to,
    line: 1,
    target: TEXT.slice(from, to),
    replacement: "",
    current: null,
    reason: null,
    diff,
    author: { kind: "agent", id: "claude", model: null, label: "claude", sdk: null, sessionId: null },
    turnId: "t1",
    instruction: null,
    createdAt: new Date().toISOString(),
    contract: null, hidden: [], likelyPlace: false,
  };
}

const fake = vi.hoisted(() => ({ review: null as ReviewDto | null }));

vi.mock("../src/backend", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../src/backend")>();
  const { fakeBackend } = await import("./fake-backend");
  const backend = fakeBackend(
    {
      workspace: async () => ({ root: "/ws", name: "ws", branch: null, emptyFolders: [], documents: [{ path: "essay.md", proposals: 2, openThreads: 0, sidecarError: false }] }),
      openDocument: async (path) => ({ path, text: TEXT, version: 1, dirty: false, review: fake.review! }),
    },
    () => fake.review!,
  );
  return { ...orig, tauriBackend: async () => backend };
});

const key = (k: string, mods: KeyboardEventInit = {}, target: EventTarget = window) =>
  target.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...mods }));

function view(): EditorView {
  const v = EditorView.findFromDOM(q(".cm-editor")!);
  if (!v) throw new Error("no editor");
  return v;
}

const outlineTexts = () => Array.from(document.querySelectorAll(".outline-item"), (el) => `${el.className.match(/lvl-\d/)![0]} ${el.textContent}`);
const appClass = () => q(".app")!.className;
const setWidth = (w: number) => {
  Object.defineProperty(window, "innerWidth", { value: w, configurable: true, writable: true });
  window.dispatchEvent(new Event("resize"));
};

beforeAll(async () => {
  stubLayout();
  const g = globalThis as unknown as { CSS?: { escape?: (s: string) => string } };
  if (!g.CSS?.escape) g.CSS = { ...g.CSS, escape: (s: string) => s.replace(/["\\]/g, "\\$&") };
  // "Joins the two lines" (removes the line break after "mess.") and "splits one" (adds a break).
  const joinFrom = at("mess.") + 5;
  const splitAt = at("second reader") + 6;
  fake.review = {
    revision: 900,
    proposals: [
      proposal("p-join", joinFrom, joinFrom + 1, [
        { tag: "delete", text: "\n" },
        { tag: "insert", text: " " },
      ]),
      proposal("p-split", splitAt, splitAt + 1, [
        { tag: "delete", text: " " },
        { tag: "insert", text: "\n" },
      ]),
    ],
    threads: [],
    spans: [],
    sidecarError: null,
    canUndo: false,
    canRedo: false,
    entry: { path: "", proposals: 0, openThreads: 0, sidecarError: false },
  };
  // Remembered from an earlier run: the review panel hidden.
  localStorage.setItem("cowriting.layout", JSON.stringify({ panel: false }));
  Object.defineProperty(window, "innerWidth", { value: 1400, configurable: true, writable: true });
  await import("../src/main");
  await until(() => q(".cm-content") && q(".outline-item"), "the document and its outline");
});

describe("the outline", () => {
  it("lists the headings by level, not what is in a code fence", () => {
    expect(outlineTexts()).toEqual(["lvl-1 Why We Write Drafts", "lvl-2 Working with a machine", "lvl-3 Last words"]);
  });

  it("jumps to a heading on a click, focuses the text, and marks the heading the cursor is under", async () => {
    const items = document.querySelectorAll<HTMLElement>(".outline-item");
    items[1].click();
    expect(view().state.selection.main.head).toBe(at("Working with"));
    expect(view().hasFocus).toBe(true);
    await until(() => items[1].classList.contains("current"), "the heading marked");
    expect(document.querySelectorAll(".outline-item.current")).toHaveLength(1);
    view().dispatch({ selection: { anchor: at("The end.") } });
    expect(items[2].classList.contains("current")).toBe(true);
    expect(items[1].classList.contains("current")).toBe(false);
  });

  it("follows the writer's typing once they pause: a new heading, a heading turned to text", async () => {
    const v = view();
    v.dispatch({ changes: { from: at("A language"), insert: "## Inserted\n" }, userEvent: "input.type" });
    await until(() => outlineTexts().includes("lvl-2 Inserted"), "the new heading in the outline");
    expect(outlineTexts()).toEqual(["lvl-1 Why We Write Drafts", "lvl-2 Working with a machine", "lvl-2 Inserted", "lvl-3 Last words"]);
    // Typing words in a paragraph only moves the headings: a click still lands on its heading.
    v.dispatch({ changes: { from: v.state.doc.toString().indexOf("Every"), insert: "Nearly " }, userEvent: "input.type" });
    document.querySelectorAll<HTMLElement>(".outline-item")[3].click();
    expect(v.state.sliceDoc(v.state.selection.main.head, v.state.selection.main.head + 14)).toBe("### Last words");
    // Undo both (the core's undo is not in this double): take them out again.
    const text = v.state.doc.toString();
    v.dispatch({ changes: { from: text.indexOf("## Inserted\n"), to: text.indexOf("## Inserted\n") + 12 } });
    v.dispatch({ changes: { from: text.indexOf("Nearly "), to: text.indexOf("Nearly ") + 7 } });
    await until(() => outlineTexts().length === 3, "the heading gone");
    expect(v.state.doc.toString()).toBe(TEXT);
  });

  it("Go to heading… (Ctrl+Shift+O) picks a heading by a fuzzy match", () => {
    view().dispatch({ selection: { anchor: 0 } });
    key("O", { ctrlKey: true, shiftKey: true, code: "KeyO" });
    const input = q<HTMLInputElement>(".modal .palette-input")!;
    expect(input).not.toBeNull();
    expect(Array.from(document.querySelectorAll(".heading-list li"), (li) => li.firstChild!.textContent)).toEqual([
      "Why We Write Drafts",
      "Working with a machine",
      "Last words",
    ]);
    input.value = "wwam";
    input.dispatchEvent(new Event("input"));
    expect(Array.from(document.querySelectorAll(".heading-list li"), (li) => li.firstChild!.textContent)).toEqual(["Working with a machine"]);
    key("Enter", {}, input);
    expect(q(".modal")).toBeNull();
    expect(view().state.selection.main.head).toBe(at("Working with"));
  });
});

describe("the selected proposal", () => {
  it("is marked in the text (Alt+]) and on its card, which shows its line, its context and ⏎", async () => {
    view().dispatch({ selection: { anchor: 0 } });
    expect(q(".cm-proposal-selected")).toBeNull();
    key("]", { altKey: true }, q(".cm-content")!);
    await until(() => q(".cm-proposal-selected"), "the proposal marked in the text");
    const marked = Array.from(document.querySelectorAll<HTMLElement>(".cm-proposal-selected"));
    expect(new Set(marked.map((el) => el.dataset.proposal))).toEqual(new Set(["p-join"]));
    expect(q(".card.focused")!.dataset.proposal).toBe("p-join");
    // The removed line break shows as ⏎ in the text, the added one too.
    expect(q('.cm-proposal-nl[data-proposal="p-join"]')!.textContent).toBe("⏎");
    expect(q('.cm-proposal-ins[data-proposal="p-split"] .nl-mark')!.textContent).toBe("⏎");
    // The card: ⏎ in its diff, its line and the words around it.
    const card = q('.card[data-proposal="p-join"]')!;
    expect(card.querySelector(".diff-delete .nl-mark")!.textContent).toBe("⏎");
    expect(card.querySelector(".card-line")!.textContent).toBe("L3");
    expect(card.querySelector(".card-target")!.textContent).toBe("⏎");
    expect(card.querySelector(".card-context")!.textContent).toBe("L3…of writing begins as a mess.⏎The first draft is where we…");
    // The next one: the mark moves.
    key("]", { altKey: true }, q(".cm-content")!);
    await until(() => q('.cm-proposal-selected[data-proposal="p-split"]'), "the next proposal marked");
    expect(q('.cm-proposal-selected[data-proposal="p-join"]')).toBeNull();
    expect(q('.card[data-proposal="p-split"]')!.classList.contains("focused")).toBe(true);
  });
});

describe("the layout", () => {
  it("starts as remembered (the review panel hidden), and Ctrl+B / Ctrl+Alt+B toggle and remember the panels", () => {
    expect(appClass()).toContain("sidebar-docked");
    expect(appClass()).toContain("panel-hidden");
    expect(q(".tb-panel")!.getAttribute("aria-pressed")).toBe("false");
    key("b", { ctrlKey: true, code: "KeyB" });
    expect(appClass()).toContain("sidebar-hidden");
    expect(JSON.parse(localStorage.getItem("cowriting.layout")!)).toMatchObject({ sidebar: false, panel: false });
    key("b", { ctrlKey: true, altKey: true, code: "KeyB" });
    expect(appClass()).toContain("panel-docked");
    q<HTMLButtonElement>(".tb-sidebar")!.click();
    expect(appClass()).toContain("sidebar-docked");
    expect(JSON.parse(localStorage.getItem("cowriting.layout")!)).toMatchObject({ sidebar: true, panel: true });
  });

  it("in a narrow window the panels leave the text its width, and show over it when asked", () => {
    setWidth(760);
    expect(appClass()).toContain("sidebar-hidden");
    expect(appClass()).toContain("panel-hidden");
    key("b", { ctrlKey: true, code: "KeyB" });
    expect(appClass()).toContain("sidebar-overlay");
    // Not a preference: the wide window still has both.
    expect(JSON.parse(localStorage.getItem("cowriting.layout")!)).toMatchObject({ sidebar: true, panel: true });
    key("Escape");
    expect(appClass()).toContain("sidebar-hidden");
    q<HTMLButtonElement>(".tb-panel")!.click();
    expect(appClass()).toContain("panel-overlay");
    // Back in the text: it goes.
    view().contentDOM.dispatchEvent(new MouseEvent("mousedown", { bubbles: true }));
    expect(appClass()).toContain("panel-hidden");
    setWidth(1400);
    expect(appClass()).toContain("sidebar-docked");
    expect(appClass()).toContain("panel-docked");
  });

  it("re-flow (Ctrl+Alt+W) shows a hard-wrapped paragraph as one line, the text unchanged; remembered", async () => {
    // The paragraph's first line as shown (with the proposal's marks on it).
    const shown = () => Array.from(document.querySelectorAll(".cm-line"), (l) => l.textContent ?? "").find((l) => l.startsWith("Every piece"))!;
    expect(shown()).not.toContain("The first draft");
    key("w", { ctrlKey: true, altKey: true, code: "KeyW" });
    await until(() => shown().includes("The first draft is where we find out."), "the paragraph joined");
    expect(view().state.doc.toString()).toBe(TEXT);
    expect(Array.from(document.querySelectorAll(".cm-line"), (l) => l.textContent)).toContain("# Why We Write Drafts");
    expect(JSON.parse(localStorage.getItem("cowriting.layout")!)).toMatchObject({ reflow: true });
    key("w", { ctrlKey: true, altKey: true, code: "KeyW" });
    await until(() => !shown().includes("The first draft"), "the lines as in the file");
  });

  it("focus mode (Ctrl+Alt+F) hides both panels; Esc leaves it", () => {
    key("f", { ctrlKey: true, altKey: true, code: "KeyF" });
    expect(appClass()).toContain("focus-mode");
    expect(appClass()).toContain("sidebar-hidden");
    expect(appClass()).toContain("panel-hidden");
    expect(view().hasFocus).toBe(true);
    key("Escape");
    expect(appClass()).not.toContain("focus-mode");
    expect(appClass()).toContain("sidebar-docked");
    // The same key leaves it too.
    key("f", { ctrlKey: true, altKey: true, code: "KeyF" });
    key("f", { ctrlKey: true, altKey: true, code: "KeyF" });
    expect(appClass()).not.toContain("focus-mode");
    // A panel asked for in focus mode: focus mode ends, the panel shows (and stays a preference).
    key("b", { ctrlKey: true, altKey: true, code: "KeyB" });
    expect(appClass()).toContain("panel-hidden");
    key("f", { ctrlKey: true, altKey: true, code: "KeyF" });
    key("b", { ctrlKey: true, altKey: true, code: "KeyB" });
    expect(appClass()).not.toContain("focus-mode");
    expect(appClass()).toContain("panel-docked");
    expect(appClass()).toContain("sidebar-docked");
  });
});
