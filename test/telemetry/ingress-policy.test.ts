import { propagation, ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcParams } from '../../fixtures/properties/fc-params.js';
import {
  decideIngress,
  headerValues,
  parseTraceparent,
  parseTracestate,
} from '../../reference-impl/telemetry/ingress-policy.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';
const VALID = `00-${TRACE}-${SPAN}-01`;

describe('ingress policy: traceparent parsing', () => {
  it('accepts exactly one well-formed version-00 value', () => {
    expect(parseTraceparent([VALID])).toEqual({
      traceId: TRACE,
      spanId: SPAN,
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
    expect(parseTraceparent([`00-${TRACE}-${SPAN}-00`])?.traceFlags).toBe(TraceFlags.NONE);
  });

  const malformed: Record<string, string[]> = {
    'version ff': [`ff-${TRACE}-${SPAN}-01`],
    'higher version, flags followed by a dot': [`cc-${TRACE}-${SPAN}-01.future`],
    'higher version shorter than 55': [`cc-${TRACE}-${SPAN}-1`],
    'uppercase version': [`CC-${TRACE}-${SPAN}-01`],
    'all-zero trace id': [`00-${'0'.repeat(32)}-${SPAN}-01`],
    'all-zero span id': [`00-${TRACE}-${'0'.repeat(16)}-01`],
    'uppercase hex': [`00-${TRACE.toUpperCase()}-${SPAN}-01`],
    'uppercase flags': ['00-' + TRACE + '-' + SPAN + '-0A'],
    'short trace id': [`00-${TRACE.slice(1)}-${SPAN}-01`],
    'long trace id': [`00-${TRACE}0-${SPAN}-01`],
    'short span id': [`00-${TRACE}-${SPAN.slice(1)}-01`],
    'short flags': [`00-${TRACE}-${SPAN}-1`],
    'extra field on 00': [`${VALID}-ff`],
    'duplicate header values': [VALID, VALID],
    'whitespace inside': [`00- ${TRACE}-${SPAN}-01`],
    'vertical tab around (not OWS)': [`\v${VALID}`],
    'tab inside': [`00-${TRACE}\t-${SPAN}-01`],
    'comma-joined duplicates': [`${VALID},${VALID}`],
    'binary garbage': ['\u0000\u00ff\ud800garbage'],
    empty: [''],
    'wrong separators': [`00_${TRACE}_${SPAN}_01`],
  };
  for (const [family, values] of Object.entries(malformed)) {
    it(`rejects ${family}`, () => {
      expect(parseTraceparent(values)).toBeNull();
      const d = decideIngress({ traceparent: values }, true);
      expect(d.verdict).toBe('malformed');
      expect(trace.getSpanContext(d.context)).toBeUndefined();
    });
  }

  // W3C Trace Context §versioning and RFC 9110 §5.5 (OWS is not part of a field value).
  const continued: Record<string, [string, number]> = {
    'leading space': [` ${VALID}`, TraceFlags.SAMPLED],
    'leading tab': [`\t${VALID}`, TraceFlags.SAMPLED],
    'trailing space': [`${VALID} `, TraceFlags.SAMPLED],
    'trailing tab': [`${VALID}\t`, TraceFlags.SAMPLED],
    'OWS both sides': [`\t ${VALID} \t`, TraceFlags.SAMPLED],
    'higher version cc': [`cc-${TRACE}-${SPAN}-01`, TraceFlags.SAMPLED],
    'higher version cc with extra fields': [`cc-${TRACE}-${SPAN}-01-what-the-future-will-be-like`, TraceFlags.SAMPLED],
    'higher version keeps only the sampled bit': [`cc-${TRACE}-${SPAN}-ff`, TraceFlags.SAMPLED],
    'Level 2 random flag': [`00-${TRACE}-${SPAN}-02`, 2],
    'sampled and random': [`00-${TRACE}-${SPAN}-03`, 3],
    'reserved bits cleared': [`00-${TRACE}-${SPAN}-ff`, 3],
  };
  for (const [family, [value, flags]] of Object.entries(continued)) {
    it(`continues ${family}`, () => {
      const d = decideIngress({ traceparent: value }, true);
      expect(d.verdict).toBe('continued');
      const sc = trace.getSpanContext(d.context);
      expect(sc?.traceId).toBe(TRACE);
      expect(sc?.spanId).toBe(SPAN);
      expect(sc?.traceFlags).toBe(flags);
    });
  }

  it('treats the same header under two name casings as a duplicate', () => {
    expect(headerValues({ traceparent: VALID, TraceParent: VALID }, 'traceparent')).toHaveLength(2);
    expect(decideIngress({ traceparent: VALID, TraceParent: VALID }, true).verdict).toBe('malformed');
  });

  it('ignores oversized values without parsing them', () => {
    expect(decideIngress({ traceparent: VALID + 'x'.repeat(100_000) }, true).verdict).toBe('malformed');
  });

  it('never throws and never continues anything but a W3C-valid header (property)', () => {
    const strict = /^[ \t]*00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}[ \t]*$/;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 80 }),
          fc.string({ maxLength: 80 }),
          fc.constantFrom(VALID, VALID.toUpperCase(), ` ${VALID}`),
        ),
        fc.boolean(),
        (value, trusted) => {
          const d = decideIngress({ traceparent: value, tracestate: value, baggage: value }, trusted);
          const sc = trace.getSpanContext(d.context);
          if (sc) {
            expect(trusted).toBe(true);
            expect(strict.test(value)).toBe(true);
            expect(sc.traceId).toBe(value.trim().slice(3, 35));
          }
        },
      ),
      fcParams(300),
    );
  });
});

