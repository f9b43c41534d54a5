// How a proposal reads outside its place in the text (pure; unit-tested in
// test/diff-text.test.ts): line breaks as a visible ⏎ (a proposal that joins
// two lines or splits one is otherwise invisible in a diff), and the card's
// context line: the line number and the words around the target.

import { visibleNodes } from "./hidden";

/** A piece of diff text: words, or a line break (shown as ⏎). */
export type Piece = { text: string } | { newline: true };

/** `text` cut at its line breaks ("a\nb" → "a", ⏎, "b"); no empty text pieces. */
export function newlinePieces(text: string): Piece[] {
  const out: Piece[] = [];
  text.split("\n").forEach((part, i) => {
    if (i > 0) out.push({ newline: true });
    if (part) out.push({ text: part });
  });
  return out;
}

/** Fill `el` with `text`, each line break as a ⏎ mark (and the break itself, when `keepBreaks`). */
export function appendWithNewlines(el: HTMLElement, text: string, keepBreaks: boolean) {
  for (const p of newlinePieces(text)) {
    if ("text" in p) el.append(...visibleNodes(p.text));
    else {
      const mark = document.createElement("span");
      mark.className = "nl-mark";
      mark.textContent = "⏎";
      mark.title = "A line break";
      el.append(mark);
      if (keepBreaks) el.append("\n");
    }
  }
}

/** The words around a proposal's target, for its card. */
export interface ContextLine {
  /** The line the target starts on, from 1. */
  line: number;
  /** Up to `words` words before the target on its line(s) ("…" first when cut). */
  before: string;
  /** The target, its line breaks as ⏎ (long ones shortened in the middle); empty for a pure insertion. */
  target: string;
  after: string;
}

/** How many characters of a long target the card shows (half from each end). */
const TARGET_MAX = 80;

/**
 * The context of `from..to` in a document: `lineAt(pos)` gives the line
 * around a position (its number and its text's extent), `slice` the text.
 */
export function contextLine(
  from: number,
  to: number,
  lineAt: (pos: number) => { number: number; from: number; to: number },
  slice: (from: number, to: number) => string,
  words = 6,
): ContextLine {
  const first = lineAt(from);
  const last = lineAt(to);
  const beforeText = slice(first.from, from);
  const afterText = slice(to, last.to);
  const b = beforeText.split(/(?<=\s)(?=\S)/);
  const a = afterText.split(/(?<=\S)(?=\s)/);
  const before = (b.length > words ? "…" : "") + b.slice(-words).join("").trimStart();
  const after = a.slice(0, words).join("").trimEnd() + (a.length > words ? "…" : "");
  let target = slice(from, to).replace(/\n/g, "⏎");
  if (target.length > TARGET_MAX) target = `${target.slice(0, TARGET_MAX / 2)}…${target.slice(-TARGET_MAX / 2)}`;
  return { line: first.number, before, target, after };
}
