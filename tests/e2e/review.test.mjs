// Claude as an editor (issue 14), in the real app with a fake Claude Code that
// streams its answer: Review with Claude… files comments and proposals one by
// one while the writer types; cancel keeps what landed; Ask Claude in a thread
// (its button, and a reply starting with @claude) adds Claude's reply and edit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { click, fileDriver, fresh, idle, openDoc, review, shot, sidecar, tempDir, testHome, text, typeText, until, workspace } from "./support.mjs";

// What the fake Claude answers next (absent: its own items); instructions stay a writer's.
const ANSWER = join(tempDir("cowriting-e2e-answer-"), "answer.jsonl");
const { env: ENV } = testHome({ env: { FAKE_CLAUDE_ANSWER: ANSWER } });
const { withApp } = fileDriver(ENV);

const DOC = `# A note on revision

Writing is rewriting. The first draft finds the argument; the second draft makes it.

A second reader helps. Most writers really need one, in order to see what the page says.

Cut what does not serve the reader.
`;

/** Claude's next answer, one JSON line per item, `delay` seconds before each; null: the fake's own. */
function answer(items, delay = 0) {
  if (items === null) return rmSync(ANSWER, { force: true });
  const lines = items.map((i) => (typeof i === "string" ? i : JSON.stringify(i)));
  writeFileSync(ANSWER, [`#delay ${delay}`, ...lines].join("\n") + "\n");
}

const landed = async (b) => {
  const r = await review(b);
  return r ? r.threads.length + r.proposals.length : 0;
};
const chip = (b) => b.execute(() => Array.from(document.querySelectorAll(".job")).pop()?.textContent ?? "");
const lastReview = (b) => b.execute(() => window.__cowriting.lastReview());

async function startReview(b, instruction) {
  await b.keys(["Control", "Alt", "k"]);
  const box = await b.$(".review-instruction");
  await box.waitForDisplayed({ timeout: 60_000, timeoutMsg: "Ctrl+Alt+K showed no review dialog" });
  await fresh(async () => (await b.$(".review-instruction")).setValue(instruction));
  await click(b, ".btn-review-run");
}

test("Review with Claude: items land one by one while the writer types; cancel keeps what landed", async () => {
  const ws = workspace();
  writeFileSync(join(ws, "review.md"), DOC);
  await withApp(ws, async (b) => {
    await openDoc(b, "review.md");
    answer(
      [
      { kind: "comment", quote: "Writing is rewriting.", body: "A strong opening — keep it." },
      { kind: "edit", quote: "Most writers really need one", replacement: "Most writers need one", reason: "Cut the intensifier." },
      { kind: "comment", quote: "Cut what does not serve the reader.", body: "Could this end on an example?" },
      { kind: "edit", quote: "in order to see", replacement: "to see", reason: "Shorter." },
      { kind: "comment", quote: "a sentence that is not in the text", body: "?" },
      '{"kind":"edit","quote":',
      ],
      1.5,
    );
    await click(b, ".cm-content");
    await startReview(b, "Tighten it for a general reader");

    // The writer keeps typing above what Claude comments on while it reads.
    await b.execute(() => {
      const at = window.__cowriting.text().indexOf("Writing is rewriting.");
      window.__cowriting.select(at, at);
    });
    await typeText(b, "Every writer knows this. ");
    const seen = new Set();
    let midShot = false;
    await until(
      async () => {
        const n = await landed(b);
        seen.add(n);
        if (n === 2 && !midShot) {
          midShot = true;
          await shot(b, "review-pass-running");
          assert.match(await chip(b), /Claude is reviewing/);
        }
        return (await lastReview(b)) !== null;
      },
      "the review pass to end",
      120_000,
    );
    await idle(b);
    assert.ok([1, 2, 3].some((n) => seen.has(n)), `items appeared one by one: saw ${[...seen]}`);
    const out = await lastReview(b);
    assert.equal(out.threads.length, 2, JSON.stringify(out));
    assert.equal(out.proposals.length, 2, JSON.stringify(out));
    assert.deepEqual(out.skipped.map((s) => s.line), [5, 6]);
    assert.equal(out.stopped, null);
    assert.match(await chip(b), /Claude: 2 comments, 2 proposals — 2 of 6 suggestions could not be placed/);
    // Each landed on its own words, though the writer typed above them.
    const t = await text(b);
    assert.ok(t.includes("\n\nEvery writer knows this. Writing is rewriting."), t);
    const r = await review(b);
    for (const th of r.threads) assert.equal(t.slice(th.from, th.to), th.text);
    const quotes = r.threads.map((th) => th.text).sort();
    assert.deepEqual(quotes, ["Cut what does not serve the reader.", "Writing is rewriting."]);
    const targets = r.proposals.map((p) => t.slice(p.from, p.to)).sort();
    assert.deepEqual(targets, ["in order ", "really "], JSON.stringify(r.proposals));
    await shot(b, "review-pass");
    // The file on disk has only what the writer saved: nothing of Claude's.
    assert.equal(readFileSync(join(ws, "review.md"), "utf8"), DOC);
    const side = sidecar(ws, "review.md");
    assert.equal(side.threads.length, 2);
    assert.ok(side.threads.every((th) => th.comments[0].author.id === "claude" && th.comments[0].turnId === out.turnId));

    // A second pass, cancelled after its first item: that item stays, the rest never comes.
    answer(
      [
        { kind: "comment", quote: "A second reader helps.", body: "Who is the second reader?" },
        { kind: "comment", quote: "the second draft makes it.", body: "never filed" },
        { kind: "comment", quote: "The first draft finds the argument;", body: "never filed" },
      ],
      3,
    );
    const before = await landed(b);
    await click(b, ".cm-content");
    await startReview(b, "Who is this for?");
    await until(async () => (await landed(b)) === before + 1, "the first item of the second pass", 60_000);
    await click(b, ".job-running .job-cancel");
    await until(async () => (await lastReview(b))?.turnId !== out.turnId, "the cancelled pass to end", 60_000);
    const cancelled = await lastReview(b);
    assert.equal(cancelled.stopped?.code, "cancelled", JSON.stringify(cancelled));
    assert.equal(cancelled.threads.length, 1);
    assert.match(await chip(b), /Cancelled; kept what had landed \(1 comment\)/);
    await new Promise((r) => setTimeout(r, 4000));
    assert.equal(await landed(b), before + 1, "nothing landed after the cancel");
  });
});

