// Spelling as the writer types: the core's lints of the Markdown blocks on
// screen (words not in the Hunspell dictionary, checked in process), underlined
// (spelling red; a grammar or style category, should a lint carry one, amber or
// blue), with the dictionary's closest words in the tooltip. A replacement clicked is the writer's
// own edit (it goes to the core like typing, attributed to the human, one undo
// step); "Add to dictionary" puts the word in the workspace's dictionary
// (`.cowriting/dictionary.txt`), which silences it everywhere. Nothing is filed:
// Check document (F7) is still the way to get proposals.
//
// Cost: only the top-level blocks that overlap the visible ranges are linted,
// and each block's lints are kept by its text, so typing re-lints one paragraph
// and scrolling back costs nothing. The core checks off the UI thread; Harper's
// grammar is Check document's (F7), on demand.
import { forceLinting, linter, lintKeymap, setDiagnostics, type Action, type Diagnostic } from "@codemirror/lint";
import { syntaxTree } from "@codemirror/language";
import { StateEffect, type EditorState, type Extension } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import type { LintDto } from "../bindings/LintDto";

export interface SpellingHandlers {
  /** The core's lints of each text, positions in UTF-16 units of each. */
  lint(texts: string[]): Promise<LintDto[][]>;
  /** Add a word to the workspace's dictionary. */
  addWord(word: string): Promise<void>;
  /** Whether to lint at all (the writer's choice). */
  enabled(): boolean;
  /** Linting failed (said once per failure streak; linting goes on). */
  failed(e: unknown): void;
}

/** A span of the document: a top-level Markdown block, or a paragraph of text not parsed yet. */
export interface Block {
  from: number;
  to: number;
}

/** Top-level blocks that hold no prose to check. */
const NOT_PROSE = new Set(["FencedCode", "CodeBlock", "HTMLBlock", "CommentBlock", "ProcessingInstructionBlock", "LinkReference", "HorizontalRule"]);

/**
 * The top-level Markdown blocks that overlap `ranges` (the visible ones), in
 * order, code and HTML left out. Text the parser has not reached yet is cut
 * into paragraphs at blank lines.
 */
export function blocksIn(state: EditorState, ranges: readonly { from: number; to: number }[]): Block[] {
  const tree = syntaxTree(state);
  const out: Block[] = [];
  const seen = new Set<number>();
  for (const r of ranges) {
    // The first top-level block reaching `r.from` (a search, not a walk from the start).
    const c = tree.topNode.cursor();
    if (c.childAfter(r.from - 1)) {
      do {
        if (c.to < r.from || c.from > r.to || seen.has(c.from)) continue;
        seen.add(c.from);
        if (!NOT_PROSE.has(c.name) && c.to > c.from) out.push({ from: c.from, to: c.to });
      } while (c.nextSibling() && c.from <= r.to);
    }
    if (tree.length < r.to) {
      for (const p of paragraphs(state, Math.max(tree.length, r.from), r.to)) {
        if (!seen.has(p.from)) {
          seen.add(p.from);
          out.push(p);
        }
      }
    }
  }
  return out.sort((a, b) => a.from - b.from);
}

/** The paragraphs (runs of non-blank lines) of `from..to`, widened to whole lines. */
function paragraphs(state: EditorState, from: number, to: number): Block[] {
  const doc = state.doc;
  const out: Block[] = [];
  let start: number | null = null;
  let end = 0;
  for (let n = doc.lineAt(from).number; n <= doc.lineAt(to).number; n++) {
    const line = doc.line(n);
    if (line.text.trim() === "") {
      if (start !== null) out.push({ from: start, to: end });
      start = null;
    } else {
      start ??= line.from;
      end = line.to;
    }
  }
  if (start !== null) out.push({ from: start, to: end });
  return out;
}

/**
 * Lints by block text, the least recently used dropped past `max` texts or
 * `maxChars` characters in all: each pause while typing in a paragraph keeps
 * the paragraph's new text, so a count alone let a long session of typing in
 * a 20 KB paragraph hold 2,000 copies of it (80 MB of keys).
 */
export class LintCache {
  private map = new Map<string, LintDto[]>();
  private chars = 0;
  constructor(
    private readonly max = 2000,
    private readonly maxChars = 1_000_000,
  ) {}
  get(text: string): LintDto[] | undefined {
    const v = this.map.get(text);
    if (v) {
      this.map.delete(text);
      this.map.set(text, v);
    }
    return v;
  }
  set(text: string, lints: LintDto[]) {
    this.drop(text);
    this.map.set(text, lints);
    this.chars += text.length;
    // The newest is kept even alone over `maxChars`: the blocks on screen are asked for again at once.
    while (this.map.size > 1 && (this.map.size > this.max || this.chars > this.maxChars)) this.drop(this.map.keys().next().value as string);
  }
  private drop(text: string) {
    if (this.map.delete(text)) this.chars -= text.length;
  }
  clear() {
    this.map.clear();
    this.chars = 0;
  }
  get size() {
    return this.map.size;
  }
  /** The characters of the texts kept. */
  get characters() {
    return this.chars;
  }
}

