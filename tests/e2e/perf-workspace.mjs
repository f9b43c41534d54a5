// A workspace of any size, measured (not asserted): `make perf-workspace`.
//
// Generates a git workspace of 40,000 Markdown pages in 400 folders, two of them
// 5,000 wide, a few dozen with review data (a comment each, filed through the
// CLI), and measures beside the bundled sample, in the same run, each figure
// the median of three:
// - the CLI's `status` (every document's review) beside `git status`, and its
//   `search` for a word nowhere beside `grep -r` over the same files; MCP's
//   first page of `list_documents` (start to answer, and its size);
// - the app (the build `make app-test` made; WebDriver): process start to the
//   tree drawn and to an editable document, a click on the tree's last drawn
//   document to its text, how many elements the page holds, the tree scrolled
//   (frame intervals' median); its Search tab
//   (Ctrl+Shift+F) for a word on every page, to the first result shown and to
//   the answer, and for a word nowhere, to the answer;
// - idle: the CPU time the app's processes use in 60 s untouched, the app
//   started on its own (no WebDriver) and left 20 s to settle first; then
//   their memory (RSS), the web process's apart.
// `COWRITING_PERF_WS=/some/tree` measures that tree instead of a generated one
// (a real docs repository you fetched); `REVIEWED=N` gives N more generated pages
// review data (a comment and a proposal each).
//
// Prints a Markdown table for docs/performance.md.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { remote } from "webdriverio";
import { APP, CLI, ROOT, median, memoryTree, processTree, startDriver, tempDir, testHome } from "./support.mjs";

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
  // REVIEWED=N: N pages more with review data (a comment and a proposal each),
  // spread over the folders, as a workspace reviewed for months has them.
  const more = Number(process.env.REVIEWED ?? 0);
  for (let k = 0, d = 0, i = 11; k < more; k++, d = (d + 1) % 400, i += d === 0 ? 10 : 0) {
    const page = `section-${String(d).padStart(3, "0")}/part-${d % 7}/page-${String(i % (d < 2 ? 5_000 : 75)).padStart(5, "0")}.md`;
    cli(ws, "thread", "new", page, "--find", "journald", "--body", "Which unit?");
    cli(ws, "propose", page, "--find", "prose", "--replace", "words");
  }
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
    // Scrolling the tree (the open document's folder is open: in the generated
    // tree 5,000 rows), 120 px a frame for 2 s; the frame intervals' median.
    const treeHeight = await b.execute(() => {
      const el = document.querySelector(".tree");
      el.scrollTop = 0;
      return el.scrollHeight;
    });
    const treeFrames = await b.execute(() => window.__cowriting.measureScroll(2000, ".tree"));
    // The Search tab: results show as documents are searched (search-progress).
    await b.keys(["Control", "Shift", "f"]);
    await b.waitUntil(() => b.execute(() => document.activeElement?.classList.contains("search-input")), { timeout: 60_000, interval: 20 });
    // The times are taken in the page (a MutationObserver on the tab), and
    // WebDriver asks for them only every 100 ms, so its polling does not take
    // the CPU the search runs on.
    const search = async (word) => {
      await b.execute((w) => {
        const input = document.querySelector(".search-input");
        const panel = input.closest("form").parentElement;
        const seen = { first: null, done: null };
        window.__searchSeen = seen;
        const at = performance.now();
        const look = () => {
          const now = performance.now();
          if (seen.first === null && panel.querySelector(".search-hit")) seen.first = now - at;
          const status = panel.querySelector(".search-status")?.textContent ?? "";
          if (status && !status.startsWith("Searching") && seen.done === null) {
            seen.done = now - at;
            observer.disconnect();
          }
        };
        const observer = new MutationObserver(look);
        observer.observe(panel, { childList: true, subtree: true, characterData: true });
        input.value = w;
        input.closest("form").requestSubmit();
      }, word);
      await b.waitUntil(() => b.execute(() => window.__searchSeen.done !== null), { timeout: 600_000, interval: 100 });
      return b.execute(() => window.__searchSeen);
    };
    await search("zqxjkvwfirst"); // warm: the files read once
    const found = await search("journald");
    const none = await search("zqxjkvwnothere");
    return { tree, editable, click, elements, treeScroll: median(treeFrames), treeHeight, searchFirst: found.first, searchDone: found.done, searchNone: none.done };
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

