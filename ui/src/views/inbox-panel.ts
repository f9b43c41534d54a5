// The Inbox tab (Ctrl+Alt+I): one review across the workspace. Every proposal
// waiting for the writer and every open thread of every document, as the core
// lists them (the open documents as the writer has them, the others from their
// sidecars: what agents, the CLI and VS Code filed, the app open or not),
// grouped by turn and producer, newest first; filtered by document, producer
// and state. A click opens the item's document with the proposal selected (or
// the thread's text); Next / Previous (F4 / Shift+F4) walk the list across
// documents; Accept all / Reject all of a group decide through the same core
// calls as the Review tab's, per document (a document not open is opened in a
// tab first; an accept waits for its save, as everywhere in the app).
// Refreshed when the core or another writer changes review data.
//
// Three parts. The tab's state is `InboxView` (on `App.inbox`). The drawing,
// `renderInbox(model, actions)`, sees only a plain model (the core's answer,
// the filters, the place gone to, the error, the unsaved documents, the groups
// shown whole, who the writer is) and what the tab does (`InboxActions`, built
// by `App.showInbox`); it draws nothing anew when none of that changed. The
// fetching (`refreshInbox`, `inboxChanged`) needs only an `InboxHost`: the
// state, the core's `inbox` call, and drawing the tab. Going to an item and
// deciding a group take the App: they open and close documents in tabs, move
// the editor's selection (review-panel's `reveal`), ask the writer
// (`confirmSeen`, `confirmHidden`, `ask`) and decide through edit-sync's
// `coreOp`, all of which work on the App.
import { EditorView } from "@codemirror/view";
import type { App } from "../main";
import type { IdentityDto } from "../bindings/IdentityDto";
import type { InboxGroup } from "../bindings/InboxGroup";
import type { InboxOut } from "../bindings/InboxOut";
import type { InboxProposal } from "../bindings/InboxProposal";
import type { InboxThread } from "../bindings/InboxThread";
import { errorMessage, type Backend } from "../backend";
import { appendWithNewlines } from "../diff-text";
import { $, h } from "../dom";
import { coreOp } from "../edit-sync";
import { choices, countsText, decisions, documentsOf, filterGroups, itemsOf, NO_FILTERS, sameAnswer, step, type InboxFilters, type InboxItem, type InboxPlace, type InboxState } from "../model/inbox";
import { plural } from "../model/jobs";
import { age, authorLabel } from "../model/util";
import { LazyList } from "./lazy-list";
import { ask, toast } from "./modal";
import { showPanel } from "./panel";
import { reveal } from "./review-panel";
import { visibleNodes } from "../hidden";
import { hiddenFlag } from "./confirm-hidden";
import { watchSeen } from "../coverage";

/** The tab's state, kept across re-renders. */
export class InboxView {
  /** The core's answer last fetched; replaced only by one that says something else (`answered`). */
  out: InboxOut | null = null;
  filters: InboxFilters = { ...NO_FILTERS };
  /** The item last gone to (marked in the list; Next / Previous go on from it). */
  at: InboxPlace | null = null;
  /** The document the Inbox opened to show an item (a preview tab: the next one replaces it unless it was changed). */
  preview: string | null = null;
  /** Groups the writer asked to see whole ("Show more"). */
  expanded = new Set<string>();
  timer: number | undefined;
  seq = 0;
  error: string | null = null;

  /**
   * A fetch answered: the answer held is kept when the new one says the same
   * (the drawing compares the answer's identity, so nothing is drawn anew),
   * replaced when it differs.
   */
  answered(out: InboxOut) {
    if (!this.out || !sameAnswer(this.out, out)) this.out = out;
    this.error = null;
  }

  /**
   * The preview tab's document has unsaved changes: the writer changed it (or
   * decided in it), and it is theirs from then on, no longer a preview (kept,
   * even after a save).
   */
  keepChanged(dirty: (path: string) => boolean) {
    if (this.preview !== null && dirty(this.preview)) this.preview = null;
  }
}

