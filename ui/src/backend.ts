// The one typed interface the UI has to the core. Every command of the app's
// table (src-tauri/src/commands.rs) appears here with the types generated from
// Rust (src/bindings/, by ts-rs), called by the name and with the arguments the
// table gives it (src/bindings/commands.ts, generated from the table: tsc
// refuses a name or an argument it does not have); errors arrive as
// `{code, message}`.
import type { Applied } from "./bindings/Applied";
import type { CheckOutcome } from "./bindings/CheckOutcome";
import type { Choice } from "./bindings/Choice";
import type { DictionaryOut } from "./bindings/DictionaryOut";
import type { DocEntry } from "./bindings/DocEntry";
import type { DocView } from "./bindings/DocView";
import type { EditAck } from "./bindings/EditAck";
import type { ErrorInfo } from "./bindings/ErrorInfo";
import type { ExportFormat } from "./bindings/ExportFormat";
import type { ExportOut } from "./bindings/ExportOut";
import type { FilingDto } from "./bindings/FilingDto";
import type { IdentityDto } from "./bindings/IdentityDto";
import type { InboxOut } from "./bindings/InboxOut";
import type { JobProgress } from "./bindings/JobProgress";
import type { LintsOut } from "./bindings/LintsOut";
import type { MergeOutcome } from "./bindings/MergeOutcome";
import type { MergeView } from "./bindings/MergeView";
import type { Notice } from "./bindings/Notice";
import type { RestoreReport } from "./bindings/RestoreReport";
import type { ReviewOut } from "./bindings/ReviewOut";
import type { ReviewProgress } from "./bindings/ReviewProgress";
import type { ReviewDto } from "./bindings/ReviewDto";
import type { SaveResult } from "./bindings/SaveResult";
import type { SearchOut } from "./bindings/SearchOut";
import type { SearchProgress } from "./bindings/SearchProgress";
import type { SettingsDto } from "./bindings/SettingsDto";
import type { TextChange } from "./bindings/TextChange";
import type { Utf16Offset } from "./bindings/Utf16Offset";
import type { WorkspaceInfo } from "./bindings/WorkspaceInfo";
import type { AuthorshipOut } from "./bindings/AuthorshipOut";
import type { Commands, RawCommands } from "./bindings/commands";
import { Text } from "@codemirror/state";
import { ipcClient, type Invoke } from "./ipc";

/**
 * An open document: the core's view of it (`open_document`) with its text.
 * From the app the text is CodeMirror's `Text`, made straight from the raw
 * bytes `document_text` answers ({@link textOfBytes}); a test's backend may give a string.
 */
export interface OpenedDoc extends DocView {
  text: Text | string;
}

