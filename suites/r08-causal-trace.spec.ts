/**
 * R08 — one causal trace across control plane, worker, state, memory, tools, subagents and
 * encoding. A run is driven through the target's Runs interface against the provider/tool/
 * trusted-service stubs; its telemetry is read back from the in-process OTLP collector and
 * checked against the contract's required topology (SPAN_PARENT) and identities (SPAN_SERVICE).
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { Principal } from '../contract/principals.js';
import type { RunOutcome, RunRequest, RunStep } from '../contract/runs.js';
import type { Target } from '../contract/target.js';
import { SERVICE, SPAN, SPAN_PARENT, SPAN_SERVICE, type SpanName } from '../contract/tracing.js';
import type { CollectedSpan } from '../fixtures/collector/span-collector.js';
import { useCollector } from '../fixtures/collector/use-collector.js';
import { fcParams } from '../fixtures/properties/fc-params.js';
import { authorizedTool } from '../fixtures/scenario/authorized-tool.js';
import { needCapability, unsupportedByTarget } from '../fixtures/scenario/need.js';
import { SPEC } from '../fixtures/scenario/thread-session.js';
import { trustedCaller } from '../fixtures/scenario/trusted-caller.js';
import { TRUSTED_PATH } from '../fixtures/stubs/stub-protocol.js';
import { startTrustedServiceStub, type TrustedServiceStub } from '../fixtures/stubs/trusted-service-stub.js';
import { useStubs } from '../fixtures/stubs/use-stubs.js';
import { useTarget } from '../fixtures/targets/use-target.js';
import { boundedFlush } from '../fixtures/traces/bounded-flush.js';
import { contractRule } from '../fixtures/traces/contract-rules.js';
import { expectedSpans, type SpanCounts } from '../fixtures/traces/expected-spans.js';
import { carriedParentIds, headerLines, outboundParentProblems } from '../fixtures/traces/outbound-call-parents.js';
import { isOutboundCallSpan, topologyProblems } from '../fixtures/traces/required-topology.js';
import { missingFrom, nameCounts, spansOfTrace } from '../fixtures/traces/run-trace.js';
import { subagentNestingProblems } from '../fixtures/traces/subagent-nesting.js';

const c = useCollector();
const s = useStubs();
const t = useTarget(() => ({ collectorUrl: c().tracesUrl, ...s().urls() }));
/** The same target with a provider integration that declares safe remote-trace correlation. */
const tLinked = useTarget(() => ({ collectorUrl: c().tracesUrl, ...s().urls(), options: { remoteTraceLinks: true } }));

/**
 * A trusted internal service that also hosts the tools (a ToolBroker on a trusted origin): the
 * target of R08.11 is given its URL as both `trustedServiceUrl` and `toolUrl`, so its tool calls
 * go to a trusted peer as well and may carry trace context. Started before that target.
 */
let trustedTools: TrustedServiceStub | undefined;
beforeAll(async () => {
  trustedTools = await startTrustedServiceStub({ servesTools: true });
});
afterAll(async () => {
  await trustedTools?.close();
});
const tTrustedTools = useTarget(() => ({
  collectorUrl: c().tracesUrl,
  providerUrl: s().provider.url,
  toolUrl: trustedTools!.url,
  trustedServiceUrl: trustedTools!.url,
}));

/** Export timeout assumed for bounding a flush (bounded-flush.ts waits a few of these). */
const FLUSH_BOUND_EXPORT_TIMEOUT_MS = 2_000;
/** R08.14: how long a stub holds a call, and what a timer may fire early by. */
const HELD_CALL_MS = 400;
const TIMER_SLACK_MS = 25;

const TRUSTED_TRACE = '0af7651916cd43dd8448eb211c80319c';
const TRUSTED_SPAN = 'b7ad6b7169203331';

/** A tool the target lets alice's runs invoke (null: the target authorizes no test tool). */
let tool: string | null = null;
let trustedTool: string | null = null;
beforeAll(async () => {
  if (t.created()) tool = await authorizedTool(t(), t().principals.alice, t().principals.agents[0]);
  if (tTrustedTools.created()) {
    const target = tTrustedTools();
    trustedTool = await authorizedTool(target, target.principals.alice, target.principals.agents[0]);
  }
});

function needTool(ctx: TestContext): string {
  if (!tool) unsupportedByTarget(ctx, 'the target authorizes none of the test tools for agents[0]');
  return tool;
}

