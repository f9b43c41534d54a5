// The caret rests after a pause: it blinks while the writer works and stands
// still (shown, not blinking) once `CARET_REST_MS` pass without a key, a click,
// a change or a focus, as GTK's own text fields do (gtk-cursor-blink-timeout,
// 10 s). A blinking caret repaints the window twice a second: the untouched app
// spent about 1 CPU-second a minute on nothing else (issue 37; 0.08 s with the
// caret at rest).
import { StateEffect, StateField, type Extension } from "@codemirror/state";
import { EditorView, ViewPlugin, type ViewUpdate } from "@codemirror/view";

/** How long the caret blinks after the writer's last key, click or change, in ms. */
export const CARET_REST_MS = 10_000;

const rest = StateEffect.define<boolean>();

/** Whether the caret is at rest now. */
export const caretResting = StateField.define<boolean>({
  create: () => false,
  update(v, tr) {
    for (const e of tr.effects) if (e.is(rest)) v = e.value;
    return v;
  },
  provide: (f) => EditorView.editorAttributes.from(f, (resting): Record<string, string> => (resting ? { class: "cm-caretRest" } : {})),
});

export function caretRest(ms = CARET_REST_MS): Extension {
  const plugin = ViewPlugin.fromClass(
    class {
      private timer: ReturnType<typeof setTimeout> | undefined;
      constructor(readonly view: EditorView) {
        this.wake();
      }
      update(u: ViewUpdate) {
        if (u.docChanged || u.selectionSet || u.focusChanged) this.wake();
      }
      /** The writer did something: blink again, and rest after `ms` more. */
      wake() {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.set(true), ms);
        this.set(false);
      }
      set(resting: boolean) {
        if (this.view.state.field(caretResting) === resting) return;
        // Not inside an update: the timer's callback, or the next microtask
        // when `wake` runs from `update` (a view cannot dispatch while updating).
        const send = () => this.view.dom.isConnected && this.view.state.field(caretResting) !== resting && this.view.dispatch({ effects: rest.of(resting) });
        if (resting) send();
        else queueMicrotask(send);
      }
      destroy() {
        clearTimeout(this.timer);
      }
    },
    {
      eventHandlers: {
        keydown() {
          this.wake();
        },
        pointerdown() {
          this.wake();
        },
      },
    },
  );
  return [
    caretResting,
    plugin,
    // CodeMirror sets the blink's animation on the layer's own style; this wins over it.
    EditorView.theme({ "&.cm-caretRest > .cm-scroller > .cm-cursorLayer": { animation: "none !important" } }),
  ];
}
