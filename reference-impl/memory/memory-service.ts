// PLACEHOLDER until the memory service lands: declares no capability.

import type { Approvals, Audit, MemoryBroker } from '../../contract/memory.js';
import type { Principal } from '../../contract/principals.js';
import type { Capabilities, ToolAuthorization } from '../../contract/target.js';
import type { ReferenceContext } from '../reference-context.js';

export interface MemoryService {
  readonly capabilities: Capabilities;
  memory(caller: Principal, agent: string): MemoryBroker;
  readonly approvals: Approvals;
  readonly audit: Audit;
  readonly tools: ToolAuthorization;
}

export function createMemoryService(_ctx: ReferenceContext): MemoryService {
  const notBuilt = (): never => {
    throw new Error('memory not built yet');
  };
  return {
    capabilities: {},
    memory: notBuilt,
    approvals: { list: notBuilt, decide: notBuilt },
    audit: { memory: notBuilt },
    tools: { mayInvoke: notBuilt, mayReach: notBuilt },
  };
}
