// Review by ear and by keyboard (issue 38), in the real app:
// - axe-core (tests/e2e's dependency) injected over WebDriver in each state of
//   the UI, 0 violations of the WCAG 2.0/2.1/2.2 A and AA rules and axe's
//   best practices asserted;
// - a keyboard-only walk (no pointer after the window opens): a document opened
//   from the tree, next proposal, accept, undo, reject, switching tabs, a dialog
//   opened and closed, the focus never on the page's body after an action;
// - the live regions watched (a MutationObserver, as a screen reader hears
//   them): each decision, undo and proposal filed by an agent (the real CLI)
//   said once, with its words;
// - the accessibility tree as Linux screen readers (Orca) read it over AT-SPI,
//   where the machine has it (at-spi2-core, python3-pyatspi: scripts/deps.sh),
//   through tests/e2e/fixtures/atspi-tree.py: the editor and the inline buttons
//   named by their words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { cli as cliAs, fileDriver, idle, review, shot, startDriver, testHome, typeText, until, withApp as withAppAt, workspace } from "./support.mjs";

const { env: ENV } = testHome();
const { withApp } = fileDriver(ENV);
const cli = (ws, ...args) => cliAs(ENV, ws, ...args);

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
/** The rules asserted: WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices. */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** axe's violations of `TAGS` in the window as it is now: [{id, impact, nodes: [{target, summary}]}]. */
async function axe(b) {
  const loaded = await b.execute(() => typeof window.axe === "object");
  if (!loaded) await b.execute(`${AXE}\n;return true;`);
  const result = await b.executeAsync((tags, done) => {
    window.axe
      .run(document, { runOnly: { type: "tag", values: tags } })
      .then((r) =>
        done({
          passed: r.passes.length,
          violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })) })),
        }),
      )
      .catch((e) => done({ error: String(e) }));
  }, TAGS);
  assert.ok(Array.isArray(result?.violations), `axe failed to run: ${JSON.stringify(result)}`);
  // A run that checked nothing would pass anything.
  assert.ok(result.passed >= 10, `axe passed only ${result.passed} rules`);
  return result.violations;
}

async function noViolations(b, state) {
  const v = await axe(b);
  assert.deepEqual(v, [], `axe in the state "${state}":\n${JSON.stringify(v, null, 2)}`);
}

/** Watch the live regions from now on: every line added to one is recorded as {politeness, text}. */
const listen = (b) =>
  b.execute(() => {
    window.__said = [];
    // Every live region: aria-live, and the roles that are live by themselves (status: polite, alert: assertive).
    for (const el of document.querySelectorAll('[aria-live], [role="status"], [role="alert"], [role="log"]')) {
      const politeness = el.getAttribute("aria-live") ?? (el.getAttribute("role") === "alert" ? "assertive" : "polite");
      new MutationObserver((records) => {
        for (const r of records) {
          if (el.hidden || el.closest("[hidden]")) continue; // not shown, not said
          for (const n of r.addedNodes) window.__said.push({ politeness, text: n.textContent });
          if (r.type === "characterData") window.__said.push({ politeness, text: r.target.textContent });
        }
      }).observe(el, { childList: true, subtree: true, characterData: true });
    }
  });
const heard = (b) => b.execute(() => window.__said);
/** What was heard since `n` lines, once nothing more came for a moment. */
async function heardSince(b, n, what) {
  await until(async () => (await heard(b)).length > n, what);
  await new Promise((r) => setTimeout(r, 700));
  return (await heard(b)).slice(n);
}

/** Where the focus is: a short description of document.activeElement. */
const focus = (b) =>
  b.execute(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "body";
    return `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? `.${el.className.trim().split(/\s+/).join(".")}` : ""}`;
  });
async function focusNotOnBody(b, after) {
  // The focus settles after a re-render; a fall to the body stays there.
  await new Promise((r) => setTimeout(r, 300));
  const f = await focus(b);
  assert.notEqual(f, "body", `after ${after} the focus fell to the page's body`);
  return f;
}

const pending = async (b) => (await review(b)).proposals.filter((p) => p.state === "pending").length;
const activePath = (b) => b.execute(() => window.__cowriting.activePath());

