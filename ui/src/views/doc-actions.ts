// Documents as files, from the sidebar, the palette and the keys: New document
// (Ctrl+N; the sidebar's header and the empty workspace), Rename…, Delete (to
// the system trash, after asking), New folder…; the name dialog that says what
// is wrong with a name in place, and the menu of a tree item (right click or
// its ⋯ button). The core does the work (`new_document`, `rename_document`,
// `trash_document`, `new_folder`); the names' rules are in doc-names.ts.
import type { App } from "../main";
import { errorMessage } from "../backend";
import { h } from "../dom";
import { documentName, folderName, nameProblem, stemRange } from "../model/doc-names";
import { exportDocument } from "../dialogs/export";
import { ask, closeModal, menu, modal, toast } from "./modal";
import { treeEntryAdded, treeEntryRemoved, treeFolderAdded } from "./tree";
import { setText } from "../hidden";
import { openAuthorship } from "../dialogs/authorship";

interface NameDialog {
  title: string;
  /** What the field starts with, and the part of it selected. */
  value: string;
  select?: [number, number];
  action: string;
  /** What the typed name becomes, said under the field ("Saved as notes.md"). */
  hint: (raw: string) => string;
  /** Do it; a thrown error is shown under the field and the dialog stays. */
  submit: (raw: string) => Promise<void>;
}

/** A dialog asking for a name: the problem with it said in place as the writer types, the core's refusal too. */
function nameDialog(app: App, d: NameDialog) {
  const input = h("input", { class: "name-input", "aria-label": "Name", spellcheck: "false", autocomplete: "off" });
  input.value = d.value;
  const hint = h("div", { class: "name-hint" });
  const error = h("div", { class: "name-error", role: "alert" });
  const ok = h("button", { class: "name-ok", text: d.action });
  const cancel = h("button", { class: "modal-cancel", text: "Cancel" });
  let busy = false;
  const check = () => {
    const problem = d.value === input.value && !input.value ? null : nameProblem(input.value);
    error.textContent = problem ?? "";
    hint.textContent = problem || !input.value.trim() ? "" : d.hint(input.value);
    ok.disabled = busy || !!nameProblem(input.value);
  };
  const submit = async () => {
    if (busy || nameProblem(input.value)) return check();
    busy = true;
    ok.disabled = true;
    try {
      await d.submit(input.value);
    } catch (e) {
      busy = false;
      setText(error, errorMessage(e));
      ok.disabled = false;
      input.focus();
    }
  };
  input.addEventListener("input", check);
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      void submit();
    }
  });
  ok.addEventListener("click", () => void submit());
  cancel.addEventListener("click", () => closeModal(app));
  modal(app, d.title, h("form", { class: "name-dialog" }, input, hint, error, h("div", { class: "modal-actions" }, ok, cancel)), []);
  check();
  input.focus();
  if (d.select) input.setSelectionRange(d.select[0], d.select[1]);
}

/** New document: asks for a name (in `folder`, when given), creates it empty, opens it focused. */
export function newDocument(app: App, folder = "") {
  if (!app.ws) return toast("Open a folder first.");
  const value = folder ? `${folder}/` : "";
  nameDialog(app, {
    title: "New document",
    value,
    select: [value.length, value.length],
    action: "Create",
    hint: (raw) => `Saved as ${documentName(raw)}`,
    submit: async (raw) => {
      const v = await app.backend.newDocument(raw);
      closeModal(app);
      app.addDoc(v);
      treeEntryAdded(app, v.review.entry);
      app.activate(v.path);
    },
  });
}

/** Rename… an open or listed document (the active one by default): its tab, comments and proposals follow. */
export function renameDocument(app: App, path: string | null = app.active) {
  if (!path) return toast("Open a document first.");
  if (app.tasks.running().some((t) => t.path === path)) return toast(`Wait for the run on ${path} to finish, or cancel it.`);
  nameDialog(app, {
    title: `Rename ${path}`,
    value: path,
    select: stemRange(path),
    action: "Rename",
    hint: (raw) => (documentName(raw) === path ? "" : `Renamed to ${documentName(raw)}; its comments and proposals go with it`),
    submit: async (raw) => {
      // In order with the edits still on their way to the core.
      const entry = await app.queue.then(() => app.backend.renameDocument(path, raw));
      closeModal(app);
      app.renamed(path, entry.path);
      treeEntryRemoved(app, path, true);
      treeEntryAdded(app, entry);
      toast(`Renamed to ${entry.path}`);
    },
  });
}

/** Delete: after asking, the document and its review data go to the system trash. */
export async function deleteDocument(app: App, path: string | null = app.active) {
  if (!path) return toast("Open a document first.");
  if (app.tasks.running().some((t) => t.path === path)) return toast(`Wait for the run on ${path} to finish, or cancel it.`);
  const dirty = app.docs.get(path)?.dirty ? " Its unsaved changes are lost." : "";
  const choice = await ask(
    `Move ${path} to the trash? Its comments, proposals and attribution go with it; you can restore them from the system trash.${dirty}`,
    ["Move to trash", "Cancel"],
    app,
  );
  if (choice !== "Move to trash") return;
  const done = await app.run(async () => {
    await app.queue.then(() => app.backend.trashDocument(path));
    return true;
  });
  if (!done) return;
  if (app.docs.has(path)) app.dropTab(path);
  treeEntryRemoved(app, path, true);
  toast(`${path} moved to the trash`);
}

/** New folder…, in `parent` when given. */
export function newFolder(app: App, parent = "") {
  if (!app.ws) return toast("Open a folder first.");
  const value = parent ? `${parent}/` : "";
  nameDialog(app, {
    title: "New folder",
    value,
    select: [value.length, value.length],
    action: "Create folder",
    hint: (raw) => `Makes ${folderName(raw)}/`,
    submit: async (raw) => {
      const folder = await app.backend.newFolder(raw);
      closeModal(app);
      treeFolderAdded(app, folder);
      toast(`Folder ${folder}/ made: click it to add a document`);
    },
  });
}

/** The menu of a document in the tree. */
export function documentMenu(app: App, path: string, at: { x: number; y: number }) {
  const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  menu(app, at, [
    ["Open", () => void app.open(path)],
    ["Rename…", () => renameDocument(app, path)],
    ["Export…", () => void exportDocument(app, path)],
    ["Who wrote it…", () => void openAuthorship(app, path)],
    ["Delete (to the trash)…", () => void deleteDocument(app, path)],
    ["New document here…", () => newDocument(app, folder)],
    ["New folder…", () => newFolder(app, folder)],
  ]);
}

/** The menu of a folder in the tree. */
export function folderMenu(app: App, folder: string, at: { x: number; y: number }) {
  menu(app, at, [
    ["New document here…", () => newDocument(app, folder)],
    ["New folder here…", () => newFolder(app, folder)],
  ]);
}
