/**
 * R10 — the export bound holds for every span, whatever its status, kind or size, measured at the
 * collector's socket rather than from the target's own health report (R10.6 reads that one).
 *
 * The target is created with a small queue (`maxQueueSize`) and an export timeout far longer
 * than the test's outage, so that within the outage no export of a correct target times out.
 * The collector then accepts and never answers (black hole) while runs of every shape the
 * protocol can cause go on: a long completed run (provider, a tool, memory written and read, a
 * subagent with its own steps, a call to the trusted internal service, a checkpoint, output),
 * a run whose tool fails (ERROR spans: the step, the run) and an interrupted run. No flush is
 * asked of the target during the outage (r10-export-bound-flushes.spec.ts holds R10.26 under
 * flushes).
 *
 * The target is also created with `maxConcurrentExports: 2`: at most two export requests open
 * at the collector per identity. A bounded pipeline — one queue per telemetry identity, exported
 * a batch at a time (every stock OpenTelemetry BatchSpanProcessor: the SDK never calls `Export`
 * concurrently for one exporter on its schedule) — holds to it as it is; a target that also
 * flushes on its own holds to it through its exporter's limit (`concurrencyLimit`). And of the spans of the outage's runs, at most what the identities could hold is
 * delivered once the collector answers again: each its queue plus the one batch in flight,
 * which was taken from the queue and so is no larger (2 × `maxQueueSize` each; summed over the
 * identities, as a worker exporting through a control-plane facade holds spans in two queues).
 * A batch the exporter gave up on during the outage was dropped, not held: only spans the
 * collector accepted after the outage count.
 * A span that skips the queue — an ERROR, audit or security span exported at once, a span of
 * one kind sent through a second processor, a retry buffer beside the queue — shows as a second
 * request open at once, or as more spans than the queues could have held.
 *
 * The queue and batch a target applies must be the ones it declares (a processor built with its
 * SDK's defaults, 2048/512, instead of `maxQueueSize` holds a whole outage in one batch or one
 * queue). Two measurements see it whatever the timing:
 * - every request the collector receives, in any mode — the bodies of the black-holed requests it
 *   held open included — carries at most `maxQueueSize` spans of one identity: a batch is taken
 *   from the queue, and the OpenTelemetry SDK specification has `maxExportBatchSize` ≤
 *   `maxQueueSize` (OpenTelemetry JS lowers it to the queue's size);
 * - after the collector answers again the target's own schedule gets time to drain its queue
 *   before the flush (a flush exports the queue as concurrent batches, and the exporter's limit
 *   refuses all but a few of them, hiding a queue too large); the outage spans delivered then
 *   that no held-open request carried (a batch in flight at recovery may be sent again by the
 *   exporter's retry, up to maxConcurrentExports of them) are what the queues held.
 */
import type { TestContext } from 'vitest';
import { describe, expect, it } from 'vitest';
import type { RunStep } from '../contract/runs.js';
import type { Target } from '../contract/target.js';
import { SERVICE } from '../contract/tracing.js';
import { collectorQuiet, DRAIN_QUIET_MS, QUIET_MS } from '../fixtures/collector/collector-quiet.js';
import { mostOpenAtOnce } from '../fixtures/collector/requests-open-at-once.js';
import type { ReceivedRequest, SpanCollector } from '../fixtures/collector/span-collector.js';
import { useCollectorTarget } from '../fixtures/collector/use-collector-target.js';
import { authorizedTool } from '../fixtures/scenario/authorized-tool.js';
import { type Observed, observeRun } from '../fixtures/scenario/collector-outage.js';
import { needCapability, unsupportedByTarget } from '../fixtures/scenario/need.js';
import { boundedFlush } from '../fixtures/traces/bounded-flush.js';

/** Far above the outage's length: no export of a correct target gives up within it. */
const EXPORT_TIMEOUT_MS = 30_000;
/** Small, so a few runs overflow it. */
const MAX_QUEUE_SIZE = 8;
/**
 * The bound on export requests open at once per identity the target is created with
 * (`TargetOptions`): the scheduled batch's export and one flush beside it, so the flush after the
 * outage is not refused while the hung batch's export is still open.
 */
const MAX_CONCURRENT_EXPORTS = 2;
/** The two telemetry identities the contract names, each with its own bounded queue. */
const IDENTITIES = Object.keys(SERVICE).length;
/** Rounds of the three scripts during the outage. */
const ROUNDS = 2;
/** Time after the last outage run for its last spans to end before the collector comes back. */
const SETTLE_MS = 1_000;
/** The outage must end this long before the first export could time out (else the window measures nothing). */
const WINDOW_SLACK_MS = 5_000;
/** OTLP status code ERROR. */
const STATUS_ERROR = 2;
const FAIL_ARGS = 'r10-export-bound: fail this call';
const MEMORY_KEY = 'r10-export-bound-note';

