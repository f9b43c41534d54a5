// A keystroke's work does not grow with its paragraph (issue 37): what re-flow
// reads of the text, counted as the characters handed to regular expressions
// while one keystroke's transaction is computed, is the same at the end of a
// paragraph of one 20,000-character line as at the end of a short one (and
// of a hard-wrapped 20,000-character paragraph). Counts, never times. And
// re-flow reading lines' starts joins what reading whole lines joined, long
// lines of every kind included, on random texts.
import { afterEach, describe, expect, it } from "vitest";
import { EditorState, Text } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { allJoins, codeRanges, type Join } from "../src/model/reflow";
import { reflow, setReflow } from "../src/extensions/reflow";

const WORDS = "the writer revised each sentence until it said exactly what she meant".split(" ");

/** A paragraph of about `n` characters: one line, or lines of 70 alike (so its last lines are the same whatever `n`). */
function paragraph(n: number, wrapped: boolean): string {
  const line = WORDS.join(" ").padEnd(70, ".");
  if (wrapped) return Array.from({ length: Math.ceil(n / 71) }, () => line).join("\n");
  let s = "";
  for (let i = 0; s.length < n; i++) s += WORDS[i % WORDS.length] + " ";
  return s.trimEnd() + ".";
}

/** The characters handed to regular expressions while `f` runs. */
function scanned(f: () => void): number {
  const exec = RegExp.prototype.exec;
  let count = 0;
  RegExp.prototype.exec = function (this: RegExp, s: string) {
    count += String(s).length - (this.global || this.sticky ? this.lastIndex : 0);
    return exec.call(this, s);
  };
  try {
    f();
  } finally {
    RegExp.prototype.exec = exec;
  }
  return count;
}

let views: EditorView[] = [];
afterEach(() => {
  for (const v of views) v.destroy();
  views = [];
});

/** What re-flow reads for one character typed at the end of a paragraph of `n` characters, and the joins after it. */
function keystroke(n: number, wrapped: boolean): { read: number; joins: number } {
  const para = paragraph(n, wrapped);
  const doc = `# Title\n\nA short one.\n\n${para}\n\nThe last one.\n`;
  const view = new EditorView({ state: EditorState.create({ doc, extensions: [reflow] }), parent: document.body });
  views.push(view);
  setReflow(view, true);
  const at = doc.indexOf(para) + para.length - 1;
  let state = view.state;
  const read = scanned(() => {
    // The transaction's new state: re-flow's field updated (no view, no DOM).
    state = view.state.update({ changes: { from: at, insert: "x" }, userEvent: "input.type" }).state;
  });
  setReflow(view, "auto");
  return { read, joins: allJoins(state.doc).length };
}

describe("a keystroke in a long paragraph", () => {
  it("reads no more of the text for re-flow than one in a short paragraph", () => {
    for (const wrapped of [false, true]) {
      const short = keystroke(200, wrapped);
      const long = keystroke(20_000, wrapped);
      expect(short.read, "the count counts").toBeGreaterThan(0);
      expect(long.read, `wrapped: ${wrapped}`).toBe(short.read);
      if (wrapped) expect(long.joins).toBeGreaterThan(200);
    }
  });
});

// The joins as re-flow found them before it read only lines' starts and ends:
// the same rules on whole lines (a naive model of src/model/reflow.ts's joinsIn).
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const BLOCK_START = /^ {0,3}(?:#{1,6}(?:[ \t]|$)|>|[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|`{3,}|~{3,}|=+[ \t]*$|-+[ \t]*$|\*(?:[ \t]*\*){2,}[ \t]*$|_(?:[ \t]*_){2,}[ \t]*$|\||<)/;
const ATX = /^ {0,3}#{1,6}(?:[ \t]|$)/;
function naiveJoins(doc: string): Join[] {
  const after = (line: string) => {
    if (!line.trim() || ATX.test(line) || FENCE.test(line) || /^(?: {4}|\t)/.test(line)) return false;
    if (/^ {0,3}\|/.test(line) || /^ {0,3}</.test(line)) return false;
    if (/^ {0,3}(?:=+|-+|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|(?:-[ \t]*){3,})[ \t]*$/.test(line)) return false;
    return !/(?: {2}|\\)$/.test(line);
  };
  const before = (line: string) => !!line.trim() && !/^(?: {4}|\t)/.test(line) && !BLOCK_START.test(line);
  const text = Text.of(doc.split("\n"));
  const code = codeRanges(text);
  const out: Join[] = [];
  for (let n = 1; n < text.lines; n++) {
    const a = text.line(n);
    const b = text.line(n + 1);
    if (code.some((r) => r.from <= a.from && a.from <= r.to)) continue;
    if (after(a.text) && before(b.text)) out.push({ from: a.to, to: b.from + (b.text.length - b.text.trimStart().length) });
  }
  return out;
}

describe("re-flow reading lines' starts", () => {
  it("joins what reading whole lines joined, long lines of every kind included", () => {
    let seed = 11;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const starts = ["", "    ", "\t", "# ", "###", "> ", "- ", "* ", "1. ", "```", "~~~", "---", "===", "***", "___", "- - -", "|", "<", "  "];
    const bodies = ["", "word", "w".repeat(90), "-".repeat(90), "=".repeat(70), "*".repeat(80), "_ ".repeat(40), " ".repeat(70), "text  ", "text\\", "-".repeat(70) + "x", "=".repeat(66) + "  "];
    for (let i = 0; i < 300; i++) {
      const lines = Array.from({ length: 2 + rnd(8) }, () => starts[rnd(starts.length)] + bodies[rnd(bodies.length)] + (rnd(5) === 0 ? "  " : ""));
      const doc = lines.join("\n");
      expect(allJoins(doc), JSON.stringify(doc)).toEqual(naiveJoins(doc));
    }
  });
});
