import { accessSync, constants } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import LongestFirst from './longest-first.js';

/**
 * vitest fails a module whose cached transform it cannot write, so the cache is used only where
 * node_modules is writable (a read-only install runs without it); SMTC_TRANSFORM_CACHE=0 turns
 * it off.
 */
function transformCacheWritable(): boolean {
  if (process.env.SMTC_TRANSFORM_CACHE === '0') return false;
  try {
    accessSync(fileURLToPath(new URL('../node_modules', import.meta.url)), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

// The certification suites, one file per requirement. `smtc certify` runs this config
// through vitest's Node API with SMTC_TARGET pointing at the target under test.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['suites/r*.spec.ts'],
    // Builds the linearizability checker (tools/history-check) on first use, once per run.
    globalSetup: ['fixtures/history/build-checker-once.ts'],
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 60_000,
    globals: true,
    // Requirement files create their own target; run them in separate processes.
    fileParallelism: true,
    // Two files at once on 2 cores, one fewer than the cores beyond that. Most of a file's time
    // waits (leases expiring, kills, held calls, outages): on an otherwise idle 2-core machine
    // the served reference was certified in 216–219 s with two files at once (1.4 cores busy)
    // against 351 s one at a time (0.84), every clause passing in each of four runs (2026-12-05). An
    // overloaded machine can still push the timing-sensitive fault clauses past their bounds:
    // SMTC_SUITE_WORKERS=1 runs one file at a time.
    maxWorkers:
      Number(process.env.SMTC_SUITE_WORKERS) ||
      Math.max(Math.min(availableParallelism(), 2), availableParallelism() - 1),
    sequence: { sequencer: LongestFirst },
    // Every certification is a new vitest process that would transform the same few hundred
    // modules (suites, fixtures, contract, a module target's code) again: keep the transforms
    // on disk (under node_modules), keyed by each file's content — where it can be written.
    experimental: { fsModuleCache: transformCacheWritable() },
  },
});
