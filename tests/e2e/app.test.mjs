// Real-app end-to-end tests: the built Cowriting Desktop binary driven through
// tauri-driver + WebKitWebDriver (WebdriverIO), on a fresh copy of the sample
// workspace each, with the real `cowriting` CLI playing the other writer.
//
// Run by `make test` (under Xvfb when there is no display). Screenshots of the
// main states go to tests/e2e/artifacts/.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CLI,
  ROOT,
  active,
  cli as cliAs,
  click,
  count,
  fresh,
  idle,
  openDoc,
  review,
  shot,
  sidecar,
  startDriver,
  testHome,
  text,
  withApp as withAppAt,
  workspace,
} from "./support.mjs";

// The app and the CLI see a HOME of their own: git identity, app data, recent
// folders, and the user's settings (Claude is the fake Claude Code in fixtures/).
const { env: ENV } = testHome({ enabled: ["harper", "vale"] });

let driver;

before(async () => {
  driver = await startDriver(ENV);
});

after(() => {
  driver?.stop();
});

const cli = (ws, ...args) => cliAs(ENV, ws, ...args);

/** The app on `ws` under this file's driver (see `support.mjs`). */
const withApp = (ws, f) => withAppAt(driver.port, ws, f);

test("opens the sample workspace with its proposals, threads and Claude's text", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    assert.equal(await active(b), "essay.md");
    const r = await review(b);
    assert.equal(r.proposals.filter((p) => p.state === "pending").length, 3);
    assert.equal(r.proposals.filter((p) => p.state === "stale").length, 1);
    assert.ok((await count(b, ".cm-proposal")) >= 3, "proposals are tinted inline");
    assert.ok((await count(b, ".cm-attr-agent")) >= 3, "Claude's accepted text is tinted");
    assert.ok((await count(b, ".cm-proposal-del")) >= 1, "removed words are struck through");
    assert.ok((await count(b, ".cm-proposal-ins")) >= 1, "inserted words are shown inline");
    const badges = await b.$$(".tree-item .badge-proposals");
    assert.ok(badges.length >= 2, "the file tree shows proposal badges");
    const status = await (await b.$(".st-proposals")).getText();
    assert.match(status, /3 pending · 1 stale/);
    await shot(b, "01-sample-workspace");
    // Hovering Claude's text says who wrote it, which turn, and what was asked.
    await fresh(async () => (await b.$(".cm-attr-agent")).moveTo());
    const tip = await b.$(".cm-attribution-tip");
    await tip.waitForExist({ timeout: 60_000, timeoutMsg: "no attribution hover card" });
    const card = await tip.getText();
    assert.match(card, /claude \(claude-sonnet-4-5\)/);
    assert.match(card, /turn turn-0a1/);
    assert.match(card, /Tighten the first paragraph/);
  });
});

test("a proposal filed with the CLI appears inline (latency logged); ✓ applies it with the Claude tint at the save", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    await openDoc(b, "story.md");
    const before = await text(b);
    const id = cli(ws, "propose", "story.md", "--find", "the great lamp", "--replace", "the great lantern", "--instruction", "Vary the noun", "--turn", "turn-e2e", "--model", "claude-sonnet-4-5");
    const filed = Date.now();
    const widget = await b.$(`.cm-decision[data-proposal="${id}"] .cm-accept`);
    await widget.waitForExist({ timeout: 60_000, timeoutMsg: "the CLI's proposal never appeared" });
    const seenAfter = Date.now() - filed;
    console.log(`# proposal appeared ${seenAfter} ms after the CLI filed it`);
    assert.equal(await text(b), before, "INV-10: the proposal did not touch the document");
    await shot(b, "02-proposal-from-cli");
    await click(b, `.cm-decision[data-proposal="${id}"] .cm-accept`);
    await b.waitUntil(async () => (await text(b)).includes("the great lantern"), { timeout: 60_000 });
    await idle(b);
    const r = await review(b);
    assert.ok(!r.proposals.some((p) => p.id === id), "the proposal left the review");
    assert.ok(r.spans.some((s) => s.author.kind === "agent" && (s.to - s.from) === "lantern".length), "lantern is attributed");
    assert.ok((await count(b, ".cm-attr-agent")) >= 1);
    // Decisions reach the disk with their text: until the save, the file and
    // the sidecar are as they were.
    assert.ok(sidecar(ws, "story.md").proposals.some((p) => p.id === id), "not decided on disk before the save");
    assert.ok(!readFileSync(join(ws, "story.md"), "utf8").includes("the great lantern"));
    // Saving writes the text, the decision and the attribution together.
    await b.keys(["Control", "s"]);
    await b.waitUntil(async () => readFileSync(join(ws, "story.md"), "utf8").includes("the great lantern"), { timeout: 60_000 });
    await b.waitUntil(async () => sidecar(ws, "story.md").attributions.some((a) => a.turnId === "turn-e2e"), { timeout: 60_000 });
    assert.ok(!sidecar(ws, "story.md").proposals.some((p) => p.id === id), "the sidecar no longer holds it (INV-13)");
    // The decision log is the transaction's last write (after the document):
    // wait for it rather than read it the moment the document changed.
    const logged = () => {
      const path = join(ws, ".cowriting/decisions.jsonl");
      if (!existsSync(path)) return [];
      return readFileSync(path, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l))
        .filter((d) => d.sidecarProposalId === id && d.outcome === "accepted");
    };
    await b.waitUntil(async () => logged().length > 0, { timeout: 60_000, timeoutMsg: "the decision never reached the log" });
    assert.equal(logged().length, 1, "logged once, at the save");
    await shot(b, "03-accepted-claude-tint");
  });
});

