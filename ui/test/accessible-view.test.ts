// The accessible review view (views/accessible-view.ts) over a plain model and
// recorded actions, with no App: what it says with no document or nothing to
// read; it opens on the proposal at the cursor, shows it in the text, decides
// with Alt+Enter / Alt+Backspace and goes on to the next one the model then
// holds, moves with Alt+] / Alt+[, undoes with Ctrl+Z; Alt+T reads the
// threads (their text selected), Resolve shows the core's answer and says so,
// Reply… closes the view for the thread's card's reply box; Back to the text
// gives the editor the focus.
import { beforeEach, describe, expect, it } from "vitest";
import { Text } from "@codemirror/state";
import { q } from "./dom";
import type { ProposalDto } from "../src/bindings/ProposalDto";
import type { ReviewDto } from "../src/bindings/ReviewDto";
import type { ThreadDto } from "../src/bindings/ThreadDto";
import { proposalIn } from "./fake-backend";
import { openAccessibleView, type AccessibleViewActions, type AccessibleViewModel } from "../src/views/accessible-view";
import type { ModalHost } from "../src/views/modal";

const g = globalThis as unknown as { CSS?: { escape?: (s: string) => string } };
if (!g.CSS?.escape) g.CSS = { ...g.CSS, escape: (s: string) => s.replace(/["\\]/g, "\\$&") };

const TEXT = Text.of(["The story begins here.", "It was a dark night."]);
const at = (s: string) => TEXT.toString().indexOf(s);
const CLAUDE = { kind: "agent", id: "claude", label: "claude", model: null, sdk: null, sessionId: null };

/** Claude's proposal replacing `target` in TEXT by `replacement`, with no turn and no diff. */
const proposal = (id: string, target: string, replacement: string): ProposalDto =>
  proposalIn(TEXT.toString(), id, target, replacement, { line: null, diff: [], author: CLAUDE, turnId: null, instruction: null, createdAt: "2026-12-06T00:00:00Z" });

const THREAD: ThreadDto = {
  id: "th1",
  status: "open",
  from: at("dark"),
  to: at("dark") + 4,
  line: 2,
  text: "dark",
  orphaned: false,
  relocated: false,
  detached: false,
  anchoredText: "dark",
  comments: [{ id: "c1", author: CLAUDE, body: "Too dark?", createdAt: "2026-12-06T00:00:00Z" }],
};

const review = (proposals: ProposalDto[], threads: ThreadDto[] = [THREAD]): ReviewDto => ({
  revision: 1,
  proposals,
  threads,
  spans: [],
  sidecarError: null,
  canUndo: false,
  canRedo: false,
  entry: { path: "essay.md", proposals: proposals.length, openThreads: threads.length, sidecarError: false },
});

/**
 * The view over a review that decisions change as the core would (accept and
 * reject take the proposal away), noting what was asked.
 */
function noting(start: Partial<AccessibleViewModel>) {
  const calls: string[] = [];
  let m: AccessibleViewModel = { path: "essay.md", review: null, text: TEXT, cursor: 0, me: null, revealed: null, ...start };
  const decide = (what: string) => async (id: string) => {
    calls.push(`${what} ${id}`);
    m = { ...m, review: { ...m.review!, proposals: m.review!.proposals.filter((p) => p.id !== id) } };
  };
  let focused = 0;
  const host: ModalHost = { view: { focus: () => void focused++ } };
  const actions: AccessibleViewActions = {
    model: () => m,
    accept: decide("accept"),
    reject: decide("reject"),
    undo: async () => void calls.push("undo"),
    reveal: (p) => void calls.push(`reveal ${p.id}`),
    select: (from, to) => void calls.push(`select ${from}..${to}`),
    setResolved: async (id, resolved) => {
      calls.push(`setResolved ${id} ${resolved}`);
      return { path: "essay.md", review: review(m.review!.proposals, [{ ...THREAD, status: resolved ? "resolved" : "open" }]) };
    },
    show: (answer) => {
      calls.push(`show ${answer.path}`);
      m = { ...m, review: answer.review };
    },
    focusThread: (id) => void calls.push(`focusThread ${id}`),
  };
  return { calls, host, actions, focused: () => focused };
}

const heading = () => q(".av-heading")?.textContent ?? "";
const key = (k: string, init: KeyboardEventInit = {}) => q(".av-text")!.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...init }));
const button = (label: string) => Array.from(document.querySelectorAll<HTMLButtonElement>(".av-actions button")).find((b) => b.textContent === label)!;
const settled = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  document.body.innerHTML = `<div class="modal-root"></div><div class="toast"></div><div class="live-polite"></div>
    <article class="thread" data-thread="th1"><textarea class="reply-box"></textarea></article>`;
});

