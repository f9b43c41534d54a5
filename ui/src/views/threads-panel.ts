// The Threads panel: comment threads on the text (reply, resolve/reopen, the
// reply drafts kept across re-renders), re-attached threads (keep here /
// detach), threads no longer in the text, and a new thread on the selection.
import { EditorView } from "@codemirror/view";
import type { App } from "../main";
import type { ReviewDto } from "../bindings/ReviewDto";
import type { ThreadDto } from "../bindings/ThreadDto";
import { $, h } from "../dom";
import { showReview } from "../edit-sync";
import { setMarkdown } from "../markdown";
import { age, authorLabel, utf16 } from "../model/util";
import { openCommentBox } from "../extensions/comment-box";
import { askInThread } from "../dialogs/review-claude";
import { mentionsClaude } from "../model/review-words";
import { LazyList } from "./lazy-list";
import { toast } from "./modal";
import { say } from "./live";
import { docName } from "../announce";
import { errorMessage } from "../backend";
import { showPanel } from "./panel";

/** The threads of the active document, keeping the focus and caret of a reply being typed. */
export function renderThreadsPanel(app: App) {
  const body = $(".threads-body");
  const focused = document.activeElement as HTMLTextAreaElement | null;
  const focusedThread = focused?.classList.contains("reply-box") ? focused.closest<HTMLElement>(".thread")?.dataset.thread : undefined;
  const caret = focused?.selectionStart ?? 0;
  body.replaceChildren();
  const review = app.review();
  const anchored = review?.threads.filter((t) => t.from !== null) ?? [];
  const orphaned = review?.threads.filter((t) => t.from === null) ?? [];
  const all = [...anchored, ...orphaned];
  if (review) {
    const newBtn = h("button", { class: "btn-new-thread", text: "+ Comment on selection", title: "New thread on the selected text (Ctrl+Alt+M)" });
    newBtn.addEventListener("click", () => newThread(app));
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
      body.append(threadCard(app, all[i]));
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
function threadCard(app: App, t: ThreadDto): HTMLElement {
  const kind = t.from === null ? " thread-orphaned" : t.relocated ? " thread-relocated" : "";
  const card = h("article", { class: `thread thread-${t.status}${kind}`, "data-thread": t.id });
  card.append(h("blockquote", { class: "thread-quote", text: t.text }));
  if (t.detached) card.append(h("div", { class: "thread-note", text: "Detached from its text." }));
  else if (t.from === null) card.append(h("div", { class: "thread-note", text: "Its text is no longer in the document." }));
  if (t.relocated) card.append(relocatedNote(app, t));
  for (const c of t.comments) {
    const body = h("div", { class: "comment-body" });
    setMarkdown(body, c.body, (href) => void app.backend.openLink(href).catch((e) => toast(errorMessage(e), "error")));
    card.append(h("div", { class: "comment" }, h("div", { class: "comment-meta", text: `${authorLabel(c.author, app.me)} · ${age(c.createdAt)}` }), body));
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
  askBtn.addEventListener("click", () => {
    const path = app.active;
    if (path) void askInThread(app, path, t.id, null);
  });
  const doReply = () => {
    const text = reply.value;
    if (!text.trim() || !app.active) return;
    const path = app.active;
    const ask = mentionsClaude(text);
    void app.run(async () => {
      const review = await app.backend.reply(path, t.id, text);
      drafts.delete(t.id);
      showReview(app, path, review);
      refocus(t.id, ".reply-box");
      say("Reply sent.");
      // A reply that starts with @claude asks Claude, with the rest as the question.
      if (ask !== null) void askInThread(app, path, t.id, ask || null);
    });
  };
  send.addEventListener("click", doReply);
  reply.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "Enter") doReply();
  });
  toggle.addEventListener("click", () => {
    const path = app.active;
    if (!path) return;
    const resolving = t.status === "open";
    void app.run(async () => {
      showReview(app, path, await app.backend.setThreadResolved(path, t.id, resolving));
      // The button was re-rendered: the keyboard stays on this thread's (now Reopen / Resolve), never on the page.
      refocus(t.id, ".btn-resolve");
      say(resolving ? "Thread resolved." : "Thread reopened.");
    });
  });
  card.append(reply, h("div", { class: "thread-actions" }, send, askBtn, toggle));
  card.addEventListener("click", (e) => {
    if ((e.target as HTMLElement).closest("button, textarea, a")) return;
    if (app.view && t.from !== null) {
      app.view.dispatch({ selection: { anchor: t.from, head: t.to ?? t.from }, effects: EditorView.scrollIntoView(t.from, { y: "center" }) });
    }
  });
  return card;
}

/** A re-attached thread: what changed, and "keep here" / "detach". */
function relocatedNote(app: App, t: ThreadDto): HTMLElement {
  const keep = h("button", { class: "btn-keep-here", text: "Keep here", title: "This is the text the comment is about: attach it here for good" });
  const detach = h("button", { class: "btn-detach", text: "Detach", title: "Not the right text: list the thread without placing it" });
  const act = (call: (path: string) => Promise<ReviewDto>) => () => {
    const path = app.active;
    if (!path) return;
    void app.run(async () => showReview(app, path, await call(path)));
  };
  keep.addEventListener("click", act((path) => app.backend.keepThreadHere(path, t.id)));
  detach.addEventListener("click", act((path) => app.backend.detachThread(path, t.id)));
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
export function focusThread(app: App, id: string) {
  showPanel(app, "threads");
  threads.ensure(id);
  const el = document.querySelector(`.thread[data-thread="${CSS.escape(id)}"]`);
  el?.scrollIntoView({ block: "nearest" });
  el?.classList.add("flash");
  window.setTimeout(() => el?.classList.remove("flash"), 900);
}

/** Comment on the selected text (Ctrl+Alt+M): the comment box opens under it, inline. */
export function newThread(app: App) {
  if (!app.view || !app.active) return;
  const sel = app.view.state.selection.main;
  if (sel.empty) {
    toast("Select the text to comment on first.");
    return;
  }
  app.view.dispatch({ effects: openCommentBox.of({ from: sel.from, to: sel.to }) });
}

/** File a new thread on `from..to` of `path` (the comment box's send); true when filed. */
export async function fileThread(app: App, path: string, from: number, to: number, body: string): Promise<boolean> {
  const review = await app.run(() => app.backend.newThread(path, utf16(from), utf16(to), body));
  if (!review) return false;
  showReview(app, path, review);
  showPanel(app, "threads");
  say(`Comment added in ${docName(path)}.`);
  return true;
}
