// What many calls from the page to the core leave in the web process,
// measured (not asserted): the real app on the sample, the web process's
// anonymous memory after each round of KIND calls (N a round, ROUNDS rounds,
// default 4, SETTLE seconds to settle after each, default 5), and how many
// resource timings the page keeps:
// - `backend`: the UI's path to the core (the app's backend, `dirty_documents`);
// - `invoke`: Tauri's own invoke of the same command (its injected client);
// - `badinvoke`: the same path to a command that does not exist;
// - `postmessage`: Tauri's invoke after one forced fetch failure (Tauri then
//   sends every call by postMessage and answers by evaluating a script);
// - `fetch`: a bare POST to the IPC scheme by the page, Tauri's headers left
//   out (refused); `fetchheader` the same with a header that needs a CORS
//   preflight; READ=text reads these answers as text (else as bytes);
// - `asset` / `asseturl`: the page fetching the app's index.html (the same
//   URL / a new one each time);
// - `random`: `crypto.getRandomValues`, as Tauri's callback ids are made;
// - `webdriver`: no call; N scripts run in the page over WebDriver (the
//   harness's own polls, as perf-session's);
// - `keys`: N keys typed over WebDriver into the editor, a letter and
//   Backspace in turn (the text the same after each pair), after one letter
//   that stays so the text is unsaved throughout, as while writing;
//   `keysnowhere` the same with the page's body focused (no field),
//   `keystextarea` into a plain textarea added;
// - `timeout`: no call, a loop of timers (the floor). Run after an `invoke`
//   run, it once did not finish (not looked into); the floor in
//   docs/performance.md is from the first version of this probe.
// The rows of docs/performance.md that need a scheme added to the app are on
// branch ipc-client (docs/experiments/).
// Run under Xvfb (`make app-test` first, for the hooks):
//   cd tests/e2e && KIND=invoke N=4000 xvfb-run -a node perf-ipc.mjs
import { execFileSync } from "node:child_process";
import { APP, memoryTree, startApp, startDriver, testHome, workspace } from "./support.mjs";

const KIND = process.env.KIND ?? "backend";
const N = Number(process.env.N ?? 4000);
const READ = process.env.READ ?? "bytes";
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
  for (let round = 1; round <= Number(process.env.ROUNDS ?? 4); round++) {
    // `webdriver`: no call from the page; N scripts run in it over WebDriver,
    // as the e2e tests' and perf-session's polls do.
    if (KIND === "webdriver") for (let i = 0; i < N; i++) await b.execute(() => window.__cowriting.activePath());
    else if (KIND.startsWith("keys")) {
      // One key first that stays: the text unsaved throughout, as while writing
      // (a letter and Backspace on a saved text would make it saved again each time).
      if (round === 1 && KIND === "keys") await (await b.$(".cm-content")).click().then(() => b.keys(["x"]));
      if (round === 1 && KIND === "keysnowhere")
        await b.execute(() => {
          document.activeElement?.blur();
          document.body.tabIndex = -1;
          document.body.focus();
        });
      if (round === 1 && KIND === "keystextarea")
        await b.execute(() => {
          const t = document.createElement("textarea");
          t.style.cssText = "position:fixed;top:0;left:0;z-index:99;width:300px;height:80px";
          document.body.append(t);
          t.focus();
        });
      for (let i = 0; i < N / 2; i++) await b.keys(["a", "Backspace"]);
      await b.execute(() => window.__cowriting.idle());
    } else await b.executeAsync(
      (n, kind, read, done) => {
        const ipc = window.__TAURI_INTERNALS__;
        const post = (headers) =>
          fetch(ipc.convertFileSrc("dirty_documents", "ipc"), { method: "POST", body: "{}", headers })
            .then((r) => (read === "text" ? r.text() : r.arrayBuffer()))
            .catch(() => {});
        const page = (url) =>
          fetch(url, { cache: "no-store" })
            .then((r) => r.text())
            .catch(() => {});
        const once = {
          backend: () => window.__cowriting.dirtyDocuments(),
          invoke: () => ipc.invoke("dirty_documents"),
          badinvoke: () => ipc.invoke("no_such_command").catch(() => {}),
          postmessage: () => ipc.invoke("dirty_documents"),
          fetch: () => post({}),
          fetchheader: () => post({ "X-Probe": "1" }),
          asset: () => page(`${location.origin}/index.html`),
          asseturl: () => page(`${location.origin}/index.html?${Math.random()}`),
          random: () => Promise.resolve(window.crypto.getRandomValues(new Uint32Array(1))[0]),
          timeout: () => new Promise((r) => setTimeout(r, 0)),
        }[kind];
        if (kind === "postmessage" && !window.__ipcForced) {
          // Tauri falls back to `window.ipc.postMessage` for good once a
          // fetch of its scheme fails: make the first one fail.
          const real = window.fetch;
          window.fetch = () => {
            window.fetch = real;
            return Promise.reject(new TypeError("forced"));
          };
          window.__ipcForced = true;
        }
        (async () => {
          for (let i = 0; i < n; i++) await once();
          done();
        })();
      },
      N,
      KIND,
      READ,
    );
    await pause(Number(process.env.SETTLE ?? 5) * 1000);
    const timings = await b.execute(() => performance.getEntriesByType("resource").length);
    console.log(`${web()} after ${round * N} (${KIND}); ${timings} resource timings kept`);
  }
} finally {
  await b.deleteSession().catch(() => undefined);
}
