// Export…: the document as a standalone HTML page, a PDF, or Markdown with
// CriticMarkup (its proposals and comments, for other review tools); HTML and
// PDF as a clean copy or with the review. The writer chooses here (the choice
// is remembered); the native Save dialog, which the core's `export_document`
// shows, asks where; a notice says where the file went. The document is
// exported as the writer has it, unsaved edits included. Remote images are
// left out (their alt text shown) unless asked for each time: loading them
// tells the servers they are on that the document was exported.
import type { App } from "../main";
import type { ExportFormat } from "../bindings/ExportFormat";
import type { ExportOut } from "../bindings/ExportOut";
import { h } from "../dom";
import { closeModal, modal, toast } from "../views/modal";

/** What the writer chooses. */
export interface ExportChoice {
  format: ExportFormat;
  /** HTML and PDF: show the pending proposals and open threads (CriticMarkup always does). */
  withReview: boolean;
}

export const FORMATS: { format: ExportFormat; label: string; detail: string }[] = [
  { format: "html", label: "HTML page", detail: "One self-contained file, typeset for reading; opens in any browser." },
  { format: "pdf", label: "PDF", detail: "Printed by the app, ready to share or print." },
  {
    format: "critic",
    label: "Markdown with CriticMarkup",
    detail: "The text with each proposal as {~~old~>new~~} and each thread as {==text==}{>>comment<<}, for other review tools.",
  },
];

const KEY = "cowriting.export";

/** The last choice (HTML, clean, at first). */
export function loadChoice(storage: Pick<Storage, "getItem"> = localStorage): ExportChoice {
  try {
    const c = JSON.parse(storage.getItem(KEY) ?? "null") as Partial<ExportChoice> | null;
    const format = FORMATS.find((f) => f.format === c?.format)?.format ?? "html";
    return { format, withReview: c?.withReview === true };
  } catch {
    return { format: "html", withReview: false };
  }
}

export function saveChoice(c: ExportChoice, storage: Pick<Storage, "setItem"> = localStorage) {
  storage.setItem(KEY, JSON.stringify(c));
}

const some = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** The notice after an export: what went where ("Exported essay.md as PDF, with 2 proposals and 1 thread: /home/…/essay.pdf"). */
export function exportedMessage(out: ExportOut): string {
  const label = FORMATS.find((f) => f.format === out.format)?.label ?? out.format;
  const parts = [out.proposals ? some(out.proposals, "proposal") : "", out.threads ? some(out.threads, "thread") : ""].filter(Boolean);
  const review = parts.length ? `, with ${parts.join(" and ")}` : "";
  return `Exported ${out.document} as ${label}${review}: ${out.path}`;
}

/** Export… `path` (the active document by default): choose, then the Save dialog. */
export async function exportDocument(app: App, path: string | null = app.active) {
  if (!path) return toast("Open a document first.");
  // The core exports the document as the writer has it: an open one.
  if (!app.docs.has(path)) await app.open(path);
  if (!app.docs.has(path)) return;
  const choice = loadChoice();
  const radios = FORMATS.map((f) => {
    const input = h("input", { type: "radio", name: "export-format", value: f.format, class: "export-format" });
    input.checked = f.format === choice.format;
    return h("label", { class: "export-option" }, input, h("span", { class: "export-label", text: f.label }), h("span", { class: "export-detail", text: f.detail }));
  });
  const review = h("input", { type: "checkbox", class: "export-review" });
  review.checked = choice.withReview;
  const reviewLabel = h("label", { class: "export-review-row" }, review, h("span", { text: "Include proposals and comments" }));
  const remote = h("input", { type: "checkbox", class: "export-remote-images" });
  const remoteLabel = h(
    "label",
    { class: "export-review-row", title: "Images on other servers: loading them tells those servers the document was exported, and when. Off: each shows as its description." },
    remote,
    h("span", { text: "Load remote images (contacts the servers they are on)" }),
  );
  const format = () => (document.querySelector<HTMLInputElement>(".export-format:checked")?.value ?? "html") as ExportFormat;
  const sync = () => {
    // CriticMarkup is the review: always included.
    const critic = format() === "critic";
    review.disabled = critic;
    reviewLabel.classList.toggle("disabled", critic);
    remote.disabled = critic;
    remoteLabel.classList.toggle("disabled", critic);
    if (critic) review.checked = true;
    else review.checked = review.dataset.chosen ? review.dataset.chosen === "1" : choice.withReview;
  };
  review.addEventListener("change", () => (review.dataset.chosen = review.checked ? "1" : "0"));
  const ok = h("button", { class: "export-ok", text: "Export…" });
  const cancel = h("button", { class: "modal-cancel", text: "Cancel" });
  const form = h("form", { class: "export-dialog" }, h("fieldset", { class: "export-formats" }, ...radios), reviewLabel, remoteLabel, h("div", { class: "modal-actions" }, ok, cancel));
  form.addEventListener("change", sync);
  form.addEventListener("submit", (e) => e.preventDefault());
  cancel.addEventListener("click", () => closeModal(app));
  ok.addEventListener("click", () => {
    const chosen: ExportChoice = { format: format(), withReview: format() === "critic" ? choice.withReview : review.checked };
    saveChoice(chosen);
    closeModal(app);
    void run(app, path, chosen, chosen.format !== "critic" && remote.checked);
  });
  modal(app, `Export ${path}`, form, []);
  sync();
  ok.focus();
}

async function run(app: App, path: string, c: ExportChoice, remoteImages: boolean) {
  // In order with the edits still on their way to the core.
  const out = await app.run(() => app.queue.then(() => app.backend.exportDocument(path, c.format, c.format === "critic" || c.withReview, remoteImages)));
  if (out) toast(exportedMessage(out), "info", 8000);
}
