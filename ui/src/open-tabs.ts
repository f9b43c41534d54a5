// The tabs open in a workspace, remembered (localStorage, per workspace root)
// so that the next start — after a crash too, where hot exit brings back only
// the documents with unsaved work — reopens every tab that was open, and the
// one that was in front.

const KEY = (root: string) => `cowriting.tabs:${root}`;
/** More tabs than a writer keeps open are not remembered past this many. */
const MOST = 50;

export interface OpenTabs {
  order: string[];
  active: string | null;
}

export function rememberTabs(root: string, order: readonly string[], active: string | null) {
  try {
    localStorage.setItem(KEY(root), JSON.stringify({ order: order.slice(-MOST), active }));
  } catch {
    // Storage full or refused: the next start opens what it would have anyway.
  }
}

export function rememberedTabs(root: string): OpenTabs {
  try {
    const v = JSON.parse(localStorage.getItem(KEY(root)) ?? "null") as Partial<OpenTabs> | null;
    const order = Array.isArray(v?.order) ? v.order.filter((p): p is string => typeof p === "string") : [];
    return { order, active: typeof v?.active === "string" ? v.active : null };
  } catch {
    return { order: [], active: null };
  }
}

/**
 * The tabs a start opens, in the order to open them: the document to show
 * first (the one named on the command line, else the one that was in front),
 * so it is editable before the others load; then the rest as they were.
 * Only documents still in the workspace (`listed`).
 */
export function openingOrder(tabs: OpenTabs, named: string | null, listed: ReadonlySet<string>): { front: string | null; rest: string[] } {
  const kept = tabs.order.filter((p) => listed.has(p));
  const front = named ?? (tabs.active !== null && kept.includes(tabs.active) ? tabs.active : null);
  return { front, rest: kept.filter((p) => p !== front) };
}

/**
 * The tab order once a start opened them: the remembered tabs in their
 * remembered order, then those opened otherwise (restored by hot exit, named
 * on the command line) in the order they opened.
 */
export function rememberedOrder(remembered: readonly string[], opened: readonly string[]): string[] {
  const open = new Set(opened);
  const kept = remembered.filter((p) => open.has(p));
  const inKept = new Set(kept);
  return [...kept, ...opened.filter((p) => !inKept.has(p))];
}
