// The workspace's review (the Inbox tab), its pure parts: the core's groups
// filtered by document, producer and state, the items in the order the tab
// lists them (next / previous walk that order, across documents), what a
// group's Accept all / Reject all act on, the words of its counts, and
// whether two of the core's answers say the same. Unit-tested in
// test/inbox.test.ts (sameAnswer in test/inbox-view.test.ts); the tab is
// views/inbox-panel.ts.
import type { InboxGroup } from "../bindings/InboxGroup";
import type { InboxOut } from "../bindings/InboxOut";
import type { InboxProposal } from "../bindings/InboxProposal";
import type { InboxThread } from "../bindings/InboxThread";
import { plural } from "./jobs";

/** Which items the tab shows by state: proposals by theirs, open threads, or all. */
export type InboxState = "all" | "pending" | "stale" | "orphaned" | "threads";

export interface InboxFilters {
  /** A document's path; null: every document. */
  document: string | null;
  /** A producer as the groups name it; null: every producer. */
  producer: string | null;
  state: InboxState;
}

export const NO_FILTERS: InboxFilters = { document: null, producer: null, state: "all" };

/** One line of the tab: a proposal or a thread, with its group. */
export type InboxItem =
  | { kind: "proposal"; group: string; document: string; id: string; proposal: InboxProposal }
  | { kind: "thread"; group: string; document: string; id: string; thread: InboxThread };

/** Where the writer is in the list: an item by its document and id. */
export interface InboxPlace {
  document: string;
  id: string;
}

function keepsProposal(p: InboxProposal, f: InboxFilters): boolean {
  return (
    (f.document === null || p.document === f.document) &&
    (f.producer === null || p.producer === f.producer) &&
    (f.state === "all" || f.state === p.proposal.state)
  );
}

function keepsThread(t: InboxThread, f: InboxFilters): boolean {
  return (f.document === null || t.document === f.document) && (f.producer === null || t.producer === f.producer) && (f.state === "all" || f.state === "threads");
}

/** The groups with only the items the filters keep; a group left empty is left out. */
export function filterGroups(out: InboxOut, f: InboxFilters): InboxGroup[] {
  const groups: InboxGroup[] = [];
  for (const g of out.groups) {
    const proposals = g.proposals.filter((p) => keepsProposal(p, f));
    const threads = g.threads.filter((t) => keepsThread(t, f));
    if (proposals.length || threads.length) groups.push({ ...g, proposals, threads });
  }
  return groups;
}

/** The groups' items in the order the tab lists them: group by group, its proposals then its threads. */
export function itemsOf(groups: InboxGroup[]): InboxItem[] {
  const items: InboxItem[] = [];
  for (const g of groups) {
    for (const p of g.proposals) items.push({ kind: "proposal", group: g.key, document: p.document, id: p.proposal.id, proposal: p });
    for (const t of g.threads) items.push({ kind: "thread", group: g.key, document: t.document, id: t.thread.id, thread: t });
  }
  return items;
}

/**
 * The item after (1) or before (-1) `at` in `items`, wrapping around; from
 * nowhere (or from an item no longer listed), the first or the last.
 */
export function step(items: InboxItem[], at: InboxPlace | null, dir: 1 | -1): InboxItem | null {
  if (!items.length) return null;
  const i = at ? items.findIndex((x) => x.document === at.document && x.id === at.id) : -1;
  if (i < 0) return dir === 1 ? items[0] : items[items.length - 1];
  return items[(i + dir + items.length) % items.length];
}

/** The documents and producers the filters offer: every one with something listed, sorted. */
export function choices(out: InboxOut): { documents: string[]; producers: string[] } {
  const producers = new Set<string>();
  for (const g of out.groups) {
    for (const p of g.proposals) producers.add(p.producer);
    for (const t of g.threads) producers.add(t.producer);
  }
  return { documents: out.documents.map((d) => d.document), producers: [...producers].sort((a, b) => a.localeCompare(b)) };
}

/** The documents of a group, in the order it lists them. */
export function documentsOf(g: InboxGroup): string[] {
  return [...new Set([...g.proposals.map((p) => p.document), ...g.threads.map((t) => t.document)])];
}

/**
 * What Accept all and Reject all of a group do, per document: accept its
 * pending proposals (a stale or orphaned one cannot be accepted: its text
 * changed or is gone), reject all of its proposals.
 */
export function decisions(g: InboxGroup): { document: string; accept: string[]; reject: string[] }[] {
  const out = new Map<string, { document: string; accept: string[]; reject: string[] }>();
  for (const p of g.proposals) {
    let d = out.get(p.document);
    if (!d) out.set(p.document, (d = { document: p.document, accept: [], reject: [] }));
    if (p.proposal.state === "pending") d.accept.push(p.proposal.id);
    d.reject.push(p.proposal.id);
  }
  return [...out.values()];
}

/** "3 proposals (1 stale) · 2 threads · 2 documents" (threads: open ones). */
export function countsText(groups: InboxGroup[]): string {
  let proposals = 0;
  let stale = 0;
  let orphaned = 0;
  let threads = 0;
  const docs = new Set<string>();
  for (const g of groups) {
    proposals += g.proposals.length;
    stale += g.proposals.filter((p) => p.proposal.state === "stale").length;
    orphaned += g.proposals.filter((p) => p.proposal.state === "orphaned").length;
    threads += g.threads.length;
    for (const d of documentsOf(g)) docs.add(d);
  }
  if (!proposals && !threads) return "Nothing here.";
  const parts: string[] = [];
  const not = [stale ? `${stale} stale` : "", orphaned ? `${orphaned} orphaned` : ""].filter(Boolean).join(", ");
  if (proposals) parts.push(plural(proposals, "proposal") + (not ? ` (${not})` : ""));
  if (threads) parts.push(plural(threads, "thread"));
  return [...parts, plural(docs.size, "document")].join(" · ");
}

/**
 * Whether two of the core's answers say the same, compared value by value and
 * stopping at the first difference (nothing serialized): the tab keeps the
 * answer it has, and draws nothing anew, when a fetch brings the same again.
 */
export function sameAnswer(a: InboxOut, b: InboxOut): boolean {
  return sameValue(a, b);
}

/** Deep equality of JSON values (what the core's answers are made of). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameValue(x, b[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(y, k) && sameValue(x[k], y[k]));
}
