// Crash recovery (hot exit), end to end: the real app under tauri-driver, killed
// with SIGKILL while a buffer and a decision are unsaved, started again on the
// same workspace. Backups go to a temporary COWRITING_BACKUP_DIR per test; the
// workspace must not change until the writer saves.
//
//   cd tests/e2e && xvfb-run -a -s "-screen 0 1280x800x24" node --test --test-concurrency=1 hot-exit.test.mjs
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import {
  APP,
  ROOT,
  active,
  cli,
  click,
  count,
  idle,
  openDoc,
  review,
  screenshot,
  sidecar,
  startApp,
  startDriver,
  tempDir,
  testHome,
  text,
  until,
  workspace,
} from "./support.mjs";

const BACKUPS = tempDir("cowriting-e2e-backups-");
const { env: ENV } = testHome({ env: { COWRITING_BACKUP_DIR: BACKUPS } });
// Screenshots go with the other test artifacts (git-ignored); the README's copy in
// docs/screenshots/ is refreshed by hand from there, never by a test run.
const SCREENSHOTS = join(ROOT, "tests/e2e/artifacts");
const LONG = { timeout: 300_000 };

let driver;
before(async () => {
  driver = await startDriver(ENV);
});
after(() => driver?.stop());

const TARGET = "Every piece of writing begins as a mess.";
const REPLACEMENT = "Every draft begins as a mess.";
const AFTER = "the piece it becomes.";
const TYPED = " Drafts are allowed to be bad.";

/** A fresh sample workspace with a proposal filed through the contract (so its decision is logged). */
function workspaceWithProposal() {
  const ws = workspace();
  const id = cli(ENV, ws, "propose", "essay.md", "--find", "piece of writing", "--replace", "draft", "--instruction", "Say it plainly", "--turn", "turn-hot", "--model", "claude-sonnet-4-5");
  assert.match(id, /^pr_/);
  return { ws, id };
}

/** A workspace's backup folder is named by a hash of its canonical root. */
const wsHash = (ws) => createHash("sha256").update(realpathSync(ws)).digest("hex").slice(0, 16);

/** The temp files of writes a kill cut short, in the workspace's backup folder. */
function leftoverTemps(ws) {
  const dir = join(BACKUPS, wsHash(ws));
  return existsSync(dir) ? readdirSync(dir).filter((n) => /^\.cw-.{8}\.tmp$/.test(n)) : [];
}

/**
 * The text a backup restores: its snapshot's, with the lines of its journal
 * (`<hash>.jsonl`, the changes typed since) that carry its epoch applied in
 * order, as the core replays them (api/backups/journal.rs): a number keeps that
 * many chars, a negative one deletes, a string inserts.
 */
function replayed(json, journal) {
  if (!json || !json.epoch || !journal) return json?.text;
  let chars = Array.from(json.text);
  let seq = 1;
  for (const raw of journal.split("\n")) {
    let line;
    try {
      line = JSON.parse(raw);
    } catch {
      break; // a line a kill cut short: the replay stops there
    }
    if (line.epoch !== json.epoch || line.seq !== seq) break;
    const out = [];
    let at = 0;
    for (const op of line.change) {
      if (typeof op === "string") out.push(...Array.from(op));
      else if (op > 0) out.push(...chars.slice(at, (at += op)));
      else at -= op;
    }
    chars = out;
    seq++;
  }
  return chars.join("");
}

/**
 * The backups of workspace `ws` (not its workspace.json marker): each snapshot
 * file with its parsed content, `text` being what it restores (its journal
 * replayed); a journal without its snapshot is listed too.
 */
