// The Search tab (Ctrl+Shift+F): every document's text and every thread's
// comments, searched by the core (the open documents as the writer has them,
// unsaved text included). Results come grouped by document, each with its line
// and the words around the match; a click opens the document with the match
// selected, or the thread in the Threads tab. Searches as the writer types;
// results show as each document is searched (the core's `search-progress`
// events), a newer search cancelling the one running. The tab is built with
// what it does (`SearchActions`), not the App.
import type { App } from "../main";
import type { SearchOut } from "../bindings/SearchOut";
import type { SearchHitDto } from "../bindings/SearchHitDto";
import type { SearchProgress } from "../bindings/SearchProgress";
import type { ThreadHitDto } from "../bindings/ThreadHitDto";
import type { Backend } from "../backend";
import { newJobId } from "../model/jobs";
import { errorMessage } from "../backend";
import { $, h } from "../dom";
import { showPanel } from "./panel";
import { focusThread } from "./threads-panel";
import { setText } from "../hidden";

/** Where `hit` is in `text` now: at its place if its text is still there, else its nearest copy; null when gone. */
export function placeHit(text: string, hit: Pick<SearchHitDto, "from" | "to" | "text">): { from: number; to: number } | null {
  if (text.slice(hit.from, hit.to) === hit.text) return { from: hit.from, to: hit.to };
  const after = text.indexOf(hit.text, hit.from);
  const before = text.lastIndexOf(hit.text, hit.from);
  const at = [after, before].filter((i) => i >= 0).sort((a, b) => Math.abs(a - hit.from) - Math.abs(b - hit.from))[0];
  return at === undefined ? null : { from: at, to: at + hit.text.length };
}

/** "3 matches in 2 documents, 1 thread". */
export function summary(out: SearchOut): string {
  const docs = new Set([...out.hits.map((h) => h.document), ...out.threads.map((t) => t.document)]).size;
  if (!out.hits.length && !out.threads.length) return "No results.";
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  const parts = [n(out.hits.length, "match", "matches")];
  if (out.threads.length) parts.push(n(out.threads.length, "thread", "threads"));
  return `${parts.join(", ")} in ${n(docs, "document", "documents")}${out.truncated ? " (the first 1,000; refine the search)" : ""}.`;
}

let seq = 0;

/** What the Search tab does: ask the core (`found` told of each document's finds as it goes), and go to a result. */
export interface SearchActions {
  search(query: string, caseSensitive: boolean, wholeWord: boolean, regex: boolean, found: (p: SearchProgress) => void): Promise<SearchOut>;
  goToHit(hit: SearchHitDto): void;
  goToThread(document: string, id: string): void;
}

/** Build the tab's form once. */
export function renderSearchPanel(actions: SearchActions) {
  const body = $(".search-body");
  if (body.querySelector(".search-form")) return;
  const input = h("input", { class: "search-input", type: "search", placeholder: "Search the workspace", "aria-label": "Search the workspace", spellcheck: "false" });
  const option = (cls: string, label: string, title: string) => {
    const box = h("input", { type: "checkbox", class: cls });
    return { box, el: h("label", { class: "search-option", title }, box, h("span", { text: label })) };
  };
  const cs = option("search-case", "Aa", "Match case");
  const word = option("search-word", "ab", "Whole words");
  const re = option("search-regex", ".*", "Regular expression");
  const form = h("form", { class: "search-form" }, input, h("div", { class: "search-options" }, cs.el, word.el, re.el));
  const status = h("div", { class: "search-status", role: "status" });
  const results = h("div", { class: "search-results" });
  body.append(form, status, results);
  let timer = 0;
  const run = () => {
    window.clearTimeout(timer);
    void search(actions, input.value, cs.box.checked, word.box.checked, re.box.checked, status, results);
  };
  input.addEventListener("input", () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(run, 250);
  });
  for (const b of [cs.box, word.box, re.box]) b.addEventListener("change", run);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    run();
  });
}

async function search(actions: SearchActions, query: string, caseSensitive: boolean, wholeWord: boolean, regex: boolean, status: HTMLElement, results: HTMLElement) {
  const mine = ++seq;
  if (!query) {
    status.removeAttribute("aria-busy");
    status.textContent = "";
    results.replaceChildren();
    return;
  }
  status.textContent = "Searching…";
  // Counts change as documents are searched: a screen reader says the summary once, at the end.
  status.setAttribute("aria-busy", "true");
  // What the core handed over so far: the last search's results stay until the first of this one's.
  let shown = false;
  let streamed = 0;
  const byDoc = new Map<string, HTMLElement>();
  const found = (p: SearchProgress) => {
    if (mine !== seq) return;
    if (!shown && (p.hits.length || p.threads.length)) {
      results.replaceChildren();
      shown = true;
    }
    for (const hit of p.hits) groupIn(results, byDoc, hit.document).append(hitRow(actions, hit));
    for (const t of p.threads) groupIn(results, byDoc, t.document).append(threadRow(actions, t));
    streamed += p.hits.length + p.threads.length;
    status.classList.remove("search-error");
    setText(status, `Searching… ${streamed} found, ${p.searched} ${p.searched === 1 ? "document" : "documents"} searched`);
  };
  let out: SearchOut;
  try {
    out = await actions.search(query, caseSensitive, wholeWord, regex, found);
  } catch (e) {
    if (mine !== seq) return;
    status.removeAttribute("aria-busy");
    setText(status, errorMessage(e));
    status.classList.add("search-error");
    results.replaceChildren();
    return;
  }
  if (mine !== seq) return; // a newer search is on its way
  status.removeAttribute("aria-busy");
  status.classList.remove("search-error");
  setText(status, summary(out) + (out.errors.length ? ` ${out.errors.length} could not be searched: ${out.errors.map((e) => e.document).join(", ")}.` : ""));
  // What was shown as it came is the answer: kept (a row the writer is on stays); else drawn from the answer.
  if (!shown || streamed !== out.hits.length + out.threads.length) results.replaceChildren(...groups(actions, out));
}

