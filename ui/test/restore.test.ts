// The notice after a crash (restore.ts): each restored document named with
// its count of decisions, a file changed on disk since said so, where a backup
// that could not be restored was kept; restored documents listed first, and
// nothing when nothing was restored. The app's side: restore-app.test.ts.
import { describe, expect, it } from "vitest";
import { restoredLine, restoreNotice, unrestoredLine } from "../src/restore";

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
