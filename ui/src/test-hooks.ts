// The end-to-end tests' and `make perf`'s hooks into the app, as
// `window.__cowriting`. Only test builds have them: `main.ts` imports this
// module behind `__TEST_HOOKS__`, which `vite.config.ts` makes true for
// `COWRITING_TEST_HOOKS=1` (make test-e2e, make perf) and vitest only, so the
// bundle `make run` and `make dist` embed has none of it.
import { fromCore, reviewOf } from "./extensions/review-field";
import type { App } from "./main";
import { typeAtPace, typeInTurn } from "./typing-measure";
import { utf16 } from "./model/util";

/** Read-only hooks (the tests assert on the editor's state) and measurements. */
export function installTestHooks(app: App) {
  // The workspace listings the app reads from now on (the one at start is before this).
  let listings = 0;
  const listing = app.backend.workspace.bind(app.backend);
  app.backend.workspace = () => {
    listings += 1;
    return listing();
  };
  const hooks = {
    /** How many times the app listed the workspace since it started (a checkout's `treeChanged` does; nothing else should). */
    listings: () => listings,
    activePath: () => app.active,
    /** One call to the core through the app's own backend (tests/e2e/perf-ipc.mjs, kind `backend`). */
    dirtyDocuments: () => app.backend.dirtyDocuments(),
    text: () => (app.view ? app.view.state.doc.toString() : null),
    review: () => (app.view ? reviewOf(app.view.state) : null),
    idle: async () => {
      await app.queue;
      return true;
    },
    /**
     * The last producer run that filed something (Ask Claude…, or the last
     * producer of Check document that succeeded): its FilingDto without the
     * review ({producer, turnId, filed, skipped, migrated, warnings}), or null.
     */
    lastFiling: () => app.lastFiling,
    /** How the last review pass or question in a thread ended (its ReviewOut), or null. */
    lastReview: () => app.lastReview,
    /** How many producer tasks (Ask Claude…, Check document) are still running. */
    jobsRunning: () => app.tasks.running().length,
    /** The message the last finished task showed ("Claude proposed 2 edits", "harper: 3 suggestions, …"). */
    lastJobMessage: () => app.tasks.lastMessage,
    /** The editor's main selection (UTF-16 offsets), and whether the editor has the focus. */
    selection: () => (app.view ? { from: app.view.state.selection.main.from, to: app.view.state.selection.main.to, focused: app.view.hasFocus } : null),
    /** Select `from..to` (UTF-16 offsets) in the editor, as a drag would. */
    select: (from: number, to: number) => {
      app.view?.dispatch({ selection: { anchor: from, head: to }, userEvent: "select.pointer" });
      app.view?.focus();
    },
    /** ms from the click to the document being shown, for the last open. */
    lastOpenMs: () => app.lastOpenMs,
    /** The lines of the crash-recovery notice while it is shown, else null. */
    restoreNotice: () => {
      const el = document.querySelector<HTMLElement>(".restore-notice");
      return el && !el.hidden ? Array.from(el.querySelectorAll(".rn-line"), (l) => l.textContent ?? "") : null;
    },
    /** Whether a document's tab shows unsaved changes. */
    dirty: (path: string) => app.docs.get(path)?.dirty ?? null,
    /** Type `n` characters, one after the other; each: keystroke to the frame after the core's answer, in ms. */
    measureTyping: (n: number) => typeInTurn(n, () => typeForMeasure(app)),
    /** Type `n` characters, one every `every` ms by the clock; each: when it was due to the frame after the core's answer. */
    typeAtPace: (n: number, every: number) => typeAtPace(n, every, () => typeForMeasure(app)),
    /**
     * The parts of a keystroke, `n` times each: CodeMirror applying it (sync),
     * and the IPC round trip of an edit to the core without painting in between.
     */
    measureKeystrokeParts: async (n: number) => {
      const dispatch: number[] = [];
      const bare: number[] = [];
      if (app.view) {
        // Diagnosis: a transaction the app does not react to (undone right after).
        for (let i = 0; i < n; i++) {
          const at = app.view.state.selection.main.head;
          const t0 = performance.now();
          app.view.dispatch({ changes: { from: at, insert: "w" }, annotations: fromCore.of(true) });
          bare.push(performance.now() - t0);
          app.view.dispatch({ changes: { from: at, to: at + 1 }, annotations: fromCore.of(true) });
        }
      }
      const ipc: number[] = [];
      const path = app.active;
      const doc = path ? app.docs.get(path) : undefined;
      if (!app.view || !path || !doc) return { dispatch, ipc, bare };
      for (let i = 0; i < n; i++) {
        const at = app.view.state.selection.main.head;
        const t0 = performance.now();
        app.view.dispatch({ changes: { from: at, insert: "y" }, selection: { anchor: at + 1 }, userEvent: "input.type" });
        dispatch.push(performance.now() - t0);
        await app.queue;
      }
      for (let i = 0; i < n; i++) {
        const at = app.view.state.selection.main.head;
        const t0 = performance.now();
        const ack = await app.backend.edit(path, doc.version, [{ from: utf16(at), to: utf16(at), insert: "z" }], true);
        ipc.push(performance.now() - t0);
        // Undo that in the core so the view and the core stay the same text.
        const back = await app.backend.edit(path, ack.version, [{ from: utf16(at), to: utf16(at + 1), insert: "" }], true);
        doc.version = back.version;
      }
      return { dispatch, ipc, bare };
    },
    /**
     * Accept every pending proposal of the active document as its group's
     * Accept all does (the coverage question answered "all"): ms from the call
     * to the first frame after the core's answer is shown, and how many were
     * pending before and after.
     */
    measureAcceptAll: async () => {
      const pending = () => (app.view ? (reviewOf(app.view.state)?.proposals ?? []) : []).filter((p) => p.state === "pending");
      const ids = pending().map((p) => p.id);
      const t0 = performance.now();
      await app.acceptAll(ids, true);
      await app.queue;
      await new Promise((r) => requestAnimationFrame(r));
      return { before: ids.length, ms: performance.now() - t0, after: pending().length };
    },
    /**
     * Scroll through the document (or the element `selector` names, such as
     * the tree) 120 px a frame for `ms`; the frame intervals seen, in ms.
     */
    measureScroll: (ms: number, selector?: string) =>
      new Promise<number[]>((resolve) => {
        const scroller = selector ? document.querySelector(selector) : app.view?.scrollDOM;
        const frames: number[] = [];
        if (!scroller) return resolve(frames);
        const start = performance.now();
        let last = start;
        const step = (t: number) => {
          frames.push(t - last);
          last = t;
          scroller.scrollTop += 120;
          if (t - start < ms) requestAnimationFrame(step);
          else resolve(frames.slice(1));
        };
        requestAnimationFrame(step);
      }),
  };
  (window as unknown as { __cowriting: typeof hooks }).__cowriting = hooks;
}

/** Type "x" at the cursor as a writer would; resolves once the core has answered (make perf). */
function typeForMeasure(app: App): Promise<unknown> {
  if (app.view) {
    const at = app.view.state.selection.main.head;
    app.view.dispatch({ changes: { from: at, insert: "x" }, selection: { anchor: at + 1 }, userEvent: "input.type" });
  }
  return app.queue;
}