export interface Backend {
  workspace(): Promise<WorkspaceInfo>;
  openDocument(path: string): Promise<OpenedDoc>;
  closeDocument(path: string): Promise<void>;
  /** A new, empty document (`.md` added when the name has no document ending), opened in the core. */
  newDocument(name: string): Promise<OpenedDoc>;
  /** Rename or move a document with its review data; an open one keeps its buffer and undo. Answers its entry under the new name (the tree moves one row). */
  renameDocument(from: string, to: string): Promise<DocEntry>;
  /** Move a document and its review data to the system trash; an open one is closed in the core. */
  trashDocument(path: string): Promise<void>;
  /** A new folder; answers its path. */
  newFolder(name: string): Promise<string>;
  /**
   * Export… an open document as the writer has it: the native Save dialog
   * (it asks before replacing a file), then the file written (a PDF printed by
   * the web view's engine). Null when the writer cancelled the dialog.
   */
  /** `remoteImages`: load the images a document names on other servers (else each is its alt text, nothing fetched). */
  exportDocument(path: string, format: ExportFormat, withReview: boolean, remoteImages: boolean): Promise<ExportOut | null>;
  edit(path: string, version: number, changes: TextChange[], typing: boolean): Promise<EditAck>;
  review(path: string): Promise<ReviewDto>;
  /** Who wrote how much of an open document (its buffer). */
  authorship(path: string): Promise<AuthorshipOut>;
  accept(path: string, id: string, withText: string | null): Promise<Applied>;
  /** The writer confirmed these proposals' hidden characters (`ProposalDto.hidden`): their accept may insert them. */
  confirmHidden(path: string, ids: string[]): Promise<void>;
  /** The writer checked where these proposals were likely placed (`ProposalDto.likelyPlace`): their accept applies them there. */
  confirmPlace(path: string, ids: string[]): Promise<void>;
  reject(path: string, id: string): Promise<Applied>;
  acceptTurn(path: string, turn: string): Promise<Applied>;
  rejectTurn(path: string, turn: string): Promise<Applied>;
  acceptAll(path: string, ids: string[]): Promise<Applied>;
  rejectAll(path: string, ids: string[]): Promise<Applied>;
  /**
   * Run a producer ("claude", "harper", "vale", …) on an open document and file
   * what it finds. `from`/`to`: the selection in UTF-16 units (Claude needs one
   * and an instruction), or null for the whole document. `job`: a unique id
   * chosen by the UI, for `cancelJob`.
   */
  runProducer(
    path: string,
    producer: string,
    from: Utf16Offset | null,
    to: Utf16Offset | null,
    instruction: string | null,
    job: string,
  ): Promise<FilingDto>;
  /** Ask a running job to stop (it then fails with code `cancelled`); unknown ids are ignored. */
  cancelJob(job: string): Promise<void>;
  /**
   * Check document: every producer enabled in the settings, in turn, on an open
   * document; how each ended (none when nothing is enabled). `job` cancels the
   * whole check; `onJobProgress` names the producer running.
   */
  checkDocument(path: string, job: string): Promise<CheckOutcome<FilingDto>[]>;
  /**
   * Ask Claude to review an open document (the selection `from`..`to`, or all
   * of it when null), as `instruction` says: its comments become threads and
   * its edits pending proposals, filed one by one as they arrive
   * (`onReviewProgress`). `job` cancels it; what landed stays.
   */
  reviewDocument(path: string, from: Utf16Offset | null, to: Utf16Offset | null, instruction: string | null, job: string): Promise<ReviewOut>;
  /** Ask Claude in a thread: its reply (and edits of the thread's text), as `reviewDocument` files a review. */
  askClaude(path: string, thread: string, instruction: string | null, job: string): Promise<ReviewOut>;
  settings(): Promise<SettingsDto>;
  /** The spelling lints of each text (as the writer types: a Hunspell dictionary in the core), in UTF-16 units of each. */
  lint(texts: string[]): Promise<LintsOut>;
  /** Search every document (the open ones as the writer has them) and every thread. */
  /**
   * Search every document and thread; each document's finds come first as
   * `onSearchProgress` events under `job`, which `cancelJob` stops (a newer
   * search): its answer is then what was found so far.
   */
  search(query: string, caseSensitive: boolean, wholeWord: boolean, regex: boolean, job: string): Promise<SearchOut>;
  /**
   * The workspace's review: every document's proposals waiting for the writer
   * and open threads (the open documents as the writer has them), by turn and producer.
   */
  inbox(): Promise<InboxOut>;
  /** Add a word to the workspace's dictionary (words spelling accepts). */
  addWord(word: string): Promise<DictionaryOut>;
  /** The workspace's dictionary (Settings lists it). */
  dictionary(): Promise<DictionaryOut>;
  /** Take a word out of the workspace's dictionary. */
  removeWord(word: string): Promise<DictionaryOut>;
  saveSettings(settings: SettingsDto): Promise<SettingsDto>;
  /** Who the writer is: the author of their comments, typing and decisions. */
  identity(): Promise<IdentityDto>;
  /** The first run's question: a name and e-mail (null: skipped, git's are used); never asked again. */
  saveIdentity(name: string | null, email: string | null): Promise<IdentityDto>;
  undo(path: string): Promise<Applied>;
  redo(path: string): Promise<Applied>;
  sealUndoGroup(path: string): Promise<void>;
  save(path: string): Promise<SaveResult>;
  /** Save as `save` does, unless the file changed on disk: then nothing is written (`conflict`). */
  autosave(path: string): Promise<SaveResult>;
  newThread(path: string, from: Utf16Offset, to: Utf16Offset, body: string): Promise<ReviewDto>;
  reply(path: string, thread: string, body: string): Promise<ReviewDto>;
  setThreadResolved(path: string, thread: string, resolved: boolean): Promise<ReviewDto>;
  /** Keep a relocated thread (its words were re-wrapped) where it re-attached. */
  keepThreadHere(path: string, thread: string): Promise<ReviewDto>;
  /** Detach a thread from its text; it stays listed, orphaned. */
  detachThread(path: string, thread: string): Promise<ReviewDto>;
  reloadDocument(path: string): Promise<Applied>;
  keepMine(path: string): Promise<void>;
  /** Compare & merge: the writer's text and the file on disk, merged by sentence. */
  mergeView(path: string): Promise<MergeView>;
  /** Apply the writer's choice per change to the merge `token` names (shown anew when the texts changed since). */
  applyMerge(path: string, token: string, choices: (Choice | null)[]): Promise<MergeOutcome>;
  dirtyDocuments(): Promise<string[]>;
  /**
   * What opening the workspace restored from a crashed session's backups (hot
   * exit): those documents are open in the core, with their unsaved changes.
   * Answered once; empty afterwards.
   */
  restoredBackups(): Promise<RestoreReport>;
  /**
   * The document named on the command line (`cowriting-desktop essay.md`, as the
   * desktop entry passes a file), to show first. Answered once; null afterwards.
   */
  initialDocument(): Promise<string | null>;
  openFolder(path: string): Promise<WorkspaceInfo>;
  pickFolder(): Promise<WorkspaceInfo | null>;
  recentFolders(): Promise<string[]>;
  openSample(): Promise<WorkspaceInfo>;
  quit(): Promise<void>;
  uiReady(): Promise<void>;
  /** Open a link the writer clicked (http, https, mailto) in the system's browser or mail program, never in the app. */
  openLink(url: string): Promise<void>;
  /** The window's title bar (Tauri's window API; capabilities/default.json allows it). */
  setTitle(title: string): Promise<void>;
  onNotice(f: (n: Notice) => void): Promise<() => void>;
  /** A running Check document moved on to `producer`. */
  onJobProgress(f: (p: JobProgress) => void): Promise<() => void>;
  /** A running review pass (or thread question) started a part, or filed or skipped an item. */
  onReviewProgress(f: (p: ReviewProgress) => void): Promise<() => void>;
  /** A running search searched one more document: its finds, and how many documents so far. */
  onSearchProgress(f: (p: SearchProgress) => void): Promise<() => void>;
  onWorkspaceOpened(f: (w: WorkspaceInfo) => void): Promise<() => void>;
  onCloseRequested(f: (dirty: string[]) => void): Promise<() => void>;
}

