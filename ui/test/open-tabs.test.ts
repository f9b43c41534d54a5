// The tabs a start reopens (open-tabs.ts): the document shown first opens
// first (named on the command line, else the one that was in front), the
// others after; the tab order is the remembered one whatever order they
// opened in; a document gone from the workspace is left out.
import { describe, expect, it } from "vitest";
import { openingOrder, rememberedOrder } from "../src/open-tabs";

describe("openingOrder", () => {
  const listed = new Set(["a.md", "b.md", "c.md", "new.md"]);
  it("opens the tab that was in front first, the rest in their order", () => {
    expect(openingOrder({ order: ["a.md", "b.md", "c.md"], active: "b.md" }, null, listed)).toEqual({ front: "b.md", rest: ["a.md", "c.md"] });
  });
  it("opens a document named on the command line first, even when it was not a tab", () => {
    expect(openingOrder({ order: ["a.md", "b.md"], active: "b.md" }, "new.md", listed)).toEqual({ front: "new.md", rest: ["a.md", "b.md"] });
    expect(openingOrder({ order: ["a.md", "b.md"], active: "a.md" }, "b.md", listed)).toEqual({ front: "b.md", rest: ["a.md"] });
  });
  it("leaves out documents no longer in the workspace, the one in front included", () => {
    expect(openingOrder({ order: ["gone.md", "a.md"], active: "gone.md" }, null, listed)).toEqual({ front: null, rest: ["a.md"] });
  });
});

describe("rememberedOrder", () => {
  it("puts the remembered tabs back in their order, whatever order they opened in", () => {
    expect(rememberedOrder(["a.md", "b.md", "c.md"], ["b.md", "a.md", "c.md"])).toEqual(["a.md", "b.md", "c.md"]);
  });
  it("keeps tabs opened otherwise (restored, named) after them, in their order", () => {
    expect(rememberedOrder(["a.md", "b.md"], ["r.md", "b.md", "a.md", "new.md"])).toEqual(["a.md", "b.md", "r.md", "new.md"]);
  });
  it("drops remembered tabs that did not open", () => {
    expect(rememberedOrder(["a.md", "x.md", "b.md"], ["b.md", "a.md"])).toEqual(["a.md", "b.md"]);
  });
});
