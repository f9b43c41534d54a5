// The status bar (branch, saved state, word count, proposal and thread counts,
// the Claude tint toggle, who you are), the window's title (document — workspace, with the
// unsaved mark) and the banner above the editor: a conflict with the file on
// disk (keep mine / load theirs / compare & merge), or unreadable review data.
// The status bar and the banner are drawn from plain models (`drawStatus`,
// `drawBanner`); `renderStatus`, `renderTitle` and `renderBanner` build those
// from the App.
import type { App } from "../main";
import type { IdentityDto } from "../bindings/IdentityDto";
import type { ReviewDto } from "../bindings/ReviewDto";
import { $, h } from "../dom";
import { coreOp } from "../edit-sync";
import { wordCount } from "../model/util";
import { openMerge } from "./merge-view";
import { setText, visibleText } from "../hidden";
import { say } from "./live";

/** The window title last set: set again only when it changes. */
let shownTitle = "";

/** Whether Claude's text is tinted (the status bar's button, Ctrl+Shift+A); on at each start. */
let tint = true;

/** Whether Claude's text is tinted. */
export function tinted(): boolean {
  return tint;
}

/**
 * The window's title: "● essay.md — sample" while the active document has unsaved
 * changes, "essay.md — sample" once saved, the workspace's name with no document
 * open, "Cowriting" with no workspace.
 */
export function windowTitle(workspace: string | null, path: string | null, dirty: boolean): string {
  if (!workspace) return "Cowriting";
  if (!path) return visibleText(workspace);
  const name = path.slice(path.lastIndexOf("/") + 1);
  return visibleText(`${dirty ? "● " : ""}${name} — ${workspace}`);
}

/** Show the window's title for the active document and the workspace. */
export function renderTitle(app: App) {
  const doc = app.current;
  showTitle(windowTitle(app.ws?.name ?? null, doc?.path ?? null, doc?.dirty ?? false), (t) => app.backend.setTitle(t));
}

/** Show `title` in the title bar (`setTitle`) and as document.title, when it changed. */
export function showTitle(title: string, setTitle: (title: string) => Promise<unknown>) {
  if (title === shownTitle) return;
  shownTitle = title;
  document.title = title;
  void setTitle(title).catch(() => undefined);
}

/** What the status bar shows, but for the word count (`updateWordCount`) and the tint (this module's). */
export interface StatusModel {
  /** The workspace's git branch; null: none. */
  branch: string | null;
  /** The active document's saved state; null: no document open. */
  doc: { saving: boolean; dirty: boolean } | null;
  /** The active document's proposals and threads; null: none shown. */
  review: Pick<ReviewDto, "proposals" | "threads"> | null;
  /** Whether Tab moves the focus out of the text (App.tabFocus). */
  tabFocus: boolean;
  /** Who the writer is; null: not known (yet). */
  me: Pick<IdentityDto, "display" | "id"> | null;
}

/** The status bar for the active document, and the window's title. */
export function renderStatus(app: App) {
  renderTitle(app);
  const doc = app.current;
  drawStatus({ branch: app.ws?.branch ?? null, doc: doc && { saving: doc.saving, dirty: doc.dirty }, review: app.review(), tabFocus: app.tabFocus, me: app.me });
}

/**
 * What each status bar last showed, by its first element: drawn again only
 * when that changes. It is drawn at every answer to a keystroke, and each
 * draw replaced five texts and set four attributes the same as before.
 */
const drawnStatus = new WeakMap<Element, string>();

/** Draw the status bar from `model` (nothing, when it shows that already). */
export function drawStatus(model: StatusModel) {
  const { doc, review, me } = model;
  const pending = review?.proposals.filter((p) => p.state === "pending").length ?? 0;
  const stale = review ? review.proposals.length - pending : 0;
  const open = review?.threads.filter((t) => t.status === "open").length ?? 0;
  // What the bar shows, as the counts (not every proposal's state) say it.
  const shown = JSON.stringify([model.branch, doc, review && [pending, stale, open], model.tabFocus, me && [me.display, me.id], tint]);
  const bar = $(".st-branch");
  if (drawnStatus.get(bar) === shown) return;
  drawnStatus.set(bar, shown);
  setText(bar, model.branch ? `⎇ ${model.branch}` : "");
  $(".st-save").textContent = !doc ? "" : doc.saving ? "Saving…" : doc.dirty ? "● Unsaved" : "Saved";
  $(".st-save").className = `st-save${doc?.dirty ? " unsaved" : ""}`;
  $(".st-proposals").textContent = review ? `${pending} pending${stale ? ` · ${stale} stale` : ""}` : "";
  $(".st-proposals").className = `st-proposals${stale ? " has-stale" : ""}`;
  $(".st-threads").textContent = review ? `${open} open thread${open === 1 ? "" : "s"}` : "";
  $(".st-tint").classList.toggle("off", !tint);
  $(".st-tabfocus").hidden = !model.tabFocus;
  const you = $(".st-you");
  setText(you, me ? `✎ ${me.display}` : "");
  you.title = me ? visibleText(`You write as ${me.id} — change it in Settings (Ctrl+,)`) : "Who you are (Settings…)";
}

