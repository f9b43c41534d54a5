// The file tree of a large workspace (issue 37), against a test double of the
// Backend: 6,000 documents in folders up to 2,500 wide. Folders start closed
// but for the way to the open document; a closed folder shows the badges of
// what it holds; a click opens a folder; only the rows on screen are drawn;
// opening a document does not draw the tree anew; Ctrl+P finds one by a few
// letters of its name; the watcher's notices move one row each, and nothing
// lists the workspace again. The real app:
// tests/e2e/perf-workspace.mjs (a benchmark).
import { describe, expect, it, vi } from "vitest";
import { q, stubLayout, until } from "./dom";
import type { Notice } from "../src/bindings/Notice";

const fake = vi.hoisted(() => ({ listed: 0, notice: null as ((n: Notice) => void) | null }));

vi.mock("../src/backend", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../src/backend")>();
  const { fakeBackend, emptyReview } = await import("./fake-backend");
  const documents: { path: string; proposals: number; openThreads: number; sidecarError: boolean }[] = [];
  for (let i = 0; i < 2500; i++) documents.push({ path: `wide/page-${String(i).padStart(4, "0")}.md`, proposals: i === 7 ? 2 : 0, openThreads: 0, sidecarError: false });
  for (let f = 0; f < 50; f++)
    for (let i = 0; i < 70; i++) documents.push({ path: `guide/part-${f}/p${i}.md`, proposals: 0, openThreads: f === 3 && i === 1 ? 1 : 0, sidecarError: false });
  documents.push({ path: "README.md", proposals: 0, openThreads: 0, sidecarError: false });
  documents.sort((a, b) => (a.path < b.path ? -1 : 1));
  const backend = fakeBackend({
    workspace: async () => {
      fake.listed++;
      return { root: "/big", name: "big", branch: null, documents, emptyFolders: [] };
    },
    openDocument: async (path) => ({ path, text: `# ${path}\n`, version: 1, dirty: false, review: emptyReview() }),
    onNotice: async (f) => {
      fake.notice = f;
      return () => undefined;
    },
  });
  return { ...orig, tauriBackend: async () => backend };
});

const rows = () => Array.from(document.querySelectorAll<HTMLElement>(".tree .tree-item"));
const label = (el: HTMLElement) => el.dataset.path ?? `${el.dataset.folder}/`;

