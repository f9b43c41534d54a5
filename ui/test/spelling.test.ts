// Spelling and grammar as you type (extensions/spelling.ts): only the blocks
// on screen linted (top-level Markdown blocks, code left out; text the parser
// has not reached cut at blank lines), once each, and nothing when turned off;
// the lint cache; a lint's tooltip with its replacements and Add to dictionary
// (a replacement is an edit in the view; the word is added through the core,
// then the text linted again at once); a failure said once; F8 and
// Ctrl+Shift+M in the editor as the app builds it.
import { describe, expect, it, vi } from "vitest";
import { EditorState } from "@codemirror/state";
import { EditorView, runScopeHandlers } from "@codemirror/view";
import { markdown } from "@codemirror/lang-markdown";
import { ensureSyntaxTree } from "@codemirror/language";
import type { LintDto } from "../src/bindings/LintDto";
import { forEachDiagnostic } from "@codemirror/lint";
import { stubLayout } from "./dom";
import { blocksIn, diagnosticsOf, forgetLints, LintCache, lintSource, replacementLabel, severityOf, spelling, type SpellingHandlers } from "../src/extensions/spelling";

const doc = ["# A titel", "", "Some teh text.", "", "```", "teh code", "```", "", "- a lsit item", "", "Last paragrph."].join("\n");

function stateOf(text: string) {
  const state = EditorState.create({ doc: text, extensions: [markdown()] });
  ensureSyntaxTree(state, state.doc.length, 5000);
  return state;
}

const lint = (from: number, to: number, text: string, replacements: string[] = [], category = "spelling"): LintDto => ({
  from,
  to,
  line: 1,
  text,
  category,
  rule: "SpellCheck",
  message: `Did you mean to spell “${text}” this way?`,
  replacements,
});

function handlers(over: Partial<SpellingHandlers> = {}): SpellingHandlers {
  return {
    lint: async (texts) => texts.map(() => []),
    addWord: async () => undefined,
    enabled: () => true,
    failed: () => undefined,
    ...over,
  };
}

describe("blocksIn", () => {
  it("cuts the visible text into its top-level Markdown blocks, code left out", () => {
    const state = stateOf(doc);
    const texts = blocksIn(state, [{ from: 0, to: state.doc.length }]).map((b) => state.sliceDoc(b.from, b.to));
    expect(texts).toEqual(["# A titel", "Some teh text.", "- a lsit item", "Last paragrph."]);
  });
  it("takes only the blocks that overlap the ranges", () => {
    const state = stateOf(doc);
    const at = doc.indexOf("Some");
    const texts = blocksIn(state, [{ from: at + 2, to: at + 3 }]).map((b) => state.sliceDoc(b.from, b.to));
    expect(texts).toEqual(["Some teh text."]);
  });
  it("cuts text the parser has not reached into paragraphs at blank lines", () => {
    // No Markdown parser: the tree covers nothing.
    const state = EditorState.create({ doc: "one two\nthree\n\n\nfour\n" });
    const texts = blocksIn(state, [{ from: 0, to: state.doc.length }]).map((b) => state.sliceDoc(b.from, b.to));
    expect(texts).toEqual(["one two\nthree", "four"]);
  });
});

describe("LintCache", () => {
  it("keeps the most recently used texts", () => {
    const c = new LintCache(2);
    c.set("a", []);
    c.set("b", []);
    expect(c.get("a")).toEqual([]);
    c.set("c", []);
    expect(c.get("b")).toBeUndefined();
    expect(c.get("a")).toEqual([]);
    expect(c.size).toBe(2);
  });
  it("keeps no more characters than its bound, the newest text always", () => {
    const c = new LintCache(2000, 100);
    // A long paragraph typed in, a pause after each word: a new text each time.
    let para = "x".repeat(20);
    for (let i = 0; i < 14; i++) {
      para += " word";
      c.set(para, []);
      expect(c.characters).toBeLessThanOrEqual(100);
      expect(c.get(para)).toEqual([]);
    }
    expect([c.size, c.characters]).toEqual([1, 90]);
    c.set("a", []);
    c.set("b".repeat(9), []);
    expect([c.size, c.characters]).toEqual([3, 100]);
    c.set("c", []);
    expect([c.size, c.characters]).toEqual([3, 11]);
    // Alone over the bound, the newest is kept.
    c.set("y".repeat(500), []);
    expect(c.size).toBe(1);
    expect(c.characters).toBe(500);
    c.set("a", []);
    expect(c.get("y".repeat(500))).toBeUndefined();
    expect(c.characters).toBe(1);
    c.clear();
    expect(c.characters).toBe(0);
  });
});

