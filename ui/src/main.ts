// Cowriting Desktop's UI: file tree, tabs, the editor, the review panel, the
// status bar, the command palette. All state of record lives in the core; this
// file keeps the view in step with it.
import "./styles.css";
import { EditorState } from "@codemirror/state";
import { EditorView, type KeyBinding } from "@codemirror/view";
import { openSearchPanel } from "@codemirror/search";
import type { Applied } from "./bindings/Applied";
import type { Notice } from "./bindings/Notice";
import type { ProposalDto } from "./bindings/ProposalDto";
import type { ReviewDto } from "./bindings/ReviewDto";
import type { SettingsDto } from "./bindings/SettingsDto";
import type { TextChange } from "./bindings/TextChange";
import type { WorkspaceInfo } from "./bindings/WorkspaceInfo";
import { errorMessage, tauriBackend, type Backend } from "./backend";
import { createState, fromCore, readOnly, reviewOf, setReview, staleCountOf, type EditorHandlers } from "./editor";
import {
  askResult,
  errorText,
  nextEnabled,
  parseTimeout,
  plural,
  snippet,
  type FilingSummary,
} from "./jobs";
import { wordCount } from "./util";
import { $, h } from "./dom";
import { TaskChips } from "./tasks";
import { afterFiling, checkDocument, onJobProgress, runProducer } from "./producers";
import { ask, closeModal, modal, modalOpen, toast } from "./views/modal";
import { dismissRestoreNotice, showRestored } from "./views/restore-notice";
import { renderPanel, showPanel } from "./views/panel";
import { gotoProposal, proposalAtCursor, reveal } from "./views/review-panel";
import { focusThread, newThread } from "./views/threads-panel";
import { renderBanner, renderDirty, renderStatus, toggleTint, updateWordCount } from "./views/status";
import { renderTabs } from "./views/tabs";
import { refreshTree, renderNoWorkspace, renderRecent, renderTree } from "./views/tree";

/** Whether this is a test build (`COWRITING_TEST_HOOKS=1`, or vitest): see `vite.config.ts`. */
declare const __TEST_HOOKS__: boolean;

export interface OpenDoc {
  path: string;
  state: EditorState;
  /** The core's version of the text the view shows (after all sent edits). */
  version: number;
  dirty: boolean;
  saving: boolean;
  conflict: boolean;
}



interface Command {
  id: string;
  title: string;
  keys: string;
  run: () => void | Promise<void>;
}

const LAYOUT = `
<div class="app">
  <aside class="sidebar">
    <div class="ws-header"><span class="ws-name"></span><button class="ws-open" title="Open folder (Ctrl+O)">Open…</button></div>
    <div class="recent"></div>
    <nav class="tree" aria-label="Documents"></nav>
  </aside>
  <main class="main">
    <div class="tabs" role="tablist"></div>
    <div class="restore-notice" role="status" hidden></div>
    <div class="banner" hidden></div>
    <div class="editor-host"><div class="empty">Open a document from the list on the left.</div></div>
    <div class="jobs" role="status" aria-live="polite"></div>
    <footer class="statusbar">
      <span class="st-branch"></span><span class="st-save"></span><span class="st-words"></span>
      <span class="st-spacer"></span>
      <span class="st-proposals"></span><span class="st-threads"></span>
      <button class="st-tint" title="Toggle Claude tint (Ctrl+Shift+A)">Claude tint</button>
      <button class="st-settings" title="Settings (Ctrl+,)" aria-label="Settings">⚙</button>
      <button class="st-palette" title="Command palette (Ctrl+Shift+P)">⌘</button>
    </footer>
  </main>
  <aside class="panel">
    <div class="panel-tabs" role="tablist">
      <button class="pt-review active" data-tab="review">Review</button>
      <button class="pt-threads" data-tab="threads">Threads</button>
    </div>
    <div class="panel-body review-body"></div>
    <div class="panel-body threads-body" hidden></div>
  </aside>
</div>
<div class="toast" hidden></div>
<div class="modal-root"></div>`;

