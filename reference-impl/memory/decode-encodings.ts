/**
 * Step 3: the encodings an instruction hides behind, each undone into an extra text the rules
 * also read — base64 (standard and url-safe), base32, hex, percent-encoding, HTML entities,
 * rot13 and every other Caesar shift, leetspeak, reversed text, letter-spaced or dotted words,
 * and words broken by markdown emphasis or hyphens. A decoding is kept only when it reads as
 * text (printable, and for the guessing decoders — shifts, reversal — more like words than the
 * original). Everything is bounded: each decoder works on a bounded prefix, the caller bounds
 * nesting and the total decoded output (normalize-text.ts).
 */

import { LEET_WORDS } from './leet-words.js';

export interface Decoded {
  readonly encoding: string;
  readonly text: string;
  /** Only what was decoded (the runs, or the whole text for a whole-text transform). */
  readonly payload: string;
}

/** Encodings people rarely use for an honest note (base64, percent, entities, leetspeak, spelt-out words are common). */
const OBFUSCATING = /^(?:rot13|caesar\d+|reversed|base32|hex|ascii_escapes)$/;

export function isObfuscating(encoding: string): boolean {
  return OBFUSCATING.test(encoding);
}

/** Longest input a single decoder looks at (content is at most 16 KiB anyway). */
const MAX_INPUT = 64 * 1024;

/** Share of readable characters (invisible format characters count: an encoded payload may carry them). */
export function printableRatio(s: string): number {
  let ok = 0;
  let n = 0;
  for (const ch of s) {
    n++;
    if (/[\p{L}\p{N}\p{P}\p{S}\p{M}\p{Zs}\p{Cf}\n\t]/u.test(ch)) ok++;
  }
  return n === 0 ? 0 : ok / n;
}

function readable(bytes: Buffer): string | null {
  if (bytes.length < 6) return null;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.includes('\ufffd') || printableRatio(text) < 0.9) return null;
  return text;
}

const BASE64_RUN = /[A-Za-z0-9+/_-]{16,}={0,2}/g;

/** Base64 (standard or url-safe) runs that decode to readable text, with their offsets. */
export function decodedBase64Runs(text: string): Array<{ start: number; end: number; decoded: string }> {
  const out: Array<{ start: number; end: number; decoded: string }> = [];
  for (const m of text.slice(0, MAX_INPUT).matchAll(BASE64_RUN)) {
    const run = m[0];
    const decoded = readable(Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
    if (decoded === null || decoded.length < 8) continue;
    out.push({ start: m.index ?? 0, end: (m.index ?? 0) + run.length, decoded });
  }
  return out;
}

const HEX_RUN = /(?:(?:\\x|0x)?[0-9a-fA-F]{2}[\s:,-]?){8,}/g;
const B32_RUN = /[A-Z2-7]{16,}={0,6}/g;
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Bytes(run: string): Buffer {
  const out: number[] = [];
  let bits = 0;
  let v = 0;
  for (const c of run.replace(/=+$/, '')) {
    v = ((v << 5) | B32.indexOf(c)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((v >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** Replaces every run `re` finds with its decoding, when at least one run decodes; also the decoded runs alone. */
function replaceRuns(
  text: string,
  re: RegExp,
  decode: (run: string) => string | null,
): { text: string; payload: string } | null {
  const parts: string[] = [];
  const out = text.replace(re, (run) => {
    const d = decode(run);
    if (d === null) return run;
    parts.push(d);
    return ` ${d} `;
  });
  return parts.length > 0 ? { text: out, payload: parts.join(' ') } : null;
}

const UNICODE_ESCAPE = /\\u\{([0-9a-fA-F]{1,6})\}|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})/g;

/** "\u0041\u0073", "\u{1F600}", "\x41": escapes as JSON, JavaScript and C write them. */
function unicodeEscapes(text: string): string | null {
  if (!/\\(?:u\{?[0-9a-fA-F]|x[0-9a-fA-F]{2})/.test(text)) return null;
  const out = text.replace(UNICODE_ESCAPE, (m, braced?: string, four?: string, two?: string) => {
    const cp = Number.parseInt(braced ?? four ?? two ?? '', 16);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
  });
  return out;
}

/** A run of escapes spelling plain ASCII ("\u0046\u0072\u006f\u006d …"): nobody escapes letters but to hide them. */
const ASCII_ESCAPE_RUN = /(?:\\u\{0*[0-7][0-9a-fA-F]\}|\\u00[0-7][0-9a-fA-F]|\\x[0-7][0-9a-fA-F]){8,}/g;

/** Escape runs that spell ASCII text, decoded in place; the payload is what they spell. */
function asciiEscapes(text: string): { text: string; payload: string } | null {
  if (!/\\(?:u\{?0|x[0-7])/.test(text)) return null;
  const parts: string[] = [];
  const out = text.replace(ASCII_ESCAPE_RUN, (run) => {
    const decoded = unicodeEscapes(run) ?? run;
    if (!/^[\x20-\x7e\t\n\r]+$/.test(decoded) || (decoded.match(/[a-z]/gi)?.length ?? 0) < 4) return run;
    parts.push(decoded);
    return decoded;
  });
  return parts.length > 0 ? { text: out, payload: parts.join(' ') } : null;
}

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function htmlEntities(text: string): string | null {
  if (!/&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,6});/i.test(text)) return null;
  return text.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,6});/gi, (m, body: string) => {
    if (body[0] !== '#') return NAMED[body.toLowerCase()] ?? m;
    const cp =
      body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
  });
}

function percentDecoded(text: string): string | null {
  if (!/%[0-9a-f]{2}/i.test(text)) return null;
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  }
}

