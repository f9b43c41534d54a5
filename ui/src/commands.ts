// The app's commands: what the palette lists (with their keys), and the
// editor's key bindings, which run the same commands. The window-wide keys
// (Ctrl+S, Ctrl+Shift+P, Ctrl+Tab, Alt+F2, Esc…) are in views/layout.ts, the layout's (Ctrl+B,
// Ctrl+Alt+B, Ctrl+Alt+F, Ctrl+Alt+R, Ctrl+Alt+W, Ctrl+Shift+O) in views/panes.ts.
import { nextDiagnostic } from "@codemirror/lint";
import { openSearchPanel } from "@codemirror/search";
import type { KeyBinding } from "@codemirror/view";
import type { App } from "./main";
import type { ProposalDto } from "./bindings/ProposalDto";
import { askClaude } from "./dialogs/ask-claude";
import { reviewWithClaude } from "./dialogs/review-claude";
import { exportDocument } from "./dialogs/export";
import { openSettings } from "./dialogs/settings";
import { checkDocument } from "./producers";
import { toggleSpelling } from "./spelling";
import { deleteDocument, newDocument, newFolder, renameDocument } from "./views/doc-actions";
import { toast } from "./views/modal";
import { showPanel } from "./views/panel";
import { openHeadingPicker } from "./views/outline";
import { openPalette, openQuickOpen } from "./views/palette";
import { toggle, toggleFocus, toggleReadingWidth, toggleReflow } from "./views/panes";
import { gotoProposal, proposalAtCursor } from "./views/review-panel";
import { toggleTabFocus, toggleTint } from "./views/status";
import { openKeysHelp } from "./views/keys-help";
import { gotoInboxItem, openInbox } from "./views/inbox-panel";
import { openSearch } from "./views/search-panel";
import { newThread } from "./views/threads-panel";
import { openAuthorship } from "./dialogs/authorship";

/** A command of the palette. */
export interface Command {
  id: string;
  title: string;
  /** The keys shown beside it (the bindings themselves are in `editorKeys` and views/layout.ts). */
  keys: string;
  /** Other words the palette finds it by ("file" finds New document). */
  keywords?: string;
  run: () => void | Promise<void>;
}

