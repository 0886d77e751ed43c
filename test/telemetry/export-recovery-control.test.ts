/**
 * The outage clauses' recovery check and a health signal that clears only on a fresh export:
 * the control (`fixtures/targets/export-recovery/clears-on-newer-export.ts`) is certified on
 * R10.2 and R10.4. Before the check gave a slow-clearing exporter new spans, it failed both
 * (recovery "not seen", nothing left to export): a kit verdict against a correct design. And on
 * R10.29, which forbids clearing on an older export's late success but never asks for clearing.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { runCertify } from '../selftest/run-certify.js';

const CONTROL = path.join(REPO_ROOT, 'fixtures/targets/export-recovery/clears-on-newer-export.ts');
const CLAUSES = ['R10.2', 'R10.4', 'R10.29'];

describe('R10 recovery and a health signal that waits for a newer export', () => {
  it('certifies the control on the outage clauses and the export-order one', async () => {
    const run = await runCertify(['--target', CONTROL, '--only', CLAUSES.join(',')], 150_000);
    const r10 = run.verdict?.requirements.find((r) => r.id === 'R10');
    expect(r10, run.output).toBeDefined();
    const states = Object.fromEntries(CLAUSES.map((id) => [id, r10!.clauses.find((c) => c.id === id)?.state]));
    expect(states, run.output).toEqual({ 'R10.2': 'passed', 'R10.4': 'passed', 'R10.29': 'passed' });
  }, 180_000);
});
