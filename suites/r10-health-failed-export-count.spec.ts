/**
 * R10.33, the spans of a failed export are counted one by one. contract/tracing.ts defines
 * `droppedSpans` as "Sampled spans lost: refused by a full queue, or in an export that failed":
 * a count of spans, not of exports. A target that adds one per failed batch reads as if an
 * outage lost a span or two while it lost every span of the run.
 *
 * The collector answers 500 (not retried by OTLP/HTTP) while runs go on, each followed by a
 * flush; then it answers again and the target is flushed once more (a target that kept the
 * refused spans for later delivers them now). Every span the collector refused and never accepted
 * afterwards was lost in a failed export, so droppedSpans must have grown by at least as many
 * (a full queue may add more). Judged only when the collector refused a span it never accepted.
 */
import { describe, expect, it } from 'vitest';
import { collectorQuiet, QUIET_MS } from '../fixtures/collector/collector-quiet.js';
import { useCollectorTarget } from '../fixtures/collector/use-collector-target.js';
import { completeRun, healthSteps } from '../fixtures/scenario/health-watch.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { boundedFlush } from '../fixtures/traces/bounded-flush.js';

const EXPORT_TIMEOUT_MS = 5_000;
const RUNS = 2;
const STEPS = healthSteps('health when exports fail');

const { collector, target: t } = useCollectorTarget({ exportTimeoutMs: EXPORT_TIMEOUT_MS, maxQueueSize: 64 });

describe('R10 the spans of a failed export are counted one by one', () => {
  it(`R10.33 with the collector answering 500 (not retried) to ${RUNS} runs' exports, droppedSpans grows by at least the spans the collector refused and never accepted afterwards — it counts spans, not failed exports`, async (ctx) => {
    const target = t();
    needCapability(ctx, target, 'runs', 'telemetry');
    const telemetry = target.telemetry!;
    await completeRun(target, STEPS, 'with the collector up');
    await boundedFlush(target, EXPORT_TIMEOUT_MS);
    await collectorQuiet(collector(), EXPORT_TIMEOUT_MS + QUIET_MS);
    const base = await telemetry.health();
    const from = collector().requests().length;
    await collector().setMode('error500');
    try {
      for (let i = 0; i < RUNS; i++) {
        await completeRun(target, STEPS, `run ${i + 1} with the collector answering 500`);
        await boundedFlush(target, EXPORT_TIMEOUT_MS);
      }
    } finally {
      await collector().setMode('up');
    }
    await boundedFlush(target, EXPORT_TIMEOUT_MS);
    await collectorQuiet(collector(), EXPORT_TIMEOUT_MS + QUIET_MS);
    const after = await telemetry.health();
    const accepted = new Set(
      collector()
        .spans()
        .map((s) => s.spanId),
    );
    const refused = collector()
      .requests()
      .slice(from)
      .filter((r) => r.status === 500)
      .flatMap((r) => r.spans ?? []);
    const lost = new Set(refused.map((s) => s.spanId).filter((id) => !accepted.has(id)));
    const dropped = after.droppedSpans - base.droppedSpans;
    await ctx.annotate(
      `${refused.length} span(s) refused (500), ${lost.size} distinct and never accepted afterwards; droppedSpans +${dropped}${lost.size === 0 ? ' — not judged: the collector refused no span it did not accept later' : ''}`,
    );
    if (lost.size === 0) return;
    expect(
      dropped,
      `droppedSpans grew by ${dropped} while ${lost.size} spans were lost in exports the collector refused: each lost span counts, not each failed export`,
    ).toBeGreaterThanOrEqual(lost.size);
  }, 120_000);
});
