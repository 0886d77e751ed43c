/**
 * Baggage policy: empty by default; only keys of the contract's BAGGAGE_SCHEMA, with values
 * within its bounds, are ever accepted (from trusted callers), and baggage only travels to
 * trusted internal services — it is stripped before every external call (propagation-policy.ts).
 * Baggage never becomes a span attribute.
 */
import { type Context, propagation } from '@opentelemetry/api';
import { BAGGAGE_SCHEMA } from '../../contract/tracing.js';

/** W3C baggage limits: 8192 bytes per header set, 180 list members. */
const MAX_BAGGAGE_BYTES = 8192;
const MAX_MEMBERS = 180;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export type AcceptedBaggage = Readonly<Record<string, string>>;

/**
 * Parses baggage headers and keeps only schema keys with valid values. Anything malformed —
 * oversized, too many members, undecodable — yields nothing for that member (or, when the
 * header set itself is out of bounds, nothing at all). A key sent twice is ambiguous: dropped.
 */
export function acceptBaggage(values: readonly string[] | null): AcceptedBaggage {
  if (!values) return {};
  const joined = values.join(',');
  if (Buffer.byteLength(joined, 'utf8') > MAX_BAGGAGE_BYTES) return {};
  const members = joined.split(',');
  if (members.length > MAX_MEMBERS) return {};
  const seen = new Map<string, string | null>();
  for (const raw of members) {
    const member = raw.split(';', 1)[0]!.trim();
    const eq = member.indexOf('=');
    if (eq <= 0) continue;
    const key = member.slice(0, eq).trim();
    if (!TOKEN.test(key) || !Object.hasOwn(BAGGAGE_SCHEMA, key)) continue;
    const value = decode(member.slice(eq + 1).trim());
    const rule = BAGGAGE_SCHEMA[key]!;
    const ok = value !== null && value.length <= rule.maxLength && rule.pattern.test(value);
    seen.set(key, seen.has(key) || !ok ? null : value);
  }
  const out: Record<string, string> = {};
  for (const [k, v] of seen) if (v !== null) out[k] = v;
  return out;
}

function decode(v: string): string | null {
  try {
    return decodeURIComponent(v);
  } catch {
    return null;
  }
}

export function withBaggage(ctx: Context, accepted: AcceptedBaggage): Context {
  const entries = Object.entries(accepted);
  if (entries.length === 0) return propagation.deleteBaggage(ctx);
  return propagation.setBaggage(
    ctx,
    propagation.createBaggage(Object.fromEntries(entries.map(([k, v]) => [k, { value: v }]))),
  );
}

/** The baggage header for a trusted internal call, re-checked against the schema; null if empty. */
export function outboundBaggage(ctx: Context): string | null {
  const b = propagation.getBaggage(ctx);
  if (!b) return null;
  const parts: string[] = [];
  for (const [k, e] of b.getAllEntries()) {
    const rule = Object.hasOwn(BAGGAGE_SCHEMA, k) ? BAGGAGE_SCHEMA[k] : undefined;
    if (rule && e.value.length <= rule.maxLength && rule.pattern.test(e.value)) {
      parts.push(`${k}=${encodeURIComponent(e.value)}`);
    }
  }
  return parts.length > 0 ? parts.join(',') : null;
}
