// The names of new documents and folders as the UI checks them while the
// writer types (the core's rules stay the judge: documents.rs), and the
// tabs' order after a rename.
import { describe, expect, it } from "vitest";
import { documentName, folderName, nameProblem, renamedOrder, stemRange } from "../src/model/doc-names";

describe("new names", () => {
  it("get .md when they do not end like a document, and are normalized", () => {
    expect(documentName("notes")).toBe("notes.md");
    expect(documentName("  drafts//v1.2 ")).toBe("drafts/v1.2.md");
    expect(documentName("a.TXT")).toBe("a.TXT");
    expect(documentName("drafts\\essay")).toBe("drafts/essay.md");
    expect(documentName("   ")).toBe("");
    expect(folderName(" drafts/./2026/ ")).toBe("drafts/2026");
  });

  it("say what the core would refuse", () => {
    for (const ok of ["notes", "drafts/essay.md", "Ünïcode essay", "a b/c d"]) expect(nameProblem(ok), ok).toBeNull();
    const problems: [string, RegExp][] = [
      ["", /Type a name/],
      ["  ", /Type a name/],
      ["/etc/passwd", /absolute/],
      ["C:/x", /absolute/],
      ["../up", /'\.\.'/],
      ["a/../../b", /'\.\.'/],
      [".hidden", /hidden/],
      ["x/.git/y", /hidden/],
      ["a\nb", /line breaks/],
      ["a\u2028b", /line breaks/],
      ["tab\there", /line breaks/],
      ["evil\u202Edm.exe", /invisible/],
      ["a/ b", /blank/],
      ["node_modules/x", /node_modules/],
      ["x".repeat(256), /255 bytes/],
      ["é".repeat(128), /255 bytes/],
    ];
    for (const [name, why] of problems) expect(nameProblem(name), JSON.stringify(name)).toMatch(why);
  });
});

describe("renaming", () => {
  it("selects the name without its folder and ending", () => {
    const sel = (p: string) => p.slice(...stemRange(p));
    expect(sel("drafts/essay.md")).toBe("essay");
    expect(sel("essay.md")).toBe("essay");
    expect(sel("v1.2.md")).toBe("v1.2");
    expect(sel("drafts.old/README")).toBe("README");
  });

  it("keeps a renamed tab in its place", () => {
    expect(renamedOrder(["a.md", "b.md", "c.md"], "b.md", "z/b.md")).toEqual(["a.md", "z/b.md", "c.md"]);
    expect(renamedOrder(["a.md"], "x.md", "y.md")).toEqual(["a.md"]);
  });
});