/**
 * One run touching every part the contract's tree names, once at the top level, and a subagent
 * that calls the provider and a tool itself (a subagent's own steps are work of the run too).
 */
function fullScript(memoryKey: string, toolName: string): RunStep[] {
  return [
    { type: 'provider', prompt: 'Plan a trip to Lisbon.' },
    {
      type: 'memory_write',
      scope: 'user',
      proposal: { key: memoryKey, kind: 'semantic', content: 'Prefers window seats.', contentType: 'text/plain' },
    },
    { type: 'memory_read', scope: 'user', key: memoryKey },
    { type: 'tool', tool: toolName, args: '{"q":"flights to Lisbon"}' },
    {
      type: 'subagent',
      steps: [
        { type: 'provider', prompt: 'Check the calendar for free days.' },
        { type: 'tool', tool: toolName, args: '{"q":"hotels in Lisbon"}' },
        { type: 'emit', text: 'Subagent checked the calendar.' },
      ],
    },
    { type: 'emit', text: 'Your trip is planned.' },
  ];
}

/**
 * A run whose subagents do the work: provider, tool and memory steps inside two subagents,
 * beside top-level steps of the same kinds. (Not a subagent inside a subagent: a Deep Agents
 * subagent has no `task` tool of its own.)
 */
function subagentScript(memoryKey: string, toolName: string): RunStep[] {
  return [
    { type: 'provider', prompt: 'Plan a trip to Porto.' },
    {
      type: 'subagent',
      steps: [
        { type: 'provider', prompt: 'Find trains to Porto.' },
        { type: 'tool', tool: toolName, args: '{"q":"trains to Porto"}' },
        {
          type: 'memory_write',
          scope: 'user',
          proposal: { key: memoryKey, kind: 'semantic', content: 'Prefers trains.', contentType: 'text/plain' },
        },
        { type: 'memory_read', scope: 'user', key: memoryKey },
        { type: 'emit', text: 'Subagent booked the train.' },
      ],
    },
    {
      type: 'subagent',
      steps: [
        { type: 'provider', prompt: 'Check the weather in Porto.' },
        { type: 'tool', tool: toolName, args: '{"q":"weather in Porto"}' },
      ],
    },
    { type: 'tool', tool: toolName, args: '{"q":"hotels in Porto"}' },
    { type: 'emit', text: 'Your trip is planned.' },
  ];
}

/**
 * Outbound calls to trusted peers from the run and from a subagent: the trusted internal
 * service and tools hosted beside it, several of each, with provider calls between them.
 */
function outboundScript(toolName: string): RunStep[] {
  return [
    { type: 'internal_call' },
    { type: 'tool', tool: toolName, args: '{"q":"fares to Lisbon"}' },
    { type: 'provider', prompt: 'Compare the fares.' },
    {
      type: 'subagent',
      steps: [
        { type: 'internal_call' },
        { type: 'tool', tool: toolName, args: '{"q":"seats to Lisbon"}' },
        { type: 'provider', prompt: 'Pick a seat.' },
      ],
    },
    { type: 'tool', tool: toolName, args: '{"q":"meals to Lisbon"}' },
    { type: 'internal_call' },
    { type: 'emit', text: 'Fares compared.' },
  ];
}

/** A full run also loads, writes and commits thread state at least once. */
const STATE_SPANS: SpanCounts = { [SPAN.stateLoad]: 1, [SPAN.stateWrite]: 1, [SPAN.stateCommit]: 1 };

let bindingSeq = 0;
let propertyRuns = 0;
async function run(
  target: Target,
  steps: RunStep[],
  extra: Partial<RunRequest> = {},
  caller: Principal = target.principals.alice,
): Promise<RunOutcome> {
  const b = await target.bindings.open(caller, SPEC);
  const outcome = await target.runs!.start(caller, {
    bindingId: b.bindingId,
    agent: target.principals.agents[0],
    steps,
    ...extra,
  });
  bindingSeq++;
  return outcome;
}

