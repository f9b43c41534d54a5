// Keyboard and screen reader help (views/keys-help.ts) from a plain list of
// commands, with no App: the commands with a key first, in their order, then
// the keys that are no command; a dialog named by its heading, the table in
// reach of the keyboard; closed (a click beside it), the focus goes back to what opened it, else
// to the editor.
import { beforeEach, describe, expect, it } from "vitest";
import { q } from "./dom";
import { OTHER_KEYS, openKeysHelp } from "../src/views/keys-help";

const COMMANDS = [
  { keys: "Ctrl+K", title: "Ask Claude…" },
  { keys: "", title: "Toggle spelling as you type" },
  { keys: "Alt+F1", title: "Keyboard and screen reader help (every key)" },
];

beforeEach(() => {
  document.body.innerHTML = `<button class="opener">Help</button><div class="modal-root"></div><div class="live-polite"></div><div class="live-assertive"></div>`;
});

const rows = () => Array.from(document.querySelectorAll(".keys-table tbody tr"), (tr) => [tr.querySelector("kbd")!.textContent, tr.children[1].textContent]);

describe("the keys' help", () => {
  it("lists the commands that have a key, then the other keys", () => {
    openKeysHelp(COMMANDS, { view: null });
    expect(rows()).toEqual([["Ctrl+K", "Ask Claude…"], ["Alt+F1", "Keyboard and screen reader help (every key)"], ...OTHER_KEYS]);
    expect(Array.from(document.querySelectorAll(".keys-table thead th"), (th) => th.textContent)).toEqual(["Keys", "What they do"]);
  });

  it("is a dialog named by its heading, the table focused; closed, the focus goes back", () => {
    const opener = q<HTMLButtonElement>(".opener")!;
    opener.focus();
    let editor = 0;
    const host = { view: { focus: () => void editor++ } };
    openKeysHelp(COMMANDS, host);
    const box = q(".modal-root [role=dialog]")!;
    expect(q(`#${box.getAttribute("aria-labelledby")}`)!.textContent).toBe("Keyboard and screen reader help");
    expect(document.activeElement).toBe(q(".keys-help"));
    expect(q(".keys-help")!.getAttribute("aria-label")).toBe("Keys");
    q(".modal-root .backdrop")!.dispatchEvent(new MouseEvent("mousedown", { bubbles: true }));
    expect(q(".modal-root")!.childElementCount).toBe(0);
    expect(document.activeElement).toBe(opener);
    expect(editor).toBe(0);
    // Opened from nothing that takes the focus back: the editor gets it.
    opener.remove();
    openKeysHelp([], host);
    expect(rows()).toEqual(OTHER_KEYS);
    q(".modal-root .backdrop")!.dispatchEvent(new MouseEvent("mousedown", { bubbles: true }));
    expect(editor).toBe(1);
  });
});
