/**
 * R10 — telemetry leak canaries and bounded collector-outage behaviour.
 *
 * Leak canaries: a unique canary of every forbidden category is planted through every input a
 * run has (canaries/run-planting.ts: request headers and body, seeded memory, provider answer
 * and stderr, tool results, the worker's environment, the checkpoint one run commits and the
 * next loads, an interrupt and its answer); then every byte the span collector received is
 * searched for every canary, raw and encoded. The canary report is written for the CLI.
 * R10.9 does the same for the error paths: the provider and the tool fail (HTTP 500 with
 * canaries in the body, garbled non-JSON replies a parser's message would quote), and no byte of
 * what they answered may reach the collector (canaries/failure-planting.ts).
 *
 * Outage: the same workload runs with the collector up (baseline) and refusing connections,
 * black-holed, slow and answering 503. Outcomes and durable heads must be identical, run latency
 * within the configured export bound, the export queue bounded, the health signal raised during
 * the outage and cleared after recovery, audit and durability unaffected — also with sampling
 * set to drop everything.
 */
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanaryKit } from '../canaries/canary-kit.js';
import { buildCanaryReport, type CanaryReport, describeHits, writeCanaryReport } from '../canaries/canary-report.js';
import { scanSinks } from '../canaries/canary-scanner.js';
import { type PeerFailure, plantPeerFailures } from '../canaries/failure-planting.js';
import { plantRunInputs, WRITTEN_MEMORY_KEY } from '../canaries/run-planting.js';
import type { Sink } from '../canaries/sink.js';
import type { Principal } from '../contract/principals.js';
import type { RunOutcome, RunRequest, RunStep } from '../contract/runs.js';
import type { Target } from '../contract/target.js';
import type { TelemetryHealth } from '../contract/tracing.js';
import type { CollectorMode, SpanCollector } from '../fixtures/collector/span-collector.js';
import { requestScanItems } from '../fixtures/collector/span-text-fields.js';
import { useCollector } from '../fixtures/collector/use-collector.js';
import { useCollectorTarget } from '../fixtures/collector/use-collector-target.js';
import { authorizedTool } from '../fixtures/scenario/authorized-tool.js';
import {
  CollectorOutage,
  describeOutage,
  EXPORT_TIMEOUT_MS,
  expectQueueBounded,
  HEALTH_WAIT_MS,
  OUTAGE_OPTIONS,
  observeRun,
} from '../fixtures/scenario/collector-outage.js';
import { headText } from '../fixtures/scenario/harness-spec.js';
import { needCapability, unsupportedByTarget } from '../fixtures/scenario/need.js';
import { lease, SPEC } from '../fixtures/scenario/thread-session.js';
import { runSettings } from '../fixtures/settings/run-settings.js';
import { useTarget } from '../fixtures/targets/use-target.js';
import { boundedFlush } from '../fixtures/traces/bounded-flush.js';
import { expectedSpans, requestSkeleton } from '../fixtures/traces/expected-spans.js';
import { spansOfTrace } from '../fixtures/traces/run-trace.js';

// Canaries are minted and the worker environment planted before any target exists: the module
// target's worker runs in this process, so process.env is the worker's environment (HarnessEnv
// has no environment field; a remote target's worker would need them in its own).
const kit = new CanaryKit();
const plan = plantRunInputs(kit);
// Error paths (R10.9): a provider and a tool that fail with canaries in what they answer.
const failures = plantPeerFailures(kit);
const savedEnv = new Map(Object.keys(plan.environment).map((k) => [k, process.env[k]]));
Object.assign(process.env, plan.environment);

const { stubs, collector, target: t } = useCollectorTarget(OUTAGE_OPTIONS);
// A second target that samples nothing ("drop everything"), with its own collector.
const collector0 = useCollector();
const t0 = useTarget(() => ({
  collectorUrl: collector0().tracesUrl,
  ...stubs().urls(),
  options: { ...OUTAGE_OPTIONS, samplingRatio: 0 },
}));