test("✗ leaves the document untouched", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    const before = await text(b);
    const p = (await review(b)).proposals.find((x) => x.state === "pending");
    await click(b, `.cm-decision[data-proposal="${p.id}"] .cm-reject`);
    await b.waitUntil(async () => !(await review(b)).proposals.some((x) => x.id === p.id), { timeout: 60_000 });
    assert.equal(await text(b), before);
    assert.ok(!sidecar(ws, "essay.md").proposals.some((x) => x.id === p.id));
    assert.equal(readFileSync(join(ws, "essay.md"), "utf8"), readFileSync(join(ROOT, "examples/workspace/essay.md"), "utf8"));
  });
});

test("undo right after accept restores the pending proposal; redo re-applies it", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    const before = await text(b);
    const p = (await review(b)).proposals.find((x) => x.state === "pending");
    await click(b, `.cm-decision[data-proposal="${p.id}"] .cm-accept`);
    await b.waitUntil(async () => (await text(b)) !== before, { timeout: 60_000 });
    await (await b.$(".cm-content")).click();
    await b.keys(["Control", "z"]);
    await b.waitUntil(async () => (await text(b)) === before, { timeout: 60_000, timeoutMsg: "undo did not restore the text" });
    await idle(b);
    const r = await review(b);
    const back = r.proposals.find((x) => x.id === p.id);
    assert.ok(back, "the proposal is back");
    assert.equal(back.state, "pending");
    assert.ok(sidecar(ws, "essay.md").proposals.some((x) => x.id === p.id), "and it never left the sidecar");
    await b.keys(["Control", "Shift", "z"]);
    await b.waitUntil(async () => (await text(b)) !== before, { timeout: 60_000 });
    assert.ok(sidecar(ws, "essay.md").proposals.some((x) => x.id === p.id), "decided again, on the buffer only");
    await b.keys(["Control", "s"]);
    await b.waitUntil(async () => !sidecar(ws, "essay.md").proposals.some((x) => x.id === p.id), {
      timeout: 60_000,
      timeoutMsg: "the save did not write the decision",
    });
  });
});

