/**
 * R10.26, the bound on export requests open at once, under the workload that can exceed it:
 * flushes asked while earlier exports hang. A stock batch processor exports one batch at a time
 * on its schedule, so an outage without flushes never stacks requests (r10-export-bound.spec.ts);
 * but every `forceFlush` takes a fresh batch from the queue and exports it whatever is still in
 * flight, and only the exporter's own limit (the OTLP exporters' `concurrencyLimit`) keeps those
 * within `maxConcurrentExports`. So, with the collector black-holed and the export timeout far
 * longer than the outage (no export gives up within it), runs alternate with `telemetry.flush()`
 * calls that are not awaited (each would hang until the export timeout), and the export requests
 * open at once are counted at the collector, per telemetry identity.
 */
import { describe, expect, it } from 'vitest';
import type { RunStep } from '../contract/runs.js';
import { mostOpenAtOnce } from '../fixtures/collector/requests-open-at-once.js';
import type { ReceivedRequest } from '../fixtures/collector/span-collector.js';
import { useCollectorTarget } from '../fixtures/collector/use-collector-target.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { runOnNewBinding } from '../fixtures/scenario/thread-session.js';
import { boundedFlush } from '../fixtures/traces/bounded-flush.js';

/** Far above the outage's length: no export of a correct target gives up within it. */
const EXPORT_TIMEOUT_MS = 30_000;
/** Small, as in R10.26's outage: each run fills a good part of it. */
const MAX_QUEUE_SIZE = 8;
/** The declared bound: the scheduled batch's export and one flush beside it. */
const MAX_CONCURRENT_EXPORTS = 2;
/** Runs, each followed by a flush: two more flushes than the bound allows exports. */
const ROUNDS = MAX_CONCURRENT_EXPORTS + 2;
/** After a flush is asked, time for its request to reach the collector before the next run. */
const FLUSH_SETTLE_MS = 500;
/** The outage must end this long before the first export could time out (else the count means little). */
const WINDOW_SLACK_MS = 5_000;

const STEPS: readonly RunStep[] = [
  { type: 'emit', text: 'export bound under flushes' },
  { type: 'provider', prompt: 'a deterministic prompt' },
  { type: 'emit', text: 'done' },
];

const { collector, target: t } = useCollectorTarget({
  exportTimeoutMs: EXPORT_TIMEOUT_MS,
  maxQueueSize: MAX_QUEUE_SIZE,
  maxConcurrentExports: MAX_CONCURRENT_EXPORTS,
});

describe('R10 the export bound holds under flushes asked while exports hang', () => {
  it(`R10.26 black-holed collector, ${ROUNDS} runs each followed by telemetry.flush() while earlier exports hang (each flush takes a fresh batch): at most maxConcurrentExports (${MAX_CONCURRENT_EXPORTS}) export requests open at once per telemetry identity, counted at the collector`, async (ctx) => {
    const target = t();
    needCapability(ctx, target, 'runs', 'telemetry');
    const run = (): Promise<string> => runOnNewBinding(target, STEPS);
    expect(await run(), 'the workload completes with the collector up').toBe('completed');
    await boundedFlush(target, EXPORT_TIMEOUT_MS);

    const flushes: Promise<unknown>[] = [];
    let during: ReceivedRequest[] = [];
    let outageMs = 0;
    const outageFrom = Date.now();
    await collector().setMode('blackhole');
    try {
      for (let i = 0; i < ROUNDS; i++) {
        expect(await run(), `run ${i + 1} with the collector black-holed`).toBe('completed');
        // Not awaited: a flush waits for exports that hang until the export timeout.
        flushes.push(target.telemetry!.flush().catch(() => {}));
        await new Promise((r) => setTimeout(r, FLUSH_SETTLE_MS));
      }
      outageMs = Date.now() - outageFrom;
      during = collector()
        .requests()
        .filter((r) => r.mode === 'blackhole');
    } finally {
      await collector().setMode('up');
    }
    const openAtOnce = mostOpenAtOnce(during, Date.now());
    // The held requests are cut at recovery: the flushes settle (bounded, in case one never does).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(flushes), new Promise((r) => (timer = setTimeout(r, EXPORT_TIMEOUT_MS)))]);
    clearTimeout(timer);
    await ctx.annotate(
      `${ROUNDS} runs and flushes in an outage of ${outageMs} ms; requests during it ${during.length}, most open at once ${JSON.stringify(openAtOnce)}`,
    );
    expect(
      outageMs,
      `the outage's runs took ${outageMs} ms: they must end well within the export timeout (${EXPORT_TIMEOUT_MS} ms) for the count to mean anything — a machine far too loaded`,
    ).toBeLessThan(EXPORT_TIMEOUT_MS - WINDOW_SLACK_MS);
    const over = Object.entries(openAtOnce).filter(([, n]) => n > MAX_CONCURRENT_EXPORTS);
    expect(
      over,
      `export requests open at once at the black-holed collector, per telemetry identity, over the maxConcurrentExports ${MAX_CONCURRENT_EXPORTS} the target was created with: each flush exported a fresh batch beside the hung ones (an exporter without its concurrency limit)`,
    ).toEqual([]);
  }, 120_000);
});
