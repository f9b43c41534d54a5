// The accessible review view (Alt+F2, as VS Code's accessible view): the
// proposal at the cursor read as words in a dialog — what it replaces and with
// what, where, why, who proposed it, which turn, n of m (announce.ts) — with
// the editor's keys to decide and move on: Alt+Enter accepts, Alt+Backspace
// rejects, Alt+] / Alt+[ go to the next / previous, Ctrl+Z undoes, Esc goes
// back to the text. Each decision is spoken (App.decided) and the next
// proposal read. Threads are read the same way (the text they are about, each
// comment with its author; Alt+T switches between proposals and threads), with
// Resolve / Reopen, and Reply taking the writer to the thread's reply box.
// The view reads a plain model each time it draws (the review changes under
// it as the writer decides) and acts through its actions (App.showAccessibleView
// builds both, App being the dialog's host); what it reads (proposals or
// threads, which one) and where the last one was are its own.
import type { Text } from "@codemirror/state";
import type { IdentityDto } from "../bindings/IdentityDto";
import type { ProposalDto } from "../bindings/ProposalDto";
import type { ReviewDto } from "../bindings/ReviewDto";
import type { ThreadDto } from "../bindings/ThreadDto";
import { contextLine } from "../diff-text";
import { docName, proposalReading, threadReading, type ProposalReading } from "../announce";
import { h } from "../dom";
import { age, authorLabel, proposalAt } from "../model/util";
import { say } from "./live";
import { closeModal, modal, toast, type ModalHost } from "./modal";
import type { ThreadAnswer } from "./threads-panel";

/** What the view reads: the active document's review, its text and cursor, and who the writer is. */
export interface AccessibleViewModel {
  /** The document shown; null: none. */
  path: string | null;
  /** Its review as its editor holds it; null: no document shown. */
  review: ReviewDto | null;
  /** Its text, for a proposal's line and the words around it; null: no document shown. */
  text: Text | null;
  /** Where the cursor is in it (the view opens on what is there). */
  cursor: number;
  /** Who the writer is: their comments are read as theirs (`authorLabel`). */
  me: IdentityDto | null;
  /** The proposal last revealed or marked (review-panel.ts `focusedProposal`): at the cursor, the view opens on it. */
  revealed: string | null;
}

/** What the view does. */
export interface AccessibleViewActions {
  /** What the view reads now: asked each time it draws. */
  model(): AccessibleViewModel;
  /** Decide on a proposal, or undo the last change (App.accept, App.reject, App.undo); spoken by the app. */
  accept(id: string): Promise<unknown>;
  reject(id: string): Promise<unknown>;
  undo(): Promise<unknown>;
  /** Show a proposal in the text, marked, the focus staying in the view (review-panel.ts `reveal`). */
  reveal(p: ProposalDto): void;
  /** Select a thread's text, scrolled into view. */
  select(from: number, to: number): void;
  /** Resolve or reopen a thread: the core's answer (null: none shown, or it failed and the writer was told), to `show`. */
  setResolved(id: string, resolved: boolean): Promise<ThreadAnswer | null>;
  /** Show the core's answer in its document's editor (and the panel). */
  show(answer: ThreadAnswer): void;
  /** Show a thread's card in the Threads panel (threads-panel.ts `focusThread`). */
  focusThread(id: string): void;
}

type Mode = "proposals" | "threads";
type Item = ProposalDto | ThreadDto;

/** Items in reading order: those in the text by place, then those no longer in it. */
function inOrder<T extends { from: number | null }>(items: readonly T[]): T[] {
  const placed = items.filter((p) => p.from !== null).sort((a, b) => a.from! - b.from!);
  return [...placed, ...items.filter((p) => p.from === null)];
}

