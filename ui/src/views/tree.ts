// The sidebar: the workspace's folders, which fold, and documents (with their
// proposal, thread and error badges; a closed folder shows those of what it
// holds), each with its menu (right click or ⋯: views/doc-actions.ts); only the
// rows on screen are drawn when there are many (model/tree-model.ts); "New document"
// when there are none (in the editor's place too); the recent folders; and
// what shows when no folder is open.
// The tree is drawn from a plain model (the listing, the document shown) with
// the actions a row has (`renderTree(model, actions)`; App.showTree builds
// both); which folders are open and which rows are drawn are the module's own.
// What changes the listing here (a row added, changed or removed, a folder
// made, the listing read again) goes through a `TreeHost`: the listing, the
// core's `workspace`, and what follows a change (the Inbox, the tree, the
// status bar), which the App is (edit-sync.ts and doc-actions.ts pass it, and
// App.onNotice). The no-folder notice and the recent folders take what they
// use of the App (`FolderHost`): opening a folder is the App's.
import type { Backend } from "../backend";
import type { DocEntry } from "../bindings/DocEntry";
import type { WorkspaceInfo } from "../bindings/WorkspaceInfo";
import { allFolders, ancestors, buildTree, OPEN_ALL_UP_TO, replaceEntry, visibleRows, windowOf, type TreeFolder, type TreeRow } from "../model/tree-model";
import { $, h } from "../dom";
import { plural } from "../model/jobs";

/** What the tree draws: the workspace's listing (null: no folder open) and the document shown (null: none). */
export interface TreeModel {
  ws: WorkspaceInfo | null;
  active: string | null;
}

/** A point on screen, where a menu opens. */
export interface At {
  x: number;
  y: number;
}

/** What the tree's rows do. */
export interface TreeActions {
  /** Open a document and show it. */
  open(path: string): void;
  /** A document's menu, at a point (its right click, its ⋯ button). */
  documentMenu(path: string, at: At): void;
  /** A folder's menu, at a point. */
  folderMenu(folder: string, at: At): void;
  /** New document, in `folder` ("": the workspace's top). */
  newDocument(folder: string): void;
}

/**
 * What the functions that change the listing use: the listing itself, the
 * core's listing to read it again, and what follows a change.
 */
export interface TreeHost {
  ws: WorkspaceInfo | null;
  readonly backend: Pick<Backend, "workspace">;
  /** What waits across the workspace may have changed: the Inbox asks the core again. */
  inboxChanged(): void;
  /** The listing in `ws` changed: the tree is drawn again from it (unless `treeDrawn`: it redrew its own rows), and the status bar. */
  listingChanged(treeDrawn: boolean): void;
}

/** What the no-folder notice and the recent folders use of the App: opening a folder. */
export interface FolderHost {
  readonly ws: WorkspaceInfo | null;
  readonly backend: Pick<Backend, "openSample" | "openFolder" | "recentFolders">;
  /** Run `f`, an error said in a toast. */
  run<T>(f: () => Promise<T>): Promise<T | undefined>;
  setWorkspace(w: WorkspaceInfo): Promise<void>;
}

/** The tree's state for the workspace it was built for: its model and the open folders, kept across renders. */
const tree = {
  ws: null as WorkspaceInfo | null,
  root: null as TreeFolder | null,
  open: new Set<string>(),
  rows: [] as TreeRow[],
  /** The window of rows drawn (all of them when there are few). */
  drawn: { start: 0, end: 0 },
  /** The document shown, as last given: its row is marked (in every redraw until the next), its folders opened once. */
  active: null as string | null,
  /** What the rows do, as last given (a scroll or a changed entry draws rows again with them). */
  actions: null as TreeActions | null,
  scrolling: false,
};

/** Rows are this many px high (styles.css: .tree-row), so a long tree draws only what is on screen. */
const ROW = 28;
/** Up to this many rows, all are drawn; more, only the window on screen. */
const DRAW_ALL_UP_TO = 400;

/**
 * Draw the tree: folders that fold (all open in a small workspace; closed in a
 * large one, except the way to the open document), and of the rows only those
 * on screen when there are many. Cheap to call again: the model is built once
 * per listing, and an unchanged listing redraws only the window.
 */
