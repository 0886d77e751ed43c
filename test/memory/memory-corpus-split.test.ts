/**
 * The memory corpus's split is by seed (issue 8; v3, kept by v4): no seed text — nor any
 * encoding or framing of it — is in both the development and the sealed test split, so tuning on
 * dev says something about texts not seen; every family with enough seeds is in both splits; the
 * split keeps about 70/30 and is a function of the seed ids alone — v3's seeds split among
 * themselves as in v3, v4's added seeds among themselves.
 */
import { describe, expect, it } from 'vitest';
import { attackSeeds, LANGUAGES } from '../../fixtures/corpora/attack-seeds.js';
import { benignSeeds } from '../../fixtures/corpora/benign-seeds.js';
import { memoryCorpusEntries } from '../../fixtures/corpora/memory-corpus.v2.js';
import { memoryCorpusV3, seedSplits } from '../../fixtures/corpora/memory-corpus.v3.js';
import {
  type MemoryCorpusEntry,
  memoryCorpusV4,
  memoryCorpusV4Additions,
} from '../../fixtures/corpora/memory-corpus.v4.js';
import { secretWordBenignSeeds } from '../../fixtures/corpora/secret-word-benign-seeds.js';

const corpus = memoryCorpusV4();
const KINDS = ['attack', 'benign', 'secret'] as const;
/** The families R07 reports rates for (corpus-rates.ts), per kind. */
const DIMENSIONS = {
  attack: ['language', 'encoding', 'framing', 'seeks'],
  benign: ['language', 'encoding', 'framing'],
  secret: ['provider', 'language', 'framing'],
} as const satisfies Record<(typeof KINDS)[number], readonly (keyof MemoryCorpusEntry)[]>;
/** A family with at least this many seeds must be in both splits. */
const MIN_SEEDS = 2;

const splitsOfSeed = (): Map<string, Set<string>> => {
  const m = new Map<string, Set<string>>();
  for (const e of corpus) m.set(e.seed, (m.get(e.seed) ?? new Set()).add(e.split));
  return m;
};

