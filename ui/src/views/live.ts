// The live regions a screen reader listens to: `say` speaks a message once,
// politely (after what is being read) or assertively (errors, at once). Each
// message is a new line in its region, taken away after a while, so the same
// words said twice are heard twice and two quick messages are both heard. One
// message, one region: toasts speak through here (views/modal.ts), never as a
// live region of their own. The words are in announce.ts.
import { h } from "../dom";

/** The regions, in the layout (views/layout.ts); visually hidden. */
export const LIVE_REGIONS = `
<div class="live live-polite visually-hidden" role="status" aria-live="polite" aria-relevant="additions" aria-atomic="false"></div>
<div class="live live-assertive visually-hidden" role="alert" aria-live="assertive" aria-relevant="additions" aria-atomic="false"></div>`;

/** How long a message stays in its region (long enough to be read, short enough not to pile up). */
const KEEP_MS = 15_000;

/** Speak `message` once: `polite` waits for the reader to finish, `assertive` (errors) interrupts. */
export function say(message: string, politeness: "polite" | "assertive" = "polite") {
  const text = message.trim();
  if (!text) return;
  const region = document.querySelector(`.live-${politeness}`);
  if (!region) return;
  const line = h("p", { text });
  region.append(line);
  window.setTimeout(() => line.remove(), KEEP_MS);
}
