// The Search tab (views/search-panel.ts): a hit followed to its text (kept in
// place, followed to its nearest copy when the writer typed before it, none
// when the text is gone); the summary counting matches, threads and
// documents; and the tab built from plain actions (no App): results grouped
// by document, a click going to a hit or a thread, an error said, an older
// answer never over a newer one; results shown as each document is searched,
// the rows kept when the answer agrees; a newer search cancelling the one
// running, its late progress never shown.
import { describe, expect, it } from "vitest";
import { q, until } from "./dom";
import type { SearchOut } from "../src/bindings/SearchOut";
import type { SearchProgress } from "../src/bindings/SearchProgress";
import { onSearchProgress, placeHit, renderSearchPanel, runSearch, summary, type SearchActions } from "../src/views/search-panel";

const out = (hits: string[], threads: string[], truncated = false): SearchOut => ({
  query: "q",
  unit: "utf16",
  hits: hits.map((document) => ({ document, from: 0, to: 1, line: 1, before: "", text: "q", after: "" })),
  threads: threads.map((document) => ({
    document,
    thread: { id: "t", status: "open", from: null, to: null, line: null, text: "", orphaned: true, relocated: false, detached: false, anchoredText: "", comments: [] },
    comment: null,
    author: null,
    body: null,
  })),
  truncated,
  errors: [],
});

describe("placeHit", () => {
  it("keeps a hit whose text is still in its place", () => {
    expect(placeHit("a draft here", { from: 2, to: 7, text: "draft" })).toEqual({ from: 2, to: 7 });
  });
  it("follows the text to its nearest copy when the writer typed before it", () => {
    const text = "draft. New words. A draft here, and a draft there.";
    // Copies at 0, 20 and 38; the hit's place no longer holds its text: the nearest copy.
    expect(placeHit(text, { from: 8, to: 13, text: "draft" })).toEqual({ from: 0, to: 5 });
    expect(placeHit(text, { from: 17, to: 22, text: "draft" })).toEqual({ from: 20, to: 25 });
    expect(placeHit(text, { from: 33, to: 38, text: "draft" })).toEqual({ from: 38, to: 43 });
  });
  it("answers null when the text is gone", () => {
    expect(placeHit("nothing left", { from: 0, to: 5, text: "draft" })).toBeNull();
  });
});

describe("summary", () => {
  it("counts matches, threads and documents", () => {
    expect(summary(out([], []))).toBe("No results.");
    expect(summary(out(["a.md"], []))).toBe("1 match in 1 document.");
    expect(summary(out(["a.md", "a.md", "b.md"], ["c.md"]))).toBe("3 matches, 1 thread in 3 documents.");
    expect(summary(out(["a.md"], [], true))).toBe("1 match in 1 document (the first 1,000; refine the search).");
  });
});

