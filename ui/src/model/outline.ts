// The document's outline: its Markdown headings (ATX `# …` and setext, text
// underlined with `===` / `---`), found by one pass over the lines, and the
// heading a position is under. Pure (unit-tested in test/outline.test.ts).
//
// Why not CodeMirror's Markdown syntax tree: the editor parses in the
// background only up to a little past what is on screen (100,000 characters),
// so for a long document the tree has no headings past that and the outline
// would stop halfway. A pass over the lines is cheap enough (a 5 MB document
// in ~15 ms), and the editor runs it when the writer pauses, only after an
// edit that can change a heading (see `extensions/outline.ts`).
import { Text } from "@codemirror/state";

export interface Heading {
  /** 1–6. */
  level: number;
  /** The heading's words, without its marks (`#`, the underline, emphasis, a link's target). */
  text: string;
  /** Where its line starts (a setext heading: its first line), a UTF-16 offset. */
  from: number;
  /** Where its last line ends (a setext heading: its underline). */
  to: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+|$)(.*)$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const RULE = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const LIST = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const QUOTE = /^ {0,3}>/;
/** A line whose first mark (after up to 3 spaces) is one of these can open or close something; any other line is text. */
const MARKS = new Set(["#", "`", "~", "=", "-", "*", "_", "+", ">", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);

/** A heading's text as the outline shows it: no closing `#`s, emphasis or code marks, a link as its words. */
export function plainHeading(raw: string): string {
  return raw
    .replace(/(?:^|[ \t]+)#+[ \t]*$/, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__|\*|_|`|~~)(?=\S)(.+?)(?<=\S)\1/g, "$2")
    .trim();
}

/** The first character that is not a space, among the first four ("" for none, or a tab: indented). */
function lead(line: string): string {
  for (let i = 0; i < 4 && i < line.length; i++) if (line[i] !== " ") return line[i] === "\t" ? "" : line[i];
  return "";
}

/** The headings of `doc` (a CodeMirror `Text`, or a string), in order. */
export function extractOutline(doc: Text | string): Heading[] {
  const text = typeof doc === "string" ? Text.of(doc.split(/\r?\n/)) : doc;
  const out: Heading[] = [];
  let pos = 0;
  let n = 0;
  /** The open fence (its mark and length), if any. */
  let fence: { ch: string; len: number } | null = null;
  /** The lines of the paragraph being read (a setext underline makes them a heading), if any. */
  let para: { from: number; lines: string[] } | null = null;
  /** Inside a list item or a quote: its lines never make a setext heading (until a blank line). */
  let block = false;
  /** YAML front matter (`---` on the first line, to the next `---` or `...`): not text. */
  let front = false;
  for (const iter = text.iterLines(); !iter.next().done; ) {
    const line = iter.value;
    const from = pos;
    pos += line.length + 1;
    n++;
    if (front) {
      if (line === "---" || line === "...") front = false;
      continue;
    }
    if (fence) {
      const m = lead(line) === fence.ch ? FENCE.exec(line) : null;
      if (m && m[1][0] === fence.ch && m[1].length >= fence.len && !m[2].trim()) fence = null;
      continue;
    }
    if (n === 1 && line === "---") {
      front = true;
      continue;
    }
    const c = lead(line);
    if (c === "") {
      // Blank, or indented four spaces or more: code when no paragraph is open, else its next line.
      if (!line.trim()) {
        para = null;
        block = false;
      } else if (para) para.lines.push(line);
      continue;
    }
    if (MARKS.has(c)) {
      let m: RegExpExecArray | null;
      if (c === "#" && (m = ATX.exec(line))) {
        out.push({ level: m[1].length, text: plainHeading(m[2]), from, to: from + line.length });
        para = null;
        block = false;
        continue;
      }
      if ((c === "`" || c === "~") && (m = FENCE.exec(line)) && !(c === "`" && m[2].includes("`"))) {
        fence = { ch: c, len: m[1].length };
        para = null;
        block = false;
        continue;
      }
      if ((c === "=" || c === "-") && para && !block && (m = SETEXT.exec(line))) {
        const words = para.lines.map((l) => l.trim()).join(" ");
        out.push({ level: m[1][0] === "=" ? 1 : 2, text: plainHeading(words), from: para.from, to: from + line.length });
        para = null;
        continue;
      }
      if (RULE.test(line)) {
        para = null;
        block = false;
        continue;
      }
      if (LIST.test(line) || QUOTE.test(line)) {
        para = null;
        block = true;
        continue;
      }
    }
    if (block) continue;
    if (para) para.lines.push(line);
    else para = { from, lines: [line] };
  }
  return out;
}

/** The index of the heading `pos` is under (the last one starting at or before it), or -1. */
export function headingAt(headings: readonly Heading[], pos: number): number {
  let lo = 0;
  let hi = headings.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (headings[mid].from <= pos) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * Whether an edit could change the outline, other than moving it: it added or
 * removed a line break, turned a line blank or not, or a line it touched (or
 * the line after them) could open, close or underline something. `before` /
 * `after` are the touched lines and the next one, before and after the edit.
 * (An edit inside a heading's lines changes its text: the caller checks that.)
 * Typing words in a paragraph cannot change the outline: the headings only move.
 */
export function mayChangeOutline(before: string, after: string): boolean {
  const a = before.split("\n");
  const b = after.split("\n");
  if (a.length !== b.length) return true;
  for (let i = 0; i < a.length; i++) {
    if (!a[i].trim() !== !b[i].trim()) return true;
    for (const line of [a[i], b[i]]) if (MARKS.has(lead(line)) || line.startsWith("    ") || line.startsWith("\t")) return true;
  }
  return false;
}
