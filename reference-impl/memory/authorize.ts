/**
 * Pipeline step 1: authorize scope × operation × agent × caller. Identity comes from the
 * credential alone; scope claims (subject/organization) other than the caller's own are
 * refused, and the default write policies of the contract's scope table apply.
 */
import { ContractError } from '../../contract/errors.js';
import { MEMORY_SCOPE_KINDS, type MemoryScope, type MemoryScopeKind } from '../../contract/memory.js';
import type { Identity } from '../identity/identity.js';
import { type Namespace, namespaceOf } from './namespace.js';

export type MemoryOperation = 'read' | 'write';

export interface Authorized {
  readonly who: Identity;
  readonly agent: string;
  readonly scope: MemoryScopeKind;
  readonly namespace: Namespace;
}

export interface AuthorizePolicy {
  readonly sharedLearning: boolean;
}

export function parseScope(scope: unknown): MemoryScope {
  if (typeof scope !== 'object' || scope === null) throw new ContractError('invalid_argument', 'scope');
  const s = scope as Record<string, unknown>;
  if (typeof s.kind !== 'string' || !(MEMORY_SCOPE_KINDS as readonly string[]).includes(s.kind)) {
    throw new ContractError('invalid_argument', 'scope kind');
  }
  for (const claim of ['subject', 'organization'] as const) {
    if (s[claim] !== undefined && typeof s[claim] !== 'string') throw new ContractError('invalid_argument', 'scope');
  }
  return s as unknown as MemoryScope;
}

export function authorize(
  who: Identity,
  agent: string,
  rawScope: unknown,
  op: MemoryOperation,
  policy: AuthorizePolicy,
): Authorized {
  const scope = parseScope(rawScope);
  // A claim that matches the caller is redundant; any other claim is an escalation attempt.
  if (scope.subject !== undefined && scope.subject !== who.subject) throw new ContractError('scope_violation');
  if (scope.organization !== undefined && scope.organization !== who.organization) {
    throw new ContractError('scope_violation');
  }
  if (op === 'write') {
    if (scope.kind === 'agent' && !policy.sharedLearning) throw new ContractError('read_only_scope');
    if (scope.kind === 'organization' && !who.roles.some((r) => r === 'application' || r === 'admin')) {
      throw new ContractError('read_only_scope');
    }
  }
  return { who, agent, scope: scope.kind, namespace: namespaceOf(who, agent, scope.kind) };
}
