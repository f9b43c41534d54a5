// The window's skeleton (sidebar, tabs, editor, status bar, panel, toast and
// modal roots) and its wiring: the chrome's buttons and the window-wide keys
// (Ctrl+S, Ctrl+Shift+P, Ctrl+Shift+F, Ctrl+K, Ctrl+,, Ctrl+N, Ctrl+O, Ctrl+Q, F7, Esc). The editor's
// own keys are in commands.ts.
import type { App } from "../main";
import { $ } from "../dom";
import { askClaude } from "../dialogs/ask-claude";
import { openSettings } from "../dialogs/settings";
import { checkDocument } from "../producers";
import { newDocument } from "./doc-actions";
import { closeModal, modalOpen } from "./modal";
import { openPalette } from "./palette";
import { showPanel, type PanelTab } from "./panel";
import { openSearch } from "./search-panel";
import { toggleTint } from "./status";

/** The window's elements, which the views fill in; set once at start. */
export const LAYOUT = `
<div class="app">
  <aside class="sidebar">
    <div class="ws-header"><span class="ws-name"></span><button class="ws-new" title="New document (Ctrl+N)" aria-label="New document">+ New</button><button class="ws-open" title="Open folder (Ctrl+O)">Open…</button></div>
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
      <button class="st-you" title="Who you are (Settings…)"></button>
      <button class="st-settings" title="Settings (Ctrl+,)" aria-label="Settings">⚙</button>
      <button class="st-palette" title="Command palette (Ctrl+Shift+P)">⌘</button>
    </footer>
  </main>
  <aside class="panel">
    <div class="panel-tabs" role="tablist">
      <button class="pt-review active" data-tab="review">Review</button>
      <button class="pt-threads" data-tab="threads">Threads</button>
      <button class="pt-search" data-tab="search" title="Search the workspace (Ctrl+Shift+F)">Search</button>
    </div>
    <div class="panel-body review-body"></div>
    <div class="panel-body threads-body" hidden></div>
    <div class="panel-body search-body" hidden></div>
  </aside>
</div>
<div class="toast" hidden></div>
<div class="modal-root"></div>`;

/** Wire the chrome's buttons and the window-wide keys. */
export function wireChrome(app: App) {
  $(".ws-open").addEventListener("click", () => void app.openFolderDialog());
  $(".ws-new").addEventListener("click", () => newDocument(app));
  $(".st-tint").addEventListener("click", () => toggleTint(app));
  $(".st-palette").addEventListener("click", () => openPalette(app));
  $(".st-settings").addEventListener("click", () => void openSettings(app));
  $(".st-you").addEventListener("click", () => void openSettings(app));
  for (const b of Array.from(document.querySelectorAll<HTMLButtonElement>(".panel-tabs button"))) {
    b.addEventListener("click", () => (b.dataset.tab === "search" ? openSearch(app) : showPanel(app, b.dataset.tab as PanelTab)));
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
    } else if (mod && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "k") {
      e.preventDefault();
      if (!modalOpen()) askClaude(app);
    } else if (mod && e.key === ",") {
      e.preventDefault();
      if (!modalOpen()) void openSettings(app);
    } else if (e.key === "F7" && !mod && !e.shiftKey && !e.altKey) {
      e.preventDefault();
      if (!modalOpen()) void checkDocument(app);
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
