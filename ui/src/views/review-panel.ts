// The Review panel: the pending proposals grouped by turn (accept/reject all),
// each as a card (diff with its line breaks as ⏎, its line and the words
// around it, the producer's category and reason, accept / edit / reject), and
// moving between proposals in the text (the one selected marked there too).
// The panel is drawn from a plain model with the actions its tools, groups
// and cards have (App.showReviewPanel builds both; views/panel.ts says when);
// it keeps what only it shows: the card marked, the cards built so far, an
// edit in a card. Moving between proposals in the text needs only the editor
// and its document (`ShownEditor`; App is one).
import { EditorView } from "@codemirror/view";
import type { Text } from "@codemirror/state";
import type { ProposalDto } from "../bindings/ProposalDto";
import type { ReviewDto } from "../bindings/ReviewDto";
import { appendWithNewlines, contextLine } from "../diff-text";
import { $, h } from "../dom";
import { reviewOf, selectProposal } from "../extensions/review-field";
import { plural } from "../model/jobs";
import { age, groupByTurn, nextProposal, proposalAt, type ProposalGroup } from "../model/util";
import { LazyList } from "./lazy-list";
import { hiddenFlag } from "./confirm-hidden";
import { decisionLabel } from "../announce";
import { coverageLabel, markSeen, onSeen, watchSeen } from "../coverage";

/** The proposal last revealed or marked: its card shows it, and it stands for the cursor's when none is under it. */
let focused: string | null = null;

/** The proposal last revealed or marked (its card is marked); null: none yet. */
export function focusedProposal(): string | null {
  return focused;
}

/** What the Review panel shows: the active document's review as its editor holds it, and its text. */
export interface ReviewPanelModel {
  /** The document shown; null: none. */
  path: string | null;
  /** Its review; null: no document shown (nothing drawn, not even the tools). */
  review: ReviewDto | null;
  /** Its text, for each card's line and the words around its target; null: no document shown. */
  text: Text | null;
}

/** What the panel's tools, groups and cards do, on the document shown. */
export interface ReviewActions {
  /** Ask Claude… (dialogs/ask-claude.ts). */
  askClaude(): void;
  /** Review with Claude… (dialogs/review-claude.ts). */
  reviewWithClaude(): void;
  /** Check document: the enabled checkers (producers.ts). */
  checkDocument(): void;
  /** Accept a proposal; `withText`: the writer's edit of its text (Edit… in the card). */
  accept(id: string, withText?: string): void;
  reject(id: string): void;
  /** A group's Accept all / Reject all when it is one turn of one producer. */
  acceptTurn(turn: string): void;
  rejectTurn(turn: string): void;
  /** A group's Accept all / Reject all by its proposals (a turn shared with another producer, or no turn). */
  acceptAll(ids: string[]): void;
  rejectAll(ids: string[]): void;
  /** Show a proposal in the text (a click on its card): `reveal`. */
  reveal(p: ProposalDto): void;
  /** Draw the panel again from the review as it is now (Cancel in a card's edit). */
  redraw(): void;
}

/** The editor and the document it shows: all that moving between proposals needs (App is one). */
export interface ShownEditor {
  readonly view: EditorView | null;
  readonly active: string | null;
}

/** The panel's tools (Ask Claude…, Check document) and the proposals by group. */
export function renderReviewPanel(model: ReviewPanelModel, actions: ReviewActions) {
  const body = $(".review-body");
  body.replaceChildren();
  const { review, path } = model;
  if (!review) return cards.show(body, [], () => {});
  const ask = h("button", { class: "btn-ask", text: "Ask Claude…", title: "Ask Claude to edit the selected text (Ctrl+K)" });
  const check = h("button", { class: "btn-check", text: "Check document", title: "Run the enabled checkers on this document (F7)" });
  const reviewBtn = h("button", {
    class: "btn-review-claude",
    text: "Review with Claude…",
    title: "Ask Claude to review the selection, or the whole document: comments and proposed edits (Ctrl+Alt+K)",
  });
  ask.addEventListener("click", () => actions.askClaude());
  reviewBtn.addEventListener("click", () => actions.reviewWithClaude());
  check.addEventListener("click", () => actions.checkDocument());
  body.append(h("div", { class: "review-tools" }, ask, reviewBtn, check));
  const label = path ? coverageLabel(path, pendingIds(review.proposals)) : null;
  if (label) body.append(h("div", { class: "review-coverage", text: label, title: "Proposals whose text or card has been on your screen: Accept all asks before the rest" }));
  if (!review.proposals.length) {
    body.append(h("div", { class: "panel-empty", text: "No pending proposals." }));
    return cards.show(body, [], () => {});
  }
  // The cards are built as the panel is scrolled to them (LazyList), each
  // group's head with its first card.
  const rows = groupByTurn(review.proposals).flatMap((g) => g.proposals.map((p) => ({ g, p })));
  let section: HTMLElement | null = null;
  cards.show(
    body,
    rows.map((r) => r.p.id),
    (i) => {
      const { g, p } = rows[i];
      if (i === 0 || rows[i - 1].g !== g) {
        section = groupSection(actions, g);
        body.append(section);
      }
      const card = proposalCard(model.text, actions, p);
      section!.append(card);
      if (path) watchSeen(card, path, p.id);
    },
  );
}

