// The accessible review view (Alt+F2, as VS Code's accessible view): the
// proposal at the cursor read as words in a dialog — what it replaces and with
// what, where, why, who proposed it, which turn, n of m (announce.ts) — with
// the editor's keys to decide and move on: Alt+Enter accepts, Alt+Backspace
// rejects, Alt+] / Alt+[ go to the next / previous, Ctrl+Z undoes, Esc goes
// back to the text. Each decision is spoken (App.decided) and the next
// proposal read.
import type { App } from "../main";
import type { ProposalDto } from "../bindings/ProposalDto";
import { contextLine } from "../diff-text";
import { docName, proposalReading } from "../announce";
import { h } from "../dom";
import { authorLabel, nextProposal, proposalAt } from "../util";
import { closeModal, modal, toast } from "./modal";
import { reveal } from "./review-panel";

/** The proposals in reading order: those in the text by place, then those no longer in it. */
function inOrder(proposals: ProposalDto[]): ProposalDto[] {
  const placed = proposals.filter((p) => p.from !== null).sort((a, b) => a.from! - b.from!);
  return [...placed, ...proposals.filter((p) => p.from === null)];
}

/** Open the view on the proposal at the cursor (else the next one after it). */
export function openAccessibleView(app: App) {
  const review = app.review();
  if (!app.view || !app.active || !review) return toast("Open a document first.");
  if (!review.proposals.length) return toast(`No proposals in ${docName(app.active)}.`);
  const pos = app.view.state.selection.main.head;
  const focused = review.proposals.find((p) => p.id === app.focusedProposal && p.from !== null && p.from <= pos && pos <= (p.to ?? p.from));
  let current: ProposalDto | null = focused ?? proposalAt(review.proposals, pos) ?? nextProposal(review.proposals, pos, 1) ?? inOrder(review.proposals)[0];
  /** Where the last proposal shown was, to go on from there once it is decided. */
  let at = current?.from ?? 0;
  const body = h("div", { class: "av" });
  let busy = false;

  const render = () => {
    const all = inOrder(app.review()?.proposals ?? []);
    const path = app.active;
    body.replaceChildren();
    if (!current || !path) {
      const none = h("div", { class: "av-text", tabindex: "0", text: `No proposals left${path ? ` in ${docName(path)}` : ""}. Esc goes back to the text.` });
      body.append(none);
      none.focus();
      return;
    }
    const p = current;
    const doc = app.view?.state.doc;
    const around =
      doc && p.from !== null && p.to !== null
        ? contextLine(Math.min(p.from, doc.length), Math.min(Math.max(p.from, p.to), doc.length), (x) => doc.lineAt(x), (f, t) => doc.sliceString(f, t))
        : null;
    const reading = proposalReading(p, Math.max(0, all.findIndex((q) => q.id === p.id)), all.length, authorLabel(p.author, app.me), around);
    const heading = h("h3", { class: "av-heading", id: "av-heading", text: reading.heading });
    const text = h(
      "div",
      { class: "av-text", tabindex: "0", role: "document", "aria-labelledby": "av-heading" },
      heading,
      ...reading.lines.map((l) => h("p", { text: l })),
    );
    const button = (label: string, keys: string, f: () => void, disabled = false) => {
      const b = h("button", { text: label, title: keys, "aria-keyshortcuts": keys.replace(/\s/g, "") });
      b.toggleAttribute("disabled", disabled);
      b.addEventListener("click", f);
      return b;
    };
    body.append(
      text,
      h(
        "div",
        { class: "modal-actions av-actions" },
        button("Accept", "Alt+Enter", () => void decide("accept"), p.state !== "pending"),
        button("Reject", "Alt+Backspace", () => void decide("reject")),
        button("Previous", "Alt+[", () => move(-1)),
        button("Next", "Alt+]", () => move(1)),
        button("Back to the text", "Escape", () => closeModal(app)),
      ),
      h("p", { class: "av-keys", text: "Alt+Enter accept · Alt+Backspace reject · Alt+] next · Alt+[ previous · Ctrl+Z undo · Esc back to the text" }),
    );
    text.focus();
  };

  /** Show `p` here and in the text (marked, scrolled to), the focus staying in the view. */
  const show = (p: ProposalDto | null) => {
    current = p;
    if (p && p.from !== null) {
      at = p.from;
      reveal(app, p, false);
    }
    render();
  };

  const move = (dir: 1 | -1) => {
    const proposals = app.review()?.proposals ?? [];
    show(current?.from != null ? nextProposal(proposals, current.from, dir) : (inOrder(proposals)[0] ?? null));
  };

  /** After a decision or an undo: the proposal now at or after where the last one was. */
  const goOn = () => {
    const proposals = inOrder(app.review()?.proposals ?? []);
    show(proposals.find((p) => p.from !== null && p.from >= at) ?? proposals[0] ?? null);
  };

  const decide = async (kind: "accept" | "reject" | "undo") => {
    if (busy) return;
    const p = current;
    if (kind !== "undo" && !p) return;
    busy = true;
    try {
      if (kind === "accept") await app.accept(p!.id);
      else if (kind === "reject") await app.reject(p!.id);
      else await app.undo();
    } finally {
      busy = false;
    }
    // A question (hidden characters) may have taken the dialog's place.
    if (body.isConnected) goOn();
  };

  body.addEventListener("keydown", (e) => {
    if (e.altKey && !e.ctrlKey && e.key === "Enter") void decide("accept");
    else if (e.altKey && !e.ctrlKey && e.key === "Backspace") void decide("reject");
    else if (e.altKey && !e.ctrlKey && (e.key === "]" || e.code === "BracketRight")) move(1);
    else if (e.altKey && !e.ctrlKey && (e.key === "[" || e.code === "BracketLeft")) move(-1);
    else if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "z") void decide("undo");
    else return;
    e.preventDefault();
    e.stopPropagation();
  });

  modal(app, "Review, read as words", body, []);
  show(current);
}
