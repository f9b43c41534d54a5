// The Inbox (issue 14, item 6), in the real app: one review across the
// workspace. What an agent filed with the CLI before the app started, and
// while it runs (in a document the app never opened too), is listed by turn
// and producer; the producer filter keeps one agent's turn across two
// documents; Next walks from one document to the other with the proposal
// selected (in a preview tab the next one replaces); Accept all of the group,
// then Save all, writes every document and its sidecar.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { active, cli, click, fileDriver, fresh, idle, shot, sidecar, testHome, until, workspace } from "./support.mjs";

const { env: ENV } = testHome();
const { withApp } = fileDriver(ENV);

const propose = (ws, doc, find, replace) =>
  cli(ENV, ws, "propose", doc, "--find", find, "--replace", replace, "--agent", "editor-bot", "--model", "sonnet-e2e", "--turn", "turn-e2e", "--instruction", "Plainer words");

/** What the Inbox shows: its summary, groups (key, title, rows) and the current row. */
const inbox = (b) =>
  b.execute(() => ({
    shown: !document.querySelector(".inbox-body")?.hidden,
    summary: document.querySelector(".inbox-summary")?.textContent ?? "",
    groups: Array.from(document.querySelectorAll(".inbox-group"), (g) => ({
      key: g.dataset.key,
      title: g.querySelector(".group-producer")?.textContent,
      rows: Array.from(g.querySelectorAll(".inbox-item"), (r) => `${r.dataset.document}:${r.dataset.id}`),
    })),
    current: document.querySelector(".inbox-item.current")?.dataset.id ?? null,
    unsaved: document.querySelector(".inbox-unsaved")?.textContent ?? null,
    empty: document.querySelector(".inbox-body .panel-empty")?.textContent ?? null,
  }));

/** The text selected in the editor (the app's, not the page's: the diff's widgets are not text). */
const selected = (b) =>
  b.execute(() => {
    const s = window.__cowriting.selection();
    return s ? window.__cowriting.text().slice(s.from, s.to) : "";
  });

