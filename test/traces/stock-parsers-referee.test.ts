/**
 * Two stock parsers written by other hands referee the kit's reading of W3C Trace Context
 * (fixtures/traces/w3c-traceparent.ts) and the traceparent cases its R09 clauses rest on
 * (fixtures/traces/traceparent-cases.ts): OpenTelemetry JS's W3CTraceContextPropagator and
 * OpenTelemetry Go's propagation.TraceContext (tools/stock-go-traceparent). Each gets the field
 * lines an HTTP server would hand it — OWS trimmed (RFC 9110 §5.5); JS's Node server joins
 * repeated lines with ", " (RFC 9110 §5.3), Go's http.Header keeps them apart.
 *
 * Precision: whatever the kit says a vendor MUST ignore, each parser ignores too, except where
 * that parser departs from W3C — listed below with the W3C rule it breaks, so a new difference
 * fails here until someone decides whose reading is wrong. Every case the kit REQUIRES to be
 * continued (R09.9), each parser continues with the same ids. Where the kit only permits
 * continuing, a parser may decline; those are counted, not judged.
 */
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearTraceparent } from '../../fixtures/traces/near-traceparent.js';
import { goExtract, type TraceExtraction } from '../../fixtures/traces/stock-go-traceparent.js';
import { stockParsers } from '../../fixtures/traces/stock-parsers.js';
import { CONTINUABLE, MALFORMED, NON_OWS_WRAPPED, offered } from '../../fixtures/traces/traceparent-cases.js';
import { judgeTraceparent, trimOws } from '../../fixtures/traces/w3c-traceparent.js';

type Lines = Readonly<Record<string, readonly string[]>>;
type Parser = (sets: readonly Lines[]) => Promise<TraceExtraction[]>;

const lowerKeys = (h: Lines): Lines => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

/** Stock OpenTelemetry JS behind a Node HTTP server (repeated lines joined, RFC 9110 §5.3). */
const jsParser: Parser = async (sets) => {
  const propagator = new W3CTraceContextPropagator();
  return sets.map((h) => {
    const joined = Object.fromEntries(Object.entries(lowerKeys(h)).map(([k, v]) => [k, v.join(', ')]));
    const ctx = propagator.extract(ROOT_CONTEXT, joined, {
      get: (c, k) => c[k.toLowerCase()],
      keys: (c) => Object.keys(c),
    });
    const sc = trace.getSpanContext(ctx);
    return sc && trace.isSpanContextValid(sc)
      ? { valid: true, traceId: sc.traceId, spanId: sc.spanId }
      : { valid: false };
  });
};

/**
 * Where a stock parser continues what W3C says to ignore. Each entry: the values it covers and
 * the rule broken. Nothing else may differ.
 */
const DEPARTURES: Record<
  string,
  readonly { readonly covers: (lines: readonly string[]) => boolean; readonly why: string }[]
> = {
  js: [
    {
      // `^\s?…\s?$` in its TRACE_PARENT_REGEX: one character of any Unicode whitespace at either end.
      covers: (lines) => {
        const core = lines.length === 1 ? lines[0]!.replace(/^[^\S \t]/u, '').replace(/[^\S \t]$/u, '') : null;
        return core !== null && core !== lines[0] && judgeTraceparent([core]).kind === 'continuable';
      },
      why: 'accepts one non-OWS whitespace character at either end (W3C grammar: the value is the four fields; RFC 9110 §5.6.3: only SP/HTAB are OWS)',
    },
  ],
  go: [
    {
      covers: (lines) => lines.length > 1,
      why: 'reads only the first of repeated traceparent lines (http.Header.Get); RFC 9110 §5.3 combines them into no valid value, and W3C test_traceparent_duplicated expects a restart',
    },
    {
      covers: (lines) => lines.length === 1 && /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}-$/.test(lines[0]!),
      why: 'continues version 00 followed by a bare dash (W3C §version-format: version 00 is exactly four fields)',
    },
  ],
};

function departure(parser: string, lines: readonly string[]): string | null {
  return DEPARTURES[parser]!.find((d) => d.covers(lines))?.why ?? null;
}

/** The field lines a server hands the parser: OWS around each line is not part of the value. */
const delivered = (lines: readonly string[]): string[] => lines.map(trimOws);

const stock = stockParsers<Parser>(jsParser, (bin) => (sets) => goExtract(bin, sets));

const SEED = 20261205;
const SAMPLE = 3000;

