import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { areaFromEnv } from './areas.mjs';

// The test command of one mutation area (SMTC_MUTATION_AREA; see areas.mjs): the area's unit
// tests and its certification suites against the in-process reference. Stryker's vitest runner
// overrides the pool (one thread) and adds its coverage/activation setup file.
const area = areaFromEnv();

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: area.tests,
    globalSetup: ['fixtures/history/build-checker-once.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    globals: true,
    env: {
      // Explicitly the in-process reference (resolved in Stryker's sandbox, where the mutant is).
      SMTC_TARGET: 'reference-impl/module-target.ts',
      SMTC_MANIFEST: '',
    },
  },
});