test("axe finds no WCAG A/AA or best-practice violation in any state: document with proposals, review, threads, comment box, settings, export, palette, search, inbox, help, review view, Ask Claude, a menu, the conflict banner, compare & merge, a question, no document", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    await idle(b);
    await until(() => b.execute(() => document.querySelectorAll(".cm-accept").length > 0), "the proposals inline");
    // The check itself can fail: an unnamed button put in the page is one violation.
    await b.execute(() => document.querySelector(".statusbar").append(Object.assign(document.createElement("button"), { className: "axe-control" })));
    const control = await axe(b);
    assert.deepEqual(control.map((v) => [v.id, v.nodes.map((n) => n.target)]), [["button-name", [".axe-control"]]]);
    await b.execute(() => document.querySelector(".axe-control").remove());
    await noViolations(b, "document with proposals, review panel");
    await shot(b, "a11y-proposals");

    // A proposal selected (Alt+]): marked in the text and its card.
    await b.execute(() => document.querySelector(".cm-content").focus());
    await b.keys(["Alt", "]"]);
    await until(() => b.execute(() => !!document.querySelector(".cm-proposal-selected")), "a proposal selected");
    await noViolations(b, "a proposal selected");

    await b.execute(() => document.querySelector(".pt-threads").click());
    await until(() => b.execute(() => !document.querySelector(".threads-body").hidden), "the Threads tab");
    await noViolations(b, "threads");

    // The comment box under a selection (Ctrl+Alt+M).
    await b.execute(() => window.__cowriting.select(0, 12));
    await b.keys(["Control", "Alt", "m"]);
    await until(() => b.execute(() => !!document.querySelector(".comment-box textarea")), "the comment box");
    await noViolations(b, "comment box");
    await b.keys(["Escape"]);

    await b.execute(() => document.querySelector(".cm-content").focus());
    await b.keys(["Control", ","]);
    await until(() => b.execute(() => !!document.querySelector(".modal .settings, .modal form")), "Settings");
    await noViolations(b, "settings");
    await b.keys(["Escape"]);

    await b.keys(["Control", "Shift", "p"]);
    await until(() => b.execute(() => !!document.querySelector(".palette-input")), "the palette");
    await noViolations(b, "palette");
    await b.execute(() => {
      const input = document.querySelector(".palette-input");
      input.value = "export";
      input.dispatchEvent(new Event("input"));
    });
    await b.keys(["Enter"]);
    await until(() => b.execute(() => !!document.querySelector(".export-dialog")), "Export…");
    await noViolations(b, "export");
    await b.keys(["Escape"]);

    await b.keys(["Control", "Shift", "f"]);
    await until(() => b.execute(() => !document.querySelector(".search-body").hidden), "the Search tab");
    await b.execute(() => {
      const input = document.querySelector(".search-body input");
      input.value = "draft";
      input.dispatchEvent(new Event("input"));
    });
    await until(() => b.execute(() => document.querySelectorAll(".search-hit").length > 0), "search results");
    await noViolations(b, "search");

    await b.keys(["Control", "Alt", "i"]);
    await until(() => b.execute(() => !document.querySelector(".inbox-body").hidden && document.querySelectorAll(".inbox-item").length > 0), "the Inbox");
    await noViolations(b, "inbox");

    await b.execute(() => document.querySelector(".cm-content").focus());
    await b.keys(["Alt", "F1"]);
    await until(() => b.execute(() => !!document.querySelector(".keys-table")), "the keys' help");
    await noViolations(b, "keys help");
    await b.keys(["Escape"]);

    // On a proposal (Alt+]), the view reads it; Alt+T reads the threads.
    await b.execute(() => document.querySelector(".cm-content").focus());
    await b.keys(["Alt", "]"]);
    await b.keys(["Alt", "F2"]);
    await until(() => b.execute(() => /^Proposal \d+ of \d+/.test(document.querySelector(".av-heading")?.textContent ?? "")), "the accessible review view on a proposal");
    await noViolations(b, "accessible review view");
    await b.keys(["Alt", "t"]);
    await until(
      () => b.execute(() => /^Thread \d+ of \d+/.test(document.querySelector(".av-heading")?.textContent ?? "")),
      async () => `the view reading threads (focus on ${await focus(b)}, heading ${await b.execute(() => document.querySelector(".av-heading")?.textContent)})`,
      20_000,
    );
    await noViolations(b, "accessible review view: threads");
    await b.keys(["Escape"]);

    // Ask Claude… on a selection (Ctrl+K).
    await b.execute(() => window.__cowriting.select(0, 20));
    await b.keys(["Control", "k"]);
    await until(() => b.execute(() => !!document.querySelector(".ask-instruction")), "Ask Claude…");
    await noViolations(b, "Ask Claude");
    await b.keys(["Escape"]);

    // A document's menu in the tree: from its name, Tab to its ⋯ button (shown once the row has the focus), Enter.
    await b.execute(() => document.querySelector('.tree-item[data-path="story.md"]').focus());
    await b.keys(["Tab"]);
    assert.equal(await b.execute(() => document.activeElement?.matches('.tree-row:has(.tree-item[data-path="story.md"]) .tree-more')), true, "Tab reaches the ⋯ of the row");
    await b.keys(["Enter"]);
    await until(() => b.execute(() => document.activeElement?.getAttribute("role") === "menuitem"), "the document's menu, its first item focused");
    await noViolations(b, "a document's menu");
    await b.keys(["Escape"]);

    // Compare & merge: unsaved typing, the file changed on disk.
    await b.execute(() => document.querySelector(".cm-content").focus());
    await b.keys(["Control", "End"]);
    await b.keys(["X"]);
    await until(() => b.execute(() => window.__cowriting.dirty("essay.md")), "essay.md unsaved");
    await idle(b);
    writeFileSync(join(ws, "essay.md"), `${readFileSync(join(ws, "essay.md"), "utf8")}\nAnother writer's line.\n`);
    await until(() => b.execute(() => !!document.querySelector(".banner-conflict:not([hidden]) .bn-merge")), "the conflict banner");
    await noViolations(b, "conflict banner");
    await b.execute(() => document.querySelector(".bn-merge").click());
    await until(() => b.execute(() => document.querySelectorAll(".mg-hunk").length > 0), "the merge sheet");
    await noViolations(b, "compare & merge");
    await b.keys(["Escape"]);
    await until(() => b.execute(() => !document.querySelector(".merge-sheet")), "the merge sheet closed");

    // Every document closed (Ctrl+W): the question for the unsaved one, then the empty editor.
    for (let i = 0; i < 5 && (await activePath(b)); i++) {
      await b.execute(() => document.querySelector(".cm-content")?.focus());
      await b.keys(["Control", "w"]);
      await new Promise((r) => setTimeout(r, 500));
      if (await b.execute(() => !!document.querySelector('.modal-root [role="alertdialog"]'))) {
        await noViolations(b, "a question (unsaved changes)");
        await b.execute(() => document.querySelector('.modal-root [data-action="Discard"]').click());
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    await until(async () => (await activePath(b)) === null, "every document closed");
    assert.notEqual(await focus(b), "body", "the last document closed: the focus is not left on the page");
    await noViolations(b, "no document");
  });
});

