// The caret rests after a pause (extensions/caret-rest.ts): it blinks while the
// writer works, stands still once the pause has passed (the editor carries
// `cm-caretRest`, whose rule stops the cursor layer's animation), and blinks
// again at the next key, click, cursor move or change.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { CARET_REST_MS, caretRest, caretResting } from "../src/extensions/caret-rest";

let view: EditorView;
beforeEach(() => {
  vi.useFakeTimers();
  view = new EditorView({ state: EditorState.create({ doc: "Some text.", extensions: [caretRest()] }), parent: document.body });
});
afterEach(() => {
  view.destroy();
  vi.useRealTimers();
});

const resting = () => view.state.field(caretResting) && view.dom.classList.contains("cm-caretRest");
const flush = () => vi.advanceTimersByTimeAsync(0);

describe("caretRest", () => {
  it("blinks for the pause, then rests", async () => {
    expect(resting()).toBe(false);
    await vi.advanceTimersByTimeAsync(CARET_REST_MS - 100);
    expect(resting()).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(resting()).toBe(true);
  });

  it("a change, a moved cursor or a key wakes it, and it rests again a full pause later", async () => {
    for (const act of [
      () => view.dispatch({ changes: { from: 0, insert: "A" } }),
      () => view.dispatch({ selection: { anchor: 3 } }),
      () => view.contentDOM.dispatchEvent(new KeyboardEvent("keydown", { key: "Shift", bubbles: true })),
      () => view.contentDOM.dispatchEvent(new Event("pointerdown", { bubbles: true })),
    ]) {
      await vi.advanceTimersByTimeAsync(CARET_REST_MS + 100);
      expect(resting()).toBe(true);
      act();
      await flush();
      expect(resting(), String(act)).toBe(false);
      await vi.advanceTimersByTimeAsync(CARET_REST_MS - 100);
      expect(resting()).toBe(false);
      await vi.advanceTimersByTimeAsync(200);
      expect(resting()).toBe(true);
    }
  });

  it("the rule that stops the blink is in the editor's styles", () => {
    const rules = Array.from(document.querySelectorAll("style"), (s) => s.textContent ?? "").join("\n");
    expect(rules).toMatch(/\.cm-caretRest\s*>\s*\.cm-scroller\s*>\s*\.cm-cursorLayer\s*\{[^}]*animation:\s*none\s*!important/);
  });
});
