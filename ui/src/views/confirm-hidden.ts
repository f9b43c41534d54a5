// Accept asks once before it inserts characters a reader cannot see, that
// reorder the text around them, or that pass for Latin letters where they land
// (a Cyrillic "а" in "pаypal") (`ProposalDto.hidden`, found by the core): the
// question names them by code point; a yes is told to the core, which refuses
// such an accept otherwise (`needs_confirmation`).
import type { ProposalDto } from "../bindings/ProposalDto";
import { errorMessage, type Backend } from "../backend";
import { ask, toast, type ModalHost } from "./modal";

/** The question for `proposals` (those with hidden characters); null when none has any. */
export function hiddenQuestion(proposals: ProposalDto[]): string | null {
  const flagged = proposals.filter((p) => p.hidden.length);
  if (!flagged.length) return null;
  const names = new Map<string, string>();
  for (const p of flagged) for (const c of p.hidden) names.set(c.codePoint, `${c.codePoint} ${c.name}`);
  const which = flagged.length === 1 ? "This proposal inserts" : `${flagged.length} of these proposals insert`;
  return `${which} characters you cannot see, that reorder the text around them, or that pass for other letters: ${[...names.values()].join(", ")}. The text may not read as shown. Accept anyway?`;
}

/** Ask before accepting `proposals` of `path` when any would insert hidden characters; true to go on. */
export async function confirmHiddenChars(app: ModalHost & { readonly backend: Pick<Backend, "confirmHidden"> }, path: string | null, proposals: ProposalDto[]): Promise<boolean> {
  const question = hiddenQuestion(proposals);
  if (!question || !path) return true;
  if ((await ask(question, ["Accept anyway", "Cancel"], app)) !== "Accept anyway") return false;
  try {
    await app.backend.confirmHidden(path, proposals.filter((p) => p.hidden.length).map((p) => p.id));
    return true;
  } catch (e) {
    toast(errorMessage(e), "error");
    return false;
  }
}

/** The mark on a proposal that would insert hidden characters (card, Inbox row, inline ✓); null for the rest. */
export function hiddenFlag(p: ProposalDto): HTMLElement | null {
  if (!p.hidden.length) return null;
  const el = document.createElement("span");
  el.className = "hidden-flag";
  el.textContent = `⚠ hidden ${p.hidden.map((c) => c.codePoint).join(" ")}`;
  el.title = `Accept would insert characters you cannot see, that reorder the text, or that pass for other letters: ${p.hidden.map((c) => `${c.codePoint} ${c.name}`).join(", ")}. Accept asks first.`;
  return el;
}
