// The Inbox tab (views/inbox-panel.ts) drawn from a plain model with recorded
// actions, with no App and no test double of the Backend: rows by group and
// document, the tab's count, the unsaved documents with Save all, a row, Next,
// Accept all, Reject all and Show more calling their actions, a filter
// changing what shows; nothing drawn anew when nothing changed (the same
// answer fetched again is kept, by `InboxView.answered`, as the one held), and
// `sameAnswer` comparing two answers value by value.
import { beforeEach, describe, expect, it } from "vitest";
import { q } from "./dom";
import type { InboxGroup } from "../src/bindings/InboxGroup";
import type { InboxOut } from "../src/bindings/InboxOut";
import type { InboxProposal } from "../src/bindings/InboxProposal";
import type { InboxThread } from "../src/bindings/InboxThread";
import type { ProposalDto } from "../src/bindings/ProposalDto";
import { NO_FILTERS, sameAnswer, type InboxFilters } from "../src/model/inbox";
import { InboxView, refreshInbox, renderInbox, type InboxActions, type InboxModel } from "../src/views/inbox-panel";

const agent = (id: string) => ({ kind: "agent" as const, id, label: id, model: null, sdk: null, sessionId: null });

function proposal(document: string, id: string, state: ProposalDto["state"], producer = "claude"): InboxProposal {
  return {
    document,
    producer,
    context: { line: 1, before: "", after: "" },
    proposal: {
      id,
      state,
      from: 0,
      to: 4,
      line: 3,
      target: "word",
      replacement: "WORD",
      current: null,
      reason: state === "pending" ? null : "its target text changed",
      diff: [
        { tag: "delete", text: "word" },
        { tag: "insert", text: "WORD" },
      ],
      author: agent(producer),
      turnId: "turn-1",
      instruction: null,
      createdAt: "2026-12-03T10:00:00Z",
      contract: null,
      hidden: [],
      likelyPlace: false,
    },
  };
}

function thread(document: string, id: string): InboxThread {
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
      from: 0,
      to: 5,
      line: 1,
      text: "Quiet",
      orphaned: false,
      relocated: false,
      detached: false,
      anchoredText: "Quiet",
      comments: [{ id: "c1", author: ada, body: "Why this?", createdAt: "2026-12-03T11:00:00Z" }],
    },
  };
}

function group(key: string, producer: string, proposals: InboxProposal[], threads: InboxThread[] = []): InboxGroup {
  return { key, turnId: null, producer, author: threads[0]?.author ?? agent(producer), instruction: null, createdAt: "2026-12-03T10:00:00Z", proposals, threads };
}

/** Ada's thread in c.md; claude's turn over a.md (one stale) and b.md; harper's lone proposal in b.md. */
function answer(): InboxOut {
  return {
    unit: "utf16",
    groups: [
      group("threads:ada", "ada@example.com", [], [thread("c.md", "t1")]),
      group("turn:claude", "claude", [proposal("a.md", "pa1", "pending"), proposal("a.md", "pa2", "stale"), proposal("b.md", "pb1", "pending")]),
      group("proposal:harper", "harper", [proposal("b.md", "pb2", "pending", "harper")]),
    ],
    documents: ["a.md", "b.md", "c.md"].map((document) => ({ document, pending: 1, stale: 0, orphaned: 0, openThreads: 0 })),
    errors: [],
  };
}

const model = (m: Partial<InboxModel> = {}): InboxModel => ({
  out: answer(),
  filters: { ...NO_FILTERS },
  at: null,
  error: null,
  dirty: [],
  expanded: new Set(),
  me: null,
  ...m,
});

/** Actions that note what was asked; a filter is applied to `state` and the tab drawn again, as App's does. */
function noting(state: { model: InboxModel }) {
  const calls: string[] = [];
  const actions: InboxActions = {
    goTo: (item) => void calls.push(`goTo ${item.kind} ${item.group} ${item.document}:${item.id}`),
    step: (dir) => void calls.push(`step ${dir}`),
    decide: (g, accept) => void calls.push(`${accept ? "accept" : "reject"} ${g.key} ${g.proposals.map((p) => p.proposal.id).join(",")}`),
    filter: (change: Partial<InboxFilters>) => {
      calls.push(`filter ${JSON.stringify(change)}`);
      state.model = { ...state.model, filters: { ...state.model.filters, ...change } };
      renderInbox(state.model, actions);
    },
    showMore: (key) => void calls.push(`showMore ${key}`),
    saveAll: () => void calls.push("saveAll"),
  };
  return { calls, actions };
}

