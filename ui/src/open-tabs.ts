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
