/**
 * R09 — malformed external context and forbidden-baggage rejection. Runs are started with the
 * W3C malformed-traceparent families, valid-but-untrusted context and hostile baggage; what
 * the target exported (collector) and sent outward (provider, tool and trusted-service stubs,
 * which record every header) shows whether context was ignored, replaced or propagated.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { ErrorCode } from '../contract/errors.js';
import type { Principals } from '../contract/principals.js';
import type { RunOutcome, RunRequest, RunStep } from '../contract/runs.js';
import { BAGGAGE_SCHEMA, SPAN } from '../contract/tracing.js';
import { asContractError } from '../fixtures/assertions/contract-error.js';
import { useCollector } from '../fixtures/collector/use-collector.js';
import { fcParams } from '../fixtures/properties/fc-params.js';
import { authorizedTool } from '../fixtures/scenario/authorized-tool.js';
import { forgedHandle, MISMATCH_REFUSALS, unlessRefused } from '../fixtures/scenario/forged-handle.js';
import { needCapability, unsupportedByTarget } from '../fixtures/scenario/need.js';
import { SPEC } from '../fixtures/scenario/thread-session.js';
import { trustedCaller } from '../fixtures/scenario/trusted-caller.js';
import { startLookalikeStubs } from '../fixtures/stubs/lookalike-stubs.js';
import type { RecordedCall } from '../fixtures/stubs/recording-server.js';
import { useStubs } from '../fixtures/stubs/use-stubs.js';
import { useTarget } from '../fixtures/targets/use-target.js';
import { BAGGAGE_FORMS } from '../fixtures/traces/baggage-forms.js';
import { contractRule } from '../fixtures/traces/contract-rules.js';
import { expectedSpans } from '../fixtures/traces/expected-spans.js';
import { spansOfTrace } from '../fixtures/traces/run-trace.js';
import {
  CONTINUABLE,
  MALFORMED,
  NON_OWS_WRAPPED,
  type Offered,
  offered,
} from '../fixtures/traces/traceparent-cases.js';
import { baggageMembers } from '../fixtures/traces/w3c-baggage.js';
import { judgeTraceparent } from '../fixtures/traces/w3c-traceparent.js';
import { tracestateMembers } from '../fixtures/traces/w3c-tracestate.js';

const c = useCollector();
const s = useStubs();
const t = useTarget(() => ({ collectorUrl: c().tracesUrl, ...s().urls() }));

const TRACE_HEADERS = ['traceparent', 'tracestate', 'baggage'];

/**
 * Baggage and tracestate in forms W3C lets a sender use (the name, the headers beside a valid
 * traceparent, the schema members and tracestate members that must reach the trusted service):
 * W3C Baggage (OWS around "=" and ",", properties after a value; several header lines combine as
 * RFC 9110 §5.3 says), W3C Trace Context §tracestate (vendors MUST send a received tracestate on,
 * their own member aside, keeping the order of the members they do not modify; two lines
 * combine in order; OWS around a list-member and empty list-members are allowed and do not make
 * the list invalid). A "%" that starts no percent-encoding makes a value
 * outside the schema, dropped, while the other member still travels. An invalid list-member
 * MAY make a vendor discard it or the whole list, and W3C only asks (SHOULD) that 512
 * characters be propagated, so those two forms require no member, only that the request
 * completes and what is sent is W3C-valid tracestate.
 */
/**
 * List-members both Levels of W3C's tracestate grammar rule out (§key: lowercase letters, digits
 * and `_-*\/@`, at most 256; §value: printable ASCII but `,` and `=`, at most 256, no trailing
 * space): a vendor may drop such a member or the list, never send it on. (A key starting with a
 * digit, or a vendor part over 14, is Level 2-valid: not here.)
 */
const INVALID_TRACESTATE_MEMBERS: readonly [string, string][] = [
  ['a dot in the key', 'congo.x=t61rcWkgMzE'],
  ['an uppercase key', 'Congo=t61rcWkgMzE'],
  ['an all-uppercase key', 'CONGO=t61rcWkgMzE'],
  ['an uppercase vendor after the tenant', 'tenant@Congo=t61rcWkgMzE'],
  ['a key of 257 characters', `${'k'.repeat(257)}=t61rcWkgMzE`],
  ['an "=" in the value', 'congo=t61r=cWkg'],
  ['a value of 257 characters', `congo=${'v'.repeat(257)}`],
  ['a non-ASCII value', 'congo=t61rcWkg\u00e9'],
  // OWS surrounds a list-member, never its key or "=": a key with a space before "=" is no key.
  ['a space before "="', 'congo =t61rcWkgMzE'],
  ['a tab before "="', 'congo\t=t61rcWkgMzE'],
];

/**
 * Baggage members that only look like the schema's (contract/tracing.ts BAGGAGE_SCHEMA: exact
 * keys, values of `[a-z0-9_]{1,16}`): a key in another case is another key, and a value outside
 * the pattern is not schema-defined, whatever its length. Each carries a marker that must not
 * reach a trusted internal service.
 */
