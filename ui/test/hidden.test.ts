// Hidden characters shown, never applied (hidden.ts): each written out as
// ⟨U+202E⟩ in plain strings (titles, tooltips) and as a named marker in every
// element h() builds (text, children, tooltips), found however often asked;
// the question before accepting proposals that insert them names each once.
// In comment bodies' sanitized Markdown: markdown.test.ts.
import { describe, expect, it } from "vitest";
import { describe as name, hasHidden, visibleNodes, visibleText } from "../src/hidden";
import { h } from "../src/dom";
import { hiddenQuestion } from "../src/views/confirm-hidden";
import type { ProposalDto } from "../src/bindings/ProposalDto";

describe("hidden characters shown, never applied", () => {
  it("writes each one out in plain strings (titles, tooltips)", () => {
    expect(visibleText("report\u202E4pm.md")).toBe("report⟨U+202E⟩4pm.md");
    expect(visibleText("a\u2066b\u2069c\u200Bd\uFEFF")).toBe("a⟨U+2066⟩b⟨U+2069⟩c⟨U+200B⟩d⟨U+FEFF⟩");
    expect(visibleText("plain naïve 日本語 👩\u200D💻")).toBe("plain naïve 日本語 👩\u200D💻");
    expect(name("\u202E")).toBe("U+202E RIGHT-TO-LEFT OVERRIDE");
  });
  it("finds them however often it is asked (no regex state left behind)", () => {
    for (let i = 0; i < 3; i++) expect(hasHidden("x\u202Ey")).toBe(true);
    const nodes = visibleNodes("\u202Eab\u202Ecd\u202E");
    expect(nodes.filter((n) => typeof n !== "string").length).toBe(3);
  });
  it("every element built by h() shows them, in text, children and tooltips", () => {
    const el = h("div", { text: "report\u202E4pm.md", title: "t\u202Eitle", "aria-label": "l\u200Babel" }, "child\u2067x");
    expect(el.textContent).toBe("report⟨U+202E⟩4pm.mdchild⟨U+2067⟩x");
    expect(el.querySelectorAll(".hidden-char").length).toBe(2);
    expect(el.querySelector(".hidden-char")!.getAttribute("title")).toBe("Hidden character: U+202E RIGHT-TO-LEFT OVERRIDE");
    expect(el.getAttribute("title")).toBe("t⟨U+202E⟩itle");
    expect(el.getAttribute("aria-label")).toBe("l⟨U+200B⟩abel");
  });
  it("asks before accepting a proposal that inserts them, naming them once", () => {
    const p = (id: string, hidden: ProposalDto["hidden"]) => ({ id, hidden }) as ProposalDto;
    expect(hiddenQuestion([p("a", [])])).toBeNull();
    const q = hiddenQuestion([p("a", [{ codePoint: "U+202E", name: "RIGHT-TO-LEFT OVERRIDE", count: 2 }]), p("b", [{ codePoint: "U+202E", name: "RIGHT-TO-LEFT OVERRIDE", count: 1 }]), p("c", [])]);
    expect(q).toContain("2 of these proposals insert");
    expect(q!.match(/U\+202E/g)!.length).toBe(1);
  });
});
