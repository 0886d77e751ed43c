/**
 * Thread state on the wire: the ThreadStateStore's arguments and results. Workers call these
 * routes with their lease credential as the bearer token; the scope in the body is the
 * contract's `StateScope` argument, which the target checks against that credential.
 * Objects are closed (an extra field is refused, like an extra claim in a scope).
 */
import { z } from 'zod';
import {
  type DurableStateHead,
  type OpaqueStatePayload,
  type PendingStateRef,
  RUN_STATES,
  type RunRecord,
  type StateLimits,
  type StateScope,
  UNCERTAIN_REASONS,
} from '../state.js';
import { Base64Bytes } from './base64-bytes.js';
import { named } from './protocol-registry.js';
import type { SameKeys } from './type-checks.js';
import { ShortString, WireNumber } from './wire-bounds.js';

export const StateScopeSchema = named(
  'StateScope',
  z.strictObject({
    bindingId: ShortString,
    environment: ShortString,
    harness: ShortString,
    epoch: WireNumber,
    codec: ShortString,
    leaseGeneration: WireNumber,
  }),
) satisfies z.ZodType<StateScope>;

export const OpaqueStatePayloadSchema = named(
  'OpaqueStatePayload',
  z.strictObject({ codec: ShortString, bytes: Base64Bytes }),
  'Native checkpoint bytes, base64-encoded.',
) satisfies z.ZodType<OpaqueStatePayload>;

export const PendingStateRefSchema = named(
  'PendingStateRef',
  z.strictObject({
    stateId: ShortString,
    bindingId: ShortString,
    epoch: WireNumber,
    codec: ShortString,
    idempotencyKey: ShortString,
    contentHash: ShortString,
    size: WireNumber,
  }),
) satisfies z.ZodType<PendingStateRef>;

export const PendingInterruptSchema = named(
  'PendingInterrupt',
  z.strictObject({ interruptId: ShortString, value: z.string() }),
);

export const CommitOptionsSchema = named(
  'CommitOptions',
  z.strictObject({
    runState: z.enum(['completed', 'interrupted', 'failed']).optional(),
    interrupt: PendingInterruptSchema.nullable().optional(),
  }),
);

export const DurableStateHeadSchema = named(
  'DurableStateHead',
  z.object({
    bindingId: z.string(),
    epoch: z.number(),
    revision: z.number(),
    state: PendingStateRefSchema,
    payload: OpaqueStatePayloadSchema,
    runId: z.string(),
    runState: z.enum(['completed', 'interrupted', 'failed']),
    interrupt: PendingInterruptSchema.nullable(),
    committedAt: z.string(),
  }),
) satisfies z.ZodType<DurableStateHead>;

export const RunRecordSchema = named(
  'RunRecord',
  z.object({
    runId: z.string(),
    state: z.enum(RUN_STATES),
    reason: z.string().nullable(),
    retainedRevision: z.number().nullable(),
  }),
) satisfies z.ZodType<RunRecord>;

export const ReconciliationSchema = named(
  'Reconciliation',
  z.discriminatedUnion('action', [
    z.strictObject({ action: z.literal('keep_previous') }),
    z.strictObject({
      action: z.literal('commit_pending'),
      pending: PendingStateRefSchema,
      expectedDurableRevision: WireNumber,
    }),
  ]),
);

export const StateLimitsSchema = named(
  'StateLimits',
  z.object({ maxPayloadBytes: z.number(), maxPendingEntries: z.number(), maxWritesPerSecond: z.number() }),
) satisfies z.ZodType<StateLimits>;

// ---- requests and responses, one per ThreadStateStore operation ----

export const LoadHeadRequest = named('LoadHeadRequest', z.strictObject({ scope: StateScopeSchema }));
export const LoadHeadResponse = named('LoadHeadResponse', z.object({ head: DurableStateHeadSchema.nullable() }));

export const WriteNativeStateRequest = named(
  'WriteNativeStateRequest',
  z.strictObject({
    scope: StateScopeSchema,
    codec: ShortString,
    payload: OpaqueStatePayloadSchema,
    idempotencyKey: ShortString,
  }),
);

export const CommitHeadRequest = named(
  'CommitHeadRequest',
  z.strictObject({
    scope: StateScopeSchema,
    pending: PendingStateRefSchema,
    expectedDurableRevision: WireNumber,
    runId: ShortString,
    options: CommitOptionsSchema.optional(),
  }),
);

export const MarkUncertainRequest = named(
  'MarkUncertainRequest',
  z.strictObject({ scope: StateScopeSchema, runId: ShortString, reason: z.enum(UNCERTAIN_REASONS) }),
);
export const EmptyResponse = named('EmptyResponse', z.object({}));

export const RunStatusRequest = named(
  'RunStatusRequest',
  z.strictObject({ scope: StateScopeSchema, runId: ShortString }),
);
export const RunStatusResponse = named('RunStatusResponse', z.object({ run: RunRecordSchema.nullable() }));

export const ReconcileRequest = named(
  'ReconcileRequest',
  z.strictObject({ scope: StateScopeSchema, runId: ShortString, resolution: ReconciliationSchema }),
);

const _scopeKeys: SameKeys<StateScope, z.output<typeof StateScopeSchema>> = true;
const _refKeys: SameKeys<PendingStateRef, z.output<typeof PendingStateRefSchema>> = true;
const _headKeys: SameKeys<DurableStateHead, z.output<typeof DurableStateHeadSchema>> = true;
const _runKeys: SameKeys<RunRecord, z.output<typeof RunRecordSchema>> = true;
const _limitKeys: SameKeys<StateLimits, z.output<typeof StateLimitsSchema>> = true;
void [_scopeKeys, _refKeys, _headKeys, _runKeys, _limitKeys];