const {
  stubs,
  collector,
  target: t,
} = useCollectorTarget({
  exportTimeoutMs: EXPORT_TIMEOUT_MS,
  maxQueueSize: MAX_QUEUE_SIZE,
  maxConcurrentExports: MAX_CONCURRENT_EXPORTS,
});

/** The three scripts: every span kind and status the protocol causes, runs of different sizes. */
function scripts(tool: string): Record<string, readonly RunStep[]> {
  return {
    completed: [
      { type: 'emit', text: 'export bound workload' },
      { type: 'provider', prompt: 'a deterministic prompt' },
      { type: 'tool', tool, args: 'a deterministic query' },
      {
        type: 'memory_write',
        scope: 'user',
        proposal: { key: MEMORY_KEY, kind: 'semantic', content: 'prefers short answers', contentType: 'text/plain' },
      },
      { type: 'memory_read', scope: 'user', key: MEMORY_KEY },
      {
        type: 'subagent',
        steps: [
          { type: 'provider', prompt: 'a subagent prompt' },
          { type: 'tool', tool, args: 'a subagent query' },
        ],
      },
      { type: 'internal_call' },
      { type: 'checkpoint' },
      { type: 'emit', text: 'done' },
    ],
    failed: [
      { type: 'emit', text: 'about to fail' },
      { type: 'tool', tool, args: FAIL_ARGS },
    ],
    interrupted: [
      { type: 'emit', text: 'asking' },
      { type: 'interrupt', value: 'approve?' },
    ],
  };
}

/** What must not change with the collector (interrupt ids are minted per run). */
function outcomeOf(o: Observed) {
  return {
    state: o.outcome.state,
    revision: o.outcome.revision,
    events: o.outcome.events.map((e) => (e.type === 'interrupt' ? { ...e, interruptId: '…' } : e)),
    head: o.head && { revision: o.head.revision, runState: o.head.runState },
  };
}

/** Spans of one identity in one request: the most, and the request's mode, among `requests`. */
function largestBatch(requests: readonly ReceivedRequest[]): Record<string, { spans: number; mode: string }> {
  const most: Record<string, { spans: number; mode: string }> = {};
  for (const r of requests) {
    const counts = new Map<string, number>();
    for (const s of r.spans ?? []) {
      const service = s.serviceName ?? '(no service.name)';
      counts.set(service, (counts.get(service) ?? 0) + 1);
    }
    for (const [service, n] of counts) {
      if (n > (most[service]?.spans ?? 0)) most[service] = { spans: n, mode: r.mode };
    }
  }
  return most;
}

async function need(ctx: TestContext, target: Target): Promise<string> {
  needCapability(ctx, target, 'runs', 'telemetry', 'memory');
  const tool = await authorizedTool(target, target.principals.alice, target.principals.agents[0]);
  if (!tool) unsupportedByTarget(ctx, 'the target authorizes none of the candidate tool names for the first agent');
  return tool;
}