/** Whether a thrown value is the core's `{code, message}` error. */
export function isErrorInfo(e: unknown): e is ErrorInfo {
  return typeof e === "object" && e !== null && "code" in e && "message" in e;
}

export function errorMessage(e: unknown): string {
  if (isErrorInfo(e)) return e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}

/** How `EditorState.create` splits a string into lines (CodeMirror's default line separator). */
const LINE_BREAK = /\r\n?|\n/;
/** Bytes decoded at a time: a block ends after a line feed (never inside a character or a CRLF). */
const BLOCK = 1 << 16;

/**
 * A document's text from its UTF-8 bytes (the app's `document_text`) as
 * CodeMirror's `Text`, the lines `EditorState.create` would make of the
 * string. Decoded a block of lines at a time, so no string of the whole text
 * is made beside the editor's lines (a 5 MB document was held three times:
 * the JSON answer, the string parsed out of it, the editor's). Anything but
 * bytes is refused: the text never comes as a JSON string.
 */
export function textOfBytes(bytes: unknown): Text {
  let all: Uint8Array;
  // By its tag, not `instanceof`: an ArrayBuffer of another realm is bytes too.
  if (Object.prototype.toString.call(bytes) === "[object ArrayBuffer]") all = new Uint8Array(bytes as ArrayBuffer);
  else if (ArrayBuffer.isView(bytes)) all = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  else throw new Error(`a document's text arrived as ${typeof bytes}, not as raw bytes`);
  // ignoreBOM: a U+FEFF that is in the text stays (the core keeps a file's BOM apart).
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const lines = [""];
  for (let at = 0; at < all.length; ) {
    let end = Math.min(at + BLOCK, all.length);
    if (end < all.length) {
      const lf = all.indexOf(0x0a, end - 1);
      end = lf < 0 ? all.length : lf + 1;
    }
    const parts = decoder.decode(all.subarray(at, end)).split(LINE_BREAK);
    lines[lines.length - 1] += parts[0];
    for (let i = 1; i < parts.length; i++) lines.push(parts[i]);
    at = end;
  }
  return Text.of(lines);
}