export class App {
  docs = new Map<string, OpenDoc>();
  order: string[] = [];
  active: string | null = null;
  view: EditorView | null = null;
  ws: WorkspaceInfo | null = null;
  queue: Promise<unknown> = Promise.resolve();
  refreshTimer: number | undefined;
  tint = true;
  panelTab: "review" | "threads" = "review";
  focusedProposal: string | null = null;
  commands: Command[] = [];
  /** Reply drafts by thread: a re-render (e.g. another writer's change) never loses one. */
  drafts = new Map<string, string>();
  /** What the panel last showed, to skip re-rendering an unchanged review. */
  shownReview = "";
  shownStale = 0;
  lastOpenMs = 0;
  /** Producer runs by task id (running, or finished and still showing their result). */
  /** The producer runs' chips above the status bar. */
  tasks = new TaskChips(
    (job) => this.backend.cancelJob(job),
    () => this.view?.focus(),
  );
  lastFiling: FilingSummary | null = null;
  /** The Ask Claude… instruction typed but not sent (the dialog was closed). */
  askDraft = "";

  constructor(readonly backend: Backend) {}

  // ---- start -----------------------------------------------------------------

  async start() {
    document.body.innerHTML = LAYOUT;
    this.commands = this.buildCommands();
    this.wireChrome();
    await this.backend.onNotice((n) => void this.onNotice(n));
    await this.backend.onJobProgress((p) => onJobProgress(this, p));
    await this.backend.onWorkspaceOpened((w) => void this.setWorkspace(w));
    await this.backend.onCloseRequested((dirty) => this.confirmQuit(dirty));
    try {
      await this.setWorkspace(await this.backend.workspace());
    } catch {
      renderNoWorkspace(this);
    }
    // The end-to-end tests' hooks, in test builds only: in any other build
    // the branch is false at build time and Vite leaves the module out.
    if (__TEST_HOOKS__) (await import("./test-hooks")).installTestHooks(this);
    requestAnimationFrame(() => void this.backend.uiReady().catch(() => undefined));
  }

  async setWorkspace(w: WorkspaceInfo) {
    const switching = this.ws !== null && this.ws.root !== w.root;
    this.ws = w;
    if (switching) {
      for (const p of [...this.order]) this.dropTab(p);
      dismissRestoreNotice();
    }
    $(".ws-name").textContent = w.name;
    $(".ws-name").title = w.root;
    renderTree(this);
    renderStatus(this);
    const restored = await this.backend.restoredBackups().catch(() => null);
    if (restored) await showRestored(this, restored);
    const named = await this.backend.initialDocument().catch(() => null);
    if (named) await this.open(named);
    if (!this.active && w.documents.length) {
      const first = w.documents.find((d) => d.proposals > 0) ?? w.documents[0];
      await this.open(first.path);
    }
    void renderRecent(this);
  }

