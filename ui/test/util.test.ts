// The UI's small helpers (util.ts): word counts in prose, Markdown and other
// scripts; how long ago; a turn's proposals grouped (split by producer; without
// turns, by author and time); the next, previous and current proposal;
// UTF-16 replacements applied; comments' authors named; arrow keys in a tab
// list.
import { describe, expect, it } from "vitest";
import type { ProposalDto } from "../src/bindings/ProposalDto";
import { age, applyTextChanges, arrowTarget, authorLabel, groupByTurn, nextProposal, producerOf, proposalAt, utf16, wordCount } from "../src/model/util";

function proposal(id: string, from: number | null, turnId: string | null, state: ProposalDto["state"] = "pending"): ProposalDto {
  return {
    id,
    state,
    from,
    to: from === null ? null : from + 3,
    line: from === null ? null : 1,
    target: "abc",
    replacement: "xyz",
    current: null,
    reason: null,
    diff: [],
    author: { kind: "agent", id: "claude", model: "m", label: "claude (m)", sdk: null, sessionId: null },
    turnId,
    instruction: turnId ? `do ${turnId}` : null,
    createdAt: "2026-06-10T00:00:00.000Z",
    contract: null, hidden: [], likelyPlace: false,
  };
}

describe("wordCount", () => {
  it("counts words in prose, Markdown and other scripts", () => {
    expect(wordCount("")).toBe(0);
    expect(wordCount("# Title\n\nIt's a *fine* day — isn't it? 42 times.")).toBe(9);
    expect(wordCount("naïve café déjà-vu")).toBe(3);
  });
});

describe("age", () => {
  const now = new Date("2026-06-10T12:00:00.000Z");
  it("says how long ago", () => {
    expect(age("2026-06-10T11:59:50.000Z", now)).toBe("just now");
    expect(age("2026-06-10T11:55:00.000Z", now)).toBe("5 min ago");
    expect(age("2026-06-10T09:00:00.000Z", now)).toBe("3 h ago");
    expect(age("2026-06-08T12:00:00.000Z", now)).toBe("2 days ago");
    expect(age("2025-01-01T00:00:00.000Z", now)).toBe("2025-01-01");
    expect(age("not a date", now)).toBe("not a date");
  });
});

describe("groupByTurn", () => {
  it("groups a turn's proposals in document order; singles stay alone", () => {
    const groups = groupByTurn([proposal("c", 30, "t2"), proposal("a", 10, "t1"), proposal("b", 20, "t1"), proposal("d", null, null)]);
    expect(groups.map((g) => g.proposals.map((p) => p.id))).toEqual([["a", "b"], ["c"], ["d"]]);
    expect(groups[0].instruction).toBe("do t1");
    expect(groups[0].producer).toBe("claude (m)");
    expect(groups.map((g) => g.sharedTurn)).toEqual([false, false, false]);
  });
  it("splits a turn by producer, names the producer from the contract, and marks shared turns", () => {
    const harper = (id: string, from: number, turn: string, category: string) => ({
      ...proposal(id, from, turn),
      author: { kind: "agent", id: "harper", model: null, label: "harper 0.1", sdk: null, sessionId: null },
      instruction: null,
      contract: { proposalId: `pp_${id}`, producer: "harper", producerVersion: "0.1", provenance: "rule:Spelling", category, reason: `why ${id}` },
    });
    const vale = (id: string, from: number, turn: string) => ({
      ...harper(id, from, turn, "style"),
      contract: { proposalId: `pp_${id}`, producer: "vale", producerVersion: "3", provenance: "rule:Vale.Terms", category: "style", reason: "" },
    });
    const groups = groupByTurn([harper("h2", 40, "t9", "grammar"), vale("v1", 5, "t9"), harper("h1", 20, "t9", "spelling"), proposal("c", 30, "t1")]);
    expect(groups.map((g) => [g.producer, g.turnId, g.proposals.map((p) => p.id)])).toEqual([
      ["vale", "t9", ["v1"]],
      ["harper", "t9", ["h1", "h2"]],
      ["claude (m)", "t1", ["c"]],
    ]);
    expect(groups.map((g) => g.sharedTurn)).toEqual([true, true, false]);
    expect(groups[1].author).toBe("harper 0.1");
    expect(producerOf(groups[2].proposals[0])).toBe("claude (m)");
    expect(producerOf(groups[0].proposals[0])).toBe("vale");
  });
});

