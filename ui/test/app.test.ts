// The App's DOM wiring for producer runs, against a test double of the Backend:
// Ask Claude… (instruction box, progress chip, cancel), Check document, the
// review panel's groups, the settings dialog. The real app is driven by the
// end-to-end tests (tests/e2e); this checks what a browser-free run can.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { q, stubLayout, until } from "./dom";
import { EditorView } from "@codemirror/view";
import type { CheckOutcome } from "../src/bindings/CheckOutcome";
import type { ErrorInfo } from "../src/bindings/ErrorInfo";
import type { JobProgress } from "../src/bindings/JobProgress";
import type { FilingDto } from "../src/bindings/FilingDto";
import type { ProposalDto } from "../src/bindings/ProposalDto";
import type { ReviewDto } from "../src/bindings/ReviewDto";
import type { SettingsDto } from "../src/bindings/SettingsDto";

interface Pending {
  producer: string;
  args: unknown[];
  resolve: (f: FilingDto) => void;
  reject: (e: ErrorInfo) => void;
}

const fake = vi.hoisted(() => {
  let revisions = 0;
  const emptyReview = (): ReviewDto => ({ revision: ++revisions, proposals: [], threads: [], spans: [], sidecarError: null, canUndo: false, canRedo: false, entry: { path: "", proposals: 0, openThreads: 0, sidecarError: false } });
  const state = {
    text: "Alpha beta gamma.\n\nDelta epsilon zeta.",
    review: emptyReview(),
    calls: [] as { name: string; args: unknown[] }[],
    runs: [] as Pending[],
    enabled: ["harper", "vale"],
    saveError: null as ErrorInfo | null,
    cancelled: new Set<string>(),
    progress: null as ((p: JobProgress) => void) | null,
    settings: {
      path: "/home/w/.config/cowriting/config.toml",
      transport: null,
      model: null,
      claudeCommand: "claude",
      timeoutSecs: 120,
      enabled: ["vale", "harper"],
      available: ["harper", "vale", "ext"],
      enabledByDefault: false,
      notInstalled: [],
      haveApiKey: false,
      identity: { name: null, email: null, gitName: "Writer", gitEmail: "writer@example.com", id: "writer@example.com", display: "Writer", source: "git", ask: false },
      autosave: "off",
      autosaveDelaySecs: 2,
      // The same as fake-backend.ts's settingsOfChecks(): this runs hoisted, before imports.
      spellingLanguage: "en_US",
      spellingLanguages: ["en_GB", "en_US"],
      workspaceSpellingLanguage: null,
      workspaceWarnings: [],
      harperRules: [
        { name: "SpellCheck", description: "Looks and provides corrections for misspelled words.", curated: true },
        { name: "UseTitleCase", description: "Prompts you to use title case in relevant headings.", curated: true },
      ],
      harperChoices: {},
      harperQuiet: ["UseTitleCase"],
      trailer: "assisted-by",
    } as SettingsDto,
    emptyReview,
  };
  return state;
});

