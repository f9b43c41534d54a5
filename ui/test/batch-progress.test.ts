// A batch decision that takes over a second shows a chip (tasks.ts
// batchProgress): "Accepting 1,000 proposals…" with no Cancel (the core
// decides the batch as one transaction), then how it ended; a quick batch
// and a single decision show nothing; a batch that did not go through says
// nothing was decided.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SLOW_DECISION_MS, TaskChips, batchProgress } from "../src/tasks";

function deferred() {
  let resolve!: (ok: boolean) => void;
  const promise = new Promise<boolean>((r) => (resolve = r));
  return { promise, resolve };
}
const chips = () => Array.from(document.querySelectorAll<HTMLElement>(".jobs .job"));

describe("batchProgress", () => {
  let tasks: TaskChips;
  beforeEach(() => {
    vi.useFakeTimers();
    document.body.innerHTML = '<div class="jobs"></div>';
    tasks = new TaskChips(
      async () => undefined,
      () => undefined,
    );
  });
  afterEach(() => vi.useRealTimers());

  it("shows a chip once a batch has taken a second, then how it ended", async () => {
    const op = deferred();
    const done = batchProgress(tasks, "Accepted", 1000, "essay.md", op.promise);
    await vi.advanceTimersByTimeAsync(SLOW_DECISION_MS - 1);
    expect(chips()).toEqual([]);
    await vi.advanceTimersByTimeAsync(2);
    expect(chips().map((c) => c.querySelector(".job-label")?.textContent)).toEqual(["Accepting 1,000 proposals…"]);
    expect(chips()[0].dataset.kind).toBe("decide");
    expect(chips()[0].querySelector<HTMLButtonElement>(".job-cancel")!.hidden).toBe(true);
    op.resolve(true);
    expect(await done).toBe(true);
    expect(chips().map((c) => c.textContent)).toEqual(["Accepted 1,000 proposals×"]);
    expect(chips()[0].classList.contains("job-ok")).toBe(true);
  });

  it("shows nothing for a batch quicker than a second, nor for one decision", async () => {
    const quick = deferred();
    const a = batchProgress(tasks, "Rejected", 50, "essay.md", quick.promise);
    await vi.advanceTimersByTimeAsync(SLOW_DECISION_MS / 2);
    quick.resolve(true);
    expect(await a).toBe(true);
    const one = deferred();
    const b = batchProgress(tasks, "Accepted", 1, "essay.md", one.promise);
    await vi.advanceTimersByTimeAsync(SLOW_DECISION_MS * 3);
    one.resolve(true);
    expect(await b).toBe(true);
    await vi.advanceTimersByTimeAsync(SLOW_DECISION_MS * 3);
    expect(chips()).toEqual([]);
  });

  it("says nothing was decided when the batch did not go through", async () => {
    const op = deferred();
    const done = batchProgress(tasks, "Rejected", 300, "essay.md", op.promise);
    await vi.advanceTimersByTimeAsync(SLOW_DECISION_MS + 1);
    expect(chips()[0].querySelector(".job-label")?.textContent).toBe("Rejecting 300 proposals…");
    op.resolve(false);
    expect(await done).toBe(false);
    expect(chips()[0].querySelector(".job-message")?.textContent).toBe("Nothing rejected");
    expect(chips()[0].classList.contains("job-warn")).toBe(true);
  });
});
