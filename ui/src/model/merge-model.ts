// Pure: the merge view's state (views/merge-view.ts paints it). The core merged
// the writer's text with the file on disk by sentence (MergeView); here are the
// writer's choices per change, which change is current, moving between them,
// what the merge reads like so far, the words that say where it stands, and
// the choices kept when the merge is shown again after the file changed.
import type { Choice } from "../bindings/Choice";
import type { MergePart } from "../bindings/MergePart";
import type { MergeView } from "../bindings/MergeView";

export type Hunk = Extract<MergePart, { kind: "hunk" }>;

export interface MergeState {
  view: MergeView;
  /** The hunks of `view.parts`, in order (choices and `current` index them). */
  hunks: Hunk[];
  /** The writer's choice per hunk; null: a one-sided change's own side, or a conflict not decided yet. */
  choices: (Choice | null)[];
  /** The hunk the keys act on (−1: none, an empty merge). */
  current: number;
}

export function hunksOf(view: MergeView): Hunk[] {
  return view.parts.filter((p): p is Hunk => p.kind === "hunk");
}

/**
 * The state of a merge shown for the first time, or again (`previous`: the
 * file changed while the writer chose): a choice is kept for a change whose
 * two sides read the same as before, in order.
 */
export function initialState(view: MergeView, previous: MergeState | null = null): MergeState {
  const hunks = hunksOf(view);
  const choices: (Choice | null)[] = hunks.map(() => null);
  if (previous) {
    let from = 0;
    hunks.forEach((h, i) => {
      for (let j = from; j < previous.hunks.length; j++) {
        const p = previous.hunks[j];
        if (p.mine === h.mine && p.theirs === h.theirs && p.side === h.side) {
          choices[i] = previous.choices[j];
          from = j + 1;
          break;
        }
      }
    });
  }
  const state: MergeState = { view, hunks, choices, current: hunks.length ? 0 : -1 };
  const first = nextUndecided(state, -1);
  if (first !== null) state.current = first;
  return state;
}

/** What a hunk becomes: the writer's choice, else a one-sided change's own side; null for an undecided conflict. */
export function effectiveChoice(h: Hunk, c: Choice | null): Choice | null {
  if (c) return c;
  if (h.side === "mine") return "mine";
  if (h.side === "theirs") return "theirs";
  return null;
}

/** Mine, then theirs (the core's `merge::both`: a space where two sentences would touch). */
export function both(mine: string, theirs: string): string {
  const glued = mine !== "" && theirs !== "" && !/\s$/u.test(mine) && !/^\s/u.test(theirs);
  return mine + (glued ? " " : "") + theirs;
}

/** A hunk's text with a choice. */
export function hunkText(h: Hunk, c: Choice): string {
  return c === "mine" ? h.mine : c === "theirs" ? h.theirs : both(h.mine, h.theirs);
}

/** The conflicts not decided yet, by index. */
export function undecided(s: MergeState): number[] {
  return s.hunks.flatMap((h, i) => (effectiveChoice(h, s.choices[i]) === null ? [i] : []));
}

export function canApply(s: MergeState): boolean {
  return undecided(s).length === 0;
}

/** The next undecided conflict after `from` (wrapping), or null when every one is decided. */
export function nextUndecided(s: MergeState, from: number): number | null {
  const open = undecided(s);
  if (!open.length) return null;
  return open.find((i) => i > from) ?? open[0];
}

/** The change `dir` steps from the current one (wrapping). */
export function step(s: MergeState, dir: 1 | -1): MergeState {
  const n = s.hunks.length;
  if (!n) return s;
  return { ...s, current: (s.current + dir + n) % n };
}

/** Go to a change. */
export function select(s: MergeState, index: number): MergeState {
  return index >= 0 && index < s.hunks.length ? { ...s, current: index } : s;
}

/**
 * The writer chose for the current change (or `index`): kept, and the current
 * change moves on to the next one still undecided (it stays when none is left).
 */
export function choose(s: MergeState, choice: Choice, index = s.current): MergeState {
  if (index < 0 || index >= s.hunks.length) return s;
  const choices = s.choices.slice();
  choices[index] = choice;
  const next: MergeState = { ...s, choices, current: index };
  return { ...next, current: nextUndecided(next, index) ?? index };
}

/** The merged text as the choices make it; an undecided conflict reads as both sides, for a preview. */
export function preview(s: MergeState): string {
  let k = 0;
  return s.view.parts
    .map((p) => {
      if (p.kind === "same") return p.text;
      const i = k++;
      return hunkText(p, effectiveChoice(p, s.choices[i]) ?? "both");
    })
    .join("");
}

/** The choices as the core takes them (`apply_merge`). */
export function choicesForCore(s: MergeState): (Choice | null)[] {
  return s.choices.slice();
}

/** Where the merge stands, in a writer's words. */
export function summary(s: MergeState): string {
  const n = s.hunks.length;
  if (!n) return "Your text and the file on disk now read the same: nothing to merge.";
  const open = undecided(s).length;
  if (!s.view.baseKnown) {
    return `The text your unsaved changes started from is not known (they were restored after a crash), so each of the ${n} ${n === 1 ? "difference" : "differences"} is yours to choose${open ? ` — ${open} still to choose` : " — all chosen"}.`;
  }
  const conflicts = s.hunks.filter((h) => h.side === "conflict").length;
  const auto = n - conflicts;
  const parts: string[] = [];
  if (auto) parts.push(`${auto} ${auto === 1 ? "change was" : "changes were"} made on one side only and ${auto === 1 ? "is" : "are"} taken`);
  if (conflicts) {
    parts.push(
      `${conflicts} ${conflicts === 1 ? "passage was" : "passages were"} changed on both sides` +
        (open ? ` — ${open} still to choose` : " — all chosen"),
    );
  }
  const text = parts.join("; ");
  return text.charAt(0).toUpperCase() + text.slice(1) + ".";
}

/** What a change is, in a writer's words. */
export function hunkTitle(s: MergeState, i: number): string {
  const h = s.hunks[i];
  const where = `Change ${i + 1} of ${s.hunks.length}`;
  const c = effectiveChoice(h, s.choices[i]);
  const chosen = c === "mine" ? "your version" : c === "theirs" ? "the version on disk" : c === "both" ? "both, yours first" : null;
  const what = s.view.baseKnown ? "changed on both sides" : "differs from the file on disk";
  if (h.side === "conflict") return `${where} · ${what} · ${chosen ? `taking ${chosen}` : "choose one"}`;
  const side = h.side === "mine" ? "changed only in your version" : "changed only on disk";
  return `${where} · ${side} · taking ${chosen}`;
}

/**
 * The unchanged text between two changes, folded when long: its first and
 * last `keep` lines stay, with the number of lines between. Null: shown whole.
 */
export function fold(text: string, keep = 2): { head: string; hidden: number; tail: string } | null {
  const lines = text.split(/(?<=\n)/u);
  if (lines.length <= keep * 2 + 2) return null;
  return {
    head: lines.slice(0, keep).join(""),
    hidden: lines.length - keep * 2,
    tail: lines.slice(lines.length - keep).join(""),
  };
}
