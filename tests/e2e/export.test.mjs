// Export… (issue 13, "Export"), in the real app: the sample's essay, with a
// sentence typed and not saved, exported through the palette's Export… and
// the native Save dialog (GTK's, driven with xdotool: Return saves under the
// name and folder the app offers) as an HTML page with the review, then as a
// PDF printed by the web view's engine, then as Markdown with CriticMarkup.
// The files are checked on disk: the page is standalone and has no script,
// the PDF is a PDF with the text in it (pdftotext) and its fonts embedded
// and cut (pdffonts; under 150 KB a page), the CriticMarkup marks
// the proposals. Screenshots of the dialog and the notice in tests/e2e/artifacts/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { active, chooseExport as exportAs, click, fileDriver, idle, saveInDialog, shot, testHome, text, typeText, until, workspace } from "./support.mjs";

const { env: ENV } = testHome();
const { withApp } = fileDriver(ENV);
const painted = (b) => b.execute(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

test("Export… writes an HTML page, a PDF and CriticMarkup of the document as the writer has it", async () => {
  const ws = workspace();
  await withApp(ws, async (b) => {
    assert.equal(await active(b), "essay.md");
    const title = (await text(b)).split("\n")[0].replace(/^# /, "");
    // A sentence typed, not saved: the export has it; the file on disk does not.
    await click(b, ".cm-content");
    await b.keys(["Control", "End"]);
    await typeText(b, "\nUnsaved words travel too.\n");
    await until(async () => (await text(b)).includes("Unsaved words travel too."), "the typed sentence");
    await idle(b);
    const proposals = (await b.execute(() => window.__cowriting.review().proposals)).filter((p) => p.state === "pending");
    assert.ok(proposals.length > 0, "the sample has pending proposals");

    // HTML with the review.
    await exportAs(b, "html", true);
    await painted(b);
    await shot(b, "export-dialog");
    await click(b, ".export-ok");
    await saveInDialog("Export essay.md as HTML page");
    const html = join(ws, "essay.html");
    await until(() => existsSync(html) && statSync(html).size > 0, "essay.html");
    await until(async () => (await b.$(".toast")).isDisplayed(), "the notice");
    const notice = await (await b.$(".toast")).getText();
    assert.match(notice, new RegExp(`^Exported essay\\.md as HTML page, with ${proposals.length} proposals? and \\d+ threads?: .*essay\\.html$`));
    await painted(b);
    await shot(b, "export-notice");
    const page = readFileSync(html, "utf8");
    assert.ok(page.startsWith("<!DOCTYPE html>"), page.slice(0, 200));
    assert.ok(page.includes(`<title>${title}</title>`), "titled by the first heading");
    assert.ok(page.includes("Unsaved words travel too."), "the unsaved sentence is in the export");
    assert.ok(page.includes('<del class="cw-del"') && page.includes('<ins class="cw-ins"'), "the proposals in place");
    assert.ok(page.includes('<section class="cw-review">'), "the notes after the text");
    assert.ok(!/<script|javascript:|\son\w+=/i.test(page), "no script anywhere");
    assert.ok(!readFileSync(join(ws, "essay.md"), "utf8").includes("Unsaved words"), "the document itself is not saved by an export");

    // PDF, a clean copy: printed by the web view's engine.
    await exportAs(b, "pdf", false);
    await click(b, ".export-ok");
    await saveInDialog("Export essay.md as PDF");
    const pdf = join(ws, "essay.pdf");
    await until(() => existsSync(pdf) && statSync(pdf).size > 1000, "essay.pdf", 120_000);
    await until(async () => /^Exported essay\.md as PDF: .*essay\.pdf$/.test(await (await b.$(".toast")).getText()), "the PDF notice", 60_000);
    const bytes = readFileSync(pdf);
    // Its fonts are cut to the glyphs it shows (Skia embeds them whole here:
    // this page was 570 KB, 35 KB cut); each is still embedded.
    assert.ok(bytes.length < 150_000, `a one-page PDF of ${bytes.length} bytes`);
    const fonts = execFileSync("pdffonts", [pdf], { encoding: "utf8" }).split("\n").slice(2).filter(Boolean);
    assert.ok(fonts.length > 0 && fonts.every((f) => /\byes\s+yes\s+yes\b/.test(f)), `fonts embedded, subset, with Unicode: ${fonts.join(" | ")}`);
    assert.equal(bytes.subarray(0, 5).toString("latin1"), "%PDF-");
    const words = execFileSync("pdftotext", ["-layout", pdf, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    assert.ok(words.includes(title), `the title in the PDF: ${words.slice(0, 300)}`);
    assert.ok(words.includes("Unsaved words travel too."), `the unsaved sentence in the PDF: ${words.slice(-300)}`);

    // Markdown with CriticMarkup.
    await exportAs(b, "critic", true);
    await click(b, ".export-ok");
    await saveInDialog("Export essay.md as Markdown with CriticMarkup");
    const critic = join(ws, "essay.critic.md");
    await until(() => existsSync(critic) && statSync(critic).size > 0, "essay.critic.md");
    const marked = readFileSync(critic, "utf8");
    assert.ok(/\{~~[^]*?~>[^]*?~~\}|\{\+\+[^]*?\+\+\}|\{--[^]*?--\}/.test(marked), "a proposal marked");
    assert.ok(marked.includes("Unsaved words travel too."));
  });
});