function backups(ws) {
  const out = [];
  // One folder per workspace, named by a hash of its canonical root.
  const dir = join(BACKUPS, wsHash(ws));
  if (!existsSync(dir)) return out;
  const names = readdirSync(dir);
  for (const name of names) {
    if (name === "workspace.json") continue;
    // A write the kill cut short leaves its temp file (`.cw-XXXXXXXX.tmp`): never a
    // backup (restore skips it, the next write removes it). CI saw one once.
    if (/^\.cw-.{8}\.tmp$/.test(name)) continue;
    // A journal goes with its snapshot; listed alone only when it has none.
    if (name.endsWith(".jsonl") && names.includes(name.slice(0, -1))) continue;
    const file = join(dir, name);
    let json = null;
    try {
      json = JSON.parse(readFileSync(file, "utf8"));
      const journal = join(dir, `${name}l`);
      if (json && existsSync(journal)) json = { ...json, text: replayed(json, readFileSync(journal, "utf8")) };
    } catch {
      // being replaced right now: the next poll reads it
    }
    out.push({ file, name, json });
  }
  return out;
}

/** The app's process: the binary started on this (unique) workspace folder. */
function appPid(ws) {
  const pids = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let argv;
    try {
      argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.startsWith("Z")) continue;
    } catch {
      continue;
    }
    if (argv[0] === APP && argv.includes(ws)) pids.push(Number(entry));
  }
  assert.equal(pids.length, 1, `exactly one app process on ${ws}: ${pids}`);
  return pids[0];
}

function alive(pid) {
  try {
    return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z");
  } catch {
    return false;
  }
}

/** SIGKILL the app (nothing runs at exit), then drop the dead WebDriver session. */
async function crash(b, ws) {
  const pid = appPid(ws);
  process.kill(pid, "SIGKILL");
  await until(() => !alive(pid), `process ${pid} to die`);
  await Promise.race([b.deleteSession().catch(() => undefined), new Promise((r) => setTimeout(r, 15_000))]);
}

async function end(b) {
  await Promise.race([b.deleteSession().catch(() => undefined), new Promise((r) => setTimeout(r, 15_000))]);
}

const snapshot = (ws) => ({
  essay: readFileSync(join(ws, "essay.md")),
  sidecar: readFileSync(join(ws, ".threads/essay.md.json")),
  log: existsSync(join(ws, ".cowriting/decisions.jsonl")) ? readFileSync(join(ws, ".cowriting/decisions.jsonl")) : null,
});

const notice = (b) => b.execute(() => window.__cowriting.restoreNotice());