/** How a lint's category shows: spelling as an error, grammar as a warning, the rest as advice. */
export function severityOf(category: string): Diagnostic["severity"] {
  if (category === "spelling") return "error";
  if (["grammar", "agreement", "punctuation", "capitalization", "wordchoice", "malapropism", "eggcorn", "boundaryerror", "repetition"].includes(category)) return "warning";
  return "info";
}

/** How a replacement reads on its button. */
export function replacementLabel(r: string): string {
  if (r === "") return "Remove";
  return r.replace(/\n/g, "⏎");
}

/** The most replacements a tooltip offers. */
const MAX_ACTIONS = 4;

/** The diagnostics of `lints` of the block at `from` (lint positions are the block's). */
export function diagnosticsOf(from: number, lints: LintDto[], handlers: SpellingHandlers, onWordAdded: (view: EditorView) => void): Diagnostic[] {
  return lints.map((l) => {
    const actions: Action[] = l.replacements.slice(0, MAX_ACTIONS).map((r) => ({
      name: replacementLabel(r),
      apply: (view: EditorView, a: number, b: number) => {
        view.dispatch({ changes: { from: a, to: b, insert: r }, userEvent: "input.spelling", scrollIntoView: true });
      },
    }));
    if (l.category === "spelling" && l.text.trim() && !/\s/.test(l.text)) {
      actions.push({
        name: "Add to dictionary",
        markClass: "cm-lint-add-word",
        apply: (view: EditorView) => {
          void handlers.addWord(l.text).then(
            () => onWordAdded(view),
            (e) => handlers.failed(e),
          );
        },
      });
    }
    return {
      from: from + l.from,
      to: from + l.to,
      severity: severityOf(l.category),
      source: `Dictionary · ${l.category}`,
      message: l.message,
      markClass: `cm-lint-${l.category}`,
      actions,
    };
  });
}

/** Lints depend on the text and the workspace's dictionary only: one cache for every editor. */
const cache = new LintCache();

/** Forget every lint (the dictionary changed, or another workspace opened). */
export function forgetLints() {
  cache.clear();
}

/** The workspace's dictionary changed: every lint forgotten, `view` (if any) linted again. */
export function dictionaryChanged(view: EditorView | null) {
  forgetLints();
  if (view) relintNow(view);
}

/** The lint source: the diagnostics of the blocks on screen, linting only blocks not seen before. */
export function lintSource(handlers: SpellingHandlers): (view: EditorView) => Promise<Diagnostic[]> {
  let failing = false;
  return async (view: EditorView): Promise<Diagnostic[]> => {
    if (!handlers.enabled()) return [];
    const state = view.state;
    const blocks = blocksIn(state, view.visibleRanges);
    const texts = blocks.map((b) => state.sliceDoc(b.from, b.to));
    const missing = [...new Set(texts.filter((t) => !cache.get(t)))];
    if (missing.length) {
      try {
        const got = await handlers.lint(missing);
        missing.forEach((t, i) => cache.set(t, got[i] ?? []));
        failing = false;
      } catch (e) {
        if (!failing) handlers.failed(e);
        failing = true;
      }
    }
    return blocks.flatMap((b, i) => diagnosticsOf(b.from, cache.get(texts[i]) ?? [], handlers, dictionaryChanged));
  };
}

/** Underline the lints of what is on screen (see the file's header). */
export function spelling(handlers: SpellingHandlers): Extension {
  return [
    linter(lintSource(handlers), {
      delay: 500,
      needsRefresh: (u) => u.viewportChanged || u.transactions.some((t) => t.effects.some((e) => e.is(relintEffect))),
    }),
    keymap.of(lintKeymap),
    spellingTheme,
  ];
}

/** Asks the linter to lint again though the text did not change. */
const relintEffect = StateEffect.define<null>();

/** Lint `view` again now (the dictionary or the writer's choice changed). */
function relintNow(view: EditorView) {
  // `forceLinting` only hurries a lint already scheduled: schedule one first.
  view.dispatch({ effects: relintEffect.of(null) });
  forceLinting(view);
}

/** Stop or start linting in `view` after the writer's choice changed. */
export function refreshSpelling(view: EditorView, enabled: boolean) {
  if (enabled) relintNow(view);
  else view.dispatch(setDiagnostics(view.state, []));
}

const spellingTheme = EditorView.theme({
  ".cm-lintRange-info": { backgroundImage: "none", borderBottom: "1px dotted var(--lint-info, #3b82f6)" },
  ".cm-tooltip-lint .cm-diagnosticAction": { font: "inherit", fontSize: "13px", borderRadius: "4px", padding: "1px 8px" },
  ".cm-tooltip-lint .cm-lint-add-word": { background: "transparent", color: "inherit", border: "1px solid currentColor" },
  ".cm-diagnosticSource": { opacity: "0.7" },
});
