// Helpers shared by end-to-end test files (copied from app.test.mjs, with the
// tauri-driver ports and the environment as parameters, so one file can run
// beside another machine's tests and restart the app on the same workspace).
//
// The temporary workspaces and HOMEs it makes are removed when a file passes,
// kept after a failure or with KEEP_E2E_TMP=1. A wait for the app gives it 60 s
// or more: the machine may be loaded.
import { after, before } from "node:test";
import { spawn, execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { remote } from "webdriverio";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const TARGET = process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(ROOT, "target");
export const APP = process.env.COWRITING_APP ?? join(TARGET, "debug/cowriting-desktop");
export const CLI = process.env.COWRITING_CLI ?? join(TARGET, "debug/cowriting");

const temporary = [];
/**
 * A new directory under the system's temporary one (`prefix` and a random tail),
 * removed when this test file's process ends with every test passed. After a
 * failure, or with KEEP_E2E_TMP=1, it is kept to look at.
 */
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}
process.on("exit", (code) => {
  if (code !== 0 || process.env.KEEP_E2E_TMP) return;
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});

/**
 * A HOME of the tests' own: git identity, app data, and the user's settings, in
 * which Claude is the fake Claude Code in fixtures/ (no network, no model) and
 * `enabled` are what Check document runs. `env` is added to the environment.
 */
export function testHome({ env = {}, enabled = ["harper"] } = {}) {
  const home = tempDir("cowriting-e2e-home-");
  writeFileSync(join(home, ".gitconfig"), "[user]\n\temail = writer@example.com\n\tname = Writer\n");
  mkdirSync(join(home, ".config/cowriting"), { recursive: true });
  writeFileSync(
    join(home, ".config/cowriting/config.toml"),
    `[claude]\ntransport = "cli"\ncommand = ${JSON.stringify(join(ROOT, "tests/e2e/fixtures/fake-claude"))}\ntimeout_secs = 30\n\n[producers]\nenabled = ${JSON.stringify(enabled)}\n`,
  );
  return {
    home,
    env: {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_DATA_HOME: join(home, ".local/share"),
      GIT_CONFIG_NOSYSTEM: "1",
      ...env,
    },
  };
}

/** A TCP port nobody listens on now. */
export function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

function waitForPort(port, ms) {
  const until = Date.now() + ms;
  return new Promise((ok, fail) => {
    const tryOnce = () => {
      const s = connect(port, "127.0.0.1");
      s.on("connect", () => {
        s.end();
        ok();
      });
      s.on("error", () => (Date.now() > until ? fail(new Error(`port ${port} not open`)) : setTimeout(tryOnce, 100)));
    };
    tryOnce();
  });
}

