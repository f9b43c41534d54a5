// The right-hand panel's shell: which tab shows (Review, Threads, Inbox or
// Search), and re-rendering Review and Threads only when the review shown
// changed (the Inbox is told: it fetches the workspace's review again).
import type { App } from "../main";
import { $ } from "../dom";
import { showPane } from "./panes";
import { inboxChanged } from "./inbox-panel";
import { renderReviewPanel } from "./review-panel";
import { renderBanner } from "./status";
import { renderThreadsPanel } from "./threads-panel";

/** The panel's tabs. */
export type PanelTab = "review" | "threads" | "inbox" | "search";

/** Show the Review, Threads or Search tab (and the panel, when it is hidden). */
export function showPanel(app: App, tab: PanelTab) {
  showPane("panel");
  app.panelTab = tab;
  for (const t of ["review", "threads", "inbox", "search"] as const) {
    const button = $(`.pt-${t}`);
    button.classList.toggle("active", tab === t);
    button.setAttribute("aria-selected", String(tab === t));
    button.tabIndex = tab === t ? 0 : -1;
    $(`.${t}-body`).hidden = tab !== t;
  }
}

/** Re-render the panel for the active document's review (skipped when unchanged), and the banner. */
export function renderPanel(app: App) {
  const review = app.review();
  const key = `${app.active}\u0000${review ? JSON.stringify(review) : ""}`;
  app.shownStale = review?.proposals.filter((p) => p.state !== "pending").length ?? 0;
  if (key !== app.shownReview) {
    // The same document's review changed (not another document shown): the Inbox may too.
    if (app.shownReview.startsWith(`${app.active}\u0000`)) inboxChanged(app);
    app.shownReview = key;
    renderReviewPanel(app);
    renderThreadsPanel(app);
  }
  renderBanner(app);
}