const OFF_SCHEMA_BAGGAGE: readonly [string, string, string][] = [
  ['a schema key in upper case', 'SMTC.TENANT_TIER=upkeytier', 'upkeytier'],
  ['a schema key in mixed case', 'Smtc.Request_Class=mixkeyclass', 'mixkeyclass'],
  ['a value with upper-case letters', 'smtc.tenant_tier=GoldTierMark', 'GoldTierMark'],
  ['a value with a dash', 'smtc.tenant_tier=dash-mark', 'dash-mark'],
  ['a value with a dot', 'smtc.request_class=dot.mark', 'dot.mark'],
  ['a value of 17 characters', `smtc.tenant_tier=${'q'.repeat(17)}`, 'q'.repeat(17)],
  ['a percent-encoded space in the value', 'smtc.request_class=spaced%20mark', 'spaced'],
  // A value is everything after the first "=" (W3C Baggage: "Parsers MUST NOT assume that the
  // equal sign is only used to separate key and value"), up to ";" or ","; a parser that splits
  // at every "=", at a space or at a quote reads a schema-valid prefix of a value that is not.
  ['a value with a second "="', 'smtc.tenant_tier=eqmark=platinum', 'eqmark'],
  ['a value with "=" at its end', 'smtc.request_class=eqendmark=', 'eqendmark'],
  ['a value that goes on after a space', 'smtc.request_class=spacemark tail', 'spacemark'],
  ['a value in double quotes', 'smtc.tenant_tier="quotemark"', 'quotemark'],
  // Keys one character off a schema key: a key matched as a pattern, by prefix or by edit
  // distance rather than exactly, lets them through.
  ...Object.keys(BAGGAGE_SCHEMA).flatMap((key, i): [string, string, string][] => [
    [`${key} with its dot as an underscore`, `${key.replace('.', '_')}=lookunder${i}`, `lookunder${i}`],
    [`${key} with its dot as a dash`, `${key.replace('.', '-')}=lookdash${i}`, `lookdash${i}`],
    [`${key} with its dot as a letter`, `${key.replace('.', 'x')}=lookletter${i}`, `lookletter${i}`],
    [`${key} with a character after it`, `${key}s=looksuffix${i}`, `looksuffix${i}`],
    [`${key} cut short by a character`, `${key.slice(0, -1)}=lookshort${i}`, `lookshort${i}`],
  ]),
];

/** A form of trace context: what, the headers sent, the baggage and tracestate members that must reach the trusted service. */
type ContextForm = [string, Record<string, string | string[]>, Record<string, string>, string[]];

const CONTEXT_FORMS: readonly ContextForm[] = [
  ...BAGGAGE_FORMS.map(
    ([what, lines, members]): ContextForm => [
      what,
      { baggage: lines.length === 1 ? lines[0]! : [...lines] },
      { ...members },
      [],
    ],
  ),
  [
    'tracestate of two vendors',
    { tracestate: 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE' },
    {},
    ['rojo=00f067aa0ba902b7', 'congo=t61rcWkgMzE'],
  ],
  [
    'tracestate in two header lines',
    { tracestate: ['congo=t61rcWkgMzE', 'rojo=00f067aa0ba902b7'] },
    {},
    ['congo=t61rcWkgMzE', 'rojo=00f067aa0ba902b7'],
  ],
  [
    'tracestate with whitespace around members and empty members',
    { tracestate: ['rojo=00f067aa0ba902b7 \t,, \t', '\t congo=t61rcWkgMzE  ,'] },
    {},
    ['rojo=00f067aa0ba902b7', 'congo=t61rcWkgMzE'],
  ],
  ...INVALID_TRACESTATE_MEMBERS.map(
    ([what, member]): ContextForm => [
      `tracestate with an invalid member (${what})`,
      { tracestate: `rojo=00f067aa0ba902b7,${member}` },
      {},
      [],
    ],
  ),
  [
    'tracestate of 32 short members, over 512 characters',
    { tracestate: Array.from({ length: 32 }, (_, i) => `v${i}=0123456789abcdef`).join(',') },
    {},
    [],
  ],
  // Over 512 characters with one member over 128 (W3C §3.3.1.5: such members SHOULD go first,
  // then members from the end) first, in the middle or last: which members a target keeps is a
  // SHOULD, but what it keeps stays in the order received (bug bash 8, telemetry-04).
  ...(['first', 'in the middle', 'last'] as const).map((where): ContextForm => {
    const short = Array.from({ length: 20 }, (_, i) => `k${String(i).padStart(2, '0')}=${'v'.repeat(20)}${i}`);
    const at = where === 'first' ? 0 : where === 'last' ? short.length : 10;
    const members = [...short.slice(0, at), `long=${'x'.repeat(200)}`, ...short.slice(at)];
    return [
      `tracestate over 512 characters with a 200-character member ${where}`,
      { tracestate: members.join(',') },
      {},
      [],
    ];
  }),
  // One and two members over W3C's 32, well under 512 characters (so no truncation by size can
  // hide the count): whatever the target keeps, what it sends holds at most 32 (bug bash 4, 03).
  ...[33, 34].map(
    (n): ContextForm => [
      `tracestate of ${n} short members, under 512 characters`,
      { tracestate: Array.from({ length: n }, (_, i) => `m${i}=${i}`).join(',') },
      {},
      [],
    ],
  ),
];

/** The baggage of every call the trusted internal service received, as one list. */
function baggageSentToTrusted(): string {
  return s()
    .trusted.calls()
    .flatMap((call) => headerOf(call, 'baggage'))
    .join(',');
}

/** Every member sent is an exact schema key. */
function expectOnlySchemaKeys(baggage: string): void {
  for (const m of baggage.split(',').filter((x) => x.trim() !== '')) {
    expect(Object.keys(BAGGAGE_SCHEMA)).toContain(m.split('=')[0]!.trim());
  }
}

/** A tool the target lets alice's runs invoke (null: the target authorizes no test tool). */
let tool: string | null = null;
beforeAll(async () => {
  if (t.created()) tool = await authorizedTool(t(), t().principals.alice, t().principals.agents[0]);
});

/** Provider, tool, subagent and trusted-service calls, then output. */
function stepsWith(toolName: string): RunStep[] {
  return [
    { type: 'provider', prompt: 'Draft a reply.' },
    { type: 'tool', tool: toolName, args: '{"q":"status"}' },
    { type: 'subagent', steps: [{ type: 'provider', prompt: 'Check the draft.' }] },
    { type: 'internal_call' },
    { type: 'emit', text: 'Reply drafted.' },
  ];
}
function script(ctx: TestContext): RunStep[] {
  if (!tool) unsupportedByTarget(ctx, 'the target authorizes none of the test tools for agents[0]');
  return stepsWith(tool);
}

/**
 * Starts a run. `trusted`: as the target's trusted internal service, whose context its ingress
 * policy continues (not run where the target declares none); otherwise as alice, a user whose
 * context is never continued.
 */
async function start(
  ctx: TestContext,
  trusted: boolean,
  extra: Partial<RunRequest>,
  steps: RunStep[],
): Promise<RunOutcome> {
  const target = t();
  const caller = trusted ? trustedCaller(ctx, target) : target.principals.alice;
  const b = await target.bindings.open(caller, SPEC);
  return target.runs!.start(caller, { bindingId: b.bindingId, agent: target.principals.agents[0], steps, ...extra });
}

/** Headers and request fields by which a caller claims a trust the server never gave it. */
const CLAIMS: readonly (readonly [string, Record<string, string>, Record<string, unknown>])[] = [
  ['x-trusted-ingress header', { 'x-trusted-ingress': 'true' }, {}],
  ['internal-service style headers', { 'x-internal-service': 'true', 'x-smtc-ingress': 'trusted' }, {}],
  ['the retired trustedIngress request field', {}, { trustedIngress: true }],
];

/**
 * Credentials a forged handle with the trusted internal service's labels carries (name, the
 * credential, the refusals allowed): every other identity's, and one that authenticates nobody.
 */
const FORGED_SERVICE_HANDLES: readonly (readonly [string, (p: Principals) => string, readonly ErrorCode[]])[] = [
  ...(['alice', 'bob', 'carol', 'adminA', 'adminB', 'approverA'] as const).map(
    (who) => [`${who}'s credential`, (p: Principals) => p[who].credential, MISMATCH_REFUSALS] as const,
  ),
  ['a credential that authenticates nobody', (p) => p.anonymousCredential, ['unauthenticated']],
];

/** A script without a tool step (the credential's owner may be authorized no test tool). */
const UNTOOLED: RunStep[] = [
  { type: 'provider', prompt: 'Draft a reply.' },
  { type: 'internal_call' },
  { type: 'emit', text: 'Reply drafted.' },
];

/** Every value of a header in a recorded call, whatever the case of its name. */
function headerOf(call: RecordedCall, name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < call.rawHeaders.length; i += 2) {
    if (call.rawHeaders[i]!.toLowerCase() === name) out.push(call.rawHeaders[i + 1]!);
  }
  return out;
}

