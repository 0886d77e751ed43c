/**
 * How the reference writes a manual span: explicit parent context (no global context manager,
 * so two targets in one process never share state), allow-listed attributes only (typed), an
 * outcome and error category on the way out — never an exception message or stack.
 */
import {
  type Context,
  type Span,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { ContractError } from '../../contract/errors.js';
import type { SpanName } from '../../contract/tracing.js';
import { type AllowedAttributes, filterAttributes } from './attribute-allow-list.js';
import { TRACE_FLAG_RANDOM } from './ingress-policy.js';

export interface SpanScope {
  readonly span: Span;
  /** Context with this span active: the parent for child spans and for outbound propagation. */
  readonly ctx: Context;
  set(attrs: AllowedAttributes): void;
  /** Whether an outcome was recorded already (inSpan then keeps it). */
  readonly outcomeSet: boolean;
}

/**
 * Spans the contract's tree does not name: the client span of each call to a trusted internal
 * service, so every outgoing request carries its own parent-id (W3C Trace Context).
 */
export const CLIENT_SPAN_NAMES = ['trusted_service.call'] as const;
export type ClientSpanName = (typeof CLIENT_SPAN_NAMES)[number];

export function openSpan(
  tracer: Tracer,
  name: SpanName | ClientSpanName,
  parent: Context,
  attrs: AllowedAttributes = {},
  kind: SpanKind = SpanKind.INTERNAL,
): SpanScope {
  const span = tracer.startSpan(name, { kind, attributes: filterAttributes(attrs) }, parent);
  let outcome = false;
  return {
    span,
    ctx: trace.setSpan(parent, keepRandomFlag(span, trace.getSpanContext(parent))),
    set: (a) => {
      if (a['smtc.outcome'] !== undefined) outcome = true;
      span.setAttributes(filterAttributes(a));
    },
    get outcomeSet() {
      return outcome;
    },
  };
}

/**
 * The SDK derives a child's trace flags from the sampling decision alone, which masks the W3C
 * Level 2 random-trace-id flag; W3C requires it on every outgoing traceparent of the same trace
 * id. The span the context carries (what children and propagation read) reports the flag on;
 * the exported span is the SDK's own.
 */
function keepRandomFlag(span: Span, parent: SpanContext | undefined): Span {
  const own = span.spanContext();
  if (!parent || (parent.traceFlags & TRACE_FLAG_RANDOM) === 0 || parent.traceId !== own.traceId) return span;
  const flagged: SpanContext = { ...own, traceFlags: own.traceFlags | TRACE_FLAG_RANDOM };
  return new Proxy(span, {
    get(target, prop) {
      if (prop === 'spanContext') return () => flagged;
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** Marks the span's outcome from an error (category only) and ends nothing. */
export function markError(scope: SpanScope, e: unknown): void {
  scope.span.setStatus({ code: SpanStatusCode.ERROR });
  scope.set({ 'smtc.outcome': 'error', 'smtc.error.category': e instanceof ContractError ? e.category : 'internal' });
}

/** Runs `fn` inside a new span that ends when `fn` settles. */
export async function inSpan<T>(
  tracer: Tracer,
  name: SpanName | ClientSpanName,
  parent: Context,
  attrs: AllowedAttributes,
  fn: (scope: SpanScope) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  const scope = openSpan(tracer, name, parent, attrs, kind);
  try {
    const result = await fn(scope);
    if (!scope.outcomeSet) scope.set({ 'smtc.outcome': 'ok' });
    return result;
  } catch (e) {
    markError(scope, e);
    throw e;
  } finally {
    scope.span.end();
  }
}
