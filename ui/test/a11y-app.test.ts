// Review by ear and by keyboard (issue 38), against a test double of the
// Backend: the inline buttons and the editor named, each decision, undo and
// proposal from outside spoken once, errors assertively, the document tabs and
// the panel's tabs as tab lists, dialogs named and modal with the focus kept
// inside and given back to their opener, Tab moves focus (Ctrl+M), the
// accessible review view (Alt+F2). The real app: tests/e2e/a11y.test.mjs.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { EditorView } from "@codemirror/view";
import { q, stubLayout, until } from "./dom";
import type { Notice } from "../src/bindings/Notice";
import type { ProposalDto } from "../src/bindings/ProposalDto";
import type { ReviewDto } from "../src/bindings/ReviewDto";
import { nextRevision, reviewWith } from "./fake-backend";

const TEXT = "Every piece of writing begins as a mess.\n\nThe first draft is where we find out.";
const at = (s: string) => TEXT.indexOf(s);

function proposal(id: string, target: string, replacement: string): ProposalDto {
  const from = at(target);
  return {
    id,
    state: "pending",
    from,
    to: from + target.length,
    line: 1,
    target,
    replacement,
    current: null,
    reason: null,
    diff: [
      { tag: "delete", text: target },
      { tag: "insert", text: replacement },
    ],
    author: { kind: "agent", id: "claude", model: "m", label: "claude (m)", sdk: null, sessionId: null },
    turnId: "t1",
    instruction: "tighten",
    createdAt: new Date().toISOString(),
    contract: null,
    hidden: [], likelyPlace: false,
  };
}

const review = (proposals: ProposalDto[]) => reviewWith("essay.md", proposals);
const BEGINS = proposal("p-begins", "begins", "starts");
const DRAFT = proposal("p-draft", "first draft", "draft");

const fake = vi.hoisted(() => ({
  review: null as ReviewDto | null,
  history: [] as ReviewDto[],
  notice: null as ((n: Notice) => void) | null,
}));

vi.mock("../src/backend", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../src/backend")>();
  const { fakeBackend, nextRevision } = await import("./fake-backend");
  const decide = (ids: string[]) => {
    fake.history.push(fake.review!);
    fake.review = { ...fake.review!, revision: nextRevision(), proposals: fake.review!.proposals.filter((p) => !ids.includes(p.id)) };
    return { changes: [], version: 2, dirty: true, review: fake.review };
  };
  const backend = fakeBackend(
    {
      workspace: async () => ({
        root: "/ws",
        name: "ws",
        branch: null,
        emptyFolders: [],
        documents: [
          { path: "essay.md", proposals: 2, openThreads: 0, sidecarError: false },
          { path: "notes.md", proposals: 0, openThreads: 0, sidecarError: false },
        ],
      }),
      openDocument: async (path) => ({ path, text: path === "essay.md" ? TEXT : "Notes.", version: 1, dirty: false, review: path === "essay.md" ? fake.review! : review([]) }),
      review: async (path) => (path === "essay.md" ? fake.review! : review([])),
      accept: async (_p, id) => decide([id]),
      reject: async (_p, id) => decide([id]),
      acceptTurn: async () => decide(fake.review!.proposals.map((p) => p.id)),
      undo: async () => {
        fake.review = { ...(fake.history.pop() ?? fake.review!), revision: nextRevision() };
        return { changes: [], version: 3, dirty: true, review: fake.review! };
      },
      settings: async () => ({
        path: "/home/w/.config/cowriting/config.toml",
        transport: null,
        model: null,
        claudeCommand: "claude",
        timeoutSecs: 120,
        enabled: [],
        available: [],
        enabledByDefault: false,
        notInstalled: [],
        haveApiKey: false,
        identity: { name: null, email: null, gitName: "Writer", gitEmail: "w@example.com", id: "w@example.com", display: "Writer", source: "git", ask: false },
        autosave: "off",
        autosaveDelaySecs: 2,
        spellingLanguage: "en_US",
        spellingLanguages: ["en_US"],
        workspaceSpellingLanguage: null,
        workspaceWarnings: [],
        harperRules: [],
        harperChoices: {},
        harperQuiet: [],
        trailer: "assisted-by",
      }),
      saveSettings: async (next) => next,
      setThreadResolved: async () => fake.review!,
      onNotice: async (f) => {
        fake.notice = f;
        return () => undefined;
      },
    },
    () => fake.review!,
  );
  return { ...orig, tauriBackend: async () => backend };
});

