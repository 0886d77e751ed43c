/**
 * Wallet seed phrases: the 12 to 24 words that are a crypto wallet's private key (BIP39). The
 * word lists and the checksum are a well-kept library's (@scure/bip39). Two readings, each
 * redacting the whole run of words:
 * - a bare run of 12, 15, 18, 21 or 24 words of the English list, separated by spaces, line
 *   breaks or list numbers ("1. abandon 2. ability …"), whose BIP39 checksum holds. A list of
 *   ordinary nouns can be all list words ("apple banana bread …"), but its checksum holds for one
 *   in 16 (12 words) to one in 256 (24); a seed phrase's always does;
 * - after a seed-phrase label in the languages the rules read ("seed phrase:", "recovery phrase
 *   is", "Wiederherstellungsphrase:", "phrase de récupération :", "助记词："), a run of 12 or more
 *   words of the English, Spanish, French, Italian, Portuguese or Czech list, commas allowed and
 *   no checksum asked (a phrase copied with a typo is still the key). The CJK lists are left out:
 *   their words are common characters, and CJK prose has no spaces to tell a run.
 */
import { validateMnemonic } from '@scure/bip39';
import { wordlist as czech } from '@scure/bip39/wordlists/czech.js';
import { wordlist as english } from '@scure/bip39/wordlists/english.js';
import { wordlist as french } from '@scure/bip39/wordlists/french.js';
import { wordlist as italian } from '@scure/bip39/wordlists/italian.js';
import { wordlist as portuguese } from '@scure/bip39/wordlists/portuguese.js';
import { wordlist as spanish } from '@scure/bip39/wordlists/spanish.js';

type Range = readonly [number, number];

const ENGLISH = new Set(english);
const LABELLED = new Set([english, spanish, french, italian, portuguese, czech].flat().map((w) => w.normalize('NFC')));
const PHRASE_LENGTHS = new Set([12, 15, 18, 21, 24]);
const MIN_WORDS = 12;
/** Words read after a label: a lead-in's worth, then a phrase up to Monero's 25 with slack. */
const WORDS_AFTER_LABEL = 80;
/** Labels read per note. */
const MAX_LABELS = 16;
/** Characters a label may be followed by before its phrase ("seed phrase for the Ledger: …"). */
const LEAD_IN = 48;
/** Letters with their combining marks (a decomposed accent stays in its word). */
const WORD = /[\p{L}\p{M}]+/gu;
/** Between two words of a bare phrase: white space and a list number. */
const BARE_GAP = /^\s*(?:\d{1,2}[.):]?\s*)?$/u;
/** Between two words of a labelled phrase: also commas and list marks. */
const LABELLED_GAP = /^[\s,;·•|/–-]*(?:\d{1,2}[.):]?[\s,;·•|/–-]*)?$/u;
const LABEL =
  /(?<!\p{L})(?:(?:secret |wallet )?(?:seed|recovery|backup|mnemonic|wallet) (?:phrase|words|sentence)|mnemonic|seed ?phrase|seed-phrase|wiederherstellungs(?:phrase|wörter)|seed-wörter|phrase (?:de récupération|secrète|mnémonique)|mots de récupération|frase (?:semilla|de recuperación|de recuperação|semente|di recupero|mnemotécnica|mnemonica)|palabras semilla|palavras de recuperação|herstelzin|fraza (?:odzyskiwania|seed)|сид-фраз\p{L}*|seed-фраз\p{L}*|мнемоническ\p{L}* фраз\p{L}*|фраз\p{L}* восстановления|助记词|助記詞|恢复短语|シードフレーズ|リカバリーフレーズ)(?!\p{L})/giu;

interface Word {
  readonly start: number;
  readonly end: number;
  readonly word: string;
}

/** Maximal runs of words in `set`, joined only by `gap` separators. */
function runs(text: string, words: readonly Word[], set: ReadonlySet<string>, gap: RegExp): Word[][] {
  const out: Word[][] = [];
  let cur: Word[] = [];
  for (const w of words) {
    const listed = set.has(w.word);
    const prev = cur[cur.length - 1];
    if (listed && prev && gap.test(text.slice(prev.end, w.start))) cur.push(w);
    else {
      if (cur.length > 0) out.push(cur);
      cur = listed ? [w] : [];
    }
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

const span = (run: readonly Word[]): Range => [run[0]!.start, run[run.length - 1]!.end];

export function seedPhraseRanges(text: string): Range[] {
  const words: Word[] = [];
  for (const m of text.matchAll(WORD)) {
    words.push({ start: m.index, end: m.index + m[0].length, word: m[0].normalize('NFC').toLowerCase() });
  }
  const out: Range[] = [];
  for (const run of runs(text, words, ENGLISH, BARE_GAP)) {
    if (!PHRASE_LENGTHS.has(run.length)) continue;
    if (validateMnemonic(run.map((w) => w.word).join(' '), english)) out.push(span(run));
  }
  let labels = 0;
  for (const m of text.matchAll(LABEL)) {
    if (++labels > MAX_LABELS) break;
    const after = m.index + m[0].length;
    const from = words.findIndex((w) => w.start >= after);
    if (from < 0 || words[from]!.start > after + LEAD_IN) continue;
    // The phrase starts at some word of the lead-in: the first long enough run from there.
    for (const run of runs(text, words.slice(from, from + WORDS_AFTER_LABEL), LABELLED, LABELLED_GAP)) {
      if (run[0]!.start > after + LEAD_IN) break;
      if (run.length >= MIN_WORDS) {
        out.push(span(run));
        break;
      }
    }
  }
  return out;
}
