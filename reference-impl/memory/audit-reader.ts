/**
 * Audit reads: admins of an organization read its memory audit trail (oldest first, the newest
 * `maxAuditEntriesRead` entries); nobody else reads it.
 */
import { ContractError } from '../../contract/errors.js';
import type { Audit, AuditEntry } from '../../contract/memory.js';
import type { Principal } from '../../contract/principals.js';
import type { MemoryDeps } from './memory-deps.js';
import { MEMORY_BOUNDS, MEMORY_POLICY } from './memory-policy.js';

export function createAuditReader(deps: MemoryDeps): Audit {
  return {
    async memory(reader: Principal, filter?: { readonly key?: string }): Promise<readonly AuditEntry[]> {
      const who = deps.auth.authenticate(reader);
      if (!who.roles.includes('admin')) throw new ContractError('forbidden', 'admin role required');
      if (filter !== undefined && (typeof filter !== 'object' || filter === null)) {
        throw new ContractError('invalid_argument', 'filter');
      }
      const key = filter?.key;
      if (key !== undefined && (typeof key !== 'string' || key.length > MEMORY_POLICY.maxKeyLength)) {
        throw new ContractError('invalid_argument', 'filter key');
      }
      return deps.store.readAudit(who.organization, key, MEMORY_BOUNDS.maxAuditEntriesRead);
    },
  };
}