const key = (k: string, mods: KeyboardEventInit = {}, target: EventTarget = document.activeElement ?? window) =>
  target.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...mods }));

function view(): EditorView {
  const v = EditorView.findFromDOM(q(".cm-editor")!);
  if (!v) throw new Error("no editor");
  return v;
}

/** Everything said in a region since `since` lines. */
const said = (politeness: "polite" | "assertive") => Array.from(document.querySelectorAll(`.live-${politeness} p`), (p) => p.textContent ?? "");

/** What is said while `f` runs and `until` holds. */
async function saying(f: () => unknown, politeness: "polite" | "assertive" = "polite", what = "an announcement"): Promise<string[]> {
  const before = said(politeness).length;
  await f();
  await until(() => said(politeness).length > before, what);
  // Anything said twice would come at once after: give it the time to.
  await new Promise((r) => setTimeout(r, 50));
  return said(politeness).slice(before);
}

beforeAll(async () => {
  stubLayout();
  const g = globalThis as unknown as { CSS?: { escape?: (s: string) => string } };
  if (!g.CSS?.escape) g.CSS = { ...g.CSS, escape: (s: string) => s.replace(/["\\]/g, "\\$&") };
  fake.review = review([BEGINS, DRAFT]);
  Object.defineProperty(window, "innerWidth", { value: 1400, configurable: true, writable: true });
  await import("../src/main");
  await until(() => q(".cm-content") && q(".cm-accept"), "the document and its proposals");
});

describe("names", () => {
  it("names the inline buttons by what they do and the editor by its document", () => {
    const labels = Array.from(document.querySelectorAll(".cm-decision button"), (b) => b.getAttribute("aria-label"));
    expect(labels).toEqual([
      "Accept: replace 'begins' with 'starts'",
      "Reject: replace 'begins' with 'starts'",
      "Accept: replace 'first draft' with 'draft'",
      "Reject: replace 'first draft' with 'draft'",
    ]);
    expect(q(".cm-content")!.getAttribute("aria-label")).toBe("essay.md — text");
  });

  it("puts the diff's words in the line for a screen reader: removed, then inserted", () => {
    const line = q(".cm-line")!.textContent;
    expect(line).toBe("Every piece of writing (removed: begins)(inserted: starts)✓✗ as a mess.");
    // Not seen: visually hidden.
    for (const el of Array.from(document.querySelectorAll(".cm-spoken"))) expect(el.classList.contains("visually-hidden")).toBe(true);
  });

  it("has one h1, named landmarks, and live regions", () => {
    expect(document.querySelectorAll("h1")).toHaveLength(1);
    for (const aside of Array.from(document.querySelectorAll("aside"))) expect(aside.getAttribute("aria-label")).toBeTruthy();
    expect(q(".live-polite")!.getAttribute("aria-live")).toBe("polite");
    expect(q(".live-assertive")!.getAttribute("aria-live")).toBe("assertive");
    // The toast is shown, not a live region of its own (it would be said twice).
    expect(q(".toast")!.getAttribute("aria-live")).toBeNull();
    expect(q(".toast")!.getAttribute("role")).toBeNull();
  });
});

describe("decisions spoken", () => {
  it("says an accept with its words and what is left, once", async () => {
    view().dispatch({ selection: { anchor: at("begins") + 1 } });
    const lines = await saying(() => key("Enter", { altKey: true }, q(".cm-content")!));
    expect(lines).toEqual(["Accepted: 'begins' → 'starts'. 1 pending in essay.md"]);
  });

  it("says an undo and the proposal it brought back", async () => {
    const lines = await saying(() => key("z", { ctrlKey: true }, q(".cm-content")!));
    expect(lines).toEqual(["Undone: 'begins' → 'starts' is pending again. 2 pending in essay.md"]);
  });

  it("says a batch by its number", async () => {
    view().dispatch({ selection: { anchor: at("begins") + 1 } });
    const lines = await saying(() => key("Enter", { altKey: true, shiftKey: true }, q(".cm-content")!));
    expect(lines).toEqual(["Accepted 2 proposals. None pending in essay.md"]);
    await saying(() => key("z", { ctrlKey: true }, q(".cm-content")!));
    await until(() => document.querySelectorAll(".cm-accept").length === 2, "the proposals back");
  });

  it("keeps the focus in the review panel after a card's accept: on the next card, never the page", async () => {
    q<HTMLElement>(".pt-review")!.click();
    await until(() => document.querySelectorAll(".review-body .card").length === 2, `two cards (${document.querySelectorAll(".review-body .card").length})`);
    const first = q<HTMLButtonElement>(`.card[data-proposal="p-begins"] .btn-accept`)!;
    first.focus();

    const lines = await saying(() => first.click());
    expect(lines).toEqual(["Accepted: 'begins' → 'starts'. 1 pending in essay.md"]);
    await until(() => document.activeElement !== document.body && document.activeElement !== first, "the focus moved on");
    expect(document.activeElement).toBe(q(`.card[data-proposal="p-draft"] .btn-accept`));
    // Ctrl+Z from the panel undoes it too.
    expect(await saying(() => key("z", { ctrlKey: true }, document.activeElement!))).toEqual(["Undone: 'begins' → 'starts' is pending again. 2 pending in essay.md"]);
    await until(() => document.querySelectorAll(".cm-accept").length === 2, "the proposal back");
  });

  it("says an accept of edited text with the words accepted", async () => {
    q<HTMLElement>(".pt-review")!.click();
    await until(() => q(`.card[data-proposal="p-begins"] .btn-edit`), "the card");
    q<HTMLButtonElement>(`.card[data-proposal="p-begins"] .btn-edit`)!.click();
    const area = q<HTMLTextAreaElement>(".card-edit")!;
    area.value = "opens";
    const lines = await saying(() => q<HTMLButtonElement>(".btn-accept-edited")!.click());
    expect(lines).toEqual(["Accepted: 'begins' → 'opens'. 1 pending in essay.md"]);
    await saying(() => key("z", { ctrlKey: true }, q(".cm-content")!));
    await until(() => document.querySelectorAll(".cm-accept").length === 2, "the proposal back");
  });

  it("says proposals filed from outside, batched by producer", async () => {
    const more = [proposal("p-mess", "mess", "muddle"), proposal("p-where", "where", "when")];
    fake.review = review([BEGINS, DRAFT, ...more]);
    const lines = await saying(() => fake.notice!({ kind: "reviewChanged", path: "essay.md" }));
    expect(lines).toEqual(["Claude proposed 2 edits in essay.md."]);
    // The same review again: nothing new, nothing said.
    const before = said("polite").length;
    fake.notice!({ kind: "reviewChanged", path: "essay.md" });
    await new Promise((r) => setTimeout(r, 200));
    expect(said("polite").length).toBe(before);
  });

  it("draws the panel again only for a review of another revision", async () => {
    const card = () => q('.review-body .card[data-proposal="p-mess"]');
    const drawn = card();
    expect(drawn).not.toBeNull();
    // The same revision again (the core changed nothing): the cards are the ones drawn.
    fake.notice!({ kind: "reviewChanged", path: "essay.md" });
    await new Promise((r) => setTimeout(r, 200));
    expect(card(), "not drawn again").toBe(drawn);
    // Another revision, even of the same proposals: drawn again.
    fake.review = { ...fake.review!, revision: nextRevision() };
    fake.notice!({ kind: "reviewChanged", path: "essay.md" });
    await until(() => card() !== drawn, "the panel drawn again");
    expect(card()).not.toBeNull();
  });

  it("says once that typing in a proposal turned it stale", async () => {
    const v = view();
    const inside = v.state.doc.toString().indexOf("first draft") + 3;
    const lines = await saying(() => v.dispatch({ changes: { from: inside, insert: "x" }, userEvent: "input.type" }));
    expect(lines).toEqual(["1 proposal in essay.md is now stale: accept is off."]);
    // Typing on in it: nothing more said.
    const before = said("polite").length;
    v.dispatch({ changes: { from: inside + 1, insert: "y" }, userEvent: "input.type" });
    await new Promise((r) => setTimeout(r, 100));
    expect(said("polite").length).toBe(before);
    // Back as it was (the core's review is the fake's, unchanged).
    v.dispatch({ changes: { from: inside, to: inside + 2 }, userEvent: "delete" });
    fake.notice!({ kind: "reviewChanged", path: "essay.md" });
    await until(() => q(".cm-decision-pending[data-proposal=\"p-draft\"]"), "the proposal pending again");
  });

  it("says a toast politely and an error assertively, each once", async () => {
    const { toast } = await import("../src/views/modal");
    expect(await saying(() => toast("Saved."))).toEqual(["Saved."]);
    expect(await saying(() => toast("Disk full.", "error"), "assertive")).toEqual(["Disk full."]);
  });
});

describe("tab lists", () => {
  it("shows the document tabs as tabs, the close button beside each and out of the Tab order", async () => {
    const { App } = await import("../src/main");
    void App;
    // Open the second document through the tree, then come back.
    q<HTMLElement>('.tree-item[data-path="notes.md"]')!.click();
    await until(() => document.querySelectorAll('[role="tab"].tab-label').length === 2, "two document tabs");
    const tabs = Array.from(document.querySelectorAll<HTMLElement>(".tab-label"));
    expect(tabs.map((t) => t.getAttribute("aria-selected"))).toEqual(["false", "true"]);
    expect(tabs.map((t) => t.tabIndex)).toEqual([-1, 0]);
    for (const t of tabs) expect(t.querySelector("button")).toBeNull();
    const close = q<HTMLButtonElement>(".tab .tab-close")!;
    expect(close.tabIndex).toBe(-1);
    expect(close.getAttribute("aria-hidden")).toBe("true");
  });

  it("moves between document tabs with the arrows and shows one with Enter", async () => {
    const tabs = Array.from(document.querySelectorAll<HTMLElement>(".tab-label"));
    tabs[1].focus();
    key("ArrowRight", {}, tabs[1]);
    expect(document.activeElement).toBe(tabs[0]);
    expect(tabs[0].tabIndex).toBe(0);
    key("Enter", {}, tabs[0]);
    await until(() => q(".cm-content")!.getAttribute("aria-label") === "essay.md — text", "essay.md shown");
  });

  it("switches documents with Ctrl+PageDown and Ctrl+Tab", async () => {
    key("PageDown", { ctrlKey: true }, window);
    await until(() => q(".cm-content")!.getAttribute("aria-label") === "notes.md — text", "notes.md shown");
    key("Tab", { ctrlKey: true }, window);
    await until(() => q(".cm-content")!.getAttribute("aria-label") === "essay.md — text", "essay.md shown again");
    key("PageUp", { ctrlKey: true }, window);
    await until(() => q(".cm-content")!.getAttribute("aria-label") === "notes.md — text", "notes.md shown by Ctrl+PageUp");
    key("PageUp", { ctrlKey: true }, window);
    await until(() => q(".cm-content")!.getAttribute("aria-label") === "essay.md — text", "back to essay.md");
  });

  it("shows the panel's tabs as tabs with their panels, the arrows moving between them", () => {
    const tabs = Array.from(document.querySelectorAll<HTMLElement>(".panel-tabs [role=tab]"));
    expect(tabs).toHaveLength(4);
    expect(tabs.filter((t) => t.getAttribute("aria-selected") === "true")).toHaveLength(1);
    for (const t of tabs) expect(q(`#${t.getAttribute("aria-controls")}`)!.getAttribute("role")).toBe("tabpanel");
    tabs[0].focus();
    key("ArrowRight", {}, tabs[0]);
    expect(document.activeElement).toBe(tabs[1]);
    key("Enter", {}, tabs[1]);
    tabs[1].click();
    expect(tabs[1].getAttribute("aria-selected")).toBe("true");
    expect(tabs[0].getAttribute("aria-selected")).toBe("false");
    expect(tabs[1].tabIndex).toBe(0);
    tabs[0].click();
  });
});

describe("dialogs", () => {
  it("names the palette, keeps Tab inside it and gives the focus back to its opener on Esc", async () => {
    const opener = q<HTMLButtonElement>(".st-palette")!;
    opener.focus();
    opener.click();
    const box = q(".modal-root [role=dialog]")!;
    expect(box.getAttribute("aria-modal")).toBe("true");
    expect(box.getAttribute("aria-label")).toBe("Command palette");
    const input = q<HTMLInputElement>(".palette-input")!;
    expect(document.activeElement).toBe(input);
    expect(input.getAttribute("role")).toBe("combobox");
    expect(q(`#${input.getAttribute("aria-activedescendant")}`)!.getAttribute("aria-selected")).toBe("true");
    // Two stops, the field and the list (it scrolls): Tab wraps from the list to the field, Shift+Tab back.
    const list = q<HTMLElement>(".palette-list")!;
    expect(list.getAttribute("role")).toBe("listbox");
    list.focus();
    expect(key("Tab", {}, list)).toBe(false);
    expect(document.activeElement).toBe(input);
    expect(key("Tab", { shiftKey: true }, input)).toBe(false);
    expect(document.activeElement).toBe(list);
    input.focus();
    key("Escape", {}, input);
    expect(q(".modal-root")!.childElementCount).toBe(0);
    expect(document.activeElement).toBe(opener);
  });

  it("names a dialog by its heading and wraps Tab from its last control to its first", async () => {
    const { modal } = await import("../src/views/modal");
    const { App } = await import("../src/main");
    void App;
    const opener = q<HTMLButtonElement>(".st-tint")!;
    opener.focus();
    const a = document.createElement("input");
    const b = document.createElement("button");
    b.textContent = "OK";
    const body = document.createElement("div");
    body.append(a, b);
    modal({ view: null } as never, "A question", body, []);
    const box = q(".modal-root [role=dialog]")!;
    expect(q(`#${box.getAttribute("aria-labelledby")}`)!.textContent).toBe("A question");
    b.focus();
    key("Tab", {}, b);
    expect(document.activeElement).toBe(a);
    key("Tab", { shiftKey: true }, a);
    expect(document.activeElement).toBe(b);
    key("Escape", {}, b);
    expect(document.activeElement).toBe(opener);
  });
});

describe("keyboard", () => {
  it("toggles Tab moves focus with Ctrl+M, shows it and says it", async () => {
    view().focus();
    expect(q(".st-tabfocus")!.hidden).toBe(true);
    const on = await saying(() => key("m", { ctrlKey: true }, q(".cm-content")!));
    expect(on).toEqual(["Tab moves focus: on. Tab and Shift+Tab leave the text."]);
    expect(q(".st-tabfocus")!.hidden).toBe(false);
    expect(localStorage.getItem("cowriting.tabMovesFocus")).toBe("on");
    const off = await saying(() => key("m", { ctrlKey: true }, q(".cm-content")!));
    expect(off).toEqual(["Tab moves focus: off. Tab indents in the text."]);
    expect(q(".st-tabfocus")!.hidden).toBe(true);
  });

  it("turns Tab moves focus on in Settings too, the focus back on the editor after", async () => {
    view().focus();
    key(",", { ctrlKey: true }, q(".cm-content")!);
    await until(() => q(".set-tab-focus"), "Settings");
    const box = q(".modal-root [role=dialog]")!;
    expect(q(`#${box.getAttribute("aria-labelledby")}`)!.textContent).toBe("Settings");
    const check = q<HTMLInputElement>(".set-tab-focus")!;
    expect(check.checked).toBe(false);
    check.checked = true;
    q<HTMLButtonElement>(".set-save")!.click();
    await until(() => !q(".set-tab-focus"), "Settings saved and closed");
    expect(q(".st-tabfocus")!.hidden).toBe(false);
    expect(localStorage.getItem("cowriting.tabMovesFocus")).toBe("on");
    expect(view().hasFocus).toBe(true);
    key("m", { ctrlKey: true }, q(".cm-content")!);
    expect(q(".st-tabfocus")!.hidden).toBe(true);
  });

  it("reads the proposal at the cursor as words (Alt+F2) and decides it with the editor's keys", async () => {
    view().dispatch({ selection: { anchor: at("begins") + 1 } });
    view().focus();
    key("F2", { altKey: true }, q(".cm-content")!);
    await until(() => q(".av-text"), "the accessible review view");
    const text = () => q(".av-text")!.textContent ?? "";
    expect(text()).toContain("Proposal 1 of 4, pending");
    expect(text()).toContain("Replaces 'begins' with 'starts'.");
    expect(text()).toContain("Turn t1, asked: 'tighten'.");
    expect(document.activeElement).toBe(q(".av-text"));
    key("]", { altKey: true }, q(".av-text")!);
    expect(text()).toContain("Proposal 2 of 4");
    expect(text()).toContain("Replaces 'mess' with 'muddle'.");
    const lines = await saying(() => key("Enter", { altKey: true }, q(".av-text")!));
    expect(lines).toEqual(["Accepted: 'mess' → 'muddle'. 3 pending in essay.md"]);
    await until(() => text().includes("Proposal 2 of 3"), "the next proposal read");
    expect(text()).toContain("Replaces 'first draft' with 'draft'.");
    expect(document.activeElement).toBe(q(".av-text"));
    key("Escape", {}, q(".av-text")!);
    expect(view().hasFocus).toBe(true);
  });

  it("reads threads too (Alt+T): the text, each comment with its author, and resolves one", async () => {
    const from = at("piece of writing");
    const thread = {
      id: "th-1",
      status: "open",
      from,
      to: from + "piece of writing".length,
      line: 1,
      text: "piece of writing",
      orphaned: false,
      relocated: false,
      detached: false,
      anchoredText: "piece of writing",
      comments: [{ id: "c1", author: { kind: "human", id: "ada@example.com", label: "Ada", model: null, sdk: null, sessionId: null }, body: "Which piece?", createdAt: new Date().toISOString() }],
    };
    fake.review = { ...fake.review!, revision: nextRevision(), threads: [thread] };
    fake.notice!({ kind: "reviewChanged", path: "essay.md" });
    await until(() => q(".cm-thread"), "the thread in the text");
    view().dispatch({ selection: { anchor: 0 } });
    view().focus();
    key("F2", { altKey: true }, q(".cm-content")!);
    await until(() => q(".av-text"), "the accessible review view");
    key("t", { altKey: true }, q(".av-text")!);
    const text = () => q(".av-text")!.textContent ?? "";
    expect(text()).toContain("Thread 1 of 1, open, 0 replies");
    expect(text()).toContain("Line 1. On 'piece of writing'.");
    expect(text()).toContain("Ada, just now: Which piece?");
    // Resolve from the view (the fake answers with the thread resolved).
    fake.review = { ...fake.review!, revision: nextRevision(), threads: [{ ...thread, status: "resolved" }] };
    const lines = await saying(() => Array.from(document.querySelectorAll<HTMLButtonElement>(".av-actions button")).find((b) => b.textContent === "Resolve")!.click());
    expect(lines).toEqual(["Thread resolved."]);
    await until(() => text().includes("Thread 1 of 1, resolved"), "the thread read again, resolved");
    key("Escape", {}, q(".av-text")!);
  });

  it("keeps a reply being typed when the Threads panel is drawn again", async () => {
    q<HTMLButtonElement>(".pt-threads")!.click();
    const box = () => q<HTMLTextAreaElement>('.thread[data-thread="th-1"] .reply-box');
    await until(() => box(), "the thread's reply box");
    const typed = box()!;
    typed.value = "Not sent yet";
    typed.dispatchEvent(new Event("input"));
    // Another writer answers: the panel is drawn anew.
    const [thread] = fake.review!.threads;
    const answer = { ...thread.comments[0], id: "c2", body: "This one." };
    fake.review = { ...fake.review!, revision: nextRevision(), threads: [{ ...thread, comments: [...thread.comments, answer] }] };
    fake.notice!({ kind: "reviewChanged", path: "essay.md" });
    await until(() => box() && box() !== typed, "the thread's card drawn again");
    expect(box()!.value).toBe("Not sent yet");
    q<HTMLButtonElement>(".pt-review")!.click();
  });
});
