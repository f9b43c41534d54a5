// Autosave as VS Code's files.autoSave: off, after the writer pauses for a
// number of seconds, or when the editor loses the focus (another tab, another
// window, a dialog). When to save is decided here (unit-tested with fake timers
// in test/autosave.test.ts); what to save — every open document with unsaved
// changes, through the same core save as Ctrl+S, never over a change on disk —
// is the App's (main.ts, `autosaveDirty`).
import type { AutoSave } from "./bindings/AutoSave";

export class AutoSaver {
  private mode: AutoSave = "off";
  private delayMs = 2000;
  private timer: number | undefined;
  /** The save running now, if any: a second one waits for it. */
  private running: Promise<void> | null = null;
  /** Asked for while a save ran: one more save once it ends. */
  private again = false;

  constructor(
    /** Save what is unsaved; resolves when done (a failure is the callee's to show). */
    private readonly save: () => Promise<void>,
  ) {}

  /** The writer's settings: the mode and, for "after_delay", the pause in seconds. */
  configure(mode: AutoSave, delaySecs: number) {
    this.mode = mode;
    this.delayMs = Math.max(1, delaySecs) * 1000;
    if (mode !== "after_delay") this.cancel();
  }

  get current(): AutoSave {
    return this.mode;
  }

  /** Something became unsaved (typing, a decision): "after_delay" saves once the writer pauses. */
  changed() {
    if (this.mode !== "after_delay") return;
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => {
      this.timer = undefined;
      void this.now();
    }, this.delayMs);
  }

  /** The editor lost the focus (another tab, the window, a dialog): "on_focus_change" saves now. */
  focusChanged() {
    if (this.mode === "on_focus_change") void this.now();
  }

  /** Whether a pause is being waited out. */
  get pending(): boolean {
    return this.timer !== undefined;
  }

  cancel() {
    window.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Save now, or right after the save running now (never two at once). */
  async now(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.save().catch(() => undefined);
        } while (this.again && this.mode !== "off");
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }
}

/** The delay field's value as whole seconds from 1 to 3600, or null. */
export function parseDelay(value: string): number | null {
  const v = value.trim();
  if (!/^\d+$/.test(v)) return null;
  const n = Number(v);
  return n >= 1 && n <= 3600 ? n : null;
}
