// Reading and navigating (issue 13), in the real app: the outline lists the
// document's headings and a click jumps there; Go to heading…; the proposal
// selected with Alt+] is marked in the text and its card shows where it is;
// two producers' proposals for the same words drawn as alternatives; a
// proposal at a likely place marked there and accepted there after one question;
// the side panels hide and show (and stay so across a restart), focus mode,
// and a 760 px window that leaves the text its width. Screenshots (outline,
// focus, narrow) go to tests/e2e/artifacts; the README's copies in
// docs/screenshots/ are refreshed by hand from there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, click, fileDriver, idle, openDoc, shot, testHome, text, until, workspace } from "./support.mjs";

const { env: ENV } = testHome();
const { withApp } = fileDriver(ENV);

/** A longer document with an outline worth the name: headings of three levels, setext ones, a fence with `#` lines. */
const GUIDE = `# A Field Guide to Revision

Revision is where the piece finds its shape. This guide walks through the
passes a draft goes through, from the first read to the last line edit.

## The first read

Read the whole draft in one sitting, without a pen. Note where you were
bored, where you were lost, and where you wanted more.

### What to look for

The argument, the order, the places where a reader has to guess.

### What to leave alone

Commas. Word choice. Anything a later pass will rewrite anyway.

Structural edits
----------------

Move, cut and merge whole sections before touching a sentence.

\`\`\`text
# This is not a heading: it is in a code block.
\`\`\`

### Cutting

Most drafts are a third too long. Cut the throat-clearing first.

### Reordering

Put the strongest example where the reader is most awake.

## Line edits

Now the sentences: rhythm, precision, the word that is almost right.

Proofreading
============

Last, and only last: spelling, punctuation, the doubled word.
`;

const selection = (b) => b.execute(() => window.__cowriting.selection());
const appClass = (b) => b.execute(() => document.querySelector(".app").className);
const outline = (b) => b.execute(() => Array.from(document.querySelectorAll(".outline-item"), (el) => `${el.className.match(/lvl-\d/)[0]} ${el.textContent}`));
/** Whether `sel`'s element takes room in the window now. */
const shown = (b, sel) => b.execute((s) => {
  const el = document.querySelector(s);
  return !!el && el.getClientRects().length > 0 && el.getBoundingClientRect().width > 0;
}, sel);
const editorWidth = (b) => b.execute(() => Math.round(document.querySelector(".cm-editor").getBoundingClientRect().width));

const HEADINGS = [
  "lvl-1 A Field Guide to Revision",
  "lvl-2 The first read",
  "lvl-3 What to look for",
  "lvl-3 What to leave alone",
  "lvl-2 Structural edits",
  "lvl-3 Cutting",
  "lvl-3 Reordering",
  "lvl-2 Line edits",
  "lvl-1 Proofreading",
];

