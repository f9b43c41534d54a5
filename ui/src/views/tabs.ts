// The tabs of the open documents above the editor (active, unsaved, the
// Inbox's preview, close): a tab list a keyboard reaches (one tab in the Tab
// order; the arrows, Home and End move between them, Enter or Space shows one,
// Delete closes it; Ctrl+Tab / Ctrl+PageDown / Ctrl+PageUp switch from
// anywhere: views/layout.ts). The close button is beside its tab, not in it,
// and out of the Tab order (Ctrl+W closes). Drawn from a plain model with the
// actions a tab has (App.showTabs builds both).
import { $, h } from "../dom";
import { arrowTarget } from "../model/util";

/** One tab: its document, whether it has unsaved changes, whether it is the Inbox's preview. */
export interface TabModel {
  path: string;
  dirty: boolean;
  /**
   * A document the Inbox opened to show an item, unchanged: the next item's
   * replaces it (once changed it is the writer's: InboxView.keepChanged).
   */
  preview: boolean;
}

/** The tabs in order, and the document shown (null: none). */
export interface TabsModel {
  tabs: TabModel[];
  active: string | null;
}

/** What the tabs do. */
export interface TabActions {
  /** Show the document. */
  activate(path: string): void;
  /** Close the document's tab (asked first when unsaved); resolves with the document shown then. */
  close(path: string): Promise<string | null>;
}

/** Draw the tabs, the editor's name for them (the shown tab's, else "No document open"), the keyboard's place kept. */
export function renderTabs(model: TabsModel, actions: TabActions) {
  const tabs = $(".tabs");
  // The keyboard's place in the list survives a re-render (a save, a dirty mark).
  const focused = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>(".tab")?.dataset.path ?? null;
  tabs.replaceChildren();
  const ids = new Map<string, string>();
  model.tabs.forEach(({ path: p, dirty, preview }, i) => {
    const close = h("button", { class: "tab-close", title: "Close (Ctrl+W)", text: "×", tabindex: "-1", "aria-hidden": "true" });
    const name = p.split("/").pop() ?? p;
    const active = p === model.active;
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
        "aria-label": `${name}${dirty ? ", unsaved" : ""}${preview ? ", preview" : ""}`,
        tabindex: active || (!model.active && i === 0) ? "0" : "-1",
      },
      h("span", { class: "tab-name", text: name }),
      h("span", { class: "tab-dirty", title: "Unsaved changes", text: "●" }),
    );
    const tab = h(
      "div",
      {
        class: `tab${active ? " active" : ""}${dirty ? " dirty" : ""}${preview ? " preview" : ""}`,
        role: "none",
        "data-path": p,
        title: preview ? `${p} (opened from the Inbox: the next item's document replaces it unless you change this one)` : p,
      },
      label,
      close,
    );
    tab.addEventListener("click", () => actions.activate(p));
    label.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        actions.activate(p);
      } else if (e.key === "Delete") {
        e.preventDefault();
        void actions.close(p).then(focusTab);
      } else {
        const to = arrowTarget(e.key, i, model.tabs.length);
        if (to === null) return;
        e.preventDefault();
        focusTab(model.tabs[to].path);
      }
    });
    close.addEventListener("click", (e) => {
      e.stopPropagation();
      void actions.close(p);
    });
    tabs.append(tab);
  });
  const host = $(".editor-host");
  const shown = model.active ? ids.get(model.active) : undefined;
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