test("typing inside a proposal's target turns it stale and accept is refused", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    const r = await review(b);
    const p = r.proposals.find((x) => x.state === "pending" && x.target === "polishing");
    await click(b, `.cm-proposal[data-proposal="${p.id}"]`); // the cursor lands inside the target
    // The app's commands go through the page's own client of the IPC
    // (ui/src/ipc.ts), not Tauri's injected one (whose every call left memory
    // in the web process): count what reaches Tauri's (its plugins, as the
    // window's title, are Tauri's own).
    await b.execute(() => {
      const internals = window.__TAURI_INTERNALS__;
      const tauri = internals.invoke;
      window.__throughTauri = [];
      internals.invoke = (cmd, ...rest) => {
        if (!cmd.startsWith("plugin:")) window.__throughTauri.push(cmd);
        return tauri(cmd, ...rest);
      };
    });
    await b.keys(["X", "Y"]);
    await b.waitUntil(async () => (await review(b)).proposals.find((x) => x.id === p.id)?.state === "stale", {
      timeout: 60_000,
      timeoutMsg: "the proposal did not turn stale",
    });
    await idle(b);
    const textBefore = await text(b);
    assert.match(textBefore, /XY/, "the keys typed are in the text");
    // The editor inserted them, not WebKit: nothing is left on WebKit's own
    // undo stack, which nothing would ever empty (extensions/typed-text.ts).
    assert.equal(await b.execute(() => document.queryCommandEnabled("undo")), false, "WebKit's undo stack is empty");
    assert.deepEqual(await b.execute(() => window.__throughTauri), [], "no command of the app went through Tauri's own client");
    const card = `.card[data-proposal="${p.id}"]`;
    await b.waitUntil(async () => !(await fresh(async () => (await b.$(`${card} .btn-accept`)).isEnabled())), {
      timeout: 60_000,
      timeoutMsg: "accept stayed enabled on a stale proposal",
    });
    assert.match(await fresh(async () => (await b.$(card)).getText()), /Stale/);
    // The keyboard gesture is refused too, with a message.
    await b.keys(["Alt", "Enter"]);
    await idle(b);
    assert.equal(await text(b), textBefore, "nothing applied");
    assert.ok(sidecar(ws, "essay.md").proposals.some((x) => x.id === p.id), "still pending in the sidecar");
    await shot(b, "04-stale-proposal");
  });
});

test("a thread created in the UI is in the sidecar; replies render sanitized", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    await openDoc(b, "notes/meeting.md");
    // Select "printer" with find (Ctrl+F, Enter selects the match, Escape closes the panel).
    await (await b.$(".cm-content")).click();
    await b.keys(["Control", "Home"]);
    await b.keys(["Control", "f"]);
    const field = await b.$(".cm-search input[name=search]");
    await field.setValue("printer");
    await b.keys(["Enter"]);
    await b.keys(["Escape"]);
    const selected = await b.execute(() => window.getSelection()?.toString());
    assert.equal(selected, "printer");
    await click(b, ".pt-threads");
    await click(b, ".btn-new-thread");
    await fresh(async () => (await b.$(".new-thread-body")).setValue("Ask for **two** quotes."));
    await click(b, ".comment-box .btn-comment-send");
    await b.waitUntil(() => sidecar(ws, "notes/meeting.md").threads.length === 2, { timeout: 60_000 });
    const sc = sidecar(ws, "notes/meeting.md");
    const t = sc.threads[1];
    assert.equal(sc.anchors[t.anchorId].fingerprint.text, "printer");
    assert.equal(t.comments[0].body, "Ask for **two** quotes.");
    assert.equal(t.comments[0].author.id, "writer@example.com");
    const rendered = await fresh(async () => (await b.$(`.thread[data-thread="${t.id}"] .comment-body strong`)).getText());
    assert.equal(rendered, "two", "Markdown is rendered");
    await shot(b, "05-thread-created");
  });
});