/** A document's group of results in `results`, made when it is first needed. */
function groupIn(results: HTMLElement, byDoc: Map<string, HTMLElement>, doc: string): HTMLElement {
  let g = byDoc.get(doc);
  if (!g) {
    g = h("section", { class: "search-group", "data-document": doc }, h("h3", { class: "search-doc", text: doc }));
    byDoc.set(doc, g);
    results.append(g);
  }
  return g;
}

/** The results, one group per document, text hits then threads. */
function groups(actions: SearchActions, out: SearchOut): HTMLElement[] {
  const holder = h("div");
  const byDoc = new Map<string, HTMLElement>();
  for (const hit of out.hits) groupIn(holder, byDoc, hit.document).append(hitRow(actions, hit));
  for (const t of out.threads) groupIn(holder, byDoc, t.document).append(threadRow(actions, t));
  return [...byDoc.values()];
}

function hitRow(actions: SearchActions, hit: SearchHitDto): HTMLElement {
  const row = h(
    "button",
    { class: "search-hit", title: `${hit.document}, line ${hit.line}` },
    h("span", { class: "search-line", text: String(hit.line) }),
    h("span", { class: "search-context" }, hit.before, h("mark", { text: hit.text }), hit.after),
  );
  row.addEventListener("click", () => actions.goToHit(hit));
  return row;
}

function threadRow(actions: SearchActions, t: ThreadHitDto): HTMLElement {
  const what = t.body ? `${t.author?.label ?? ""}: ${t.body}` : `on “${t.thread.anchoredText}”`;
  const row = h(
    "button",
    { class: "search-thread", title: "Show the thread" },
    h("span", { class: "search-line", text: "💬" }),
    h("span", { class: "search-context", text: what.length > 140 ? what.slice(0, 139) + "…" : what }),
  );
  row.addEventListener("click", () => actions.goToThread(t.document, t.thread.id));
  return row;
}

/** The search running in the core, and where its progress goes. */
let running: { job: string; found: (p: SearchProgress) => void } | null = null;

/** A `search-progress` event (the App hands each one here): to the running search, if it is its. */
export function onSearchProgress(p: SearchProgress) {
  if (running?.job === p.job) running.found(p);
}

/** Run a search in the core under a new job id, cancelling the one running (the writer typed on). */
export async function runSearch(
  backend: Pick<Backend, "search" | "cancelJob">,
  query: string,
  caseSensitive: boolean,
  wholeWord: boolean,
  regex: boolean,
  found: (p: SearchProgress) => void,
): Promise<SearchOut> {
  if (running) void backend.cancelJob(running.job).catch(() => undefined);
  const job = newJobId("search");
  running = { job, found };
  try {
    return await backend.search(query, caseSensitive, wholeWord, regex, job);
  } finally {
    if (running?.job === job) running = null;
  }
}

async function goToHit(app: App, hit: SearchHitDto) {
  await app.open(hit.document);
  const view = app.view;
  if (!view || app.active !== hit.document) return;
  const at = placeHit(view.state.doc.toString(), hit);
  if (at) view.dispatch({ selection: { anchor: at.from, head: at.to }, scrollIntoView: true });
  else view.dispatch({ selection: { anchor: view.state.doc.line(Math.min(hit.line, view.state.doc.lines)).from }, scrollIntoView: true });
  view.focus();
}

async function goToThread(app: App, doc: string, id: string) {
  await app.open(doc);
  if (app.active === doc) focusThread(app, id);
}

/** Show the Search tab with its field focused, filled with the selection when it is one line. */
export function openSearch(app: App) {
  showPanel(app, "search");
  renderSearchPanel({
    search: (query, caseSensitive, wholeWord, regex, found) => runSearch(app.backend, query, caseSensitive, wholeWord, regex, found),
    goToHit: (hit) => void goToHit(app, hit),
    goToThread: (doc, id) => void goToThread(app, doc, id),
  });
  const input = $<HTMLInputElement>(".search-input");
  const sel = app.view?.state.selection.main;
  const picked = sel && !sel.empty ? app.view!.state.sliceDoc(sel.from, sel.to) : "";
  if (picked && !picked.includes("\n") && picked.length <= 200) {
    input.value = picked;
    input.dispatchEvent(new Event("input"));
  }
  input.focus();
  input.select();
}
