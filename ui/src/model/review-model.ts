// Pure parts of the editor's review display (unit-tested without a browser):
// mapping the core's positions through the writer's edits until the core's next
// word, and the decorations to draw for the visible ranges. `mapReview` is the
// naive model (every record, every edit): the editor keeps the same positions in
// RangeSets instead (review-state.ts), and the tests hold the two to each other.
import type { ProposalDto } from "../bindings/ProposalDto";
import type { ReviewDto } from "../bindings/ReviewDto";
import type { SpanDto } from "../bindings/SpanDto";

export type MapPos = (pos: number, assoc: -1 | 1) => number;

export type DecoSpec =
  | { kind: "mark"; from: number; to: number; className: string; attributes: Record<string, string> }
  | { kind: "insert"; from: number; text: string; id: string; selected: boolean }
  /** A line break the proposal removes, at `from` (the ⏎ a deleted break shows as). */
  | { kind: "newline"; from: number; id: string; selected: boolean }
  | { kind: "decision"; from: number; proposal: ProposalDto };

const HUMAN_LOCAL: SpanDto["author"] = { kind: "human", id: "you", model: null, label: "you", sdk: null, sessionId: null };

/** Text the writer typed at `r`, shown as theirs in the gutter until the core's next word brings the real span. */
export function localSpan(r: { from: number; to: number }): SpanDto {
  return { id: null, from: r.from, to: r.to, line: 0, text: "", author: HUMAN_LOCAL, turnId: null, instruction: null, createdAt: "" };
}

/** Whether a proposal now at `from..to`, `oldSize` long before a change that inserted `inserted`, was edited inside. */
export function touchedBy(from: number, to: number, oldSize: number, inserted: readonly { from: number; to: number }[]): boolean {
  return inserted.some((r) => r.from > from && r.from < to) || to - from !== oldSize;
}

/**
 * Map every position of `review` through a change. Ranges keep their edges
 * (text typed right next to them is outside); a proposal whose target text was
 * typed into is shown stale at once (the core confirms on its next refresh).
 * With `byWriter`, inserted text is shown as the writer's in the gutter.
 */
export function mapReview(
  review: ReviewDto,
  map: MapPos,
  inserted: { from: number; to: number }[],
  byWriter: boolean,
): ReviewDto {
  const proposals = review.proposals.map((p) => {
    if (p.from === null || p.to === null) return p;
    const from = map(p.from, 1);
    const to = Math.max(from, map(p.to, -1));
    const state = p.state === "pending" && touchedBy(from, to, p.to - p.from, inserted) ? "stale" : p.state;
    return { ...p, from, to, state };
  });
  const threads = review.threads.map((t) => {
    if (t.from === null || t.to === null) return t;
    const from = map(t.from, 1);
    return { ...t, from, to: Math.max(from, map(t.to, -1)) };
  });
  let spans: SpanDto[] = [];
  for (const s of review.spans) {
    const from = map(s.from, 1);
    const to = map(s.to, -1);
    if (to > from) spans.push({ ...s, from, to });
  }
  if (byWriter && inserted.length) {
    spans = spans.concat(inserted.map(localSpan));
  }
  return { ...review, proposals, threads, spans };
}

function overlaps(from: number, to: number, ranges: readonly { from: number; to: number }[]): boolean {
  return ranges.some((r) => from <= r.to && to >= r.from);
}

/**
 * The decorations for the parts of a document of length `docLength` in
 * `visible`; the proposal `selected` (Alt+] / a click on its card) marked apart.
 */
export function decorationSpecs(
  review: ReviewDto,
  visible: readonly { from: number; to: number }[],
  docLength: number,
  selected: string | null = null,
): DecoSpec[] {
  const out: DecoSpec[] = [];
  const clamp = (n: number) => Math.max(0, Math.min(docLength, n));
  for (const s of review.spans) {
    if (s.author.kind === "human" || !overlaps(s.from, s.to, visible)) continue;
    out.push({
      kind: "mark",
      from: clamp(s.from),
      to: clamp(s.to),
      className: "cm-attr-agent",
      attributes: { "data-author": s.author.label },
    });
  }
  for (const t of review.threads) {
    if (t.from === null || t.to === null || !overlaps(t.from, t.to, visible)) continue;
    if (t.to > t.from) {
      out.push({
        kind: "mark",
        from: clamp(t.from),
        to: clamp(t.to),
        className: ["cm-thread", t.status === "open" ? "" : "cm-thread-resolved", t.relocated ? "cm-thread-relocated" : ""].filter(Boolean).join(" "),
        attributes: { "data-thread": t.id },
      });
    }
  }
  for (const p of review.proposals) {
    if (p.from === null || p.to === null || !overlaps(p.from, p.to, visible)) continue;
    const from = clamp(p.from);
    const to = clamp(p.to);
    const sel = p.id === selected ? " cm-proposal-selected" : "";
    if (p.state !== "pending") {
      if (to > from) {
        out.push({ kind: "mark", from, to, className: `cm-proposal cm-proposal-stale${sel}`, attributes: { "data-proposal": p.id } });
      }
      out.push({ kind: "decision", from: to, proposal: p });
      continue;
    }
    if (to > from) out.push({ kind: "mark", from, to, className: `cm-proposal${sel}`, attributes: { "data-proposal": p.id } });
    // A widget of the selected proposal is marked itself unless the target's mark holds it (strictly inside).
    const own = (at: number) => !!sel && !(at > from && at < to);
    let pos = from;
    for (const part of p.diff) {
      const n = part.text.length; // UTF-16 units, like the document's offsets
      if (part.tag === "equal") pos += n;
      else if (part.tag === "delete") {
        out.push({ kind: "mark", from: clamp(pos), to: clamp(pos + n), className: "cm-proposal-del", attributes: { "data-proposal": p.id } });
        // A removed line break is shown (the struck-through break itself shows nothing).
        for (let i = part.text.indexOf("\n"); i >= 0; i = part.text.indexOf("\n", i + 1)) {
          out.push({ kind: "newline", from: clamp(pos + i), id: p.id, selected: own(pos + i) });
        }
        pos += n;
      } else out.push({ kind: "insert", from: clamp(pos), text: part.text, id: p.id, selected: own(pos) });
    }
    out.push({ kind: "decision", from: to, proposal: p });
  }
  return out;
}
