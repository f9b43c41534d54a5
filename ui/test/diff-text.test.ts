// Line breaks shown as ⏎ (the pieces, and the DOM a card and the inline diff
// get), and a card's context line (line number, words around the target).
import { describe, expect, it } from "vitest";
import { Text } from "@codemirror/state";
import { appendWithNewlines, contextLine, newlinePieces } from "../src/diff-text";

describe("newlinePieces", () => {
  it("cuts text at its line breaks", () => {
    expect(newlinePieces("a\nb")).toEqual([{ text: "a" }, { newline: true }, { text: "b" }]);
    expect(newlinePieces("\n")).toEqual([{ newline: true }]);
    expect(newlinePieces("end.\n\nNext")).toEqual([{ text: "end." }, { newline: true }, { newline: true }, { text: "Next" }]);
    expect(newlinePieces("no break")).toEqual([{ text: "no break" }]);
    expect(newlinePieces("")).toEqual([]);
  });
  it("renders each break as a ⏎ mark, with the break kept or not", () => {
    const el = document.createElement("span");
    appendWithNewlines(el, "one\ntwo", true);
    expect(el.textContent).toBe("one⏎\ntwo");
    expect(el.querySelectorAll(".nl-mark")).toHaveLength(1);
    const joined = document.createElement("span");
    appendWithNewlines(joined, "one\ntwo", false);
    expect(joined.textContent).toBe("one⏎two");
  });
});

describe("contextLine", () => {
  const ctx = (s: string, from: number, to: number, words?: number) => {
    const doc = Text.of(s.split("\n"));
    return contextLine(from, to, (p) => doc.lineAt(p), (f, t) => doc.sliceString(f, t), words);
  };
  it("gives the line number and the words around the target, cut with …", () => {
    const s = "Title\n\nOne two three four five six seven eight target nine ten eleven twelve thirteen fourteen fifteen.\n";
    const from = s.indexOf("target");
    expect(ctx(s, from, from + 6)).toEqual({ line: 3, before: "…three four five six seven eight ", target: "target", after: " nine ten eleven twelve thirteen fourteen…" });
  });
  it("stays on the target's lines, shows its line breaks as ⏎, and an empty target for an insertion", () => {
    const s = "first line\nthe end of one.\nNext line here\nlast";
    const from = s.indexOf("one.");
    const to = s.indexOf("Next") + 4;
    expect(ctx(s, from, to)).toEqual({ line: 2, before: "the end of ", target: "one.⏎Next", after: " line here" });
    const at = s.indexOf("end");
    expect(ctx(s, at, at)).toEqual({ line: 2, before: "the ", target: "", after: "end of one." });
  });
  it("shortens a long target in the middle", () => {
    const long = "word ".repeat(40).trim();
    const c = ctx(`A ${long} B`, 2, 2 + long.length);
    expect(c.target.length).toBe(81);
    expect(c.target).toContain("…");
  });
});
