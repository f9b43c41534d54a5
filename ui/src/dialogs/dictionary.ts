// Settings' Dictionary fieldset: the words of the workspace's dictionary
// (`.cowriting/dictionary.txt`) that spelling as you type and Check document
// leave out, each with a remove button, and a field to add one. A change is
// written by the core at once (not with Save) and the underlines are redone.
import type { EditorView } from "@codemirror/view";
import type { DictionaryOut } from "../bindings/DictionaryOut";
import { errorMessage, type Backend } from "../backend";
import { h } from "../dom";
import { dictionaryChanged } from "../extensions/spelling";
import { toast } from "../views/modal";

/** What the fieldset needs of the app (App is one): the core's dictionary calls, and the editor whose underlines are redone. */
export interface DictionaryHost {
  readonly backend: Pick<Backend, "dictionary" | "addWord" | "removeWord">;
  readonly view: EditorView | null;
}

/** The fieldset, filled once the core has read the dictionary. */
export function dictionaryFieldset(app: DictionaryHost): HTMLFieldSetElement {
  const list = h("ul", { class: "set-words", "aria-label": "Words in this workspace's dictionary" });
  const note = h("span", { class: "set-note set-words-file" });
  const word = h("input", { class: "set-word", type: "text", spellcheck: "false", placeholder: "a word to accept", "aria-label": "Add a word" });
  const add = h("button", { class: "set-word-add", type: "button", text: "Add" });
  const set = h(
    "fieldset",
    { class: "set-dictionary" },
    h("legend", { text: "Dictionary" }),
    list,
    h("div", { class: "set-word-row" }, word, add),
    note,
  );

  const show = (d: DictionaryOut) => {
    list.replaceChildren(
      ...d.words.map((w) => {
        const remove = h("button", { class: "set-word-remove", type: "button", title: `Take “${w}” out of the dictionary`, "aria-label": `Remove ${w}`, text: "×" });
        remove.addEventListener("click", () => change(() => app.backend.removeWord(w), `“${w}” is no longer in this workspace's dictionary.`));
        return h("li", { class: "set-word-item", "data-word": w }, h("span", { text: w }), remove);
      }),
    );
    if (!d.words.length) list.append(h("li", { class: "set-note set-words-empty", text: "No words yet: “Add to dictionary” on an underlined word puts it here." }));
    note.textContent = `Spelling leaves these words out in this workspace (${d.file}); changes are saved at once.`;
  };

  const change = async (call: () => Promise<DictionaryOut>, done: string) => {
    try {
      show(await call());
      dictionaryChanged(app.view);
      toast(done);
    } catch (e) {
      toast(errorMessage(e), "error");
    }
  };
  const addTyped = () => {
    const w = word.value.trim();
    if (!w) return;
    void change(() => app.backend.addWord(w), `“${w}” is in this workspace's dictionary.`).then(() => {
      word.value = "";
    });
  };
  add.addEventListener("click", addTyped);
  // Enter adds the word; it does not submit (save) the whole dialog.
  word.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    addTyped();
  });

  void app.backend.dictionary().then(show, (e) => {
    note.textContent = `The dictionary could not be read: ${errorMessage(e)}`;
  });
  return set;
}
