// The right-hand panel's shell: which tab shows (Review, Threads, Inbox or
// Search), and re-rendering Review and Threads only when the review shown
// changed, by its revision (the Inbox is told: it fetches the workspace's
// review again); App draws the Review and Threads tabs from their models
// (App.showReviewPanel, App.showThreadsPanel).
import type { App } from "../main";
import { $ } from "../dom";
import { reviewRevisionOf, staleCountOf } from "../extensions/review-field";
import { showPane } from "./panes";
import { inboxChanged } from "./inbox-panel";
import { renderBanner } from "./status";

/** The panel's tabs. */
export type PanelTab = "review" | "threads" | "inbox" | "search";

/** What showing a tab needs of the app (App is one): where it keeps the tab shown. */
export interface PanelHost {
  panelTab: PanelTab;
}

/** Show the Review, Threads or Search tab (and the panel, when it is hidden). */
export function showPanel(host: PanelHost, tab: PanelTab) {
  showPane("panel");
  host.panelTab = tab;
  for (const t of ["review", "threads", "inbox", "search"] as const) {
    const button = $(`.pt-${t}`);
    button.classList.toggle("active", tab === t);
    button.setAttribute("aria-selected", String(tab === t));
    button.tabIndex = tab === t ? 0 : -1;
    $(`.${t}-body`).hidden = tab !== t;
  }
}

/**
 * What the panel last drew: the document, the core's review revision, and
 * how many proposals the writer's edits have turned stale since (the editor
 * counts those); the panel's own state, read by nothing else but `shownStale`.
 */
const shown = { key: "", stale: 0 };

/** How many stale proposals the panel shows now (the edits' round trip says the new ones aloud). */
export function shownStale(): number {
  return shown.stale;
}

/**
 * Re-render the panel for the active document's review, when it changed: the
 * core gives each review a revision that never repeats, so one number is
 * compared, not the review (and the review is built only when drawn). The banner too.
 */
export function renderPanel(app: App) {
  const state = app.view?.state;
  const revision = state ? reviewRevisionOf(state) : null;
  const stale = state ? staleCountOf(state) : 0;
  const key = revision === null ? "" : `${app.active}\u0000${revision}\u0000${stale}`;
  if (key !== shown.key) {
    // The same document's review changed (not another document shown): the Inbox may too.
    if (shown.key.startsWith(`${app.active}\u0000`)) inboxChanged(app);
    shown.key = key;
    shown.stale = stale;
    app.showReviewPanel();
    app.showThreadsPanel();
  }
  renderBanner(app);
}
