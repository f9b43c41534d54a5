// Bare CodeMirror: the floor `make perf` measures the app's keystrokes and
// memory against, in the same webview (the bare_window example of src-tauri,
// which serves this page and the document). The editor the app builds on, with
// the parts every Markdown editor has (Markdown parsing and highlighting, soft
// wrap, the selection, the default keys) and the app's prose font, and none of
// the app: no core, no review, no attribution. Not shipped.
import { EditorState } from "@codemirror/state";
import { EditorView, drawSelection, keymap } from "@codemirror/view";
import { defaultKeymap } from "@codemirror/commands";
import { markdown } from "@codemirror/lang-markdown";
import { defaultHighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { typeAtPace, typeInTurn } from "../src/typing-measure";

const theme = EditorView.theme({
  "&": { height: "100%" },
  ".cm-scroller": { fontFamily: "serif", fontSize: "17px", lineHeight: "1.7" },
});

let view: EditorView | null = null;

/** Type "x" at the cursor; nothing to wait for after the dispatch. */
async function typeOne() {
  if (!view) return;
  const at = view.state.selection.main.head;
  view.dispatch({ changes: { from: at, insert: "x" }, selection: { anchor: at + 1 }, userEvent: "input.type" });
}

async function load() {
  const text = await (await fetch("bare://localhost/doc")).text();
  view = new EditorView({
    state: EditorState.create({
      doc: text,
      extensions: [theme, drawSelection(), EditorView.lineWrapping, markdown(), syntaxHighlighting(defaultHighlightStyle), keymap.of(defaultKeymap)],
    }),
    parent: document.getElementById("editor")!,
  });
  view.dispatch({ selection: { anchor: Math.floor(text.length / 2) }, scrollIntoView: true });
  view.focus();
}

const loaded = load();

declare global {
  interface Window {
    __bare: unknown;
  }
}

window.__bare = {
  ready: async () => {
    await loaded;
    return view != null;
  },
  length: () => view?.state.doc.length ?? null,
  /** Type `n` characters, one after the other; each: keystroke to the next frame, in ms (as the app's measureTyping). */
  measureTyping: (n: number) => typeInTurn(n, typeOne),
  /** Type `n` characters, one every `every` ms by the clock (as the app's typeAtPace). */
  typeAtPace: (n: number, every: number) => typeAtPace(n, every, typeOne),
};
