// Dialogs and messages over the window: a modal with buttons (`modal`,
// `closeModal`), a question that resolves to the button chosen (`ask`), a
// menu at a point (`menu`: a tree item's), and the toast at the bottom
// (`toast`). One modal or menu at a time, in .modal-root.
import type { App } from "../main";
import { $, h } from "../dom";
import { setText } from "../hidden";

/** A short message at the bottom of the window; errors stay longer (`ms`: how long, for a message worth reading). */
export function toast(message: string, kind: "error" | "info" = "info", ms?: number) {
  const t = $(".toast");
  setText(t, message);
  t.className = `toast toast-${kind}`;
  t.hidden = false;
  window.clearTimeout((t as unknown as { timer?: number }).timer);
  (t as unknown as { timer?: number }).timer = window.setTimeout(() => (t.hidden = true), ms ?? (kind === "error" ? 6000 : 2500));
}

export function modal(app: App, title: string | null, body: HTMLElement, buttons: [string, () => void][]) {
  const root = $(".modal-root");
  const box = h("div", { class: "modal", role: "dialog" });
  if (title) box.append(h("h2", { text: title }));
  box.append(body);
  if (buttons.length) {
    const row = h("div", { class: "modal-actions" });
    for (const [label, f] of buttons) {
      const b = h("button", { text: label, "data-action": label });
      b.addEventListener("click", () => {
        closeModal(app);
        f();
      });
      row.append(b);
    }
    const cancel = h("button", { text: "Cancel", class: "modal-cancel" });
    cancel.addEventListener("click", () => closeModal(app));
    row.append(cancel);
    box.append(row);
  }
  const backdrop = h("div", { class: "backdrop" }, box);
  backdrop.addEventListener("mousedown", (e) => {
    if (e.target === backdrop) closeModal(app);
  });
  root.replaceChildren(backdrop);
}

/** Whether a dialog (modal, question, palette) is open. */
export function modalOpen(): boolean {
  return $(".modal-root").childElementCount > 0;
}

/** Close the dialog and give the focus back to the editor. */
export function closeModal(app: App) {
  $(".modal-root").replaceChildren();
  app.view?.focus();
}

/** Ask with buttons; resolves to the label chosen (null when dismissed). */
export function ask(question: string, options: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    const root = $(".modal-root");
    const box = h("div", { class: "modal", role: "alertdialog" }, h("p", { text: question }));
    const row = h("div", { class: "modal-actions" });
    for (const o of options) {
      const b = h("button", { text: o, "data-action": o });
      b.addEventListener("click", () => {
        root.replaceChildren();
        resolve(o);
      });
      row.append(b);
    }
    box.append(row);
    root.replaceChildren(h("div", { class: "backdrop" }, box));
  });
}

/** A menu at `at` (a right click, or under a ⋯ button): arrows and Enter or a click choose, Esc or a click elsewhere closes. */
export function menu(app: App, at: { x: number; y: number }, items: [string, () => void][]) {
  const root = $(".modal-root");
  const list = h("div", { class: "menu", role: "menu" });
  list.style.left = `${Math.max(0, Math.min(at.x, window.innerWidth - 240))}px`;
  list.style.top = `${Math.max(0, Math.min(at.y, window.innerHeight - 40 * items.length))}px`;
  const buttons = items.map(([label, f]) => {
    const b = h("button", { class: "menu-item", role: "menuitem", text: label, "data-action": label });
    b.addEventListener("click", () => {
      root.replaceChildren();
      f();
    });
    list.append(b);
    return b;
  });
  list.addEventListener("keydown", (e) => {
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === "ArrowDown") buttons[(i + 1) % buttons.length].focus();
    else if (e.key === "ArrowUp") buttons[(i - 1 + buttons.length) % buttons.length].focus();
    else return;
    e.preventDefault();
  });
  const backdrop = h("div", { class: "menu-backdrop" }, list);
  backdrop.addEventListener("mousedown", (e) => {
    if (e.target === backdrop) closeModal(app);
  });
  backdrop.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    if (e.target === backdrop) closeModal(app);
  });
  root.replaceChildren(backdrop);
  buttons[0]?.focus();
}