test("threads follow text re-wrapped by another program: flagged, then kept here or detached", async () => {
  const ws = workspace();
  const para = "The committee met on Tuesday to weigh the proposal for a new library wing,\nand agreed to ask the city for a second estimate before voting on it.\n";
  writeFileSync(join(ws, "rewrap.md"), `# Minutes\n\n${para}`);
  const keep = cli(ws, "thread", "new", "rewrap.md", "--find", "a new library wing,\nand agreed", "--body", "Which wing?");
  const detach = cli(ws, "thread", "new", "rewrap.md", "--find", "a second estimate before voting", "--body", "Is one enough?");
  // Another editor re-flows the paragraph (as a formatter or VS Code's rewrap would).
  const rewrapped = "The committee met on Tuesday to weigh the proposal for a new\n  library wing, and agreed to ask the city for a second\n  estimate before voting on it.\n";
  writeFileSync(join(ws, "rewrap.md"), `# Minutes\n\n${rewrapped}`);
  await withApp(ws, async (b) => {
    await openDoc(b, "rewrap.md");
    await click(b, ".pt-threads");
    await b.waitUntil(async () => (await count(b, ".thread-relocated")) === 2, { timeout: 60_000, timeoutMsg: "both threads re-attached, flagged" });
    const r = await review(b);
    const k = r.threads.find((t) => t.id === keep);
    assert.equal(k.relocated, true);
    assert.equal(k.text, "a new\n  library wing, and agreed");
    assert.equal(k.anchoredText, "a new library wing,\nand agreed");
    assert.equal((await count(b, ".cm-thread-relocated")) >= 2, true, "marked in the text as re-attached");
    await shot(b, "07-threads-relocated");
    // Keep here: the sidecar now holds the re-wrapped text, and the flag is gone.
    await click(b, `.thread[data-thread="${keep}"] .btn-keep-here`);
    await b.waitUntil(() => {
      const sc = sidecar(ws, "rewrap.md");
      const t = sc.threads.find((x) => x.id === keep);
      return sc.anchors[t.anchorId].fingerprint.text === "a new\n  library wing, and agreed";
    }, { timeout: 60_000, timeoutMsg: "keep here was not written" });
    await b.waitUntil(async () => (await count(b, ".thread-relocated")) === 1, { timeout: 60_000 });
    // Detach: listed with the threads that are not in the text, never placed again.
    await click(b, `.thread[data-thread="${detach}"] .btn-detach`);
    await b.waitUntil(() => sidecar(ws, "rewrap.md").threads.find((x) => x.id === detach).detached === true, {
      timeout: 60_000,
      timeoutMsg: "detach was not written",
    });
    await b.waitUntil(async () => (await count(b, `.thread-orphaned[data-thread="${detach}"]`)) === 1, { timeout: 60_000 });
    assert.match(await fresh(async () => (await b.$(".orphaned-head")).getText()), /Not in the text \(1\)/);
    await shot(b, "08-thread-kept-and-detached");
  });
  // Another client reads the same: one placed exactly, one detached (listed, not placed, and not
  // orphaned: a writer chose that).
  const listed = JSON.parse(cli(ws, "--json", "threads", "rewrap.md")).threads;
  assert.deepEqual(
    listed.map((t) => [t.id, t.relocated, t.detached, t.orphaned]),
    [
      [keep, false, false, false],
      [detach, false, true, false],
    ],
  );
});

test("an external edit of the sidecar (as VS Code would make it) re-renders", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    await click(b, ".pt-threads");
    const sc = sidecar(ws, "essay.md");
    const t = sc.threads.find((x) => x.status === "open");
    t.comments.push({ id: "c_vscode", author: { kind: "human", id: "grace@example.com" }, body: "Written in VS Code.", createdAt: "2026-06-10T00:00:00.000Z" });
    t.status = "resolved";
    const changed = Date.now();
    writeFileSync(join(ws, ".threads/essay.md.json"), JSON.stringify(sc, null, 2) + "\n");
    await b.waitUntil(async () => (await (await b.$(".threads-body")).getText()).includes("Written in VS Code."), {
      timeout: 60_000,
      timeoutMsg: "the external change did not re-render",
    });
    console.log(`# external sidecar edit re-rendered after ${Date.now() - changed} ms`);
    const r = await review(b);
    assert.equal(r.threads.find((x) => x.id === t.id).status, "resolved");
  });
});

test("a hostile sidecar from a cloned repository renders inert", async () => {
  const ws = workspace();
  const sc = sidecar(ws, "essay.md");
  const t = sc.threads[0];
  t.comments.push({
    id: "c_evil",
    author: { kind: "human", id: "<img src=x onerror=\"window.__pwned='author'\">" },
    body: "<script>window.__pwned='script'</script><img src=x onerror=\"window.__pwned='img'\"> [click](javascript:window.__pwned='link') <iframe src=\"https://example.com\"></iframe>",
    createdAt: "2026-06-10T00:00:00.000Z",
  });
  sc.proposals[0].replacement = "<img src=x onerror=\"window.__pwned='replacement'\">";
  sc.proposals[0].instruction = "<script>window.__pwned='instruction'</script>";
  writeFileSync(join(ws, ".threads/essay.md.json"), JSON.stringify(sc, null, 2) + "\n");
  await withApp(ws, async (b) => {
    await click(b, ".pt-threads");
    await b.pause(500);
    assert.equal(await b.execute(() => window.__pwned ?? null), null, "no script ran");
    const sel = `.thread[data-thread="${t.id}"]`;
    const html = await fresh(async () => (await b.$(sel)).getHTML());
    assert.ok(!/<script|<img|<iframe|onerror=|javascript:/i.test(html.replace(/&lt;[^&]*&gt;/g, "")), `inert: ${html}`);
    assert.match(await fresh(async () => (await b.$(sel)).getText()), /<script>window.__pwned='script'<\/script>/, "shown as text");
    assert.equal((await count(b, ".threads-body img, .threads-body script, .threads-body iframe")), 0);
    assert.equal((await count(b, ".cm-content img:not(.cm-widgetBuffer), .review-body img")), 0, "replacements render as text");
    await shot(b, "06-hostile-sidecar-inert");
  });
});

