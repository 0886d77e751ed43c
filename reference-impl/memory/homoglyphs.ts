/**
 * Lookalike letters folded to the ASCII letter they imitate before rules match, from Unicode's
 * own confusables data (confusables-table.ts, generated from confusables.txt): every
 * single-code-point source whose prototype resolves to ASCII letters or digits. A short hand
 * table of case-correct overrides goes first (the prototype of a capital-looking letter is often
 * lower-case `l`, which would turn `І` into `l` rather than `I`). NFKC has already folded
 * full-width and mathematical alphanumerics by the time this runs.
 *
 * Folding is per word: a word that mixes Latin with other scripts is folded; a word wholly in
 * another script is folded only when the text around it is mostly Latin — so Russian or Greek
 * prose keeps its letters and the rules for those languages still see them.
 */
import { CONFUSABLES } from './confusables-table.js';

const OVERRIDES: Readonly<Record<string, string>> = {
  a: 'аαɑ⍺ӓ',
  b: 'Ьƅ',
  c: 'сϲςⅽᴄ',
  d: 'ԁⅾ',
  e: 'еεҽ℮ё',
  g: 'ɡցǥ',
  h: 'һհ',
  i: 'іιɩⅰ¡ı',
  j: 'јϳ',
  k: 'κкᴋ',
  l: 'ⅼǀӏ|',
  m: 'мⅿ',
  n: 'ոп',
  o: 'оοօ০๐ᴏσ',
  p: 'рρ⍴',
  q: 'ԛ',
  r: 'гᴦ',
  s: 'ѕꜱ',
  t: 'тτ',
  u: 'υսᴜ',
  v: 'νѵᴠ',
  w: 'ԝѡᴡ',
  x: 'хχ',
  y: 'уγү',
  z: 'ᴢ',
  A: 'АΑ',
  B: 'ВΒ',
  C: 'СϹ',
  E: 'ЕΕ',
  H: 'НΗ',
  I: 'ІΙ',
  L: 'Ӏ',
  J: 'Ј',
  K: 'КΚ',
  M: 'МΜ',
  N: 'Ν',
  O: 'ОΟ',
  P: 'РΡ',
  S: 'Ѕ',
  T: 'ТΤ',
  X: 'ХΧ',
  Y: 'ҮΥ',
  Z: 'Ζ',
};

const ASCII_ALNUM = /^[A-Za-z0-9]{1,3}$/;
const FOLD = new Map<string, string>();
for (const [latin, lookalikes] of Object.entries(OVERRIDES)) for (const ch of lookalikes) FOLD.set(ch, latin);
// Case variants of each override fold to the same letter in the matching case.
for (const [latin, lookalikes] of Object.entries(OVERRIDES)) {
  for (const ch of lookalikes) {
    for (const [variant, target] of [
      [ch.toUpperCase(), latin.toUpperCase()],
      [ch.toLowerCase(), latin.toLowerCase()],
    ] as const) {
      if ([...variant].length === 1 && !FOLD.has(variant) && variant !== target) FOLD.set(variant, target);
    }
  }
}
const PROTOTYPE = new Map<string, string>(CONFUSABLES.map(([cp, to]) => [String.fromCodePoint(cp), to]));
for (const [from, to] of PROTOTYPE) {
  if (from.charCodeAt(0) < 0x80 || FOLD.has(from)) continue;
  // A prototype may itself be confusable (one more step resolves it, as UTS #39's skeleton does).
  const resolved = [...to].map((c) => (c.charCodeAt(0) < 0x80 ? c : (PROTOTYPE.get(c) ?? c))).join('');
  if (ASCII_ALNUM.test(resolved)) FOLD.set(from, resolved);
}

/** Entries in the fold table (for the record: the hand table had about 60). */
export const HOMOGLYPH_FOLD_SIZE = FOLD.size;

function foldChar(ch: string): string {
  return FOLD.get(ch) ?? FOLD.get(ch.toLowerCase()) ?? ch;
}

/** Folds every confusable character, regardless of script. */
export function foldHomoglyphs(text: string): string {
  let out = '';
  for (const ch of text) out += foldChar(ch);
  return out;
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const LATIN = /[A-Za-z]/;

/** Share of letters that are ASCII Latin (0..1). */
export function latinShare(text: string): number {
  let latin = 0;
  let letters = 0;
  for (const ch of text) {
    if (/\p{L}/u.test(ch)) {
      letters++;
      if (LATIN.test(ch)) latin++;
    }
  }
  return letters === 0 ? 1 : latin / letters;
}

/** Share of non-ASCII letters that fold to ASCII (a text written wholly in lookalikes scores ~1). */
export function lookalikeShare(text: string): number {
  let foreign = 0;
  let folds = 0;
  for (const ch of text) {
    if (ch.charCodeAt(0) >= 0x80 && /\p{L}/u.test(ch)) {
      foreign++;
      if (FOLD.has(ch)) folds++;
    }
  }
  return foreign < 4 ? 0 : folds / foreign;
}

/** The per-word fold described above. */
export function foldMixedScript(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text; // ASCII has nothing to fold
  const mostlyLatin = latinShare(text) >= 0.5;
  return text.replace(WORD, (w) => {
    if (!/[^\x00-\x7f]/.test(w)) return w;
    if (LATIN.test(w) || mostlyLatin) return foldHomoglyphs(w);
    return w;
  });
}

// UTS #39 gives capital-I lookalikes the prototype `l` (I and l look alike); a word spelt with
// them is read both ways, so `ꓲgnore` is also seen as `ignore`.
const L_LIKE = new Set([...FOLD].filter(([from, to]) => to === 'l' && !/[lⅼǀӏ|]/.test(from)).map(([from]) => from));

/** The text with every non-ASCII `l`-prototype letter read as `i`, or null when it has none. */
export function readLLikeAsI(text: string): string | null {
  let changed = false;
  let out = '';
  for (const ch of text) {
    if (L_LIKE.has(ch)) {
      changed = true;
      out += 'i';
    } else out += ch;
  }
  return changed ? out : null;
}
