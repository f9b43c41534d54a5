// The status bar, the window's title and the banner (views/status.ts) drawn
// from plain models, with no App: the saved state, the counts, Tab moves
// focus, who you are (hidden characters shown), the tint toggled; a title set
// only when it changes; the conflict banner's buttons, unreadable review data.
import { beforeEach, describe, expect, it } from "vitest";
import { q } from "./dom";
import type { ProposalDto } from "../src/bindings/ProposalDto";
import type { ThreadDto } from "../src/bindings/ThreadDto";
import { drawBanner, drawStatus, showTitle, tinted, toggleTint, windowTitle, type StatusModel } from "../src/views/status";

const proposal = (state: ProposalDto["state"]) => ({ state }) as ProposalDto;
const thread = (status: string) => ({ status }) as ThreadDto;

const BARE: StatusModel = { branch: null, doc: null, review: null, tabFocus: false, me: null };

beforeEach(() => {
  document.body.innerHTML = `
    <div class="banner" hidden></div>
    <div class="editor-host"></div>
    <span class="st-branch"></span><span class="st-save"></span><span class="st-words"></span>
    <span class="st-proposals"></span><span class="st-threads"></span>
    <button class="st-tabfocus" hidden>Tab moves focus</button>
    <button class="st-tint">Claude tint</button>
    <button class="st-you"></button>`;
});

const text = (sel: string) => q(sel)!.textContent;

describe("the status bar", () => {
  it("is drawn again only when what it shows changed (it is drawn at every answer to a keystroke)", () => {
    const model: StatusModel = { branch: "main", doc: { saving: false, dirty: true }, review: { proposals: [proposal("pending")], threads: [] }, tabFocus: false, me: null };
    drawStatus(model);
    const nodes = [".st-branch", ".st-save", ".st-proposals", ".st-threads"].map((sel) => q(sel)!.firstChild);
    let mutations = 0;
    const watch = new MutationObserver((records) => (mutations += records.length));
    watch.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    drawStatus({ ...model, review: { proposals: [proposal("pending")], threads: [] } }); // equal, not the same object
    expect(watch.takeRecords().length + mutations).toBe(0);
    expect([".st-branch", ".st-save", ".st-proposals", ".st-threads"].map((sel) => q(sel)!.firstChild)).toEqual(nodes);
    drawStatus({ ...model, review: { proposals: [proposal("stale")], threads: [] } });
    expect(text(".st-proposals")).toBe("0 pending · 1 stale");
    watch.disconnect();
  });

  it("is empty with no document, and says who you are only once known", () => {
    drawStatus(BARE);
    for (const sel of [".st-branch", ".st-save", ".st-proposals", ".st-threads", ".st-you"]) expect(text(sel), sel).toBe("");
    expect(q(".st-you")!.title).toBe("Who you are (Settings…)");
    expect(q(".st-tabfocus")!.hidden).toBe(true);
  });

  it("shows the branch, the saved state, the counts, Tab moves focus and who you are", () => {
    const model: StatusModel = {
      branch: "main",
      doc: { saving: false, dirty: true },
      review: { proposals: [proposal("pending"), proposal("pending"), proposal("stale")], threads: [thread("open"), thread("resolved")] },
      tabFocus: true,
      me: { display: "Ada", id: "ada@example.org" },
    };
    drawStatus(model);
    expect(text(".st-branch")).toBe("⎇ main");
    expect(text(".st-save")).toBe("● Unsaved");
    expect(q(".st-save")!.className).toBe("st-save unsaved");
    expect(text(".st-proposals")).toBe("2 pending · 1 stale");
    expect(q(".st-proposals")!.className).toBe("st-proposals has-stale");
    expect(text(".st-threads")).toBe("1 open thread");
    expect(q(".st-tabfocus")!.hidden).toBe(false);
    expect(text(".st-you")).toBe("✎ Ada");
    expect(q(".st-you")!.title).toBe("You write as ada@example.org — change it in Settings (Ctrl+,)");

    drawStatus({ ...model, doc: { saving: true, dirty: true } });
    expect(text(".st-save")).toBe("Saving…");
    drawStatus({ ...model, doc: { saving: false, dirty: false }, review: { proposals: [proposal("pending")], threads: [] }, me: { display: "report\u202Etxt", id: "x" } });
    expect(text(".st-save")).toBe("Saved");
    expect(q(".st-save")!.className).toBe("st-save");
    expect(text(".st-proposals")).toBe("1 pending");
    expect(q(".st-proposals")!.className).toBe("st-proposals");
    expect(text(".st-threads")).toBe("0 open threads");
    expect(text(".st-you")).not.toContain("\u202E");
  });

  it("toggles the tint on Claude's text, and keeps it across drawings", () => {
    const was = tinted();
    toggleTint();
    expect(tinted()).toBe(!was);
    expect(q(".editor-host")!.classList.contains("tint-off")).toBe(was);
    expect(q(".st-tint")!.classList.contains("off")).toBe(was);
    drawStatus(BARE);
    expect(q(".st-tint")!.classList.contains("off")).toBe(was);
    toggleTint();
    expect(tinted()).toBe(was);
    expect(q(".editor-host")!.classList.contains("tint-off")).toBe(!was);
  });
});

