// Which line breaks re-flow joins: a paragraph's own, never a heading's, a
// list item's start, a quote, code (fenced or indented), front matter, or a
// hard break.
import { describe, expect, it } from "vitest";
import { allJoins, codeRanges } from "../src/reflow";

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
});
