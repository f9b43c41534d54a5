// Letters passing for Latin ones in the document (a Cyrillic "а" in "pаypal":
// ../lookalike.ts) outlined where they stand and named in their tooltip, as
// VS Code outlines ambiguous characters. Only the visible lines are looked at;
// the rule reads the whole line, so a word is judged in its context.
import { Decoration, MatchDecorator, ViewPlugin, type DecorationSet, type EditorView, type ViewUpdate } from "@codemirror/view";
import table from "../lookalike-chars.json";
import { flaggedLookalikes, lookalike } from "../lookalike";

// A word holding at least one look-alike.
const WORD_WITH_LOOKALIKE = new RegExp(
  `[\\p{Alphabetic}\\p{N}]*[${table.map((r) => `\\u{${r.cp.toString(16)}}`).join("")}][\\p{Alphabetic}\\p{N}]*`,
  "gu",
);

const marks = new MatchDecorator({
  regexp: WORD_WITH_LOOKALIKE,
  decorate: (add, from, to, _match, view) => {
    const line = view.state.doc.lineAt(from);
    for (const i of flaggedLookalikes(line.text)) {
      const at = line.from + i;
      if (at < from || at >= to) continue;
      const ch = line.text[i];
      const l = lookalike(ch);
      add(
        at,
        at + 1,
        Decoration.mark({
          class: "cm-lookalike",
          attributes: { title: `Looks like Latin "${l?.like ?? "?"}" but is U+${ch.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")} ${l?.name ?? ""}` },
        }),
      );
    }
  },
});

export const lookalikeMarks = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = marks.createDeco(view);
    }
    update(u: ViewUpdate) {
      this.decorations = marks.updateDeco(u, this.decorations);
    }
  },
  { decorations: (v) => v.decorations },
);
