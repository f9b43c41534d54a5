// The outline's headings (ATX and setext; not in code fences, front matter,
// lists or quotes), the heading a position is under, and which edits can
// change it. The panel and the editor's tracking: test/reading-app.test.ts.
import { describe, expect, it } from "vitest";
import { Text } from "@codemirror/state";
import { extractOutline, headingAt, mayChangeOutline, plainHeading } from "../src/model/outline";

const outline = (s: string) => extractOutline(s).map((h) => [h.level, h.text, s.slice(h.from, h.to)]);

describe("extractOutline", () => {
  it("finds ATX headings of every level, with their text and lines", () => {
    const s = "# One\n\ntext\n## Two ##\n###### Six\n####### seven is text\n#hashtag\n   ### Indented three\n    # indented four is code\n";
    expect(outline(s)).toEqual([
      [1, "One", "# One"],
      [2, "Two", "## Two ##"],
      [6, "Six", "###### Six"],
      [3, "Indented three", "   ### Indented three"],
    ]);
  });

  it("finds setext headings, one or several lines underlined, and not a rule after a blank line", () => {
    const s = "Title\n=====\n\nA longer\nsubtitle\n---\n\n---\n\nplain\n\n===\n";
    expect(outline(s)).toEqual([
      [1, "Title", "Title\n====="],
      [2, "A longer subtitle", "A longer\nsubtitle\n---"],
    ]);
  });

  it("skips what is in code fences (backticks and tildes, closed by a fence as long), front matter, lists and quotes", () => {
    const s = [
      "---",
      "title: Front matter",
      "---",
      "# Real",
      "```sh",
      "# a shell comment",
      "```",
      "~~~~",
      "# still code",
      "~~~",
      "## still code after a shorter fence",
      "~~~~",
      "## After the fence",
      "- a list item",
      "---",
      "> a quote",
      "===",
      "",
      "Heading *with* `code` and [a link](http://x)",
      "-------",
    ].join("\n");
    expect(outline(s).map((h) => h.slice(0, 2))).toEqual([
      [1, "Real"],
      [2, "After the fence"],
      [2, "Heading with code and a link"],
    ]);
  });

  it("reads a CodeMirror Text as its string, offsets in UTF-16", () => {
    const s = "é 😀\n# Ünïcode 😀\nx\n";
    const hs = extractOutline(Text.of(s.split("\n")));
    expect(hs).toEqual([{ level: 1, text: "Ünïcode 😀", from: 5, to: 5 + "# Ünïcode 😀".length }]);
    expect(extractOutline(s)).toEqual(hs);
  });

  it("an unclosed fence hides the rest", () => {
    expect(outline("# A\n```\n# B\n")).toEqual([[1, "A", "# A"]]);
  });

  it("takes a 5 MB document", () => {
    const para = "Some words in a paragraph that is long enough to wrap a few times.\n".repeat(5) + "\n";
    const parts: string[] = [];
    for (let i = 0, len = 0; len < 5_000_000; i++) {
      parts.push(`## Section ${i}\n\n`, para.repeat(10));
      len += para.length * 10;
    }
    const big = Text.of(parts.join("").split("\n"));
    const hs = extractOutline(big);
    expect(hs.length).toBeGreaterThan(1000);
    expect(hs[hs.length - 1].text).toBe(`Section ${hs.length - 1}`);
  });
});

describe("plainHeading", () => {
  it("drops a closing sequence, emphasis, code marks and link targets", () => {
    expect(plainHeading("Title ###")).toBe("Title");
    expect(plainHeading("C# is a language")).toBe("C# is a language");
    expect(plainHeading("**Bold** and _it_ ~~gone~~ ![img](a.png)")).toBe("Bold and it gone img");
  });
});

