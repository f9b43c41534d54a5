// The status bar (branch, saved state, word count, proposal and thread counts,
// the Claude tint toggle, who you are), the window's title (document — workspace, with the
// unsaved mark) and the banner above the editor: a conflict with the file on
// disk (keep mine / load theirs / compare & merge), or unreadable review data.
import type { App } from "../main";
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

/** Show the title in the title bar (and as document.title), when it changed. */
export function renderTitle(app: App) {
  const doc = app.current;
  const title = windowTitle(app.ws?.name ?? null, doc?.path ?? null, doc?.dirty ?? false);
  if (title === shownTitle) return;
  shownTitle = title;
  document.title = title;
  void app.backend.setTitle(title).catch(() => undefined);
}

/** The status bar for the active document, and the window's title. */
export function renderStatus(app: App) {
  renderTitle(app);
  const doc = app.current;
  const review = app.review();
  setText($(".st-branch"), app.ws?.branch ? `⎇ ${app.ws.branch}` : "");
  $(".st-save").textContent = !doc ? "" : doc.saving ? "Saving…" : doc.dirty ? "● Unsaved" : "Saved";
  $(".st-save").className = `st-save${doc?.dirty ? " unsaved" : ""}`;
  const pending = review?.proposals.filter((p) => p.state === "pending").length ?? 0;
  const stale = review ? review.proposals.length - pending : 0;
  $(".st-proposals").textContent = review ? `${pending} pending${stale ? ` · ${stale} stale` : ""}` : "";
  $(".st-proposals").className = `st-proposals${stale ? " has-stale" : ""}`;
  const open = review?.threads.filter((t) => t.status === "open").length ?? 0;
  $(".st-threads").textContent = review ? `${open} open thread${open === 1 ? "" : "s"}` : "";
  $(".st-tint").classList.toggle("off", !tint);
  $(".st-tabfocus").hidden = !app.tabFocus;
  const you = $(".st-you");
  setText(you, app.me ? `✎ ${app.me.display}` : "");
  you.title = app.me ? visibleText(`You write as ${app.me.id} — change it in Settings (Ctrl+,)`) : "Who you are (Settings…)";
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
export function toggleTint(app: App) {
  tint = !tint;
  $(".editor-host").classList.toggle("tint-off", !tint);
  renderStatus(app);
}

/**
 * Tab moves the focus (on) or indents in the text (off), as VS Code's Ctrl+M:
 * kept in the window's storage, shown in the status bar, said.
 */
export function toggleTabFocus(app: App) {
  app.setTabFocus(!app.tabFocus);
  say(app.tabFocus ? "Tab moves focus: on. Tab and Shift+Tab leave the text." : "Tab moves focus: off. Tab indents in the text.");
}

/** The banner above the editor: a conflict with the file on disk, or unreadable review data; else hidden. */
export function renderBanner(app: App) {
  const banner = $(".banner");
  const doc = app.current;
  const review = app.review();
  banner.replaceChildren();
  if (doc?.conflict) {
    const keep = h("button", { class: "bn-keep", text: "Keep mine" });
    const load = h("button", { class: "bn-load", text: "Load theirs" });
    const merge = h("button", {
      class: "bn-merge",
      text: "Compare & merge…",
      title: "See both versions side by side and take yours or theirs, change by change",
    });
    keep.title = "Keep your text; saving writes it over the file on disk";
    load.title = "Load the file on disk (Ctrl+Z brings your text back)";
    keep.addEventListener("click", () => void resolveConflict(app, "keep"));
    load.addEventListener("click", () => void resolveConflict(app, "load"));
    merge.addEventListener("click", () => void openMerge(app));
    banner.append(h("span", { text: `${doc.path} changed on disk while you have unsaved changes.` }), merge, keep, load);
    banner.className = "banner banner-conflict";
    banner.hidden = false;
  } else if (review?.sidecarError) {
    banner.append(h("span", { text: `Review data unavailable — ${review.sidecarError.message}. The document is still editable.` }));
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