test("the outline lists the headings and follows the cursor; a click and Go to heading… jump there", async () => {
  const ws = workspace();
  writeFileSync(join(ws, "guide.md"), GUIDE);
  await withApp(ws, async (b) => {
    await openDoc(b, "guide.md");
    await until(async () => (await outline(b)).length === HEADINGS.length, async () => `the outline (it is ${JSON.stringify(await outline(b))})`, 60_000);
    assert.deepEqual(await outline(b), HEADINGS);
    // A click: the cursor at the heading, the text focused, the heading marked.
    await click(b, '.outline-item[data-index="5"]');
    await until(async () => (await selection(b))?.from === GUIDE.indexOf("### Cutting"), "the cursor at “Cutting”");
    assert.equal((await selection(b)).focused, true, "the text has the focus");
    await until(
      () => b.execute(() => document.querySelector(".outline-item.current")?.textContent),
      "a heading marked as the cursor's",
    );
    assert.equal(await b.execute(() => document.querySelector(".outline-item.current").textContent), "Cutting");
    // The heading marked follows the cursor: at the end, the last one.
    await b.keys(["Control", "End"]);
    await until(async () => (await b.execute(() => document.querySelector(".outline-item.current")?.textContent)) === "Proofreading", "the last heading marked");
    // Typing a heading: the outline has it once the writer pauses.
    await b.keys(["Enter"]);
    // One key at a time (the same key twice in one chord would be pressed once).
    for (const k of "## Sending it out") await b.keys([k]);
    await until(async () => (await outline(b)).includes("lvl-2 Sending it out"), async () => `the typed heading in the outline (it is ${JSON.stringify(await outline(b))})`, 60_000);
    // Go to heading… (Ctrl+Shift+O): a fuzzy match, Enter jumps.
    await b.keys(["Control", "Shift", "o"]);
    const input = await b.$(".modal .palette-input");
    await input.waitForDisplayed({ timeout: 60_000 });
    await input.setValue("wtlf");
    await until(
      async () => (await b.execute(() => Array.from(document.querySelectorAll(".heading-list li"), (li) => li.firstChild.textContent))).join("|") === "What to look for",
      "one match for “wtlf”",
    );
    await b.keys(["Enter"]);
    await until(
      async () => (await selection(b))?.from === GUIDE.indexOf("### What to look for"),
      async () => `the cursor at “What to look for” (${GUIDE.indexOf("### What to look for")}; it is at ${JSON.stringify(await selection(b))}, modal: ${await b.execute(() => document.querySelector(".modal-root").innerHTML.slice(0, 300))})`,
    );
    // The Enter that picked it typed nothing in the text.
    assert.equal(await text(b), `${GUIDE}\n## Sending it out`);
    await b.execute(() => document.querySelector(".outline").scrollTo(0, 0));
    // The pointer off the outline (its hover is not the cursor's heading).
    await (await b.$(".cm-content")).moveTo();
    await shot(b, "outline");
  });
});

test("Alt+] marks the selected proposal in the text, and its card says where it is", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    await idle(b);
    await click(b, ".cm-content");
    await b.keys(["Control", "Home"]);
    assert.equal(await b.execute(() => document.querySelectorAll(".cm-proposal-selected").length), 0);
    await b.keys(["Alt", "]"]);
    await until(() => b.execute(() => document.querySelector(".cm-proposal-selected")?.dataset.proposal), "a proposal marked in the text");
    const marked = await b.execute(() => document.querySelector(".cm-proposal-selected").dataset.proposal);
    assert.equal(await b.execute(() => document.querySelector(".card.focused")?.dataset.proposal), marked, "the same proposal's card");
    const ctx = await b.execute((id) => document.querySelector(`.card[data-proposal="${id}"] .card-context`)?.textContent ?? "", marked);
    assert.match(ctx, /^L\d+/, "the card shows the line");
    const r = await b.execute(() => window.__cowriting.review());
    const p = r.proposals.find((x) => x.id === marked);
    const t = await text(b);
    const line = t.slice(0, p.from).split("\n").length;
    assert.ok(ctx.startsWith(`L${line}`), `the card's line (${ctx}) is the proposal's (${line})`);
    assert.ok(ctx.includes(t.slice(p.from, p.to).replace(/\n/g, "⏎").slice(0, 20)), "and its target");
    // The mark is on screen (scrolled into view), outlined.
    const box = await b.execute(() => {
      const el = document.querySelector(".cm-proposal-selected");
      const r = el.getBoundingClientRect();
      const ed = document.querySelector(".cm-scroller").getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, edTop: ed.top, edBottom: ed.bottom, outline: getComputedStyle(el).outlineStyle };
    });
    assert.ok(box.top >= box.edTop && box.bottom <= box.edBottom, `on screen: ${JSON.stringify(box)}`);
    assert.equal(box.outline, "solid");
    await shot(b, "selected-proposal");
    // The next one: the mark moves.
    await b.keys(["Alt", "]"]);
    await until(async () => (await b.execute(() => document.querySelector(".cm-proposal-selected")?.dataset.proposal)) !== marked, "the next proposal marked");
  });
});

