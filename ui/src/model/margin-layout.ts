// Where the margin notes go (extensions/margin-notes.ts): each note as close
// to its anchor's line as the notes before it allow, none overlapping, in the
// order given (the document's). Pure: tops and heights in, tops out.

/** A note to place: the top its anchor asks for and its height (px). */
export interface NoteBox {
  top: number;
  height: number;
}

/**
 * The notes' tops: in order, at least `gap` apart (a note's top is at least
 * the previous note's bottom plus `gap`). Each note is at its desired top, or
 * pushed down just enough to clear the one before. With a `bottom` limit, a
 * stack running past it is pushed up as little as needed to end at `bottom`
 * (a note may then sit above its anchor); no top limit: a stack taller than
 * the room starts above 0.
 */
export function stackNotes(notes: readonly NoteBox[], gap: number, bottom: number | null = null): number[] {
  const tops: number[] = [];
  for (let i = 0; i < notes.length; i++) {
    const prev = i > 0 ? tops[i - 1] + notes[i - 1].height + gap : -Infinity;
    tops.push(Math.max(notes[i].top, prev));
  }
  if (bottom !== null) {
    for (let i = notes.length - 1; i >= 0; i--) {
      const limit = i === notes.length - 1 ? bottom : tops[i + 1] - gap;
      tops[i] = Math.min(tops[i], limit - notes[i].height);
    }
  }
  return tops;
}
