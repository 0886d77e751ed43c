/**
 * R10.30, a full queue's loss under exports that settle after it. "Collector outage may drop
 * telemetry and raise a health signal": a span dropped on a full export queue is a loss (R10.27),
 * and the signal answers for it until an export that started after the drop got through. An
 * export that was already in flight when the queue overflowed, and succeeds late, says nothing
 * about the spans dropped behind it (R10.29 is the same rule for a failed export).
 *
 * The target gets a small queue (`maxQueueSize` 8, `maxConcurrentExports` 2) and an export
 * timeout far longer than the test. The collector holds the answer of every request while runs go
 * on without a flush, until a health read shows `droppedSpans` grew; then every new request
 * hangs (black hole) and the held ones are answered 200. From then on no export that started
 * after the drop can have succeeded, so no reading may say `ok`. Judged only when the order is
 * certain: every held request arrived before the last health read that still showed no drop
 * (so it started before the drop), the signal was raised, and it stayed raised with nothing
 * settling (a signal that decays with time is not judged here). Clearing is never required here.
 */
import { describe, expect, it } from 'vitest';
import type { TelemetryHealth } from '../contract/tracing.js';
import { useCollectorTarget } from '../fixtures/collector/use-collector-target.js';
import { completeRun, HEALTH_WATCH_MS, healthSteps, watchHealth } from '../fixtures/scenario/health-watch.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { boundedFlush } from '../fixtures/traces/bounded-flush.js';

/** Far above the test's length: no export gives up while it is held or hanging. */
const EXPORT_TIMEOUT_MS = 30_000;
/** Small, so a few runs overflow it behind two held exports. */
const MAX_QUEUE_SIZE = 8;
const MAX_CONCURRENT_EXPORTS = 2;
/** Runs at most, with the collector holding every answer, until a drop shows. */
const HOLD_RUNS = 10;
const STEPS = healthSteps('health under a full queue behind held exports');

const { collector, target: t } = useCollectorTarget({
  exportTimeoutMs: EXPORT_TIMEOUT_MS,
  maxQueueSize: MAX_QUEUE_SIZE,
  maxConcurrentExports: MAX_CONCURRENT_EXPORTS,
});

describe('R10 a full queue’s loss is cleared only by an export newer than the drop', () => {
  it(`R10.30 spans dropped on a full queue (queue ${MAX_QUEUE_SIZE}) while the collector held every export: when the held exports — all started before the drop — succeed, with every newer export hanging, the health signal does not read ok`, async (ctx) => {
    const target = t();
    needCapability(ctx, target, 'runs', 'telemetry');
    const telemetry = target.telemetry!;
    const run = (what: string) => completeRun(target, STEPS, what);

    await run('with the collector up');
    await boundedFlush(target, EXPORT_TIMEOUT_MS);
    const base = await telemetry.health();

    let note = '';
    let afterRelease: TelemetryHealth['exporter'][] = [];
    try {
      await collector().setMode('hold');
      /** Start of the last health read that still showed no new drop: a request received before it started before any drop. */
      let cleanReadAt = Date.now();
      let dropped: TelemetryHealth | null = null;
      let runs = 0;
      while (!dropped && runs < HOLD_RUNS) {
        await run('while the collector holds answers');
        runs++;
        const readAt = Date.now();
        const h = await telemetry.health();
        if (h.droppedSpans > base.droppedSpans) dropped = h;
        else cleanReadAt = readAt;
      }
      // Nothing new may settle from here on: new requests hang; the held ones wait for release.
      await collector().setMode('blackhole');
      const held = collector()
        .requests()
        .filter((r) => r.mode === 'hold');
      const late = held.filter((r) => r.at > cleanReadAt);
      if (!dropped) {
        note = `not judged: no span was dropped in ${runs} runs behind ${held.length} held export(s)`;
        return;
      }
      if (held.length === 0 || late.length > 0) {
        note = `not judged: ${held.length === 0 ? 'no export was held' : `${late.length} of ${held.length} held export(s) arrived after the last read without a drop (they may have started after it)`}`;
        return;
      }
      if (dropped.exporter === 'ok') {
        note = 'not judged: the drop did not raise the signal (R10.27 judges that)';
        return;
      }
      if ((await watchHealth(target)).includes('ok')) {
        note = 'not judged: the raised signal cleared on its own with nothing settling';
        return;
      }
      const released = collector().releaseHeld();
      afterRelease = await watchHealth(target);
      note = `${dropped.droppedSpans - base.droppedSpans} span(s) dropped after ${runs} run(s) behind ${held.length} held export(s), all received before the last read without a drop; ${released} answered 200 with new requests hanging; exporter states after that: ${[...new Set(afterRelease)].join(', ')}`;
    } finally {
      await ctx.annotate(note || 'interrupted');
      collector().releaseHeld();
      await collector().setMode('up');
      await boundedFlush(target, EXPORT_TIMEOUT_MS).catch(() => {});
    }
    expect(
      afterRelease.filter((e) => e === 'ok').length,
      `health readings of exporter 'ok' in the ${HEALTH_WATCH_MS} ms after exports older than the drop succeeded, with every newer request hanging (no evidence newer than the loss)`,
    ).toBe(0);
  }, 120_000);
});
