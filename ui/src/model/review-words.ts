// Pure words of Claude as an editor (a review pass, a question in a thread):
// the running chip's label, the sentence it ends with, the list of what could
// not be placed, and the `@claude` reply that asks Claude. Unit-tested in
// test/review-words.test.ts. Plain text only (messages are untrusted).
import type { ReviewOut } from "../bindings/ReviewOut";
import type { ReviewProgress } from "../bindings/ReviewProgress";
import { plural } from "./jobs";

/** What has landed so far, as "2 comments, 1 proposal" (empty when nothing). */
export function landedSoFar(threads: number, proposals: number): string {
  const parts = [];
  if (threads) parts.push(plural(threads, "comment"));
  if (proposals) parts.push(plural(proposals, "proposal"));
  return parts.join(", ");
}

/** The running chip: the part being read and what landed so far. */
export function progressLabel(p: ReviewProgress, thread: boolean): string {
  const what = thread
    ? "Claude is answering in the thread"
    : p.parts > 1
      ? `Claude is reviewing — section ${p.part} of ${p.parts}`
      : "Claude is reviewing";
  const so = landedSoFar(p.threads, p.proposals);
  return so ? `${what} · ${so}` : `${what}…`;
}

/** How a pass ended, in a sentence. */
export function reviewResult(out: ReviewOut, thread: boolean): string {
  const so = landedSoFar(out.threads.length, out.proposals.length);
  let s: string;
  if (thread) {
    s = out.reply ? "Claude replied in the thread" : "Claude did not reply";
    if (out.proposals.length) s += ` and proposed ${plural(out.proposals.length, "edit")}`;
  } else {
    s = so ? `Claude: ${so}` : "Claude had nothing to add";
    if (out.parts > 1) s += ` (${out.parts} sections)`;
  }
  if (out.skipped.length) {
    s += ` — ${out.skipped.length} of ${plural(out.items, "suggestion")} could not be placed`;
  }
  if (out.stopped) {
    const kept = so || (out.reply ? "the reply" : "nothing");
    s +=
      out.stopped.code === "cancelled"
        ? `. Cancelled; kept what had landed (${kept})`
        : `. Stopped early (${out.stopped.message.replace(/; what was filed before stays filed$/, "")}); kept what had landed (${kept})`;
  }
  if (out.warnings.length) s += ` — warning: ${out.warnings.join("; ")}`;
  return s;
}

/** One line per item that was not filed, for the chip's tooltip. */
export function skippedDetails(out: ReviewOut): string {
  return out.skipped.map((k) => `Line ${k.line} of Claude's answer: ${k.reason}`).join("\n");
}

/**
 * A reply that asks Claude: it starts with `@claude` (any case). Returns what
 * follows, as the instruction ("" when nothing does), or null for any other reply.
 */
export function mentionsClaude(body: string): string | null {
  const m = /^\s*@claude\b[\s,:]*/i.exec(body);
  return m ? body.slice(m[0].length).trim() : null;
}
