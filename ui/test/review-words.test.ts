// The words of a review with Claude (review-words.ts): what landed, counted;
// a running pass's chip (its section and what landed); how a pass ended (what
// could not be placed, a cancel keeping what landed); a reply that asks
// Claude (@claude).
import { describe, expect, it } from "vitest";
import type { ReviewOut } from "../src/bindings/ReviewOut";
import { landedSoFar, mentionsClaude, progressLabel, reviewResult, skippedDetails } from "../src/model/review-words";

const out = (o: Partial<ReviewOut>): ReviewOut => ({
  document: "essay.md",
  turnId: "turn-1",
  model: "m",
  parts: 1,
  items: 0,
  threads: [],
  proposals: [],
  reply: null,
  skipped: [],
  stopped: null,
  warnings: [],
  ...o,
});

describe("review words", () => {
  it("counts what landed", () => {
    expect(landedSoFar(0, 0)).toBe("");
    expect(landedSoFar(1, 0)).toBe("1 comment");
    expect(landedSoFar(2, 3)).toBe("2 comments, 3 proposals");
  });

  it("labels a running pass by section and what landed", () => {
    const p = { job: "j", path: "a.md", turnId: "t", part: 3, parts: 12, landed: null, threads: 0, proposals: 0, skipped: 0 };
    expect(progressLabel(p, false)).toBe("Claude is reviewing — section 3 of 12…");
    expect(progressLabel({ ...p, parts: 1, threads: 2, proposals: 1 }, false)).toBe("Claude is reviewing · 2 comments, 1 proposal");
    expect(progressLabel(p, true)).toBe("Claude is answering in the thread…");
  });

  it("says how a pass ended, what could not be placed, and that a cancel kept what landed", () => {
    expect(reviewResult(out({}), false)).toBe("Claude had nothing to add");
    const skipped = [
      { line: 3, reason: "the quoted text is not in the reviewed text" },
      { line: 7, reason: "not an item: not a JSON object" },
    ];
    expect(reviewResult(out({ threads: ["t1"], proposals: ["p1", "p2"], items: 9, skipped, parts: 3 }), false)).toBe(
      "Claude: 1 comment, 2 proposals (3 sections) — 2 of 9 suggestions could not be placed",
    );
    expect(
      reviewResult(out({ threads: ["t1"], items: 1, stopped: { code: "cancelled", message: "cancelled; what was filed before stays filed" } }), false),
    ).toBe("Claude: 1 comment. Cancelled; kept what had landed (1 comment)");
    expect(
      reviewResult(
        out({ proposals: ["p"], items: 1, stopped: { code: "timed_out", message: "timed out: nothing came for 180 s; what was filed before stays filed" } }),
        false,
      ),
    ).toBe("Claude: 1 proposal. Stopped early (timed out: nothing came for 180 s); kept what had landed (1 proposal)");
    expect(reviewResult(out({ reply: "c1", proposals: ["p"] }), true)).toBe("Claude replied in the thread and proposed 1 edit");
    expect(skippedDetails(out({ skipped }))).toBe(
      "Line 3 of Claude's answer: the quoted text is not in the reviewed text\nLine 7 of Claude's answer: not an item: not a JSON object",
    );
  });

  it("reads a reply that asks Claude", () => {
    expect(mentionsClaude("@claude is this clear?")).toBe("is this clear?");
    expect(mentionsClaude("  @Claude, tighten it")).toBe("tighten it");
    expect(mentionsClaude("@claude")).toBe("");
    expect(mentionsClaude("ask @claude later")).toBeNull();
    expect(mentionsClaude("@claudette hi")).toBeNull();
  });
});
