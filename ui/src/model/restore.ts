// What the restore notice says after a crash (hot exit): one line per document
// brought back from the last session's backups, and per backup that could not be.
import type { RestoreReport } from "../bindings/RestoreReport";
import type { RestoredDto } from "../bindings/RestoredDto";
import type { UnrestoredDto } from "../bindings/UnrestoredDto";

const sentence = (s: string) => s.replace(/[.\s]+$/, "");

/** "Restored unsaved changes to essay.md from the last session (2 decisions)." */
export function restoredLine(r: RestoredDto): string {
  const n = r.decisions;
  const decisions = n > 0 ? ` (${n} decision${n === 1 ? "" : "s"})` : "";
  const changed = r.fileChanged ? "; the file changed on disk since, and saving replaces that version" : "";
  return `Restored unsaved changes to ${r.path} from the last session${decisions}${changed}.`;
}

/** A backup that could not be restored is never deleted: say where it is. */
export function unrestoredLine(u: UnrestoredDto): string {
  const what = u.path ? `The unsaved changes to ${u.path} from the last session` : "A backup from the last session";
  const kept = u.keptAs ? ` It was kept as ${u.keptAs}.` : " It was left in place.";
  return `${what} could not be restored: ${sentence(u.message)}.${kept}`;
}

/** Every line of the notice, restored documents first; empty when there is nothing to say. */
export function restoreNotice(report: RestoreReport): string[] {
  return [...report.restored.map(restoredLine), ...report.unrestored.map(unrestoredLine)];
}