test("the dark theme too: no violation (contrast, the marks) with proposals, threads, settings, the palette", async () => {
  // GTK's dark theme: WebKitGTK reports prefers-color-scheme: dark, as a writer's dark desktop does.
  const driver = await startDriver({ ...ENV, GTK_THEME: "Adwaita:dark" });
  try {
    await withAppAt(driver.port, workspace(), async (b) => {
      assert.equal(await b.execute(() => matchMedia("(prefers-color-scheme: dark)").matches), true, "the window is dark");
      await idle(b);
      await until(() => b.execute(() => document.querySelectorAll(".cm-accept").length > 0), "the proposals inline");
      // Inserted words are underlined in the dark theme too: not told by colour alone.
      assert.equal(await b.execute(() => getComputedStyle(document.querySelector(".cm-proposal-ins")).textDecorationLine), "underline");
      assert.equal(await b.execute(() => getComputedStyle(document.querySelector(".cm-proposal-del")).textDecorationLine), "line-through");
      await noViolations(b, "dark: document with proposals, review panel");
      await shot(b, "a11y-proposals-dark");
      await b.execute(() => document.querySelector(".pt-threads").click());
      await noViolations(b, "dark: threads");
      await b.execute(() => document.querySelector(".cm-content").focus());
      await b.keys(["Control", ","]);
      await until(() => b.execute(() => !!document.querySelector(".set-tab-focus")), "Settings");
      await noViolations(b, "dark: settings");
      await b.keys(["Escape"]);
      await b.keys(["Control", "Shift", "p"]);
      await until(() => b.execute(() => !!document.querySelector(".palette-input")), "the palette");
      await noViolations(b, "dark: palette");
    });
  } finally {
    driver.stop();
  }
});

