// The Threads panel: comment threads on the text (reply, resolve/reopen, the
// reply drafts kept across re-renders), re-attached threads (keep here /
// detach), threads no longer in the text, and a new thread on the selection.
// The panel is drawn from a plain model with the actions its threads have
// (App.showThreadsPanel builds both; views/panel.ts says when); it keeps what
// only it shows: the reply drafts, the cards built so far. A new thread on the
// selection and a thread's text selected need only the editor and its
// document (`ShownEditor`), a thread's card shown from the text only the
// panel's tab (`PanelHost`); App is each.
import { EditorView } from "@codemirror/view";
import type { IdentityDto } from "../bindings/IdentityDto";
import type { ReviewDto } from "../bindings/ReviewDto";
import type { ThreadDto } from "../bindings/ThreadDto";
import { $, h } from "../dom";
import { setMarkdown } from "../markdown";
import { age, authorLabel } from "../model/util";
import { openCommentBox } from "../extensions/comment-box";
import { mentionsClaude } from "../model/review-words";
import { LazyList } from "./lazy-list";
import { toast } from "./modal";
import { say } from "./live";
import { showPanel, type PanelHost } from "./panel";
import type { ShownEditor } from "./review-panel";

/** What the Threads panel shows: the active document's threads, and who the writer is. */
export interface ThreadsPanelModel {
  /** The active document's review as its editor holds it; null: no document shown (nothing drawn). */
  review: ReviewDto | null;
  /** Who the writer is: their comments are "You"'s (`authorLabel`). */
  me: IdentityDto | null;
}

/** A change to a thread as the core answered it: the document's new review. */
export interface ThreadAnswer {
  path: string;
  review: ReviewDto;
}

/** What the panel's threads do, on the document shown. */
export interface ThreadActions {
  /** "+ Comment on selection": the comment box under the selected text (`newThread`). */
  newThread(): void;
  /** A link in a comment, clicked. */
  openLink(href: string): void;
  /** Select a thread's text in the editor, scrolled to (a click on its card). */
  select(from: number, to: number): void;
  /** Claude answers in thread `id` of `path` (else of the document shown); `question`: what the writer asked, null for none. */
  askClaude(id: string, question: string | null, path?: string): void;
  /**
   * Reply in a thread, resolve or reopen it, keep a re-attached one here, detach
   * one: the core's answer, to `show`; null with no document shown, or when the
   * core failed (the writer was told).
   */
  reply(id: string, text: string): Promise<ThreadAnswer | null>;
  setResolved(id: string, resolved: boolean): Promise<ThreadAnswer | null>;
  keepHere(id: string): Promise<ThreadAnswer | null>;
  detach(id: string): Promise<ThreadAnswer | null>;
  /** Show the core's answer: the review in its document's editor, this panel drawn anew when that document is shown. */
  show(answer: ThreadAnswer): void;
}

/** The threads of the active document, keeping the focus and caret of a reply being typed. */
export function renderThreadsPanel(model: ThreadsPanelModel, actions: ThreadActions) {
  const body = $(".threads-body");
  const focused = document.activeElement as HTMLTextAreaElement | null;
  const focusedThread = focused?.classList.contains("reply-box") ? focused.closest<HTMLElement>(".thread")?.dataset.thread : undefined;
  const caret = focused?.selectionStart ?? 0;
  body.replaceChildren();
  const { review } = model;
  const anchored = review?.threads.filter((t) => t.from !== null) ?? [];
  const orphaned = review?.threads.filter((t) => t.from === null) ?? [];
  const all = [...anchored, ...orphaned];
  if (review) {
    const newBtn = h("button", { class: "btn-new-thread", text: "+ Comment on selection", title: "New thread on the selected text (Ctrl+Alt+M)" });
    newBtn.addEventListener("click", () => actions.newThread());
    body.append(newBtn);
    if (!review.threads.length) body.append(h("div", { class: "panel-empty", text: "No threads. Select text and comment on it." }));
  }
  // The cards are built as the panel is scrolled to them (LazyList); the
  // orphaned ones after a heading.
  threads.show(
    body,
    all.map((t) => t.id),
    (i) => {
      if (i === anchored.length) {
        body.append(h("h3", { class: "orphaned-head", text: `Not in the text (${orphaned.length}) — their text is gone, or they were detached` }));
      }
      body.append(threadCard(model.me, actions, all[i]));
    },
  );
  if (focusedThread && threads.ensure(focusedThread)) {
    queueMicrotask(() => {
      const box = body.querySelector<HTMLTextAreaElement>(`.thread[data-thread="${CSS.escape(focusedThread)}"] .reply-box`);
      box?.focus();
      box?.setSelectionRange(caret, caret);
    });
  }
}

/** The threads' cards, built as they are scrolled to. */
const threads = new LazyList();

/** Reply drafts by thread: a re-render (e.g. another writer's change) never loses one. */
const drafts = new Map<string, string>();

