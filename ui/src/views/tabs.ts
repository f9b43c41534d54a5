// The tabs of the open documents above the editor (active, unsaved, close).
import type { App } from "../main";
import { $, h } from "../dom";

export function renderTabs(app: App) {
  const tabs = $(".tabs");
  tabs.replaceChildren();
  for (const p of app.order) {
    const doc = app.docs.get(p)!;
    const close = h("button", { class: "tab-close", title: "Close (Ctrl+W)", text: "×" });
    const tab = h(
      "div",
      { class: `tab${p === app.active ? " active" : ""}${doc.dirty ? " dirty" : ""}`, role: "tab", "data-path": p, title: p },
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
