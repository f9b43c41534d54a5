// The Review panel (views/review-panel.ts) drawn from a plain model, with no
// App: nothing without a document, the tools and "No pending proposals."
// with an empty review; a card per proposal in its turn's group (its diff,
// its line and the words around its target, why it cannot be accepted); each
// button calls its action with the card's id, a group's Accept all / Reject
// all the turn's or, for a turn shared by producers, its own proposals; a
// click on a card asks to show it in the text; Edit… accepts the writer's
// text, and Cancel asks for the panel again.
import { beforeEach, describe, expect, it } from "vitest";
import { Text } from "@codemirror/state";
import { q } from "./dom";
import type { ProposalDto } from "../src/bindings/ProposalDto";
import { resetSeen } from "../src/coverage";
import { proposalIn, reviewWith } from "./fake-backend";
import { renderReviewPanel, type ReviewActions, type ReviewPanelModel } from "../src/views/review-panel";

const g = globalThis as unknown as { CSS?: { escape?: (s: string) => string } };
if (!g.CSS?.escape) g.CSS = { ...g.CSS, escape: (s: string) => s.replace(/["\\]/g, "\\$&") };

const TEXT = Text.of(["The story begins here.", "It was a dark night."]);

/** Claude's proposal replacing `target` in TEXT by `replacement`, in turn t1 (`over` overrides). */
const proposal = (id: string, target: string, replacement: string, over: Partial<ProposalDto> = {}): ProposalDto =>
  proposalIn(TEXT.toString(), id, target, replacement, {
    line: null,
    author: { kind: "agent", id: "claude", label: "claude", model: null, sdk: null, sessionId: null },
    instruction: "Tighten it",
    createdAt: "2026-12-06T00:00:00Z",
    ...over,
  });

const review = (proposals: ProposalDto[]) => reviewWith("essay.md", proposals);

const model = (proposals: ProposalDto[]): ReviewPanelModel => ({ path: "essay.md", review: review(proposals), text: TEXT });

/** Actions that note what was asked; `redraw` draws `again`. */
function noting(again?: ReviewPanelModel) {
  const calls: string[] = [];
  const actions: ReviewActions = {
    askClaude: () => void calls.push("askClaude"),
    reviewWithClaude: () => void calls.push("reviewWithClaude"),
    checkDocument: () => void calls.push("checkDocument"),
    accept: (id, withText) => void calls.push(withText === undefined ? `accept ${id}` : `accept ${id} as ${withText}`),
    reject: (id) => void calls.push(`reject ${id}`),
    acceptTurn: (turn) => void calls.push(`acceptTurn ${turn}`),
    rejectTurn: (turn) => void calls.push(`rejectTurn ${turn}`),
    acceptAll: (ids) => void calls.push(`acceptAll ${ids.join(" ")}`),
    rejectAll: (ids) => void calls.push(`rejectAll ${ids.join(" ")}`),
    reveal: (p) => void calls.push(`reveal ${p.id}`),
    redraw: () => {
      calls.push("redraw");
      if (again) renderReviewPanel(again, actions);
    },
  };
  return { calls, actions };
}

const card = (id: string) => q(`.card[data-proposal="${id}"]`)!;
const click = (sel: string, root: ParentNode = document) => (root.querySelector(sel) as HTMLElement).click();

beforeEach(() => {
  document.body.innerHTML = `<div class="review-body"></div>`;
  resetSeen();
});

describe("the Review panel", () => {
  it("draws nothing with no document shown (what it drew before gone)", () => {
    renderReviewPanel(model([proposal("p1", "begins", "starts")]), noting().actions);
    expect(q(".card")).not.toBeNull();
    renderReviewPanel({ path: null, review: null, text: null }, noting().actions);
    expect(q(".review-body")!.childElementCount).toBe(0);
  });

  it("says when nothing is pending, its tools still there and calling their actions", () => {
    const { calls, actions } = noting();
    renderReviewPanel(model([]), actions);
    expect(q(".panel-empty")!.textContent).toBe("No pending proposals.");
    expect(q(".card")).toBeNull();
    expect(q(".review-coverage"), "no coverage with nothing pending").toBeNull();
    click(".btn-ask");
    click(".btn-review-claude");
    click(".btn-check");
    expect(calls).toEqual(["askClaude", "reviewWithClaude", "checkDocument"]);
  });

  it("draws a card per proposal in its turn's group: the diff, the line and the words around its target, why it cannot be accepted", () => {
    const stale = proposal("p3", "dark", "stormy", { turnId: null, state: "stale", reason: "its text changed" });
    renderReviewPanel(model([proposal("p2", "here", "now"), proposal("p1", "begins", "starts"), stale]), noting().actions);
    const cards = Array.from(document.querySelectorAll<HTMLElement>(".card"));
    expect(cards.map((c) => [c.dataset.proposal, c.className])).toEqual([
      ["p1", "card card-pending"],
      ["p2", "card card-pending"],
      ["p3", "card card-stale"],
    ]);
    const groups = Array.from(document.querySelectorAll<HTMLElement>(".group"));
    expect(groups.map((s) => [s.dataset.turn, s.querySelector(".group-count")!.textContent])).toEqual([
      ["t1", "2"],
      ["", "1"],
    ]);
    expect(q(".group-instruction")!.textContent).toBe("“Tighten it”");
    expect(Array.from(card("p1").querySelectorAll(".card-diff span")).map((s) => [s.className, s.textContent])).toEqual([
      ["diff-delete", "begins"],
      ["diff-insert", "starts"],
    ]);
    expect(card("p1").querySelector(".card-line")!.textContent).toBe("L1");
    expect(card("p1").querySelector(".card-target")!.textContent).toBe("begins");
    expect(card("p3").querySelector(".card-line")!.textContent).toBe("L2");
    expect(card("p3").querySelector(".card-reason")!.textContent).toBe("Stale: its text changed");
    expect(card("p3").querySelector(".btn-accept")!.hasAttribute("disabled")).toBe(true);
    expect(card("p1").querySelector(".btn-accept")!.hasAttribute("disabled")).toBe(false);
    expect(card("p1").querySelector(".btn-accept")!.getAttribute("aria-label")).toBe("Accept: replace 'begins' with 'starts'");
    // jsdom cannot tell what is on screen: a card built counts as seen, after the label was drawn.
    expect(q(".review-coverage")!.textContent).toBe("0 of 2 seen");
  });

  it("calls each button's action with its card's id; a click on a card asks to show it in the text", () => {
    const { calls, actions } = noting();
    renderReviewPanel(model([proposal("p1", "begins", "starts"), proposal("p2", "here", "now")]), actions);
    click(".btn-accept", card("p2"));
    click(".btn-reject", card("p1"));
    click(".card-diff", card("p2"));
    click(".btn-accept-turn");
    click(".btn-reject-turn");
    expect(calls).toEqual(["accept p2", "reject p1", "reveal p2", "acceptTurn t1", "rejectTurn t1"]);
  });

  it("acts on a group's own proposals when its turn is shared with another producer", () => {
    const { calls, actions } = noting();
    const checker = { proposalId: "p2", producer: "spelling", producerVersion: "1", provenance: "local", category: "Spelling", reason: "Not a word" };
    const spelling = proposal("p2", "here", "hear", { contract: checker });
    renderReviewPanel(model([proposal("p1", "begins", "starts"), spelling, proposal("p3", "dark", "stormy", { state: "stale" })]), actions);
    expect(Array.from(document.querySelectorAll<HTMLElement>(".group")).map((s) => s.dataset.producer)).toEqual(["claude", "spelling"]);
    expect(card("p2").querySelector(".card-why")!.textContent).toBe("Not a word");
    click('.group[data-producer="claude"] .btn-accept-turn');
    click('.group[data-producer="claude"] .btn-reject-turn');
    click('.group[data-producer="spelling"] .btn-accept-turn');
    expect(calls).toEqual(["acceptAll p1", "rejectAll p1 p3", "acceptAll p2"]);
  });

  it("Edit… accepts the writer's text instead; Cancel asks for the panel again", () => {
    const shown = model([proposal("p1", "begins", "starts")]);
    const { calls, actions } = noting(shown);
    renderReviewPanel(shown, actions);
    click(".btn-edit", card("p1"));
    const area = q<HTMLTextAreaElement>(".card-edit")!;
    expect(area.value).toBe("starts");
    expect(document.activeElement).toBe(area);
    area.value = "opens";
    click(".btn-accept-edited");
    area.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", ctrlKey: true }));
    expect(calls).toEqual(["accept p1 as opens", "accept p1 as opens"]);
    click(".card-editbox button:not(.btn-accept-edited)");
    expect(calls[2]).toBe("redraw");
    expect(q(".card-editbox")).toBeNull();
    expect(card("p1").querySelector(".card-actions .btn-edit")).not.toBeNull();
  });
});
