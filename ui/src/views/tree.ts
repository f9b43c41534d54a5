// The sidebar: the workspace's documents (with their proposal, thread and
// error badges) and its folders without documents, each with its menu (right
// click or ⋯: views/doc-actions.ts); "New document" when there are none; the
// recent folders; and what shows when no folder is open.
import type { App } from "../main";
import { $, h } from "../dom";
import { plural } from "../jobs";
import { documentMenu, folderMenu, newDocument } from "./doc-actions";
import { inboxChanged } from "./inbox-panel";
import { renderStatus } from "./status";

export function renderTree(app: App) {
  const tree = $(".tree");
  tree.replaceChildren();
  const ws = app.ws;
  if (!ws) return;
  if (!ws.documents.length) {
    const create = h("button", { class: "btn-new-doc", text: "New document" });
    create.addEventListener("click", () => newDocument(app));
    tree.append(h("div", { class: "tree-empty" }, h("p", { text: "No Markdown or text files here." }), create));
  }
  const rows: [string, HTMLElement][] = [];
  for (const d of ws.documents) {
    const parts = d.path.split("/");
    const counts = [
      d.proposals ? plural(d.proposals, "pending proposal") : null,
      d.openThreads ? plural(d.openThreads, "open thread") : null,
      d.sidecarError ? "review data unreadable" : null,
    ]
      .filter(Boolean)
      .join(", ");
    const item = h(
      "button",
      {
        class: `tree-item${d.path === app.active ? " active" : ""}`,
        "data-path": d.path,
        title: d.path,
        ...(d.path === app.active ? { "aria-current": "true" } : {}),
      },
      h("span", { class: "tree-dir", text: parts.length > 1 ? parts.slice(0, -1).join("/") + "/" : "" }),
      h("span", { class: "tree-name", text: parts[parts.length - 1] }),
      // The badges are read as words ("essay.md, 4 pending proposals, 1 open thread"), not "essay.md 4 1".
      counts ? h("span", { class: "visually-hidden", text: `, ${counts}` }) : null,
      d.proposals ? h("span", { class: "badge badge-proposals", title: `${d.proposals} pending proposal(s)`, text: String(d.proposals), "aria-hidden": "true" }) : null,
      d.openThreads ? h("span", { class: "badge badge-threads", title: `${d.openThreads} open thread(s)`, text: String(d.openThreads), "aria-hidden": "true" }) : null,
      d.sidecarError ? h("span", { class: "badge badge-error", title: "The review data of this document cannot be read", text: "!", "aria-hidden": "true" }) : null,
    );
    item.addEventListener("click", () => void app.open(d.path));
    rows.push([d.path, row(item, `More for ${d.path}`, (at) => documentMenu(app, d.path, at))]);
  }
  for (const f of ws.emptyFolders) {
    const item = h("button", { class: "tree-item tree-folder", "data-folder": f, title: `${f}/ (no documents yet): click to add one` }, h("span", { class: "tree-name", text: `${f}/` }));
    item.addEventListener("click", () => newDocument(app, f));
    rows.push([`${f}/`, row(item, `More for ${f}/`, (at) => folderMenu(app, f, at))]);
  }
  rows.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [, r] of rows) tree.append(r);
  renderEditorEmpty(app);
}

/** What the editor's place shows with no document open: a way to start one in an empty workspace. */
export function renderEditorEmpty(app: App) {
  if (app.view) return;
  const host = $(".editor-host");
  if (app.ws && !app.ws.documents.length) {
    const create = h("button", { class: "btn-new-doc-main", text: "New document" });
    create.addEventListener("click", () => newDocument(app));
    host.replaceChildren(h("div", { class: "empty" }, h("p", { text: "This folder has no documents yet." }), create, h("p", { class: "empty-keys", text: "Ctrl+N" })));
  } else host.replaceChildren(h("div", { class: "empty", text: "Open a document from the list on the left." }));
}

/** A tree item with its menu: on a right click, and under its ⋯ button. */
function row(item: HTMLElement, label: string, open: (at: { x: number; y: number }) => void): HTMLElement {
  const more = h("button", { class: "tree-more", title: label, "aria-label": label, "aria-haspopup": "menu", text: "⋯" });
  more.addEventListener("click", (e) => {
    e.stopPropagation();
    const r = more.getBoundingClientRect();
    open({ x: r.left, y: r.bottom });
  });
  const el = h("div", { class: "tree-row" }, item, more);
  el.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    open({ x: e.clientX, y: e.clientY });
  });
  return el;
}

export async function refreshTree(app: App) {
  // What changed the tree's badges (a decision, a save, another writer) can change the Inbox too.
  inboxChanged(app);
  const w = await app.backend.workspace().catch(() => null);
  if (w) {
    app.ws = w;
    renderTree(app);
    renderStatus(app);
  }
}

export function renderNoWorkspace(app: App) {
  $(".tree").replaceChildren(
    h("div", { class: "tree-empty" }, "No folder is open.", h("br"), h("button", { class: "btn-sample", text: "Open the sample workspace" })),
  );
  $(".btn-sample").addEventListener("click", () => void app.run(async () => app.setWorkspace(await app.backend.openSample())));
}

export async function renderRecent(app: App) {
  const list = await app.backend.recentFolders().catch(() => []);
  const el = $(".recent");
  el.replaceChildren();
  const others = list.filter((p) => p !== app.ws?.root).slice(0, 5);
  if (!others.length) return;
  const sel = h("select", { class: "recent-select", title: "Recent folders", "aria-label": "Recent folders" }, h("option", { value: "", text: "Recent folders…" }));
  for (const p of others) sel.append(h("option", { value: p, text: p.split("/").slice(-2).join("/") }));
  sel.addEventListener("change", () => {
    if (sel.value) void app.run(async () => app.setWorkspace(await app.backend.openFolder(sel.value)));
  });
  el.append(sel);
}