/** Counting words reads the whole text: done when the writer pauses, not per keystroke. */
export function updateWordCount(app: App) {
  $(".st-words").textContent = app.view ? `${wordCount(app.view.state.doc.toString()).toLocaleString()} words` : "";
}

/** A document's unsaved state changed (edit-sync.ts tells it here): App.dirtyChanged. */
export function renderDirty(app: App) {
  app.dirtyChanged();
}

/** Show or hide the tint on Claude's text (the status bar's button, Ctrl+Shift+A). */
export function toggleTint() {
  tint = !tint;
  $(".editor-host").classList.toggle("tint-off", !tint);
  $(".st-tint").classList.toggle("off", !tint);
}

/**
 * Tab moves the focus (on) or indents in the text (off), as VS Code's Ctrl+M:
 * kept in the window's storage, shown in the status bar, said.
 */
export function toggleTabFocus(app: App) {
  app.setTabFocus(!app.tabFocus);
  say(app.tabFocus ? "Tab moves focus: on. Tab and Shift+Tab leave the text." : "Tab moves focus: off. Tab indents in the text.");
}

/** What the banner above the editor says. */
export interface BannerModel {
  /** The active document, when it changed on disk while it has unsaved changes; else null. */
  conflict: string | null;
  /** Why the active document's review data could not be read; null: it could. */
  sidecarError: string | null;
}

/** What the conflict banner's buttons do. */
export interface BannerActions {
  keepMine(): void;
  loadTheirs(): void;
  merge(): void;
}

/** The banner for the active document. */
export function renderBanner(app: App) {
  const doc = app.current;
  const review = app.review();
  drawBanner(
    { conflict: doc?.conflict ? doc.path : null, sidecarError: review?.sidecarError?.message ?? null },
    { keepMine: () => void resolveConflict(app, "keep"), loadTheirs: () => void resolveConflict(app, "load"), merge: () => void openMerge(app) },
  );
}

/** Draw the banner: a conflict with the file on disk, or unreadable review data; else hidden. */
export function drawBanner(model: BannerModel, actions: BannerActions) {
  const banner = $(".banner");
  banner.replaceChildren();
  if (model.conflict !== null) {
    const keep = h("button", { class: "bn-keep", text: "Keep mine" });
    const load = h("button", { class: "bn-load", text: "Load theirs" });
    const merge = h("button", {
      class: "bn-merge",
      text: "Compare & merge…",
      title: "See both versions side by side and take yours or theirs, change by change",
    });
    keep.title = "Keep your text; saving writes it over the file on disk";
    load.title = "Load the file on disk (Ctrl+Z brings your text back)";
    keep.addEventListener("click", () => actions.keepMine());
    load.addEventListener("click", () => actions.loadTheirs());
    merge.addEventListener("click", () => actions.merge());
    banner.append(h("span", { text: `${model.conflict} changed on disk while you have unsaved changes.` }), merge, keep, load);
    banner.className = "banner banner-conflict";
    banner.hidden = false;
  } else if (model.sidecarError !== null) {
    banner.append(h("span", { text: `Review data unavailable — ${model.sidecarError}. The document is still editable.` }));
    banner.className = "banner banner-error";
    banner.hidden = false;
  } else banner.hidden = true;
}

/** Keep the writer's text (saved over the file later) or load the file's. */
async function resolveConflict(app: App, choice: "keep" | "load") {
  const doc = app.current;
  if (!doc) return;
  if (choice === "keep") {
    await app.run(() => app.backend.keepMine(doc.path));
  } else {
    await coreOp(app, (p) => app.backend.reloadDocument(p));
  }
  doc.conflict = false;
  renderBanner(app);
}
