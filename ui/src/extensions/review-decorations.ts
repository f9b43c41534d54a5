// The review in the text: each proposal inline as a word diff with its accept
// and reject buttons (a stale one labelled; the selected one marked apart; line
// breaks it adds or removes shown as ⏎), thread anchors marked; built only
// for what is on screen. A click on a thread's text shows its card.
import type { Extension } from "@codemirror/state";
import { Decoration, EditorView, ViewPlugin, WidgetType, type DecorationSet, type ViewUpdate } from "@codemirror/view";
import type { ProposalDto } from "../bindings/ProposalDto";
import type { DecoSpec } from "../model/review-model";
import { appendWithNewlines } from "../diff-text";
import { reviewField, selectedProposal } from "./review-field";
import { hiddenFlag } from "../views/confirm-hidden";
import { decisionLabel } from "../announce";

/** What the buttons beside a proposal do. */
export interface ProposalActions {
  accept(id: string): void;
  reject(id: string): void;
}

class DecisionWidget extends WidgetType {
  constructor(readonly p: ProposalDto, readonly handlers: ProposalActions) {
    super();
  }
  eq(other: DecisionWidget) {
    return (
      other.p.id === this.p.id &&
      other.p.state === this.p.state &&
      other.p.likelyPlace === this.p.likelyPlace &&
      other.p.hidden.length === this.p.hidden.length &&
      other.p.target === this.p.target &&
      other.p.replacement === this.p.replacement
    );
  }
  toDOM() {
    const wrap = document.createElement("span");
    wrap.className = `cm-decision cm-decision-${this.p.state}`;
    wrap.dataset.proposal = this.p.id;
    if (this.p.state === "pending") {
      const ok = document.createElement("button");
      ok.className = "cm-accept";
      ok.textContent = "✓";
      ok.title = "Accept (Alt+Enter)";
      // Named by what it does, not by its mark: "Accept: replace 'begins' with 'starts'".
      ok.setAttribute("aria-label", decisionLabel("accept", this.p));
      ok.addEventListener("mousedown", (e) => e.preventDefault());
      ok.addEventListener("click", () => this.handlers.accept(this.p.id));
      wrap.append(ok);
      const flag = hiddenFlag(this.p);
      if (flag) wrap.append(flag);
    } else {
      const label = document.createElement("span");
      label.className = "cm-stale-label";
      label.textContent = this.p.likelyPlace ? "likely place" : "stale";
      label.title = this.p.reason ?? "The target text changed; accept is disabled.";
      wrap.append(label);
      if (this.p.likelyPlace) {
        // Its exact words, where the text around them changed: accept asks first.
        const here = document.createElement("button");
        here.className = "cm-accept cm-accept-here";
        here.textContent = "✓?";
        here.title = "Check the place, then accept it here";
        here.setAttribute("aria-label", `${decisionLabel("accept", this.p)}, at its likely place`);
        here.addEventListener("mousedown", (e) => e.preventDefault());
        here.addEventListener("click", () => this.handlers.accept(this.p.id));
        wrap.append(here);
      }
    }
    const no = document.createElement("button");
    no.className = "cm-reject";
    no.textContent = "✗";
    no.title = "Reject (Alt+Backspace)";
    no.setAttribute("aria-label", decisionLabel("reject", this.p));
    no.addEventListener("mousedown", (e) => e.preventDefault());
    no.addEventListener("click", () => this.handlers.reject(this.p.id));
    wrap.append(no);
    return wrap;
  }
  ignoreEvent() {
    return true;
  }
}

class InsertWidget extends WidgetType {
  constructor(readonly text: string, readonly id: string, readonly selected: boolean) {
    super();
  }
  eq(other: InsertWidget) {
    return other.text === this.text && other.id === this.id && other.selected === this.selected;
  }
  toDOM() {
    const el = document.createElement("span");
    el.className = `cm-proposal-ins${this.selected ? " cm-proposal-selected" : ""}`;
    el.dataset.proposal = this.id;
    el.append(spoken("(inserted: "));
    appendWithNewlines(el, this.text, true); // text, never HTML; each line break also as ⏎
    el.append(spoken(")"));
    return el;
  }
}

/**
 * Words a screen reader reads in the text and the eye does not see: the
 * editor's text reaches it flattened (WebKitGTK reads no insertion or deletion
 * inside an editable element), so a replacement read "polishingpolish"; with
 * these it reads "(removed: polishing)(inserted: polish)".
 */
function spoken(text: string): HTMLElement {
  const el = document.createElement("span");
  el.className = "visually-hidden cm-spoken";
  el.textContent = text;
  return el;
}

