// The writer's changes to the core: every transaction that changed the text
// (and is not the core's own, see `fromCore`) reported as UTF-16 TextChanges,
// typing told apart from other edits; a cursor moved by the pointer reported too
// (it ends the core's typing group).
import type { Extension, Transaction } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { TextChange } from "../bindings/TextChange";
import { fromCore } from "./review-field";
import { utf16 } from "../model/util";

export interface CoreSyncHandlers {
  /** A change the writer made in the view (already applied there). */
  onLocalChange(changes: TextChange[], typing: boolean): void;
  /** The cursor moved without an edit (ends the typing group). */
  onCursorJump(): void;
}

/** The transaction's changes as the core takes them: old-document UTF-16 offsets, in order. */
export function changesOf(tr: Transaction): TextChange[] {
  const out: TextChange[] = [];
  tr.changes.iterChanges((fromA, toA, _fb, _tb, inserted) => {
    out.push({ from: utf16(fromA), to: utf16(toA), insert: inserted.toString() });
  });
  return out;
}

/** Report the writer's edits and pointer cursor moves to `handlers`. */
export function coreSync(handlers: CoreSyncHandlers): Extension {
  return EditorView.updateListener.of((u) => {
    for (const tr of u.transactions) {
      if (tr.docChanged && !tr.annotation(fromCore)) {
        const typing = tr.isUserEvent("input.type") || tr.isUserEvent("delete.backward") || tr.isUserEvent("delete.forward");
        handlers.onLocalChange(changesOf(tr), typing);
      }
    }
    if (!u.docChanged && u.selectionSet && u.transactions.some((t) => t.isUserEvent("select.pointer"))) {
      handlers.onCursorJump();
    }
  });
}
