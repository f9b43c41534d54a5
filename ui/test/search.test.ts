// The Search tab (views/search-panel.ts): a hit followed to its text (kept in
// place, followed to its nearest copy when the writer typed before it, none
// when the text is gone); the summary counting matches, threads and
// documents; and the tab built from plain actions (no App): results grouped
// by document, a click going to a hit or a thread, an error said, an older
// answer never over a newer one.
import { describe, expect, it } from "vitest";
import { q, until } from "./dom";
import type { SearchOut } from "../src/bindings/SearchOut";
import { placeHit, renderSearchPanel, summary, type SearchActions } from "../src/views/search-panel";

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
        asked.push(a);
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
});
