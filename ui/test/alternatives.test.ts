// Two producers proposing for the same words (Harper's and Vale's "the" for
// "teh") are drawn as alternatives of one place — each one's words with its
// own ✓✗, "or" between — not interleaved ("the the ✓✗✓✗").
import { describe, expect, it } from "vitest";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { ProposalDto } from "../src/bindings/ProposalDto";
import { reviewDecorations } from "../src/extensions/review-decorations";
import { reviewState } from "../src/extensions/review-field";
import { stubLayout } from "./dom";
import { proposalIn, reviewWith } from "./fake-backend";

const TEXT = "Write teh words.";

const proposal = (id: string, producer: string, replacement: string): ProposalDto =>
  proposalIn(TEXT, id, "teh", replacement, {
    author: { kind: "agent", id: producer, model: null, label: producer, sdk: null, sessionId: null },
    turnId: `turn-${producer}`,
    instruction: null,
  });

describe("alternatives for one place", () => {
  it("draws each proposal's words with its own buttons, 'or' between", () => {
    stubLayout();
    const review = reviewWith("d.md", [proposal("p-harper", "harper", "the"), proposal("p-vale", "vale", "tea")]);
    const view = new EditorView({
      state: EditorState.create({ doc: TEXT, extensions: [reviewState(review), reviewDecorations({ accept: () => {}, reject: () => {} })] }),
      parent: document.body,
    });
    const order = Array.from(view.contentDOM.querySelectorAll(".cm-proposal-ins, .cm-decision, .cm-proposal-or"), (el) =>
      el.classList.contains("cm-proposal-or") ? "or" : el.classList.contains("cm-decision") ? `✓✗ ${(el as HTMLElement).dataset.proposal ?? ""}` : el.textContent,
    );
    expect(order.map((x) => x?.replace(/ p-\w+$/, ""))).toEqual(["(inserted: the)", "✓✗", "or", "(inserted: tea)", "✓✗"]);
    view.destroy();
  });
});
