// The outline in the editor: the document's headings (outline.ts), kept as the
// writer edits. An edit moves them (their positions mapped through the edits
// since the text was last read, when one is asked for); an edit
// that can change a heading (a line break, a `#`, an underline, inside a
// heading's lines: `mayChangeOutline`) has the document read again when the
// writer pauses, never per keystroke. `onOutline` hears of every change of the
// headings or of the heading the cursor is under.
import { ChangeSet, type Extension, type Text } from "@codemirror/state";
import { EditorView, ViewPlugin, type ViewUpdate } from "@codemirror/view";
import { extractOutline, headingAt, mayChangeOutline, type Heading } from "../model/outline";

/** What the outline shows: the headings, and the index of the one the cursor is under (-1: none). */
export interface OutlineInfo {
  /** The headings' levels and texts (their positions as of the text last read: use `at`). */
  headings: readonly Heading[];
  current: number;
  /** Changes when a heading's level or text does, or one comes or goes (not when they only move). */
  version: number;
  /** Where heading `i` starts in the text now. */
  at(i: number): number;
}

let versions = 0;

/** Whether two outlines have the same headings (levels and texts), wherever they are. */
function sameHeadings(a: readonly Heading[], b: readonly Heading[]): boolean {
  return a.length === b.length && a.every((h, i) => h.level === b[i].level && h.text === b[i].text);
}

/** How long the writer pauses before the document is read again for its headings, in ms. */
const RESCAN_MS = 300;

class OutlineTracker {
  /** The headings of `baseDoc`, the text last read. */
  headings: Heading[];
  private baseDoc: Text;
  /**
   * The edits since `baseDoc`: positions are mapped through them only when
   * asked for (a jump, the cursor's heading), never all of them per keystroke.
   */
  private pending: ChangeSet;
  /** `pending` inverted (positions now → in `baseDoc`), made when first needed after an edit. */
  private back: ChangeSet | null = null;
  current: number;
  version = ++versions;
  private timer: number | undefined;

  constructor(
    readonly view: EditorView,
    private readonly onOutline: (info: OutlineInfo) => void,
  ) {
    this.baseDoc = view.state.doc;
    this.headings = extractOutline(this.baseDoc);
    this.pending = ChangeSet.empty(this.baseDoc.length);
    this.current = headingAt(this.headings, view.state.selection.main.head);
    // Told once the view exists (the app is still making it now).
    queueMicrotask(() => this.tell());
  }

  /** A position in the text now, as a position in the text last read. */
  private toBase(pos: number): number {
    if (this.pending.empty) return pos;
    this.back ??= this.pending.invert(this.baseDoc);
    return this.back.mapPos(pos, 1);
  }

  /** Where heading `i` starts and ends in the text now. */
  at(i: number): { from: number; to: number } {
    const h = this.headings[i];
    return { from: this.pending.mapPos(h.from, 1), to: this.pending.mapPos(h.to, -1) };
  }

  update(u: ViewUpdate) {
    if (u.docChanged) {
      let rescan = false;
      u.changes.iterChangedRanges((fromA, toA, fromB, toB) => {
        if (rescan) return;
        const before = lines(u.startState.doc, fromA, toA);
        const after = lines(u.state.doc, fromB, toB);
        const i = headingAt(this.headings, this.toBase(before.to));
        rescan = mayChangeOutline(before.text, after.text) || (i >= 0 && this.at(i).to >= before.from);
      });
      this.pending = this.pending.compose(u.changes);
      this.back = null;
      if (rescan) this.schedule();
    }
    if (u.docChanged || u.selectionSet) {
      const current = headingAt(this.headings, this.toBase(u.state.selection.main.head));
      if (current !== this.current) {
        this.current = current;
        this.tell();
      }
    }
  }

  private schedule() {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => {
      const doc = this.view.state.doc;
      const headings = extractOutline(doc);
      if (!sameHeadings(headings, this.headings)) this.version = ++versions;
      this.headings = headings;
      this.baseDoc = doc;
      this.pending = ChangeSet.empty(doc.length);
      this.back = null;
      this.current = headingAt(this.headings, this.view.state.selection.main.head);
      this.tell();
    }, RESCAN_MS);
  }

  private tell() {
    this.onOutline(outlineOf(this.view));
  }

  destroy() {
    window.clearTimeout(this.timer);
    // The view itself went (no document left; another document's state would have put its own tracker here): no outline.
    queueMicrotask(() => {
      if (trackers.get(this.view) === this) {
        trackers.delete(this.view);
        this.onOutline({ ...NONE, version: ++versions });
      }
    });
  }
}

const NONE: OutlineInfo = { headings: [], current: -1, version: 0, at: () => 0 };

/**
 * The lines `from..to` of `doc` touches, and the line after them: their
 * extent, and their text as `mayChangeOutline` reads it (a line's start, and
 * whether it is blank): each line cut to its first 64 characters unless they
 * are all blank, so a keystroke in a long paragraph does not copy its line.
 */
function lines(doc: Text, from: number, to: number) {
  const first = doc.lineAt(from);
  let last = doc.lineAt(to);
  if (last.number < doc.lines) last = doc.line(last.number + 1);
  const text: string[] = [];
  for (let n = first.number; n <= last.number; n++) {
    const t = doc.line(n).text;
    const start = t.slice(0, 64);
    text.push(t.length > 64 && start.trim() ? start : t);
  }
  return { from: first.from, to, text: text.join("\n") };
}

const trackers = new WeakMap<EditorView, OutlineTracker>();

/** The outline kept for the editor; `onOutline` hears when it changes. */
export function outlineTracker(onOutline: (info: OutlineInfo) => void): Extension {
  return ViewPlugin.define((view) => {
    const t = new OutlineTracker(view, onOutline);
    trackers.set(view, t);
    return t;
  });
}

/** The outline of the document `view` shows now (empty without the tracker). */
export function outlineOf(view: EditorView): OutlineInfo {
  const t = trackers.get(view);
  return t ? { headings: t.headings, current: t.current, version: t.version, at: (i) => t.at(i).from } : NONE;
}