describe("the accessible review view", () => {
  it("says so when there is no document or nothing in it to read", () => {
    const none = noting({ path: null, text: null });
    openAccessibleView(none.host, none.actions);
    expect(q(".toast")!.textContent).toBe("Open a document first.");
    const empty = noting({ review: review([], []) });
    openAccessibleView(empty.host, empty.actions);
    expect(q(".toast")!.textContent).toBe("No proposals or threads in essay.md.");
    expect(q(".modal-root")!.childElementCount).toBe(0);
  });

  it("reads the proposal at the cursor, decides with the editor's keys and goes on to the next one", async () => {
    const { calls, host, actions } = noting({ review: review([proposal("p1", "begins", "starts"), proposal("p2", "here", "now"), proposal("p3", "dark", "stormy")]), cursor: at("here") + 1 });
    openAccessibleView(host, actions);
    expect(heading()).toBe("Proposal 2 of 3, pending");
    expect(document.activeElement).toBe(q(".av-text"));
    key("Enter", { altKey: true });
    await settled();
    // p2 is gone: the next from where it was.
    expect(heading()).toBe("Proposal 2 of 2, pending");
    key("]", { altKey: true });
    expect(heading()).toBe("Proposal 1 of 2, pending");
    key("Backspace", { altKey: true });
    await settled();
    expect(heading()).toBe("Proposal 1 of 1, pending");
    key("z", { ctrlKey: true });
    await settled();
    expect(calls).toEqual(["reveal p2", "accept p2", "reveal p3", "reveal p1", "reject p1", "reveal p3", "undo", "reveal p3"]);
  });

  it("reads the threads with Alt+T: Resolve shows the core's answer and says so; Reply… goes to the thread's card", async () => {
    const { calls, host, actions } = noting({ review: review([proposal("p1", "begins", "starts")]) });
    openAccessibleView(host, actions);
    key("t", { altKey: true });
    expect(heading()).toBe("Thread 1 of 1, open, 0 replies");
    button("Resolve").click();
    await settled();
    expect(heading()).toBe("Thread 1 of 1, resolved, 0 replies");
    expect(document.querySelector(".live-polite")!.textContent).toBe("Thread resolved.");
    button("Reply…").click();
    expect(q(".modal-root")!.childElementCount).toBe(0);
    expect(document.activeElement).toBe(q(".reply-box"));
    expect(calls).toEqual(["reveal p1", `select ${THREAD.from}..${THREAD.to}`, "setResolved th1 true", "show essay.md", `select ${THREAD.from}..${THREAD.to}`, "focusThread th1"]);
  });

  it("opens on the proposal last revealed when the cursor is in it; Back to the text gives the editor the focus", () => {
    const both = [proposal("p1", "story begins", "tale starts"), proposal("p2", "begins", "opens")];
    // Both are at the cursor; the first would be read but for the one last revealed.
    const { calls, host, actions, focused } = noting({ review: review(both), cursor: at("begins") + 1, revealed: "p2" });
    openAccessibleView(host, actions);
    expect(calls).toEqual(["reveal p2"]);
    button("Back to the text").click();
    expect(q(".modal-root")!.childElementCount).toBe(0);
    expect(focused()).toBe(1);
  });
});
