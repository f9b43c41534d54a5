// Documents as files (issue 13, "Documents"), against a test double of the
// Backend that keeps a workspace in memory: an empty workspace offers New
// document; the name dialog says what is wrong in place (its own check and the
// core's refusal); a new document opens focused; Ctrl+N; the palette finds
// the commands by "new" and "file"; a rename keeps the tab, its buffer and
// unsaved state, and later edits go under the new name; Delete asks, then the
// tab closes; a new folder shows in the tree; none of these lists the
// workspace again (the tree moves the rows the answers name). The real app:
// tests/e2e/documents.test.mjs.
import { describe, expect, it, vi } from "vitest";
import { EditorView } from "@codemirror/view";
import { q, stubLayout, until } from "./dom";
import { documentName } from "../src/model/doc-names";

const fake = vi.hoisted(() => ({
  files: new Map<string, string>(),
  folders: new Set<string>(),
  edits: [] as string[],
  renames: [] as [string, string][],
  trashed: [] as string[],
  /** How many times the app listed the workspace. */
  listings: 0,
  /** ... when it had started. */
  atStart: 0,
}));

vi.mock("../src/backend", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../src/backend")>();
  const { fakeBackend, emptyReview } = await import("./fake-backend");
  const exists = (path: string) => ({ code: "exists", message: `${path}: a file already exists; nothing was changed` });
  const backend = fakeBackend({
    workspace: async () => (fake.listings++, {
      root: "/ws",
      name: "ws",
      branch: null,
      documents: [...fake.files.keys()].sort().map((path) => ({ path, proposals: 0, openThreads: 0, sidecarError: false })),
      emptyFolders: [...fake.folders].filter((f) => ![...fake.files.keys()].some((p) => p.startsWith(`${f}/`))).sort(),
    }),
    openDocument: async (path) => ({ path, text: fake.files.get(path) ?? "", version: 1, dirty: false, review: emptyReview() }),
    newDocument: async (name) => {
      const path = documentName(name);
      if (fake.files.has(path)) throw exists(path);
      fake.files.set(path, "");
      // As the core answers: the review's entry is the new document's.
      return { path, text: "", version: 1, dirty: false, review: { ...emptyReview(), entry: { path, proposals: 0, openThreads: 0, sidecarError: false } } };
    },
    renameDocument: async (from, to) => {
      const path = documentName(to);
      if (fake.files.has(path)) throw exists(path);
      fake.files.set(path, fake.files.get(from) ?? "");
      fake.files.delete(from);
      fake.renames.push([from, path]);
      return { path, proposals: 0, openThreads: 0, sidecarError: false };
    },
    trashDocument: async (path) => {
      fake.files.delete(path);
      fake.trashed.push(path);
    },
    newFolder: async (name) => {
      fake.folders.add(name);
      return name;
    },
    edit: async (path, version) => {
      fake.edits.push(path);
      return { version: version + 1, dirty: true };
    },
  });
  return { ...orig, tauriBackend: async () => backend };
});

const key = (k: string, mods: KeyboardEventInit = {}, target: EventTarget = window) =>
  target.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...mods }));

function view(): EditorView {
  const v = EditorView.findFromDOM(q(".cm-editor")!);
  if (!v) throw new Error("no editor");
  return v;
}

function type(input: HTMLInputElement, value: string) {
  input.value = value;
  input.dispatchEvent(new Event("input"));
}

