// Which line breaks re-flow joins: a paragraph's own, never a heading's, a
// list item's start, a quote, code (fenced or indented), front matter, or a
// hard break. In the editor, after random edits, the joins it keeps are those
// a full pass over the text gives; which documents "auto" re-flows.
import { describe, expect, it } from "vitest";
import { Text } from "@codemirror/state";
import { AUTO_REFLOW_MAX, HARD_WRAP_LINES, allJoins, autoReflow, codeRanges, isHardWrapped } from "../src/model/reflow";

// Node's, where the tests run (the UI's types have no Node in them).
declare const process: { cwd(): string };

/** The text with each join shown as "␣" (the break and the next line's indent it hides). */
const shown = (s: string) => {
  let out = "";
  let at = 0;
  for (const j of allJoins(s)) {
    out += s.slice(at, j.from) + "␣";
    at = j.to;
  }
  return out + s.slice(at);
};

describe("re-flow", () => {
  it("joins the lines of a hard-wrapped paragraph, not across a blank line", () => {
    expect(shown("One two\nthree four\nfive.\n\nNext para\nline two.")).toBe("One two␣three four␣five.\n\nNext para␣line two.");
  });

  it("leaves headings, list items, quotes, rules, tables and setext underlines as they are", () => {
    const s = "# Title\ntext after\n- item one\n  continued\n- item two\n> quote\n> more\n\nPara\n---\n\n| a | b |\n| - | - |\nText\n***\nText\n=====";
    expect(shown(s)).toBe("# Title\ntext after\n- item one␣continued\n- item two\n> quote\n> more\n\nPara\n---\n\n| a | b |\n| - | - |\nText\n***\nText\n=====");
  });

  it("leaves code (fenced, indented) and front matter, and hard breaks", () => {
    const s = "---\ntitle: x\ndate: y\n---\nIntro line\n```js\nconst a = 1;\nconst b = 2;\n```\nAfter fence\nline\n\n    code one\n    code two\n\nHard break  \nnext\nBackslash\\\nnext";
    expect(shown(s)).toBe("---\ntitle: x\ndate: y\n---\nIntro line\n```js\nconst a = 1;\nconst b = 2;\n```\nAfter fence␣line\n\n    code one\n    code two\n\nHard break  \nnext␣Backslash\\\nnext");
    expect(codeRanges(s).map((r) => s.slice(r.from, r.to))).toEqual(["---\ntitle: x\ndate: y\n---", "```js\nconst a = 1;\nconst b = 2;\n```"]);
  });

  it("an unclosed fence is code to the end", () => {
    expect(shown("a\nb\n```\nc\nd")).toBe("a␣b\n```\nc\nd");
  });
});

