// After a crash the app opens each restored document in a tab marked unsaved
// and shows a notice that stays until dismissed, and reopens every other tab
// that was open (remembered per workspace), in their order (against a test double of the
// Backend; the real app across a real kill is tests/e2e/hot-exit.test.mjs).
import { beforeAll, describe, expect, it, vi } from "vitest";
import { q, stubLayout, until } from "./dom";
import type { ReviewDto } from "../src/bindings/ReviewDto";

let revisions = 0;
const emptyReview = (): ReviewDto => ({ revision: ++revisions, proposals: [], threads: [], spans: [], sidecarError: null, canUndo: false, canRedo: false, entry: { path: "", proposals: 0, openThreads: 0, sidecarError: false } });

vi.mock("../src/backend", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../src/backend")>();
  const { fakeBackend } = await import("./fake-backend");
  const dirty = new Set(["b.md"]);
  let restored = false;
  const backend = fakeBackend({
    workspace: async () => ({
      root: "/ws",
      name: "ws",
      branch: null,
      documents: ["a.md", "b.md"].map((path) => ({ path, proposals: 0, openThreads: 0, sidecarError: false })),
      emptyFolders: [],
    }),
    openDocument: async (path) => ({ path, text: `text of ${path}`, version: 1, dirty: dirty.has(path), review: emptyReview() }),
    dirtyDocuments: async () => [...dirty],
    restoredBackups: async () => {
      // Answered once, as the app does.
      if (restored) return { restored: [], unrestored: [] };
      restored = true;
      return { restored: [{ path: "b.md", fileChanged: true, decisions: 2 }], unrestored: [] };
    },
  });
  return { ...orig, tauriBackend: async () => backend };
});


beforeAll(async () => {
  stubLayout();
  // The last session had a.md in front, and a document since deleted.
  localStorage.setItem("cowriting.tabs:/ws", JSON.stringify({ order: ["a.md", "gone.md", "b.md"], active: "a.md" }));
  await import("../src/main");
  await until(() => q(".tab"), "a tab");
});

describe("restored after a crash", () => {
  it("opens the restored document first, marked unsaved, with the notice and the conflict banner", () => {
    const tab = q('.tab[data-path="b.md"]')!;
    expect(tab).not.toBeNull();
    expect(tab.classList.contains("active")).toBe(true);
    expect(tab.classList.contains("dirty")).toBe(true);
    expect(q(".st-save")!.textContent).toMatch(/Unsaved/);
    const notice = q(".restore-notice")!;
    expect(notice.hidden).toBe(false);
    expect(notice.getAttribute("role")).toBe("status");
    expect(notice.textContent).toContain(
      "Restored unsaved changes to b.md from the last session (2 decisions); the file changed on disk since",
    );
    expect(q(".banner-conflict")).not.toBeNull();
  });

  it("reopens every tab that was open and still exists, in their order; the restored one in front", async () => {
    await until(() => q('.tab[data-path="a.md"]'), "a.md reopened");
    expect(q('.tab[data-path="gone.md"]')).toBeNull();
    expect(q('.tab[data-path="b.md"]')!.classList.contains("active")).toBe(true);
    expect(JSON.parse(localStorage.getItem("cowriting.tabs:/ws")!)).toEqual({ order: ["a.md", "b.md"], active: "b.md" });
    expect(Array.from(document.querySelectorAll<HTMLElement>(".tab"), (t) => t.dataset.path)).toEqual(["a.md", "b.md"]);
  });

  it("is dismissed with its button", () => {
    q<HTMLButtonElement>(".rn-dismiss")!.click();
    expect(q(".restore-notice")!.hidden).toBe(true);
  });
});
