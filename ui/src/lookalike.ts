// Letters of other scripts that pass for Latin ones where they stand: a Cyrillic
// "а" in "pаypal.md", a Greek "Ο" in "ΟK". The core's rule
// (`cowriting_core::lookalike`) on the same table (lookalike-chars.json); the
// cases of ui/test/lookalike-cases.json are checked against both. A look-alike is
// flagged when its word also holds a Latin letter, or when its word is made of
// look-alikes only in a text with Latin letters and no other letter of its
// script — so Greek, Cyrillic and Armenian prose is never flagged.
import table from "./lookalike-chars.json";

const BY_CP = new Map(table.map((r) => [r.cp, r]));
const ANY = new RegExp(`[${table.map((r) => `\\u{${r.cp.toString(16)}}`).join("")}]`, "u");
const WORD = /[\p{Alphabetic}\p{N}]/u;
const ALPHA = /\p{Alphabetic}/u;
const LATIN = /[A-Za-z]/;

/** 0 Greek, 1 Cyrillic, 2 Armenian (by block); -1 for the rest. */
function script(n: number): number {
  if ((n >= 0x370 && n <= 0x3ff) || (n >= 0x1f00 && n <= 0x1fff)) return 0;
  if ((n >= 0x400 && n <= 0x52f) || (n >= 0x1c80 && n <= 0x1c8f) || (n >= 0x2de0 && n <= 0x2dff) || (n >= 0xa640 && n <= 0xa69f)) return 1;
  if ((n >= 0x530 && n <= 0x58f) || (n >= 0xfb13 && n <= 0xfb17)) return 2;
  return -1;
}

/** The Latin letter `ch` passes for and its name, or null. */
export function lookalike(ch: string): { like: string; name: string } | null {
  return BY_CP.get(ch.codePointAt(0) ?? -1) ?? null;
}

/** The UTF-16 indices of the flagged look-alikes in `text`, in order. */
export function flaggedLookalikes(text: string): number[] {
  if (!ANY.test(text)) return [];
  const chars: [number, string][] = [];
  for (let i = 0; i < text.length; ) {
    const ch = String.fromCodePoint(text.codePointAt(i) ?? 0);
    chars.push([i, ch]);
    i += ch.length;
  }
  const latinText = LATIN.test(text);
  const native = [false, false, false];
  for (const [, ch] of chars) {
    if (ALPHA.test(ch) && !lookalike(ch)) {
      const s = script(ch.codePointAt(0) ?? 0);
      if (s >= 0) native[s] = true;
    }
  }
  const out: number[] = [];
  let word: [number, string][] = [];
  const close = () => {
    const looks = word.filter(([, c]) => lookalike(c)).map(([i]) => i);
    if (looks.length) {
      const mixed = word.some(([, c]) => LATIN.test(c));
      const posing =
        latinText &&
        word.every(([, c]) => !ALPHA.test(c) || lookalike(c)) &&
        word.every(([, c]) => {
          const s = script(c.codePointAt(0) ?? 0);
          return s < 0 || !native[s];
        });
      if (mixed || posing) out.push(...looks);
    }
    word = [];
  };
  for (const c of chars) {
    if (WORD.test(c[1])) word.push(c);
    else close();
  }
  close();
  return out;
}
