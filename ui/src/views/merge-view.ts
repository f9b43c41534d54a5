// Compare & merge (the conflict banner's): the writer's unsaved text and the
// file another program changed on disk, merged by the core sentence by
// sentence. A sheet over the window shows the text in order — what both sides
// agree on, folded when long, and each change with the writer's version and
// the one on disk side by side (the words each changed marked) and Take mine /
// Take theirs / Both. Changes made on one side only are already taken; the
// ones made on both sides wait for a choice. Keys: Alt+↓ / Alt+↑ next and
// previous change, M / T / B choose (and go on to the next undecided one; each
// move and choice said through the live region),
// Ctrl+Enter applies, Esc cancels. Applying makes the merge the buffer (the
// writer's edit, one undo step; saved with Ctrl+S). When the file changes
// again meanwhile, the merge is shown again with the choices kept where the
// text is the same — never applied on the old file.
//
// The sheet is drawn by `drawMerge(model, actions)` from the merge (`MergeUi`:
// the document, the merge's state, whether an apply is under way) and what
// the writer can do (`MergeActions`), with no App; the keys are read there and
// turned into those actions. What the actions do (choose, move, say, apply,
// close) takes the App: applying goes through the core's queue and puts the
// core's change into the document's editor (edit-sync's `applyFromCore`, the
// editor read-only meanwhile), then clears the banner.
import type { App } from "../main";
import type { Choice } from "../bindings/Choice";
import type { DiffPart } from "../bindings/DiffPart";
import { $, h } from "../dom";
import { applyFromCore, setReadOnly } from "../edit-sync";
import {
  canApply,
  choicesForCore,
  choose,
  effectiveChoice,
  fold,
  hunkTitle,
  initialState,
  select,
  step,
  summary,
  undecided,
  type Hunk,
  type MergeState,
} from "../model/merge-model";
import { renderBanner } from "./status";
import { toast } from "./modal";
import { say } from "./live";
import { setText } from "../hidden";

/** The merge the window shows, if any (`App.merge`), and the sheet's model. */
export interface MergeUi {
  path: string;
  state: MergeState;
  /** An apply or a refresh in flight: the buttons wait. */
  busy: boolean;
}

/** Open Compare & merge for the active document (after the edits sent before it). */
export async function openMerge(app: App) {
  const doc = app.current;
  if (!doc) return;
  const path = doc.path;
  const view = await app.enqueue(() => app.backend.mergeView(path));
  if (!view) return;
  app.merge = { path, state: initialState(view), busy: false };
  render(app);
  $(".merge-sheet").focus();
  say(summary(app.merge.state));
}

/** A change's title as it is said ("Change 2 of 4, changed on both sides, choose one"). */
const spoken = (s: MergeState, i: number) => hunkTitle(s, i).replace(/ · /g, ", ");

/** The file changed on disk again while the merge is open: show the merge of the texts as they are now. */
export async function refreshMerge(app: App, path: string) {
  const ui = app.merge;
  if (!ui || ui.path !== path) return;
  const view = await app.enqueue(() => app.backend.mergeView(path));
  if (!view || app.merge !== ui) return;
  ui.state = initialState(view, ui.state);
  render(app);
  toast(`${path} changed on disk again: the merge is shown anew, your choices kept where the text is the same.`);
}

export function closeMerge(app: App) {
  app.merge = null;
  $(".modal-root").replaceChildren();
  app.view?.focus();
}

/** Words of one side against the base: the changed ones marked. */
function sideText(diff: DiffPart[], changedClass: string): HTMLElement {
  const box = h("div", { class: "mg-text" });
  for (const d of diff) {
    if (d.tag === "equal") box.append(d.text);
    else if (d.tag === "insert") box.append(h("span", { class: changedClass, text: d.text }));
    else box.append(h("span", { class: "mg-removed", text: d.text }));
  }
  if (!diff.some((d) => d.tag !== "delete" && d.text !== "")) box.append(h("span", { class: "mg-empty", text: "(removed)" }));
  return box;
}

/** What the sheet does (a button, a click in a change, a key). */
export interface MergeActions {
  /** Take a side (or both) for change `i` (its button). */
  choose(choice: Choice, i: number): void;
  /** Take a side (or both) for the current change, going on to the next undecided one (M / T / B). */
  pick(choice: Choice): void;
  /** Make change `i` the current one (a click in its card, not on a button). */
  select(i: number): void;
  /** Go to the next (1) or previous (-1) change (Alt+↓ / Alt+↑). */
  move(dir: 1 | -1): void;
  /** Apply the merge (Apply merge, Ctrl+Enter). */
  apply(): void;
  /** Close the sheet, nothing changed (Cancel, Esc). */
  cancel(): void;
}

