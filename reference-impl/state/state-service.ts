// PLACEHOLDER until the thread-state service lands: declares no capability.
import type { Bindings, WorkerSession } from '../../contract/bindings.js';
import type { ThreadStateStore } from '../../contract/state.js';
import type { Capabilities } from '../../contract/target.js';
import type { ReferenceContext } from '../reference-context.js';

export interface StateService {
  readonly capabilities: Capabilities;
  readonly bindings: Bindings;
  threadState(session: WorkerSession): ThreadStateStore;
}

export function createStateService(_ctx: ReferenceContext): StateService {
  const notBuilt = (): never => {
    throw new Error('thread state not built yet');
  };
  return {
    capabilities: {},
    bindings: { open: notBuilt, get: notBuilt, clear: notBuilt, acquireLease: notBuilt },
    threadState: notBuilt,
  };
}
