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

const theme = EditorView.theme({
  "&": { height: "100%" },
  ".cm-scroller": { fontFamily: "serif", fontSize: "17px", lineHeight: "1.7" },
});

let view: EditorView | null = null;

/** The next animation frame: what was dispatched before it is painted in that frame. */
const frame = () => new Promise<number>((r) => requestAnimationFrame(r));

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
  /** Type `n` characters at the cursor; each: dispatch to the next frame, in ms (as the app's measureTyping). */
  measureTyping: async (n: number) => {
    const times: number[] = [];
    for (let i = 0; i < n && view; i++) {
      const at = view.state.selection.main.head;
      const t0 = performance.now();
      view.dispatch({ changes: { from: at, insert: "x" }, selection: { anchor: at + 1 }, userEvent: "input.type" });
      await frame();
      times.push(performance.now() - t0);
    }
    return times;
  },
  /**
   * Type `n` characters, one every `every` ms by the clock (as the app's
   * typeAtPace); each: from the moment it was due to the next frame, in ms.
   */
  typeAtPace: (n: number, every: number) =>
    new Promise<number[]>((resolve) => {
      const times: number[] = new Array(n).fill(NaN);
      let done = 0;
      const start = performance.now() + every;
      const key = (i: number) => {
        const due = start + i * every;
        if (view) {
          const at = view.state.selection.main.head;
          view.dispatch({ changes: { from: at, insert: "x" }, selection: { anchor: at + 1 }, userEvent: "input.type" });
        }
        void frame().then(() => {
          times[i] = performance.now() - due;
          if (++done === n) resolve(times);
        });
        if (i + 1 < n) window.setTimeout(() => key(i + 1), Math.max(0, start + (i + 1) * every - performance.now()));
      };
      window.setTimeout(() => key(0), every);
    }),
};
