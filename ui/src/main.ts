// Cowriting Desktop's UI: the app's state and its wiring. All state of record
// lives in the core; `App` holds what the view needs (the workspace, the open
// documents and tabs, the core queue) and does the app's lifecycle: start,
// open a workspace, open/activate/close documents, decide on proposals, save,
// the watcher's notices, quit. The edits' round trip with the core is in
// edit-sync.ts; what the window shows in views/ (layout, tree, tabs, status bar
// and banner, panels, palette, modals); the dialogs in dialogs/ (Ask Claude…,
// Settings); producer runs in producers.ts; commands and keys in commands.ts;
// the editor in editor.ts and its extensions in extensions/.
import "./styles.css";
import type { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { Notice } from "./bindings/Notice";
import type { ReviewDto } from "./bindings/ReviewDto";
import type { WorkspaceInfo } from "./bindings/WorkspaceInfo";
import { errorMessage, tauriBackend, type Backend } from "./backend";
import { buildCommands, editorKeys, type Command } from "./commands";
import { $, h } from "./dom";
import { applyFromCore, coreOp, refreshReview, sendEdit, showReview } from "./edit-sync";
import { createState, type EditorHandlers } from "./editor";
import { reviewOf } from "./extensions/review-field";
import type { FilingSummary } from "./jobs";
import { onJobProgress } from "./producers";
import { TaskChips } from "./tasks";
import { LAYOUT, wireChrome } from "./views/layout";
import { ask, toast } from "./views/modal";
import { renderOutline } from "./views/outline";
import { renderPanel } from "./views/panel";
import { dismissRestoreNotice, showRestored } from "./views/restore-notice";
import { renderBanner, renderDirty, renderStatus, renderTitle, updateWordCount } from "./views/status";
import { renderTabs } from "./views/tabs";
import { focusThread } from "./views/threads-panel";
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

export class App {
  docs = new Map<string, OpenDoc>();
  order: string[] = [];
  active: string | null = null;
  view: EditorView | null = null;
  ws: WorkspaceInfo | null = null;
  queue: Promise<unknown> = Promise.resolve();
  refreshTimer: number | undefined;
  /** Whether Claude's text is tinted (views/status.ts toggles it). */
  tint = true;
  panelTab: "review" | "threads" = "review";
  /** The proposal last revealed (its card is marked; views/review-panel.ts). */
  focusedProposal: string | null = null;
  /** The palette's commands, which the editor's keys run too (commands.ts). */
  commands: Command[] = [];
  /** Reply drafts by thread: a re-render (e.g. another writer's change) never loses one. */
  drafts = new Map<string, string>();
  /** What the panel last showed, to skip re-rendering an unchanged review. */
  shownReview = "";
  shownStale = 0;
  lastOpenMs = 0;
  /** The producer runs' chips above the status bar. */
  tasks = new TaskChips(
    (job) => this.backend.cancelJob(job),
    () => this.view?.focus(),
  );
  /** The last producer run that filed something (the e2e hooks read it). */
  lastFiling: FilingSummary | null = null;
  /** The Ask Claude… instruction typed but not sent (the dialog was closed). */
  askDraft = "";
  /** The window title last set (views/status.ts renderTitle); set again only when it changes. */
  shownTitle = "";

  constructor(readonly backend: Backend) {}

  // ---- start -----------------------------------------------------------------

  async start() {
    document.body.innerHTML = LAYOUT;
    this.commands = buildCommands(this);
    wireChrome(this);
    await this.backend.onNotice((n) => void this.onNotice(n));
    await this.backend.onJobProgress((p) => onJobProgress(this, p));
    await this.backend.onWorkspaceOpened((w) => void this.setWorkspace(w));
    await this.backend.onCloseRequested((dirty) => this.confirmQuit(dirty));
    try {
      await this.setWorkspace(await this.backend.workspace());
    } catch {
      renderNoWorkspace(this);
    }
    renderTitle(this);
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
      onLocalChange: (changes, typing) => sendEdit(this, path, changes, typing),
      onCursorJump: () => void this.backend.sealUndoGroup(path).catch(() => undefined),
      accept: (id) => void this.accept(id),
      reject: (id) => void this.reject(id),
      focusThread: (id) => focusThread(this, id),
      onOutline: (info) => renderOutline(this, info),
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

  // ---- decisions and saving (the edits' round trip is in edit-sync.ts) ---------------

  accept(id: string, withText: string | null = null) {
    return coreOp(this, (p) => this.backend.accept(p, id, withText));
  }
  reject(id: string) {
    return coreOp(this, (p) => this.backend.reject(p, id));
  }
  acceptTurn(turn: string) {
    return coreOp(this, (p) => this.backend.acceptTurn(p, turn));
  }
  rejectTurn(turn: string) {
    return coreOp(this, (p) => this.backend.rejectTurn(p, turn));
  }
  /** Accept a group of proposals (one producer's part of a shared turn) in one call: one undo step. */
  acceptAll(ids: string[]) {
    return coreOp(this, (p) => this.backend.acceptAll(p, ids));
  }
  rejectAll(ids: string[]) {
    return coreOp(this, (p) => this.backend.rejectAll(p, ids));
  }
  undo() {
    return coreOp(this, (p) => this.backend.undo(p));
  }
  redo() {
    return coreOp(this, (p) => this.backend.redo(p));
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
    showReview(this, path, result.review);
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
        if (this.docs.has(n.path)) await refreshReview(this, n.path);
        break;
      case "documentReloaded": {
        const doc = this.docs.get(n.path);
        if (!doc) break;
        await this.enqueue(async () => {
          const review = await this.backend.review(n.path);
          applyFromCore(this, n.path, { changes: n.changes, version: n.version, dirty: false, review });
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