/** Runs `steps` and returns its trace once complete: every span the script must yield, plus `also`. */
async function tracedRun(
  target: Target,
  steps: RunStep[],
  extra: Partial<RunRequest> = {},
  caller: Principal = target.principals.alice,
  also: SpanCounts = {},
): Promise<{ outcome: RunOutcome; spans: CollectedSpan[] }> {
  const outcome = await run(target, steps, extra, caller);
  expect(outcome.state, 'the run itself must complete').toBe('completed');
  expect(outcome.traceId, 'a target exporting telemetry reports the trace id of the run').toMatch(/^[0-9a-f]{32}$/);
  const want = { spans: { ...expectedSpans(steps), ...also } };
  return { outcome, spans: await spansOfTrace(target, c(), outcome.traceId!, want) };
}

/**
 * Steps that fail, one per kind the kit can cause (the name, the span the step's operation
 * must yield, the step, and how the stubs are set to answer): a tool and a provider answering
 * HTTP 500, a memory write to a scope the caller may not write. Whether the run then fails or
 * goes on is the target's; the operation's span is due either way. Not a tool the agent was
 * never granted: a target may refuse it before any tool is invoked, and then no tool.invoke
 * span is due.
 */
const FAILING_STEPS: readonly (readonly [
  string,
  SpanName,
  (tool: string, key: string) => RunStep,
  (stubs: ReturnType<typeof s>) => void,
])[] = [
  [
    'a tool answering HTTP 500',
    SPAN.toolInvoke,
    (tool) => ({ type: 'tool', tool, args: '{"q":"failing tool"}' }),
    (stubs) => stubs.tool.respondWith(() => ({ status: 500, raw: '{"error":"failing on purpose"}' })),
  ],
  [
    'a provider answering HTTP 500',
    SPAN.providerInvoke,
    () => ({ type: 'provider', prompt: 'A prompt the provider fails.' }),
    (stubs) => stubs.provider.respondWith(() => ({ status: 500, raw: '{"error":"failing on purpose"}' })),
  ],
  [
    'a memory write to a scope the caller may not write',
    SPAN.memoryWrite,
    (_tool, key) => ({
      type: 'memory_write',
      scope: 'organization',
      proposal: { key, kind: 'semantic', content: 'Org-wide travel policy.', contentType: 'text/plain' },
    }),
    () => {},
  ],
];