test("Ask Claude in a thread: its reply and its edit appear; a reply starting with @claude asks too", async () => {
  const ws = workspace();
  writeFileSync(join(ws, "review.md"), DOC);
  await withApp(ws, async (b) => {
    await openDoc(b, "review.md");
    // The writer's own thread, made in the app.
    await b.execute(() => {
      const t = window.__cowriting.text();
      const at = t.indexOf("Most writers really need one");
      window.__cowriting.select(at, at + "Most writers really need one".length);
    });
    await b.keys(["Control", "Alt", "m"]);
    const box = await b.$(".new-thread-body");
    await box.waitForDisplayed({ timeout: 60_000 });
    await fresh(async () => (await b.$(".new-thread-body")).setValue("Is this too strong?"));
    await b.keys(["Control", "Enter"]);
    await until(async () => (await review(b))?.threads.length === 1, "the writer's thread", 60_000);
    await click(b, '.panel-tabs button[data-tab="threads"]');

    // The button: Claude replies (and proposes cutting "really ", the fake's wordy phrase).
    answer(null);
    await click(b, ".thread .btn-ask-thread");
    await until(async () => (await review(b))?.threads[0].comments.length === 2, "Claude's reply in the thread", 60_000);
    await until(async () => (await review(b))?.proposals.length === 1, "Claude's edit", 60_000);
    const r = await review(b);
    const reply = r.threads[0].comments[1];
    assert.equal(reply.author.id, "claude");
    assert.match(reply.body, /I proposed 1 edit on this text/);
    assert.match(reply.body, /delete “really”/);
    assert.equal(r.proposals[0].turnId, (await lastReview(b)).turnId);

    // A reply starting with @claude: the writer's reply, then Claude's answer to it.
    answer([{ kind: "reply", body: "It reads as certain; *need* is fine if you mean it." }]);
    await fresh(async () => (await b.$(".thread .reply-box")).setValue("@claude do I mean it?"));
    await fresh(async () => (await b.$(".thread .reply-box")).click());
    await b.keys(["Control", "Enter"]);
    await until(async () => (await review(b))?.threads[0].comments.length === 4, "the @claude reply answered", 60_000);
    const comments = (await review(b)).threads[0].comments;
    assert.equal(comments[2].author.kind, "human");
    assert.equal(comments[3].author.id, "claude");
    assert.match(comments[3].body, /reads as certain/);
    await until(
      async () => (await b.execute(() => document.querySelectorAll(".thread .comment").length)) === 4,
      "the panel shows the four comments",
      60_000,
    );
    await shot(b, "claude-thread");
  });
});
