// Keystroke cost with a big review, measured (never asserted): `npm run bench`
// runs it twice, as the app is (typing.bench.ts) and with Markdown parsing left
// out of every variant (typing-no-markdown.bench.ts), where the cost the review
// adds is not lost in the parser's.
//
// A 5 MB Markdown document with 1,000 proposals, 700 threads and 1,000 attribution
// spans; N single-character typing transactions dispatched to an EditorView (jsdom,
// like the tests), timed one by one (the synchronous dispatch: state update, view
// update, DOM changes; not the measure CodeMirror does in the next frame). Variants:
//
// - "minimal CodeMirror": an EditorView with no extensions;
// - "bare CodeMirror": the app's extensions without the review ones (the floor);
// - "app": src/editor.ts's createState, as the app builds it;
// - "app @REF": the same from a git ref (BENCH_BEFORE=main npm run bench), run in the
//   same process, so before and after are measured on the same machine at the same time.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { EditorState, type Extension } from "@codemirror/state";
import { EditorView, drawSelection, keymap } from "@codemirror/view";
import { defaultKeymap } from "@codemirror/commands";
import { markdown } from "@codemirror/lang-markdown";
import { defaultHighlightStyle, forceParsing, syntaxHighlighting } from "@codemirror/language";
import { highlightSelectionMatches, search, searchKeymap } from "@codemirror/search";
import type { ReviewDto } from "../src/bindings/ReviewDto";
import { prose, reviewFor } from "./fixture";

const N = Number(process.env.BENCH_N ?? 500);
const WARMUP = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const HERE = dirname(fileURLToPath(import.meta.url));

type Make = (text: string, review: ReviewDto) => EditorState;
const handlers = { onLocalChange() {}, onCursorJump() {}, accept() {}, reject() {}, focusThread() {}, onOutline() {}, keys: [] };

function bare(extra: Extension[]): Make {
  return (text) => EditorState.create({ doc: text, extensions: extra });
}

/** src/editor.ts and src/review-model.ts as they were at `ref`, importable beside the current ones. */
async function before(ref: string): Promise<Make> {
  const dir = join(HERE, ".before", ref.replace(/[^\w.-]/g, "_"));
  mkdirSync(dir, { recursive: true });
  for (const f of ["editor.ts", "review-model.ts"]) {
    const src = execFileSync("git", ["show", `${ref}:ui/src/${f}`], { cwd: HERE, encoding: "utf8" });
    writeFileSync(join(dir, f), src.replace(/from "\.\/util"/g, 'from "../../../src/model/util"').replace(/from "\.\/(bindings\/\w+)"/g, 'from "../../../src/$1"'));
  }
  const mod = await import(/* @vite-ignore */ join(dir, "editor.ts"));
  return (text, review) => mod.createState(text, review, handlers);
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Type WARMUP + N characters in the middle of the document: inside a writer's span, a few lines after a proposal. */
function typing(make: Make, text: string, review: ReviewDto) {
  const parent = document.createElement("div");
  document.body.append(parent);
  const view = new EditorView({ state: make(text, review), parent });
  // The app parses in the background while the writer reads; here there is no idle time.
  forceParsing(view, text.length, 60_000);
  const span = review.spans[500];
  let at = text.indexOf(" ", span.from + 20);
  view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
  const times: number[] = [];
  for (let i = 0; i < WARMUP + N; i++) {
    const t0 = performance.now();
    view.dispatch({ changes: { from: at, insert: "x" }, selection: { anchor: at + 1 }, userEvent: "input.type" });
    const dt = performance.now() - t0;
    if (i >= WARMUP) times.push(dt);
    at++;
  }
  const shown = {
    proposals: view.dom.querySelectorAll(".cm-proposal").length,
    human: view.dom.querySelectorAll(".cm-human-mark").length,
    lines: view.dom.querySelectorAll(".cm-line").length,
  };
  view.destroy();
  parent.remove();
  return { times, shown };
}

export async function typingBench(title: string) {
  const text = prose(5_000_000, 3);
  const review = reviewFor(text);
  const { createState } = await import("../src/editor");
  const baseExt: Extension[] = [
    drawSelection(),
    EditorView.lineWrapping,
    markdown(),
    syntaxHighlighting(defaultHighlightStyle),
    search({ top: true }),
    highlightSelectionMatches(),
    keymap.of([...searchKeymap, ...defaultKeymap]),
  ];
  const variants: [string, Make][] = [
    ["minimal CodeMirror (no extensions)", bare([])],
    ["bare CodeMirror (the app's extensions without review)", bare(baseExt)],
  ];
  if (process.env.BENCH_BEFORE) variants.push([`app @${process.env.BENCH_BEFORE}`, await before(process.env.BENCH_BEFORE)]);
  variants.push(["app (working tree)", (t, r) => createState(t, r, handlers)]);

  // Rounds in rotating order, so warm-up and GC pressure fall on every variant alike.
  const all = variants.map(() => [] as number[]);
  const medians = variants.map(() => [] as string[]);
  const shownAt = variants.map(() => "");
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < variants.length; k++) {
      const v = (k + round) % variants.length;
      const { times, shown } = typing(variants[v][1], text, review);
      all[v].push(...times);
      medians[v].push(pct(times, 50).toFixed(2));
      shownAt[v] = `${shown.lines} lines, ${shown.proposals} proposal marks, ${shown.human} human gutter marks`;
    }
  }
  const rows = variants.map(
    ([name], v) => `| ${name} | ${pct(all[v], 50).toFixed(3)} | ${pct(all[v], 95).toFixed(3)} | ${medians[v].join(", ")} | ${shownAt[v]} |`,
  );
  const info = `${(text.length / 1e6).toFixed(2)} M UTF-16 units, ${text.split("\n").length} lines; ${review.proposals.length} proposals, ${review.threads.length} threads, ${review.spans.length} spans; N=${N} per round (after ${WARMUP} warm-up), ${ROUNDS} rounds`;
  console.log(`\n${title}: ${info}\n\n| variant | median ms | p95 ms | median per round | drawn at the end |\n| --- | --- | --- | --- | --- |\n${rows.join("\n")}\n`);
}
