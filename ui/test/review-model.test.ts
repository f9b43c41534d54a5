// The review as the editor draws it (review-model.ts): a proposal as an
// inline word diff with its decision buttons, the selected one apart (a line
// break it removes shown as ⏎), a thread re-attached after a re-wrap apart,
// stale and orphaned proposals without a diff, only what is visible; and
// mapReview: records shifted by an insertion with exclusive edges, a proposal
// stale at once when its target is typed into, the core's own changes never
// taken for the writer's.
import { describe, expect, it } from "vitest";
import type { ReviewDto } from "../src/bindings/ReviewDto";
import { decorationSpecs, mapReview } from "../src/model/review-model";

const author = { kind: "agent", id: "claude", model: "m", label: "claude (m)", sdk: null, sessionId: null };

function review(): ReviewDto {
  return {
    revision: 1,
    proposals: [
      {
        id: "p1",
        state: "pending",
        from: 4,
        to: 15,
        line: 1,
        target: "quick brown",
        replacement: "slow brown",
        current: null,
        reason: null,
        diff: [
          { tag: "delete", text: "quick" },
          { tag: "insert", text: "slow" },
          { tag: "equal", text: " brown" },
        ],
        author,
        turnId: "t",
        instruction: null,
        createdAt: "",
        contract: null, hidden: [], likelyPlace: false,
      },
    ],
    threads: [{ id: "t1", status: "open", from: 20, to: 25, line: 1, orphaned: false, text: "jumps", relocated: false, detached: false, anchoredText: "jumps", comments: [] }],
    spans: [{ id: null, from: 0, to: 3, line: 1, text: "The", author, turnId: "t0", instruction: null, createdAt: "" }],
    sidecarError: null,
    canUndo: false,
    canRedo: false,
    entry: { path: "", proposals: 0, openThreads: 0, sidecarError: false },
  };
}

// "The quick brown fox jumps." — p1 on "quick brown", t1 on "jumps", a span on "The".
const shift = (at: number, n: number) => (pos: number, assoc: -1 | 1) => (pos > at || (pos === at && assoc === 1) ? pos + n : pos);

describe("decorationSpecs", () => {
  it("draws the proposal as an inline word diff with its decision buttons", () => {
    const specs = decorationSpecs(review(), [{ from: 0, to: 26 }], 26);
    const kinds = specs.map((s) => `${s.kind}:${s.from}${"to" in s ? `-${s.to}` : ""}${"className" in s ? `:${s.className}` : ""}`);
    expect(kinds).toEqual([
      "mark:0-3:cm-attr-agent",
      "mark:20-25:cm-thread",
      "mark:4-15:cm-proposal",
      "mark:4-9:cm-proposal-del",
      "insert:9",
      "decision:15",
    ]);
    const ins = specs.find((s) => s.kind === "insert");
    expect(ins && ins.kind === "insert" && ins.text).toBe("slow");
  });
  it("marks the selected proposal apart, and shows a line break it removes as ⏎", () => {
    const r = review();
    const plain = decorationSpecs(r, [{ from: 0, to: 26 }], 26);
    expect(plain.some((s) => s.kind === "mark" && s.className.includes("cm-proposal-selected"))).toBe(false);
    const sel = decorationSpecs(r, [{ from: 0, to: 26 }], 26, "p1");
    expect(sel.find((s) => s.kind === "mark" && s.from === 4 && s.to === 15)).toMatchObject({ className: "cm-proposal cm-proposal-selected" });
    // The inserted words are inside the target's mark: not outlined again; at its edge or alone they are.
    expect(sel.find((s) => s.kind === "insert")).toMatchObject({ selected: false });
    const pure = { ...r, proposals: [{ ...r.proposals[0], from: 4, to: 4, diff: [{ tag: "insert" as const, text: "very " }] }] };
    expect(decorationSpecs(pure, [{ from: 0, to: 26 }], 26, "p1").find((s) => s.kind === "insert")).toMatchObject({ selected: true });
    // "quick\nbrown" → "quick brown": the break removed is a ⏎ at its place.
    r.proposals[0] = { ...r.proposals[0], diff: [{ tag: "equal", text: "quick" }, { tag: "delete", text: "\n" }, { tag: "insert", text: " " }, { tag: "equal", text: "brown" }] };
    const nl = decorationSpecs(r, [{ from: 0, to: 26 }], 26).filter((s) => s.kind === "newline");
    expect(nl).toEqual([{ kind: "newline", from: 9, id: "p1", selected: false }]);
  });
  it("marks a thread re-attached after a re-wrap apart from the others", () => {
    const r = review();
    r.threads[0] = { ...r.threads[0], relocated: true, anchoredText: "jumps" };
    const mark = decorationSpecs(r, [{ from: 0, to: 26 }], 26).find((s) => "className" in s && s.className.includes("cm-thread"));
    expect(mark && "className" in mark && mark.className).toBe("cm-thread cm-thread-relocated");
  });
  it("draws only what is visible", () => {
    const specs = decorationSpecs(review(), [{ from: 18, to: 26 }], 26);
    expect(specs.map((s) => s.kind)).toEqual(["mark"]);
  });
  it("draws stale and orphaned proposals without a diff", () => {
    const r = review();
    r.proposals[0].state = "stale";
    const specs = decorationSpecs(r, [{ from: 0, to: 26 }], 26);
    expect(specs.filter((s) => s.kind === "mark" && s.className.includes("stale"))).toHaveLength(1);
    expect(specs.some((s) => s.kind === "insert")).toBe(false);
    r.proposals[0] = { ...r.proposals[0], state: "orphaned", from: null, to: null };
    expect(decorationSpecs(r, [{ from: 0, to: 26 }], 26).some((s) => "proposal" in s)).toBe(false);
  });
});

describe("mapReview", () => {
  it("shifts everything after an insertion and keeps edges exclusive", () => {
    const m = mapReview(review(), shift(0, 2), [{ from: 0, to: 2 }], true);
    expect(m.proposals[0]).toMatchObject({ from: 6, to: 17, state: "pending" });
    expect(m.threads[0]).toMatchObject({ from: 22, to: 27 });
    expect(m.spans[0]).toMatchObject({ from: 2, to: 5 });
    expect(m.spans[1]).toMatchObject({ from: 0, to: 2, author: { kind: "human" } });
  });
  it("turns a proposal stale at once when its target is typed into", () => {
    const m = mapReview(review(), shift(7, 1), [{ from: 7, to: 8 }], true);
    expect(m.proposals[0]).toMatchObject({ from: 4, to: 16, state: "stale" });
  });
  it("does not mark the core's own changes as the writer's", () => {
    const m = mapReview(review(), shift(0, 2), [{ from: 0, to: 2 }], false);
    expect(m.spans).toHaveLength(1);
  });
});
