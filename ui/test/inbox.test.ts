// The Inbox (the workspace's review): its pure parts (filters, list order,
// next / previous across documents, what Accept all does per document, the
// counts), then the tab in the App against a test double of the Backend:
// grouped rows, filters, a click and F4 opening the item's document with the
// proposal selected, Accept all deciding per document (a document not open
// opened in a tab first), a long group's first rows shown and the rest on
// request or as Next reaches them, a question before opening many documents.
// The real app: tests/e2e/inbox.test.mjs.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { EditorView } from "@codemirror/view";
import type { InboxGroup } from "../src/bindings/InboxGroup";
import type { InboxOut } from "../src/bindings/InboxOut";
import type { InboxProposal } from "../src/bindings/InboxProposal";
import type { InboxThread } from "../src/bindings/InboxThread";
import type { ProposalDto } from "../src/bindings/ProposalDto";
import type { ReviewDto } from "../src/bindings/ReviewDto";
import { choices, countsText, decisions, filterGroups, itemsOf, NO_FILTERS, step } from "../src/model/inbox";
import { q, stubLayout, until } from "./dom";

const TEXTS: Record<string, string> = {
  "a.md": "Alpha beta gamma.\nDelta epsilon.\n",
  "b.md": "One two three.\n",
  "c.md": "Quiet text.\n",
};

const author = (id: string, model: string | null = null) => ({ kind: "agent" as const, id, label: model ? `${id} (${model})` : id, model, sdk: null, sessionId: null });

function proposal(document: string, id: string, target: string, state: ProposalDto["state"], turnId: string | null, producer = "claude"): InboxProposal {
  const from = TEXTS[document].indexOf(target);
  return {
    document,
    producer,
    context: { line: 1, before: "", after: "" },
    proposal: {
      id,
      state,
      from,
      to: from + target.length,
      line: 1,
      target,
      replacement: target.toUpperCase(),
      current: null,
      reason: state === "pending" ? null : "its target text changed",
      diff: [
        { tag: "delete", text: target },
        { tag: "insert", text: target.toUpperCase() },
      ],
      author: author(producer, "sonnet"),
      turnId,
      instruction: "Shout",
      createdAt: "2026-12-03T10:00:00Z",
      contract: null, hidden: [], likelyPlace: false,
    },
  };
}

function thread(document: string, id: string, quote: string): InboxThread {
  const from = TEXTS[document].indexOf(quote);
  const ada = { kind: "human" as const, id: "ada@example.com", label: "ada@example.com", model: null, sdk: null, sessionId: null };
  return {
    document,
    author: ada,
    producer: "ada@example.com",
    updatedAt: "2026-12-03T11:00:00Z",
    context: { line: 1, before: "", after: "" },
    thread: {
      id,
      status: "open",
      from,
      to: from + quote.length,
      line: 1,
      text: quote,
      orphaned: false,
      relocated: false,
      detached: false,
      anchoredText: quote,
      comments: [{ id: "c1", author: ada, body: "Why this?", createdAt: "2026-12-03T11:00:00Z" }],
    },
  };
}

function group(key: string, producer: string, proposals: InboxProposal[], threads: InboxThread[] = []): InboxGroup {
  return { key, turnId: proposals[0]?.proposal.turnId ?? null, producer, author: proposals[0]?.proposal.author ?? author(producer), instruction: "Shout", createdAt: "2026-12-03T10:00:00Z", proposals, threads };
}

/** Newest first: ada's thread in c.md; claude's turn-1 across a.md (one stale) and b.md; harper's lone proposal in b.md. */
function inbox(): InboxOut {
  return {
    unit: "utf16",
    groups: [
      group("threads:ada@example.com", "ada@example.com", [], [thread("c.md", "t1", "Quiet")]),
      group("turn:turn-1:claude", "claude", [proposal("a.md", "pa1", "beta", "pending", "turn-1"), proposal("a.md", "pa2", "epsilon", "stale", "turn-1"), proposal("b.md", "pb1", "two", "pending", "turn-1")]),
      group("proposal:b.md:pb2", "harper", [proposal("b.md", "pb2", "three", "pending", null, "harper")]),
    ],
    documents: [
      { document: "a.md", pending: 1, stale: 1, orphaned: 0, openThreads: 0 },
      { document: "b.md", pending: 2, stale: 0, orphaned: 0, openThreads: 0 },
      { document: "c.md", pending: 0, stale: 0, orphaned: 0, openThreads: 1 },
    ],
    errors: [],
  };
}