test("the Inbox lists every document's review, filters, walks across documents and accepts a group to disk", async () => {
  const ws = workspace();
  const solitude = propose(ws, "story.md", "He did not mind the solitude.", "He never minded the solitude.");
  const room = propose(ws, "notes/meeting.md", "same room", "the same room");
  await withApp(ws, async (b) => {
    assert.equal(await active(b), "essay.md");
    await b.keys(["Control", "Alt", "i"]);
    // The groups are built as the tab scrolls (its first few at once): wait for those asserted on.
    const listed = (v) =>
      v.groups.some((g) => g.key === "turn:turn-e2e:editor-bot") && v.groups.some((g) => g.key.startsWith("turn:turn-2be3")) && v.groups.some((g) => g.title === "Comments by ada@example.com");
    await until(async () => listed(await inbox(b)), async () => `the Inbox's groups (${JSON.stringify(await inbox(b))})`, 60_000);
    let v = await inbox(b);
    assert.ok(v.shown, "Ctrl+Alt+I shows the Inbox tab");
    const turn = v.groups.find((g) => g.key === "turn:turn-e2e:editor-bot");
    assert.deepEqual(turn?.rows, [`notes/meeting.md:${room}`, `story.md:${solitude}`], JSON.stringify(v));
    // The sample's own: Claude's turns in essay.md and story.md, Ada's threads.
    assert.ok(v.groups.some((g) => g.key.startsWith("turn:turn-2be3")), JSON.stringify(v.groups.map((g) => g.key)));
    assert.ok(v.groups.some((g) => g.title === "Comments by ada@example.com"), JSON.stringify(v.groups.map((g) => g.title)));
    assert.equal(v.summary, "9 proposals (1 stale) · 3 threads · 3 documents");

    // Next, from the top (the newest group: the agent's turn): its first
    // document opens with the proposal selected.
    const at = async (doc, text) => (await active(b)) === doc && (await selected(b)) === text;
    const where = async () => `${await active(b)}, ${JSON.stringify(await selected(b))}`;
    await click(b, ".inbox-next");
    await until(() => at("notes/meeting.md", "same room"), async () => `meeting.md with its proposal selected (${await where()})`, 60_000);
    assert.equal((await inbox(b)).current, room);
    await shot(b, "inbox");

    // One producer: its turn across the two documents; Next (F4) goes on to
    // the other document, and wraps around; Shift+F4 goes back.
    await fresh(async () => (await b.$(".inbox-producer")).selectByAttribute("value", "editor-bot"));
    await until(async () => (await inbox(b)).groups.length === 1, async () => `one group left (${JSON.stringify(await inbox(b))})`);
    await b.keys(["F4"]);
    await until(() => at("story.md", "He did not mind the solitude."), async () => `story.md with its proposal selected (${await where()})`, 60_000);
    assert.equal((await inbox(b)).current, solitude);
    // A preview tab, as in a code editor: the document the Inbox opened last
    // went (unchanged) when it opened this one.
    const tabs = () => b.execute(() => Array.from(document.querySelectorAll(".tab"), (t) => `${t.dataset.path}${t.classList.contains("preview") ? " (preview)" : ""}`));
    await until(async () => JSON.stringify(await tabs()) === JSON.stringify(["essay.md", "story.md (preview)"]), async () => `the preview tab replaced (${await tabs()})`, 60_000);
    await shot(b, "inbox-filtered");
    await click(b, ".inbox-next");
    await until(() => at("notes/meeting.md", "same room"), async () => `around to meeting.md (${await where()})`, 60_000);
    await b.keys(["Shift", "F4"]);
    await until(() => at("story.md", "He did not mind the solitude."), async () => `back to story.md (${await where()})`, 60_000);

    // An agent files more of the same turn while the app is open, in an open
    // document and in one the app has never opened: listed within seconds.
    const dusk = propose(ws, "story.md", "every evening at dusk", "every evening at nightfall");
    writeFileSync(join(ws, "late.md"), "A late note, written in haste.\n");
    const haste = propose(ws, "late.md", "in haste", "quickly");
    await until(
      async () => JSON.stringify((await inbox(b)).groups[0]?.rows) === JSON.stringify([`late.md:${haste}`, `notes/meeting.md:${room}`, `story.md:${dusk}`, `story.md:${solitude}`]),
      async () => `the new proposals listed (${JSON.stringify(await inbox(b))})`,
      60_000,
    );
    assert.equal(await b.execute(() => !!document.querySelector('.tab[data-path="late.md"]')), false, "late.md is not open");

    // Accept all of the group: every document decided (late.md opened in a
    // tab for it), unsaved until Save all.
    await click(b, ".btn-inbox-accept");
    const decided = async () => {
      const now = await inbox(b);
      return now.groups.length === 0 && ["late.md", "notes/meeting.md", "story.md"].every((d) => now.unsaved?.includes(d));
    };
    await until(decided, async () => `the group decided, its documents unsaved (${JSON.stringify(await inbox(b))})`, 60_000);
    assert.equal(await b.execute(() => !!document.querySelector('.tab[data-path="late.md"]')), true, "late.md opened in a tab");
    v = await inbox(b);
    assert.equal(v.groups.length, 0, JSON.stringify(v));
    assert.match(v.empty, /Nothing matches these filters/);
    await click(b, ".inbox-save-all");
    await until(async () => (await inbox(b)).unsaved === null, "everything saved", 60_000);
    await idle(b);
  });
  const story = readFileSync(join(ws, "story.md"), "utf8");
  assert.ok(story.includes("He never minded the solitude.") && story.includes("every evening at nightfall"), story);
  assert.ok(readFileSync(join(ws, "notes/meeting.md"), "utf8").includes("Next meeting: 8 December, the same room."));
  assert.equal(readFileSync(join(ws, "late.md"), "utf8"), "A late note, written quickly.\n");
  for (const doc of ["story.md", "notes/meeting.md", "late.md"]) {
    assert.ok(!sidecar(ws, doc).proposals.some((p) => p.turnId === "turn-e2e"), `${doc}: the turn's proposals are decided`);
  }
  // The sample's own pending proposal in story.md is still there.
  assert.equal(sidecar(ws, "story.md").proposals.length, 1);
  const log = readFileSync(join(ws, ".cowriting/decisions.jsonl"), "utf8");
  assert.equal(log.split("\n").filter((l) => l.includes('"accepted"') && l.includes("turn-e2e")).length, 4, log);
});