describe("a large workspace's tree", () => {
  it("folds, draws only what is on screen, and opens a folder on a click", async () => {
    stubLayout();
    await import("../src/main");
    await until(() => q(".cm-editor"), "a document open");
    // The first document with proposals opens: wide/page-0007.md.
    await until(() => q(".tree-item.active"), "the open document marked");
    const active = q<HTMLElement>(".tree-item.active")!.dataset.path!;
    expect(active).toBe("wide/page-0007.md");
    // Closed but for the way to it; a closed folder shows what it holds.
    const guide = q<HTMLElement>('.tree-folder[data-folder="guide"]')!;
    expect(guide.getAttribute("aria-expanded")).toBe("false");
    expect(guide.querySelector(".badge-threads")!.textContent).toBe("1");
    expect(q('.tree-folder[data-folder="wide"]')!.getAttribute("aria-expanded")).toBe("true");
    // 2,500 rows in the open folder: a window of them is drawn, with room for the rest.
    expect(rows().length).toBeLessThan(120);
    expect(q(".tree")!.classList.contains("tree-windowed")).toBe(true);
    const spacers = Array.from(document.querySelectorAll<HTMLElement>(".tree-spacer")).map((s) => parseInt(s.style.height, 10));
    expect(spacers[0] + spacers[1] + rows().length * 28).toBe((2 + 2500 + 1) * 28);

    // The keyboard's row keeps the focus when a scroll redraws the window.
    const tree = q<HTMLElement>(".tree")!;
    const row = rows().find((r) => r.dataset.path === "wide/page-0010.md")!;
    row.focus();
    tree.scrollTop = 20 * 28;
    tree.dispatchEvent(new Event("scroll"));
    await until(() => parseInt(q<HTMLElement>(".tree-spacer")!.style.height, 10) > 0, "the window redrawn lower");
    expect(row.isConnected).toBe(false);
    expect((document.activeElement as HTMLElement).dataset.path).toBe("wide/page-0010.md");
    tree.scrollTop = 0;
    tree.dispatchEvent(new Event("scroll"));
    await until(() => parseInt(q<HTMLElement>(".tree-spacer")!.style.height, 10) === 0, "back at the top");

    // Opening another document draws no new listing.
    const listed = fake.listed;
    q<HTMLElement>('.tree-folder[data-folder="wide"]')!.click();
    expect(rows().map(label)).toEqual(["guide/", "wide/", "README.md"]);
    expect(q(".tree")!.classList.contains("tree-windowed")).toBe(false);
    q<HTMLElement>('.tree-folder[data-folder="guide"]')!.click();
    expect(q('.tree-folder[data-folder="guide"]')!.getAttribute("aria-expanded")).toBe("true");
    expect(rows().map(label).slice(0, 4)).toEqual(["guide/", "guide/part-0/", "guide/part-1/", "guide/part-10/"]);
    q<HTMLElement>('.tree-folder[data-folder="guide/part-3"]')!.click();
    const p1 = q<HTMLElement>('.tree-item[data-path="guide/part-3/p1.md"]')!;
    expect(p1.querySelector(".badge-threads")!.textContent).toBe("1");
    expect(p1.querySelector(".tree-name")!.textContent).toBe("p1.md");
    p1.click();
    await until(() => q<HTMLElement>(".tree-item.active")?.dataset.path === "guide/part-3/p1.md", "the clicked document open");
    expect(fake.listed).toBe(listed);
  });

  it("Go to document… (Ctrl+P) finds one by a few letters of its name and opens it", async () => {
    window.dispatchEvent(new KeyboardEvent("keydown", { key: "p", ctrlKey: true, bubbles: true, cancelable: true }));
    await until(() => q(".quick-open-list"), "the picker");
    const input = q<HTMLInputElement>(".palette-input")!;
    expect(document.querySelectorAll(".quick-open-list li").length).toBe(50);
    input.value = "part49p69";
    input.dispatchEvent(new Event("input"));
    const first = q<HTMLElement>(".quick-open-list li")!;
    expect(first.dataset.path).toBe("guide/part-49/p69.md");
    expect(first.getAttribute("aria-selected")).toBe("true");
    input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
    await until(() => q<HTMLElement>(".tree-item.active")?.dataset.path === "guide/part-49/p69.md", "the document open, its folders opened in the tree");
    input.value = "";
  });

  it("another writer's changes move one row each; nothing lists the workspace again", async () => {
    const listed = fake.listed;
    const badge = (sel: string, kind: string) => q(`${sel} .badge-${kind}`)?.textContent ?? null;
    // A new document in a closed folder: the folder's badges count it.
    expect(badge('.tree-folder[data-folder="guide/part-1"]', "proposals")).toBeNull();
    fake.notice!({ kind: "entryChanged", entry: { path: "guide/part-1/new.md", proposals: 2, openThreads: 0, sidecarError: false } });
    await until(() => badge('.tree-folder[data-folder="guide/part-1"]', "proposals") === "2", "the closed folder counting the new document");
    // A closed document's review changed: its row's badges.
    q<HTMLButtonElement>('.tree-folder[data-folder="guide/part-0"]')!.click();
    await until(() => q('.tree-item[data-path="guide/part-0/p1.md"]'), "the folder opened");
    fake.notice!({ kind: "entryChanged", entry: { path: "guide/part-0/p1.md", proposals: 0, openThreads: 3, sidecarError: false } });
    await until(() => badge('.tree-item[data-path="guide/part-0/p1.md"]', "threads") === "3", "the row's new badge");
    // Removed: the row goes, its neighbours stay, the folder stays open.
    fake.notice!({ kind: "documentRemoved", path: "guide/part-0/p2.md", folderLeft: true });
    await until(() => !q('.tree-item[data-path="guide/part-0/p2.md"]'), "the row gone");
    expect(q('.tree-item[data-path="guide/part-0/p3.md"]'), "its neighbour stays").not.toBeNull();
    expect(q('.tree-folder[data-folder="guide/part-0"]')!.getAttribute("aria-expanded")).toBe("true");
    expect(fake.listed, "no notice but a checkout lists the workspace").toBe(listed);
    // Another branch checked out: the one notice that lists it all again.
    fake.notice!({ kind: "treeChanged" });
    await until(() => fake.listed === listed + 1, "the listing read again");
  });
});
