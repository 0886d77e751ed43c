/**
 * Every mutant must be rejected by the requirement(s) it breaks: the suites' proof that they
 * can fail. Mutants are discovered from fixtures/mutants/, so a new mutant is tested as soon
 * as it exists; each requirement with a suite must have at least two. Each mutant is certified
 * on the clauses it declares catch it (`caughtBy`) only, one certification at a time, longest
 * first: each of those clauses must fail, and so each requirement it breaks. The certifications
 * run the CLI's certify path in long-lived processes (certify-batch.ts): the CLI's own start-up
 * is tested by test/cli/, and paid here once per worker instead of once per mutant.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { MutantModule } from '../../fixtures/mutants/define-mutant.js';
import { notRun } from '../../fixtures/scenario/need.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { expectedSeconds } from '../../suites/longest-first.js';
import { certifyInBatch } from './certify-batch.js';

const dir = path.join(REPO_ROOT, 'fixtures/mutants');
const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'define-mutant.ts');
const mutants: { file: string; mod: MutantModule }[] = [];
for (const f of files) {
  const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as { default?: MutantModule };
  if (mod.default && Array.isArray(mod.default.breaks)) mutants.push({ file: path.join(dir, f), mod: mod.default });
}
const suiteFiles = readdirSync(path.join(REPO_ROOT, 'suites')).filter((f) => /^r\d{2}-.*\.spec\.ts$/.test(f));
const suites = new Set(suiteFiles.map((f) => `R${f.slice(1, 3)}`));

/** The measured wall time of the suite files a mutant's certification runs (longest first). */
const weight = (m: MutantModule) =>
  suiteFiles
    .filter((f) => m.breaks.some((id) => f.startsWith(`r${id.slice(1)}-`)))
    .reduce((a, f) => a + expectedSeconds(f), 0);
mutants.sort((a, b) => weight(b.mod) - weight(a.mod) || a.mod.name.localeCompare(b.mod.name));

/**
 * Certifications at once (SMTC_MUTANTS_AT_ONCE, default 2): each is a certify run of the clauses
 * that catch one mutant, with its target's server and worker processes. Most of a mutant's
 * certification waits (a lease to expire, a hung call to time out, a trace to complete), so two
 * at once on a 2-core machine took 562 s of wall and 737 s of CPU for 160 mutants (2026-12-05),
 * where one at a time had taken 1,600 s in CI. A catching clause that times out under contention
 * fails, which is what the test asks of a mutant anyway; SMTC_MUTANTS_AT_ONCE=1 runs them alone.
 */
const AT_ONCE = Number(process.env.SMTC_MUTANTS_AT_ONCE) || 2;
/**
 * Bound on one mutant's certification (runCertify kills it then), counted from its slot: a hang
 * bound, not a speed claim. One at a time it was 300 s; the slowest (an R08 mutant whose traces
 * never complete waits 20 s per clause) took 170 s on CI, and shares the cores now.
 */
const PER_MUTANT_MS = 480_000;
let free = AT_ONCE;
const waiting: (() => void)[] = [];
async function inSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (free > 0) free--;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else free++;
  }
}

/** A verdict reason that says the kit, not the target, lacked something (see fixtures/scenario/need.ts). */
const KIT_SERVICE_MISSING = /Toxiproxy not available|linearizability checker/;

describe('self-test: mutants', () => {
  it('every mutant names at least one catching clause of each requirement it breaks, and no other', () => {
    for (const { mod } of mutants) {
      const caught = new Set(mod.caughtBy.map((c) => c.slice(0, 3)));
      expect({ mutant: mod.name, requirements: [...caught].sort() }).toEqual({
        mutant: mod.name,
        requirements: [...mod.breaks].sort(),
      });
    }
  });

  it('every requirement with a suite has at least two mutants', () => {
    for (const id of suites) {
      const n = mutants.filter((m) => m.mod.breaks.includes(id as MutantModule['breaks'][number])).length;
      expect({ id, mutants: n >= 2 }).toEqual({ id, mutants: true });
    }
  });

  for (const { file, mod } of mutants) {
    it.concurrent(
      `${mod.name} (${mod.bug}) fails ${mod.breaks.join(', ')}`,
      async (ctx) => {
        // Concurrent tests assert through their own context's expect.
        const { expect } = ctx;
        const run = await inSlot(() => certifyInBatch(file, mod.caughtBy.join(','), PER_MUTANT_MS));
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
        const failed = run.verdict!.requirements.flatMap((r) => r.clauses.filter((c) => c.state === 'failed'));
        for (const id of mod.caughtBy) {
          expect({ clause: id, failed: failed.some((c) => c.id === id) }, run.output).toEqual({
            clause: id,
            failed: true,
          });
        }
        expect(run.exitCode).toBe(1);
      },
      // A test may wait for its slot behind every other mutant; each certification's own bound is PER_MUTANT_MS.
      PER_MUTANT_MS * Math.ceil(mutants.length / AT_ONCE),
    );
  }
});
