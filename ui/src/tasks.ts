// The chips above the status bar for producer runs (Ask Claude…, Check
// document): started, ticking, cancelled, finished. A chip never takes the
// focus; the writer keeps typing while it runs.
import { elapsed, newJobId } from "./model/jobs";
import { $, h } from "./dom";

/**
 * A producer run shown as a chip above the status bar (Ask Claude…, or Check
 * document running its producers one after the other). It never takes the
 * focus: the writer keeps typing while it runs.
 */
export interface Task {
  id: string;
  kind: "ask" | "check" | "review" | "decide";
  path: string;
  started: number;
  /** The core's job running now (the id `cancelJob` takes), if any. */
  job: string | null;
  cancelled: boolean;
  done: boolean;
  el: HTMLElement;
  label: HTMLElement;
  time: HTMLElement;
  cancel: HTMLButtonElement;
}

export type TaskEnd = "ok" | "info" | "warn" | "error";

export class TaskChips {
  private tasks = new Map<string, Task>();
  private ticker: number | undefined;
  /** What the newest finished task said (the e2e hook reads it). */
  lastMessage: string | null = null;

  constructor(
    /** Ask the core to stop a job (unknown ids are ignored). */
    private cancelJob: (job: string) => Promise<void>,
    /** Give the focus back to the editor. */
    private refocus: () => void,
  ) {}

  /** The running task of the core's job `job`. */
  byJob(job: string): Task | undefined {
    return this.running().find((t) => t.job === job);
  }

  /**
   * The writer switched to the document `path`: a finished run's result
   * belongs to the document it ran on, and is hidden while another one is
   * shown (it shows again with its document, until dismissed or faded).
   * Running ones always show; one that ends while another document is shown
   * shows, named (producers.ts), until the next switch.
   */
  showFor(path: string | null) {
    for (const t of this.tasks.values()) t.el.hidden = t.done && t.path !== path;
  }

  running(): Task[] {
    return [...this.tasks.values()].filter((t) => !t.done);
  }

  /** A chip above the status bar for a run; ticks its elapsed time until it ends. */
  start(kind: Task["kind"], path: string, text: string): Task {
    const id = newJobId(`task-${kind}`);
    const label = h("span", { class: "job-label", text });
    const time = h("span", { class: "job-time", text: elapsed(0), "aria-hidden": "true" });
    const cancel = h("button", { class: "job-cancel", text: "Cancel", title: "Cancel (Esc)" });
    const el = h(
      "div",
      { class: "job job-running", "data-job": id, "data-kind": kind, "data-path": path },
      h("span", { class: "job-spinner", "aria-hidden": "true" }),
      label,
      time,
      cancel,
    );
    const task: Task = { id, kind, path, started: performance.now(), job: null, cancelled: false, done: false, el, label, time, cancel };
    cancel.addEventListener("click", () => this.cancel(task));
    this.tasks.set(id, task);
    $(".jobs").append(el);
    if (this.ticker === undefined) this.ticker = window.setInterval(() => this.tick(), 500);
    return task;
  }

  tick() {
    const now = performance.now();
    const running = this.running();
    for (const t of running) t.time.textContent = elapsed(now - t.started);
    if (!running.length) {
      window.clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  /** Show how a task ended in its chip (a success fades after a while; a problem stays until dismissed). */
  finish(task: Task, message: string, end: TaskEnd) {
    task.done = true;
    task.job = null;
    this.lastMessage = message;
    const close = h("button", { class: "job-dismiss", text: "×", title: "Dismiss", "aria-label": "Dismiss" });
    const refocus = task.el.contains(document.activeElement);
    task.el.className = `job job-${end}`;
    task.el.replaceChildren(h("span", { class: "job-message", text: message }), close);
    const remove = () => {
      task.el.remove();
      this.tasks.delete(task.id);
    };
    close.addEventListener("click", () => {
      remove();
      this.refocus();
    });
    if (end === "ok" || end === "info") window.setTimeout(remove, 12_000);
    if (refocus) this.refocus();
    this.tick();
  }

  /**
   * Stop a task: the core's job is told to stop (again every half second until
   * it answers: a cancel sent before the core registered the job is lost), and
   * Check document runs no further producer.
   */
  cancel(task: Task) {
    if (task.done || task.cancelled) return;
    task.cancelled = true;
    task.label.textContent = "Cancelling…";
    task.cancel.disabled = true;
    const job = task.job;
    if (!job) return;
    const send = () => void this.cancelJob(job).catch(() => undefined);
    send();
    const again = window.setInterval(() => (task.job === job && !task.done ? send() : window.clearInterval(again)), 500);
  }
}

/** How long a decision may take before its chip shows (ms). */
export const SLOW_DECISION_MS = 1000;

/**
 * A batch decision in the document shown (Accept all, Reject all, a turn) that takes longer than
 * {@link SLOW_DECISION_MS}: a chip says what is being decided until the core
 * answers, then how it ended. It cannot be cancelled (the core decides the
 * batch as one transaction). Quick ones and single decisions show nothing.
 */
export async function batchProgress(tasks: TaskChips, verb: "Accepted" | "Rejected", n: number, path: string | null, op: Promise<boolean>): Promise<boolean> {
  if (n < 2 || !path) return op;
  let chip: Task | null = null;
  const slow = window.setTimeout(() => {
    chip = tasks.start("decide", path, `${verb === "Accepted" ? "Accepting" : "Rejecting"} ${n.toLocaleString("en-US")} proposals…`);
    chip.cancel.hidden = true;
  }, SLOW_DECISION_MS);
  let ok = false;
  try {
    ok = await op;
  } finally {
    window.clearTimeout(slow);
    // One transaction: when it did not go through, nothing was decided (the error says why).
    if (chip) tasks.finish(chip, ok ? `${verb} ${n.toLocaleString("en-US")} proposals` : `Nothing ${verb.toLowerCase()}`, ok ? "ok" : "warn");
  }
  return ok;
}