/** The parser's answers on a fixed fast-check sample of near-valid values, judged by `judge`. */
async function compare(name: string, parse: Parser, judge: typeof judgeTraceparent) {
  const values = fc.sample(nearTraceparent, { numRuns: SAMPLE, seed: SEED });
  const got = await parse(values.map((v) => ({ traceparent: delivered([v]) })));
  const wrong: string[] = [];
  const departures = new Map<string, number>();
  let declined = 0;
  values.forEach((v, i) => {
    const j = judge([v]);
    const g = got[i]!;
    if (j.kind === 'must-ignore' && g.valid) {
      const why = departure(name, delivered([v]));
      if (why) departures.set(why, (departures.get(why) ?? 0) + 1);
      else wrong.push(`kit: must ignore; ${name} continues ${JSON.stringify(v)}`);
    } else if (j.kind === 'continuable' && g.valid && (g.traceId !== j.traceId || g.spanId !== j.parentId)) {
      wrong.push(`kit and ${name} read other ids from ${JSON.stringify(v)}`);
    } else if (j.kind === 'continuable' && !g.valid) declined++;
  });
  return { wrong, departures, declined };
}

describe.each(stock.each)('stock OpenTelemetry %s as referee of the kit’s W3C reading', (name, get) => {
  const parserOr = (ctx: Parameters<typeof stock.orNotRun>[0]): Parser => stock.orNotRun(ctx, get);

  it('ignores every traceparent an R09.1/R09.3 or R09.14 clause requires a target to ignore, bar its listed departures from W3C', async (ctx) => {
    const parse = parserOr(ctx);
    const cases = [
      ...MALFORMED.map(([family, make]) => {
        const o = offered(family);
        const v = make(o);
        return { family, o, lines: Array.isArray(v) ? v : [v] };
      }),
      ...NON_OWS_WRAPPED.map(([family, make]) => {
        const o = offered(`non-ows-${family}`);
        return { family, o, lines: [make(o)] };
      }),
    ];
    const got = await parse(cases.map((c) => ({ traceparent: delivered(c.lines) })));
    const wrong: string[] = [];
    const departed: string[] = [];
    cases.forEach((c, i) => {
      const g = got[i]!;
      if (!g.valid || g.traceId !== c.o.trace) return;
      const why = departure(name, delivered(c.lines));
      (why ? departed : wrong).push(`${c.family}: ${JSON.stringify(c.lines)}${why ? ` — ${why}` : ''}`);
    });
    if (departed.length > 0)
      await ctx.annotate(`${departed.length} continued by its departures: ${departed.join('; ')}`);
    expect(wrong.join('\n'), 'a case the kit says to ignore that a stock parser continues').toBe('');
  });

  it('continues every traceparent R09.9 requires a target to continue, with its trace id and parent id', async (ctx) => {
    const parse = parserOr(ctx);
    const cases = CONTINUABLE.map(([family, make]) => {
      const o = offered(`continuable-${family}`);
      const headers = Object.fromEntries(
        Object.entries(make(o)).map(([k, v]) => [k, delivered(Array.isArray(v) ? v : [v])]),
      );
      return { family, o, headers };
    });
    const got = await parse(cases.map((c) => c.headers));
    const missed = cases
      .map((c, i) => ({ c, g: got[i]! }))
      .filter(({ c, g }) => !g.valid || g.traceId !== c.o.trace || g.spanId !== c.o.span)
      .map(({ c, g }) => `${c.family}: ${JSON.stringify(c.headers)} → ${JSON.stringify(g)}`);
    expect(missed.join('\n')).toBe('');
  });

  it('agrees with the kit’s judgement on 3,000 near-valid traceparents: never continues what W3C says to ignore (bar its listed departures), and continues with the same ids', async (ctx) => {
    const d = await compare(name, parserOr(ctx), judgeTraceparent);
    await ctx.annotate(
      `seed ${SEED}: ${SAMPLE} values; declined where the kit permits continuing: ${d.declined}; departures: ${
        [...d.departures].map(([w, n]) => `${n} × ${w}`).join('; ') || 'none'
      }`,
    );
    expect(d.wrong.slice(0, 20).join('\n'), `fast-check sample, seed ${SEED}`).toBe('');
  });

  it('control: a reading that overreaches W3C (every version but 00 ignored, against §versioning) disagrees with it', async (ctx) => {
    const overreach: typeof judgeTraceparent = (lines) =>
      lines.some((l) => !trimOws(l).startsWith('00-')) ? { kind: 'must-ignore' } : judgeTraceparent(lines);
    const d = await compare(name, parserOr(ctx), overreach);
    expect(d.wrong.length).toBeGreaterThan(0);
  });
});
