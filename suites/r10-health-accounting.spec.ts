/**
 * R10 — the health signal's queue accounting, read against what the collector received.
 *
 * The target is created with a small queue (`maxQueueSize`) and an export timeout far longer
 * than the outage, so within it no export of a correct target fails or times out: the only way
 * spans are lost is a full queue. The collector first answers (baseline: how many spans one run
 * of the workload samples, measured at the collector on runs that dropped nothing), then accepts
 * and never answers (black hole) while runs go on without a flush — each identity's first batch
 * hangs, its queue fills and then refuses spans — then answers again, and the target drains and
 * is flushed until its queue reads empty.
 *
 * R10.27: a health read taken after `droppedSpans` grew, with no export answered since (the
 * collector answered none in the black hole), must not say `ok`. Spans dropped on a full queue
 * are telemetry the outage dropped, whatever the exporter's own timeouts say yet; a target may
 * clear the state once an export that started after the drop succeeds, which the black hole
 * never allows.
 *
 * R10.28: the accounting is exact and bounded. On every read 0 ≤ queueDepth ≤ queueCapacity and
 * the counters (cumulative since the target was created) never go down; once the target has
 * settled after the outage its queue reads empty, `exportedSpans` grew by exactly the spans the
 * collector accepted, and every span the outage's runs sampled is exported or dropped:
 * exported + dropped grew by runs × the spans one run samples (judged when the baseline runs
 * sampled the same number of spans each and no span outside the runs' traces reached the
 * collector; otherwise said so in the annotation).
 */
import type { TestContext } from 'vitest';
import { describe, expect, it } from 'vitest';
import type { RunStep } from '../contract/runs.js';
import type { Target } from '../contract/target.js';
import type { TelemetryHealth } from '../contract/tracing.js';
import { collectorQuiet, DRAIN_QUIET_MS, QUIET_MS } from '../fixtures/collector/collector-quiet.js';
import type { SpanCollector } from '../fixtures/collector/span-collector.js';
import { useCollectorTarget } from '../fixtures/collector/use-collector-target.js';
import { observeRun } from '../fixtures/scenario/collector-outage.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { boundedFlush } from '../fixtures/traces/bounded-flush.js';

/** Far above the outage's length: no export of a correct target gives up within it. */
const EXPORT_TIMEOUT_MS = 30_000;
/** Small, so a few runs overflow every identity's queue. */
const MAX_QUEUE_SIZE = 8;
const MAX_CONCURRENT_EXPORTS = 2;
/** Baseline runs with the collector up: each one's spans are counted at the collector. */
const BASELINE_RUNS = 3;
/**
 * Runs in the black hole: several times what a queue and its hung batch hold, for each
 * identity (the control plane records only a few spans per run).
 */
const OUTAGE_RUNS = 6;
/** Time after the last outage run for its last spans to end. */
const SETTLE_MS = 1_000;
/** The outage must end this long before the first export could time out. */
const WINDOW_SLACK_MS = 5_000;
/** Flush rounds after recovery until the queue reads empty (a background span may be queued). */
const SETTLE_ROUNDS = 3;

const { collector, target: t } = useCollectorTarget({
  exportTimeoutMs: EXPORT_TIMEOUT_MS,
  maxQueueSize: MAX_QUEUE_SIZE,
  maxConcurrentExports: MAX_CONCURRENT_EXPORTS,
});

const WORKLOAD: readonly RunStep[] = [
  { type: 'emit', text: 'health accounting workload' },
  { type: 'provider', prompt: 'a deterministic prompt' },
  { type: 'emit', text: 'between the calls' },
  { type: 'provider', prompt: 'a second deterministic prompt' },
  { type: 'emit', text: 'done' },
];

interface Read {
  readonly phase: 'baseline' | 'outage' | 'recovery';
  readonly h: TelemetryHealth;
  /** Spans the collector had accepted when the read returned (acceptance precedes the exporter's success). */
  readonly accepted: number;
}

/** What one pass of the scenario saw; both clauses judge it. */
interface Seen {
  readonly reads: readonly Read[];
  /** Settled before the outage, and settled after it. */
  readonly before: TelemetryHealth;
  readonly after: TelemetryHealth;
  /** Spans the collector accepted from the first settled read to the last. */
  readonly acceptedFirst: number;
  readonly acceptedLast: number;
  readonly first: TelemetryHealth;
  /** Spans one run samples (null: not the same on every drop-free baseline run, or none was). */
  readonly perRun: number | null;
  readonly baselineCounts: readonly { spans: number; dropped: number }[];
  /** Spans accepted that belong to no run of the test (background spans). */
  readonly foreign: number;
  readonly outageMs: number;
}

