// The margin notes' stacking (src/model/margin-layout.ts): hand cases, then random
// stacks against a naive model (each top as a closed form over the notes
// before and after it) and the invariants. Reproducible: a failure names its seed.
import { describe, expect, it } from "vitest";
import { stackNotes, type NoteBox } from "../src/model/margin-layout";

const box = (top: number, height = 40): NoteBox => ({ top, height });

describe("stackNotes by hand", () => {
  it("leaves notes that do not overlap at their anchors", () => {
    expect(stackNotes([box(0), box(100), box(300)], 8)).toEqual([0, 100, 300]);
  });

  it("pushes a note down just below the one before it, and the next one in turn", () => {
    // 0..40, then 48..88 (wanted 20), then 96..136 (wanted 60), then 400 as wanted.
    expect(stackNotes([box(0), box(20), box(60), box(400)], 8)).toEqual([0, 48, 96, 400]);
  });

  it("stacks notes on the same line in their order", () => {
    expect(stackNotes([box(50, 30), box(50, 20), box(50, 10)], 4)).toEqual([50, 84, 108]);
  });

  it("keeps a note wanted higher than the one before it below that one (order kept)", () => {
    expect(stackNotes([box(100), box(10)], 8)).toEqual([100, 148]);
  });

  it("with a bottom limit, pushes the stack up as little as needed", () => {
    // Without the limit: 0, 60, 108 (ends at 148); the limit 140 lifts the last by 8, the one
    // before it by the same (it touched), not the first (it had room).
    expect(stackNotes([box(0), box(60), box(100)], 8, 140)).toEqual([0, 52, 100]);
    // A limit the stack fits under changes nothing.
    expect(stackNotes([box(0), box(40), box(80)], 8, 500)).toEqual([0, 48, 96]);
    // A lone note past the limit ends at it.
    expect(stackNotes([box(190)], 8, 200)).toEqual([160]);
  });

  it("with a limit too low for the stack, starts it above 0 (no top limit)", () => {
    expect(stackNotes([box(0), box(0)], 10, 50)).toEqual([-40, 10]);
  });

  it("places nothing for no notes", () => {
    expect(stackNotes([], 8, 100)).toEqual([]);
  });
});

/** mulberry32: small, seedable. */
function rng(seed: number) {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** The stack written as closed forms: note i is pushed down by every note j before it, and up by every note after it and the limit. */
function naive(notes: NoteBox[], gap: number, bottom: number | null): number[] {
  const n = notes.length;
  // Room from note j's top to note i's top when they touch (j < i).
  const span = (j: number, i: number) => {
    let s = 0;
    for (let k = j; k < i; k++) s += notes[k].height + gap;
    return s;
  };
  const down = notes.map((_, i) => Math.max(...notes.slice(0, i + 1).map((d, j) => d.top + span(j, i))));
  if (bottom === null) return down;
  return down.map((_, i) => {
    const byNext = Math.min(...down.slice(i).map((t, d) => t - span(i, i + d)));
    const byLimit = bottom - span(i, n) + gap;
    return Math.min(byNext, byLimit);
  });
}

describe("stackNotes against the naive model", () => {
  it("gives the same tops, with no overlap, in order, each as close as allowed", () => {
    for (let seed = 1; seed <= 500; seed++) {
      const r = rng(seed);
      const n = r(12);
      const gap = r(3) * 4;
      let at = r(50);
      const notes: NoteBox[] = [];
      for (let i = 0; i < n; i++) {
        // Mostly in document order, sometimes on the same line, now and then out of order.
        at += r(5) === 0 ? -r(30) : r(4) === 0 ? 0 : r(120);
        notes.push(box(at, 20 + r(40)));
      }
      const bottom = r(2) ? null : at + r(200);
      const tops = stackNotes(notes, gap, bottom);
      const what = `seed ${seed}: ${JSON.stringify({ notes, gap, bottom })}`;
      expect(tops, what).toEqual(naive(notes, gap, bottom));
      for (let i = 1; i < n; i++) expect(tops[i], `${what}: no overlap, order kept at ${i}`).toBeGreaterThanOrEqual(tops[i - 1] + notes[i - 1].height + gap);
      if (bottom === null) {
        for (let i = 0; i < n; i++) {
          expect(tops[i], `${what}: at or below its anchor at ${i}`).toBeGreaterThanOrEqual(notes[i].top);
          // As close as allowed: at its anchor, or touching the note before.
          const touching = i > 0 && tops[i] === tops[i - 1] + notes[i - 1].height + gap;
          expect(tops[i] === notes[i].top || touching, `${what}: pushed no further than needed at ${i}`).toBe(true);
        }
      } else if (n > 0) {
        expect(tops[n - 1] + notes[n - 1].height, `${what}: ends by the limit`).toBeLessThanOrEqual(bottom);
      }
    }
  });
});
