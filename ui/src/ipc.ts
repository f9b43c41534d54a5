// The UI's client of Tauri's IPC: the same request Tauri's `invoke` makes (a
// POST to its `ipc:` scheme with the invoke key, answered with the command's
// JSON or raw bytes), made from the page's own code.
//
// Why not Tauri's `invoke`: its client is injected into the page as a WebKit
// user script, and every call it makes left memory in the web process that
// was never given back (16,000 calls: 54 -> 91-98 MiB). The same requests, to
// the same scheme, sent by code the page loaded itself stay flat (this client:
// 54 -> 59 MiB); and typing, one call a key, left a third less (16.5 -> 11.5
// MiB per 2,000 keys, a letter and Backspace on a saved text). Measured with tests/e2e/perf-ipc.mjs, in
// docs/performance.md ("What each call from the page left", "What each key
// left"). The key comes from Tauri's own client once (`ipc_key`): only a page
// that can already call can ask for it (Tauri gives the same key to custom
// IPC clients, `AppHandle::invoke_key`).
//
// Anything this client cannot send goes through Tauri's `invoke` instead: a
// call whose arguments JSON would not carry as Tauri's client does (bytes, a
// Map, an object that serializes itself for IPC; no command of the table takes
// one today), and, once a request fails (the scheme refused, a fetch that
// throws), that call and every later one.

/** Whether Tauri's client would send `value` otherwise than plain JSON does. */
const notPlainJson = (value: unknown) =>
  value instanceof Map ||
  value instanceof ArrayBuffer ||
  ArrayBuffer.isView(value) ||
  (typeof value === "object" && value !== null && "__TAURI_TO_IPC_KEY__" in value);

/** `args` as JSON, or null where plain JSON would not send them as Tauri's client does. */
function plainJson(args: Record<string, unknown>): string | null {
  let plain = true;
  const body = JSON.stringify(args, (_key, value: unknown) => {
    if (notPlainJson(value)) plain = false;
    return value;
  });
  return plain ? body : null;
}

/** Tauri's `invoke`: a command by name with its arguments. */
export type Invoke = <T>(command: string, args?: Record<string, unknown>) => Promise<T>;

/**
 * A client that sends each command to `url(command)` with `key`, and through
 * `fallback` once a request cannot be made. An answer Tauri marks as an error
 * rejects with its body (the command's `{code, message}`).
 */
export function ipcClient(key: string, url: (command: string) => string, fallback: Invoke, send: typeof fetch = fetch): Invoke {
  let broken = false;
  return async <T>(command: string, args: Record<string, unknown> = {}): Promise<T> => {
    const body = broken ? null : plainJson(args);
    if (body === null) return fallback<T>(command, args);
    let response: Response;
    try {
      response = await send(url(command), {
        method: "POST",
        body,
        // Tauri reads the callback ids only to answer through postMessage; the
        // answer here is the response itself.
        headers: { "Content-Type": "application/json", "Tauri-Callback": "0", "Tauri-Error": "1", "Tauri-Invoke-Key": key },
      });
    } catch {
      broken = true;
      return fallback<T>(command, args);
    }
    const type = (response.headers.get("content-type") ?? "").split(",")[0];
    const answer =
      type === "application/json" ? await response.json() : type === "text/plain" ? await response.text() : await response.arrayBuffer();
    if (response.headers.get("Tauri-Response") !== "ok") throw answer;
    return answer as T;
  };
}