test("a keyboard-only walk: open from the tree, next, accept, undo, reject, switch tabs, dialogs opened and closed; the focus never on the body; each decision said once", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    await idle(b);
    await listen(b);
    // Tab moves focus (Ctrl+M), said and shown; then Shift+Tab walks back to the tree.
    let n = (await heard(b)).length;
    await b.keys(["Control", "m"]);
    assert.deepEqual((await heardSince(b, n, "Tab moves focus said")).map((s) => s.text), ["Tab moves focus: on. Tab and Shift+Tab leave the text."]);
    assert.equal(await b.execute(() => document.querySelector(".st-tabfocus").hidden), false);
    let found = false;
    for (let i = 0; i < 60 && !found; i++) {
      await b.keys(["Shift", "Tab"]);
      const f = await focus(b);
      assert.notEqual(f, "body", "Shift+Tab never lands on the body");
      found = await b.execute(() => document.activeElement?.matches('.tree-item[data-path="story.md"]') ?? false);
    }
    assert.ok(found, "Shift+Tab reaches story.md in the tree");
    await b.keys(["Enter"]);
    await until(async () => (await activePath(b)) === "story.md", "story.md opened from the tree");
    assert.match(await focusNotOnBody(b, "opening a document"), /cm-content/);
    assert.equal(await b.execute(() => document.querySelector(".cm-content").getAttribute("aria-label")), "story.md — text");

    // An agent files a proposal while the document is open: said once, batched.
    n = (await heard(b)).length;
    const id = cli(ws, "propose", "story.md", "--find", "the great lamp", "--replace", "the great lantern", "--turn", "turn-a11y", "--model", "claude-sonnet-4-5");
    await until(() => b.execute((id) => !!document.querySelector(`.cm-decision[data-proposal="${id}"]`), id), "the agent's proposal inline");
    const arrival = await heardSince(b, n, "the agent's proposal said");
    assert.equal(arrival.length, 1, JSON.stringify(arrival));
    assert.match(arrival[0].text, /^\S+ proposed 1 edit in story\.md\.$/);
    assert.equal(arrival[0].politeness, "polite");
    // Its inline buttons are named by their words.
    assert.equal(
      await b.execute((id) => document.querySelector(`.cm-decision[data-proposal="${id}"] .cm-accept`).getAttribute("aria-label"), id),
      "Accept: replace 'the great lamp' with 'the great lantern'",
    );

    // Next proposal, accept, undo, reject: each said once.
    const before = await pending(b);
    await b.keys(["Alt", "]"]);
    await until(() => b.execute(() => !!document.querySelector(".cm-proposal-selected")), "a proposal selected");
    n = (await heard(b)).length;
    await b.keys(["Alt", "Enter"]);
    const accepted = await heardSince(b, n, "the accept said");
    assert.equal(accepted.length, 1, JSON.stringify(accepted));
    assert.match(accepted[0].text, new RegExp(`^Accepted: .+\\. ${before - 1 === 0 ? "None" : before - 1} pending in story\\.md$`));
    assert.equal(await pending(b), before - 1);
    await focusNotOnBody(b, "accept");

    n = (await heard(b)).length;
    await b.keys(["Control", "z"]);
    const undone = await heardSince(b, n, "the undo said");
    assert.equal(undone.length, 1, JSON.stringify(undone));
    assert.match(undone[0].text, new RegExp(`^Undone: .+ is pending again\\. ${before} pending in story\\.md$`));
    await until(async () => (await pending(b)) === before, "the proposal back");
    await focusNotOnBody(b, "undo");

    await b.keys(["Alt", "]"]);
    n = (await heard(b)).length;
    await b.keys(["Alt", "Backspace"]);
    const rejected = await heardSince(b, n, "the reject said");
    assert.equal(rejected.length, 1, JSON.stringify(rejected));
    assert.match(rejected[0].text, /^Rejected: .+ pending in story\.md$/);
    await focusNotOnBody(b, "reject");

    // Switch document tabs: Ctrl+PageDown and Ctrl+Tab.
    const tabs = await b.execute(() => Array.from(document.querySelectorAll(".tab"), (t) => t.dataset.path));
    assert.ok(tabs.length >= 2, `two tabs open: ${tabs}`);
    const was = await activePath(b);
    await b.keys(["Control", "PageDown"]);
    await until(async () => (await activePath(b)) !== was, "Ctrl+PageDown switched tabs");
    await focusNotOnBody(b, "Ctrl+PageDown");
    await b.keys(["Control", "PageUp"]);
    await until(async () => (await activePath(b)) === was, "Ctrl+PageUp switched back");
    await b.keys(["Control", "Tab"]);
    await until(async () => (await activePath(b)) !== was, "Ctrl+Tab switched tabs");
    await focusNotOnBody(b, "Ctrl+Tab");
    // The tab list by the keyboard: Shift+Tab to the active tab, → to the next, Enter shows it.
    found = false;
    for (let i = 0; i < 20 && !found; i++) {
      await b.keys(["Shift", "Tab"]);
      found = await b.execute(() => document.activeElement?.getAttribute("role") === "tab" && document.activeElement.closest(".tabs") !== null);
    }
    assert.ok(found, "Shift+Tab reaches the document tabs");
    await shot(b, "a11y-focus-on-tab");
    const now = await activePath(b);
    await b.keys(["ArrowRight"]);
    await b.keys(["Enter"]);
    await until(async () => (await activePath(b)) !== now, "→ and Enter in the tab list showed the other document");
    await focusNotOnBody(b, "Enter on a tab");

    // A dialog (Settings, Ctrl+,): named, modal; Tab stays inside; Esc gives the focus back to the editor that opened it.
    await b.keys(["Control", ","]);
    await until(() => b.execute(() => document.activeElement?.closest(".modal") !== null && document.activeElement !== null), "Settings focused");
    const dialog = await b.execute(() => {
      const d = document.querySelector(".modal-root [role=dialog]");
      return { modal: d.getAttribute("aria-modal"), name: document.getElementById(d.getAttribute("aria-labelledby") ?? "")?.textContent };
    });
    assert.deepEqual(dialog, { modal: "true", name: "Settings" });
    const stops = await b.execute(() => document.querySelectorAll(".modal-root button:not([disabled]), .modal-root input:not([disabled]), .modal-root select").length);
    for (let i = 0; i < stops + 3; i++) {
      await b.keys(["Tab"]);
      assert.ok(await b.execute(() => !!document.activeElement?.closest(".modal")), `Tab ${i + 1} left the Settings dialog for ${await focus(b)}`);
    }
    await b.keys(["Escape"]);
    await until(() => b.execute(() => document.querySelector(".modal-root").childElementCount === 0), "Settings closed");
    assert.match(await focusNotOnBody(b, "closing Settings"), /cm-content/);

    // Each dialog a key opens from the text: the focus inside it, Esc gives it back to the text.
    for (const [keys, what] of [
      [["Control", "Shift", "p"], "the palette"],
      [["Alt", "F1"], "the keys' help"],
      [["Alt", "F2"], "the review view"],
      [["Control", "k"], "Ask Claude… (or its note that a selection is needed)"],
    ]) {
      await b.execute(() => window.__cowriting.select(0, 5));
      await b.keys(keys);
      await new Promise((r) => setTimeout(r, 400));
      const inside = await b.execute(() => !!document.activeElement?.closest(".modal-root [role=dialog]"));
      assert.ok(inside, `${what}: the focus is inside the dialog (${await focus(b)})`);
      await b.keys(["Escape"]);
      await until(() => b.execute(() => document.querySelector(".modal-root").childElementCount === 0), `${what} closed`);
      assert.match(await focusNotOnBody(b, `closing ${what}`), /cm-content/, `${what}: Esc gives the focus back to the text`);
    }

    // The accessible review view: the proposal as words, decided with the same key.
    await b.keys(["Alt", "]"]);
    await b.keys(["Alt", "F2"]);
    await until(() => b.execute(() => document.activeElement?.classList.contains("av-text")), "the review view focused");
    const words = await b.execute(() => document.querySelector(".av-text").textContent);
    assert.match(words, /Proposal \d+ of \d+/);
    assert.match(words, /Replaces|Inserts|Deletes/);
    n = (await heard(b)).length;
    const left = await pending(b);
    await b.keys(["Alt", "Backspace"]);
    const fromView = await heardSince(b, n, "the view's reject said");
    assert.equal(fromView.length, 1, JSON.stringify(fromView));
    assert.match(fromView[0].text, /^Rejected: /);
    await until(async () => (await pending(b)) === left - 1, "rejected from the view");
    await focusNotOnBody(b, "a decision in the review view");
    await b.keys(["Escape"]);
    assert.match(await focusNotOnBody(b, "leaving the review view"), /cm-content/);
    // Nothing was said assertively: no error on the way.
    assert.deepEqual((await heard(b)).filter((s) => s.politeness === "assertive"), []);
    // Ctrl+M again: Tab indents again (and the next test starts as the app does, the choice being kept).
    n = (await heard(b)).length;
    await b.keys(["Control", "m"]);
    assert.deepEqual((await heardSince(b, n, "Tab moves focus off said")).map((s) => s.text), ["Tab moves focus: off. Tab indents in the text."]);
    assert.equal(await b.execute(() => document.querySelector(".st-tabfocus").hidden), true);
  });
});