/** Start tauri-driver (and its WebKitWebDriver) on free ports; `stop()` ends it. */
export async function startDriver(env) {
  const port = await freePort();
  const nativePort = await freePort();
  const child = spawn("tauri-driver", ["--port", String(port), "--native-port", String(nativePort)], {
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitForPort(port, 60_000);
  return { port, stop: () => child.kill() };
}

/** A fresh copy of the sample workspace. */
export function workspace() {
  const dir = tempDir("cowriting-e2e-ws-");
  cpSync(join(ROOT, "examples/workspace"), dir, { recursive: true });
  return dir;
}

export function cli(env, ws, ...args) {
  return execFileSync(CLI, ["-w", ws, ...args], { env, encoding: "utf8" }).trim();
}

export function sidecar(ws, doc) {
  return JSON.parse(readFileSync(join(ws, ".threads", `${doc}.json`), "utf8"));
}

/**
 * A WebDriver session on the app opened on `ws`, once the editor shows a
 * document (or, with `ready`, once `ready()` is true in the page: an empty
 * workspace shows no document).
 */
export async function startApp(port, ws, ready = () => Boolean(window.__cowriting?.text())) {
  const browser = await remote({
    hostname: "127.0.0.1",
    port,
    logLevel: "error",
    connectionRetryTimeout: 120_000,
    capabilities: {
      browserName: "wry",
      "wdio:enforceWebDriverClassic": true,
      // No folder (`ws` null): the app opens what it opens at a first launch, the sample.
      "tauri:options": { application: APP, args: ws == null ? [] : [ws] },
    },
  });
  await browser.waitUntil(() => browser.execute(ready), {
    timeout: 60_000,
    timeoutMsg: "the editor never showed a document (or the app was never ready)",
  });
  return browser;
}

/** Start the app on `ws` under the driver at `port`, run `f(browser)`, always end the session. */
export async function withApp(port, ws, f, ready = undefined) {
  const browser = await startApp(port, ws, ready);
  try {
    await f(browser);
  } finally {
    await browser.deleteSession().catch(() => undefined);
    if (ws != null) await reap(ws);
  }
}

/**
 * End what is left of the app on `ws` once its session is gone. Seen once: the
 * Inbox test, failing half-way, left the app running without its web process,
 * holding the test runner's output pipe, so the run never ended. Given 10 s to
 * quit on its own, then killed.
 */
async function reap(ws) {
  const pids = () => {
    try {
      return execFileSync("pgrep", ["-f", "--", `${APP} ${ws}`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })
        .split("\n")
        .filter(Boolean)
        .map(Number);
    } catch {
      return []; // pgrep exits 1 when there is none
    }
  };
  const end = Date.now() + 10_000;
  while (pids().length && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
  for (const pid of pids()) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* gone meanwhile */
    }
  }
}

/** Retry `f` while the element it used was replaced by a re-render. */
export async function fresh(f, tries = 8) {
  for (let i = 0; ; i++) {
    try {
      return await f();
    } catch (e) {
      const stale = /stale element|was not found|no such element/i.test(String(e?.message ?? e));
      if (!stale || i >= tries) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
export const click = (b, selector) => fresh(async () => (await b.$(selector)).click());
export const text = (b) => b.execute(() => window.__cowriting.text());
export const review = (b) => b.execute(() => window.__cowriting.review());
export const active = (b) => b.execute(() => window.__cowriting.activePath());
export const idle = (b) => b.execute(() => window.__cowriting.idle());

export async function openDoc(b, path) {
  await click(b, `.tree-item[data-path="${path}"]`);
  await b.waitUntil(async () => (await active(b)) === path, { timeout: 60_000 });
}

/**
 * How many elements match `selector` now, counted in the page: no element
 * handles, so an element removed meanwhile cannot make it fail (WebDriver's
 * `$$` can, "stale element", when a dialog closes as it looks).
 */
export const count = (b, selector) => b.execute((s) => document.querySelectorAll(s).length, selector);

/** Poll `f` (sync or async) until it is truthy; fail with `what` after `ms`. */
export async function until(f, what, ms = 60_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) {
      throw new Error(`timed out after ${ms} ms waiting for ${typeof what === "function" ? await what() : what}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Type `s` a key at a time, as a writer does (a space is WebDriver's Space key, a line break Enter). */
export async function typeText(b, s) {
  for (const ch of s) await b.keys(ch === " " ? "\uE00D" : ch === "\n" ? "Enter" : ch);
}

/** Where the tests' screenshots go (git-ignored); the README's copies in docs/screenshots/ are refreshed by hand from there. */
export const ARTIFACTS = join(ROOT, "tests/e2e/artifacts");
mkdirSync(ARTIFACTS, { recursive: true });

/**
 * Save a screenshot of the app's page to `file`. WebKit's driver takes it
 * after the page's next paint, and an untouched page does not paint (the app
 * stills WebKit's caret blink: src-tauri/src/caret.rs), so a transparent
 * pixel is put on the page and taken away every 100 ms until the screenshot
 * is taken (one paint timed before the request arrived would be missed on a
 * loaded machine).
 */
export async function screenshot(b, file) {
  await b.execute(() => {
    const d = document.createElement("div");
    d.style.cssText = "position:fixed;left:0;top:0;width:1px;height:1px;pointer-events:none";
    window.__screenshotPaint = setInterval(() => (d.isConnected ? d.remove() : document.body.append(d)), 100);
    window.__screenshotPixel = d;
  });
  try {
    await b.saveScreenshot(file);
  } finally {
    await b.execute(() => {
      clearInterval(window.__screenshotPaint);
      window.__screenshotPixel?.remove();
    });
  }
}

/** Save a screenshot of the app's page as `artifacts/<name>.png` (see {@link screenshot}). */
export const shot = (b, name) => screenshot(b, join(ARTIFACTS, `${name}.png`));

/**
 * A test file's tauri-driver: started with `env` before its tests, stopped
 * after them. `withApp(ws, f)` runs the app on `ws` under it (see `withApp`).
 */
export function fileDriver(env) {
  let driver;
  before(async () => {
    driver = await startDriver(env);
  });
  after(() => driver?.stop());
  return { withApp: (ws, f) => withApp(driver.port, ws, f) };
}

/** The X window ids whose name matches `pattern` (none yet: []). */
export function windows(pattern) {
  try {
    return execFileSync("xdotool", ["search", "--name", pattern], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
  } catch (e) {
    if (e?.status === 1) return [];
    throw e;
  }
}

/** Answer the native Save dialog titled `title` with Return: the offered name, in the offered folder. */
export async function saveInDialog(title) {
  const [id] = await until(() => {
    const found = windows(`^${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
    return found.length ? found : null;
  }, `the native Save dialog "${title}"`, 60_000);
  // GTK puts the focus in the name field once the dialog is mapped; give it the keyboard, then Return.
  await new Promise((r) => setTimeout(r, 1500));
  execFileSync("xdotool", ["windowfocus", id]);
  await new Promise((r) => setTimeout(r, 300));
  execFileSync("xdotool", ["key", "--clearmodifiers", "Return"]);
}

/** Export… the active document from the palette: `format` (a radio's value), with the review or not; the dialog left open. */
export async function chooseExport(b, format, withReview) {
  await b.keys(["Control", "Shift", "p"]);
  const input = await b.$(".palette-input");
  await input.waitForDisplayed({ timeout: 60_000 });
  await typeText(b, "export");
  await click(b, '.palette-list li[data-command="export"]');
  await (await b.$(".export-dialog")).waitForDisplayed({ timeout: 60_000 });
  await click(b, `.export-format[value="${format}"]`);
  const review = await b.$(".export-review");
  if (format !== "critic" && (await review.isSelected()) !== withReview) await review.click();
}

/** The started process and its descendants (through /proc's parent links). */
export function processTree(root) {
  const parent = new Map();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      /* gone */
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const [pid, pp] of parent) if (pp === out[i]) out.push(pid);
  return out;
}

/** kB figures of one process: RSS, anonymous RSS, PSS; null when it is gone. */
function processMemory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (re, text) => Number(text.match(re)?.[1] ?? 0);
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return {
      name: status.match(/^Name:\s+(.*)$/m)?.[1] ?? String(pid),
      checker: cmd.includes("--harper-checker"),
      rss: kb(/^VmRSS:\s+(\d+)/m, status),
      anon: kb(/^RssAnon:\s+(\d+)/m, status),
      pss: kb(/^Pss:\s+(\d+)/m, rollup),
    };
  } catch {
    return null;
  }
}

/**
 * The memory of the processes `roots` started and their descendants, in MiB
 * (`make perf`, `make perf-session`): totals with Harper's checker apart, and
 * each process's (`parts`: name, RSS, anonymous). Shells are not counted.
 */
export function memoryTree(...roots) {
  const zero = () => ({ rss: 0, anon: 0, pss: 0 });
  const total = zero();
  const checker = zero();
  const parts = [];
  const seen = new Set();
  for (const root of roots)
    for (const p of processTree(root)) {
      if (seen.has(p)) continue;
      seen.add(p);
      const f = processMemory(p);
      if (!f || f.name === "sh" || f.name === "bash") continue;
      const into = f.checker ? checker : total;
      for (const k of ["rss", "anon", "pss"]) into[k] += f[k] / 1024;
      parts.push({ name: f.checker ? "checker" : f.name, rss: f.rss / 1024, anon: f.anon / 1024 });
    }
  return { ...total, checker, parts };
}

/** The `p`th percentile of `xs` (the measurement scripts' figures). */
export function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** The middle of `xs`. */
export const median = (xs) => pct(xs, 50);
