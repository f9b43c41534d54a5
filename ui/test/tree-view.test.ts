// The sidebar's tree (views/tree.ts) from a plain model, with no App: folders
// first and documents with their badges, the shown one marked; a click opens a
// document, a folder folds (a closed one showing the badges of what it holds),
// an empty folder and an empty workspace offer a new document, ⋯ and a right
// click open a row's menu; a large workspace starts closed but for the way to
// the shown document and draws only a window of its rows; the editor's place
// with no document, and with no folder open; and through a recorded host, a changed entry redraws its
// row without the tree drawn again, a new one or a removed one replaces the
// listing, and only `refreshTree` reads it.
import { beforeEach, describe, expect, it } from "vitest";
import { q } from "./dom";
import type { DocEntry } from "../src/bindings/DocEntry";
import type { WorkspaceInfo } from "../src/bindings/WorkspaceInfo";
import { renderEditorEmpty, renderNoWorkspace, renderTree, refreshTree, treeEntryAdded, treeEntryChanged, treeEntryRemoved, treeFolderAdded, type FolderHost, type TreeActions, type TreeHost } from "../src/views/tree";

const entry = (path: string, proposals = 0, openThreads = 0, sidecarError = false): DocEntry => ({ path, proposals, openThreads, sidecarError });

/** A new listing each time: another root, so the tree's open folders start anew. */
let roots = 0;
const workspace = (documents: DocEntry[], emptyFolders: string[] = []): WorkspaceInfo => ({ root: `/ws${++roots}`, name: "ws", branch: null, documents, emptyFolders });

/** Actions that note what was asked. */
function noting() {
  const calls: string[] = [];
  const actions: TreeActions = {
    open: (path) => void calls.push(`open ${path}`),
    documentMenu: (path, at) => void calls.push(`documentMenu ${path} ${at.x},${at.y}`),
    folderMenu: (folder, at) => void calls.push(`folderMenu ${folder} ${at.x},${at.y}`),
    newDocument: (folder) => void calls.push(`newDocument ${folder}`),
  };
  return { calls, actions };
}

/** A host that keeps the listing and notes what follows a change; `listingChanged(false)` draws the tree again, as App's does. */
function host(ws: WorkspaceInfo, actions: TreeActions, listings: WorkspaceInfo[] = []) {
  const calls: string[] = [];
  const h: TreeHost & { calls: string[] } = {
    ws,
    calls,
    backend: {
      workspace: async () => {
        calls.push("workspace");
        const w = listings.shift();
        if (!w) throw new Error("no listing");
        return w;
      },
    },
    inboxChanged: () => void calls.push("inbox"),
    listingChanged: (treeDrawn) => {
      calls.push(`listing ${treeDrawn}`);
      if (!treeDrawn) renderTree({ ws: h.ws, active: null }, actions);
    },
  };
  return h;
}

const items = () => Array.from(document.querySelectorAll<HTMLElement>(".tree .tree-item"));
const label = (el: HTMLElement) => el.dataset.path ?? `${el.dataset.folder}/`;
const folder = (f: string) => q<HTMLElement>(`.tree-folder[data-folder="${f}"]`)!;
const doc = (p: string) => q<HTMLElement>(`.tree-item[data-path="${p}"]`);

const SMALL = () => workspace([entry("README.md"), entry("essay.md", 4, 1), entry("drafts/notes.md", 0, 0, true), entry("drafts/old/one.md", 2)], ["empty"]);

beforeEach(() => {
  document.body.innerHTML = `<nav class="tree"></nav><div class="editor-host"></div>`;
});