test("a crash with unsaved typing and an unsaved accept: restored on the next start, saved in one go", LONG, async () => {
  const { ws, id } = workspaceWithProposal();
  const original = readFileSync(join(ROOT, "examples/workspace/essay.md"), "utf8");
  const onDisk = snapshot(ws);
  assert.equal(onDisk.essay.toString(), original);
  assert.ok(sidecar(ws, "essay.md").proposals.some((p) => p.id === id));

  let b = await startApp(driver.port, ws);
  try {
    if ((await active(b)) !== "essay.md") await openDoc(b, "essay.md");
    await until(async () => (await review(b)).proposals.some((p) => p.id === id && p.state === "pending"), "the proposal to show");
    // Type after the first paragraph's last sentence.
    const at = (await text(b)).indexOf(AFTER) + AFTER.length;
    await click(b, ".cm-content");
    await b.execute((p) => window.__cowriting.select(p, p), at);
    // One key at a time: in one action list, WebKitWebDriver drops spaces and
    // the second of two equal letters.
    for (const ch of TYPED) await b.keys(ch === " " ? "\uE00D" : ch);
    await until(async () => (await text(b)).includes(TYPED), async () => `the typed text in the editor: ${JSON.stringify(await text(b))}`);
    await idle(b);
    // Accept the proposal, without saving.
    await click(b, `.cm-decision[data-proposal="${id}"] .cm-accept`);
    await until(async () => (await text(b)).includes(REPLACEMENT), "the accepted text in the editor");
    await idle(b);
    // Journaled outside the workspace within about a second (bounded generously).
    const backup = await until(
      () => backups(ws).find((f) => f.json?.doc === "essay.md" && f.json.text.includes(TYPED) && f.json.text.includes(REPLACEMENT) && f.json.decisions.length === 1),
      "a backup holding the typed text and the decision",
    );
    assert.ok(!backup.file.startsWith(ws), "the backup is outside the workspace");
    await crash(b, ws);
  } catch (e) {
    await end(b);
    throw e;
  }

  // Nothing reached the workspace.
  const now = snapshot(ws);
  assert.ok(now.essay.equals(onDisk.essay), "the document is unchanged on disk");
  assert.ok(now.sidecar.equals(onDisk.sidecar), "the sidecar is unchanged on disk");
  assert.deepEqual(now.log, onDisk.log, "no decision was logged");
  assert.ok(sidecar(ws, "essay.md").proposals.some((p) => p.id === id), "the proposal is still pending on disk");
  assert.equal(backups(ws).length, 1, "the kill left the backup");

  // The next start on the same workspace brings it all back.
  b = await startApp(driver.port, ws);
  try {
    await until(async () => (await notice(b)) !== null, "the restore notice");
    assert.deepEqual(leftoverTemps(ws), [], "a write the kill cut short leaves nothing behind the restore");
    assert.deepEqual(await notice(b), ["Restored unsaved changes to essay.md from the last session (1 decision)."]);
    assert.ok(await (await b.$(".restore-notice")).isDisplayed(), "the notice is visible");
    assert.equal(await active(b), "essay.md");
    const restored = await text(b);
    assert.ok(restored.includes(AFTER + TYPED), "the typed text is back");
    assert.ok(restored.includes(REPLACEMENT), "the accepted text is back");
    assert.equal(restored, original.replace(TARGET, REPLACEMENT).replace(AFTER, AFTER + TYPED));
    const r = await review(b);
    assert.ok(!r.proposals.some((p) => p.id === id), "the accepted proposal is not pending");
    assert.ok(r.proposals.filter((p) => p.state === "pending").length === 3, "the sample's other proposals are");
    assert.ok(
      r.spans.some((s) => s.author.kind === "agent" && restored.slice(s.from, s.to) === "draft"),
      "the accepted word is still Claude's",
    );
    assert.equal(await b.execute(() => window.__cowriting.dirty("essay.md")), true);
    assert.ok(
      (await (await b.$('.tab[data-path="essay.md"]')).getAttribute("class")).split(" ").includes("dirty"),
      "the tab shows unsaved",
    );
    assert.match(await (await b.$(".st-save")).getText(), /Unsaved/);
    const badge = await (await b.$('.tree-item[data-path="essay.md"] .badge-proposals')).getText();
    assert.equal(badge, "4", "the file tree counts what the tab shows (the accept is unsaved)");
    assert.equal(await count(b, ".banner-conflict"), 0, "the file did not change: no conflict");
    mkdirSync(SCREENSHOTS, { recursive: true });
    await screenshot(b, join(SCREENSHOTS, "hot-exit.png"));

    // Save: the text, the sidecar and the decision log in one go.
    await click(b, ".cm-content");
    await b.keys(["Control", "s"]);
    await until(() => readFileSync(join(ws, "essay.md"), "utf8") === restored, "the document to be saved");
    await until(async () => (await b.execute(() => window.__cowriting.dirty("essay.md"))) === false, "the tab to show saved");
    const sc = sidecar(ws, "essay.md");
    assert.ok(!sc.proposals.some((p) => p.id === id), "the proposal left the sidecar");
    assert.ok(sc.attributions.some((a) => a.turnId === "turn-hot"), "the accepted text is attributed on disk");
    const lines = readFileSync(join(ws, ".cowriting/decisions.jsonl"), "utf8").split("\n").filter((l) => l.trim());
    assert.equal(lines.length, 1, lines.join("\n"));
    const d = JSON.parse(lines[0]);
    assert.equal(d.outcome, "accepted");
    assert.equal(d.sidecarProposalId, id);
    await until(() => backups(ws).length === 0, "the backup to be removed after the save");
    // Dismissable.
    await click(b, ".rn-dismiss");
    await until(async () => (await notice(b)) === null, "the notice to go");
  } finally {
    await end(b);
  }
});

