// A 5 MB Markdown document with a review as big as the app is asked to stay smooth with:
// 1,000 proposals, 700 threads, 1,000 attribution spans (half the writer's), spread evenly.
// The prose generator is tests/e2e/perf.mjs's.
import type { ReviewDto } from "../src/bindings/ReviewDto";
import type { ProposalDto } from "../src/bindings/ProposalDto";
import type { SpanDto } from "../src/bindings/SpanDto";
import type { ThreadDto } from "../src/bindings/ThreadDto";

const WORDS = "the writer revised each sentence until it said exactly what she meant and nothing more while the editor suggested quieter verbs for café naïve déjà vu".split(" ");

/** Markdown prose of about `bytes` bytes, 80-ish columns, paragraphs of 6 lines. */
export function prose(bytes: number, seed = 1): string {
  let x = seed;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const lines: string[] = [];
  let size = 0;
  let n = 0;
  while (size < bytes) {
    if (n % 40 === 0) lines.push(`## Section ${n / 40 + 1}`, "");
    let line = "";
    while (line.length < 76) line += (line ? " " : "") + WORDS[Math.floor(rnd() * WORDS.length)];
    lines.push(line + ".");
    if (++n % 6 === 0) lines.push("");
    size += line.length + 2;
  }
  return lines.join("\n") + "\n";
}

const agent = { kind: "agent", id: "claude", label: "claude (sonnet)", model: "claude-sonnet-4-5", sdk: "bench", sessionId: null };
const human = { kind: "human", id: "you", label: "you", model: null, sdk: null, sessionId: null };

/** The word starting at the first space after `at`: [start, end). */
function wordAfter(text: string, at: number): [number, number] {
  let start = at;
  while (text[start] !== " ") start++;
  start++;
  let end = start;
  while (text[end] !== " " && text[end] !== "\n" && text[end] !== ".") end++;
  return [start, end];
}

export function reviewFor(text: string, proposals = 1000, threads = 700, spans = 1000): ReviewDto {
  const out: ReviewDto = { proposals: [], threads: [], spans: [], sidecarError: null, canUndo: false, canRedo: false };
  let step = Math.floor(text.length / (proposals + 1));
  for (let i = 0; i < proposals; i++) {
    const [from, to] = wordAfter(text, step * (i + 1));
    const target = text.slice(from, to);
    const p: ProposalDto = {
      id: `pr_bench${i}`,
      state: i % 50 === 49 ? "stale" : "pending",
      from,
      to,
      line: null,
      target,
      replacement: `${target.toUpperCase()} indeed`,
      current: null,
      reason: null,
      diff: [
        { tag: "delete", text: target },
        { tag: "insert", text: `${target.toUpperCase()} indeed` },
      ],
      author: agent,
      turnId: `turn-${Math.floor(i / 10)}`,
      instruction: null,
      createdAt: "2026-06-10T00:00:00.000Z",
      contract: null,
    };
    out.proposals.push(p);
  }
  step = Math.floor(text.length / (threads + 1));
  for (let i = 0; i < threads; i++) {
    const [from, to] = wordAfter(text, step * (i + 1) + Math.floor(step / 3));
    const t: ThreadDto = {
      id: `th_bench${i}`,
      status: i % 3 === 0 ? "resolved" : "open",
      from,
      to,
      line: null,
      text: text.slice(from, to),
      orphaned: false,
      relocated: false,
      detached: false,
      anchoredText: text.slice(from, to),
      comments: [],
    };
    out.threads.push(t);
  }
  step = Math.floor(text.length / (spans + 1));
  for (let i = 0; i < spans; i++) {
    const at = step * (i + 1) + 250; // a few lines after proposal i (when the counts are equal)
    const from = text.lastIndexOf("\n", at) + 1;
    const to = text.indexOf("\n", at + 200); // about three lines
    const s: SpanDto = {
      id: `at_bench${i}`,
      from,
      to,
      line: 0,
      text: "",
      author: i % 2 === 0 ? human : agent,
      turnId: i % 2 === 0 ? null : `turn-${i}`,
      instruction: null,
      createdAt: "2026-06-10T00:00:00.000Z",
    };
    out.spans.push(s);
  }
  return out;
}