/** One thread: the quoted text, the comments (Markdown), reply and resolve/reopen. */
function threadCard(me: IdentityDto | null, actions: ThreadActions, t: ThreadDto): HTMLElement {
  const kind = t.from === null ? " thread-orphaned" : t.relocated ? " thread-relocated" : "";
  const card = h("article", { class: `thread thread-${t.status}${kind}`, "data-thread": t.id });
  card.append(h("blockquote", { class: "thread-quote", text: t.text }));
  if (t.detached) card.append(h("div", { class: "thread-note", text: "Detached from its text." }));
  else if (t.from === null) card.append(h("div", { class: "thread-note", text: "Its text is no longer in the document." }));
  if (t.relocated) card.append(relocatedNote(actions, t));
  for (const c of t.comments) {
    const body = h("div", { class: "comment-body" });
    setMarkdown(body, c.body, (href) => actions.openLink(href));
    card.append(h("div", { class: "comment" }, h("div", { class: "comment-meta", text: `${authorLabel(c.author, me)} · ${age(c.createdAt)}` }), body));
  }
  const reply = h("textarea", { class: "reply-box", rows: "2", placeholder: "Reply… (Ctrl+Enter; start with @claude to ask Claude)" });
  reply.value = drafts.get(t.id) ?? "";
  reply.addEventListener("input", () => drafts.set(t.id, reply.value));
  const send = h("button", { class: "btn-reply", text: "Reply" });
  const toggle = h("button", { class: "btn-resolve", text: t.status === "open" ? "Resolve" : "Reopen" });
  const askBtn = h("button", {
    class: "btn-ask-thread",
    text: "Ask Claude",
    title: "Claude answers in this thread (and may propose edits of its text). Or start a reply with @claude.",
  });
  askBtn.toggleAttribute("disabled", t.from === null);
  askBtn.addEventListener("click", () => actions.askClaude(t.id, null));
  const doReply = () => {
    const text = reply.value;
    if (!text.trim()) return;
    const ask = mentionsClaude(text);
    void actions.reply(t.id, text).then((answer) => {
      if (!answer) return;
      // The draft goes before the panel is drawn anew (which puts drafts back).
      drafts.delete(t.id);
      actions.show(answer);
      refocus(t.id, ".reply-box");
      say("Reply sent.");
      // A reply that starts with @claude asks Claude, with the rest as the question.
      if (ask !== null) actions.askClaude(t.id, ask || null, answer.path);
    });
  };
  send.addEventListener("click", doReply);
  reply.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "Enter") doReply();
  });
  toggle.addEventListener("click", () => {
    const resolving = t.status === "open";
    void actions.setResolved(t.id, resolving).then((answer) => {
      if (!answer) return;
      actions.show(answer);
      // The button was re-rendered: the keyboard stays on this thread's (now Reopen / Resolve), never on the page.
      refocus(t.id, ".btn-resolve");
      say(resolving ? "Thread resolved." : "Thread reopened.");
    });
  });
  card.append(reply, h("div", { class: "thread-actions" }, send, askBtn, toggle));
  card.addEventListener("click", (e) => {
    if ((e.target as HTMLElement).closest("button, textarea, a")) return;
    if (t.from !== null) actions.select(t.from, t.to ?? t.from);
  });
  return card;
}

/** A re-attached thread: what changed, and "keep here" / "detach". */
function relocatedNote(actions: ThreadActions, t: ThreadDto): HTMLElement {
  const keep = h("button", { class: "btn-keep-here", text: "Keep here", title: "This is the text the comment is about: attach it here for good" });
  const detach = h("button", { class: "btn-detach", text: "Detach", title: "Not the right text: list the thread without placing it" });
  const settle = (answer: ThreadAnswer | null) => answer && actions.show(answer);
  keep.addEventListener("click", () => void actions.keepHere(t.id).then(settle));
  detach.addEventListener("click", () => void actions.detach(t.id).then(settle));
  return h(
    "div",
    { class: "thread-relocated-note" },
    h("div", { text: "Its text changed since the comment (only its line breaks and spacing): re-attached here." }),
    h("div", { class: "thread-was", text: `Was: ${t.anchoredText}` }),
    h("div", { class: "thread-actions" }, keep, detach),
  );
}

/** After a re-render, the focus on `selector` in thread `id`'s card (when the focus was lost with the old one). */
function refocus(id: string, selector: string) {
  if (document.activeElement && document.activeElement !== document.body) return;
  threads.ensure(id);
  document.querySelector<HTMLElement>(`.thread[data-thread="${CSS.escape(id)}"] ${selector}`)?.focus();
}

/** Show a thread's card (a click on its text in the editor). */
export function focusThread(panel: PanelHost, id: string) {
  showPanel(panel, "threads");
  threads.ensure(id);
  const el = document.querySelector(`.thread[data-thread="${CSS.escape(id)}"]`);
  el?.scrollIntoView({ block: "nearest" });
  el?.classList.add("flash");
  window.setTimeout(() => el?.classList.remove("flash"), 900);
}

/** Comment on the selected text (Ctrl+Alt+M): the comment box opens under it, inline. */
export function newThread(editor: ShownEditor) {
  if (!editor.view || !editor.active) return;
  const sel = editor.view.state.selection.main;
  if (sel.empty) {
    toast("Select the text to comment on first.");
    return;
  }
  editor.view.dispatch({ effects: openCommentBox.of({ from: sel.from, to: sel.to }) });
}

/** Select `from..to` in the editor, scrolled to the middle (a thread's card clicked). */
export function selectInText(editor: ShownEditor, from: number, to: number) {
  editor.view?.dispatch({ selection: { anchor: from, head: to }, effects: EditorView.scrollIntoView(from, { y: "center" }) });
}