describe("documents", () => {
  it("an empty workspace offers New document; the new one opens focused", async () => {
    stubLayout();
    await import("../src/main");
    await until(() => q(".btn-new-doc"), "the empty workspace's New document");
    fake.atStart = fake.listings;
    expect(q(".tree-empty")!.textContent).toContain("No Markdown or text files here.");
    expect(q(".editor-host .empty")!.textContent).toContain("This folder has no documents yet.");
    expect(q(".btn-new-doc-main"), "the editor's place offers it too").not.toBeNull();
    q<HTMLButtonElement>(".btn-new-doc")!.click();
    await until(() => q(".name-input"), "the name field");
    const input = q<HTMLInputElement>(".name-input")!;
    expect(document.activeElement).toBe(input);

    type(input, ".hidden");
    expect(q(".name-error")!.textContent).toMatch(/hidden/);
    expect(q<HTMLButtonElement>(".name-ok")!.disabled).toBe(true);
    key("Enter", {}, input);
    expect(fake.files.size, "nothing is asked of the core").toBe(0);

    type(input, "notes");
    expect(q(".name-error")!.textContent).toBe("");
    expect(q(".name-hint")!.textContent).toBe("Saved as notes.md");
    key("Enter", {}, input);
    await until(() => q('.tab[data-path="notes.md"]'), "the new document's tab");
    expect(q(".modal"), "the dialog closed").toBeNull();
    expect(q(".tab.active")!.getAttribute("data-path")).toBe("notes.md");
    expect(document.activeElement).toBe(view().contentDOM);
    await until(() => q('.tree-item[data-path="notes.md"]'), "the new document in the tree");
    expect(q(".btn-new-doc")).toBeNull();
  });

  it("Ctrl+N asks again, and the core's refusal is said in place", async () => {
    key("n", { ctrlKey: true });
    await until(() => q(".name-input"), "the name field after Ctrl+N");
    const input = q<HTMLInputElement>(".name-input")!;
    type(input, "notes.md");
    key("Enter", {}, input);
    await until(() => q(".name-error")!.textContent, "the core's refusal");
    expect(q(".name-error")!.textContent).toBe("notes.md: a file already exists; nothing was changed");
    expect(q(".name-input"), "the dialog stays for another name").not.toBeNull();
    key("Escape");
    expect(q(".modal")).toBeNull();
  });

  it("the palette finds the commands by 'new' and 'file'", async () => {
    key("p", { ctrlKey: true, shiftKey: true });
    await until(() => q(".palette-input"), "the palette");
    const input = q<HTMLInputElement>(".palette-input")!;
    const listed = () => Array.from(document.querySelectorAll(".palette-list li")).map((li) => li.getAttribute("data-command"));
    type(input, "new");
    expect(listed()).toEqual(expect.arrayContaining(["new-document", "new-folder"]));
    type(input, "file");
    expect(listed()).toEqual(expect.arrayContaining(["new-document", "rename-document", "delete-document", "new-folder"]));
    type(input, "trash");
    expect(listed()).toEqual(["delete-document"]);
    key("Escape");
  });

  it("a rename keeps the tab, its buffer and unsaved state; later edits go under the new name", async () => {
    const v = view();
    v.dispatch({ changes: { from: 0, insert: "Hello" }, userEvent: "input.type" });
    await until(() => q('.tab[data-path="notes.md"].dirty'), "the unsaved mark");
    await until(() => fake.edits.length === 1, "the edit sent");
    expect(fake.edits).toEqual(["notes.md"]);

    q<HTMLButtonElement>('.tree-item[data-path="notes.md"]')!.nextElementSibling!.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    await until(() => q('.menu-item[data-action="Rename…"]'), "the item's menu");
    q<HTMLButtonElement>('.menu-item[data-action="Rename…"]')!.click();
    await until(() => q(".name-input"), "the rename field");
    const input = q<HTMLInputElement>(".name-input")!;
    expect(input.value).toBe("notes.md");
    expect(input.value.slice(input.selectionStart!, input.selectionEnd!)).toBe("notes");
    type(input, "drafts/essay");
    expect(q(".name-hint")!.textContent).toMatch(/^Renamed to drafts\/essay\.md/);
    key("Enter", {}, input);
    await until(() => q('.tab[data-path="drafts/essay.md"]'), "the renamed tab");
    expect(fake.renames).toEqual([["notes.md", "drafts/essay.md"]]);
    expect(q('.tab[data-path="notes.md"]')).toBeNull();
    expect(document.querySelectorAll(".tab").length).toBe(1);
    expect(q('.tab[data-path="drafts/essay.md"]')!.classList.contains("dirty"), "still unsaved").toBe(true);
    expect(view()).toBe(v);
    expect(v.state.doc.toString()).toBe("Hello");
    await until(() => q('.tree-item[data-path="drafts/essay.md"]'), "the tree to follow");

    v.dispatch({ changes: { from: 5, insert: "!" }, userEvent: "input.type" });
    await until(() => fake.edits.length === 2, "the next edit");
    expect(fake.edits[1]).toBe("drafts/essay.md");
  });

  it("Delete asks first, then the tab closes and the workspace is empty again", async () => {
    q<HTMLButtonElement>('.tree-item[data-path="drafts/essay.md"]')!.parentElement!.dispatchEvent(
      new MouseEvent("contextmenu", { bubbles: true, cancelable: true, clientX: 20, clientY: 40 }),
    );
    await until(() => q('.menu-item[data-action="Delete (to the trash)…"]'), "the context menu");
    q<HTMLButtonElement>('.menu-item[data-action="Delete (to the trash)…"]')!.click();
    await until(() => q('[data-action="Move to trash"]'), "the question");
    expect(q(".modal p")!.textContent).toMatch(/^Move drafts\/essay\.md to the trash\? .*restore them from the system trash\. Its unsaved changes are lost\.$/);
    q<HTMLButtonElement>('[data-action="Cancel"]')!.click();
    await new Promise((r) => setTimeout(r, 30));
    expect(fake.trashed, "Cancel deletes nothing").toEqual([]);

    q<HTMLButtonElement>('.tree-item[data-path="drafts/essay.md"]')!.nextElementSibling!.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    await until(() => q('.menu-item[data-action="Delete (to the trash)…"]'), "the menu again");
    q<HTMLButtonElement>('.menu-item[data-action="Delete (to the trash)…"]')!.click();
    await until(() => q('[data-action="Move to trash"]'), "the question again");
    q<HTMLButtonElement>('[data-action="Move to trash"]')!.click();
    await until(() => !q(".tab"), "the tab to close");
    expect(fake.trashed).toEqual(["drafts/essay.md"]);
    await until(() => q(".btn-new-doc"), "the empty workspace again");
    expect(q(".btn-new-doc-main")).not.toBeNull();
  });

  it("a new folder shows in the tree, and a click on it starts a document there", async () => {
    key("p", { ctrlKey: true, shiftKey: true });
    await until(() => q(".palette-input"), "the palette");
    type(q<HTMLInputElement>(".palette-input")!, "new folder");
    q<HTMLElement>('.palette-list li[data-command="new-folder"]')!.click();
    await until(() => q(".name-input"), "the folder's name field");
    const input = q<HTMLInputElement>(".name-input")!;
    type(input, "chapters");
    expect(q(".name-hint")!.textContent).toBe("Makes chapters/");
    key("Enter", {}, input);
    await until(() => q('.tree-folder[data-folder="chapters"]'), "the folder in the tree");
    q<HTMLButtonElement>('.tree-folder[data-folder="chapters"]')!.click();
    await until(() => q(".name-input"), "a new document's name field");
    expect(q<HTMLInputElement>(".name-input")!.value).toBe("chapters/");
    key("Escape");
  });

  it("no click listed the workspace again: new, rename, delete and new folder each moved their rows", () => {
    expect(fake.listings - fake.atStart).toBe(0);
  });
});
