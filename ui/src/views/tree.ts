// The sidebar: the workspace's documents (with their proposal, thread and
// error badges), the recent folders, and what shows when no folder is open.
import type { App } from "../main";
import { $, h } from "../dom";
import { renderStatus } from "./status";

export function renderTree(app: App) {
  const tree = $(".tree");
  tree.replaceChildren();
  if (!app.ws) return;
  if (!app.ws.documents.length) tree.append(h("div", { class: "tree-empty", text: "No Markdown or text files here." }));
  for (const d of app.ws.documents) {
    const parts = d.path.split("/");
    const item = h(
      "button",
      { class: `tree-item${d.path === app.active ? " active" : ""}`, "data-path": d.path, title: d.path },
      h("span", { class: "tree-dir", text: parts.length > 1 ? parts.slice(0, -1).join("/") + "/" : "" }),
      h("span", { class: "tree-name", text: parts[parts.length - 1] }),
      d.proposals ? h("span", { class: "badge badge-proposals", title: `${d.proposals} pending proposal(s)`, text: String(d.proposals) }) : null,
      d.openThreads ? h("span", { class: "badge badge-threads", title: `${d.openThreads} open thread(s)`, text: String(d.openThreads) }) : null,
      d.sidecarError ? h("span", { class: "badge badge-error", title: "The review data of this document cannot be read", text: "!" }) : null,
    );
    item.addEventListener("click", () => void app.open(d.path));
    tree.append(item);
  }
}

export async function refreshTree(app: App) {
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
  const sel = h("select", { class: "recent-select", title: "Recent folders" }, h("option", { value: "", text: "Recent folders…" }));
  for (const p of others) sel.append(h("option", { value: p, text: p.split("/").slice(-2).join("/") }));
  sel.addEventListener("change", () => {
    if (sel.value) void app.run(async () => app.setWorkspace(await app.backend.openFolder(sel.value)));
  });
  el.append(sel);
}