describe('memory corpus v4: split by seed', () => {
  it('puts no seed in both splits', () => {
    const both = [...splitsOfSeed()].filter(([, s]) => s.size > 1).map(([seed]) => seed);
    expect(both).toEqual([]);
  });

  it('puts no seed text in both splits, whatever its id: attack and benign seed texts, secret values', () => {
    // The seed ids could be wrong; the texts cannot. A seed's text (as written, or as a JSON
    // string) must occur in no entry of the other split; a secret value likewise.
    const sides = new Map<string, Set<string>>();
    for (const e of corpus) sides.set(e.seed, (sides.get(e.seed) ?? new Set()).add(e.split));
    const texts: [seed: string, text: string][] = LANGUAGES.flatMap((language) => [
      ...attackSeeds(language).map(
        (s) => [`atk/${language}/${s.seeks}${s.paraphrase ? '-para' : ''}`, s.text] as const,
      ),
      ...benignSeeds(language).map((s) => [`ben/${language}/${s.topic}`, s.text] as const),
      ...secretWordBenignSeeds(language).map((s) => [`ben/${language}/${s.topic}`, s.text] as const),
    ]) as [string, string][];
    expect(texts.length).toBe(108 + 96 + 49);
    for (const split of ['dev', 'test'] as const) {
      const other = corpus
        .filter((e) => e.split !== split)
        .map((e) => e.proposal.content)
        .join('\n\u0000');
      for (const [seed, text] of texts) {
        expect(sides.get(seed), seed).toBeDefined();
        if (!sides.get(seed)?.has(split)) continue;
        expect(other.includes(text), `${seed} (${split}) in the other split`).toBe(false);
        expect(other.includes(JSON.stringify(text).slice(1, -1)), `${seed} (${split}) as JSON`).toBe(false);
      }
      // Random values only: a provider's fixed fragments (a two-digit data-centre suffix) recur.
      const secretParts = new Set(
        corpus.filter((e) => e.split === split).flatMap((e) => (e.secretParts ?? []).filter((p) => p.length >= 8)),
      );
      for (const part of secretParts) expect(other.includes(part), `secret of ${split} in the other`).toBe(false);
    }
  });

  it(`keeps every family with ≥ ${MIN_SEEDS} seeds in both splits (language, encoding, framing, seeks, provider)`, () => {
    const oneSided: string[] = [];
    const tooFew: string[] = [];
    for (const kind of KINDS) {
      for (const dimension of DIMENSIONS[kind]) {
        const families = new Map<string, MemoryCorpusEntry[]>();
        for (const e of corpus.filter((x) => x.kind === kind)) {
          const f = String(e[dimension]);
          families.set(f, [...(families.get(f) ?? []), e]);
        }
        for (const [family, es] of families) {
          if (new Set(es.map((e) => e.seed)).size < MIN_SEEDS) {
            tooFew.push(`${kind} ${dimension} ${family}`);
            continue;
          }
          for (const split of ['dev', 'test'] as const)
            if (!es.some((e) => e.split === split)) oneSided.push(`${kind} ${dimension} ${family}: none in ${split}`);
        }
      }
    }
    expect(oneSided).toEqual([]);
    // The one family that cannot be divided, as memory-corpus.v3.ts says: a single password
    // template in language `mixed`.
    expect(tooFew).toEqual(['secret language mixed']);
  });

  it('keeps about 70/30 of entries and of seeds, per kind', () => {
    const share = (xs: readonly MemoryCorpusEntry[]) => xs.filter((e) => e.split === 'test').length / xs.length;
    expect(share(corpus)).toBeGreaterThan(0.25);
    expect(share(corpus)).toBeLessThan(0.35);
    const seeds = splitsOfSeed();
    for (const kind of KINDS) {
      const ofKind = corpus.filter((e) => e.kind === kind);
      expect(share(ofKind), kind).toBeGreaterThan(0.22);
      expect(share(ofKind), kind).toBeLessThan(0.38);
      const kindSeeds = [...new Set(ofKind.map((e) => e.seed))];
      const testSeeds = kindSeeds.filter((s) => seeds.get(s)?.has('test')).length / kindSeeds.length;
      expect(testSeeds, kind).toBeGreaterThan(0.22);
      expect(testSeeds, kind).toBeLessThan(0.38);
    }
  });

  it('keeps every v3 entry in its v3 split: nothing tuned on v3 dev is sealed, nothing sealed is unsealed', () => {
    const v3 = new Map(memoryCorpusV3().map((e) => [e.id, e.split]));
    const moved = corpus.filter((e) => v3.has(e.id) && v3.get(e.id) !== e.split).map((e) => e.id);
    expect(moved).toEqual([]);
  });

  it('is a function of the seed ids alone: stable under reordering, and an added seed moves at most one other', () => {
    const entries = memoryCorpusEntries();
    const base = seedSplits(entries);
    const reversed = seedSplits([...entries].reverse());
    expect([...reversed].sort()).toEqual([...base].sort());
    const additions = seedSplits(memoryCorpusV4Additions());
    expect([...seedSplits([...memoryCorpusV4Additions()].reverse())].sort()).toEqual([...additions].sort());
    for (const e of corpus) expect(base.get(e.seed) ?? additions.get(e.seed), e.id).toBe(e.split);
    // A new attack seed in German: only the German stratum may change, and by at most one seed.
    const donor = entries.find((e) => e.kind === 'attack' && e.language === 'de')!;
    const added = seedSplits([...entries, { ...donor, id: 'atk/de/new', seed: 'atk/de/new-seed' }]);
    const moved = [...base].filter(([seed, split]) => added.get(seed) !== split).map(([seed]) => seed);
    expect(moved.length).toBeLessThanOrEqual(1);
    for (const seed of moved) expect(seed.startsWith('atk/de/')).toBe(true);
  });
});