export function renderTree(model: TreeModel, actions: TreeActions) {
  const el = $(".tree");
  const ws = model.ws;
  tree.actions = actions;
  if (!ws) {
    el.replaceChildren();
    tree.ws = null;
    return;
  }
  if (tree.ws !== ws) {
    const sameRoot = tree.ws?.root === ws.root;
    tree.ws = ws;
    tree.root = buildTree(ws.documents, ws.emptyFolders);
    if (!sameRoot) tree.open = new Set(ws.documents.length <= OPEN_ALL_UP_TO ? allFolders(tree.root) : []);
    else if (ws.documents.length <= OPEN_ALL_UP_TO) for (const f of allFolders(tree.root)) tree.open.add(f);
  }
  // The open document's folders are open.
  if (model.active && model.active !== tree.active) for (const a of ancestors(model.active)) tree.open.add(a);
  tree.active = model.active;
  if (!ws.documents.length) {
    const create = h("button", { class: "btn-new-doc", text: "New document" });
    create.addEventListener("click", () => actions.newDocument(""));
    el.replaceChildren(h("div", { class: "tree-empty" }, h("p", { text: "No Markdown or text files here." }), create));
    for (const r of visibleRows(tree.root!, tree.open)) el.append(rowOf(r));
    tree.rows = [];
  } else {
    tree.rows = visibleRows(tree.root!, tree.open);
    draw(true);
  }
  if (!tree.scrolling) {
    tree.scrolling = true;
    let queued = false;
    el.addEventListener("scroll", () => {
      if (queued || tree.rows.length <= DRAW_ALL_UP_TO) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        draw(false);
      });
    });
  }
}

/** Draw the rows on screen (all of them when there are few); `force` redraws an unchanged window. */
function draw(force: boolean) {
  const el = $(".tree");
  const rows = tree.rows;
  const all = rows.length <= DRAW_ALL_UP_TO;
  const { start, end } = all ? { start: 0, end: rows.length } : windowOf(rows.length, el.scrollTop, el.clientHeight || 600, ROW);
  if (!force && start === tree.drawn.start && end === tree.drawn.end) return;
  tree.drawn = { start, end };
  const parts: HTMLElement[] = [];
  if (!all) parts.push(h("div", { class: "tree-spacer", style: `height:${start * ROW}px` }));
  for (let i = start; i < end; i++) parts.push(rowOf(rows[i]));
  if (!all) parts.push(h("div", { class: "tree-spacer", style: `height:${(rows.length - end) * ROW}px` }));
  // The row with the keyboard's focus keeps it across the redraw (a scroll redraws the window).
  const had = el.contains(document.activeElement) ? (document.activeElement as HTMLElement) : null;
  const path = had?.dataset.path;
  const folder = had?.dataset.folder;
  el.replaceChildren(...parts);
  el.classList.toggle("tree-windowed", !all);
  if (path !== undefined || folder !== undefined) {
    const again = Array.from(el.querySelectorAll<HTMLElement>(".tree-item")).find((r) => (path !== undefined ? r.dataset.path === path : r.dataset.folder === folder));
    again?.focus({ preventScroll: true });
  }
}

/** One row: a folder (click folds it; one with no documents offers a new one) or a document. */
function rowOf(r: TreeRow): HTMLElement {
  const actions = tree.actions!;
  const indent = `padding-left:${8 + r.depth * 14}px`;
  if (r.kind === "doc") {
    const d = r.doc;
    const active = d.path === tree.active;
    const item = h(
      "button",
      {
        class: `tree-item${active ? " active" : ""}`,
        "data-path": d.path,
        title: d.path,
        style: indent,
        ...(active ? { "aria-current": "true" } : {}),
      },
      h("span", { class: "tree-name", text: r.name }),
      ...badges(d),
    );
    item.addEventListener("click", () => actions.open(d.path));
    return row(item, `More for ${d.path}`, (at) => actions.documentMenu(d.path, at));
  }
  const f = r.folder;
  const empty = f.size === 0;
  const item = h(
    "button",
    {
      class: "tree-item tree-folder",
      "data-folder": f.path,
      title: empty ? `${f.path}/ (no documents yet): click to add one` : `${f.path}/ (${f.size} document${f.size === 1 ? "" : "s"})`,
      style: indent,
      ...(empty ? {} : { "aria-expanded": String(r.open) }),
    },
    h("span", { class: "tree-chevron", "aria-hidden": "true", text: empty ? "" : r.open ? "▾" : "▸" }),
    h("span", { class: "tree-name", text: `${f.name}/` }),
    ...(r.open ? [] : badges({ path: f.path, proposals: f.proposals, openThreads: f.openThreads, sidecarError: f.sidecarErrors > 0 })),
  );
  item.addEventListener("click", () => {
    if (empty) return actions.newDocument(f.path);
    if (tree.open.has(f.path)) tree.open.delete(f.path);
    else tree.open.add(f.path);
    tree.rows = visibleRows(tree.root!, tree.open);
    item.focus();
    draw(true);
  });
  return row(item, `More for ${f.path}/`, (at) => actions.folderMenu(f.path, at));
}

