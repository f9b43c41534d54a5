// Threads as margin notes, in the real app: in a wide window the sample
// essay's threads have notes in the right margin, beside their lines, in the
// threads' colour (not the proposals'); a click on a note shows its thread in
// the Threads tab and leaves the cursor where it was; at the full reading
// width (Ctrl+Alt+R) and in a window without the room there are none. The
// screenshot (margin-notes) goes to tests/e2e/artifacts; the README's copy in
// docs/screenshots/ is refreshed by hand from there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileDriver, idle, review, shot, testHome, until, workspace } from "./support.mjs";

const { env: ENV } = testHome();
const { withApp } = fileDriver(ENV);

/** The notes drawn now: thread id, box, colours. */
const notes = (b) =>
  b.execute(() =>
    Array.from(document.querySelectorAll(".cm-margin-note"), (el) => {
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      return { id: el.dataset.thread, text: el.textContent, top: r.top, bottom: r.bottom, left: r.left, right: r.right, background: s.backgroundColor, line: s.borderLeftColor };
    }),
  );
const appClass = (b) => b.execute(() => document.querySelector(".app").className);

test("threads as notes in the margin: beside their lines, in the threads' colour; a click shows the thread; none without room", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    await idle(b);
    const size = await b.getWindowSize();
    try {
      await b.setWindowSize(1800, 1000);
      await until(async () => (await b.execute(() => window.innerWidth)) >= 1700, "the window at 1800 px");
      await b.execute(() => document.querySelector(".cm-scroller").scrollTo(0, 0));
      const placed = (await review(b)).threads.filter((t) => t.from !== null && !t.orphaned && !t.detached);
      assert.ok(placed.length >= 2, `the sample's essay has placed threads (${placed.length})`);
      const want = placed.map((t) => t.id).sort();
      await until(
        async () => JSON.stringify((await notes(b)).map((n) => n.id).sort()) === JSON.stringify(want),
        async () => `a note per placed thread (${JSON.stringify(want)}; drawn: ${JSON.stringify(await notes(b))})`,
      );
      const drawn = await notes(b);

      // Beside the line its anchor starts on, right of the text, none over another.
      const text = await b.execute(() => {
        const c = document.querySelector(".cm-content").getBoundingClientRect();
        return { right: c.right };
      });
      for (const n of drawn) {
        // The anchor's first box: the visual line it starts on (a heading's is taller than its text).
        const anchor = await b.execute((id) => {
          const r = document.querySelector(`.cm-content .cm-thread[data-thread="${id}"]`)?.getClientRects()[0];
          return r ? { top: r.top, bottom: r.bottom } : null;
        }, n.id);
        assert.ok(anchor, `the anchor of ${n.id} is in the text`);
        assert.ok(n.top >= anchor.top - 10 && n.top < anchor.bottom, `the note of ${n.id} at ${n.top}, its anchor's line at ${JSON.stringify(anchor)}`);
        assert.ok(n.left >= text.right, `the note of ${n.id} (left ${n.left}) right of the text (${text.right})`);
      }
      const byTop = [...drawn].sort((x, y) => x.top - y.top);
      for (let i = 1; i < byTop.length; i++) assert.ok(byTop[i].top >= byTop[i - 1].bottom, `notes apart: ${JSON.stringify(byTop)}`);

      // The threads' colour: the open thread's note has its text's highlight and the thread cards'
      // yellow line, not the proposal cards' green.
      const open = placed.find((t) => t.status === "open");
      const note = drawn.find((n) => n.id === open.id);
      const colours = await b.execute((id) => {
        const mark = getComputedStyle(document.querySelector(`.cm-thread[data-thread="${id}"]`));
        const probe = (cls) => {
          const el = document.createElement("div");
          el.className = cls;
          document.body.append(el);
          const c = getComputedStyle(el).borderLeftColor;
          el.remove();
          return c;
        };
        return { mark: mark.backgroundColor, thread: probe("thread"), proposal: probe("card") };
      }, open.id);
      assert.equal(note.background, colours.mark, "the note in its text's highlight");
      assert.equal(note.line, colours.thread, "the note's line in the threads' colour");
      assert.notEqual(note.line, colours.proposal, "not the proposals' colour");
      assert.ok(note.text.includes(open.comments[0].body.slice(0, 12)), `the note shows the comment's first words: ${note.text}`);

      // A click on the note: the Threads tab, its card flashed, the cursor where it was.
      await b.execute(() => document.querySelector(".pt-review").click());
      await until(() => b.execute(() => document.querySelector(".threads-body").hidden), "the Review tab shown");
      const before = await b.execute(() => window.__cowriting.selection());
      await b.execute(() => {
        window.__flashed = [];
        new MutationObserver((ms) => {
          for (const m of ms) if (m.target.classList?.contains("flash")) window.__flashed.push(m.target.dataset.thread);
        }).observe(document.querySelector(".panel"), { subtree: true, attributes: true, attributeFilter: ["class"] });
      });
      await (await b.$(`.cm-margin-note[data-thread="${open.id}"]`)).click();
      await until(() => b.execute(() => document.querySelector(".threads-body").hidden === false && document.querySelector(".pt-threads").classList.contains("active")), "the Threads tab shown");
      await until(async () => (await b.execute(() => window.__flashed)).includes(open.id), async () => `the thread's card flashed (${JSON.stringify(await b.execute(() => window.__flashed))})`);
      const after = await b.execute(() => window.__cowriting.selection());
      assert.equal(after.from, before.from, "the cursor stays where it was");
      await b.execute(() => document.querySelector(".cm-scroller").scrollTo(0, 0));
      await shot(b, "margin-notes");

      // The full reading width: no room, no notes; back at the reading width, they are back.
      await b.keys(["Control", "Alt", "r"]);
      await until(async () => /reading-wide/.test(await appClass(b)), "the full reading width");
      await until(async () => (await notes(b)).length === 0, "no notes at the full reading width");
      await b.keys(["Control", "Alt", "r"]);
      await until(async () => !/reading-wide/.test(await appClass(b)), "the reading width again");
      await until(async () => (await notes(b)).length === want.length, "the notes back");

      // A window too narrow for them beside both panels.
      await b.setWindowSize(1100, 1000);
      await until(async () => (await b.execute(() => window.innerWidth)) <= 1120, "the window at 1100 px");
      await until(async () => (await notes(b)).length === 0, async () => `no notes at 1100 px (${JSON.stringify(await notes(b))})`);
      const room = await b.execute(() => {
        const s = document.querySelector(".cm-scroller");
        return s.getBoundingClientRect().left + s.clientWidth - document.querySelector(".cm-content").getBoundingClientRect().right;
      });
      assert.ok(room < 180, `the margin is ${room} px`);
    } finally {
      await b.setWindowSize(size.width, size.height);
    }
  });
});
