// Who wrote what: a mark in the gutter beside each line with the writer's own
// text, and a tooltip over text accepted from a producer (who, when, which turn,
// the instruction).
import { RangeSet, type Extension } from "@codemirror/state";
import { gutter, hoverTooltip } from "@codemirror/view";
import { age } from "../util";
import { humanMarker } from "../review-state";
import { reviewField } from "./review-field";
import { setText } from "../hidden";

/** A mark beside each line with the writer's own text: markers kept in the review state, mapped per edit. */
export const humanGutter: Extension = gutter({
  class: "cm-human-gutter",
  markers: (view) => view.state.field(reviewField)?.gutter ?? RangeSet.empty,
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
