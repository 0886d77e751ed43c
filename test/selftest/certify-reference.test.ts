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

/**
 * In-process, the reference cannot be SIGKILLed without killing the kit: scenarios needing
 * process faults are "not run" there (and Toxiproxy ones where it is missing) — they must pass
 * over HTTP, where the reference runs as processes.
 */
const EXPECTED_NOT_RUN_IN_PROCESS = [/does not declare capability "processFaults"/, /Toxiproxy not available/];
/** The requirements with process-fault scenarios, certified against the reference served as processes. */
const PROCESS_FAULT_REQUIREMENTS = ['R01', 'R03', 'R04'];

describe('self-test: the reference implementation', () => {
  it('is certified on every requirement that has a suite, and "not run" on the rest', async () => {
    const run = await runCertify([], 900_000);
    expect(run.verdict, run.output).not.toBeNull();
    for (const r of run.verdict!.requirements) {
      const onlyProcessFaults =
        r.verdict === 'not_run' &&
        r.reasons.length > 0 &&
        r.reasons.every((why) => EXPECTED_NOT_RUN_IN_PROCESS.some((re) => re.test(why)));
      if (built.has(r.id) && !onlyProcessFaults)
        expect({ id: r.id, verdict: r.verdict, reasons: r.reasons }).toEqual({
          id: r.id,
          verdict: 'certified',
          reasons: [],
        });
      else expect(r.verdict).toBe('not_run');
    }
    expect(run.exitCode, run.output).toBe(0);
  }, 900_000);

  it('served as processes, is certified on the requirements with process-fault scenarios', async () => {
    const only = PROCESS_FAULT_REQUIREMENTS.filter((id) => built.has(id));
    const run = await runCertify(
      ['--target', 'reference-impl/http-module-target.ts', '--only', only.join(',')],
      900_000,
    );
    expect(run.verdict, run.output).not.toBeNull();
    for (const id of only) {
      const r = run.verdict!.requirements.find((x) => x.id === id)!;
      expect({ id, verdict: r.verdict, reasons: r.reasons }).toEqual({ id, verdict: 'certified', reasons: [] });
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
