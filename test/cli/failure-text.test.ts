import { describe, expect, it } from 'vitest';
import { explainFailure } from '../../cli/certify/failure-text.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';

const fcMessage = (counterexample: string) =>
  `Property failed after 1 tests\n{ seed: 7, path: "0:1", endOnFailure: true }\nCounterexample: ${counterexample}\nShrunk 2 time(s)\n\nHint: Enable verbose mode in order to have the list of all failing values encountered during the run`;

describe('a failed clause explains itself', () => {
  it("shows the property's assertion (where, expected, got), the counterexample and the replay token, not fast-check's hint", () => {
    const text = explainFailure(
      [
        {
          message: fcMessage('[1,0]'),
          cause: {
            message: 'expected { revision: 1 } to deeply equal { revision: 2 }',
            expected: '{\n  "revision": 2,\n}',
            actual: '{\n  "revision": 1,\n}',
            stack: `AssertionError: x\n    at ${REPO_ROOT}/suites/r02-durable-head.spec.ts:73:9\n    at node_modules/fast-check/lib/fast-check.js:1:1`,
          },
        },
      ],
      REPO_ROOT,
      'TOKEN',
    );
    expect(text.split('\n')).toEqual([
      'assertion failed: expected { revision: 1 } to deeply equal { revision: 2 }',
      expect.stringMatching(/^ {2}at suites\/r02-durable-head\.spec\.ts:73: \S/),
      '  expected: { "revision": 2 }',
      '  got:      { "revision": 1 }',
      'counterexample (shrunk 2 times): [1,0]',
      'replay: smtc certify --replay TOKEN',
    ]);
  });

  it('lists a model-based counterexample as numbered operations, without the replay path', () => {
    const text = explainFailure(
      [{ message: fcMessage('[Write(s0, k0, p0),Commit(s0, "a,b"),Load(s1) /*replayPath="AAB:q"*/]') }],
      REPO_ROOT,
    );
    expect(text).toContain(
      'counterexample (shrunk 2 times): 3 operations\n  1. Write(s0, k0, p0)\n  2. Commit(s0, "a,b")\n  3. Load(s1)',
    );
    expect(text).not.toMatch(/replayPath|Enable verbose mode/);
  });

  it("names the predicate's error when fast-check reports it inline (includeErrorInReport: no cause)", () => {
    const inline = fcMessage('[[0,1]]').replace(
      '\n\nHint',
      '\nGot error: Error: the history of 20 operations is not linearizable; history: /r/h.json\n    at x (/r/a.ts:1:1)\n\nHint',
    );
    const text = explainFailure([{ message: inline }], REPO_ROOT);
    expect(text.split('\n')[0]).toBe(
      'assertion failed: the history of 20 operations is not linearizable; history: /r/h.json',
    );
    expect(text).toContain('counterexample (shrunk 2 times): [[0,1]]');
  });

  it('keeps a target-controlled value on one bounded line without control characters', () => {
    const text = explainFailure(
      [{ message: 'boom', expected: 'a', actual: `\u001b[2J${'y'.repeat(5000)}\u0007` }],
      REPO_ROOT,
    );
    const got = text.split('\n').find((l) => l.startsWith('  got:')) ?? '';
    expect(got).not.toMatch(/[\u0000-\u001f]/);
    expect(got.length).toBeLessThan(700);
  });
});