beforeAll(() => {
  stubs().provider.respondWith((r) => plan.providerReply(r.prompt));
  stubs().tool.respondWith(plan.toolReply);
});
afterAll(() => {
  // The report reflects the whole file's exports, even when a clause failed part way.
  try {
    scanAndReport();
  } catch {
    // No target or collector came up: nothing was exported, there is nothing to report.
  }
  for (const [k, v] of savedEnv) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const reportDir = () => runSettings().reportDir ?? path.join(os.tmpdir(), 'smtc-reports');

// ── helpers ────────────────────────────────────────────────────────────────────────────────

function caller(target: Target): Principal {
  return target.principals.alice;
}

async function seedMemory(target: Target): Promise<void> {
  const seeded = await target
    .memory(caller(target), target.principals.agents[0])
    .put({ kind: plan.memorySeed.scope }, plan.memorySeed.proposal, null);
  // Any decision is fine (a pipeline may redact, hold or refuse it): the content was an input.
  expect(['written', 'pending_approval', 'rejected', 'conflict']).toContain(seeded.status);
}

function request(bindingId: string, target: Target, extra: Partial<RunRequest>): RunRequest {
  return { bindingId, agent: target.principals.agents[0], steps: [], headers: plan.headers, ...extra };
}

async function start(target: Target, req: RunRequest): Promise<{ outcome: RunOutcome; ms: number }> {
  const started = performance.now();
  const outcome = await target.runs!.start(caller(target), req);
  return { outcome, ms: performance.now() - started };
}

async function headPayload(target: Target, bindingId: string): Promise<string> {
  const s = await lease(target, caller(target), bindingId);
  const head = await s.store.load_head(s.scope);
  return headText(head);
}

const tools = new WeakMap<Target, string>();

/** Run 1 of the planted script, with a tool the target authorizes for the caller and agent. */
function firstRun(target: Target) {
  const tool = tools.get(target);
  if (!tool) throw new Error('need() resolves the tool first');
  return plan.firstRun(tool);
}

/** The outage workload: run 1 of the planted script on a fresh binding. */
const outage = new CollectorOutage({
  run: (target) =>
    observeRun(target, caller(target), {
      agent: target.principals.agents[0],
      steps: firstRun(target),
      headers: plan.headers,
    }),
  auditCount: (target) => auditCount(target),
  collector: () => collector(),
  onHealth: (h) => healthSeen.push(h),
  onRun: () => {
    runsPlanted += 1;
  },
});

async function auditCount(target: Target): Promise<number> {
  const entries = await target.audit.memory(target.principals.adminA, { key: WRITTEN_MEMORY_KEY });
  return entries.length;
}

function collectorSink(name: string, c: SpanCollector): Sink {
  return {
    name,
    description: 'every OTLP request body the span collector received, decompressed, in every mode',
    items: requestScanItems(c.requests()),
  };
}

const healthSeen: TelemetryHealth[] = [];
let runsPlanted = 0;

/** Scan everything both collectors received (and every health reading) and write the report. */
function scanAndReport(): CanaryReport {
  const sinks: Sink[] = [
    collectorSink('collector.requests', collector()),
    collectorSink('collector.requests(sampling 0)', collector0()),
    {
      name: 'telemetry.health',
      description: 'every health signal reading, as JSON',
      items: healthSeen.map((h) => ({ bytes: Buffer.from(JSON.stringify(h)) })),
    },
  ];
  const report = buildCanaryReport(kit, scanSinks(kit.canaries(), sinks), {
    suite: 'R10',
    target: t().name,
    runsPlanted: String(runsPlanted),
    environmentPlanting:
      'process.env of the suite process before the target was created (the module target runs its worker in-process; HarnessEnv has no environment field)',
    stubs:
      'provider answer text and stderr, tool results: fixtures/stubs set to answer with canaries; R10.9: the provider and tool fail with canaries in their error answers (canaries/failure-planting.ts)',
  });
  writeCanaryReport(report, reportDir());
  return report;
}

async function need(ctx: TestContext, target: Target): Promise<void> {
  needCapability(ctx, target, 'runs', 'telemetry', 'memory');
  if (!tools.has(target)) {
    const tool = await authorizedTool(target, caller(target), target.principals.agents[0]);
    if (!tool) unsupportedByTarget(ctx, 'the target authorizes none of the candidate tool names for the first agent');
    tools.set(target, tool);
  }
}

// ── leak canaries ──────────────────────────────────────────────────────────────────────────

describe('R10 telemetry leak canaries', () => {
  it('R10.1 no canary of any forbidden category, planted through every run input, appears raw or encoded in any exported byte', async (ctx) => {
    await need(ctx, t());
    const target = t();
    await seedMemory(target);
    const info = await target.bindings.open(caller(target), SPEC);
    const traces: (string | null)[] = [];

    plan.plant('memory.content(seeded, read by the run)');
    plan.plant('worker.environment');
    const r1 = await start(target, request(info.bindingId, target, { steps: firstRun(target) }));
    expect(r1.outcome.state, 'run 1 completes').toBe('completed');
    for (const carrier of [
      'request.headers',
      'request.body:provider.prompt',
      'request.body:tool.args',
      'request.body:emit.text',
      'request.body:memory_write.content',
      'request.body:subagent.prompt',
    ] as const) {
      plan.plant(carrier);
    }
    // The planting reached the target: the provider and tool saw their canaries, the checkpoint holds its own.
    const sentToProvider = stubs()
      .provider.completions()
      .map((c) => c.body)
      .join('\n');
    for (const m of plan.mustReach.provider) expect(sentToProvider, 'prompt reached the provider').toContain(m);
    plan.plant('provider.response:text');
    plan.plant('provider.response:stderr');
    const sentToTool = stubs()
      .tool.calls()
      .map((c) => c.body)
      .join('\n');
    for (const m of plan.mustReach.tool) expect(sentToTool, 'tool arguments reached the tool').toContain(m);
    expect(stubs().tool.calls().length, 'the tool answered all three calls').toBeGreaterThanOrEqual(3);
    plan.plant('tool.response:result');
    const checkpoint = await headPayload(target, info.bindingId);
    for (const m of plan.mustReach.checkpoint)
      expect(checkpoint, 'canaries are in the committed checkpoint').toContain(m);

    const r2 = await start(target, request(info.bindingId, target, { steps: plan.secondRun }));
    expect(r2.outcome.state, 'run 2 (loads the canary checkpoint) completes').toBe('completed');
    plan.plant('checkpoint.payload(committed by run 1, loaded by run 2)');
    const r3 = await start(target, request(info.bindingId, target, { steps: plan.interruptRun }));
    expect(r3.outcome.state).toBe('interrupted');
    plan.plant('request.body:interrupt.value');
    const interrupt = r3.outcome.events.find((e) => e.type === 'interrupt');
    if (interrupt?.type !== 'interrupt') throw new Error('interrupted run reported no interrupt event');
    const r4 = await start(
      target,
      request(info.bindingId, target, { resume: { interruptId: interrupt.interruptId, value: plan.resumeValue } }),
    );
    expect(r4.outcome.state, 'resumed run completes').toBe('completed');
    plan.plant('request.resume.value');
    expect(plan.unplanted(), 'every run input carried its canaries into the target').toEqual([]);
    runsPlanted += 4;
    traces.push(r1.outcome.traceId, r2.outcome.traceId, r3.outcome.traceId, r4.outcome.traceId);

    await boundedFlush(target, EXPORT_TIMEOUT_MS);
    healthSeen.push(await target.telemetry!.health());
    const ids = traces.filter((x): x is string => x !== null);
    expect(ids, 'every run reports the trace it was recorded under').toHaveLength(4);
    // Scan only complete traces: a span still in an export pipeline could carry the leak.
    for (const id of ids) await spansOfTrace(target, collector(), id, requestSkeleton(), HEALTH_WAIT_MS);

    const report = scanAndReport();
    expect(report.summary.categoriesNotPlanted, 'every forbidden category was planted').toEqual([]);
    expect(report.summary.spansScanned, 'telemetry was exported and scanned').toBeGreaterThan(0);
    expect(report.hits.length, `canaries found in exported telemetry:\n${describeHits(report.hits)}`).toBe(0);
    expect(report.verdict).toBe('clean');
  });
});

/** Bound on one run whose provider or tool fails at once (the stubs answer immediately). */
const FAILED_RUN_MS = 30_000;

/** Runs `f`'s one-step script with its peer failing; returns the run's trace id, if it reported one. */
async function runAgainstFailure(target: Target, f: PeerFailure): Promise<string | null> {
  const stub = f.peer === 'provider' ? stubs().provider : stubs().tool;
  const callsBefore = stub.calls().length;
  if (f.peer === 'provider') stubs().provider.respondWith(() => f.reply);
  else stubs().tool.respondWith(() => f.reply);
  const { bindingId } = await target.bindings.open(caller(target), SPEC);
  const tool = tools.get(target) ?? '';
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), FAILED_RUN_MS);
  });
  // The outcome is whatever the target reports for a failed provider/tool (failed, an error …):
  // the clause asks only that the run ends, in bounded time, and that nothing leaks.
  const ended = await Promise.race([
    start(target, request(bindingId, target, { steps: f.steps(tool) })).then(
      (r) => r.outcome,
      () => null,
    ),
    bound,
  ]).finally(() => clearTimeout(timer));
  expect(ended, `a run whose ${f.peer} ${f.what} ends within ${FAILED_RUN_MS / 1000} s`).not.toBe('timeout');
  expect(stub.calls().length, `the ${f.peer} was called and answered with its failure`).toBeGreaterThan(callsBefore);
  for (const c of f.canaries) kit.plant(c, f.carrier);
  runsPlanted += 1;
  return ended === 'timeout' || ended === null ? null : ended.traceId;
}