describe("groupByTurn without turns", () => {
  const at = (id: string, from: number, minute: number, who = "claude") => ({
    ...proposal(id, from, null),
    createdAt: new Date(Date.UTC(2026, 5, 10, 0, minute)).toISOString(),
    author: { kind: "agent", id: who, model: "m", label: `${who} (m)`, sdk: null, sessionId: null },
  });
  it("groups one author's proposals filed close together (a CLI call each), apart from another's and a later run", () => {
    const groups = groupByTurn([at("a", 10, 0), at("b", 20, 3), at("c", 30, 9), at("late", 40, 30), at("other", 50, 1, "helper")]);
    expect(groups.map((g) => g.proposals.map((p) => p.id))).toEqual([["a", "b", "c"], ["late"], ["other"]]);
    expect(groups.map((g) => g.turnId)).toEqual([null, null, null]);
    expect(groups[0].producer).toBe("claude (m)");
  });
});

describe("navigation", () => {
  const ps = [proposal("a", 10, null), proposal("b", 20, null), proposal("gone", null, null, "orphaned")];
  it("finds the next and previous proposal, wrapping", () => {
    expect(nextProposal(ps, 0, 1)?.id).toBe("a");
    expect(nextProposal(ps, 10, 1)?.id).toBe("b");
    expect(nextProposal(ps, 25, 1)?.id).toBe("a");
    expect(nextProposal(ps, 15, -1)?.id).toBe("a");
    expect(nextProposal(ps, 5, -1)?.id).toBe("b");
    expect(nextProposal([], 5, 1)).toBeNull();
  });
  it("finds the proposal under the cursor", () => {
    expect(proposalAt(ps, 12)?.id).toBe("a");
    expect(proposalAt(ps, 13)?.id).toBe("a");
    expect(proposalAt(ps, 15)).toBeNull();
  });
});

describe("applyTextChanges", () => {
  it("applies UTF-16 replacements in old-document coordinates", () => {
    const text = "a😀b cd";
    const at = (from: number, to: number, insert: string) => ({ from: utf16(from), to: utf16(to), insert });
    expect(applyTextChanges(text, [at(1, 3, "é"), at(5, 7, "CD!")])).toBe("aéb CD!");
  });
});

describe("authorLabel", () => {
  const author = (kind: string, id: string) => ({ kind, id, label: id, model: null, sdk: null, sessionId: null });
  const me = { name: "Ada", email: "ada@x.org", gitName: null, gitEmail: null, id: "ada@x.org", display: "Ada", source: "settings" as const, ask: false };
  it("names the writer's own comments by their name, everyone else's by the label", () => {
    expect(authorLabel(author("human", "ada@x.org"), me)).toBe("Ada");
    expect(authorLabel(author("human", "bob@x.org"), me)).toBe("bob@x.org");
    expect(authorLabel(author("agent", "ada@x.org"), me)).toBe("ada@x.org");
    expect(authorLabel(author("human", "ada@x.org"), null)).toBe("ada@x.org");
  });
});

describe("arrowTarget", () => {
  it("moves through a tab list with the arrows, wrapping, and jumps with Home and End", () => {
    expect(arrowTarget("ArrowRight", 0, 3)).toBe(1);
    expect(arrowTarget("ArrowRight", 2, 3)).toBe(0);
    expect(arrowTarget("ArrowLeft", 0, 3)).toBe(2);
    expect(arrowTarget("ArrowDown", 1, 3)).toBe(2);
    expect(arrowTarget("Home", 2, 3)).toBe(0);
    expect(arrowTarget("End", 0, 3)).toBe(2);
    expect(arrowTarget("a", 0, 3)).toBeNull();
    expect(arrowTarget("ArrowRight", 0, 0)).toBeNull();
  });
});
