// Who you are, autosave and the checkers' chips in the app (issue 13), against
// a test double of the Backend: the first run's question when nobody is named,
// the status bar's name, the Settings dialog's "You" and "Saving" fieldsets and
// the checkers not installed; autosave through the core (a conflict shows the
// banner); a check's result chip belongs to its document. The real app:
// tests/e2e/identity.test.mjs.
import { describe, expect, it, vi } from "vitest";
import { q, stubLayout, until } from "./dom";
import { EditorView } from "@codemirror/view";
import type { IdentityDto } from "../src/bindings/IdentityDto";
import type { SettingsDto } from "../src/bindings/SettingsDto";

const fake = vi.hoisted(() => ({
  me: null as unknown as IdentityDto,
  savedIdentity: [] as [string | null, string | null][],
  savedSettings: [] as SettingsDto[],
  autosaves: [] as string[],
  saves: [] as string[],
  conflict: false,
  settings: null as unknown as SettingsDto,
  words: ["Jorunn"] as string[],
  wordCalls: [] as string[],
}));

vi.mock("../src/backend", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../src/backend")>();
  const { fakeBackend, emptyReview, settingsOfChecks } = await import("./fake-backend");
  fake.me = { name: null, email: null, gitName: null, gitEmail: null, id: "tester", display: "tester", source: "system", ask: true };
  fake.settings = {
    path: "/home/w/.config/cowriting/config.toml",
    transport: null,
    model: null,
    claudeCommand: "claude",
    timeoutSecs: 180,
    enabled: ["harper"],
    available: ["harper", "vale"],
    enabledByDefault: true,
    notInstalled: [{ producer: "vale", command: "vale" }],
    haveApiKey: false,
    identity: fake.me,
    autosave: "off",
    autosaveDelaySecs: 1,
    ...settingsOfChecks(),
  };
  const result = (dirty: boolean, conflict: boolean) => ({ dirty, conflict, sidecarSkipped: null, review: emptyReview() });
  const backend = fakeBackend({
    workspace: async () => ({
      root: "/home/w/sample",
      name: "sample",
      branch: null,
      emptyFolders: [],
      documents: [
        { path: "a.md", proposals: 0, openThreads: 0, sidecarError: false },
        { path: "b.md", proposals: 0, openThreads: 0, sidecarError: false },
      ],
    }),
    openDocument: async (path) => ({ path, text: `Text of ${path}.\n`, version: 1, dirty: false, review: emptyReview() }),
    settings: async () => ({ ...fake.settings, identity: fake.me }),
    identity: async () => fake.me,
    saveIdentity: async (name, email) => {
      fake.savedIdentity.push([name, email]);
      fake.me = { ...fake.me, name, email, id: email ?? name ?? "tester", display: name ?? email ?? "tester", source: name || email ? "settings" : "system", ask: false };
      return fake.me;
    },
    saveSettings: async (s) => {
      fake.savedSettings.push(s);
      fake.settings = { ...s };
      const n = s.identity.name;
      fake.me = { ...s.identity, id: s.identity.email ?? n ?? "tester", display: n ?? "tester", source: "settings", ask: false };
      return { ...fake.settings, identity: fake.me };
    },
    save: async (path) => {
      fake.saves.push(path);
      return result(false, false);
    },
    autosave: async (path) => {
      fake.autosaves.push(path);
      return result(fake.conflict, fake.conflict);
    },
    checkDocument: async () => [{ producer: "harper", error: { code: "not_installed", message: "harper: no" } }],
    dictionary: async () => ({ file: ".cowriting/dictionary.txt", words: [...fake.words] }),
    addWord: async (w) => {
      fake.wordCalls.push(`add ${w}`);
      fake.words = [...fake.words, w].sort();
      return { file: ".cowriting/dictionary.txt", words: [...fake.words] };
    },
    removeWord: async (w) => {
      fake.wordCalls.push(`remove ${w}`);
      fake.words = fake.words.filter((x) => x !== w);
      return { file: ".cowriting/dictionary.txt", words: [...fake.words] };
    },
  });
  return { ...orig, tauriBackend: async () => backend };
});

function view(): EditorView {
  const v = EditorView.findFromDOM(q(".cm-editor")!);
  if (!v) throw new Error("no editor");
  return v;
}

const click = (sel: string) => q<HTMLElement>(sel)!.click();

