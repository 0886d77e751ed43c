/**
 * Trace context across the reference's own internal boundary (control plane → sandbox worker):
 * injected into and extracted from a plain object, exactly what an HTTP or queue transport
 * would carry. Context extracted here is marked as internal, so the worker follows the control
 * plane's sampling decision — unlike ingress context, which never decides sampling.
 */
import { type Context, createContextKey, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { W3CTraceState } from './trace-state.js';

export type Carrier = Record<string, string>;

const INTERNAL = createContextKey('smtc.internal-carrier');
const propagator = new CompositePropagator({
  propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
});

const setter = {
  set(carrier: Carrier, key: string, value: string) {
    carrier[key] = value;
  },
};
const getter = {
  keys: (carrier: Carrier) => Object.keys(carrier),
  get: (carrier: Carrier, key: string) => carrier[key],
};

export function injectInternal(ctx: Context): Carrier {
  const carrier: Carrier = {};
  propagator.inject(ctx, carrier, setter);
  return carrier;
}

export function extractInternal(carrier: Carrier): Context {
  const ctx = propagator.extract(ROOT_CONTEXT, carrier, getter).setValue(INTERNAL, true);
  // OpenTelemetry's TraceState drops keys of the current W3C key grammar; keep the list as sent.
  const sc = trace.getSpanContext(ctx);
  if (!sc || carrier.tracestate === undefined) return ctx;
  const traceState = W3CTraceState.parse([carrier.tracestate]);
  const { traceState: _dropped, ...rest } = sc;
  return trace.setSpanContext(ctx, traceState ? { ...rest, traceState } : rest);
}

export function isInternalContext(ctx: Context): boolean {
  return ctx.getValue(INTERNAL) === true;
}