describe('R10 telemetry leak canaries on error paths', () => {
  it(`R10.9 a provider and a tool that fail (HTTP 500 bodies with stderr and results, garbled non-JSON replies): none of the peer's error text appears raw or encoded in any exported byte`, async (ctx) => {
    await need(ctx, t());
    const target = t();
    const traces: { id: string; steps: readonly RunStep[] }[] = [];
    try {
      for (const f of failures) {
        const id = await runAgainstFailure(target, f);
        if (id) traces.push({ id, steps: f.steps(tools.get(target) ?? '') });
      }
    } finally {
      stubs().provider.respondWith((r) => plan.providerReply(r.prompt));
      stubs().tool.respondWith(plan.toolReply);
    }
    await boundedFlush(target, EXPORT_TIMEOUT_MS);
    healthSeen.push(await target.telemetry!.health());
    // Scan complete traces, the failing step's span included: it is the one that would carry the text.
    for (const { id, steps } of traces) {
      await spansOfTrace(target, collector(), id, { spans: expectedSpans(steps) }, HEALTH_WAIT_MS);
    }
    const report = scanAndReport();
    const planted = new Set(failures.flatMap((f) => f.canaries.map((c) => c.id)));
    const hits = report.hits.filter((h) => planted.has(h.canaryId));
    expect(report.summary.spansScanned, 'telemetry was exported and scanned').toBeGreaterThan(0);
    expect(hits.length, `a failing peer's error text found in exported telemetry:\n${describeHits(hits)}`).toBe(0);
  });
});