const listed = (groups: InboxGroup[]) => itemsOf(groups).map((i) => `${i.document}:${i.id}`);

describe("the Inbox's pure parts", () => {
  it("lists group by group, proposals then threads, and filters by document, producer and state", () => {
    const out = inbox();
    expect(listed(filterGroups(out, NO_FILTERS))).toEqual(["c.md:t1", "a.md:pa1", "a.md:pa2", "b.md:pb1", "b.md:pb2"]);
    expect(listed(filterGroups(out, { ...NO_FILTERS, document: "b.md" }))).toEqual(["b.md:pb1", "b.md:pb2"]);
    expect(listed(filterGroups(out, { ...NO_FILTERS, producer: "harper" }))).toEqual(["b.md:pb2"]);
    expect(listed(filterGroups(out, { ...NO_FILTERS, state: "stale" }))).toEqual(["a.md:pa2"]);
    expect(listed(filterGroups(out, { ...NO_FILTERS, state: "threads" }))).toEqual(["c.md:t1"]);
    expect(listed(filterGroups(out, { document: "a.md", producer: "claude", state: "pending" }))).toEqual(["a.md:pa1"]);
    // A group the filters empty is left out; the others keep their order.
    expect(filterGroups(out, { ...NO_FILTERS, document: "b.md" }).map((g) => g.key)).toEqual(["turn:turn-1:claude", "proposal:b.md:pb2"]);
    expect(choices(out)).toEqual({ documents: ["a.md", "b.md", "c.md"], producers: ["ada@example.com", "claude", "harper"] });
  });

  it("steps to the next and previous item across documents, wrapping, from nowhere or a vanished item", () => {
    const items = itemsOf(filterGroups(inbox(), NO_FILTERS));
    const at = (document: string, id: string) => ({ document, id });
    expect(step(items, null, 1)?.id).toBe("t1");
    expect(step(items, null, -1)?.id).toBe("pb2");
    expect(step(items, at("c.md", "t1"), 1)?.document).toBe("a.md");
    expect(step(items, at("a.md", "pa2"), 1)).toMatchObject({ document: "b.md", id: "pb1" });
    expect(step(items, at("b.md", "pb2"), 1)?.id).toBe("t1");
    expect(step(items, at("c.md", "t1"), -1)?.id).toBe("pb2");
    expect(step(items, at("a.md", "gone"), 1)?.id).toBe("t1");
    expect(step([], null, 1)).toBeNull();
  });

  it("plans Accept all as the pending proposals per document, Reject all as all of them, and counts in words", () => {
    const turn = inbox().groups[1];
    expect(decisions(turn)).toEqual([
      { document: "a.md", accept: ["pa1"], reject: ["pa1", "pa2"] },
      { document: "b.md", accept: ["pb1"], reject: ["pb1"] },
    ]);
    expect(decisions(inbox().groups[0])).toEqual([]);
    expect(countsText(filterGroups(inbox(), NO_FILTERS))).toBe("4 proposals (1 stale) · 1 thread · 3 documents");
    expect(countsText([])).toBe("Nothing here.");
  });
});

const fake = vi.hoisted(() => ({
  out: null as InboxOut | null,
  calls: [] as { name: string; args: unknown[] }[],
}));

