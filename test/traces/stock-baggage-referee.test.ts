/**
 * Two stock parsers written by other hands referee the kit's reading of W3C Baggage
 * (fixtures/traces/w3c-baggage.ts, with which R09 judges what a target sends) and the baggage
 * forms R09.11 requires a target to read (fixtures/traces/baggage-forms.ts): OpenTelemetry JS's
 * W3CBaggagePropagator and OpenTelemetry Go's propagation.Baggage (tools/stock-go-traceparent).
 * Each gets the field lines an HTTP server would hand it, as in the traceparent referee.
 *
 * Precision: every form the kit requires a target to read, each parser reads, member by member;
 * and wherever the kit reads a header as valid W3C baggage, each parser reads the same members
 * with the same values, except where that parser departs from W3C — listed below with the rule
 * it breaks, so a new difference fails here until someone decides whose reading is wrong. The
 * parsers are more lenient than W3C elsewhere (a space inside a value); a header the kit calls
 * invalid is not judged, since R09 only requires a target to send valid ones.
 */
import { propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import { W3CBaggagePropagator } from '@opentelemetry/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BAGGAGE_FORMS } from '../../fixtures/traces/baggage-forms.js';
import { goExtract } from '../../fixtures/traces/stock-go-traceparent.js';
import { stockParsers } from '../../fixtures/traces/stock-parsers.js';
import { baggageMembers } from '../../fixtures/traces/w3c-baggage.js';
import { trimOws } from '../../fixtures/traces/w3c-traceparent.js';

type Members = readonly (readonly [string, string])[];
type Parser = (sets: readonly (readonly string[])[]) => Promise<Members[]>;

/** Stock OpenTelemetry JS behind a Node HTTP server (repeated lines joined, RFC 9110 §5.3). */
const jsParser: Parser = async (sets) => {
  const propagator = new W3CBaggagePropagator();
  return sets.map((lines) => {
    const ctx = propagator.extract(
      ROOT_CONTEXT,
      { baggage: lines.join(', ') },
      { get: (c, k) => c[k as 'baggage'], keys: (c) => Object.keys(c) },
    );
    return (propagation.getBaggage(ctx)?.getAllEntries() ?? []).map(([k, e]) => [k, e.value] as const);
  });
};

const stock = stockParsers<Parser>(
  jsParser,
  (bin) => async (sets) =>
    (
      await goExtract(
        bin,
        sets.map((lines) => ({ baggage: lines })),
      )
    ).map((g) => g.baggage),
);

/** Members as a comparable text: order aside (Go keeps baggage in a map). */
const asSet = (m: Members): string => JSON.stringify([...m].map(([k, v]) => `${k}=${JSON.stringify(v)}`).sort());

/** A "%" that starts no percent-encoding: a baggage-octet in W3C's grammar, kept as itself. */
const STRAY_PERCENT = /%(?![0-9A-Fa-f]{2})/;
/** Each member's key and value as sent: split at the first "=", before any property, OWS trimmed. */
const rawMembers = (lines: readonly string[]): [string, string][] =>
  lines
    .join(',')
    .split(',')
    .map((m) => m.split(';', 1)[0]!)
    .filter((m) => m.includes('='))
    .map((m) => [m.slice(0, m.indexOf('=')).trim(), m.slice(m.indexOf('=') + 1).replace(/^[ \t]+|[ \t]+$/g, '')]);
/** Percent-encoded octets that are not UTF-8. */
const notUtf8 = (v: string): boolean =>
  (v.match(/(?:%[0-9A-Fa-f]{2})+/g) ?? []).some((run) => {
    try {
      decodeURIComponent(run);
      return false;
    } catch {
      return true;
    }
  });

/**
 * Where a stock parser reads a member of valid W3C baggage otherwise than the kit: each entry
 * names the member values it covers (only that member is excused, not its header) and the rule
 * broken. Nothing else may differ.
 */
const DEPARTURES: Record<string, readonly { readonly covers: (value: string) => boolean; readonly why: string }[]> = {
  js: [
    {
      covers: (v) => STRAY_PERCENT.test(v),
      why: 'drops a member whose value holds a "%" that starts no percent-encoding (W3C Baggage §value: "%" is a baggage-octet; decodeURIComponent throws)',
    },
    {
      covers: notUtf8,
      why: 'drops a member whose percent-encoded octets are not UTF-8 (W3C Baggage §value: they "MUST be replaced with the replacement code point"; decodeURIComponent throws)',
    },
    {
      covers: (v) => v === '',
      why: 'drops a member with an empty value (W3C Baggage: value = *baggage-octet, so empty is valid)',
    },
  ],
  go: [
    {
      covers: (v) => STRAY_PERCENT.test(v),
      why: 'drops a member whose value holds a "%" that starts no percent-encoding (W3C Baggage §value: "%" is a baggage-octet; url.PathUnescape fails)',
    },
  ],
};

function departure(parser: string, value: string): string | null {
  return DEPARTURES[parser]!.find((d) => d.covers(value))?.why ?? null;
}

// Near-valid baggage: tokens and look-alike keys, values of baggage-octets, percent-encodings
// (valid UTF-8, invalid UTF-8, none at all) and characters W3C forbids, OWS, properties, empty
// members, one or two lines. Keys are unique in a header (W3C leaves duplicates to the vendor).
const OWS = fc.constantFrom('', '', ' ', '\t', ' \t');
const KEY = fc.constantFrom('smtc.tenant_tier', 'smtc.request_class', 'k', 'a-b', 'x_1', 'Key2', "t!#$&'*+-.^_`|~");
const VALUE_PART = fc.constantFrom(
  'gold',
  'Z9',
  '-',
  '.',
  ':/',
  '=',
  '~!',
  '%20',
  '%E2%82%AC',
  '%41',
  '%zz',
  '%',
  '%FF',
  ' ',
  '"',
  '\\',
);
const PROPERTY = fc.constantFrom('', '', ';ttl=60', ';p', ' ; q = 1');
const member = (key: string) =>
  fc
    .tuple(OWS, OWS, fc.array(VALUE_PART, { maxLength: 4 }), OWS, PROPERTY, OWS)
    .map(([a, b, v, c, p, d]) => `${a}${key}${b}=${c}${v.join('')}${p}${d}`);
const nearBaggage: fc.Arbitrary<string[]> = fc
  .uniqueArray(KEY, { minLength: 1, maxLength: 4 })
  .chain((keys) => fc.tuple(...keys.map(member), fc.boolean(), fc.nat({ max: 3 })))
  .map((parts) => {
    const split = parts.at(-2) as boolean;
    const at = parts.at(-1) as number;
    const members = parts.slice(0, -2) as string[];
    if (at === 0) members.push(''); // an empty list-member
    const cut = Math.min(members.length - 1, 1);
    return split && members.length > 1
      ? [members.slice(0, cut).join(','), members.slice(cut).join(',')]
      : [members.join(',')];
  });

const SEED = 20261205;
const SAMPLE = 2000;

/** The parser's answers on a fixed fast-check sample, where `judge` reads valid baggage. */
async function compare(name: string, parse: Parser, judge: typeof baggageMembers) {
  const headers = fc.sample(nearBaggage, { numRuns: SAMPLE, seed: SEED }).map((h) => h.map(trimOws));
  const got = await parse(headers);
  const wrong: string[] = [];
  const departures = new Map<string, number>();
  let judged = 0;
  headers.forEach((lines, i) => {
    const kit = judge(lines);
    if (!('members' in kit)) return;
    judged++;
    // Only a member the parser's listed departures cover may differ; its header's others may not.
    const excused = new Map<string, string>();
    for (const [k, v] of rawMembers(lines)) {
      const why = departure(name, v);
      if (why) excused.set(k, why);
    }
    const kept = (m: Members) => m.filter(([k]) => !excused.has(k));
    if (asSet(kept(kit.members)) !== asSet(kept(got[i]!)))
      wrong.push(`${JSON.stringify(lines)}: kit ${asSet(kit.members)}, ${name} ${asSet(got[i]!)}`);
    else if (asSet(kit.members) !== asSet(got[i]!))
      for (const why of new Set(excused.values())) departures.set(why, (departures.get(why) ?? 0) + 1);
  });
  return { wrong, departures, judged };
}

describe.each(stock.each)('stock OpenTelemetry %s as referee of the kit’s W3C Baggage reading', (name, get) => {
  const parserOr = (ctx: Parameters<typeof stock.orNotRun>[0]): Parser => stock.orNotRun(ctx, get);

  it('reads every schema member of every baggage form R09.11 requires a target to read', async (ctx) => {
    const got = await parserOr(ctx)(BAGGAGE_FORMS.map(([, lines]) => lines.map(trimOws)));
    const missed = BAGGAGE_FORMS.flatMap(([what, , want], i) =>
      Object.entries(want)
        .filter(([k, v]) => !got[i]!.some(([gk, gv]) => gk === k && gv === v))
        .map(([k, v]) => `${what}: ${k}=${v} not read (read ${asSet(got[i]!)})`),
    );
    expect(missed.join('\n')).toBe('');
  });

  it(`reads what the kit reads from valid W3C baggage, on ${SAMPLE} near-valid headers (bar its listed departures)`, async (ctx) => {
    const d = await compare(name, parserOr(ctx), baggageMembers);
    await ctx.annotate(
      `seed ${SEED}: ${d.judged} of ${SAMPLE} valid per the kit; departures: ${
        [...d.departures].map(([w, n]) => `${n} × ${w}`).join('; ') || 'none'
      }`,
    );
    expect(d.judged).toBeGreaterThan(SAMPLE / 4);
    expect(d.wrong.slice(0, 20).join('\n'), `fast-check sample, seed ${SEED}`).toBe('');
  });

  it('control: a reading that skips percent-decoding (against W3C Baggage §value) disagrees with it', async (ctx) => {
    const raw: typeof baggageMembers = (lines) => {
      const r = baggageMembers(lines.map((l) => l.replace(/%/g, '%25')));
      return r;
    };
    const d = await compare(name, parserOr(ctx), raw);
    expect(d.wrong.length).toBeGreaterThan(0);
  });
});
