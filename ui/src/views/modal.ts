// Dialogs and messages over the window: a modal with buttons (`modal`,
// `closeModal`), a question that resolves to the button chosen (`ask`), a
// menu at a point (`menu`: a tree item's), and the toast at the bottom
// (`toast`). One modal or menu at a time, in .modal-root.
import { $, h } from "../dom";
import { setText } from "../hidden";
import { say } from "./live";

/**
 * A short message at the bottom of the window; errors stay longer (`ms`: how
 * long, for a message worth reading). Spoken once through the live regions
 * (an error assertively); the toast itself is no live region.
 */
export function toast(message: string, kind: "error" | "info" = "info", ms?: number) {
  const t = $(".toast");
  setText(t, message);
  say(message, kind === "error" ? "assertive" : "polite");
  t.className = `toast toast-${kind}`;
  t.hidden = false;
  window.clearTimeout((t as unknown as { timer?: number }).timer);
  (t as unknown as { timer?: number }).timer = window.setTimeout(() => (t.hidden = true), ms ?? (kind === "error" ? 6000 : 2500));
}

/**
 * What had the focus before the dialog or menu open now (a button, a tab, the
 * editor): it gets it back when the dialog closes. Kept while one dialog
 * replaces another (a menu's item opening a dialog).
 */
let opener: HTMLElement | null = null;
/** What closing the open dialog also does (a question resolves to null). */
let onClose: (() => void) | null = null;
let dialogs = 0;

/** What a dialog needs of the app (App is one): the editor, which gets the focus back when what opened the dialog is gone. */
export interface ModalHost {
  readonly view: { focus(): void } | null;
}

/** Note what has the focus as a dialog opens over the window (unless it is in the dialog being replaced). */
function noteOpener() {
  const active = document.activeElement;
  const root = $(".modal-root");
  if (active instanceof HTMLElement && active !== document.body && !root.contains(active)) opener = active;
  const close = onClose;
  onClose = null;
  close?.();
}

/** Give the focus back to what opened the dialog, else to the editor. */
function restoreFocus(host: ModalHost) {
  const to = opener;
  opener = null;
  if (to?.isConnected && !to.closest("[hidden]") && !to.hasAttribute("disabled")) to.focus();
  else host.view?.focus();
}

/** Name a dialog box: by its heading, else by `label`; modal, so a screen reader keeps to it. */
function nameDialog(box: HTMLElement, heading: HTMLElement | null, label: string) {
  box.setAttribute("aria-modal", "true");
  if (heading) {
    heading.id ||= `dialog-title-${++dialogs}`;
    box.setAttribute("aria-labelledby", heading.id);
  } else box.setAttribute("aria-label", label);
}

/** The elements Tab stops at inside `root`, in order. */
export function tabStops(root: HTMLElement): HTMLElement[] {
  const sel = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
  return Array.from(root.querySelectorAll<HTMLElement>(sel)).filter((el) => !el.closest("[hidden]") && el.tabIndex >= 0);
}

/**
 * Keep Tab and Shift+Tab inside the open dialog (wired once on .modal-root):
 * from its last stop to its first and back, and into it when the focus is on
 * the dialog itself.
 */
export function trapFocus(e: KeyboardEvent) {
  if (e.key !== "Tab" || e.ctrlKey || e.altKey || e.metaKey) return;
  const box = $(".modal-root").querySelector<HTMLElement>('[role="dialog"], [role="alertdialog"], [role="menu"]');
  if (!box) return;
  const stops = tabStops(box);
  if (!stops.length) {
    e.preventDefault();
    return;
  }
  const i = stops.indexOf(document.activeElement as HTMLElement);
  if (e.shiftKey && i <= 0) {
    e.preventDefault();
    stops[stops.length - 1].focus();
  } else if (!e.shiftKey && (i === -1 || i === stops.length - 1)) {
    e.preventDefault();
    stops[0].focus();
  }
}

/** Once the dialog is up and its opener has focused what it wants: if nothing in it has the focus, its first stop (or itself) gets it. */
function focusInside(box: HTMLElement) {
  window.setTimeout(() => {
    if (!box.isConnected || box.contains(document.activeElement)) return;
    const first = tabStops(box)[0];
    if (first) first.focus();
    else {
      box.tabIndex = -1;
      box.focus();
    }
  }, 0);
}

/**
 * A dialog over the window: named by `title` (or `label` without one), modal,
 * Tab kept inside it, Esc or Cancel closing it and giving the focus back to
 * what opened it. A dialog that only reports says `dismiss = "Close"`.
 */
export function modal(host: ModalHost, title: string | null, body: HTMLElement, buttons: [string, () => void][], label = "Dialog", dismiss = "Cancel") {
  noteOpener();
  const root = $(".modal-root");
  const box = h("div", { class: "modal", role: "dialog" });
  const heading = title ? h("h2", { text: title }) : null;
  if (heading) box.append(heading);
  nameDialog(box, heading, label);
  box.append(body);
  if (buttons.length) {
    const row = h("div", { class: "modal-actions" });
    for (const [label, f] of buttons) {
      const b = h("button", { text: label, "data-action": label });
      b.addEventListener("click", () => {
        closeModal(host);
        f();
      });
      row.append(b);
    }
    const cancel = h("button", { text: dismiss, class: "modal-cancel" });
    cancel.addEventListener("click", () => closeModal(host));
    row.append(cancel);
    box.append(row);
  }
  const backdrop = h("div", { class: "backdrop" }, box);
  backdrop.addEventListener("mousedown", (e) => {
    if (e.target === backdrop) closeModal(host);
  });
  root.replaceChildren(backdrop);
  focusInside(box);
}

/** Whether a dialog (modal, question, palette) is open. */
export function modalOpen(): boolean {
  return $(".modal-root").childElementCount > 0;
}

/** Close the dialog and give the focus back to what opened it (else the editor). */
export function closeModal(host: ModalHost) {
  const close = onClose;
  onClose = null;
  $(".modal-root").replaceChildren();
  restoreFocus(host);
  close?.();
}

/** Ask with buttons; resolves to the label chosen (null when dismissed: Esc, or another dialog over it). */
export function ask(question: string, options: string[], host: ModalHost | null = null): Promise<string | null> {
  return new Promise((resolve) => {
    noteOpener();
    const root = $(".modal-root");
    const text = h("p", { text: question });
    const box = h("div", { class: "modal", role: "alertdialog" }, text);
    nameDialog(box, text, question);
    const row = h("div", { class: "modal-actions" });
    for (const o of options) {
      const b = h("button", { text: o, "data-action": o });
      b.addEventListener("click", () => {
        onClose = null;
        root.replaceChildren();
        if (host) restoreFocus(host);
        resolve(o);
      });
      row.append(b);
    }
    box.append(row);
    root.replaceChildren(h("div", { class: "backdrop" }, box));
    onClose = () => resolve(null);
    focusInside(box);
  });
}

/** A menu at `at` (a right click, or under a ⋯ button): arrows and Enter or a click choose, Esc or a click elsewhere closes. */
export function menu(host: ModalHost, at: { x: number; y: number }, items: [string, () => void][]) {
  noteOpener();
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
  // A named region: a menu over the window is content too, and every content is in a landmark.
  const backdrop = h("div", { class: "menu-backdrop", role: "region", "aria-label": "Menu" }, list);
  backdrop.addEventListener("mousedown", (e) => {
    if (e.target === backdrop) closeModal(host);
  });
  backdrop.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    if (e.target === backdrop) closeModal(host);
  });
  root.replaceChildren(backdrop);
  buttons[0]?.focus();
}