/** The run completed, produced its output, and recorded a fresh root trace (not the offered one). */
async function expectFreshRecordedRoot(outcome: RunOutcome, o: Offered, steps?: RunStep[]): Promise<void> {
  expect(outcome.state).toBe('completed');
  expect(outcome.events.some((e) => e.type === 'output' && e.text === 'Reply drafted.')).toBe(true);
  expect(outcome.traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(outcome.traceId).not.toBe(o.trace);
  // Judged once the trace holds every span the script yields (script() ran, so the tool is known).
  const spans = await spansOfTrace(t(), c(), outcome.traceId!, { spans: expectedSpans(steps ?? stepsWith(tool!)) });
  const request = spans.filter((x) => x.name === SPAN.request);
  expect(request, 'the request is recorded and exported (sampling stays on)').toHaveLength(1);
  expect(request[0]!.parentSpanId).toBeNull();
  expect(spans.some((x) => x.name === SPAN.run)).toBe(true);
  expect(
    c()
      .spans()
      .filter((x) => x.traceId === o.trace),
  ).toEqual([]);
  // The trusted service sees the run's own trace, not the one offered at ingress.
  const seen = s()
    .trusted.calls()
    .flatMap((call) => headerOf(call, 'traceparent'));
  expect(seen.length).toBeGreaterThan(0);
  for (const tp of seen) expect(tp.split('-')[1]).toBe(outcome.traceId);
}

/** The random flag (bit 1) of every traceparent the trusted service received for a run continued with `flags`: set, clear or both. */
async function randomFlagOut(ctx: TestContext, flags: string, steps: RunStep[]): Promise<string> {
  s().resetAll();
  const o = offered(`flags-${flags}`);
  const outcome = await start(ctx, true, { headers: { traceparent: `00-${o.trace}-${o.span}-${flags}` } }, steps);
  expect(outcome.state).toBe('completed');
  expect(outcome.traceId, `flags ${flags}: the W3C-valid parent is continued (R09.9)`).toBe(o.trace);
  const seen = s()
    .trusted.calls()
    .flatMap((call) => headerOf(call, 'traceparent'));
  expect(seen.length, 'the trusted internal service receives a traceparent').toBeGreaterThan(0);
  const bits = new Set(
    seen.map((tp) => ((Number.parseInt(tp.split('-')[3] ?? '', 16) & 0x02) === 0x02 ? 'set' : 'clear')),
  );
  return [...bits].sort().join('+');
}

describe('R09 malformed external context and forbidden-baggage rejection', () => {
  it.for(MALFORMED)(
    'R09.1 malformed traceparent (%s) from a trusted caller is ignored (W3C: vendors MUST ignore it): no error, a fresh recorded root',
    async ([family, malformed], ctx) => {
      needCapability(ctx, t(), 'runs', 'telemetry');
      s().resetAll();
      const o = offered(family);
      const outcome = await start(ctx, true, { headers: { traceparent: malformed(o) } }, script(ctx));
      await expectFreshRecordedRoot(outcome, o);
    },
  );

  it.for([
    ['no traceparent', () => ({})],
    ['a malformed traceparent', () => ({ traceparent: 'not-a-traceparent' })],
    ['a traceparent of version ff', (o: Offered) => ({ traceparent: `ff-${o.trace}-${o.span}-01` })],
    ['an all-zero trace id', (o: Offered) => ({ traceparent: `00-${'0'.repeat(32)}-${o.span}-01` })],
    ['a valid traceparent', (o: Offered) => ({ traceparent: o.valid })],
  ] as const)(
    `R09.2 an untrusted caller's schema-valid baggage is dropped whatever its traceparent (%s): none of it reaches the trusted internal service (${contractRule('ingressPolicy')}; "Baggage is empty by default")`,
    async ([form, traceparent], ctx) => {
      needCapability(ctx, t(), 'runs', 'telemetry');
      s().resetAll();
      const o = offered(`untrusted-baggage-${form}`);
      const outcome = await start(
        ctx,
        false,
        { headers: { ...traceparent(o), baggage: 'smtc.tenant_tier=untrustedtier,smtc.request_class=untrustedclass' } },
        script(ctx),
      );
      expect(outcome.state).toBe('completed');
      const calls = s().trusted.calls();
      expect(calls.length, 'the trusted internal service is called').toBeGreaterThan(0);
      const baggage = calls.flatMap((call) => headerOf(call, 'baggage')).join(',');
      expect(baggage, "an untrusted caller's baggage reached the trusted internal service").not.toMatch(
        /untrustedtier|untrustedclass/,
      );
    },
  );

  it(`R09.2 valid context from an untrusted caller is replaced, even when it says "not sampled" (W3C allows a restart; ${contractRule('ingressPolicy')})`, async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    for (const flags of ['01', '00']) {
      s().resetAll();
      const o = offered(`untrusted-${flags}`);
      const outcome = await start(
        ctx,
        false,
        { headers: { traceparent: `00-${o.trace}-${o.span}-${flags}`, tracestate: 'vendor=opaque' } },
        script(ctx),
      );
      await expectFreshRecordedRoot(outcome, o);
    }
  });

  it('R09.3 a malformed header carrying "not sampled" does not switch recording off (W3C: a malformed header is ignored entirely, flags included)', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    const variants: ((o: Offered) => string)[] = [
      (o) => `00-${o.trace.toUpperCase()}-${o.span}-00`,
      (o) => `00-${o.trace}-${o.span}-0`,
      (o) => `00-${o.trace}-${o.span}-00-x`,
      (o) => `FF-${o.trace}-${o.span}-00`,
      (o) => `cc-${o.trace.toUpperCase()}-${o.span}-00`,
    ];
    for (const [i, variant] of variants.entries()) {
      s().resetAll();
      const o = offered(`unsampled-${i}`);
      await expectFreshRecordedRoot(await start(ctx, true, { headers: { traceparent: variant(o) } }, script(ctx)), o);
    }
  });

  it(`R09.4 trace context never authenticates: a valid traceparent with a bad credential is unauthenticated (${contractRule('correlationOnly')})`, async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    const target = t();
    const alice = target.principals.alice;
    const b = await target.bindings.open(alice, SPEC);
    // A traceparent from one of alice's own recorded runs, replayed by someone without her credential.
    const ok = await target.runs!.start(alice, {
      bindingId: b.bindingId,
      agent: target.principals.agents[0],
      steps: [{ type: 'emit', text: 'hello' }],
    });
    const spans = await spansOfTrace(target, c(), ok.traceId!, {
      spans: expectedSpans([{ type: 'emit', text: 'hello' }]),
    });
    const request = spans.find((x) => x.name === SPAN.request)!;
    const stolen = `00-${ok.traceId}-${request.spanId}-01`;
    s().resetAll();
    // Also when the caller dresses up as the trusted internal service and claims trust.
    const service = target.principals.internalService ?? alice;
    for (const [who, claim] of [
      [alice, {}],
      [service, { 'x-trusted-ingress': 'true' }],
    ] as const) {
      const err = await target
        .runs!.start(
          { ...who, credential: target.principals.anonymousCredential },
          {
            bindingId: b.bindingId,
            agent: target.principals.agents[0],
            steps: [{ type: 'provider', prompt: 'exfiltrate' }],
            headers: { traceparent: stolen, baggage: 'smtc.tenant_tier=gold', ...claim },
          },
        )
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err, 'the run must be refused').not.toBeNull();
      expect(asContractError(err).category).toBe('unauthenticated');
    }
    expect(s().provider.calls()).toHaveLength(0);
  });

  it(`R09.18 trace context never names a run: a trusted caller's runs on one binding sent in one trace — the same traceparent sent again (a client retrying its request), the same trace under another parent-id, a run stopped at an interrupt and its resume in that trace — are each their own run: each started run has its own run id, and each run moves the durable head on (${contractRule('correlationOnly')})`, async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry', 'threadState');
    const target = t();
    const caller = trustedCaller(ctx, target);
    const b = await target.bindings.open(caller, SPEC);
    const o = offered('one-trace-many-runs');
    const other = offered('one-trace-many-runs, another parent').span;
    const run = (traceparent: string, steps: RunStep[], resume?: RunRequest['resume']) =>
      target.runs!.start(caller, {
        bindingId: b.bindingId,
        agent: target.principals.agents[0],
        steps,
        headers: { traceparent },
        ...(resume ? { resume } : {}),
      });
    const seen: { label: string; outcome: RunOutcome }[] = [];
    for (const [label, traceparent] of [
      ['first run', o.valid],
      ['the same traceparent sent again', o.valid],
      ['the same trace, another parent-id', `00-${o.trace}-${other}-01`],
    ] as const) {
      const outcome = await run(traceparent, [
        { type: 'emit', text: `${label}: before` },
        { type: 'provider', prompt: 'Summarise the thread.' },
        { type: 'emit', text: `${label}: after` },
      ]);
      seen.push({ label, outcome });
    }
    const paused = await run(o.valid, [
      { type: 'emit', text: 'before the question' },
      { type: 'interrupt', value: 'go on?' },
      { type: 'emit', text: 'after the answer' },
    ]);
    seen.push({ label: 'a run stopped at an interrupt', outcome: paused });
    const asked = paused.events.find((e) => e.type === 'interrupt');
    if (asked)
      seen.push({
        label: 'its resume, in the same trace',
        outcome: await run(o.valid, [], { interruptId: asked.interruptId, value: 'yes' }),
      });
    const summary = seen.map(({ label, outcome: x }) => ({
      label,
      state: x.state,
      errors: x.events.filter((e) => e.type === 'error').map((e) => e.code),
    }));
    await ctx.annotate(
      `${seen.map(({ label, outcome: x }) => `${label}: ${x.state} at revision ${x.revision}`).join('; ')}; trace ids ${[...new Set(seen.map((x) => x.outcome.traceId))].join(', ')}`,
    );
    const expected = (label: string) => (label === 'a run stopped at an interrupt' ? 'interrupted' : 'completed');
    expect(summary, 'each run in the trace is its own run: it ends as its steps say, with no error').toEqual(
      [...seen.map((x) => x.label), ...(asked ? [] : ['its resume, in the same trace'])].map((label) => ({
        label,
        state: expected(label),
        errors: [],
      })),
    );
    const revisions = seen.map((x) => x.outcome.revision);
    expect(
      revisions.every((r, i) => i === 0 || r > revisions[i - 1]!),
      `each run moves the durable head on (none is taken for a duplicate of another): revisions ${revisions.join(', ')}`,
    ).toBe(true);
    // A resume may go on under its run's id or take its own; the runs started fresh may not share one.
    const fresh = seen.filter((x) => x.label !== 'its resume, in the same trace').map((x) => x.outcome.runId);
    expect(new Set(fresh).size, `every run started has its own run id: ${fresh.join(', ')}`).toBe(fresh.length);
    const resumed = seen[seen.length - 1]!.outcome;
    expect(resumed.events.flatMap((e) => (e.type === 'output' ? [e.text] : []))).toEqual(['after the answer']);
  });

  it(`R09.5 forbidden baggage keys are dropped; only schema keys reach a trusted internal service (${contractRule('baggage')})`, async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    s().resetAll();
    const outcome = await start(
      ctx,
      true,
      {
        headers: {
          traceparent: offered('baggage').valid,
          baggage: [
            'smtc.tenant_tier=gold,user.email=alice%40example.com,session.token=tok_9f8e7d',
            'authorization=Bearer%20abc,smtc.request_class=INVALID%20VALUE',
            // Keys under the schema's own prefix that the schema does not define: an allow-list
            // by prefix ("our namespace is fine") is not "schema-defined".
            'smtc.session_token=tok_vendor_5a6b,smtc.user_email=bob_example_com,smtc.tenant_tier_override=root',
          ],
        },
      },
      script(ctx),
    );
    expect(outcome.state).toBe('completed');
    const baggage = baggageSentToTrusted();
    for (const forbidden of [
      'user.email',
      'alice%40example.com',
      'session.token',
      'tok_9f8e7d',
      'authorization',
      'INVALID',
      'tok_vendor_5a6b',
      'bob_example_com',
      'tenant_tier_override',
    ]) {
      expect(baggage).not.toContain(forbidden);
    }
    expectOnlySchemaKeys(baggage);
  });

  it.for(OFF_SCHEMA_BAGGAGE)(
    `R09.5 a schema key in another case or one character off, or a schema key with a value outside its pattern (%s), is dropped and fails nothing: only exact schema keys with schema values reach a trusted internal service (${contractRule('baggage')})`,
    async ([, member, marker], ctx) => {
      needCapability(ctx, t(), 'runs', 'telemetry');
      s().resetAll();
      const outcome = await start(
        ctx,
        true,
        { headers: { traceparent: offered('baggage').valid, baggage: member } },
        script(ctx),
      );
      expect(outcome.state).toBe('completed');
      const baggage = baggageSentToTrusted();
      expect(baggage, `the member "${member}" reached the trusted internal service`).not.toContain(marker);
      expectOnlySchemaKeys(baggage);
    },
  );

  it(`R09.6 untrusted external endpoints (provider, tools) receive no traceparent, tracestate or baggage (stricter than W3C; ${contractRule('suppressExternal')})`, async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    for (const trusted of [true, false]) {
      s().resetAll();
      const outcome = await start(
        ctx,
        trusted,
        {
          headers: {
            traceparent: offered(`external-${trusted}`).valid,
            tracestate: 'vendor=opaque',
            baggage: 'smtc.tenant_tier=gold',
          },
        },
        script(ctx),
      );
      expect(outcome.state).toBe('completed');
      const external = [...s().provider.calls(), ...s().tool.calls()];
      expect(s().provider.calls()).toHaveLength(2);
      expect(s().tool.calls()).toHaveLength(1);
      for (const call of external) {
        for (const h of TRACE_HEADERS) expect(headerOf(call, h), `${call.path} got ${h}`).toEqual([]);
      }
    }
  });

  it(`R09.7 a trusted internal service receives trace context of the same trace, pointing at an exported span (${contractRule('propagateInternal')})`, async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    s().resetAll();
    const o = offered('trusted-service');
    const outcome = await start(
      ctx,
      true,
      { headers: { traceparent: o.valid, baggage: 'smtc.tenant_tier=gold' } },
      script(ctx),
    );
    expect(outcome.state).toBe('completed');
    expect(outcome.traceId).toBe(o.trace);
    const calls = s().trusted.calls();
    expect(calls).toHaveLength(1);
    const tps = headerOf(calls[0]!, 'traceparent');
    expect(tps).toHaveLength(1);
    const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(tps[0]!);
    expect(m, 'a W3C version-00 traceparent').not.toBeNull();
    expect(m![1]).toBe(o.trace);
    const spans = await spansOfTrace(t(), c(), o.trace, {
      spans: expectedSpans(stepsWith(tool!)),
      spanIds: [m![2]!],
    });
    expect(spans.map((x) => x.spanId)).toContain(m![2]);
    expect(headerOf(calls[0]!, 'baggage').join(',')).toContain('smtc.tenant_tier=gold');
  });

  it.for([307, 308, 302, 303])(
    `R09.17 a redirect from the trusted internal service to another origin carries no trace context there: the internal call of a continued trusted run (traceparent, tracestate, a schema baggage member) answered %i with a Location on the untrusted tool origin reaches that origin, if at all, with no traceparent, tracestate or baggage (${contractRule('suppressExternal')}; RFC 6454: another port is another origin)`,
    async (status, ctx) => {
      needCapability(ctx, t(), 'runs', 'telemetry');
      s().resetAll();
      const elsewhere = `${s().tool.url}/v1/redirected-${status}`;
      s().trusted.redirectNextTo(elsewhere, status);
      const o = offered(`redirect-${status}`);
      const outcome = await start(
        ctx,
        true,
        { headers: { traceparent: o.valid, tracestate: 'rojo=00f067aa0ba902b7', baggage: 'smtc.tenant_tier=gold' } },
        UNTOOLED,
      );
      // Following the redirect or refusing it (the internal call failing) are both the target's choice.
      expect(s().trusted.redirectsServed(), 'the internal call was answered with the redirect').toBe(1);
      const arrived = s()
        .tool.calls()
        .filter((call) => call.path.startsWith('/v1/redirected-'));
      await ctx.annotate(
        `${status}: run ${outcome.state}; ${arrived.length ? 'followed to the untrusted origin' : 'not followed'}`,
      );
      for (const call of arrived) {
        for (const name of TRACE_HEADERS)
          expect(headerOf(call, name), `${name} sent on to the untrusted origin after a ${status}`).toEqual([]);
      }
    },
  );

  it(`R09.8 oversized, duplicated and binary-garbage trace headers and baggage never fail or lose a request, and none of it reaches the provider (property; ${contractRule('suppressExternal')})`, async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    const { valid } = offered('property');
    const garbage = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 64 }),
      fc.string({ unit: 'grapheme-ascii', maxLength: 64 }),
      fc.constantFrom(valid, valid.toUpperCase(), ` ${valid}`, `${valid}-ff`),
      fc.integer({ min: 1, max: 20_000 }).map((n) => 'x'.repeat(n)),
    );
    const value = fc.oneof(garbage, fc.array(garbage, { minLength: 1, maxLength: 4 }));
    const headerName = fc.constantFrom('traceparent', 'TraceParent', 'tracestate', 'baggage', 'BAGGAGE');
    await fc.assert(
      fc.asyncProperty(fc.dictionary(headerName, value, { maxKeys: 5 }), fc.boolean(), async (headers, trusted) => {
        s().resetAll();
        const outcome = await start(ctx, trusted, { headers }, [
          { type: 'provider', prompt: 'ping' },
          { type: 'emit', text: 'pong' },
        ]);
        expect(outcome.state).toBe('completed');
        expect(outcome.events.filter((e) => e.type === 'output').map((e) => (e as { text: string }).text)).toContain(
          'pong',
        );
        for (const call of s().provider.calls()) {
          for (const h of TRACE_HEADERS)
            expect(headerOf(call, h), `the provider got ${h}; ${contractRule('suppressExternal')}`).toEqual([]);
        }
        // What W3C requires to be ignored, and anything from an untrusted caller, is never continued.
        const tps = Object.entries(headers)
          .filter(([k]) => k.toLowerCase() === 'traceparent')
          .flatMap(([, v]) => (Array.isArray(v) ? v : [v]));
        const mustIgnore = !trusted || judgeTraceparent(tps).kind === 'must-ignore';
        if (mustIgnore) for (const tp of tps) expect(tp.includes(outcome.traceId!)).toBe(false);
      }),
      fcParams(25),
    );
  });

  it.for(CONTINUABLE)(
    `R09.9 a W3C-valid traceparent (%s) from a trusted caller is continued, with a new parent id and no reserved flag bits (W3C Trace Context; RFC 9110 §5.5; continuing it is the ${contractRule('trustedBoundaries')})`,
    async ([form, headers], ctx) => {
      needCapability(ctx, t(), 'runs', 'telemetry');
      s().resetAll();
      const o = offered(`continuable-${form}`);
      const outcome = await start(ctx, true, { headers: headers(o) }, script(ctx));
      expect(outcome.state).toBe('completed');
      expect(outcome.traceId, `the offered trace ${o.trace} is continued`).toBe(o.trace);
      const seen = s()
        .trusted.calls()
        .flatMap((call) => headerOf(call, 'traceparent'));
      expect(seen.length, 'the trusted internal service receives a traceparent').toBeGreaterThan(0);
      for (const tp of seen) {
        const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(tp);
        expect(m, `W3C: the outgoing traceparent is a version-00 value, got ${JSON.stringify(tp)}`).not.toBeNull();
        expect(m![1]).toBe(o.trace);
        expect(m![2], "W3C: the parent-id is the caller's own span, not the one it received").not.toBe(o.span);
        expect(Number.parseInt(m![3]!, 16) & 0xfc, 'W3C: reserved trace-flags bits MUST be zero').toBe(0);
      }
    },
  );

  it('R09.15 reserved trace-flags bits are not read into the defined ones: a trusted traceparent whose flags carry reserved bits or hex letters (10, 11, 12, 0a, 0b, 7e, a1, fe, ff) is continued with the random flag exactly as for the same flags without them (W3C Trace Context: flags are hex, only sampled and random are defined, the rest reserved)', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    const steps = script(ctx);
    const randomBits = (flags: string) => randomFlagOut(ctx, flags, steps);
    const base = new Map<string, string>();
    for (const flags of ['00', '01', '02', '03']) base.set(flags, await randomBits(flags));
    const differ: string[] = [];
    for (const flags of ['10', '11', '12', '0a', '0b', '7e', 'a1', 'fe', 'ff']) {
      const defined = (Number.parseInt(flags, 16) & 0x03).toString(16).padStart(2, '0');
      const got = await randomBits(flags);
      if (got !== base.get(defined))
        differ.push(`flags ${flags}: random flag ${got}, but ${base.get(defined)} for ${defined}`);
    }
    await ctx.annotate(`random flag out for 00/01/02/03: ${[...base.values()].join(', ')}`);
    expect(differ).toEqual([]);
  });

  it('R09.16 a trace continued without the random flag is not sent on with it: a trusted traceparent with flags 00 or 01 (random unset) reaches the trusted internal service with the random flag unset (W3C Trace Context: the flag asserts the trace id was generated randomly, which a vendor continuing someone else’s trace id cannot know; setting it is no allowed mutation of traceparent, and Level 1 sets undefined flags to zero)', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    const steps = script(ctx);
    const out = new Map<string, string>();
    for (const flags of ['00', '01']) out.set(flags, await randomFlagOut(ctx, flags, steps));
    await ctx.annotate(`random flag out for 00/01: ${[...out.values()].join(', ')}`);
    expect(Object.fromEntries(out)).toEqual({ '00': 'clear', '01': 'clear' });
  });

  it.for(NON_OWS_WRAPPED)(
    `R09.14 a W3C-valid traceparent wrapped in whitespace that is not OWS (%s) from a trusted caller is not a traceparent: ignored, a fresh recorded root (RFC 9110 §5.6.3: OWS is SP / HTAB only; W3C: vendors MUST ignore an invalid traceparent; ${contractRule('ingressPolicy')})`,
    async ([family, wrapped], ctx) => {
      needCapability(ctx, t(), 'runs', 'telemetry');
      s().resetAll();
      const o = offered(`non-ows-${family}`);
      const outcome = await start(ctx, true, { headers: { traceparent: wrapped(o) } }, script(ctx));
      await expectFreshRecordedRoot(outcome, o);
    },
  );

  it.for(CONTEXT_FORMS)(
    `R09.11 W3C forms of baggage and tracestate from a trusted caller (%s) reach the trusted internal service, member by member, in W3C-valid headers (${contractRule('propagateInternal')}; W3C Baggage, W3C Trace Context §tracestate, RFC 9110 §5.3)`,
    async ([form, headers, baggage, tracestate], ctx) => {
      needCapability(ctx, t(), 'runs', 'telemetry');
      s().resetAll();
      const o = offered(`context-form-${form}`);
      const outcome = await start(ctx, true, { headers: { traceparent: o.valid, ...headers } }, script(ctx));
      expect(outcome.state).toBe('completed');
      expect(outcome.traceId, `the offered trace ${o.trace} is continued`).toBe(o.trace);
      const calls = s().trusted.calls();
      expect(calls.length, 'the trusted internal service is called').toBeGreaterThan(0);
      for (const call of calls) {
        const b = baggageMembers(headerOf(call, 'baggage'));
        if ('invalid' in b) expect.fail(`the baggage sent is not W3C baggage: ${b.invalid}`);
        for (const [k, v] of b.members) {
          const rule = Object.hasOwn(BAGGAGE_SCHEMA, k) ? BAGGAGE_SCHEMA[k] : undefined;
          expect(rule, `baggage key ${k} is in the schema`).toBeDefined();
          expect(v.length <= rule!.maxLength && rule!.pattern.test(v), `${k}'s value is within the schema`).toBe(true);
        }
        expect(Object.fromEntries(b.members), 'each schema member sent reaches the trusted service').toEqual(baggage);
        const ts = tracestateMembers(headerOf(call, 'tracestate'));
        if ('invalid' in ts) expect.fail(`the tracestate sent is not W3C tracestate: ${ts.invalid}`);
        for (const m of tracestate) expect(ts.members, 'W3C: a received tracestate is sent on').toContain(m);
        expect(
          ts.members.filter((m) => tracestate.includes(m)),
          'W3C: the order of unmodified tracestate members MUST be preserved',
        ).toEqual(tracestate);
        // Whatever it keeps of a valid received list, truncated or not, in the order received
        // (W3C §3.5: a vendor may add or update its own member at the front, or delete; nothing else moves).
        // W3C §3.5: an added or updated member goes to the beginning of the list; after the first
        // member received unaltered, every member sent is one received. A member the target made
        // valid by rewriting an invalid one, and left in its place, is no member it received.
        const receivedMembers = (headers.tracestate === undefined ? [] : [headers.tracestate].flat())
          .join(',')
          .split(',')
          .map((m) => m.replace(/^[ \t]+|[ \t]+$/g, ''))
          .filter((m) => m !== '' && 'members' in tracestateMembers([m]));
        // A key received in any form, valid or not (its text before "=", OWS trimmed).
        const receivedKeys = new Set(
          (headers.tracestate === undefined ? [] : [headers.tracestate].flat())
            .join(',')
            .split(',')
            .map((m) => m.slice(0, Math.max(0, m.indexOf('='))).replace(/^[ \t]+|[ \t]+$/g, ''))
            .filter((k) => k !== ''),
        );
        const keyOf = (m: string) => m.slice(0, m.indexOf('='));
        const firstKept = ts.members.findIndex((m) => receivedMembers.includes(m));
        expect(
          firstKept < 0
            ? []
            : ts.members.slice(firstKept).filter((m) => !receivedMembers.includes(m) && receivedKeys.has(keyOf(m))),
          'W3C §3.5: a modified member goes to the beginning; after the first member sent unaltered, no member of a received key is altered',
        ).toEqual([]);
        const received = headers.tracestate === undefined ? null : tracestateMembers([headers.tracestate].flat());
        if (received && 'members' in received) {
          const kept = ts.members.filter((m) => received.members.includes(m));
          const positions = kept.map((m) => received.members.indexOf(m));
          expect(
            positions.every((p, i) => i === 0 || p > positions[i - 1]!),
            `W3C: received members kept in the order received — sent ${kept.map((m) => m.split('=')[0]).join(',')}`,
          ).toBe(true);
        }
      }
    },
  );

  it.for(CLAIMS)(
    `R09.10 a caller that claims trust it was not given (%s) is treated as untrusted: its context is replaced (${contractRule('ingressPolicy')} — trust is the server's policy, not the caller's claim)`,
    async ([claim, headers, fields], ctx) => {
      needCapability(ctx, t(), 'runs', 'telemetry');
      s().resetAll();
      const o = offered(`claim-${claim}`);
      const request = { headers: { traceparent: o.valid, baggage: 'smtc.tenant_tier=gold', ...headers }, ...fields };
      const outcome = await start(ctx, false, request as Partial<RunRequest>, script(ctx)).then(
        (x) => x,
        (e: unknown) => e,
      );
      if (!(outcome && typeof outcome === 'object' && 'runId' in outcome)) {
        // Refusing a request with an unknown field is as good as ignoring the claim.
        expect(asContractError(outcome).category, 'a claim is either ignored or refused as invalid').toBe(
          'invalid_input',
        );
        return;
      }
      await expectFreshRecordedRoot(outcome as RunOutcome, o);
      const baggage = s()
        .trusted.calls()
        .flatMap((call) => headerOf(call, 'baggage'))
        .join(',');
      expect(baggage, "an untrusted caller's baggage is dropped with its context").not.toContain('smtc.tenant_tier');
    },
  );
  it.for(FORGED_SERVICE_HANDLES)(
    `R09.12 a handle with the trusted internal service's labels (id, subject, organization, roles) and %s is not trusted: its context is replaced, or the handle refused (${contractRule('ingressPolicy')} — trust follows the authenticated credential, never a handle's labels)`,
    async ([, credentialOf, refusals], ctx) => {
      needCapability(ctx, t(), 'runs', 'telemetry');
      const target = t();
      const forged = forgedHandle(trustedCaller(ctx, target), credentialOf(target.principals));
      s().resetAll();
      const o = offered(`forged-service-handle-${forged.credential}`);
      const started = await unlessRefused(
        (async () => {
          const b = await target.bindings.open(forged, SPEC);
          return target.runs!.start(forged, {
            bindingId: b.bindingId,
            agent: target.principals.agents[0],
            steps: UNTOOLED,
            headers: { traceparent: o.valid, baggage: 'smtc.tenant_tier=gold' },
          });
        })(),
        refusals,
      );
      if (started === null) {
        expect(s().provider.calls(), 'a refused handle runs nothing').toHaveLength(0);
        return;
      }
      expect(refusals, 'a credential that authenticates nobody starts no run').not.toEqual(['unauthenticated']);
      await expectFreshRecordedRoot(started.value, o, UNTOOLED);
      expect(baggageSentToTrusted(), "an untrusted caller's baggage is dropped with its context").not.toContain(
        'smtc.tenant_tier',
      );
    },
  );
});

