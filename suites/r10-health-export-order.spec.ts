/**
 * R10.29, the health signal under exports that settle out of start order. "Collector outage may
 * … raise a health signal": the signal answers for the loss until newer evidence clears it — an
 * export that started after the loss and got through. An export that started before the loss
 * and succeeds late says nothing about the collector now.
 *
 * Two exports must be in flight at once for that to happen (a scheduled batch and a flush, say),
 * so the target is created with room for them (`maxConcurrentExports` 4) and an export timeout far
 * longer than the test. The collector first holds one export's answer (the old one), then fails
 * every new request at once (500, which OTLP/HTTP does not retry) while runs and flushes go on,
 * until the health signal is raised; then it answers the held export 200, still failing all else.
 * From then on no export newer than the failures can have succeeded, so the signal must not read
 * `ok`. Judged only when the target did what the ordering needs: a request of an identity held
 * while a newer one of the same identity failed, the signal raised after that failure, and the
 * signal still raised after a wait with nothing settling (a signal that clears on its own with
 * time is not judged here). Health is never required to clear in this check.
 */
import { describe, expect, it } from 'vitest';
import type { TelemetryHealth } from '../contract/tracing.js';
import { servicesOf } from '../fixtures/collector/requests-open-at-once.js';
import type { CollectorMode } from '../fixtures/collector/span-collector.js';
import { useCollectorTarget } from '../fixtures/collector/use-collector-target.js';
import {
  completeRun,
  HEALTH_POLL_MS,
  HEALTH_WATCH_MS,
  healthSteps,
  sleep,
  watchHealth,
} from '../fixtures/scenario/health-watch.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { boundedFlush } from '../fixtures/traces/bounded-flush.js';

/** Far above the test's length: no export gives up while it is held. */
const EXPORT_TIMEOUT_MS = 30_000;
const MAX_QUEUE_SIZE = 32;
/** Room for the held export, the failing ones beside it, and a flush. */
const MAX_CONCURRENT_EXPORTS = 4;
/** How long the target gets to send a request of each identity into the hold. */
const HOLD_WAIT_MS = 8_000;
/** Runs (each followed by a flush) at most, with new requests failing, to raise the signal. */
const FAIL_RUNS = 4;
/** Health is read this long after each failing run, every HEALTH_POLL_MS. */
const RAISE_WAIT_MS = 1_500;
const STEPS = healthSteps('health under out-of-order exports');

const { collector, target: t } = useCollectorTarget({
  exportTimeoutMs: EXPORT_TIMEOUT_MS,
  maxQueueSize: MAX_QUEUE_SIZE,
  maxConcurrentExports: MAX_CONCURRENT_EXPORTS,
});

/** Services with a request that arrived in `mode`. */
function servicesIn(mode: CollectorMode): Set<string> {
  return new Set(
    collector()
      .requests()
      .filter((r) => r.mode === mode)
      .flatMap(servicesOf),
  );
}

describe('R10 the health signal is cleared only by an export newer than the loss', () => {
  it(`R10.29 an export started before newer exports failed succeeds after them (the collector held its answer, then failed every new request): the health signal, once raised, does not read ok — no export newer than the failures got through`, async (ctx) => {
    const target = t();
    needCapability(ctx, target, 'runs', 'telemetry');
    const telemetry = target.telemetry!;
    const run = (what: string) => completeRun(target, STEPS, what);
    /** Flushes are not awaited: one may wait on the held export. */
    const flushes: Promise<unknown>[] = [];
    const flush = () => flushes.push(telemetry.flush().catch(() => {}));
    const watch = (ms: number, stop?: (h: TelemetryHealth) => boolean) => watchHealth(target, ms, stop);

    await run('with the collector up');
    await boundedFlush(target, EXPORT_TIMEOUT_MS);

    let note = '';
    let afterRelease: TelemetryHealth['exporter'][] = [];
    try {
      // The old export: its answer is held.
      await collector().setMode('hold');
      await run('while the collector holds answers');
      flush();
      const holdUntil = performance.now() + HOLD_WAIT_MS;
      while (servicesIn('hold').size < 2 && performance.now() < holdUntil) await sleep(HEALTH_POLL_MS);
      const held = servicesIn('hold');

      // Newer exports fail at once, until the signal is raised.
      await collector().setMode('error500');
      let raised = false;
      let runs = 0;
      while (!raised && runs < FAIL_RUNS) {
        await run('while new exports fail');
        runs++;
        flush();
        const failedBesideHeld = () => [...servicesIn('error500')].some((s) => held.has(s));
        const seen = await watch(RAISE_WAIT_MS, (h) => failedBesideHeld() && h.exporter !== 'ok');
        raised = failedBesideHeld() && seen[seen.length - 1] !== 'ok';
      }
      const overlapped = [...servicesIn('error500')].filter((s) => held.has(s));
      if (!raised) {
        note = `not judged: ${overlapped.length === 0 ? `no identity had a request held while a newer one failed (held ${JSON.stringify([...held])}, failed ${JSON.stringify([...servicesIn('error500')])}): it exports one at a time` : 'the health signal was not raised while new exports failed (R10.2–R10.5 judge raising)'}`;
        return;
      }
      // Nothing settles now: a signal that clears on its own with time is not judged.
      const steady = await watch(HEALTH_WATCH_MS, (h) => h.exporter === 'ok');
      if (steady.includes('ok')) {
        note = 'not judged: the raised signal cleared on its own with nothing settling';
        return;
      }
      // The old export succeeds, after the newer failures; everything new still fails.
      const released = collector().releaseHeld();
      afterRelease = await watchHealth(target);
      note = `${held.size} identities held an export (${[...held].join(', ')}), newer requests of ${overlapped.join(', ')} failed over ${runs} run(s); ${released} held request(s) answered 200; exporter states after that: ${[...new Set(afterRelease)].join(', ')}`;
    } finally {
      await ctx.annotate(note || 'interrupted');
      collector().releaseHeld();
      await collector().setMode('up');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(flushes), new Promise((r) => (timer = setTimeout(r, EXPORT_TIMEOUT_MS)))]);
      clearTimeout(timer);
    }
    expect(
      afterRelease.filter((e) => e === 'ok').length,
      `health readings of exporter 'ok' in the ${HEALTH_WATCH_MS} ms after an export older than the failures succeeded late, with every newer request still failing (no evidence newer than the loss)`,
    ).toBe(0);
  }, 120_000);
});
