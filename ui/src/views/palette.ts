// The command palette (Ctrl+Shift+P): the commands filtered as the writer
// types, chosen with the arrows and Enter or a click; the same picker serves
// Go to document… (Ctrl+P: a few letters of its name, model/fuzzy.ts) and Go to
// heading… (views/outline.ts). Each takes only what it uses of the app: the
// dialog's host (`ModalHost`) and the documents or the commands.
import type { Command } from "../commands";
import { h } from "../dom";
import { bestMatches } from "../model/fuzzy";
import { closeModal, modal, type ModalHost } from "./modal";

/** Whether `c` is what `typed` asks for: every word of it in its title or keywords. */
export function matches(c: Command, typed: string): boolean {
  const hay = `${c.title} ${c.keywords ?? ""}`.toLowerCase();
  return typed.toLowerCase().split(/\s+/).every((w) => hay.includes(w));
}

/** A list the writer filters by typing and picks from with the arrows and Enter or a click. */
export interface Picker<T> {
  placeholder: string;
  label: string;
  /** The dialog's name ("Command palette"), else `label`. */
  dialogLabel?: string;
  /** The list's extra class. */
  listClass?: string;
  /** The items for what is typed, in order. */
  filter: (typed: string) => T[];
  /** One item's row (a `li`; the picker marks the selected one). */
  row: (item: T) => HTMLLIElement;
  pick: (item: T) => void;
  /** The row shown when no item matches, if any. */
  none?: () => string;
  /** The item selected at first. */
  initial?: number;
}

let pickers = 0;

/** Open `p` in a dialog over `host`: the field focused, the list under it. */
export function openPicker<T>(host: ModalHost, p: Picker<T>) {
  // A combobox: the field keeps the focus, the list is its listbox, the selected row its active descendant.
  const listId = `picker-list-${++pickers}`;
  const input = h("input", {
    class: "palette-input",
    placeholder: p.placeholder,
    "aria-label": p.label,
    role: "combobox",
    "aria-expanded": "true",
    "aria-controls": listId,
    "aria-autocomplete": "list",
  });
  const list = h("ul", { class: `palette-list${p.listClass ? ` ${p.listClass}` : ""}`, id: listId, role: "listbox", "aria-label": p.dialogLabel ?? p.label, tabindex: "0" });
  let selected = p.initial ?? 0;
  const filtered = () => p.filter(input.value);
  const pick = (item: T) => {
    closeModal(host);
    p.pick(item);
  };
  const render = () => {
    list.replaceChildren();
    const items = filtered();
    if (!items.length && p.none) list.append(h("li", { class: "palette-none", role: "option", "aria-disabled": "true", "aria-selected": "false", text: p.none() }));
    input.removeAttribute("aria-activedescendant");
    list.removeAttribute("aria-activedescendant");
    items.forEach((item, i) => {
      const li = p.row(item);
      li.id = `${listId}-${i}`;
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", String(i === selected));
      if (i === selected) {
        li.classList.add("selected");
        input.setAttribute("aria-activedescendant", li.id);
        list.setAttribute("aria-activedescendant", li.id);
      }
      li.addEventListener("click", () => pick(item));
      list.append(li);
    });
    list.querySelector(".selected")?.scrollIntoView({ block: "nearest" });
  };
  input.addEventListener("input", () => {
    selected = 0;
    render();
  });
  const onKey = (e: KeyboardEvent) => {
    const items = filtered();
    if (e.key === "ArrowDown") selected = Math.min(items.length - 1, selected + 1);
    else if (e.key === "ArrowUp") selected = Math.max(0, selected - 1);
    else if (e.key === "Enter" && items[selected] !== undefined) {
      // Not on to the editor, which has the focus once the picker closes (it would type a line break).
      e.preventDefault();
      return pick(items[selected]);
    } else return;
    e.preventDefault();
    render();
  };
  // The list is a stop of its own (it scrolls: a keyboard must reach it), with the field's keys.
  input.addEventListener("keydown", onKey);
  list.addEventListener("keydown", onKey);
  render();
  modal(host, null, h("div", { class: "palette" }, input, list), [], p.dialogLabel ?? p.label);
  input.focus();
}

/** What Go to document… uses of the app: the workspace's documents (null: no folder open) and opening one. */
export interface QuickOpenHost extends ModalHost {
  readonly ws: { readonly documents: readonly { readonly path: string }[] } | null;
  open(path: string): Promise<void>;
}

/** What the command palette uses of the app: its commands. */
export interface PaletteHost extends ModalHost {
  readonly commands: readonly Command[];
}

/** Go to document… (Ctrl+P): the workspace's documents by a few letters of their names, the best 50. */
export function openQuickOpen(app: QuickOpenHost) {
  const paths = app.ws?.documents.map((d) => d.path) ?? [];
  openPicker<string>(app, {
    placeholder: "Go to document (a few letters of its name)…",
    label: "Document",
    dialogLabel: "Go to document",
    listClass: "quick-open-list",
    filter: (typed) => bestMatches(paths, typed),
    row: (path) => {
      const cut = path.lastIndexOf("/") + 1;
      return h("li", { "data-path": path }, h("span", { text: path.slice(cut) }), cut ? h("span", { class: "quick-open-dir", text: path.slice(0, cut) }) : null);
    },
    pick: (path) => void app.open(path),
    none: () => (paths.length ? "No document's name has those letters." : "No documents here."),
  });
}

/** The command palette (Ctrl+Shift+P): the commands whose title or keywords have every word typed. */
export function openPalette(app: PaletteHost) {
  openPicker<Command>(app, {
    placeholder: "Type a command…",
    label: "Command",
    dialogLabel: "Command palette",
    filter: (typed) => app.commands.filter((c) => matches(c, typed)),
    row: (c) => h("li", { "data-command": c.id }, h("span", { text: c.title }), c.keys ? h("kbd", { text: c.keys }) : null),
    pick: (c) => void c.run(),
  });
}
