/**
 * Thread-state commit cost, measured side by side in one process:
 *  1. the commit protocol (load head + write pending + commit head, through the module
 *     target's facade) against one raw SQLite upsert of the same payload, both on files
 *     opened with the reference's pragmas (WAL, synchronous=FULL);
 *  2. the same cycle on a thread with 10 and with 10,000 prior commits (should be ~1x);
 *  3. fast-check cases/s of the R02 model run against the module target.
 * Best of ROUNDS interleaved rounds, so machine load drifts over every case alike.
 *
 *   node --import tsx bench/state-commit.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { Target } from '../contract/target.js';
import { commandArbs, otherBindings, threadStateSetup } from '../fixtures/models/thread-state-commands.js';
import { CODEC, lease, openThread, payload, type ThreadSession } from '../fixtures/scenario/thread-session.js';
import { DEFAULT_TARGET, loadTargetModule } from '../fixtures/targets/load-target.js';
import { openSqlite } from '../reference-impl/platform/sqlite.js';

const PAYLOAD_BYTES = 1024;
const OPS = Number(process.env.BENCH_OPS ?? 1000);
const ROUNDS = 5;
const LONG_HISTORY = 10_000;
const MODEL_CASES = Number(process.env.BENCH_MODEL_CASES ?? 200);

const bytes = Uint8Array.from({ length: PAYLOAD_BYTES }, (_, i) => (i * 31) % 256);

/** µs per raw upsert: one autocommit INSERT … ON CONFLICT of the payload under a fresh key. */
function rawUpsert(dir: string, round: number): number {
  const db = openSqlite(path.join(dir, `raw-${round}.sqlite`));
  db.exec('CREATE TABLE kv (k TEXT PRIMARY KEY, v BLOB NOT NULL)');
  const upsert = db.prepare('INSERT INTO kv (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v');
  const buf = Buffer.from(bytes);
  const started = performance.now();
  for (let i = 0; i < OPS; i++) upsert.run(`key-${i}`, buf);
  const us = ((performance.now() - started) * 1000) / OPS;
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
async function protocol(th: ThreadSession, tag: string, ops = OPS): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < ops; i++) await cycle(th, `${tag}-${i}`);
  return ((performance.now() - started) * 1000) / ops;
}

async function threadWithHistory(target: Target, commits: number): Promise<ThreadSession> {
  const th = await openThread(target);
  for (let i = 0; i < commits; i++) await cycle(th, `history-${i}`);
  return lease(target, th.owner, th.bindingId);
}

/** R02's command mix and model, as the suite runs it; returns cases/s and commands/s. */
async function modelRate(target: Target): Promise<{ cases: number; commands: number }> {
  const other = await otherBindings(target);
  const a = commandArbs;
  const cmds = fc.commands(
    [a.load, a.write, a.write, a.commit, a.commit, a.commit, a.clear, a.acquire, a.markUncertain, a.mutatedScope],
    { maxCommands: 40, size: 'medium' },
  );
  let commands = 0;
  const started = performance.now();
  await fc.assert(
    fc.asyncProperty(cmds, async (c) => {
      await fc.asyncModelRun(threadStateSetup(target, other), c);
      commands += [...c].length;
    }),
    { numRuns: MODEL_CASES },
  );
  const seconds = (performance.now() - started) / 1000;
  return { cases: MODEL_CASES / seconds, commands: commands / seconds };
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-bench-state-'));
  const mod = await loadTargetModule(DEFAULT_TARGET);
  // Bounds out of the way: this measures the protocol, not the rate limiter.
  const target = await mod.create({
    tempDir: dir,
    options: { stateLimits: { maxWritesPerSecond: 1_000_000_000, maxPendingEntries: 1_000_000 } },
  });
  try {
    console.log(
      `state commit: ${PAYLOAD_BYTES}-byte payload, ${OPS} ops per case, best of ${ROUNDS} interleaved rounds (Node ${process.version})`,
    );
    const short = await threadWithHistory(target, 10);
    const long = await threadWithHistory(target, LONG_HISTORY);
    await protocol(short, 'warmup', 200);
    let raw = Number.POSITIVE_INFINITY;
    let proto = Number.POSITIVE_INFINITY;
    let at10 = Number.POSITIVE_INFINITY;
    let at10k = Number.POSITIVE_INFINITY;
    for (let round = 0; round < ROUNDS; round++) {
      raw = Math.min(raw, rawUpsert(dir, round));
      proto = Math.min(proto, await protocol(await openThread(target), `fresh-${round}`));
      // History cases run on their own threads; each round adds OPS commits to both alike.
      at10 = Math.min(at10, await protocol(short, `short-${round}`));
      at10k = Math.min(at10k, await protocol(long, `long-${round}`));
    }
    const model = await modelRate(target);
    const rows: [string, string][] = [
      ['raw SQLite upsert', `${raw.toFixed(1)} µs/op`],
      ['commit protocol (load + write + commit)', `${proto.toFixed(1)} µs/cycle`],
      ['  ratio protocol / raw upsert', `${(proto / raw).toFixed(1)}x`],
      ['commit cycle, 10 prior commits', `${at10.toFixed(1)} µs/cycle`],
      [`commit cycle, ${LONG_HISTORY.toLocaleString('en-US')} prior commits`, `${at10k.toFixed(1)} µs/cycle`],
      ['  ratio long / short history', `${(at10k / at10).toFixed(2)}x`],
      ['R02 model, module target', `${model.cases.toFixed(0)} cases/s (${model.commands.toFixed(0)} commands/s)`],
    ];
    for (const [k, v] of rows) console.log(`  ${k.padEnd(44)} ${v}`);
  } finally {
    await mod.destroy?.(target);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
