/**
 * Ingress policy for trace context. An incoming `traceparent` is continued only when the
 * server's ingress trust policy trusts the authenticated caller (ingress-trust.ts; never a
 * claim of the caller) AND the header is one field line that W3C Trace Context lets a vendor
 * continue: surrounding OWS is not part of the value (RFC 9110 §5.5), version 00 exactly, a
 * higher version parsed as 00 where W3C's versioning rules allow. Anything else — malformed,
 * duplicated, version ff, oversized, binary, or simply from an untrusted caller — is ignored
 * and the request starts a fresh root. Nothing here can fail a request, and nothing here
 * authenticates: trace context is correlation only. Sampling is not taken from the header
 * either (see recording-sampler.ts).
 */
import { type Context, ROOT_CONTEXT, type SpanContext, TraceFlags, trace } from '@opentelemetry/api';
import { acceptBaggage, withBaggage } from './baggage-policy.js';
import { W3CTraceState } from './trace-state.js';

export type IngressHeaders = Readonly<Record<string, string | readonly string[]>>;

/** absent: no traceparent; malformed: present but invalid; untrusted: valid from an untrusted caller. */
export type IngressVerdict = 'absent' | 'malformed' | 'untrusted' | 'continued';

export interface IngressDecision {
  readonly verdict: IngressVerdict;
  /** The parent context for `harness.request`: ROOT_CONTEXT unless the trace is continued. */
  readonly context: Context;
}

/** Longest header value looked at; anything longer is prohibitively large (W3C §versioning). */
const MAX_HEADER_VALUE = 8192;
const TRACEPARENT_00 = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
/** W3C §versioning: a higher version's first 55 characters, flags at the end or followed by a dash. */
const TRACEPARENT_HIGHER = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-|$)/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
/** Trace flags the reference understands: sampled (Level 1) and random trace id (Level 2). */
export const TRACE_FLAG_RANDOM = 0x02;

/** Every value sent under `name`, whatever the case of the header name; null if none. */
export function headerValues(headers: IngressHeaders | undefined, name: string): string[] | null {
  if (!headers) return null;
  const out: string[] = [];
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== name) continue;
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) out.push(typeof x === 'string' ? x : '\u0000');
    else out.push('\u0000');
  }
  return out.length > 0 ? out : null;
}

/** RFC 9110 §5.5: leading and trailing OWS (SP / HTAB) is not part of a field value. */
export function trimOws(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, '');
}

/**
 * W3C traceparent parsing. One field line only: traceparent is not a list, so several lines
 * combine (RFC 9110 §5.3) into a value that is no traceparent. Version 00: lowercase hex, exact
 * field lengths, no extra field. A higher version (not ff): at least 55 characters, trace id,
 * parent id and flags parsed as for 00, the flags at the end or followed by a dash; only the
 * sampled bit is taken from it and nothing is assumed about its extra fields. Ids never all
 * zero. Version 00 keeps the sampled and Level 2 random bits; other bits are reserved.
 */
export function parseTraceparent(values: readonly string[] | null): SpanContext | null {
  if (values?.length !== 1) return null;
  const v = trimOws(values[0]!);
  if (v.length < 55 || v.length > MAX_HEADER_VALUE) return null;
  const version = v.slice(0, 2);
  if (version === 'ff') return null;
  const m = version === '00' ? TRACEPARENT_00.exec(v) : TRACEPARENT_HIGHER.exec(v);
  if (!m) return null;
  const ids = version === '00' ? m.slice(1) : m.slice(2);
  const [traceId, spanId, flags] = ids as [string, string, string];
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return null;
  const bits = Number.parseInt(flags, 16);
  const known = version === '00' ? TraceFlags.SAMPLED | TRACE_FLAG_RANDOM : TraceFlags.SAMPLED;
  return { traceId, spanId, traceFlags: bits & known, isRemote: true };
}

/**
 * W3C tracestate (trace-state.ts). Invalid → discarded; the traceparent still stands (W3C:
 * failure to parse tracestate MUST NOT affect the parsing of traceparent).
 */
export function parseTracestate(values: readonly string[] | null): W3CTraceState | undefined {
  return W3CTraceState.parse(values);
}

/** What a request's `harness.request` span is parented to, and which baggage it carries. */
export function decideIngress(headers: IngressHeaders | undefined, trusted: boolean): IngressDecision {
  const verdict = traceVerdict(headers, trusted);
  let ctx = ROOT_CONTEXT;
  if (verdict.parent) {
    const traceState = parseTracestate(headerValues(headers, 'tracestate'));
    ctx = trace.setSpanContext(ctx, traceState ? { ...verdict.parent, traceState } : verdict.parent);
  }
  // Baggage is context too: an untrusted caller's is dropped with its trace context.
  if (trusted) ctx = withBaggage(ctx, acceptBaggage(headerValues(headers, 'baggage')));
  return { verdict: verdict.verdict, context: ctx };
}

function traceVerdict(
  headers: IngressHeaders | undefined,
  trusted: boolean,
): { verdict: IngressVerdict; parent?: SpanContext } {
  const tp = headerValues(headers, 'traceparent');
  if (!tp) return { verdict: 'absent' };
  if (tp.some((v) => v.length > MAX_HEADER_VALUE)) return { verdict: 'malformed' };
  const parent = parseTraceparent(tp);
  if (!parent) return { verdict: 'malformed' };
  // Untrusted valid context is replaced: a fresh root, no link.
  if (!trusted) return { verdict: 'untrusted' };
  return { verdict: 'continued', parent };
}
