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
    setMarkdown(el, `<script>alert(1)</script><img src=x onerror="alert(2)"><iframe src="https://x"></iframe>`);
    expect(el.querySelectorAll("script, img, iframe").length).toBe(0);
    expect(el.textContent).toContain("<script>alert(1)</script>");
    expect(el.innerHTML).not.toMatch(/<img|<script|<iframe/);
    expect(el.querySelectorAll("[onerror], [src]").length).toBe(0);
  });
  it("drops javascript: and data: links", () => {
    for (const url of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,<b>x</b>", "vbscript:x"]) {
      const el = document.createElement("div");
      setMarkdown(el, `[click](${url})`);
      const a = el.querySelector("a");
      expect(a?.getAttribute("href") ?? null, url).toBeNull();
    }
  });
  it("links do not navigate the app", () => {
    const el = document.createElement("div");
    setMarkdown(el, "[site](https://example.com)");
    const a = el.querySelector("a")!;
    const event = new MouseEvent("click", { bubbles: true, cancelable: true });
    a.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(a.getAttribute("rel")).toBe("noopener noreferrer");
  });
});
