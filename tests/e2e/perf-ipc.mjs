// What many calls from the page to the core leave in the web process,
// measured (not asserted): the real app on the sample, the web process's
// anonymous memory after each round of KIND calls (N a round, four rounds,
// 5 s to settle after each):
// - `invoke`: the UI's path to the core (Tauri's invoke of `dirty_documents`);
// - `badinvoke`: the same path to a command that does not exist;
// - `fetch`: a bare POST to the IPC scheme, Tauri's headers left out (refused);
// - `timeout`: no call, a loop of timers (the floor). Run after an `invoke`
//   run, it once did not finish (not looked into); the floor in
//   docs/performance.md is from the first version of this probe.
// Run under Xvfb (`make app-test` first, for the hooks):
//   cd tests/e2e && KIND=invoke N=4000 xvfb-run -a node perf-ipc.mjs
import { execFileSync } from "node:child_process";
import { APP, memoryTree, startApp, startDriver, testHome, workspace } from "./support.mjs";

const KIND = process.env.KIND ?? "invoke";
const N = Number(process.env.N ?? 4000);
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
const { env } = testHome();
const driver = await startDriver(env);
process.on("exit", () => driver.stop());
const ws = workspace();
const b = await startApp(driver.port, ws);
const pid = Number(execFileSync("pgrep", ["-f", "--", `${APP} ${ws}`], { encoding: "utf8" }).split("\n")[0]);
const web = () =>
  memoryTree(pid)
    .parts.filter((p) => p.name.startsWith("WebKitWebProces"))
    .map((p) => p.anon.toFixed(1))
    .join(", ");
try {
  await b.execute(() => window.__cowriting.idle());
  await pause(5000);
  console.log(`web process, anonymous MiB: ${web()} at the start`);
  for (let round = 1; round <= 4; round++) {
    await b.executeAsync(
      (n, kind, done) => {
        const ipc = window.__TAURI_INTERNALS__;
        const once = {
          invoke: () => ipc.invoke("dirty_documents"),
          badinvoke: () => ipc.invoke("no_such_command").catch(() => {}),
          fetch: () =>
            fetch(ipc.convertFileSrc("dirty_documents", "ipc"), { method: "POST", body: "{}" })
              .then((r) => r.arrayBuffer())
              .catch(() => {}),
          timeout: () => new Promise((r) => setTimeout(r, 0)),
        }[kind];
        (async () => {
          for (let i = 0; i < n; i++) await once();
          done();
        })();
      },
      N,
      KIND,
    );
    await pause(5000);
    console.log(`${web()} after ${round * N} (${KIND})`);
  }
} finally {
  await b.deleteSession().catch(() => undefined);
}
