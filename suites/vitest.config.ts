import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import LongestFirst from './longest-first.js';

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
    // Suite files mostly wait (process starts and restarts, lease expiry, trace export):
    // vitest's default, one worker fewer than the cores, ran them one at a time on 2 cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: LongestFirst },
  },
});
