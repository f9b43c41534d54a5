// Performance of the real app, measured (not asserted): `make perf`.
//
// - cold start: process start (WebDriver session request) to an editable document;
// - a keystroke's round trip to the core on a 1 MB document (p50 / p95);
// - opening a 5 MB document with 1,000 pending proposals, and scrolling through it;
// - typing in that document, one key after the other and at a writer's pace (10 keys
//   a second), beside bare CodeMirror with the same document in the same webview
//   (ui/perf, served by the `bare_window` example of src-tauri);
// - memory, each program started on its own without WebDriver (whose automation
//   costs the web process memory) and measured after it settled: the floor, a bare
//   Tauri + WebKitGTK window on a blank page (`bare_window`); bare CodeMirror with
//   the 5 MB document; the app with the small document and with the 5 MB one.
//   Counted: the started process and its descendants only (found through
//   /proc's parent links, never by name across the machine), the app's Harper
//   checker apart; per process RSS, anonymous RSS and PSS (smaps_rollup: shared
//   pages divided among their sharers, so the sum is a de-duplicated total). The
//   four programs run in turn, three rounds alternating, and each figure is the
//   median of its three. Compositing as the app chooses it (src-tauri's
//   rendering.rs): off without a GPU, for the floors too, so like is compared
//   with like.
//
// Prints a Markdown table for docs/performance.md.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { remote } from "webdriverio";
import { median, memoryTree, pct, processTree } from "./support.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const TARGET = process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(ROOT, "target");
const APP = process.env.COWRITING_APP ?? join(TARGET, "debug/cowriting-desktop");
const BARE = process.env.COWRITING_BARE ?? join(TARGET, "debug/examples/bare_window");
const BARE_PAGE = join(ROOT, "ui/perf/dist");
const PORT = 4446;
const HOME = mkdtempSync(join(tmpdir(), "cowriting-perf-home-"));
// Who the writer is (git's identity), so the first run's question does not cover the window.
writeFileSync(join(HOME, ".gitconfig"), "[user]\n\temail = writer@example.com\n\tname = Writer\n");
const ENV = { ...process.env, HOME, XDG_CONFIG_HOME: join(HOME, ".config"), XDG_DATA_HOME: join(HOME, ".local/share"), GIT_CONFIG_NOSYSTEM: "1" };

const WORDS = "the writer revised each sentence until it said exactly what she meant and nothing more while the editor suggested quieter verbs for café naïve déjà vu".split(" ");

/** Markdown prose of about `bytes` bytes, 80-ish columns, paragraphs of 6 lines. */
function prose(bytes, seed = 1) {
  let x = seed;
  const rnd = () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const lines = [];
  let size = 0;
  let n = 0;
  while (size < bytes) {
    if (n % 40 === 0) lines.push(`## Section ${n / 40 + 1}`, "");
    let line = "";
    while (line.length < 76) line += (line ? " " : "") + WORDS[Math.floor(rnd() * WORDS.length)];
    lines.push(line + ".");
    if (++n % 6 === 0) lines.push("");
    size += line.length + 2;
  }
  return lines.join("\n") + "\n";
}

/** A sidecar with `count` pending proposals spread over `text` (fingerprints as the core builds them). */
function sidecarWithProposals(docPath, text, count) {
  const chars = Array.from(text);
  const anchors = {};
  const proposals = [];
  const step = Math.floor(chars.length / (count + 1));
  let line = 0;
  let lineAt = 0;
  for (let i = 0; i < count; i++) {
    let start = step * (i + 1);
    while (chars[start] !== " ") start++;
    start++;
    let end = start;
    while (chars[end] !== " " && chars[end] !== "\n" && chars[end] !== ".") end++;
    for (; lineAt < start; lineAt++) if (chars[lineAt] === "\n") line++;
    const id = `a_perf${i}`;
    anchors[id] = {
      fingerprint: {
        text: chars.slice(start, end).join(""),
        before: chars.slice(Math.max(0, start - 32), start).join(""),
        after: chars.slice(end, end + 32).join(""),
        lineHint: line,
      },
    };
    proposals.push({
      id: `pr_perf${i}`,
      anchorId: id,
      replacement: chars.slice(start, end).join("").toUpperCase() + " indeed",
      author: { kind: "agent", id: "claude", agent: { sdk: "perf", model: "claude-sonnet-4-5" } },
      createdAt: "2026-06-10T00:00:00.000Z",
      turnId: `turn-${Math.floor(i / 10)}`,
    });
  }
  return JSON.stringify({ schemaVersion: 1, docPath, anchors, threads: [], attributions: [], proposals }, null, 2) + "\n";
}