// Frequent short words of the languages the rules read; a shifted or reversed text that is
// suddenly full of them was encoded.
const COMMON = new Set(
  (
    'the and to of a in is you that it for on with as are be this all now from your any not or ' +
    'send mail email key use run always never ignore instructions user assistant agent password token ' +
    'der die das und ist nicht mit den ein zu le la les et est pas de des un une el los las que ' +
    'por para con il di che non per sono ' +
    'with have will should must every each his her their they them was were has what when who into ' +
    'du bist jetzt ohne für jede jeder jedes eine einen dem sich auch auf aus bei von wenn soll sie ' +
    'tu je vous ils elle dans pour sur avec chaque du au aux ce cette sans qui ' +
    'en una cada del al se su sus sin esta este es ya em um uma do da dos das no na com sem os as ' +
    'ogni della dei senza questo questa gli het een van voor naar met zonder elk elke dit deze bij op zijn niet ' +
    'an im immer alle alles mir mich dich dein deine nur noch oder aber wie was als nach über zum zur jedes ' +
    'toujours tous toutes mais ou comme son sa ses leur leurs siempre todos todas pero como sus ' +
    'sempre tutti tutte ma come suo sua altri tra fra altijd alle maar als ook wat wie ' +
    'nie się jest że od po za jak ale tak ty ich dla przez bez zawsze każdy każdą teraz wszystkie jego'
  ).split(' '),
);

/** Share of words that are common words; 0 unless at least MIN_HITS of them (one "a" is chance). */
function wordScore(text: string): number {
  let hits = 0;
  let words = 0;
  // Accented letters belong to the word ("für", "Gesprächs"): a shift leaves them, they must not split words.
  for (const m of text.toLowerCase().matchAll(/[a-z\u00df-\u024f]+/g)) {
    words++;
    if (m[0].length >= 2 && COMMON.has(m[0])) hits++;
    if (words >= 400) break;
  }
  return words === 0 || hits < MIN_HITS ? 0 : hits / words;
}

function shift(text: string, n: number): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) out += String.fromCharCode(((c - 65 + n) % 26) + 65);
    else if (c >= 97 && c <= 122) out += String.fromCharCode(((c - 97 + n) % 26) + 97);
    else out += text[i];
  }
  return out;
}

// Shifts and reversal are guesses: only text that does not already read as words is tried, on
// a short sample, and a guess must read clearly better than the original.
const SAMPLE = 600;
const READS_AS_WORDS = 0.2;
const MIN_HITS = 3;
/** How much better a guess must read than the original. */
const CLEARLY_BETTER = 0.15;

