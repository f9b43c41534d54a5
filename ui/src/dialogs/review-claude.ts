// Claude as an editor: "Review with Claude…" (Ctrl+Alt+K) on the selection or
// the whole document, with an optional instruction (its draft kept when the
// dialog closes), and "Ask Claude" in a thread (its button, or a reply that
// starts with @claude). Each runs as a task chip that says which section
// Claude is reading and what landed so far; comments and proposals appear in
// the text one by one as they arrive while the writer keeps typing. Cancel
// keeps what landed.
import type { App } from "../main";
import type { ReviewOut } from "../bindings/ReviewOut";
import type { ReviewProgress } from "../bindings/ReviewProgress";
import { errorMessage, isErrorInfo } from "../backend";
import { h } from "../dom";
import { refreshReview } from "../edit-sync";
import { errorText, newJobId, plural, snippet } from "../model/jobs";
import { startInOrder } from "../producers";
import { progressLabel, reviewResult, skippedDetails } from "../model/review-words";
import type { Task } from "../tasks";
import { utf16, wordCount } from "../model/util";
import { closeModal, modal, toast } from "../views/modal";
import { showPanel } from "../views/panel";

/** The instruction typed but not sent (the dialog was closed): the next opening shows it. */
let draft = "";

/** The dialog: what Claude will read (the selection, or the whole document) and what to look for. */
export function reviewWithClaude(app: App) {
  const view = app.view;
  const path = app.active;
  if (!view || !path) {
    toast("Open a document first.");
    return;
  }
  const sel = view.state.selection.main;
  const whole = sel.empty;
  const text = whole ? view.state.doc.toString() : view.state.sliceDoc(sel.from, sel.to);
  if (!text.trim()) {
    toast("There is no text to review yet.");
    return;
  }
  const area = h("textarea", {
    class: "review-instruction",
    rows: "3",
    placeholder: "What should Claude look for? (optional: e.g. check the argument; tighten for a general reader)",
    "aria-label": "What Claude should look for",
  });
  area.value = draft;
  const go = h("button", { class: "btn-review-run", text: "Review", "data-action": "Review" });
  const cancel = h("button", { class: "modal-cancel", text: "Cancel" });
  const body = h(
    "div",
    { class: "ask" },
    h("div", {
      class: "ask-label",
      text: whole ? `The whole document: ${plural(wordCount(text), "word")}` : `Selected: ${plural(wordCount(text), "word")}`,
    }),
    whole ? h("div", { class: "ask-hint", text: "Select text first to review only that." }) : h("blockquote", { class: "ask-quote", text: snippet(text, 80) }),
    area,
    h("div", {
      class: "ask-hint",
      text: "Claude comments and proposes edits; nothing changes until you accept. They appear as they arrive — keep writing meanwhile. Enter starts · Shift+Enter for a new line · Esc closes.",
    }),
    h("div", { class: "modal-actions" }, go, cancel),
  );
  const submit = () => {
    const instruction = area.value.trim() || null;
    const now = app.active === path && app.view ? app.view.state.selection.main : sel;
    const range = whole ? null : now.empty ? sel : now;
    draft = "";
    closeModal(app);
    void runReview(app, path, range ? range.from : null, range ? range.to : null, instruction);
  };
  area.addEventListener("input", () => (draft = area.value));
  area.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.altKey && !e.isComposing) {
      e.preventDefault();
      submit();
    }
  });
  go.addEventListener("click", submit);
  cancel.addEventListener("click", () => closeModal(app));
  modal(app, "Review with Claude", body, []);
  area.focus();
}

/**
 * Start a pass as a chip, in order with the writer's edits (the core must hold
 * every edit made before it takes its copy), then wait for its end.
 */
async function runTurn(app: App, task: Task, start: (job: string) => Promise<ReviewOut>): Promise<ReviewOut | { error: unknown } | null> {
  const { run } = await startInOrder(app, task, newJobId("review"), start);
  if (!run) return null;
  try {
    return await run;
  } catch (error) {
    return { error };
  } finally {
    task.job = null;
  }
}

function finishTask(app: App, task: Task, path: string, r: ReviewOut | { error: unknown } | null, thread: boolean) {
  const where = app.active === path ? "" : ` (in ${path})`;
  if (!r) {
    app.tasks.finish(task, "Cancelled; Claude was not asked.", "info");
    return;
  }
  if ("error" in r) {
    const e = r.error;
    const msg = isErrorInfo(e) ? errorText(e, "claude") : errorMessage(e);
    app.tasks.finish(task, msg + where, isErrorInfo(e) && e.code === "cancelled" ? "info" : "error");
    return;
  }
  const landed = r.threads.length + r.proposals.length + (r.reply ? 1 : 0);
  const end = r.stopped ? (r.stopped.code === "cancelled" ? "info" : "warn") : r.skipped.length ? "warn" : landed ? "ok" : "info";
  app.tasks.finish(task, reviewResult(r, thread) + where, end);
  const details = skippedDetails(r);
  if (details) task.el.title = details;
  app.lastReview = r;
}

/** Review `from`..`to` of `path` (all of it when null) with Claude. */
export async function runReview(app: App, path: string, from: number | null, to: number | null, instruction: string | null) {
  const task = app.tasks.start("review", path, "Claude is reviewing…");
  if (instruction) task.el.title = `“${snippet(instruction, 120)}”`;
  const r = await runTurn(app, task, (job) =>
    app.backend.reviewDocument(path, from === null ? null : utf16(from), to === null ? null : utf16(to), instruction, job),
  );
  // An open document's review carries its tree entry; a closed one's comes from the watcher.
  if (app.docs.has(path)) await refreshReview(app, path);
  finishTask(app, task, path, r, false);
  if (r && !("error" in r) && (r.threads.length || r.proposals.length) && app.active === path) {
    showPanel(app, r.proposals.length ? "review" : "threads");
  }
}

/** Ask Claude in `thread` of `path`; `instruction` is what the writer asked beyond the thread. */
export async function askInThread(app: App, path: string, thread: string, instruction: string | null) {
  if (app.tasks.running().some((t) => t.kind === "review" && t.el.dataset.thread === thread)) {
    toast("Claude is already answering in this thread.");
    return;
  }
  const task = app.tasks.start("review", path, "Claude is answering in the thread…");
  task.el.dataset.thread = thread;
  const r = await runTurn(app, task, (job) => app.backend.askClaude(path, thread, instruction, job));
  if (app.docs.has(path)) await refreshReview(app, path);
  finishTask(app, task, path, r, true);
}

const refreshing = new Map<string, number>();

/** A running pass moved on: its chip says so; what landed is shown (fetched in order with the edits). */
export function onReviewProgress(app: App, p: ReviewProgress) {
  const task = app.tasks.byJob(p.job);
  if (task && !task.cancelled) task.label.textContent = progressLabel(p, !!task.el.dataset.thread);
  if (!p.landed || p.landed.kind === "skipped" || !app.docs.has(p.path)) return;
  // Items can come fast: one fetch for a burst.
  window.clearTimeout(refreshing.get(p.path));
  refreshing.set(
    p.path,
    window.setTimeout(() => {
      refreshing.delete(p.path);
      void refreshReview(app, p.path);
    }, 120),
  );
}
