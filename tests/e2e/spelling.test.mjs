// Spelling as the writer types (issues 13 and 31), in the real app: a slip is
// underlined within a bounded wait (a Hunspell dictionary checked in process;
// Harper's checker process is not started for it), its tooltip offers the
// dictionary's closest word first, a click fixes
// it as the writer's own edit (no proposal filed), and "Add to dictionary"
// writes the workspace's dictionary and takes the underline away; Settings lists
// the dictionary, and a word taken out there is underlined again. Spelling as
// you type turns off from the palette, and back on.
//
// A hover waits 15 s for its tooltip and is tried 4 times.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { click, fileDriver, fresh, idle, review, screenshot, shot, testHome, text, typeText, until, workspace } from "./support.mjs";

const { env: ENV } = testHome();
const { withApp } = fileDriver(ENV);

/** The underlined words of `severity` on screen. */
const underlined = (b, severity) =>
  b.execute((s) => Array.from(document.querySelectorAll(`.cm-lintRange-${s}`), (e) => e.textContent), severity);

/** The buttons of the lint tooltip on screen, if one shows `word`'s. */
const tooltipActions = (b, word) =>
  b.execute((w) => {
    const tip = document.querySelector(".cm-tooltip-lint");
    if (!tip || !tip.textContent.includes(w)) return null;
    return Array.from(tip.querySelectorAll(".cm-diagnosticAction"), (e) => e.textContent);
  }, word);

/** Hover the underline of `word` until its tooltip shows; the tooltip's buttons. */
async function tooltipOf(b, word) {
  for (let attempt = 1; ; attempt++) {
    // From elsewhere onto the word: a hover is a move onto it.
    await fresh(async () => (await b.$(".tabs")).moveTo());
    await fresh(async () => {
      for (const m of await b.$$(".cm-lintRange")) if ((await m.getText()) === word) return m.moveTo();
      throw new Error(`no such element: the underline of ${word}`);
    });
    try {
      return await until(() => tooltipActions(b, word), `a tooltip over "${word}"`, 15_000);
    } catch (e) {
      if (attempt >= 4) throw e;
    }
  }
}

/** The pids of Harper checker processes (`cowriting-desktop --harper-checker`) running now. */
function checkers() {
  try {
    return execFileSync("pgrep", ["-f", "--", "cowriting-desktop --harper-checker"], { encoding: "utf8" }).split("\n").filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when there is none
  }
}

/**
 * Click the action `name` in the tooltip of `word`'s underline. A lint pass that
 * lands between the hover and the click (the text was just changed) closes the
 * tooltip; then the word is hovered again, a bounded number of times.
 */
async function clickAction(b, word, name) {
  for (let attempt = 1; ; attempt++) {
    await tooltipOf(b, word);
    try {
      return await fresh(async () => {
        for (const a of await b.$$(".cm-tooltip-lint .cm-diagnosticAction")) if ((await a.getText()) === name) return a.click();
        throw new Error(`no such element: the action ${name}`);
      });
    } catch (e) {
      if (attempt >= 4) throw e;
    }
  }
}

test("a slip is underlined as you type; its fix is one click, the writer's own edit; Add to dictionary silences a name", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    const before = (await review(b)).proposals.length;
    await click(b, ".cm-content");
    await b.keys(["Control", "End"]);
    await typeText(b, "\n\nJorunn said the letter was writen by hand.");
    // The dictionary loads at the first lint: bounded for a loaded machine.
    await until(async () => (await underlined(b, "error")).includes("writen"), async () => `"writen" underlined (underlined: ${JSON.stringify(await underlined(b, "error"))})`, 120_000);
    assert.ok((await underlined(b, "error")).includes("Jorunn"), "the name is underlined too");
    // Spelling as you type starts no Harper checker process (it held 214 MiB).
    assert.deepEqual(checkers(), [], "no checker process for spelling as you type");
    const actions = await tooltipOf(b, "writen");
    assert.equal(actions[0], "written", `the closest word first: ${JSON.stringify(actions)}`);
    assert.ok(actions.includes("Add to dictionary"), JSON.stringify(actions));
    await shot(b, "spelling");

    await clickAction(b, "writen", "written");
    await until(async () => (await text(b)).includes("the letter was written by hand."), "the fix in the text");
    await idle(b);
    assert.equal((await review(b)).proposals.length, before, "a fix clicked files no proposal");
    await until(async () => !(await underlined(b, "error")).includes("written") && !(await underlined(b, "error")).includes("writen"), "the underline gone after the fix", 60_000);

    // Undo takes the fix back as one step: it was the writer's edit.
    await b.keys(["Control", "z"]);
    await until(async () => (await text(b)).includes("was writen by hand."), "undo of the fix");
    await b.keys(["Control", "Shift", "z"]);
    await until(async () => (await text(b)).includes("was written by hand."), "redo of the fix");

    await clickAction(b, "Jorunn", "Add to dictionary");
    const dict = join(ws, ".cowriting/dictionary.txt");
    await until(() => existsSync(dict) && readFileSync(dict, "utf8") === "Jorunn\n", "the dictionary written");
    await until(async () => !(await underlined(b, "error")).includes("Jorunn"), "the name no longer underlined", 60_000);

    // Settings lists the dictionary; taking the word out brings the underline back.
    await b.keys(["Control", ","]);
    const item = await b.$('.set-word-item[data-word="Jorunn"]');
    await item.waitForExist({ timeout: 60_000 });
    await b.execute(() => document.querySelector(".set-dictionary").scrollIntoView({ block: "center" }));
    await b.pause(500); // the scroll painted before the screenshot
    await shot(b, "dictionary");
    await click(b, '.set-word-item[data-word="Jorunn"] .set-word-remove');
    await until(() => !existsSync(dict) || !readFileSync(dict, "utf8").includes("Jorunn"), "the word taken out of the dictionary file");
    await click(b, ".modal-cancel");
    await until(async () => (await underlined(b, "error")).includes("Jorunn"), "the name underlined again", 60_000);
  });
});

test("spelling as you type can be turned off from the palette, and back on", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    await click(b, ".cm-content");
    await b.keys(["Control", "End"]);
    await typeText(b, "\n\nA recieved letter.");
    await until(async () => (await underlined(b, "error")).includes("recieved"), "the slip underlined", 120_000);
    const palette = async () => {
      await b.keys(["Control", "Shift", "p"]);
      const field = await b.$(".palette input");
      await field.waitForExist({ timeout: 60_000 });
      await field.setValue("spelling as you type");
      await b.keys(["Enter"]);
    };
    await palette();
    await until(async () => (await underlined(b, "error")).length === 0, "no underline once off", 60_000);
    await palette();
    await until(async () => (await underlined(b, "error")).includes("recieved"), "underlined again once on", 60_000);
  });
});