describe('ingress policy: trust', () => {
  it('replaces valid context from an untrusted caller, with its baggage', () => {
    const d = decideIngress({ traceparent: VALID, baggage: 'smtc.tenant_tier=gold' }, false);
    expect(d.verdict).toBe('untrusted');
    expect(trace.getSpanContext(d.context)).toBeUndefined();
    expect(propagation.getBaggage(d.context)).toBeUndefined();
  });

  it('continues valid context from a trusted caller, keeping schema baggage only', () => {
    const d = decideIngress(
      { traceparent: VALID, tracestate: 'vendor=abc', baggage: 'smtc.tenant_tier=gold,user.email=a%40b.c' },
      true,
    );
    expect(d.verdict).toBe('continued');
    const sc = trace.getSpanContext(d.context);
    expect(sc?.traceId).toBe(TRACE);
    expect(sc?.traceState?.get('vendor')).toBe('abc');
    expect(propagation.getBaggage(d.context)?.getAllEntries()).toEqual([['smtc.tenant_tier', { value: 'gold' }]]);
  });

  it('starts a fresh root when no traceparent is sent', () => {
    const d = decideIngress({}, true);
    expect(d.verdict).toBe('absent');
    expect(trace.getSpanContext(d.context)).toBeUndefined();
    expect(decideIngress(undefined, false).context).toBe(ROOT_CONTEXT);
  });
});

describe('ingress policy: tracestate', () => {
  it('keeps valid list members, joined across headers', () => {
    expect(parseTracestate(['a=1', 'b@sys=2 , c=3'])?.serialize()).toBe('a=1,b@sys=2,c=3');
  });
  it('keeps keys of the current W3C key grammar and leading spaces of a value', () => {
    expect(parseTracestate(['foo@@bar=1,t@vvvvvvvvvvvvvvv=2,1a= x'])?.serialize()).toBe(
      'foo@@bar=1,t@vvvvvvvvvvvvvvv=2,1a= x',
    );
  });
  it('drops a duplicated key, not the list (W3C: vendors MAY discard duplicate keys)', () => {
    expect(parseTracestate(['a=1,b=2', 'a=3'])?.serialize()).toBe('a=1,b=2');
  });
  it('truncates whole entries, long ones first, to 512 characters', () => {
    const long = `big=${'x'.repeat(200)}`;
    const small = Array.from({ length: 31 }, (_, i) => `k${String(i).padStart(2, '0')}=${'v'.repeat(10)}`);
    const ts = parseTracestate([[long, ...small].join(',')])!.serialize();
    expect(ts.length).toBeLessThanOrEqual(512);
    expect(ts).not.toContain('big=');
    expect(ts.startsWith('k00=')).toBe(true);
  });
  it.each([
    ['a key starting with @', ['@a=1,b=2']],
    ['uppercase key', ['A=1']],
    ['missing value separator', ['novalue']],
    ['too many members', [Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(',')]],
    ['an empty value', ['a=,b=3']],
    ['value with "="', ['a=b=c']],
  ])('drops %s but keeps the parent', (_family, values) => {
    expect(parseTracestate(values)).toBeUndefined();
    const d = decideIngress({ traceparent: VALID, tracestate: values }, true);
    expect(d.verdict).toBe('continued');
    expect(trace.getSpanContext(d.context)?.traceState).toBeUndefined();
  });
});
