/**
 * R10.31 — one export, its retries included, ends within the export timeout the target was
 * created with, measured per export at the collector (bug bash 8, telemetry-03).
 *
 * R10.25 bounds each connection to a hung collector and the attempts after the last flush; it
 * cannot tell a retry from a new export. A retry loop that gives each attempt a fresh timeout
 * (`export(spans)` called again on failure, each call with its own `timeoutMillis`) keeps every
 * connection within the timeout while one export lasts several times it. Here a retry is known
 * by what it carries: the collector is black-holed (it reads every request's spans and never
 * answers), and every request carrying a span already carried by an earlier one is an attempt
 * of that span's export. From the first arrival of a span, every request carrying it must have
 * been closed by the exporter within the export timeout plus slack — whatever the exporter's
 * retry policy or per-attempt timeout (the OTLP exporters' own retry loop shares one deadline
 * among its attempts, and so holds to it). Each export is watched 6 s past its bound, so a retry
 * sent after a backoff of up to that long is seen too. The export timeout is long beside the
 * slack, so that even a single retry with a fresh timeout is seen.
 */
import { describe, expect, it } from 'vitest';
import type { RunStep } from '../contract/runs.js';
import type { ReceivedRequest } from '../fixtures/collector/span-collector.js';
import { useCollectorTarget } from '../fixtures/collector/use-collector-target.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { runOnNewBinding } from '../fixtures/scenario/thread-session.js';
import { boundedFlush } from '../fixtures/traces/bounded-flush.js';

/** Long beside the slack: an attempt given a fresh timeout ends a whole timeout past the bound. */
const EXPORT_TIMEOUT_MS = 4_000;
/** Timer lateness on a loaded 2-core machine (R10.25 allows the same). */
const SLACK_MS = 2_000;
const BOUND_MS = EXPORT_TIMEOUT_MS + SLACK_MS;
/** How long the outage's first export may take to reach the collector (a batch processor's schedule). */
const FIRST_EXPORT_WITHIN_MS = 10_000;
/** No new span for this long: every export of the outage's run has begun. */
const SETTLE_MS = 1_500;
/**
 * Watched past the bound this long, for a retry sent after a backoff (OpenTelemetry JS waits about
 * 1 s before its first retry, the Collector's exporters about 5 s).
 */
const RETRY_WATCH_MS = 6_000;

const STEPS: readonly RunStep[] = [
  { type: 'emit', text: 'export retry bound' },
  { type: 'provider', prompt: 'a deterministic prompt' },
  { type: 'emit', text: 'done' },
];

const { collector, target: t } = useCollectorTarget({ exportTimeoutMs: EXPORT_TIMEOUT_MS, maxQueueSize: 32 });

const spanKeys = (r: ReceivedRequest): string[] => (r.spans ?? []).map((s) => `${s.traceId}/${s.spanId}`);

/** Each span's first arrival at the collector (epoch ms), over every request carrying it. */
function firstArrivals(requests: readonly ReceivedRequest[]): Map<string, number> {
  const first = new Map<string, number>();
  for (const r of requests) for (const k of spanKeys(r)) first.set(k, Math.min(first.get(k) ?? r.at, r.at));
  return first;
}

describe('R10 one export, retries included, is bounded by the export timeout', () => {
  it(`R10.31 black-holed collector, export timeout ${EXPORT_TIMEOUT_MS} ms ("Queues, batches, retry duration, and memory are bounded independently"): every request carrying a span is closed by the exporter within ${BOUND_MS} ms of that span's first arrival (a retry is another request with the same spans, so a retry given a fresh timeout shows)`, async (ctx) => {
    const target = t();
    needCapability(ctx, target, 'runs', 'telemetry');
    const run = (): Promise<string> => runOnNewBinding(target, STEPS);
    // With the collector up first: connections and exporters exist before the outage.
    expect(await run(), 'the workload completes with the collector up').toBe('completed');
    await boundedFlush(target, EXPORT_TIMEOUT_MS);

    await collector().setMode('blackhole');
    let flush: Promise<unknown> = Promise.resolve();
    let held: ReceivedRequest[] = [];
    let now = 0;
    try {
      expect(await run(), 'the run completes with the collector black-holed').toBe('completed');
      // Not awaited: it waits for exports that hang until their timeout.
      flush = target.telemetry!.flush().catch(() => {});
      const blackholed = () =>
        collector()
          .requests()
          .filter((r) => r.mode === 'blackhole' && spanKeys(r).length > 0);
      const askedAt = Date.now();
      while (blackholed().length === 0 && Date.now() - askedAt < FIRST_EXPORT_WITHIN_MS) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(
        blackholed().length,
        `the target exported the outage's spans to the black-holed collector within ${FIRST_EXPORT_WITHIN_MS} ms of a flush`,
      ).toBeGreaterThan(0);
      // The outage's exports have all begun once no new span has arrived for a while.
      let keys = firstArrivals(blackholed()).size;
      for (
        let quietSince = Date.now();
        Date.now() - quietSince < SETTLE_MS && Date.now() - askedAt < FIRST_EXPORT_WITHIN_MS;
      ) {
        await new Promise((r) => setTimeout(r, 100));
        const seen = firstArrivals(blackholed()).size;
        if (seen !== keys) [keys, quietSince] = [seen, Date.now()];
      }
      // Every export is watched past its bound and then as long as a retry's backoff may last:
      // an attempt still open, or one that arrived after the bound, is a retry beyond the timeout.
      const latestFirst = Math.max(...firstArrivals(blackholed()).values());
      await new Promise((r) => setTimeout(r, latestFirst + BOUND_MS + RETRY_WATCH_MS - Date.now()));
      now = Date.now();
      held = blackholed();
    } finally {
      // Recovery cuts the held requests: everything was read before it.
      await collector().setMode('up');
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([flush, new Promise((r) => (timer = setTimeout(r, EXPORT_TIMEOUT_MS)))]);
    clearTimeout(timer);

    const first = firstArrivals(held);
    const late = held.flatMap((r) => {
      const origin = Math.min(...spanKeys(r).map((k) => first.get(k)!));
      const endedMs = (r.closedAt ?? now) - origin;
      return endedMs > BOUND_MS
        ? [
            `a request of ${r.spans!.length} spans arriving ${r.at - origin} ms after their first arrival, ${r.closedAt === null ? `still open after ${endedMs} ms` : `closed after ${endedMs} ms`}`,
          ]
        : [];
    });
    const attempts = held.filter((r) => spanKeys(r).some((k) => first.get(k)! < r.at)).length;
    await ctx.annotate(
      `${held.length} requests to the black-holed collector, ${attempts} of them carrying spans an earlier one carried`,
    );
    expect(
      late,
      `every attempt of an export closed within the export timeout (${EXPORT_TIMEOUT_MS} ms) + ${SLACK_MS} ms of the export's first arrival: a later one is a retry given a fresh timeout, or an export never given up`,
    ).toEqual([]);
  }, 120_000);
});
