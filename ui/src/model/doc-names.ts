// Names of new documents and folders as the writer types them: what the core
// would refuse, said at once while typing (the core's rules, in
// crates/cowriting-workspace/src/documents.rs, stay the judge); the name a
// document is saved under (`.md` added); the part of a name to select for a
// rename; the tabs' order after one.

/** The endings of the files cowriting opens (the core's `DOCUMENT_EXTENSIONS`). */
export const DOCUMENT_ENDINGS = [".md", ".markdown", ".mdx", ".txt", ".rst", ".adoc"];

export function isDocumentName(name: string): boolean {
  const lower = name.toLowerCase();
  return DOCUMENT_ENDINGS.some((e) => lower.endsWith(e));
}

/** The segments of a typed path: trimmed, `\` read as `/`, empty and `.` segments dropped. */
function segments(raw: string): string[] {
  return raw
    .trim()
    .replace(/\\/g, "/")
    .split("/")
    .filter((s) => s !== "" && s !== ".");
}

/** The document a typed name makes: normalized, `.md` added when it does not end like a document. */
export function documentName(raw: string): string {
  const parts = segments(raw);
  if (!parts.length) return "";
  const last = parts[parts.length - 1];
  if (!isDocumentName(last)) parts[parts.length - 1] = `${last}.md`;
  return parts.join("/");
}

/** The folder a typed name makes, normalized. */
export function folderName(raw: string): string {
  return segments(raw).join("/");
}

// Characters a writer cannot see in a name: control characters (line breaks,
// tabs), line and paragraph separators, bidirectional marks and overrides, the BOM.
const HIDDEN_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

/** Why the core would refuse `raw` as a new name (null: it would not). */
export function nameProblem(raw: string): string | null {
  const t = raw.trim();
  if (!t) return "Type a name.";
  if (t.startsWith("/") || /^[A-Za-z]:/.test(t)) return "Give a name inside the workspace, not an absolute path.";
  if (HIDDEN_CHARS.test(t)) return "A name cannot hold line breaks, tabs or other invisible characters.";
  for (const s of segments(t)) {
    if (s === "..") return "'..' is not allowed: names stay inside the workspace.";
    if (s.startsWith(".")) return "A name starting with '.' is hidden and would not be listed.";
    if (s !== s.trim()) return "A name cannot start or end with a blank.";
    if (s === "node_modules") return "node_modules is not listed; choose another name.";
    if (new TextEncoder().encode(s).length > 255) return "A name is at most 255 bytes.";
  }
  if (!segments(t).length) return "Type a name.";
  return null;
}

/** The range of `path` to select when renaming it: its name without the folder and the ending. */
export function stemRange(path: string): [number, number] {
  const start = path.lastIndexOf("/") + 1;
  const dot = path.lastIndexOf(".");
  return [start, dot > start ? dot : path.length];
}

/** The tabs' order with `from` renamed `to`, in its place. */
export function renamedOrder(order: string[], from: string, to: string): string[] {
  return order.map((p) => (p === from ? to : p));
}
