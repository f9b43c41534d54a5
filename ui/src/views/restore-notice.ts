// The notice after a crash: which documents were restored from the last
// session (opened unsaved by App.reopenRestored), and which could not be. It
// stays until dismissed.
import type { RestoreReport } from "../bindings/RestoreReport";
import { $, h } from "../dom";
import { restoreNotice } from "../model/restore";

/** Show the notice of what the core restored after a crash (nothing when there is nothing to say); it stays until dismissed. */
export function showRestoreNotice(report: RestoreReport) {
  const lines = restoreNotice(report);
  if (!lines.length) return;
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
