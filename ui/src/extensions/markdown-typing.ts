// Typing in a long paragraph costs what typing in a short one costs (issue 37).
//
// CodeMirror's Markdown parser re-reads the whole paragraph a change falls in
// (its block and every inline construct in it): 1.5 ms a keystroke in a
// 20,000-character paragraph against 0.03 ms in a short one, measured in
// node, and most of what a keystroke there costs in the app. Yet most
// keystrokes are letters typed into plain words, which change no structure:
// the syntax tree after them is the tree before, every node after the caret
// moved along and every node around it grown. This parser does exactly that
// where it can prove the tree is the one a full parse gives, and parses as
// before everywhere else.
//
// What it proves, for a single insertion at `at` of letters, digits and
// spaces (what CodeMirror's fragments say happened since the last tree):
// - Every node that touches `at` is a plain-text container (a paragraph, a
//   heading, a list, a quote, an emphasis) and none starts at `at`, so the
//   text joins the containers that hold it and no marker, link, code span,
//   tag, entity, escape or hard break is entered or split.
// - The characters beside it are letters, digits, spaces or punctuation that
//   starts no inline construct (one starts or ends only at `*_\`[]<>&!`,
//   and emphasis is decided by the characters beside its delimiters; a `:`
//   after `[a]` starts a link definition).
// - If only spaces follow it to its line's end, that line is its block's last
//   (two spaces before a newline inside a block make a hard break).
// - A letter comes before it on its line, so no line's indentation or leading
//   marker changes (which is what decides blocks; digits could make `0.`
//   into `01.`).
// - No `<` or `[` is open before it in its paragraph: letters typed there
//   could complete a tag (`<a x1>`) or give an empty link label a word
//   (`[ x ]`). Entities, code spans, link destinations and labels cannot be
//   made by adding letters between letters (they are at most made longer or
//   left invalid).
// A randomized test holds it to a full parse (ui/test/markdown-typing.test.ts).
import { Parser, Tree, TreeBuffer, NodeProp, type Input, type PartialParse, type TreeFragment } from "@lezer/common";
import { Language, LanguageSupport } from "@codemirror/language";
import { markdown } from "@codemirror/lang-markdown";

/** Node types that text typed inside them simply joins. */
const CONTAINERS = new Set([
  "Document", "Paragraph", "Blockquote", "BulletList", "OrderedList", "ListItem", "Emphasis", "StrongEmphasis",
  "ATXHeading1", "ATXHeading2", "ATXHeading3", "ATXHeading4", "ATXHeading5", "ATXHeading6",
  "SetextHeading1", "SetextHeading2",
]);
/** The blocks whose text the open `<`/`[` check reads. */
const LEAVES = new Set([
  "Paragraph", "ATXHeading1", "ATXHeading2", "ATXHeading3", "ATXHeading4", "ATXHeading5", "ATXHeading6",
  "SetextHeading1", "SetextHeading2",
]);
const TYPED = /^[\p{L}\p{N} ]+$/u;
const LETTER = /\p{L}/u;
/**
 * What may stand beside typed text: letters, digits, spaces and punctuation
 * that starts no inline construct (no `*_\`[]<>&!#~|`, nor `:`, which after
 * `[a]` makes a link definition of what follows).
 */
