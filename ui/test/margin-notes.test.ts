// Which threads get a margin note (extensions/margin-notes.ts): only those
// whose anchors touch the visible ranges, in a 5 MB document with 1,000 threads
// (checked against a filter over every thread), none for an orphaned or a
// detached thread; the note's first words; the legend telling of the notes.
import { describe, expect, it } from "vitest";
import { Text } from "@codemirror/state";
import type { ReviewDto } from "../src/bindings/ReviewDto";
import type { ThreadDto } from "../src/bindings/ThreadDto";
import { excerpt, notesInView } from "../src/extensions/margin-notes";
import { ReviewState } from "../src/review-state";
import { LAYOUT } from "../src/views/layout";

const ada = { kind: "human", id: "ada@example.com", model: null, label: "Ada", sdk: null, sessionId: null };

function thread(id: string, from: number | null, to: number | null, body: string, more: Partial<ThreadDto> = {}): ThreadDto {
  return {
    id,
    status: "open",
    from,
    to,
    line: null,
    text: "",
    orphaned: from === null,
    relocated: false,
    detached: false,
    anchoredText: "",
    comments: [{ id: `${id}-c`, author: ada, body, createdAt: "2026-12-01T10:00:00Z" }],
    ...more,
  };
}

const review = (threads: ThreadDto[]): ReviewDto => ({ proposals: [], threads, spans: [], sidecarError: null, canUndo: false, canRedo: false });

describe("notesInView", () => {
  it("in a 5 MB document with 1,000 threads, gives notes for the threads on screen only", () => {
    const lines: string[] = [];
    let len = 0;
    for (let i = 0; len < 5_000_000; i++) {
      const line = `Paragraph ${i}: the quiet fox jumps over the lazy dog, and then it rests a while in the shade.`;
      lines.push(line);
      len += line.length + 1;
    }
    const doc = Text.of(lines);
    const threads: ThreadDto[] = [];
    for (let i = 0; i < 1000; i++) {
      const from = Math.floor((i * doc.length) / 1000) + (i % 7);
      const to = Math.min(doc.length, from + 5 + (i % 40) * 3);
      // One in 50 orphaned (not placed), one in 45 detached: neither has a note.
      if (i % 50 === 3) threads.push(thread(`t${i}`, null, null, `orphan ${i}`));
      else threads.push(thread(`t${i}`, from, to, `comment ${i}`, i % 45 === 4 ? { detached: true } : {}));
    }
    const state = ReviewState.of(review(threads), doc);
    // Two stretches on screen (as a fold between them gives), one starting inside a thread's anchor.
    const visible = [
      { from: doc.line(20_000).from, to: doc.line(20_040).to },
      { from: threads[700].from! + 2, to: doc.line(doc.lineAt(threads[700].from!).number + 60).to },
    ];
    const t0 = performance.now();
    const notes = notesInView(state, visible);
    const ms = performance.now() - t0;

    const want = threads
      .filter((t) => t.from !== null && t.to !== null && !t.orphaned && !t.detached && visible.some((r) => t.from! <= r.to && t.to! >= r.from))
      .sort((a, b) => a.from! - b.from!)
      .map((t) => t.id);
    expect(want.length).toBeGreaterThan(1);
    expect(want.length).toBeLessThan(20);
    expect(notes.map((n) => n.id)).toEqual(want);
    expect(notes.map((n) => n.id)).toContain("t700");
    for (const n of notes) {
      const t = threads.find((x) => x.id === n.id)!;
      expect(n.from).toBe(t.from);
      expect(n.author?.label).toBe("Ada");
      expect(n.excerpt).toBe(t.comments[0].body);
    }
    // Nothing off screen was visited: a pass over 1,000 records would still be quick, so this is a
    // loose bound that only catches a build of every note.
    expect(ms).toBeLessThan(50);
  });

  it("gives none for orphaned or detached threads, one per thread, in the document's order", () => {
    const doc = Text.of(["one two three four five six seven eight nine ten"]);
    const state = ReviewState.of(
      review([
        thread("late", 30, 35, "Later"),
        thread("orphan", null, null, "Lost"),
        thread("detached", 4, 7, "Away", { detached: true }),
        thread("early", 0, 3, "First"),
        thread("resolved", 8, 13, "Done", { status: "resolved" }),
      ]),
      doc,
    );
    const notes = notesInView(state, [
      { from: 0, to: 20 },
      { from: 20, to: doc.length },
    ]);
    expect(notes.map((n) => [n.id, n.resolved])).toEqual([
      ["early", false],
      ["resolved", true],
      ["late", false],
    ]);
    expect(notesInView(state, [{ from: 14, to: 20 }])).toEqual([]);
    expect(notesInView(null, [{ from: 0, to: doc.length }])).toEqual([]);
  });
});

describe("the legend", () => {
  it("says a comment's text has a note in the margin", () => {
    const root = document.createElement("div");
    root.innerHTML = LAYOUT;
    expect(root.querySelector(".lg-thread")?.getAttribute("title")).toMatch(/note in the right margin/);
  });
});

describe("excerpt", () => {
  it("keeps a short comment as it is, on one line, without Markdown's marks", () => {
    expect(excerpt("Is this **really**\n\nthe `word`?")).toBe("Is this really the word?");
    expect(excerpt("> # Quoted heading")).toBe("Quoted heading");
  });

  it("cuts a long comment at a word, with an ellipsis", () => {
    const long = "This paragraph repeats the point the introduction already made, and more";
    const e = excerpt(long, 30);
    expect(e).toBe("This paragraph repeats the…");
    expect(e.length).toBeLessThanOrEqual(31);
  });
});
