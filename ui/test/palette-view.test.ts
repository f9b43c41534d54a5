// Go to document… and the command palette (views/palette.ts) with plain hosts,
// no App: the documents by a few letters of their names (the folder beside the
// name), the first selected, the arrows moving the selection, Enter opening
// it and closing the picker; a folder with none says so; the commands by every
// word typed, in their titles or keywords, a click running one.
import { beforeEach, describe, expect, it } from "vitest";
import { q, stubLayout } from "./dom";
import type { Command } from "../src/commands";
import { openPalette, openQuickOpen, type QuickOpenHost } from "../src/views/palette";

const calls: string[] = [];
const view = { focus: () => void calls.push("editor focused") };

const quickOpen = (paths: string[] | null): QuickOpenHost => ({
  view,
  ws: paths && { documents: paths.map((path) => ({ path })) },
  open: async (path) => void calls.push(`open ${path}`),
});

const input = () => q<HTMLInputElement>(".palette-input")!;
const rows = () => Array.from(document.querySelectorAll<HTMLElement>(".palette-list li"));
const selected = () => rows().find((li) => li.getAttribute("aria-selected") === "true");
const type = (text: string) => {
  input().value = text;
  input().dispatchEvent(new Event("input"));
};
const key = (k: string) => input().dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));

beforeEach(() => {
  stubLayout();
  document.body.innerHTML = `<div class="modal-root"></div>`;
  calls.length = 0;
});

describe("Go to document…", () => {
  it("finds documents by a few letters, moves with the arrows and opens the selected one on Enter", () => {
    openQuickOpen(quickOpen(["essay.md", "drafts/notes.md", "drafts/old/notes-2.md"]));
    expect(document.activeElement).toBe(input());
    expect(q(".modal")!.getAttribute("aria-label")).toBe("Go to document");
    expect(rows().map((li) => li.dataset.path)).toEqual(["essay.md", "drafts/notes.md", "drafts/old/notes-2.md"]);
    type("notes");
    expect(rows().map((li) => li.dataset.path)).toEqual(["drafts/notes.md", "drafts/old/notes-2.md"]);
    expect(rows()[0].textContent).toBe("notes.mddrafts/");
    expect(selected()?.dataset.path).toBe("drafts/notes.md");
    key("ArrowDown");
    expect(selected()?.dataset.path).toBe("drafts/old/notes-2.md");
    expect(input().getAttribute("aria-activedescendant")).toBe(selected()!.id);
    key("Enter");
    expect(calls).toEqual(["editor focused", "open drafts/old/notes-2.md"]);
    expect(q(".palette")).toBeNull();
  });

  it("says when no name has the letters, or the folder has no documents", () => {
    openQuickOpen(quickOpen(["essay.md"]));
    type("zzz");
    expect(q(".palette-none")!.textContent).toBe("No document's name has those letters.");
    openQuickOpen(quickOpen(null));
    expect(q(".palette-none")!.textContent).toBe("No documents here.");
    key("Enter");
    expect(calls).toEqual([]);
  });
});

describe("the command palette", () => {
  it("finds commands by every word typed, in their titles or keywords, and runs the one clicked", () => {
    const command = (id: string, title: string, keywords?: string): Command => ({ id, title, keys: id === "new" ? "Ctrl+N" : "", keywords, run: () => void calls.push(`run ${id}`) });
    openPalette({ view, commands: [command("new", "New document", "file create"), command("save", "Save"), command("rename", "Rename document…", "file")] });
    expect(q(".modal")!.getAttribute("aria-label")).toBe("Command palette");
    expect(rows().map((li) => li.dataset.command)).toEqual(["new", "save", "rename"]);
    expect(rows()[0].querySelector("kbd")!.textContent).toBe("Ctrl+N");
    type("file");
    expect(rows().map((li) => li.dataset.command)).toEqual(["new", "rename"]);
    type("file ren");
    expect(rows().map((li) => li.dataset.command)).toEqual(["rename"]);
    rows()[0].click();
    expect(calls).toEqual(["editor focused", "run rename"]);
    expect(q(".palette")).toBeNull();
  });
});
