// Go to document's matching (fuzzy.ts): letters in order, not necessarily
// together, in any case; the file name, word starts and runs of letters first;
// for an empty query the first paths, and never more than the limit, among
// 40,000 paths.
import { describe, expect, it } from "vitest";
import { bestMatches, fuzzyScore } from "../src/model/fuzzy";

describe("Go to document's matching", () => {
  it("finds letters in order, not necessarily together, any case", () => {
    expect(fuzzyScore("mtgnts", "notes/meeting-notes.md")).not.toBeNull();
    expect(fuzzyScore("MEET", "notes/meeting-notes.md")).not.toBeNull();
    expect(fuzzyScore("gnm", "notes/meeting.md")).toBeNull();
    expect(fuzzyScore("xyz", "essay.md")).toBeNull();
    expect(fuzzyScore("", "essay.md")).toBe(0);
  });

  it("puts the file name, word starts and runs of letters first", () => {
    const paths = ["chapters/essay-notes.md", "essays/notes.md", "notes/essay.md", "guide/unessential.md", "e/s/s/a/y.md"];
    expect(bestMatches(paths, "essay")[0]).toBe("notes/essay.md");
    expect(bestMatches(paths, "notes")[0]).toBe("essays/notes.md");
    // In the file name first (at a word's start before inside one), scattered letters last.
    const ess = bestMatches(paths, "ess");
    expect(ess.slice(0, 3)).toEqual(["notes/essay.md", "chapters/essay-notes.md", "guide/unessential.md"]);
    expect(ess[ess.length - 1]).toBe("e/s/s/a/y.md");
    expect(bestMatches(paths, "zzz")).toEqual([]);
  });

  it("lists the first ones for an empty query, and at most the limit", () => {
    const many = Array.from({ length: 40_000 }, (_, i) => `section-${i % 400}/page-${i}.md`);
    expect(bestMatches(many, "", 3)).toEqual(many.slice(0, 3));
    const found = bestMatches(many, "page-39999", 50);
    expect(found[0]).toBe("section-399/page-39999.md");
    expect(found.length).toBeLessThanOrEqual(50);
  });
});
