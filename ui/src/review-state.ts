// The review as the editor holds it between two words from the core: every
// position lives in a CodeMirror RangeSet, built once per `setReview` and then
// mapped through each change (CodeMirror shifts the chunks an edit does not
// touch without visiting their ranges). A keystroke costs what it touches and
// what is on screen, never a pass over all records.
//
// `model/review-model.ts` keeps the naive model (`mapReview` over arrays, then
// `decorationSpecs`): this module must give the same answers, which
// test/review-state.test.ts checks after random edits.
//
// Stickiness, as `mapReview`: a proposal or thread range `«…»` keeps its
// edges, so text typed right next to it is outside (`x«AB»` and `«AB»x` after
// typing x at either edge) and it is never dropped (a deleted target leaves an
// empty range); an attribution span keeps its edges the same way and is dropped
// once its text is all gone.
//
// Invariants (checked by `checkInvariants`):
//  1. every position is within the document;
//  2. `staleCount` is the number of proposals whose state is not "pending".
//
// The gutter's marks (a line a human span touches: `from <= L.to && to > L.from`)
// are not kept for the whole document: `gutterIn` reads them off `humanSpans`
// for the lines on screen.
import { MapMode, RangeSet, RangeValue, type ChangeDesc, type Range, type Text } from "@codemirror/state";
import { GutterMarker } from "@codemirror/view";
import type { ProposalDto } from "./bindings/ProposalDto";
import type { ProposalState } from "./bindings/ProposalState";
import type { ReviewDto } from "./bindings/ReviewDto";
import type { SpanDto } from "./bindings/SpanDto";
import type { ThreadDto } from "./bindings/ThreadDto";
import { decorationSpecs, localSpan, touchedBy, type DecoSpec } from "./model/review-model";

/**
 * A record placed in the text. `index` is its place in the core's list (the
 * order the panel and the decorations use); the writer's own spans get indexes
 * after the core's, in the order they were typed.
 */
class Placed<T> extends RangeValue {
  constructor(
    readonly record: T,
    readonly index: number,
    empty: boolean,
    readonly state: ProposalState | null = null,
  ) {
    super();
    // «AB»: start after, end before what is typed at an edge. An empty range
    // has a single position, mapped as its start (after), as `mapReview` does.
    this.endSide = empty ? 1 : -1;
  }
}
Placed.prototype.startSide = 1;
Placed.prototype.mapMode = MapMode.Simple;

class HumanMarker extends GutterMarker {
  elementClass = "cm-human-line";
  toDOM() {
    const el = document.createElement("span");
    el.className = "cm-human-mark";
    el.title = "Written by you";
    return el;
  }
}
export const humanMarker = new HumanMarker();

const clip = (n: number, len: number) => Math.max(0, Math.min(len, n));

/** Lines `first..last` (numbers) of `doc` that a human span in `spans` touches: a marker at each one's start. */
function markLines(doc: Text, spans: RangeSet<Placed<SpanDto>>, first: number, last: number, out: { from: number }[]) {
  for (let n = first; n <= last; n++) {
    const line = doc.line(n);
    let hit = false;
    spans.between(line.from, line.to, (_f, to) => {
      if (to > line.from) {
        hit = true;
        return false;
      }
    });
    if (hit) out.push({ from: line.from });
  }
}

/** Map `set`'s ranges that keep their place (proposals, threads) exactly as `mapReview` does. */
function mapKept<T>(
  set: RangeSet<Placed<T>>,
  changes: ChangeDesc,
  regions: readonly Region[],
  remap: (v: Placed<T>, from: number, to: number, oldFrom: number, oldTo: number) => Placed<T>,
): RangeSet<Placed<T>> {
  if (set.size === 0) return set;
  // Only a range touching an edit can end up elsewhere than a plain map puts it
  // (collapsed, or with a new state): those are taken out and put back by hand.
  const hit = new Map<Placed<T>, [number, number]>();
  for (const r of regions) set.between(r.fromA, r.toA, (f, t, v) => void hit.set(v, [f, t]));
  const mapped = set.map(changes);
  if (hit.size === 0) return mapped;
  const add: Range<Placed<T>>[] = [];
  for (const [v, [f, t]] of hit) {
    const from = changes.mapPos(f, 1);
    const to = Math.max(from, changes.mapPos(t, -1));
    add.push(remap(v, from, to, f, t).range(from, to));
  }
  return mapped.update({
    filter: (_f, _t, v) => !hit.has(v),
    filterFrom: regions[0].fromB,
    filterTo: regions[regions.length - 1].toB,
    add,
    sort: true,
  });
}

