// What a screen reader hears (announce.ts): decisions, undo, arrivals from
// outside batched by producer, the inline buttons' names, and a proposal or a
// thread read out in full as words.
import { describe, expect, it } from "vitest";
import type { ProposalDto } from "../src/bindings/ProposalDto";
import {
  arrivalWords,
  changeWords,
  decisionLabel,
  decisionWords,
  docName,
  pendingCount,
  producerName,
  proposalReading,
  quote,
  staleWords,
  threadReading,
  undoWords,
} from "../src/announce";
import type { ThreadDto } from "../src/bindings/ThreadDto";

function proposal(id: string, target: string, replacement: string, over: Partial<ProposalDto> = {}): ProposalDto {
  return {
    id,
    state: "pending",
    from: 0,
    to: target.length,
    line: 3,
    target,
    replacement,
    current: null,
    reason: null,
    diff: [],
    author: { kind: "agent", id: "claude", label: "claude (claude-sonnet-4-5)", model: "claude-sonnet-4-5", sdk: null, sessionId: null },
    turnId: null,
    instruction: null,
    createdAt: "2026-12-06T00:00:00Z",
    contract: null,
    hidden: [], likelyPlace: false,
    ...over,
  };
}

describe("quote", () => {
  it("quotes, says line breaks and cuts long text", () => {
    expect(quote("begins")).toBe("'begins'");
    expect(quote("one\ntwo")).toBe("'one ⏎ two'");
    expect(quote("a  \t b")).toBe("'a b'");
    expect(quote("x".repeat(100), 10)).toBe(`'${"x".repeat(9)}…'`);
  });
  it("names hidden characters instead of hiding them", () => {
    expect(quote("a\u202Eb")).toBe("'a⟨U+202E⟩b'");
  });
});

describe("names of the inline buttons", () => {
  it("say replace, insert or delete with the words", () => {
    expect(decisionLabel("accept", proposal("a", "begins", "starts"))).toBe("Accept: replace 'begins' with 'starts'");
    expect(decisionLabel("reject", proposal("a", "begins", "starts"))).toBe("Reject: replace 'begins' with 'starts'");
    expect(decisionLabel("accept", proposal("a", "", "very "))).toBe("Accept: insert 'very'");
    expect(decisionLabel("reject", proposal("a", "really ", ""))).toBe("Reject: delete 'really'");
    expect(changeWords({ target: "x", replacement: "y" })).toBe("replace 'x' with 'y'");
  });
});

describe("decisions", () => {
  it("say one proposal by its words and what is left", () => {
    expect(decisionWords("Accepted", [proposal("a", "begins", "starts")], 5, "drafts/essay.md")).toBe("Accepted: 'begins' → 'starts'. 5 pending in essay.md");
    expect(decisionWords("Rejected", [proposal("a", "", "new")], 0, "essay.md")).toBe("Rejected: insert 'new'. None pending in essay.md");
  });
  it("say a batch by its number", () => {
    const ps = [proposal("a", "x", "y"), proposal("b", "p", "q"), proposal("c", "m", "n")];
    expect(decisionWords("Accepted", ps, 2, "essay.md")).toBe("Accepted 3 proposals. 2 pending in essay.md");
  });
  it("count only pending proposals", () => {
    expect(pendingCount([proposal("a", "x", "y"), proposal("b", "x", "y", { state: "stale" })])).toBe(1);
  });
});

describe("stale", () => {
  it("says how many proposals an edit turned stale", () => {
    expect(staleWords(1, "a/essay.md")).toBe("1 proposal in essay.md is now stale: accept is off.");
    expect(staleWords(2, "essay.md")).toBe("2 proposals in essay.md are now stale: accept is off.");
  });
});

describe("undo and redo", () => {
  const a = proposal("a", "begins", "starts");
  const b = proposal("b", "mess", "muddle");
  it("say the proposal an undo brought back", () => {
    expect(undoWords("Undone", [b], [a, b], "essay.md")).toBe("Undone: 'begins' → 'starts' is pending again. 2 pending in essay.md");
  });
  it("say several brought back by their number", () => {
    expect(undoWords("Undone", [], [a, b], "essay.md")).toBe("Undone: 2 proposals pending again. 2 pending in essay.md");
  });
  it("say a redo that decided a proposal again", () => {
    expect(undoWords("Redone", [a, b], [b], "essay.md")).toBe("Redone: 'begins' → 'starts' decided again. 1 pending in essay.md");
  });
  it("say an undo of typing plainly", () => {
    expect(undoWords("Undone", [a], [a], "essay.md")).toBe("Undone. 1 pending in essay.md");
  });
});

