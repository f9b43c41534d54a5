// The notice after a crash: which documents were restored from the last
// session (opened unsaved), and which could not be. It stays until dismissed.
import type { App } from "../main";
import type { RestoreReport } from "../bindings/RestoreReport";
import { $, h } from "../dom";
import { restoreNotice } from "../model/restore";

/**
 * After a crash: open each document restored from the last session in a tab
 * (unsaved, as the core says), and say so in a notice that stays until
 * dismissed. A file that changed on disk since also gets the conflict banner
 * (keep mine / load theirs / compare).
 */
export async function showRestored(app: App, report: RestoreReport) {
  const lines = restoreNotice(report);
  if (!lines.length) return;
  for (const r of report.restored) {
    await app.open(r.path);
    const doc = app.docs.get(r.path);
    if (doc && r.fileChanged) doc.conflict = true;
  }
  const first = report.restored[0];
  if (first) app.activate(first.path);
  const el = $(".restore-notice");
  const close = h("button", { class: "rn-dismiss", title: "Dismiss", "aria-label": "Dismiss", text: "×" });
  close.addEventListener("click", () => dismissRestoreNotice());
  el.replaceChildren(
    h("span", { class: "rn-icon", "aria-hidden": "true", text: "↺" }),
    h("div", { class: "rn-lines" }, ...lines.map((l) => h("div", { class: "rn-line", text: l }))),
    close,
  );
  el.classList.toggle("rn-warn", report.unrestored.length > 0 || report.restored.some((r) => r.fileChanged));
  el.hidden = false;
}

/** Hide the notice (its × button, or another workspace opened). */
export function dismissRestoreNotice() {
  const el = $(".restore-notice");
  el.hidden = true;
  el.replaceChildren();
}
