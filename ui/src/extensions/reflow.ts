// Re-flow in the editor (display only; the file keeps its line breaks): the
// breaks inside a hard-wrapped paragraph (reflow.ts says which) shown as a
// space, so the paragraph wraps at the editor's width. Kept per edit: only the
// lines an edit touched are looked at again, unless it touched a code fence's
// line (then the whole text, as a fence changes what follows it).
import { StateEffect, StateField, type EditorState, type Extension, type Text } from "@codemirror/state";
import { Decoration, EditorView, ViewPlugin, WidgetType, type DecorationSet } from "@codemirror/view";
import { autoReflow, codeRanges, joinsIn, startMatches, type Join } from "../model/reflow";

/** Turns re-flow on or off for the document. */
const setReflowOn = StateEffect.define<boolean>();

class JoinWidget extends WidgetType {
  eq() {
    return true;
  }
  toDOM() {
    const el = document.createElement("span");
    el.className = "cm-reflow-join";
    el.textContent = " ";
    el.title = "A line break in the file (re-flow shows the paragraph joined)";
    return el;
  }
}
const join = Decoration.replace({ widget: new JoinWidget() });
const toDeco = (joins: Join[]) => Decoration.set(joins.map((j) => join.range(j.from, j.to)));

interface Reflow {
  on: boolean;
  /** The code fences and front matter (no joins inside). */
  code: { from: number; to: number }[];
  joins: DecorationSet;
}

const OFF: Reflow = { on: false, code: [], joins: Decoration.none };
/** A line that opens or closes a fence or front matter: an edit touching one has the whole text looked at again. */
const FENCE_LINE = /^(?: {0,3}(?:`{3,}|~{3,})|---$|\.\.\.$)/;

/** Whether a line of `doc` from the one at `from` to the one at `to` is a `FENCE_LINE` (each read at its start only). */
function fenceLineIn(doc: Text, from: number, to: number): boolean {
  for (let n = doc.lineAt(from).number, last = doc.lineAt(to).number; n <= last; n++) {
    if (startMatches(FENCE_LINE, doc.line(n).text)) return true;
  }
  return false;
}

function build(doc: Text): Reflow {
  const code = codeRanges(doc);
  return { on: true, code, joins: toDeco(joinsIn(doc, 1, doc.lines, code)) };
}

const reflowField = StateField.define<Reflow>({
  create: () => OFF,
  update(value, tr) {
    let on = value.on;
    for (const e of tr.effects) if (e.is(setReflowOn)) on = e.value;
    if (!on) return OFF;
    if (!value.on) return build(tr.state.doc);
    if (!tr.docChanged) return value;
    const doc = tr.state.doc;
    let whole = false;
    const touched: { first: number; last: number }[] = [];
    tr.changes.iterChangedRanges((fromA, toA, fromB, toB) => {
      if (fenceLineIn(tr.startState.doc, fromA, toA) || fenceLineIn(doc, fromB, toB)) whole = true;
      touched.push({ first: Math.max(1, doc.lineAt(fromB).number - 1), last: Math.min(doc.lines, doc.lineAt(toB).number + 1) });
    });
    if (whole) return build(doc);
    const code = value.code.map((r) => ({ from: tr.changes.mapPos(r.from, 1), to: tr.changes.mapPos(r.to, -1) }));
    let joins = value.joins.map(tr.changes);
    for (const { first, last } of touched) {
      // The breaks after lines first..last-1 are looked at again.
      const lo = doc.line(first).to;
      const hi = doc.line(last).from;
      joins = joins.update({
        filter: (from) => from < lo || from >= hi,
        filterFrom: lo,
        filterTo: hi,
        add: joinsIn(doc, first, last, code).map((j) => join.range(j.from, j.to)),
        sort: true,
      });
    }
    return { on, code, joins };
  },
  provide: (f) => [EditorView.decorations.from(f, (v) => v.joins), EditorView.atomicRanges.of((view) => view.state.field(f).joins)],
});

/**
 * Whether re-flow is wanted (the writer's preference, views/panes.ts): every document follows it as it is
 * shown; "auto", each document that is hard-wrapped and not very large (decided as it is shown, not as
 * it is edited: reflow.ts `autoReflow`).
 */
let wanted: boolean | "auto" = "auto";

/** Whether `state`'s document is to be shown re-flowed as it is shown. */
const wantedFor = (state: EditorState) => (wanted === "auto" ? autoReflow(state.doc) : wanted);

/** Re-flow on, off or "auto": for the document shown now, and each one shown after. */
export function setReflow(view: EditorView | null, on: boolean | "auto") {
  wanted = on;
  if (!view || !view.state.field(reflowField, false)) return;
  const want = wantedFor(view.state);
  if (reflowOn(view.state) !== want) view.dispatch({ effects: setReflowOn.of(want) });
}

/** Whether `state` shows its paragraphs re-flowed. */
export function reflowOn(state: EditorState): boolean {
  return state.field(reflowField, false)?.on ?? false;
}

/** The re-flow of the document, as the writer wants it when it is shown. */
export const reflow: Extension = [
  reflowField,
  ViewPlugin.define((view) => {
    // A document shown (a new view, or another document's state): as wanted now.
    queueMicrotask(() => {
      if (!view.dom.isConnected || !view.state.field(reflowField, false)) return;
      const want = wantedFor(view.state);
      if (reflowOn(view.state) !== want) view.dispatch({ effects: setReflowOn.of(want) });
    });
    return {};
  }),
];

/** The breaks `state` shows joined now (for tests: what a full pass over the text would give). */
export function joinsOf(state: EditorState): Join[] {
  const out: Join[] = [];
  const set = state.field(reflowField, false)?.joins ?? Decoration.none;
  for (const c = set.iter(); c.value; c.next()) out.push({ from: c.from, to: c.to });
  return out;
}
