// Documents as files (issue 13, "Documents"), in the real app, starting on an
// EMPTY workspace: New document from the empty state, typing, saving, a
// comment; Rename… from the document's ⋯ menu while it has unsaved changes
// (the tab, buffer and undo follow; the sidecar follows on disk); New folder
// from the palette; Delete to the system trash (this test's own
// XDG_DATA_HOME), after a confirmation. And another writer's files (the real
// CLI, files written and removed by hand) moving the tree row by row through
// the watcher, the app listing the workspace no more. Screenshots in
// tests/e2e/artifacts/.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { active, cli, click, count, idle, shot, startDriver, tempDir, testHome, text, until, withApp } from "./support.mjs";

const { home, env: ENV } = testHome();
const TRASH = join(home, ".local/share/Trash");

let driver;
before(async () => {
  driver = await startDriver(ENV);
});
after(() => driver?.stop());

const read = (ws, rel) => readFileSync(join(ws, rel), "utf8");
const tabs = (b) => b.execute(() => Array.from(document.querySelectorAll(".tab")).map((t) => `${t.dataset.path}${t.classList.contains("dirty") ? " ●" : ""}`));
/** Type `s` into the focused element, one key at a time (a space as WebDriver's Space key). */
async function typeText(b, s) {
  for (const ch of s) await b.keys(ch === " " ? "\uE00D" : ch);
}
const nameField = async (b) => {
  const input = await b.$(".name-input");
  await input.waitForDisplayed({ timeout: 60_000 });
  return input;
};

