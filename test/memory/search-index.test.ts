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