test("accept, then close the tab with Discard: the proposal is pending again, on disk and in the app", LONG, async () => {
  const { ws, id } = workspaceWithProposal();
  const onDisk = snapshot(ws);
  let b = await startApp(driver.port, ws);
  try {
    if ((await active(b)) !== "essay.md") await openDoc(b, "essay.md");
    await until(async () => (await review(b)).proposals.some((p) => p.id === id), "the proposal to show");
    await click(b, `.cm-decision[data-proposal="${id}"] .cm-accept`);
    await until(async () => (await text(b)).includes(REPLACEMENT), "the accepted text");
    await until(() => backups(ws).some((f) => f.json?.decisions?.length === 1), "the unsaved decision to be journaled");
    await click(b, '.tab[data-path="essay.md"] .tab-close');
    await click(b, '.modal button[data-action="Discard"]');
    // Counted in the page: an element handle of the closing tab can go stale as it is taken.
    await until(async () => (await count(b, '.tab[data-path="essay.md"]')) === 0, "the tab to close");
    await until(() => backups(ws).length === 0, "the discarded buffer's backup to be removed");
    const now = snapshot(ws);
    assert.ok(now.essay.equals(onDisk.essay) && now.sidecar.equals(onDisk.sidecar), "nothing was written");
    assert.ok(sidecar(ws, "essay.md").proposals.some((p) => p.id === id), "pending on disk");
    await openDoc(b, "essay.md");
    await until(async () => (await review(b)).proposals.some((p) => p.id === id && p.state === "pending"), "the proposal pending again in the app");
    assert.ok(!(await text(b)).includes(REPLACEMENT));
    // A crash now restores nothing: the writer discarded it.
    await crash(b, ws);
  } catch (e) {
    await end(b);
    throw e;
  }
  b = await startApp(driver.port, ws);
  try {
    await idle(b);
    assert.equal(await notice(b), null, "nothing to restore");
    if ((await active(b)) !== "essay.md") await openDoc(b, "essay.md");
    await until(async () => (await review(b)).proposals.some((p) => p.id === id && p.state === "pending"), "the proposal pending after a restart");
    assert.ok(!(await text(b)).includes(REPLACEMENT));
  } finally {
    await end(b);
  }
});

test("a normal quit after the close prompt leaves no backup behind", LONG, async () => {
  const ws = workspace();
  const onDisk = snapshot(ws);
  const b = await startApp(driver.port, ws);
  try {
    if ((await active(b)) !== "essay.md") await openDoc(b, "essay.md");
    await click(b, ".cm-content");
    await b.keys(["Control", "End"]);
    for (const ch of "Unsaved.") await b.keys(ch);
    await until(() => backups(ws).some((f) => f.json?.text?.includes("Unsaved.")), "the typing to be journaled");
    const pid = appPid(ws);
    // Quitting (Ctrl+Q, as closing the window) asks first: the buffer is unsaved.
    await b.keys(["Control", "q"]);
    await (await b.$('.modal button[data-action="Quit without saving"]')).waitForExist({ timeout: 60_000 });
    // The app exits during the click: its answer may be a dead session.
    await click(b, '.modal button[data-action="Quit without saving"]').catch(() => undefined);
    await until(() => !alive(pid), "the app to quit");
    assert.deepEqual(backups(ws), [], "no backup left");
    assert.ok(!existsSync(join(BACKUPS, wsHash(ws))), "nor the workspace's backup folder");
    const now = snapshot(ws);
    assert.ok(now.essay.equals(onDisk.essay), "the discarded typing never reached the document");
  } finally {
    await end(b);
  }
});