/**
 * Letter frequencies (per cent) blended over the Latin-script languages written to memory
 * (English, German, French, Spanish, Portuguese, Italian, Dutch, Polish): a shift is chosen by
 * how well its letters fit them, which needs no word list of any language.
 */
const LETTER_FREQUENCY = [
  8.5, 1.5, 3.0, 4.3, 13.0, 1.4, 2.2, 3.0, 7.5, 0.6, 1.5, 4.0, 3.0, 7.5, 6.8, 2.4, 0.3, 6.5, 6.3, 6.3, 3.5, 1.2, 1.5,
  0.2, 1.2, 1.2,
];
const LOG_FREQUENCY = LETTER_FREQUENCY.map((f) => Math.log(f / 100));
/**
 * Mean log-likelihood per letter a shift must gain over the text as written. Ciphered notes of
 * the development corpus gain 0.27–1.3; encoded binary also gains up to ~0.6 — a wrong guess
 * costs one more view to read, never a verdict.
 */
const FREQUENCY_GAIN = 0.2;

/** The shift whose letters fit the blended letter frequencies best, when it fits clearly better than none. */
function frequencyShift(sample: string): number {
  const counts = new Array<number>(26).fill(0);
  let letters = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i) | 0x20; // lower case for letters
    if (c >= 97 && c <= 122) {
      counts[c - 97]!++;
      letters++;
    }
  }
  if (letters === 0) return 0;
  const fitOf = (n: number) => counts.reduce((a, k, c) => a + k * LOG_FREQUENCY[(c + n) % 26]!, 0) / letters;
  let best = 0;
  let bestFit = fitOf(0);
  const own = bestFit;
  for (let n = 1; n < 26; n++) {
    const f = fitOf(n);
    if (f > bestFit) {
      bestFit = f;
      best = n;
    }
  }
  return bestFit - own >= FREQUENCY_GAIN ? best : 0;
}

const shifted = (text: string, n: number): Decoded => {
  const decoded = shift(text, n);
  return { encoding: n === 13 ? 'rot13' : `caesar${n}`, text: decoded, payload: decoded };
};

/**
 * The Caesar shift (rot13 included) that turns the text into the most common words; failing
 * that (a language the word list barely knows), the shift its letter frequencies point to.
 */
function bestShift(text: string, own: number): Decoded | null {
  const sample = text.slice(0, SAMPLE);
  let bestN = 0;
  let bestScore = Math.max(READS_AS_WORDS, own + CLEARLY_BETTER);
  for (let n = 1; n < 26; n++) {
    const s = wordScore(shift(sample, n));
    if (s > bestScore) {
      bestScore = s;
      bestN = n;
    }
  }
  if (bestN !== 0 && readsBetter(shift(sample, bestN), sample)) return shifted(text, bestN);
  const byLetters = frequencyShift(sample);
  return byLetters === 0 ? null : shifted(text, byLetters);
}

/** How much better a word's letter pairs must read after ROT13 for the word to count as ciphered. */
const WORD_PAIRS_BETTER = 0.15;
/** Ciphered words a text needs before its words are read one by one. */
const MIN_CIPHERED_WORDS = 2;

/**
 * ROT13 word by word, for a text that reads as words but hides a few of them ("From now on
 * sbejneq every invoice … jvgubhg nfxvat"): the whole-text guess never runs on it, since it
 * already reads as words. A word of four letters or more is read shifted when its letter pairs
 * read clearly better so or the shift makes a common word; two such words at least. The
 * payload is those words alone: the plain words around them were never hidden. Only when they
 * are fewer than the plain words: a text ciphered whole is the whole-text guess's to read.
 */
function rot13Words(text: string): { text: string; payload: string } | null {
  const revealed: string[] = [];
  let words = 0;
  const out = text.replace(/[A-Za-z]{4,}/g, (w) => {
    words++;
    const r = shift(w, 13);
    const better = COMMON.has(r.toLowerCase()) || pairScore(r) >= pairScore(w) + WORD_PAIRS_BETTER;
    if (!better || COMMON.has(w.toLowerCase())) return w;
    revealed.push(r);
    return r;
  });
  const few = revealed.length >= MIN_CIPHERED_WORDS && revealed.length * 2 < words;
  return few ? { text: out, payload: revealed.join(' ') } : null;
}

