/**
 * Bindings on the wire: open, get, clear (new epoch) and acquire a lease. Called by a
 * principal (its credential as the bearer token); the lease comes back as a WorkerSession
 * whose credential the worker then presents for thread-state routes.
 */
import { z } from 'zod';
import type { BindingInfo, BindingSpec, WorkerSession } from '../bindings.js';
import { named } from './protocol-registry.js';
import { StateScopeSchema } from './state-protocol.js';
import type { SameKeys } from './type-checks.js';
import { ShortString } from './wire-bounds.js';

export const BindingSpecSchema = named(
  'BindingSpec',
  z.strictObject({ environment: ShortString, harness: ShortString, codec: ShortString }),
) satisfies z.ZodType<BindingSpec>;

export const BindingInfoSchema = named(
  'BindingInfo',
  z.object({
    bindingId: z.string(),
    environment: z.string(),
    harness: z.string(),
    codec: z.string(),
    epoch: z.number(),
    leaseGeneration: z.number(),
  }),
) satisfies z.ZodType<BindingInfo>;

export const WorkerSessionSchema = named(
  'WorkerSession',
  z.object({ scope: StateScopeSchema, credential: z.string() }),
  'A lease: the exact scope it grants and the opaque credential bound to binding + epoch + lease generation.',
) satisfies z.ZodType<WorkerSession>;

export const OpenBindingRequest = named('OpenBindingRequest', z.strictObject({ spec: BindingSpecSchema }));
export const BindingIdRequest = named('BindingIdRequest', z.strictObject({ bindingId: ShortString }));

const _specKeys: SameKeys<BindingSpec, z.output<typeof BindingSpecSchema>> = true;
const _infoKeys: SameKeys<BindingInfo, z.output<typeof BindingInfoSchema>> = true;
const _sessionKeys: SameKeys<WorkerSession, z.output<typeof WorkerSessionSchema>> = true;
void [_specKeys, _infoKeys, _sessionKeys];
