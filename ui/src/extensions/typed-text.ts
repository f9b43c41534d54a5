// Typed text, inserted by the editor rather than by WebKit. Left to the
// browser, each run of typing in the editable text is one of WebKit's own
// editing commands, registered on WebKit's undo stack: the app never uses that
// stack (undo is the core's), nothing empties it while the page lives, and each
// command keeps the DOM nodes it touched, long after CodeMirror replaced them.
// Over a long session that was the web process's slow growth (issue 37;
// docs/performance.md, "A long session's web process").
//
// So plain typed text (`beforeinput` of type `insertText`, outside an input
// method's composition) is inserted here, as CodeMirror inserts what it reads
// back from the DOM: offered to the input handlers first, else replacing the
// selection, as user event "input.type", scrolled into view. The browser's
// default is prevented, so no command is registered. Compositions, and the
// keys CodeMirror's keymap already handles (Enter, Backspace, Delete) or its
// own event handlers (paste, cut, drop), are left as they were.
import type { Transaction } from "@codemirror/state";
import { EditorView } from "@codemirror/view";

export const typedText = EditorView.domEventHandlers({
  beforeinput(event, view) {
    if (event.inputType !== "insertText" || event.isComposing || view.composing || event.data == null) return false;
    // Read-only (a core operation in flight): the text does not change, as
    // CodeMirror ignores a DOM change then; nothing is inserted either way.
    if (view.state.readOnly) return true;
    const text = event.data;
    const { from, to } = view.state.selection.main;
    let tr: Transaction | undefined;
    const insert = () => (tr ??= view.state.update(view.state.replaceSelection(text), { userEvent: "input.type", scrollIntoView: true }));
    if (!view.state.facet(EditorView.inputHandler).some((handle) => handle(view, from, to, text, insert))) view.dispatch(insert());
    return true;
  },
});
