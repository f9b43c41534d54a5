// What a screen reader hears, in words (pure; unit-tested in test/announce.test.ts):
// a decision and what is left ("Accepted: 'begins' → 'starts'. 5 pending in
// essay.md"), an undo, proposals that arrived from outside the editor batched
// by producer ("Claude proposed 3 edits in essay.md"), the inline buttons'
// names ("Accept: replace 'begins' with 'starts'"), and a proposal or a thread
// read out in full for the accessible review view. views/live.ts speaks them.
import type { ProposalDto } from "./bindings/ProposalDto";
import type { ThreadDto } from "./bindings/ThreadDto";
import { visibleText } from "./hidden";
import { plural } from "./model/jobs";

/** The name a document goes by: its file name. */
export function docName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Text as spoken: quoted, whitespace runs as one space, a line break said, hidden characters named, long text cut. */
export function quote(text: string, max = 60): string {
  const said = visibleText(text)
    .replace(/\n/g, " ⏎ ")
    .replace(/[ \t]+/g, " ")
    .trim();
  const chars = Array.from(said);
  const cut = chars.length > max ? `${chars.slice(0, max - 1).join("").trimEnd()}…` : said;
  return `'${cut}'`;
}

/** What a proposal does, in a phrase: "replace 'x' with 'y'", "insert 'y'", "delete 'x'". */
export function changeWords(p: Pick<ProposalDto, "target" | "replacement">): string {
  if (!p.target) return `insert ${quote(p.replacement)}`;
  if (!p.replacement) return `delete ${quote(p.target)}`;
  return `replace ${quote(p.target)} with ${quote(p.replacement)}`;
}

/** A proposal's change, short, for an announcement: "'x' → 'y'", "inserted 'y'", "deleted 'x'" as proposed. */
export function changeShort(p: Pick<ProposalDto, "target" | "replacement">): string {
  if (!p.target) return `insert ${quote(p.replacement)}`;
  if (!p.replacement) return `delete ${quote(p.target)}`;
  return `${quote(p.target)} → ${quote(p.replacement)}`;
}

/** The inline ✓ / ✗ buttons' names: "Accept: replace 'x' with 'y'". */
export function decisionLabel(kind: "accept" | "reject", p: Pick<ProposalDto, "target" | "replacement">): string {
  return `${kind === "accept" ? "Accept" : "Reject"}: ${changeWords(p)}`;
}

/** How many proposals wait in a document: "5 pending in essay.md", "none pending in essay.md". */
export function pendingWords(pending: number, path: string): string {
  return `${pending === 0 ? "None" : pending} pending in ${docName(path)}`;
}

/** Proposals still waiting (stale and orphaned ones are not). */
export function pendingCount(proposals: readonly Pick<ProposalDto, "state">[]): number {
  return proposals.filter((p) => p.state === "pending").length;
}

/**
 * A decision as it is spoken: one proposal by its words, several by their
 * number, then what is left in the document.
 */
export function decisionWords(
  verb: "Accepted" | "Rejected",
  decided: readonly Pick<ProposalDto, "target" | "replacement">[],
  pending: number,
  path: string,
): string {
  const what = decided.length === 1 ? `${verb}: ${changeShort(decided[0])}` : `${verb} ${plural(decided.length, "proposal")}`;
  return `${what}. ${pendingWords(pending, path)}`;
}

/** Proposals as the core holds them, before and after something changed them. */
type Proposals = readonly ProposalDto[];

/**
 * An undo or a redo as it is spoken: the proposals it brought back (pending
 * again) or took away, then what is left.
 */
export function undoWords(verb: "Undone" | "Redone", before: Proposals, after: Proposals, path: string): string {
  const was = new Set(before.map((p) => p.id));
  const is = new Set(after.map((p) => p.id));
  const back = after.filter((p) => !was.has(p.id) && p.state === "pending");
  const gone = before.filter((p) => !is.has(p.id));
  let what = verb;
  if (back.length === 1) what += `: ${changeShort(back[0])} is pending again`;
  else if (back.length > 1) what += `: ${plural(back.length, "proposal")} pending again`;
  else if (gone.length === 1) what += `: ${changeShort(gone[0])} decided again`;
  else if (gone.length > 1) what += `: ${plural(gone.length, "proposal")} decided again`;
  return `${what}. ${pendingWords(pendingCount(after), path)}`;
}

