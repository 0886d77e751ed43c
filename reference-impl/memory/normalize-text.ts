/**
 * Normalisation before any rule matches, so obfuscation can't hide an instruction: invisible
 * characters removed, Unicode tag characters ("ASCII smuggling") decoded, NFKC, homoglyphs
 * folded, lower case, whitespace collapsed; base64 and percent-encoded runs decoded into extra
 * views. Each transform is deterministic.
 */
import { foldHomoglyphs } from './homoglyphs.js';

// Zero-width, bidi controls, soft hyphen, word joiners, variation selectors, tag characters.
const INVISIBLE =
  /[\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0\u{e0000}-\u{e007f}]|\u034f|[\u180b-\u180d]|\u180f|[\ufe00-\ufe0f]/gu;
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

/**
 * The form every rule matches against. Homoglyphs are folded on both sides of NFKC (NFKC maps
 * some confusables to letters that only then fold: lunate sigma → final sigma), each time
 * before lower-casing so a capital confusable folds to its capital Latin letter first.
 */
export function foldForMatching(text: string): string {
  const fold = (t: string): string => foldHomoglyphs(t).toLowerCase();
  return fold(fold(stripInvisible(text)).normalize('NFKC'))
    .replace(/[\s\u00a0]+/g, ' ')
    .trim();
}

const BASE64_RUN = /[A-Za-z0-9+/_-]{16,}={0,2}/g;

/** Share of readable characters, ignoring invisible ones (an encoded payload may carry them). */
function printableRatio(s: string): number {
  const chars = [...stripInvisible(s)];
  if (chars.length === 0) return 0;
  let ok = 0;
  for (const ch of chars) if (/[\p{L}\p{N}\p{P}\p{S}\p{M}\p{Zs}\n\t]/u.test(ch)) ok++;
  return ok / chars.length;
}

/** Base64 (standard or url-safe) runs that decode to readable text, with their offsets. */
export function decodedBase64Runs(text: string): Array<{ start: number; end: number; decoded: string }> {
  const out: Array<{ start: number; end: number; decoded: string }> = [];
  for (const m of text.matchAll(BASE64_RUN)) {
    const run = m[0];
    const bytes = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length < 8) continue;
    const decoded = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    if (decoded.includes('\ufffd') || printableRatio(decoded) < 0.9) continue;
    out.push({ start: m.index ?? 0, end: (m.index ?? 0) + run.length, decoded });
  }
  return out;
}

function percentDecoded(text: string): string | null {
  if (!/%[0-9a-f]{2}/i.test(text)) return null;
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  }
}

/**
 * Every view rules run over: the folded text, its hidden tag-character text, and whatever its
 * base64 / percent-encoded runs decode to (two levels deep, for double encoding).
 */
export function matchingViews(text: string): string[] {
  const views = new Set<string>();
  const pending: Array<[string, number]> = [[text, 0]];
  while (pending.length > 0) {
    const [t, depth] = pending.pop()!;
    views.add(foldForMatching(t));
    if (hasTagCharacters(t)) views.add(foldForMatching(decodeTagCharacters(t)));
    if (depth >= 2) continue;
    for (const run of decodedBase64Runs(stripInvisible(t))) pending.push([run.decoded, depth + 1]);
    const pd = percentDecoded(t);
    if (pd !== null && pd !== t) pending.push([pd, depth + 1]);
  }
  return [...views].filter((v) => v.length > 0);
}
