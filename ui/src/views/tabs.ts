// The tabs of the open documents above the editor (active, unsaved, the
// Inbox's preview, close): a tab list a keyboard reaches (one tab in the Tab
// order; the arrows, Home and End move between them, Enter or Space shows one,
// Delete closes it; Ctrl+Tab / Ctrl+PageDown / Ctrl+PageUp switch from
// anywhere: views/layout.ts). The close button is beside its tab, not in it,
// and out of the Tab order (Ctrl+W closes).
import type { App } from "../main";
import { $, h } from "../dom";
import { arrowTarget } from "../model/util";

export function renderTabs(app: App) {
  const tabs = $(".tabs");
  // The keyboard's place in the list survives a re-render (a save, a dirty mark).
  const focused = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>(".tab")?.dataset.path ?? null;
  tabs.replaceChildren();
  const ids = new Map<string, string>();
  app.order.forEach((p, i) => {
    const doc = app.docs.get(p)!;
    const close = h("button", { class: "tab-close", title: "Close (Ctrl+W)", text: "×", tabindex: "-1", "aria-hidden": "true" });
    // A document the Inbox opened to show an item, unchanged: the next item's
    // replaces it (once changed it is the writer's: InboxView.keepChanged).
    const preview = app.inbox.preview === p;
    const name = p.split("/").pop() ?? p;
    const active = p === app.active;
    const id = `doc-tab-${i}`;
    ids.set(p, id);
    const label = h(
      "div",
      {
        class: "tab-label",
        role: "tab",
        id,
        "aria-selected": String(active),
        "aria-controls": "editor-panel",
        "aria-label": `${name}${doc.dirty ? ", unsaved" : ""}${preview ? ", preview" : ""}`,
        tabindex: active || (!app.active && i === 0) ? "0" : "-1",
      },
      h("span", { class: "tab-name", text: name }),
      h("span", { class: "tab-dirty", title: "Unsaved changes", text: "●" }),
    );
    const tab = h(
      "div",
      {
        class: `tab${active ? " active" : ""}${doc.dirty ? " dirty" : ""}${preview ? " preview" : ""}`,
        role: "none",
        "data-path": p,
        title: preview ? `${p} (opened from the Inbox: the next item's document replaces it unless you change this one)` : p,
      },
      label,
      close,
    );
    tab.addEventListener("click", () => app.activate(p));
    label.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        app.activate(p);
      } else if (e.key === "Delete") {
        e.preventDefault();
        void app.closeTab(p).then(() => focusTab(app.active));
      } else {
        const to = arrowTarget(e.key, i, app.order.length);
        if (to === null) return;
        e.preventDefault();
        focusTab(app.order[to]);
      }
    });
    close.addEventListener("click", (e) => {
      e.stopPropagation();
      void app.closeTab(p);
    });
    tabs.append(tab);
  });
  const host = $(".editor-host");
  const shown = app.active ? ids.get(app.active) : undefined;
  if (shown) {
    host.removeAttribute("aria-label");
    host.setAttribute("aria-labelledby", shown);
  } else {
    host.removeAttribute("aria-labelledby");
    host.setAttribute("aria-label", "No document open");
  }
  if (focused) focusTab(focused);
}

/** Put the keyboard on the tab of `path` (the one in the Tab order from then on). */
function focusTab(path: string | null) {
  if (!path) return;
  const labels = Array.from(document.querySelectorAll<HTMLElement>(".tab-label"));
  const label = document.querySelector<HTMLElement>(`.tab[data-path="${CSS.escape(path)}"] .tab-label`);
  if (!label) return;
  for (const l of labels) l.tabIndex = l === label ? 0 : -1;
  label.focus();
}

/** Show the next (1) or previous (-1) open document, wrapping (Ctrl+Tab, Ctrl+PageDown / Ctrl+PageUp). */
export function cycleTab(app: App, dir: 1 | -1) {
  const n = app.order.length;
  if (!n) return;
  const i = app.active ? app.order.indexOf(app.active) : -1;
  app.activate(app.order[(i + dir + n) % n]);
}