interface Region {
  fromA: number;
  toA: number;
  fromB: number;
  toB: number;
}

export class ReviewState {
  private dtoCache: ReviewDto | null;

  private constructor(
    /** The core's last word: the records, positions as they were then. */
    readonly dto: ReviewDto,
    readonly proposals: RangeSet<Placed<ProposalDto>>,
    readonly threads: RangeSet<Placed<ThreadDto>>,
    /** Spans by an agent (tint, hover). */
    readonly agentSpans: RangeSet<Placed<SpanDto>>,
    /** Spans by a human: the core's, and what the writer typed since. */
    readonly humanSpans: RangeSet<Placed<SpanDto>>,
    /** Proposals not pending (stale or orphaned). */
    readonly staleCount: number,
    /** How many spans the writer typed since the core's word. */
    private readonly typed: number,
    /** Mapped through a change since the core's word. */
    mapped: boolean,
  ) {
    this.dtoCache = mapped ? null : dto;
  }

  /** The review the core sent for `doc`. Positions out of the document are clipped to it. */
  static of(dto: ReviewDto, doc: Text): ReviewState {
    const len = doc.length;
    const proposals: Range<Placed<ProposalDto>>[] = [];
    for (let i = 0; i < dto.proposals.length; i++) {
      const p = dto.proposals[i];
      if (p.from === null || p.to === null) continue;
      const from = clip(p.from, len);
      const to = Math.max(from, clip(p.to, len));
      proposals.push(new Placed(p, i, from === to, p.state).range(from, to));
    }
    const threads: Range<Placed<ThreadDto>>[] = [];
    for (let i = 0; i < dto.threads.length; i++) {
      const t = dto.threads[i];
      if (t.from === null || t.to === null) continue;
      const from = clip(t.from, len);
      const to = Math.max(from, clip(t.to, len));
      threads.push(new Placed(t, i, from === to).range(from, to));
    }
    const agent: Range<Placed<SpanDto>>[] = [];
    const human: Range<Placed<SpanDto>>[] = [];
    for (let i = 0; i < dto.spans.length; i++) {
      const s = dto.spans[i];
      const from = clip(s.from, len);
      const to = clip(s.to, len);
      // An empty span attributes nothing (and `mapReview` drops it at the first edit).
      if (to <= from) continue;
      (s.author.kind === "human" ? human : agent).push(new Placed(s, i, false).range(from, to));
    }
    const humanSpans = RangeSet.of(human, true);
    const stale = dto.proposals.reduce((n, p) => n + (p.state !== "pending" ? 1 : 0), 0);
    return new ReviewState(dto, RangeSet.of(proposals, true), RangeSet.of(threads, true), RangeSet.of(agent, true), humanSpans, stale, 0, false);
  }

  /**
   * Through a change. A pending proposal whose
   * target was typed into turns stale at once (the core confirms on its next
   * word); with `byWriter`, inserted text is shown as the writer's in the gutter.
   */
  map(changes: ChangeDesc, byWriter: boolean): ReviewState {
    if (changes.empty) return this;
    const regions: Region[] = [];
    const inserted: { from: number; to: number }[] = [];
    changes.iterChangedRanges((fromA, toA, fromB, toB) => {
      regions.push({ fromA, toA, fromB, toB });
      if (toB > fromB) inserted.push({ from: fromB, to: toB });
    });
    let stale = this.staleCount;
    const proposals = mapKept(this.proposals, changes, regions, (v, from, to, f, t) => {
      const state = v.state === "pending" && touchedBy(from, to, t - f, inserted) ? "stale" : v.state;
      if (state !== v.state) stale++;
      return state === v.state && (from === to) === (f === t) ? v : new Placed(v.record, v.index, from === to, state);
    });
    const threads = mapKept(this.threads, changes, regions, (v, from, to, f, t) =>
      (from === to) === (f === t) ? v : new Placed(v.record, v.index, from === to),
    );
    const agentSpans = this.agentSpans.map(changes);
    let humanSpans = this.humanSpans.map(changes);
    let typed = this.typed;
    if (byWriter && inserted.length) {
      const base = this.dto.spans.length;
      // Shown in the gutter only; the core's next word brings the real span.
      const add = inserted.map((r) => new Placed(localSpan(r), base + typed++, false).range(r.from, r.to));
      humanSpans = humanSpans.update({ add, sort: true });
    }
    return new ReviewState(this.dto, proposals, threads, agentSpans, humanSpans, stale, typed, true);
  }