function hunkCard(model: Readonly<MergeUi>, actions: MergeActions, hunk: Hunk, i: number): HTMLElement {
  const s = model.state;
  const chosen = effectiveChoice(hunk, s.choices[i]);
  const card = h("section", {
    class: `mg-hunk mg-${hunk.side}${i === s.current ? " mg-current" : ""}${chosen ? "" : " mg-open"}`,
    "data-hunk": String(i),
    "aria-label": hunkTitle(s, i),
  });
  const buttons = h("div", { class: "mg-actions" });
  const button = (choice: Choice, label: string, key: string) => {
    const b = h("button", {
      class: `mg-take-${choice}${chosen === choice ? " chosen" : ""}`,
      text: label,
      title: `${label} (${key})`,
      "aria-pressed": String(chosen === choice),
    });
    b.addEventListener("click", () => actions.choose(choice, i));
    buttons.append(b);
  };
  button("mine", "Take mine", "M");
  button("theirs", "Take theirs", "T");
  if (hunk.side === "conflict") button("both", "Both", "B");
  card.append(h("div", { class: "mg-hunk-head" }, h("span", { class: "mg-hunk-title", text: hunkTitle(s, i) }), buttons));
  const side = (who: "mine" | "theirs", label: string, diff: DiffPart[]) =>
    h(
      "div",
      { class: `mg-side mg-side-${who}${chosen === who || chosen === "both" ? " chosen" : ""}` },
      h("div", { class: "mg-side-label", text: label }),
      sideText(diff, `mg-added-${who}`),
    );
  card.append(
    h(
      "div",
      { class: "mg-sides" },
      side("mine", hunk.side === "theirs" ? "Yours (as it was)" : "Your version", hunk.mineDiff),
      side("theirs", hunk.side === "mine" ? "On disk (as it was)" : "On disk now", hunk.theirsDiff),
    ),
  );
  card.addEventListener("mousedown", (e) => {
    if (e.target instanceof HTMLButtonElement) return;
    actions.select(i);
  });
  return card;
}

function sameText(text: string): HTMLElement {
  const box = h("div", { class: "mg-same" });
  const folded = fold(text);
  if (!folded) {
    setText(box, text);
    return box;
  }
  const more = h("button", { class: "mg-more", text: `⋯ ${folded.hidden} unchanged lines` });
  more.addEventListener("click", () => {
    box.replaceChildren(text);
  });
  box.append(folded.head, more, folded.tail);
  return box;
}

/** Paint the sheet for `app.merge`, with what its controls do. */
function render(app: App) {
  const ui = app.merge;
  if (ui) drawMerge(ui, mergeActions(app, ui));
}

/** What the sheet of `ui` does: the merge's state changed and the sheet drawn again, said where a key did it. */
function mergeActions(app: App, ui: MergeUi): MergeActions {
  return {
    choose: (choice, i) => {
      ui.state = choose(ui.state, choice, i);
      render(app);
    },
    pick: (choice) => pick(app, choice),
    select: (i) => {
      if (ui.state.current === i) return;
      ui.state = select(ui.state, i);
      render(app);
    },
    move: (dir) => move(app, dir),
    apply: () => void applyMerge(app),
    cancel: () => closeMerge(app),
  };
}