vi.mock("../src/backend", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../src/backend")>();
  const { fakeBackend } = await import("./fake-backend");
  let revisions = 0;
  const reviewOf = (path: string): ReviewDto => ({
    revision: ++revisions,
    proposals: fake.out!.groups.flatMap((g) => g.proposals.filter((p) => p.document === path).map((p) => p.proposal)),
    threads: fake.out!.groups.flatMap((g) => g.threads.filter((t) => t.document === path).map((t) => t.thread)),
    spans: [],
    sidecarError: null,
    canUndo: false,
    canRedo: false,
    entry: { path: "", proposals: 0, openThreads: 0, sidecarError: false },
  });
  const decided = (name: string) => async (path: string, ids: string[]) => {
    fake.calls.push({ name, args: [path, ids] });
    // The core took them: they leave the review, and the document is unsaved.
    for (const g of fake.out!.groups) g.proposals = g.proposals.filter((p) => !(p.document === path && ids.includes(p.proposal.id)));
    return { changes: [], version: 2, dirty: name === "acceptAll", review: reviewOf(path) };
  };
  const backend = fakeBackend({
    workspace: async () => ({
      root: "/ws",
      name: "ws",
      branch: null,
      emptyFolders: [],
      documents: Object.keys(TEXTS).map((path) => ({ path, proposals: 0, openThreads: 0, sidecarError: false })),
    }),
    openDocument: async (path) => {
      fake.calls.push({ name: "openDocument", args: [path] });
      return { path, text: TEXTS[path] ?? "", version: 1, dirty: false, review: reviewOf(path) };
    },
    review: async (path) => reviewOf(path),
    inbox: async () => {
      fake.calls.push({ name: "inbox", args: [] });
      return structuredClone(fake.out!);
    },
    acceptAll: decided("acceptAll"),
    rejectAll: decided("rejectAll"),
  });
  return { ...orig, tauriBackend: async () => backend };
});

const rows = () => Array.from(document.querySelectorAll<HTMLElement>(".inbox-item"), (r) => `${r.dataset.document}:${r.dataset.id}`);
const active = () => document.querySelector(".tab.active")?.textContent ?? "";
const key = (k: string, mods: KeyboardEventInit = {}) => window.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...mods }));
function view(): EditorView {
  const v = EditorView.findFromDOM(q(".cm-editor")!);
  if (!v) throw new Error("no editor");
  return v;
}
const sel = () => {
  const s = view().state;
  return s.sliceDoc(s.selection.main.from, s.selection.main.to);
};
const choose = (cls: string, value: string) => {
  const sel = q<HTMLSelectElement>(cls)!;
  sel.value = value;
  sel.dispatchEvent(new Event("change"));
};

