/**
 * A run scope points the process's environment at the run (its TMPDIR, marker, instance ledger)
 * and gives it back when it ends, so a process that certifies more than once (the mutant
 * self-test's batch workers) never starts a run inside a removed directory.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { openRunScope } from '../../cli/certify/run-scope.js';
import { INSTANCE_LEDGER_VAR, OWNER_TMPDIR_VAR, RUN_MARK_VAR } from '../../fixtures/targets/run-scope-env.js';

const KEYS = ['TMPDIR', RUN_MARK_VAR, INSTANCE_LEDGER_VAR, OWNER_TMPDIR_VAR];
const before = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of KEYS) {
    if (before[k] === undefined) delete process.env[k];
    else process.env[k] = before[k];
  }
});

describe('run scope', () => {
  for (const end of ['release', 'close'] as const) {
    it(`${end}() removes the run's directory and gives the environment back`, async () => {
      const scope = openRunScope();
      expect(os.tmpdir().startsWith(scope.dir)).toBe(true);
      expect(process.env[RUN_MARK_VAR]).toBeTruthy();
      if (end === 'release') await scope.release();
      else scope.close();
      expect(existsSync(scope.dir)).toBe(false);
      expect(Object.fromEntries(KEYS.map((k) => [k, process.env[k]]))).toEqual(before);
      // A second run opens where the first would have: not inside the removed directory.
      const again = openRunScope();
      expect(again.dir.startsWith(scope.dir)).toBe(false);
      again.close();
    });
  }
});
