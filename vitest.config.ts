import { configDefaults, defineConfig } from 'vitest/config';

// The kit's own tests (`npm test`): unit tests of every part, and the self-test that
// certifies the reference (must pass) and every mutant (must fail its requirement).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Stryker's sandboxes (npm run mutation) hold a copy of test/: never pick them up.
    exclude: [...configDefaults.exclude, '.stryker-tmp/**'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globals: true,
  },
});
