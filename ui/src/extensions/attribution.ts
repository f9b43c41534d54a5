// Who wrote what: a mark in the gutter beside each line with the writer's own
// text, and a tooltip over text accepted from a producer (who, when, which turn,
// the instruction).
import { RangeSet, type Extension } from "@codemirror/state";
import { gutter, hoverTooltip, type EditorView, type GutterMarker } from "@codemirror/view";
import { age } from "../model/util";
import { humanMarker, type ReviewState } from "../review-state";
import { reviewField } from "./review-field";
import { setText } from "../hidden";

/**
 * The gutter's marks for what is on screen (the viewport's lines), read off
 * the review's human spans; made again only when the review (mapped per edit)
 * or the viewport changed, as the gutter asks at every update.
 */
export function humanMarkers(view: EditorView): RangeSet<GutterMarker> {
  const review = view.state.field(reviewField, false);
  if (!review) return RangeSet.empty;
  const { from, to } = view.viewport;
  const last = shown.get(view);
  if (last && last.review === review && last.from === from && last.to === to) return last.marks;
  const marks = review.gutterIn(view.state.doc, from, to);
  shown.set(view, { review, from, to, marks });
  return marks;
}
const shown = new WeakMap<EditorView, { review: ReviewState; from: number; to: number; marks: RangeSet<GutterMarker> }>();

/** A mark beside each line with the writer's own text. */
export const humanGutter: Extension = gutter({
  class: "cm-human-gutter",
  markers: humanMarkers,
  initialSpacer: () => humanMarker,
});

/** Over a producer's accepted text: who wrote it, when, in which turn, and what they were asked. */
export const attributionTooltip: Extension = hoverTooltip((view, pos) => {
  const span = view.state.field(reviewField)?.agentSpanAt(pos);
  if (!span) return null;
  return {
    pos: span.from,
    end: span.to,
    above: true,
    create() {
      const dom = document.createElement("div");
      dom.className = "cm-attribution-tip";
      const who = document.createElement("div");
      who.className = "tip-who";
      setText(who, span.author.label);
      const when = document.createElement("div");
      when.className = "tip-when";
      setText(when, `accepted ${age(span.createdAt)}${span.turnId ? ` · turn ${span.turnId}` : ""}`);
      dom.append(who, when);
      if (span.instruction) {
        const ins = document.createElement("div");
        ins.className = "tip-instruction";
        setText(ins, `“${span.instruction}”`);
        dom.append(ins);
      }
      return { dom };
    },
  };
});
