// Compare & merge in the app, against a test double of the Backend: the
// conflict banner opens the merge sheet; changes show side by side with Take
// mine / Take theirs / Both; keys choose and move; Apply merge waits for every
// conflict, sends the choices, applies the core's change to the editor and
// clears the banner; a file that changed again shows the merge anew with the
// choices kept (on apply, and on the watcher's notice). The real app:
// tests/e2e/merge.test.mjs.
import { describe, expect, it, vi } from "vitest";
import { q, stubLayout, until } from "./dom";
import { EditorView } from "@codemirror/view";
import { utf16 } from "../src/model/util";
import type { Choice } from "../src/bindings/Choice";
import type { MergeOutcome } from "../src/bindings/MergeOutcome";
import type { MergePart } from "../src/bindings/MergePart";
import type { MergeView } from "../src/bindings/MergeView";
import type { Notice } from "../src/bindings/Notice";

const MINE = "Opening stays. The black cat sat. It ends here, for now.\n";

const hunk = (side: "mine" | "theirs" | "conflict", mine: string, theirs: string): MergePart => ({
  kind: "hunk",
  side,
  base: "",
  mine,
  theirs,
  mineDiff: [{ tag: "insert", text: mine }],
  theirsDiff: [{ tag: "insert", text: theirs }],
});

const mergeOf = (token: string, end: string): MergeView => ({
  path: "d.md",
  token,
  baseKnown: true,
  parts: [
    hunk("theirs", "Opening stays. ", "Opening changed. "),
    hunk("conflict", "The black cat sat. ", "The cat lay. "),
    hunk("conflict", "It ends here, for now.\n", end),
  ],
});

const fake = vi.hoisted(() => ({
  notice: null as ((n: Notice) => void) | null,
  merge: null as MergeView | null,
  applied: [] as { token: string; choices: (Choice | null)[] }[],
  outcome: null as MergeOutcome | null,
}));

vi.mock("../src/backend", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../src/backend")>();
  const { fakeBackend, emptyReview } = await import("./fake-backend");
  const backend = fakeBackend({
    workspace: async () => ({
      root: "/ws",
      name: "ws",
      branch: null,
      documents: [{ path: "d.md", proposals: 0, openThreads: 0, sidecarError: false }],
      emptyFolders: [],
    }),
    openDocument: async (path) => ({ path, text: MINE, version: 1, dirty: true, review: emptyReview() }),
    onNotice: async (f) => {
      fake.notice = f;
      return () => undefined;
    },
    mergeView: async () => fake.merge!,
    applyMerge: async (_path, token, choices) => {
      fake.applied.push({ token, choices });
      return fake.outcome!;
    },
  });
  return { ...orig, tauriBackend: async () => backend };
});

const key = (k: string, target: EventTarget, mods: KeyboardEventInit = {}) =>
  target.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...mods }));

const cards = () => Array.from(document.querySelectorAll<HTMLElement>(".mg-hunk"));
const current = () => cards().findIndex((c) => c.classList.contains("mg-current"));
const apply = () => q<HTMLButtonElement>(".mg-apply")!;