/** What the editor's place shows with no document open: whether one is shown, whether the workspace has none. */
export interface EditorEmptyModel {
  documentShown: boolean;
  /** A folder is open and holds no documents. */
  noDocuments: boolean;
}

/** What the editor's place shows with no document open: a way to start one in an empty workspace (`newDocument`). */
export function renderEditorEmpty(model: EditorEmptyModel, newDocument: () => void) {
  if (model.documentShown) return;
  const host = $(".editor-host");
  if (model.noDocuments) {
    const create = h("button", { class: "btn-new-doc-main", text: "New document" });
    create.addEventListener("click", () => newDocument());
    host.replaceChildren(h("div", { class: "empty" }, h("p", { text: "This folder has no documents yet." }), create, h("p", { class: "empty-keys", text: "Ctrl+N" })));
  } else host.replaceChildren(h("div", { class: "empty", text: "Open a document from the list on the left." }));
}

/** A tree item with its menu: on a right click, and under its ⋯ button. */
function row(item: HTMLElement, label: string, open: (at: At) => void): HTMLElement {
  const more = h("button", { class: "tree-more", title: label, "aria-label": label, "aria-haspopup": "menu", text: "⋯" });
  more.addEventListener("click", (e) => {
    e.stopPropagation();
    const r = more.getBoundingClientRect();
    open({ x: r.left, y: r.bottom });
  });
  const el = h("div", { class: "tree-row" }, item, more);
  el.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    open({ x: e.clientX, y: e.clientY });
  });
  return el;
}

/** A document's badges in the tree: pending proposals, open threads, unreadable review data. */
function badges(d: DocEntry): (HTMLElement | null)[] {
  const counts = [
    d.proposals ? plural(d.proposals, "pending proposal") : null,
    d.openThreads ? plural(d.openThreads, "open thread") : null,
    d.sidecarError ? "review data unreadable" : null,
  ]
    .filter(Boolean)
    .join(", ");
  return [
    // The badges are read as words ("essay.md, 4 pending proposals, 1 open thread"), not "essay.md 4 1".
    counts ? h("span", { class: "visually-hidden badge-words", text: `, ${counts}` }) : null,
    d.proposals ? h("span", { class: "badge badge-proposals", title: `${d.proposals} pending proposal(s)`, text: String(d.proposals), "aria-hidden": "true" }) : null,
    d.openThreads ? h("span", { class: "badge badge-threads", title: `${d.openThreads} open thread(s)`, text: String(d.openThreads), "aria-hidden": "true" }) : null,
    d.sidecarError ? h("span", { class: "badge badge-error", title: "The review data of this document cannot be read", text: "!", "aria-hidden": "true" }) : null,
  ];
}

/**
 * A document is on disk with this entry (a new or renamed one, or the
 * watcher's `entryChanged`): its row is added if the tree lacks it, else its
 * badges follow (`treeEntryChanged`). Nothing is read.
 */
export function treeEntryAdded(host: TreeHost, entry: DocEntry) {
  const ws = host.ws;
  if (!ws) return;
  if (ws.documents.some((d) => d.path === entry.path)) return treeEntryChanged(host, entry);
  // Its folders come with it, and it is in none of the empty ones now.
  const documents = [...ws.documents, entry];
  const emptyFolders = ws.emptyFolders.filter((f) => !entry.path.startsWith(`${f}/`));
  workspaceChanged(host, { ...ws, documents, emptyFolders });
}