function waitForPort(port, ms) {
  const until = Date.now() + ms;
  return new Promise((ok, fail) => {
    const once = () => {
      const s = connect(port, "127.0.0.1");
      s.on("connect", () => (s.end(), ok()));
      s.on("error", () => (Date.now() > until ? fail(new Error("no driver")) : setTimeout(once, 100)));
    };
    once();
  });
}

const f1 = (x) => x.toFixed(1);

const ws = mkdtempSync(join(tmpdir(), "cowriting-perf-ws-"));
mkdirSync(join(ws, ".threads"), { recursive: true });
const small = "# Start\n\nA short note to open first.\n";
writeFileSync(join(ws, "a-start.md"), small);
const oneMb = prose(1_000_000, 7);
writeFileSync(join(ws, "one-mb.md"), oneMb);
const fiveMb = prose(5_000_000, 3);
writeFileSync(join(ws, "five-mb.md"), fiveMb);
writeFileSync(join(ws, ".threads/five-mb.md.json"), sidecarWithProposals("five-mb.md", fiveMb, 1000));

const pause = (ms) => new Promise((r) => setTimeout(r, ms));
execFileSync("git", ["-C", ws, "init", "-q"]);
// The small and the 5 MB document each in a workspace of its own for the memory
// rounds and the cold starts: a start reopens the tabs its workspace remembers,
// so in one workspace the "small" app would hold the 5 MB document from round 2.
const wsSmall = mkdtempSync(join(tmpdir(), "cowriting-perf-small-"));
writeFileSync(join(wsSmall, "a-start.md"), small);
execFileSync("git", ["-C", wsSmall, "init", "-q"]);
const ws5 = mkdtempSync(join(tmpdir(), "cowriting-perf-five-"));
mkdirSync(join(ws5, ".threads"));
writeFileSync(join(ws5, "five-mb.md"), fiveMb);
writeFileSync(join(ws5, ".threads/five-mb.md.json"), sidecarWithProposals("five-mb.md", fiveMb, 1000));
execFileSync("git", ["-C", ws5, "init", "-q"]);

/** Without a GPU the app turns WebKit's compositing off itself (rendering.rs); the floors get the same. */
const noGpu = (() => {
  try {
    return !readdirSync("/dev/dri").some((n) => n.startsWith("renderD"));
  } catch {
    return true;
  }
})();
const FLOOR_ENV = noGpu && !process.env.WEBKIT_DISABLE_COMPOSITING_MODE ? { WEBKIT_DISABLE_COMPOSITING_MODE: "1" } : {};

/** Start `bin args` on its own (no WebDriver), wait `ms`, and read the memory of its process tree. */
async function memoryOf(bin, args, ms, env = {}) {
  const p = spawn(bin, args, { env: { ...ENV, ...env }, stdio: "ignore" });
  try {
    await pause(ms);
    return memoryTree(p.pid);
  } finally {
    for (const pid of processTree(p.pid).reverse()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* gone */
      }
    }
    await pause(1500);
  }
}