/** What the tab shows: the state's parts it draws, and what it takes from the rest of the app. */
export interface InboxModel {
  /** The core's answer (null: none yet); a new object is a new answer (`InboxView.answered`). */
  out: InboxOut | null;
  filters: InboxFilters;
  /** The item last gone to, marked. */
  at: InboxPlace | null;
  /** Why the last fetch failed; null when it did not. */
  error: string | null;
  /** The open documents with unsaved changes, in tab order (named beside Save all). */
  dirty: string[];
  /** The groups shown whole. */
  expanded: ReadonlySet<string>;
  /** Who the writer is (their own comments' author named so). */
  me: IdentityDto | null;
}

/** What the tab does. */
export interface InboxActions {
  /** Open an item's document and show the item (a row clicked). */
  goTo(item: InboxItem): void;
  /** Go to the item after (1) or before (-1) the one last gone to. */
  step(dir: 1 | -1): void;
  /** Accept all (true) or Reject all (false) of a group, as listed. */
  decide(group: InboxGroup, accept: boolean): void;
  /** Change some of the filters, the others kept. */
  filter(change: Partial<InboxFilters>): void;
  /** Show a group whole (its key). */
  showMore(group: string): void;
  /** Save every document with unsaved changes. */
  saveAll(): void;
}

/** What fetching the workspace's review needs (App is one): the tab's state, the core's `inbox`, and drawing the tab. */
export interface InboxHost {
  readonly inbox: InboxView;
  readonly backend: Pick<Backend, "inbox">;
  /** Draw the tab from the state (App.showInbox builds the model and the actions). */
  showInbox(): void;
}

const visible = () => !($(".inbox-body") as HTMLElement).hidden;

/** Show the Inbox tab, fresh. */
export function openInbox(app: App) {
  showPanel(app, "inbox");
  void refreshInbox(app);
}

/**
 * Review data changed somewhere: fetch again soon (the tab's count shows what
 * waits even while another tab does; less soon then).
 */
export function inboxChanged(host: InboxHost) {
  const v = host.inbox;
  window.clearTimeout(v.timer);
  v.timer = window.setTimeout(() => void refreshInbox(host), visible() ? 300 : 2000);
}

/** Ask the core for the workspace's review and show it (a newer request wins). */
export async function refreshInbox(host: InboxHost) {
  const v = host.inbox;
  window.clearTimeout(v.timer);
  const mine = ++v.seq;
  if (!v.out) host.showInbox();
  try {
    const out = await host.backend.inbox();
    if (mine !== v.seq) return;
    v.answered(out);
  } catch (e) {
    if (mine !== v.seq) return;
    v.error = errorMessage(e);
  }
  host.showInbox();
}

function select(cls: string, label: string, value: string, options: [string, string][], change: (v: string) => void): HTMLElement {
  const sel = h("select", { class: cls, "aria-label": label, title: label }) as HTMLSelectElement;
  for (const [v, text] of options) sel.append(h("option", { value: v, text }));
  sel.value = value;
  sel.addEventListener("change", () => change(sel.value));
  return sel;
}

/**
 * What the tab last drew: its body, the answer (by identity) and the rest of
 * the model as a short key. The same again draws nothing anew (the rows, the
 * keyboard's place among them and the scroll stay).
 */
let drawn: { body: HTMLElement; out: InboxOut | null; key: string } | null = null;

