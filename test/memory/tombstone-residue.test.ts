/**
 * A tombstoned body leaves the database file, at any table shape SQLite's b-tree takes (R07.19
 * at the storage layer, over thousands of writes rather than the clause's handful). The first
 * case is the control that shows the probe can fail: the same workload in a WITHOUT ROWID
 * table — an index b-tree, whose rebalancing leaves stray copies of whole rows that
 * secure_delete never zeroes — leaves bodies behind. The reference once kept its bodies in
 * such a table (seeds 1–3 each left bodies in it), and a CI certification failed R07.19 on it.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { rng } from '../../fixtures/corpora/seeded-random.js';
import { MemoryStore } from '../../reference-impl/memory/sqlite-memory-store.js';
import { liveRecord } from './live-record.js';
import { memoryContext, type TestContext } from './memory-context.js';

let ctx: TestContext | undefined;
afterEach(() => ctx?.dispose());

interface Workload {
  put(namespace: string, key: string, content: string): void;
  tombstone(namespace: string, key: string): void;
  checkpoint(): void;
}

/** Writes of varied size over many namespaces, three in ten tombstoned at random: the bodies removed. */
function churn(w: Workload, seed: number, writes: number): string[] {
  const rnd = rng(seed);
  const word = () => `W${Math.floor(rnd() * 2 ** 52).toString(36)}${Math.floor(rnd() * 2 ** 52).toString(36)}`;
  const live: Array<{ namespace: string; key: string; word: string }> = [];
  const removed: string[] = [];
  for (let i = 0; i < writes; i++) {
    const r = { namespace: `ns${i % 37}`, key: `k${Math.floor(rnd() * 1e9)}`, word: word() };
    w.put(r.namespace, r.key, `${r.word} ${'x'.repeat(Math.floor(rnd() * 600))}`);
    live.push(r);
    if (rnd() < 0.3) {
      const [gone] = live.splice(Math.floor(rnd() * live.length), 1);
      w.tombstone(gone!.namespace, gone!.key);
      removed.push(gone!.word);
      w.checkpoint();
    }
  }
  w.checkpoint();
  return removed;
}

/** Seeds 1, 2 and 3 each left bodies behind in the reference's earlier WITHOUT ROWID table. */
const SEEDS = [1, 2, 3];
const WRITES = 3000;

function residue(file: string, words: readonly string[]): string[] {
  const bytes = readFileSync(file);
  return words.filter((w) => bytes.includes(Buffer.from(w, 'utf8')));
}

describe('tombstoned memory bodies leave the SQLite file', () => {
  it('control: a WITHOUT ROWID table under the same workload keeps some removed bodies in the file', () => {
    ctx = memoryContext();
    const db = ctx.db;
    db.pragma('secure_delete = ON');
    db.exec(
      'CREATE TABLE bodies (namespace TEXT NOT NULL, key TEXT NOT NULL, content TEXT, PRIMARY KEY (namespace, key)) WITHOUT ROWID',
    );
    const put = db.prepare(
      'INSERT INTO bodies VALUES (?, ?, ?) ON CONFLICT (namespace, key) DO UPDATE SET content = excluded.content',
    );
    const tomb = db.prepare('UPDATE bodies SET content = NULL WHERE namespace = ? AND key = ?');
    const removed = churn(
      {
        put: (n, k, c) => put.run(n, k, c),
        tombstone: (n, k) => tomb.run(n, k),
        checkpoint: () => db.pragma('wal_checkpoint(TRUNCATE)'),
      },
      SEEDS[0]!,
      WRITES,
    );
    expect(residue(db.name, removed).length, `seed ${SEEDS[0]}, ${WRITES} writes`).toBeGreaterThan(0);
  });

  it.each(SEEDS)('the reference store keeps none of them (seed %i)', (seed) => {
    ctx = memoryContext();
    const store = new MemoryStore(ctx.db);
    const at = new Date(0).toISOString();
    const removed = churn(
      {
        put: (n, k, c) => store.put(liveRecord(n, k, c)),
        tombstone: (n, k) => store.tombstone(n, k, 'system', at),
        checkpoint: () => store.checkpoint(),
      },
      seed,
      WRITES,
    );
    expect(removed.length).toBeGreaterThan(500);
    expect(residue(store.file, removed), `seed ${seed}, ${WRITES} writes`).toEqual([]);
  });
});
