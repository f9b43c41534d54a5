// The new comment's box, inline under the selected text (Ctrl+Alt+M), not a
// dialog over it: the text stays in view while the writer writes about it.
// Ctrl+Enter (Cmd+Enter) comments, Esc closes; an empty comment is not sent.
// The range follows edits made meanwhile (another writer's reload, say).
import { StateEffect, StateField, type Extension } from "@codemirror/state";
import { EditorView, showTooltip, type Tooltip } from "@codemirror/view";
import { setText } from "../hidden";

export interface CommentBoxHandlers {
  /** File the comment on `from..to` (UTF-16 offsets); true when it was filed (the box closes). */
  submit(from: number, to: number, body: string): Promise<boolean>;
}

interface Box {
  from: number;
  to: number;
}

/** Open the box on `from..to`, or close it (null). */
export const openCommentBox = StateEffect.define<Box | null>();

export function commentBox(h: CommentBoxHandlers): Extension {
  // One box per editor state; its DOM is kept while it is open, so a change
  // to the text that moves the range keeps what was typed.
  let dom: HTMLElement | null = null;
  let area: HTMLTextAreaElement | null = null;
  const field: StateField<Box | null> = StateField.define<Box | null>({
    create: () => null,
    update(v, tr) {
      for (const e of tr.effects) {
        if (e.is(openCommentBox)) {
          if (!e.value || !v || e.value.from !== v.from || e.value.to !== v.to) dom = area = null;
          return e.value;
        }
      }
      if (v && tr.docChanged) {
        const from = tr.changes.mapPos(v.from, 1);
        return { from, to: Math.max(from, tr.changes.mapPos(v.to, -1)) };
      }
      return v;
    },
    provide: (f) => showTooltip.from(f, (v) => (v ? tooltip(v) : null)),
  });

  const close = (view: EditorView) => {
    view.dispatch({ effects: openCommentBox.of(null) });
    view.focus();
  };

  function build(view: EditorView, v: Box): HTMLElement {
    if (dom) return dom;
    const quote = view.state.sliceDoc(v.from, v.to).replace(/\s+/g, " ").trim();
    const box = document.createElement("div");
    box.className = "comment-box";
    const label = document.createElement("div");
    label.className = "comment-box-quote";
    setText(label, `Comment on “${quote.length > 60 ? quote.slice(0, 60) + "…" : quote}”`);
    const text = document.createElement("textarea");
    text.className = "new-thread-body";
    text.rows = 3;
    text.placeholder = "Your comment, in Markdown";
    text.setAttribute("aria-label", "Your comment");
    const send = document.createElement("button");
    send.className = "btn-comment-send";
    send.textContent = "Comment";
    const cancel = document.createElement("button");
    cancel.className = "btn-comment-cancel";
    cancel.textContent = "Cancel";
    const hint = document.createElement("span");
    hint.className = "comment-box-hint";
    hint.textContent = "Ctrl+Enter comments · Esc closes";
    const actions = document.createElement("div");
    actions.className = "comment-box-actions";
    actions.append(send, cancel, hint);
    box.append(label, text, actions);
    const submit = async () => {
      const body = text.value;
      const at = view.state.field(field);
      if (!body.trim() || !at) {
        text.focus();
        return;
      }
      send.disabled = true;
      try {
        if (await h.submit(at.from, at.to, body)) close(view);
      } finally {
        send.disabled = false;
      }
    };
    text.addEventListener("keydown", (e) => {
      if ((e.ctrlKey || e.metaKey) && e.key === "Enter" && !e.isComposing) {
        e.preventDefault();
        void submit();
      } else if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        close(view);
      }
    });
    send.addEventListener("click", () => void submit());
    cancel.addEventListener("click", () => close(view));
    dom = box;
    area = text;
    return box;
  }

  function tooltip(v: Box): Tooltip {
    return {
      pos: v.to,
      above: false,
      arrow: true,
      create: (view) => ({ dom: build(view, v), mount: () => area?.focus() }),
    };
  }

  return field;
}
