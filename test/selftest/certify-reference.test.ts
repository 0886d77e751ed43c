/**
 * The reference must pass every requirement that has a suite; requirements without a suite
 * in this build must say so (not run), never pass.
 *
 * Here: the reference in-process. Served as processes it is certified twice elsewhere, not
 * repeated here: as the default target by the README's main job (`npx smtc certify`, which
 * .ci/run runs with --strict after `npm test`: anything not run fails CI), and as a running
 * service by URL and manifest (certify-static-service.test.ts).
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { expectCertifiedExcept } from './expect-certified.js';
import { runCertify } from './run-certify.js';

/**
 * In-process, the reference cannot be SIGKILLed without killing the kit, and has no worker →
 * control-plane link to cut: scenarios needing process or network faults are "not run" there
 * (and Toxiproxy ones where it is missing) — they must pass where the reference runs as
 * processes (the CLI's default target, and the running service).
 */
const EXPECTED_NOT_RUN_IN_PROCESS = [
  /does not declare capability "(processFaults|networkFaults)"/,
  /Toxiproxy not available/,
];

describe('self-test: the reference implementation', () => {
  it('in-process: certified on every requirement with a suite, but for its process-fault scenarios', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'smtc-selftest-'));
    expectCertifiedExcept(
      await runCertify(['--target', 'reference-impl/module-target.ts'], 900_000, out),
      EXPECTED_NOT_RUN_IN_PROCESS,
    );
    // What the suites write for auditors reaches the report directory and report.html.
    for (const file of ['canary-report.json', 'corpus-report.json']) {
      expect(existsSync(path.join(out, file)), file).toBe(true);
    }
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('<h2>Memory corpus memory-corpus/v4');
  }, 900_000);

  it('rejects a target path that does not exist, clearly and fast', async () => {
    const run = await runCertify(['--target', 'no/such/target.ts'], 60_000);
    expect(run.exitCode).toBe(2);
    expect(run.output).toMatch(/target module not found/);
    expect(existsSync(path.join(REPO_ROOT, 'no'))).toBe(false);
  }, 60_000);
});
