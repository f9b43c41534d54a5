// Accept asks once before applying a proposal at a likely place: its exact
// words were found only where the text around them changed (the anchoring's
// fallback evidence, `ProposalDto.likelyPlace`), so the place is the writer's
// to confirm. A yes is told to the core, which keeps such a proposal stale
// otherwise; a misapplied edit costs more than a question.
import type { ProposalDto } from "../bindings/ProposalDto";
import { errorMessage, type Backend } from "../backend";
import { visibleText } from "../hidden";
import { ask, toast, type ModalHost } from "./modal";

/** The question for `p`, naming the place by its line and the words found there. */
export function placeQuestion(p: ProposalDto): string {
  const where = p.line === null ? "" : ` on line ${p.line}`;
  return `The words this proposal changes, “${visibleText(p.target)}”, were found${where} only where the text around them changed since it was made. Check that this is the place, then accept it here?`;
}

/** Ask before accepting `p` of `path` at its likely place; true to go on (and for any other proposal). */
export async function confirmLikelyPlace(app: ModalHost & { readonly backend: Pick<Backend, "confirmPlace"> }, path: string | null, p: ProposalDto | undefined): Promise<boolean> {
  if (!p?.likelyPlace || !path) return true;
  if ((await ask(placeQuestion(p), ["Accept here", "Cancel"], app)) !== "Accept here") return false;
  try {
    await app.backend.confirmPlace(path, [p.id]);
    return true;
  } catch (e) {
    toast(errorMessage(e), "error");
    return false;
  }
}