/** Who made a proposal, as a writer says it: its producer ("Harper"), else its author's name ("Claude"). */
export function producerName(p: Pick<ProposalDto, "contract" | "author">): string {
  const raw = p.contract?.producer ?? p.author.label.replace(/\s*\(.*$/, "");
  const name = raw || p.author.id;
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * What changed in a document's review from outside the editor (an agent, a
 * checker, another window: the watcher's notice), in one sentence or null:
 * new proposals by producer ("Claude proposed 3 edits in essay.md"), proposals
 * that went stale or were orphaned.
 */
export function arrivalWords(before: Proposals, after: Proposals, path: string): string | null {
  const old = new Map(before.map((p) => [p.id, p]));
  const byProducer = new Map<string, number>();
  let stale = 0;
  for (const p of after) {
    const was = old.get(p.id);
    if (!was) {
      if (p.state === "pending") byProducer.set(producerName(p), (byProducer.get(producerName(p)) ?? 0) + 1);
    } else if (was.state === "pending" && p.state !== "pending") stale++;
  }
  const parts = [...byProducer].map(([who, n]) => `${who} proposed ${plural(n, "edit")}`);
  if (stale) parts.push(`${plural(stale, "proposal")} ${stale === 1 ? "is" : "are"} now stale`);
  if (!parts.length) return null;
  return `${parts.join("; ")} in ${docName(path)}.`;
}

/** The writer's edit turned proposals stale (their text changed under them): "1 proposal in essay.md is now stale: accept is off." */
export function staleWords(n: number, path: string): string {
  return `${plural(n, "proposal")} in ${docName(path)} ${n === 1 ? "is" : "are"} now stale: accept is off.`;
}

/** Read out in full for the accessible review view, a line each. */
export interface ProposalReading {
  /** "Proposal 2 of 5, pending" */
  heading: string;
  lines: string[];
}

/**
 * A proposal as words: where it is, what it replaces and with what, why, who
 * proposed it and in which turn. `around`: the words before and after its target, if known.
 */
export function proposalReading(
  p: ProposalDto,
  index: number,
  total: number,
  author: string,
  around: { before: string; after: string } | null = null,
): ProposalReading {
  const state = p.state === "pending" ? "pending" : `${p.state}: ${p.reason ?? "it cannot be accepted"}`;
  const lines: string[] = [];
  const at = p.line !== null ? `Line ${p.line}. ` : "";
  if (!p.target) lines.push(`${at}Inserts ${quote(p.replacement, 400)}.`);
  else if (!p.replacement) lines.push(`${at}Deletes ${quote(p.target, 400)}.`);
  else lines.push(`${at}Replaces ${quote(p.target, 400)} with ${quote(p.replacement, 400)}.`);
  // The words around keep their own spacing (contextLine's): "is not [polishing]. It is…".
  if (around && (around.before || around.after)) lines.push(`In context: ${quote(`${around.before}[${p.target || "here"}]${around.after}`, 400)}`);
  if (p.contract?.reason) lines.push(`Why: ${visibleText(p.contract.reason)}${p.contract.category ? ` (${visibleText(p.contract.category)})` : ""}.`);
  lines.push(`By ${visibleText(author)}${p.contract && p.contract.producer !== author ? `, through ${visibleText(p.contract.producer)}` : ""}.`);
  if (p.turnId) lines.push(`Turn ${p.turnId}${p.instruction ? `, asked: ${quote(p.instruction, 200)}` : ""}.`);
  else if (p.instruction) lines.push(`Asked: ${quote(p.instruction, 200)}.`);
  if (p.hidden.length) lines.push(`Inserts hidden characters: ${p.hidden.map((c) => c.name).join(", ")}.`);
  return { heading: `Proposal ${index + 1} of ${total}, ${state}`, lines };
}

/**
 * A thread as words, for the accessible review view: which one of how many,
 * open or resolved, the text it is about (or that it is no longer in the
 * text), then each comment with its author and when. `who` names an author;
 * `when` says a date ("2 h ago").
 */
export function threadReading(
  t: ThreadDto,
  index: number,
  total: number,
  who: (c: ThreadDto["comments"][number]) => string,
  when: (iso: string) => string,
): ProposalReading {
  const replies = Math.max(0, t.comments.length - 1);
  const lines: string[] = [];
  const at = t.line !== null ? `Line ${t.line}. ` : "";
  if (t.from === null) lines.push(`Not in the text: it was about ${quote(t.anchoredText || t.text, 400)}.`);
  else lines.push(`${at}On ${quote(t.text, 400)}.`);
  if (t.relocated) lines.push(`Re-attached here; it was on ${quote(t.anchoredText, 200)}.`);
  t.comments.forEach((c, i) => lines.push(`${i === 0 ? "" : "Reply: "}${visibleText(who(c))}, ${when(c.createdAt)}: ${visibleText(c.body.trim())}`));
  return { heading: `Thread ${index + 1} of ${total}, ${t.status}, ${plural(replies, "reply", "replies")}`, lines };
}
