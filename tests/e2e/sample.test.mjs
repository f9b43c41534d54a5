// The app's first launch (issue 13): with no folder named, the bundled sample
// opens from the app's data folder, written there as a git repository with its
// history (Ada's commits, Claude's credited with an Assisted-by trailer); the
// status bar shows its branch. A later launch on the writer's changes
// overwrites nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { active, fileDriver, review, shot, testHome, text, until } from "./support.mjs";

const { home, env: ENV } = testHome();
const { withApp } = fileDriver(ENV);
/** Where the app writes the sample: `$XDG_DATA_HOME/<identifier>/sample-workspace`. */
const SAMPLE = join(home, ".local/share/dev.cowriting.desktop/sample-workspace");
const git = (...args) => execFileSync("git", ["-C", SAMPLE, ...args], { env: ENV, encoding: "utf8" });
const branch = (b) => b.execute(() => document.querySelector(".st-branch")?.textContent ?? "");

test("the first launch opens the sample as a git repository: its branch, its history, its review", async () => {
  await withApp(null, async (b) => {
    assert.equal(await active(b), "essay.md");
    await until(async () => (await branch(b)) === "⎇ main", async () => `the status bar's branch (${await branch(b)})`, 60_000);
    const r = await review(b);
    assert.equal(r.proposals.filter((p) => p.state === "pending").length, 3);
    assert.equal(r.proposals.filter((p) => p.state === "stale").length, 1);
    assert.deepEqual(git("log", "--format=%an <%ae>").trim().split("\n"), Array(7).fill("Ada Marsh <ada@example.com>"));
    assert.match(git("show", "-s", "--format=%B", "HEAD~4"), /^Tighten the essay's opening[^\n]*\n\nAssisted-by: claude:claude-sonnet-4-5\n/);
    assert.equal(git("status", "--porcelain"), "", "the work tree is the last commit");
    await shot(b, "sample-first-launch");

    // Who wrote it (issue 33): the report of the open buffer from the palette —
    // Claude with its model, and the text from before tracking (the sample's
    // own words carry no author), a bar per section, the decisions.
    await b.execute(() => document.querySelector(".cm-content").focus());
    await b.keys(["Control", "Shift", "p"]);
    await until(() => b.execute(() => !!document.querySelector(".palette-input")), "the palette");
    await b.execute(() => {
      const input = document.querySelector(".palette-input");
      input.value = "who wrote";
      input.dispatchEvent(new Event("input"));
    });
    await b.keys(["Enter"]);
    await until(() => b.execute(() => !!document.querySelector(".au-legend")), "the authorship report");
    const report = await b.execute(() => ({
      title: document.querySelector(".modal h2")?.textContent,
      authors: Array.from(document.querySelectorAll(".au-legend tr td:first-child"), (td) => td.textContent),
      sections: document.querySelectorAll(".au-section").length,
      segments: document.querySelectorAll(".au-bar .au-seg").length,
      decisions: document.querySelector(".au-decisions")?.textContent,
    }));
    assert.equal(report.title, "Who wrote essay.md", JSON.stringify(report));
    assert.ok(report.authors.some((a) => /^claude \(claude-/.test(a)), `Claude with its model: ${JSON.stringify(report)}`);
    assert.ok(report.authors.includes("Unknown (before tracking)"), `the text from before tracking: ${JSON.stringify(report)}`);
    assert.ok(report.sections >= 2 && report.segments > report.sections, JSON.stringify(report));
    // The sample's Claude text came with it: no decision of its is in the log,
    // and the report says so rather than "0 accepted".
    assert.match(report.decisions, /^No decisions on proposals are in the workspace's decision log: the agents' text here was accepted before/);
    await shot(b, "authorship");
    await b.keys(["Escape"]);

    // A branch made or checked out in a terminal shows in the status bar at once (it took a restart).
    git("checkout", "-q", "-b", "second-draft");
    await until(async () => (await branch(b)) === "⎇ second-draft", async () => `the new branch (${await branch(b)})`, 60_000);
    git("checkout", "-q", "main");
    await until(async () => (await branch(b)) === "⎇ main", async () => `back on main (${await branch(b)})`, 60_000);
  });
  // The writer's change, made elsewhere, is there at the next launch, as a change.
  appendFileSync(join(SAMPLE, "essay.md"), "\nMy own last line.\n");
  await withApp(null, async (b) => {
    await until(async () => (await text(b)).includes("My own last line."), "the writer's line kept", 60_000);
    await until(async () => (await branch(b)) === "⎇ main", "the branch", 60_000);
    assert.equal(git("status", "--porcelain"), " M essay.md\n");
    assert.equal(git("log", "--format=%h").trim().split("\n").length, 7);
  });
});