describe("re-flow in the editor", () => {
  it("after random edits, shows the joins a full pass over the text gives", async () => {
    const { EditorView } = await import("@codemirror/view");
    const { joinsOf, reflow, setReflow } = await import("../src/extensions/reflow");
    const { EditorState } = await import("@codemirror/state");
    const start = "# T\nOne two\nthree four\n\n```\ncode\nmore\n```\nPara a\npara b\n- item\n  cont\n\nlast\nline\n";
    const view = new EditorView({ state: EditorState.create({ doc: start, extensions: [reflow] }), parent: document.body });
    setReflow(view, true);
    expect(joinsOf(view.state)).toEqual(allJoins(start));
    // A seeded generator: the same edits every run.
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const bits = ["a", " ", "\n", "#", "`", "```", "~~~", "-", "> ", "  ", "\n\n", "word ", "* ", "1. ", "---"];
    for (let i = 0; i < 400; i++) {
      const len = view.state.doc.length;
      const from = rnd(len + 1);
      const to = rnd(3) === 0 ? Math.min(len, from + rnd(6)) : from;
      view.dispatch({ changes: { from, to, insert: rnd(4) === 0 ? "" : bits[rnd(bits.length)] } });
      const doc = view.state.doc.toString();
      expect(joinsOf(view.state), `after edit ${i}: ${JSON.stringify(doc)}`).toEqual(allJoins(doc));
    }
    setReflow(view, false);
    expect(joinsOf(view.state)).toEqual([]);
    view.destroy();
  });

  it("\"auto\" (the default) shows a hard-wrapped document re-flowed as it is shown, one typed a line per paragraph as it is", async () => {
    const { EditorView } = await import("@codemirror/view");
    const { joinsOf, reflow, reflowOn, setReflow } = await import("../src/extensions/reflow");
    const { EditorState } = await import("@codemirror/state");
    const shownNow = () => new Promise((r) => setTimeout(r, 0)); // the plugin decides in a microtask
    const wrapped = "# T\n\nOne two\nthree four\nfive.\n\nSix\nseven.\n";
    const plain = "# T\n\nOne two three four five.\n\nSix seven.\n";
    setReflow(null, "auto");
    const a = new EditorView({ state: EditorState.create({ doc: wrapped, extensions: [reflow] }), parent: document.body });
    const b = new EditorView({ state: EditorState.create({ doc: plain, extensions: [reflow] }), parent: document.body });
    await shownNow();
    expect(reflowOn(a.state)).toBe(true);
    expect(joinsOf(a.state)).toEqual(allJoins(wrapped));
    expect(reflowOn(b.state)).toBe(false);
    // Decided as it is shown, not as it is edited: a line and a next one typed stay two lines.
    b.dispatch({ changes: { from: b.state.doc.length, insert: "New line\nand the next\nand more\n" } });
    expect(reflowOn(b.state)).toBe(false);
    // The writer's choice wins, for the document shown and the next ones.
    setReflow(a, false);
    expect(reflowOn(a.state)).toBe(false);
    a.setState(EditorState.create({ doc: wrapped, extensions: [reflow] }));
    await shownNow();
    expect(reflowOn(a.state)).toBe(false);
    setReflow(a, "auto");
    expect(reflowOn(a.state)).toBe(true);
    a.destroy();
    b.destroy();
  });
});

describe("hard-wrapped, for re-flow's \"auto\" (the default)", () => {
  // The bundled sample workspace, as the app writes it on first launch (outside ui/, so read, not imported).
  const sample = async (rel: string): Promise<string> => {
    const fs = "node:fs";
    const { readFileSync } = (await import(/* @vite-ignore */ fs)) as { readFileSync(path: string, enc: "utf8"): string };
    return readFileSync(`${process.cwd()}/../examples/workspace/${rel}`, "utf8");
  };

  it("the bundled sample's essay and story are (they open re-flowed); its meeting notes, a line per item, are not", async () => {
    expect(isHardWrapped(await sample("essay.md"))).toBe(true);
    expect(isHardWrapped(await sample("story.md"))).toBe(true);
    expect(isHardWrapped(await sample("notes/meeting.md"))).toBe(false);
  });

  it("a text a line per paragraph is not, nor one with a single two-line paragraph among many", () => {
    const oneLiners = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} is a single long line, as typed in the app.`).join("\n\n");
    expect(isHardWrapped(oneLiners)).toBe(false);
    expect(isHardWrapped(`${oneLiners}\n\nOne paragraph\nwith a break.`)).toBe(false);
    expect(isHardWrapped("")).toBe(false);
    expect(isHardWrapped("# Title\n\n- a list\n- of items\n- only\n\n> a quote\n> on lines")).toBe(false);
  });

  it("lines in code do not count; only the first lines are looked at", () => {
    expect(isHardWrapped("```\ncode\nlines\nhere\n```\n\nOne\nparagraph.")).toBe(false);
    const wrapped = "Two lines\nof a paragraph.\n\n".repeat(4);
    expect(isHardWrapped(wrapped)).toBe(true);
    const long = "A line per paragraph.\n\n".repeat(HARD_WRAP_LINES / 2) + wrapped.repeat(100);
    expect(isHardWrapped(long)).toBe(false);
  });

  it("auto re-flows a hard-wrapped document, not a very large one", () => {
    const para = "Two lines\nof a paragraph.\n\n";
    expect(autoReflow(Text.of(para.repeat(4).split("\n")))).toBe(true);
    const big = Text.of(para.repeat(Math.ceil(AUTO_REFLOW_MAX / para.length) + 1).split("\n"));
    expect(big.length).toBeGreaterThan(AUTO_REFLOW_MAX);
    expect(isHardWrapped(big)).toBe(true);
    expect(autoReflow(big)).toBe(false);
  });
});