describe('R09 destinations trusted by origin, not by text', () => {
  // Its own stubs and target: the trusted service on port P, provider and tool on P·10 + d.
  const look = useStubs(startLookalikeStubs);
  const tl = useTarget(() => ({ collectorUrl: c().tracesUrl, ...look().urls() }));
  let lookTool: string | null = null;
  beforeAll(async () => {
    if (tl.created()) lookTool = await authorizedTool(tl(), tl().principals.alice, tl().principals.agents[0]);
  });

  it(`R09.13 a provider and tool whose URLs begin with the trusted origin's text receive no trace context; the trusted service does (${contractRule('suppressExternal')}; RFC 6454 origins)`, async (ctx) => {
    needCapability(ctx, tl(), 'runs', 'telemetry');
    if (!lookTool) unsupportedByTarget(ctx, 'the target authorizes none of the test tools for agents[0]');
    const target = tl();
    const caller = trustedCaller(ctx, target);
    for (const who of [caller, target.principals.alice]) {
      look().resetAll();
      const b = await target.bindings.open(who, SPEC);
      const outcome = await target.runs!.start(who, {
        bindingId: b.bindingId,
        agent: target.principals.agents[0],
        steps: stepsWith(lookTool),
        headers: {
          traceparent: offered(`lookalike-${who === caller}`).valid,
          tracestate: 'vendor=opaque',
          baggage: 'smtc.tenant_tier=gold',
        },
      });
      expect(outcome.state).toBe('completed');
      expect(look().provider.calls()).toHaveLength(2);
      expect(look().tool.calls()).toHaveLength(1);
      for (const call of [...look().provider.calls(), ...look().tool.calls()]) {
        for (const h of TRACE_HEADERS) {
          expect(headerOf(call, h), `${call.path} (an origin that only begins like the trusted one) got ${h}`).toEqual(
            [],
          );
        }
      }
      // The control: the trusted origin itself still gets the run's context.
      const trustedCalls = look().trusted.calls();
      expect(trustedCalls).toHaveLength(1);
      expect(headerOf(trustedCalls[0]!, 'traceparent'), 'the trusted internal service got no traceparent').toHaveLength(
        1,
      );
    }
  });
});
