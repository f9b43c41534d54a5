// Typing where no structure can change moves the last syntax tree along
// instead of parsing the paragraph again (src/extensions/markdown-typing.ts):
// on random Markdown with every construct that letters could complete or
// split, and prose punctuation, after random insertions one after the other,
// the tree is always the one a full parse gives, and the shortcut is taken
// often; each case the proof rests on is refused; and in an editor, a
// keystroke at the end of a 20,000-character paragraph parses nothing. (Run
// once with 30,000 seeds: 750,000 insertions, 142,412 taken by the shortcut,
// none differing from a full parse.)
import { describe, expect, it } from "vitest";
import { EditorState } from "@codemirror/state";
import { ensureSyntaxTree, syntaxTree } from "@codemirror/language";
import { markdown } from "@codemirror/lang-markdown";
import { TreeFragment, type Tree, type Parser } from "@lezer/common";
import { TypingParser, typingMarkdown } from "../src/extensions/markdown-typing";

const base: Parser = markdown().language.parser;

/** Every node a reader of the tree sees: name and place. */
function nodes(tree: Tree): string {
  const out: string[] = [];
  tree.iterate({ enter: (n) => void out.push(`${n.name}:${n.from}-${n.to}`) });
  return out.join(" ");
}

/** A seeded generator (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const INLINE = [
  "word", "more", "text", "x1", "42", "é", "naïve", " ", " ", " ", "  ", ",", ".", "*em*", "**strong**", "_u_", "a_b_c",
  "`code`", "``", "[link](http://a.b/c)", "[ ]", "[ref]", "[a](b c)", "![img](i.png)", "<a 1>", "<a href=\"x\">",
  "<http://x.y>", "<http://a b>", "<x@y.z>", "&amp;", "&ab", "&#12;", "\\*", "\\", "<!-- c -->", "*", "_", "**", "[", "]",
  "(", ")", "<", ">", "&", "!", "`", "~", "|", "\t", "***", "__", "__strong__", "a*b*c", "![", "](", "\\[", "&#x1F;",
  "<?pi?>", "<![CDATA[x]]>", "<!DOCTYPE x>", "</a>", "𝐀", "\u00a0", "[a]", "[a][b]", "<b>", "*a **b** c*",
  "end.", "so,", "this;", "what?", "(aside)", "“quoted”", "it’s", "'single'", "\"double\"", "a-b", "x/y", "50%", "a+b=c",
  "$5", "me@x", "wow!", "note:", "[a]:", "—", "…",
];
const LINE_START = [
  "", "", "", "", "# ", "## ", "> ", "- ", "* ", "1. ", "2) ", "    ", "  ", "   - ", "> > ", "#", "-", "1.", "[a]: /url ", "[ ]: /u ", "<div>",
  "~~~", "<pre>", "<!--", "<?", "        ", "+ ", "10. ", ">", "- [ ] ", "\t",
];
const LINES = ["", "", "---", "===", "```", "```js", "***", "<div>", "</div>", "[x]: /y \"t\"", "~~~", "-->", "</pre>", "    ", "- ", "-", "1.", ">", "[a]:", "[a]: b", "[a]: b ", "0.", "0)"];

function randomDoc(r: () => number): string {
  const lines: string[] = [];
  const n = 1 + Math.floor(r() * 14);
  for (let i = 0; i < n; i++) {
    if (r() < 0.2) {
      lines.push(LINES[Math.floor(r() * LINES.length)]);
      continue;
    }
    let line = LINE_START[Math.floor(r() * LINE_START.length)];
    const parts = 1 + Math.floor(r() * 10);
    for (let j = 0; j < parts; j++) line += (j && r() < 0.6 ? " " : "") + INLINE[Math.floor(r() * INLINE.length)];
    if (r() < 0.1) line += "  ";
    lines.push(line);
  }
  return lines.join("\n") + (r() < 0.5 ? "\n" : "");
}

const TYPED = ["a", "Z", "7", " ", "ab", "é", " x", "x ", "  ", "9 9"];

/**
 * The tree after inserting `text` at `at`, as CodeMirror asks for it (but
 * keeping the tree before the change however short: CodeMirror drops it under
 * 128 characters, and these documents are short).
 */
function typed(parser: Parser, doc: string, tree: Tree, at: number, text: string): { doc: string; tree: Tree } {
  const next = doc.slice(0, at) + text + doc.slice(at);
  const fragments = TreeFragment.applyChanges(TreeFragment.addTree(tree), [{ fromA: at, toA: at, fromB: at, toB: at + text.length }], 0);
  return { doc: next, tree: parser.parse(next, fragments) };
}

