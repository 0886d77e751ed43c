/** Approvals on the wire: the pending approvals an approver may decide on, and the decision. */
import { z } from 'zod';
import { MEMORY_SCOPE_KINDS, type PendingApproval } from '../memory.js';
import { named } from './protocol-registry.js';
import type { SameKeys } from './type-checks.js';
import { ShortString } from './wire-bounds.js';

export const PendingApprovalSchema = named(
  'PendingApproval',
  z.object({
    approvalId: z.string(),
    scope: z.enum(MEMORY_SCOPE_KINDS),
    key: z.string(),
    writer: z.string(),
    contentHash: z.string(),
    reasons: z.array(ShortString).max(64).optional(),
  }),
) satisfies z.ZodType<PendingApproval>;

export const ListApprovalsRequest = named('ListApprovalsRequest', z.strictObject({}));
export const ListApprovalsResponse = named(
  'ListApprovalsResponse',
  z.object({ approvals: z.array(PendingApprovalSchema) }),
);

export const DecideApprovalRequest = named(
  'DecideApprovalRequest',
  z.strictObject({ approvalId: ShortString, decision: z.enum(['approve', 'reject']) }),
);

const _keys: SameKeys<PendingApproval, z.output<typeof PendingApprovalSchema>> = true;
void _keys;
