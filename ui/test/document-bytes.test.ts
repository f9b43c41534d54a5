// A document's text reaches the UI as raw bytes (`document_text`), never as a
// JSON string: the real backend (`tauriBackend`, over Tauri's mocked IPC)
// decodes them into CodeMirror's `Text`, lines as `EditorState.create` makes them
// of the string (across 64 KiB blocks, CRLF, lone CR, multi-byte characters);
// it asks for the document's view, then its bytes at that version, asks again
// when a reload came between, and refuses a JSON string.
import { afterEach, describe, expect, it } from "vitest";
import { EditorState } from "@codemirror/state";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { tauriBackend, textOfBytes } from "../src/backend";

const bytes = (s: string) => new TextEncoder().encode(s).buffer as ArrayBuffer;
const review = () => ({}) as never;

afterEach(() => clearMocks());

describe("textOfBytes", () => {
  it("makes the lines EditorState.create makes of the string, across blocks", () => {
    const samples = [
      "",
      "one line",
      "a\nb\r\nc\rd\n",
      "\r\n\r\n",
      "\uFEFFkept BOM, é, 😀, 中文\n",
      // Long enough for several 64 KiB blocks, CRLFs and multi-byte characters at every offset.
      Array.from({ length: 9000 }, (_, i) => `line ${i} ${"é😀x".repeat(i % 7)}${i % 3 ? "\r\n" : "\n"}`).join(""),
      "x".repeat(200_000) + "\n" + "y".repeat(70_000),
    ];
    for (const s of samples) {
      const text = textOfBytes(bytes(s));
      const want = EditorState.create({ doc: s }).doc;
      expect(text.lines).toBe(want.lines);
      expect(text.toString()).toBe(want.toString());
    }
  });

  it("takes a Uint8Array view, and refuses a string (the text as JSON) or bad UTF-8", () => {
    const view = new Uint8Array([0, 104, 105, 10, 33, 0]).subarray(1, 5);
    expect(textOfBytes(view).toString()).toBe("hi\n!");
    expect(() => textOfBytes("hi\n!")).toThrow(/not as raw bytes/);
    expect(() => textOfBytes(new Uint8Array([0xff, 0x0a]).buffer)).toThrow();
  });
});

describe("the app's backend", () => {
  it("opens a document: its view, then its text as bytes at that version", async () => {
    const calls: [string, unknown][] = [];
    mockIPC((cmd, args) => {
      calls.push([cmd, args]);
      if (cmd === "open_document") return { path: "d.md", version: 7, dirty: false, review: review() };
      if (cmd === "document_text") return bytes("Hello\r\nworld\n");
      throw new Error(cmd);
    });
    const backend = await tauriBackend();
    const v = await backend.openDocument("d.md");
    expect(calls).toEqual([
      ["ipc_key", {}], // asked once for the page's own client (src/ipc.ts); the mock answers none, so Tauri's invoke is used
      ["open_document", { path: "d.md" }],
      ["document_text", { path: "d.md", version: 7 }],
    ]);
    expect(typeof v.text).not.toBe("string");
    expect(v.text.toString()).toBe("Hello\nworld\n");
    expect(v.version).toBe(7);
  });

  it("asks again when the text moved on between the two answers (a reload from disk)", async () => {
    let version = 1;
    mockIPC((cmd, args) => {
      if (cmd === "open_document") return { path: "d.md", version, dirty: false, review: review() };
      if (cmd === "document_text") {
        const asked = (args as { version: number }).version;
        if (asked !== 2) {
          version = 2; // reloaded meanwhile
          throw { code: "out_of_step", message: "out of step" };
        }
        return bytes("reloaded");
      }
      throw new Error(cmd);
    });
    const v = await (await tauriBackend()).openDocument("d.md");
    expect([v.version, v.text.toString()]).toEqual([2, "reloaded"]);
  });

  it("fails when the text comes as a JSON string", async () => {
    mockIPC((cmd) => (cmd === "document_text" ? "Hello" : { path: "d.md", version: 1, dirty: false, review: review() }));
    await expect((await tauriBackend()).openDocument("d.md")).rejects.toThrow(/not as raw bytes/);
  });
});
