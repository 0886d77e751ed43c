// StrykerJS over one area of the reference (see areas.mjs); run through `npm run mutation -- <area>`.
import { areaFromEnv } from './areas.mjs';

const area = areaFromEnv();
const reports = `reports/mutation/${area.name}`;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: {
    configFile: 'mutation/vitest.config.ts',
    // The suites reach the reference only by path (SMTC_TARGET), never by import: vitest's
    // import graph cannot tell which tests relate to a mutated file. perTest coverage does.
    related: false,
  },
  coverageAnalysis: 'perTest',
  mutate: area.mutate,
  // Two cores shared with other work: one test runner at a time.
  concurrency: 1,
  // A mutant's budget: its tests' dry-run time × 2 + 30 s (property tests and the history
  // checker vary a lot in time on a loaded machine; a mutant that loops ends as a Timeout).
  timeoutMS: 30_000,
  timeoutFactor: 2,
  incremental: true,
  incrementalFile: `mutation/incremental-${area.name}.json`,
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['reports', 'smtc-report', 'coverage', '.smtc', 'bench/results', '*.sqlite', '*.sqlite-*'],
  reporters: ['clear-text', 'html', 'json', 'progress'],
  htmlReporter: { fileName: `${reports}/index.html` },
  jsonReporter: { fileName: `${reports}/mutation.json` },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  thresholds: { high: 90, low: 80, break: null },
};