describe("the tree", () => {
  it("draws folders first, documents with their badges, the shown one marked", () => {
    renderTree({ ws: SMALL(), active: "essay.md" }, noting().actions);
    expect(items().map(label)).toEqual(["drafts/", "drafts/old/", "drafts/old/one.md", "drafts/notes.md", "empty/", "README.md", "essay.md"]);
    expect(items().map((el) => el.style.paddingLeft)).toEqual(["8px", "22px", "36px", "22px", "8px", "8px", "8px"]);
    const essay = doc("essay.md")!;
    expect(essay.className).toBe("tree-item active");
    expect(essay.getAttribute("aria-current")).toBe("true");
    expect(essay.querySelector(".badge-proposals")!.textContent).toBe("4");
    expect(essay.querySelector(".badge-threads")!.textContent).toBe("1");
    expect(essay.querySelector(".badge-words")!.textContent).toBe(", 4 pending proposals, 1 open thread");
    expect(doc("README.md")!.className).toBe("tree-item");
    expect(doc("README.md")!.hasAttribute("aria-current")).toBe(false);
    expect(doc("README.md")!.querySelector(".badge")).toBeNull();
    expect(doc("drafts/notes.md")!.querySelector(".badge-error")!.textContent).toBe("!");
    expect(folder("drafts").getAttribute("aria-expanded")).toBe("true");
    expect(folder("empty").hasAttribute("aria-expanded")).toBe(false);
    expect(folder("empty").title).toBe("empty/ (no documents yet): click to add one");
    expect(q(".tree")!.classList.contains("tree-windowed")).toBe(false);
  });

  it("opens a document on a click and a row's menu on ⋯ or a right click; an empty folder offers a new document", () => {
    const { calls, actions } = noting();
    renderTree({ ws: SMALL(), active: null }, actions);
    doc("drafts/notes.md")!.click();
    const more = doc("essay.md")!.parentElement!.querySelector<HTMLButtonElement>(".tree-more")!;
    expect(more.getAttribute("aria-label")).toBe("More for essay.md");
    more.click();
    folder("drafts").parentElement!.dispatchEvent(new MouseEvent("contextmenu", { clientX: 5, clientY: 7, bubbles: true, cancelable: true }));
    folder("empty").click();
    expect(calls).toEqual(["open drafts/notes.md", "documentMenu essay.md 0,0", "folderMenu drafts 5,7", "newDocument empty"]);
  });

  it("folds a folder on a click, the closed one showing the badges of what it holds, and keeps the keyboard on it", () => {
    const { calls, actions } = noting();
    renderTree({ ws: SMALL(), active: null }, actions);
    folder("drafts").click();
    expect(folder("drafts").getAttribute("aria-expanded")).toBe("false");
    expect(folder("drafts").querySelector(".tree-chevron")!.textContent).toBe("▸");
    expect(document.activeElement).toBe(folder("drafts"));
    expect(items().map(label)).toEqual(["drafts/", "empty/", "README.md", "essay.md"]);
    expect(folder("drafts").querySelector(".badge-proposals")!.textContent).toBe("2");
    expect(folder("drafts").querySelector(".badge-error")).not.toBeNull();
    folder("drafts").click();
    expect(items().map(label)).toContain("drafts/old/one.md");
    expect(folder("drafts").querySelector(".badge")).toBeNull();
    expect(calls, "folding is the tree's own").toEqual([]);
  });

  it("offers a new document in an empty workspace", () => {
    const { calls, actions } = noting();
    renderTree({ ws: workspace([], ["later"]), active: null }, actions);
    expect(q(".tree-empty p")!.textContent).toBe("No Markdown or text files here.");
    expect(items().map(label)).toEqual(["later/"]);
    q<HTMLButtonElement>(".btn-new-doc")!.click();
    expect(calls).toEqual(["newDocument "]);
    renderTree({ ws: null, active: null }, actions);
    expect(q(".tree")!.children.length).toBe(0);
  });

  it("starts a large workspace closed but for the way to the shown document, and draws a window of its rows", () => {
    const documents: DocEntry[] = [];
    for (let i = 0; i < 900; i++) documents.push(entry(`big/p${String(i).padStart(3, "0")}.md`));
    documents.push(entry("arch/a.md"), entry("arch/b.md", 0, 2));
    renderTree({ ws: workspace(documents), active: "big/p005.md" }, noting().actions);
    expect(folder("big").getAttribute("aria-expanded")).toBe("true");
    expect(folder("arch").getAttribute("aria-expanded")).toBe("false");
    expect(folder("arch").querySelector(".badge-threads")!.textContent).toBe("2");
    expect(q(".tree")!.classList.contains("tree-windowed")).toBe(true);
    expect(items().length).toBeLessThan(100);
    const spacers = Array.from(document.querySelectorAll<HTMLElement>(".tree-spacer")).map((s) => parseInt(s.style.height, 10));
    expect(spacers[0] + spacers[1] + items().length * 28).toBe((1 + 900 + 1) * 28);
    expect(doc("big/p005.md")!.classList.contains("active")).toBe(true);
  });

  it("says what the editor's place shows with no document shown", () => {
    const asked: string[] = [];
    renderEditorEmpty({ documentShown: false, noDocuments: true }, () => void asked.push("new"));
    expect(q(".editor-host .empty p")!.textContent).toBe("This folder has no documents yet.");
    q<HTMLButtonElement>(".btn-new-doc-main")!.click();
    expect(asked).toEqual(["new"]);
    renderEditorEmpty({ documentShown: false, noDocuments: false }, () => undefined);
    expect(q(".editor-host .empty")!.textContent).toBe("Open a document from the list on the left.");
    q(".editor-host")!.replaceChildren();
    renderEditorEmpty({ documentShown: true, noDocuments: true }, () => undefined);
    expect(q(".editor-host")!.children.length, "a document shown: left alone").toBe(0);
  });

  it("says so when no folder could be opened, in the editor's place and the tree", () => {
    // What the window shows while the workspace opens is not left there.
    q(".editor-host")!.replaceChildren(Object.assign(document.createElement("div"), { className: "empty", textContent: "Opening the workspace…" }));
    renderNoWorkspace({ backend: {}, run: async () => undefined, setWorkspace: async () => undefined } as unknown as FolderHost);
    expect(q(".editor-host .empty")!.textContent).toBe("No folder is open: open one, or the sample workspace, from the left.");
    expect(q(".tree .btn-sample")!.textContent).toBe("Open the sample workspace");
  });
});

