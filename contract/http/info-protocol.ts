/**
 * What a target says about itself: `GET /v1/info` (no authentication: nothing secret, used as
 * the readiness probe and to verify a manifest) and `GET /v1/principals/self` (who a bearer
 * token authenticates as — the adapter checks every manifest credential with it).
 */
import { z } from 'zod';
import { ROLES } from '../principals.js';
import { CAPABILITIES, type Capabilities } from '../target.js';
import { MemoryPolicySchema } from './memory-protocol.js';
import { named } from './protocol-registry.js';
import { StateLimitsSchema } from './state-protocol.js';

export const PROTOCOL_VERSION = 'smtc-http/1';

export const CapabilitiesSchema = named(
  'Capabilities',
  z.object(
    Object.fromEntries(CAPABILITIES.map((c) => [c, z.boolean().optional()])) as Record<
      (typeof CAPABILITIES)[number],
      z.ZodOptional<z.ZodBoolean>
    >,
  ),
) satisfies z.ZodType<Capabilities>;

export const TargetInfoSchema = named(
  'TargetInfo',
  z.object({
    protocol: z.literal(PROTOCOL_VERSION),
    name: z.string(),
    capabilities: CapabilitiesSchema,
    /**
     * The native harness ids (StateScope harness) the target runs; omitted when it does not
     * declare them (then every harness the kit can select is taken to be supported).
     */
    harnesses: z.array(z.string().min(1).max(200)).max(100).optional(),
    /** Whether the test controls (`/_smtc/…`) are enabled on this server. */
    testControls: z.boolean(),
    /** Whether `POST /_smtc/targets` creates fresh target instances (a test control). */
    instances: z.boolean().optional(),
    agents: z.tuple([z.string(), z.string()]),
    stateLimits: StateLimitsSchema.optional(),
    memoryPolicy: MemoryPolicySchema.optional(),
  }),
);

export const PrincipalSelfSchema = named(
  'PrincipalSelf',
  z.object({ id: z.string(), subject: z.string(), organization: z.string(), roles: z.array(z.enum(ROLES)) }),
  'The identity a principal bearer token authenticates as.',
);
