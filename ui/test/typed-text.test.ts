// Typed text is inserted by the editor, not by WebKit (extensions/typed-text.ts):
// a `beforeinput` of plain typed text is handled and its default prevented, so
// WebKit registers no editing command of its own; compositions are left alone.
import { afterEach, describe, expect, it } from "vitest";
import { EditorSelection, EditorState, type Extension, type Transaction } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { typedText } from "../src/extensions/typed-text";

let view: EditorView | undefined;
afterEach(() => view?.destroy());

function editor(doc: string, extensions: Extension[] = []) {
  const seen: Transaction[] = [];
  view = new EditorView({
    state: EditorState.create({ doc, extensions: [typedText, ...extensions] }),
    parent: document.body,
    dispatchTransactions: (trs, v) => {
      seen.push(...trs);
      v.update(trs);
    },
  });
  return { view, seen };
}

function type(v: EditorView, data: string, init: InputEventInit = {}) {
  const event = new InputEvent("beforeinput", { inputType: "insertText", data, bubbles: true, cancelable: true, ...init });
  v.contentDOM.dispatchEvent(event);
  return event;
}

describe("typedText", () => {
  it("inserts typed text at the cursor as the writer's typing, and WebKit does nothing", () => {
    const { view, seen } = editor("Hello world");
    view.dispatch({ selection: { anchor: 5 } });
    seen.length = 0;
    const event = type(view, ",");
    expect(event.defaultPrevented).toBe(true);
    expect(view.state.doc.toString()).toBe("Hello, world");
    expect(view.state.selection.main.head).toBe(6);
    expect(seen).toHaveLength(1);
    expect(seen[0].isUserEvent("input.type")).toBe(true);
    expect(seen[0].scrollIntoView).toBe(true);
  });

  it("replaces what is selected, every range of it", () => {
    const { view } = editor("one two one", [EditorState.allowMultipleSelections.of(true)]);
    view.dispatch({ selection: EditorSelection.create([EditorSelection.range(0, 3), EditorSelection.range(8, 11)]) });
    type(view, "1");
    expect(view.state.doc.toString()).toBe("1 two 1");
  });

  it("offers the text to the input handlers first; one that takes it decides", () => {
    const calls: string[] = [];
    const { view } = editor("ab", [
      EditorView.inputHandler.of((v, from, to, text) => {
        calls.push(`${from}-${to}:${text}`);
        if (text !== "(") return false;
        v.dispatch({ changes: { from, to, insert: "()" }, selection: { anchor: from + 1 }, userEvent: "input.type" });
        return true;
      }),
    ]);
    view.dispatch({ selection: { anchor: 1 } });
    type(view, "(");
    type(view, "x");
    expect(calls).toEqual(["1-1:(", "2-2:x"]);
    expect(view.state.doc.toString()).toBe("a(x)b");
  });

  it("leaves an input method's composition, and other kinds of input, to the browser", () => {
    const { view } = editor("text");
    expect(type(view, "é", { isComposing: true }).defaultPrevented).toBe(false);
    const composing = new InputEvent("beforeinput", { inputType: "insertCompositionText", data: "é", bubbles: true, cancelable: true });
    view.contentDOM.dispatchEvent(composing);
    expect(composing.defaultPrevented).toBe(false);
    const paste = new InputEvent("beforeinput", { inputType: "insertFromPaste", bubbles: true, cancelable: true });
    view.contentDOM.dispatchEvent(paste);
    expect(paste.defaultPrevented).toBe(false);
    expect(view.state.doc.toString()).toBe("text");
  });

  it("read-only, nothing is inserted by either", () => {
    const { view } = editor("text", [EditorState.readOnly.of(true)]);
    expect(type(view, "x").defaultPrevented).toBe(true);
    expect(view.state.doc.toString()).toBe("text");
  });
});
