/**
 * The reference's internal wire between the control plane and a sandbox worker process: the
 * bootstrap the control plane writes to the worker's stdin, and the worker's loopback HTTP
 * endpoints (bind, run as an NDJSON stream, telemetry health and flush). Trace context crosses
 * as `traceparent` / `tracestate` / `baggage` request headers. Every body is validated with
 * these schemas on the receiving side; none of them is part of the public target protocol.
 */
import { z } from 'zod';
import { WorkerSessionSchema } from '../../../contract/http/bindings-protocol.js';
import { ErrorBodySchema } from '../../../contract/http/error-protocol.js';
import { RunStepSchema } from '../../../contract/http/runs-protocol.js';
import { TelemetryHealthSchema } from '../../../contract/http/telemetry-protocol.js';
import { WIRE_BOUNDS } from '../../../contract/http/wire-bounds.js';
import { UNCERTAIN_REASONS } from '../../../contract/state.js';

const Id = z.string().min(1).max(256);
const Url = z.url({ protocol: /^https?$/ });

/** First stdin line: everything a worker needs; stdin then stays open (EOF = the control plane died). */
export const WorkerBootstrapSchema = z.strictObject({
  /** Base URL of the control plane's HTTP target protocol (state, memory, tools). */
  controlPlaneUrl: Url,
  /** Bearer token the control plane presents to this worker's endpoints. */
  workerToken: z.string().min(32).max(256),
  /** Key of the opaque telemetry ids (base64), shared so ids correlate across processes. */
  hmacKey: z.string().min(16).max(256),
  /** The worker slot's own directory (its pod-local cache lives here). */
  slotDir: z.string().min(1).max(4096),
  collectorUrl: Url.optional(),
  providerUrl: Url.optional(),
  toolUrl: Url.optional(),
  trustedServiceUrl: Url.optional(),
  /** HarnessEnv.options as the control plane got them (export bounds…). */
  options: z.record(z.string(), z.unknown()).optional(),
  /** The target's parts module (reference-parts.ts), when the assembler supplied one. */
  partsModule: z.string().min(1).max(4096).optional(),
});
export type WorkerBootstrap = z.output<typeof WorkerBootstrapSchema>;

export const WorkerReadySchema = z.object({ ready: z.literal(true), url: Url });

export const BindRequestSchema = z.strictObject({ session: WorkerSessionSchema });

export const RunJobWireSchema = z.strictObject({
  runId: Id,
  bindingId: Id,
  agent: Id,
  /** The caller's principal id (no subject, no credential: the worker never sees them). */
  principalId: Id,
  /** Run-scoped delegation token: the caller's memory and tool authority for this agent only. */
  delegation: z.string().min(16).max(256),
  steps: z.array(RunStepSchema).max(WIRE_BOUNDS.maxArrayItems),
  resume: z.strictObject({ interruptId: Id, value: z.string() }).optional(),
});
export const RunRequestWireSchema = z.strictObject({ job: RunJobWireSchema });
export type RunJobWire = z.output<typeof RunJobWireSchema>;

export const WorkerEventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('output'), text: z.string() }),
  z.strictObject({ type: z.literal('interrupt'), interruptId: z.string(), value: z.string() }),
  z.strictObject({ type: z.literal('durable'), revision: z.number() }),
  z.strictObject({ type: z.literal('error'), code: z.string() }),
]);

export const WorkerResultSchema = z.strictObject({
  state: z.enum(['completed', 'interrupted', 'failed', 'uncertain_durability']),
  revision: z.number(),
  uncertainReason: z.enum(UNCERTAIN_REASONS).optional(),
});

/** One NDJSON line of a run stream: an event, then exactly one final result or error. */
export const RunLineSchema = z.union([
  z.strictObject({ event: WorkerEventSchema }),
  z.strictObject({ result: WorkerResultSchema }),
  z.strictObject({ error: ErrorBodySchema }),
]);
export type RunLine = z.output<typeof RunLineSchema>;

export const HealthResponseSchema = TelemetryHealthSchema;

export const WORKER_PATHS = {
  bind: '/bind',
  run: '/run',
  health: '/health',
  flush: '/flush',
} as const;

/**
 * Largest request body a worker reads. The control plane refuses a bigger job itself, as the
 * permanent `payload_too_large` it is: sent, the worker would cut the connection, and a cut
 * connection reads as a lost worker (retryable `unavailable`, worker killed).
 */
export const WORKER_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** Trace-context headers that cross to the worker (the rest of a carrier is dropped). */
export const TRACE_HEADERS = ['traceparent', 'tracestate', 'baggage'] as const;
