// Autosave's timing (ui/src/autosave.ts) with fake timers: after a pause (each
// change restarts the wait), on a focus change, never two saves at once, and
// nothing when off.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AutoSaver, parseDelay } from "../src/autosave";

function saver() {
  const calls: { resolve: () => void }[] = [];
  const s = new AutoSaver(
    () =>
      new Promise<void>((resolve) => {
        calls.push({ resolve });
      }),
  );
  return { s, calls };
}

/** Let the saver's promise chain run (no time passes). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("autosave", () => {
  it("after a delay: saves once the writer pauses, each change restarting the wait", async () => {
    const { s, calls } = saver();
    s.configure("after_delay", 2);
    s.changed();
    vi.advanceTimersByTime(1500);
    s.changed();
    vi.advanceTimersByTime(1500);
    expect(calls.length, "still typing: not yet").toBe(0);
    vi.advanceTimersByTime(500);
    await settle();
    expect(calls.length).toBe(1);
    calls[0].resolve();
    await settle();
    vi.advanceTimersByTime(10_000);
    await settle();
    expect(calls.length, "nothing changed since").toBe(1);
    s.focusChanged();
    await settle();
    expect(calls.length, "a focus change is not a pause").toBe(1);
  });

  it("on focus change: saves at once, never on a pause", async () => {
    const { s, calls } = saver();
    s.configure("on_focus_change", 1);
    s.changed();
    vi.advanceTimersByTime(60_000);
    await settle();
    expect(calls.length).toBe(0);
    s.focusChanged();
    await settle();
    expect(calls.length).toBe(1);
  });

  it("off: never", async () => {
    const { s, calls } = saver();
    s.changed();
    s.focusChanged();
    vi.advanceTimersByTime(60_000);
    await settle();
    expect(calls.length).toBe(0);
    // Turned off while a pause was being waited out: that save does not happen.
    s.configure("after_delay", 1);
    s.changed();
    expect(s.pending).toBe(true);
    s.configure("off", 1);
    vi.advanceTimersByTime(60_000);
    await settle();
    expect(calls.length).toBe(0);
  });

  it("never runs two saves at once: one asked for meanwhile runs after, once", async () => {
    const { s, calls } = saver();
    s.configure("on_focus_change", 1);
    s.focusChanged();
    await settle();
    expect(calls.length).toBe(1);
    s.focusChanged();
    s.focusChanged();
    await settle();
    expect(calls.length, "waits for the running save").toBe(1);
    calls[0].resolve();
    await settle();
    expect(calls.length, "then one more").toBe(2);
    calls[1].resolve();
    await settle();
    expect(calls.length).toBe(2);
  });

  it("a failed save does not stop the next", async () => {
    let n = 0;
    const s = new AutoSaver(async () => {
      n += 1;
      if (n === 1) throw new Error("disk full");
    });
    s.configure("on_focus_change", 1);
    await s.now();
    await s.now();
    expect(n).toBe(2);
  });

  it("reads the pause as whole seconds from 1 to 3600", () => {
    expect(parseDelay(" 5 ")).toBe(5);
    expect(parseDelay("0")).toBeNull();
    expect(parseDelay("1.5")).toBeNull();
    expect(parseDelay("3601")).toBeNull();
    expect(parseDelay("")).toBeNull();
  });
});