describe('R08 one causal trace across control plane, worker, state, memory, tools, subagents and encoding', () => {
  it('R08.1 a full run yields one trace with exactly the required parent/child topology', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    const { spans } = await tracedRun(t(), fullScript(`trip-${bindingSeq}`, needTool(ctx)), {}, undefined, STATE_SPANS);
    expect(topologyProblems(spans, { externalParent: null })).toEqual([]);
    const names = new Set(spans.map((x) => x.name));
    for (const name of Object.keys(SPAN_PARENT)) expect(names, `span ${name} missing`).toContain(name);
  });

  it('R08.2 no span is orphaned: every parent is a span of the same trace, the request is the only root', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    const { spans } = await tracedRun(t(), fullScript(`trip-${bindingSeq}`, needTool(ctx)), {}, undefined, STATE_SPANS);
    const ids = new Set(spans.map((x) => x.spanId));
    const roots = spans.filter((x) => x.parentSpanId === null || !ids.has(x.parentSpanId));
    expect(roots.map((x) => x.name)).toEqual([SPAN.request]);
    expect(roots[0]!.parentSpanId).toBeNull();
    // Nothing of this run went to another trace: every span of the run's services is here.
    const all = c().spans();
    const runSpanIds = new Set(spans.map((x) => x.spanId));
    const strays = all.filter(
      (x) => x.parentSpanId !== null && runSpanIds.has(x.parentSpanId) && x.traceId !== spans[0]!.traceId,
    );
    expect(strays).toEqual([]);
  });

  it('R08.3 every span of the run is exported, exactly once, and none is dropped', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    const before = await t().telemetry!.health();
    const steps = fullScript(`trip-${bindingSeq}`, needTool(ctx));
    const { spans } = await tracedRun(t(), steps, {}, undefined, STATE_SPANS);
    const counts = nameCounts(spans);
    for (const [name, n] of Object.entries(expectedSpans(steps))) expect(counts[name], name).toBe(n);
    for (const name of [SPAN.stateLoad, SPAN.stateWrite, SPAN.stateCommit]) {
      expect(counts[name] ?? 0, name).toBeGreaterThanOrEqual(1);
    }
    expect(new Set(spans.map((x) => x.spanId)).size).toBe(spans.length);
    const after = await t().telemetry!.health();
    expect(after.droppedSpans - before.droppedSpans).toBe(0);
    expect(after.exportedSpans - before.exportedSpans).toBeGreaterThanOrEqual(spans.length);
  });

  it('R08.4 control-plane and worker spans carry their own service identities', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    const { spans } = await tracedRun(t(), fullScript(`trip-${bindingSeq}`, needTool(ctx)), {}, undefined, STATE_SPANS);
    const services = new Set(spans.map((x) => x.serviceName));
    expect(services).toEqual(new Set([SERVICE.controlPlane, SERVICE.worker]));
    // Client spans of outgoing calls belong to the part that makes the call (R08.1 checks that).
    for (const x of spans.filter((y) => !isOutboundCallSpan(y))) {
      expect(x.serviceName, x.name).toBe(SERVICE[SPAN_SERVICE[x.name as SpanName]]);
    }
  });

  it(`R08.5 a trusted incoming parent is continued: same trace id, request parented to it, same topology (${contractRule('trustedBoundaries')})`, async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    const { outcome, spans } = await tracedRun(
      t(),
      fullScript(`trip-${bindingSeq}`, needTool(ctx)),
      { headers: { traceparent: `00-${TRUSTED_TRACE}-${TRUSTED_SPAN}-01` } },
      trustedCaller(ctx, t()),
      STATE_SPANS,
    );
    expect(outcome.traceId).toBe(TRUSTED_TRACE);
    expect(topologyProblems(spans, { externalParent: TRUSTED_SPAN })).toEqual([]);
    expect(spans.length).toBeGreaterThanOrEqual(Object.keys(SPAN_PARENT).length);
  });

  it('R08.6 any script yields the required topology with one span per provider, tool, memory and subagent step, a subagent’s own steps below its subagent.run (property)', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    // The trusted branch needs the target's trusted internal service (R08.5 says not run without one).
    const service = t().principals.internalService;
    const leaf = fc.constantFrom<RunStep>(
      { type: 'provider', prompt: 'Summarize.' },
      { type: 'tool', tool: needTool(ctx), args: '{"q":"x"}' },
      { type: 'memory_read', scope: 'user', key: 'prop-key' },
      { type: 'emit', text: 'ok' },
    );
    // A subagent's own steps: the same kinds (no durable points; no subagent of its own, which a
    // Deep Agents subagent has no `task` tool for).
    const subagent = fc
      .array(leaf, { minLength: 1, maxLength: 3 })
      .map((steps): RunStep => ({ type: 'subagent', steps }));
    const step = fc.oneof(
      { arbitrary: leaf, weight: 4 },
      { arbitrary: fc.constant<RunStep>({ type: 'checkpoint' }), weight: 1 },
      { arbitrary: subagent, weight: 2 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), fc.boolean(), async (steps, wantTrusted) => {
        const trusted = wantTrusted && service !== undefined;
        // Unique per run (fast-check repeats inputs while shrinking): one trace per run.
        const parentSpan = createHash('sha256').update(`r08.6:${++propertyRuns}`).digest('hex').slice(0, 16);
        const traceId = createHash('sha256').update(parentSpan).digest('hex').slice(0, 32);
        const { outcome, spans } = await tracedRun(
          t(),
          steps,
          trusted ? { headers: { traceparent: `00-${traceId}-${parentSpan}-01` } } : {},
          trusted ? service : undefined,
        );
        if (trusted) expect(outcome.traceId).toBe(traceId);
        expect(topologyProblems(spans, { externalParent: trusted ? parentSpan : null })).toEqual([]);
        const counts = nameCounts(spans);
        for (const [name, n] of Object.entries(expectedSpans(steps))) expect(counts[name] ?? 0, name).toBe(n);
        expect(subagentNestingProblems(spans, steps)).toEqual([]);
      }),
      // No shrinking: each shrink step of a trace that never completes would wait out the bound again.
      fcParams(12, { endOnFailure: true }),
    );
  });

  it('R08.7 a provider-managed remote trace reference is not linked unless the integration declares it safe', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    const remote = { trace_id: 'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1', span_id: 'b2b2b2b2b2b2b2b2' };
    s().provider.respondWith(() => ({ remote_trace: remote }));
    try {
      const { spans } = await tracedRun(t(), [{ type: 'provider', prompt: 'Use the managed agent.' }]);
      expect(topologyProblems(spans, { externalParent: null })).toEqual([]);
      expect(spans.flatMap((x) => x.links.map((l) => l.traceId))).not.toContain(remote.trace_id);
      // Never adopted as a parent either.
      expect(
        c()
          .spans()
          .filter((x) => x.traceId === remote.trace_id),
      ).toEqual([]);
    } finally {
      s().provider.reset();
    }
  });

  it('R08.8 when declared safe, each run links exactly its own remote trace reference to harness.run', async (ctx) => {
    needCapability(ctx, tLinked(), 'runs', 'telemetry', 'remoteTraceLinks');
    // Tenant-correct: the reference is derived from the prompt, so each tenant's run gets its own.
    const refFor = (prompt: string) => {
      const h = createHash('sha256').update(prompt).digest('hex');
      return { trace_id: h.slice(0, 32), span_id: h.slice(32, 48) };
    };
    s().provider.respondWith((req) => ({ remote_trace: refFor(req.prompt) }));
    try {
      const target = tLinked();
      const runFor = async (who: 'alice' | 'carol') => {
        const p = target.principals[who];
        const b = await target.bindings.open(p, SPEC);
        return target.runs!.start(p, {
          bindingId: b.bindingId,
          agent: target.principals.agents[0],
          steps: [{ type: 'provider', prompt: `managed task of ${who}` }],
        });
      };
      const outcomes = await Promise.all([runFor('alice'), runFor('carol')]);
      for (const [i, who] of (['alice', 'carol'] as const).entries()) {
        const outcome = outcomes[i]!;
        expect(outcome.state).toBe('completed');
        const want = { spans: expectedSpans([{ type: 'provider', prompt: '' }]) };
        const spans = await spansOfTrace(target, c(), outcome.traceId!, want);
        expect(topologyProblems(spans, { externalParent: null })).toEqual([]);
        const own = refFor(`managed task of ${who}`);
        const linkedSpans = spans.filter((x) => x.links.length > 0);
        expect(linkedSpans.map((x) => x.name)).toEqual([SPAN.run]);
        expect(linkedSpans[0]!.links.map((l) => [l.traceId, l.spanId])).toEqual([[own.trace_id, own.span_id]]);
        expect(spans.every((x) => x.traceId === outcome.traceId)).toBe(true);
      }
    } finally {
      s().provider.reset();
    }
  });

  it('R08.9 runs in flight together each yield their own complete trace: no span of one run is parented into another run’s trace', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    const toolName = needTool(ctx);
    // Three runs started together, each with its own number of provider steps, so each trace's
    // span counts are its own: a span parented by "whichever run is current" shows as one too
    // many in one trace and one missing in another.
    const scripts = [0, 1, 2].map((i) => [
      ...Array.from({ length: i }, (): RunStep => ({ type: 'provider', prompt: `Check option ${i}.` })),
      ...fullScript(`together-${i}-${bindingSeq}`, toolName),
    ]);
    // Where the target has a trusted internal service, runs 0 and 2 come from it, each continuing
    // a trace of its own: the incoming context is the request's, never the last one seen.
    const service = t().principals.internalService;
    const parents = scripts.map((_, i) => {
      if (service === undefined || i === 1) return null;
      const span = createHash('sha256').update(`r08.9:${bindingSeq}:${i}`).digest('hex').slice(0, 16);
      return { span, trace: createHash('sha256').update(span).digest('hex').slice(0, 32) };
    });
    const outcomes = await Promise.all(
      scripts.map((steps, i) => {
        const parent = parents[i];
        return parent
          ? run(t(), steps, { headers: { traceparent: `00-${parent.trace}-${parent.span}-01` } }, service)
          : run(t(), steps);
      }),
    );
    const traceIds = outcomes.map((o) => o.traceId);
    outcomes.forEach((o, i) => {
      expect(o.state, 'each run itself must complete').toBe('completed');
      expect(o.traceId).toMatch(/^[0-9a-f]{32}$/);
      if (parents[i]) expect(o.traceId, `run ${i} continues its own trusted parent`).toBe(parents[i]!.trace);
    });
    expect(new Set(traceIds).size, 'each run has a trace of its own').toBe(3);
    const traces = await Promise.all(
      scripts.map((steps, i) =>
        spansOfTrace(t(), c(), traceIds[i]!, { spans: { ...expectedSpans(steps), ...STATE_SPANS } }),
      ),
    );
    traces.forEach((spans, i) => {
      expect(topologyProblems(spans, { externalParent: parents[i]?.span ?? null }), `run ${i}`).toEqual([]);
      const counts = nameCounts(spans);
      for (const [name, n] of Object.entries(expectedSpans(scripts[i]!)))
        expect(counts[name] ?? 0, `run ${i}: ${name}`).toBe(n);
    });
    // And nothing of one run went into another's trace (or anywhere else).
    const own = new Map(traces.flatMap((spans, i) => spans.map((x) => [x.spanId, traceIds[i]!] as const)));
    const strays = c()
      .spans()
      .filter((x) => x.parentSpanId !== null && own.has(x.parentSpanId) && own.get(x.parentSpanId) !== x.traceId);
    expect(strays.map((x) => x.name)).toEqual([]);
  });

  it(`R08.11 every call to a trusted peer that carries trace context names the run’s trace and, as parent-id, the span of that call: its tool.invoke, or its own client span (W3C Trace Context §parent-id; ${contractRule('propagateInternal')})`, async (ctx) => {
    needCapability(ctx, tTrustedTools(), 'runs', 'telemetry');
    const target = tTrustedTools();
    if (!trustedTool) unsupportedByTarget(ctx, 'the target authorizes none of the test tools for agents[0]');
    const steps = outboundScript(trustedTool);
    // A fresh root (alice) and, where the target has a trusted internal service, a continued
    // trace of this clause's own (no other run's spans share its trace id).
    const service = target.principals.internalService;
    const parentSpan = createHash('sha256').update('r08.11').digest('hex').slice(0, 16);
    const traceId = createHash('sha256').update(parentSpan).digest('hex').slice(0, 32);
    const callers = [
      { who: target.principals.alice, extra: {} },
      ...(service ? [{ who: service, extra: { headers: { traceparent: `00-${traceId}-${parentSpan}-01` } } }] : []),
    ];
    for (const { who, extra } of callers) {
      trustedTools!.reset();
      const outcome = await run(target, steps, extra, who);
      expect(outcome.state, 'the run itself must complete').toBe('completed');
      expect(outcome.traceId).toMatch(/^[0-9a-f]{32}$/);
      const calls = trustedTools!.calls();
      const internal = calls.filter((x) => x.path === TRUSTED_PATH);
      expect(internal, 'each internal_call step reaches the trusted internal service').toHaveLength(3);
      for (const call of internal) {
        expect(headerLines(call, 'traceparent'), 'a trusted internal service receives trace context').toHaveLength(1);
      }
      const spans = await spansOfTrace(target, c(), outcome.traceId!, {
        spans: expectedSpans(steps),
        spanIds: carriedParentIds(calls),
      }).catch(() =>
        c()
          .spans()
          .filter((x) => x.traceId === outcome.traceId),
      );
      expect(outboundParentProblems(calls, spans, outcome.traceId!)).toEqual([]);
    }
  });

  it('R08.10 a subagent’s own provider, tool and memory steps are recorded in the run’s one trace below its own subagent.run', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    const steps = subagentScript(`porto-${bindingSeq}`, needTool(ctx));
    // Complete only once every step's span is in the run's trace (one elsewhere is missing here).
    const { spans } = await tracedRun(t(), steps, {}, undefined, STATE_SPANS);
    expect(topologyProblems(spans, { externalParent: null })).toEqual([]);
    const counts = nameCounts(spans);
    for (const [name, n] of Object.entries(expectedSpans(steps))) expect(counts[name] ?? 0, name).toBe(n);
    expect(subagentNestingProblems(spans, steps)).toEqual([]);
  });
  it.for(FAILING_STEPS)(
    'R08.12 a failing operation (%s) is still recorded: its span is exported, ended, parented under harness.run in the run’s trace, and does not claim success (OTel status not OK)',
    async ([, name, step, fail], ctx) => {
      needCapability(ctx, t(), 'runs', 'telemetry');
      const toolName = needTool(ctx);
      s().resetAll();
      fail(s());
      let outcome: RunOutcome;
      try {
        outcome = await run(t(), [{ type: 'emit', text: 'About to fail.' }, step(toolName, `failing-${bindingSeq}`)]);
      } finally {
        s().resetAll();
      }
      expect(outcome.traceId, 'a target exporting telemetry reports the trace id of the run').toMatch(/^[0-9a-f]{32}$/);
      const spans = await spansOfTrace(t(), c(), outcome.traceId!, { spans: { [SPAN.run]: 1, [name]: 1 } });
      const runs = spans.filter((x) => x.name === SPAN.run);
      expect(runs, 'one harness.run').toHaveLength(1);
      const failing = spans.filter((x) => x.name === name);
      for (const x of failing) {
        expect(x.parentSpanId, `${name} is parented under harness.run`).toBe(runs[0]!.spanId);
        expect(BigInt(x.endTimeUnixNano) > 0n, `${name} is ended`).toBe(true);
        expect(BigInt(x.endTimeUnixNano) >= BigInt(x.startTimeUnixNano), `${name} ends after it starts`).toBe(true);
        expect(x.status.code, `${name} of a failed operation does not claim success (OTel status OK)`).not.toBe(1);
      }
    },
  );
  /** R08.14's two step kinds: the stub whose call is held, the step that makes it, the span that records it. */
  const HELD_STEPS = [
    {
      kind: 'provider',
      span: SPAN.providerInvoke,
      hold: () => s().provider.holdNext(HELD_CALL_MS),
      step: (): RunStep => ({ type: 'provider', prompt: 'Take your time.' }),
    },
    {
      kind: 'tool',
      span: SPAN.toolInvoke,
      hold: () => s().tool.holdNext(HELD_CALL_MS),
      step: (ctx: TestContext): RunStep => ({ type: 'tool', tool: needTool(ctx), args: '{"q":"take your time"}' }),
    },
  ] as const;
  it.for(HELD_STEPS)(
    'R08.14 a step’s span lasts as long as its call ($kind): a $kind call the kit holds 400 ms from its arrival is recorded by a $span span of at least that long, ended after it started (a span that ends when the call starts records none of it)',
    async ({ span, hold, step }, ctx) => {
      needCapability(ctx, t(), 'runs', 'telemetry');
      s().resetAll();
      const theStep = step(ctx);
      const held = hold();
      const outcome = await run(t(), [theStep]).finally(() => held.release());
      expect(outcome.state).toBe('completed');
      expect(outcome.traceId, 'a target exporting telemetry reports the trace id of the run').toMatch(/^[0-9a-f]{32}$/);
      const spans = await spansOfTrace(t(), c(), outcome.traceId!, { spans: { [span]: 1 } });
      const durations = spans
        .filter((x) => x.name === span)
        .map((x) => Number((BigInt(x.endTimeUnixNano) - BigInt(x.startTimeUnixNano)) / 1_000_000n));
      // The stub held the call from its arrival to its answer; the span started before the request was sent.
      const heldMs = held.heldMs();
      await ctx.annotate(`${span} lasted ${durations.join(', ')} ms for a call held ${Math.round(heldMs ?? 0)} ms`);
      expect(heldMs, 'the call was held').not.toBeNull();
      expect(heldMs!, 'the call was held as long as asked').toBeGreaterThanOrEqual(HELD_CALL_MS - TIMER_SLACK_MS);
      expect(
        durations.every((ms) => ms >= heldMs! - TIMER_SLACK_MS),
        `${span} lasted ${durations.join(', ')} ms, the call was held ${Math.round(heldMs!)} ms`,
      ).toBe(true);
    },
  );
  it('R08.13 telemetry.flush() resolves once the queued spans reached the collector: right after it, with no wait, every span of the finished run is there (Target.telemetry.flush: "Export what is queued")', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'telemetry');
    const steps = fullScript(`flushed-${bindingSeq}`, needTool(ctx));
    const outcome = await run(t(), steps);
    expect(outcome.state, 'the run itself must complete').toBe('completed');
    expect(outcome.traceId, 'a target exporting telemetry reports the trace id of the run').toMatch(/^[0-9a-f]{32}$/);
    await boundedFlush(t(), FLUSH_BOUND_EXPORT_TIMEOUT_MS);
    // Read at once: a flush that only starts the export has delivered nothing yet.
    const spans = c()
      .spans()
      .filter((x) => x.traceId === outcome.traceId);
    expect(
      missingFrom(spans, { spans: { ...expectedSpans(steps), ...STATE_SPANS } }),
      'not at the collector when flush() resolved',
    ).toEqual([]);
  });
});
