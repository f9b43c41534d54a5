// The window's skeleton (sidebar with documents and outline, tab bar with the
// panels' toggles, editor, status bar, panel with its legend, toast and modal
// roots, the live regions, a visually hidden h1) and its wiring: the chrome's
// buttons, the panel's tab list (arrows) and the window-wide keys (Ctrl+S,
// Ctrl+Shift+P, Ctrl+P, Ctrl+Shift+F, Ctrl+K, Ctrl+,, Ctrl+N, Ctrl+O, Ctrl+Q, F7, Ctrl+Alt+I, F4 / Shift+F4,
// Ctrl+Tab / Ctrl+PageDown / Ctrl+PageUp, Ctrl+M, Alt+F1, Alt+F2, Ctrl+Z outside the text,
// Esc; a dialog's Tab kept inside it; the layout's own in
// views/panes.ts, given the editor and Go to heading…). The editor's own keys
// are in commands.ts. `wireChrome` takes the App, not a narrow handle: its
// buttons and keys reach most of what the app does (save, quit, undo, the
// tabs), and the dialogs and panels they open take the App themselves.
import type { App } from "../main";
import { $ } from "../dom";
import { askClaude } from "../dialogs/ask-claude";
import { reviewWithClaude } from "../dialogs/review-claude";
import { openSettings } from "../dialogs/settings";
import { checkDocument } from "../producers";
import { newDocument } from "./doc-actions";
import { closeModal, modalOpen, trapFocus } from "./modal";
import { openHeadingPicker } from "./outline";
import { openPalette, openQuickOpen } from "./palette";
import { showPanel, type PanelTab } from "./panel";
import { gotoInboxItem, openInbox } from "./inbox-panel";
import { openSearch } from "./search-panel";
import { wirePanes } from "./panes";
import { toggleTabFocus, toggleTint } from "./status";
import { LIVE_REGIONS } from "./live";
import { arrowTarget } from "../model/util";

