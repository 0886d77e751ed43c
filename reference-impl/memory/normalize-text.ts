/**
 * Normalisation before any rule matches, so obfuscation can't hide an instruction: every Unicode
 * format character (category Cf: zero-width, bidi controls, soft hyphen, tag characters …) and
 * other invisible fillers removed, tag characters ("ASCII smuggling") decoded, NFKC, lookalike
 * letters folded with Unicode's confusables data, lower case, whitespace collapsed; then every
 * encoding family decode-encodings.ts knows is undone into extra views, nested a bounded number
 * of times with a bounded total output. Each transform is deterministic.
 */
import { decodedBase64Runs, decodeOnce, isObfuscating } from './decode-encodings.js';
import { foldHomoglyphs, foldMixedScript, lookalikeShare, readLLikeAsI } from './homoglyphs.js';

export { decodedBase64Runs };

// Format characters (Cf) plus fillers that render as nothing: Hangul fillers, combining
// grapheme joiner, Mongolian free variation selectors, variation selectors.
const INVISIBLE =
  /[\p{Cf}\u115f\u1160\u3164\uffa0]|\u034f|[\u180b-\u180d]|\u180f|[\ufe00-\ufe0f]|[\u{e0100}-\u{e01ef}]/gu;
const EMOJI = /\p{Extended_Pictographic}/u;
const TAG_CHAR = /[\u{e0020}-\u{e007e}]/gu;

/**
 * Removes invisible characters, keeping a zero-width joiner (and emoji variation selector)
 * only inside an emoji sequence, where it carries meaning.
 */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, (m: string, offset: number, whole: string) => {
    if ((m === '\u200d' || m === '\ufe0f') && isEmoji(codePointBefore(whole, offset))) {
      if (m === '\ufe0f' || isEmoji(whole.codePointAt(offset + 1))) return m;
    }
    return '';
  });
}

function codePointBefore(s: string, offset: number): number | undefined {
  const low = s.charCodeAt(offset - 1);
  if (low >= 0xdc00 && low <= 0xdfff && offset >= 2) return s.codePointAt(offset - 2);
  return s.codePointAt(offset - 1);
}

function isEmoji(cp: number | undefined): boolean {
  return cp !== undefined && EMOJI.test(String.fromCodePoint(cp));
}

export function hasTagCharacters(text: string): boolean {
  return /[\u{e0020}-\u{e007e}]/u.test(text);
}

/** Unicode tag characters U+E0020..U+E007E spell ASCII invisibly; make it visible. */
export function decodeTagCharacters(text: string): string {
  return text.replace(TAG_CHAR, (m) => String.fromCharCode((m.codePointAt(0) ?? 0xe0020) - 0xe0000));
}

const collapse = (t: string): string => t.replace(/[\s\u00a0]+/g, ' ').trim();

/**
 * The form every rule matches against. Lookalikes are folded on both sides of NFKC (NFKC maps
 * some confusables to letters that only then fold: lunate sigma → final sigma), per word so
 * text in another script keeps its letters (homoglyphs.ts).
 */
export function foldForMatching(text: string): string {
  return collapse(foldMixedScript(foldMixedScript(stripInvisible(text)).normalize('NFKC')).toLowerCase());
}

/** Bounds on decoding: nesting depth, views kept, and decoded characters produced in total. */
export const DECODE_BOUNDS = { maxDepth: 3, maxViews: 48, minBudget: 64 * 1024, budgetFactor: 4 } as const;

export interface MatchingViews {
  readonly views: readonly string[];
  /** Encoding families that were undone to reach some view (e.g. `rot13`, `hex`). */
  readonly encodings: readonly string[];
  /**
   * What only an obfuscating encoding (rot13, Caesar, reversal, base32, hex) revealed, folded:
   * the decoded runs, or the whole text for a shift or reversal, and what they decode to in turn.
   */
  readonly obfuscated: readonly string[];
}

/**
 * Every view rules run over: the folded text (and, where that changed foreign letters, the text
 * in its own script; where it is written wholly in lookalikes, fully folded), its hidden
 * tag-character text, and whatever its encoded runs decode to, recursively. `prepare` rewrites
 * each decoded text before it is read or decoded further, so a decoded text is treated as the
 * source text was before any later reading (a hyphen- or dot-dropping one) loses its words.
 */
export function decodedViews(text: string, prepare: (decoded: string) => string = (t) => t): MatchingViews {
  const views = new Set<string>();
  const encodings = new Set<string>();
  const obfuscated = new Set<string>();
  let budget = Math.max(DECODE_BOUNDS.minBudget, text.length * DECODE_BOUNDS.budgetFactor);
  const seen = new Set<string>();
  // [text, depth, whether the text as a whole was revealed by an obfuscating decoding]
  const pending: Array<[string, number, boolean]> = [[text, 0, false]];
  const addViews = (t: string): void => {
    const visible = stripInvisible(t);
    views.add(foldForMatching(visible));
    if (/[^\x00-\x7f]/.test(visible)) {
      views.add(collapse(visible.normalize('NFKC').toLowerCase()));
      // Lower case before folding too: confusables' skeleton reads a capital I as l, so mixed
      // case with lookalikes ("TＩme … іnclude") has no right view when folded first.
      views.add(collapse(foldMixedScript(visible.normalize('NFKC').toLowerCase())));
      if (lookalikeShare(visible) >= 0.85) views.add(collapse(foldHomoglyphs(visible.normalize('NFKC')).toLowerCase()));
      const asI = readLLikeAsI(visible);
      if (asI !== null) views.add(foldForMatching(asI));
    }
  };
  while (pending.length > 0 && views.size < DECODE_BOUNDS.maxViews) {
    const [t, depth, hidden] = pending.shift()!;
    addViews(t);
    if (hasTagCharacters(t)) addViews(decodeTagCharacters(t));
    if (depth >= DECODE_BOUNDS.maxDepth) continue;
    for (const d of decodeOnce(stripInvisible(t).normalize('NFKC'))) {
      if (seen.has(d.text) || d.text.length > budget) continue;
      seen.add(d.text);
      budget -= d.text.length;
      encodings.add(d.encoding);
      const obfuscating = isObfuscating(d.encoding);
      if ((hidden || obfuscating) && obfuscated.size < DECODE_BOUNDS.maxViews)
        obfuscated.add(foldForMatching(prepare(d.payload)));
      // A reversed text is read, not decoded further: reversing it again gives the source back.
      const next = d.encoding === 'reversed' ? DECODE_BOUNDS.maxDepth : depth + 1;
      pending.push([prepare(d.text), next, hidden || (obfuscating && d.payload === d.text)]);
    }
  }
  views.delete('');
  obfuscated.delete('');
  return { views: [...views], encodings: [...encodings], obfuscated: [...obfuscated] };
}

export function matchingViews(text: string): string[] {
  return [...decodedViews(text).views];
}
