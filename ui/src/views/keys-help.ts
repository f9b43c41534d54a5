// Keyboard and screen reader help (Alt+F1, and the palette): every command
// with its key (App.commands, the palette's list, as given), and the keys that
// are not commands — moving in the tab lists, leaving the text, the review view's.
import { h } from "../dom";
import { modal, type ModalHost } from "./modal";

/** Keys that are not commands of the palette: what they do. */
export const OTHER_KEYS: [string, string][] = [
  ["Ctrl+M", "Tab moves the focus out of the text instead of indenting (on or off; the status bar says when on)"],
  ["Esc, then Tab", "leave the text once, without turning Tab moves focus on"],
  ["Ctrl+Tab / Ctrl+PageDown", "next document tab; Ctrl+Shift+Tab / Ctrl+PageUp the previous"],
  ["← / → in a tab list", "move between the document tabs or the panel's tabs; Enter or Space shows one, Delete closes a document tab"],
  ["Alt+F2", "read the proposal at the cursor as words; there Alt+Enter, Alt+Backspace, Alt+] and Alt+[ decide and move on, Ctrl+Z undoes, Alt+T reads the threads, Esc goes back"],
  ["Esc", "close a dialog: the focus goes back to what opened it"],
];

/** The help dialog over `host`: a table of keys, the commands' first (those with a key). */
export function openKeysHelp(commands: readonly { keys: string; title: string }[], host: ModalHost) {
  const rows = [...commands.filter((c) => c.keys).map((c): [string, string] => [c.keys, c.title]), ...OTHER_KEYS];
  const table = h(
    "table",
    { class: "keys-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Keys" }), h("th", { scope: "col", text: "What they do" }))),
    h("tbody", {}, ...rows.map(([keys, what]) => h("tr", {}, h("td", {}, h("kbd", { text: keys })), h("td", { text: what })))),
  );
  const box = h("div", { class: "keys-help", tabindex: "0", role: "region", "aria-label": "Keys" }, table);
  modal(host, "Keyboard and screen reader help", box, []);
  box.focus();
}