/** Draw the tab from the model (skipped when nothing it shows changed); the tab's count always. */
export function renderInbox(model: InboxModel, actions: InboxActions) {
  renderTabCount(model.out);
  const body = $(".inbox-body");
  const key = JSON.stringify([model.filters, model.at, model.error, model.dirty, model.expanded.size]);
  if (drawn && drawn.body === body && drawn.out === model.out && drawn.key === key) return;
  drawn = { body, out: model.out, key };
  const scroll = body.scrollTop;
  body.replaceChildren();
  if (model.error) body.append(h("div", { class: "inbox-error", text: model.error }));
  const out = model.out;
  if (!out) {
    body.append(h("div", { class: "panel-empty", text: "Reading the workspace…" }));
    return inboxGroups.show(body, [], () => {});
  }
  const { documents, producers } = choices(out);
  const f = model.filters;
  // A filter stays when what it names has nothing left (all decided): the
  // list says nothing matches, and Show everything is one click.
  if (f.document !== null && !documents.includes(f.document)) documents.push(f.document);
  if (f.producer !== null && !producers.includes(f.producer)) producers.push(f.producer);
  const states: [InboxState, string][] = [
    ["all", "Everything"],
    ["pending", "Pending"],
    ["stale", "Stale"],
    ["orphaned", "Orphaned"],
    ["threads", "Open threads"],
  ];
  const groups = filterGroups(out, f);
  const prev = h("button", { class: "inbox-prev", text: "↑", title: "Previous item, across documents (Shift+F4)", "aria-label": "Previous item" });
  const next = h("button", { class: "inbox-next", text: "↓ Next", title: "Next item, across documents (F4)" });
  prev.addEventListener("click", () => actions.step(-1));
  next.addEventListener("click", () => actions.step(1));
  for (const b of [prev, next]) b.toggleAttribute("disabled", !groups.length);
  body.append(
    h(
      "div",
      { class: "inbox-filters" },
      h(
        "div",
        { class: "inbox-row" },
        select("inbox-doc", "Document", f.document ?? "", [["", "All documents"], ...documents.map((d): [string, string] => [d, d])], (x) => actions.filter({ document: x || null })),
        prev,
        next,
      ),
      h(
        "div",
        { class: "inbox-row" },
        select("inbox-producer", "Producer", f.producer ?? "", [["", "All producers"], ...producers.map((p): [string, string] => [p, p])], (x) => actions.filter({ producer: x || null })),
        select("inbox-state", "State", f.state, states, (x) => actions.filter({ state: x as InboxState })),
      ),
    ),
    h("div", { class: "inbox-summary", role: "status", text: countsText(groups) }),
  );
  if (model.dirty.length) {
    const save = h("button", { class: "inbox-save-all", text: "Save all", title: "Save every document with unsaved changes" });
    save.addEventListener("click", () => actions.saveAll());
    body.append(h("div", { class: "inbox-unsaved" }, h("span", { text: `Unsaved: ${model.dirty.join(", ")}` }), save));
  }
  for (const e of out.errors) {
    body.append(h("div", { class: "inbox-error", "data-document": e.document, text: `${e.document}: not read — ${e.error.message}` }));
  }
  if (!groups.length) {
    const all = out.groups.length > 0;
    const empty = h("div", { class: "panel-empty", text: all ? "Nothing matches these filters." : "Nothing waits for you: no proposals and no open threads in this workspace." });
    if (all) {
      const clear = h("button", { class: "inbox-clear", text: "Show everything" });
      clear.addEventListener("click", () => actions.filter({ ...NO_FILTERS }));
      empty.append(h("br"), clear);
    }
    body.append(empty);
    return inboxGroups.show(body, [], () => {});
  }
  // The groups are built as the tab is scrolled to them (LazyList).
  inboxGroups.show(
    body,
    groups.map((g) => g.key),
    (i) => body.append(groupSection(model, actions, groups[i])),
  );
  body.scrollTop = scroll;
}

/** Build an item's group if it is not built yet, and scroll the item's row into view. */
export function revealInboxRow(item: Pick<InboxItem, "group" | "document" | "id">) {
  inboxGroups.ensure(item.group);
  document.querySelector(`.inbox-item[data-document="${CSS.escape(item.document)}"][data-id="${CSS.escape(item.id)}"]`)?.scrollIntoView({ block: "nearest" });
}

/** The Inbox's groups (up to GROUP_ROWS + 5 rows each), built as they are scrolled to, a few at a time. */
const inboxGroups = new LazyList(10);

