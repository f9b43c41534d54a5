// A session of any length, measured (not asserted): `make perf-session`.
//
// The real app (the build `make app-test` made, over WebDriver) on one
// document while an agent proposes from outside, as a real `cowriting`
// process each time, and the writer decides by keyboard and types: per cycle
// the agent files one proposal, the writer waits for it to arrive (the
// watcher), goes to it (Alt+]) and accepts it (Alt+Enter) or rejects it
// (Alt+Backspace) in turn, types a word, and saves every tenth cycle. The
// memory of the app's processes (RSS, anonymous, PSS through /proc, the
// checker apart) is read after a warm-up and every `EVERY` cycles; at the end
// a fresh app is opened on the same files and read the same way, so what a
// long session keeps beyond what its files need shows as the difference.
//
// CYCLES (default 300) and EVERY (default 50) in the environment. Prints a
// Markdown table for docs/performance.md.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, memoryTree, startApp, startDriver, tempDir, testHome } from "./support.mjs";

const CYCLES = Number(process.env.CYCLES ?? 300);
const EVERY = Number(process.env.EVERY ?? 50);
const DOC = "session.md";

const ws = tempDir("cowriting-perf-session-");
const lines = [];
for (let k = 0; k < CYCLES + 50; k++) lines.push(`Line ${k} has teh word in it, and some more prose after it to read.`);
writeFileSync(join(ws, DOC), `# A long session\n\n${lines.join("\n\n")}\n`);
mkdirSync(join(ws, ".threads"), { recursive: true });
execFileSync("git", ["-C", ws, "init", "-q"]);

const { env } = testHome({ enabled: [] });
const cli = (...args) => execFileSync(CLI, ["-w", ws, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
const f1 = (x) => x.toFixed(1);
/** Each process's anonymous memory, for the table. */
const anonParts = (m) => m.parts.map((x) => `${x.name} ${f1(x.anon)}`).join(", ");

/** The app processes on `ws` (the app and what it started). */
function appRoots() {
  try {
    return execFileSync("pgrep", ["-f", `cowriting-desktop ${ws}`], { encoding: "utf8" }).split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function until(f, what, ms = 120_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await pause(50);
  }
}

const review = (b) => b.execute(() => window.__cowriting.review());

async function settled(b) {
  await b.execute(() => window.__cowriting.idle());
  await pause(3000); // the watcher, autosave and the web process's collector
  return memoryTree(...appRoots());
}

const rows = [];
const driver = await startDriver(env);
// Stopped at the end, and however else the run ends (a failure): a driver left running holds the display.
process.on("exit", () => driver.stop());
let b = await startApp(driver.port, ws);
const t0 = Date.now();
let decideMs = [];
try {
  await (await b.$(".cm-content")).click();
  for (let k = 0; k < CYCLES; k++) {
    const before = (await review(b)).proposals.length;
    cli("propose", DOC, "--find", `Line ${k} has teh`, "--replace", `Line ${k} has the`, "--turn", `turn-${k}`, "--model", "sonnet");
    await until(async () => (await review(b)).proposals.length > before, `proposal ${k} in the app`);
    // Go to it from the document's start, and decide it.
    const t = Date.now();
    await b.keys(["Control", "Home"]);
    await b.keys(["Alt", "]"]);
    await b.keys(k % 2 ? ["Alt", "Backspace"] : ["Alt", "Enter"]);
    await until(async () => (await review(b)).proposals.length === before, `proposal ${k} decided`);
    decideMs.push(Date.now() - t);
    await b.keys(["Control", "End"]);
    await b.keys([" ", "w", "o", "r", "d"]);
    if (k % 10 === 9) await b.keys(["Control", "s"]);
    if (k === 19 || (k + 1) % EVERY === 0) {
      const m = await settled(b);
      const elements = await b.execute(() => document.getElementsByTagName("*").length);
      rows.push({ cycle: k + 1, minutes: (Date.now() - t0) / 60_000, elements, ...m });
      const parts = anonParts(m);
      console.error(`cycle ${k + 1}: RSS ${f1(m.rss)} anon ${f1(m.anon)} PSS ${f1(m.pss)} MiB (anon: ${parts}); ${elements} elements`);
    }
  }
  await b.keys(["Control", "s"]);
  await b.execute(() => window.__cowriting.idle());
} finally {
  await b.deleteSession().catch(() => undefined);
}
await pause(2000);
// A fresh app on the same files.
b = await startApp(driver.port, ws);
let fresh;
try {
  await (await b.$(".cm-content")).click();
  fresh = await settled(b);
} finally {
  await b.deleteSession().catch(() => undefined);
  driver.stop();
}

const first = rows[0];
const last = rows[rows.length - 1];
// Growth needs two readings (CYCLES past the first EVERY).
const per1000 = (k) => (last.cycle > first.cycle ? f1(((last[k] - first[k]) / (last.cycle - first.cycle)) * 1000) : "—");
decideMs = decideMs.sort((x, y) => x - y);
const p50 = decideMs[Math.floor(decideMs.length / 2)];
console.log(`| cycle | minutes | RSS | anon | PSS | anon by process | page elements |\n| --- | --- | --- | --- | --- | --- | --- |`);
for (const r of rows) console.log(`| ${r.cycle} | ${f1(r.minutes)} | ${f1(r.rss)} | ${f1(r.anon)} | ${f1(r.pss)} | ${anonParts(r)} | ${r.elements} |`);
console.log(`| fresh app, same files | | ${f1(fresh.rss)} | ${f1(fresh.anon)} | ${f1(fresh.pss)} | ${anonParts(fresh)} | |`);
console.log(
  `\nGrowth per 1,000 cycles after cycle ${first.cycle}: RSS ${per1000("rss")}, anon ${per1000("anon")}, PSS ${per1000("pss")} MiB; ` +
    `at the end over a fresh app: RSS +${f1(last.rss - fresh.rss)}, anon +${f1(last.anon - fresh.anon)}, PSS +${f1(last.pss - fresh.pss)} MiB; ` +
    `a decision by keyboard, proposal on screen to gone: p50 ${p50} ms over ${decideMs.length}.`,
);