/** The proposals' cards, built as they are scrolled to. */
const cards = new LazyList();

const pendingIds = (proposals: readonly ProposalDto[]) => proposals.filter((p) => p.state === "pending").map((p) => p.id);

/** Keep the panel's "12 of 40 seen" current as the writer reads (no re-render). */
export function keepCoverageLabel(editor: ShownEditor) {
  onSeen((path) => {
    const el = document.querySelector(".review-coverage");
    const review = editor.view ? reviewOf(editor.view.state) : null;
    if (!el || path !== editor.active || !review) return;
    el.textContent = coverageLabel(path, pendingIds(review.proposals)) ?? "";
  });
}

/** Build the card of proposal `id` (and those before it) if it is not yet. */
export function ensureCard(id: string): HTMLElement | null {
  cards.ensure(id);
  return document.querySelector<HTMLElement>(`.card[data-proposal="${CSS.escape(id)}"]`);
}

/** A group's section: its producer, count, instruction, and accept / reject all. */
function groupSection(actions: ReviewActions, g: ProposalGroup): HTMLElement {
  const group = h("section", { class: "group", "data-turn": g.turnId ?? "", "data-producer": g.producer });
  const n = g.proposals.length;
  const head = h(
    "header",
    { class: "group-head" },
    h(
      "div",
      { class: "group-title" },
      h("span", { class: "group-producer", text: g.producer }),
      h("span", { class: "group-count", text: String(n), title: plural(n, "proposal") }),
    ),
  );
  if (g.instruction) head.append(h("div", { class: "group-instruction", text: `“${g.instruction}”` }));
  // The turn's id is for tools, not the writer: in the tooltip only.
  const meta = [g.author !== g.producer ? g.author : null, age(g.createdAt)].filter((x): x is string => !!x);
  head.append(h("div", { class: "group-meta", text: meta.join(" · "), title: g.turnId ? `Turn ${g.turnId}` : "" }));
  group.append(head);
  if (g.turnId || n > 1) {
    const turn = g.turnId;
    const pending = g.proposals.filter((p) => p.state === "pending").map((p) => p.id);
    const all = g.proposals.map((p) => p.id);
    const buttons = h("div", { class: "group-actions" });
    const a = h("button", {
      class: "btn-accept-turn",
      text: "Accept all",
      title: `Accept the ${plural(pending.length, "pending proposal")} of this group (Alt+Shift+Enter)`,
    });
    const r = h("button", { class: "btn-reject-turn", text: "Reject all", title: `Reject the ${plural(n, "proposal")} of this group (Alt+Shift+Backspace)` });
    a.toggleAttribute("disabled", pending.length === 0);
    // A turn another producer filed under too, or proposals grouped by author and time: act on this group's proposals only.
    a.addEventListener("click", () => (g.sharedTurn || !turn ? actions.acceptAll(pending) : actions.acceptTurn(turn)));
    r.addEventListener("click", () => (g.sharedTurn || !turn ? actions.rejectAll(all) : actions.rejectTurn(turn)));
    buttons.append(a, r);
    head.append(buttons);
  }
  return group;
}

