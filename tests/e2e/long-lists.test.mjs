// A document with hundreds of proposals and threads, in the real app: the
// Review, Threads and Inbox tabs build their cards as the writer scrolls to
// them (not all at once: a thousand cards cost the web process ~40 MiB and a
// rebuild on every accept), every card is reached by scrolling, an accept far
// down keeps the panel where it was, and an item shown from elsewhere (a click
// on a thread's text, the Inbox's Previous) is built and brought into view.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { click, fileDriver, idle, openDoc, review, shot, testHome, until, workspace } from "./support.mjs";

const { env: ENV } = testHome();
const { withApp } = fileDriver(ENV);

const PROPOSALS = 300;
const THREADS = 120;
const PARAGRAPHS = 400;

/** The document: paragraph i holds the unique words `alpha{i}` (proposals) and `beta{i}` (threads). */
const paragraph = (i) => `Paragraph ${i} says alpha${i} here, and then beta${i} there, before it ends.`;
const DOC = "# Long lists\n\n" + Array.from({ length: PARAGRAPHS }, (_, i) => paragraph(i)).join("\n\n") + "\n";

/** The sidecar VS Code would write: a proposal on every alphaN (turns of 10), a thread on every betaN. */
function sidecar() {
  const anchors = {};
  const anchor = (id, word) => {
    const at = DOC.indexOf(word + " ");
    anchors[id] = { fingerprint: { text: word, before: DOC.slice(Math.max(0, at - 32), at), after: DOC.slice(at + word.length, at + word.length + 32), lineHint: DOC.slice(0, at).split("\n").length - 1 } };
  };
  const proposals = Array.from({ length: PROPOSALS }, (_, i) => {
    anchor(`a_p${i}`, `alpha${i}`);
    return {
      id: `pr_long${i}`,
      anchorId: `a_p${i}`,
      replacement: `ALPHA${i}`,
      author: { kind: "agent", id: "claude", agent: { sdk: "e2e", model: "claude-sonnet-4-5", sessionId: "" } },
      createdAt: "2026-06-10T00:00:00.000Z",
      turnId: `turn-${Math.floor(i / 10)}`,
    };
  });
  const threads = Array.from({ length: THREADS }, (_, i) => {
    anchor(`a_t${i}`, `beta${i}`);
    return {
      id: `t_long${i}`,
      anchorId: `a_t${i}`,
      status: "open",
      comments: [{ id: `c_long${i}`, author: { kind: "human", id: "ada@example.com" }, body: `Thread **${i}**: is beta${i} right?`, createdAt: "2026-06-10T00:00:00.000Z" }],
    };
  });
  return JSON.stringify({ schemaVersion: 1, docPath: "long.md", anchors, threads, attributions: [], proposals }, null, 2) + "\n";
}

/** How many cards (or Inbox groups) a tab has built; its scroll box. */
const built = (b, sel) => b.execute((s) => document.querySelectorAll(s).length, sel);
const scrollBox = (b, body) =>
  b.execute((s) => {
    const el = document.querySelector(s);
    return { top: el.scrollTop, height: el.scrollHeight, client: el.clientHeight };
  }, body);
/** Whether `sel` is built and inside its panel's visible box. */
const inView = (b, sel, body) =>
  b.execute(
    (s, p) => {
      const el = document.querySelector(s);
      if (!el) return false;
      const r = el.getBoundingClientRect();
      const box = document.querySelector(p).getBoundingClientRect();
      return r.bottom > box.top && r.top < box.bottom;
    },
    sel,
    body,
  );

/** Scroll the tab to its end until `want` cards are built; the counts seen on the way. */
async function scrollToAll(b, body, sel, want) {
  const seen = [];
  await until(
    async () => {
      await b.execute((s) => {
        const el = document.querySelector(s);
        el.scrollTop = el.scrollHeight;
      }, body);
      const n = await built(b, sel);
      if (seen[seen.length - 1] !== n) seen.push(n);
      return n === want;
    },
    async () => `all ${want} of ${sel} built by scrolling (counts seen: ${seen.join(", ")})`,
    60_000,
  );
  return seen;
}