// ── collector outage ───────────────────────────────────────────────────────────────────────

const OUTAGES: { id: string; mode: CollectorMode; what: string }[] = [
  { id: 'R10.2', mode: 'refuse', what: 'refuses connections' },
  { id: 'R10.3', mode: 'blackhole', what: 'accepts and never answers' },
  { id: 'R10.4', mode: 'slow', what: 'answers only after several export timeouts' },
  { id: 'R10.5', mode: 'error503', what: 'answers 503' },
];

describe('R10 collector outage changes nothing but telemetry', () => {
  for (const o of OUTAGES) {
    it(`${o.id} collector ${o.what}: identical outcomes and durable heads, latency within the export bound, health raised and cleared, audit kept`, async (ctx) => {
      await need(ctx, t());
      const seen = await outage.check(
        t(),
        () => collector().setMode(o.mode, { slowMs: EXPORT_TIMEOUT_MS * 6 }),
        () => collector().setMode('up'),
      );
      await ctx.annotate(describeOutage(seen));
    });
  }

  it('R10.6 sustained outage: the export queue stays bounded and drops instead of growing; memory stays bounded', async (ctx) => {
    await need(ctx, t());
    const target = t();
    await outage.baseline(target);
    const before = await target.telemetry!.health();
    const heapBefore = process.memoryUsage().heapUsed;
    await collector().setMode('blackhole');
    try {
      for (let i = 0; i < 8; i++) {
        await outage.expectUnchanged(target);
        const h = await target.telemetry!.health();
        healthSeen.push(h);
        expectQueueBounded(h);
      }
      const h = await outage.healthUntil(target, (x) => x.droppedSpans > before.droppedSpans, 'spans dropped');
      expect(h.exporter).not.toBe('ok');
    } finally {
      await collector().setMode('up');
    }
    // Coarse (no forced GC): eight runs' telemetry kept in memory would not approach this.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(96 * 1024 * 1024);
    await outage.expectUnchanged(target, 'after the outage');
    await outage.healthUntil(target, (x) => x.exporter === 'ok', 'recovery cleared');
  });

  it('R10.7 sampling set to drop everything: nothing exported, outcomes, durable heads and audit as with full sampling, also during an outage', async (ctx) => {
    await need(ctx, t0());
    await need(ctx, t());
    await outage.baseline(t());
    const target = t0();
    await seedMemory(target);
    // The seeded memory is read back by the workload; same content, same answer.
    // Untimed: the sampling-0 target's first run is its cold start, and the latency bound is
    // the warm full-sampling target's; its outage runs below are timed.
    await outage.expectUnchanged(target, 'with sampling 0', false);
    const auditBefore = await auditCount(target);
    const runsBefore = outage.runCount;
    for (const mode of ['refuse', 'blackhole'] as const) {
      await collector0().setMode(mode);
      try {
        await outage.expectUnchanged(target, `with sampling 0 and the collector in ${mode}`);
      } finally {
        await collector0().setMode('up');
      }
    }
    expect(await auditCount(target), 'audit written although nothing is sampled').toBe(
      auditBefore + outage.runCount - runsBefore,
    );
    expect(outage.runCount - runsBefore, 'one run at least per outage mode').toBeGreaterThanOrEqual(2);
    await boundedFlush(target, EXPORT_TIMEOUT_MS);
    const h = await target.telemetry!.health();
    healthSeen.push(h);
    expectQueueBounded(h);
    const exported = collector0()
      .requests()
      .reduce((n, r) => n + (r.spans?.length ?? 0), 0);
    expect(exported, 'no span exported with sampling ratio 0').toBe(0);
  });

  it('R10.8 no canary appears in any byte exported during outages, recoveries and the unsampled runs either', async (ctx) => {
    await need(ctx, t());
    const report = scanAndReport();
    expect(report.summary.categoriesNotPlanted).toEqual([]);
    expect(report.hits.length, `canaries found in exported telemetry:\n${describeHits(report.hits)}`).toBe(0);
  });
});
