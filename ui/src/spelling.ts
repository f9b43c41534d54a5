// Spelling as the writer types, as the app wires it
// (extensions/spelling.ts is the editor's side): the writer's on/off choice,
// kept in this window's storage, the core's lint and dictionary calls, and the
// toggle command.
import type { App } from "./main";
import { errorMessage } from "./backend";
import { refreshSpelling, type SpellingHandlers } from "./extensions/spelling";
import { toast } from "./views/modal";

const KEY = "cowriting.spelling";

/** Whether lints are underlined as the writer types (on unless turned off). */
export function spellingEnabled(): boolean {
  return localStorage.getItem(KEY) !== "off";
}

export function spellingHandlers(app: App): SpellingHandlers {
  return {
    lint: async (texts) => (await app.backend.lint(texts)).lints,
    addWord: async (word) => {
      const d = await app.backend.addWord(word);
      toast(`“${word}” is in this workspace's dictionary (${d.file}).`);
    },
    enabled: spellingEnabled,
    failed: (e) => toast(`Spelling as you type: ${errorMessage(e)}`, "error"),
  };
}

/** Turn underlining on or off, for every document, remembered. */
export function toggleSpelling(app: App) {
  const on = !spellingEnabled();
  localStorage.setItem(KEY, on ? "on" : "off");
  if (app.view) refreshSpelling(app.view, on);
  toast(on ? "Spelling is underlined as you type." : "Spelling as you type: off. Check document (F7) still checks spelling and grammar.");
}