const rows = () => Array.from(document.querySelectorAll<HTMLElement>(".inbox-item"), (r) => `${r.dataset.document}:${r.dataset.id}`);
const choose = (cls: string, value: string) => {
  const sel = q<HTMLSelectElement>(cls)!;
  sel.value = value;
  sel.dispatchEvent(new Event("change"));
};

beforeEach(() => {
  document.body.innerHTML = `<button class="pt-inbox">Inbox</button><div class="panel-body inbox-body"></div>`;
});

describe("the Inbox tab, drawn from a model", () => {
  it("draws the rows by group and document, the count, the errors and the unsaved documents", () => {
    const out = answer();
    out.errors = [{ document: "broken.md", error: { code: "corrupt_sidecar", message: "not valid JSON" } }];
    // The writer is Ada: her comments are named as she named herself.
    const me = { name: "Ada", email: "ada@example.com", gitName: null, gitEmail: null, display: "Ada", id: "ada@example.com", source: "settings" as const, ask: false };
    const state = { model: model({ out, dirty: ["a.md", "c.md"], at: { document: "a.md", id: "pa2" }, me }) };
    const { calls, actions } = noting(state);
    renderInbox(state.model, actions);
    expect(Array.from(document.querySelectorAll<HTMLElement>(".inbox-group"), (g) => g.dataset.key)).toEqual(["threads:ada", "turn:claude", "proposal:harper"]);
    expect(rows()).toEqual(["c.md:t1", "a.md:pa1", "a.md:pa2", "b.md:pb1", "b.md:pb2"]);
    const turn = q('.inbox-group[data-key="turn:claude"]')!;
    expect(Array.from(turn.querySelectorAll(".inbox-doc"), (d) => d.textContent)).toEqual(["a.md", "b.md"]);
    expect(turn.querySelector(".group-meta")?.textContent).toContain("in 2 documents");
    expect(turn.querySelector(".group-note")?.textContent).toBe("1 proposal cannot be accepted: its text changed or is gone (reject works).");
    expect(q('.inbox-item[data-id="pa2"]')!.className).toBe("inbox-item inbox-proposal inbox-stale current");
    expect(q('.inbox-item[data-id="pa2"] .inbox-reason')?.textContent).toBe("Stale: its target text changed");
    expect(q('.inbox-group[data-key="threads:ada"] .group-producer')?.textContent).toBe("Comments by Ada");
    expect(q('.inbox-item[data-id="t1"] .inbox-comment')?.textContent).toBe("Ada: Why this?");
    expect(q(".inbox-summary")?.textContent).toBe("4 proposals (1 stale) · 1 thread · 3 documents");
    expect(q(".pt-inbox .pt-count")?.textContent).toBe("5");
    expect(q(".pt-inbox .visually-hidden")?.textContent).toBe(", 5 waiting");
    expect(q('.inbox-error[data-document="broken.md"]')?.textContent).toBe("broken.md: not read — not valid JSON");
    expect(q(".inbox-unsaved span")?.textContent).toBe("Unsaved: a.md, c.md");
    q<HTMLButtonElement>(".inbox-save-all")!.click();
    expect(calls).toEqual(["saveAll"]);
  });

  it("says it is reading before the first answer, and the error of a failed fetch", () => {
    const { actions } = noting({ model: model() });
    renderInbox(model({ out: null }), actions);
    expect(q(".inbox-body .panel-empty")?.textContent).toBe("Reading the workspace…");
    expect(q(".pt-inbox")?.textContent).toBe("Inbox");
    renderInbox(model({ out: null, error: "the core is gone" }), actions);
    expect(q(".inbox-body .inbox-error")?.textContent).toBe("the core is gone");
  });

  it("asks for an item, the next or previous one, a group's decision and the rest of a long group", () => {
    const state = { model: model() };
    const { calls, actions } = noting(state);
    renderInbox(state.model, actions);
    q<HTMLElement>('.inbox-item[data-id="pb1"]')!.click();
    q<HTMLElement>('.inbox-item[data-id="t1"]')!.click();
    q<HTMLButtonElement>(".inbox-next")!.click();
    q<HTMLButtonElement>(".inbox-prev")!.click();
    q<HTMLButtonElement>('.inbox-group[data-key="turn:claude"] .btn-inbox-accept')!.click();
    q<HTMLButtonElement>('.inbox-group[data-key="turn:claude"] .btn-inbox-reject')!.click();
    expect(calls).toEqual([
      "goTo proposal turn:claude b.md:pb1",
      "goTo thread threads:ada c.md:t1",
      "step 1",
      "step -1",
      "accept turn:claude pa1,pa2,pb1",
      "reject turn:claude pa1,pa2,pb1",
    ]);
    // A long group: its first 30 rows, and Show more.
    const many = Array.from({ length: 40 }, (_, i) => proposal(`m${i}.md`, `pm${i}`, "pending"));
    const long: InboxOut = { ...answer(), groups: [group("turn:big", "claude", many)] };
    renderInbox(model({ out: long }), actions);
    expect(rows()).toHaveLength(30);
    expect(q(".inbox-more")?.textContent).toBe("Show 10 more items (10 documents)");
    q<HTMLButtonElement>(".inbox-more")!.click();
    expect(calls[calls.length - 1]).toBe("showMore turn:big");
    renderInbox(model({ out: long, expanded: new Set(["turn:big"]) }), actions);
    expect(rows()).toHaveLength(40);
    expect(q(".inbox-more")).toBeNull();
  });

  it("shows what the filters keep; with nothing kept, Show everything clears them", () => {
    const state = { model: model() };
    const { calls, actions } = noting(state);
    renderInbox(state.model, actions);
    choose(".inbox-doc", "b.md");
    expect(rows()).toEqual(["b.md:pb1", "b.md:pb2"]);
    choose(".inbox-producer", "harper");
    expect(rows()).toEqual(["b.md:pb2"]);
    choose(".inbox-state", "threads");
    expect(rows()).toEqual([]);
    expect(q(".inbox-body .panel-empty")?.textContent).toBe("Nothing matches these filters.Show everything");
    expect(q<HTMLButtonElement>(".inbox-next")!.disabled).toBe(true);
    q<HTMLButtonElement>(".inbox-clear")!.click();
    expect(rows()).toHaveLength(5);
    expect(calls).toEqual([
      'filter {"document":"b.md"}',
      'filter {"producer":"harper"}',
      'filter {"state":"threads"}',
      `filter ${JSON.stringify(NO_FILTERS)}`,
    ]);
  });

  it("draws nothing anew when nothing it shows changed; the same answer fetched again is the one held", async () => {
    const { actions } = noting({ model: model() });
    const v = new InboxView();
    const fetched: InboxOut[] = [answer(), answer()];
    let draws = 0;
    const host = {
      inbox: v,
      backend: { inbox: async () => fetched.shift() ?? Promise.reject(new Error("the core is gone")) },
      showInbox: () => {
        draws += 1;
        renderInbox({ ...model(), out: v.out, filters: v.filters, at: v.at, error: v.error }, actions);
      },
    };
    await refreshInbox(host);
    const first = q('.inbox-item[data-id="pa1"]');
    const held = v.out;
    expect(first).not.toBeNull();
    // The same answer again: kept as it was, nothing drawn anew (the very same row).
    await refreshInbox(host);
    expect(v.out).toBe(held);
    expect(draws).toBe(3);
    expect(q('.inbox-item[data-id="pa1"]')).toBe(first);
    // The same model drawn again: the same rows.
    host.showInbox();
    expect(q('.inbox-item[data-id="pa1"]')).toBe(first);
    // A place gone to: drawn anew, the row marked.
    v.at = { document: "a.md", id: "pa1" };
    host.showInbox();
    expect(q('.inbox-item[data-id="pa1"]')).not.toBe(first);
    expect(q('.inbox-item[data-id="pa1"]')!.classList.contains("current")).toBe(true);
    // A failed fetch: said, the answer kept.
    await refreshInbox(host);
    expect(v.out).toBe(held);
    expect(q(".inbox-body > .inbox-error")?.textContent).toBe("the core is gone");
    // A different answer replaces the one held.
    const other = answer();
    other.groups[2].proposals[0].proposal.state = "orphaned";
    v.answered(other);
    expect(v.out).toBe(other);
    expect(v.error).toBeNull();
    host.showInbox();
    expect(q('.inbox-item[data-id="pb2"]')!.classList.contains("inbox-orphaned")).toBe(true);
  });
});

describe("sameAnswer", () => {
  it("compares two answers value by value", () => {
    expect(sameAnswer(answer(), answer())).toBe(true);
    const changed = answer();
    changed.groups[1].proposals[2].proposal.diff[1].text = "Word";
    expect(sameAnswer(answer(), changed)).toBe(false);
    const fewer = answer();
    fewer.groups.pop();
    expect(sameAnswer(answer(), fewer)).toBe(false);
    const more = answer();
    more.errors.push({ document: "x.md", error: { code: "corrupt_sidecar", message: "bad" } });
    expect(sameAnswer(answer(), more)).toBe(false);
    const moved = answer();
    moved.groups[1].proposals[0].proposal.line = null;
    expect(sameAnswer(answer(), moved)).toBe(false);
  });
});
