// The CodeMirror 6 view of a document. The core is the model of record: this
// module turns every transaction into UTF-16 TextChanges for the core, applies
// the core's changes back (annotated `fromCore` so they are not echoed; the
// review field is in extensions/review-field.ts), and renders the
// decorations for what the core reports — proposals inline as word diffs,
// attribution tint and gutter, anchored threads. CodeMirror's own history is
// not loaded: undo is the core's.
import { Compartment, EditorState, RangeSet, type Extension, type Transaction } from "@codemirror/state";
import {
  Decoration,
  EditorView,
  ViewPlugin,
  WidgetType,
  drawSelection,
  gutter,
  hoverTooltip,
  keymap,
  type DecorationSet,
  type KeyBinding,
  type ViewUpdate,
} from "@codemirror/view";
import { defaultKeymap, indentWithTab } from "@codemirror/commands";
import { markdown } from "@codemirror/lang-markdown";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { highlightSelectionMatches, search, searchKeymap } from "@codemirror/search";
import { tags } from "@lezer/highlight";
import type { ProposalDto } from "./bindings/ProposalDto";
import type { ReviewDto } from "./bindings/ReviewDto";
import type { TextChange } from "./bindings/TextChange";
import { age } from "./util";
import type { DecoSpec } from "./review-model";
import { humanMarker } from "./review-state";
import { fromCore, reviewField, reviewState } from "./extensions/review-field";

export interface EditorHandlers {
  /** A change the writer made in the view (already applied there). */
  onLocalChange(changes: TextChange[], typing: boolean): void;
  /** The cursor moved without an edit (ends the typing group). */
  onCursorJump(): void;
  accept(id: string): void;
  reject(id: string): void;
  focusThread(id: string): void;
  keys: KeyBinding[];
}

/** The transaction's changes as the core takes them: old-document UTF-16 offsets, in order. */
export function changesOf(tr: Transaction): TextChange[] {
  const out: TextChange[] = [];
  tr.changes.iterChanges((fromA, toA, _fb, _tb, inserted) => {
    out.push({ from: fromA, to: toA, insert: inserted.toString() });
  });
  return out;
}

class DecisionWidget extends WidgetType {
  constructor(readonly p: ProposalDto, readonly handlers: EditorHandlers) {
    super();
  }
  eq(other: DecisionWidget) {
    return other.p.id === this.p.id && other.p.state === this.p.state;
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
      ok.addEventListener("mousedown", (e) => e.preventDefault());
      ok.addEventListener("click", () => this.handlers.accept(this.p.id));
      wrap.append(ok);
    } else {
      const label = document.createElement("span");
      label.className = "cm-stale-label";
      label.textContent = "stale";
      label.title = this.p.reason ?? "The target text changed; accept is disabled.";
      wrap.append(label);
    }
    const no = document.createElement("button");
    no.className = "cm-reject";
    no.textContent = "✗";
    no.title = "Reject (Alt+Backspace)";
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
  constructor(readonly text: string, readonly id: string) {
    super();
  }
  eq(other: InsertWidget) {
    return other.text === this.text && other.id === this.id;
  }
  toDOM() {
    const el = document.createElement("span");
    el.className = "cm-proposal-ins";
    el.dataset.proposal = this.id;
    el.textContent = this.text; // text, never HTML
    return el;
  }
}

function toDecoration(spec: DecoSpec, handlers: EditorHandlers) {
  switch (spec.kind) {
    case "mark":
      return Decoration.mark({ class: spec.className, attributes: spec.attributes }).range(spec.from, spec.to);
    case "insert":
      return Decoration.widget({ widget: new InsertWidget(spec.text, spec.id), side: 1 }).range(spec.from);
    case "decision":
      return Decoration.widget({ widget: new DecisionWidget(spec.proposal, handlers), side: 2 }).range(spec.from);
  }
}

/**
 * Decorations only for what is on screen (a 5 MB document with 1,000 proposals
 * stays smooth), built from the mapped review: the records in view, not all of them.
 */
