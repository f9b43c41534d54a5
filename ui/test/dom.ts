// What the app tests share: a query, a bounded wait, and what jsdom lacks that
// CodeMirror and the app use (layout rectangles, scrolling).

export const q = <T extends Element = HTMLElement>(sel: string) => document.querySelector<T>(sel);

/**
 * Wait until `f()` is truthy. The bound is generous (a loaded two-core machine
 * runs these beside builds); a hang still fails, naming `what`.
 */
export async function until(f: () => unknown, what: string, ms = 20_000) {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Give jsdom the layout calls a browser has, as no-ops. */
export function stubLayout() {
  Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => new DOMRect();
  Element.prototype.scrollIntoView = () => undefined;
}
