// Cowriting Desktop's UI: the app's state and its wiring. All state of record
// lives in the core; `App` holds what the view needs (the workspace, the open
// documents and tabs, the core queue) and does the app's lifecycle: start,
// open a workspace, open/activate/close documents, decide on proposals, save,
// the watcher's notices, quit. The edits' round trip with the core is in
// edit-sync.ts; what the window shows in views/ (layout, tree, tabs, status bar
// and banner, panels, palette, modals), which keep what only they show (the
// tint, the title last set, the proposal last revealed, reply drafts), some
// drawn from a plain model and actions App builds (the tabs, the tree, the
// outline, the Inbox, the Review and Threads panels, the accessible review
// view); the dialogs in dialogs/ (Ask Claude…, Settings, the first run's
// question), Ask Claude… and Review with Claude… keeping their drafts;
// autosave's timing in autosave.ts; producer runs in producers.ts; commands
// and keys in commands.ts; the editor in editor.ts and its extensions in
// extensions/; pure models in model/.
import "./styles.css";
import type { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { IdentityDto } from "./bindings/IdentityDto";
import type { Notice } from "./bindings/Notice";
import type { RestoreReport } from "./bindings/RestoreReport";
import type { ReviewDto } from "./bindings/ReviewDto";
import type { WorkspaceInfo } from "./bindings/WorkspaceInfo";
import { AutoSaver } from "./autosave";
import { errorMessage, tauriBackend, type Backend, type OpenedDoc } from "./backend";
import { buildCommands, editorKeys, type Command } from "./commands";
import { askIdentity } from "./dialogs/welcome";
import { $ } from "./dom";
import { applyFromCore, coreOp, refreshReview, sendEdit, showReview } from "./edit-sync";
import { renamedOrder } from "./model/doc-names";
import { createState, type EditorHandlers } from "./editor";
import { reviewOf } from "./extensions/review-field";
import type { FilingSummary } from "./model/jobs";
import { checkDocument, onJobProgress } from "./producers";
import { askInThread, onReviewProgress, reviewWithClaude } from "./dialogs/review-claude";
import { onSearchProgress } from "./views/search-panel";
import type { ReviewOut } from "./bindings/ReviewOut";
import { forgetLints } from "./extensions/spelling";
import { spellingHandlers } from "./spelling";
import { TaskChips, batchProgress } from "./tasks";
import { authorLabel, utf16 } from "./model/util";
import { LAYOUT, wireChrome } from "./views/layout";
import { ask, toast } from "./views/modal";
import { coverageQuestion, splitSeen } from "./coverage";
import { focusedProposal, keepCoverageLabel, renderReviewPanel, reveal, type ReviewActions } from "./views/review-panel";
import { askClaude } from "./dialogs/ask-claude";
import { openingOrder, rememberTabs, rememberedOrder, rememberedTabs } from "./open-tabs";
import { say } from "./views/live";
import { arrivalWords, decisionWords, docName, pendingCount, undoWords } from "./announce";
import type { ProposalDto } from "./bindings/ProposalDto";
import { jumpToHeading, renderOutline, type OutlineActions } from "./views/outline";
import { refreshMerge, type MergeUi } from "./views/merge-view";
import { renderPanel, showPanel, type PanelTab } from "./views/panel";
import { dismissRestoreNotice, showRestoreNotice } from "./views/restore-notice";
import { renderBanner, renderStatus, renderTitle, tinted, updateWordCount } from "./views/status";
import { renderTabs, type TabActions } from "./views/tabs";
import { openAccessibleView, type AccessibleViewActions } from "./views/accessible-view";
import { focusThread, newThread, renderThreadsPanel, selectInText, type ThreadActions, type ThreadAnswer } from "./views/threads-panel";
import { decideGroup, gotoInboxItem, inboxChanged, InboxView, openInboxItem, renderInbox, type InboxActions } from "./views/inbox-panel";
import { refreshTree, renderEditorEmpty, renderNoWorkspace, renderRecent, renderTree, treeEntryAdded, treeEntryRemoved, type TreeActions } from "./views/tree";
import { documentMenu, folderMenu, newDocument } from "./views/doc-actions";
import { setText, visibleText } from "./hidden";
import { confirmHiddenChars } from "./views/confirm-hidden";
import { confirmLikelyPlace } from "./views/confirm-place";

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

/** Where the writer's choice of what Tab does is kept. */
const TAB_FOCUS_KEY = "cowriting.tabMovesFocus";

export class App {
  docs = new Map<string, OpenDoc>();
  order: string[] = [];
  active: string | null = null;
  view: EditorView | null = null;
  ws: WorkspaceInfo | null = null;
  queue: Promise<unknown> = Promise.resolve();
  refreshTimer: number | undefined;
  /** Whether Tab moves the focus out of the text rather than indenting (Ctrl+M; views/status.ts). */
  tabFocus = localStorage.getItem(TAB_FOCUS_KEY) === "on";
  panelTab: PanelTab = "review";
  /** The palette's commands, which the editor's keys run too (commands.ts). */
  commands: Command[] = [];
  lastOpenMs = 0;
  /** The producer runs' chips above the status bar. */
  tasks = new TaskChips(
    (job) => this.backend.cancelJob(job),
    () => this.view?.focus(),
  );
  /** The last producer run that filed something (the e2e hooks read it). */
  lastFiling: FilingSummary | null = null;
  /** How the last review pass or thread question ended (the e2e hooks read it). */
  lastReview: ReviewOut | null = null;
  /** Who the writer is (the status bar shows it); null until the core said. */
  me: IdentityDto | null = null;
  /** The Inbox tab's state (views/inbox-panel.ts). */
  inbox = new InboxView();
  /** Compare & merge, while the writer merges (views/merge-view.ts). */
  merge: MergeUi | null = null;
  /** Autosave (the writer's setting): saves every open document with unsaved changes. */
  autosaver = new AutoSaver(() => this.autosaveDirty());

  constructor(readonly backend: Backend) {}

  // ---- start -----------------------------------------------------------------

  async start() {
    document.body.innerHTML = LAYOUT;
    this.commands = buildCommands(this);
    wireChrome(this);
    keepCoverageLabel(this);
    // Autosave "on focus change": the editor lost the focus, or the window did.
    const host = $(".editor-host");
    host.addEventListener("focusout", (e) => {
      if (!(e.relatedTarget instanceof Node && host.contains(e.relatedTarget))) this.autosaver.focusChanged();
    });
    window.addEventListener("blur", () => this.autosaver.focusChanged());
    await this.backend.onNotice((n) => void this.onNotice(n));
    await this.backend.onJobProgress((p) => onJobProgress(this, p));
    await this.backend.onReviewProgress((p) => onReviewProgress(this, p));
    await this.backend.onSearchProgress(onSearchProgress);
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
    if (switching) {
      // Closed as the workspace goes: its tabs stay remembered for its next opening.
      this.ws = null;
      for (const p of [...this.order]) this.dropTab(p);
      dismissRestoreNotice();
      forgetLints(); // another workspace, another dictionary
    }
    this.ws = w;
    // Read before anything opens (opening a tab remembers the tabs anew).
    const tabs = rememberedTabs(w.root);
    if (switching) this.inbox = new InboxView();
    inboxChanged(this);
    setText($(".ws-name"), w.name);
    $(".ws-name").title = visibleText(w.root);
    this.showTree();
    renderStatus(this);
    await this.loadSettings();
    const restored = await this.backend.restoredBackups().catch(() => null);
    if (restored) await this.reopenRestored(restored);
    // Every tab that was open (hot exit brought back those with unsaved work),
    // the one to show first so it is editable before the others load; then
    // the tabs put back in their remembered order.
    const listed = new Set(w.documents.map((d) => d.path));
    const named = await this.backend.initialDocument().catch(() => null);
    const { front, rest } = openingOrder(tabs, named, listed);
    // (After a crash the first restored document is in front, unless one was named.)
    if (front && (named || !this.active)) await this.open(front);
    else if (front) await this.ensureOpen(front);
    for (const p of rest) await this.ensureOpen(p);
    if (tabs.order.length) {
      this.order = rememberedOrder(tabs.order, this.order);
      rememberTabs(w.root, this.order, this.active);
      this.showTabs();
    }
    if (!this.active && w.documents.length) {
      const first = w.documents.find((d) => d.proposals > 0) ?? w.documents[0];
      await this.open(first.path);
    }
    void renderRecent(this);
    // The first run with no name anywhere (settings, git): ask once.
    if (this.me?.ask) askIdentity(this);
  }

  /**
   * After a crash: open each document restored from the last session in a tab
   * (unsaved, as the core says), the first in front, and say so in a notice. A
   * file that changed on disk since also gets the conflict banner (keep mine /
   * load theirs / compare).
   */
  async reopenRestored(report: RestoreReport) {
    for (const r of report.restored) {
      await this.open(r.path);
      const doc = this.docs.get(r.path);
      if (doc && r.fileChanged) doc.conflict = true;
    }
    const first = report.restored[0];
    if (first) this.activate(first.path);
    showRestoreNotice(report);
  }

  /** Who the writer is and how autosave goes, from the user's settings. */
  async loadSettings() {
    const s = await this.backend.settings().catch(() => null);
    if (s) {
      this.autosaver.configure(s.autosave, s.autosaveDelaySecs);
      this.me = s.identity;
    } else {
      this.me = await this.backend.identity().catch(() => null);
    }
    renderStatus(this);
  }

  /** The writer named themselves (Settings, the first run's question). */
  setIdentity(me: IdentityDto) {
    this.me = me;
    renderStatus(this);
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

  /** What the outline does (views/outline.ts). */
  private readonly outlineActions: OutlineActions = { jump: (i) => jumpToHeading(this, i) };

  /** The editor's handlers of an open document; they read its path when called (a rename changes it). */
  handlers(doc: { path: string }): EditorHandlers {
    return {
      onLocalChange: (changes, typing) => sendEdit(this, doc.path, changes, typing),
      onCursorJump: () => void this.backend.sealUndoGroup(doc.path).catch(() => undefined),
      accept: (id) => void this.accept(id),
      reject: (id) => void this.reject(id),
      focusThread: (id) => focusThread(this, id),
      authorLabel: (a) => authorLabel(a, this.me),
      onOutline: (info) => renderOutline({ ...info, documentShown: this.view !== null }, this.outlineActions),
      keys: editorKeys(this),
      spelling: spellingHandlers(this),
      comment: { submit: (from, to, body) => this.fileThread(doc.path, from, to, body) },
      path: () => doc.path,
    };
  }

  async open(path: string) {
    const t0 = performance.now();
    if (!this.docs.has(path)) {
      const v = await this.run(() => this.backend.openDocument(path));
      if (!v) return;
      this.addDoc(v);
    }
    this.activate(path);
    // Measured once the view has laid out what it shows.
    requestAnimationFrame(() => (this.lastOpenMs = performance.now() - t0));
  }

  /** Open a document in a tab without showing it (the Inbox deciding in it); whether it is open. */
  async ensureOpen(path: string): Promise<boolean> {
    if (!this.docs.has(path)) {
      const v = await this.run(() => this.backend.openDocument(path));
      if (!v) return false;
      this.addDoc(v);
      this.showTabs();
    }
    return true;
  }

  /** What a tab does (views/tabs.ts). */
  private readonly tabActions: TabActions = {
    activate: (path) => this.activate(path),
    close: async (path) => {
      await this.closeTab(path);
      return this.active;
    },
  };

  /** Draw the tabs of the open documents (views/tabs.ts). */
  showTabs() {
    const preview = this.inbox.preview;
    const tabs = this.order.map((path) => ({ path, dirty: this.docs.get(path)!.dirty, preview: path === preview }));
    renderTabs({ tabs, active: this.active }, this.tabActions);
  }

  /** What the Review tab's tools, groups and cards do (views/review-panel.ts). */
  private readonly reviewActions: ReviewActions = {
    askClaude: () => askClaude(this),
    reviewWithClaude: () => reviewWithClaude(this),
    checkDocument: () => void checkDocument(this),
    accept: (id, withText) => void this.accept(id, withText ?? null),
    reject: (id) => void this.reject(id),
    acceptTurn: (turn) => void this.acceptTurn(turn),
    rejectTurn: (turn) => void this.rejectTurn(turn),
    acceptAll: (ids) => void this.acceptAll(ids),
    rejectAll: (ids) => void this.rejectAll(ids),
    reveal: (p) => reveal(this, p),
    redraw: () => this.showReviewPanel(),
  };

  /** Draw the Review tab for the active document (views/review-panel.ts; views/panel.ts says when). */
  showReviewPanel() {
    renderReviewPanel({ path: this.active, review: this.review(), text: this.view?.state.doc ?? null }, this.reviewActions);
  }

  /** A change to a thread of the active document: the core's answer (null: none shown, or the core failed, which is said). */
  private async threadChange(call: (path: string) => Promise<ReviewDto>): Promise<ThreadAnswer | null> {
    const path = this.active;
    if (!path) return null;
    const review = await this.run(() => call(path));
    return review ? { path, review } : null;
  }

  /** What the Threads tab's threads do (views/threads-panel.ts). */
  private readonly threadActions: ThreadActions = {
    newThread: () => newThread(this),
    openLink: (href) => void this.backend.openLink(href).catch((e) => toast(errorMessage(e), "error")),
    select: (from, to) => selectInText(this, from, to),
    askClaude: (id, question, path) => {
      const at = path ?? this.active;
      if (at) void askInThread(this, at, id, question);
    },
    reply: (id, text) => this.threadChange((path) => this.backend.reply(path, id, text)),
    setResolved: (id, resolved) => this.threadChange((path) => this.backend.setThreadResolved(path, id, resolved)),
    keepHere: (id) => this.threadChange((path) => this.backend.keepThreadHere(path, id)),
    detach: (id) => this.threadChange((path) => this.backend.detachThread(path, id)),
    show: ({ path, review }) => showReview(this, path, review),
  };

  /** Draw the Threads tab for the active document (views/threads-panel.ts; views/panel.ts says when). */
  showThreadsPanel() {
    renderThreadsPanel({ review: this.review(), me: this.me }, this.threadActions);
  }

  /** What the accessible review view reads and does (views/accessible-view.ts). */
  private readonly accessibleViewActions: AccessibleViewActions = {
    model: () => ({
      path: this.active,
      review: this.review(),
      text: this.view?.state.doc ?? null,
      cursor: this.view?.state.selection.main.head ?? 0,
      me: this.me,
      revealed: focusedProposal(),
    }),
    accept: (id) => this.accept(id),
    reject: (id) => this.reject(id),
    undo: () => this.undo(),
    reveal: (p) => reveal(this, p, false),
    select: (from, to) => this.view?.dispatch({ selection: { anchor: from, head: to }, scrollIntoView: true }),
    setResolved: (id, resolved) => this.threadActions.setResolved(id, resolved),
    show: (answer) => this.threadActions.show(answer),
    focusThread: (id) => focusThread(this, id),
  };

  /** Open the accessible review view (Alt+F2) on the active document (views/accessible-view.ts). */
  showAccessibleView() {
    openAccessibleView(this, this.accessibleViewActions);
  }

  /** File a new thread on `from..to` of `path` (the comment box's send); true when filed. */
  async fileThread(path: string, from: number, to: number, body: string): Promise<boolean> {
    const review = await this.run(() => this.backend.newThread(path, utf16(from), utf16(to), body));
    if (!review) return false;
    showReview(this, path, review);
    showPanel(this, "threads");
    say(`Comment added in ${docName(path)}.`);
    return true;
  }

  /** What a row of the tree does (views/tree.ts). */
  private readonly treeActions: TreeActions = {
    open: (path) => void this.open(path),
    documentMenu: (path, at) => documentMenu(this, path, at),
    folderMenu: (folder, at) => folderMenu(this, folder, at),
    newDocument: (folder) => newDocument(this, folder),
  };

  /** Draw the sidebar's tree, the open document marked, and with a folder open the editor's place if no document shows (views/tree.ts). */
  showTree() {
    renderTree({ ws: this.ws, active: this.active }, this.treeActions);
    if (this.ws) this.showEditorEmpty();
  }

  /** What the editor's place shows with no document shown (views/tree.ts). */
  showEditorEmpty() {
    renderEditorEmpty({ documentShown: this.view !== null, noDocuments: !!this.ws && !this.ws.documents.length }, () => newDocument(this));
  }

  /** What waits across the workspace may have changed: the Inbox asks again (views/tree.ts's `TreeHost`). */
  inboxChanged() {
    inboxChanged(this);
  }

  /** The listing in `ws` changed: the tree is drawn again (unless it did its rows) and the status bar (views/tree.ts's `TreeHost`). */
  listingChanged(treeDrawn: boolean) {
    if (!treeDrawn) this.showTree();
    renderStatus(this);
  }

  /** What the Inbox tab does (views/inbox-panel.ts). */
  private readonly inboxActions: InboxActions = {
    goTo: (item) => void openInboxItem(this, item),
    step: (dir) => void gotoInboxItem(this, dir),
    decide: (group, accept) => void decideGroup(this, group, accept),
    filter: (change) => {
      this.inbox.filters = { ...this.inbox.filters, ...change };
      this.showInbox();
    },
    showMore: (group) => {
      this.inbox.expanded.add(group);
      this.showInbox();
    },
    saveAll: () => void this.saveAll(),
  };

  /** Draw the Inbox tab from its state (views/inbox-panel.ts; nothing drawn anew when nothing it shows changed). */
  showInbox() {
    const { out, filters, at, error, expanded } = this.inbox;
    const dirty = this.order.filter((p) => this.docs.get(p)?.dirty);
    renderInbox({ out, filters, at, error, expanded, dirty, me: this.me }, this.inboxActions);
  }

  /** Show the next (1) or previous (-1) open document, wrapping (Ctrl+Tab, Ctrl+PageDown / Ctrl+PageUp). */
  cycleTab(dir: 1 | -1) {
    const n = this.order.length;
    if (!n) return;
    const i = this.active ? this.order.indexOf(this.active) : -1;
    this.activate(this.order[(i + dir + n) % n]);
  }

  /** A document the core opened, as a tab (not activated). */
  addDoc(v: OpenedDoc) {
    if (this.docs.has(v.path)) return;
    const doc: OpenDoc = { path: v.path, state: null as unknown as EditorState, version: v.version, dirty: v.dirty, saving: false, conflict: false };
    doc.state = createState(v.text, v.review, this.handlers(doc));
    this.docs.set(v.path, doc);
    this.order.push(v.path);
    if (this.ws) rememberTabs(this.ws.root, this.order, this.active);
  }

  /**
   * `from` was renamed `to` in the core: its tab, buffer, unsaved edits and
   * undo go on under the new name (the core's session moved with it).
   */
  renamed(from: string, to: string) {
    const doc = this.docs.get(from);
    if (!doc) return;
    if (this.active === from && this.view) doc.state = this.view.state;
    this.docs.delete(from);
    doc.path = to;
    this.docs.set(to, doc);
    this.order = renamedOrder(this.order, from, to);
    if (this.active === from) {
      this.active = to;
      // A review refresh scheduled under the old name would ask for a document no longer open.
      window.clearTimeout(this.refreshTimer);
    }
    if (this.ws) rememberTabs(this.ws.root, this.order, this.active);
    this.showTabs();
    renderBanner(this);
    renderStatus(this);
  }

  activate(path: string) {
    if (this.active !== path) this.autosaver.focusChanged();
    if (this.active && this.view) {
      const cur = this.docs.get(this.active);
      if (cur) cur.state = this.view.state;
    }
    const doc = this.docs.get(path);
    if (!doc) return;
    this.active = path;
    if (this.ws) rememberTabs(this.ws.root, this.order, path);
    const host = $(".editor-host");
    if (!this.view) {
      host.replaceChildren();
      this.view = new EditorView({ state: doc.state, parent: host });
      this.view.setTabFocusMode(this.tabFocus);
    } else {
      this.view.setState(doc.state);
    }
    host.classList.toggle("tint-off", !tinted());
    this.tasks.showFor(path);
    this.showTabs();
    this.showTree();
    renderBanner(this);
    renderPanel(this);
    renderStatus(this);
    updateWordCount(this);
    this.view.focus();
  }

  /** Tab moves the focus (true) or indents (false), in this editor and the next; kept. */
  setTabFocus(on: boolean) {
    this.tabFocus = on;
    localStorage.setItem(TAB_FOCUS_KEY, on ? "on" : "off");
    this.view?.setTabFocusMode(on);
    renderStatus(this);
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
      const choice = await ask(`${path} has unsaved changes.`, ["Save", "Discard", "Cancel"], this);
      if (choice === "Cancel" || choice === null) return;
      if (choice === "Save" && !(await this.save(path))) return;
    }
    await this.run(() => this.backend.closeDocument(path));
    this.dropTab(path);
  }

  dropTab(path: string) {
    this.docs.delete(path);
    this.order = this.order.filter((p) => p !== path);
    if (this.ws) rememberTabs(this.ws.root, this.order, this.active === path ? null : this.active);
    if (this.active === path) {
      this.active = null;
      const next = this.order[this.order.length - 1];
      if (next) this.activate(next);
      else {
        const hadFocus = !!this.view?.hasFocus;
        this.view?.destroy();
        this.view = null;
        this.showEditorEmpty();
        this.showTabs();
        renderPanel(this);
        renderStatus(this);
        // The last document closed: the keyboard goes on to the list to open one from (or New document), never the page.
        if (hadFocus || document.activeElement === document.body) {
          document.querySelector<HTMLElement>(".btn-new-doc-main, .tree-item.active, .tree-item")?.focus();
        }
      }
    } else this.showTabs();
  }

  // ---- decisions and saving (the edits' round trip is in edit-sync.ts) ---------------

  async accept(id: string, withText: string | null = null) {
    const proposal = this.review()?.proposals.find((p) => p.id === id);
    if (!(await confirmLikelyPlace(this, this.active, proposal))) return false;
    if (withText === null && !(await this.confirmHidden([id]))) return false;
    return this.decided("Accepted", [id], coreOp(this, (p) => this.backend.accept(p, id, withText)), withText);
  }
  reject(id: string) {
    return this.decided("Rejected", [id], coreOp(this, (p) => this.backend.reject(p, id)));
  }
  async acceptTurn(turn: string) {
    const ids = this.review()?.proposals.filter((p) => p.turnId === turn && p.state === "pending").map((p) => p.id) ?? [];
    const chosen = await this.confirmSeen(ids);
    if (!chosen?.length) return false;
    if (chosen.length < ids.length) return this.acceptAll(chosen, true);
    if (!(await this.confirmHidden(ids))) return false;
    return this.decided("Accepted", ids, coreOp(this, (p) => this.backend.acceptTurn(p, turn)));
  }
  rejectTurn(turn: string) {
    const ids = this.review()?.proposals.filter((p) => p.turnId === turn).map((p) => p.id) ?? [];
    return this.decided("Rejected", ids, coreOp(this, (p) => this.backend.rejectTurn(p, turn)));
  }
  /** Accept a group of proposals (one producer's part of a shared turn) in one call: one undo step. */
  async acceptAll(ids: string[], asked = false) {
    if (!asked) {
      const chosen = await this.confirmSeen(ids);
      if (!chosen?.length) return false;
      ids = chosen;
    }
    if (!(await this.confirmHidden(ids))) return false;
    return this.decided("Accepted", ids, coreOp(this, (p) => this.backend.acceptAll(p, ids)));
  }
  /**
   * Before an Accept all that would take proposals the writer has not seen
   * (coverage.ts: never on screen in the text, as a card or an Inbox row),
   * ask: only the ones seen, or all. The ids to accept; null: cancelled.
   */
  async confirmSeen(ids: string[], path: string | null = this.active): Promise<string[] | null> {
    if (!path) return ids;
    const { seen, unseen } = splitSeen(path, ids);
    if (!unseen.length) return ids;
    const q = coverageQuestion(seen.length, ids.length);
    const options = seen.length ? [q.seen, q.all, "Cancel"] : [q.all, "Cancel"];
    const choice = await ask(q.question, options, this);
    if (choice === q.all) return ids;
    if (choice === q.seen) return seen;
    return null;
  }
  /**
   * Before an accept that would insert hidden characters (bidi overrides,
   * zero-width: `ProposalDto.hidden`), ask the writer once, naming them; a yes
   * tells the core (which refuses such an accept otherwise). False: not confirmed.
   */
  confirmHidden(ids: string[], path: string | null = this.active, proposals = this.review()?.proposals ?? []): Promise<boolean> {
    return confirmHiddenChars(this, path, proposals.filter((p) => ids.includes(p.id)));
  }
  rejectAll(ids: string[]) {
    return this.decided("Rejected", ids, coreOp(this, (p) => this.backend.rejectAll(p, ids)));
  }
  undo() {
    return this.undone("Undone", coreOp(this, (p) => this.backend.undo(p)));
  }
  redo() {
    return this.undone("Redone", coreOp(this, (p) => this.backend.redo(p)));
  }

  /**
   * Speak a decision on the active document once the core made it ("Accepted:
   * 'begins' → 'starts'. 5 pending in essay.md"); `ids` are read before the
   * core answers, while their proposals are still in the review; `edited`: the
   * text the writer accepted instead of the proposed one (Edit… in a card).
   */
  private async decided(verb: "Accepted" | "Rejected", ids: string[], op: Promise<boolean>, edited: string | null = null): Promise<boolean> {
    // `op` has only started: the core's answer is applied from the queue, after this reads the review.
    const path = this.active;
    const decided = (this.review()?.proposals ?? []).filter((p) => ids.includes(p.id)).map((p) => (edited === null ? p : { ...p, replacement: edited }));
    const card = focusAfterDecision();
    const ok = await batchProgress(this.tasks, verb, ids.length, path, op);
    if (ok && path && decided.length) say(decisionWords(verb, decided, this.pendingIn(path), path));
    keepFocus(card);
    return ok;
  }

  /** Speak an undo or redo on the active document: the proposals it brought back or decided again. */
  private async undone(verb: "Undone" | "Redone", op: Promise<boolean>): Promise<boolean> {
    const path = this.active;
    const before: ProposalDto[] = this.review()?.proposals ?? [];
    const card = focusAfterDecision();
    const ok = await op;
    if (ok && path) say(undoWords(verb, before, this.proposalsIn(path), path));
    keepFocus(card);
    return ok;
  }

  /** The proposals of an open document as its editor holds them. */
  proposalsIn(path: string): ProposalDto[] {
    const state = path === this.active && this.view ? this.view.state : this.docs.get(path)?.state;
    return state ? reviewOf(state)?.proposals ?? [] : [];
  }
  pendingIn(path: string): number {
    return pendingCount(this.proposalsIn(path));
  }

  /**
   * Save a document (Ctrl+S). `auto`: an autosave, which writes nothing when the
   * file changed on disk (the conflict banner shows instead) and is quiet.
   */
  async save(path: string | null = this.active, auto = false): Promise<boolean> {
    if (!path) return false;
    const doc = this.docs.get(path);
    if (!doc) return false;
    doc.saving = true;
    renderStatus(this);
    const result = await this.enqueue(() => (auto ? this.backend.autosave(path) : this.backend.save(path)));
    doc.saving = false;
    if (!result) {
      renderStatus(this);
      return false;
    }
    if (result.conflict) {
      doc.conflict = true;
      renderStatus(this);
      renderBanner(this);
      return false;
    }
    doc.dirty = result.dirty;
    doc.conflict = false;
    showReview(this, path, result.review);
    if (result.sidecarSkipped) toast(`Saved ${path}; review data not written: ${result.sidecarSkipped.message}`, "error");
    this.dirtyChanged();
    renderBanner(this);
    return true;
  }

  /**
   * A document's unsaved state changed (an edit, the core's answer, a save):
   * a preview tab the writer changed is theirs from then on (views/inbox-panel.ts);
   * the tab's dot and the status bar's word for it follow.
   */
  dirtyChanged() {
    this.inbox.keepChanged((p) => this.docs.get(p)?.dirty ?? false);
    this.showTabs();
    renderStatus(this);
  }

  /** Save every open document with unsaved changes (the palette's and the Inbox's Save all). */
  async saveAll() {
    for (const p of [...this.order]) if (this.docs.get(p)?.dirty) await this.save(p);
  }

  /**
   * Autosave: every open document with unsaved changes, one after the other,
   * through the core's save — none being saved already, none in conflict with
   * the file on disk (the writer chooses in the banner).
   */
  async autosaveDirty() {
    for (const p of [...this.order]) {
      const doc = this.docs.get(p);
      if (doc?.dirty && !doc.saving && !doc.conflict) await this.save(p, true);
    }
  }

  // ---- the watcher -----------------------------------------------------------------

  async onNotice(n: Notice) {
    // Any of these can change what waits across the workspace.
    inboxChanged(this);
    switch (n.kind) {
      case "treeChanged":
        // Another branch checked out: anything may differ.
        await refreshTree(this);
        break;
      case "entryChanged":
        treeEntryAdded(this, n.entry);
        break;
      case "documentRemoved":
        treeEntryRemoved(this, n.path, n.folderLeft);
        break;
      case "reviewChanged":
        if (this.docs.has(n.path)) {
          // Proposals filed from outside (an agent, a checker, another window): said once, batched.
          const before = this.proposalsIn(n.path);
          await refreshReview(this, n.path);
          // A run of the app's own (Ask Claude…, Check document) says what it filed on its chip (.jobs, a live region): not twice.
          const ours = this.tasks.running().some((t) => t.path === n.path);
          const words = ours ? null : arrivalWords(before, this.proposalsIn(n.path), n.path);
          if (words) say(words);
        }
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
          // Merging it: the merge is shown anew, never applied on the old file.
          if (this.merge?.path === n.path) await refreshMerge(this, n.path);
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
    const choice = await ask(`Unsaved changes in ${dirty.join(", ")}.`, ["Save all and quit", "Quit without saving", "Cancel"], this);
    if (choice === "Save all and quit") {
      for (const p of dirty) if (!(await this.save(p))) return;
      await this.backend.quit();
    } else if (choice === "Quit without saving") {
      await this.backend.quit();
    }
  }
}

/**
 * Where the focus should go if a decision takes away the control that made it
 * (a card's Accept, a group's Accept all): the card after it in the review
 * panel (else the one before), noted before the decision; null when the focus
 * is not in the panel.
 */
function focusAfterDecision(): string | null {
  const at = document.activeElement?.closest<HTMLElement>(".review-body .card, .review-body .group");
  if (!at) return document.activeElement?.closest(".review-body") ? "" : null;
  const cards = Array.from(document.querySelectorAll<HTMLElement>(".review-body .card")).filter((c) => !at.contains(c) && c !== at);
  const after = cards.find((c) => at.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING);
  return (after ?? cards[cards.length - 1])?.dataset.proposal ?? "";
}

/**
 * After a decision the control that made it may be gone: the focus goes to
 * the card noted (`focusAfterDecision`), or the panel's first button, without
 * scrolling the panel away from where the writer was; never to the page.
 */
function keepFocus(card: string | null) {
  const active = document.activeElement;
  if (active && active !== document.body) return;
  const panel = card === null ? null : document.querySelector(".review-body");
  const noted = card ? panel?.querySelector<HTMLElement>(`.card[data-proposal="${CSS.escape(card)}"]`) : null;
  const next =
    noted?.querySelector<HTMLElement>(".btn-accept:not([disabled]), .btn-reject") ??
    panel?.querySelector<HTMLElement>(".card .btn-accept:not([disabled]), .card .btn-reject, .review-tools button");
  if (next) next.focus({ preventScroll: true });
  else document.querySelector<HTMLElement>(".cm-content")?.focus();
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
