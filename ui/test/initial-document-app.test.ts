// A document named on the command line (`cowriting-desktop notes/drafts/essay.md`,
// as the desktop entry passes the file a file manager opens) is shown first, in a
// tab, rather than the first document with proposals; asked once (against a test
// double of the Backend; the installed app is checked by scripts/dist-check.sh).
import { beforeAll, describe, expect, it, vi } from "vitest";
import { q, stubLayout, until } from "./dom";
import type { ReviewDto } from "../src/bindings/ReviewDto";

let revisions = 0;
const emptyReview = (): ReviewDto => ({ revision: ++revisions, proposals: [], threads: [], spans: [], sidecarError: null, canUndo: false, canRedo: false, entry: { path: "", proposals: 0, openThreads: 0, sidecarError: false } });

const asked = vi.hoisted(() => ({ count: 0 }));

vi.mock("../src/backend", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../src/backend")>();
  const { fakeBackend } = await import("./fake-backend");
  const backend = fakeBackend({
    workspace: async () => ({
      root: "/notes",
      name: "notes",
      branch: "main",
      documents: [
        { path: "a.md", proposals: 2, openThreads: 0, sidecarError: false },
        { path: "drafts/essay.md", proposals: 0, openThreads: 0, sidecarError: false },
      ],
      emptyFolders: [],
    }),
    openDocument: async (path) => ({ path, text: `text of ${path}`, version: 1, dirty: false, review: emptyReview() }),
    initialDocument: async () => (asked.count++ === 0 ? "drafts/essay.md" : null),
  });
  return { ...orig, tauriBackend: async () => backend };
});


beforeAll(async () => {
  stubLayout();
  await import("../src/main");
  await until(() => q(".tab"), "a tab");
});

describe("a document named on the command line", () => {
  it("is the one open, alone, and asked for once", () => {
    const tabs = Array.from(document.querySelectorAll<HTMLElement>(".tab"), (t) => t.dataset.path);
    expect(tabs).toEqual(["drafts/essay.md"]);
    expect(q('.tab[data-path="drafts/essay.md"]')!.classList.contains("active")).toBe(true);
    expect(q(".cm-content")!.textContent).toContain("text of drafts/essay.md");
    expect(asked.count).toBe(1);
  });
});