describe('R10 the export bound holds for every span, measured at the collector', () => {
  it(`R10.26 sustained black-holed collector, runs with every span status and kind (a failing tool's ERROR spans, subagents, memory, state, output, an interrupt): at most maxConcurrentExports (2) export requests open at once per telemetry identity, and of the outage's spans at most each identity's queue plus one batch (2 × maxQueueSize ${MAX_QUEUE_SIZE}) delivered after it besides those held open, and no request carrying more than maxQueueSize spans of one identity; outcomes unchanged`, async (ctx) => {
    const target = t();
    const tool = await need(ctx, target);
    const caller = target.principals.alice;
    const agent = target.principals.agents[0];
    stubs().tool.respondWith((_, args) =>
      args === FAIL_ARGS ? { status: 500, raw: '{"error":"failing on purpose"}' } : {},
    );
    const workload = Object.entries(scripts(tool));
    const run = (steps: readonly RunStep[]) => observeRun(target, caller, { agent, steps });

    // Baseline, collector up: each script's outcome, and its spans as exported.
    const base = new Map<string, ReturnType<typeof outcomeOf>>();
    const baseTraces = new Set<string>();
    for (const [name, steps] of workload) {
      const o = await run(steps);
      base.set(name, outcomeOf(o));
      expect(outcomeOf(await run(steps)), `the ${name} script is deterministic with the collector up`).toEqual(
        base.get(name),
      );
      if (o.traceId) baseTraces.add(o.traceId);
    }
    expect(base.get('completed')?.state).toBe('completed');
    expect(base.get('interrupted')?.state).toBe('interrupted');
    await boundedFlush(target, EXPORT_TIMEOUT_MS);
    await collectorQuiet(collector(), EXPORT_TIMEOUT_MS);
    // What one round exports with the collector up (for the annotation; completeness is R08's).
    const oneRound = collector()
      .spans()
      .filter((s) => baseTraces.has(s.traceId));

    // The outage: the collector accepts every request and never answers.
    const outageFrom = Date.now();
    const outageTraces = new Set<string>();
    let during: ReceivedRequest[] = [];
    let outageMs = 0;
    await collector().setMode('blackhole');
    try {
      for (let round = 0; round < ROUNDS; round++) {
        for (const [name, steps] of workload) {
          const o = await run(steps);
          expect(outcomeOf(o), `the ${name} run's outcome with the collector black-holed`).toEqual(base.get(name));
          if (o.traceId) outageTraces.add(o.traceId);
        }
      }
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      outageMs = Date.now() - outageFrom;
      expect(
        outageMs,
        `the outage's runs took ${outageMs} ms: they must end well within the export timeout (${EXPORT_TIMEOUT_MS} ms) for the window to mean anything — a machine far too loaded`,
      ).toBeLessThan(EXPORT_TIMEOUT_MS - WINDOW_SLACK_MS);
      during = collector()
        .requests()
        .filter((r) => r.mode === 'blackhole');
    } finally {
      await collector().setMode('up');
    }
    const openAtOnce = mostOpenAtOnce(during, Date.now());
    // Spans the black-holed requests carried: in flight at recovery, an exporter may send them again.
    const inFlight = new Set(during.flatMap((r) => (r.spans ?? []).map((s) => s.spanId)));

    // Recovery: the target's own schedule drains what it holds (a batch at a time), then a
    // flush sends whatever is left.
    await collectorQuiet(collector(), EXPORT_TIMEOUT_MS + DRAIN_QUIET_MS, DRAIN_QUIET_MS);
    await boundedFlush(target, EXPORT_TIMEOUT_MS);
    await collectorQuiet(collector(), EXPORT_TIMEOUT_MS + QUIET_MS);
    const batches = largestBatch(collector().requests());
    // Delivered: answered by the collector, so sent after it came back (a batch given up on
    // in the outage was dropped, not held), and not one in flight at recovery sent again.
    const reached = new Map<string, Set<string>>();
    let resent = 0;
    for (const s of collector().spans()) {
      if (!outageTraces.has(s.traceId)) continue;
      if (inFlight.has(s.spanId)) {
        resent++;
        continue;
      }
      const service = s.serviceName ?? '(no service.name)';
      const ids = reached.get(service) ?? new Set<string>();
      ids.add(s.spanId);
      reached.set(service, ids);
    }
    const reachedCount = Object.fromEntries([...reached].map(([k, v]) => [k, v.size]));
    const total = [...reached.values()].reduce((n, v) => n + v.size, 0);
    const errorSpans = oneRound.filter((s) => s.status.code === STATUS_ERROR).length;
    const kinds = [...new Set(oneRound.map((s) => s.kind))].sort();
    await ctx.annotate(
      `${outageTraces.size} runs in an outage of ${outageMs} ms (one round exported ${oneRound.length} spans with the collector up, ${errorSpans} of them ERROR, OTLP kinds ${kinds.join(',')}); requests during the outage ${during.length}, most open at once ${JSON.stringify(openAtOnce)}; most spans of one identity in one request ${JSON.stringify(batches)}; spans of the outage's runs delivered after it ${JSON.stringify(reachedCount)} besides ${resent} sent again from the requests held open`,
    );

    // A target that exported nothing in so short an outage (a long schedule) is not at fault:
    // then only the spans delivered after it are judged.
    const over = Object.entries(openAtOnce).filter(([, n]) => n > MAX_CONCURRENT_EXPORTS);
    expect(
      over,
      `export requests open at once at the black-holed collector, per telemetry identity, over the maxConcurrentExports ${MAX_CONCURRENT_EXPORTS} the target was created with (a span exported beside the queue opens its own)`,
    ).toEqual([]);
    const overBatch = Object.entries(batches).filter(([, b]) => b.spans > MAX_QUEUE_SIZE);
    expect(
      overBatch,
      `export requests carrying more spans of one telemetry identity than the maxQueueSize ${MAX_QUEUE_SIZE} the target was created with (a batch is taken from the queue; a processor built with its SDK's default queue and batch, 2048/512, sends an outage's spans in one batch)`,
    ).toEqual([]);
    expect(
      total,
      `spans of the outage's runs delivered once the collector answered again (its schedule given ${DRAIN_QUIET_MS} ms to drain, then a flush), besides those of requests held open at recovery: at most ${IDENTITIES} identities × (a queue of ${MAX_QUEUE_SIZE} + one batch in flight, ≤ the queue)`,
    ).toBeLessThanOrEqual(IDENTITIES * 2 * MAX_QUEUE_SIZE);
  }, 120_000);
});
