// Comment bodies are untrusted Markdown (markdown.ts): ordinary Markdown is
// rendered; raw HTML is shown as text, never as elements; javascript: and data:
// links are dropped; a click on a link hands it to the system's browser and
// never navigates the app; hidden characters are shown as named markers.
import { describe, expect, it } from "vitest";
import { renderMarkdown, setMarkdown } from "../src/markdown";

describe("renderMarkdown (untrusted comment bodies)", () => {
  it("renders ordinary Markdown", () => {
    const html = renderMarkdown("Some **bold**, _em_, `code` and a [link](https://example.com).");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<em>em</em>");
    expect(html).toContain("<code>code</code>");
    expect(html).toContain('href="https://example.com"');
  });
  it("shows raw HTML as text, never as elements", () => {
    const el = document.createElement("div");
    setMarkdown(el, `<script>alert(1)</script><img src=x onerror="alert(2)"><iframe src="https://x"></iframe>`, () => undefined);
    expect(el.querySelectorAll("script, img, iframe").length).toBe(0);
    expect(el.textContent).toContain("<script>alert(1)</script>");
    expect(el.innerHTML).not.toMatch(/<img|<script|<iframe/);
    expect(el.querySelectorAll("[onerror], [src]").length).toBe(0);
  });
  it("drops javascript: and data: links", () => {
    for (const url of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,<b>x</b>", "vbscript:x"]) {
      const el = document.createElement("div");
      setMarkdown(el, `[click](${url})`, () => undefined);
      const a = el.querySelector("a");
      expect(a?.getAttribute("href") ?? null, url).toBeNull();
    }
  });
  it("links do not navigate the app: a click hands them to the system's browser", () => {
    const el = document.createElement("div");
    const opened: string[] = [];
    setMarkdown(el, "[site](https://example.com)", (href) => opened.push(href));
    const a = el.querySelector("a")!;
    const event = new MouseEvent("click", { bubbles: true, cancelable: true });
    a.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(opened).toEqual(["https://example.com"]);
    expect(a.getAttribute("rel")).toBe("noopener noreferrer");
  });
  it("shows hidden characters in a body as named markers", () => {
    const el = document.createElement("div");
    setMarkdown(el, "see report\u202E4pm.md and a\u200Bb", () => undefined);
    const marks = Array.from(el.querySelectorAll(".hidden-char")).map((m) => m.textContent);
    expect(marks).toEqual(["⟨U+202E⟩", "⟨U+200B⟩"]);
    expect(el.textContent).not.toMatch(/[\u202E\u200B]/);
  });
});