describe("the listing's changes, through a host", () => {
  it("redraw a changed entry's row, the tree not drawn again; the same entry changes nothing", () => {
    const { actions } = noting();
    const ws = SMALL();
    const hst = host(ws, actions);
    renderTree({ ws, active: null }, actions);
    treeEntryChanged(hst, entry("essay.md", 4, 1));
    expect(hst.calls).toEqual([]);
    treeEntryChanged(hst, entry("essay.md", 0, 3));
    expect(hst.calls).toEqual(["inbox", "listing true"]);
    expect(hst.ws).toBe(ws);
    expect(doc("essay.md")!.querySelector(".badge-proposals")).toBeNull();
    expect(doc("essay.md")!.querySelector(".badge-threads")!.textContent).toBe("3");
  });

  it("add and remove rows, and show a new folder, by replacing the listing; nothing is read", () => {
    const { actions } = noting();
    const ws = SMALL();
    const hst = host(ws, actions);
    renderTree({ ws, active: null }, actions);
    treeEntryAdded(hst, entry("empty/first.md", 1));
    expect(hst.ws).not.toBe(ws);
    expect(hst.ws!.emptyFolders).toEqual([]);
    expect(doc("empty/first.md")!.querySelector(".badge-proposals")!.textContent).toBe("1");
    treeEntryRemoved(hst, "drafts/old/one.md", true);
    expect(doc("drafts/old/one.md")).toBeNull();
    expect(folder("drafts/old").title).toBe("drafts/old/ (no documents yet): click to add one");
    treeFolderAdded(hst, "new");
    expect(folder("new")).not.toBeNull();
    treeFolderAdded(hst, "new");
    expect(hst.calls).toEqual(["inbox", "listing false", "inbox", "listing false", "inbox", "listing false"]);
  });

  it("read the listing again only in refreshTree, a failed read leaving it", async () => {
    const { actions } = noting();
    const ws = SMALL();
    const next = { ...ws, documents: [entry("README.md")] };
    const hst = host(ws, actions, [next]);
    renderTree({ ws, active: null }, actions);
    await refreshTree(hst);
    expect(hst.ws).toBe(next);
    expect(items().map(label)).toEqual(["empty/", "README.md"]);
    await refreshTree(hst);
    expect(hst.ws).toBe(next);
    expect(hst.calls).toEqual(["inbox", "workspace", "listing false", "inbox", "workspace"]);
  });
});