test("a document changed on disk reloads when clean and asks when dirty (keep mine / load theirs)", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    await openDoc(b, "story.md");
    const file = join(ws, "story.md");
    // Clean buffer: the change on disk is loaded, the proposals follow their text.
    const theirs = "# A new opening line\n\n" + readFileSync(file, "utf8");
    writeFileSync(file, theirs);
    await b.waitUntil(async () => (await text(b)) === theirs, { timeout: 60_000, timeoutMsg: "a clean buffer did not reload" });
    await idle(b);
    await b.pause(400);
    const pending = (await review(b)).proposals.filter((p) => p.state === "pending");
    assert.equal(pending.length, 1, "the proposal still resolves after the reload");
    assert.equal(theirs.slice(pending[0].from, pending[0].to), pending[0].target);
    // Dirty buffer: a banner asks; nothing is lost meanwhile.
    await click(b, ".cm-content");
    await b.keys(["Control", "End"]);
    await b.keys(["M", "i", "n", "e"]);
    await idle(b);
    const mine = await text(b);
    writeFileSync(file, theirs + "Theirs.\n");
    await b.waitUntil(async () => (await fresh(async () => (await b.$(".banner-conflict")).isDisplayed())) === true, {
      timeout: 60_000,
      timeoutMsg: "no conflict banner",
    });
    assert.equal(await text(b), mine, "the buffer is untouched until the writer chooses");
    await shot(b, "07-conflict-banner");
    await click(b, ".bn-load");
    await b.waitUntil(async () => (await text(b)) === theirs + "Theirs.\n", { timeout: 60_000, timeoutMsg: "load theirs did not load" });
    // Undo brings the writer's version back: choosing theirs lost nothing either.
    await click(b, ".cm-content");
    await b.keys(["Control", "z"]);
    await b.waitUntil(async () => (await text(b)) === mine, { timeout: 60_000, timeoutMsg: "undo did not bring mine back" });
  });
});

