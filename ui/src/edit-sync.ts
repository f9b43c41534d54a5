// Edit sync: the text's round trip with the core. The writer's edits go to the
// core in order (App.enqueue), each against the version the view shows; the
// core's review is fetched once the writer pauses; the core's own changes
// (accept, undo, a reload) are applied back in the same order, with the editor
// read-only meanwhile. Out of step, the core's text is taken as the truth.
import { EditorState } from "@codemirror/state";
import type { App } from "./main";
import type { Applied } from "./bindings/Applied";
import type { ReviewDto } from "./bindings/ReviewDto";
import type { TextChange } from "./bindings/TextChange";
import { createState, readOnly } from "./editor";
import { fromCore, setReview, staleCountOf } from "./extensions/review-field";
import { renderPanel, shownStale } from "./views/panel";
import { renderDirty, renderStatus, updateWordCount } from "./views/status";
import { treeEntryChanged } from "./views/tree";
import { say } from "./views/live";
import { staleWords } from "./announce";

/** A change the writer made in the editor: to the core, in order; the tab and panel follow. */
export function sendEdit(app: App, path: string, changes: TextChange[], typing: boolean) {
  const doc = app.docs.get(path);
  if (!doc) return;
  // The tab and status bar change only when the dirty state does (not per keystroke).
  if (!doc.dirty) {
    doc.dirty = true;
    renderDirty(app);
  }
  // An edit inside a proposal shows it stale at once, in the panel too.
  // (A count the editor keeps: reading the whole review per keystroke would cost O(records).)
  const stale = app.view ? staleCountOf(app.view.state) : 0;
  const before = shownStale();
  // Said once, as it happens (a screen reader does not see the proposal's mark change).
  if (stale > before && app.active === path) say(staleWords(stale - before, path));
  if (stale !== before) renderPanel(app);
  app.autosaver.changed();
  void app.enqueue(async () => {
    try {
      const ack = await app.backend.edit(path, doc.version, changes, typing);
      doc.version = ack.version;
      if (doc.dirty !== ack.dirty) {
        doc.dirty = ack.dirty;
        renderDirty(app);
      }
    } catch (e) {
      // Out of step with the core: take its text as the truth.
      await resync(app, path);
      throw e;
    }
    scheduleRefresh(app, path);
  });
}

/** Fetch the core's review a moment after the writer stops typing. */
function scheduleRefresh(app: App, path: string) {
  window.clearTimeout(app.refreshTimer);
  app.refreshTimer = window.setTimeout(() => void refreshReview(app, path), 250);
}

/** Fetch the core's review of `path` (in order with the edits) and show it. */
export async function refreshReview(app: App, path: string) {
  await app.enqueue(async () => {
    const review = await app.backend.review(path);
    showReview(app, path, review);
  });
}

/** Show the core's review of `path` (in its editor state, and the panel when active). */
export function showReview(app: App, path: string, review: ReviewDto) {
  const doc = app.docs.get(path);
  if (!doc) return;
  if (app.active === path && app.view) {
    app.view.dispatch({ effects: setReview.of(review) });
  } else {
    doc.state = doc.state.update({ effects: setReview.of(review) }).state;
  }
  treeEntryChanged(app, review.entry);
  if (app.active === path) {
    renderPanel(app);
    renderStatus(app);
    updateWordCount(app);
  }
}

/** Out of step with the core: reload its text and review as the truth. */
async function resync(app: App, path: string) {
  const doc = app.docs.get(path);
  if (!doc) return;
  const v = await app.backend.openDocument(path);
  const state = createState(v.text, v.review, app.handlers(doc));
  Object.assign(doc, { state, version: v.version, dirty: v.dirty });
  if (app.active === path && app.view) app.view.setState(state);
}

/** Apply a change the core made, in its order with the writer's edits. */
export function applyFromCore(app: App, path: string, applied: Applied) {
  const doc = app.docs.get(path);
  if (!doc) return;
  const spec = {
    changes: applied.changes.map((c) => ({ from: c.from, to: c.to, insert: c.insert })),
    annotations: fromCore.of(true),
    effects: setReview.of(applied.review),
  };
  if (app.active === path && app.view) app.view.dispatch(spec);
  else doc.state = doc.state.update(spec).state;
  doc.version = applied.version;
  doc.dirty = applied.dirty;
  treeEntryChanged(app, applied.review.entry);
  if (applied.dirty) app.autosaver.changed();
  if (app.active === path) {
    renderPanel(app);
    renderStatus(app);
    // An accept, a merge, an undo changed the words: counted now, not at the next keystroke.
    if (applied.changes.length) updateWordCount(app);
  }
  renderDirty(app);
}

/**
 * A core operation on an open document (the active one unless named), with
 * the editor read-only meanwhile; whether it went through (a failure is shown).
 */
export async function coreOp(app: App, f: (path: string) => Promise<Applied>, path: string | null = app.active): Promise<boolean> {
  if (!path || !app.docs.has(path)) return false;
  const active = path === app.active;
  if (active) setReadOnly(app, true);
  let ok = false;
  try {
    await app.enqueue(async () => {
      applyFromCore(app, path, await f(path));
      ok = true;
    });
  } finally {
    if (active) setReadOnly(app, false);
  }
  return ok;
}

export function setReadOnly(app: App, on: boolean) {
  app.view?.dispatch({ effects: readOnly.reconfigure(EditorState.readOnly.of(on)) });
}
