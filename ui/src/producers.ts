// Producer runs on a document (Ask Claude…'s and Check document's): started in
// order with the writer's edits, shown as task chips, and the core's review
// fetched once they filed. The writer keeps typing meanwhile.
import type { App } from "./main";
import type { ErrorInfo } from "./bindings/ErrorInfo";
import type { JobProgress } from "./bindings/JobProgress";
import { errorMessage, isErrorInfo } from "./backend";
import { refreshReview } from "./edit-sync";
import { checkSummary, filingSummary, fromCheck, newJobId, type Outcome } from "./model/jobs";
import type { Task } from "./tasks";
import { toast } from "./views/modal";
import type { Utf16Offset } from "./bindings/Utf16Offset";

const delay = (ms: number) => new Promise<void>((r) => window.setTimeout(r, ms));

function toErrorInfo(e: unknown): ErrorInfo {
  return isErrorInfo(e) ? e : { code: "producer", message: errorMessage(e) };
}

/**
 * Start a core job for `task` in order with the writer's edits (the core must
 * have every edit made before, and none made after, when it takes its copy),
 * holding the next edits a moment so the core has taken it before they
 * arrive. The run, or nothing when the task was cancelled before it started.
 */
export async function startInOrder<T>(app: App, task: Task, job: string, start: (job: string) => Promise<T>): Promise<{ run?: Promise<T> }> {
  // In an object: an async function returning the run itself would wait for it.
  const started: { run?: Promise<T> } = {};
  await app.enqueue(async () => {
    if (task.cancelled) return;
    task.job = job;
    const run = start(job);
    started.run = run;
    await Promise.race([run.then(() => undefined, () => undefined), delay(150)]);
  });
  return started;
}

/**
 * Run one producer for `task`. The run starts in order with the writer's
 * edits (the core must have every edit made before, and none made after,
 * when it reads the selection), and the next edits wait a moment so the core
 * has read it before they arrive. The writer keeps typing meanwhile.
 */
export async function runProducer(
  app: App,
  task: Task,
  producer: string,
  from: Utf16Offset | null,
  to: Utf16Offset | null,
  instruction: string | null,
): Promise<Outcome> {
  const { run } = await startInOrder(app, task, newJobId(producer), (job) =>
    app.backend.runProducer(task.path, producer, from, to, instruction, job),
  );
  if (!run) return { producer, notRun: true };
  try {
    return { producer, filing: filingSummary(await run) };
  } catch (e) {
    return { producer, error: toErrorInfo(e) };
  } finally {
    task.job = null;
  }
}

/** After a run filed: show the core's review (fetched in order with the edits, so positions match the view). */
export async function afterFiling(app: App, path: string) {
  // The review carries the document's tree entry; a document not open changed
  // on disk, which the watcher reports (`entryChanged`).
  if (app.docs.has(path)) await refreshReview(app, path);
}

/**
 * Check document: the core runs every enabled producer on the active document in
 * turn (one failing does not stop the rest) and says how each ended; its
 * `job-progress` events name the one running.
 */
export async function checkDocument(app: App) {
  const path = app.active;
  if (!path) {
    toast("Open a document to check first.");
    return;
  }
  if (app.tasks.running().some((t) => t.kind === "check" && t.path === path)) {
    toast(`${path} is being checked already.`);
    return;
  }
  const task = app.tasks.start("check", path, "Checking…");
  const { run } = await startInOrder(app, task, newJobId("check"), (job) => app.backend.checkDocument(path, job));
  if (!run) {
    app.tasks.finish(task, "Cancelled; nothing was checked.", "info");
    return;
  }
  let outcomes: Outcome[];
  try {
    outcomes = (await run).map(fromCheck);
  } catch (e) {
    app.tasks.finish(task, `The check could not run: ${errorMessage(e)}`, "error");
    return;
  } finally {
    task.job = null;
  }
  if (!outcomes.length) {
    app.tasks.finish(task, "No checkers are enabled: choose them in Settings… (Ctrl+,).", "info");
    return;
  }
  for (const o of outcomes) if ("filing" in o) app.lastFiling = o.filing;
  const ok = outcomes.filter((o) => "filing" in o).length;
  const failed = outcomes.filter((o) => "error" in o && o.error.code !== "cancelled").length;
  if (ok) await afterFiling(app, path);
  const prefix = app.active === path ? "" : `${path}: `;
  app.tasks.finish(task, prefix + checkSummary(outcomes), failed ? (ok ? "warn" : "error") : task.cancelled ? "info" : "ok");
}

/** A running check moved on to another producer. */
export function onJobProgress(app: App, p: JobProgress) {
  const task = app.tasks.byJob(p.job);
  if (!task || task.cancelled) return;
  task.label.textContent = `Checking with ${p.producer}…`;
  task.el.dataset.producer = p.producer;
}
