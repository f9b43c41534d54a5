// Who wrote this document: the core's authorship report (`cowriting authorship`,
// of the open buffer) as a dialog — characters and words by author (you, each
// agent with its model, unknown: text from before tracking), a bar for the whole
// document and one per section, the decisions made — with the text tinted by
// author on demand (Claude tint) and the report copied as a statement a writer
// can hand over with a submission.
import type { App } from "../main";
import type { AuthorShare } from "../bindings/AuthorShare";
import type { AuthorshipOut } from "../bindings/AuthorshipOut";
import { errorMessage } from "../backend";
import { h } from "../dom";
import { visibleText } from "../hidden";
import { plural } from "../model/jobs";
import { modal, toast } from "../views/modal";
import { tinted, toggleTint } from "../views/status";

/** An author as the report names them: you, an agent with its model, or unknown. */
export function shareLabel(a: AuthorShare, myId: string | null): string {
  if (a.kind === "unknown") return "Unknown (before tracking)";
  const who = a.name && a.id ? `${a.name} <${a.id}>` : (a.name ?? a.id);
  if (a.kind === "human") return a.id === myId ? `You (${who})` : (who ?? "A writer");
  return `${who ?? "An agent"}${a.model ? ` (${a.model})` : ""}`;
}

const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);

/**
 * The decisions, said so that none logged is not read as "the writer decided
 * nothing": agent text with no decision logged was accepted before the log
 * was kept, or in a tool that does not keep it (VS Code).
 */
export function decisionsLine(r: AuthorshipOut): string {
  const d = r.decisions;
  if (d.accepted + d.changed + d.rejected === 0) {
    const agentText = r.byAuthor.some((a) => a.kind === "agent" && a.chars > 0);
    return agentText
      ? "No decisions on proposals are in the workspace's decision log: the agents' text here was accepted before it was kept, or in a tool that does not keep it."
      : "No decisions on proposals are in the workspace's decision log.";
  }
  return `Proposals decided by the writer: ${d.accepted} accepted, ${d.changed} accepted with changes, ${d.rejected} rejected.`;
}

/** The report as plain text: a disclosure statement to copy. */
export function statement(r: AuthorshipOut, myId: string | null): string {
  const line = (a: AuthorShare, total: number) => `- ${shareLabel(a, myId)}: ${percent(a.chars, total)} % (${plural(a.chars, "character")}, ${plural(a.words, "word")})`;
  const out = [`Authorship of ${r.document}: ${plural(r.total, "character")}, ${plural(r.words, "word")}.`, ...r.byAuthor.map((a) => line(a, r.total))];
  out.push(decisionsLine(r));
  for (const s of r.sections) {
    if (!s.total) continue;
    out.push("", `${s.heading ?? "(before the first heading)"}:`, ...s.byAuthor.map((a) => line(a, s.total)));
  }
  return out.join("\n") + "\n";
}

/** A stacked bar: one segment per author, its width their share, named for a screen reader. */
function bar(shares: AuthorShare[], total: number, myId: string | null, kinds: Map<string, number>): HTMLElement {
  const label = shares.map((a) => `${shareLabel(a, myId)} ${percent(a.chars, total)} %`).join(", ");
  const el = h("div", { class: "au-bar", role: "img", "aria-label": label || "empty", title: label });
  for (const a of shares) {
    const key = `${a.kind}:${a.id ?? ""}:${a.model ?? ""}`;
    if (!kinds.has(key)) kinds.set(key, kinds.size);
    const seg = h("span", { class: `au-seg au-${a.kind} au-c${kinds.get(key)! % 6}` });
    seg.style.width = `${percent(a.chars, total)}%`;
    el.append(seg);
  }
  return el;
}

/** The report of `path` (opened first if it is not the active document). */
export async function openAuthorship(app: App, path: string | null = app.active) {
  if (!path) return toast("Open a document first.");
  if (path !== app.active) await app.open(path);
  let r: AuthorshipOut;
  try {
    r = await app.backend.authorship(path);
  } catch (e) {
    return toast(errorMessage(e), "error");
  }
  const myId = app.me?.id ?? null;
  const kinds = new Map<string, number>();
  const body = h("div", { class: "au" });
  body.append(h("p", { class: "au-total", text: `${plural(r.total, "character")}, ${plural(r.words, "word")}` }), bar(r.byAuthor, r.total, myId, kinds));
  const legend = h("table", { class: "au-legend" });
  legend.append(h("tr", {}, h("th", { text: "Author" }), h("th", { text: "Share" }), h("th", { text: "Characters" }), h("th", { text: "Words" })));
  for (const a of r.byAuthor) {
    const key = `${a.kind}:${a.id ?? ""}:${a.model ?? ""}`;
    legend.append(
      h(
        "tr",
        {},
        h("td", {}, h("span", { class: `au-swatch au-${a.kind} au-c${(kinds.get(key) ?? 0) % 6}` }), h("span", { text: shareLabel(a, myId) })),
        h("td", { text: `${percent(a.chars, r.total)} %` }),
        h("td", { text: a.chars.toLocaleString() }),
        h("td", { text: a.words.toLocaleString() }),
      ),
    );
  }
  body.append(legend);
  body.append(h("p", { class: "au-decisions", text: decisionsLine(r) }));
  const sections = r.sections.filter((s) => s.total > 0);
  if (sections.length > 1) {
    const list = h("div", { class: "au-sections" });
    for (const s of sections) {
      const name = s.heading === null ? "Before the first heading" : visibleText(s.heading);
      const row = h("button", { class: "au-section", title: `Go to line ${s.line}` }, h("span", { class: "au-section-name", text: name }), bar(s.byAuthor, s.total, myId, kinds));
      row.addEventListener("click", () => {
        const v = app.view;
        if (!v) return;
        const line = v.state.doc.line(Math.min(Math.max(1, s.line), v.state.doc.lines));
        v.dispatch({ selection: { anchor: line.from }, scrollIntoView: true });
      });
      list.append(row);
    }
    body.append(h("h3", { text: "By section" }), list);
  }
  body.append(
    h("p", {
      class: "au-note",
      text: "Counted in characters of the text as it is now: words you accepted from a proposal are the proposer's, what you typed or changed is yours. Accepting with your own changes counts those changes as yours.",
    }),
  );
  modal(
    app,
    `Who wrote ${visibleText(path)}`,
    body,
    [
      [
        "Copy as text",
        () =>
          void navigator.clipboard
            ?.writeText(statement(r, myId))
            .then(() => toast("The authorship statement is on the clipboard."))
            .catch((e) => toast(errorMessage(e), "error")),
      ],
      [tinted() ? "Hide Claude tint" : "Tint Claude's text", () => toggleTint()],
    ],
    "Authorship",
    "Close",
  );
}
