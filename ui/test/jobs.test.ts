// Producer runs' words and settings (model/jobs.ts): job ids that never repeat,
// the time a run has taken, a snippet on one line, what Claude proposed, an
// error without the producer's prefix, a check summed up producer by
// producer, a filing summary without the review; the enabled producers' order
// and the timeout read as positive whole seconds.
import { describe, expect, it } from "vitest";
import {
  askResult,
  checkLine,
  checkSummary,
  elapsed,
  errorText,
  filingSummary,
  newJobId,
  nextEnabled,
  parseTimeout,
  snippet,
  stripProducer,
  type FilingSummary,
} from "../src/model/jobs";

const filing = (over: Partial<FilingSummary> = {}): FilingSummary => ({
  producer: "claude",
  turnId: "turn-1",
  filed: 0,
  skipped: [],
  migrated: 0,
  warnings: [],
  ...over,
});

describe("newJobId", () => {
  it("never repeats, even in the same millisecond", () => {
    const ids = new Set(Array.from({ length: 200 }, () => newJobId("claude", 1000)));
    expect(ids.size).toBe(200);
    expect([...ids][0]).toMatch(/^claude-rs-\d+-[0-9a-z]+$/);
  });
});

describe("elapsed", () => {
  it("counts seconds, then minutes", () => {
    expect(elapsed(0)).toBe("0 s");
    expect(elapsed(999)).toBe("0 s");
    expect(elapsed(12_400)).toBe("12 s");
    expect(elapsed(65_000)).toBe("1 min 05 s");
    expect(elapsed(3_725_000)).toBe("1 h 02 min");
    expect(elapsed(-5)).toBe("0 s");
  });
});

describe("snippet", () => {
  it("keeps short text on one line and cuts long text with an ellipsis", () => {
    expect(snippet("  a\n\nb  c ")).toBe("a b c");
    const long = "word ".repeat(40);
    const s = snippet(long, 20);
    expect(s.endsWith("…")).toBe(true);
    expect(Array.from(s).length).toBeLessThanOrEqual(20);
    expect(snippet("😀".repeat(10), 5)).toBe("😀😀😀😀…");
  });
});

describe("messages", () => {
  it("says what Claude proposed", () => {
    expect(askResult(filing({ filed: 1 }))).toBe("Claude proposed 1 edit");
    expect(askResult(filing({ filed: 3, migrated: 3 }))).toBe("Claude proposed 3 edits (3 moved with your edits)");
    expect(askResult(filing())).toBe("Claude had no changes");
    expect(askResult(filing({ skipped: ["the reply changed nothing"] }))).toBe("Claude had no changes: the reply changed nothing");
    expect(askResult(filing({ filed: 2, skipped: ["a", "b"], warnings: ["ledger locked"] }))).toBe(
      "Claude proposed 2 edits; not filed: a; b — warning: ledger locked",
    );
  });
  it("shows errors without the producer prefix", () => {
    expect(stripProducer("claude: timed out", "claude")).toBe("timed out");
    expect(stripProducer("harper: x", "claude")).toBe("harper: x");
    expect(errorText({ code: "producer", message: "claude: the reply was not JSON" }, "claude")).toBe("The reply was not JSON");
    expect(errorText({ code: "cancelled", message: "claude was cancelled; nothing was filed" }, "claude")).toBe(
      "Claude was cancelled; nothing was filed",
    );
    expect(errorText({ code: "io", message: "" }, "claude")).toBe("claude failed (io)");
  });
  it("summarizes a check, one producer after the other", () => {
    const summary = checkSummary([
      { producer: "harper", filing: filing({ producer: "harper", filed: 3 }) },
      { producer: "vale", error: { code: "not_installed", message: 'vale: "vale" is not installed (not found on PATH)' } },
      { producer: "lint", error: { code: "producer", message: "lint: exit status 2" } },
      { producer: "slow", error: { code: "timed_out", message: "slow timed out after 60 s; nothing was filed" } },
      { producer: "later", notRun: true },
    ]);
    expect(summary).toBe(
      'harper: 3 suggestions, vale: not installed, lint: failed (exit status 2), ' +
        "slow: timed out (slow timed out after 60 s; nothing was filed), later: not run",
    );
    expect(checkLine({ producer: "harper", filing: filing({ filed: 1, skipped: ["x", "y"] }) })).toBe("harper: 1 suggestion (2 not filed)");
    expect(checkLine({ producer: "harper", filing: filing() })).toBe("harper: no suggestions");
    expect(checkLine({ producer: "vale", error: { code: "cancelled", message: "vale was cancelled; nothing was filed" } })).toBe("vale: cancelled");
    expect(checkSummary([])).toBe("No producers are enabled");
  });
  it("drops the review from a filing summary", () => {
    const full = { ...filing({ filed: 2 }), review: { revision: 1, proposals: [], threads: [], spans: [], sidecarError: null, canUndo: false, canRedo: false, entry: { path: "", proposals: 0, openThreads: 0, sidecarError: false } } };
    expect(filingSummary(full)).toEqual(filing({ filed: 2 }));
    expect("review" in filingSummary(full)).toBe(false);
  });
});

describe("settings", () => {
  it("keeps the enabled order, appends newly checked producers, drops unchecked ones", () => {
    expect(nextEnabled(["vale", "harper"], ["harper", "vale", "ext"], new Set(["harper", "vale", "ext"]))).toEqual(["vale", "harper", "ext"]);
    expect(nextEnabled(["vale", "harper"], ["harper", "vale"], new Set(["harper"]))).toEqual(["harper"]);
    expect(nextEnabled([], ["harper", "vale"], new Set())).toEqual([]);
    expect(nextEnabled(["harper", "harper"], ["harper"], new Set(["harper"]))).toEqual(["harper"]);
  });
  it("reads the timeout as positive whole seconds", () => {
    expect(parseTimeout(" 120 ")).toBe(120);
    expect(parseTimeout("0")).toBeNull();
    expect(parseTimeout("1.5")).toBeNull();
    expect(parseTimeout("")).toBeNull();
    expect(parseTimeout("-3")).toBeNull();
    expect(parseTimeout("99999999999")).toBeNull();
  });
});
