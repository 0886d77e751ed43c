/**
 * The reference's `Target.faults`: arms a failpoint in every failpoint registry of the
 * reference's services (a name belongs to one service's steps; the others never evaluate it).
 * A malformed name or term is the caller's mistake: `invalid_argument`, nothing armed.
 */
import { ContractError } from '../../contract/errors.js';
import type { Faults } from '../../contract/target.js';
import { FailpointSyntaxError, type Failpoints, parseFailpointProgram } from './failpoints.js';

const NAME = /^[a-z][a-z0-9_.-]{0,63}$/;

export function failpointControl(registries: readonly Failpoints[]): Faults {
  return {
    async setFailpoint(name, term) {
      if (typeof name !== 'string' || !NAME.test(name)) throw new ContractError('invalid_argument', 'failpoint name');
      try {
        parseFailpointProgram(term);
        for (const r of registries) r.set(name, term);
      } catch (e) {
        if (e instanceof FailpointSyntaxError) throw new ContractError('invalid_argument', 'failpoint term');
        throw e;
      }
    },
    async clearFailpoints() {
      for (const r of registries) r.clear();
    },
  };
}
