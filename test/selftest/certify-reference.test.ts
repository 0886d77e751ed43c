/**
 * The reference must pass every requirement that has a suite; requirements without a suite
 * in this build must say so (not run), never pass.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { runCertify } from './run-certify.js';

const built = new Set(
  readdirSync(path.join(REPO_ROOT, 'suites'))
    .map((f) => /^r(\d{2})-.*\.spec\.ts$/.exec(f)?.[1])
    .filter((x): x is string => Boolean(x))
    .map((n) => `R${n}`),
);

describe('self-test: the reference implementation', () => {
  it('is certified on every requirement that has a suite, and "not run" on the rest', async () => {
    const run = await runCertify([], 900_000);
    expect(run.verdict, run.output).not.toBeNull();
    for (const r of run.verdict!.requirements) {
      if (built.has(r.id))
        expect({ id: r.id, verdict: r.verdict, reasons: r.reasons }).toEqual({
          id: r.id,
          verdict: 'certified',
          reasons: [],
        });
      else expect(r.verdict).toBe('not_run');
    }
    expect(run.exitCode, run.output).toBe(0);
  }, 900_000);

  it('rejects a target path that does not exist, clearly and fast', async () => {
    const run = await runCertify(['--target', 'no/such/target.ts'], 60_000);
    expect(run.exitCode).toBe(2);
    expect(run.output).toMatch(/target module not found/);
    expect(existsSync(path.join(REPO_ROOT, 'no'))).toBe(false);
  }, 60_000);
});
