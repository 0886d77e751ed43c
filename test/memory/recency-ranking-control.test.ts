/**
 * The kit's ranking clauses accept a ranking that weighs recency (the contract fixes no scoring
 * function; R07.6 has to let time pass to expire a record): the recency-weighted control is
 * certified on R07.6 and R07.8, and the same aging over an index that keeps deleted records in
 * its statistics still fails both.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { runCertify } from '../selftest/run-certify.js';

const DIR = path.join(REPO_ROOT, 'fixtures/targets/recency-ranking');
const CLAUSES = ['R07.6', 'R07.8'];

async function states(file: string) {
  const run = await runCertify(['--target', path.join(DIR, file), '--only', CLAUSES.join(',')], 120_000);
  const r07 = run.verdict?.requirements.find((r) => r.id === 'R07');
  expect(r07, run.output).toBeDefined();
  return {
    states: Object.fromEntries(CLAUSES.map((id) => [id, r07!.clauses.find((c) => c.id === id)?.state])),
    output: run.output,
  };
}

describe('R07 ranking clauses and a recency-weighted ranking', () => {
  it('certify a correct broker whose scores age', async () => {
    const { states: s, output } = await states('recency-ranking-target.ts');
    expect(s, output).toEqual({ 'R07.6': 'passed', 'R07.8': 'passed' });
  }, 150_000);

  it('still fail an aging broker that keeps deleted records in its statistics', async () => {
    const { states: s, output } = await states('recency-over-kept-statistics.ts');
    expect(s, output).toEqual({ 'R07.6': 'failed', 'R07.8': 'failed' });
  }, 150_000);
});