test("two producers on the same words are drawn as alternatives of one place, each with its ✓✗", async () => {
  const ws = workspace();
  writeFileSync(join(ws, "typo.md"), "# Typos\n\nWrite teh words down.\n");
  cli(ENV, ws, "propose", "typo.md", "--find", "teh", "--replace", "the", "--agent", "harper-like");
  cli(ENV, ws, "propose", "typo.md", "--find", "teh", "--replace", "these", "--agent", "vale-like");
  await withApp(ws, async (b) => {
    await openDoc(b, "typo.md");
    await until(() => b.execute(() => document.querySelectorAll(".cm-decision").length === 2), "both proposals drawn");
    const order = await b.execute(() =>
      Array.from(document.querySelectorAll(".cm-content .cm-proposal-ins, .cm-content .cm-decision, .cm-content .cm-proposal-or"), (el) =>
        el.classList.contains("cm-proposal-or") ? "or" : el.classList.contains("cm-decision") ? "✓✗" : el.textContent.replace(/^\(inserted: (.*)\)$/, "$1"),
      ),
    );
    assert.deepEqual(order, ["the", "✓✗", "or", "these", "✓✗"]);
    await shot(b, "alternatives");
  });
});

test("a proposal at a likely place is marked there, and accepted there after one question", async () => {
  const ws = workspace();
  const before = 'Some "word" here and more context on both of the sides, word.\n';
  writeFileSync(join(ws, "quotes.md"), before);
  cli(ENV, ws, "propose", "quotes.md", "--find", "word", "--nth", "1", "--replace", "term", "--agent", "style-like");
  // The quotes beside the words made curly: found only by the fallback evidence.
  writeFileSync(join(ws, "quotes.md"), 'Some “word” here and more context on both of the sides, word.\n');
  await withApp(ws, async (b) => {
    await openDoc(b, "quotes.md");
    await until(() => b.execute(() => document.querySelector(".cm-decision .cm-stale-label")?.textContent === "likely place"), "the mark in the text");
    const card = await b.execute(() => {
      const c = document.querySelector(".card");
      return { reason: c?.querySelector(".card-reason")?.textContent, button: c?.querySelector(".btn-accept")?.textContent, disabled: c?.querySelector(".btn-accept")?.disabled };
    });
    assert.match(card.reason ?? "", /^Likely place: /, JSON.stringify(card));
    assert.deepEqual([card.button, card.disabled], ["✓ Accept here…", false]);
    await shot(b, "likely-place");
    await click(b, ".card .btn-accept");
    await until(() => b.execute(() => /only where the text around them changed/.test(document.querySelector(".modal-root .modal")?.textContent ?? "")), "the question");
    await b.execute(() => Array.from(document.querySelectorAll(".modal-root button")).find((x) => x.textContent === "Accept here")?.click());
    await until(() => b.execute(() => !document.querySelector(".card")), "decided");
    await b.keys(["Control", "s"]);
    await until(() => readFileSync(join(ws, "quotes.md"), "utf8") === 'Some “term” here and more context on both of the sides, word.\n', "applied at its likely place, saved");
  });
});