async function settle(target: Target): Promise<void> {
  await boundedFlush(target, EXPORT_TIMEOUT_MS);
  await collectorQuiet(collector(), EXPORT_TIMEOUT_MS + QUIET_MS);
}

let seen: Promise<Seen> | undefined;

/** The scenario runs once; R10.27 and R10.28 read the same observations. */
function scenario(target: Target): Promise<Seen> {
  seen ??= observe(target);
  return seen;
}

async function observe(target: Target): Promise<Seen> {
  const reads: Read[] = [];
  const read = async (phase: Read['phase']) => {
    const h = await target.telemetry!.health();
    reads.push({ phase, h, accepted: collector().spans().length });
    return h;
  };
  const run = () =>
    observeRun(target, target.principals.alice, { agent: target.principals.agents[0], steps: WORKLOAD });
  const traces = new Set<string>();

  await settle(target);
  // The baseline is a pair of reads 300 ms apart with the same exportedSpans and no span accepted
  // between them, so no export the collector accepted before it is still to be counted after it.
  let first = await read('baseline');
  let acceptedFirst = collector().spans().length;
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setTimeout(r, 300));
    const again = await read('baseline');
    const acceptedAgain = collector().spans().length;
    const still = again.exportedSpans === first.exportedSpans && acceptedAgain === acceptedFirst;
    first = again;
    acceptedFirst = acceptedAgain;
    if (still) break;
  }

  // Baseline: what one run samples, counted at the collector on runs that dropped nothing.
  const baselineCounts: { spans: number; dropped: number }[] = [];
  for (let i = 0; i < BASELINE_RUNS; i++) {
    const droppedBefore = reads[reads.length - 1]!.h.droppedSpans;
    const o = await run();
    await settle(target);
    const h = await read('baseline');
    if (o.traceId) traces.add(o.traceId);
    const spans = o.traceId
      ? collector()
          .spans()
          .filter((s) => s.traceId === o.traceId).length
      : 0;
    baselineCounts.push({ spans, dropped: h.droppedSpans - droppedBefore });
  }
  const clean = baselineCounts.filter((b) => b.dropped === 0 && b.spans > 0).map((b) => b.spans);
  const perRun = clean.length >= 2 && clean.every((n) => n === clean[0]) ? clean[0]! : null;
  const before = await read('baseline');

  // The outage: the collector accepts every request and never answers; no flush is asked.
  const outageFrom = Date.now();
  let outageMs = 0;
  await collector().setMode('blackhole');
  try {
    for (let i = 0; i < OUTAGE_RUNS; i++) {
      const o = await run();
      if (o.traceId) traces.add(o.traceId);
      await read('outage');
    }
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    await read('outage');
    outageMs = Date.now() - outageFrom;
  } finally {
    await collector().setMode('up');
  }

  // Recovery: the target's own schedule drains, then flushes until the queue reads empty.
  await collectorQuiet(collector(), EXPORT_TIMEOUT_MS + DRAIN_QUIET_MS, DRAIN_QUIET_MS);
  let after = await read('recovery');
  for (let i = 0; i < SETTLE_ROUNDS && (i === 0 || after.queueDepth > 0); i++) {
    await settle(target);
    after = await read('recovery');
  }
  const accepted = collector().spans();
  const foreign = accepted.slice(acceptedFirst).filter((s) => !traces.has(s.traceId)).length;
  return {
    reads,
    before,
    after,
    first,
    acceptedFirst,
    acceptedLast: accepted.length,
    perRun,
    baselineCounts,
    foreign,
    outageMs,
  };
}

function need(ctx: TestContext, target: Target): void {
  needCapability(ctx, target, 'runs', 'telemetry');
}

const brief = (h: TelemetryHealth) =>
  `${h.exporter} dropped ${h.droppedSpans} queue ${h.queueDepth}/${h.queueCapacity} exported ${h.exportedSpans}`;