/** The tab's label counts what waits (all of it, whatever the filters). */
function renderTabCount(out: InboxOut | null) {
  const tab = document.querySelector(".pt-inbox");
  if (!tab) return;
  const n = out ? out.groups.reduce((k, g) => k + g.proposals.length + g.threads.length, 0) : 0;
  // Read as "Inbox, 5 waiting", not "Inbox5".
  tab.replaceChildren("Inbox", ...(n ? [h("span", { class: "visually-hidden", text: `, ${n} waiting` }), h("span", { class: "pt-count", text: String(n), "aria-hidden": "true" })] : []));
}

function groupSection(model: InboxModel, actions: InboxActions, g: InboxGroup): HTMLElement {
  const section = h("section", { class: "group inbox-group", "data-key": g.key });
  const docs = documentsOf(g);
  const who = g.threads.length && !g.proposals.length ? `Comments by ${authorLabel(g.author, model.me)}` : g.producer;
  const counts = [g.proposals.length ? plural(g.proposals.length, "proposal") : null, g.threads.length ? plural(g.threads.length, "thread") : null].filter(Boolean).join(", ");
  const head = h(
    "header",
    { class: "group-head" },
    h("div", { class: "group-title" }, h("span", { class: "group-producer", text: who, title: who }), h("span", { class: "group-count", text: String(g.proposals.length + g.threads.length), title: counts })),
  );
  if (g.instruction) head.append(h("div", { class: "group-instruction", text: `“${g.instruction}”` }));
  const llm = g.author.model && !g.producer.includes(g.author.model) ? g.author.model : null;
  const meta = [llm, g.turnId, age(g.createdAt), docs.length > 1 ? `in ${docs.length} documents` : docs[0]].filter((x): x is string => !!x);
  head.append(h("div", { class: "group-meta", text: meta.join(" · ") }));
  if (g.proposals.length) {
    const plan = decisions(g);
    const nAccept = plan.reduce((k, d) => k + d.accept.length, 0);
    const nReject = plan.reduce((k, d) => k + d.reject.length, 0);
    const a = h("button", { class: "btn-inbox-accept", text: "Accept all", title: `Accept the ${plural(nAccept, "pending proposal")} listed here` });
    const r = h("button", { class: "btn-inbox-reject", text: "Reject all", title: `Reject the ${plural(nReject, "proposal")} listed here` });
    a.toggleAttribute("disabled", nAccept === 0);
    a.addEventListener("click", () => actions.decide(g, true));
    r.addEventListener("click", () => actions.decide(g, false));
    head.append(h("div", { class: "group-actions" }, a, r));
    const blocked = nReject - nAccept;
    if (blocked) head.append(h("div", { class: "group-note", text: `${plural(blocked, "proposal")} cannot be accepted: ${blocked === 1 ? "its" : "their"} text changed or is gone (reject works).` }));
  }
  section.append(head);
  // A long group (an agent's turn over many documents) shows its first rows;
  // the rest on request, or when Next / Previous reach into them.
  const rows: { doc: string; row: () => HTMLElement; id: string }[] = [];
  for (const doc of docs) {
    for (const p of g.proposals) if (p.document === doc) rows.push({ doc, id: p.proposal.id, row: () => proposalRow(model, actions, g, p) });
    for (const t of g.threads) if (t.document === doc) rows.push({ doc, id: t.thread.id, row: () => threadRow(model, actions, g, t) });
  }
  const at = model.at;
  const reached = at ? rows.findIndex((r) => r.doc === at.document && r.id === at.id) : -1;
  const shown = model.expanded.has(g.key) || rows.length <= GROUP_ROWS + 5 ? rows.length : Math.max(GROUP_ROWS, reached + 1);
  let heading = "";
  for (const r of rows.slice(0, shown)) {
    if (r.doc !== heading) section.append(h("h3", { class: "inbox-doc", text: (heading = r.doc) }));
    section.append(r.row());
  }
  if (shown < rows.length) {
    const more = h("button", { class: "inbox-more", text: `Show ${plural(rows.length - shown, "more item")} (${plural(new Set(rows.slice(shown).map((r) => r.doc)).size, "document")})` });
    more.addEventListener("click", () => actions.showMore(g.key));
    section.append(more);
  }
  return section;
}