vi.mock("../src/backend", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../src/backend")>();
  const call = (name: string, ...args: unknown[]) => fake.calls.push({ name, args });
  const applied = () => ({ changes: [], version: 1, dirty: false, review: fake.review });
  const { fakeBackend } = await import("./fake-backend");
  const backend = fakeBackend(
    {
      workspace: async () => (call("workspace"), { root: "/ws", name: "ws", branch: null, documents: [{ path: "a.md", proposals: 0, openThreads: 0, sidecarError: false }], emptyFolders: [] }),
      openDocument: async (path) => ({ path, text: fake.text, version: 1, dirty: false, review: fake.review }),
      edit: async (path, version, changes, typing) => {
        call("edit", path, version, changes, typing);
        return { version: version + 1, dirty: true };
      },
      accept: async (...a) => (call("accept", ...a), applied()),
      reject: async (...a) => (call("reject", ...a), applied()),
      acceptTurn: async (...a) => (call("acceptTurn", ...a), applied()),
      rejectTurn: async (...a) => (call("rejectTurn", ...a), applied()),
      acceptAll: async (...a) => (call("acceptAll", ...a), applied()),
      rejectAll: async (...a) => (call("rejectAll", ...a), applied()),
      runProducer: (...args) => {
        call("runProducer", ...args);
        return new Promise<FilingDto>((resolve, reject) => fake.runs.push({ producer: args[1], args, resolve, reject }));
      },
      cancelJob: async (job) => {
        call("cancelJob", job);
        fake.cancelled.add(job);
        const run = fake.runs.find((r) => r.args[5] === job);
        run?.reject({ code: "cancelled", message: `${run.producer} was cancelled; nothing was filed` });
      },
      // The core's Check document (suggest::check_document), one pending run per producer.
      checkDocument: async (path, job) => {
        call("checkDocument", path, job);
        const out: CheckOutcome<FilingDto>[] = [];
        for (const producer of [...fake.enabled]) {
          if (fake.cancelled.has(job)) {
            out.push({ producer, notRun: true });
            continue;
          }
          fake.progress?.({ job, producer });
          try {
            const filing = await new Promise<FilingDto>((resolve, reject) =>
              fake.runs.push({ producer, args: [path, producer, null, null, null, job], resolve, reject }),
            );
            out.push({ producer, filing });
          } catch (e) {
            out.push({ producer, error: e as ErrorInfo });
          }
        }
        return out;
      },
      onJobProgress: async (f) => {
        fake.progress = f;
        return () => undefined;
      },
      settings: async () => ({ ...fake.settings }),
      saveSettings: async (s) => {
        call("saveSettings", s);
        if (fake.saveError) throw fake.saveError;
        return s;
      },
      undo: async () => applied(),
      redo: async () => applied(),
      reloadDocument: async () => applied(),
    },
    () => fake.review,
  );
  return { ...orig, tauriBackend: async () => backend };
});

interface Hook {
  text(): string | null;
  idle(): Promise<boolean>;
  lastFiling(): Omit<FilingDto, "review"> | null;
  jobsRunning(): number;
  lastJobMessage(): string | null;
}
const hook = () => (window as unknown as { __cowriting: Hook }).__cowriting;


const key = (k: string, mods: KeyboardEventInit = {}, target: EventTarget = window) =>
  target.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...mods }));

function view(): EditorView {
  const v = EditorView.findFromDOM(q(".cm-editor")!);
  if (!v) throw new Error("no editor");
  return v;
}

function proposal(id: string, from: number, turnId: string, producer: string, category: string, reason: string): ProposalDto {
  return {
    id,
    state: "pending",
    from,
    to: from + 5,
    line: 1,
    target: "Alpha",
    replacement: "Alef",
    current: null,
    reason: null,
    diff: [
      { tag: "delete", text: "Alpha" },
      { tag: "insert", text: "Alef" },
    ],
    author: { kind: "agent", id: producer, model: null, label: producer, sdk: null, sessionId: null },
    turnId,
    instruction: producer === "claude" ? "Tighten <b>this</b>" : null,
    createdAt: new Date().toISOString(),
    contract: { proposalId: `pp_${id}`, producer, producerVersion: "1", provenance: "model:m", category, reason },
    hidden: [], likelyPlace: false,
  };
}

