/**
 * Outbound propagation: trace context and baggage go only to trusted internal services (the
 * origin of `HarnessEnv.trustedServiceUrl`); every other destination — the model provider, tool
 * endpoints, anything external — receives no traceparent, tracestate or baggage at all.
 */
import { type Context, isSpanContextValid, TraceFlags, trace } from '@opentelemetry/api';
import { outboundBaggage } from './baggage-policy.js';
import { TRACE_FLAG_RANDOM } from './ingress-policy.js';

export class PropagationPolicy {
  private readonly trustedOrigins: ReadonlySet<string>;

  constructor(trustedServiceUrls: readonly (string | undefined)[]) {
    const origins = new Set<string>();
    for (const u of trustedServiceUrls) {
      if (u) origins.add(new URL(u).origin);
    }
    this.trustedOrigins = origins;
  }

  isTrusted(destination: URL): boolean {
    return this.trustedOrigins.has(destination.origin);
  }

  /** Headers to add to a call to `destination` made within `ctx`. */
  outboundHeaders(destination: URL, ctx: Context): Record<string, string> {
    if (!this.isTrusted(destination)) return {};
    return contextHeaders(ctx);
  }
}

/** traceparent (+ tracestate) and schema-checked baggage of `ctx`. */
export function contextHeaders(ctx: Context): Record<string, string> {
  const out: Record<string, string> = {};
  const sc = trace.getSpanContext(ctx);
  if (sc && isSpanContextValid(sc)) {
    // Version 00 with the sampled and Level 2 random bits (W3C: a random flag received MUST be
    // kept on the same trace id); other bits are reserved and sent as zero.
    const flags = sc.traceFlags & (TraceFlags.SAMPLED | TRACE_FLAG_RANDOM);
    out.traceparent = `00-${sc.traceId}-${sc.spanId}-${flags.toString(16).padStart(2, '0')}`;
    const ts = sc.traceState?.serialize();
    if (ts) out.tracestate = ts;
  }
  const baggage = outboundBaggage(ctx);
  if (baggage) out.baggage = baggage;
  return out;
}
