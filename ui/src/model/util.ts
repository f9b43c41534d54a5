// Small pure helpers (unit-tested in test/util.test.ts).
import type { AuthorDto } from "../bindings/AuthorDto";
import type { IdentityDto } from "../bindings/IdentityDto";
import type { ProposalDto } from "../bindings/ProposalDto";
import type { TextChange } from "../bindings/TextChange";
import type { Utf16Offset } from "../bindings/Utf16Offset";

/**
 * A CodeMirror position (CodeMirror counts UTF-16 code units, as JavaScript
 * strings do) as the core's `Utf16Offset`: where a plain number becomes a
 * position the core takes. Nothing else is one (a line, a byte count, a length).
 */
export function utf16(pos: number): Utf16Offset {
  return pos as Utf16Offset;
}

/** Words in a text, as a writer counts them. */
export function wordCount(text: string): number {
  const m = text.match(/[\p{L}\p{N}]+(?:['’\-][\p{L}\p{N}]+)*/gu);
  return m ? m.length : 0;
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", or the date. */
export function age(iso: string, now: Date = new Date()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.max(0, Math.round((now.getTime() - t) / 1000));
  if (s < 45) return "just now";
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min ago`;
  const h = Math.round(min / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(h / 24);
  if (d < 30) return `${d} day${d === 1 ? "" : "s"} ago`;
  return iso.slice(0, 10);
}

/** Who made a proposal, as the review panel names it: its contract's producer, else its author. */
export function producerOf(p: ProposalDto): string {
  return p.contract?.producer ?? p.author.label;
}

/** A group of proposals for the review panel: one turn of one producer. */
export interface ProposalGroup {
  key: string;
  turnId: string | null;
  /** `contract.producer`, or the author's label for proposals without a contract. */
  producer: string;
  author: string;
  instruction: string | null;
  createdAt: string;
  proposals: ProposalDto[];
  /**
   * Another group has proposals of the same turn (another producer filed under
   * it): "accept all" of the turn would take theirs too, so act per proposal.
   */
  sharedTurn: boolean;
}

/** Proposals without a turn, by one author, filed less than this apart, form one group. */
export const SESSION_GAP_MS = 10 * 60 * 1000;

/**
 * Where the proposals without a turn go (their id → a group key): one group
 * per author (and agent session, when named) and run of proposals filed less
 * than SESSION_GAP_MS apart — an agent or a script calling `cowriting
 * propose` once per edit makes one group, not one per call.
 */
function sessionKeys(proposals: ProposalDto[]): Map<string, string> {
  const byAuthor = new Map<string, ProposalDto[]>();
  for (const p of proposals) {
    if (p.turnId) continue;
    const a = p.author;
    const who = [a.kind, a.id, a.model ?? "", a.sessionId ?? "", producerOf(p)].join("\u0000");
    byAuthor.set(who, [...(byAuthor.get(who) ?? []), p]);
  }
  const keys = new Map<string, string>();
  for (const [who, list] of byAuthor) {
    const time = (p: ProposalDto) => Date.parse(p.createdAt) || 0;
    list.sort((x, y) => time(x) - time(y));
    let run = 0;
    list.forEach((p, i) => {
      if (i > 0 && time(p) - time(list[i - 1]) >= SESSION_GAP_MS) run++;
      keys.set(p.id, `session\u0000${who}\u0000${run}`);
    });
  }
  return keys;
}

/**
 * Group by turn and producer; proposals without a turn by author (agent
 * session) and time (`sessionKeys`); in document order of their first proposal.
 */
export function groupByTurn(proposals: ProposalDto[]): ProposalGroup[] {
  const groups = new Map<string, ProposalGroup>();
  const sessions = sessionKeys(proposals);
  const ordered = [...proposals].sort((a, b) => (a.from ?? Infinity) - (b.from ?? Infinity));
  for (const p of ordered) {
    const producer = producerOf(p);
    const key = p.turnId ? `turn\u0000${p.turnId}\u0000${producer}` : (sessions.get(p.id) ?? `single\u0000${p.id}`);
    let g = groups.get(key);
    if (!g) {
      g = {
        key,
        turnId: p.turnId,
        producer,
        author: p.author.label,
        instruction: p.instruction,
        createdAt: p.createdAt,
        proposals: [],
        sharedTurn: false,
      };
      groups.set(key, g);
    }
    if (!g.instruction && p.instruction) g.instruction = p.instruction;
    g.proposals.push(p);
  }
  const out = [...groups.values()];
  const perTurn = new Map<string, number>();
  for (const g of out) if (g.turnId) perTurn.set(g.turnId, (perTurn.get(g.turnId) ?? 0) + 1);
  for (const g of out) g.sharedTurn = g.turnId !== null && (perTurn.get(g.turnId) ?? 0) > 1;
  return out;
}

/** The proposal after/before `pos` (wrapping), among those placed in the text. */
export function nextProposal(proposals: ProposalDto[], pos: number, dir: 1 | -1): ProposalDto | null {
  const placed = proposals.filter((p) => p.from !== null).sort((a, b) => a.from! - b.from!);
  if (placed.length === 0) return null;
  if (dir === 1) return placed.find((p) => p.from! > pos) ?? placed[0];
  const before = placed.filter((p) => p.from! < pos);
  return before.length ? before[before.length - 1] : placed[placed.length - 1];
}

/** The pending or stale proposal whose range contains `pos`. */
export function proposalAt(proposals: ProposalDto[], pos: number): ProposalDto | null {
  return proposals.find((p) => p.from !== null && p.to !== null && p.from <= pos && pos <= p.to) ?? null;
}

/** Apply UTF-16 replacements (old-document coordinates, in order) to a string. */
export function applyTextChanges(text: string, changes: TextChange[]): string {
  let out = "";
  let pos = 0;
  for (const c of changes) {
    out += text.slice(pos, c.from) + c.insert;
    pos = c.to;
  }
  return out + text.slice(pos);
}

/**
 * An author as the writer reads it: their own comments by the name they gave
 * (the id written may be their e-mail), everyone else by the file's label.
 */
export function authorLabel(author: AuthorDto, me: IdentityDto | null): string {
  return me && author.kind === "human" && author.id === me.id ? me.display : author.label;
}

/**
 * How well `query` fuzzily matches `text` (its characters in order, any case),
 * higher is better; null when it does not. A run of characters and the start
 * of a word count more: "wwm" finds "Working with a machine".
 */
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.toLowerCase().replace(/\s+/g, "");
  const t = text.toLowerCase();
  let score = 0;
  let at = 0;
  let prev = -2;
  for (const ch of q) {
    const i = t.indexOf(ch, at);
    if (i < 0) return null;
    score += 1;
    if (i === prev + 1) score += 2;
    if (i === 0 || !/[\p{L}\p{N}]/u.test(t[i - 1])) score += 3;
    prev = i;
    at = i + 1;
  }
  return score - t.length / 1000;
}

/** Where the arrows, Home and End go in a list of `n` tabs from `i` (wrapping), or null for any other key. */
export function arrowTarget(key: string, i: number, n: number): number | null {
  if (n <= 0) return null;
  if (key === "ArrowRight" || key === "ArrowDown") return (i + 1) % n;
  if (key === "ArrowLeft" || key === "ArrowUp") return (i - 1 + n) % n;
  if (key === "Home") return 0;
  if (key === "End") return n - 1;
  return null;
}