describe("the window's title", () => {
  it("is set when it changes, and only then", async () => {
    const set: string[] = [];
    const setTitle = async (t: string) => void set.push(t);
    showTitle(windowTitle("sample", "drafts/essay.md", true), setTitle);
    showTitle(windowTitle("sample", "drafts/essay.md", true), setTitle);
    showTitle(windowTitle("sample", "drafts/essay.md", false), setTitle);
    showTitle(windowTitle("sample", null, false), setTitle);
    showTitle(windowTitle(null, null, false), setTitle);
    expect(set).toEqual(["● essay.md — sample", "essay.md — sample", "sample", "Cowriting"]);
    expect(document.title).toBe("Cowriting");
    // A title bar that refuses is no error.
    showTitle("other", async () => Promise.reject(new Error("no window")));
    expect(document.title).toBe("other");
  });
});

describe("the banner", () => {
  const noting = () => {
    const calls: string[] = [];
    return { calls, actions: { keepMine: () => void calls.push("keep"), loadTheirs: () => void calls.push("load"), merge: () => void calls.push("merge") } };
  };

  it("offers Compare & merge, Keep mine and Load theirs on a conflict", () => {
    const { calls, actions } = noting();
    drawBanner({ conflict: "essay.md", sidecarError: "unreadable" }, actions);
    const banner = q(".banner")!;
    expect(banner.hidden).toBe(false);
    expect(banner.className).toBe("banner banner-conflict");
    expect(banner.querySelector("span")!.textContent).toBe("essay.md changed on disk while you have unsaved changes.");
    expect(Array.from(banner.querySelectorAll("button"), (b) => b.className)).toEqual(["bn-merge", "bn-keep", "bn-load"]);
    for (const cls of ["bn-merge", "bn-keep", "bn-load"]) q<HTMLButtonElement>(`.${cls}`)!.click();
    expect(calls).toEqual(["merge", "keep", "load"]);
  });

  it("says when the review data is unreadable, and hides when all is well", () => {
    drawBanner({ conflict: null, sidecarError: "bad JSON at line 3" }, noting().actions);
    const banner = q(".banner")!;
    expect(banner.hidden).toBe(false);
    expect(banner.className).toBe("banner banner-error");
    expect(banner.textContent).toBe("Review data unavailable — bad JSON at line 3. The document is still editable.");
    drawBanner({ conflict: null, sidecarError: null }, noting().actions);
    expect(banner.hidden).toBe(true);
    expect(banner.childElementCount).toBe(0);
  });
});