describe("headingAt", () => {
  const hs = extractOutline("intro\n# A\ntext\n## B\ntext\n# C\n");
  it("is the last heading at or before the position, -1 before the first", () => {
    expect(headingAt(hs, 0)).toBe(-1);
    expect(headingAt(hs, 6)).toBe(0);
    expect(headingAt(hs, 12)).toBe(0);
    expect(headingAt(hs, 16)).toBe(1);
    expect(headingAt(hs, 100)).toBe(2);
    expect(headingAt([], 3)).toBe(-1);
  });
});

describe("mayChangeOutline", () => {
  it("is false for words typed in a paragraph line", () => {
    expect(mayChangeOutline("Some text\nmore", "Some new text\nmore")).toBe(false);
  });
  it("is true for a line break, a mark at a line's start, a line turning blank, or an indent", () => {
    expect(mayChangeOutline("ab\nc", "a\nb\nc")).toBe(true);
    expect(mayChangeOutline("ab\nc", "#ab\nc")).toBe(true);
    expect(mayChangeOutline("ab\n===", "abc\n===")).toBe(true);
    expect(mayChangeOutline("ab\nc", "\nc")).toBe(true);
    expect(mayChangeOutline("ab\nc", "    ab\nc")).toBe(true);
    expect(mayChangeOutline("ab\nc", "1. ab\nc")).toBe(true);
  });
});

describe("the outline kept in the editor", () => {
  it("reads the text again after words typed in a heading of several lines (no mark on those lines)", async () => {
    const { vi } = await import("vitest");
    const { EditorView } = await import("@codemirror/view");
    const { EditorState } = await import("@codemirror/state");
    const { outlineOf, outlineTracker } = await import("../src/extensions/outline");
    vi.useFakeTimers();
    try {
      const view = new EditorView({ state: EditorState.create({ doc: "A setext\nheading on\nthree lines\n---\ntext\n", extensions: [outlineTracker(() => undefined)] }), parent: document.body });
      view.dispatch({ changes: { from: 1, insert: " long" } });
      vi.runAllTimers();
      expect(outlineOf(view).headings.map((h) => h.text)).toEqual(["A long setext heading on three lines"]);
      view.destroy();
    } finally {
      vi.useRealTimers();
    }
  });

  it("after random edits (and the pause that reads the text again when one could change a heading), is the text's", async () => {
    const { vi } = await import("vitest");
    const { EditorView } = await import("@codemirror/view");
    const { EditorState } = await import("@codemirror/state");
    const { outlineOf, outlineTracker } = await import("../src/extensions/outline");
    vi.useFakeTimers();
    try {
      const start = "# Title\n\nSome text here\nmore text\n\nA setext\nheading on\nthree lines\n---\n\n```\n# code\n```\n\n## Two\nwords and words\n";
      const view = new EditorView({ state: EditorState.create({ doc: start, extensions: [outlineTracker(() => undefined)] }), parent: document.body });
      let seed = 11;
      const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
      const bits = ["a", "word ", " ", "\n", "#", "# ", "```", "-", "===", "\n\n", "x", "    ", "> "];
      for (let i = 0; i < 500; i++) {
        const len = view.state.doc.length;
        const from = rnd(len + 1);
        const to = rnd(3) === 0 ? Math.min(len, from + rnd(5)) : from;
        const insert = rnd(4) === 0 ? "" : bits[rnd(bits.length)];
        view.dispatch({ changes: { from, to, insert }, selection: { anchor: from + insert.length } });
        vi.runAllTimers();
        const doc = view.state.doc.toString();
        const want = extractOutline(doc);
        const got = outlineOf(view);
        const where = `after edit ${i}: ${JSON.stringify(doc)}`;
        expect(got.headings.map((h, k) => [h.level, h.text, got.at(k)]), where).toEqual(want.map((h) => [h.level, h.text, h.from]));
        expect(got.current, where).toBe(headingAt(want, view.state.selection.main.head));
      }
      view.destroy();
    } finally {
      vi.useRealTimers();
    }
  });
});