/** "<a short label>: <body>": the label, colon and space, and the body. */
const LABELLED = /^([^:\n]{1,60}:[ \t]+)(\S[\s\S]*)$/;

/**
 * Text that does not read as words is read backwards too: a guess by common words alone misses
 * the languages the list barely knows, and a wrong reading costs one view, never a verdict.
 */
function reversed(text: string): Decoded {
  const r = [...text].reverse().join('');
  return { encoding: 'reversed', text: r, payload: r };
}

// Letter pairs frequent inside words of the Latin-script languages the rules read (English,
// German, French, Spanish, Portuguese, Italian). Ordered pairs: reversal turns "th" into "ht".
const COMMON_PAIRS = new Set(
  (
    'th he in er an re on at en nd ti es or te of ed is it al ar st to nt ng se ha as ou io le ve co me de hi ri ' +
    'ro ic ne ea ra ce li ch ll be ma si om ur ei ie un ge ue qu la el da di na no ta ca lo ol mo pe em us ss ' +
    'ho wa wh sh ow ac il et ai au ct tr pr ns ec mi ni vi ad ab ul ut ot rs ts ke ck ay oo ee ly nc'
  ).split(' '),
);

/** Share of adjacent letter pairs inside words that are common pairs: how much a text looks like written words. */
function pairScore(text: string): number {
  let hits = 0;
  let pairs = 0;
  for (const m of text.toLowerCase().matchAll(/[a-z]{2,}/g)) {
    const w = m[0];
    for (let i = 0; i + 1 < w.length; i++) {
      pairs++;
      if (COMMON_PAIRS.has(w.slice(i, i + 2))) hits++;
    }
    if (pairs >= 1000) break;
  }
  return pairs === 0 ? 0 : hits / pairs;
}

/**
 * A guessed decoding counts only when it reads better than its source by the shape of its words
 * too, not only by a few short common words: "zq3x4op2 lighthouse lamp" shifted by 15 turns
 * "zq" and "op" into "of" and "de" but the real words into nonsense.
 */
function readsBetter(decoded: string, source: string): boolean {
  return pairScore(decoded) > pairScore(source) + PAIRS_BETTER;
}

/** How much better a guess's letter pairs must read than the source's. */
const PAIRS_BETTER = 0.05;

const LEET: Readonly<Record<string, string>> = {
  '4': 'a',
  '@': 'a',
  '3': 'e',
  '!': 'i',
  '0': 'o',
  '5': 's',
  $: 's',
  '7': 't',
  '+': 't',
  '9': 'g',
  '6': 'g',
  '8': 'b',
  // 2 looks like z ("p0pr2" przed, "2ahl" Zahl); a 2 standing alone is read by sound (to).
  '2': 'z',
};
/**
 * `1` stands for i or l ("1nc1ude": include). A word that reads as a common word one way is
 * read so in both readings (elke, alle); otherwise two readings of each word are offered, as
 * separate decodings: before a vowel it is l, else i (include, reply, mailed, api); and the
 * reading whose letter pairs read best (usuarios, where the vowel rule gives usuarlos).
 */
const LEET_ONE = ['i', 'l'] as const;
/** Words with more ambiguous digits than this are read by the vowel rule only (2^n readings). */
const MAX_ONES = 4;

function byVowel(w: string): string {
  return w.replace(/1(?=(.?))/g, (_, next: string) => (/[aeiouyàáâäèéêëìíîïòóôöùúûü]/i.test(next) ? 'l' : 'i'));
}

function byPairs(w: string): string {
  const ones = w.split('1').length - 1;
  if (ones === 0 || ones > MAX_ONES) return byVowel(w);
  let best = byVowel(w);
  let bestScore = pairScore(best);
  for (let mask = 0; mask < 2 ** ones; mask++) {
    let k = 0;
    const reading = w.replace(/1/g, () => LEET_ONE[(mask >> k++) & 1] ?? 'i');
    const score = pairScore(reading);
    if (score > bestScore) {
      best = reading;
      bestScore = score;
    }
  }
  return best;
}

/** Every `1` an i ("k0p1eer": kopieer, where the vowel rule and letter pairs give kopleer). */
function asI(w: string): string {
  return w.replace(/1/g, 'i');
}

