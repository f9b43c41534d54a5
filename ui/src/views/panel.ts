// The right-hand panel's shell: which tab shows (Review or Threads), and
// re-rendering both only when the review shown changed.
import type { App } from "../main";
import { $ } from "../dom";
import { showPane } from "./panes";
import { renderReviewPanel } from "./review-panel";
import { renderBanner } from "./status";
import { renderThreadsPanel } from "./threads-panel";

/** Show the Review or the Threads tab (and the panel, when it is hidden). */
export function showPanel(app: App, tab: "review" | "threads") {
  showPane("panel");
  app.panelTab = tab;
  $(".pt-review").classList.toggle("active", tab === "review");
  $(".pt-threads").classList.toggle("active", tab === "threads");
  $(".review-body").hidden = tab !== "review";
  $(".threads-body").hidden = tab !== "threads";
}

/** Re-render the panel for the active document's review (skipped when unchanged), and the banner. */
export function renderPanel(app: App) {
  const review = app.review();
  const key = `${app.active}\u0000${review ? JSON.stringify(review) : ""}`;
  app.shownStale = review?.proposals.filter((p) => p.state !== "pending").length ?? 0;
  if (key !== app.shownReview) {
    app.shownReview = key;
    renderReviewPanel(app);
    renderThreadsPanel(app);
  }
  renderBanner(app);
}
