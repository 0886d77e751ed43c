/**
 * Memory on the wire: the MemoryBroker's four operations, each naming the agent the caller
 * acts for (the broker is obtained per principal and agent). The namespace is computed by the
 * target from the bearer token; a scope's subject/organization are only claims.
 *
 * Proposal fields are carried as given: the contract reports a wrong key, kind, content type,
 * content or retention as a `rejected` outcome with reasons, so the protocol must deliver such
 * a proposal to the target rather than refuse it at the door.
 */
import { z } from 'zod';
import {
  MEMORY_KINDS,
  MEMORY_REJECTION_REASONS,
  MEMORY_SCOPE_KINDS,
  type MemoryApproval,
  type MemoryPolicy,
  type MemoryProvenance,
  type MemoryRecord,
  type MemoryScope,
  type MemorySourceRef,
  type MemoryWriteOutcome,
} from '../memory.js';
import { named } from './protocol-registry.js';
import type { SameKeys } from './type-checks.js';
import { ShortString, WIRE_BOUNDS, WireNumber } from './wire-bounds.js';

export const MemoryScopeSchema = named(
  'MemoryScope',
  z.strictObject({
    kind: z.enum(MEMORY_SCOPE_KINDS),
    subject: ShortString.optional(),
    organization: ShortString.optional(),
  }),
) satisfies z.ZodType<MemoryScope>;

const carried = (expected: string) =>
  z.unknown().meta({ description: `expected ${expected}; any other value is reported as a rejected outcome` });

export const MemoryProposalSchema = named(
  'MemoryProposal',
  z.looseObject({
    key: carried('string'),
    kind: carried(`one of ${MEMORY_KINDS.join(', ')}`),
    content: carried('string'),
    contentType: carried('text/plain or application/json'),
    retentionSeconds: carried('integer seconds').optional(),
    source: carried('{ bindingId, epoch, revision } for episodic_reference').optional(),
    onConflict: z.enum(['reject', 'consolidate']).optional(),
  }),
  'A memory write proposal (untrusted, model-produced content).',
);

export const MemoryQuerySchema = named(
  'MemoryQuery',
  z.strictObject({
    text: z.string(),
    kinds: z.array(z.enum(MEMORY_KINDS)).max(WIRE_BOUNDS.maxArrayItems).optional(),
  }),
);

export const MemoryApprovalSchema = named(
  'MemoryApproval',
  z.object({
    state: z.enum(['not_required', 'pending', 'approved', 'rejected']),
    approver: z.string().nullable(),
    decidedAt: z.string().nullable(),
  }),
) satisfies z.ZodType<MemoryApproval>;

export const MemorySourceRefSchema = named(
  'MemorySourceRef',
  z.object({ revision: z.number().nullable(), writer: z.string(), contentHash: z.string() }),
) satisfies z.ZodType<MemorySourceRef>;

export const MemoryProvenanceSchema = named(
  'MemoryProvenance',
  z.object({
    writer: z.string(),
    agent: z.string(),
    sourceRevisions: z.array(z.number()),
    sources: z.array(MemorySourceRefSchema),
    contentHash: z.string(),
    approval: MemoryApprovalSchema,
    createdAt: z.string(),
    updatedAt: z.string(),
    findings: z.array(z.string()),
  }),
) satisfies z.ZodType<MemoryProvenance>;

export const MemoryRecordSchema = named(
  'MemoryRecord',
  z.object({
    scope: z.enum(MEMORY_SCOPE_KINDS),
    key: z.string(),
    kind: z.enum(MEMORY_KINDS),
    content: z.string(),
    contentType: z.enum(['text/plain', 'application/json']),
    revision: z.number(),
    expiresAt: z.string().nullable(),
    provenance: MemoryProvenanceSchema,
    score: z.number().optional(),
  }),
) satisfies z.ZodType<MemoryRecord>;

export const MemoryWriteOutcomeSchema = named(
  'MemoryWriteOutcome',
  z.discriminatedUnion('status', [
    z.object({ status: z.literal('written'), record: MemoryRecordSchema }),
    z.object({ status: z.literal('consolidated'), record: MemoryRecordSchema }),
    z.object({ status: z.literal('deleted'), key: z.string(), revision: z.number() }),
    z.object({ status: z.literal('pending_approval'), approvalId: z.string() }),
    z.object({ status: z.literal('conflict'), currentRevision: z.number() }),
    z.object({ status: z.literal('rejected'), reasons: z.array(z.enum(MEMORY_REJECTION_REASONS)) }),
  ]),
) satisfies z.ZodType<MemoryWriteOutcome>;

export const MemoryPolicySchema = named(
  'MemoryPolicy',
  z.object({
    approvalKeyPrefix: z.string(),
    protectedKeyPrefix: z.string(),
    maxSearchLimit: z.number(),
    maxContentBytes: z.number(),
    maxKeyLength: z.number(),
    consolidationPolicy: z.string(),
    defaultRetentionSeconds: z
      .object({
        user: z.number().nullable().optional(),
        agent: z.number().nullable().optional(),
        organization: z.number().nullable().optional(),
      })
      .optional(),
  }),
) satisfies z.ZodType<MemoryPolicy>;

// ---- requests and responses, one per MemoryBroker operation ----

const agent = ShortString.meta({ description: 'The agent the caller acts for.' });

export const MemoryGetRequest = named(
  'MemoryGetRequest',
  z.strictObject({ agent, scope: MemoryScopeSchema, key: ShortString }),
);
export const MemoryGetResponse = named('MemoryGetResponse', z.object({ record: MemoryRecordSchema.nullable() }));

export const MemorySearchRequest = named(
  'MemorySearchRequest',
  z.strictObject({ agent, scope: MemoryScopeSchema, query: MemoryQuerySchema, limit: WireNumber }),
);
export const MemorySearchResponse = named('MemorySearchResponse', z.object({ records: z.array(MemoryRecordSchema) }));

export const MemoryPutRequest = named(
  'MemoryPutRequest',
  z.strictObject({
    agent,
    scope: MemoryScopeSchema,
    proposal: MemoryProposalSchema,
    expectedRevision: WireNumber.nullable(),
  }),
);

export const MemoryDeleteRequest = named(
  'MemoryDeleteRequest',
  z.strictObject({ agent, scope: MemoryScopeSchema, key: ShortString, expectedRevision: WireNumber }),
);

const _recordKeys: SameKeys<MemoryRecord, z.output<typeof MemoryRecordSchema>> = true;
const _provenanceKeys: SameKeys<MemoryProvenance, z.output<typeof MemoryProvenanceSchema>> = true;
const _policyKeys: SameKeys<MemoryPolicy, z.output<typeof MemoryPolicySchema>> = true;
const _scopeKeys: SameKeys<MemoryScope, z.output<typeof MemoryScopeSchema>> = true;
void [_recordKeys, _provenanceKeys, _policyKeys, _scopeKeys];
