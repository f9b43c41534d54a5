// The merge view's state (pure): defaults per change, choosing and moving on,
// what the merge reads like, the words that say where it stands, choices kept
// when the merge is shown again, long unchanged text folded.
import { describe, expect, it } from "vitest";
import type { MergePart } from "../src/bindings/MergePart";
import type { MergeView } from "../src/bindings/MergeView";
import {
  both,
  canApply,
  choicesForCore,
  choose,
  fold,
  hunkTitle,
  initialState,
  nextUndecided,
  preview,
  select,
  step,
  summary,
  undecided,
} from "../src/model/merge-model";

const same = (text: string): MergePart => ({ kind: "same", text });
const hunk = (side: "mine" | "theirs" | "conflict", base: string, mine: string, theirs: string): MergePart => ({
  kind: "hunk",
  side,
  base,
  mine,
  theirs,
  mineDiff: [],
  theirsDiff: [],
});

/** Opening changed on disk; the cat rewritten on both sides; the ending too. */
const view = (token = "t1", theirsEnd = "It stops here.\n"): MergeView => ({
  path: "d.md",
  token,
  baseKnown: true,
  parts: [
    hunk("theirs", "Opening stays. ", "Opening stays. ", "Opening changed. "),
    same("Second is plain. "),
    hunk("conflict", "The cat sat. ", "The black cat sat. ", "The cat lay. "),
    same("Middle.\n\n"),
    hunk("mine", "A start. ", "A new start. ", "A start. "),
    same("Plain. "),
    hunk("conflict", "It ends here.\n", "It ends here, for now.\n", theirsEnd),
  ],
});

describe("the merge view's state", () => {
  it("starts on the first change still to choose; one-sided changes take their side", () => {
    const s = initialState(view());
    expect(s.hunks.map((h) => h.side)).toEqual(["theirs", "conflict", "mine", "conflict"]);
    expect(s.current).toBe(1);
    expect(undecided(s)).toEqual([1, 3]);
    expect(canApply(s)).toBe(false);
    expect(choicesForCore(s)).toEqual([null, null, null, null]);
    expect(summary(s)).toBe("2 changes were made on one side only and are taken; 2 passages were changed on both sides — 2 still to choose.");
    expect(hunkTitle(s, 0)).toBe("Change 1 of 4 · changed only on disk · taking the version on disk");
    expect(hunkTitle(s, 1)).toBe("Change 2 of 4 · changed on both sides · choose one");
  });

  it("a choice moves on to the next change still undecided, and the merge can be applied once none is", () => {
    let s = initialState(view());
    s = choose(s, "mine");
    expect(s.current).toBe(3);
    expect(hunkTitle(s, 1)).toBe("Change 2 of 4 · changed on both sides · taking your version");
    s = choose(s, "both");
    expect(s.current).toBe(3); // none left: it stays
    expect(canApply(s)).toBe(true);
    expect(summary(s)).toMatch(/changed on both sides — all chosen\.$/);
    // A one-sided change can be turned to the other side too.
    s = choose(s, "mine", 0);
    expect(choicesForCore(s)).toEqual(["mine", "mine", null, "both"]);
    expect(preview(s)).toBe(
      "Opening stays. Second is plain. The black cat sat. Middle.\n\nA new start. Plain. It ends here, for now.\nIt stops here.\n",
    );
  });

  it("reads undecided conflicts as both sides in the preview", () => {
    expect(preview(initialState(view()))).toContain("The black cat sat. The cat lay. ");
  });

  it("moves between changes, wrapping, and selects one", () => {
    let s = initialState(view());
    s = step(s, 1);
    expect(s.current).toBe(2);
    s = step(step(s, 1), 1);
    expect(s.current).toBe(0);
    s = step(s, -1);
    expect(s.current).toBe(3);
    expect(select(s, 2).current).toBe(2);
    expect(select(s, 9).current).toBe(3);
    expect(nextUndecided(s, 3)).toBe(1);
  });

  it("keeps a choice when the merge is shown again and that change reads the same; not where it changed", () => {
    let s = initialState(view());
    s = choose(s, "theirs");
    s = choose(s, "mine");
    const again = initialState(view("t2", "It stops, finally.\n"), s);
    expect(again.choices).toEqual([null, "theirs", null, null]);
    expect(again.current).toBe(3);
    const unchanged = initialState(view("t3"), s);
    expect(unchanged.choices).toEqual([null, "theirs", null, "mine"]);
  });

  it("after a crash, with the text both came from unknown, says every difference is the writer's to choose", () => {
    const parts: MergePart[] = [hunk("conflict", "A. ", "A. ", "B. "), same("Same. "), hunk("conflict", "C. ", "C. ", "D. ")];
    let s = initialState({ path: "d.md", token: "t", baseKnown: false, parts });
    expect(summary(s)).toBe(
      "The text your unsaved changes started from is not known (they were restored after a crash), so each of the 2 differences is yours to choose — 2 still to choose.",
    );
    expect(hunkTitle(s, 0)).toBe("Change 1 of 2 · differs from the file on disk · choose one");
    s = choose(choose(s, "theirs"), "mine");
    expect(canApply(s)).toBe(true);
    expect(summary(s)).toMatch(/— all chosen\.$/);
  });

  it("says so when there is nothing to merge", () => {
    const s = initialState({ path: "d.md", token: "t", baseKnown: true, parts: [same("All the same.\n")] });
    expect(s.current).toBe(-1);
    expect(canApply(s)).toBe(true);
    expect(summary(s)).toMatch(/nothing to merge/);
  });

  it("joins both sides as the core does: a space where two sentences would touch", () => {
    expect(both("Mine.", "Theirs.")).toBe("Mine. Theirs.");
    expect(both("Mine.\n", "Theirs.")).toBe("Mine.\nTheirs.");
    expect(both("", "Theirs.")).toBe("Theirs.");
  });

  it("folds long unchanged text to its first and last lines", () => {
    expect(fold("a\nb\nc\n")).toBeNull();
    const f = fold(Array.from({ length: 12 }, (_, i) => `line ${i}\n`).join(""))!;
    expect(f.head).toBe("line 0\nline 1\n");
    expect(f.tail).toBe("line 10\nline 11\n");
    expect(f.hidden).toBe(8);
  });
});
