// Which threads get a margin note (extensions/margin-notes.ts): only those
// whose anchors touch the visible ranges, in a 5 MB document with 1,000 threads
// (checked against a filter over every thread), none for an orphaned or a
// detached thread; the note's first words; the legend telling of the notes;
// the notes drawn in an editor whose rectangles are stubbed (jsdom has no layout),
// and none where the margin is under 180 px or at the full reading width.
import { describe, expect, it } from "vitest";
import { EditorState, Text } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { ReviewDto } from "../src/bindings/ReviewDto";
import type { ThreadDto } from "../src/bindings/ThreadDto";
import { excerpt, marginNotes, notesInView } from "../src/extensions/margin-notes";
import { reviewState } from "../src/extensions/review-field";
import { ReviewState } from "../src/review-state";
import { LAYOUT } from "../src/views/layout";
import { stubLayout, until } from "./dom";

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

let revisions = 0;
const review = (threads: ThreadDto[]): ReviewDto => ({ revision: ++revisions, proposals: [], threads, spans: [], sidecarError: null, canUndo: false, canRedo: false, entry: { path: "", proposals: 0, openThreads: 0, sidecarError: false } });

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
    // Count the records the function is handed: only those overlapping what is on screen.
    let visited = 0;
    const counted = {
      ...state,
      threads: {
        between: (from: number, to: number, f: Parameters<typeof state.threads.between>[2]) =>
          state.threads.between(from, to, (a, b, v) => {
            visited++;
            return f(a, b, v);
          }),
      },
    } as unknown as ReviewState;
    const notes = notesInView(counted, visible);

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
    // Nothing off screen was visited (a pass over all 1,000 would hand over every one).
    expect(visited).toBeGreaterThanOrEqual(want.length);
    expect(visited).toBeLessThan(20);
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
    expect(excerpt("Alternatives: **Drafts**, _The Mess Comes First_.")).toBe("Alternatives: Drafts, The Mess Comes First.");
    expect(excerpt("Call it snake_case or __bold__")).toBe("Call it snake_case or bold");
  });

  it("cuts a long comment at a word, with an ellipsis", () => {
    const long = "This paragraph repeats the point the introduction already made, and more";
    const e = excerpt(long, 30);
    expect(e).toBe("This paragraph repeats the…");
    expect(e.length).toBeLessThanOrEqual(31);
  });
});

describe("the notes in an editor (jsdom, its rectangles stubbed)", () => {
  /** An editor whose scroller is 1200 px wide and whose text ends at `textRight`, inside `host`. */
  function editor(host: HTMLElement, textRight: number, focused: string[]) {
    const doc = "The first line has a comment.\nThe second one too.\nThe third has none.";
    const state = EditorState.create({
      doc,
      extensions: [
        reviewState(review([thread("a", 4, 9, "Is this the **first**?"), thread("b", 35, 41, "Second thoughts"), thread("gone", null, null, "Lost")])),
        marginNotes({ focusThread: (id) => focused.push(id), authorLabel: (a) => `${a.label}!` }),
      ],
    });
    document.body.append(host);
    const view = new EditorView({ state, parent: host });
    const rect = (left: number, right: number) => () => new DOMRect(left, 0, right - left, 800);
    view.scrollDOM.getBoundingClientRect = rect(0, 1200);
    Object.defineProperty(view.scrollDOM, "clientWidth", { value: 1200 });
    view.contentDOM.getBoundingClientRect = rect(300, textRight);
    view.requestMeasure();
    return view;
  }
  const drawn = (host: HTMLElement) => Array.from(host.querySelectorAll<HTMLElement>(".cm-margin-note"));

  it("draws a note per placed thread right of the text, with the author and first words; a click shows the thread", async () => {
    stubLayout();
    const focused: string[] = [];
    const host = document.createElement("div");
    editor(host, 900, focused);
    await until(() => drawn(host).length === 2, "two notes");
    const [a, b] = drawn(host);
    expect([a.dataset.thread, b.dataset.thread]).toEqual(["a", "b"]);
    expect(a.textContent).toBe("Ada!Is this the first?");
    // A pointer's shortcut: a screen reader reads the thread in the panel, not this run together.
    expect(a.getAttribute("aria-hidden")).toBe("true");
    expect(parseFloat(a.style.left)).toBeGreaterThanOrEqual(900);
    expect(parseFloat(b.style.top)).toBeGreaterThanOrEqual(parseFloat(a.style.top) + parseFloat(a.style.height));
    b.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(focused).toEqual(["b"]);
  });

  it("draws none when the margin is under 180 px, or at the full reading width", async () => {
    stubLayout();
    const narrow = document.createElement("div");
    const wide = document.createElement("div");
    wide.className = "reading-wide";
    const roomy = document.createElement("div");
    editor(narrow, 1030, []);
    editor(wide, 900, []);
    editor(roomy, 1010, []); // 190 px: room enough
    await until(() => drawn(roomy).length === 2, "the notes with 190 px");
    expect(drawn(narrow)).toEqual([]);
    expect(drawn(wide)).toEqual([]);
  });
});