describe('R10 the health signal accounts for the export queue exactly', () => {
  it(`R10.27 spans dropped on a full export queue (queue ${MAX_QUEUE_SIZE}, collector black-holed, no export past its timeout): every health read after droppedSpans grew, with no export answered since, reports the exporter not ok`, async (ctx) => {
    const target = t();
    need(ctx, target);
    const s = await scenario(target);
    expect(
      s.outageMs,
      `the outage's runs took ${s.outageMs} ms: they must end well within the export timeout (${EXPORT_TIMEOUT_MS} ms) — a machine far too loaded`,
    ).toBeLessThan(EXPORT_TIMEOUT_MS - WINDOW_SLACK_MS);
    const outage = s.reads.filter((r) => r.phase === 'outage').map((r) => r.h);
    const dropping = outage.filter((h) => h.droppedSpans > s.before.droppedSpans);
    await ctx.annotate(`reads in the black hole: ${outage.map(brief).join('; ')} (before it: ${brief(s.before)})`);
    expect(
      dropping.length,
      `spans dropped during the black hole: ${OUTAGE_RUNS} runs against a queue of ${MAX_QUEUE_SIZE} per identity whose first batch hangs`,
    ).toBeGreaterThan(0);
    expect(
      dropping.filter((h) => h.exporter === 'ok').map(brief),
      'health reads reporting the exporter ok although droppedSpans grew and the collector answered no export since (a span dropped on a full queue is telemetry the outage dropped)',
    ).toEqual([]);
  }, 180_000);

  it(`R10.28 the health accounting is exact and bounded: on every read 0 ≤ queueDepth ≤ queueCapacity and the counters never go down; exportedSpans never counts more than the collector has accepted; once settled after a black hole that overflowed the queue (${MAX_QUEUE_SIZE}), the queue reads empty, exportedSpans grew by the spans the collector accepted, and exported + dropped grew by the spans the outage's runs sampled`, async (ctx) => {
    const target = t();
    need(ctx, target);
    const s = await scenario(target);
    const hs = s.reads.map((r) => r.h);
    const exported = s.after.exportedSpans - s.first.exportedSpans;
    const accepted = s.acceptedLast - s.acceptedFirst;
    const accounted = s.after.exportedSpans + s.after.droppedSpans - (s.before.exportedSpans + s.before.droppedSpans);
    const sampled = s.perRun === null ? null : s.perRun * OUTAGE_RUNS;
    await ctx.annotate(
      `baseline runs (spans at the collector, dropped): ${JSON.stringify(s.baselineCounts)}; one run samples ${s.perRun ?? 'an unknown number of'} spans; before the outage ${brief(s.before)}, settled after it ${brief(s.after)}; spans accepted by the collector ${accepted}, outside the runs' traces ${s.foreign}; most queued in one read ${Math.max(...hs.map((h) => h.queueDepth))} of ${hs[0]?.queueCapacity}`,
    );
    const field = (h: TelemetryHealth, k: keyof Omit<TelemetryHealth, 'exporter'>) =>
      Number.isInteger(h[k]) && h[k] >= 0;
    expect(
      hs
        .filter(
          (h) => !(['droppedSpans', 'queueDepth', 'queueCapacity', 'exportedSpans'] as const).every((k) => field(h, k)),
        )
        .map(brief),
      'health reads whose counters are not non-negative integers',
    ).toEqual([]);
    expect(
      s.reads.filter((r) => r.h.queueDepth > r.h.queueCapacity).map((r) => `${r.phase}: ${brief(r.h)}`),
      'health reads with more spans queued than the queue holds (a span the full queue dropped counted as queued)',
    ).toEqual([]);
    const down = hs.flatMap((h, i) =>
      i > 0 && (h.droppedSpans < hs[i - 1]!.droppedSpans || h.exportedSpans < hs[i - 1]!.exportedSpans)
        ? [`${brief(hs[i - 1]!)} → ${brief(h)}`]
        : [],
    );
    expect(down, 'droppedSpans and exportedSpans count since the target was created: they never go down').toEqual([]);
    expect(
      s.after.queueDepth,
      `spans still queued once the collector answered, the schedule drained (${DRAIN_QUIET_MS} ms quiet) and ${SETTLE_ROUNDS} flushes settled (${brief(s.after)})`,
    ).toBe(0);
    expect(exported, `exportedSpans grew by ${exported}; the collector accepted ${accepted} spans meanwhile`).toBe(
      accepted,
    );
    // exportedSpans counts "spans of exports the collector accepted": at no read may it have grown
    // by more than the collector had accepted by then (an export handed off to a black hole, or
    // refused, is not exported — counting at hand-off reads as exported during the outage).
    expect(
      s.reads
        .filter((r) => r.h.exportedSpans - s.first.exportedSpans > r.accepted - s.acceptedFirst)
        .filter((r) => s.reads.indexOf(r) > s.reads.findLastIndex((x) => x.h === s.first))
        .map((r) => `${r.phase}: ${brief(r.h)}, the collector had accepted ${r.accepted - s.acceptedFirst}`),
      'health reads counting spans as exported that the collector had not accepted',
    ).toEqual([]);
    if (sampled !== null && s.foreign === 0) {
      expect(
        accounted,
        `exported + dropped grew by ${accounted} over the outage and its recovery; its ${OUTAGE_RUNS} runs sampled ${OUTAGE_RUNS} × ${s.perRun} = ${sampled} spans, each exported or dropped`,
      ).toBe(sampled);
    }
  }, 180_000);
});
