// A workspace of any size, measured (not asserted): `make perf-workspace`.
//
// Generates a git workspace of 40,000 Markdown pages in 400 folders, two of them
// 5,000 wide, a few dozen with review data (a comment each, filed through the
// CLI), and measures beside the bundled sample, in the same run, each figure
// the median of three:
// - the CLI's `status` (every document's review) beside `git status`, and its
//   `search` for a word nowhere beside `grep -r` over the same files;
// - the app (the build `make app-test` made; WebDriver): process start to the
//   tree drawn and to an editable document, a click on the tree's last drawn
//   document to its text, and how many elements the page holds; its Search tab
//   (Ctrl+Shift+F) for a word on every page, to the first result shown and to
//   the answer, and for a word nowhere, to the answer;
// - idle: the CPU time the app's processes use in 60 s untouched, the app
//   started on its own (no WebDriver) and left 20 s to settle first.
// `COWRITING_PERF_WS=/some/tree` measures that tree instead of a generated one
// (a real docs repository you fetched).
//
// Prints a Markdown table for docs/performance.md.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { remote } from "webdriverio";
import { APP, CLI, ROOT, processTree, startDriver, tempDir, testHome } from "./support.mjs";

function generate() {
  const ws = tempDir("cowriting-perf-big-");
  let n = 0;
  for (let d = 0; d < 400 && n < 40_000; d++) {
    const width = d < 2 ? 5_000 : 75;
    const folder = join(ws, `section-${String(d).padStart(3, "0")}`, `part-${d % 7}`);
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < width && n < 40_000; i++, n++) {
      writeFileSync(join(folder, `page-${String(i).padStart(5, "0")}.md`), `# Page ${i} of section ${d}\n\nSome prose about systemctl and journald, page ${i}.\n`);
    }
  }
  git(ws, "init", "-q");
  git(ws, "add", "-A");
  git(ws, "-c", "user.name=W", "-c", "user.email=w@example.com", "commit", "-qm", "pages");
  for (let d = 0; d < 400; d += 10) cli(ws, "thread", "new", `section-${String(d).padStart(3, "0")}/part-${d % 7}/page-00001.md`, "--find", "prose", "--body", "Is this right?");
  return ws;
}

const git = (ws, ...args) => execFileSync("git", ["-C", ws, ...args], { stdio: ["ignore", "pipe", "pipe"] });
const cli = (ws, ...args) => execFileSync(CLI, ["-w", ws, ...args], { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 30 });

function seconds(f) {
  const t = process.hrtime.bigint();
  try {
    f();
  } catch {
    /* grep exits 1 when nothing matches */
  }
  return Number(process.hrtime.bigint() - t) / 1e9;
}
/** Whether ripgrep is here to measure beside (it is not one of the app's dependencies). */
const HAS_RG = (() => {
  try {
    execFileSync("rg", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const thrice = (f) => median([seconds(f), seconds(f), seconds(f)]);

async function app(ws, env) {
  const driver = await startDriver(env);
  const t0 = Date.now();
  const b = await remote({
    hostname: "127.0.0.1",
    port: driver.port,
    logLevel: "error",
    connectionRetryTimeout: 600_000,
    capabilities: { browserName: "wry", "wdio:enforceWebDriverClassic": true, "tauri:options": { application: APP, args: [ws] } },
  });
  try {
    await b.waitUntil(() => b.execute(() => document.querySelectorAll(".tree-item").length > 0), { timeout: 600_000, interval: 50 });
    const tree = Date.now() - t0;
    await b.waitUntil(() => b.execute(() => Boolean(window.__cowriting?.text())), { timeout: 600_000, interval: 50 });
    const editable = Date.now() - t0;
    const target = await b.execute(() => {
      const items = document.querySelectorAll(".tree-item[data-path]");
      const last = items[items.length - 1];
      last.click();
      return last.dataset.path;
    });
    const t1 = Date.now();
    await b.waitUntil(() => b.execute((p) => window.__cowriting.activePath() === p && Boolean(window.__cowriting.text()), target), { timeout: 600_000, interval: 10 });
    const click = Date.now() - t1;
    const elements = await b.execute(() => document.getElementsByTagName("*").length);
    // The Search tab: results show as documents are searched (search-progress).
    await b.keys(["Control", "Shift", "f"]);
    await b.waitUntil(() => b.execute(() => document.activeElement?.classList.contains("search-input")), { timeout: 60_000, interval: 20 });
    const search = async (word) => {
      const t = await b.execute((w) => {
        const input = document.querySelector(".search-input");
        input.value = w;
        const at = performance.now();
        input.closest("form").requestSubmit();
        return at;
      }, word);
      let first = null;
      for (;;) {
        const [now, hit, status] = await b.execute(() => [performance.now(), Boolean(document.querySelector(".search-hit")), document.querySelector(".search-status")?.textContent ?? ""]);
        if (hit && first === null) first = now - t;
        if (status && !status.startsWith("Searching")) return { first, done: now - t };
        await pause(5);
      }
    };
    await search("zqxjkvwfirst"); // warm: the files read once
    const found = await search("journald");
    const none = await search("zqxjkvwnothere");
    return { tree, editable, click, elements, searchFirst: found.first, searchDone: found.done, searchNone: none.done };
  } finally {
    await b.deleteSession().catch(() => undefined);
    driver.stop();
  }
}

/** CPU seconds (user + system) the processes `pids` have used so far. */
function cpuOf(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, "utf8");
      const rest = f.slice(f.lastIndexOf(")") + 2).split(" ");
      ticks += Number(rest[11]) + Number(rest[12]); // utime, stime (fields 14 and 15)
    } catch {
      /* gone */
    }
  }
  return ticks / 100; // USER_HZ
}

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** The CPU the app on `ws` uses in 60 s untouched, after 20 s to settle. */
async function idle(ws, env) {
  const p = spawn(APP, [ws], { env, stdio: "ignore" });
  try {
    await pause(20_000);
    const pids = processTree(p.pid);
    const before = cpuOf(pids);
    await pause(60_000);
    return cpuOf(pids) - before;
  } finally {
    p.kill("SIGKILL");
    for (const pid of processTree(p.pid)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* gone */
      }
    }
  }
}

