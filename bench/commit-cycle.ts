/**
 * The thread-state commit cycle as the state benchmarks time it, with the raw SQLite upsert
 * they compare it against: one definition, so figures from state-commit and state-mongodb
 * measure the same work on the same payload.
 */
import path from 'node:path';
import type { Target } from '../contract/target.js';
import { CODEC, lease, openThread, payload, type ThreadSession } from '../fixtures/scenario/thread-session.js';
import { openSqlite } from '../reference-impl/platform/sqlite.js';

export const PAYLOAD_BYTES = 1024;

export const bytes = Uint8Array.from({ length: PAYLOAD_BYTES }, (_, i) => (i * 31) % 256);

/**
 * µs per raw upsert: one autocommit INSERT … ON CONFLICT of the payload under a fresh key, on a
 * file opened with the reference's pragmas (WAL, synchronous=FULL).
 */
export function rawSqliteUpsert(dir: string, round: number, ops: number): number {
  const db = openSqlite(path.join(dir, `raw-${round}.sqlite`));
  db.exec('CREATE TABLE kv (k TEXT PRIMARY KEY, v BLOB NOT NULL)');
  const upsert = db.prepare('INSERT INTO kv (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v');
  const buf = Buffer.from(bytes);
  const started = performance.now();
  for (let i = 0; i < ops; i++) upsert.run(`key-${i}`, buf);
  const us = ((performance.now() - started) * 1000) / ops;
  db.close();
  return us;
}

/** One protocol cycle, as a worker runs it: load the head, write pending, commit on its revision. */
async function cycle(th: ThreadSession, key: string): Promise<void> {
  const head = await th.store.load_head(th.scope);
  const ref = await th.store.write_native_state(th.scope, CODEC, payload(bytes), key);
  await th.store.commit_head(th.scope, ref, head?.revision ?? 0, `run-${key}`);
}

/** µs per protocol cycle on a thread. */
export async function protocol(th: ThreadSession, tag: string, ops: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < ops; i++) await cycle(th, `${tag}-${i}`);
  return ((performance.now() - started) * 1000) / ops;
}

export async function threadWithHistory(target: Target, commits: number): Promise<ThreadSession> {
  const th = await openThread(target);
  for (let i = 0; i < commits; i++) await cycle(th, `history-${i}`);
  return lease(target, th.owner, th.bindingId);
}
