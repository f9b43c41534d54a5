// A writer's desk (issue 13), against a test double of the Backend: the window
// title ("● essay.md — sample" while unsaved, the workspace's name with no
// document, "Cowriting" with no workspace), and Ctrl+Enter sending a new
// comment and an Ask Claude… instruction. The real app: tests/e2e/desk.test.mjs.
import { describe, expect, it, vi } from "vitest";
import { q, stubLayout, until } from "./dom";
import { EditorView } from "@codemirror/view";
import type { ReviewDto } from "../src/bindings/ReviewDto";
import type { Utf16Offset } from "../src/bindings/Utf16Offset";

const fake = vi.hoisted(() => ({
  titles: [] as string[],
  threads: [] as { path: string; from: Utf16Offset; to: Utf16Offset; body: string }[],
  asked: [] as { producer: string; instruction: string | null }[],
}));

vi.mock("../src/backend", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../src/backend")>();
  const { fakeBackend, emptyReview } = await import("./fake-backend");
  const backend = fakeBackend({
    workspace: async () => ({
      root: "/home/w/sample",
      name: "sample",
      branch: null,
      documents: [{ path: "drafts/essay.md", proposals: 0, openThreads: 0, sidecarError: false }],
      emptyFolders: [],
    }),
    openDocument: async (path) => ({ path, text: "Alpha beta gamma.\n", version: 1, dirty: false, review: emptyReview() }),
    setTitle: async (title) => {
      fake.titles.push(title);
    },
    newThread: async (path, from, to, body): Promise<ReviewDto> => {
      fake.threads.push({ path, from, to, body });
      return emptyReview();
    },
    runProducer: async (_path, producer, _from, _to, instruction) => {
      fake.asked.push({ producer, instruction });
      throw { code: "cancelled", message: "cancelled" };
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

const lastTitle = () => fake.titles[fake.titles.length - 1];

describe("the window title", () => {
  it("names the document and the workspace, and marks unsaved changes until the save", async () => {
    stubLayout();
    const g = globalThis as unknown as { CSS?: { escape?: (s: string) => string } };
    if (!g.CSS?.escape) g.CSS = { ...g.CSS, escape: (s: string) => s.replace(/["\\]/g, "\\$&") };
    await import("../src/main");
    await until(() => q(".cm-content"), "the document to open");
    await until(() => lastTitle() === "essay.md — sample", "the saved title");
    expect(document.title).toBe("essay.md — sample");

    // Typing: the unsaved mark.
    const v = view();
    v.dispatch({ changes: { from: 0, insert: "Now " }, userEvent: "input.type" });
    await until(() => lastTitle() === "● essay.md — sample", "the unsaved mark");
    expect(document.title).toBe("● essay.md — sample");
    const count = fake.titles.length;
    v.dispatch({ changes: { from: 4, insert: "then " }, userEvent: "input.type" });
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.titles.length, "set again only when it changes").toBe(count);

    // Ctrl+S: the mark goes.
    key("s", { ctrlKey: true });
    await until(() => lastTitle() === "essay.md — sample", "the saved title after Ctrl+S");
    expect(document.title).toBe("essay.md — sample");
  });

  it("is the workspace's name with no document open", async () => {
    q<HTMLButtonElement>('.tab[data-path="drafts/essay.md"] .tab-close')!.click();
    await until(() => !q(".tab"), "the tab to close");
    await until(() => lastTitle() === "sample", "the workspace's title");
    expect(document.title).toBe("sample");
    // Opened again for the next tests.
    q<HTMLButtonElement>('.tree-item[data-path="drafts/essay.md"]')!.click();
    await until(() => lastTitle() === "essay.md — sample", "the document's title again");
  });
});

describe("Ctrl+Enter", () => {
  it("sends a new comment (and Cmd+Enter too); an empty one is not sent", async () => {
    const v = view();
    const sel = { from: 0, to: 5 };
    v.dispatch({ selection: { anchor: sel.from, head: sel.to } });
    key("m", { ctrlKey: true, altKey: true }, v.contentDOM);
    await until(() => q(".new-thread-body"), "the comment box");
    const area = q<HTMLTextAreaElement>(".new-thread-body")!;
    // Inline, under the text it is about: no dialog over it.
    expect(area.closest(".cm-editor .cm-tooltip"), "the box is in the editor").not.toBeNull();
    expect(q(".modal"), "no dialog").toBeNull();
    key("Enter", { ctrlKey: true }, area);
    expect(fake.threads).toEqual([]);
    expect(q(".new-thread-body"), "still open when empty").not.toBeNull();
    area.value = "Too **plain**.";
    key("Enter", { ctrlKey: true }, area);
    await until(() => fake.threads.length === 1, "the new thread");
    expect(fake.threads[0]).toEqual({ path: "drafts/essay.md", from: 0, to: 5, body: "Too **plain**." });
    expect(q(".modal"), "the dialog closed").toBeNull();

    v.dispatch({ selection: { anchor: 6, head: 10 } });
    key("m", { ctrlKey: true, altKey: true }, v.contentDOM);
    await until(() => q(".new-thread-body"), "the comment box again");
    const again = q<HTMLTextAreaElement>(".new-thread-body")!;
    again.value = "And this.";
    key("Enter", { metaKey: true }, again);
    await until(() => fake.threads.length === 2, "the second thread");
    expect(fake.threads[1].body).toBe("And this.");

    // Esc closes the box and gives the text back the focus; nothing is sent.
    v.dispatch({ selection: { anchor: 6, head: 10 } });
    key("m", { ctrlKey: true, altKey: true }, v.contentDOM);
    await until(() => q(".new-thread-body"), "the comment box a third time");
    const third = q<HTMLTextAreaElement>(".new-thread-body")!;
    third.value = "Never sent.";
    key("Escape", {}, third);
    await until(() => !q(".new-thread-body"), "the box closed");
    expect(fake.threads.length).toBe(2);
  });

  it("asks Claude from the Ask Claude… dialog", async () => {
    const v = view();
    v.dispatch({ selection: { anchor: 0, head: 5 } });
    key("k", { ctrlKey: true });
    await until(() => q(".ask-instruction"), "the Ask Claude dialog");
    const area = q<HTMLTextAreaElement>(".ask-instruction")!;
    area.value = "Tighten";
    area.dispatchEvent(new Event("input"));
    key("Enter", { ctrlKey: true }, area);
    await until(() => fake.asked.length === 1, "Claude to be asked");
    expect(fake.asked[0]).toEqual({ producer: "claude", instruction: "Tighten" });
    expect(q(".ask-instruction"), "the dialog closed").toBeNull();
  });
});

describe("drafts", () => {
  it("keeps an instruction typed in Ask Claude… or Review with Claude… when the dialog closes, and not once it is sent", async () => {
    const dialogs = [
      { open: () => key("k", { ctrlKey: true }), box: ".ask-instruction", run: ".btn-ask-run" },
      { open: () => key("k", { ctrlKey: true, altKey: true, code: "KeyK" }), box: ".review-instruction", run: ".btn-review-run" },
    ];
    for (const d of dialogs) {
      view().dispatch({ selection: { anchor: 0, head: 5 } });
      d.open();
      await until(() => q(d.box), d.box);
      const area = q<HTMLTextAreaElement>(d.box)!;
      expect(area.value, `${d.box} empty at first`).toBe("");
      area.value = "Half a thought";
      area.dispatchEvent(new Event("input"));
      q<HTMLButtonElement>(".modal-cancel")!.click();
      expect(q(d.box), "the dialog closed").toBeNull();
      d.open();
      await until(() => q(d.box), `${d.box} again`);
      expect(q<HTMLTextAreaElement>(d.box)!.value, `${d.box} keeps the draft`).toBe("Half a thought");
      q<HTMLButtonElement>(d.run)!.click();
      expect(q(d.box), "sent: the dialog closed").toBeNull();
      d.open();
      await until(() => q(d.box), `${d.box} after sending`);
      expect(q<HTMLTextAreaElement>(d.box)!.value, `${d.box} empty after sending`).toBe("");
      q<HTMLButtonElement>(".modal-cancel")!.click();
    }
  });
});

describe("with no workspace", () => {
  it("the title is the app's name", async () => {
    const { App } = await import("../src/main");
    const { fakeBackend } = await import("./fake-backend");
    const titles: string[] = [];
    const app = new App(
      fakeBackend({
        workspace: async () => {
          throw { code: "noWorkspace", message: "no folder is open" };
        },
        setTitle: async (t) => {
          titles.push(t);
        },
      }),
    );
    await app.start();
    expect(titles).toEqual(["Cowriting"]);
    expect(document.title).toBe("Cowriting");
  });
});
