// Search across the workspace (issue 13), in the real app: Ctrl+Shift+F opens
// the Search tab; a query finds text in every document (the open one as typed,
// unsaved) and in thread comments; a click opens the document with the match
// selected.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { active, click, fileDriver, fresh, idle, shot, testHome, typeText, until, workspace } from "./support.mjs";

const { env: ENV } = testHome();
const { withApp } = fileDriver(ENV);

const results = (b) =>
  b.execute(() => ({
    status: document.querySelector(".search-status")?.textContent ?? "",
    groups: Array.from(document.querySelectorAll(".search-group"), (g) => ({
      doc: g.dataset.document,
      hits: Array.from(g.querySelectorAll(".search-hit"), (r) => r.textContent),
      threads: Array.from(g.querySelectorAll(".search-thread"), (r) => r.textContent),
    })),
  }));

test("Ctrl+Shift+F searches every document, unsaved text and threads; a result opens its place", async () => {
  const ws = workspace();
  writeFileSync(join(ws, "notes/ideas.md"), "# Ideas\n\nA lantern in the fog, again.\n");
  await withApp(ws, async (b) => {
    assert.equal(await active(b), "essay.md");
    // Unsaved text in the open document is searched as typed.
    await click(b, ".cm-content");
    await b.keys(["Control", "End"]);
    await typeText(b, "\n\nThe lantern glows unsaved.");
    await idle(b);
    await b.keys(["Control", "Shift", "f"]);
    const field = await b.$(".search-input");
    await field.waitForDisplayed({ timeout: 60_000, timeoutMsg: "Ctrl+Shift+F showed no search field" });
    await until(async () => (await b.execute(() => document.activeElement?.classList.contains("search-input"))), "the search field focused");
    await typeText(b, "lantern");
    // Results stream in as documents are searched; the summary replaces "Searching…" at the end.
    await until(async () => { const r = await results(b); return r.groups.length >= 2 && !r.status.startsWith("Searching"); }, async () => `results (${JSON.stringify(await results(b))})`, 60_000);
    const r = await results(b);
    const essay = r.groups.find((g) => g.doc === "essay.md");
    assert.ok(essay?.hits.some((t) => t.includes("The lantern glows unsaved.")), `the unsaved line is found: ${JSON.stringify(r)}`);
    assert.ok(r.groups.some((g) => g.doc === "notes/ideas.md" && g.hits.some((t) => t.includes("A lantern in the fog"))), JSON.stringify(r));
    assert.match(r.status, /match/);
    await shot(b, "search");

    // A click opens the other document with the match selected.
    await fresh(async () => {
      for (const g of await b.$$(".search-group")) {
        if ((await g.getAttribute("data-document")) === "notes/ideas.md") return (await g.$(".search-hit")).click();
      }
      throw new Error("no such element: the ideas.md group");
    });
    await until(async () => (await active(b)) === "notes/ideas.md", "notes/ideas.md opened");
    await until(async () => (await b.execute(() => window.getSelection()?.toString())) === "lantern", "the match selected", 60_000);

    // Threads: words only in a comment of the sample's story; a click shows the thread.
    const field2 = await b.$(".search-input");
    await field2.setValue("photo of the real");
    await until(async () => (await results(b)).groups.some((g) => g.doc === "story.md" && g.threads.length === 1), async () => `the thread found (${JSON.stringify(await results(b))})`, 60_000);
    assert.ok((await results(b)).groups.find((g) => g.doc === "story.md").threads[0].includes("Check this against the photo"));
    await click(b, ".search-thread");
    await until(async () => (await active(b)) === "story.md", "story.md opened");
    await until(async () => b.execute(() => !document.querySelector(".threads-body").hidden && !!document.querySelector('.thread[data-thread="t_6303a0abef18cb5e3ffe"]')), "the thread shown in the Threads tab", 60_000);
    // Nothing found says so; a bad regular expression says why.
    await b.keys(["Control", "Shift", "f"]);
    await (await b.$(".search-input")).setValue("zzzz-no-such-word");
    await until(async () => (await results(b)).status === "No results.", "no results", 60_000);
    await click(b, ".search-regex");
    await (await b.$(".search-input")).setValue("(unclosed");
    await until(async () => (await results(b)).status.startsWith("not a regular expression"), async () => `the regex error (${(await results(b)).status})`, 60_000);
  });
});
