/**
 * A failure's replay token reproduces exactly that failure, and only its clause: run a mutant,
 * take the token of a model-based clause (fc.commands needs its own replay path) and of a
 * plain property, replay each, and compare the shrunk counterexamples.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ClauseResult } from '../../cli/certify/verdict.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { runCertify } from '../selftest/run-certify.js';

const MUTANT = path.join(REPO_ROOT, 'fixtures/mutants/selects-newest-pending.ts');
const counterexample = (c: ClauseResult | undefined) => /Counterexample: (.*)/.exec(c?.message ?? '')?.[1];

describe('smtc certify --replay', () => {
  it('reproduces the counterexample of the one clause the token names, and says it was a replay', async () => {
    const first = await runCertify(['--target', MUTANT, '--only', 'R02.2,R02.5']);
    expect(first.exitCode, first.output).toBe(1);
    const failed = first.verdict?.requirements.find((r) => r.id === 'R02')?.clauses ?? [];
    expect(failed.map((c) => c.state)).toEqual(['failed', 'failed']);
    for (const original of failed) {
      expect(original.replayToken, first.output).toBeTruthy();
      expect(first.output).toContain(original.replayToken);
      const replay = await runCertify(['--target', MUTANT, '--replay', original.replayToken ?? '']);
      expect(replay.exitCode, replay.output).toBe(1);
      expect(replay.output).toContain(`REPLAY of ${original.id}`);
      expect(replay.verdict?.replay).toMatchObject({ clause: original.id, seed: original.seed, path: original.path });
      expect(replay.verdict?.selection).toEqual({ kind: 'replay', requirements: ['R02'], clauses: [original.id] });
      const clauses = replay.verdict?.requirements.flatMap((r) => r.clauses) ?? [];
      expect(clauses.map((c) => [c.id, c.state])).toEqual([[original.id, 'failed']]);
      expect(counterexample(clauses[0])).toBe(counterexample(original));
      expect(clauses[0]?.message).not.toMatch(/Unable to replay/);
    }
  }, 600_000);
});