const NEIGHBOUR = /^[\p{L}\p{N} .,;?'"’‘“”()\-–—…/%+=$@]$/u;
/** TreeBuffer positions are 16-bit. */
const BUFFER_MAX = 0xffff;

/** The one insertion since `tree` was whole, as CodeMirror's fragments describe it; otherwise null. */
function pureInsertion(
  input: Input,
  fragments: readonly TreeFragment[],
  ranges: readonly { from: number; to: number }[],
): { tree: Tree; at: number; text: string } | null {
  if (fragments.length !== 2 || ranges.length !== 1 || ranges[0].from !== 0 || ranges[0].to !== input.length) return null;
  const [a, b] = fragments;
  const k = -b.offset;
  if (a.tree !== b.tree || a.from !== 0 || a.offset !== 0 || a.openStart || b.openEnd || k <= 0) return null;
  if (b.to !== input.length || a.tree.length + k !== input.length || b.from + b.offset !== a.to) return null;
  return { tree: a.tree, at: a.to, text: input.read(a.to, a.to + k) };
}

/** Does the line before `at` hold a letter? Reads back only to the first one. */
function letterBefore(input: Input, at: number): boolean {
  for (let end = at; end > 0; ) {
    const from = Math.max(0, end - 64);
    const chunk = input.read(from, end);
    for (let i = chunk.length - 1; i >= 0; i--) {
      if (chunk[i] === "\n") return false;
      if (LETTER.test(chunk[i])) return true;
    }
    end = from;
  }
  return false;
}

/** Where the line ends (a newline or the text's end), when only spaces come before it from `from`; otherwise -1. */
function spacesToLineEnd(input: Input, from: number): number {
  for (let pos = from; pos < input.length; pos += 64) {
    const chunk = input.read(pos, Math.min(input.length, pos + 64));
    for (let i = 0; i < chunk.length; i++) {
      if (chunk[i] === "\n") return pos + i;
      if (chunk[i] !== " ") return -1;
    }
  }
  return input.length;
}

/** A place known to have no `<` or `[` open before it in its block (which starts at `block`). */
interface Closed {
  block: number;
  at: number;
}

/**
 * The tree after inserting `text` (letters, digits, spaces) at `at` into the
 * text `tree` was parsed from (`input` is the text after), when it is provably
 * the tree a full parse gives, and the place after the text (none open before
 * it); null when it might not be. `known`: such a place from the last
 * insertion into this tree, so that typing on reads only what it typed.
 */
function spliceInsertion(tree: Tree, input: Input, at: number, text: string, known?: Closed | null): { tree: Tree; closed: Closed } | null {
  const k = text.length;
  if (at <= 0 || k === 0 || !TYPED.test(text)) return null;
  const before = input.read(at - 1, at);
  const after = input.read(at + k, at + k + 1);
  if (!NEIGHBOUR.test(before) || (after !== "" && after !== "\n" && !NEIGHBOUR.test(after))) return null;
  if (!letterBefore(input, at)) return null;
  let ok = true;
  let leaf: { from: number; to: number } | null = null;
  tree.iterate({
    from: at,
    to: at,
    enter: (node) => {
      if (!ok) return false;
      if (!CONTAINERS.has(node.name) || (node.from === at && node.name !== "Document")) ok = false;
      else if (LEAVES.has(node.name)) leaf = { from: node.from, to: node.to };
      return ok;
    },
  });
  const found = leaf as { from: number; to: number } | null;
  if (!ok || !found) return null;
  // Spaces from the text to its line's end: a hard break is two before a
  // newline inside a block, so only on the block's last line.
  const lineEnd = spacesToLineEnd(input, at + k);
  if (lineEnd >= 0 && lineEnd - k !== found.to) return null;
  // Nothing open at `known.at` (typed text has no brackets): only what came after it is read.
  const from = known && known.block === found.from && known.at <= at ? known.at : found.from;
  const read = input.read(from, at);
  if (read.lastIndexOf("<") > read.lastIndexOf(">") || read.lastIndexOf("[") > read.lastIndexOf("]")) return null;
  const grown = grow(tree, at, k);
  return grown && { tree: grown, closed: { block: found.from, at: at + k } };
}

/** `tree` with every node that ends at or after `at` grown by `k` and every one starting after it moved by `k`. */
function grow(tree: Tree, at: number, k: number): Tree | null {
  if (tree.prop(NodeProp.mounted)) return null;
  const children: (Tree | TreeBuffer)[] = [];
  const positions: number[] = [];
  for (let i = 0; i < tree.children.length; i++) {
    const child = tree.children[i];
    const start = tree.positions[i];
    if (start + child.length < at) {
      children.push(child);
      positions.push(start);
    } else if (start >= at) {
      children.push(child);
      positions.push(start + k);
    } else {
      const grown = child instanceof TreeBuffer ? growBuffer(child, at - start, k) : grow(child, at - start, k);
      if (!grown) return null;
      children.push(grown);
      positions.push(start);
    }
  }
  const props = (tree as unknown as { props: Record<number, unknown> | null }).props;
  return new Tree(tree.type, children, positions, tree.length + k, props ? Object.entries(props).map(([id, v]) => [Number(id), v] as [number, unknown]) : undefined);
}

function growBuffer(buf: TreeBuffer, at: number, k: number): TreeBuffer | null {
  if (buf.length + k > BUFFER_MAX) return null;
  const b = buf.buffer.slice();
  for (let i = 0; i < b.length; i += 4) {
    if (b[i + 1] >= at) b[i + 1] += k;
    if (b[i + 2] >= at) b[i + 2] += k;
  }
  return new TreeBuffer(b, buf.length + k, buf.set);
}

/** A finished parse. */
function done(tree: Tree): PartialParse {
  return { advance: () => tree, parsedPos: tree.length, stopAt: () => undefined, stoppedAt: null };
}

/** `base`, with typing between letters answered by moving the last tree along. */
export class TypingParser extends Parser {
  /** How many parses were answered without parsing (for tests). */
  spliced = 0;
  constructor(readonly base: Parser) {
    super();
  }
  /** The last tree this answered, and the place after its insertion. */
  private last: { tree: Tree; closed: Closed } | null = null;
  createParse(input: Input, fragments: readonly TreeFragment[], ranges: readonly { from: number; to: number }[]): PartialParse {
    const ins = pureInsertion(input, fragments, ranges);
    const known = ins && this.last?.tree === ins.tree ? this.last.closed : null;
    const got = ins && spliceInsertion(ins.tree, input, ins.at, ins.text, known);
    this.last = got;
    if (got) {
      this.spliced++;
      return done(got.tree);
    }
    return this.base.createParse(input, fragments, ranges);
  }
}

/** CodeMirror's `markdown()` with its parser wrapped in a `TypingParser`. */
export function typingMarkdown(): { support: LanguageSupport; parser: TypingParser } {
  const md = markdown();
  const parser = new TypingParser(md.language.parser);
  const language = new Language(md.language.data, parser, [], md.language.name);
  return { support: new LanguageSupport(language, md.support), parser };
}
