// Ask Claude… (Ctrl+K): the instruction dialog on the selection (its draft kept
// when closed), the run as a task chip, and showing the first proposal filed.
import type { App } from "../main";
import { h } from "../dom";
import { askResult, errorText, plural, snippet } from "../model/jobs";
import { afterFiling, runProducer } from "../producers";
import { utf16, wordCount } from "../model/util";
import { closeModal, modal, modalOpen, toast } from "../views/modal";
import { showPanel } from "../views/panel";
import { ensureCard, markFocused, reveal } from "../views/review-panel";

/** The instruction typed but not sent (the dialog was closed): the next opening shows it. */
let draft = "";

/** Open the dialog for the selected text (Ctrl+K); a toast says what is missing. */
export function askClaude(app: App) {
  const view = app.view;
  const path = app.active;
  if (!view || !path) {
    toast("Open a document first.");
    return;
  }
  const sel = view.state.selection.main;
  if (sel.empty) {
    toast("Select the text Claude should work on first, then Ask Claude… (Ctrl+K).");
    return;
  }
  const quote = view.state.sliceDoc(sel.from, sel.to);
  const area = h("textarea", {
    class: "ask-instruction",
    rows: "3",
    placeholder: "What should Claude do? (e.g. Tighten this; keep the voice)",
    "aria-label": "Instruction for Claude",
  });
  area.value = draft;
  const error = h("div", { class: "ask-error", role: "alert" });
  error.hidden = true;
  const go = h("button", { class: "btn-ask-run", text: "Ask Claude", "data-action": "Ask" });
  const cancel = h("button", { class: "modal-cancel", text: "Cancel" });
  const words = wordCount(quote);
  const body = h(
    "div",
    { class: "ask" },
    h("div", { class: "ask-label", text: `Selected: ${plural(words, "word")}` }),
    h("blockquote", { class: "ask-quote", text: snippet(quote, 80) }),
    area,
    h("div", { class: "ask-hint", text: "Enter (or Ctrl+Enter) asks · Shift+Enter for a new line · Esc closes. You can keep writing while Claude works." }),
    error,
    h("div", { class: "modal-actions" }, go, cancel),
  );
  const submit = () => {
    const instruction = area.value.trim();
    if (!instruction) {
      error.textContent = "Write what Claude should do with the selection.";
      error.hidden = false;
      area.focus();
      return;
    }
    // The view's selection is mapped through any change the core made meanwhile (a reload).
    const now = app.active === path && app.view ? app.view.state.selection.main : sel;
    const range = now.empty ? sel : now;
    draft = "";
    closeModal(app);
    void runAsk(app, path, range.from, range.to, instruction);
  };
  area.addEventListener("input", () => {
    draft = area.value;
    error.hidden = true;
  });
  area.addEventListener("keydown", (e) => {
    // Enter asks, and so does Ctrl+Enter (Cmd+Enter), as in the comment boxes.
    if (e.key === "Enter" && !e.shiftKey && !e.altKey && !e.isComposing) {
      e.preventDefault();
      submit();
    }
  });
  go.addEventListener("click", submit);
  cancel.addEventListener("click", () => closeModal(app));
  modal(app, "Ask Claude", body, []);
  area.focus();
}

/** Run Claude on `from..to` with the instruction, as a task chip that says how it ended. */
async function runAsk(app: App, path: string, from: number, to: number, instruction: string) {
  const task = app.tasks.start("ask", path, "Asking Claude…");
  task.el.title = `“${snippet(instruction, 120)}”`;
  const docAtStart = app.active === path ? app.view?.state.doc : undefined;
  const o = await runProducer(app, task, "claude", utf16(from), utf16(to), instruction);
  const where = () => (app.active === path ? "" : ` (in ${path})`);
  if ("filing" in o) {
    app.lastFiling = o.filing;
    await afterFiling(app, path);
    app.tasks.finish(task, askResult(o.filing) + where(), o.filing.filed > 0 ? "ok" : "info");
    if (o.filing.filed > 0) revealTurn(app, path, o.filing.turnId, docAtStart);
  } else if ("error" in o) {
    app.tasks.finish(task, errorText(o.error, "claude") + where(), o.error.code === "cancelled" ? "info" : "error");
  } else {
    app.tasks.finish(task, "Cancelled; Claude was not asked.", "info");
  }
}

/**
 * Select the first proposal of a turn just filed: its card in the panel and,
 * when the writer has not edited since asking (and is not typing elsewhere),
 * the proposal in the text.
 */
function revealTurn(app: App, path: string, turnId: string, docAtStart: unknown) {
  const review = app.review();
  if (app.active !== path || !app.view || !review) return;
  const first = review.proposals
    .filter((p) => p.turnId === turnId && p.from !== null)
    .sort((a, b) => a.from! - b.from!)[0];
  if (!first) return;
  showPanel(app, "review");
  const focus = document.activeElement;
  const free = !focus || focus === document.body || app.view.dom.contains(focus) || !!focus.closest(".jobs");
  if (free && !modalOpen() && app.view.state.doc === docAtStart) reveal(app, first);
  else markFocused(first.id);
  ensureCard(first.id)?.scrollIntoView({ block: "nearest" });
}
