// A writer's desk (issue 13), in the real app: the window title names the
// document and the workspace and marks unsaved changes; find & replace (Ctrl+F)
// lays out as CodeMirror means it to (the app's own fields still fill their
// dialogs and panels); Ctrl+Enter sends a new comment.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { active, click, count, fileDriver, fresh, idle, openDoc, shot, sidecar, testHome, text, until, workspace } from "./support.mjs";

const { env: ENV } = testHome();
const { withApp } = fileDriver(ENV);

/**
 * The native title bar's text of the app's window (X11, with xdotool), or
 * undefined when it cannot be read here (no display or no xdotool).
 */
function nativeTitles() {
  if (!process.env.DISPLAY) return undefined;
  try {
    const ids = execFileSync("xdotool", ["search", "--name", "\\.md|Cowriting|cowriting"], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
    return ids.map((id) => {
      try {
        return execFileSync("xdotool", ["getwindowname", id], { encoding: "utf8" }).replace(/\n$/, "");
      } catch {
        return "";
      }
    });
  } catch (e) {
    // Exit status 1: no window matched (yet); anything else: xdotool is not usable here.
    return e?.status === 1 ? [] : undefined;
  }
}

/** The page's title is `want`, and so is the native window's when it can be read. */
async function titleIs(b, want) {
  await until(async () => (await b.getTitle()) === want, async () => `the title "${want}" (it is "${await b.getTitle()}")`, 60_000);
  if (nativeTitles() === undefined) {
    console.log("# the native title bar was not checked (no X display or xdotool)");
    return;
  }
  await until(() => nativeTitles().includes(want), () => `the native window title "${want}" (windows: ${JSON.stringify(nativeTitles())})`, 60_000);
}

test("the window title names the document and the workspace, and marks unsaved changes until Ctrl+S", async () => {
  const ws = workspace();
  const name = basename(ws);
  await withApp(ws, async (b) => {
    assert.equal(await active(b), "essay.md");
    await titleIs(b, `essay.md — ${name}`);
    await click(b, ".cm-content");
    await b.keys(["Control", "End"]);
    await b.keys(["N", "o", "w"]);
    await titleIs(b, `● essay.md — ${name}`);
    await idle(b);
    await b.keys(["Control", "s"]);
    await until(() => readFileSync(join(ws, "essay.md"), "utf8").includes("Now"), "the save");
    await titleIs(b, `essay.md — ${name}`);
    // Another document: its name.
    await openDoc(b, "notes/meeting.md");
    await titleIs(b, `meeting.md — ${name}`);
  });
});

test("find & replace (Ctrl+F) lays out its controls in the editor, in a row, with their labels", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    await click(b, ".cm-content");
    await b.keys(["Control", "Home"]);
    await b.keys(["Control", "f"]);
    const field = await b.$(".cm-search input[name=search]");
    await field.waitForExist({ timeout: 60_000, timeoutMsg: "Ctrl+F opened no search panel" });
    await field.setValue("the");
    await b.pause(300);
    const m = await b.execute(() => {
      const box = (el) => {
        if (!el) return null;
        const r = el.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
      };
      const panel = document.querySelector(".cm-search");
      const labels = Array.from(panel.querySelectorAll("label"), (l) => ({ text: l.textContent, box: box(l), check: box(l.querySelector("input[type=checkbox]")) }));
      const named = (n) => box(panel.querySelector(`[name=${n}]`));
      return {
        editor: box(document.querySelector(".cm-editor")),
        panel: box(panel),
        search: named("search"),
        replace: named("replace"),
        buttons: Object.fromEntries(["next", "prev", "select", "replace", "replaceAll", "close"].map((n) => [n, box(panel.querySelector(`button[name=${n}]`))])),
        labels,
      };
    });
    const inside = (what, r) => {
      assert.ok(r && r.width > 0 && r.height > 0, `${what} is shown: ${JSON.stringify(r)}`);
      const e = m.editor;
      assert.ok(r.left >= e.left - 1 && r.right <= e.right + 1 && r.top >= e.top - 1 && r.bottom <= e.bottom + 1, `${what} ${JSON.stringify(r)} is inside the editor ${JSON.stringify(e)}`);
    };
    inside("the search field", m.search);
    inside("the replace field", m.replace);
    for (const [n, r] of Object.entries(m.buttons)) inside(`the ${n} button`, r);
    assert.deepEqual(m.labels.map((l) => l.text), ["match case", "regexp", "by word"]);
    for (const l of m.labels) {
      inside(`the "${l.text}" label`, l.box);
      assert.ok(l.check && l.check.right <= l.box.right && l.check.width < 30, `the "${l.text}" checkbox is a checkbox inside its label: ${JSON.stringify(l)}`);
      assert.ok(l.box.width < m.panel.width / 3, `the "${l.text}" label is not full width: ${JSON.stringify(l.box)}`);
    }
    // Not stacked one per line: the field is well under the panel's width and the
    // buttons sit beside it; the three options share a row.
    assert.ok(m.search.width < m.panel.width * 0.5, `the search field (${m.search.width}px) is well under the panel (${m.panel.width}px)`);
    const sameRow = (a, c) => Math.abs((a.top + a.bottom) / 2 - (c.top + c.bottom) / 2) < 6;
    assert.ok(sameRow(m.search, m.buttons.next) && m.buttons.next.left > m.search.right, "next is beside the search field");
    assert.ok(sameRow(m.labels[0].box, m.labels[1].box) && sameRow(m.labels[1].box, m.labels[2].box), `the options share a row: ${JSON.stringify(m.labels)}`);
    assert.ok(m.labels[0].box.right <= m.labels[1].box.left && m.labels[1].box.right <= m.labels[2].box.left, "in order, side by side");
    assert.ok(sameRow(m.replace, m.buttons.replace) && m.replace.top > m.search.bottom - 1, "replace is on its own row, with its buttons");
    assert.ok(m.panel.height < 140, `the panel is compact (${m.panel.height}px)`);
    await shot(b, "find-replace");
    // It still works: Enter selects the next match; Esc closes the panel.
    await b.keys(["Enter"]);
    await b.keys(["Escape"]);
    await until(async () => (await count(b, ".cm-search")) === 0, "the search panel to close");
    assert.equal((await b.execute(() => window.getSelection()?.toString()))?.toLowerCase(), "the");
  });
});