test("the side panels hide and show (and stay so after a restart); focus mode; a 760 px window keeps the text wide", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    await idle(b);
    assert.ok(await shown(b, ".sidebar"), "the sidebar shows at first");
    assert.ok(await shown(b, ".panel"), "the panel shows at first");
    const wide = await editorWidth(b);
    await click(b, ".tb-sidebar");
    await until(async () => !(await shown(b, ".sidebar")), "the sidebar hidden");
    await click(b, ".cm-content");
    await b.keys(["Control", "Alt", "b"]);
    await until(async () => !(await shown(b, ".panel")), "the panel hidden (Ctrl+Alt+B)");
    assert.ok((await editorWidth(b)) > wide + 400, "the text takes the room");
  });
  // Restarted: as the writer left it; then back.
  await withApp(ws, async (b) => {
    await idle(b);
    assert.match(await appClass(b), /sidebar-hidden/);
    assert.match(await appClass(b), /panel-hidden/);
    await click(b, ".cm-content");
    await b.keys(["Control", "b"]);
    await until(() => shown(b, ".sidebar"), "the sidebar back (Ctrl+B)");
    await click(b, ".tb-panel");
    await until(() => shown(b, ".panel"), "the panel back");

    // Re-flow: the sample's essay is hard-wrapped, so it opens re-flowed (re-flow's "auto", the
    // default): the first paragraph's two lines in the file are one line on screen.
    const before = await text(b);
    const lines = () => b.execute(() => document.querySelectorAll(".cm-line").length);
    const firstJoined = () =>
      b.execute(() => Array.from(document.querySelectorAll(".cm-line")).some((l) => l.textContent.includes("begins as a mess") && l.textContent.includes("actually think")));
    const asInFile = () => b.execute(() => Array.from(document.querySelectorAll(".cm-line")).some((l) => l.textContent.startsWith("actually think")));
    await until(firstJoined, "the hard-wrapped sample opens re-flowed");
    await shot(b, "reflow");

    // Focus mode (re-flowed still): no panels, the text centred; Esc leaves.
    await click(b, ".cm-content");
    await b.keys(["Control", "Alt", "f"]);
    await until(async () => /focus-mode/.test(await appClass(b)), "focus mode");
    assert.ok(!(await shown(b, ".sidebar")) && !(await shown(b, ".panel")), "no panels in focus mode");
    const centred = await b.execute(() => {
      const c = document.querySelector(".cm-content").getBoundingClientRect();
      return { left: c.left, right: window.innerWidth - c.right, width: c.width };
    });
    assert.ok(Math.abs(centred.left - centred.right) < 40, `centred: ${JSON.stringify(centred)}`);
    await b.execute(() => document.querySelector(".cm-scroller").scrollTo(0, 0));
    await shot(b, "focus");
    await b.keys(["Escape"]);
    await until(async () => !/focus-mode/.test(await appClass(b)), "focus mode left (Esc)");
    assert.ok(await shown(b, ".sidebar"), "the sidebar back after focus mode");

    // Re-flow off from the palette: the lines as in the file, the text as it was (and the palette's
    // Enter typed nothing); Ctrl+Alt+W turns it back on.
    const reflowed = await lines();
    await b.keys(["Control", "Shift", "p"]);
    const pal = await b.$(".modal .palette-input");
    await pal.waitForDisplayed({ timeout: 60_000 });
    await pal.setValue("re-flow");
    await b.keys(["Enter"]);
    // (A count of lines shown depends on how much of the text the viewport holds.)
    await until(
      async () => (await lines()) > reflowed && !(await firstJoined()) && (await asInFile()),
      async () => `the lines as in the file (${await lines()} lines shown, ${reflowed} re-flowed)`,
    );
    assert.equal(await text(b), before);
    await b.keys(["Control", "Alt", "w"]);
    await until(async () => (await firstJoined()) && !(await asInFile()), "re-flowed again (Ctrl+Alt+W)");

    // A narrow window: the panels leave the text its width, and show over it when asked.
    const size = await b.getWindowSize();
    try {
      await b.setWindowSize(760, size.height);
      await until(async () => (await b.execute(() => window.innerWidth)) <= 780, "the window at 760 px");
      await until(async () => !(await shown(b, ".sidebar")) && !(await shown(b, ".panel")), "both panels collapsed");
      const w = await editorWidth(b);
      assert.ok(w >= 700, `the editor is ${w} px wide at 760 px`);
      await b.execute(() => document.querySelector(".cm-scroller").scrollTo(0, 0));
      await shot(b, "narrow");
      await click(b, ".tb-panel");
      await until(() => shown(b, ".panel"), "the panel over the text");
      assert.match(await appClass(b), /panel-overlay/);
      await shot(b, "narrow-panel");
      await b.keys(["Escape"]);
      await until(async () => !(await shown(b, ".panel")), "the panel gone (Esc)");
    } finally {
      await b.setWindowSize(size.width, size.height);
    }
    await until(() => shown(b, ".panel"), "the panel docked again in a wide window");
  });
});
