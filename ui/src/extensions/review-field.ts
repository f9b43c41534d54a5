// The review state in the editor: a StateField holding what the core last
// reported (proposals, threads, attribution spans), its positions mapped through
// the writer's edits until the core's next word. `reviewState(review)` is the
// extension; `setReview` replaces the review, `fromCore` marks the core's own
// changes, `reviewOf` / `reviewRevisionOf` / `staleCountOf` read it; `selectProposal` marks one
// proposal apart in the text.
import { Annotation, StateEffect, StateField, type EditorState, type Extension } from "@codemirror/state";
import type { ReviewDto } from "../bindings/ReviewDto";
import { ReviewState } from "../review-state";

/** Marks transactions that carry the core's own changes (not sent back). */
export const fromCore = Annotation.define<boolean>();
/** Replaces the review state shown for the document. */
export const setReview = StateEffect.define<ReviewDto>();

/**
 * The review state, its positions mapped through the writer's edits until the
 * core's next word: RangeSets built once per `setReview` and mapped per change
 * (see review-state.ts). Read it as a ReviewDto with `reviewOf`.
 */
export const reviewField = StateField.define<ReviewState | null>({
  create: () => null,
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setReview)) return ReviewState.of(e.value, tr.newDoc);
    if (!value || !tr.docChanged) return value;
    return value.map(tr.changes, !tr.annotation(fromCore));
  },
});

/** Selects a proposal (its id; null: none): its inline diff is marked apart in the text. */
export const selectProposal = StateEffect.define<string | null>();

/** The proposal selected with Alt+] / Alt+[ or a click on its card, if any. */
export const selectedProposal = StateField.define<string | null>({
  create: () => null,
  update(value, tr) {
    for (const e of tr.effects) if (e.is(selectProposal)) value = e.value;
    return value;
  },
});

/** The review field, starting from `review` (the core's, for the document's text), and the selected proposal. */
export function reviewState(review: ReviewDto): Extension {
  return [reviewField.init((state) => ReviewState.of(review, state.doc)), selectedProposal];
}

/** The review of `state` with its positions as they are now (built when asked for, not per keystroke). */
export function reviewOf(state: EditorState): ReviewDto | null {
  return state.field(reviewField, false)?.toDto() ?? null;
}

/** The core's revision of the review `state` holds (`ReviewDto.revision`): a view compares this, not the review. */
export function reviewRevisionOf(state: EditorState): number | null {
  return state.field(reviewField, false)?.dto.revision ?? null;
}

/** How many of `state`'s proposals are not pending (kept as edits turn them stale; cheap per keystroke). */
export function staleCountOf(state: EditorState): number {
  return state.field(reviewField, false)?.staleCount ?? 0;
}
