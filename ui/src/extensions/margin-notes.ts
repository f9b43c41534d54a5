// Comment threads as notes in the right margin: one per placed thread, beside
// the line its anchor starts on, with its first comment's author and first
// words, in the threads' yellow (proposals are green and stay in the text).
// Drawn in a CodeMirror layer, only for the threads on screen, only when the
// margin has room (not at the full reading width, not in a narrow window); the
// notes are stacked so none overlaps another (model/margin-layout.ts). A click on a
// note shows its thread, as a click on its text does.
import type { Extension } from "@codemirror/state";
import { layer, type EditorView, type LayerMarker, type ViewUpdate } from "@codemirror/view";
import type { AuthorDto } from "../bindings/AuthorDto";
import { stackNotes } from "../model/margin-layout";
import type { ReviewState } from "../review-state";
import { reviewField } from "./review-field";
import { setText, visibleText } from "../hidden";

/** A thread's note, before it is placed. */
export interface MarginNote {
  id: string;
  /** Where its anchor starts (the note goes beside that line). */
  from: number;
  author: AuthorDto | null;
  /** The first words of its first comment. */
  excerpt: string;
  /** Its first comment in full (the note's tooltip). */
  body: string;
  resolved: boolean;
}

/** The room the margin needs for notes, between the text's right edge and the editor's (px). */
export const MIN_ROOM = 180;
const NOTE_HEIGHT = 40;
const GAP = 6;
const INSET = 16;
const MAX_WIDTH = 260;
const EXCERPT = 48;