describe("arrivals from outside the editor", () => {
  it("batch new proposals by producer", () => {
    const before = [proposal("a", "x", "y")];
    const after = [...before, proposal("b", "p", "q"), proposal("c", "m", "n"), proposal("d", "r", "s")];
    expect(arrivalWords(before, after, "essay.md")).toBe("Claude proposed 3 edits in essay.md.");
  });
  it("name each producer, and proposals gone stale", () => {
    const harper = { proposalId: "pp_1", producer: "harper", producerVersion: "1", provenance: "rule:Spell", category: "spelling", reason: "Misspelt" };
    const before = [proposal("a", "x", "y")];
    const after = [proposal("a", "x", "y", { state: "stale" }), proposal("b", "teh", "the", { contract: harper }), proposal("c", "p", "q")];
    expect(arrivalWords(before, after, "essay.md")).toBe("Harper proposed 1 edit; Claude proposed 1 edit; 1 proposal is now stale in essay.md.");
  });
  it("say nothing when nothing new came", () => {
    const ps = [proposal("a", "x", "y")];
    expect(arrivalWords(ps, ps, "essay.md")).toBeNull();
    // A decision (one fewer) is spoken by the decision, not as an arrival.
    expect(arrivalWords(ps, [], "essay.md")).toBeNull();
  });
  it("name a producer without a contract by its author", () => {
    expect(producerName(proposal("a", "x", "y"))).toBe("Claude");
    expect(docName("a/b/c.md")).toBe("c.md");
  });
});

describe("the accessible review view", () => {
  it("reads a proposal as words: what, where, why, who, which turn, n of m", () => {
    const p = proposal("a", "begins", "starts", {
      turnId: "t_7",
      instruction: "tighten",
      contract: { proposalId: "pp_1", producer: "claude", producerVersion: "1", provenance: "model:x", category: "style", reason: "Shorter" },
    });
    const r = proposalReading(p, 1, 5, "claude (claude-sonnet-4-5)", { before: "The essay ", after: " as a mess." });
    expect(r.heading).toBe("Proposal 2 of 5, pending");
    expect(r.lines).toEqual([
      "Line 3. Replaces 'begins' with 'starts'.",
      "In context: 'The essay [begins] as a mess.'",
      "Why: Shorter (style).",
      "By claude (claude-sonnet-4-5), through claude.",
      "Turn t_7, asked: 'tighten'.",
    ]);
  });
  it("says why a stale proposal cannot be accepted", () => {
    const r = proposalReading(proposal("a", "", "new", { state: "stale", reason: "the text changed" }), 0, 1, "Ada");
    expect(r.heading).toBe("Proposal 1 of 1, stale: the text changed");
    expect(r.lines[0]).toBe("Line 3. Inserts 'new'.");
  });
});

describe("a thread read as words", () => {
  const ada = { kind: "human", id: "ada@example.com", label: "Ada", model: null, sdk: null, sessionId: null };
  const thread = (over: Partial<ThreadDto> = {}): ThreadDto => ({
    id: "th_1",
    status: "open",
    from: 10,
    to: 23,
    line: 4,
    text: "second reader",
    orphaned: false,
    relocated: false,
    detached: false,
    anchoredText: "second reader",
    comments: [
      { id: "c1", author: ada, body: "Who is this?", createdAt: "t0" },
      { id: "c2", author: { ...ada, id: "claude", label: "claude" }, body: "The editor.\n", createdAt: "t1" },
    ],
    ...over,
  });
  const who = (c: ThreadDto["comments"][number]) => c.author.label;
  const when = (iso: string) => (iso === "t0" ? "2 h ago" : "1 min ago");
  it("reads the text it is about, each comment with its author and when, and how many replies", () => {
    const r = threadReading(thread(), 0, 2, who, when);
    expect(r.heading).toBe("Thread 1 of 2, open, 1 reply");
    expect(r.lines).toEqual(["Line 4. On 'second reader'.", "Ada, 2 h ago: Who is this?", "Reply: claude, 1 min ago: The editor."]);
  });
  it("says when its text is gone, or it moved", () => {
    expect(threadReading(thread({ from: null, to: null, line: null, status: "resolved", comments: [] }), 1, 2, who, when)).toEqual({
      heading: "Thread 2 of 2, resolved, 0 replies",
      lines: ["Not in the text: it was about 'second reader'."],
    });
    expect(threadReading(thread({ relocated: true, anchoredText: "second\nreader" }), 0, 1, who, when).lines[1]).toBe("Re-attached here; it was on 'second ⏎ reader'.");
  });
});