describe("the Inbox tab", () => {
  beforeAll(async () => {
    stubLayout();
    const g = globalThis as unknown as { CSS?: { escape?: (s: string) => string } };
    if (!g.CSS?.escape) g.CSS = { ...g.CSS, escape: (s: string) => s.replace(/["\\]/g, "\\$&") };
    fake.out = { ...inbox(), errors: [{ document: "broken.md", error: { code: "corrupt_sidecar", message: ".threads/broken.md.json: not valid JSON at line 1" } }] };
    await import("../src/main");
    await until(() => q(".cm-content"), "the first document open");
  });

  it("opens on Ctrl+Alt+I with every group, its counts and rows, and filters them", async () => {
    key("i", { ctrlKey: true, altKey: true, code: "KeyI" } as KeyboardEventInit);
    await until(() => rows().length === 5, "the Inbox's rows");
    expect(q(".inbox-body")!.hidden).toBe(false);
    expect(rows()).toEqual(["c.md:t1", "a.md:pa1", "a.md:pa2", "b.md:pb1", "b.md:pb2"]);
    expect(q(".pt-inbox .pt-count")?.textContent).toBe("5");
    // Said as words: the count's digits are hidden from a screen reader, the words not.
    expect(q(".pt-inbox .visually-hidden")?.textContent).toBe(", 5 waiting");
    expect(q(".pt-inbox .pt-count")?.getAttribute("aria-hidden")).toBe("true");
    // A sidecar that cannot be read is said, and the rest listed.
    expect(q('.inbox-error[data-document="broken.md"]')?.textContent).toBe("broken.md: not read — .threads/broken.md.json: not valid JSON at line 1");
    const turn = q('.inbox-group[data-key="turn:turn-1:claude"]')!;
    expect(turn.querySelector(".group-producer")?.textContent).toBe("claude");
    expect(turn.querySelector(".group-meta")?.textContent).toContain("in 2 documents");
    expect(Array.from(turn.querySelectorAll(".inbox-doc"), (d) => d.textContent)).toEqual(["a.md", "b.md"]);
    expect(turn.querySelector(".group-note")?.textContent).toContain("1 proposal cannot be accepted");
    expect(turn.querySelector('.inbox-item[data-id="pa2"] .inbox-reason')?.textContent).toBe("Stale: its target text changed");
    expect(q('.inbox-group[data-key="threads:ada@example.com"] .group-producer')?.textContent).toBe("Comments by ada@example.com");
    choose(".inbox-doc", "b.md");
    expect(rows()).toEqual(["b.md:pb1", "b.md:pb2"]);
    choose(".inbox-producer", "harper");
    expect(rows()).toEqual(["b.md:pb2"]);
    choose(".inbox-state", "stale");
    expect(rows()).toEqual([]);
    expect(q(".inbox-body .panel-empty")?.textContent).toContain("Nothing matches these filters.");
    q<HTMLButtonElement>(".inbox-clear")!.click();
    expect(rows()).toHaveLength(5);
  });

  it("opens an item's document with the proposal selected; F4 and Shift+F4 walk across documents", async () => {
    q<HTMLElement>('.inbox-item[data-id="pa1"]')!.click();
    await until(() => active().includes("a.md") && sel() === "beta", "a.md with beta selected");
    expect(q('.inbox-item[data-id="pa1"]')!.classList.contains("current")).toBe(true);
    key("F4");
    await until(() => q('.inbox-item[data-id="pa2"]')?.classList.contains("current"), "the stale one next, same document");
    key("F4");
    await until(() => active().includes("b.md") && sel() === "two", "b.md, the next document, its proposal selected");
    // b.md was not open: it shows as the Inbox's preview tab, and goes when the Inbox moves on.
    expect(q('.tab[data-path="b.md"]')?.classList.contains("preview")).toBe(true);
    expect(q('.tab[data-path="a.md"]')?.classList.contains("preview")).toBe(false);
    key("F4", { shiftKey: true });
    await until(() => active().includes("a.md") && q('.inbox-item[data-id="pa2"]')?.classList.contains("current"), "back to a.md");
    await until(() => !q('.tab[data-path="b.md"]'), "the preview tab replaced");
    // A thread: its text selected, the Inbox still shown.
    q<HTMLElement>('.inbox-item[data-id="t1"]')!.click();
    await until(() => active().includes("c.md") && view().state.selection.main.from === 0 && view().state.selection.main.to === 5, "the thread's text selected");
    expect(q(".inbox-body")!.hidden).toBe(false);
    expect(q('.tab[data-path="c.md"]')?.classList.contains("preview")).toBe(true);
    // Changed, a preview tab is the writer's (saved too): the Inbox moving on leaves it open.
    view().dispatch({ changes: { from: 0, insert: "So " }, userEvent: "input.type" });
    await until(() => q('.tab[data-path="c.md"]')?.classList.contains("dirty"), "c.md changed");
    expect(q('.tab[data-path="c.md"]')?.classList.contains("preview")).toBe(false);
    // Saved, it stays the writer's.
    key("s", { ctrlKey: true });
    await until(() => !q('.tab[data-path="c.md"]')?.classList.contains("dirty"), "c.md saved");
    expect(q('.tab[data-path="c.md"]')?.classList.contains("preview")).toBe(false);
    view().dispatch({ changes: { from: 0, insert: "And " }, userEvent: "input.type" });
    await until(() => q('.tab[data-path="c.md"]')?.classList.contains("dirty"), "c.md changed again");
    key("F4");
    await until(() => active().includes("a.md"), "on to a.md");
    expect(q('.tab[data-path="c.md"]')).not.toBeNull();
  });

  it("accepts a group's pending proposals per document through accept_all, opening what is not open", async () => {
    // b.md is not open: Accept all opens it in a tab (without showing it) first.
    expect(q('.tab[data-path="b.md"]')).toBeNull();
    fake.calls.length = 0;
    q<HTMLButtonElement>('.inbox-group[data-key="turn:turn-1:claude"] .btn-inbox-accept')!.click();
    await until(() => fake.calls.filter((c) => c.name === "acceptAll").length === 2 && !q('.inbox-item[data-id="pb1"]'), "both documents decided and listed again");
    expect(fake.calls.filter((c) => c.name === "acceptAll").map((c) => c.args)).toEqual([
      ["a.md", ["pa1"]],
      ["b.md", ["pb1"]],
    ]);
    expect(fake.calls.filter((c) => c.name === "openDocument").map((c) => c.args)).toEqual([["b.md"]]);
    expect(q('.tab[data-path="b.md"]')?.classList.contains("dirty")).toBe(true);
    expect(active()).toContain("a.md");
    // The stale one stays (it cannot be accepted); the unsaved documents are named with Save all.
    expect(rows()).toEqual(["c.md:t1", "a.md:pa2", "b.md:pb2"]);
    for (const d of ["a.md", "b.md", "c.md"]) expect(q(".inbox-unsaved")?.textContent).toContain(d);
    // Reject all takes the stale one too.
    q<HTMLButtonElement>('.inbox-group[data-key="turn:turn-1:claude"] .btn-inbox-reject')!.click();
    await until(() => !q('.inbox-item[data-id="pa2"]'), "the stale one rejected");
    expect(fake.calls.filter((c) => c.name === "rejectAll").map((c) => c.args)).toEqual([["a.md", ["pa2"]]]);
  });

  it("shows a long group's first rows, the rest on request or as Next reaches them, and asks before opening many documents", async () => {
    const many = Array.from({ length: 40 }, (_, i) => `m${String(i).padStart(2, "0")}.md`);
    for (const d of many) TEXTS[d] = "Many words here.\n";
    const big = group("turn:big:claude", "claude", many.map((d, i) => proposal(d, `pm${i}`, "words", "pending", "big")));
    fake.out = { unit: "utf16", groups: [big], documents: many.map((document) => ({ document, pending: 1, stale: 0, orphaned: 0, openThreads: 0 })), errors: [] };
    q<HTMLElement>(".pt-inbox")!.click();
    await until(() => rows().length === 30, "the first 30 rows");
    expect(q(".inbox-more")?.textContent).toBe("Show 10 more items (10 documents)");
    q<HTMLElement>('.inbox-item[data-id="pm29"]')!.click();
    await until(() => active().includes("m29.md"), "m29.md open");
    key("F4");
    await until(() => rows().length === 31 && q('.inbox-item[data-id="pm30"]')?.classList.contains("current") && active().includes("m30.md"), "Next reaching past the shown rows");
    q<HTMLButtonElement>(".inbox-more")!.click();
    expect(rows()).toHaveLength(40);
    // 39 of the 40 are not open (m29.md's preview tab went for m30.md's): Accept all asks first; Cancel decides nothing.
    expect(q('.tab[data-path="m29.md"]')).toBeNull();
    fake.calls.length = 0;
    q<HTMLButtonElement>(".btn-inbox-accept")!.click();
    await until(() => q(".modal"), "the question");
    expect(q(".modal p")?.textContent).toBe("Accept all opens 39 more documents in tabs (m00.md, m01.md, m02.md, m03.md, m04.md, …), unsaved until Save all.");
    q<HTMLButtonElement>('.modal button[data-action="Cancel"]')!.click();
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.calls.filter((c) => c.name === "acceptAll" || c.name === "openDocument")).toEqual([]);
  });
});