/** Open the view on the proposal at the cursor (else the open thread there, else the first proposal after it). */
export function openAccessibleView(host: ModalHost, actions: AccessibleViewActions) {
  const opening = actions.model();
  const { review, cursor: pos, revealed } = opening;
  if (!opening.text || !opening.path || !review) return toast("Open a document first.");
  if (!review.proposals.length && !review.threads.length) return toast(`No proposals or threads in ${docName(opening.path)}.`);
  const focused = review.proposals.find((p) => p.id === revealed && p.from !== null && p.from <= pos && pos <= (p.to ?? p.from));
  const proposal = focused ?? proposalAt(review.proposals, pos);
  // An open thread at the cursor (a resolved one is not what the writer came to review).
  const thread = review.threads.find((t) => t.status === "open" && t.from !== null && t.to !== null && t.from <= pos && pos <= t.to);
  let mode: Mode = proposal || !thread ? (review.proposals.length ? "proposals" : "threads") : "threads";
  const itemsOf = (r: ReviewDto | null): Item[] => (mode === "proposals" ? inOrder(r?.proposals ?? []) : inOrder(r?.threads ?? []));
  const items = () => itemsOf(actions.model().review);
  const after = (list: Item[]) => list.find((i) => i.from !== null && i.from >= pos) ?? list[0] ?? null;
  let current: Item | null = mode === "proposals" ? proposal ?? after(items()) : thread ?? after(items());
  /** Where the last item shown was, to go on from there once it is decided. */
  let at = current?.from ?? pos;
  const body = h("div", { class: "av" });
  let busy = false;

  const button = (label: string, keys: string | null, f: () => void, disabled = false) => {
    const b = h("button", { text: label, title: keys ?? label });
    if (keys) b.setAttribute("aria-keyshortcuts", keys.replace(/\s/g, ""));
    b.toggleAttribute("disabled", disabled);
    b.addEventListener("click", f);
    return b;
  };

  const render = () => {
    const { path, review, text: doc, me } = actions.model();
    const all = itemsOf(review);
    body.replaceChildren();
    const other = mode === "proposals" ? "threads" : "proposals";
    const switchButton = button(`Read ${other}`, "Alt+T", () => switchMode());
    if (!current || !path) {
      const none = h("div", { class: "av-text", tabindex: "0", text: `No ${mode} ${mode === "proposals" ? "left " : ""}in ${path ? docName(path) : "this document"}. Alt+T reads the ${other}; Esc goes back to the text.` });
      body.append(none, h("div", { class: "modal-actions av-actions" }, switchButton, button("Back to the text", "Escape", () => closeModal(host))));
      none.focus();
      return;
    }
    const index = Math.max(0, all.findIndex((q) => q.id === current!.id));
    let reading: ProposalReading;
    let buttons: HTMLElement[];
    if (mode === "proposals") {
      const p = current as ProposalDto;
      const around =
        doc && p.from !== null && p.to !== null
          ? contextLine(Math.min(p.from, doc.length), Math.min(Math.max(p.from, p.to), doc.length), (x) => doc.lineAt(x), (f, t) => doc.sliceString(f, t))
          : null;
      reading = proposalReading(p, index, all.length, authorLabel(p.author, me), around);
      buttons = [
        button(p.likelyPlace ? "Accept here…" : "Accept", "Alt+Enter", () => void decide("accept"), p.state !== "pending" && !p.likelyPlace),
        button("Reject", "Alt+Backspace", () => void decide("reject")),
      ];
    } else {
      const t = current as ThreadDto;
      reading = threadReading(t, index, all.length, (c) => authorLabel(c.author, me), (iso) => age(iso));
      buttons = [button("Reply…", null, () => replyTo(t)), button(t.status === "open" ? "Resolve" : "Reopen", null, () => void resolve(t))];
    }
    const heading = h("h3", { class: "av-heading", id: "av-heading", text: reading.heading });
    const text = h(
      "div",
      { class: "av-text", tabindex: "0", role: "document", "aria-labelledby": "av-heading" },
      heading,
      ...reading.lines.map((l) => h("p", { text: l })),
    );
    body.append(
      text,
      h(
        "div",
        { class: "modal-actions av-actions" },
        ...buttons,
        button("Previous", "Alt+[", () => move(-1)),
        button("Next", "Alt+]", () => move(1)),
        switchButton,
        button("Back to the text", "Escape", () => closeModal(host)),
      ),
      h("p", {
        class: "av-keys",
        text:
          mode === "proposals"
            ? "Alt+Enter accept · Alt+Backspace reject · Alt+] next · Alt+[ previous · Ctrl+Z undo · Alt+T threads · Esc back to the text"
            : "Alt+] next · Alt+[ previous · Alt+T proposals · Esc back to the text",
      }),
    );
    text.focus();
  };

  /** Show `item` here and in the text (marked, scrolled to), the focus staying in the view. */
  const show = (item: Item | null) => {
    current = item;
    if (item && item.from !== null) {
      at = item.from;
      if (mode === "proposals") actions.reveal(item as ProposalDto);
      else actions.select(item.from, item.to ?? item.from);
    }
    render();
  };

  const move = (dir: 1 | -1) => {
    const all = items();
    if (!all.length) return show(null);
    const i = current ? all.findIndex((x) => x.id === current!.id) : -1;
    show(all[i < 0 ? 0 : (i + dir + all.length) % all.length]);
  };

  const switchMode = () => {
    mode = mode === "proposals" ? "threads" : "proposals";
    show(after(items()));
  };

  /** After a decision or an undo: the item now at or after where the last one was. */
  const goOn = () => {
    const all = items();
    show(all.find((p) => p.from !== null && p.from >= at) ?? all[0] ?? null);
  };

  const decide = async (kind: "accept" | "reject" | "undo") => {
    if (busy || (kind !== "undo" && mode !== "proposals")) return;
    const p = current;
    if (kind !== "undo" && !p) return;
    busy = true;
    try {
      if (kind === "accept") await actions.accept(p!.id);
      else if (kind === "reject") await actions.reject(p!.id);
      else await actions.undo();
    } finally {
      busy = false;
    }
    // A question (hidden characters) may have taken the dialog's place.
    if (body.isConnected) goOn();
  };

  const resolve = async (t: ThreadDto) => {
    if (!actions.model().path || busy) return;
    busy = true;
    const resolving = t.status === "open";
    try {
      const answer = await actions.setResolved(t.id, resolving);
      if (answer) {
        actions.show(answer);
        say(resolving ? "Thread resolved." : "Thread reopened.");
      }
    } finally {
      busy = false;
    }
    if (body.isConnected) show(items().find((x) => x.id === t.id) ?? null);
  };

  /** Reply in the Threads panel: the view closes, the thread's reply box has the focus. */
  const replyTo = (t: ThreadDto) => {
    closeModal(host);
    actions.focusThread(t.id);
    document.querySelector<HTMLElement>(`.thread[data-thread="${CSS.escape(t.id)}"] .reply-box`)?.focus();
  };

  body.addEventListener("keydown", (e) => {
    if (e.altKey && !e.ctrlKey && e.key === "Enter") void decide("accept");
    else if (e.altKey && !e.ctrlKey && e.key === "Backspace") void decide("reject");
    else if (e.altKey && !e.ctrlKey && (e.key === "]" || e.code === "BracketRight")) move(1);
    else if (e.altKey && !e.ctrlKey && (e.key === "[" || e.code === "BracketLeft")) move(-1);
    else if (e.altKey && !e.ctrlKey && (e.key.toLowerCase() === "t" || e.code === "KeyT")) switchMode();
    else if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "z") void decide("undo");
    else return;
    e.preventDefault();
    e.stopPropagation();
  });

  modal(host, "Review, read as words", body, []);
  show(current);
}