  wireChrome() {
    $(".ws-open").addEventListener("click", () => void this.openFolderDialog());
    $(".st-tint").addEventListener("click", () => toggleTint(this));
    $(".st-palette").addEventListener("click", () => this.openPalette());
    $(".st-settings").addEventListener("click", () => void this.openSettings());
    for (const b of Array.from(document.querySelectorAll<HTMLButtonElement>(".panel-tabs button"))) {
      b.addEventListener("click", () => showPanel(this, b.dataset.tab as "review" | "threads"));
    }
    window.addEventListener("keydown", (e) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.shiftKey && e.key.toLowerCase() === "p") {
        e.preventDefault();
        this.openPalette();
      } else if (mod && !e.shiftKey && e.key.toLowerCase() === "s") {
        e.preventDefault();
        void this.save();
      } else if (mod && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "q") {
        e.preventDefault();
        if (!modalOpen()) void this.requestQuit();
      } else if (mod && !e.shiftKey && e.key.toLowerCase() === "o") {
        e.preventDefault();
        void this.openFolderDialog();
      } else if (mod && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        if (!modalOpen()) this.askClaude();
      } else if (mod && e.key === ",") {
        e.preventDefault();
        if (!modalOpen()) void this.openSettings();
      } else if (e.key === "F7" && !mod && !e.shiftKey && !e.altKey) {
        e.preventDefault();
        if (!modalOpen()) void checkDocument(this);
      } else if (e.key === "Escape") {
        // Esc closes a dialog; with none open (and nothing else, like the
        // editor's selection, taking it) it cancels the newest running task —
        // unless the writer is in a text field of the panels.
        const target = e.target instanceof Element ? e.target : null;
        const inField = !!target?.closest("textarea, input, select") && !target.closest(".cm-editor");
        const task = !modalOpen() && !e.defaultPrevented && !inField ? this.tasks.running().pop() : undefined;
        if (task) {
          e.preventDefault();
          this.tasks.cancel(task);
        } else closeModal(this);
      }
    });
  }

  async openFolderDialog() {
    await this.run(async () => {
      const w = await this.backend.pickFolder();
      if (w) await this.setWorkspace(w);
    });
  }

  // ---- errors and the core queue ------------------------------------------------

  async run<T>(f: () => Promise<T>): Promise<T | undefined> {
    try {
      return await f();
    } catch (e) {
      toast(errorMessage(e), "error");
      return undefined;
    }
  }

  /** Serialize everything that talks to the core about the text. */
  enqueue<T>(f: () => Promise<T>): Promise<T | undefined> {
    const next = this.queue.then(() => this.run(f));
    this.queue = next.catch(() => undefined);
    return next;
  }

  // ---- tabs and documents ----------------------------------------------------------

  handlers(path: string): EditorHandlers {
    return {
      onLocalChange: (changes, typing) => this.sendEdit(path, changes, typing),
      onCursorJump: () => void this.backend.sealUndoGroup(path).catch(() => undefined),
      accept: (id) => void this.accept(id),
      reject: (id) => void this.reject(id),
      focusThread: (id) => focusThread(this, id),
      keys: this.editorKeys(),
    };
  }

  async open(path: string) {
    const t0 = performance.now();
    if (!this.docs.has(path)) {
      const v = await this.run(() => this.backend.openDocument(path));
      if (!v) return;
      const state = createState(v.text, v.review, this.handlers(path));
      this.docs.set(path, { path, state, version: v.version, dirty: v.dirty, saving: false, conflict: false });
      this.order.push(path);
    }
    this.activate(path);
    // Measured once the view has laid out what it shows.
    requestAnimationFrame(() => (this.lastOpenMs = performance.now() - t0));
  }

  activate(path: string) {
    if (this.active && this.view) {
      const cur = this.docs.get(this.active);
      if (cur) cur.state = this.view.state;
    }
    const doc = this.docs.get(path);
    if (!doc) return;
    this.active = path;
    const host = $(".editor-host");
    if (!this.view) {
      host.replaceChildren();
      this.view = new EditorView({ state: doc.state, parent: host });
    } else {
      this.view.setState(doc.state);
    }
    host.classList.toggle("tint-off", !this.tint);
    renderTabs(this);
    renderTree(this);
    renderBanner(this);
    renderPanel(this);
    renderStatus(this);
    updateWordCount(this);
    this.view.focus();
  }

  get current(): OpenDoc | null {
    return this.active ? this.docs.get(this.active) ?? null : null;
  }

  review(): ReviewDto | null {
    return this.view ? reviewOf(this.view.state) : null;
  }

  async closeTab(path: string) {
    const doc = this.docs.get(path);
    if (!doc) return;
    if (doc.dirty) {
      const choice = await ask(`${path} has unsaved changes.`, ["Save", "Discard", "Cancel"]);
      if (choice === "Cancel" || choice === null) return;
      if (choice === "Save" && !(await this.save(path))) return;
    }
    await this.run(() => this.backend.closeDocument(path));
    this.dropTab(path);
  }

  dropTab(path: string) {
    this.docs.delete(path);
    this.order = this.order.filter((p) => p !== path);
    if (this.active === path) {
      this.active = null;
      const next = this.order[this.order.length - 1];
      if (next) this.activate(next);
      else {
        this.view?.destroy();
        this.view = null;
        $(".editor-host").replaceChildren(h("div", { class: "empty", text: "Open a document from the list on the left." }));
        renderTabs(this);
        renderPanel(this);
        renderStatus(this);
      }
    } else renderTabs(this);
  }

  // ---- edits ---------------------------------------------------------------------

  sendEdit(path: string, changes: TextChange[], typing: boolean) {
    const doc = this.docs.get(path);
    if (!doc) return;
    // The tab and status bar change only when the dirty state does (not per keystroke).
    if (!doc.dirty) {
      doc.dirty = true;
      renderDirty(this);
    }
    // An edit inside a proposal shows it stale at once, in the panel too.
    // (A count the editor keeps: reading the whole review per keystroke would cost O(records).)
    const stale = this.view ? staleCountOf(this.view.state) : 0;
    if (stale !== this.shownStale) renderPanel(this);
    void this.enqueue(async () => {
      try {
        const ack = await this.backend.edit(path, doc.version, changes, typing);
        doc.version = ack.version;
        if (doc.dirty !== ack.dirty) {
          doc.dirty = ack.dirty;
          renderDirty(this);
        }
      } catch (e) {
        // Out of step with the core: take its text as the truth.
        await this.resync(path);
        throw e;
      }
      this.scheduleRefresh(path);
    });
  }

  /** Fetch the core's review a moment after the writer stops typing. */
  scheduleRefresh(path: string) {
    window.clearTimeout(this.refreshTimer);
    this.refreshTimer = window.setTimeout(() => void this.refreshReview(path), 250);
  }

  async refreshReview(path: string) {
    await this.enqueue(async () => {
      const review = await this.backend.review(path);
      this.showReview(path, review);
    });
  }

  showReview(path: string, review: ReviewDto) {
    const doc = this.docs.get(path);
    if (!doc) return;
    if (this.active === path && this.view) {
      this.view.dispatch({ effects: setReview.of(review) });
    } else {
      doc.state = doc.state.update({ effects: setReview.of(review) }).state;
    }
    if (this.active === path) {
      renderPanel(this);
      renderStatus(this);
      updateWordCount(this);
    }
  }

  async resync(path: string) {
    const doc = this.docs.get(path);
    if (!doc) return;
    const v = await this.backend.openDocument(path);
    const state = createState(v.text, v.review, this.handlers(path));
    Object.assign(doc, { state, version: v.version, dirty: v.dirty });
    if (this.active === path && this.view) this.view.setState(state);
  }

  /** Apply a change the core made, in its order with the writer's edits. */
  applyFromCore(path: string, applied: Applied) {
    const doc = this.docs.get(path);
    if (!doc) return;
    const spec = {
      changes: applied.changes.map((c) => ({ from: c.from, to: c.to, insert: c.insert })),
      annotations: fromCore.of(true),
      effects: setReview.of(applied.review),
    };
    if (this.active === path && this.view) this.view.dispatch(spec);
    else doc.state = doc.state.update(spec).state;
    doc.version = applied.version;
    doc.dirty = applied.dirty;
    if (this.active === path) {
      renderPanel(this);
      renderStatus(this);
    }
    renderDirty(this);
  }

  /** A core operation on the active document, with the editor read-only meanwhile. */
  async coreOp(f: (path: string) => Promise<Applied>) {
    const path = this.active;
    if (!path) return;
    this.setReadOnly(true);
    try {
      await this.enqueue(async () => this.applyFromCore(path, await f(path)));
    } finally {
      this.setReadOnly(false);
    }
    void refreshTree(this);
  }

  setReadOnly(on: boolean) {
    this.view?.dispatch({ effects: readOnly.reconfigure(EditorState.readOnly.of(on)) });
  }

  accept(id: string, withText: string | null = null) {
    return this.coreOp((p) => this.backend.accept(p, id, withText));
  }
  reject(id: string) {
    return this.coreOp((p) => this.backend.reject(p, id));
  }
  acceptTurn(turn: string) {
    return this.coreOp((p) => this.backend.acceptTurn(p, turn));
  }
  rejectTurn(turn: string) {
    return this.coreOp((p) => this.backend.rejectTurn(p, turn));
  }
  /** Accept a group of proposals (one producer's part of a shared turn) in one call: one undo step. */
  acceptAll(ids: string[]) {
    return this.coreOp((p) => this.backend.acceptAll(p, ids));
  }
  rejectAll(ids: string[]) {
    return this.coreOp((p) => this.backend.rejectAll(p, ids));
  }
  undo() {
    return this.coreOp((p) => this.backend.undo(p));
  }
  redo() {
    return this.coreOp((p) => this.backend.redo(p));
  }

  async save(path: string | null = this.active): Promise<boolean> {
    if (!path) return false;
    const doc = this.docs.get(path);
    if (!doc) return false;
    doc.saving = true;
    renderStatus(this);
    const result = await this.enqueue(() => this.backend.save(path));
    doc.saving = false;
    if (!result) {
      renderStatus(this);
      return false;
    }
    doc.dirty = result.dirty;
    doc.conflict = false;
    this.showReview(path, result.review);
    if (result.sidecarSkipped) toast(`Saved ${path}; review data not written: ${result.sidecarSkipped.message}`, "error");
    renderDirty(this);
    renderBanner(this);
    void refreshTree(this);
    return true;
  }

  // ---- the watcher -----------------------------------------------------------------

  async onNotice(n: Notice) {
    switch (n.kind) {
      case "treeChanged":
        await refreshTree(this);
        break;
      case "reviewChanged":
        if (this.docs.has(n.path)) await this.refreshReview(n.path);
        break;
      case "documentReloaded": {
        const doc = this.docs.get(n.path);
        if (!doc) break;
        await this.enqueue(async () => {
          const review = await this.backend.review(n.path);
          this.applyFromCore(n.path, { changes: n.changes, version: n.version, dirty: false, review });
        });
        toast(`${n.path} changed on disk and was reloaded.`);
        break;
      }
      case "conflict": {
        const doc = this.docs.get(n.path);
        if (doc) {
          doc.conflict = true;
          renderBanner(this);
        }
        break;
      }
      case "documentGone": {
        if (this.docs.has(n.path)) toast(`${n.path} was removed from disk; save to write it again.`, "error");
        break;
      }
    }
  }

  // ---- rendering -------------------------------------------------------------------

  // ---- producer runs: Ask Claude…, Check document ----------------------------------------

  askClaude() {
    const view = this.view;
    const path = this.active;
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
    area.value = this.askDraft;
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
      h("div", { class: "ask-hint", text: "Enter asks · Shift+Enter for a new line · Esc closes. You can keep writing while Claude works." }),
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
      const now = this.active === path && this.view ? this.view.state.selection.main : sel;
      const range = now.empty ? sel : now;
      this.askDraft = "";
      closeModal(this);
      void this.runAsk(path, range.from, range.to, instruction);
    };
    area.addEventListener("input", () => {
      this.askDraft = area.value;
      error.hidden = true;
    });
    area.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey && !e.isComposing) {
        e.preventDefault();
        submit();
      }
    });
    go.addEventListener("click", submit);
    cancel.addEventListener("click", () => closeModal(this));
    modal(this, "Ask Claude", body, []);
    area.focus();
  }

  async runAsk(path: string, from: number, to: number, instruction: string) {
    const task = this.tasks.start("ask", path, "Asking Claude…");
    task.el.title = `“${snippet(instruction, 120)}”`;
    const docAtStart = this.active === path ? this.view?.state.doc : undefined;
    const o = await runProducer(this, task, "claude", from, to, instruction);
    const where = () => (this.active === path ? "" : ` (in ${path})`);
    if ("filing" in o) {
      this.lastFiling = o.filing;
      await afterFiling(this, path);
      this.tasks.finish(task, askResult(o.filing) + where(), o.filing.filed > 0 ? "ok" : "info");
      if (o.filing.filed > 0) this.revealTurn(path, o.filing.turnId, docAtStart);
    } else if ("error" in o) {
      this.tasks.finish(task, errorText(o.error, "claude") + where(), o.error.code === "cancelled" ? "info" : "error");
    } else {
      this.tasks.finish(task, "Cancelled; Claude was not asked.", "info");
    }
  }

  /**
   * Select the first proposal of a turn just filed: its card in the panel and,
   * when the writer has not edited since asking (and is not typing elsewhere),
   * the proposal in the text.
   */
  revealTurn(path: string, turnId: string, docAtStart: unknown) {
    const review = this.review();
    if (this.active !== path || !this.view || !review) return;
    const first = review.proposals
      .filter((p) => p.turnId === turnId && p.from !== null)
      .sort((a, b) => a.from! - b.from!)[0];
    if (!first) return;
    showPanel(this, "review");
    const focus = document.activeElement;
    const free = !focus || focus === document.body || this.view.dom.contains(focus) || !!focus.closest(".jobs");
    if (free && !modalOpen() && this.view.state.doc === docAtStart) reveal(this, first);
    else {
      this.focusedProposal = first.id;
      for (const el of Array.from(document.querySelectorAll<HTMLElement>(".card"))) el.classList.toggle("focused", el.dataset.proposal === first.id);
    }
    document.querySelector(`.card[data-proposal="${CSS.escape(first.id)}"]`)?.scrollIntoView({ block: "nearest" });
  }

  // ---- settings ------------------------------------------------------------------------

  async openSettings() {
    const s = await this.run(() => this.backend.settings());
    if (!s) return;
    const field = (label: string, control: HTMLElement, note: HTMLElement | null = null) =>
      h("label", { class: "set-field" }, h("span", { class: "set-label", text: label }), control, note);

    const transport = h("select", { class: "set-transport" });
    const options: [string, string][] = [
      ["", "Automatic"],
      ["cli", "Claude Code CLI"],
      ["api", "Messages API"],
    ];
    for (const [value, text] of options) transport.append(h("option", { value, text }));
    transport.value = s.transport ?? "";
    const keyNote = h("span", {
      class: `set-note${s.haveApiKey ? "" : " set-note-warn"}`,
      text: s.haveApiKey
        ? "ANTHROPIC_API_KEY is set: Automatic uses the Messages API."
        : "ANTHROPIC_API_KEY is not set: Automatic uses the Claude Code CLI; the Messages API will not work.",
    });
    const model = h("input", { class: "set-model", type: "text", placeholder: "default", spellcheck: "false" });
    model.value = s.model ?? "";
    const command = h("input", { class: "set-command", type: "text", placeholder: "claude", spellcheck: "false" });
    command.value = s.claudeCommand;
    const timeout = h("input", { class: "set-timeout", type: "number", min: "1", step: "1", inputmode: "numeric" });
    timeout.value = String(s.timeoutSecs);

    const offered = [...s.available, ...s.enabled.filter((p) => !s.available.includes(p))];
    const boxes = new Map<string, HTMLInputElement>();
    const producers = h("div", { class: "set-producers" });
    if (!offered.length) producers.append(h("div", { class: "set-note", text: "No checkers are available." }));
    for (const p of offered) {
      const box = h("input", { type: "checkbox", class: "set-producer", value: p });
      box.checked = s.enabled.includes(p);
      boxes.set(p, box);
      producers.append(
        h("label", { class: "set-check" }, box, h("span", { text: p }), s.available.includes(p) ? null : h("span", { class: "set-note set-note-warn", text: "(not available)" })),
      );
    }

    const error = h("div", { class: "set-error", role: "alert" });
    error.hidden = true;
    const save = h("button", { class: "set-save", text: "Save", "data-action": "Save" });
    const cancel = h("button", { class: "modal-cancel", text: "Cancel" });
    const form = h(
      "form",
      { class: "settings", novalidate: "" },
      h(
        "fieldset",
        {},
        h("legend", { text: "Ask Claude" }),
        field("Transport", transport, keyNote),
        field("Model", model),
        field("Claude command", command),
        field("Timeout (seconds)", timeout),
      ),
      h("fieldset", {}, h("legend", { text: "Check document runs" }), producers),
      h("div", { class: "set-path", text: `Saved in ${s.path}` }),
      error,
      h("div", { class: "modal-actions" }, save, cancel),
    );
    const showError = (m: string) => {
      error.textContent = m;
      error.hidden = false;
    };
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const secs = parseTimeout(timeout.value);
      if (secs === null) {
        showError("The timeout must be a whole number of seconds, 1 or more.");
        timeout.focus();
        return;
      }
      const checked = new Set([...boxes].filter(([, b]) => b.checked).map(([p]) => p));
      const next: SettingsDto = {
        ...s,
        transport: transport.value === "cli" || transport.value === "api" ? transport.value : null,
        model: model.value.trim() || null,
        claudeCommand: command.value.trim(),
        timeoutSecs: secs,
        enabled: nextEnabled(s.enabled, offered, checked),
      };
      error.hidden = true;
      save.disabled = true;
      void (async () => {
        try {
          await this.backend.saveSettings(next);
          if (form.isConnected) closeModal(this);
          toast("Settings saved.");
        } catch (e) {
          showError(errorMessage(e));
        } finally {
          save.disabled = false;
        }
      })();
    });
    cancel.addEventListener("click", (e) => {
      e.preventDefault();
      closeModal(this);
    });
    cancel.type = "button";
    save.type = "submit";
    modal(this, "Settings", form, []);
    transport.focus();
  }

  // ---- keyboard and palette -----------------------------------------------------------

  buildCommands(): Command[] {
    const onProposal = (f: (p: ProposalDto) => unknown) => () => {
      const p = proposalAtCursor(this);
      if (p) void f(p);
      else toast("Put the cursor in a proposal first (Alt+] jumps to the next).");
    };
    return [
      { id: "save", title: "Save", keys: "Ctrl+S", run: () => void this.save() },
      { id: "undo", title: "Undo", keys: "Ctrl+Z", run: () => void this.undo() },
      { id: "redo", title: "Redo", keys: "Ctrl+Shift+Z", run: () => void this.redo() },
      { id: "next", title: "Next proposal", keys: "Alt+]", run: () => gotoProposal(this, 1) },
      { id: "prev", title: "Previous proposal", keys: "Alt+[", run: () => gotoProposal(this, -1) },
      { id: "accept", title: "Accept proposal", keys: "Alt+Enter", run: onProposal((p) => this.accept(p.id)) },
      { id: "reject", title: "Reject proposal", keys: "Alt+Backspace", run: onProposal((p) => this.reject(p.id)) },
      {
        id: "accept-turn",
        title: "Accept all proposals of this turn",
        keys: "Alt+Shift+Enter",
        run: onProposal((p) => (p.turnId ? this.acceptTurn(p.turnId) : this.accept(p.id))),
      },
      {
        id: "reject-turn",
        title: "Reject all proposals of this turn",
        keys: "Alt+Shift+Backspace",
        run: onProposal((p) => (p.turnId ? this.rejectTurn(p.turnId) : this.reject(p.id))),
      },
      { id: "comment", title: "Comment on selection", keys: "Ctrl+Alt+M", run: () => newThread(this) },
      { id: "ask", title: "Ask Claude…", keys: "Ctrl+K", run: () => this.askClaude() },
      { id: "check", title: "Check document", keys: "F7", run: () => void checkDocument(this) },
      {
        id: "cancel-tasks",
        title: "Cancel running Claude and checker runs",
        keys: "Esc",
        run: () => {
          const running = this.tasks.running();
          if (!running.length) toast("Nothing is running.");
          for (const t of running) this.tasks.cancel(t);
        },
      },
      { id: "settings", title: "Settings…", keys: "Ctrl+,", run: () => void this.openSettings() },
      { id: "find", title: "Find and replace", keys: "Ctrl+F", run: () => this.view && openSearchPanel(this.view) },
      { id: "tint", title: "Toggle Claude tint", keys: "Ctrl+Shift+A", run: () => toggleTint(this) },
      { id: "review", title: "Show review panel", keys: "", run: () => showPanel(this, "review") },
      { id: "threads", title: "Show threads panel", keys: "", run: () => showPanel(this, "threads") },
      { id: "open", title: "Open folder…", keys: "Ctrl+O", run: () => void this.openFolderDialog() },
      { id: "sample", title: "Open the sample workspace", keys: "", run: () => void this.run(async () => this.setWorkspace(await this.backend.openSample())) },
      { id: "close", title: "Close document", keys: "Ctrl+W", run: () => this.active && void this.closeTab(this.active) },
      { id: "palette", title: "Command palette", keys: "Ctrl+Shift+P", run: () => this.openPalette() },
      { id: "quit", title: "Quit", keys: "Ctrl+Q", run: () => void this.requestQuit() },
    ];
  }

  editorKeys(): KeyBinding[] {
    const cmd = (id: string) => () => {
      void this.commands.find((c) => c.id === id)?.run();
      return true;
    };
    return [
      { key: "Mod-z", run: cmd("undo"), preventDefault: true },
      { key: "Mod-Shift-z", run: cmd("redo"), preventDefault: true },
      { key: "Mod-y", run: cmd("redo"), preventDefault: true },
      { key: "Alt-]", run: cmd("next") },
      { key: "Alt-[", run: cmd("prev") },
      { key: "Alt-Enter", run: cmd("accept") },
      { key: "Alt-Backspace", run: cmd("reject") },
      { key: "Alt-Shift-Enter", run: cmd("accept-turn") },
      { key: "Alt-Shift-Backspace", run: cmd("reject-turn") },
      { key: "Mod-Alt-m", run: cmd("comment") },
      { key: "Mod-Shift-a", run: cmd("tint") },
      { key: "Mod-w", run: cmd("close"), preventDefault: true },
    ];
  }

  openPalette() {
    const input = h("input", { class: "palette-input", placeholder: "Type a command…", "aria-label": "Command" });
    const list = h("ul", { class: "palette-list" });
    let selected = 0;
    const filtered = () => this.commands.filter((c) => c.title.toLowerCase().includes(input.value.toLowerCase()));
    const render = () => {
      list.replaceChildren();
      filtered().forEach((c, i) => {
        const li = h("li", { class: i === selected ? "selected" : "", "data-command": c.id }, h("span", { text: c.title }), h("kbd", { text: c.keys }));
        li.addEventListener("click", () => pick(c));
        list.append(li);
      });
    };
    const pick = (c: Command) => {
      closeModal(this);
      void c.run();
    };
    input.addEventListener("input", () => {
      selected = 0;
      render();
    });
    input.addEventListener("keydown", (e) => {
      const items = filtered();
      if (e.key === "ArrowDown") selected = Math.min(items.length - 1, selected + 1);
      else if (e.key === "ArrowUp") selected = Math.max(0, selected - 1);
      else if (e.key === "Enter" && items[selected]) return pick(items[selected]);
      else return;
      e.preventDefault();
      render();
    });
    render();
    modal(this, null, h("div", { class: "palette" }, input, list), []);
    input.focus();
  }

  // ---- quitting ------------------------------------------------------------------------

  /** Quit as closing the window does: ask first when something is unsaved. */
  async requestQuit() {
    const dirty = await this.run(() => this.backend.dirtyDocuments());
    if (!dirty) return;
    if (dirty.length) await this.confirmQuit(dirty);
    else await this.backend.quit();
  }

  async confirmQuit(dirty: string[]) {
    const choice = await ask(`Unsaved changes in ${dirty.join(", ")}.`, ["Save all and quit", "Quit without saving", "Cancel"]);
    if (choice === "Save all and quit") {
      for (const p of dirty) if (!(await this.save(p))) return;
      await this.backend.quit();
    } else if (choice === "Quit without saving") {
      await this.backend.quit();
    }
  }
}

/** A failure at start must say what happened, not leave an empty window. */
function fatal(e: unknown) {
  const box = document.createElement("pre");
  box.className = "fatal";
  box.textContent = `Cowriting could not start: ${errorMessage(e)}`;
  document.body.append(box);
}
window.addEventListener("error", (e) => fatal(e.error ?? e.message));
window.addEventListener("unhandledrejection", (e) => fatal(e.reason));

void (async () => {
  const app = new App(await tauriBackend());
  await app.start();
})().catch(fatal);