test("an empty workspace: new, type, save, rename, new folder, delete to the trash", async () => {
  const ws = tempDir("cowriting-e2e-empty-");
  await withApp(
    driver.port,
    ws,
    async (b) => {
      // The empty state offers New document.
      const empty = await b.$(".tree-empty");
      assert.match(await empty.getText(), /No Markdown or text files here\./);
      assert.match(await (await b.$(".editor-host .empty")).getText(), /This folder has no documents yet\./);
      await until(() => b.execute(() => document.querySelector(".ws-name")?.textContent), "the workspace's name");
      // Two frames, so the screenshot is of what is painted.
      await b.execute(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await shot(b, "documents-empty");
      await click(b, ".btn-new-doc");
      const input = await nameField(b);
      await input.setValue("first draft");
      await until(async () => (await (await b.$(".name-hint")).getText()) === "Saved as first draft.md", "the hint");
      await shot(b, "documents-new");
      await b.keys(["Enter"]);
      await until(async () => (await active(b)) === "first draft.md", "the new document to open");
      assert.equal(read(ws, "first draft.md"), "");
      assert.deepEqual(await tabs(b), ["first draft.md"]);

      // Focused in the editor: typing goes in; Ctrl+S saves.
      await typeText(b, "Hello from an empty folder.");
      await until(async () => (await text(b)) === "Hello from an empty folder.", async () => `the typed text (${JSON.stringify(await text(b))}, ${await b.execute(() => document.activeElement?.className)})`);
      await idle(b);
      await b.keys(["Control", "s"]);
      await until(() => read(ws, "first draft.md") === "Hello from an empty folder.", "the save");

      // A comment, so the document has review data on disk.
      await b.execute(() => window.__cowriting.select(0, 5));
      await b.keys(["Control", "Alt", "m"]);
      const body = await b.$(".new-thread-body");
      await body.waitForDisplayed({ timeout: 60_000 });
      await body.setValue("Warmer greeting?");
      await b.keys(["Control", "Enter"]);
      await until(() => existsSync(join(ws, ".threads/first draft.md.json")), "the sidecar");

      // Unsaved text, then Rename… from the document's ⋯ menu.
      await click(b, ".cm-content");
      await b.keys(["Control", "End"]);
      await typeText(b, " More");
      await until(async () => (await tabs(b))[0] === "first draft.md ●", "the unsaved mark");
      await idle(b);
      await click(b, '.tree-item[data-path="first draft.md"] + .tree-more');
      await (await b.$('.menu-item[data-action="Rename…"]')).waitForDisplayed({ timeout: 60_000 });
      await shot(b, "documents-menu");
      await click(b, '.menu-item[data-action="Rename…"]');
      const rename = await nameField(b);
      assert.equal(await rename.getValue(), "first draft.md");
      await rename.setValue("chapters/opening");
      await b.keys(["Enter"]);
      await until(async () => (await active(b)) === "chapters/opening.md", "the renamed tab");
      assert.deepEqual(await tabs(b), ["chapters/opening.md ●"], "one tab, still unsaved");
      assert.equal(await text(b), "Hello from an empty folder. More", "the buffer kept");
      // On disk: the saved text and the sidecar under the new name, nothing under the old.
      assert.equal(read(ws, "chapters/opening.md"), "Hello from an empty folder.");
      assert.ok(!existsSync(join(ws, "first draft.md")));
      assert.ok(!existsSync(join(ws, ".threads/first draft.md.json")));
      const sidecar = JSON.parse(read(ws, ".threads/chapters/opening.md.json"));
      assert.equal(sidecar.docPath, "chapters/opening.md");
      assert.equal(sidecar.threads[0].comments[0].body, "Warmer greeting?");
      // Undo goes on under the new name; redo brings the text back; Ctrl+S saves it there.
      await click(b, ".cm-content");
      await b.keys(["Control", "z"]);
      await until(async () => (await text(b)) === "Hello from an empty folder.", "the undo");
      await b.keys(["Control", "Shift", "z"]);
      await until(async () => (await text(b)) === "Hello from an empty folder. More", "the redo");
      await idle(b);
      await b.keys(["Control", "s"]);
      await until(() => read(ws, "chapters/opening.md") === "Hello from an empty folder. More", "the save under the new name");
      assert.ok(!existsSync(join(ws, "first draft.md")), "the old name stays free");

      // New folder, from the palette ("new" finds it).
      await b.keys(["Control", "Shift", "p"]);
      const palette = await b.$(".palette-input");
      await palette.waitForDisplayed({ timeout: 60_000 });
      await palette.setValue("new");
      await until(async () => (await count(b, ".palette-list li")) >= 2, "the palette's matches");
      const found = await b.execute(() => Array.from(document.querySelectorAll(".palette-list li")).map((li) => li.dataset.command));
      assert.ok(found.includes("new-document") && found.includes("new-folder"), found.join(", "));
      await click(b, '.palette-list li[data-command="new-folder"]');
      const folder = await nameField(b);
      await folder.setValue("notes");
      await b.keys(["Enter"]);
      await until(async () => (await count(b, '.tree-folder[data-folder="notes"]')) === 1, "the new folder in the tree");
      assert.ok(existsSync(join(ws, "notes")));

      // Delete: asked first, then to the trash.
      await click(b, '.tree-item[data-path="chapters/opening.md"] + .tree-more');
      await click(b, '.menu-item[data-action="Delete (to the trash)…"]');
      const question = await b.$(".modal p");
      await question.waitForDisplayed({ timeout: 60_000 });
      assert.match(await question.getText(), /^Move chapters\/opening\.md to the trash\?/);
      await shot(b, "documents-delete");
      await click(b, '[data-action="Move to trash"]');
      await until(async () => (await active(b)) === null, "the tab to close");
      assert.deepEqual(await tabs(b), []);
      assert.ok(!existsSync(join(ws, "chapters/opening.md")), "gone from the workspace");
      assert.ok(!existsSync(join(ws, ".threads/chapters/opening.md.json")), "its sidecar too");
      assert.equal(readFileSync(join(TRASH, "files/opening.md"), "utf8"), "Hello from an empty folder. More");
      assert.ok(readdirSync(join(TRASH, "files")).includes("opening.md.json"), readdirSync(join(TRASH, "files")).join(", "));
      assert.match(readFileSync(join(TRASH, "info/opening.md.trashinfo"), "utf8"), /^Path=.*\/chapters\/opening\.md$/m);
      await (await b.$(".btn-new-doc")).waitForDisplayed({ timeout: 60_000 });

      // Ctrl+N asks for a name again.
      await b.keys(["Control", "n"]);
      await nameField(b);
      await b.keys(["Escape"]);
    },
    () => Boolean(document.querySelector(".btn-new-doc")),
  );
});

test("another writer's files move the tree row by row, and the app lists the workspace no more", async () => {
  const ws = tempDir("cowriting-e2e-others-");
  mkdirSync(join(ws, "sub"));
  writeFileSync(join(ws, "a.md"), "The open one.\n");
  writeFileSync(join(ws, "sub/b.md"), "A closed page with a word to comment on.\n");
  const row = (b, path) => b.execute((p) => {
    const item = document.querySelector(`.tree-item[data-path="${p}"]`);
    return item ? { threads: item.querySelector(".badge-threads")?.textContent ?? null } : null;
  }, path);
  await withApp(
    driver.port,
    ws,
    async (b) => {
      await until(async () => (await active(b)) === "a.md", "the first document open");
      const listed = await b.execute(() => window.__cowriting.listings());
      // A comment on the closed document, by the CLI: its row's badge.
      cli(ENV, ws, "thread", "new", "sub/b.md", "--find", "word", "--body", "Which word?");
      await until(async () => (await row(b, "sub/b.md"))?.threads === "1", "the closed document's badge");
      // A new file, written by hand: its row.
      writeFileSync(join(ws, "sub/c.md"), "New.\n");
      await until(async () => (await row(b, "sub/c.md")) !== null, "the new file's row");
      // Renamed by the CLI into a new folder: the row moves, the folder shows.
      cli(ENV, ws, "rename", "sub/c.md", "other/d.md");
      await until(async () => (await row(b, "other/d.md")) !== null && (await row(b, "sub/c.md")) === null, "the renamed row");
      // Removed by hand: the row goes, its folder stays, empty.
      rmSync(join(ws, "other/d.md"));
      await until(async () => (await row(b, "other/d.md")) === null, "the removed row");
      await until(async () => (await count(b, '.tree-folder[data-folder="other"]')) === 1, "the folder left, empty");
      assert.equal(await b.execute(() => window.__cowriting.listings()), listed, "no listing read for any of it");
      assert.deepEqual(await tabs(b), ["a.md"]);
    },
    () => Boolean(window.__cowriting?.activePath()),
  );
});