/** Said around removed words (see `spoken`): "(removed: " before them, ")" after. */
class SpokenWidget extends WidgetType {
  constructor(readonly text: string) {
    super();
  }
  eq(other: SpokenWidget) {
    return other.text === this.text;
  }
  toDOM() {
    return spoken(this.text);
  }
  ignoreEvent() {
    return true;
  }
}
const removedOpen = Decoration.widget({ widget: new SpokenWidget("(removed: "), side: -1 });
const removedClose = Decoration.widget({ widget: new SpokenWidget(")"), side: 0 });

/** A line break the proposal removes: ⏎, struck through, at the end of the line. */
class NewlineWidget extends WidgetType {
  constructor(readonly id: string, readonly selected: boolean) {
    super();
  }
  eq(other: NewlineWidget) {
    return other.id === this.id && other.selected === this.selected;
  }
  toDOM() {
    const el = document.createElement("span");
    el.className = `cm-proposal-del cm-proposal-nl${this.selected ? " cm-proposal-selected" : ""}`;
    el.dataset.proposal = this.id;
    el.textContent = "⏎";
    el.title = "The proposal removes this line break";
    return el;
  }
}

/** Between alternatives for one place: "or". */
class OrWidget extends WidgetType {
  eq() {
    return true;
  }
  toDOM() {
    const el = document.createElement("span");
    el.className = "cm-proposal-or";
    el.textContent = "or";
    return el;
  }
}
const or = new OrWidget();

/**
 * For each position, the proposals whose inserted words or buttons stand
 * there, in order: several producers proposing for the same words (Harper's
 * and Vale's "the" for "teh") are drawn as alternatives, each proposal's words
 * with its own ✓✗ ("teh the ✓✗ or the ✓✗"), not interleaved ("the the ✓✗✓✗").
 */
function alternatives(specs: DecoSpec[]): Map<number, string[]> {
  const at = new Map<number, string[]>();
  for (const s of specs) {
    if (s.kind !== "insert" && s.kind !== "decision") continue;
    const id = s.kind === "insert" ? s.id : s.proposal.id;
    const ids = at.get(s.from) ?? [];
    if (!ids.includes(id)) ids.push(id);
    at.set(s.from, ids);
  }
  return at;
}

function toDecoration(spec: DecoSpec, handlers: ProposalActions, at: Map<number, string[]>) {
  // The k-th proposal at a position: its words, then its buttons, after the
  // (k-1)-th's buttons and an "or".
  const rank = (id: string) => Math.max(0, at.get(spec.from)?.indexOf(id) ?? 0);
  switch (spec.kind) {
    case "mark": {
      const mark = Decoration.mark({ class: spec.className, attributes: spec.attributes }).range(spec.from, spec.to);
      // Removed words are said as removed (see `spoken`).
      if (spec.className === "cm-proposal-del") return [removedOpen.range(spec.from), mark, removedClose.range(spec.to)];
      return mark;
    }
    case "insert": {
      const k = rank(spec.id);
      const words = Decoration.widget({ widget: new InsertWidget(spec.text, spec.id, spec.selected), side: 1 + 3 * k }).range(spec.from);
      return k > 0 ? [Decoration.widget({ widget: or, side: 3 * k }).range(spec.from), words] : words;
    }
    case "newline":
      return Decoration.widget({ widget: new NewlineWidget(spec.id, spec.selected), side: -1 }).range(spec.from);
    case "decision":
      return Decoration.widget({ widget: new DecisionWidget(spec.proposal, handlers), side: 2 + 3 * rank(spec.proposal.id) }).range(spec.from);
  }
}

/**
 * Decorations only for what is on screen (a 5 MB document with 1,000 proposals
 * stays smooth), built from the mapped review: the records in view, not all of them.
 */
export function reviewDecorations(handlers: ProposalActions): Extension {
  return ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(view: EditorView) {
        this.decorations = this.build(view);
      }
      update(u: ViewUpdate) {
        if (
          u.docChanged ||
          u.viewportChanged ||
          u.startState.field(reviewField) !== u.state.field(reviewField) ||
          u.startState.field(selectedProposal) !== u.state.field(selectedProposal)
        ) {
          this.decorations = this.build(u.view);
        }
      }
      build(view: EditorView): DecorationSet {
        const review = view.state.field(reviewField);
        if (!review) return Decoration.none;
        const specs = review.decorations(view.visibleRanges, view.state.doc.length, view.state.field(selectedProposal));
        const at = alternatives(specs);
        return Decoration.set(specs.flatMap((s) => toDecoration(s, handlers, at)), true);
      }
    },
    { decorations: (v) => v.decorations },
  );
}

/** A click on a thread's anchored text calls `focusThread` with its id (the click goes on). */
export function threadClicks(focusThread: (id: string) => void): Extension {
  return EditorView.domEventHandlers({
    click(event, view) {
      const target = event.target as HTMLElement;
      const threadEl = target.closest("[data-thread]") as HTMLElement | null;
      if (threadEl?.dataset.thread) focusThread(threadEl.dataset.thread);
      void view;
      return false;
    },
  });
}
