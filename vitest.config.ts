import { defineConfig } from 'vitest/config';

// The kit's own tests (`npm test`): unit tests of every part, and the self-test that
// certifies the reference (must pass) and every mutant (must fail its requirement).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globals: true,
  },
});
