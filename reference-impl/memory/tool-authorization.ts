/**
 * The minimal ToolBroker authorization surface: which tools an agent's runs may invoke and
 * which hosts they may reach. Decisions come from this static policy table alone — this module
 * has no access to memory at all, so no stored content can ever change a decision.
 */
import { ContractError } from '../../contract/errors.js';
import type { Principal } from '../../contract/principals.js';
import type { ToolAuthorization } from '../../contract/target.js';
import type { Authenticator } from '../identity/authenticator.js';

interface AgentGrants {
  readonly tools: readonly string[];
  readonly hosts: readonly string[];
}

export const STATIC_TOOL_POLICY: Readonly<Record<string, AgentGrants>> = {
  'agent-alpha': { tools: ['search_docs', 'calculator'], hosts: ['api.weather.example'] },
  'agent-beta': { tools: ['calculator'], hosts: [] },
};

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

export function createToolAuthorization(auth: Authenticator): ToolAuthorization {
  const grantsFor = (caller: Principal, agent: string): AgentGrants | null => {
    auth.authenticate(caller);
    return auth.isAgent(agent) ? (STATIC_TOOL_POLICY[agent] ?? null) : null;
  };
  return {
    async mayInvoke(caller, agent, tool) {
      const grants = grantsFor(caller, agent);
      if (typeof tool !== 'string' || !TOOL_NAME.test(tool)) throw new ContractError('invalid_argument', 'tool name');
      return grants?.tools.includes(tool) === true;
    },
    async mayReach(caller, agent, host) {
      const grants = grantsFor(caller, agent);
      if (typeof host !== 'string' || !HOST_NAME.test(host)) throw new ContractError('invalid_argument', 'host name');
      return grants?.hosts.includes(host) === true;
    },
  };
}
