// The file tree as folders that fold: built once per listing from the core's
// documents and empty folders, each folder with the badges of what it holds,
// and the rows a given set of open folders shows. Pure: no DOM, no backend.
import type { DocEntry } from "../bindings/DocEntry";

export interface TreeFolder {
  /** Workspace-relative, no trailing slash ("" for the root). */
  path: string;
  name: string;
  folders: TreeFolder[];
  docs: DocEntry[];
  /** Of every document under it. */
  proposals: number;
  openThreads: number;
  sidecarErrors: number;
  /** How many documents are under it, at any depth. */
  size: number;
}

export type TreeRow = { kind: "folder"; folder: TreeFolder; depth: number; open: boolean } | { kind: "doc"; doc: DocEntry; depth: number; name: string };

/** Up to this many documents, every folder starts open; above, folders start closed. */
export const OPEN_ALL_UP_TO = 300;

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function folder(path: string): TreeFolder {
  return { path, name: path.slice(path.lastIndexOf("/") + 1), folders: [], docs: [], proposals: 0, openThreads: 0, sidecarErrors: 0, size: 0 };
}

/** The tree of `documents` (with `emptyFolders`, which hold none): folders first, then documents, by name. */
export function buildTree(documents: readonly DocEntry[], emptyFolders: readonly string[] = []): TreeFolder {
  const root = folder("");
  const folders = new Map<string, TreeFolder>([["", root]]);
  const folderOf = (path: string): TreeFolder => {
    let f = folders.get(path);
    if (f) return f;
    f = folder(path);
    folders.set(path, f);
    const cut = path.lastIndexOf("/");
    folderOf(cut < 0 ? "" : path.slice(0, cut)).folders.push(f);
    return f;
  };
  for (const d of documents) {
    const cut = d.path.lastIndexOf("/");
    folderOf(cut < 0 ? "" : d.path.slice(0, cut)).docs.push(d);
  }
  for (const f of emptyFolders) folderOf(f.replace(/\/+$/, ""));
  const sum = (f: TreeFolder) => {
    f.folders.sort((a, b) => byName(a.name, b.name));
    f.docs.sort((a, b) => byName(a.path, b.path));
    f.proposals = f.openThreads = f.sidecarErrors = 0;
    f.size = f.docs.length;
    for (const d of f.docs) add(f, d, 1);
    for (const c of f.folders) {
      sum(c);
      f.proposals += c.proposals;
      f.openThreads += c.openThreads;
      f.sidecarErrors += c.sidecarErrors;
      f.size += c.size;
    }
  };
  sum(root);
  return root;
}

function add(f: TreeFolder, d: DocEntry, sign: 1 | -1) {
  f.proposals += sign * d.proposals;
  f.openThreads += sign * d.openThreads;
  f.sidecarErrors += sign * (d.sidecarError ? 1 : 0);
}

/** The folders a path is in, outermost first: "a/b/c.md" → ["a", "a/b"]. */
export function ancestors(path: string): string[] {
  const parts = path.split("/");
  const out: string[] = [];
  for (let i = 1; i < parts.length; i++) out.push(parts.slice(0, i).join("/"));
  return out;
}

/** The folders on the way to `path` (from the root), or null where one is missing. */
function chain(root: TreeFolder, path: string): TreeFolder[] | null {
  const out = [root];
  for (const a of ancestors(path)) {
    const next = out[out.length - 1].folders.find((f) => f.path === a);
    if (!next) return null;
    out.push(next);
  }
  return out;
}

/**
 * Put `entry` in place of the document of the same path and move the badges of
 * every folder it is in by the difference. Returns false when the tree has no
 * such document (it is not listed yet: the listing will bring it).
 */
export function replaceEntry(root: TreeFolder, entry: DocEntry): boolean {
  const folders = chain(root, entry.path);
  const home = folders?.[folders.length - 1];
  const i = home?.docs.findIndex((d) => d.path === entry.path) ?? -1;
  if (!folders || !home || i < 0) return false;
  const old = home.docs[i];
  home.docs[i] = entry;
  for (const f of folders) {
    add(f, old, -1);
    add(f, entry, 1);
  }
  return true;
}

/** The rows the tree shows: each open folder's folders, then its documents, depth first. */
export function visibleRows(root: TreeFolder, open: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (f: TreeFolder, depth: number) => {
    for (const c of f.folders) {
      const isOpen = open.has(c.path);
      rows.push({ kind: "folder", folder: c, depth, open: isOpen });
      if (isOpen) walk(c, depth + 1);
    }
    for (const d of f.docs) rows.push({ kind: "doc", doc: d, depth, name: d.path.slice(d.path.lastIndexOf("/") + 1) });
  };
  walk(root, 0);
  return rows;
}

/** Every folder path of the tree (to open them all in a small workspace). */
export function allFolders(root: TreeFolder): string[] {
  const out: string[] = [];
  const walk = (f: TreeFolder) => {
    for (const c of f.folders) {
      out.push(c.path);
      walk(c);
    }
  };
  walk(root);
  return out;
}

/** The rows to draw for a window of `height` px scrolled to `top`, rows `row` px high, with `extra` rows each side. */
export function windowOf(count: number, top: number, height: number, row: number, extra = 10): { start: number; end: number } {
  const visible = Math.ceil(Math.max(height, row) / row);
  // Scrolled past the end (a folder just closed above): the last screenful.
  const start = Math.max(0, Math.min(Math.floor(top / row) - extra, count - visible - extra));
  return { start, end: Math.min(count, start + visible + 2 * extra) };
}
