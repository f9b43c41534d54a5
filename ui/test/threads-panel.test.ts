// The Threads panel (views/threads-panel.ts) drawn from a plain model, with no
// App: nothing without a document, "No threads." and the new-thread button
// with none; the threads in the text, then those no longer in it under their
// heading, each with its comments (the writer's own by their name, links
// handed to openLink); a click on a card selects its text, Ask Claude, Resolve,
// Keep here and Detach call their action with the thread's id and show the
// core's answer; a reply sent drops its draft (kept across redraws until then,
// kept when the core fails), says so, and one starting with @claude asks Claude.
import { beforeEach, describe, expect, it } from "vitest";
import { q } from "./dom";
import type { AuthorDto } from "../src/bindings/AuthorDto";
import type { IdentityDto } from "../src/bindings/IdentityDto";
import type { ReviewDto } from "../src/bindings/ReviewDto";
import type { ThreadDto } from "../src/bindings/ThreadDto";
import { renderThreadsPanel, type ThreadActions, type ThreadAnswer, type ThreadsPanelModel } from "../src/views/threads-panel";

const g = globalThis as unknown as { CSS?: { escape?: (s: string) => string } };
if (!g.CSS?.escape) g.CSS = { ...g.CSS, escape: (s: string) => s.replace(/["\\]/g, "\\$&") };

const ADA: AuthorDto = { kind: "human", id: "ada@example.org", label: "ada@example.org", model: null, sdk: null, sessionId: null };
const CLAUDE: AuthorDto = { kind: "agent", id: "claude", label: "claude", model: null, sdk: null, sessionId: null };
const ME: IdentityDto = { name: "Ada", email: "ada@example.org", gitName: null, gitEmail: null, id: "ada@example.org", display: "Ada", source: "settings", ask: false };

function thread(id: string, over: Partial<ThreadDto> = {}): ThreadDto {
  return {
    id,
    status: "open",
    from: 4,
    to: 9,
    line: 1,
    text: "story",
    orphaned: false,
    relocated: false,
    detached: false,
    anchoredText: "story",
    comments: [{ id: `${id}-c1`, author: ADA, body: "Which story? See [the notes](https://example.org/notes).", createdAt: "2026-12-06T00:00:00Z" }],
    ...over,
  };
}

let revision = 1;
const review = (threads: ThreadDto[]): ReviewDto => ({
  revision: revision++,
  proposals: [],
  threads,
  spans: [],
  sidecarError: null,
  canUndo: false,
  canRedo: false,
  entry: { path: "essay.md", proposals: 0, openThreads: threads.length, sidecarError: false },
});

const THREADS = [
  thread("gone", { from: null, to: null, orphaned: true, text: "a lost line" }),
  thread("t1", { comments: [...thread("t1").comments, { id: "c2", author: CLAUDE, body: "The first one.", createdAt: "2026-12-06T00:00:00Z" }] }),
  thread("t2", { status: "resolved", from: 20, to: 24, relocated: true, anchoredText: "dark  night" }),
];

/**
 * Actions that note what was asked; a change answers with `answer` (the
 * document's review after it; null: the core failed), and showing an answer
 * draws the panel from it, as the app does.
 */
function noting(answer: () => ReviewDto | null = () => review(THREADS)) {
  const calls: string[] = [];
  const change = (what: string) => async (): Promise<ThreadAnswer | null> => {
    calls.push(what);
    const r = answer();
    return r && { path: "essay.md", review: r };
  };
  const actions: ThreadActions = {
    newThread: () => void calls.push("newThread"),
    openLink: (href) => void calls.push(`openLink ${href}`),
    select: (from, to) => void calls.push(`select ${from}..${to}`),
    askClaude: (id, question, path) => void calls.push(`askClaude ${id} ${question} ${path ?? "(shown)"}`),
    reply: (id, text) => change(`reply ${id} ${text}`)(),
    setResolved: (id, resolved) => change(`setResolved ${id} ${resolved}`)(),
    keepHere: (id) => change(`keepHere ${id}`)(),
    detach: (id) => change(`detach ${id}`)(),
    show: (a) => {
      calls.push(`show ${a.path}`);
      renderThreadsPanel({ review: a.review, me: ME }, actions);
    },
  };
  return { calls, actions };
}

const model = (threads = THREADS): ThreadsPanelModel => ({ review: review(threads), me: ME });
const card = (id: string) => q(`.thread[data-thread="${id}"]`)!;
const click = (sel: string, root: ParentNode = document) => (root.querySelector(sel) as HTMLElement).click();
const settled = () => new Promise((r) => setTimeout(r, 0));
const polite = () => Array.from(document.querySelectorAll(".live-polite p")).map((p) => p.textContent);

beforeEach(() => {
  document.body.innerHTML = `<div class="threads-body"></div><div class="live-polite"></div>`;
});

describe("the Threads panel", () => {
  it("draws nothing with no document shown (what it drew before gone)", () => {
    renderThreadsPanel(model(), noting().actions);
    expect(q(".thread")).not.toBeNull();
    renderThreadsPanel({ review: null, me: ME }, noting().actions);
    expect(q(".threads-body")!.childElementCount).toBe(0);
  });

  it("says there are no threads, beside the button that starts one", () => {
    const { calls, actions } = noting();
    renderThreadsPanel(model([]), actions);
    expect(q(".panel-empty")!.textContent).toBe("No threads. Select text and comment on it.");
    expect(q(".thread")).toBeNull();
    click(".btn-new-thread");
    expect(calls).toEqual(["newThread"]);
  });

  it("draws the threads in the text, then those no longer in it, with their comments", () => {
    const { calls, actions } = noting();
    renderThreadsPanel(model(), actions);
    const body = q(".threads-body")!;
    expect(Array.from(body.children).map((el) => (el as HTMLElement).dataset.thread ?? el.className)).toEqual(["btn-new-thread", "t1", "t2", "orphaned-head", "gone"]);
    expect(q(".orphaned-head")!.textContent).toMatch(/^Not in the text \(1\)/);
    expect([card("t1"), card("t2"), card("gone")].map((c) => c.className)).toEqual(["thread thread-open", "thread thread-resolved thread-relocated", "thread thread-open thread-orphaned"]);
    expect(Array.from(card("t1").querySelectorAll(".comment-meta")).map((m) => m.textContent!.split(" · ")[0])).toEqual(["Ada", "claude"]);
    expect(card("t2").querySelector(".btn-resolve")!.textContent).toBe("Reopen");
    expect(card("t2").querySelector(".thread-was")!.textContent).toBe("Was: dark  night");
    expect(card("gone").querySelector(".thread-note")!.textContent).toBe("Its text is no longer in the document.");
    expect(card("gone").querySelector(".btn-ask-thread")!.hasAttribute("disabled")).toBe(true);
    click(".comment-body a", card("t1"));
    expect(calls).toEqual(["openLink https://example.org/notes"]);
  });

  it("calls each button's action with its thread's id and shows the core's answer, saying what changed", async () => {
    const { calls, actions } = noting();
    renderThreadsPanel(model(), actions);
    click(".thread-quote", card("t2"));
    click(".thread-quote", card("gone"));
    click(".btn-ask-thread", card("t1"));
    card("t1").querySelector<HTMLElement>(".btn-resolve")!.focus();
    click(".btn-resolve", card("t1"));
    await settled();
    // Drawn anew: the keyboard on the new card's button, never on the page.
    expect(document.activeElement).toBe(card("t1").querySelector(".btn-resolve"));
    click(".btn-keep-here", card("t2"));
    await settled();
    click(".btn-detach", card("t2"));
    await settled();
    expect(calls).toEqual([
      "select 20..24",
      "askClaude t1 null (shown)",
      "setResolved t1 true",
      "show essay.md",
      "keepHere t2",
      "show essay.md",
      "detach t2",
      "show essay.md",
    ]);
    expect(polite()).toEqual(["Thread resolved."]);
  });

  it("keeps a reply's draft across redraws and when the core fails; once sent, drops it and says so; @claude asks Claude", async () => {
    let answer: ReviewDto | null = null;
    const { calls, actions } = noting(() => answer);
    renderThreadsPanel(model(), actions);
    const box = () => card("t1").querySelector<HTMLTextAreaElement>(".reply-box")!;
    box().value = "@claude which one?";
    box().dispatchEvent(new Event("input"));
    renderThreadsPanel(model(), actions);
    expect(box().value).toBe("@claude which one?");
    click(".btn-reply", card("t1"));
    await settled();
    expect(calls).toEqual(["reply t1 @claude which one?"]);
    expect(box().value, "the core failed: the draft stays").toBe("@claude which one?");
    answer = review(THREADS);
    box().focus();
    box().dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", ctrlKey: true }));
    await settled();
    expect(calls.slice(1)).toEqual(["reply t1 @claude which one?", "show essay.md", "askClaude t1 which one? essay.md"]);
    expect(box().value).toBe("");
    expect(document.activeElement).toBe(box());
    expect(polite()).toEqual(["Reply sent."]);
    renderThreadsPanel(model(), actions);
    expect(box().value, "the draft is gone").toBe("");
    // An empty reply is not sent.
    click(".btn-reply", card("t2"));
    await settled();
    expect(calls.length).toBe(4);
  });
});