/** The window's elements, which the views fill in; set once at start. */
export const LAYOUT = `
<div class="app">
  <aside class="sidebar" aria-label="Documents and outline">
    <div class="ws-header"><span class="ws-name"></span><button class="ws-new" title="New document (Ctrl+N)" aria-label="New document">+ New</button><button class="ws-open" title="Open folder (Ctrl+O)">Open…</button></div>
    <div class="recent"></div>
    <nav class="tree" aria-label="Documents"></nav>
    <section class="outline-pane" aria-label="Outline">
      <div class="outline-head" title="Go to heading (Ctrl+Shift+O)">Outline</div>
      <nav class="outline"></nav>
    </section>
  </aside>
  <main class="main">
    <h1 class="visually-hidden app-title">Cowriting</h1>
    <div class="topbar">
      <button class="tb-sidebar tb-toggle" title="Show or hide the documents and outline (Ctrl+B)" aria-label="Sidebar"><svg viewBox="0 0 16 16" aria-hidden="true"><rect x="1.5" y="2.5" width="13" height="11" rx="1.5"/><rect class="fill" x="1.5" y="2.5" width="4.5" height="11" rx="1.5"/></svg></button>
      <div class="tabs" role="tablist" aria-label="Open documents"></div>
      <button class="tb-focus tb-toggle" title="Focus mode (Ctrl+Alt+F; Esc leaves)" aria-label="Focus mode"><svg viewBox="0 0 16 16" aria-hidden="true"><path d="M2 6V2h4M10 2h4v4M14 10v4h-4M6 14H2v-4"/></svg></button>
      <button class="tb-panel tb-toggle" title="Show or hide the review panel (Ctrl+Alt+B)" aria-label="Review panel"><svg viewBox="0 0 16 16" aria-hidden="true"><rect x="1.5" y="2.5" width="13" height="11" rx="1.5"/><rect class="fill" x="10" y="2.5" width="4.5" height="11" rx="1.5"/></svg></button>
    </div>
    <div class="restore-notice" role="status" hidden></div>
    <div class="banner" hidden></div>
    <div class="editor-host" id="editor-panel" role="tabpanel" aria-label="No document open"><div class="empty" aria-busy="true">Opening the workspace…</div></div>
    <div class="jobs" role="status" aria-live="polite"></div>
    <footer class="statusbar">
      <span class="st-branch"></span><span class="st-save"></span><span class="st-words"></span>
      <span class="st-spacer"></span>
      <span class="st-proposals"></span><span class="st-threads"></span>
      <button class="st-tabfocus" title="Tab moves the focus out of the text instead of indenting (Ctrl+M toggles)" hidden>Tab moves focus</button>
      <button class="st-tint" title="Toggle Claude tint (Ctrl+Shift+A)">Claude tint</button>
      <button class="st-you" title="Who you are (Settings…)"></button>
      <button class="st-settings" title="Settings (Ctrl+,)" aria-label="Settings">⚙</button>
      <button class="st-palette" title="Command palette (Ctrl+Shift+P)" aria-label="Command palette">⌘</button>
    </footer>
  </main>
  <aside class="panel" aria-label="Review panel">
    <h2 class="visually-hidden">Review panel</h2>
    <div class="panel-tabs" role="tablist" aria-label="Review panel">
      <button class="pt-review active" data-tab="review" role="tab" id="tab-review" aria-controls="panel-review" aria-selected="true">Review</button>
      <button class="pt-threads" data-tab="threads" role="tab" id="tab-threads" aria-controls="panel-threads" aria-selected="false" tabindex="-1">Threads</button>
      <button class="pt-inbox" data-tab="inbox" role="tab" id="tab-inbox" aria-controls="panel-inbox" aria-selected="false" tabindex="-1" title="Everything waiting across the workspace: every document's proposals and open threads (Ctrl+Alt+I)">Inbox</button>
      <button class="pt-search" data-tab="search" role="tab" id="tab-search" aria-controls="panel-search" aria-selected="false" tabindex="-1" title="Search the workspace (Ctrl+Shift+F)">Search</button>
    </div>
    <div class="legend" role="group" aria-label="What the marks in the text mean">
      <span class="lg lg-ins" title="Text a proposal adds (accept or reject it)">added</span>
      <span class="lg lg-del" title="Text a proposal removes">removed</span>
      <span class="lg lg-thread" title="Text a comment thread is about, with a note in the right margin when the window has room (click either to see the thread)">comment</span>
      <span class="lg lg-claude" title="Text accepted from Claude (hover it: who, when, what was asked; Ctrl+Shift+A hides the tint)">Claude's</span>
    </div>
    <div class="panel-body review-body" role="tabpanel" id="panel-review" aria-labelledby="tab-review"></div>
    <div class="panel-body threads-body" role="tabpanel" id="panel-threads" aria-labelledby="tab-threads" hidden></div>
    <div class="panel-body inbox-body" role="tabpanel" id="panel-inbox" aria-labelledby="tab-inbox" hidden></div>
    <div class="panel-body search-body" role="tabpanel" id="panel-search" aria-labelledby="tab-search" hidden></div>
  </aside>
</div>
<div class="toast" hidden></div>${LIVE_REGIONS}
<div class="modal-root"></div>`;