/**
 * MCP's first page of `list_documents`, as an agent gets it: seconds from
 * starting `cowriting mcp` to the answer (process start included, as for `git
 * status`), and the answer's size in bytes; then seconds from asking for the
 * next page (its cursor) to its answer (`null` when there is none).
 */
function mcpFirstPage(ws, env) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    let t1, seconds, bytes;
    const p = spawn(CLI, ["mcp", "-w", ws], { env, stdio: ["pipe", "pipe", "ignore"] });
    let buf = "";
    const send = (m) => p.stdin.write(JSON.stringify(m) + "\n");
    p.stdout.setEncoding("utf8");
    p.stdout.on("data", (d) => {
      buf += d;
      for (let i; (i = buf.indexOf("\n")) >= 0; ) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        const m = JSON.parse(line);
        if (m.id === 1) {
          send({ jsonrpc: "2.0", method: "notifications/initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_documents", arguments: {} } });
        } else if (m.id === 2) {
          seconds = Number(process.hrtime.bigint() - t0) / 1e9;
          bytes = Buffer.byteLength(line);
          const cursor = m.result?.structuredContent?.nextCursor;
          if (!cursor) {
            p.kill();
            resolve({ seconds, bytes, next: null });
            return;
          }
          t1 = process.hrtime.bigint();
          send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "list_documents", arguments: { cursor } } });
        } else if (m.id === 3) {
          const next = Number(process.hrtime.bigint() - t1) / 1e9;
          p.kill();
          resolve({ seconds, bytes, next });
        }
      }
    });
    p.on("error", reject);
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "perf", version: "1.0" } } });
  });
}

/** The CPU the app on `ws` uses in 60 s untouched, after 20 s to settle. */
async function idle(ws, env) {
  const p = spawn(APP, [ws], { env, stdio: "ignore" });
  try {
    await pause(20_000);
    const pids = processTree(p.pid);
    const before = cpuOf(pids);
    await pause(60_000);
    const cpu = cpuOf(pids) - before;
    const mem = memoryTree(p.pid);
    const web = mem.parts.find((x) => x.name.startsWith("WebKitWebProces"));
    return { cpu, rss: mem.rss, web: web ? web.rss : null };
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
    mcp: await (async () => {
      const runs = [await mcpFirstPage(ws, env), await mcpFirstPage(ws, env), await mcpFirstPage(ws, env)];
      return { seconds: median(runs.map((r) => r.seconds)), bytes: runs[0].bytes, next: runs[0].next === null ? null : median(runs.map((r) => r.next)) };
    })(),
    treeScroll: m("treeScroll"),
    treeHeight: m("treeHeight"),
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
  ["app: CPU in 60 s untouched", (r) => s(r.idle.cpu)],
  ["app: memory settled (RSS), web process / all its processes", (r) => `${r.idle.web?.toFixed(1)} / ${r.idle.rss.toFixed(1)} MiB`],
  ["app: tree scrolling, frame p50 (the tree's height)", (r) => `${r.treeScroll.toFixed(1)} ms (${r.treeHeight} px)`],
  ["MCP `list_documents`, first page (start to answer; its size)", (r) => `${s(r.mcp.seconds)} (${(r.mcp.bytes / 1024).toFixed(1)} KiB)`],
  ["MCP `list_documents`, the next page", (r) => (r.mcp.next === null ? "— (one page)" : s(r.mcp.next))],
])
  console.log(`| ${label} | ${rows.map(f).join(" | ")} |`);