test("hundreds of proposals and threads: cards built as the writer scrolls, an accept keeps the place, items shown from elsewhere are built", async () => {
  const ws = workspace();
  writeFileSync(join(ws, "long.md"), DOC);
  mkdirSync(join(ws, ".threads"), { recursive: true });
  writeFileSync(join(ws, ".threads/long.md.json"), sidecar());
  await withApp(ws, async (b) => {
    await openDoc(b, "long.md");
    await until(async () => (await review(b))?.proposals.length === PROPOSALS, "the 300 proposals read");
    await idle(b);

    // Review: a batch or two of cards, not 300; scrolling reaches every one, once each.
    await click(b, ".pt-review");
    const first = await built(b, ".review-body .card");
    assert.ok(first > 0 && first <= 120, `a few cards at first (${first} of ${PROPOSALS})`);
    // Review coverage: what has been on screen (the text's first paragraphs,
    // the first cards) counted, "k of 300 seen", and more as the panel scrolls.
    const coverageText = () => b.execute(() => document.querySelector(".review-coverage")?.textContent ?? "");
    const coverage = async () => Number((await coverageText()).match(/^(\d+) of 300 seen$/)?.[1] ?? NaN);
    await until(async () => (await coverage()) > 0, async () => `some proposals seen (${await coverageText()})`);
    const seenFirst = await coverage();
    assert.ok(seenFirst < PROPOSALS / 4, `only what was on screen: ${seenFirst}`);
    await b.execute(() => {
      const el = document.querySelector(".review-body");
      el.scrollTop = el.scrollHeight - el.clientHeight * 1.5;
    });
    await b.pause(300);
    await until(async () => (await coverage()) > seenFirst, async () => `the cards scrolled to counted (${await coverageText()}, was ${seenFirst})`);
    await shot(b, "long-lists");
    const seen = await scrollToAll(b, ".review-body", ".review-body .card", PROPOSALS);
    assert.ok(seen.length >= 3, `built in steps as the panel scrolled: ${seen.join(", ")}`);
    const ids = await b.execute(() => Array.from(document.querySelectorAll(".review-body .card"), (c) => c.dataset.proposal));
    assert.equal(new Set(ids).size, PROPOSALS, "each proposal's card once");
    assert.equal(await built(b, ".review-body .group"), PROPOSALS / 10, "a group per turn");

    // An accept at the bottom: the panel is rebuilt with every card it had, where it was.
    const before = await scrollBox(b, ".review-body");
    const last = ids[ids.length - 1];
    await click(b, `.card[data-proposal="${last}"] .btn-accept`);
    await until(async () => (await review(b)).proposals.length === PROPOSALS - 1, "the accept done");
    await until(async () => (await built(b, ".review-body .card")) === PROPOSALS - 1, "the other 299 cards still built");
    const after = await scrollBox(b, ".review-body");
    assert.ok(after.top > before.height / 2, `still scrolled near the end after the accept (was ${JSON.stringify(before)}, now ${JSON.stringify(after)})`);

    // Threads: a few cards; a click on the text of a thread far down builds its card and shows it.
    await click(b, ".pt-threads");
    const threadsFirst = await built(b, ".threads-body .thread");
    assert.ok(threadsFirst > 0 && threadsFirst < THREADS, `a few thread cards at first (${threadsFirst} of ${THREADS})`);
    const far = (await review(b)).threads.find((t) => t.id === `t_long${THREADS - 5}`);
    assert.ok(far && far.from !== null, "the far thread is placed");
    await b.execute((f) => window.__cowriting.select(f, f), far.from);
    await b.keys("ArrowRight"); // the cursor moved: scrolled into view
    const mark = `.cm-content .cm-thread[data-thread="${far.id}"]`;
    await until(() => b.execute((s) => Boolean(document.querySelector(s)), mark), "the far thread's text on screen");
    await click(b, mark);
    await until(() => inView(b, `.threads-body .thread[data-thread="${far.id}"]`, ".threads-body"), "the far thread's card built and in view");
    await scrollToAll(b, ".threads-body", ".threads-body .thread", THREADS);

    // Inbox: its groups built as it scrolls; Previous (Shift+F4) from nothing goes to the last item, built and in view.
    await click(b, ".pt-inbox");
    await until(async () => (await built(b, ".inbox-body .inbox-group")) > 0, "the Inbox read");
    const groups = await built(b, ".inbox-body .inbox-group");
    assert.ok(groups < PROPOSALS / 10, `a few Inbox groups at first (${groups})`);
    await b.keys(["Shift", "F4"]);
    await until(() => inView(b, ".inbox-body .inbox-item.current", ".inbox-body"), "the Inbox's last item built and in view");
  });
});
