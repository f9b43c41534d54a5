// Compare & merge (issue 13), in the real app: the writer types, another writer
// changes the file on disk, the conflict banner's Compare & merge… shows the
// changes side by side; a change made on one side only is taken, the writer
// takes theirs for one clash and keeps theirs for another (by key and by click);
// the file changes again while the sheet is open and the merge is shown anew;
// Apply merge, Ctrl+S, and the file on disk is the merge, byte for byte.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { click, count, fileDriver, fresh, idle, openDoc, shot, testHome, text, typeText, until, workspace } from "./support.mjs";

const { env: ENV } = testHome();
const { withApp } = fileDriver(ENV);

const BASE =
  "# Merging\n\nThe opening line stays. A plain sentence. The cat sat on the mat. The middle is calm.\n\n" +
  "A second paragraph begins here. It ends here.\n";

/** Put the cursor right after `what` (its first occurrence) and type `s`, as a writer does. */
async function typeAfter(b, what, s) {
  const i = (await text(b)).indexOf(what);
  assert.ok(i >= 0, `"${what}" is in the text`);
  const at = i + what.length;
  await b.execute((p) => window.__cowriting.select(p, p), at);
  await typeText(b, s);
}

/** The text of each change card's side ("mine" or "theirs"), without the base's words it removed (shown struck). */
const sides = (b, who) =>
  b.execute(
    (w) =>
      Array.from(document.querySelectorAll(`.mg-hunk .mg-side-${w} .mg-text`), (e) => {
        const c = e.cloneNode(true);
        for (const r of c.querySelectorAll(".mg-removed")) r.remove();
        return c.textContent;
      }),
    who,
  );

test("compare & merge: some changes from each side, the file changing again meanwhile, saved byte for byte", async () => {
  const ws = workspace();
  const file = join(ws, "merge.md");
  writeFileSync(file, BASE);
  await withApp(ws, async (b) => {
    await openDoc(b, "merge.md");
    await until(async () => (await text(b)) === BASE, "merge.md in the editor");

    // The writer's changes: the heading, the cat's mat, the ending.
    await typeAfter(b, "# Merging", " notes");
    await typeAfter(b, "on the ", "warm ");
    await typeAfter(b, "It ends here", ", for now");
    await idle(b);
    const mine = await text(b);
    assert.equal(
      mine,
      "# Merging notes\n\nThe opening line stays. A plain sentence. The cat sat on the warm mat. The middle is calm.\n\n" +
        "A second paragraph begins here. It ends here, for now.\n",
    );

    // Another writer changes the file: the opening (theirs only), the cat and the ending (both sides).
    const theirs = BASE.replace("line stays", "line is new").replace("The cat sat", "The dog sat").replace("It ends here.", "It stops here.");
    writeFileSync(file, theirs);
    await until(async () => (await fresh(async () => (await b.$(".banner-conflict")).isDisplayed())) === true, "the conflict banner", 60_000);
    assert.equal(await text(b), mine, "nothing changes until the writer chooses");

    await click(b, ".bn-merge");
    await until(async () => (await count(b, ".mg-hunk")) === 4, "the merge sheet with its four changes", 60_000);
    assert.deepEqual(await sides(b, "mine"), [
      "# Merging notes\n",
      "The opening line stays. ",
      "The cat sat on the warm mat. ",
      "It ends here, for now.\n",
    ]);
    assert.deepEqual(await sides(b, "theirs"), [
      "# Merging\n",
      "The opening line is new. ",
      "The dog sat on the mat. ",
      "It stops here.\n",
    ]);
    const summary = await b.$(".mg-summary").getText();
    assert.match(summary, /2 changes were made on one side only and are taken; 2 passages were changed on both sides — 2 still to choose/);
    assert.equal(await b.$(".mg-apply").isEnabled(), false, "Apply waits for the choices");

    // The first clash is current: M keeps mine (the warm mat) and goes on to the next one.
    assert.match(await b.$(".mg-hunk.mg-current .mg-hunk-title").getText(), /Change 3 of 4 · changed on both sides · choose one/);
    await b.keys(["m"]);
    await until(async () => /Change 4 of 4/.test(await b.$(".mg-hunk.mg-current .mg-hunk-title").getText()), "the next clash current");
    await shot(b, "merge");

    // The file changes again while the writer chooses: the merge is shown anew, the choice kept.
    const again = theirs.replace("It stops here.", "It stops right here.");
    writeFileSync(file, again);
    await until(async () => (await sides(b, "theirs"))[3] === "It stops right here.\n", "the merge shown anew", 60_000);
    assert.match(await fresh(async () => (await (await b.$$(".mg-hunk"))[2].$(".mg-hunk-title")).getText()), /taking your version/);

    // Theirs for the ending, by a click; then Apply merge.
    await fresh(async () => (await (await b.$$(".mg-hunk"))[3].$(".mg-take-theirs")).click());
    await until(async () => await fresh(async () => (await b.$(".mg-apply")).isEnabled()), "Apply enabled");
    await click(b, ".mg-apply");
    const merged =
      "# Merging notes\n\nThe opening line is new. A plain sentence. The cat sat on the warm mat. The middle is calm.\n\n" +
      "A second paragraph begins here. It stops right here.\n";
    await until(async () => (await text(b)) === merged, async () => `the merge in the editor (it is ${JSON.stringify(await text(b))})`, 60_000);
    assert.equal((await count(b, ".merge-sheet")), 0, "the sheet closed");
    assert.equal(await b.$(".banner").isDisplayed(), false, "no conflict left");
    assert.equal(readFileSync(file, "utf8"), again, "nothing written before the save");

    // Saved: the file on disk is the merge, byte for byte, and the banner does not come back.
    await click(b, ".cm-content");
    await b.keys(["Control", "s"]);
    await until(() => readFileSync(file, "utf8") === merged, "the save", 60_000);
    assert.deepEqual(readFileSync(file), Buffer.from(merged, "utf8"));
    await until(async () => (await b.$(".st-save").getText()) === "Saved", "saved");
    await b.pause(1500);
    assert.equal(await b.$(".banner").isDisplayed(), false, "the save is no conflict");
    // One undo step brings the writer's own version back.
    await b.keys(["Control", "z"]);
    await until(async () => (await text(b)) === mine, "undo to mine", 60_000);
  });
});