describe("diagnosticsOf", () => {
  it("places lints at their block, offers the replacements and Add to dictionary for spelling", () => {
    const added: string[] = [];
    const h = handlers({ addWord: async (w) => void added.push(w) });
    const [d, g] = diagnosticsOf(10, [lint(5, 8, "teh", ["the", "tea", "ten", "tech", "eh"]), lint(0, 4, "Some", ["Same"], "grammar")], h, () => undefined);
    expect([d.from, d.to, d.severity, d.source]).toEqual([15, 18, "error", "Dictionary · spelling"]);
    expect(d.actions!.map((a) => a.name)).toEqual(["the", "tea", "ten", "tech", "Add to dictionary"]);
    expect(g.severity).toBe("warning");
    expect(g.actions!.map((a) => a.name)).toEqual(["Same"]);
  });
  it("a replacement is an edit in the view; Add to dictionary asks the core and relints", async () => {
    const state = EditorState.create({ doc: "Some teh text." });
    const view = new EditorView({ state });
    const added: string[] = [];
    const relinted = vi.fn();
    const [d] = diagnosticsOf(0, [lint(5, 8, "teh", ["the"])], handlers({ addWord: async (w) => void added.push(w) }), relinted);
    d.actions![0].apply(view, 5, 8);
    expect(view.state.doc.toString()).toBe("Some the text.");
    d.actions![1].apply(view, 5, 8);
    await Promise.resolve();
    await Promise.resolve();
    expect(added).toEqual(["teh"]);
    expect(relinted).toHaveBeenCalledWith(view);
    view.destroy();
  });
  it("words with a space get no Add to dictionary", () => {
    const [d] = diagnosticsOf(0, [lint(0, 7, "a lot of", ["alot"])], handlers(), () => undefined);
    expect(d.actions!.map((a) => a.name)).toEqual(["alot"]);
  });
});

describe("lintSource", () => {
  it("lints only blocks it has not seen, and nothing when turned off", async () => {
    forgetLints();
    const calls: string[][] = [];
    let on = true;
    const h = handlers({
      enabled: () => on,
      lint: async (texts) => {
        calls.push(texts);
        return texts.map((t) => (t.includes("teh") ? [lint(t.indexOf("teh"), t.indexOf("teh") + 3, "teh", ["the"])] : []));
      },
    });
    const source = lintSource(h);
    const view = new EditorView({ state: stateOf(doc) });
    const first = await source(view);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual(["# A titel", "Some teh text.", "- a lsit item", "Last paragrph."]);
    expect(first.map((d) => view.state.sliceDoc(d.from, d.to))).toEqual(["teh"]);
    // Typing in one paragraph: only that one is linted again.
    const at = doc.indexOf("Last");
    view.dispatch({ changes: { from: at, insert: "teh " } });
    const second = await source(view);
    expect(calls[1]).toEqual(["teh Last paragrph."]);
    expect(second.map((d) => view.state.sliceDoc(d.from, d.to))).toEqual(["teh", "teh"]);
    // Nothing new: no call at all.
    await source(view);
    expect(calls).toHaveLength(2);
    on = false;
    expect(await source(view)).toEqual([]);
    view.destroy();
  });
  it("says a failure once, not at every keystroke", async () => {
    forgetLints();
    const failed = vi.fn();
    const source = lintSource(handlers({ lint: async () => Promise.reject({ code: "producer", message: "no Harper" }), failed }));
    const view = new EditorView({ state: stateOf("Some text.") });
    expect(await source(view)).toEqual([]);
    view.dispatch({ changes: { from: 0, insert: "x" } });
    expect(await source(view)).toEqual([]);
    expect(failed).toHaveBeenCalledTimes(1);
    view.destroy();
  });
});

