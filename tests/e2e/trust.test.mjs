// Trust, round 3 (issue 39), in the real app on a stranger's workspace: what
// you see is what you accept, and the window stays the app.
//
// The workspace holds what a cloned repository can: a file named
// `report<U+202E>4pm.md` (shown by a plain listing as "reportmp4.md"), a
// heading with a direction override, a proposal whose replacement holds one, a
// comment with a link and an image on a server (a loopback one here, which
// counts every request), an image in the text on that server. Checked:
// - every hidden character is shown as a named marker (tree, tab, window
//   title, editor, outline, proposal inline and in its card, thread body);
// - the proposal is flagged, and its accept asks once (Cancel leaves the text;
//   Accept anyway inserts exactly the producer's characters);
// - setting `location` or `window.open` leaves the window on the app and asks
//   the server for nothing; a link clicked in a comment goes to the system's
//   opener (a recording stand-in, `COWRITING_OPENER`), never into the window;
// - an HTML export with the review and a PDF export make zero requests;
// - a page-side watcher saw no script, frame or CSP violation, and the
//   storage canary is untouched.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { APP, active, chooseExport, cli, click, fileDriver, idle, processTree, saveInDialog, shot, tempDir, testHome, text, until } from "./support.mjs";

const requests = [];
let server;
let origin = "";
before(async () => {
  server = createServer((req, res) => {
    requests.push(req.url);
    res.writeHead(200, { "content-type": "image/png" });
    res.end();
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${server.address().port}`;
});
after(() => server?.close());

const opened = join(tempDir("cowriting-e2e-opener-"), "opened.txt");
const opener = join(tempDir("cowriting-e2e-opener-bin-"), "opener");
// It also records whether it saw the JavaScriptCore option the app sets for
// its own web process only (src-tauri/src/web_env.rs).
writeFileSync(opener, `#!/bin/sh\nprintf '%s\\n' "$@" "jsc-heap:\${JSC_largeHeapSize:-unset}" "jsc-full:\${JSC_alwaysDoFullCollection:-unset}" >> '${opened}'\n`);
chmodSync(opener, 0o755);

const { env: ENV } = testHome({ env: { COWRITING_OPENER: opener }, enabled: [] });
const { withApp } = fileDriver(ENV);
const RLO = "\u202E";
const CYR_A = "\u0430";

function hostileWorkspace() {
  const ws = tempDir("cowriting-e2e-hostile-");
  execFileSync("git", ["init", "-q", ws]);
  writeFileSync(join(ws, `report${RLO}4pm.md`), "# Quarterly report\n\nNumbers.\n");
  writeFileSync(
    join(ws, "notes.md"),
    `# Plan ${RLO}evil${"\u202C"} heading\n\nThe meeting is due at noon.\n\n![pixel](${origin}/doc-image.png)\n\nA last line to comment on.\n`,
  );
  mkdirSync(join(ws, "sub"));
  writeFileSync(join(ws, "sub", "zz.md"), "Z\n");
  // Letters that pass for Latin ones: a Cyrillic "а" in the name and the text,
  // and a proposal that would slip two into a word.
  writeFileSync(join(ws, `p${CYR_A}ypal.md`), `# Payments\n\nPay at p${CYR_A}ypal.com. Send it to the account.\n`);
  cli(ENV, ws, "propose", `p${CYR_A}ypal.md`, "--find", "account", "--replace", `${CYR_A}\u0441count`, "--model", "m");
  cli(ENV, ws, "propose", "notes.md", "--find", "due at noon", "--replace", `due at ${RLO}mp4${"\u202C"} sharp`, "--model", "m");
  cli(
    ENV,
    ws,
    "thread",
    "new",
    "notes.md",
    "--find",
    "A last line",
    "--body",
    `See [the site](${origin}/link-clicked) and ![read receipt](${origin}/comment-image.png) and a${"\u200B"}b`,
  );
  return ws;
}

/** The page-side watcher: scripts, frames and CSP violations seen, a storage canary. */
const WATCH = () => {
  const w = { added: [], violations: [] };
  window.__watch = w;
  localStorage.setItem("cowriting-canary", "intact");
  document.addEventListener("securitypolicyviolation", (e) => w.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  new MutationObserver((muts) => {
    for (const m of muts)
      for (const n of m.addedNodes)
        if (n.nodeType === 1 && (n.matches("script, iframe, object, embed, link, meta, base") || n.querySelector?.("script, iframe, object, embed, base")))
          w.added.push(n.outerHTML.slice(0, 120));
  }).observe(document.documentElement, { childList: true, subtree: true });
};

/** The text of every element matching `sel`, joined. */
const texts = (b, sel) => b.execute((s) => Array.from(document.querySelectorAll(s), (e) => e.textContent).join(" | "), sel);

async function exportAs(b, format, withReview) {
  await chooseExport(b, format, withReview);
  assert.equal(await (await b.$(".export-remote-images")).isSelected(), false, "remote images are off unless asked");
  await click(b, ".export-ok");
}

test("a stranger's workspace: hidden characters shown, accept asks, the window stays the app, exports call nobody", async () => {
  const ws = hostileWorkspace();
  await withApp(ws, async (b) => {
    await b.execute(WATCH);
    const appUrl = await b.getUrl();
    assert.match(appUrl, /^tauri:\/\/localhost/);

    // The tree: the name with its override shown, not obeyed.
    const tree = await texts(b, ".tree-item");
    assert.ok(tree.includes("report⟨U+202E⟩4pm.md"), tree);
    assert.ok(!tree.includes(RLO), "no raw override in the tree");

    // Open it: the tab and the window's title show the marker.
    await click(b, `.tree-item[data-path="report${RLO}4pm.md"]`);
    await until(async () => (await active(b)) === `report${RLO}4pm.md`, "the spoofed document open");
    assert.ok((await texts(b, ".tab.active .tab-name")).includes("report⟨U+202E⟩4pm.md"));
    await until(async () => (await b.getTitle()).includes("report⟨U+202E⟩4pm.md"), async () => `the title: ${await b.getTitle()}`);

    // Look-alikes: the name outlined in the tree, written out in the title; in
    // the text outlined; the proposal that would insert them flagged, named.
    const looks = await texts(b, ".tree-item .lookalike-char");
    assert.ok(looks.includes(CYR_A), `the tree marks the Cyrillic a: ${looks}`);
    await click(b, `.tree-item[data-path="p${CYR_A}ypal.md"]`);
    await until(async () => (await active(b)) === `p${CYR_A}ypal.md`, "the look-alike document open");
    await until(async () => (await b.getTitle()).includes("p⟨U+0430⟩ypal.md"), async () => `the title: ${await b.getTitle()}`);
    await until(async () => (await texts(b, ".cm-content .cm-lookalike")).includes(CYR_A), "the look-alike outlined in the text");
    await until(async () => (await texts(b, ".card .hidden-flag")).includes("U+0430 U+0441"), async () => `the card: ${await texts(b, ".card")}`);
    await shot(b, "trust-lookalike");

    // notes.md: the heading's override in the text and the outline; the proposal flagged.
    await click(b, '.tree-item[data-path="notes.md"]');
    await until(async () => (await active(b)) === "notes.md", "notes.md open");
    await until(async () => (await texts(b, ".cm-content .hidden-char")).includes("⟨U+202E⟩"), "the heading's override marked in the editor");
    assert.ok((await texts(b, ".outline-item")).includes("⟨U+202E⟩"), await texts(b, ".outline-item"));
    await until(async () => (await texts(b, ".cm-proposal-ins .hidden-char")).includes("⟨U+202E⟩"), "the inserted override marked inline");
    assert.ok((await texts(b, ".cm-decision .hidden-flag")).includes("U+202E"), "the inline ✓ is flagged");
    assert.ok((await texts(b, ".card .hidden-flag")).includes("U+202E U+202C"), await texts(b, ".card"));
    const proposal = (await b.execute(() => window.__cowriting.review().proposals))[0];
    assert.deepEqual(proposal.hidden.map((h) => h.codePoint), ["U+202E", "U+202C"]);
    await shot(b, "trust-hidden");

    // Accept asks once; Cancel leaves the text.
    const before = await text(b);
    await click(b, ".cm-accept");
    const dialog = await b.$('[role="alertdialog"]');
    await dialog.waitForDisplayed({ timeout: 60_000 });
    assert.match(await dialog.getText(), /U\+202E RIGHT-TO-LEFT OVERRIDE/);
    await shot(b, "trust-accept-asks");
    await click(b, '[role="alertdialog"] button[data-action="Cancel"]');
    await idle(b);
    assert.equal(await text(b), before, "Cancel: nothing inserted");
    await click(b, ".cm-accept");
    await (await b.$('[role="alertdialog"]')).waitForDisplayed({ timeout: 60_000 });
    await click(b, '[role="alertdialog"] button[data-action="Accept anyway"]');
    await until(async () => (await text(b)).includes(`due at ${RLO}mp4\u202C sharp`), "exactly the producer's characters inserted");

    // The thread's body: the zero-width space marked; its link opens outside.
    await click(b, '.panel-tabs [data-tab="threads"]');
    await until(async () => (await texts(b, ".comment-body .hidden-char")).includes("⟨U+200B⟩"), "the comment's hidden character marked");
    assert.equal(await b.execute(() => document.querySelectorAll(".comment-body img").length), 0, "no image in a comment");
    await click(b, ".comment-body a");
    await until(() => existsSync(opened) && readFileSync(opened, "utf8").includes(`${origin}/link-clicked`), "the link handed to the system's opener");
    if (ENV.JSC_largeHeapSize === undefined && ENV.JSC_alwaysDoFullCollection === undefined) {
      assert.ok(readFileSync(opened, "utf8").includes("jsc-heap:unset"), "what the app set for its web process is not passed to the opener");
      assert.ok(readFileSync(opened, "utf8").includes("jsc-full:unset"), "what the app set for its web process is not passed to the opener");
      const app = Number(execFileSync("pgrep", ["-f", "--", `${APP} ${ws}`], { encoding: "utf8" }).split("\n")[0]);
      const web = processTree(app).filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, "utf8").startsWith("WebKitWebProces");
        } catch {
          return false;
        }
      });
      assert.ok(web.length > 0, "the app's web process found");
      for (const pid of web) {
        const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
        assert.ok(environ.includes("JSC_largeHeapSize=8388608"), "the web process has the heap option the app set for it");
        assert.ok(environ.includes("JSC_alwaysDoFullCollection=1"), "the web process collects its heap whole");
      }
    }
    assert.equal(await b.getUrl(), appUrl, "the click did not navigate the window");

    // Navigation and new windows are refused.
    await b.execute((o) => {
      location.href = `${o}/navigated`;
    }, origin);
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal(await b.getUrl(), appUrl, "setting location left the window on the app");
    const handles = (await b.getWindowHandles()).length;
    const popup = await b.execute((o) => window.open(`${o}/popup`) === null, origin);
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal((await b.getWindowHandles()).length, handles, "no new window");
    assert.ok(popup, "window.open gave nothing");
    assert.ok(await b.execute(() => Boolean(window.__cowriting?.text())), "the app is still the app");

    // Exports: the HTML page with the review, and a PDF, ask the server for nothing.
    await exportAs(b, "html", true);
    await saveInDialog("Export notes.md as HTML page");
    const html = join(ws, "notes.html");
    await until(() => existsSync(html) && statSync(html).size > 0, "notes.html");
    const page = readFileSync(html, "utf8");
    // A link stays a link (nothing fetches it); nothing the page loads names the server.
    assert.ok(!new RegExp(`(src|srcset|poster|background)="${origin}`).test(page), "no remote image in the exported page");
    assert.ok(page.includes(`href="${origin}/link-clicked"`), "the comment's link kept as a link");
    assert.ok(page.includes("[image: pixel]") && page.includes("[image: read receipt]"), "remote images shown as their alt text");
    await exportAs(b, "pdf", true);
    await saveInDialog("Export notes.md as PDF");
    const pdf = join(ws, "notes.pdf");
    await until(() => existsSync(pdf) && statSync(pdf).size > 1000, "notes.pdf", 120_000);
    await new Promise((r) => setTimeout(r, 1000));

    const watch = await b.execute(() => ({ ...window.__watch, canary: localStorage.getItem("cowriting-canary") }));
    assert.deepEqual(watch.added, [], "no script, frame or base element added");
    assert.deepEqual(watch.violations, [], "the CSP never had to block anything");
    assert.equal(watch.canary, "intact");
    // The watcher works, and the CSP holds without 'unsafe-inline': a <style>
    // without the page's nonce is refused and reported.
    await b.execute(() => document.head.append(Object.assign(document.createElement("style"), { textContent: "body{outline:1px solid red}" })));
    await until(() => b.execute(() => window.__watch.violations.length > 0), "the probe's violation reported");
    assert.match((await b.execute(() => window.__watch.violations))[0], /^style-src/);
  });
  assert.deepEqual(requests, [], "the loopback server was never asked for anything");
});
