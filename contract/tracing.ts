/**
 * Tracing vocabulary: the required span names and parentage, the attribute allow-list and the
 * baggage schema. Suites check exported telemetry against these; implementations emit only
 * these names and keys.
 */
export const SPAN = {
  request: 'harness.request',
  authn: 'authn',
  authzAgent: 'authz.agent',
  sessionBinding: 'session.binding',
  sandboxClaim: 'sandbox.claim_or_reuse',
  workerBind: 'sandbox.worker.bind',
  run: 'harness.run',
  providerInvoke: 'provider.invoke',
  stateLoad: 'thread_state.load',
  stateWrite: 'thread_state.write',
  stateCommit: 'thread_state.commit',
  memoryRead: 'memory.read',
  memoryWrite: 'memory.write',
  toolInvoke: 'tool.invoke',
  subagentRun: 'subagent.run',
  streamEncode: 'stream.validate_and_encode',
} as const;
export type SpanName = (typeof SPAN)[keyof typeof SPAN];

/** Required parent of each span (the contract's topology). */
export const SPAN_PARENT: Readonly<Record<SpanName, SpanName | null>> = {
  'harness.request': null,
  authn: 'harness.request',
  'authz.agent': 'harness.request',
  'session.binding': 'harness.request',
  'sandbox.claim_or_reuse': 'harness.request',
  'sandbox.worker.bind': 'sandbox.claim_or_reuse',
  'harness.run': 'harness.request',
  'provider.invoke': 'harness.run',
  'thread_state.load': 'harness.run',
  'thread_state.write': 'harness.run',
  'thread_state.commit': 'harness.run',
  'memory.read': 'harness.run',
  'memory.write': 'harness.run',
  'tool.invoke': 'harness.run',
  'subagent.run': 'harness.run',
  'stream.validate_and_encode': 'harness.request',
};

/**
 * Which telemetry identity records each span: the control plane handles the request, the
 * sandbox worker binds to the lease and runs the harness.
 */
export const SPAN_SERVICE: Readonly<Record<SpanName, 'controlPlane' | 'worker'>> = {
  'harness.request': 'controlPlane',
  authn: 'controlPlane',
  'authz.agent': 'controlPlane',
  'session.binding': 'controlPlane',
  'sandbox.claim_or_reuse': 'controlPlane',
  'sandbox.worker.bind': 'worker',
  'harness.run': 'worker',
  'provider.invoke': 'worker',
  'thread_state.load': 'worker',
  'thread_state.write': 'worker',
  'thread_state.commit': 'worker',
  'memory.read': 'worker',
  'memory.write': 'worker',
  'tool.invoke': 'worker',
  'subagent.run': 'worker',
  'stream.validate_and_encode': 'controlPlane',
};

/** Low-cardinality attribute keys an implementation may export (everything else is scrubbed). */
export const ALLOWED_ATTRIBUTES = [
  'smtc.harness.id',
  'smtc.harness.version',
  'smtc.adapter.id',
  'smtc.adapter.version',
  'smtc.execution.mode',
  'smtc.sandbox.profile',
  'smtc.operation',
  'smtc.outcome',
  'smtc.error.category',
  'smtc.capability.level',
  'gen_ai.system',
  'gen_ai.request.model',
  'smtc.binding.hmac',
  'smtc.run.hmac',
  'smtc.agent.hmac',
  'smtc.sandbox.hmac',
  'smtc.lease.generation',
  'smtc.retry.count',
  'smtc.event.count',
  'smtc.tool.count',
  'smtc.memory.count',
  'smtc.size.bytes',
  'smtc.duration.ms',
  'smtc.remote_trace.linked',
] as const;
export type AllowedAttribute = (typeof ALLOWED_ATTRIBUTES)[number];

/** Resource attributes an implementation may export. */
export const ALLOWED_RESOURCE_ATTRIBUTES = [
  'service.name',
  'service.version',
  'telemetry.sdk.name',
  'telemetry.sdk.language',
  'telemetry.sdk.version',
] as const;

/** Service names of the two telemetry identities. */
export const SERVICE = { controlPlane: 'smtc-control-plane', worker: 'smtc-sandbox-worker' } as const;

/**
 * Baggage: empty by default. These are the only keys an implementation may accept, each
 * bounded and opaque; everything is stripped before untrusted external calls.
 */
export const BAGGAGE_SCHEMA: Readonly<Record<string, { readonly maxLength: number; readonly pattern: RegExp }>> = {
  'smtc.tenant_tier': { maxLength: 16, pattern: /^[a-z0-9_]{1,16}$/ },
  'smtc.request_class': { maxLength: 16, pattern: /^[a-z0-9_]{1,16}$/ },
};

/**
 * The health signal of a target's span export, all telemetry identities together. The two
 * counters count since the target was created (R10.28 reads them against the collector).
 */
export interface TelemetryHealth {
  /** Not `ok` once spans were dropped, for any cause, until an export started after the drop succeeds (R10.27). */
  readonly exporter: 'ok' | 'degraded' | 'failing';
  /** Sampled spans lost: refused by a full queue, or in an export that failed. */
  readonly droppedSpans: number;
  /** Spans waiting in the export queues; never above `queueCapacity`. */
  readonly queueDepth: number;
  readonly queueCapacity: number;
  /** Spans of exports the collector accepted. */
  readonly exportedSpans: number;
}

/** Exporter states from better to worse: several identities' health is the worst of them. */
export const EXPORTER_RANK: Readonly<Record<TelemetryHealth['exporter'], number>> = { ok: 0, degraded: 1, failing: 2 };