describe("the Search tab", () => {
  it("searches as the writer types or submits, lists the results by document, and goes to the one clicked", async () => {
    document.body.innerHTML = `<div class="search-body"></div>`;
    const asked: unknown[][] = [];
    const went: string[] = [];
    /** Answers held until released, to see an older answer lose to a newer one. */
    const answers: ((o: SearchOut) => void)[] = [];
    const actions: SearchActions = {
      search: (...a) => {
        asked.push(a.slice(0, 4));
        return new Promise((resolve) => answers.push(resolve));
      },
      goToHit: (hit) => void went.push(`hit ${hit.document}:${hit.line}`),
      goToThread: (doc, id) => void went.push(`thread ${doc} ${id}`),
    };
    renderSearchPanel(actions);
    renderSearchPanel(actions);
    expect(document.querySelectorAll(".search-form"), "built once").toHaveLength(1);
    const input = q<HTMLInputElement>(".search-input")!;
    input.value = "dra";
    input.dispatchEvent(new Event("input"));
    await until(() => asked.length === 1, "the search after a pause in typing");
    q<HTMLInputElement>(".search-case")!.click();
    expect(asked).toEqual([
      ["dra", false, false, false],
      ["dra", true, false, false],
    ]);
    expect(q(".search-status")!.textContent).toBe("Searching…");
    // The newer answer first; the older one, late, is not shown over it.
    answers[1](out(["b.md", "a.md", "b.md"], ["a.md"]));
    await until(() => q(".search-group"), "the results");
    answers[0](out([], []));
    await new Promise((r) => setTimeout(r, 0));
    expect(q(".search-status")!.textContent).toBe("3 matches, 1 thread in 2 documents.");
    const groups = Array.from(document.querySelectorAll<HTMLElement>(".search-group"));
    expect(groups.map((g) => [g.dataset.document, g.querySelectorAll(".search-hit").length, g.querySelectorAll(".search-thread").length])).toEqual([
      ["b.md", 2, 0],
      ["a.md", 1, 1],
    ]);
    groups[1].querySelector<HTMLButtonElement>(".search-hit")!.click();
    groups[1].querySelector<HTMLButtonElement>(".search-thread")!.click();
    expect(went).toEqual(["hit a.md:1", "thread a.md t"]);
  });

  it("says what went wrong, and clears with an empty query", async () => {
    document.body.innerHTML = `<div class="search-body"></div>`;
    let fail = true;
    renderSearchPanel({
      search: async () => {
        if (fail) throw { code: "badInput", message: "not a regular expression: (" };
        return out(["a.md"], []);
      },
      goToHit: () => undefined,
      goToThread: () => undefined,
    });
    const form = q<HTMLFormElement>(".search-form")!;
    const input = q<HTMLInputElement>(".search-input")!;
    input.value = "(";
    form.dispatchEvent(new Event("submit", { cancelable: true }));
    await until(() => q(".search-status.search-error"), "the error");
    expect(q(".search-status")!.textContent).toContain("not a regular expression: (");
    fail = false;
    input.value = "a";
    form.dispatchEvent(new Event("submit", { cancelable: true }));
    await until(() => !q(".search-status.search-error") && q(".search-hit"), "the results");
    input.value = "";
    form.dispatchEvent(new Event("submit", { cancelable: true }));
    await until(() => !q(".search-hit"), "the results cleared");
    expect(q(".search-status")!.textContent).toBe("");
  });

  it("shows each document's finds as it is searched, and keeps those rows when the answer agrees", async () => {
    document.body.innerHTML = `<div class="search-body"></div>`;
    let release: (o: SearchOut) => void = () => undefined;
    let tell: (p: SearchProgress) => void = () => undefined;
    renderSearchPanel({
      search: (_q, _c, _w, _r, found) => {
        tell = found;
        return new Promise((resolve) => (release = resolve));
      },
      goToHit: () => undefined,
      goToThread: () => undefined,
    });
    const form = q<HTMLFormElement>(".search-form")!;
    q<HTMLInputElement>(".search-input")!.value = "q";
    form.dispatchEvent(new Event("submit", { cancelable: true }));
    const all = out(["a.md", "a.md", "c.md"], ["c.md"]);
    tell({ job: "j", searched: 1, hits: all.hits.slice(0, 2), threads: [] });
    expect(q('.search-group[data-document="a.md"]')!.querySelectorAll(".search-hit"), "before the answer").toHaveLength(2);
    expect(q(".search-status")!.textContent).toBe("Searching… 2 found, 1 document searched");
    expect(q(".search-status")!.getAttribute("aria-busy"), "a screen reader waits for the summary").toBe("true");
    tell({ job: "j", searched: 250, hits: [], threads: [] });
    expect(q(".search-status")!.textContent).toBe("Searching… 2 found, 250 documents searched");
    tell({ job: "j", searched: 260, hits: all.hits.slice(2), threads: all.threads });
    const row = q<HTMLElement>(".search-hit")!;
    release(all);
    await until(() => q(".search-status")!.textContent === "3 matches, 1 thread in 2 documents.", "the summary");
    expect(q(".search-hit"), "the rows shown as found are kept").toBe(row);
    expect(q(".search-status")!.hasAttribute("aria-busy")).toBe(false);
    expect(Array.from(document.querySelectorAll<HTMLElement>(".search-group")).map((g) => g.dataset.document)).toEqual(["a.md", "c.md"]);
    // An answer that is not what came (a lost event): drawn from the answer.
    form.dispatchEvent(new Event("submit", { cancelable: true }));
    tell({ job: "j", searched: 1, hits: all.hits.slice(0, 1), threads: [] });
    release(all);
    await until(() => document.querySelectorAll(".search-hit").length === 3, "the answer's rows");
  });

  it("cancels the search running when a newer one starts, and shows only the newer one's progress", async () => {
    const cancelled: string[] = [];
    const jobs: string[] = [];
    const backend = {
      search: (_q: string, _c: boolean, _w: boolean, _r: boolean, job: string) => {
        jobs.push(job);
        return new Promise<SearchOut>(() => undefined);
      },
      cancelJob: async (job: string) => void cancelled.push(job),
    };
    const seen: string[] = [];
    void runSearch(backend, "a", false, false, false, (p) => seen.push(`first ${p.searched}`));
    void runSearch(backend, "ab", false, false, false, (p) => seen.push(`second ${p.searched}`));
    expect(jobs).toHaveLength(2);
    expect(jobs[0]).not.toBe(jobs[1]);
    expect(cancelled).toEqual([jobs[0]]);
    onSearchProgress({ job: jobs[0], searched: 1, hits: [], threads: [] });
    onSearchProgress({ job: jobs[1], searched: 2, hits: [], threads: [] });
    expect(seen).toEqual(["second 2"]);
  });
});
