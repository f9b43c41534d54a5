// Export… (issue 13, "Export"), against a test double of the Backend: the
// palette and a document's menu open the dialog; the format and "Include
// proposals and comments" go to the core's `export_document` (CriticMarkup
// always with the review), after the edits on their way; the choice is
// remembered; the notice says what went where; a cancelled Save dialog says
// nothing. The real app (the native dialog, the files): tests/e2e/export.test.mjs.
import { describe, expect, it, vi } from "vitest";
import { q, stubLayout, until } from "./dom";
import { EditorView } from "@codemirror/view";
import type { ExportFormat } from "../src/bindings/ExportFormat";
import { exportedMessage, loadChoice } from "../src/dialogs/export";

const fake = vi.hoisted(() => ({
  calls: [] as { path: string; format: ExportFormat; withReview: boolean; remoteImages: boolean; edits: number }[],
  edits: 0,
  cancel: false,
}));

vi.mock("../src/backend", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../src/backend")>();
  const { fakeBackend, emptyReview } = await import("./fake-backend");
  const backend = fakeBackend({
    workspace: async () => ({
      root: "/home/w/sample",
      name: "sample",
      branch: null,
      documents: ["drafts/essay.md", "notes.md"].map((path) => ({ path, proposals: 0, openThreads: 0, sidecarError: false })),
      emptyFolders: [],
    }),
    openDocument: async (path) => ({ path, text: "Alpha beta gamma.\n", version: 1, dirty: false, review: emptyReview() }),
    edit: async (_p, version) => {
      await new Promise((r) => setTimeout(r, 30));
      fake.edits++;
      return { version: version + 1, dirty: true };
    },
    exportDocument: async (path, format, withReview, remoteImages) => {
      fake.calls.push({ path, format, withReview, remoteImages, edits: fake.edits });
      if (fake.cancel) return null;
      const name = path.replace(/\.md$/, format === "critic" ? ".critic.md" : `.${format}`);
      return { document: path, format, path: `/home/w/sample/${name}`, bytes: 100, title: "Alpha", proposals: withReview ? 2 : 0, threads: withReview ? 1 : 0 };
    },
  });
  return { ...orig, tauriBackend: async () => backend };
});

const key = (k: string, mods: KeyboardEventInit = {}, target: EventTarget = window) =>
  target.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...mods }));

function choose(format: ExportFormat) {
  const radio = q<HTMLInputElement>(`.export-format[value="${format}"]`)!;
  radio.checked = true;
  radio.dispatchEvent(new Event("change", { bubbles: true }));
}

async function fromPalette() {
  key("p", { ctrlKey: true, shiftKey: true });
  await until(() => q(".palette-input"), "the palette");
  const input = q<HTMLInputElement>(".palette-input")!;
  input.value = "pdf";
  input.dispatchEvent(new Event("input"));
  await until(() => q('.palette-list li[data-command="export"]'), "Export… found by 'pdf'");
  q<HTMLElement>('.palette-list li[data-command="export"]')!.click();
  await until(() => q(".export-dialog"), "the export dialog");
}

describe("Export…", () => {
  it("sends the chosen format and review after the edits on their way, and says where the file went", async () => {
    stubLayout();
    localStorage.clear();
    await import("../src/main");
    await until(() => q(".cm-content"), "the document to open");
    const v = EditorView.findFromDOM(q(".cm-editor")!)!;
    v.dispatch({ changes: { from: 0, insert: "Now " }, userEvent: "input.type" });

    await fromPalette();
    expect(q(".modal h2")!.textContent).toBe("Export drafts/essay.md");
    expect(q<HTMLInputElement>('.export-format[value="html"]')!.checked, "HTML at first").toBe(true);
    const review = q<HTMLInputElement>(".export-review")!;
    expect(review.checked, "a clean copy at first").toBe(false);
    choose("pdf");
    review.checked = true;
    review.dispatchEvent(new Event("change", { bubbles: true }));
    expect(q<HTMLInputElement>(".export-remote-images")!.checked, "remote images off unless asked").toBe(false);
    q<HTMLButtonElement>(".export-ok")!.click();
    await until(() => fake.calls.length === 1, "the export");
    expect(q(".modal"), "the dialog closed").toBeNull();
    expect(fake.calls[0]).toEqual({ path: "drafts/essay.md", format: "pdf", withReview: true, remoteImages: false, edits: 1 });
    await until(() => q(".toast")!.textContent!.startsWith("Exported"), "the notice");
    expect(q(".toast")!.textContent).toBe("Exported drafts/essay.md as PDF, with 2 proposals and 1 thread: /home/w/sample/drafts/essay.pdf");
    expect(loadChoice()).toEqual({ format: "pdf", withReview: true });
  });

  it("CriticMarkup always carries the review; the last choice comes back", async () => {
    await fromPalette();
    expect(q<HTMLInputElement>('.export-format[value="pdf"]')!.checked, "remembered").toBe(true);
    const review = q<HTMLInputElement>(".export-review")!;
    review.checked = false;
    review.dispatchEvent(new Event("change", { bubbles: true }));
    choose("critic");
    expect(review.disabled).toBe(true);
    expect(review.checked).toBe(true);
    choose("html");
    expect(review.disabled).toBe(false);
    expect(review.checked, "the writer's own choice again").toBe(false);
    const remote = q<HTMLInputElement>(".export-remote-images")!;
    remote.checked = true;
    choose("critic");
    expect(remote.disabled, "CriticMarkup has no images to load").toBe(true);
    q<HTMLButtonElement>(".export-ok")!.click();
    await until(() => fake.calls.length === 2, "the export");
    expect(fake.calls[1]).toMatchObject({ format: "critic", withReview: true, remoteImages: false });
  });

  it("a document's menu exports it; a cancelled Save dialog says nothing", async () => {
    fake.cancel = true;
    q<HTMLElement>('.tree-item[data-path="notes.md"]')!.parentElement!.dispatchEvent(
      new MouseEvent("contextmenu", { bubbles: true, cancelable: true, clientX: 20, clientY: 40 }),
    );
    await until(() => q('.menu-item[data-action="Export…"]'), "the item's menu");
    q<HTMLButtonElement>('.menu-item[data-action="Export…"]')!.click();
    await until(() => q(".export-dialog"), "the export dialog");
    expect(q(".modal h2")!.textContent).toBe("Export notes.md");
    const toastBefore = q(".toast")!.textContent;
    expect(q<HTMLInputElement>(".export-remote-images")!.checked, "asked each time, never remembered").toBe(false);
    choose("html");
    q<HTMLInputElement>(".export-remote-images")!.checked = true;
    q<HTMLButtonElement>(".export-ok")!.click();
    await until(() => fake.calls.length === 3, "the export");
    expect(fake.calls[2]).toMatchObject({ path: "notes.md", remoteImages: true });
    await new Promise((r) => setTimeout(r, 30));
    expect(q(".toast")!.textContent).toBe(toastBefore);
  });

  it("words the notice for a clean copy", () => {
    expect(
      exportedMessage({ document: "a.md", format: "html", path: "/x/a.html", bytes: 1, title: "A", proposals: 0, threads: 0 }),
    ).toBe("Exported a.md as HTML page: /x/a.html");
    expect(
      exportedMessage({ document: "a.md", format: "critic", path: "/x/a.critic.md", bytes: 1, title: "A", proposals: 1, threads: 2 }),
    ).toBe("Exported a.md as Markdown with CriticMarkup, with 1 proposal and 2 threads: /x/a.critic.md");
  });
});
