// The notice after a crash (model/restore.ts): each restored document named
// with its count of decisions, a file changed on disk since said so, where a
// backup that could not be restored was kept; restored documents listed first,
// and nothing when nothing was restored; and the notice drawn from the core's
// report alone (views/restore-notice.ts): its lines, marked a warning when
// something was not restored or a file changed since, dismissed. The app's
// side: restore-app.test.ts.
import { describe, expect, it } from "vitest";
import { restoredLine, restoreNotice, unrestoredLine } from "../src/model/restore";
import { dismissRestoreNotice, showRestoreNotice } from "../src/views/restore-notice";

describe("the restore notice", () => {
  it("names the document and counts its decisions", () => {
    expect(restoredLine({ path: "essay.md", fileChanged: false, decisions: 2 })).toBe(
      "Restored unsaved changes to essay.md from the last session (2 decisions).",
    );
    expect(restoredLine({ path: "notes/meeting.md", fileChanged: false, decisions: 1 })).toBe(
      "Restored unsaved changes to notes/meeting.md from the last session (1 decision).",
    );
    expect(restoredLine({ path: "story.md", fileChanged: false, decisions: 0 })).toBe(
      "Restored unsaved changes to story.md from the last session.",
    );
  });

  it("says when the file changed on disk since", () => {
    expect(restoredLine({ path: "essay.md", fileChanged: true, decisions: 2 })).toBe(
      "Restored unsaved changes to essay.md from the last session (2 decisions); the file changed on disk since, and saving replaces that version.",
    );
  });

  it("says where a backup that could not be restored was kept", () => {
    expect(unrestoredLine({ path: "gone.md", message: "gone.md: not found.", keptAs: "/b/kept-1.json" })).toBe(
      "The unsaved changes to gone.md from the last session could not be restored: gone.md: not found. It was kept as /b/kept-1.json.",
    );
    expect(unrestoredLine({ path: null, message: "x.json is not a readable backup", keptAs: null })).toBe(
      "A backup from the last session could not be restored: x.json is not a readable backup. It was left in place.",
    );
  });

  it("lists restored documents first, and nothing when nothing was restored", () => {
    expect(restoreNotice({ restored: [], unrestored: [] })).toEqual([]);
    const lines = restoreNotice({
      restored: [{ path: "a.md", fileChanged: false, decisions: 0 }],
      unrestored: [{ path: null, message: "bad", keptAs: "/k" }],
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Restored unsaved changes to a\.md/);
  });
});

describe("the restore notice shown", () => {
  const notice = () => document.querySelector<HTMLElement>(".restore-notice")!;
  const lines = () => Array.from(notice().querySelectorAll(".rn-line"), (l) => l.textContent);

  it("shows nothing when nothing was restored", () => {
    document.body.innerHTML = `<div class="restore-notice" role="status" hidden></div>`;
    showRestoreNotice({ restored: [], unrestored: [] });
    expect(notice().hidden).toBe(true);
    expect(notice().childElementCount).toBe(0);
  });

  it("lists what was restored, a warning only when something went wrong, until dismissed", () => {
    document.body.innerHTML = `<div class="restore-notice" role="status" hidden></div>`;
    const fine = { restored: [{ path: "a.md", fileChanged: false, decisions: 0 }], unrestored: [] };
    showRestoreNotice(fine);
    expect(notice().hidden).toBe(false);
    expect(lines()).toEqual(restoreNotice(fine));
    expect(notice().classList.contains("rn-warn")).toBe(false);
    const changed = { restored: [{ path: "a.md", fileChanged: true, decisions: 0 }], unrestored: [] };
    showRestoreNotice(changed);
    expect(lines()).toEqual(restoreNotice(changed));
    expect(notice().classList.contains("rn-warn")).toBe(true);
    const lost = { restored: [], unrestored: [{ path: null, message: "bad", keptAs: "/k" }] };
    showRestoreNotice(lost);
    expect(lines()).toEqual(restoreNotice(lost));
    expect(notice().classList.contains("rn-warn")).toBe(true);
    notice().querySelector<HTMLButtonElement>(".rn-dismiss")!.click();
    expect(notice().hidden).toBe(true);
    expect(notice().childElementCount).toBe(0);
    showRestoreNotice(fine);
    dismissRestoreNotice();
    expect(notice().hidden).toBe(true);
  });
});
