/**
 * Runs on the wire. `POST /v1/runs` answers with an NDJSON stream (`application/x-ndjson`):
 * one RunEvent per line as the run emits it — this stream is the client-visible output of the
 * commit protocol — then one final line, `{ "outcome": RunOutcome }` or `{ "error": ErrorBody }`.
 * Errors found before the run starts (authentication, validation) are ordinary JSON errors.
 *
 * Ingress headers travel in the body, exactly as the untrusted client sent them: HTTP would
 * trim or merge the malformed `traceparent` variants the suites must deliver intact.
 */
import { z } from 'zod';
import { MEMORY_SCOPE_KINDS } from '../memory.js';
import type { RunEvent, RunOutcome, RunRequest, RunStep } from '../runs.js';
import { RUN_STATES } from '../state.js';
import { ErrorBodySchema } from './error-protocol.js';
import { MemoryProposalSchema } from './memory-protocol.js';
import { named } from './protocol-registry.js';
import type { SameKeys } from './type-checks.js';
import { ShortString, WIRE_BOUNDS } from './wire-bounds.js';

type WireRunStep =
  | { type: 'provider'; prompt: string }
  | { type: 'tool'; tool: string; args: string }
  | { type: 'memory_read'; scope: (typeof MEMORY_SCOPE_KINDS)[number]; key: string }
  | {
      type: 'memory_write';
      scope: (typeof MEMORY_SCOPE_KINDS)[number];
      proposal: z.output<typeof MemoryProposalSchema>;
    }
  | { type: 'subagent'; steps: WireRunStep[] }
  | { type: 'emit'; text: string }
  | { type: 'checkpoint' }
  | { type: 'interrupt'; value: string }
  | { type: 'internal_call' };

export const RunStepSchema: z.ZodType<WireRunStep> = named(
  'RunStep',
  z.lazy(() =>
    z.discriminatedUnion('type', [
      z.strictObject({ type: z.literal('provider'), prompt: z.string() }),
      z.strictObject({ type: z.literal('tool'), tool: ShortString, args: z.string() }),
      z.strictObject({ type: z.literal('memory_read'), scope: z.enum(MEMORY_SCOPE_KINDS), key: ShortString }),
      z.strictObject({
        type: z.literal('memory_write'),
        scope: z.enum(MEMORY_SCOPE_KINDS),
        proposal: MemoryProposalSchema,
      }),
      z.strictObject({ type: z.literal('subagent'), steps: z.array(RunStepSchema).max(WIRE_BOUNDS.maxArrayItems) }),
      z.strictObject({ type: z.literal('emit'), text: z.string() }),
      z.strictObject({ type: z.literal('checkpoint') }),
      z.strictObject({ type: z.literal('interrupt'), value: z.string() }),
      z.strictObject({ type: z.literal('internal_call') }),
    ]),
  ),
  'One step of a scripted/v1 run script.',
);

export const RunRequestSchema = named(
  'RunRequest',
  z.strictObject({
    bindingId: ShortString,
    agent: ShortString,
    steps: z.array(RunStepSchema).max(WIRE_BOUNDS.maxArrayItems),
    headers: z
      .record(ShortString, z.union([z.string(), z.array(z.string()).max(WIRE_BOUNDS.maxArrayItems)]))
      .optional()
      .meta({
        description:
          'Raw ingress headers as the client sent them (traceparent, tracestate, baggage…). Whether their trace context is continued is decided by the server’s ingress policy for the authenticated principal, never by the request.',
      }),
    resume: z.strictObject({ interruptId: ShortString, value: z.string() }).optional(),
  }),
);

export const StartRunRequest = named('StartRunRequest', z.strictObject({ request: RunRequestSchema }));

export const RunEventSchema = named(
  'RunEvent',
  z.discriminatedUnion('type', [
    z.object({ seq: z.number(), type: z.literal('output'), text: z.string() }),
    z.object({ seq: z.number(), type: z.literal('interrupt'), interruptId: z.string(), value: z.string() }),
    z.object({ seq: z.number(), type: z.literal('durable'), revision: z.number() }),
    z.object({ seq: z.number(), type: z.literal('error'), code: z.string() }),
  ]),
) satisfies z.ZodType<RunEvent>;

export const RunOutcomeSchema = named(
  'RunOutcome',
  z.object({
    runId: z.string(),
    state: z.enum(RUN_STATES),
    revision: z.number(),
    events: z.array(RunEventSchema),
    traceId: z.string().nullable(),
  }),
) satisfies z.ZodType<RunOutcome>;

/** One line of the run stream: an event, or the final outcome, or the final error. */
export const RunStreamLineSchema = named(
  'RunStreamLine',
  z.union([RunEventSchema, z.object({ outcome: RunOutcomeSchema }), z.object({ error: ErrorBodySchema })]),
);

const _outcomeKeys: SameKeys<RunOutcome, z.output<typeof RunOutcomeSchema>> = true;
const _requestKeys: SameKeys<RunRequest, z.output<typeof RunRequestSchema>> = true;
const _stepTypes: [
  Exclude<RunStep['type'], WireRunStep['type']>,
  Exclude<WireRunStep['type'], RunStep['type']>,
] extends [never, never]
  ? true
  : false = true;
const _eventTypes: [Exclude<RunEvent['type'], z.output<typeof RunEventSchema>['type']>] extends [never] ? true : false =
  true;
void [_outcomeKeys, _requestKeys, _stepTypes, _eventTypes];
