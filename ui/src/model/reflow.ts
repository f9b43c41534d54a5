// Re-flow (pure; unit-tested in test/reflow.test.ts): which line breaks of a
// Markdown text join two lines of one paragraph, so that a hard-wrapped
// paragraph can be shown as one (display only: the file keeps its breaks).
// A break joins when both lines are a paragraph's text: not blank, not a
// heading, a fence, a rule, a quote, a list item's start, a table row, not
// indented as code, not in a code fence or front matter, and the first line
// not ending in a hard break (two spaces or a backslash).
import { Text } from "@codemirror/state";

/** A break to show as a space: `from` is the line's end, `to` the next line's text (its indent skipped). */
export interface Join {
  from: number;
  to: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
/** A line that starts a block of its own (or underlines one): never joined to the line before it. */
const BLOCK_START = /^ {0,3}(?:#{1,6}(?:[ \t]|$)|>|[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|`{3,}|~{3,}|=+[ \t]*$|-+[ \t]*$|\*(?:[ \t]*\*){2,}[ \t]*$|_(?:[ \t]*_){2,}[ \t]*$|\||<)/;
const ATX = /^ {0,3}#{1,6}(?:[ \t]|$)/;

/**
 * How much of a line the tests below read: each is anchored at the line's
 * start, and a line longer than this is read whole only when its first
 * characters already match (a rule or an underline must be one to its end).
 * A keystroke in a paragraph of one 20,000-character line reads no more than
 * one in a short one (test/keystroke-cost.test.ts).
 */
const HEAD = 64;

/** `re`, anchored at the start, on `line`: its first `HEAD` characters, the rest only when they match. */
export function startMatches(re: RegExp, line: string): boolean {
  if (line.length <= HEAD) return re.test(line);
  return re.test(line.slice(0, HEAD)) && re.test(line);
}

const RULE = /^ {0,3}(?:=+|-+|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|(?:-[ \t]*){3,})[ \t]*$/;

/** Whether `line` can be the first of two joined lines. */
function joinsAfter(line: string): boolean {
  if (!line.trim() || startMatches(ATX, line) || startMatches(FENCE, line) || startMatches(/^(?: {4}|\t)/, line)) return false;
  if (startMatches(/^ {0,3}\|/, line) || startMatches(/^ {0,3}</, line)) return false;
  // A rule or a setext underline ends its block.
  if (startMatches(RULE, line)) return false;
  // A hard break (two spaces or a backslash at the end).
  return !(line.endsWith("  ") || line.endsWith("\\"));
}

/** Whether `line` can be the second of two joined lines. */
function joinsBefore(line: string): boolean {
  return !!line.trim() && !startMatches(/^(?: {4}|\t)/, line) && !startMatches(BLOCK_START, line);
}

/**
 * The ranges `from..to` of `doc` in which no break joins: code fences (from
 * their opening line to their closing one, or the end) and front matter.
 */
export function codeRanges(doc: Text | string): { from: number; to: number }[] {
  const text = typeof doc === "string" ? Text.of(doc.split("\n")) : doc;
  const out: { from: number; to: number }[] = [];
  let pos = 0;
  let n = 0;
  let open: { ch: string; len: number; from: number } | null = null;
  for (const iter = text.iterLines(); !iter.next().done; ) {
    const line = iter.value;
    const from = pos;
    pos += line.length + 1;
    n++;
    if (open) {
      const m = FENCE.exec(line);
      const close = open.ch === "-" ? line === "---" || line === "..." : !!m && m[1][0] === open.ch && m[1].length >= open.len && !m[2].trim();
      if (close) {
        out.push({ from: open.from, to: from + line.length });
        open = null;
      }
      continue;
    }
    if (n === 1 && line === "---") {
      open = { ch: "-", len: 3, from };
      continue;
    }
    const m = FENCE.exec(line);
    if (m && !(m[1][0] === "`" && m[2].includes("`"))) open = { ch: m[1][0], len: m[1].length, from };
  }
  if (open) out.push({ from: open.from, to: text.length });
  return out;
}

/**
 * The joins between lines `first..last` (numbers) of `doc`: a break after line
 * L (first ≤ L < last) joins when L and L+1 are a paragraph's text and L is
 * not in one of `code` (sorted, from `codeRanges`).
 */
export function joinsIn(doc: Text, first: number, last: number, code: readonly { from: number; to: number }[]): Join[] {
  const out: Join[] = [];
  let k = 0;
  let prev = doc.line(first);
  for (let n = first + 1; n <= last; n++) {
    const line = doc.line(n);
    while (k < code.length && code[k].to < prev.from) k++;
    const inCode = k < code.length && code[k].from <= prev.from;
    if (!inCode && joinsAfter(prev.text) && joinsBefore(line.text)) {
      const indent = line.text.length - line.text.trimStart().length;
      out.push({ from: prev.to, to: line.from + indent });
    }
    prev = line;
  }
  return out;
}

/** Every join of `doc`. */
export function allJoins(doc: Text | string): Join[] {
  const text = typeof doc === "string" ? Text.of(doc.split("\n")) : doc;
  return joinsIn(text, 1, text.lines, codeRanges(text));
}

/** How much of a document `isHardWrapped` looks at: its first lines (a long document costs no more). */
export const HARD_WRAP_LINES = 400;

/**
 * Whether `doc` is hard-wrapped, so that re-flow's "auto" (the default) shows it
 * re-flowed: within its first `HARD_WRAP_LINES` lines, at least two breaks join
 * lines of a paragraph, and they are at least a quarter of its text lines (not
 * blank, not in code). A text written a line per paragraph, as typed in the app,
 * is not; nor is one that has a single two-line paragraph among many.
 */
export function isHardWrapped(doc: Text | string): boolean {
  const full = typeof doc === "string" ? Text.of(doc.split("\n")) : doc;
  const last = Math.min(full.lines, HARD_WRAP_LINES);
  const text = last === full.lines ? full : Text.of(full.sliceString(0, full.line(last).to).split("\n"));
  const code = codeRanges(text);
  const joins = joinsIn(text, 1, text.lines, code).length;
  if (joins < 2) return false;
  let lines = 0;
  for (let n = 1; n <= text.lines; n++) {
    const line = text.line(n);
    if (line.text.trim() && !code.some((r) => r.from <= line.from && line.from <= r.to)) lines++;
  }
  return joins * 4 >= lines;
}

/**
 * The longest document re-flow's "auto" re-flows (in characters): re-flow's first pass is over the
 * whole text (30–90 ms and 50,000 joins for the 5 MB hard-wrapped document of `make perf`), so a
 * very large document opens as fast as before, as its file has it, unless the writer turns re-flow on.
 */
export const AUTO_REFLOW_MAX = 1_000_000;

/** Whether re-flow's "auto" (the default) shows `doc` re-flowed: hard-wrapped, and not very large. */
export function autoReflow(doc: Text): boolean {
  return doc.length <= AUTO_REFLOW_MAX && isHardWrapped(doc);
}