test("the app's own fields still fill their dialogs and panels", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    /** How much of its container's content width an element takes (0..1), and its computed border style. */
    const fill = (sel, container) =>
      b.execute(
        (s, c) => {
          const el = document.querySelector(s);
          const box = el?.closest(c);
          if (!el || !box) return null;
          const cs = getComputedStyle(box);
          const inner = box.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
          return { ratio: el.getBoundingClientRect().width / inner, border: getComputedStyle(el).borderTopStyle, radius: getComputedStyle(el).borderTopLeftRadius };
        },
        sel,
        container,
      );
    const fills = async (what, sel, container) => {
      const f = await until(() => fill(sel, container), `${what} (${sel})`);
      assert.ok(f.ratio > 0.95 && f.ratio < 1.01, `${what} fills its ${container}: ${JSON.stringify(f)}`);
      assert.equal(f.border, "solid", `${what} has the app's border`);
      assert.equal(f.radius, "6px", `${what} has the app's rounded corners`);
    };
    // The palette.
    await b.keys(["Control", "Shift", "p"]);
    await fills("the palette's input", ".palette-input", ".modal");
    await b.keys(["Escape"]);
    await until(async () => (await count(b, ".modal")) === 0, "the palette to close");
    // Settings: its text fields fill the form; its checkboxes stay checkboxes.
    await click(b, ".st-settings");
    await fills("the settings' model field", ".set-model", "fieldset");
    const check = await b.execute(() => document.querySelector(".set-producer")?.getBoundingClientRect().width);
    assert.ok(check > 0 && check < 30, `a settings checkbox is small (${check}px)`);
    await b.keys(["Escape"]);
    await until(async () => (await count(b, ".modal")) === 0, "settings to close");
    // Ask Claude…
    const t = await text(b);
    await b.execute((a, z) => window.__cowriting.select(a, z), 0, t.indexOf("\n"));
    await b.keys(["Control", "k"]);
    await fills("Ask Claude's instruction box", ".ask-instruction", ".modal");
    await b.keys(["Escape"]);
    await until(async () => (await count(b, ".modal")) === 0, "Ask Claude to close");
    // A thread's reply box.
    await click(b, ".pt-threads");
    await fills("a thread's reply box", ".thread .reply-box", ".thread");
  });
});

test("Ctrl+Enter in the comment dialog creates the thread", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    await openDoc(b, "notes/meeting.md");
    const before = sidecar(ws, "notes/meeting.md").threads.length;
    const t = await text(b);
    const at = t.indexOf("printer");
    assert.ok(at >= 0);
    await b.execute((a, z) => window.__cowriting.select(a, z), at, at + "printer".length);
    await click(b, ".pt-threads");
    await click(b, ".btn-new-thread");
    await fresh(async () => (await b.$(".new-thread-body")).setValue("Ask for two quotes."));
    await b.keys(["Control", "Enter"]);
    await until(() => sidecar(ws, "notes/meeting.md").threads.length === before + 1, "the new thread in the sidecar");
    const sc = sidecar(ws, "notes/meeting.md");
    const thread = sc.threads[sc.threads.length - 1];
    assert.equal(sc.anchors[thread.anchorId].fingerprint.text, "printer");
    assert.equal(thread.comments[0].body, "Ask for two quotes.");
    await until(async () => (await count(b, ".modal")) === 0, "the dialog to close");
    await until(async () => (await count(b, `.thread[data-thread="${thread.id}"]`)) === 1, "the thread's card");
    await shot(b, "comment-ctrl-enter");
  });
});