describe("Compare & merge", () => {
  it("opens from the conflict banner, chooses per change, and applies the merge as the writer's text", async () => {
    stubLayout();
    await import("../src/main");
    await until(() => q(".cm-content") && fake.notice, "the document to open");
    fake.notice!({ kind: "conflict", path: "d.md" });
    await until(() => q(".bn-merge"), "the banner's Compare & merge…");
    expect(q(".bn-merge")!.textContent).toBe("Compare & merge…");

    fake.merge = mergeOf("t1", "It stops here.\n");
    q<HTMLButtonElement>(".bn-merge")!.click();
    await until(() => q(".merge-sheet"), "the merge sheet");
    expect(cards().length).toBe(3);
    expect(q(".mg-summary")!.textContent).toContain("2 passages were changed on both sides — 2 still to choose");
    // Side by side: the writer's version and the one on disk, each with its words marked.
    const second = cards()[1];
    expect(second.querySelector(".mg-side-mine .mg-added-mine")!.textContent).toBe("The black cat sat. ");
    expect(second.querySelector(".mg-side-theirs .mg-added-theirs")!.textContent).toBe("The cat lay. ");
    expect(Array.from(second.querySelectorAll("button"), (b) => b.textContent)).toEqual(["Take mine", "Take theirs", "Both"]);
    // The one-sided change is taken already, and offers no Both.
    expect(cards()[0].querySelector(".mg-take-theirs")!.classList.contains("chosen")).toBe(true);
    expect(cards()[0].querySelector(".mg-take-both")).toBeNull();
    expect(current()).toBe(1);
    expect(apply().disabled).toBe(true);

    // Keys: M takes mine and goes on to the next undecided change; Alt+↑ goes back.
    const sheet = q(".merge-sheet")!;
    key("m", sheet);
    expect(current()).toBe(2);
    expect(cards()[1].querySelector(".mg-take-mine")!.getAttribute("aria-pressed")).toBe("true");
    // Each choice and move is said (the live region), with what is left.
    const lastSaid = () => q(".live-polite")!.lastElementChild?.textContent;
    expect(lastSaid()).toBe("Change 2 of 3, changed on both sides, taking your version. 1 to choose.");
    key("ArrowUp", q(".merge-sheet")!, { altKey: true });
    expect(current()).toBe(1);
    expect(lastSaid()).toBe("Change 2 of 3, changed on both sides, taking your version");
    // A click takes theirs for the last one.
    cards()[2].querySelector<HTMLButtonElement>(".mg-take-theirs")!.click();
    expect(apply().disabled).toBe(false);
    expect(q(".mg-left")!.textContent).toBe("");

    // Meanwhile the file changes again: the merge is shown anew, the choices kept
    // where the change reads the same (the second), not where it changed (the third).
    fake.merge = mergeOf("t2", "It stops, finally.\n");
    fake.notice!({ kind: "conflict", path: "d.md" });
    await until(() => cards()[2]?.querySelector(".mg-added-theirs")?.textContent === "It stops, finally.\n", "the merge shown anew");
    expect(cards()[1].querySelector(".mg-take-mine")!.classList.contains("chosen")).toBe(true);
    expect(apply().disabled).toBe(true);
    expect(current()).toBe(2);

    // Applying on a file that changed again (the core says so): shown anew, nothing applied.
    key("b", q(".merge-sheet")!);
    fake.outcome = { kind: "changed", merge: mergeOf("t3", "It stops, finally.\n") };
    key("Enter", q(".merge-sheet")!, { ctrlKey: true });
    await until(() => fake.applied.length === 1, "the apply");
    expect(fake.applied[0]).toEqual({ token: "t2", choices: [null, "mine", "both"] });
    await until(() => !apply().disabled, "the sheet again");
    expect(q(".merge-sheet")).not.toBeNull();

    // Applied: the core's change goes into the editor, the sheet and the banner go.
    const merged = "Opening changed. The black cat sat. It ends here, for now.\nIt stops, finally.\n";
    fake.outcome = {
      kind: "applied",
      applied: {
        changes: [{ from: utf16(0), to: utf16(MINE.length), insert: merged }],
        version: 2,
        dirty: true,
        review: { revision: 900, proposals: [], threads: [], spans: [], sidecarError: null, canUndo: true, canRedo: false, entry: { path: "", proposals: 0, openThreads: 0, sidecarError: false } },
      },
    };
    apply().click();
    await until(() => !q(".merge-sheet"), "the sheet to close");
    expect(fake.applied[1]).toEqual({ token: "t3", choices: [null, "mine", "both"] });
    expect(EditorView.findFromDOM(q(".cm-editor")!)!.state.doc.toString()).toBe(merged);
    expect(q(".banner")!.hidden).toBe(true);
  });

  it("cancels with Esc, leaving the banner", async () => {
    fake.notice!({ kind: "conflict", path: "d.md" });
    await until(() => q(".bn-merge"), "the banner");
    q<HTMLButtonElement>(".bn-merge")!.click();
    await until(() => q(".merge-sheet"), "the merge sheet");
    key("Escape", q(".merge-sheet")!);
    expect(q(".merge-sheet")).toBeNull();
    expect(q(".banner-conflict:not([hidden])")).not.toBeNull();
  });
});