/** The real backend: Tauri's `invoke` and `listen` (and its window API for the title). */
export async function tauriBackend(): Promise<Backend> {
  const { invoke: tauriInvoke, convertFileSrc } = await import("@tauri-apps/api/core");
  const { listen } = await import("@tauri-apps/api/event");
  const on = async <T>(event: string, f: (p: T) => void) => listen<T>(event, (e) => f(e.payload));
  // Calls go through the page's own client of Tauri's IPC (ipc.ts) once its
  // key is had (asked through Tauri's `invoke`, the fallback), and through
  // Tauri's `invoke` where it cannot be (its mocked IPC in the unit tests).
  let invoke: Invoke = tauriInvoke;
  // A command of the app's table by its name, with exactly its arguments; one
  // that answers raw bytes (`RawCommands`) answers an ArrayBuffer.
  const call = <T, C extends keyof Commands>(
    command: C,
    ...args: Commands[C] extends Record<string, never> ? [] : [Commands[C]]
  ): Promise<C extends RawCommands ? ArrayBuffer : T> => invoke(command, args[0] as Record<string, unknown> | undefined);
  const key = (await call("ipc_key").catch(() => null)) as string | null;
  if (key !== null) invoke = ipcClient(key, (c) => convertFileSrc(c, "ipc"), tauriInvoke);
  // A document's view, then its text at that version; a reload from disk in
  // between makes the text's version newer (refused as out of step): asked again.
  const opened = async (first: DocView): Promise<OpenedDoc> => {
    for (let v = first, attempt = 0; ; attempt++) {
      try {
        return { ...v, text: textOfBytes(await call("document_text", { path: v.path, version: v.version })) };
      } catch (e) {
        if (attempt >= 2 || !isErrorInfo(e) || e.code !== "out_of_step") throw e;
      }
      v = await call<DocView, "open_document">("open_document", { path: v.path });
    }
  };
  return {
    workspace: () => call("workspace"),
    openDocument: async (path) => opened(await call("open_document", { path })),
    closeDocument: (path) => call("close_document", { path }),
    newDocument: async (name) => opened(await call("new_document", { name })),
    renameDocument: (from, to) => call("rename_document", { from, to }),
    trashDocument: (path) => call("trash_document", { path }),
    newFolder: (name) => call("new_folder", { name }),
    exportDocument: (path, format, withReview, remoteImages) => call("export_document", { path, format, withReview, remoteImages }),
    edit: (path, version, changes, typing) => call("edit", { path, version, changes, typing }),
    review: (path) => call("review", { path }),
    authorship: (path) => call("authorship", { path }),
    accept: (path, id, withText) => call("accept", { path, id, with: withText }),
    confirmHidden: (path, ids) => call("confirm_hidden", { path, ids }),
    confirmPlace: (path, ids) => call("confirm_place", { path, ids }),
    reject: (path, id) => call("reject", { path, id }),
    acceptTurn: (path, turn) => call("accept_turn", { path, turn }),
    rejectTurn: (path, turn) => call("reject_turn", { path, turn }),
    acceptAll: (path, ids) => call("accept_all", { path, ids }),
    rejectAll: (path, ids) => call("reject_all", { path, ids }),
    runProducer: (path, producer, from, to, instruction, job) =>
      call("run_producer", { path, producer, from, to, instruction, job }),
    cancelJob: (job) => call("cancel_job", { job }),
    checkDocument: (path, job) => call("check_document", { path, job }),
    reviewDocument: (path, from, to, instruction, job) => call("review_document", { path, from, to, instruction, job }),
    askClaude: (path, thread, instruction, job) => call("ask_claude", { path, thread, instruction, job }),
    settings: () => call("settings"),
    lint: (texts) => call("lint", { texts }),
    search: (query, caseSensitive, wholeWord, regex, job) => call("search", { query, caseSensitive, wholeWord, regex, job }),
    inbox: () => call("inbox"),
    addWord: (word) => call("add_word", { word }),
    dictionary: () => call("dictionary"),
    removeWord: (word) => call("remove_word", { word }),
    saveSettings: (settings) => call("save_settings", { settings }),
    identity: () => call("identity"),
    saveIdentity: (name, email) => call("save_identity", { name, email }),
    undo: (path) => call("undo", { path }),
    redo: (path) => call("redo", { path }),
    sealUndoGroup: (path) => call("seal_undo_group", { path }),
    save: (path) => call("save", { path }),
    autosave: (path) => call("autosave", { path }),
    newThread: (path, from, to, body) => call("new_thread", { path, from, to, body }),
    reply: (path, thread, body) => call("reply", { path, thread, body }),
    setThreadResolved: (path, thread, resolved) => call("set_thread_resolved", { path, thread, resolved }),
    keepThreadHere: (path, thread) => call("keep_thread_here", { path, thread }),
    detachThread: (path, thread) => call("detach_thread", { path, thread }),
    reloadDocument: (path) => call("reload_document", { path }),
    keepMine: (path) => call("keep_mine", { path }),
    mergeView: (path) => call("merge_view", { path }),
    applyMerge: (path, token, choices) => call("apply_merge", { path, token, choices }),
    dirtyDocuments: () => call("dirty_documents"),
    restoredBackups: () => call("restored_backups"),
    initialDocument: () => call("initial_document"),
    openFolder: (path) => call("open_folder", { path }),
    pickFolder: () => call("pick_folder"),
    recentFolders: () => call("recent_folders"),
    openSample: () => call("open_sample"),
    quit: () => call("quit"),
    uiReady: () => call("ui_ready"),
    openLink: (url) => call("open_link", { url }),
    setTitle: async (title) => {
      const { getCurrentWindow } = await import("@tauri-apps/api/window");
      await getCurrentWindow().setTitle(title);
    },
    onNotice: (f) => on("notice", f),
    onJobProgress: (f) => on("job-progress", f),
    onReviewProgress: (f) => on("review-progress", f),
    onSearchProgress: (f) => on("search-progress", f),
    onWorkspaceOpened: (f) => on("workspace-opened", f),
    onCloseRequested: (f) => on("close-requested", f),
  };
}
