/**
 * Namespaces are computed from the authenticated identity and agent only (the contract's scope
 * table); nothing a caller passes in a MemoryScope or a key can change them. JSON encoding keeps
 * the parts unambiguous whatever characters they hold.
 */
import type { MemoryScopeKind } from '../../contract/memory.js';
import type { Identity } from '../identity/identity.js';
import { MEMORY_ENVIRONMENT } from './memory-policy.js';

export type Namespace = string;

export function namespaceOf(who: Identity, agent: string, scope: MemoryScopeKind): Namespace {
  switch (scope) {
    case 'user':
      return JSON.stringify([MEMORY_ENVIRONMENT, 'user', who.subject, agent]);
    case 'agent':
      return JSON.stringify([MEMORY_ENVIRONMENT, 'agent', agent]);
    case 'organization':
      return JSON.stringify([MEMORY_ENVIRONMENT, 'organization', who.organization, agent]);
  }
}