describe("typing between letters", () => {
  it("gives the tree a full parse gives, on random Markdown, edit after edit", () => {
    const parser = new TypingParser(base);
    let edits = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const r = rng(seed);
      let doc = randomDoc(r);
      let tree = base.parse(doc);
      for (let e = 0; e < 25; e++) {
        // Mostly beside a letter (where typing happens), sometimes anywhere.
        let at = Math.floor(r() * (doc.length + 1));
        if (r() < 0.7) {
          const near = doc.slice(at).search(r() < 0.7 ? /[\p{L}\p{N}]/u : /[.,;?'"’‘“”()\-–—…/%+=$@ ]/u);
          if (near >= 0) at += near + (r() < 0.5 ? 1 : 0);
        }
        const ins = TYPED[Math.floor(r() * TYPED.length)];
        ({ doc, tree } = typed(parser, doc, tree, at, ins));
        edits++;
        const want = nodes(base.parse(doc));
        if (nodes(tree) !== want) expect({ seed, edit: e, doc, tree: nodes(tree) }).toEqual({ seed, edit: e, doc, tree: want });
      }
    }
    // The shortcut is taken often enough to have been tested.
    expect(parser.spliced).toBeGreaterThan(edits / 10);
  }, 120_000);

  it.each([
    ["a tag letters would complete", "x <a 1> y\n", "x <a ", "z"],
    ["an empty link label", "x [  ] y\n", "x [ ", "z"],
    ["an empty label of a link definition", "[  ]: /url\n", "[ ", "z"],
    ["a trailing space (a hard break)", "ab\ncd\n", "ab", " "],
    ["a space before two (a hard break)", "ab   \ncd\n", "ab ", " "],
    ["a space before one at a line's end", "ab \ncd\n", "ab", " "],
    ["the indentation before a list marker", "ab\n  - cd\n", "ab\n ", "x"],
    ["a code span", "a `bc` d\n", "a `b", "x"],
    ["an entity", "a &amp; b\n", "a &a", "x"],
    ["a heading's marker", "#ab\n", "#", "x"],
    ["a list marker's digits", "12. ab\n", "1", "3"],
    ["a fence's info", "```js\nx\n```\n", "```j", "x"],
    ["a colon after a link label (a definition)", "[a]:\n", "[a]:", "x"],
    ["digits that could make a list's 1", "a\n0. x\n", "a\n0", "1"],
    ["spaces that end a line inside a paragraph", "ab \ncd\n", "ab ", "x"],
    ["an asterisk", "a *b c\n", "a *", "x"],
  ])("is not taken beside %s", (_what, doc, before, text) => {
    const parser = new TypingParser(base);
    const at = before.length;
    const got = typed(parser, doc, base.parse(doc), at, text);
    expect(parser.spliced).toBe(0);
    expect(nodes(got.tree)).toBe(nodes(base.parse(got.doc)));
  });

  it("is taken between letters in a paragraph, a heading, an emphasis, a quoted list", () => {
    for (const [doc, before] of [
      ["ab cd\n", "ab c"],
      ["# Title here\n", "# Tit"],
      ["x *em ph* y\n", "x *em p"],
      ["> - item one\n> - two\n", "> - item one"],
      ["The end.\n", "The end."],
      ["The end. \n", "The end. "],
      ["The end.\n", "The end"],
      ["A (long) aside, “quoted”; it’s 50% done\n", "A (long) aside, “quoted”; it’s 50% done"],
    ] as const) {
      const parser = new TypingParser(base);
      const got = typed(parser, doc, base.parse(doc), before.length, "q");
      expect(parser.spliced, doc).toBe(1);
      expect(nodes(got.tree)).toBe(nodes(base.parse(got.doc)));
    }
  });

  it("parses nothing for a keystroke at the end of a 20,000-character paragraph in the editor", () => {
    const { support, parser } = typingMarkdown();
    const words = "the writer revised each sentence until it said exactly what she meant".split(" ");
    let long = "";
    for (let i = 0; long.length < 20_000; i++) long += words[i % words.length] + " ";
    long = long.trimEnd() + "s";
    let state = EditorState.create({ doc: `# Long\n\n${long}\n\nA short one.\n`, extensions: [support] });
    // Parsed to the end, as the editor's background parse leaves it.
    ensureSyntaxTree(state, state.doc.length, 10_000);
    const at = 8 + long.length;
    for (let i = 0; i < 20; i++) state = state.update({ changes: { from: at + i, insert: "w" } }).state;
    expect(parser.spliced).toBe(20);
    expect(nodes(syntaxTree(state))).toBe(nodes(base.parse(state.doc.toString())));
  });
});
