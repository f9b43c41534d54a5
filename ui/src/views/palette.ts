// The command palette (Ctrl+Shift+P): the commands filtered as the writer
// types, chosen with the arrows and Enter or a click.
import type { App } from "../main";
import type { Command } from "../commands";
import { h } from "../dom";
import { closeModal, modal } from "./modal";

/** Whether `c` is what `typed` asks for: every word of it in its title or keywords. */
export function matches(c: Command, typed: string): boolean {
  const hay = `${c.title} ${c.keywords ?? ""}`.toLowerCase();
  return typed.toLowerCase().split(/\s+/).every((w) => hay.includes(w));
}

export function openPalette(app: App) {
  const input = h("input", { class: "palette-input", placeholder: "Type a command…", "aria-label": "Command" });
  const list = h("ul", { class: "palette-list" });
  let selected = 0;
  const filtered = () => app.commands.filter((c) => matches(c, input.value));
  const render = () => {
    list.replaceChildren();
    filtered().forEach((c, i) => {
      const li = h("li", { class: i === selected ? "selected" : "", "data-command": c.id }, h("span", { text: c.title }), h("kbd", { text: c.keys }));
      li.addEventListener("click", () => pick(c));
      list.append(li);
    });
  };
  const pick = (c: Command) => {
    closeModal(app);
    void c.run();
  };
  input.addEventListener("input", () => {
    selected = 0;
    render();
  });
  input.addEventListener("keydown", (e) => {
    const items = filtered();
    if (e.key === "ArrowDown") selected = Math.min(items.length - 1, selected + 1);
    else if (e.key === "ArrowUp") selected = Math.max(0, selected - 1);
    else if (e.key === "Enter" && items[selected]) {
      // Not on to the editor, which has the focus once the palette closes (it would type a line break).
      e.preventDefault();
      return pick(items[selected]);
    } else return;
    e.preventDefault();
    render();
  });
  render();
  modal(app, null, h("div", { class: "palette" }, input, list), []);
  input.focus();
}
