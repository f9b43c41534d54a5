// The outline in the sidebar (views/outline.ts) from a plain model, with no
// App: the headings by level, the one the cursor is under marked (and only
// it), rebuilt only when the version changes; "No headings." only with a
// document shown; a click asks to jump to its heading.
import { beforeEach, describe, expect, it } from "vitest";
import { q } from "./dom";
import type { Heading } from "../src/model/outline";
import { renderOutline, type OutlineModel } from "../src/views/outline";

const heading = (level: number, text: string): Heading => ({ level, text, from: 0, to: 0 });
const HEADINGS = [heading(1, "Why We Write"), heading(2, "Drafts"), heading(2, "")];

let version = 100;
const model = (m: Partial<OutlineModel> = {}): OutlineModel => ({ headings: HEADINGS, current: -1, version, documentShown: true, ...m });

const items = () => Array.from(document.querySelectorAll<HTMLElement>(".outline-item"));
const marked = () => items().filter((el) => el.classList.contains("current") || el.hasAttribute("aria-current")).map((el) => el.dataset.index);

beforeEach(() => {
  document.body.innerHTML = `<nav class="outline"></nav>`;
  version += 1;
});

describe("the outline", () => {
  it("lists the headings by level; a click asks to jump to one", () => {
    const jumps: number[] = [];
    renderOutline(model(), { jump: (i) => void jumps.push(i) });
    expect(items().map((el) => [el.className, el.textContent, el.title])).toEqual([
      ["outline-item lvl-1", "Why We Write", "Why We Write"],
      ["outline-item lvl-2", "Drafts", "Drafts"],
      ["outline-item lvl-2", "(empty heading)", ""],
    ]);
    items()[1].click();
    items()[0].click();
    expect(jumps).toEqual([1, 0]);
  });

  it("marks the heading the cursor is under, moving the mark without rebuilding", () => {
    const jump = { jump: () => undefined };
    renderOutline(model({ current: 0 }), jump);
    const first = items();
    expect(marked()).toEqual(["0"]);
    expect(first[0].getAttribute("aria-current")).toBe("location");
    renderOutline(model({ current: 2 }), jump);
    expect(items()).toEqual(first);
    expect(marked()).toEqual(["2"]);
    renderOutline(model({ current: -1 }), jump);
    expect(marked()).toEqual([]);
    // A new version: built anew.
    version += 1;
    renderOutline(model({ headings: [heading(3, "Last words")], current: 0 }), jump);
    expect(items().map((el) => el.textContent)).toEqual(["Last words"]);
    expect(marked()).toEqual(["0"]);
  });

  it("says there are no headings only when a document is shown", () => {
    renderOutline(model({ headings: [] }), { jump: () => undefined });
    expect(q(".outline-empty")!.textContent).toBe("No headings.");
    version += 1;
    renderOutline(model({ headings: [], documentShown: false }), { jump: () => undefined });
    expect(q(".outline-empty")!.textContent).toBe("");
  });
});