  /** The review with every position as it is now (built on demand, then kept): for the panel, the status bar, navigation. */
  toDto(): ReviewDto {
    if (this.dtoCache) return this.dtoCache;
    const at = <T>(set: RangeSet<Placed<T>>) => {
      const out = new Map<number, { from: number; to: number; v: Placed<T> }>();
      for (const c = set.iter(); c.value; c.next()) out.set(c.value.index, { from: c.from, to: c.to, v: c.value });
      return out;
    };
    const ps = at(this.proposals);
    const ts = at(this.threads);
    const proposals = this.dto.proposals.map((p, i) => {
      const now = ps.get(i);
      return now ? { ...p, from: now.from, to: now.to, state: now.v.state ?? p.state } : p;
    });
    const threads = this.dto.threads.map((t, i) => {
      const now = ts.get(i);
      return now ? { ...t, from: now.from, to: now.to } : t;
    });
    const spans = [...at(this.agentSpans).values(), ...at(this.humanSpans).values()]
      .sort((a, b) => a.v.index - b.v.index)
      .map(({ from, to, v }) => ({ ...v.record, from, to }));
    this.dtoCache = { ...this.dto, proposals, threads, spans };
    return this.dtoCache;
  }

  /** The decorations for the parts of the document in `visible`: what `decorationSpecs` gives for the same review. */
  decorations(visible: readonly { from: number; to: number }[], docLength: number, selected: string | null = null): DecoSpec[] {
    const pick = <T>(set: RangeSet<Placed<T>>, place: (v: Placed<T>, from: number, to: number) => T): T[] => {
      const seen = new Map<Placed<T>, T>();
      for (const r of visible) set.between(r.from, r.to, (from, to, v) => void seen.set(v, place(v, from, to)));
      return [...seen].sort((a, b) => a[0].index - b[0].index).map((e) => e[1]);
    };
    const spans = pick(this.agentSpans, (v, from, to) => ({ ...v.record, from, to }));
    const threads = pick(this.threads, (v, from, to) => ({ ...v.record, from, to }));
    const proposals = pick(this.proposals, (v, from, to) => ({ ...v.record, from, to, state: v.state ?? v.record.state }));
    return decorationSpecs({ ...this.dto, spans, threads, proposals }, visible, docLength, selected);
  }

  /** The first agent span (in the core's order) containing `pos`, if any. */
  agentSpanAt(pos: number): SpanDto | null {
    let best: { from: number; to: number; v: Placed<SpanDto> } | null = null;
    this.agentSpans.between(pos, pos, (from, to, v) => {
      if (from <= pos && pos < to && (!best || v.index < best.v.index)) best = { from, to, v };
    });
    const b = best as { from: number; to: number; v: Placed<SpanDto> } | null;
    return b ? { ...b.v.record, from: b.from, to: b.to } : null;
  }

  /**
   * The gutter's marks for the lines of `doc` from the one at `from` to the one
   * at `to` (what is on screen): one at the start of each line a human span touches.
   */
  gutterIn(doc: Text, from: number, to: number): RangeSet<GutterMarker> {
    if (this.humanSpans.size === 0) return RangeSet.empty;
    const marks: { from: number }[] = [];
    markLines(doc, this.humanSpans, doc.lineAt(from).number, doc.lineAt(to).number, marks);
    return RangeSet.of(marks.map((m) => humanMarker.range(m.from)));
  }

  /** Throws if an invariant (see the top of this file) does not hold. For tests. */
  checkInvariants(doc: Text) {
    const fail = (n: number, what: string) => {
      throw new Error(`review state invariant ${n}: ${what}`);
    };
    for (const set of [this.proposals, this.threads, this.agentSpans, this.humanSpans] as RangeSet<RangeValue>[]) {
      for (const c = set.iter(); c.value; c.next()) if (c.from < 0 || c.to > doc.length || c.from > c.to) fail(1, `range ${c.from}..${c.to} in a document of ${doc.length}`);
    }
    const stale = this.toDto().proposals.filter((p) => p.state !== "pending").length;
    if (stale !== this.staleCount) fail(2, `staleCount ${this.staleCount}, ${stale} not pending`);
  }
}