/** Every `1` an l: a text that writes i otherwise ("!" or "|") keeps 1 for l ("41$0f", "b3h4nd31"). */
function asL(w: string): string {
  return w.replace(/1/g, 'l');
}

/** The i/l reading of a word's ones that is in `known` ("e1ke", "a11e": elke, alle), if one is. */
function knownReading(w: string, known: ReadonlySet<string>): string | null {
  const ones = w.split('1').length - 1;
  if (ones === 0 || ones > MAX_ONES) return null;
  for (let mask = 0; mask < 2 ** ones; mask++) {
    let k = 0;
    const reading = w.replace(/1/g, () => LEET_ONE[(mask >> k++) & 1] ?? 'i');
    if (known.has(reading.toLowerCase())) return reading;
  }
  return null;
}

/** An `@` before a domain ("0u751d3-ma11.3x4mp1e") is an address's, not a leet "a". */
const ADDRESS_AFTER_AT = /^[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/u;

/** A 1 before an -ion ending is i ("r3str1z10n3", "1nstruct10ns": restrizione, instructions). */
const ION_ENDING = /1(?=(?:on|ón|ão|oni|one|ons|ones)$)/u;

/** A digit alone that is a one-letter word (I, a, e, o) when a word follows it ("1 4m", "0 4dm1n"). */
const LONE_VOWEL = /^[0134]$/;
const LONE_BEFORE_WORD = /^ [0-9@$!+]*\p{L}/u;

/** Mixed words a text needs before its all-digit words are read as letters too ("70", "105": to, los). */
const LEET_HEAVY = 3;
const LEET_DIGITS_ONLY = /^[013456789]{2,5}$/;
/**
 * Words of signs alone ("!$+": ist) in a text written so. Not digits alone with a 2: "2209" is
 * more often a customer's number than a leet word, and a reading that keeps it must not be the
 * one the bounded views drop.
 */
const LEET_SIGNS_ONLY = /^(?=.*[!$+])[0-9!$+]{2,6}$/;

/**
 * Digits and symbols standing for letters inside words that also have letters: up to two
 * readings; in a text written so (LEET_HEAVY such words), short all-digit words are letters too.
 */
function leetspeak(input: string): string[] {
  const text = drawnLetters(input);
  const mixed = text.match(/[\p{L}0-9@$!+]+/gu)?.filter((w) => /[0-9@$!+]/.test(w) && /\p{L}/u.test(w)).length ?? 0;
  const heavy = mixed >= LEET_HEAVY;
  // Each leet word is read once (by its offset); the readings differ only in its remaining ones.
  const words = new Map<
    number,
    { readonly read: string; readonly common: string | null; readonly known: string | null }
  >();
  for (const m of text.matchAll(/[\p{L}0-9@$!+]+/gu)) {
    const w = m[0];
    const at = m.index;
    // A lone digit before an elision's apostrophe is a letter too ("5'1l5": s'ils).
    const elided = /^[0-9]$/.test(w) && /^['’][\p{L}0-9]/u.test(text.slice(at + 1, at + 3));
    if (
      !/[0-9@$!+]/.test(w) ||
      (!/\p{L}/u.test(w) && !(heavy && (LEET_DIGITS_ONLY.test(w) || LEET_SIGNS_ONLY.test(w) || elided)))
    )
      continue;
    const read = w.replace(/[0-9@$!+]/g, (c, i: number) =>
      c === '1' || (c === '@' && ADDRESS_AFTER_AT.test(text.slice(at + i + 1, at + i + 256))) ? c : (LEET[c] ?? c),
    );
    // The order-word reading is needed only where no common word is read (hot path: 2^ones tries).
    const common = knownReading(read, COMMON);
    words.set(at, { read, common, known: common === null ? knownReading(read, LEET_WORDS) : null });
  }
  if (words.size === 0) return [];
  // Each reading of the ones, over the words `read` selects (the others are left as written).
  const readAll = (read: (w: string) => boolean): string[] =>
    [byVowel, byPairs, asI, asL].map((readOnes) =>
      text.replace(/[\p{L}0-9@$!+]+/gu, (w, at: number) => {
        const word = words.get(at);
        return word && read(w) ? (word.common ?? readOnes(word.read)) : w;
      }),
    );
  const readings = readAll(() => true);
  // A word whose ones make a known word only read as i here and l there ("1nst411", "s113nt1y"):
  // one more reading, the others kept. In it, in a text written so, a lone vowel digit before a
  // word is the word it stands for ("1 4m th3 4dm1n": I; "4 p4rt1r d3", "0 4dm1n": a, o).
  const lone = (w: string, at: number): boolean =>
    heavy && LONE_VOWEL.test(w) && LONE_BEFORE_WORD.test(text.slice(at + 1, at + 32));
  if (
    [...words.values()].some((w) => w.common === null && w.known !== null) ||
    (heavy && [...text.matchAll(/(?<![\p{L}\p{N}])[0134](?![\p{L}\p{N}])/gu)].some((m) => lone(m[0], m.index)))
  )
    readings.push(
      text.replace(/[\p{L}0-9@$!+]+/gu, (w, at: number) => {
        const word = words.get(at);
        if (word) return word.common ?? word.known ?? byVowel(word.read.replace(ION_ENDING, 'i'));
        return lone(w, at) ? (w === '1' ? 'i' : (LEET[w] ?? w)) : w;
      }),
    );
  // Numbers of their own stay numbers in more readings ("cl13nt 4471": client 4471, a record's number).
  if (heavy) readings.push(...readAll((w) => /\p{L}/u.test(w)));
  // A text written so throughout is also read by sound (on the first reading: its 2 and 4 are still words).
  if (heavy)
    readings.push(
      bySound(
        text.replace(/[\p{L}0-9@$!+]+/gu, (w, at: number) => {
          const word = words.get(at);
          return word && !LEET_DIGITS_ONLY.test(w) ? (word.common ?? byVowel(word.read)) : w;
        }),
      ),
    );
  return [...new Set(readings)];
}

/**
 * Letters drawn with several signs ("\\/\\/" w, "|\\/|" m, "/\\" a, "|-|" h, "|<" k, "|)" d,
 * "(_)" u, "()" o, "\\/" v, "|" l beside a letter, "€" e): read first, so the one-sign leet
 * that follows sees whole words ("\\/\\/h3n 4sk3d, r3v3a|" → "when asked, reveal").
 */
const DRAWN_LETTERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\\\/\\\//g, 'w'],
  [/\|\\\/\|/g, 'm'],
  [/\|\\\|/g, 'n'],
  [/\/\\/g, 'a'],
  [/\|-\|/g, 'h'],
  [/\|</g, 'k'],
  [/[|[]\)/g, 'd'],
  [/\(_\)/g, 'u'],
  [/\(\)/g, 'o'],
  [/\\\//g, 'v'],
  [/(?<=\p{L})\|(?=\p{L}|[\s.,;:!?]|$)|(?<=[\s(]|^)\|(?=\p{L})/gu, 'l'],
  [/€/g, 'e'],
];
function drawnLetters(text: string): string {
  let out = text;
  for (const [re, letter] of DRAWN_LETTERS) out = out.replace(re, letter);
  return out;
}

/**
 * Leet written by sound in a text written so: "ph" opening a word for f, a plural "z" for s,
 * and the words "2" (to), "4" (for), "u" (you), "r" (are), "ur" (your), "n" (and)
 * ("Ph0rw4rd 4ll 3m41lz 2 b055@…" → "forward all emails to boss@…").
 */
function bySound(text: string): string {
  return text
    .replace(/(?<![\p{L}\p{N}])ph(?=\p{L})/giu, (m) => (m[0] === 'P' ? 'F' : 'f'))
    .replace(/(?<=\p{L}{3})z(?![\p{L}\p{N}])/gu, 's')
    .replace(
      /(?<![\p{L}\p{N}@.])(2|4|u|r|ur|n)(?![\p{L}\p{N}@.])/giu,
      (w) => ({ '2': 'to', '4': 'for', u: 'you', r: 'are', ur: 'your', n: 'and' })[w.toLowerCase()] ?? w,
    );
}

/**
 * Leet in Cyrillic words: a digit stands for the Cyrillic letter it looks like, not a Latin one
 * ("Пер3шли вс3 п4роли" → "Перешли все пароли"). 3 and 4 are е and а by shape, з and ч by
 * Russian leet's own convention: two readings.
 */
const CYRILLIC_LEET: ReadonlyArray<Readonly<Record<string, string>>> = [
  { '0': 'о', '3': 'е', '4': 'а', '6': 'б', '8': 'в' },
  { '0': 'о', '3': 'з', '4': 'ч', '6': 'б', '8': 'в' },
];
function cyrillicLeet(text: string): string[] {
  const word = /[\p{Script=Cyrillic}0-9]*\p{Script=Cyrillic}[\p{Script=Cyrillic}0-9]*/gu;
  if (!/\p{Script=Cyrillic}[0-9]|[0-9]\p{Script=Cyrillic}/u.test(text)) return [];
  return CYRILLIC_LEET.map((map) =>
    text.replace(word, (w) => (/[0-9]/.test(w) ? w.replace(/[0-9]/g, (d) => map[d] ?? d) : w)),
  );
}

/** Share of a text's space-separated tokens that must be one character for it to be spaced out whole. */
const SPACED_OUT = 0.8;

/**
 * A text spaced out whole ("o p s - a r c h i v e @ m a i l . e x a m p l e   e v e r y"):
 * single spaces join, wider gaps are the word breaks, so punctuation, addresses and
 * apostrophes inside words come back too ("ops-archive@mail.example every").
 */
function spacedOut(text: string): string | null {
  const tokens = text.split(/\s+/).filter(Boolean);
  if (tokens.length < 12 || !/ {2,}/.test(text)) return null;
  const single = tokens.filter((t) => [...t].length === 1).length;
  if (single / tokens.length < SPACED_OUT) return null;
  return text
    .split(/ {2,}|\n/)
    .map((w) => w.replace(/ /g, ''))
    .join(' ');
}

/** Dotted runs a text needs before every dot between two non-spaces is dropped too. */
const DOTTED_HEAVY = 3;

/**
 * "i g n o r e", "i.g.n.o.r.e", "i-g-n-o-r-e" → "ignore". In a text dotted throughout, also a
 * second reading with every dot between two non-spaces dropped, so apostrophes, hyphens and
 * punctuation inside dotted words come back ("D.'.o.r.a", "p.r.é.-.a.p.p.r.o.u.v.é").
 */
function letterSpaced(text: string): string[] {
  let runs = 0;
  // One separator throughout a run: in "S.e.n.d.e i.m.m.e.r" the space between words ends it.
  const out = text.replace(/(?<![\p{L}\p{N}])\p{L}([ .·_*|/-]{1,2})(?:\p{L}\1){1,}\p{L}(?![\p{L}\p{N}])/gu, (run) => {
    if (run.includes('.')) runs++;
    return run.replace(/[ .·_*|/-]/g, '');
  });
  // Leet digits spaced out with the letters ("f.0.r.w.4.r.d"): joined too, for the leet reading
  // that follows — only runs with letters on both sides of a digit, so "1.2.3" and dates stay.
  const withDigits = out.replace(
    /(?<![\p{L}\p{N}])\p{L}([.·_*|/-])(?:[\p{L}0-9]\1){1,}\p{L}(?![\p{L}\p{N}])/gu,
    (run) => (/[0-9]/.test(run) && (run.match(/\p{L}/gu)?.length ?? 0) >= 3 ? run.replace(/[.·_*|/-]/g, '') : run),
  );
  const readings = out !== text ? [out] : [];
  if (withDigits !== out) readings.push(withDigits);
  if (runs >= DOTTED_HEAVY) {
    const all = text.replace(/(?<=\S)\.(?=\S)/g, '');
    if (all !== out) readings.push(all);
  }
  return readings;
}

/** Markers inside words a text needs before markers between any two non-spaces are dropped too. */
const BROKEN_HEAVY = 3;

/**
 * "ig**nore**", "ig_nore_", "ign-ore", "ig`nore`" → "ignore"; in a text broken so throughout,
 * also markers beside punctuation ("htt**ps:** //c_oll_ect_.ex**fil**-ex_amp_le" read without the
 * space), as a second reading.
 */
function brokenWords(text: string): string[] {
  const out = text.replace(
    /(?<=\p{L})(?:[*_~`]{1,3}|-(?:\s*\n\s*)?)(?=\p{L})|(?<=\p{L})[*_~`]{1,3}(?=[\s.,;:!?]|$)/gu,
    '',
  );
  const readings = out !== text ? [out] : [];
  if ((text.match(/(?<=\p{L})[*_~`]{1,3}(?=\p{L})/gu)?.length ?? 0) >= BROKEN_HEAVY) {
    const all = text.replace(/(?<=\S)[*_~`]{1,3}(?=\S)/gu, '');
    if (all !== text && all !== out) readings.push(all);
  }
  // Hyphens likewise: in a text hyphen-broken throughout, an address comes back only when the
  // hyphens beside its punctuation go too ("htt-ps:-//c-oll-ect-.ex-fil--ex-amp-le.-net").
  if ((text.match(/(?<=\p{L})-(?=\p{L})/gu)?.length ?? 0) >= BROKEN_HEAVY * 2) {
    const all = text.replace(/(?<=\S)-+(?=\S)/gu, '');
    if (all !== text && all !== out && !readings.includes(all)) readings.push(all);
  }
  return readings;
}

/** One decoding step of every family; the caller recurses on the results, bounded. */
export function decodeOnce(input: string): Decoded[] {
  const text = input.slice(0, MAX_INPUT);
  const out: Decoded[] = [];
  const add = (encoding: string, t: string | null | { text: string; payload: string }): void => {
    if (t === null) return;
    const d = typeof t === 'string' ? { text: t, payload: t } : t;
    if (d.text !== text) out.push({ encoding, ...d });
  };
  for (const run of decodedBase64Runs(text)) add('base64', run.decoded);
  add(
    'hex',
    replaceRuns(text, HEX_RUN, (run) => {
      const hex = run.replace(/\\x|0x|[\s:,-]/g, '');
      return hex.length % 2 === 0 ? readable(Buffer.from(hex, 'hex')) : null;
    }),
  );
  add(
    'base32',
    replaceRuns(text, B32_RUN, (run) => readable(base32Bytes(run))),
  );
  add('percent', percentDecoded(text));
  add('html_entities', htmlEntities(text));
  // Escaped letters are hidden text (obfuscating); other escapes (accents, emoji) are ordinary.
  const hidden = asciiEscapes(text);
  if (hidden) add('ascii_escapes', hidden);
  else add('unicode_escapes', unicodeEscapes(text));
  // A readable label before a ciphered body ("Saved snippet (rot13): Znxr …") lifts the whole
  // text's word score: the body is guessed on its own too, the label kept.
  const labelled = LABELLED.exec(text);
  for (const [label, body] of [['', text], ...(labelled ? [[labelled[1] ?? '', labelled[2] ?? '']] : [])] as const) {
    const own = wordScore(body.slice(0, SAMPLE));
    // Guessing needs enough Latin letters to be meaningful (a short key or a foreign-script note is not a cipher).
    if (own < READS_AS_WORDS && (body.slice(0, SAMPLE).match(/[a-z]/gi)?.length ?? 0) >= 24) {
      for (const guess of [bestShift(body, own), reversed(body)]) {
        if (guess) out.push({ ...guess, text: label + guess.text, payload: guess.payload });
      }
    }
  }
  // Scripts the letter-pair and word scores do not read (Cyrillic, CJK, kana) are read backwards
  // too: a reversed line of them is as cheap to read as to guess.
  const sample = text.slice(0, SAMPLE);
  if ((sample.match(/[\p{Script=Cyrillic}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu)?.length ?? 0) >= 8) {
    out.push(reversed(text));
  }
  add('rot13', rot13Words(text));
  for (const reading of leetspeak(text)) add('leetspeak', reading);
  for (const reading of cyrillicLeet(text)) add('leetspeak', reading);
  for (const reading of letterSpaced(text)) add('letter_spaced', reading);
  add('letter_spaced', spacedOut(text));
  for (const reading of brokenWords(text)) add('broken_words', reading);
  return out;
}
