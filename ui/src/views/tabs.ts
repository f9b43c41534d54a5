// The tabs of the open documents above the editor (active, unsaved, the
// Inbox's preview, close).
import type { App } from "../main";
import { $, h } from "../dom";

export function renderTabs(app: App) {
  const tabs = $(".tabs");
  tabs.replaceChildren();
  for (const p of app.order) {
    const doc = app.docs.get(p)!;
    const close = h("button", { class: "tab-close", title: "Close (Ctrl+W)", text: "×" });
    // A document the Inbox opened to show an item, unchanged: the next item's
    // replaces it. Once changed it is the writer's: kept, even after a save.
    if (app.inbox.preview === p && doc.dirty) app.inbox.preview = null;
    const preview = app.inbox.preview === p;
    const tab = h(
      "div",
      {
        class: `tab${p === app.active ? " active" : ""}${doc.dirty ? " dirty" : ""}${preview ? " preview" : ""}`,
        role: "tab",
        "data-path": p,
        title: preview ? `${p} (opened from the Inbox: the next item's document replaces it unless you change this one)` : p,
      },
      h("span", { class: "tab-name", text: p.split("/").pop() ?? p }),
      h("span", { class: "tab-dirty", title: "Unsaved changes", text: "●" }),
      close,
    );
    tab.addEventListener("click", () => app.activate(p));
    close.addEventListener("click", (e) => {
      e.stopPropagation();
      void app.closeTab(p);
    });
    tabs.append(tab);
  }
}
