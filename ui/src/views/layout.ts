// The window's skeleton (sidebar with documents and outline, tab bar with the
// panels' toggles, editor, status bar, panel with its legend, toast and modal
// roots) and its wiring: the chrome's buttons and the window-wide keys (Ctrl+S,
// Ctrl+Shift+P, Ctrl+Shift+F, Ctrl+K, Ctrl+,, Ctrl+N, Ctrl+O, Ctrl+Q, F7, Ctrl+Alt+I, F4 / Shift+F4,
// Esc; the layout's own in
// views/panes.ts). The editor's own keys are in commands.ts.
import type { App } from "../main";
import { $ } from "../dom";
import { askClaude } from "../dialogs/ask-claude";
import { reviewWithClaude } from "../dialogs/review-claude";
import { openSettings } from "../dialogs/settings";
import { checkDocument } from "../producers";
import { newDocument } from "./doc-actions";
import { closeModal, modalOpen } from "./modal";
import { openPalette } from "./palette";
import { showPanel, type PanelTab } from "./panel";
import { gotoInboxItem, openInbox } from "./inbox-panel";
import { openSearch } from "./search-panel";
import { wirePanes } from "./panes";
import { toggleTint } from "./status";

/** The window's elements, which the views fill in; set once at start. */
export const LAYOUT = `
<div class="app">
  <aside class="sidebar">
    <div class="ws-header"><span class="ws-name"></span><button class="ws-new" title="New document (Ctrl+N)" aria-label="New document">+ New</button><button class="ws-open" title="Open folder (Ctrl+O)">Open…</button></div>
    <div class="recent"></div>
    <nav class="tree" aria-label="Documents"></nav>
    <section class="outline-pane" aria-label="Outline">
      <div class="outline-head" title="Go to heading (Ctrl+Shift+O)">Outline</div>
      <nav class="outline"></nav>
    </section>
  </aside>
  <main class="main">
    <div class="topbar">
      <button class="tb-sidebar tb-toggle" title="Show or hide the documents and outline (Ctrl+B)" aria-label="Sidebar"><svg viewBox="0 0 16 16" aria-hidden="true"><rect x="1.5" y="2.5" width="13" height="11" rx="1.5"/><rect class="fill" x="1.5" y="2.5" width="4.5" height="11" rx="1.5"/></svg></button>
      <div class="tabs" role="tablist"></div>
      <button class="tb-focus tb-toggle" title="Focus mode (Ctrl+Alt+F; Esc leaves)" aria-label="Focus mode"><svg viewBox="0 0 16 16" aria-hidden="true"><path d="M2 6V2h4M10 2h4v4M14 10v4h-4M6 14H2v-4"/></svg></button>
      <button class="tb-panel tb-toggle" title="Show or hide the review panel (Ctrl+Alt+B)" aria-label="Review panel"><svg viewBox="0 0 16 16" aria-hidden="true"><rect x="1.5" y="2.5" width="13" height="11" rx="1.5"/><rect class="fill" x="10" y="2.5" width="4.5" height="11" rx="1.5"/></svg></button>
    </div>
    <div class="restore-notice" role="status" hidden></div>
    <div class="banner" hidden></div>
    <div class="editor-host"><div class="empty">Open a document from the list on the left.</div></div>
    <div class="jobs" role="status" aria-live="polite"></div>
    <footer class="statusbar">
      <span class="st-branch"></span><span class="st-save"></span><span class="st-words"></span>
      <span class="st-spacer"></span>
      <span class="st-proposals"></span><span class="st-threads"></span>
      <button class="st-tint" title="Toggle Claude tint (Ctrl+Shift+A)">Claude tint</button>
      <button class="st-you" title="Who you are (Settings…)"></button>
      <button class="st-settings" title="Settings (Ctrl+,)" aria-label="Settings">⚙</button>
      <button class="st-palette" title="Command palette (Ctrl+Shift+P)">⌘</button>
    </footer>
  </main>
  <aside class="panel">
    <div class="panel-tabs" role="tablist">
      <button class="pt-review active" data-tab="review">Review</button>
      <button class="pt-threads" data-tab="threads">Threads</button>
      <button class="pt-inbox" data-tab="inbox" title="Everything waiting across the workspace: every document's proposals and open threads (Ctrl+Alt+I)">Inbox</button>
      <button class="pt-search" data-tab="search" title="Search the workspace (Ctrl+Shift+F)">Search</button>
    </div>
    <div class="legend" aria-label="What the marks in the text mean">
      <span class="lg lg-ins" title="Text a proposal adds (accept or reject it)">added</span>
      <span class="lg lg-del" title="Text a proposal removes">removed</span>
      <span class="lg lg-thread" title="Text a comment thread is about, with a note in the right margin when the window has room (click either to see the thread)">comment</span>
      <span class="lg lg-claude" title="Text accepted from Claude (hover it: who, when, what was asked; Ctrl+Shift+A hides the tint)">Claude's</span>
    </div>
    <div class="panel-body review-body"></div>
    <div class="panel-body threads-body" hidden></div>
    <div class="panel-body inbox-body" hidden></div>
    <div class="panel-body search-body" hidden></div>
  </aside>
</div>
<div class="toast" hidden></div>
<div class="modal-root"></div>`;

/** Wire the chrome's buttons and the window-wide keys. */
export function wireChrome(app: App) {
  // First: its keys (Esc leaving focus mode) go before the window's others.
  wirePanes(app);
  $(".ws-open").addEventListener("click", () => void app.openFolderDialog());
  $(".ws-new").addEventListener("click", () => newDocument(app));
  $(".st-tint").addEventListener("click", () => toggleTint(app));
  $(".st-palette").addEventListener("click", () => openPalette(app));
  $(".st-settings").addEventListener("click", () => void openSettings(app));
  $(".st-you").addEventListener("click", () => void openSettings(app));
  for (const b of Array.from(document.querySelectorAll<HTMLButtonElement>(".panel-tabs button"))) {
    b.addEventListener("click", () => (b.dataset.tab === "search" ? openSearch(app) : b.dataset.tab === "inbox" ? openInbox(app) : showPanel(app, b.dataset.tab as PanelTab)));
  }
  window.addEventListener("keydown", (e) => {
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.shiftKey && e.key.toLowerCase() === "p") {
      e.preventDefault();
      openPalette(app);
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