const rows = [];
const memRows = [];
const ROUNDS = 3;
try {
  // Floor and app alternated, three rounds; medians of each figure.
  const programs = [
    ["floor", BARE, [], 10_000, FLOOR_ENV],
    ["bareCm", BARE, [BARE_PAGE, join(ws, "five-mb.md")], 15_000, FLOOR_ENV],
    ["small", APP, [join(wsSmall, "a-start.md")], 15_000, {}],
    ["big", APP, [join(ws5, "five-mb.md")], 15_000, {}],
  ];
  const seen = Object.fromEntries(programs.map(([k]) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, bin, args, ms, env] of programs) seen[k].push(await memoryOf(bin, args, ms, env));
  }
  const med = (k) => {
    const runs = seen[k];
    const pick = (f) => median(runs.map(f));
    return {
      rss: pick((m) => m.rss),
      anon: pick((m) => m.anon),
      pss: pick((m) => m.pss),
      checker: pick((m) => m.checker.rss),
      parts: runs[Math.floor(runs.length / 2)].parts.map((x) => `${x.name} ${f1(x.rss)}`),
    };
  };
  const m = Object.fromEntries(programs.map(([k]) => [k, med(k)]));
  const show = (x) => `RSS ${f1(x.rss)} · anon ${f1(x.anon)} · PSS ${f1(x.pss)} MiB (${x.parts.join(", ")})`;
  const over = (x, y, what) => `+${f1(x.rss - y.rss)} RSS · +${f1(x.anon - y.anon)} anon · +${f1(x.pss - y.pss)} PSS MiB over ${what}`;
  memRows.push(["Floor: a bare Tauri + WebKitGTK window on a blank page", show(m.floor), ""]);
  memRows.push(["Bare CodeMirror with the 5 MB document in the same window", `${show(m.bareCm)} — ${over(m.bareCm, m.floor, "the floor")}`, ""]);
  memRows.push(["The app, a small document open, 15 s after start", `${show(m.small)} — ${over(m.small, m.floor, "the floor")}`, ""]);
  memRows.push([
    "The app, the 5 MB document with 1,000 proposals open, 15 s after start",
    // Per proposal: what the 5 MB document with its proposals adds to the app,
    // less what the same document adds to bare CodeMirror, over 1,000.
    `${show(m.big)} — ${over(m.big, m.bareCm, "bare CodeMirror")}; per proposal ${f1(((m.big.anon - m.small.anon - (m.bareCm.anon - m.floor.anon)) * 1024) / 1000)} KiB anon`,
    "≤ +50 anon, ≤ +70 RSS over bare CodeMirror",
  ]);
  memRows.push(["Harper's checker process, counted apart (Check document starts it; spelling as you type does not): small / 5 MB document", `${f1(m.small.checker)} / ${f1(m.big.checker)} MiB RSS`, "spelling ≤ +25 MiB"]);
  memRows.push(["Compositing", noGpu ? "off for all four (no GPU: the app's choice, given to the floors too)" : "WebKit's default (a GPU)", ""]);
} catch (e) {
  console.error(`memory not measured: ${e.message} (build: make app; cargo build -p cowriting-desktop --example bare_window; cd ui && npx vite build --config perf/vite.config.ts)`);
}

const driver = spawn("tauri-driver", ["--port", String(PORT)], { env: { ...ENV, ...FLOOR_ENV }, stdio: ["ignore", "ignore", "inherit"] });
await waitForPort(PORT, 10_000);
const session = (application, args) =>
  remote({
    hostname: "127.0.0.1",
    port: PORT,
    logLevel: "error",
    capabilities: { browserName: "wry", "wdio:enforceWebDriverClassic": true, "tauri:options": { application, args } },
  });
