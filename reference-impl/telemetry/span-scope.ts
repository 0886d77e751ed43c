/**
 * How the reference writes a manual span: explicit parent context (no global context manager,
 * so two targets in one process never share state), allow-listed attributes only (typed), an
 * outcome and error category on the way out — never an exception message or stack.
 */
import { type Context, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import { ContractError } from '../../contract/errors.js';
import type { SpanName } from '../../contract/tracing.js';
import { type AllowedAttributes, filterAttributes } from './attribute-allow-list.js';

export interface SpanScope {
  readonly span: Span;
  /** Context with this span active: the parent for child spans and for outbound propagation. */
  readonly ctx: Context;
  set(attrs: AllowedAttributes): void;
  /** Whether an outcome was recorded already (inSpan then keeps it). */
  readonly outcomeSet: boolean;
}

export function openSpan(
  tracer: Tracer,
  name: SpanName,
  parent: Context,
  attrs: AllowedAttributes = {},
  kind: SpanKind = SpanKind.INTERNAL,
): SpanScope {
  const span = tracer.startSpan(name, { kind, attributes: filterAttributes(attrs) }, parent);
  let outcome = false;
  return {
    span,
    ctx: trace.setSpan(parent, span),
    set: (a) => {
      if (a['smtc.outcome'] !== undefined) outcome = true;
      span.setAttributes(filterAttributes(a));
    },
    get outcomeSet() {
      return outcome;
    },
  };
}

/** Marks the span's outcome from an error (category only) and ends nothing. */
export function markError(scope: SpanScope, e: unknown): void {
  scope.span.setStatus({ code: SpanStatusCode.ERROR });
  scope.set({ 'smtc.outcome': 'error', 'smtc.error.category': e instanceof ContractError ? e.category : 'internal' });
}

/** Runs `fn` inside a new span that ends when `fn` settles. */
export async function inSpan<T>(
  tracer: Tracer,
  name: SpanName,
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
