// Cowriting Desktop's UI: file tree, tabs, the editor, the review panel, the
// status bar, the command palette. All state of record lives in the core; this
// file keeps the view in step with it.
import "./styles.css";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { Applied } from "./bindings/Applied";
import type { Notice } from "./bindings/Notice";
import type { ReviewDto } from "./bindings/ReviewDto";
import type { TextChange } from "./bindings/TextChange";
import type { WorkspaceInfo } from "./bindings/WorkspaceInfo";
import { errorMessage, tauriBackend, type Backend } from "./backend";
import { createState, fromCore, readOnly, reviewOf, setReview, staleCountOf, type EditorHandlers } from "./editor";
import type { FilingSummary } from "./jobs";
import { $, h } from "./dom";
import { TaskChips } from "./tasks";
import { buildCommands, editorKeys, type Command } from "./commands";
import { askClaude } from "./dialogs/ask-claude";
import { openSettings } from "./dialogs/settings";
import { checkDocument, onJobProgress } from "./producers";
import { ask, closeModal, modalOpen, toast } from "./views/modal";
import { openPalette } from "./views/palette";
import { dismissRestoreNotice, showRestored } from "./views/restore-notice";
import { renderPanel, showPanel } from "./views/panel";
import { focusThread } from "./views/threads-panel";
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
    this.commands = buildCommands(this);
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
    $(".st-palette").addEventListener("click", () => openPalette(this));
    $(".st-settings").addEventListener("click", () => void openSettings(this));
    for (const b of Array.from(document.querySelectorAll<HTMLButtonElement>(".panel-tabs button"))) {
      b.addEventListener("click", () => showPanel(this, b.dataset.tab as "review" | "threads"));
    }
    window.addEventListener("keydown", (e) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.shiftKey && e.key.toLowerCase() === "p") {
        e.preventDefault();
        openPalette(this);
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
        if (!modalOpen()) askClaude(this);
      } else if (mod && e.key === ",") {
        e.preventDefault();
        if (!modalOpen()) void openSettings(this);
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
      keys: editorKeys(this),
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

  // ---- keyboard and palette -----------------------------------------------------------

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