/** Draw the sheet over the window from the merge (`model`), its scroll and focus kept. */
export function drawMerge(model: Readonly<MergeUi>, actions: MergeActions) {
  const s = model.state;
  const root = $(".modal-root");
  const old = root.querySelector(".mg-body");
  const scroll = old?.scrollTop ?? 0;
  const body = h("div", { class: "mg-body" });
  let k = 0;
  for (const p of s.view.parts) {
    if (p.kind === "same") body.append(sameText(p.text));
    else body.append(hunkCard(model, actions, p, k++));
  }
  const open = undecided(s).length;
  const apply = h("button", {
    class: "mg-apply primary",
    text: "Apply merge",
    title: "Make this your text (Ctrl+Enter); save it with Ctrl+S",
  });
  apply.toggleAttribute("disabled", !canApply(s) || model.busy);
  apply.addEventListener("click", () => actions.apply());
  const cancel = h("button", { class: "mg-cancel", text: "Cancel", title: "Back to the banner: nothing changes (Esc)" });
  cancel.addEventListener("click", () => actions.cancel());
  const sheet = h(
    "div",
    { class: "merge-sheet", role: "dialog", "aria-modal": "true", "aria-label": "Compare & merge", tabindex: "-1" },
    h(
      "header",
      { class: "mg-head" },
      h("h2", { text: `Merge your changes with the file on disk — ${model.path}` }),
      h("p", {
        class: "mg-intro",
        text: s.view.baseKnown
          ? "The file changed on disk while you had unsaved changes. Where only one side changed a sentence, that change is taken; where you both did, choose which to keep."
          : "The file changed on disk since your unsaved changes were made, and the text they started from is not known: choose, change by change, which version to keep.",
      }),
      h("p", { class: "mg-summary", text: summary(s) }),
      h(
        "div",
        { class: "mg-legend" },
        h("span", { class: "mg-key mg-key-mine", text: "your words" }),
        h("span", { class: "mg-key mg-key-theirs", text: "words on disk" }),
        h("span", { class: "mg-key mg-key-removed", text: "removed" }),
      ),
    ),
    body,
    h(
      "footer",
      { class: "mg-foot" },
      h("span", { class: "mg-keys", text: "Alt+↓ / Alt+↑ next / previous change · M mine · T theirs · B both · Ctrl+Enter apply · Esc cancel" }),
      h("span", { class: "mg-left", text: open ? `${open} to choose` : "" }),
      cancel,
      apply,
    ),
  );
  sheet.addEventListener("keydown", (e) => onKey(model, actions, e));
  const hadFocus = root.contains(document.activeElement);
  root.replaceChildren(h("div", { class: "backdrop merge-backdrop" }, sheet));
  body.scrollTop = scroll;
  body.querySelector(".mg-current")?.scrollIntoView?.({ block: "nearest" });
  if (hadFocus) sheet.focus();
}

/** The sheet's keys, turned into its actions; none reaches the window. */
function onKey(model: Readonly<MergeUi>, actions: MergeActions, e: KeyboardEvent) {
  // The window's keys (save, new, palette…) wait while the writer merges.
  e.stopPropagation();
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.toLowerCase();
  const act = (f: () => void) => {
    e.preventDefault();
    f();
  };
  if (e.key === "Escape") act(() => actions.cancel());
  else if (mod && e.key === "Enter") act(() => actions.apply());
  else if (mod) {
    if (key === "s") e.preventDefault();
  } else if (e.altKey && (e.key === "ArrowDown" || e.key === "]")) act(() => actions.move(1));
  else if (e.altKey && (e.key === "ArrowUp" || e.key === "[")) act(() => actions.move(-1));
  else if (!e.altKey && !e.shiftKey && (key === "m" || key === "t" || key === "b")) {
    const choice: Choice = key === "m" ? "mine" : key === "t" ? "theirs" : "both";
    const h = model.state.hunks[model.state.current];
    if (!h || (choice === "both" && h.side !== "conflict")) return;
    act(() => actions.pick(choice));
  }
}

/** M / T / B: the current change chosen, the next undecided one made current, both said. */
function pick(app: App, choice: Choice) {
  const ui = app.merge;
  if (!ui) return;
  const chosen = ui.state.current;
  ui.state = choose(ui.state, choice);
  render(app);
  $(".merge-sheet").focus();
  const open = undecided(ui.state).length;
  say(`${spoken(ui.state, chosen)}. ${open ? `${open} to choose.` : "All chosen: Ctrl+Enter applies."}`);
}

function move(app: App, dir: 1 | -1) {
  const ui = app.merge;
  if (!ui) return;
  ui.state = step(ui.state, dir);
  render(app);
  $(".merge-sheet").focus();
  say(spoken(ui.state, ui.state.current));
}

/** Apply the writer's choices; shown again when the file (or the text) changed since. */
async function applyMerge(app: App) {
  const ui = app.merge;
  if (!ui || ui.busy || !canApply(ui.state)) return;
  const { path } = ui;
  ui.busy = true;
  render(app);
  setReadOnly(app, true);
  try {
    const out = await app.enqueue(async () => {
      const o = await app.backend.applyMerge(path, ui.state.view.token, choicesForCore(ui.state));
      if (o.kind === "applied") applyFromCore(app, path, o.applied);
      return o;
    });
    if (!out) return;
    if (out.kind === "changed") {
      ui.state = initialState(out.merge, ui.state);
      toast(`${path} changed again while you were merging: here is the merge anew, your choices kept where the text is the same.`);
      return;
    }
    const doc = app.docs.get(path);
    if (doc) doc.conflict = false;
    closeMerge(app);
    renderBanner(app);
    toast("Merged. Your text now holds both sides' changes; save (Ctrl+S) to write it.");
  } finally {
    setReadOnly(app, false);
    ui.busy = false;
    if (app.merge === ui) render(app);
  }
}
