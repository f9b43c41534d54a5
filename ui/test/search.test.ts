// Search's pure parts (views/search-panel.ts): a hit followed to its text
// (kept in place, followed to its nearest copy when the writer typed before
// it, none when the text is gone), and the summary counting matches, threads
// and documents.
import { describe, expect, it } from "vitest";
import type { SearchOut } from "../src/bindings/SearchOut";
import { placeHit, summary } from "../src/views/search-panel";

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