/**
 * A core answer said what a listed document's entry is now (every review
 * carries it): its row's badges are redrawn if they changed, and nothing is
 * read — a decision does not make the app list the workspace again.
 */
export function treeEntryChanged(host: TreeHost, entry: DocEntry) {
  const ws = host.ws;
  const i = ws?.documents.findIndex((d) => d.path === entry.path) ?? -1;
  if (!ws || i < 0) return;
  const old = ws.documents[i];
  if (old.proposals === entry.proposals && old.openThreads === entry.openThreads && old.sidecarError === entry.sidecarError) return;
  ws.documents[i] = entry;
  if (tree.ws === ws && tree.root && replaceEntry(tree.root, entry)) {
    // The row and the closed folders it is in, as drawn now.
    tree.rows = visibleRows(tree.root, tree.open);
    draw(true);
  }
  // The badges changed: so did what waits across the workspace.
  host.inboxChanged();
  host.listingChanged(true);
}

/**
 * A document is gone (deleted, renamed, or removed on disk): its row goes.
 * `folderLeft`: its folder is still there, and shows as empty if nothing else
 * is in it.
 */
export function treeEntryRemoved(host: TreeHost, path: string, folderLeft: boolean) {
  const ws = host.ws;
  if (!ws || !ws.documents.some((d) => d.path === path)) return;
  const documents = ws.documents.filter((d) => d.path !== path);
  const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  const emptyFolders = [...ws.emptyFolders];
  if (folderLeft && folder && !documents.some((d) => d.path.startsWith(`${folder}/`)) && !emptyFolders.includes(folder)) emptyFolders.push(folder);
  workspaceChanged(host, { ...ws, documents, emptyFolders });
}

/** A folder was made (New folder…): it shows, empty, until a document is in it. */
export function treeFolderAdded(host: TreeHost, folder: string) {
  const ws = host.ws;
  if (!ws || ws.emptyFolders.includes(folder) || ws.documents.some((d) => d.path.startsWith(`${folder}/`))) return;
  workspaceChanged(host, { ...ws, emptyFolders: [...ws.emptyFolders, folder] });
}

/** The listing changed here, without being read: the tree is built again from it (its open folders kept). */
function workspaceChanged(host: TreeHost, ws: WorkspaceInfo) {
  host.ws = ws;
  host.inboxChanged();
  host.listingChanged(false);
}

/**
 * Read the whole listing again: only for what may have changed anything (git
 * checked out another branch: the `treeChanged` notice). Every other change
 * names its rows (`treeEntryAdded`, `treeEntryChanged`, `treeEntryRemoved`, `treeFolderAdded`).
 */
export async function refreshTree(host: TreeHost) {
  host.inboxChanged();
  const w = await host.backend.workspace().catch(() => null);
  if (w) {
    host.ws = w;
    host.listingChanged(false);
  }
}

/** What shows when no folder is open: a way to open the sample workspace. */
export function renderNoWorkspace(host: FolderHost) {
  $(".editor-host").replaceChildren(h("div", { class: "empty", text: "No folder is open: open one, or the sample workspace, from the left." }));
  $(".tree").replaceChildren(
    h("div", { class: "tree-empty" }, "No folder is open.", h("br"), h("button", { class: "btn-sample", text: "Open the sample workspace" })),
  );
  $(".btn-sample").addEventListener("click", () => void host.run(async () => host.setWorkspace(await host.backend.openSample())));
}

/** The recent folders but the open one (up to five), to open one from. */
export async function renderRecent(host: FolderHost) {
  const list = await host.backend.recentFolders().catch(() => []);
  const el = $(".recent");
  el.replaceChildren();
  const others = list.filter((p) => p !== host.ws?.root).slice(0, 5);
  if (!others.length) return;
  const sel = h("select", { class: "recent-select", title: "Recent folders", "aria-label": "Recent folders" }, h("option", { value: "", text: "Recent folders…" }));
  for (const p of others) sel.append(h("option", { value: p, text: p.split("/").slice(-2).join("/") }));
  sel.addEventListener("change", () => {
    if (sel.value) void host.run(async () => host.setWorkspace(await host.backend.openFolder(sel.value)));
  });
  el.append(sel);
}