describe("who you are", () => {
  it("is asked once on the first run, and shown in the status bar", async () => {
    stubLayout();
    const g = globalThis as unknown as { CSS?: { escape?: (s: string) => string } };
    if (!g.CSS?.escape) g.CSS = { ...g.CSS, escape: (s: string) => s.replace(/["\\]/g, "\\$&") };
    await import("../src/main");
    await until(() => q(".welcome-name"), "the first run's question");
    expect(q(".st-you")!.textContent).toBe("✎ tester");
    // Neither a name nor an e-mail: not sent.
    click(".welcome-save");
    await until(() => !q<HTMLElement>(".welcome .set-error")!.hidden, "the error");
    expect(fake.savedIdentity).toEqual([]);
    q<HTMLInputElement>(".welcome-name")!.value = "  Ada Lovelace ";
    click(".welcome-save");
    await until(() => fake.savedIdentity.length === 1, "the name to be saved");
    expect(fake.savedIdentity[0]).toEqual(["Ada Lovelace", null]);
    await until(() => !q(".welcome"), "the question to close");
    expect(q(".st-you")!.textContent).toBe("✎ Ada Lovelace");
  });

  it("is changed in Settings: git's values are the placeholders; the checkers not installed are marked", async () => {
    fake.me = { ...fake.me, gitName: "Git Name", gitEmail: "git@example.com" };
    click(".st-you");
    await until(() => q(".set-name"), "the Settings dialog");
    const name = q<HTMLInputElement>(".set-name")!;
    const email = q<HTMLInputElement>(".set-email")!;
    expect(name.value).toBe("Ada Lovelace");
    expect(name.placeholder).toBe("Git Name");
    expect(email.placeholder).toBe("git@example.com");
    const vale = q('.set-check[data-producer="vale"]')!;
    expect(vale.querySelector(".set-not-installed")!.textContent).toBe("not installed (no vale found)");
    expect(vale.querySelector<HTMLInputElement>("input")!.checked).toBe(false);
    expect(q('.set-check[data-producer="harper"] .set-not-installed')).toBeNull();
    expect(q<HTMLElement>(".set-autosave-delay")!.closest<HTMLElement>(".set-field")!.hidden, "no pause while off").toBe(true);
    email.value = "ada@example.org";
    const mode = q<HTMLSelectElement>(".set-autosave")!;
    mode.value = "after_delay";
    mode.dispatchEvent(new Event("change"));
    expect(q<HTMLElement>(".set-autosave-delay")!.closest<HTMLElement>(".set-field")!.hidden).toBe(false);
    click(".set-save");
    await until(() => fake.savedSettings.length === 1, "the settings to be saved");
    const saved = fake.savedSettings[0];
    expect([saved.identity.name, saved.identity.email]).toEqual(["Ada Lovelace", "ada@example.org"]);
    expect([saved.autosave, saved.autosaveDelaySecs]).toEqual(["after_delay", 1]);
    expect(saved.enabled, "untouched checkers stay as they were").toEqual(["harper"]);
    await until(() => !q(".set-name"), "the dialog to close");
    expect(q(".st-you")!.title).toContain("ada@example.org");
  });
});

describe("the workspace's dictionary", () => {
  const words = () => Array.from(document.querySelectorAll<HTMLElement>(".set-word-item"), (e) => e.dataset.word);

  it("is listed in Settings; a word is taken out or added at once, not with Save", async () => {
    click(".st-you");
    await until(() => words().length === 1, "the dictionary listed");
    expect(words()).toEqual(["Jorunn"]);
    expect(q(".set-words-file")!.textContent).toContain(".cowriting/dictionary.txt");
    click('.set-word-item[data-word="Jorunn"] .set-word-remove');
    await until(() => words().length === 0, "the word taken out");
    expect(fake.wordCalls).toEqual(["remove Jorunn"]);
    expect(q(".set-words-empty"), "an empty dictionary says how words get there").not.toBeNull();
    // Enter in the field adds the word; it does not save (and close) the dialog.
    const saves = fake.savedSettings.length;
    const field = q<HTMLInputElement>(".set-word")!;
    field.value = " Eilif ";
    field.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
    await until(() => words().length === 1, "the word added");
    expect(words()).toEqual(["Eilif"]);
    expect(fake.wordCalls).toEqual(["remove Jorunn", "add Eilif"]);
    expect(field.value).toBe("");
    expect(fake.savedSettings.length, "Enter in the word field saves nothing").toBe(saves);
    expect(q(".set-name"), "the dialog stays open").not.toBeNull();
    click(".modal-cancel");
    await until(() => !q(".set-name"), "the dialog to close");
  });
});

describe("autosave", () => {
  it("after a pause saves through the core, and a change on disk shows the conflict banner instead", async () => {
    await until(() => q(".cm-content"), "a document");
    const path = q(".tab.active")!.getAttribute("data-path")!;
    view().dispatch({ changes: { from: 0, insert: "Now " }, userEvent: "input.type" });
    await until(() => fake.autosaves.length === 1, "the autosave");
    expect(fake.autosaves).toEqual([path]);
    expect(fake.saves, "not Ctrl+S's save").toEqual([]);
    await until(() => !q(".tab.active.dirty"), "the tab to show saved");

    fake.conflict = true;
    view().dispatch({ changes: { from: 0, insert: "Then " }, userEvent: "input.type" });
    await until(() => fake.autosaves.length === 2, "the second autosave");
    await until(() => q(".banner-conflict"), "the conflict banner");
    expect(q(".tab.active.dirty"), "still unsaved").not.toBeNull();
    // No autosave again while in conflict.
    view().dispatch({ changes: { from: 0, insert: "More " }, userEvent: "input.type" });
    await new Promise((r) => setTimeout(r, 1500));
    expect(fake.autosaves.length).toBe(2);
  });
});

describe("a check's result", () => {
  it("belongs to its document: hidden when another is shown, back with it", async () => {
    const first = q(".tab.active")!.getAttribute("data-path")!;
    const other = first === "a.md" ? "b.md" : "a.md";
    window.dispatchEvent(new KeyboardEvent("keydown", { key: "F7", bubbles: true }));
    await until(() => q(".job-error, .job-warn"), "the check's chip");
    const chip = q<HTMLElement>(".job-error, .job-warn")!;
    expect(chip.textContent).toContain("harper: not installed");
    click(`.tree-item[data-path="${other}"]`);
    await until(() => q(".tab.active")?.getAttribute("data-path") === other, "the other document");
    expect(chip.hidden).toBe(true);
    click(`.tab[data-path="${first}"]`);
    await until(() => !chip.hidden, "the chip back with its document");
  });
});
