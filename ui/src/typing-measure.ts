// Timing keystrokes for `make perf` (tests/e2e/perf.mjs): the app's test hook
// and bare CodeMirror (ui/perf) measure alike. `key()` types one character and
// resolves when it has been answered (the app: by the core; bare CodeMirror: at
// once); a key's time runs to the first animation frame after that, the frame
// that paints it.

/** The next animation frame: what was dispatched before it is painted in that frame. */
export const nextFrame = () => new Promise<number>((r) => requestAnimationFrame(r));

/** Type `n` keys one after the other; each: from the keystroke to its frame, in ms. */
export async function typeInTurn(n: number, key: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await key();
    await nextFrame();
    times.push(performance.now() - t0);
  }
  return times;
}

/**
 * Type `n` keys at a writer's pace, one every `every` ms by the clock (a key
 * does not wait for the last one's answer); each: from the moment it was due to
 * its frame, in ms. A backlog shows as growing times.
 */
export function typeAtPace(n: number, every: number, key: () => Promise<unknown>): Promise<number[]> {
  return new Promise((resolve) => {
    const times: number[] = new Array(n).fill(NaN);
    let done = 0;
    const start = performance.now() + every;
    const press = (i: number) => {
      const due = start + i * every;
      void key()
        .then(nextFrame)
        .then(() => {
          times[i] = performance.now() - due;
          if (++done === n) resolve(times);
        });
      if (i + 1 < n) window.setTimeout(() => press(i + 1), Math.max(0, start + (i + 1) * every - performance.now()));
    };
    window.setTimeout(() => press(0), every);
  });
}