/** `body`'s first words, whitespace and Markdown's emphasis and code marks left out, cut at a word with an ellipsis past `max` characters. */
export function excerpt(body: string, max = EXCERPT): string {
  const flat = body
    .replace(/[*`]/g, "")
    .replace(/(^|[^\p{L}\p{N}_])_+|_+(?=[^\p{L}\p{N}_]|$)/gu, "$1") // _emphasis_, not snake_case
    .replace(/^[\s#>]+/, "")
    .replace(/\s+/g, " ")
    .trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * The notes of the threads whose anchors touch `visible` (the view's visible
 * ranges): only those, never a pass over every thread. In the document's
 * order (the core's order for anchors starting at the same place). Orphaned
 * and detached threads are not placed, so they have none.
 */
export function notesInView(review: ReviewState | null, visible: readonly { from: number; to: number }[]): MarginNote[] {
  if (!review) return [];
  const seen = new Map<string, { note: MarginNote; index: number }>();
  for (const r of visible) {
    review.threads.between(r.from, r.to, (from, _to, v) => {
      const t = v.record;
      if (seen.has(t.id) || t.orphaned || t.detached) return;
      const first = t.comments[0];
      const body = first?.body ?? "";
      seen.set(t.id, { index: v.index, note: { id: t.id, from, author: first?.author ?? null, excerpt: excerpt(body), body, resolved: t.status === "resolved" } });
    });
  }
  return [...seen.values()].sort((a, b) => a.note.from - b.note.from || a.index - b.index).map((e) => e.note);
}

/** What the notes do: a click shows the thread; an author as the writer reads it. */
export interface MarginNoteHandlers {
  focusThread(id: string): void;
  authorLabel(author: AuthorDto): string;
}

class NoteMarker implements LayerMarker {
  constructor(
    readonly note: MarginNote,
    readonly who: string,
    readonly left: number,
    readonly top: number,
    readonly width: number,
    readonly handlers: MarginNoteHandlers,
  ) {}

  private sameText(o: NoteMarker) {
    const a = this.note;
    const b = o.note;
    return a.id === b.id && a.excerpt === b.excerpt && a.body === b.body && a.resolved === b.resolved && this.who === o.who;
  }

  eq(other: LayerMarker): boolean {
    return other instanceof NoteMarker && this.sameText(other) && other.left === this.left && other.top === this.top && other.width === this.width;
  }

  draw(): HTMLElement {
    const el = document.createElement("div");
    el.className = `cm-margin-note${this.note.resolved ? " cm-margin-note-resolved" : ""}`;
    el.dataset.thread = this.note.id;
    el.title = visibleText(`${this.who}: ${this.note.body}`);
    // A pointer's shortcut to the thread, which the Threads panel and the review view (Alt+F2, Alt+T)
    // read in full: hidden from a screen reader, which read it run together ("AdaA reader…").
    el.setAttribute("aria-hidden", "true");
    const who = document.createElement("div");
    who.className = "cm-margin-note-who";
    setText(who, this.who);
    const what = document.createElement("div");
    what.className = "cm-margin-note-text";
    setText(what, this.note.excerpt); // text, never HTML
    el.append(who, what);
    // Not a click in the text: the selection stays where it is.
    el.addEventListener("mousedown", (e) => {
      e.preventDefault();
      e.stopPropagation();
    });
    el.addEventListener("click", (e) => {
      e.stopPropagation();
      this.handlers.focusThread(this.note.id);
    });
    this.place(el);
    return el;
  }

  update(dom: HTMLElement, old: LayerMarker): boolean {
    if (!(old instanceof NoteMarker) || !this.sameText(old)) return false;
    this.place(dom);
    return true;
  }

  private place(el: HTMLElement) {
    el.style.left = `${this.left}px`;
    el.style.top = `${this.top}px`;
    el.style.width = `${this.width}px`;
    el.style.height = `${NOTE_HEIGHT}px`;
  }
}

/** The margin to the text's right in layer coordinates, or null when it has no room for notes. */
function margin(view: EditorView): { left: number; width: number } | null {
  if (view.dom.closest(".reading-wide:not(.focus-mode)")) return null;
  const scroller = view.scrollDOM.getBoundingClientRect();
  const content = view.contentDOM.getBoundingClientRect();
  const right = scroller.left + view.scrollDOM.clientWidth * view.scaleX; // the scrollbar is not room
  const room = (right - content.right) / view.scaleX;
  if (room < MIN_ROOM) return null;
  const base = scroller.left - view.scrollDOM.scrollLeft * view.scaleX;
  return { left: (content.right - base) / view.scaleX + INSET, width: Math.min(MAX_WIDTH, room - 2 * INSET) };
}

function markers(view: EditorView, handlers: MarginNoteHandlers): NoteMarker[] {
  const notes = notesInView(view.state.field(reviewField, false) ?? null, view.visibleRanges);
  if (!notes.length) return [];
  const room = margin(view);
  if (!room) return [];
  const baseTop = view.scrollDOM.getBoundingClientRect().top - view.scrollDOM.scrollTop * view.scaleY;
  const boxes = notes.map((n) => {
    // The visual line the anchor starts on (a wrapped paragraph has several); off screen, its line's block.
    const at = view.coordsAtPos(n.from, 1);
    const top = at ? (at.top - baseTop) / view.scaleY : view.lineBlockAt(n.from).top + (view.documentTop - baseTop) / view.scaleY;
    return { top, height: NOTE_HEIGHT };
  });
  const tops = stackNotes(boxes, GAP, view.scrollDOM.scrollHeight);
  return notes.map((n, i) => new NoteMarker(n, n.author ? handlers.authorLabel(n.author) : "", room.left, tops[i], room.width, handlers));
}

/**
 * The margin notes. Rebuilt when the threads come from the core, the viewport
 * or the layout changes, or lines come and go (a note follows its line); not
 * for a keystroke inside a line.
 */
export function marginNotes(handlers: MarginNoteHandlers): Extension {
  return layer({
    above: true,
    class: "cm-margin-notes",
    updateOnDocViewUpdate: false,
    update: (u: ViewUpdate) =>
      u.viewportChanged ||
      u.geometryChanged ||
      u.startState.field(reviewField, false)?.dto !== u.state.field(reviewField, false)?.dto ||
      (u.docChanged && u.startState.doc.lines !== u.state.doc.lines),
    markers: (view) => markers(view, handlers),
  });
}
