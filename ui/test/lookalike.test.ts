// Look-alike letters (lookalike.ts): the cases shared with the core
// (lookalike-cases.json, the core's `lookalike::tests`) flagged as the core
// flags them; each letter named with the Latin one it passes for; shown as
// itself, marked, and written out in plain strings.
import { describe, expect, it } from "vitest";
import cases from "./lookalike-cases.json";
import { flaggedLookalikes, lookalike } from "../src/lookalike";
import { visibleNodes, visibleText } from "../src/hidden";

// The same cases as the core's `lookalike::tests` (indices in code points).
const codePointIndex = (s: string, utf16: number) => [...s.slice(0, utf16)].length;

describe("look-alike letters", () => {
  for (const c of cases) {
    it(`flags ${JSON.stringify(c.text)} as the core does`, () => {
      expect(flaggedLookalikes(c.text).map((i) => codePointIndex(c.text, i))).toEqual(c.flagged);
    });
  }

  it("names the letter and what it passes for", () => {
    expect(lookalike("\u0430")).toEqual({ cp: 0x430, like: "a", name: "CYRILLIC SMALL LETTER A" });
    expect(lookalike("a")).toBeNull();
  });

  it("is shown as itself, marked, and written out in plain strings", () => {
    expect(visibleText("p\u0430ypal.md")).toBe("p⟨U+0430⟩ypal.md");
    expect(visibleText("Привет, мир")).toBe("Привет, мир");
    const nodes = visibleNodes("p\u0430ypal.md");
    expect(nodes.length).toBe(3);
    const mark = nodes[1] as HTMLElement;
    expect(mark.className).toBe("lookalike-char");
    expect(mark.textContent).toBe("\u0430");
    expect(mark.title).toContain("CYRILLIC SMALL LETTER A");
    expect(mark.title).toContain(`Latin "a"`);
  });
});
