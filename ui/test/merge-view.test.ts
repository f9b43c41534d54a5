// The Compare & merge sheet (views/merge-view.ts) drawn from a plain merge with
// recorded actions, with no App and no test double of the Backend: the text in
// order (unchanged text as it is, a long stretch folded), each change with both
// sides, its words marked and its buttons (Both only where both sides
// changed), the current one and what is chosen marked; a button, a click in a
// card, M / T / B, Alt+↓ / Alt+↑, Ctrl+Enter and Esc calling their actions;
// Apply merge waiting for every choice and for an apply under way.
import { beforeEach, describe, expect, it } from "vitest";
import { q } from "./dom";
import type { MergePart } from "../src/bindings/MergePart";
import type { MergeView } from "../src/bindings/MergeView";
import { choose, initialState } from "../src/model/merge-model";
import { drawMerge, type MergeActions, type MergeUi } from "../src/views/merge-view";

const hunk = (side: "mine" | "theirs" | "conflict", mine: string, theirs: string): MergePart => ({
  kind: "hunk",
  side,
  base: "",
  mine,
  theirs,
  mineDiff: [{ tag: "equal", text: "The " }, { tag: "insert", text: mine }],
  theirsDiff: [{ tag: "equal", text: "The " }, { tag: "insert", text: theirs }],
});

const LONG = Array.from({ length: 12 }, (_, i) => `Line ${i + 1}.`).join("\n") + "\n";

const VIEW: MergeView = {
  path: "d.md",
  token: "t1",
  baseKnown: true,
  parts: [{ kind: "same", text: "Opening stays. " }, hunk("theirs", "cat sat. ", "cat lay. "), { kind: "same", text: LONG }, hunk("conflict", "dog ran. ", "dog hid. ")],
};

function noting() {
  const calls: string[] = [];
  const actions: MergeActions = {
    choose: (choice, i) => void calls.push(`choose ${choice} ${i}`),
    pick: (choice) => void calls.push(`pick ${choice}`),
    select: (i) => void calls.push(`select ${i}`),
    move: (dir) => void calls.push(`move ${dir}`),
    apply: () => void calls.push("apply"),
    cancel: () => void calls.push("cancel"),
  };
  return { calls, actions };
}

const model = (m: Partial<MergeUi> = {}): MergeUi => ({ path: "d.md", state: initialState(VIEW), busy: false, ...m });
const cards = () => Array.from(document.querySelectorAll<HTMLElement>(".mg-hunk"));
const key = (k: string, mods: KeyboardEventInit = {}) => {
  const e = new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...mods });
  q(".merge-sheet")!.dispatchEvent(e);
  return e.defaultPrevented;
};

beforeEach(() => {
  document.body.innerHTML = `<div class="modal-root"></div>`;
});

describe("the Compare & merge sheet, drawn from a model", () => {
  it("shows the text in order, each change with both sides and its buttons, the current one and the choices marked", () => {
    drawMerge(model(), noting().actions);
    expect(q(".merge-sheet")!.getAttribute("aria-label")).toBe("Compare & merge");
    expect(q(".mg-head h2")!.textContent).toBe("Merge your changes with the file on disk — d.md");
    const body = q(".mg-body")!;
    expect(Array.from(body.children, (c) => c.className)).toEqual(["mg-same", "mg-hunk mg-theirs", "mg-same", "mg-hunk mg-conflict mg-current mg-open"]);
    expect(body.children[0].textContent).toBe("Opening stays. ");
    // The long unchanged stretch folded.
    expect(q(".mg-more")!.textContent).toBe("⋯ 8 unchanged lines");
    const [one, two] = cards();
    expect(one.dataset.hunk).toBe("0");
    expect(Array.from(one.querySelectorAll("button"), (b) => b.textContent)).toEqual(["Take mine", "Take theirs"]);
    expect(one.querySelector(".mg-take-theirs")!.getAttribute("aria-pressed")).toBe("true");
    expect(one.querySelector(".mg-side-theirs")!.classList.contains("chosen")).toBe(true);
    expect(Array.from(two.querySelectorAll("button"), (b) => b.textContent)).toEqual(["Take mine", "Take theirs", "Both"]);
    expect(two.querySelector(".mg-side-mine .mg-added-mine")!.textContent).toBe("dog ran. ");
    expect(two.querySelector(".mg-side-theirs .mg-added-theirs")!.textContent).toBe("dog hid. ");
    expect(two.querySelector(".mg-side-theirs .mg-text")!.textContent).toBe("The dog hid. ");
    expect(q(".mg-left")!.textContent).toBe("1 to choose");
    expect(q<HTMLButtonElement>(".mg-apply")!.disabled).toBe(true);
  });

  it("lets Apply merge be pressed once every change is chosen, not while an apply is under way", () => {
    const chosen = choose(initialState(VIEW), "both", 1);
    drawMerge(model({ state: chosen }), noting().actions);
    expect(q<HTMLButtonElement>(".mg-apply")!.disabled).toBe(false);
    expect(q(".mg-left")!.textContent).toBe("");
    expect(cards()[1].querySelector(".mg-take-both")!.classList.contains("chosen")).toBe(true);
    drawMerge(model({ state: chosen, busy: true }), noting().actions);
    expect(q<HTMLButtonElement>(".mg-apply")!.disabled).toBe(true);
  });

  it("asks for a choice, a change made current, apply and cancel by the controls", () => {
    const { calls, actions } = noting();
    drawMerge(model(), actions);
    cards()[1].querySelector<HTMLButtonElement>(".mg-take-both")!.click();
    cards()[0].querySelector<HTMLButtonElement>(".mg-take-mine")!.click();
    cards()[0].querySelector(".mg-text")!.dispatchEvent(new MouseEvent("mousedown", { bubbles: true }));
    // A press on a button is the button's, not the card's.
    cards()[1].querySelector(".mg-take-mine")!.dispatchEvent(new MouseEvent("mousedown", { bubbles: true }));
    // Apply merge waits for every choice.
    q<HTMLButtonElement>(".mg-apply")!.click();
    drawMerge(model({ state: choose(initialState(VIEW), "mine", 1) }), actions);
    q<HTMLButtonElement>(".mg-apply")!.click();
    q<HTMLButtonElement>(".mg-cancel")!.click();
    expect(calls).toEqual(["choose both 1", "choose mine 0", "select 0", "apply", "cancel"]);
  });

  it("turns the keys into actions, and keeps them from the window", () => {
    const { calls, actions } = noting();
    drawMerge(model(), actions);
    let outside = 0;
    document.body.addEventListener("keydown", () => void (outside += 1));
    expect(key("m")).toBe(true);
    expect(key("B", { shiftKey: true })).toBe(false); // Shift+B is no choice
    expect(key("b")).toBe(true);
    expect(key("ArrowDown", { altKey: true })).toBe(true);
    expect(key("[", { altKey: true })).toBe(true);
    expect(key("Enter", { ctrlKey: true })).toBe(true);
    expect(key("s", { ctrlKey: true })).toBe(true);
    expect(key("x")).toBe(false);
    expect(key("Escape")).toBe(true);
    expect(calls).toEqual(["pick mine", "pick both", "move 1", "move -1", "apply", "cancel"]);
    expect(outside).toBe(0);
    // Both is no choice for a change made on one side only.
    drawMerge(model({ state: { ...initialState(VIEW), current: 0 } }), actions);
    expect(key("b")).toBe(false);
    expect(key("t")).toBe(true);
    expect(calls.slice(6)).toEqual(["pick theirs"]);
  });
});