describe("labels", () => {
  it("names removals and shows line breaks", () => {
    expect(replacementLabel("")).toBe("Remove");
    expect(replacementLabel("a\nb")).toBe("a⏎b");
    expect(severityOf("style")).toBe("info");
  });
});

describe("spelling (the extension)", () => {
  it("lints when the editor opens, and again at once when a word is added to the dictionary", async () => {
    forgetLints();
    const words = new Set<string>();
    const calls: string[][] = [];
    const h = handlers({
      lint: async (texts) => {
        calls.push(texts);
        return texts.map((t) => (t.includes("Jorunn") && !words.has("Jorunn") ? [lint(0, 6, "Jorunn")] : []));
      },
      addWord: async (w) => void words.add(w),
    });
    const parent = document.createElement("div");
    document.body.append(parent);
    const view = new EditorView({ state: EditorState.create({ doc: "Jorunn wrote.", extensions: [markdown(), spelling(h)] }), parent });
    const diagnostics = () => {
      const out: string[] = [];
      forEachDiagnostic(view.state, (d, from, to) => void out.push(`${d.source}:${view.state.sliceDoc(from, to)}`));
      return out;
    };
    await vi.waitFor(() => expect(diagnostics()).toEqual(["Dictionary · spelling:Jorunn"]), { timeout: 10_000 });
    const [d] = diagnosticsOf(0, [lint(0, 6, "Jorunn")], h, () => undefined);
    expect(d.actions![d.actions!.length - 1].name).toBe("Add to dictionary");
    // The tooltip's action, as the extension made it.
    let action: ((view: EditorView, from: number, to: number) => void) | undefined;
    forEachDiagnostic(view.state, (diag) => (action = diag.actions?.find((a) => a.name === "Add to dictionary")?.apply));
    action!(view, 0, 6);
    await vi.waitFor(() => expect(diagnostics()).toEqual([]), { timeout: 10_000 });
    expect(calls.length).toBe(2);
    view.destroy();
  });
});

describe("the app's editor and the lint keys", () => {
  it("F8 goes to the next slip and Ctrl+Shift+M lists them, in the editor as the app builds it", async () => {
    forgetLints();
    const { createState } = await import("../src/editor");
    const { emptyReview } = await import("./fake-backend");
    const text = "Fine words here.\n\nJorunn wrote it.\n";
    const spelling = handlers({ lint: async (texts) => texts.map((t) => (t.startsWith("Jorunn") ? [lint(0, 6, "Jorunn")] : [])) });
    const app = { onLocalChange() {}, onCursorJump() {}, accept() {}, reject() {}, focusThread() {}, authorLabel: (a: { label: string }) => a.label, onOutline() {}, keys: [], spelling, comment: { submit: async () => true }, path: () => "slips.md" };
    const parent = document.createElement("div");
    document.body.append(parent);
    stubLayout();
    const view = new EditorView({ state: createState(text, emptyReview(), app), parent });
    await vi.waitFor(() => {
      let n = 0;
      forEachDiagnostic(view.state, () => void n++);
      expect(n).toBe(1);
    }, { timeout: 10_000 });
    const key = (init: KeyboardEventInit) => runScopeHandlers(view, new KeyboardEvent("keydown", init), "editor");
    expect(key({ key: "F8" })).toBe(true);
    expect(view.state.selection.main.from).toBe(text.indexOf("Jorunn"));
    expect(key({ key: "M", keyCode: 77, ctrlKey: true, shiftKey: true })).toBe(true);
    expect(parent.querySelector(".cm-panel-lint")?.textContent).toContain("Did you mean to spell “Jorunn” this way?");
    view.destroy();
  });
});
