// A Backend test double with inert answers for every call, for the App tests:
// each test overrides the calls it is about (`fakeBackend({ accept: … })`).
// Import it inside a `vi.mock` factory with `await import("./fake-backend")`.
import type { Backend } from "../src/backend";
import type { ReviewDto } from "../src/bindings/ReviewDto";
import type { ProposalDto } from "../src/bindings/ProposalDto";

/** A new review revision per answer, as the core gives one per change (`ReviewDto.revision`). */
let revisions = 0;
export const nextRevision = () => ++revisions;

export const emptyReview = (): ReviewDto => ({ revision: nextRevision(), proposals: [], threads: [], spans: [], sidecarError: null, canUndo: false, canRedo: false, entry: { path: "", proposals: 0, openThreads: 0, sidecarError: false } });

export function fakeBackend(overrides: Partial<Backend>, review: () => ReviewDto = emptyReview): Backend {
  const no = async () => {
    throw new Error("no");
  };
  const applied = async () => ({ changes: [], version: 1, dirty: false, review: review() });
  const defaults: Backend = {
    workspace: async () => ({ root: "/ws", name: "ws", branch: null, documents: [], emptyFolders: [] }),
    openDocument: async (path) => ({ path, text: "", version: 1, dirty: false, review: review() }),
    closeDocument: async () => undefined,
    newDocument: no,
    renameDocument: no,
    trashDocument: no,
    newFolder: no,
    exportDocument: async () => null,
    edit: async (_p, version) => ({ version: version + 1, dirty: true }),
    review: async () => review(),
    authorship: no,
    accept: applied,
    confirmHidden: async () => undefined,
    confirmPlace: async () => undefined,
    reject: applied,
    acceptTurn: applied,
    rejectTurn: applied,
    acceptAll: applied,
    rejectAll: applied,
    runProducer: no,
    cancelJob: async () => undefined,
    checkDocument: async () => [],
    reviewDocument: no,
    askClaude: no,
    settings: no,
    saveSettings: no,
    lint: async (texts) => ({ unit: "utf16", lints: texts.map(() => []) }),
    search: async (query) => ({ query, unit: "utf16", hits: [], threads: [], truncated: false, errors: [] }),
    inbox: async () => ({ unit: "utf16", groups: [], documents: [], errors: [] }),
    addWord: async (word) => ({ file: ".cowriting/dictionary.txt", words: [word] }),
    dictionary: async () => ({ file: ".cowriting/dictionary.txt", words: [] }),
    removeWord: async () => ({ file: ".cowriting/dictionary.txt", words: [] }),
    identity: async () => ({ name: null, email: null, gitName: "Writer", gitEmail: "writer@example.com", id: "writer@example.com", display: "Writer", source: "git", ask: false }),
    saveIdentity: no,
    undo: applied,
    redo: applied,
    sealUndoGroup: async () => undefined,
    save: async () => ({ dirty: false, conflict: false, sidecarSkipped: null, review: review() }),
    autosave: async () => ({ dirty: false, conflict: false, sidecarSkipped: null, review: review() }),
    newThread: async () => review(),
    reply: async () => review(),
    setThreadResolved: async () => review(),
    keepThreadHere: async () => review(),
    detachThread: async () => review(),
    reloadDocument: applied,
    keepMine: async () => undefined,
    mergeView: async (path) => ({ path, token: "t", baseKnown: true, parts: [] }),
    applyMerge: no,
    dirtyDocuments: async () => [],
    restoredBackups: async () => ({ restored: [], unrestored: [] }),
    initialDocument: async () => null,
    openFolder: no,
    pickFolder: async () => null,
    recentFolders: async () => [],
    openSample: no,
    quit: async () => undefined,
    uiReady: async () => undefined,
    openLink: async () => undefined,
    setTitle: async () => undefined,
    onNotice: async () => () => undefined,
    onJobProgress: async () => () => undefined,
    onReviewProgress: async () => () => undefined,
    onSearchProgress: async () => () => undefined,
    onWorkspaceOpened: async () => () => undefined,
    onCloseRequested: async () => () => undefined,
  };
  return { ...defaults, ...overrides };
}

/** The spelling, grammar and git part of a `SettingsDto`, as the core gives it on a machine with en_US and en_GB. */
export const settingsOfChecks = () => ({
  spellingLanguage: "en_US",
  spellingLanguages: ["en_GB", "en_US"],
  workspaceSpellingLanguage: null,
  workspaceWarnings: [],
  harperRules: [
    { name: "SpellCheck", description: "Looks and provides corrections for misspelled words.", curated: true },
    { name: "UseTitleCase", description: "Prompts you to use title case in relevant headings.", curated: true },
  ],
  harperChoices: {} as Record<string, boolean>,
  harperQuiet: ["UseTitleCase"],
  trailer: "assisted-by" as const,
});

/** A pending proposal replacing the first `target` in `text` by `replacement`, by Claude in turn t1 (`extra` overrides). */
export function proposalIn(text: string, id: string, target: string, replacement: string, extra: Partial<ProposalDto> = {}): ProposalDto {
  const from = text.indexOf(target);
  return {
    id,
    state: "pending",
    from,
    to: from + target.length,
    line: 1,
    target,
    replacement,
    current: null,
    reason: null,
    diff: [
      { tag: "delete", text: target },
      { tag: "insert", text: replacement },
    ],
    author: { kind: "agent", id: "claude", model: "m", label: "claude (m)", sdk: null, sessionId: null },
    turnId: "t1",
    instruction: "tighten",
    createdAt: new Date().toISOString(),
    contract: null,
    hidden: [], likelyPlace: false,
    ...extra,
  };
}

/** The review of `path` holding `proposals`, nothing else. */
export const reviewWith = (path: string, proposals: ProposalDto[]): ReviewDto => ({
  ...emptyReview(),
  proposals,
  entry: { path, proposals: proposals.length, openThreads: 0, sidecarError: false },
});
