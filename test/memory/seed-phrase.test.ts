import { describe, expect, it } from 'vitest';
import { seedPhraseRanges } from '../../reference-impl/memory/seed-phrase.js';

// BIP39 test vectors (checksums hold): 12 and 24 words.
const TWELVE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const TWENTY_FOUR =
  'void come effort suffer camp survey warrior heavy shoot primary clutch crush open amazing screen patrol group space point ten exist slush involve unfold';
const covered = (text: string): string[] => seedPhraseRanges(text).map(([s, e]) => text.slice(s, e));

describe('wallet seed phrases', () => {
  it('finds a bare phrase whose checksum holds, spaced, on lines or numbered', () => {
    expect(covered(`backup: ${TWELVE}`)).toEqual([TWELVE]);
    expect(covered(`x ${TWENTY_FOUR}.`)).toEqual([TWENTY_FOUR]);
    const numbered = TWELVE.split(' ')
      .map((w, i) => `${i + 1}. ${w}`)
      .join('\n');
    expect(covered(numbered)).toEqual([numbered.slice(3)]);
  });

  it('leaves list words whose checksum fails, a list of another length, and commas without a label', () => {
    // The last word changed: the checksum no longer holds.
    expect(covered(TWELVE.replace(/yellow$/, 'zoo'))).toEqual([]);
    expect(covered(TWELVE.split(' ').slice(0, 11).join(' '))).toEqual([]);
    expect(
      covered('Shopping: apple, banana, bread, butter, cheese, coffee, egg, garlic, honey, lemon, milk, onion'),
    ).toEqual([]);
  });

  it('after a seed-phrase label, takes twelve list words in any of six languages, commas allowed, no checksum', () => {
    const typo = TWELVE.replace(/yellow$/, 'zoo')
      .split(' ')
      .join(', ');
    expect(covered(`Seed phrase for the old wallet: ${typo}`)).toEqual([typo]);
    const french = Array(12).fill('abeille').join(' ');
    expect(covered(`Phrase de récupération : ${french}`)).toEqual([french]);
    expect(covered('I wrote my seed phrase on a steel plate and keep it in the safe at home.')).toEqual([]);
  });

  it('stays bounded on many labels and long runs', () => {
    const t0 = performance.now();
    covered('mnemonic '.repeat(8000));
    covered('abandon '.repeat(8000));
    expect(performance.now() - t0).toBeLessThan(2_000);
  });
});