/** Every command, in the palette's order. */
export function buildCommands(app: App): Command[] {
  const onProposal = (f: (p: ProposalDto) => unknown) => () => {
    const p = proposalAtCursor(app);
    if (p) void f(p);
    else toast("Put the cursor in a proposal first (Alt+] jumps to the next).");
  };
  return [
    { id: "save", title: "Save", keys: "Ctrl+S", run: () => void app.save() },
    { id: "undo", title: "Undo", keys: "Ctrl+Z", run: () => void app.undo() },
    { id: "redo", title: "Redo", keys: "Ctrl+Shift+Z", run: () => void app.redo() },
    { id: "next", title: "Next proposal", keys: "Alt+]", run: () => gotoProposal(app, 1) },
    { id: "prev", title: "Previous proposal", keys: "Alt+[", run: () => gotoProposal(app, -1) },
    { id: "accept", title: "Accept proposal", keys: "Alt+Enter", run: onProposal((p) => app.accept(p.id)) },
    { id: "reject", title: "Reject proposal", keys: "Alt+Backspace", run: onProposal((p) => app.reject(p.id)) },
    {
      id: "accept-turn",
      title: "Accept all proposals of this turn",
      keys: "Alt+Shift+Enter",
      run: onProposal((p) => (p.turnId ? app.acceptTurn(p.turnId) : app.accept(p.id))),
    },
    {
      id: "reject-turn",
      title: "Reject all proposals of this turn",
      keys: "Alt+Shift+Backspace",
      run: onProposal((p) => (p.turnId ? app.rejectTurn(p.turnId) : app.reject(p.id))),
    },
    {
      id: "accessible-view",
      title: "Read the proposal as words (accessible review view)",
      keys: "Alt+F2",
      keywords: "screen reader accessibility speak announce",
      run: () => app.showAccessibleView(),
    },
    { id: "comment", title: "Comment on selection", keys: "Ctrl+Alt+M", run: () => newThread(app) },
    { id: "ask", title: "Ask Claude…", keys: "Ctrl+K", run: () => askClaude(app) },
    {
      id: "review-claude",
      title: "Review with Claude… (the selection, or the whole document)",
      keys: "Ctrl+Alt+K",
      keywords: "editor feedback comments critique",
      run: () => reviewWithClaude(app),
    },
    { id: "check", title: "Check document", keys: "F7", run: () => void checkDocument(app) },
    { id: "spelling", title: "Toggle spelling as you type", keys: "", run: () => toggleSpelling(app) },
    { id: "next-lint", title: "Next spelling issue", keys: "F8", run: () => app.view && void nextDiagnostic(app.view) },
    {
      id: "cancel-tasks",
      title: "Cancel running Claude and checker runs",
      keys: "Esc",
      run: () => {
        const running = app.tasks.running();
        if (!running.length) toast("Nothing is running.");
        for (const t of running) app.tasks.cancel(t);
      },
    },
    { id: "settings", title: "Settings…", keys: "Ctrl+,", run: () => void openSettings(app) },
    { id: "find", title: "Find and replace", keys: "Ctrl+F", run: () => app.view && openSearchPanel(app.view) },
    { id: "search", title: "Search the workspace (all documents and threads)", keys: "Ctrl+Shift+F", run: () => openSearch(app) },
    { id: "inbox", title: "Inbox: review the whole workspace (every document's proposals and open threads)", keys: "Ctrl+Alt+I", keywords: "review all documents pending", run: () => openInbox(app) },
    { id: "inbox-next", title: "Next item in the Inbox (across documents)", keys: "F4", run: () => void gotoInboxItem(app, 1) },
    { id: "inbox-prev", title: "Previous item in the Inbox (across documents)", keys: "Shift+F4", run: () => void gotoInboxItem(app, -1) },
    { id: "save-all", title: "Save all", keys: "", keywords: "every document unsaved", run: () => void app.saveAll() },
    { id: "tint", title: "Toggle Claude tint", keys: "Ctrl+Shift+A", run: () => toggleTint() },
    { id: "authorship", title: "Who wrote this document (authorship report)…", keys: "", keywords: "authorship disclosure AI share statement", run: () => void openAuthorship(app) },
    { id: "heading", title: "Go to heading…", keys: "Ctrl+Shift+O", run: () => openHeadingPicker(app) },
    { id: "toggle-sidebar", title: "Show or hide the sidebar (documents, outline)", keys: "Ctrl+B", run: () => toggle("sidebar") },
    { id: "toggle-panel", title: "Show or hide the review panel", keys: "Ctrl+Alt+B", run: () => toggle("panel") },
    { id: "focus-mode", title: "Focus mode", keys: "Ctrl+Alt+F", run: () => toggleFocus(app) },
    { id: "reading-width", title: "Toggle reading width (70 characters, or the editor's width)", keys: "Ctrl+Alt+R", run: () => toggleReadingWidth() },
    { id: "reflow", title: "Toggle re-flow of hard-wrapped paragraphs (display only)", keys: "Ctrl+Alt+W", run: () => toggleReflow(app) },
    { id: "review", title: "Show review panel", keys: "", run: () => showPanel(app, "review") },
    { id: "threads", title: "Show threads panel", keys: "", run: () => showPanel(app, "threads") },
    { id: "new-document", title: "New document", keys: "Ctrl+N", keywords: "new file create", run: () => newDocument(app) },
    { id: "rename-document", title: "Rename document…", keys: "", keywords: "file move", run: () => renameDocument(app) },
    { id: "delete-document", title: "Delete document (to the trash)…", keys: "", keywords: "file remove trash", run: () => void deleteDocument(app) },
    {
      id: "export",
      title: "Export… (HTML, PDF, Markdown with CriticMarkup)",
      keys: "",
      keywords: "print pdf html criticmarkup save as share download",
      run: () => void exportDocument(app),
    },
    { id: "new-folder", title: "New folder…", keys: "", keywords: "directory create file", run: () => newFolder(app) },
    { id: "open", title: "Open folder…", keys: "Ctrl+O", run: () => void app.openFolderDialog() },
    { id: "sample", title: "Open the sample workspace", keys: "", run: () => void app.run(async () => app.setWorkspace(await app.backend.openSample())) },
    { id: "close", title: "Close document", keys: "Ctrl+W", run: () => app.active && void app.closeTab(app.active) },
    { id: "palette", title: "Command palette", keys: "Ctrl+Shift+P", run: () => openPalette(app) },
    { id: "quick-open", title: "Go to document…", keys: "Ctrl+P", keywords: "open file find quick name", run: () => openQuickOpen(app) },
    { id: "next-tab", title: "Next document tab", keys: "Ctrl+Tab", keywords: "switch ctrl+pagedown", run: () => app.cycleTab(1) },
    { id: "prev-tab", title: "Previous document tab", keys: "Ctrl+Shift+Tab", keywords: "switch ctrl+pageup", run: () => app.cycleTab(-1) },
    {
      id: "tab-focus",
      title: "Toggle Tab moves focus (Tab leaves the text instead of indenting)",
      keys: "Ctrl+M",
      keywords: "accessibility keyboard screen reader indent",
      run: () => toggleTabFocus(app),
    },
    { id: "keys", title: "Keyboard and screen reader help (every key)", keys: "Alt+F1", keywords: "accessibility shortcuts keys help", run: () => openKeysHelp(app.commands, app) },
    { id: "quit", title: "Quit", keys: "Ctrl+Q", run: () => void app.requestQuit() },
  ];
}

/** The editor's keys for the commands (run through `app.commands`). */
export function editorKeys(app: App): KeyBinding[] {
  const cmd = (id: string) => () => {
    void app.commands.find((c) => c.id === id)?.run();
    return true;
  };
  return [
    { key: "Mod-z", run: cmd("undo"), preventDefault: true },
    { key: "Mod-Shift-z", run: cmd("redo"), preventDefault: true },
    { key: "Mod-y", run: cmd("redo"), preventDefault: true },
    { key: "Alt-]", run: cmd("next") },
    { key: "Alt-[", run: cmd("prev") },
    { key: "Alt-Enter", run: cmd("accept") },
    { key: "Alt-Backspace", run: cmd("reject") },
    { key: "Alt-Shift-Enter", run: cmd("accept-turn") },
    { key: "Alt-Shift-Backspace", run: cmd("reject-turn") },
    { key: "Mod-Alt-m", run: cmd("comment") },
    { key: "Mod-Shift-a", run: cmd("tint") },
    { key: "Mod-w", run: cmd("close"), preventDefault: true },
    { key: "Ctrl-m", run: cmd("tab-focus"), preventDefault: true },
    { key: "Alt-F2", run: cmd("accessible-view"), preventDefault: true },
    { key: "Alt-F1", run: cmd("keys"), preventDefault: true },
  ];
}
