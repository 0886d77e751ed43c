/** The memory audit log on the wire (read by an admin principal of the namespace). */
import { z } from 'zod';
import { type AuditEntry, MEMORY_SCOPE_KINDS } from '../memory.js';
import { named } from './protocol-registry.js';
import type { SameKeys } from './type-checks.js';
import { ShortString } from './wire-bounds.js';

export const AuditEntrySchema = named(
  'AuditEntry',
  z.object({
    at: z.string(),
    actor: z.string(),
    operation: z.enum(['put', 'delete', 'approve', 'reject', 'consolidate', 'expire', 'get', 'search']),
    scope: z.enum(MEMORY_SCOPE_KINDS).nullable(),
    key: z.string(),
    outcome: z.enum(['written', 'consolidated', 'deleted', 'pending_approval', 'conflict', 'rejected', 'error']),
    revision: z.number().nullable(),
    contentHash: z.string().nullable(),
    reasons: z.array(z.string()),
  }),
) satisfies z.ZodType<AuditEntry>;

export const MemoryAuditRequest = named(
  'MemoryAuditRequest',
  z.strictObject({ filter: z.strictObject({ key: ShortString.optional() }).optional() }),
);
export const MemoryAuditResponse = named('MemoryAuditResponse', z.object({ entries: z.array(AuditEntrySchema) }));

const _keys: SameKeys<AuditEntry, z.output<typeof AuditEntrySchema>> = true;
void _keys;
