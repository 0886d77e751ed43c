/**
 * A provider-managed harness may return its own trace reference. It is linked to `harness.run`
 * only when the provider integration declares safe, tenant-correct correlation
 * (`options.remoteTraceLinks`), only as a link (never as a parent), only with strictly valid
 * W3C ids, and only from this run's own provider answer.
 */
import { type SpanContext, TraceFlags } from '@opentelemetry/api';
import type { SpanScope } from '../../telemetry/span-scope.js';

const TRACE_ID = /^(?!0{32})[0-9a-f]{32}$/;
const SPAN_ID = /^(?!0{16})[0-9a-f]{16}$/;
const MAX_LINKS_PER_RUN = 4;

export function parseRemoteTrace(answer: unknown): SpanContext | null {
  const r = (answer as { remote_trace?: { trace_id?: unknown; span_id?: unknown } } | null)?.remote_trace;
  if (!r || typeof r.trace_id !== 'string' || typeof r.span_id !== 'string') return null;
  if (!TRACE_ID.test(r.trace_id) || !SPAN_ID.test(r.span_id)) return null;
  return { traceId: r.trace_id, spanId: r.span_id, traceFlags: TraceFlags.NONE, isRemote: true };
}

const linked = new WeakMap<SpanScope, number>();

export function linkRemoteTrace(run: SpanScope, remote: SpanContext): void {
  const n = linked.get(run) ?? 0;
  if (n >= MAX_LINKS_PER_RUN) return;
  linked.set(run, n + 1);
  run.span.addLink({ context: remote, attributes: { 'smtc.remote_trace.linked': true } });
  run.set({ 'smtc.remote_trace.linked': true });
}
