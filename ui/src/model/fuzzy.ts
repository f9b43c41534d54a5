// Go to document… (Ctrl+P): a document found by a few letters of its name, in
// order, not necessarily together ("mtgnts" finds notes/meeting-notes.md), the
// best first: letters in the file name, at the start of a word, one after the
// other, in a short path. Pure: no DOM.

/** Where a word starts: after a separator, or a capital after a small letter. */
function wordStart(s: string, i: number): boolean {
  if (i === 0) return true;
  const prev = s[i - 1];
  return "/-_ .".includes(prev) || (prev === prev.toLowerCase() && s[i] !== s[i].toLowerCase());
}

/**
 * How well `query` matches `path` (higher is better), or null when its
 * letters are not all there in order. Case is ignored; spaces in the query
 * are ignored too.
 */
export function fuzzyScore(query: string, path: string): number | null {
  const q = query.toLowerCase().replace(/\s+/g, "");
  if (!q) return 0;
  const lower = path.toLowerCase();
  const nameStart = path.lastIndexOf("/") + 1;
  // Match from the file name first when the whole query fits in it.
  const tryFrom = (from: number): number | null => {
    let score = 0;
    let at = from;
    let last = -2;
    for (const c of q) {
      const i = lower.indexOf(c, at);
      if (i < 0) return null;
      score += 1;
      if (i === last + 1) score += 3;
      if (wordStart(path, i)) score += 2;
      if (i >= nameStart) score += 1;
      last = i;
      at = i + 1;
    }
    return score - path.length / 100;
  };
  const inName = tryFrom(nameStart);
  const anywhere = tryFrom(0);
  if (inName === null) return anywhere;
  return Math.max(inName + 2, anywhere ?? -Infinity);
}

/** The `limit` paths that match `query` best (ties in name order); all of them, in order, for an empty query. */
export function bestMatches(paths: readonly string[], query: string, limit = 50): string[] {
  if (!query.trim()) return paths.slice(0, limit);
  const scored: [number, string][] = [];
  for (const p of paths) {
    const s = fuzzyScore(query, p);
    if (s !== null) scored.push([s, p]);
  }
  scored.sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return scored.slice(0, limit).map(([, p]) => p);
}
