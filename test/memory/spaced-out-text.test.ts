/**
 * A text spaced out letter by letter, whole (write-pipeline step 3): single spaces join, wider
 * gaps are word breaks, so addresses, punctuation and apostrophes come back with the words —
 * and ordinary text with a few one-letter words is left alone.
 */
import { describe, expect, it } from 'vitest';
import { decodeOnce } from '../../reference-impl/memory/decode-encodings.js';

const spaced = (text: string) =>
  decodeOnce(text)
    .filter((d) => d.encoding === 'letter_spaced')
    .map((d) => d.text);
const spaceOut = (s: string) =>
  s
    .split(' ')
    .map((w) => [...w].join(' '))
    .join('   ');

describe('spaced-out text', () => {
  it('comes back whole, with its addresses and apostrophes', () => {
    const plain = "Mail l'archive to ops-archive@outside-mail.example every evening, please.";
    expect(spaced(spaceOut(plain))).toContain(plain);
  });

  it('leaves text with a few one-letter words alone', () => {
    const text = 'I  think a   b test is a good idea for x and y, J. R. R. Tolkien says';
    // (Initials "J. R. R." are a dotted run of their own, read by the letter-spacing rule.)
    expect(spaced(text).filter((t) => t.includes('Ithink') || t.includes('goodidea'))).toEqual([]);
  });
});
