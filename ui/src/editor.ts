// The CodeMirror 6 view of a document. The core is the model of record: the
// editor reports every change the writer makes to it (extensions/core-sync.ts),
// applies the core's changes back (annotated `fromCore` so they are not echoed),
// and shows what the core reports (extensions/review-field.ts): proposals
// inline as word diffs and thread anchors (extensions/review-decorations.ts),
// attribution gutter and tooltip (extensions/attribution.ts), the outline's
// headings (extensions/outline.ts), hard-wrapped paragraphs shown re-flowed
// when the writer wants (extensions/reflow.ts), spelling underlined
// as the writer types (extensions/spelling.ts), in a prose theme
// (extensions/prose.ts), the new comment's box under the selection
// (extensions/comment-box.ts), threads as notes in the right margin when it has
// room (extensions/margin-notes.ts), a caret that stops blinking after a pause
// (extensions/caret-rest.ts), typed text inserted by the editor, not left on
// WebKit's undo stack (extensions/typed-text.ts), in CodeMirror's Markdown, whose parser typing in
// plain text does not run (extensions/markdown-typing.ts). CodeMirror's own history is not loaded: undo is the core's.
import { Compartment, EditorState, type Extension, type Text } from "@codemirror/state";
import { EditorView, drawSelection, highlightSpecialChars, keymap, tooltips, type KeyBinding } from "@codemirror/view";
import { defaultKeymap, indentWithTab } from "@codemirror/commands";
import { highlightSelectionMatches, search, searchKeymap } from "@codemirror/search";
import type { AuthorDto } from "./bindings/AuthorDto";
import type { ReviewDto } from "./bindings/ReviewDto";
import { attributionTooltip, humanGutter } from "./extensions/attribution";
import { HIDDEN_ONE, hiddenMarker, visibleText } from "./hidden";
import { docName } from "./announce";
import { commentBox, type CommentBoxHandlers } from "./extensions/comment-box";
import { coreSync, type CoreSyncHandlers } from "./extensions/core-sync";
import { marginNotes } from "./extensions/margin-notes";
import { outlineTracker, type OutlineInfo } from "./extensions/outline";
import { proseHighlighting, proseTheme } from "./extensions/prose";
import { reflow } from "./extensions/reflow";
import { reviewDecorations, threadClicks, type ProposalActions } from "./extensions/review-decorations";
import { reviewState } from "./extensions/review-field";
import { spelling, type SpellingHandlers } from "./extensions/spelling";
import { lookalikeMarks } from "./extensions/lookalike";
import { seenInText } from "./extensions/seen";
import { caretRest } from "./extensions/caret-rest";
import { typingMarkdown } from "./extensions/markdown-typing";
import { typedText } from "./extensions/typed-text";

export interface EditorHandlers extends CoreSyncHandlers, ProposalActions {
  focusThread(id: string): void;
  /** An author as the writer reads it (the margin notes' names). */
  authorLabel(author: AuthorDto): string;
  /** The headings changed, or the one the cursor is under (extensions/outline.ts). */
  onOutline(info: OutlineInfo): void;
  keys: KeyBinding[];
  spelling: SpellingHandlers;
  /** The inline box of a new comment (extensions/comment-box.ts). */
  comment: CommentBoxHandlers;
  /** The document's path now (a rename changes it): the editor is named after it. */
  path(): string;
}

/** Toggled by the app: read-only while a core operation is in flight. */
export const readOnly = new Compartment();

/**
 * The nonce the page's CSP gives inline styles (Tauri's, on index.html's
 * `#csp-nonce` element): CodeMirror's style sheet is a `<style>` element and
 * needs it, as the CSP allows no other inline style. Empty outside the app.
 */
const cspNonce = (document.getElementById("csp-nonce") as HTMLStyleElement | null)?.nonce ?? "";

/** `text`: the document (a `Text` made from the core's bytes, backend.ts `textOfBytes`). */
export function createState(text: string | Text, review: ReviewDto, handlers: EditorHandlers): EditorState {
  const extensions: Extension[] = [
    EditorView.cspNonce.of(cspNonce),
    proseTheme,
    humanGutter,
    drawSelection(),
    caretRest(),
    // Hidden characters (bidi overrides, zero-width spaces: hidden.ts) as a
    // named marker in place, never applied: what is shown is what is there.
    highlightSpecialChars({
      addSpecialChars: HIDDEN_ONE,
      render: (code, description, placeholder) => {
        const ch = String.fromCodePoint(code);
        if (HIDDEN_ONE.test(ch)) return hiddenMarker(ch);
        const el = document.createElement("span");
        el.className = "cm-specialChar";
        el.textContent = placeholder;
        el.title = description ?? "";
        return el;
      },
    }),
    lookalikeMarks,
    // Tooltips (a comment's box, a hover card) stay inside the editor's box:
    // placed against the window, the box of a comment near the right edge went
    // under the review panel.
    tooltips({ tooltipSpace: (view) => view.scrollDOM.getBoundingClientRect() }),
    seenInText(() => handlers.path()),
    EditorView.lineWrapping,
    // The text's accessible name: the document, as a screen reader announces the field.
    EditorView.contentAttributes.of(() => ({ "aria-label": `${visibleText(docName(handlers.path()))} — text` })),
    // CodeMirror's Markdown, where typing in plain text parses nothing.
    typingMarkdown().support,
    proseHighlighting,
    search({ top: true }),
    highlightSelectionMatches(),
    readOnly.of(EditorState.readOnly.of(false)),
    reviewState(review),
    reviewDecorations(handlers),
    attributionTooltip,
    keymap.of([...handlers.keys, ...searchKeymap, indentWithTab, ...defaultKeymap]),
    typedText,
    coreSync(handlers),
    threadClicks((id) => handlers.focusThread(id)),
    marginNotes({ focusThread: (id) => handlers.focusThread(id), authorLabel: (a) => handlers.authorLabel(a) }),
    commentBox(handlers.comment),
    spelling(handlers.spelling),
    outlineTracker((info) => handlers.onOutline(info)),
    reflow,
  ];
  return EditorState.create({ doc: text, extensions });
}