/** Wire the chrome's buttons and the window-wide keys. */
export function wireChrome(app: App) {
  // First: its keys (Esc leaving focus mode) go before the window's others.
  wirePanes(app, { headingPicker: () => openHeadingPicker(app) });
  $(".ws-open").addEventListener("click", () => void app.openFolderDialog());
  $(".ws-new").addEventListener("click", () => newDocument(app));
  $(".st-tint").addEventListener("click", () => toggleTint());
  $(".st-palette").addEventListener("click", () => openPalette(app));
  $(".st-settings").addEventListener("click", () => void openSettings(app));
  $(".st-you").addEventListener("click", () => void openSettings(app));
  $(".st-tabfocus").addEventListener("click", () => toggleTabFocus(app));
  $(".modal-root").addEventListener("keydown", trapFocus);
  const panelTabs = Array.from(document.querySelectorAll<HTMLButtonElement>(".panel-tabs button"));
  for (const b of panelTabs) {
    b.addEventListener("click", () => (b.dataset.tab === "search" ? openSearch(app) : b.dataset.tab === "inbox" ? openInbox(app) : showPanel(app, b.dataset.tab as PanelTab)));
  }
  // The panel's tab list: the arrows, Home and End move between its tabs; Enter or Space shows one.
  $(".panel-tabs").addEventListener("keydown", (e) => {
    const i = panelTabs.indexOf(document.activeElement as HTMLButtonElement);
    const to = arrowTarget(e.key, i, panelTabs.length);
    if (i < 0 || to === null) return;
    e.preventDefault();
    panelTabs[to].focus();
  });
  window.addEventListener("keydown", (e) => {
    const mod = e.ctrlKey || e.metaKey;
    if (e.ctrlKey && !e.altKey && (e.key === "Tab" || e.key === "PageDown" || e.key === "PageUp")) {
      // The next / previous document's tab (Ctrl+Tab, Ctrl+PageDown / Ctrl+Shift+Tab, Ctrl+PageUp).
      e.preventDefault();
      if (!modalOpen()) app.cycleTab(e.key === "PageUp" || (e.key === "Tab" && e.shiftKey) ? -1 : 1);
    } else if (e.ctrlKey && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "m" && !e.defaultPrevented) {
      // Outside the editor (which has its own binding): Tab moves focus, on or off.
      e.preventDefault();
      if (!modalOpen()) toggleTabFocus(app);
    } else if (mod && !e.altKey && (e.key.toLowerCase() === "z" || (e.key.toLowerCase() === "y" && !e.shiftKey)) && !e.defaultPrevented && !inTextField(e.target)) {
      // Undo / redo outside the text too (a card's Accept, the panel's buttons): the editor's own keys go first.
      e.preventDefault();
      if (!modalOpen()) void (e.shiftKey || e.key.toLowerCase() === "y" ? app.redo() : app.undo());
    } else if (e.altKey && !mod && !e.shiftKey && (e.key === "F2" || e.key === "F1") && !e.defaultPrevented) {
      // Outside the editor too: the accessible review view (Alt+F2), the keys' help (Alt+F1).
      e.preventDefault();
      if (!modalOpen()) void app.commands.find((c) => c.id === (e.key === "F2" ? "accessible-view" : "keys"))?.run();
    } else if (mod && e.shiftKey && e.key.toLowerCase() === "p") {
      e.preventDefault();
      openPalette(app);
    } else if (mod && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "p") {
      e.preventDefault();
      if (!modalOpen()) openQuickOpen(app);
    } else if (mod && e.shiftKey && !e.altKey && e.key.toLowerCase() === "f") {
      e.preventDefault();
      if (!modalOpen()) openSearch(app);
    } else if (mod && !e.shiftKey && e.key.toLowerCase() === "s") {
      e.preventDefault();
      void app.save();
    } else if (mod && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "q") {
      e.preventDefault();
      if (!modalOpen()) void app.requestQuit();
    } else if (mod && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "n") {
      e.preventDefault();
      if (!modalOpen()) newDocument(app);
    } else if (mod && !e.shiftKey && e.key.toLowerCase() === "o") {
      e.preventDefault();
      void app.openFolderDialog();
    } else if (mod && e.altKey && !e.shiftKey && e.code === "KeyK") {
      e.preventDefault();
      if (!modalOpen()) reviewWithClaude(app);
    } else if (mod && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "k") {
      e.preventDefault();
      if (!modalOpen()) askClaude(app);
    } else if (mod && e.key === ",") {
      e.preventDefault();
      if (!modalOpen()) void openSettings(app);
    } else if (e.key === "F7" && !mod && !e.shiftKey && !e.altKey) {
      e.preventDefault();
      if (!modalOpen()) void checkDocument(app);
    } else if (mod && e.altKey && !e.shiftKey && (e.code === "KeyI" || e.key.toLowerCase() === "i")) {
      e.preventDefault();
      if (!modalOpen()) openInbox(app);
    } else if (e.key === "F4" && !mod && !e.altKey) {
      e.preventDefault();
      if (!modalOpen()) void gotoInboxItem(app, e.shiftKey ? -1 : 1);
    } else if (e.key === "Escape") {
      // Esc closes a dialog; with none open (and nothing else, like the
      // editor's selection, taking it) it cancels the newest running task —
      // unless the writer is in a text field of the panels.
      const target = e.target instanceof Element ? e.target : null;
      const inField = !!target?.closest("textarea, input, select") && !target.closest(".cm-editor");
      const task = !modalOpen() && !e.defaultPrevented && !inField ? app.tasks.running().pop() : undefined;
      if (task) {
        e.preventDefault();
        app.tasks.cancel(task);
      } else closeModal(app);
    }
  });
}

/** Whether a key went to a place that edits text of its own (a field, the editor), which has its own undo. */
function inTextField(target: EventTarget | null): boolean {
  return target instanceof Element && !!target.closest('input, textarea, select, [contenteditable="true"], .cm-editor');
}
