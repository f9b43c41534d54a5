// The file tree's model (model/tree-model.ts): folders first, then documents, by
// name, with the badges of what each folder holds; only the open folders'
// rows; a folder's badges moved when one of its documents changes, checked
// against a tree built anew after random changes; the window of rows drawn
// around what is on screen.
import { describe, expect, it } from "vitest";
import { allFolders, ancestors, buildTree, replaceEntry, visibleRows, windowOf } from "../src/model/tree-model";
import type { DocEntry } from "../src/bindings/DocEntry";

const doc = (path: string, proposals = 0, openThreads = 0, sidecarError = false): DocEntry => ({ path, proposals, openThreads, sidecarError });
const names = (rows: ReturnType<typeof visibleRows>) => rows.map((r) => `${"  ".repeat(r.depth)}${r.kind === "doc" ? r.name : `${r.folder.name}/${r.open ? "" : "+"}`}`);

describe("the file tree", () => {
  const docs = [doc("b.md", 1), doc("a/z.md"), doc("a/b/c.md", 2, 1), doc("a/b/d.md", 0, 0, true), doc("x/y.md", 0, 3), doc("a.md")];

  it("nests folders first, then documents, by name, with the badges of what each folder holds", () => {
    const root = buildTree(docs, ["empty", "a/b/new"]);
    expect(names(visibleRows(root, new Set(allFolders(root))))).toEqual(["a/", "  b/", "    new/", "    c.md", "    d.md", "  z.md", "empty/", "x/", "  y.md", "a.md", "b.md"]);
    const a = root.folders[0];
    expect([a.proposals, a.openThreads, a.sidecarErrors, a.size]).toEqual([2, 1, 1, 3]);
    expect([root.proposals, root.openThreads, root.size]).toEqual([3, 4, 6]);
    expect(root.folders.find((f) => f.name === "empty")!.size).toBe(0);
  });

  it("shows only the open folders' rows", () => {
    const root = buildTree(docs);
    expect(names(visibleRows(root, new Set()))).toEqual(["a/+", "x/+", "a.md", "b.md"]);
    expect(names(visibleRows(root, new Set(["a/b"])))).toEqual(["a/+", "x/+", "a.md", "b.md"]);
    expect(names(visibleRows(root, new Set(["a", ...ancestors("a/b/c.md")])))).toEqual(["a/", "  b/", "    c.md", "    d.md", "  z.md", "x/+", "a.md", "b.md"]);
    expect(ancestors("a/b/c.md")).toEqual(["a", "a/b"]);
    expect(ancestors("top.md")).toEqual([]);
  });

  it("moves a folder's badges when one of its documents changes, and knows no stranger", () => {
    const root = buildTree(docs);
    expect(replaceEntry(root, doc("a/b/c.md", 0, 0))).toBe(true);
    const a = root.folders[0];
    expect([a.proposals, a.openThreads, a.folders[0].proposals, root.proposals]).toEqual([0, 0, 0, 1]);
    expect(replaceEntry(root, doc("a/b/nope.md", 5))).toBe(false);
    expect(replaceEntry(root, doc("q/r.md", 5))).toBe(false);
    expect(root.proposals).toBe(1);
  });

  it("matches a tree built anew after random changes", () => {
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const all = Array.from({ length: 200 }, (_, i) => doc(`f${rand(5)}/g${rand(3)}/d${i}.md`, rand(3), rand(2), rand(9) === 0));
    const root = buildTree(all);
    for (let k = 0; k < 300; k++) {
      const i = rand(all.length);
      all[i] = doc(all[i].path, rand(4), rand(3), rand(7) === 0);
      replaceEntry(root, all[i]);
    }
    const fresh = buildTree(all);
    const sums = (r: typeof root): unknown => [r.path, r.proposals, r.openThreads, r.sidecarErrors, r.size, r.folders.map(sums)];
    expect(sums(root)).toEqual(sums(fresh));
  });

  it("draws a window of rows around what is on screen", () => {
    expect(windowOf(10_000, 0, 560, 28, 5)).toEqual({ start: 0, end: 30 });
    expect(windowOf(10_000, 2800, 560, 28, 5)).toEqual({ start: 95, end: 125 });
    // Scrolled past the end of a list that just got shorter: its last screenful.
    expect(windowOf(30, 2800, 560, 28, 5)).toEqual({ start: 5, end: 30 });
    expect(windowOf(8, 2800, 560, 28, 5)).toEqual({ start: 0, end: 8 });
    expect(windowOf(10_000, 0, 0, 28, 0)).toEqual({ start: 0, end: 1 });
  });
});
