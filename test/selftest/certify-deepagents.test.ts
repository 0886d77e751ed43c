/**
 * `smtc certify --harness deepagents`, as users run it: every binding of the run is opened with
 * the Deep Agents harness (codec `langgraph-checkpoint/v1`), so the reference's sandbox workers
 * run a real Deep Agents graph. On R01 only (one requirement keeps this near two minutes): the
 * bundled reference (served as processes, the default target) is certified, and a Deep Agents
 * mutant (fixtures/mutants/deepagents/) fails R01 on the clause that catches it. An unknown harness is refused before
 * anything runs.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../cli/certify/exit-codes.js';
import resumesNewest from '../../fixtures/mutants/deepagents/resumes-newest-checkpoint.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { runCertify } from './run-certify.js';

const DEEPAGENTS = ['--harness', 'deepagents', '--only', 'R01'];
const MUTANT = path.join(REPO_ROOT, 'fixtures/mutants/deepagents/resumes-newest-checkpoint.ts');
/** Without Toxiproxy (a machine with Node alone), only its scenarios may be "not run". */
const TOXIPROXY_MISSING = /Toxiproxy not available/;

describe('self-test: certify with the Deep Agents harness', () => {
  it('the reference served as processes is certified on R01', async () => {
    const run = await runCertify(DEEPAGENTS, 300_000);
    expect(run.verdict, run.output).not.toBeNull();
    expect(run.verdict!.harness).toEqual({ id: 'deepagents', codec: 'langgraph-checkpoint/v1' });
    const r01 = run.verdict!.requirements.find((r) => r.id === 'R01');
    expect(
      r01?.clauses.filter((c) => c.state === 'failed').map((c) => c.id),
      run.output,
    ).toEqual([]);
    // Certified; or, on a machine without Toxiproxy, "not run" for that reason alone.
    if (r01?.verdict === 'not_run' && r01.reasons.length > 0 && r01.reasons.every((why) => TOXIPROXY_MISSING.test(why)))
      return;
    expect({ verdict: r01?.verdict, reasons: r01?.reasons }, run.output).toEqual({ verdict: 'certified', reasons: [] });
    expect(run.verdict!.overall).toBe('certified');
    expect(run.exitCode, run.output).toBe(EXIT.ok);
  }, 300_000);

  it(`${resumesNewest.name} (${resumesNewest.bug}) is not certified: it fails R01`, async () => {
    // The clause that catches it, as the mutant self-test runs every mutant.
    const run = await runCertify(
      ['--harness', 'deepagents', '--only', resumesNewest.caughtBy.join(','), '--target', MUTANT],
      180_000,
    );
    expect(run.verdict, run.output).not.toBeNull();
    const r01 = run.verdict!.requirements.find((r) => r.id === 'R01');
    expect({ overall: run.verdict!.overall, R01: r01?.verdict }, run.output).toEqual({
      overall: 'failed',
      R01: 'failed',
    });
    expect(r01!.clauses.filter((c) => c.state === 'failed').map((c) => c.id)).toEqual(['R01.10']);
    expect(run.exitCode).toBe(1);
  }, 180_000);

  it('an unknown harness is refused in one line, exit 2, before anything runs', async () => {
    const run = await runCertify(['--harness', 'langgraph', '--only', 'R01'], 60_000);
    expect(run.exitCode).toBe(EXIT.unusable);
    expect(run.output).toMatch(/--harness: one of scripted, deepagents/);
    expect(run.verdict).toBeNull();
  }, 60_000);
});