test("comment, reply and resolve by keyboard: each said, the focus kept on the thread", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    await idle(b);
    await listen(b);
    const text = await b.execute(() => window.__cowriting.text());
    const from = text.indexOf("second reader");
    assert.ok(from > 0);
    // A selection as Shift+arrows would make it (Shift is unreliable through WebDriver under Xvfb).
    await b.execute((a, z) => window.__cowriting.select(a, z), from, from + "second reader".length);
    await b.keys(["Control", "Alt", "m"]);
    await until(() => b.execute(() => document.activeElement?.matches(".comment-box textarea")), "the comment box focused");
    await typeText(b, "who is this reader");
    let n = (await heard(b)).length;
    await b.keys(["Control", "Enter"]);
    assert.deepEqual((await heardSince(b, n, "the comment said")).map((s) => s.text), ["Comment added in essay.md."]);
    const thread = await until(async () => (await review(b)).threads.find((t) => t.comments[0]?.body === "who is this reader"), "the thread filed");
    await focusNotOnBody(b, "commenting");

    // Tab moves focus (unless a choice kept from before has it on), then Tab to the thread's reply box.
    if (await b.execute(() => document.querySelector(".st-tabfocus").hidden)) await b.keys(["Control", "m"]);
    assert.equal(await b.execute(() => document.querySelector(".st-tabfocus").hidden), false, "Tab moves focus is on");
    let found = false;
    for (let i = 0; i < 80 && !found; i++) {
      await b.keys(["Tab"]);
      assert.notEqual(await focus(b), "body", "Tab never lands on the body");
      found = await b.execute((id) => document.activeElement?.matches(`.thread[data-thread="${id}"] .reply-box`) ?? false, thread.id);
    }
    assert.ok(found, "Tab reaches the new thread's reply box");
    await typeText(b, "the one who reads it next");
    n = (await heard(b)).length;
    await b.keys(["Control", "Enter"]);
    assert.deepEqual((await heardSince(b, n, "the reply said")).map((s) => s.text), ["Reply sent."]);
    await until(async () => (await review(b)).threads.find((t) => t.id === thread.id)?.comments.length === 2, "the reply in the thread");
    assert.equal(await b.execute((id) => document.activeElement?.matches(`.thread[data-thread="${id}"] .reply-box`) ?? false, thread.id), true, "the focus stays in the reply box");

    found = false;
    for (let i = 0; i < 6 && !found; i++) {
      await b.keys(["Tab"]);
      found = await b.execute((id) => document.activeElement?.matches(`.thread[data-thread="${id}"] .btn-resolve`) ?? false, thread.id);
    }
    assert.ok(found, "Tab reaches Resolve");
    n = (await heard(b)).length;
    await b.keys(["Enter"]);
    assert.deepEqual((await heardSince(b, n, "the resolve said")).map((s) => s.text), ["Thread resolved."]);
    await until(async () => (await review(b)).threads.find((t) => t.id === thread.id)?.status === "resolved", "the thread resolved");
    assert.equal(
      await b.execute((id) => (document.activeElement?.matches(`.thread[data-thread="${id}"] .btn-resolve`) ? document.activeElement.textContent : null), thread.id),
      "Reopen",
      "the focus on the thread's Reopen, not the page",
    );
  });
});