test("Ask Claude on a paragraph: per-hunk proposals; accept one, change one, reject the rest; eval shows exactly that", async () => {
  const ws = workspace();
  const paragraph = "Revision is not polishing.";
  // The sample's own Claude suggestions are in the ledger already (pending).
  const claudeRewrites = () => {
    const row = JSON.parse(cli(ws, "--json", "eval")).rows.find((r) => r.producer === "claude" && r.category === "rewrite");
    return [row.accepted, row.changed, row.rejected, row.pending];
  };
  const sampleOnly = claudeRewrites();
  await withApp(ws, async (b) => {
    await openDoc(b, "essay.md");
    const before = await text(b);
    const from = before.indexOf(paragraph);
    const end = before.indexOf("ruthless about it.") + "ruthless about it.".length;
    await b.execute((a, z) => window.__cowriting.select(a, z), from, end);
    await b.keys(["Control", "k"]);
    await fresh(async () => (await b.$(".ask-instruction")).setValue("Tighten this paragraph"));
    await b.keys(["Enter"]);
    await b.waitUntil(async () => (await b.execute(() => window.__cowriting.lastFiling()))?.producer === "claude", {
      timeout: 60_000,
      timeoutMsg: `Claude's turn was never filed: ${await b.execute(() => window.__cowriting.lastJobMessage())}`,
    });
    const filing = await b.execute(() => window.__cowriting.lastFiling());
    assert.equal(filing.filed, 4, JSON.stringify(filing));
    await b.waitUntil(async () => (await review(b)).proposals.filter((p) => p.turnId === filing.turnId).length === 4, {
      timeout: 60_000,
    });
    assert.equal(await text(b), before, "proposing never touches the document");
    const turn = (await review(b)).proposals.filter((p) => p.turnId === filing.turnId);
    assert.deepEqual(
      turn.map((p) => [p.target, p.replacement]).sort(),
      [["far ", ""], ["ruthless", "merciless"], ["slow", "hard"], ["everything", "all"]].sort(),
    );
    assert.ok(turn.every((p) => p.contract?.producer === "claude" && p.contract.category === "rewrite"));
    await b.waitUntil(
      async () =>
        (await b.execute(() => window.__cowriting.jobsRunning())) === 0 &&
        (await count(b, `.group[data-turn="${filing.turnId}"] .card`)) === 4,
      { timeout: 60_000, timeoutMsg: "the review panel never showed the turn" },
    );
    await shot(b, "08-ask-claude-hunks");
    const card = (target) => `.card[data-proposal="${turn.find((p) => p.target === target).id}"]`;
    // Accept "slow" → "hard" as proposed.
    await click(b, `${card("slow")} .btn-accept`);
    await b.waitUntil(async () => (await text(b)).includes("the hard work"), { timeout: 60_000 });
    // Change "ruthless" → "merciless" into the writer's own word.
    await click(b, `${card("ruthless")} .btn-edit`);
    await fresh(async () => (await b.$(`${card("ruthless")} .card-edit`)).setValue("relentless"));
    await click(b, `${card("ruthless")} .btn-accept-edited`);
    await b.waitUntil(async () => (await text(b)).includes("relentless about it"), { timeout: 60_000 });
    // Reject the rest of the turn.
    await click(b, `.group[data-turn="${filing.turnId}"] .btn-reject-turn`);
    await b.waitUntil(async () => (await review(b)).proposals.every((p) => p.turnId !== filing.turnId), {
      timeout: 60_000,
    });
    await b.keys(["Control", "s"]);
    await b.waitUntil(async () => readFileSync(join(ws, "essay.md"), "utf8").includes("relentless"), { timeout: 60_000 });
    await shot(b, "09-ask-claude-decided");
  });
  const after = claudeRewrites();
  assert.deepEqual(
    after.map((n, i) => n - sampleOnly[i]),
    [1, 1, 2, 0],
    `eval's claude/rewrite counts went from ${sampleOnly} to ${after}`,
  );
  const { decisions } = JSON.parse(cli(ws, "--json", "decisions", "essay.md"));
  const changed = decisions.find((d) => d.outcome === "changed");
  assert.equal(changed.chosen, "relentless");
  assert.equal(changed.edits[0].proposed, "merciless");
  const saved = readFileSync(join(ws, "essay.md"), "utf8");
  assert.ok(saved.includes("the hard work of deciding") && saved.includes("cutting everything"), saved);
});

test("Check document files Harper's suggestions; a missing Vale is reported, not fatal", async () => {
  const ws = workspace();
  writeFileSync(join(ws, "typos.md"), "# Typos\n\nWe recieve the letter tomorow, in Zürich.\n");
  await withApp(ws, async (b) => {
    await openDoc(b, "typos.md");
    await b.keys(["F7"]);
    await b.waitUntil(async () => (await b.execute(() => window.__cowriting.jobsRunning())) === 0 &&
      (await b.execute(() => window.__cowriting.lastJobMessage())) !== null, { timeout: 180_000 });
    const message = await b.execute(() => window.__cowriting.lastJobMessage());
    assert.match(message, /harper: \d+ suggestion/);
    assert.match(message, /vale: .*not installed/);
    const props = (await review(b)).proposals.filter((p) => p.contract?.producer === "harper");
    const targets = props.map((p) => p.target);
    assert.ok(targets.includes("recieve") && targets.includes("tomorow"), JSON.stringify(targets));
    await shot(b, "10-check-document");
  });
});

