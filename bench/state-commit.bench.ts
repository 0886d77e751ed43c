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
import { openThread } from '../fixtures/scenario/thread-session.js';
import { DEFAULT_TARGET, loadTargetModule } from '../fixtures/targets/load-target.js';
import { PAYLOAD_BYTES, protocol, rawSqliteUpsert, threadWithHistory } from './commit-cycle.js';

const OPS = Number(process.env.BENCH_OPS ?? 1000);
const ROUNDS = 5;
const LONG_HISTORY = 10_000;
const MODEL_CASES = Number(process.env.BENCH_MODEL_CASES ?? 200);

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
      raw = Math.min(raw, rawSqliteUpsert(dir, round, OPS));
      proto = Math.min(proto, await protocol(await openThread(target), `fresh-${round}`, OPS));
      // History cases run on their own threads; each round adds OPS commits to both alike.
      at10 = Math.min(at10, await protocol(short, `short-${round}`, OPS));
      at10k = Math.min(at10k, await protocol(long, `long-${round}`, OPS));
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
