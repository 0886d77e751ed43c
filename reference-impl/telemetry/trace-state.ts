/**
 * W3C `tracestate` as the reference keeps it. OpenTelemetry's own TraceState re-validates keys
 * against the Level 1 key grammar and silently drops keys the current grammar allows
 * (`foo@@bar`, `t@vvvvvvvvvvvvvvv`), so the reference parses and holds the list itself:
 * RFC 9110 list combining across field lines, OWS around members ignored, empty members
 * skipped, an invalid member or more than 32 members discards the whole list, a duplicated key
 * keeps its first member (W3C: vendors MAY discard duplicate keys), and an over-long list is
 * truncated by whole entries (entries over 128 characters first, then from the end).
 */
import type { TraceState } from '@opentelemetry/api';

/** W3C §tracestate key: `( lcalpha / DIGIT ) 0*255 ( keychar )`. */
const KEY = /^[a-z0-9][a-z0-9_\-*/@]{0,255}$/;
/** W3C §tracestate value: `0*255(chr) nblk-chr`. */
const VALUE = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
const MAX_MEMBERS = 32;
/** W3C: vendors SHOULD propagate at least 512 characters of a combined header. */
const MAX_LENGTH = 512;
const LONG_ENTRY = 128;
/** Longest combined input looked at (32 maximal members with separators fit well within). */
const MAX_INPUT = 32 * 520;

type Member = readonly [key: string, value: string];

export class W3CTraceState implements TraceState {
  private constructor(private readonly members: readonly Member[]) {}

  /** Parses the field lines of `tracestate`; undefined when absent, empty or discarded. */
  static parse(lines: readonly string[] | null): W3CTraceState | undefined {
    if (!lines || lines.length === 0) return undefined;
    const combined = lines.join(',');
    if (combined.length > MAX_INPUT) return undefined;
    const members: Member[] = [];
    const seen = new Set<string>();
    let count = 0;
    for (const raw of combined.split(',')) {
      const m = raw.replace(/^[ \t]+|[ \t]+$/g, '');
      if (m === '') continue;
      if (++count > MAX_MEMBERS) return undefined;
      const eq = m.indexOf('=');
      if (eq <= 0) return undefined;
      const key = m.slice(0, eq);
      const value = m.slice(eq + 1);
      if (!KEY.test(key) || !VALUE.test(value)) return undefined;
      if (seen.has(key)) continue;
      seen.add(key);
      members.push([key, value]);
    }
    return members.length > 0 ? new W3CTraceState(truncate(members)) : undefined;
  }

  get(key: string): string | undefined {
    return this.members.find(([k]) => k === key)?.[1];
  }

  set(key: string, value: string): W3CTraceState {
    if (!KEY.test(key) || !VALUE.test(value)) return this;
    return new W3CTraceState(truncate([[key, value], ...this.members.filter(([k]) => k !== key)]));
  }

  unset(key: string): W3CTraceState {
    return new W3CTraceState(this.members.filter(([k]) => k !== key));
  }

  serialize(): string {
    return this.members.map(([k, v]) => `${k}=${v}`).join(',');
  }
}

function length(members: readonly Member[]): number {
  return members.reduce((n, [k, v]) => n + k.length + v.length + 1, 0) + Math.max(0, members.length - 1);
}

/** W3C §tracestate limits: truncate whole entries, those over 128 characters first, then from the end. */
function truncate(members: readonly Member[]): readonly Member[] {
  const out = [...members];
  while (length(out) > MAX_LENGTH) {
    const long = out.findIndex(([k, v]) => k.length + v.length + 1 > LONG_ENTRY);
    out.splice(long >= 0 ? long : out.length - 1, 1);
  }
  return out;
}