const big = process.env.COWRITING_PERF_WS ?? generate();
const sample = tempDir("cowriting-perf-sample-");
cpSync(join(ROOT, "examples/workspace"), sample, { recursive: true });
git(sample, "init", "-q");
git(sample, "add", "-A");
git(sample, "-c", "user.name=W", "-c", "user.email=w@example.com", "commit", "-qm", "sample");
const { env } = testHome();
const rows = [];
for (const [name, ws] of [
  ["sample", sample],
  ["large", big],
]) {
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await app(ws, env));
  const m = (k) => median(runs.map((r) => r[k]));
  rows.push({
    name,
    gitStatus: thrice(() => git(ws, "status", "--porcelain")),
    status: thrice(() => cli(ws, "status")),
    grep: thrice(() => execFileSync("grep", ["-r", "--include=*.md", "-l", "zqxjkvwnothere", ws], { stdio: "ignore" })),
    search: thrice(() => cli(ws, "search", "zqxjkvwnothere")),
    tree: m("tree"),
    editable: m("editable"),
    click: m("click"),
    elements: m("elements"),
    searchFirst: m("searchFirst"),
    searchDone: m("searchDone"),
    searchNone: m("searchNone"),
    rg: HAS_RG ? thrice(() => execFileSync("rg", ["-l", "zqxjkvwnothere", ws], { stdio: "ignore" })) : null,
    idle: await idle(ws, env),
  });
}
const s = (x) => `${x.toFixed(2)} s`;
const ms = (x) => `${(x / 1000).toFixed(2)} s`;
console.log("| | " + rows.map((r) => r.name).join(" | ") + " |");
console.log("| --- | " + rows.map(() => "---").join(" | ") + " |");
for (const [label, f] of [
  ["`git status`", (r) => s(r.gitStatus)],
  ["CLI `status`", (r) => s(r.status)],
  ["`grep -r`, no hit", (r) => s(r.grep)],
  ["CLI `search`, no hit", (r) => s(r.search)],
  ["app: start to the tree drawn", (r) => ms(r.tree)],
  ["app: start to an editable document", (r) => ms(r.editable)],
  ["app: a click in the tree to its text", (r) => `${r.click} ms`],
  ["app: elements in the page", (r) => String(r.elements)],
  ["app search, a word on every page: first result shown", (r) => (r.searchFirst === null ? "— (no hit)" : `${Math.round(r.searchFirst)} ms`)],
  ["app search, a word on every page: the answer (the first 1,000)", (r) => `${Math.round(r.searchDone)} ms`],
  ["app search, no hit: the answer", (r) => `${Math.round(r.searchNone)} ms`],
  ["`rg -l`, no hit", (r) => (r.rg === null ? "— (rg not installed)" : s(r.rg))],
  ["app: CPU in 60 s untouched", (r) => s(r.idle)],
])
  console.log(`| ${label} | ${rows.map(f).join(" | ")} |`);
