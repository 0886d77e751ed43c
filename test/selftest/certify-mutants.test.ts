/**
 * Every mutant must be rejected by the requirement(s) it breaks: the suites' proof that they
 * can fail. Mutants are discovered from fixtures/mutants/, so a new mutant is tested as soon
 * as it exists; each requirement with a suite must have at least two.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { MutantModule } from '../../fixtures/mutants/define-mutant.js';
import { notRun } from '../../fixtures/scenario/need.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { runCertify } from './run-certify.js';

const dir = path.join(REPO_ROOT, 'fixtures/mutants');
const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'define-mutant.ts');
const mutants: { file: string; mod: MutantModule }[] = [];
for (const f of files) {
  const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as { default?: MutantModule };
  if (mod.default && Array.isArray(mod.default.breaks)) mutants.push({ file: path.join(dir, f), mod: mod.default });
}
const suites = new Set(
  readdirSync(path.join(REPO_ROOT, 'suites'))
    .map((f) => /^r(\d{2})-.*\.spec\.ts$/.exec(f)?.[1])
    .filter((x): x is string => Boolean(x))
    .map((n) => `R${n}`),
);

/** A verdict reason that says the kit, not the target, lacked something (see fixtures/scenario/need.ts). */
const KIT_SERVICE_MISSING = /Toxiproxy not available|linearizability checker/;

describe('self-test: mutants', () => {
  it('every requirement with a suite has at least two mutants', () => {
    for (const id of suites) {
      const n = mutants.filter((m) => m.mod.breaks.includes(id as MutantModule['breaks'][number])).length;
      expect({ id, mutants: n >= 2 }).toEqual({ id, mutants: true });
    }
  });

  for (const { file, mod } of mutants) {
    it(`${mod.name} (${mod.bug}) fails ${mod.breaks.join(', ')}`, async (ctx) => {
      const run = await runCertify(['--target', file, '--only', mod.breaks.join(',')]);
      expect(run.verdict, run.output).not.toBeNull();
      for (const id of mod.breaks) {
        const v = run.verdict!.requirements.find((r) => r.id === id);
        // The only clauses that catch this bug need a service this machine lacks (a failure in CI).
        const kitMissing = v?.reasons.find((why) => KIT_SERVICE_MISSING.test(why));
        if (v?.verdict === 'not_run' && kitMissing && v.reasons.every((why) => KIT_SERVICE_MISSING.test(why))) {
          notRun(ctx, kitMissing);
        }
        expect({ id, verdict: v?.verdict }, run.output).toEqual({ id, verdict: 'failed' });
      }
      expect(run.exitCode).toBe(1);
    }, 300_000);
  }
});