function reviewDecorations(handlers: EditorHandlers) {
  return ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(view: EditorView) {
        this.decorations = this.build(view);
      }
      update(u: ViewUpdate) {
        if (u.docChanged || u.viewportChanged || u.startState.field(reviewField) !== u.state.field(reviewField)) {
          this.decorations = this.build(u.view);
        }
      }
      build(view: EditorView): DecorationSet {
        const review = view.state.field(reviewField);
        if (!review) return Decoration.none;
        const specs = review.decorations(view.visibleRanges, view.state.doc.length);
        return Decoration.set(specs.map((s) => toDecoration(s, handlers)), true);
      }
    },
    { decorations: (v) => v.decorations },
  );
}

/** A mark beside each line with the writer's own text: markers kept in the review state, mapped per edit. */
const humanGutter = gutter({
  class: "cm-human-gutter",
  markers: (view) => view.state.field(reviewField)?.gutter ?? RangeSet.empty,
  initialSpacer: () => humanMarker,
});

const attributionTooltip = hoverTooltip((view, pos) => {
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
      who.textContent = span.author.label;
      const when = document.createElement("div");
      when.className = "tip-when";
      when.textContent = `accepted ${age(span.createdAt)}${span.turnId ? ` · turn ${span.turnId}` : ""}`;
      dom.append(who, when);
      if (span.instruction) {
        const ins = document.createElement("div");
        ins.className = "tip-instruction";
        ins.textContent = `“${span.instruction}”`;
        dom.append(ins);
      }
      return { dom };
    },
  };
});

const highlight = HighlightStyle.define([
  { tag: tags.heading1, fontSize: "1.45em", fontWeight: "700" },
  { tag: tags.heading2, fontSize: "1.25em", fontWeight: "700" },
  { tag: [tags.heading3, tags.heading4, tags.heading5, tags.heading6], fontWeight: "700" },
  { tag: tags.strong, fontWeight: "700" },
  { tag: tags.emphasis, fontStyle: "italic" },
  { tag: tags.strikethrough, textDecoration: "line-through" },
  { tag: tags.link, color: "var(--link)", textDecoration: "underline" },
  { tag: tags.url, color: "var(--muted)" },
  { tag: tags.monospace, fontFamily: "var(--mono)", color: "var(--code)" },
  { tag: tags.quote, color: "var(--muted)", fontStyle: "italic" },
  { tag: [tags.processingInstruction, tags.meta], color: "var(--muted)" },
]);

/** Prose, not code: a serif face, a readable measure. */
const proseTheme = EditorView.theme({
  "&": { height: "100%" },
  ".cm-scroller": { fontFamily: "var(--serif)", fontSize: "17px", lineHeight: "1.7" },
  ".cm-gutters": { backgroundColor: "var(--bg)", color: "var(--muted)", border: "none" },
});

/** Toggled by the app: read-only while a core operation is in flight. */
export const readOnly = new Compartment();

export function createState(text: string, review: ReviewDto, handlers: EditorHandlers): EditorState {
  const extensions: Extension[] = [
    proseTheme,
    humanGutter,
    drawSelection(),
    EditorView.lineWrapping,
    markdown(),
    syntaxHighlighting(highlight),
    search({ top: true }),
    highlightSelectionMatches(),
    readOnly.of(EditorState.readOnly.of(false)),
    reviewState(review),
    reviewDecorations(handlers),
    attributionTooltip,
    keymap.of([...handlers.keys, ...searchKeymap, indentWithTab, ...defaultKeymap]),
    EditorView.updateListener.of((u) => {
      for (const tr of u.transactions) {
        if (tr.docChanged && !tr.annotation(fromCore)) {
          const typing = tr.isUserEvent("input.type") || tr.isUserEvent("delete.backward") || tr.isUserEvent("delete.forward");
          handlers.onLocalChange(changesOf(tr), typing);
        }
      }
      if (!u.docChanged && u.selectionSet && u.transactions.some((t) => t.isUserEvent("select.pointer"))) {
        handlers.onCursorJump();
      }
    }),
    EditorView.domEventHandlers({
      click(event, view) {
        const target = event.target as HTMLElement;
        const threadEl = target.closest("[data-thread]") as HTMLElement | null;
        if (threadEl?.dataset.thread) handlers.focusThread(threadEl.dataset.thread);
        void view;
        return false;
      },
    }),
  ];
  return EditorState.create({ doc: text, extensions });
}
