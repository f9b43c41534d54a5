// Who you are, checkers not installed, and autosave (issue 13), in the real app,
// on a machine that names nobody: an empty HOME (no settings), git without an
// identity (GIT_CONFIG_GLOBAL=/dev/null, no system config, a workspace outside
// any repository). The first run asks once for a name; a new comment carries
// it, in the thread and in the sidecar; Skip is never asked again; Vale, not
// installed, is off and marked so; autosave writes a typed word without Ctrl+S.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { click, count, fresh, idle, shot, sidecar, startDriver, tempDir, text, until, withApp as withAppAt, workspace } from "./support.mjs";

/** A HOME with nothing in it, and git naming nobody. */
function emptyHome() {
  const home = tempDir("cowriting-e2e-nobody-");
  const { COWRITING_CONFIG: _settings, ...inherited } = process.env;
  return {
    home,
    env: {
      ...inherited,
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_DATA_HOME: join(home, ".local/share"),
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_CONFIG_NOSYSTEM: "1",
    },
  };
}

let driver;
const nobody = emptyHome();
before(async () => {
  driver = await startDriver(nobody.env);
});
after(() => driver?.stop());

const withApp = (ws, f) => withAppAt(driver.port, ws, f);
/** An element's text (its textContent: the status bar may be scrolled out of WebDriver's view). */
const textOf = (b, sel) => b.execute((s) => document.querySelector(s)?.textContent ?? "", sel);
const modalGone = (b) => until(async () => (await count(b, ".modal")) === 0, "the dialog to close", 60_000);
const config = () => {
  try {
    return readFileSync(join(nobody.home, ".config/cowriting/config.toml"), "utf8");
  } catch {
    return "";
  }
};

test("the first run asks who you are once; a new comment carries the name, in the thread and on disk", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    const name = await b.$(".welcome-name");
    await name.waitForExist({ timeout: 60_000, timeoutMsg: "no first-run question" });
    await name.setValue("Ada Lovelace");
    await shot(b, "identity");
    await click(b, ".welcome-save");
    await modalGone(b);
    await until(async () => (await textOf(b, ".st-you")).includes("Ada Lovelace"), "the name in the status bar", 60_000);
    assert.match(config(), /name = "Ada Lovelace"/);
    assert.match(config(), /asked = true/);

    // A new comment: the name in the thread and in the sidecar.
    await idle(b);
    const t = await text(b);
    const at = t.search(/[A-Za-z]{5}/);
    assert.ok(at >= 0);
    await b.execute((a, z) => window.__cowriting.select(a, z), at, at + 5);
    await click(b, ".pt-threads");
    await click(b, ".btn-new-thread");
    await fresh(async () => (await b.$(".new-thread-body")).setValue("Mine."));
    await b.keys(["Control", "Enter"]);
    const doc = await b.execute(() => window.__cowriting.activePath());
    const mine = () => sidecar(ws, doc).threads.find((th) => th.comments[0]?.body === "Mine.");
    await until(() => {
      try {
        return mine();
      } catch {
        return false;
      }
    }, "the new thread in the sidecar", 60_000);
    assert.deepEqual(mine().comments[0].author, { kind: "human", id: "Ada Lovelace" });
    const card = `.thread[data-thread="${mine().id}"] .comment-meta`;
    await until(async () => (await count(b, card)) === 1, "the thread's card", 60_000);
    assert.match(await textOf(b, card), /^Ada Lovelace · /);
    await shot(b, "identity-thread");

    // Settings: you, with the name; Vale (when not installed here) off, and the command looked for.
    await click(b, ".st-you");
    const field = await b.$(".set-name");
    await field.waitForExist({ timeout: 60_000 });
    assert.equal(await field.getValue(), "Ada Lovelace");
    const vale = '.set-check[data-producer="vale"]';
    if (spawnSync("sh", ["-c", "command -v vale"], { env: nobody.env }).status === 0) {
      console.log("# Vale is installed here: its 'not installed' mark was not checked");
      assert.equal((await count(b, `${vale} .set-not-installed`)), 0);
      assert.equal(await (await b.$(`${vale} input`)).isSelected(), true, "installed: on by default");
    } else {
      assert.equal(await (await b.$(`${vale} .set-not-installed`)).getText(), "not installed (no vale found)");
      assert.equal(await (await b.$(`${vale} input`)).isSelected(), false);
    }
    assert.equal(await (await b.$('.set-check[data-producer="harper"] input')).isSelected(), true);
    await shot(b, "identity-settings");
    await b.keys(["Escape"]);
    await modalGone(b);
  });
  // Not asked again.
  await withApp(ws, async (b) => {
    await until(async () => (await textOf(b, ".st-you")).includes("Ada Lovelace"), "the name in the status bar", 60_000);
    await b.pause(1000);
    assert.equal((await count(b, ".welcome-name")), 0, "asked once only");
  });
});

test("autosave after a pause writes a typed word to disk without Ctrl+S", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    await until(async () => (await textOf(b, ".st-you")).length > 0, "the status bar's name", 60_000);
    assert.equal((await count(b, ".welcome-name")), 0, "answered in the first test");
    await click(b, ".st-settings");
    const mode = await b.$(".set-autosave");
    await mode.waitForExist({ timeout: 60_000 });
    await mode.selectByAttribute("value", "after_delay");
    await fresh(async () => (await b.$(".set-autosave-delay")).setValue("1"));
    await click(b, ".set-save");
    await modalGone(b);
    assert.match(config(), /autosave = "after_delay"/);
    assert.match(config(), /name = "Ada Lovelace"/, "the other keys are kept");

    const doc = await b.execute(() => window.__cowriting.activePath());
    const file = join(ws, doc);
    assert.ok(!readFileSync(file, "utf8").includes("Zephyr"));
    await click(b, ".cm-content");
    await b.keys(["Control", "End"]);
    await b.keys([" ", "Z", "e", "p", "h", "y", "r"]);
    await until(() => readFileSync(file, "utf8").includes("Zephyr"), "the autosave to reach the disk", 60_000);
    await until(async () => (await textOf(b, ".st-save")) === "Saved", "the status bar to say Saved", 60_000);
  });
});
