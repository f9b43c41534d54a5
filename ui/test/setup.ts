// After each test file: destroy the editors it left mounted, then let the
// timers CodeMirror cannot cancel (its 10 ms focus-change check) run against
// destroyed views, which ignore them. Without this a loaded machine can tear
// jsdom down first, and the timer then fails on a window that is gone.
import { afterAll } from "vitest";
import { EditorView } from "@codemirror/view";

afterAll(async () => {
  for (const el of document.querySelectorAll<HTMLElement>(".cm-editor")) EditorView.findFromDOM(el)?.destroy();
  // 50 ms was not always enough with builds on both cores (one unhandled error in
  // 14 loaded runs, 2026-12-02): the timers are late, not slow, so wait longer.
  await new Promise((r) => setTimeout(r, 500));
});