const errors: unknown[] = [];
beforeAll(async () => {
  // What jsdom lacks and a browser has.
  stubLayout();
  const g = globalThis as unknown as { CSS?: { escape?: (s: string) => string } };
  if (!g.CSS?.escape) g.CSS = { ...g.CSS, escape: (s: string) => s.replace(/["\\]/g, "\\$&") };
  window.addEventListener("error", (e) => errors.push(e.error ?? e.message));
  await import("../src/main");
  await until(() => hook()?.text(), "the document to open");
});

afterAll(() => {
  expect(document.querySelector(".fatal")).toBeNull();
});

describe("Ask Claude…", () => {
  it("needs a selection", () => {
    view().dispatch({ selection: { anchor: 0 } });
    key("k", { ctrlKey: true });
    expect(q(".modal")).toBeNull();
    expect(q(".toast")!.textContent).toMatch(/Select the text/);
  });

  it("asks with the instruction, shows progress without blocking typing, then the result", async () => {
    view().dispatch({ selection: { anchor: 0, head: 5 } });
    key("k", { ctrlKey: true });
    const area = q<HTMLTextAreaElement>(".ask-instruction")!;
    expect(area).not.toBeNull();
    expect(document.activeElement).toBe(area);
    expect(q(".ask-quote")!.textContent).toBe("Alpha");
    // Enter with nothing written: an inline error, the dialog stays.
    key("Enter", {}, area);
    expect(q(".ask-error")!.hidden).toBe(false);
    // Shift+Enter is a new line (not handled by us).
    expect(key("Enter", { shiftKey: true }, area)).toBe(true);
    area.value = "Tighten <b>this</b>";
    area.dispatchEvent(new Event("input"));
    key("Enter", {}, area);
    expect(q(".modal")).toBeNull();
    const chip = q('.job[data-kind="ask"]')!;
    expect(chip.querySelector(".job-label")!.textContent).toBe("Asking Claude…");
    expect(chip.querySelector(".job-time")!.textContent).toBe("0 s");
    expect(hook().jobsRunning()).toBe(1);
    await until(() => fake.runs.length === 1, "runProducer");
    const run = fake.runs[0];
    expect(run.args.slice(0, 5)).toEqual(["a.md", "claude", 0, 5, "Tighten <b>this</b>"]);
    expect(typeof run.args[5]).toBe("string");

    // The writer keeps typing while Claude works.
    const v = view();
    expect(v.state.readOnly).toBe(false);
    v.dispatch({ changes: { from: v.state.doc.length, insert: "!" }, userEvent: "input.type" });
    await hook().idle();
    expect(fake.calls.some((c) => c.name === "edit")).toBe(true);

    fake.review = {
      ...fake.emptyReview(),
      proposals: [
        proposal("p2", 20, "turn-c", "claude", "clarity", "<img src=x onerror=\"window.__pwned=1\">shorter"),
        proposal("p1", 0, "turn-c", "claude", "concision", "Fewer words."),
      ],
    };
    run.resolve({ producer: "claude", turnId: "turn-c", filed: 2, skipped: [], migrated: 0, warnings: [], review: fake.review });
    await until(() => hook().jobsRunning() === 0, "the run to end");
    await until(() => q(".card"), "the cards");
    expect(hook().lastFiling()).toEqual({ producer: "claude", turnId: "turn-c", filed: 2, skipped: [], migrated: 0, warnings: [] });
    expect(hook().lastJobMessage()).toBe("Claude proposed 2 edits");
    expect(q(".job-ok .job-message")!.textContent).toBe("Claude proposed 2 edits");

    // One group: producer, instruction (as text), count, accept/reject all.
    const groups = document.querySelectorAll(".review-body .group");
    expect(groups.length).toBe(1);
    expect(groups[0].querySelector(".group-producer")!.textContent).toBe("claude");
    expect(groups[0].querySelector(".group-count")!.textContent).toBe("2");
    expect(groups[0].querySelector(".group-instruction")!.textContent).toBe("“Tighten <b>this</b>”");
    const cards = Array.from(groups[0].querySelectorAll<HTMLElement>(".card"));
    expect(cards.map((c) => c.dataset.proposal)).toEqual(["p1", "p2"]);
    expect(cards.map((c) => c.querySelector(".card-category")!.textContent)).toEqual(["concision", "clarity"]);
    expect(cards[1].querySelector(".card-why")!.textContent).toBe("<img src=x onerror=\"window.__pwned=1\">shorter");
    expect(document.querySelector(".review-body img, .review-body b")).toBeNull();
    // The first proposal of the turn is selected (the writer typed meanwhile, so the cursor stays).
    expect(cards[0].classList.contains("focused")).toBe(true);
    expect(v.state.selection.main.head).not.toBe(0);

    q<HTMLButtonElement>(".btn-accept-turn")!.click();
    await until(() => fake.calls.some((c) => c.name === "acceptTurn"), "accept all");
    expect(fake.calls.find((c) => c.name === "acceptTurn")!.args).toEqual(["a.md", "turn-c"]);

    // A turn two producers filed under: each group decides its own proposals, in one call
    // (one undo step), not one call per proposal.
    // Each answer carries the document's tree entry: its row's badges follow, and
    // nothing lists the workspace again.
    fake.review = {
      ...fake.emptyReview(),
      proposals: [proposal("p3", 0, "turn-s", "harper", "spelling", "typo"), proposal("p4", 20, "turn-s", "vale", "style", "wordy")],
      entry: { path: "a.md", proposals: 2, openThreads: 1, sidecarError: false },
    };
    const listed = fake.calls.filter((c) => c.name === "workspace").length;
    q<HTMLButtonElement>(".btn-reject-turn")!.click();
    const row = () => q<HTMLElement>('.tree-item[data-path="a.md"]')!;
    await until(() => row().querySelector(".badge-proposals")?.textContent === "2", "the row's badge from the answer");
    expect(row().querySelector(".badge-threads")!.textContent).toBe("1");
    await until(() => document.querySelectorAll(".review-body .group").length === 2, "the two groups of the shared turn");
    const shared = Array.from(document.querySelectorAll<HTMLElement>(".review-body .group"));
    expect(shared.map((g) => g.dataset.producer)).toEqual(["harper", "vale"]);
    shared[1].querySelector<HTMLButtonElement>(".btn-accept-turn")!.click();
    await until(() => fake.calls.some((c) => c.name === "acceptAll"), "accept the group");
    expect(fake.calls.filter((c) => c.name === "acceptAll").map((c) => c.args)).toEqual([["a.md", ["p4"]]]);
    shared[0].querySelector<HTMLButtonElement>(".btn-reject-turn")!.click();
    await until(() => fake.calls.some((c) => c.name === "rejectAll"), "reject the group");
    expect(fake.calls.filter((c) => c.name === "rejectAll").map((c) => c.args)).toEqual([["a.md", ["p3"]]]);
    expect(fake.calls.filter((c) => c.name === "accept" || c.name === "reject")).toEqual([]);
    expect(fake.calls.filter((c) => c.name === "workspace").length, "no decision lists the workspace").toBe(listed);
  });

  it("cancels a run with its button; the error shows in the chip", async () => {
    view().dispatch({ selection: { anchor: 6, head: 10 } });
    key("k", { metaKey: true });
    const area = q<HTMLTextAreaElement>(".ask-instruction")!;
    area.value = "Vary";
    q<HTMLButtonElement>(".btn-ask-run")!.click();
    await until(() => fake.runs.length === 2, "the second run");
    const job = fake.runs[1].args[5];
    const chip = q(".job-running")!;
    chip.querySelector<HTMLButtonElement>(".job-cancel")!.click();
    expect(chip.querySelector(".job-label")!.textContent).toBe("Cancelling…");
    await until(() => hook().jobsRunning() === 0, "the cancel");
    expect(fake.calls.find((c) => c.name === "cancelJob")!.args).toEqual([job]);
    expect(hook().lastJobMessage()).toBe("Claude was cancelled; nothing was filed");
    expect(job).not.toBe(fake.runs[0].args[5]);
  });

  it("cancels the newest run with Esc", async () => {
    view().dispatch({ selection: { anchor: 6, head: 10 } });
    key("k", { ctrlKey: true });
    const area = q<HTMLTextAreaElement>(".ask-instruction")!;
    area.value = "Again";
    key("Enter", {}, area);
    await until(() => fake.runs.length === 3, "the third run");
    key("Escape");
    await until(() => hook().jobsRunning() === 0, "the cancel");
    expect(fake.calls.filter((c) => c.name === "cancelJob").map((c) => c.args[0])).toContain(fake.runs[2].args[5]);
  });
});

describe("Ask Claude… without edits meanwhile", () => {
  it("puts the cursor on the first new proposal", async () => {
    view().dispatch({ selection: { anchor: 19, head: 24 } });
    key("k", { ctrlKey: true });
    const area = q<HTMLTextAreaElement>(".ask-instruction")!;
    area.value = "Sharper";
    key("Enter", {}, area);
    await until(() => fake.runs.length === 4, "the fourth run");
    expect(fake.runs[3].args.slice(2, 4)).toEqual([19, 24]);
    fake.review = { ...fake.emptyReview(), proposals: [proposal("p9", 19, "turn-d", "claude", "tone", "Warmer.")] };
    fake.runs[3].resolve({ producer: "claude", turnId: "turn-d", filed: 1, skipped: [], migrated: 0, warnings: [], review: fake.review });
    await until(() => hook().lastJobMessage() === "Claude proposed 1 edit", "the result");
    expect(view().state.selection.main.head).toBe(19);
    expect(q('.card[data-proposal="p9"]')!.classList.contains("focused")).toBe(true);
  });
});

describe("Check document", () => {
  it("runs each enabled producer in turn; one failing does not stop the next", async () => {
    const before = fake.runs.length;
    key("F7");
    await until(() => fake.runs.length === before + 1, "harper");
    const chip = q('.job-running[data-kind="check"]')!;
    expect(chip.querySelector(".job-label")!.textContent).toBe("Checking with harper…");
    expect(fake.runs[before].args.slice(0, 5)).toEqual(["a.md", "harper", null, null, null]);
    fake.runs[before].reject({ code: "not_installed", message: 'harper: "harper" is not installed (not found on PATH)' });
    await until(() => fake.runs.length === before + 2, "vale");
    expect(chip.querySelector(".job-label")!.textContent).toBe("Checking with vale…");
    fake.runs[before + 1].resolve({ producer: "vale", turnId: "turn-v", filed: 3, skipped: [], migrated: 0, warnings: [], review: fake.review });
    await until(() => hook().jobsRunning() === 0, "the check to end");
    expect(hook().lastJobMessage()).toBe('harper: not installed, vale: 3 suggestions');
    expect(q(".job-warn .job-message")!.textContent).toBe(hook().lastJobMessage());
    expect(hook().lastFiling()?.producer).toBe("vale");
  });

  it("cancel stops the running checker and leaves the rest unrun", async () => {
    const before = fake.runs.length;
    key("F7");
    await until(() => fake.runs.length === before + 1, "harper");
    const chip = q('.job-running[data-kind="check"]')!;
    chip.querySelector<HTMLButtonElement>(".job-cancel")!.click();
    await until(() => hook().jobsRunning() === 0, "the check to end");
    expect(fake.runs.length).toBe(before + 1);
    expect(hook().lastJobMessage()).toBe("harper: cancelled, vale: not run");
    const checks = fake.calls.filter((c) => c.name === "checkDocument");
    const job = checks[checks.length - 1].args[1];
    expect(fake.calls.some((c) => c.name === "cancelJob" && c.args[0] === job)).toBe(true);
  });

  it("says so when nothing is enabled", async () => {
    fake.enabled = [];
    q<HTMLButtonElement>(".btn-check")!.click();
    await until(() => hook().jobsRunning() === 0 && /No checkers/.test(hook().lastJobMessage() ?? ""), "the message");
    fake.enabled = ["harper", "vale"];
  });
});

describe("Settings", () => {
  it("edits and saves the user's settings; errors show inline", async () => {
    key(",", { ctrlKey: true });
    await until(() => q(".settings"), "the dialog");
    expect(q<HTMLSelectElement>(".set-transport")!.value).toBe("");
    expect(q(".settings")!.textContent).toContain("ANTHROPIC_API_KEY is not set");
    expect(q(".set-path")!.textContent).toContain("/home/w/.config/cowriting/config.toml");
    const boxes = Array.from(document.querySelectorAll<HTMLInputElement>(".set-producer"));
    expect(boxes.map((b) => [b.value, b.checked])).toEqual([
      ["harper", true],
      ["vale", true],
      ["ext", false],
    ]);
    q<HTMLSelectElement>(".set-transport")!.value = "cli";
    q<HTMLInputElement>(".set-model")!.value = "  claude-opus-4  ";
    boxes[0].checked = false;
    boxes[2].checked = true;
    q<HTMLInputElement>(".set-timeout")!.value = "0";
    q<HTMLFormElement>(".settings")!.requestSubmit();
    expect(q(".set-error")!.hidden).toBe(false);
    expect(fake.calls.some((c) => c.name === "saveSettings")).toBe(false);

    q<HTMLInputElement>(".set-timeout")!.value = "300";
    fake.saveError = { code: "bad_input", message: "unknown producer \"ext\"" };
    q<HTMLFormElement>(".settings")!.requestSubmit();
    await until(() => q(".set-error")!.textContent === "unknown producer \"ext\"", "the inline error");
    expect(q(".settings")).not.toBeNull();

    fake.saveError = null;
    q<HTMLFormElement>(".settings")!.requestSubmit();
    await until(() => !q(".settings"), "the dialog to close");
    const saved = fake.calls.filter((c) => c.name === "saveSettings").pop()!.args[0] as SettingsDto;
    expect(saved).toEqual({ ...fake.settings, transport: "cli", model: "claude-opus-4", timeoutSecs: 300, enabled: ["vale", "ext"] });
  });

  it("chooses the spelling language and Harper's rules, found by a filter", async () => {
    fake.calls.length = 0;
    key(",", { ctrlKey: true });
    await until(() => q(".settings"), "the dialog");
    const language = q<HTMLSelectElement>(".set-language")!;
    expect(Array.from(language.options).map((o) => o.textContent)).toEqual(["English (UK) — en_GB", "English (US) — en_US"]);
    expect(language.value).toBe("en_US");
    const rules = () => Array.from(document.querySelectorAll<HTMLInputElement>(".set-rule")).map((b) => [b.value, b.checked]);
    expect(rules()).toEqual([
      ["SpellCheck", true],
      ["UseTitleCase", false],
    ]);
    expect(q(".set-rules-count")!.textContent).toBe("1 of 2 rules on.");
    const filter = q<HTMLInputElement>(".set-rules-filter")!;
    filter.value = "title case";
    filter.dispatchEvent(new Event("input"));
    expect(rules()).toEqual([["UseTitleCase", false]]);
    const box = q<HTMLInputElement>(".set-rule")!;
    box.checked = true;
    box.dispatchEvent(new Event("change"));
    expect(q(".set-rules-count")!.textContent).toBe("2 of 2 rules on.");
    filter.value = "";
    filter.dispatchEvent(new Event("input"));
    expect(rules()).toEqual([
      ["SpellCheck", true],
      ["UseTitleCase", true],
    ]);
    language.value = "en_GB";
    // The workspace's own language: each writer's own unless it says.
    const ours = q<HTMLSelectElement>(".set-workspace-language")!;
    expect(Array.from(ours.options).map((o) => [o.value, o.textContent])).toEqual([
      ["", "Each writer's own"],
      ["en_GB", "English (UK) — en_GB"],
      ["en_US", "English (US) — en_US"],
    ]);
    expect(ours.value).toBe("");
    const trailer = q<HTMLSelectElement>(".set-trailer")!;
    expect(trailer.value).toBe("assisted-by");
    trailer.value = "co-authored-by";
    q<HTMLFormElement>(".settings")!.requestSubmit();
    await until(() => !q(".settings"), "the dialog to close");
    const saved = fake.calls.filter((c) => c.name === "saveSettings").pop()!.args[0] as SettingsDto;
    expect([saved.spellingLanguage, saved.workspaceSpellingLanguage, saved.harperChoices, saved.trailer]).toEqual(["en_GB", null, { UseTitleCase: true }, "co-authored-by"]);

    // The workspace said British English: it is shown, and can be set back.
    fake.settings = { ...fake.settings, workspaceSpellingLanguage: "en_GB", workspaceWarnings: [] };
    key(",", { ctrlKey: true });
    await until(() => q(".settings"), "the dialog again");
    expect(q<HTMLSelectElement>(".set-workspace-language")!.value).toBe("en_GB");
    q<HTMLSelectElement>(".set-workspace-language")!.value = "";
    q<HTMLFormElement>(".settings")!.requestSubmit();
    await until(() => !q(".settings"), "the dialog to close again");
    const again = fake.calls.filter((c) => c.name === "saveSettings").pop()!.args[0] as SettingsDto;
    expect(again.workspaceSpellingLanguage).toBe(null);
    fake.settings = { ...fake.settings, workspaceSpellingLanguage: null };
  });

  it("is in the command palette", () => {
    key("p", { ctrlKey: true, shiftKey: true });
    const titles = Array.from(document.querySelectorAll(".palette-list li span")).map((s) => s.textContent);
    expect(titles).toEqual(expect.arrayContaining(["Ask Claude…", "Check document", "Settings…"]));
    key("Escape");
    expect(q(".modal")).toBeNull();
    expect(errors).toEqual([]);
    expect((window as unknown as { __pwned?: unknown }).__pwned).toBeUndefined();
  });
});