/** One proposal: its word diff, why, and what can be done with it; a click shows it in the text. */
function proposalCard(text: Text | null, actions: ReviewActions, p: ProposalDto): HTMLElement {
  const card = h("article", { class: `card card-${p.state}${p.id === focused ? " focused" : ""}`, "data-proposal": p.id });
  const diff = h("div", { class: "card-diff" });
  for (const part of p.diff) {
    const span = h("span", { class: `diff-${part.tag}` });
    appendWithNewlines(span, part.text, true);
    diff.append(span);
  }
  card.append(diff);
  const flag = hiddenFlag(p);
  if (flag) card.append(flag);
  const where = cardContext(text, p);
  if (where) card.append(where);
  const c = p.contract;
  if (c && (c.category || c.reason)) {
    // Category and reason come from the producer: text only, never HTML.
    card.append(
      h(
        "div",
        { class: "card-contract", title: `${c.producer} ${c.producerVersion} · ${c.provenance}` },
        c.category ? h("span", { class: "card-category", text: c.category }) : null,
        c.reason ? h("span", { class: "card-why", text: c.reason }) : null,
      ),
    );
  }
  if (p.state !== "pending") {
    const kind = p.likelyPlace ? "Likely place" : p.state === "stale" ? "Stale" : "Orphaned";
    card.append(h("div", { class: "card-reason", text: `${kind}: ${p.reason ?? ""}` }));
  }
  const buttons = h("div", { class: "card-actions" });
  // At a likely place it can be accepted there, once the writer says so (accept asks).
  const accept = p.likelyPlace
    ? h("button", { class: "btn-accept btn-accept-here", text: "✓ Accept here…", title: "Check the place, then accept it there", "aria-label": `${decisionLabel("accept", p)}, at its likely place` })
    : h("button", { class: "btn-accept", text: "✓ Accept", title: "Accept (Alt+Enter)", "aria-label": decisionLabel("accept", p) });
  accept.toggleAttribute("disabled", p.state !== "pending" && !p.likelyPlace);
  const edit = h("button", { class: "btn-edit", text: "Edit…", title: "Edit the proposed text, then accept" });
  edit.toggleAttribute("disabled", p.state !== "pending");
  const reject = h("button", { class: "btn-reject", text: "✗ Reject", title: "Reject (Alt+Backspace)", "aria-label": decisionLabel("reject", p) });
  accept.addEventListener("click", () => actions.accept(p.id));
  reject.addEventListener("click", () => actions.reject(p.id));
  edit.addEventListener("click", () => editAndAccept(actions, p, card));
  buttons.append(accept, edit, reject);
  card.append(buttons);
  card.addEventListener("click", (e) => {
    if ((e.target as HTMLElement).closest("button, textarea")) return;
    actions.reveal(p);
  });
  return card;
}

/** Where the proposal is: its line and the words around its target (emphasized; ‸ for an insertion). */
function cardContext(doc: Text | null, p: ProposalDto): HTMLElement | null {
  if (!doc || p.from === null || p.to === null) return null;
  const from = Math.min(p.from, doc.length);
  const c = contextLine(from, Math.max(from, Math.min(p.to, doc.length)), (pos) => doc.lineAt(pos), (f, t) => doc.sliceString(f, t));
  return h(
    "div",
    { class: "card-context", title: `Line ${c.line}` },
    h("span", { class: "card-line", text: `L${c.line}` }),
    h("span", { class: "card-around", text: c.before }),
    c.target ? h("mark", { class: "card-target", text: c.target }) : h("mark", { class: "card-target card-at", text: "‸", title: "Inserted here" }),
    h("span", { class: "card-around", text: c.after }),
  );
}

/** Edit the proposed text in the card, then accept that instead (Cancel: the panel drawn again). */
function editAndAccept(actions: ReviewActions, p: ProposalDto, card: HTMLElement) {
  const area = h("textarea", { class: "card-edit", rows: "4" });
  area.value = p.replacement;
  const ok = h("button", { class: "btn-accept-edited", text: "Accept edited" });
  const cancel = h("button", { text: "Cancel" });
  const box = h("div", { class: "card-editbox" }, area, h("div", { class: "card-actions" }, ok, cancel));
  card.querySelector(".card-actions")?.replaceWith(box);
  area.focus();
  ok.addEventListener("click", () => actions.accept(p.id, area.value));
  cancel.addEventListener("click", () => actions.redraw());
  area.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "Enter") actions.accept(p.id, area.value);
  });
}

/** Put the cursor at a proposal, scrolled into view, and mark it in the text and its card; the editor focused unless `focus` is false. */
export function reveal(editor: ShownEditor, p: ProposalDto, focus = true) {
  if (!editor.view || p.from === null) return;
  focused = p.id;
  if (editor.active) markSeen(editor.active, [p.id]);
  editor.view.dispatch({
    selection: { anchor: p.from },
    effects: [selectProposal.of(p.id), EditorView.scrollIntoView(p.from, { y: "center" })],
  });
  if (focus) editor.view.focus();
  markCards(p.id);
}

/** Mark a proposal's card as the one in focus without moving the cursor (the writer is busy elsewhere). */
export function markFocused(id: string) {
  focused = id;
  markCards(id);
}

function markCards(id: string) {
  for (const el of Array.from(document.querySelectorAll<HTMLElement>(".card"))) el.classList.toggle("focused", el.dataset.proposal === id);
}

/** The proposal under the cursor, else the one last revealed. */
export function proposalAtCursor(editor: ShownEditor): ProposalDto | null {
  const review = editor.view ? reviewOf(editor.view.state) : null;
  if (!review || !editor.view) return null;
  const pos = editor.view.state.selection.main.head;
  const last = review.proposals.find((p) => p.id === focused);
  return proposalAt(review.proposals, pos) ?? last ?? null;
}

/** Move to the next (1) or previous (-1) proposal in the text (Alt+] / Alt+[). */
export function gotoProposal(editor: ShownEditor, dir: 1 | -1) {
  const review = editor.view ? reviewOf(editor.view.state) : null;
  if (!review || !editor.view) return;
  const p = nextProposal(review.proposals, editor.view.state.selection.main.head, dir);
  if (p) reveal(editor, p);
}