/** How many documents Accept all / Reject all open in tabs before asking first. */
const OPEN_WITHOUT_ASKING = 5;

/** How many rows a group shows before "Show more". */
const GROUP_ROWS = 30;

const isAt = (at: InboxPlace | null, document: string, id: string) => at?.document === document && at.id === id;

function proposalRow(model: InboxModel, actions: InboxActions, g: InboxGroup, p: InboxProposal): HTMLElement {
  const d = p.proposal;
  const row = h("button", {
    class: `inbox-item inbox-proposal inbox-${d.state}${isAt(model.at, p.document, d.id) ? " current" : ""}`,
    "data-document": p.document,
    "data-id": d.id,
    title: `${p.document}${d.line ? `, line ${d.line}` : ""}: ${d.state}`,
  });
  watchSeen(row, p.document, d.id);
  row.append(h("span", { class: "search-line", text: d.line ? String(d.line) : "–" }));
  const text = h("span", { class: "inbox-text" });
  if (p.context?.before) text.append(h("span", { class: "inbox-around", text: p.context.before }));
  for (const part of d.diff) {
    if (part.tag === "equal" && part.text.length > 60) {
      text.append(...visibleNodes(part.text.slice(0, 25) + " … " + part.text.slice(-25)));
      continue;
    }
    const span = h("span", { class: `diff-${part.tag}` });
    appendWithNewlines(span, part.text, part.tag !== "equal");
    text.append(span);
  }
  if (p.context?.after) text.append(h("span", { class: "inbox-around", text: p.context.after }));
  row.append(text);
  const flag = hiddenFlag(d);
  if (flag) row.append(flag);
  if (d.state !== "pending") row.append(h("span", { class: "inbox-reason", text: `${d.state === "stale" ? "Stale" : "Orphaned"}: ${d.reason ?? ""}` }));
  row.addEventListener("click", () => actions.goTo({ kind: "proposal", group: g.key, document: p.document, id: d.id, proposal: p }));
  return row;
}

function threadRow(model: InboxModel, actions: InboxActions, g: InboxGroup, t: InboxThread): HTMLElement {
  const th = t.thread;
  const last = th.comments[th.comments.length - 1];
  const row = h("button", {
    class: `inbox-item inbox-thread${isAt(model.at, t.document, th.id) ? " current" : ""}`,
    "data-document": t.document,
    "data-id": th.id,
    title: `${t.document}${th.line ? `, line ${th.line}` : ""}: open thread`,
  });
  row.append(h("span", { class: "search-line", text: th.line ? String(th.line) : "💬" }));
  const quote = th.anchoredText.length > 60 ? th.anchoredText.slice(0, 59) + "…" : th.anchoredText;
  const body = last ? `${authorLabel(last.author, model.me)}: ${last.body}` : "";
  row.append(
    h(
      "span",
      { class: "inbox-text" },
      h("mark", { class: "inbox-quote", text: quote }),
      h(
        "span",
        { class: "inbox-comment" },
        body.length > 120 ? body.slice(0, 119) + "…" : body,
        th.comments.length > 1 ? h("span", { class: "inbox-replies", text: ` (${plural(th.comments.length - 1, "reply", "replies")})` }) : null,
      ),
    ),
  );
  if (th.from === null) row.append(h("span", { class: "inbox-reason", text: th.detached ? "Detached from its text." : "Its text is no longer in the document." }));
  row.addEventListener("click", () => actions.goTo({ kind: "thread", group: g.key, document: t.document, id: th.id, thread: t }));
  return row;
}

/** The item after (1) or before (-1) the one last gone to, across documents (F4 / Shift+F4). */
export async function gotoInboxItem(app: App, dir: 1 | -1) {
  const v = app.inbox;
  if (!visible()) showPanel(app, "inbox");
  // What the tab shows is what it walks (a change is fetched meanwhile).
  if (!v.out) await refreshInbox(app);
  if (!v.out) return;
  const item = step(itemsOf(filterGroups(v.out, v.filters)), v.at, dir);
  if (item) await openInboxItem(app, item);
  else toast("Nothing waits in the Inbox.");
}