/** A minimal MCP client over stdio: JSON-RPC lines to `cowriting mcp`. */
function mcpClient(ws) {
  const child = spawn(CLI, ["mcp", "-w", ws], { env: ENV, stdio: ["pipe", "pipe", "inherit"] });
  let buffer = "";
  const waiting = new Map();
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line) continue;
      const msg = JSON.parse(line);
      waiting.get(msg.id)?.(msg);
      waiting.delete(msg.id);
    }
  });
  let next = 1;
  const request = (method, params) =>
    new Promise((ok) => {
      const id = next++;
      waiting.set(id, ok);
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  return {
    async start() {
      await request("initialize", {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "claude-code", version: "2.0.0" },
      });
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    },
    call: (name, args) => request("tools/call", { name, arguments: args }),
    list: () => request("tools/list", {}),
    close: () => child.kill(),
  };
}

test("an agent proposes over MCP while the app is open: it appears within a second, the human decides, the agent reads the decision", async () => {
  const ws = workspace();
  const agent = mcpClient(ws);
  await agent.start();
  try {
    await withApp(ws, async (b) => {
      await openDoc(b, "story.md");
      const t0 = Date.now();
      const res = await agent.call("propose_edit", {
        document: "story.md",
        find: "fishing boats",
        occurrence: 1,
        replacement: "trawlers",
        rationale: "Less expected",
        model: "claude-sonnet-4-5",
      });
      assert.equal(res.result?.isError ?? false, false, JSON.stringify(res));
      await b.waitUntil(async () => (await review(b)).proposals.some((p) => p.replacement === "trawlers"), {
        timeout: 60_000,
        timeoutMsg: "the agent's proposal never appeared",
      });
      const seenMs = Date.now() - t0;
      // Reported, not asserted: a timed assertion fails on a loaded machine, not on a bug.
      console.log(`# the MCP proposal appeared in the app after ${seenMs} ms`);
      const p = (await review(b)).proposals.find((x) => x.replacement === "trawlers");
      assert.equal(p.author.kind, "agent");
      assert.equal(p.author.id, "claude-code");
      assert.equal(p.contract.reason, "Less expected");
      await click(b, `.card[data-proposal="${p.id}"] .btn-reject`);
      await b.waitUntil(async () => !(await review(b)).proposals.some((x) => x.id === p.id), { timeout: 60_000 });
    });
    const decisions = await agent.call("recent_decisions", { document: "story.md" });
    const body = decisions.result.content.map((c) => c.text).join("\n");
    assert.match(body, /rejected/);
    assert.match(body, /trawlers/);
    // No tool can decide for the human (INV-12).
    const names = (await agent.list()).result.tools.map((t) => t.name);
    assert.ok(names.includes("propose_edit") && !names.some((n) => /accept|reject|decide|apply/.test(n)), names.join());
  } finally {
    agent.close();
  }
});

test("a git checkout that swaps documents and sidecars under the open app re-renders without loss", async () => {
  const ws = workspace();
  const git = (...args) =>
    execFileSync("git", ["-C", ws, "-c", "user.name=Writer", "-c", "user.email=writer@example.com", ...args], {
      env: ENV,
      encoding: "utf8",
    });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  git("checkout", "-q", "-b", "other");
  const doc = join(ws, "story.md");
  writeFileSync(doc, readFileSync(doc, "utf8").replace("the ferry", "the steamer"));
  cli(ws, "propose", "story.md", "--find", "the steamer", "--replace", "the old steamer", "--turn", "turn-git");
  git("add", "-A");
  git("commit", "-q", "-m", "other");
  git("checkout", "-q", "main");
  await withApp(ws, async (b) => {
    await openDoc(b, "story.md");
    const before = await text(b);
    assert.ok(before.includes("the ferry"));
    git("checkout", "-q", "other");
    await b.waitUntil(
      async () =>
        (await text(b)).includes("the steamer") &&
        (await review(b)).proposals.some((p) => p.turnId === "turn-git" && p.state === "pending"),
      { timeout: 60_000, timeoutMsg: "the app did not follow the checkout" },
    );
    await shot(b, "11-after-checkout");
    git("checkout", "-q", "main");
    await b.waitUntil(
      async () => (await text(b)) === before && !(await review(b)).proposals.some((p) => p.turnId === "turn-git"),
      { timeout: 60_000, timeoutMsg: "the app did not follow the checkout back" },
    );
    assert.equal(readFileSync(doc, "utf8"), before, "nothing was written over the checkout");
  });
});
