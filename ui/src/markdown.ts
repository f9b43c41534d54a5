// Comment bodies are untrusted Markdown (a cloned repository's sidecar can hold
// anything): render with marked, then sanitize with DOMPurify to a small set of
// inert tags. No raw HTML survives, no URL but http(s) and mailto, no styles.
import DOMPurify from "dompurify";
import { marked } from "marked";
import { markHidden, visibleText } from "./hidden";

const ALLOWED_TAGS = [
  "p", "br", "strong", "em", "del", "code", "pre", "blockquote",
  "ul", "ol", "li", "a", "h1", "h2", "h3", "h4", "h5", "h6", "hr",
];

export function renderMarkdown(source: string): string {
  // marked would pass raw HTML through; escape it first so it shows as text.
  const escaped = source.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const html = marked.parse(escaped, { async: false, gfm: true, breaks: true }) as string;
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR: ["href", "title"],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  });
}

/**
 * Fill `el` with the rendered body, hidden characters marked; a link opens
 * nothing inside the app: a click hands it to `openLink` (the system's browser).
 */
export function setMarkdown(el: HTMLElement, source: string, openLink: (href: string) => void): void {
  el.innerHTML = renderMarkdown(source);
  markHidden(el);
  for (const a of Array.from(el.querySelectorAll("a"))) {
    const href = a.getAttribute("href") ?? "";
    a.setAttribute("rel", "noopener noreferrer");
    a.title = visibleText(href);
    a.addEventListener("click", (e) => {
      // Never in the app's window: the system's browser or mail program opens it.
      e.preventDefault();
      openLink(href);
    });
  }
}
