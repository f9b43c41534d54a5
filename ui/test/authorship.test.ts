// The authorship report's words (dialogs/authorship.ts): each author named
// (you, an agent with its model, text from before tracking), the statement
// copied to hand over (shares, decisions, sections with text), and a report
// with no decision logged saying so rather than that the writer decided nothing.
import { describe, expect, it } from "vitest";
import type { AuthorshipOut } from "../src/bindings/AuthorshipOut";
import { decisionsLine, shareLabel, statement } from "../src/dialogs/authorship";

const REPORT: AuthorshipOut = {
  document: "essay.md",
  total: 200,
  words: 40,
  byAuthor: [
    { kind: "human", id: "ada@example.com", model: null, chars: 120, words: 24 },
    { kind: "agent", id: "claude", model: "claude-sonnet-4-5", chars: 50, words: 10 },
    { kind: "unknown", id: null, model: null, chars: 30, words: 6 },
  ],
  sections: [
    { heading: null, level: 0, line: 1, total: 0, words: 0, byAuthor: [] },
    { heading: "Opening", level: 1, line: 1, total: 200, words: 40, byAuthor: [{ kind: "human", id: "ada@example.com", model: null, chars: 200, words: 40 }] },
  ],
  decisions: { accepted: 3, changed: 1, rejected: 2 },
};

describe("the authorship report's words", () => {
  it("names you, each agent with its model, and text from before tracking", () => {
    expect(shareLabel(REPORT.byAuthor[0], "ada@example.com")).toBe("You (ada@example.com)");
    expect(shareLabel(REPORT.byAuthor[0], null)).toBe("ada@example.com");
    expect(shareLabel(REPORT.byAuthor[1], null)).toBe("claude (claude-sonnet-4-5)");
    expect(shareLabel(REPORT.byAuthor[2], null)).toBe("Unknown (before tracking)");
    // The name set at first run travels beside the id.
    const named = { ...REPORT.byAuthor[0], name: "Ada Marsh" };
    expect(shareLabel(named, "ada@example.com")).toBe("You (Ada Marsh <ada@example.com>)");
    expect(shareLabel(named, null)).toBe("Ada Marsh <ada@example.com>");
  });

  it("writes a statement to hand over: shares, decisions, sections with text", () => {
    expect(statement(REPORT, "ada@example.com")).toBe(
      [
        "Authorship of essay.md: 200 characters, 40 words.",
        "- You (ada@example.com): 60 % (120 characters, 24 words)",
        "- claude (claude-sonnet-4-5): 25 % (50 characters, 10 words)",
        "- Unknown (before tracking): 15 % (30 characters, 6 words)",
        "Proposals decided by the writer: 3 accepted, 1 accepted with changes, 2 rejected.",
        "",
        "Opening:",
        "- You (ada@example.com): 100 % (200 characters, 40 words)",
        "",
      ].join("\n"),
    );
  });

  it("says when no decision is logged, rather than that the writer decided nothing", () => {
    const none = { ...REPORT, decisions: { accepted: 0, changed: 0, rejected: 0 } };
    expect(decisionsLine(none)).toMatch(/^No decisions on proposals are in the workspace's decision log: the agents' text here was accepted before/);
    const human = { ...none, byAuthor: [REPORT.byAuthor[0]] };
    expect(decisionsLine(human)).toBe("No decisions on proposals are in the workspace's decision log.");
    expect(decisionsLine(REPORT)).toBe("Proposals decided by the writer: 3 accepted, 1 accepted with changes, 2 rejected.");
  });
});
