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
    // One worker fewer than the cores (vitest's default): on 2 cores one file at a time. Two at
    // once was measured only on an overloaded machine, where scenarios hit their timeouts; the
    // timing-sensitive fault clauses (lease expiry, kills mid-write) are not yet shown to hold
    // beside another file. SMTC_SUITE_WORKERS raises it where that has been shown.
    maxWorkers: Number(process.env.SMTC_SUITE_WORKERS) || Math.max(1, availableParallelism() - 1),
    sequence: { sequencer: LongestFirst },
    // Every certification is a new vitest process that would transform the same few hundred
    // modules (suites, fixtures, contract, a module target's code) again: keep the transforms
    // on disk (under node_modules), keyed by each file's content — where it can be written.
    experimental: { fsModuleCache: transformCacheWritable() },
  },
});
