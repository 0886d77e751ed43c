import { describe, expect, it } from 'vitest';
import { SearchIndexes } from '../../reference-impl/memory/search-index.js';
import type { LiveRecord } from '../../reference-impl/memory/stored-record.js';
import { liveRecord } from './live-record.js';

const rec = liveRecord;

describe('per-namespace search indexes', () => {
  it("one namespace's records never change another's scores", () => {
    const store = new Map<string, LiveRecord[]>([
      ['A', [rec('A', 'a1', 'apples and pears'), rec('A', 'a2', 'pears only')]],
      ['B', []],
    ]);
    const idx = new SearchIndexes((ns) => store.get(ns) ?? [], 8);
    const before = idx.search('A', 'pears apples');
    for (let i = 0; i < 500; i++) {
      const r = rec('B', `b${i}`, 'pears pears apples apples');
      store.get('B')!.push(r); // committed to the store, then the cached index follows
      idx.upsert('B', r);
    }
    expect(idx.search('A', 'pears apples')).toEqual(before);
    expect(idx.search('B', 'pears').length).toBe(500);
  });

  it('removing a record restores the exact statistics, and a rebuilt index ranks like the live one', () => {
    const records = [rec('A', 'a1', 'river house'), rec('A', 'a2', 'river boat trips'), rec('A', 'a3', 'boat')];
    const idx = new SearchIndexes(() => records, 1);
    const before = idx.search('A', 'river boat');
    idx.upsert('A', rec('A', 'tmp', 'river river boat boat'));
    expect(idx.contains('A', 'tmp')).toBe(true);
    idx.remove('A', 'tmp');
    expect(idx.contains('A', 'tmp')).toBe(false);
    expect(idx.search('A', 'river boat')).toEqual(before);
    idx.search('B', 'x'); // evicts A (capacity 1); A is rebuilt from the loader on demand
    const rebuilt = idx.search('A', 'river boat');
    expect(rebuilt.map((h) => h.key)).toEqual(before.map((h) => h.key));
    for (const [i, h] of rebuilt.entries()) expect(h.score).toBeCloseTo(before[i]!.score, 12);
  });
});

describe('the search index as storage inspection and as a bounded cache', () => {
  it('holds a body while it is indexed and lets go of it once removed (the R07.19 probe’s search-index location)', () => {
    const records = [rec('A', 'a1', 'quetzal feathers kept'), rec('A', 'a2', 'plain note')];
    const idx = new SearchIndexes(() => records, 4);
    expect(idx.holdsText('quetzal feathers')).toBe(false); // nothing cached yet: nothing held
    idx.search('A', 'plain');
    expect(idx.holdsText('quetzal feathers')).toBe(true);
    expect(idx.holdsText('quetzal')).toBe(true);
    idx.remove('A', 'a1');
    expect(idx.holdsText('quetzal')).toBe(false);
    expect(idx.holdsText('plain note')).toBe(true);
  });

  it('keeps exactly maxCached namespaces, evicting the least recently used', () => {
    const loads: string[] = [];
    const idx = new SearchIndexes((ns) => {
      loads.push(ns);
      return [rec(ns, 'k', `${ns} words`)];
    }, 2);
    for (const ns of ['A', 'B', 'C']) idx.search(ns, 'words');
    loads.length = 0;
    idx.search('C', 'words');
    idx.search('B', 'words'); // still cached: two namespaces fit
    expect(loads).toEqual([]);
    idx.search('A', 'words'); // evicted when C came in
    expect(loads).toEqual(['A']);
  });

  it('indexes a JSON record by its string values, not its property names, and a key by its words', () => {
    const json = liveRecord('A', 'profile/favourite_colour', '{"shade":"teal","tags":["ocean"]}', {
      contentType: 'application/json',
    });
    const text = rec('A', 'other', 'nothing in common');
    const idx = new SearchIndexes(() => [json, text], 4);
    expect(idx.search('A', 'teal').map((h) => h.key)).toEqual(['profile/favourite_colour']);
    expect(idx.search('A', 'ocean').map((h) => h.key)).toEqual(['profile/favourite_colour']);
    expect(idx.search('A', 'shade')).toEqual([]);
    expect(idx.search('A', 'tags')).toEqual([]);
    expect(idx.search('A', 'favourite').map((h) => h.key)).toEqual(['profile/favourite_colour']);
    expect(idx.search('A', 'colour').map((h) => h.key)).toEqual(['profile/favourite_colour']);
    // Whole words only: no prefix or fuzzy matches.
    expect(idx.search('A', 'tea')).toEqual([]);
    expect(idx.search('A', 'teel')).toEqual([]);
  });
});