const LAUNCHER = "/usr/libexec/at-spi-bus-launcher";
const pyatspi = () => {
  try {
    execFileSync("/usr/bin/python3", ["-c", "import pyatspi"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};
const noAtSpi = !existsSync(LAUNCHER) ? `no ${LAUNCHER} (at-spi2-core)` : !pyatspi() ? "no python3-pyatspi" : false;

test("the accessibility tree (AT-SPI, as Orca reads it): the editor named after its document, a replacement read as removed and inserted words, the inline buttons by their words", { skip: noAtSpi }, async () => {
  // A display, a session bus and an accessibility bus of the test's own (switched on, as a desktop
  // with a screen reader has): the apps of the tests before left their own accessibility buses
  // named on the shared display's root window, where the app would look first.
  const xvfb = spawn("Xvfb", ["-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp"], { stdio: ["ignore", "ignore", "ignore", "pipe"] });
  const display = await new Promise((ok, fail) => {
    let got = "";
    xvfb.stdio[3].on("data", (d) => {
      got += d;
      if (got.includes("\n")) ok(`:${got.trim()}`);
    });
    xvfb.on("exit", (code) => fail(new Error(`Xvfb exited (${code})`)));
  });
  const [address, busPid] = execFileSync("dbus-daemon", ["--session", "--fork", "--print-address=1", "--print-pid=1"], { encoding: "utf8" }).trim().split("\n");
  const env = { ...ENV, DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: address };
  delete env.XAUTHORITY;
  const launcher = spawn(LAUNCHER, ["--launch-immediately"], { env, stdio: "ignore" });
  let driver;
  try {
    await until(() => {
      try {
        execFileSync("dbus-send", ["--session", "--print-reply", "--dest=org.a11y.Bus", "/org/a11y/bus", "org.freedesktop.DBus.Properties.Set", "string:org.a11y.Status", "string:IsEnabled", "variant:boolean:true"], { env, stdio: "ignore" });
        return true;
      } catch {
        return false;
      }
    }, "the accessibility bus", 30_000);
    driver = await startDriver(env);
    await withAppAt(driver.port, workspace(), async (b) => {
      await idle(b);
      await until(() => b.execute(() => document.querySelectorAll(".cm-accept").length > 0), "the proposals inline");
      const tree = () =>
        execFileSync("/usr/bin/python3", [new URL("fixtures/atspi-tree.py", import.meta.url).pathname, "cowriting"], { env, encoding: "utf8", timeout: 60_000 })
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l));
      // The web process joins the bus a moment after the page shows.
      const rows = await until(() => {
        const r = tree();
        return r.some((n) => n.role === "push button" && n.name.startsWith("Accept:")) ? r : null;
      }, async () => `the inline buttons in the AT-SPI tree: ${JSON.stringify(tree()).slice(0, 2000)}`);
      const named = (role, name) => rows.find((n) => n.role === role && n.name === name);
      const editor = named("entry", "essay.md — text");
      assert.ok(editor, `the editor named: ${JSON.stringify(rows.filter((n) => n.role === "entry"))}`);
      assert.ok(editor.states.includes("editable") && editor.states.includes("multi line"), JSON.stringify(editor));
      // A replacement is read as words, not run together ("polishingpolish"): WebKitGTK flattens the diff.
      assert.match(editor.text ?? "", /Revision is not \(removed: polishing\)\(inserted: polish\)/, (editor.text ?? "").slice(0, 400));
      assert.ok(named("push button", "Accept: replace 'polishing' with 'polish'"), "the inline accept named by its words");
      assert.ok(named("push button", "Reject: replace 'polishing' with 'polish'"), "the inline reject named by its words");
      assert.deepEqual(rows.filter((n) => n.role === "push button" && /^[✓✗]$/.test(n.name)), [], "no button named by its mark alone");
      assert.ok(rows.some((n) => n.role === "page tab" && n.name === "essay.md" && n.states.includes("selected")), "the document's tab, selected");
      assert.ok(
        rows.some((n) => n.role === "push button" && /^essay\.md ?, 4 pending proposals, 1 open thread$/.test(n.name)),
        `the tree's item says its counts as words: ${JSON.stringify(rows.filter((n) => n.name.startsWith("essay.md")))}`,
      );
    });
  } finally {
    driver?.stop();
    launcher.kill();
    xvfb.kill();
    try {
      process.kill(Number(busPid));
    } catch {
      /* gone */
    }
  }
});
