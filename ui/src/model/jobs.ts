// Pure parts of producer runs (Ask Claude…, Check document) and the settings
// dialog: job ids, elapsed time, the messages shown when a run ends. Unit-tested
// in test/jobs.test.ts. Everything here returns plain text: producer names,
// reasons and messages are untrusted and go into the DOM as textContent.
import type { CheckOutcome } from "../bindings/CheckOutcome";
import type { ErrorInfo } from "../bindings/ErrorInfo";
import type { FilingDto } from "../bindings/FilingDto";

/** A filing without its review (what the test hook and the messages need). */
export type FilingSummary = Omit<FilingDto, "review">;

export function filingSummary(f: FilingDto): FilingSummary {
  return {
    producer: f.producer,
    turnId: f.turnId,
    filed: f.filed,
    skipped: [...f.skipped],
    migrated: f.migrated,
    warnings: [...f.warnings],
  };
}

/** How one producer of a run ended. */
export type Outcome =
  | { producer: string; filing: FilingSummary }
  | { producer: string; error: ErrorInfo }
  | { producer: string; notRun: true };

/** How the core said one producer of a Check document ended, as the UI keeps it. */
export function fromCheck(o: CheckOutcome<FilingDto>): Outcome {
  if ("filing" in o) return { producer: o.producer, filing: filingSummary(o.filing) };
  if ("error" in o) return { producer: o.producer, error: o.error };
  return { producer: o.producer, notRun: true };
}

let counter = 0;

/** A job id no other job of this window has (the core keys cancellation by it). */
export function newJobId(prefix: string, now: number = Date.now()): string {
  counter += 1;
  const rand = Math.floor(Math.random() * 0x100000000).toString(36);
  return `${prefix}-${now.toString(36)}-${counter}-${rand}`;
}

/** "0 s", "12 s", "1 min 05 s", "1 h 02 min". */
export function elapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ${String(s % 60).padStart(2, "0")} s`;
  return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, "0")} min`;
}

/** The start of `text` on one line, at most `max` characters (an ellipsis when cut). */
export function snippet(text: string, max = 80): string {
  const line = text.replace(/\s+/g, " ").trim();
  const chars = Array.from(line); // never split a surrogate pair
  return chars.length > max ? chars.slice(0, max - 1).join("").trimEnd() + "…" : line;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A producer error's message without the "producer: " the core puts in front. */
export function stripProducer(message: string, producer: string): string {
  const prefix = `${producer}: `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

/** What an Ask Claude… run filed, in a sentence. */
export function askResult(f: FilingSummary): string {
  let out: string;
  if (f.filed > 0) {
    out = `Claude proposed ${plural(f.filed, "edit")}`;
    if (f.migrated > 0) out += ` (${f.migrated} moved with your edits)`;
    if (f.skipped.length) out += `; not filed: ${f.skipped.join("; ")}`;
  } else {
    out = f.skipped.length ? `Claude had no changes: ${f.skipped.join("; ")}` : "Claude had no changes";
  }
  if (f.warnings.length) out += ` — warning: ${f.warnings.join("; ")}`;
  return out;
}

/** An error of a run, for the writer ("Ask Claude needs an instruction", "… was cancelled"). */
export function errorText(e: ErrorInfo, producer: string): string {
  const m = stripProducer(e.message, producer).trim();
  return m ? m.charAt(0).toUpperCase() + m.slice(1) : `${producer} failed (${e.code})`;
}

/** One producer's part of the Check document summary. */
export function checkLine(o: Outcome): string {
  const p = o.producer;
  if ("notRun" in o) return `${p}: not run`;
  if ("error" in o) {
    const m = stripProducer(o.error.message, p);
    switch (o.error.code) {
      case "cancelled":
        return `${p}: cancelled`;
      case "timed_out":
        return `${p}: timed out (${m})`;
      case "not_installed":
        return `${p}: not installed`;
    }
    return `${p}: failed (${m})`;
  }
  const f = o.filing;
  let out = f.filed > 0 ? `${p}: ${plural(f.filed, "suggestion")}` : `${p}: no suggestions`;
  if (f.skipped.length) out += ` (${f.skipped.length} not filed)`;
  if (f.warnings.length) out += ` (warning: ${f.warnings.join("; ")})`;
  return out;
}

/** "harper: 3 suggestions, vale: not installed (…)". */
export function checkSummary(outcomes: Outcome[]): string {
  return outcomes.length ? outcomes.map(checkLine).join(", ") : "No producers are enabled";
}

/**
 * The producers to enable after the settings dialog: those still checked in
 * their previous order (it is the order Check document runs them in), then the
 * newly checked ones in the order offered.
 */
export function nextEnabled(previous: string[], offered: string[], checked: ReadonlySet<string>): string[] {
  const out = previous.filter((p, i) => checked.has(p) && previous.indexOf(p) === i);
  for (const p of offered) if (checked.has(p) && !out.includes(p)) out.push(p);
  return out;
}

/** The timeout field's value as whole seconds, or null when it is not a positive whole number. */
export function parseTimeout(value: string): number | null {
  const v = value.trim();
  if (!/^\d+$/.test(v)) return null;
  const n = Number(v);
  return n > 0 && n <= 0xffffffff ? n : null;
}
