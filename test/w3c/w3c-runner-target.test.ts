/**
 * `smtc w3c --target …` (and `npm run w3c:trace-context -- --target …`) referees the target it is given, as `smtc certify
 * --target` names it, so an outside implementer can run W3C's own harness against their code: a
 * mutant that continues malformed traceparents fails exactly its ten W3C tests at each level
 * (exit 1); a target that cannot be loaded, or a stray option, is a usage error (exit 2) before
 * the harness runs.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { notRun } from '../../fixtures/scenario/need.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { w3cPythonProblem } from '../../fixtures/w3c/w3c-harness.js';

// Through the CLI, as implementers run it (it passes the flags to fixtures/w3c/run-harness.ts).
const CLI = path.join(REPO_ROOT, 'cli/smtc.mjs');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, 'w3c', ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 180_000,
  });
const problem = w3cPythonProblem();

describe('W3C harness runner --target', () => {
  it('referees the module target it is given', (ctx) => {
    if (problem) notRun(ctx, problem);
    const r = run('--target', 'fixtures/mutants/trusts-malformed-parent.ts');
    const out = `${r.stdout}${r.stderr}`;
    expect(out).toContain('against target trusts-malformed-parent');
    expect(out).toContain('Level 1: Ran 41 tests: failures=10, errors=0');
    expect(out).toContain('Level 2: Ran 41 tests: failures=10, errors=0');
    expect(r.status, out).toBe(1);
  }, 200_000);

  const usageErrors: ReadonlyArray<readonly [string[], string]> = [
    [['--target', 'fixtures/w3c/no-such-target.ts'], '--target could not be loaded'],
    [['--manifest', 'x.json'], '--manifest goes with --target http://'],
    [['--bogus'], "unknown option '--bogus'"],
  ];
  for (const [args, says] of usageErrors) {
    it(`${args.join(' ')} is a usage error before the harness runs`, (ctx) => {
      // The runner checks Python first.
      if (problem) notRun(ctx, problem);
      const r = run(...args);
      expect(r.stderr).toContain(says);
      expect(r.stdout).not.toContain('Level 1');
      expect(r.status).toBe(2);
    }, 60_000);
  }
});
