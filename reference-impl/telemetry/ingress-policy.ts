/**
 * Ingress policy for trace context. An incoming `traceparent` is continued only when the
 * caller is a trusted internal service AND the header is exactly one well-formed W3C version
 * `00` value; anything else — malformed, duplicated, padded, oversized, binary, or simply from
 * an untrusted client — is ignored and the request starts a fresh root. Nothing here can fail a
 * request, and nothing here authenticates: trace context is correlation only. Sampling is not
 * taken from the header either (see recording-sampler.ts).
 */
import { type Context, ROOT_CONTEXT, type SpanContext, TraceFlags, trace } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { acceptBaggage, withBaggage } from './baggage-policy.js';

export type IngressHeaders = Readonly<Record<string, string | readonly string[]>>;

/** absent: no traceparent; malformed: present but invalid; untrusted: valid from an untrusted caller. */
export type IngressVerdict = 'absent' | 'malformed' | 'untrusted' | 'continued';

export interface IngressDecision {
  readonly verdict: IngressVerdict;
  /** The parent context for `harness.request`: ROOT_CONTEXT unless the trace is continued. */
  readonly context: Context;
}

/** Longest header value looked at; anything longer is garbage by definition. */
const MAX_HEADER_VALUE = 8192;
const TRACEPARENT_00 = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

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

/**
 * Strict W3C traceparent parsing: exactly one header, version 00, lowercase hex, exact field
 * lengths, no extra fields, no whitespace, ids not all zero. Higher versions are not
 * continued (ignoring is always allowed; continuing something we cannot fully validate is not).
 */
export function parseTraceparent(values: readonly string[] | null): SpanContext | null {
  if (values?.length !== 1) return null;
  const v = values[0]!;
  if (v.length !== 55) return null;
  const m = TRACEPARENT_00.exec(v);
  if (!m) return null;
  const [, traceId, spanId, flags] = m as unknown as [string, string, string, string];
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return null;
  const sampled = (Number.parseInt(flags, 16) & TraceFlags.SAMPLED) !== 0;
  return { traceId, spanId, traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE, isRemote: true };
}

const TS_SIMPLE_KEY = /^[a-z][a-z0-9_\-*/]{0,255}$/;
const TS_TENANT_KEY = /^[a-z0-9][a-z0-9_\-*/]{0,240}@[a-z][a-z0-9_\-*/]{0,13}$/;
const TS_VALUE = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/**
 * W3C tracestate: list members joined across headers, at most 32, valid keys and values, no
 * duplicate keys, at most 512 characters. Invalid → dropped (the traceparent may still stand).
 */
export function parseTracestate(values: readonly string[] | null): TraceState | undefined {
  if (!values) return undefined;
  const joined = values.join(',');
  if (joined.length > 512) return undefined;
  const keys = new Set<string>();
  const members: string[] = [];
  for (const raw of joined.split(',')) {
    const member = raw.replace(/^[ \t]+|[ \t]+$/g, '');
    if (member === '') continue;
    const eq = member.indexOf('=');
    if (eq <= 0) return undefined;
    const key = member.slice(0, eq);
    const value = member.slice(eq + 1);
    if (!(TS_SIMPLE_KEY.test(key) || TS_TENANT_KEY.test(key)) || !TS_VALUE.test(value)) return undefined;
    if (keys.has(key)) return undefined;
    keys.add(key);
    members.push(`${key}=${value}`);
  }
  if (members.length === 0 || members.length > 32) return undefined;
  return new TraceState(members.join(','));
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
