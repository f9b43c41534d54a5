// Review coverage: which proposals the writer has seen — their inline diff on
// screen in the text, their card in the Review panel, their row in the Inbox or
// the accessible review view, or selected — per document, for this run of the
// app. Accept all acts on the ones seen and asks before the rest; the Review
// panel says "12 of 40 seen". A writer who signs for what they accepted should
// not accept what never reached their screen without being told.

const seen = new Map<string, Set<string>>();
const listeners = new Set<(path: string) => void>();

/** The writer has seen these proposals of `path`. */
export function markSeen(path: string, ids: Iterable<string>) {
  let set = seen.get(path);
  let added = false;
  for (const id of ids) {
    if (!set) seen.set(path, (set = new Set()));
    if (!set.has(id)) {
      set.add(id);
      added = true;
    }
  }
  if (added) for (const l of listeners) l(path);
}

/** Whether the writer has seen proposal `id` of `path`. */
export function isSeen(path: string, id: string): boolean {
  return seen.get(path)?.has(id) ?? false;
}

/** `ids` split into those the writer has seen and those not yet, each in order. */
export function splitSeen(path: string, ids: readonly string[]): { seen: string[]; unseen: string[] } {
  const set = seen.get(path);
  const out = { seen: [] as string[], unseen: [] as string[] };
  for (const id of ids) (set?.has(id) ? out.seen : out.unseen).push(id);
  return out;
}

/** "12 of 40 seen" for `ids` of `path`; null when there are none. */
export function coverageLabel(path: string, ids: readonly string[]): string | null {
  if (!ids.length) return null;
  return `${splitSeen(path, ids).seen.length} of ${ids.length} seen`;
}

/** The question before an Accept all that would take proposals not yet seen, and its answers. */
export function coverageQuestion(nSeen: number, nAll: number): { question: string; seen: string; all: string } {
  const unseen = nAll - nSeen;
  return {
    question: `${unseen === 1 ? "1 of these proposals has" : `${unseen} of these ${nAll} proposals have`} not been on your screen yet. Accept only the ${nSeen} you have seen, or all ${nAll}?`,
    seen: `Accept the ${nSeen} seen`,
    all: `Accept all ${nAll}`,
  };
}

/** Hear of proposals newly seen (the path); returns the unsubscribe. */
export function onSeen(fn: (path: string) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Forget everything seen (tests). */
export function resetSeen() {
  seen.clear();
}

/** How much of an element must be on screen for it to count as seen. */
const SHOWN = 0.6;
let observer: IntersectionObserver | null = null;
const watched = new WeakMap<Element, { path: string; id: string }>();

/**
 * Count `el` (a card, an Inbox row: proposal `id` of `path`) as seen once most
 * of it has been on screen. Without an IntersectionObserver (jsdom) nothing
 * can tell what is on screen: an element built counts as seen.
 */
export function watchSeen(el: Element, path: string, id: string) {
  if (isSeen(path, id)) return;
  if (typeof IntersectionObserver === "undefined") return markSeen(path, [id]);
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (!e.isIntersecting || e.intersectionRatio < SHOWN) continue;
        const w = watched.get(e.target);
        if (w) markSeen(w.path, [w.id]);
        observer?.unobserve(e.target);
      }
    },
    { threshold: [SHOWN] },
  );
  watched.set(el, { path, id });
  observer.observe(el);
}
