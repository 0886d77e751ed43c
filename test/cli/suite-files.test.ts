/**
 * A clause selection runs the suite files that name its clauses, all files of a requirement
 * whose clause is named nowhere (a generated id), and a selected clause no scenario reported
 * is not run: `--only R03.19,R03.99` is never certified on R03.19 alone.
 */
import { describe, expect, it } from 'vitest';
import { selectionOf } from '../../cli/certify/selection.js';
import { absentClauses, requirementFiles, selectedSuiteFiles } from '../../cli/certify/suite-files.js';
import { decideRequirement } from '../../cli/certify/verdict.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';

const files = (only: string[]) => selectedSuiteFiles(REPO_ROOT, selectionOf({ only }));

describe('suite files of a selection', () => {
  it('a whole requirement runs all its files', () => {
    expect(files(['R03'])).toEqual(requirementFiles(REPO_ROOT, 'R03'));
    expect(files(['R03']).length).toBeGreaterThan(1);
  });

  it('a clause named in a scenario title or a table runs only the files naming it', () => {
    expect(files(['R03.19'])).toEqual(['suites/r03-idempotency.spec.ts']);
    expect(files(['R10.2'])).toEqual(['suites/r10-leak-canaries-outage.spec.ts']);
    expect(files(['R03.19', 'R03.18'])).toEqual(['suites/r03-idempotency.spec.ts', 'suites/r03-run-record.spec.ts']);
  });

  it('a clause named in no file (a generated id, or none) runs every file of its requirement', () => {
    expect(files(['R03.21'])).toEqual(requirementFiles(REPO_ROOT, 'R03'));
    expect(files(['R03.19', 'R03.99'])).toEqual(requirementFiles(REPO_ROOT, 'R03'));
  });

  it('R03.1 does not select a file that names only R03.19', () => {
    expect(files(['R03.1'])).not.toContain('suites/r03-run-record.spec.ts');
  });
});

describe('selected clauses no scenario reported', () => {
  const ran = {
    id: 'R03.19',
    requirement: 'R03' as const,
    title: 't',
    state: 'passed' as const,
    durationMs: 1,
    file: 'suites/r03-idempotency.spec.ts',
    annotations: [],
  };

  it('are not run, and keep their requirement from being certified', () => {
    const absent = absentClauses(selectionOf({ only: ['R03.19', 'R03.99'] }), [ran]);
    expect(absent.map((c) => [c.id, c.state])).toEqual([['R03.99', 'not_run']]);
    expect(decideRequirement('R03', [ran, ...absent], true).verdict).toBe('not_run');
    expect(absentClauses(selectionOf({ only: ['R03.19'] }), [ran])).toEqual([]);
    expect(absentClauses(selectionOf({ only: ['R03'] }), [])).toEqual([]);
  });
});