/** Open an item's document and show it: the proposal selected, or the thread's text. */
export async function openInboxItem(app: App, item: InboxItem) {
  app.inbox.at = { document: item.document, id: item.id };
  app.showInbox();
  revealInboxRow(item);
  const v = app.inbox;
  const wasOpen = app.docs.has(item.document);
  const previous = v.preview;
  await app.open(item.document);
  if (!app.docs.has(item.document)) return;
  // A preview tab, as in a code editor's: the document the Inbox last opened
  // goes when it opens the next, unless the writer changed it (or decided in it).
  v.preview = wasOpen ? (previous === item.document ? previous : null) : item.document;
  if (previous && previous !== item.document && app.docs.has(previous) && !app.docs.get(previous)!.dirty) {
    await app.run(() => app.backend.closeDocument(previous));
    app.dropTab(previous);
  }
  v.keepChanged((p) => app.docs.get(p)?.dirty ?? false);
  app.showTabs();
  if (app.active !== item.document || !app.view) return;
  const review = app.review();
  if (item.kind === "proposal") {
    // Where it is now, as the editor has it; else where the core listed it.
    const p = review?.proposals.find((x) => x.id === item.id) ?? item.proposal.proposal;
    if (p.from !== null) {
      reveal(app, p);
      // Its target selected too, as a search hit is (an insertion: the cursor at its place).
      app.view.dispatch({ selection: { anchor: p.from, head: p.to ?? p.from } });
    } else toast("This proposal's text is no longer in the document: reject it, or find its place by hand.");
  } else {
    const t = review?.threads.find((x) => x.id === item.id) ?? item.thread.thread;
    if (t.from === null || t.to === null) {
      toast("This thread's text is no longer in the document: it is listed in the Threads tab.");
      return;
    }
    app.view.dispatch({ selection: { anchor: t.from, head: t.to }, effects: EditorView.scrollIntoView(t.from, { y: "center" }) });
    app.view.focus();
  }
}

/**
 * Accept all (the pending proposals) or Reject all of a group as listed,
 * document by document, through the core's accept_all / reject_all (one undo
 * step per document); a document not open is opened in a tab first.
 */
export async function decideGroup(app: App, g: InboxGroup, accept: boolean) {
  const plan = decisions(g).filter((d) => (accept ? d.accept : d.reject).length);
  const closed = plan.filter((d) => !app.docs.has(d.document));
  if (closed.length > OPEN_WITHOUT_ASKING) {
    const verb = accept ? "Accept all" : "Reject all";
    const choice = await ask(`${verb} opens ${plural(closed.length, "more document")} in tabs (${closed.map((d) => d.document).slice(0, 5).join(", ")}${closed.length > 5 ? ", …" : ""})${accept ? ", unsaved until Save all" : ""}.`, [verb, "Cancel"], app);
    if (choice !== verb) return;
  }
  const done: string[] = [];
  let n = 0;
  for (const d of plan) {
    const ids = accept ? d.accept : d.reject;
    if (!ids.length) continue;
    if (!(await app.ensureOpen(d.document))) continue;
    const listed = g.proposals.filter((p) => p.document === d.document).map((p) => p.proposal);
    const chosen = accept ? await app.confirmSeen(ids, d.document) : ids;
    if (!chosen?.length) continue;
    if (accept && !(await app.confirmHidden(chosen, d.document, listed))) continue;
    const ok = await coreOp(app, (path) => (accept ? app.backend.acceptAll(path, chosen) : app.backend.rejectAll(path, chosen)), d.document);
    if (ok) {
      done.push(d.document);
      n += chosen.length;
    }
  }
  if (n) {
    const verb = accept ? "Accepted" : "Rejected";
    toast(`${verb} ${plural(n, "proposal")} in ${done.join(", ")}${accept ? " — unsaved until you save (Save all)" : ""}.`);
  }
  await refreshInbox(app);
}