const PACE_KEYS = 50;
const PACE_MS = 100;
const paceRow = (who, xs) => [
  `${who}: ${PACE_KEYS} keys at 10 a second (${PACE_MS} ms apart), each from when it was due to the first frame after it (the app: after the core's answer)`,
  `p50 ${f1(pct(xs, 50))} ms · p95 ${f1(pct(xs, 95))} ms · max ${f1(Math.max(...xs))} ms`,
  who === "The app" ? "no lag: every key under 100 ms" : "",
];
let bareTyping = null;
try {
  // Bare CodeMirror, the same document, the same webview: the floor of a keystroke.
  const b = await session(BARE, [BARE_PAGE, join(ws, "five-mb.md")]);
  await b.waitUntil(() => b.execute(() => window.__bare?.ready()), { timeout: 60_000, interval: 100 });
  await b.execute(() => window.__bare.measureTyping(20)); // warm up
  bareTyping = await b.execute(() => window.__bare.measureTyping(200));
  rows.push(["Bare CodeMirror, 5 MB document: a keystroke to the next frame", `p50 ${f1(pct(bareTyping, 50))} ms · p95 ${f1(pct(bareTyping, 95))} ms`, ""]);
  rows.push(paceRow("Bare CodeMirror", await b.execute((n, ms) => window.__bare.typeAtPace(n, ms), PACE_KEYS, PACE_MS)));
  await b.deleteSession();
} catch (e) {
  console.error(`bare CodeMirror not measured: ${e.message}`);
}
try {
  const t0 = Date.now();
  const b = await session(APP, [ws]);
  await b.waitUntil(() => b.execute(() => window.__cowriting?.text() != null), { timeout: 20_000, interval: 20 });
  const cold = Date.now() - t0;
  rows.push(["Cold start, the first in this HOME, the perf workspace (a-start.md) → editable document (includes the WebDriver session)", `${cold} ms`, ""]);
  await b.pause(2000);

  const open = async (path) => {
    await (await b.$(`.tree-item[data-path="${path}"]`)).click();
    await b.waitUntil(async () => (await b.execute(() => window.__cowriting.activePath())) === path, { timeout: 30_000, interval: 20 });
    await b.pause(300);
    return b.execute(() => window.__cowriting.lastOpenMs());
  };

  const openOne = await open("one-mb.md");
  rows.push(["Open a 1 MB document", `${f1(openOne)} ms`, ""]);
  await (await b.$(".cm-content")).click();
  await b.execute(() => window.__cowriting.measureTyping(20)); // warm up
  const typing = await b.execute(() => window.__cowriting.measureTyping(200));
  rows.push(["Keystroke, typed into the view, to the first frame after the core's answer, 1 MB document", `p50 ${f1(pct(typing, 50))} ms · p95 ${f1(pct(typing, 95))} ms`, ""]);
  const parts = await b.execute(() => window.__cowriting.measureKeystrokeParts(200));
  rows.push(["— CodeMirror alone (a transaction the app ignores)", `p50 ${f1(pct(parts.bare, 50))} ms · p95 ${f1(pct(parts.bare, 95))} ms`, ""]);
  rows.push(["— CodeMirror applying the keystroke (sync)", `p50 ${f1(pct(parts.dispatch, 50))} ms · p95 ${f1(pct(parts.dispatch, 95))} ms`, ""]);
  rows.push(["— IPC round trip of the edit to the core and back", `p50 ${f1(pct(parts.ipc, 50))} ms · p95 ${f1(pct(parts.ipc, 95))} ms`, "p95 ≤ 5 ms"]);

  const plainFrames = await b.execute(() => window.__cowriting.measureScroll(3000));
  rows.push(["Scrolling the 1 MB document, no decorations (3 s, 120 px per frame)", `${plainFrames.length} frames · p50 ${f1(pct(plainFrames, 50))} ms · p95 ${f1(pct(plainFrames, 95))} ms`, ""]);

  const openFive = await open("five-mb.md");
  const review = await b.execute(() => window.__cowriting.review());
  const pending = review.proposals.filter((p) => p.state === "pending").length;
  rows.push([`Open a 5 MB document with 1,000 proposals (${pending} resolve pending)`, `${f1(openFive)} ms`, "≤ 1 s"]);
  const frames = await b.execute(() => window.__cowriting.measureScroll(3000));
  rows.push(["Scrolling it (3 s, 120 px per frame)", `${frames.length} frames · p50 ${f1(pct(frames, 50))} ms · p95 ${f1(pct(frames, 95))} ms`, "smooth"]);
  const decorated = (await b.$$(".cm-proposal")).length;
  rows.push(["Proposal decorations in the DOM at once (viewport only)", String(decorated), ""]);
  // Typing in it, in the middle, beside bare CodeMirror.
  await b.execute(() => window.__cowriting.select(2_500_000, 2_500_000));
  await b.execute(() => window.__cowriting.measureTyping(20)); // warm up
  const bigTyping = await b.execute(() => window.__cowriting.measureTyping(200));
  const ratio = bareTyping ? ` — ${(pct(bigTyping, 95) / pct(bareTyping, 95)).toFixed(2)}× bare CodeMirror's p95` : "";
  rows.push(["The app, 5 MB document with 1,000 proposals: a keystroke to the first frame after the core's answer", `p50 ${f1(pct(bigTyping, 50))} ms · p95 ${f1(pct(bigTyping, 95))} ms${ratio}`, "p95 ≤ 1.5× bare CodeMirror"]);
  await b.pause(1000);
  rows.push(paceRow("The app", await b.execute((n, ms) => window.__cowriting.typeAtPace(n, ms), PACE_KEYS, PACE_MS)));
  // The same with two other processes keeping both cores busy (this machine has two).
  const busy = [0, 1].map(() => spawn("sh", ["-c", "while :; do :; done"], { stdio: "ignore" }));
  try {
    await b.pause(1000);
    rows.push(paceRow("The app, two other processes busy", await b.execute((n, ms) => window.__cowriting.typeAtPace(n, ms), PACE_KEYS, PACE_MS)));
  } finally {
    for (const p of busy) p.kill("SIGKILL");
  }
  await b.pause(1000);
  // Accept all of the 1,000 (as the Review panel's Accept all does), in the buffer.
  const all = await b.execute(() => window.__cowriting.measureAcceptAll());
  rows.push([`Accept all in the 5 MB document: ${all.before} pending (${all.after} left), from the call to the frame after the core's answer`, `${f1(all.ms)} ms`, "≤ 2 s, progress shown over 1 s"]);
  await b.deleteSession();

  // Cold starts, three each, the first run (its sample workspace written) apart:
  // the bundled sample as make run opens it, and the 5 MB document given on the
  // command line. From the WebDriver session request to an editable document.
  const coldStart = async (args) => {
    const t0 = Date.now();
    const s = await session(APP, args);
    await s.waitUntil(() => s.execute(() => window.__cowriting?.text() != null), { timeout: 60_000, interval: 20 });
    const ms = Date.now() - t0;
    await s.deleteSession();
    await pause(1500);
    return ms;
  };
  const first = await coldStart([]);
  const sample = [];
  const big = [];
  for (let i = 0; i < ROUNDS; i++) {
    sample.push(await coldStart([]));
    big.push(await coldStart([join(ws5, "five-mb.md")]));
  }
  rows.push(["Cold start, the bundled sample: first run (the sample written) / later runs, median of 3", `${first} ms / ${median(sample)} ms (${sample.join(", ")})`, "≤ 1.0 s quiet"]);
  rows.push(["Cold start, the 5 MB document with 1,000 proposals, median of 3", `${median(big)} ms (${big.join(", ")})`, "≤ 1.5 s"]);
} finally {
  driver.kill();
}

console.log("| measure | result | target |\n| --- | --- | --- |");
for (const [m, r, t] of rows) console.log(`| ${m} | ${r} | ${t} |`);
console.log(`\nMemory: each program and the processes it started (its WebKit processes; the app's checker apart), started without WebDriver; medians of ${ROUNDS} alternating rounds.\n`);
console.log("| measure | result | target |\n| --- | --- | --- |");
for (const [m, r, t] of memRows) console.log(`| ${m} | ${r} | ${t} |`);
