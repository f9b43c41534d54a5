// The page's own client of Tauri's IPC (src/ipc.ts): the request Tauri's
// server reads, answers and errors as `invoke` gives them, and Tauri's
// `invoke` once a request cannot be made.
import { describe, expect, it } from "vitest";
import { ipcClient, type Invoke } from "../src/ipc";

type Sent = { url: string; init: RequestInit };

/** A server answering each request with `answer`, and what was sent to it. */
function server(answer: (s: Sent) => Response) {
  const sent: Sent[] = [];
  const send = (async (url: string, init: RequestInit) => {
    const s = { url, init };
    sent.push(s);
    return answer(s);
  }) as unknown as typeof fetch;
  return { sent, send };
}

const json = (body: unknown, ok = true) =>
  new Response(JSON.stringify(body), { headers: { "content-type": "application/json", "Tauri-Response": ok ? "ok" : "error" } });

const noFallback: Invoke = async () => {
  throw new Error("the fallback was used");
};

describe("ipcClient", () => {
  it("posts the arguments as JSON with the invoke key to the command's URL, and answers the JSON", async () => {
    const s = server(() => json({ version: 3, dirty: true }));
    const call = ipcClient("the-key", (c) => `ipc://localhost/${c}`, noFallback, s.send);
    expect(await call("edit", { path: "a.md", version: 2 })).toEqual({ version: 3, dirty: true });
    expect(s.sent).toHaveLength(1);
    const [{ url, init }] = s.sent;
    expect(url).toBe("ipc://localhost/edit");
    expect(init.method).toBe("POST");
    expect(JSON.parse(String(init.body))).toEqual({ path: "a.md", version: 2 });
    const headers = new Headers(init.headers);
    expect(headers.get("Tauri-Invoke-Key")).toBe("the-key");
    expect(headers.get("Content-Type")).toBe("application/json");
    expect(headers.get("Tauri-Callback")).toMatch(/^\d+$/);
    expect(headers.get("Tauri-Error")).toMatch(/^\d+$/);
  });

  it("sends no arguments as an empty object", async () => {
    const s = server(() => json([]));
    await ipcClient("k", (c) => c, noFallback, s.send)("dirty_documents");
    expect(String(s.sent[0].init.body)).toBe("{}");
  });

  it("rejects with the command's {code, message} when Tauri marks the answer an error", async () => {
    const s = server(() => json({ code: "out_of_step", message: "the document changed" }, false));
    const call = ipcClient("k", (c) => c, noFallback, s.send);
    await expect(call("document_text", { path: "a.md", version: 1 })).rejects.toEqual({
      code: "out_of_step",
      message: "the document changed",
    });
  });

  it("answers raw bytes as an ArrayBuffer, and a refusal in plain text as its text", async () => {
    const bytes = new TextEncoder().encode("héllo");
    const raw = server(() => new Response(bytes, { headers: { "content-type": "application/octet-stream", "Tauri-Response": "ok" } }));
    const answer = await ipcClient("k", (c) => c, noFallback, raw.send)<ArrayBuffer>("document_text");
    expect(answer).toBeInstanceOf(ArrayBuffer);
    expect(new TextDecoder().decode(answer)).toBe("héllo");
    const refused = server(() => new Response("missing Tauri-Invoke-Key header", { status: 500, headers: { "content-type": "text/plain" } }));
    await expect(ipcClient("k", (c) => c, noFallback, refused.send)("edit")).rejects.toBe("missing Tauri-Invoke-Key header");
  });

  it("goes through Tauri's invoke once a request cannot be made, for that call and every later one", async () => {
    let tries = 0;
    const send = (async () => {
      tries++;
      throw new TypeError("Load failed");
    }) as unknown as typeof fetch;
    const through: string[] = [];
    const fallback: Invoke = async <T>(command: string, args?: Record<string, unknown>) => {
      through.push(`${command} ${JSON.stringify(args)}`);
      return "from invoke" as T;
    };
    const call = ipcClient("k", (c) => c, fallback, send);
    expect(await call("review", { path: "a.md" })).toBe("from invoke");
    expect(await call("save", { path: "a.md" })).toBe("from invoke");
    expect(tries).toBe(1);
    expect(through).toEqual(['review {"path":"a.md"}', 'save {"path":"a.md"}']);
  });

  it("sends through Tauri's invoke a call whose arguments plain JSON would not carry as Tauri does, and only that call", async () => {
    const s = server(() => json("from the scheme"));
    const through: string[] = [];
    const fallback: Invoke = async <T>(command: string) => {
      through.push(command);
      return "from invoke" as T;
    };
    const call = ipcClient("k", (c) => c, fallback, s.send);
    expect(await call("bytes", { data: new Uint8Array([1, 2]) })).toBe("from invoke");
    expect(await call("buffer", { data: new ArrayBuffer(2) })).toBe("from invoke");
    expect(await call("map", { nested: { m: new Map([["a", 1]]) } })).toBe("from invoke");
    expect(await call("own", { x: { __TAURI_TO_IPC_KEY__: () => 1 } })).toBe("from invoke");
    expect(await call("plain", { path: "a.md", list: [1, "two", null], at: { line: 3 } })).toBe("from the scheme");
    expect(through).toEqual(["bytes", "buffer", "map", "own"]);
    expect(s.sent.map((x) => x.url)).toEqual(["plain"]);
  });
});
