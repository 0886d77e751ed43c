/**
 * R10.32, an outage of one telemetry identity. "Collector outage may drop telemetry and raise a
 * health signal": the signal is one for the whole target, and the contract's identities
 * (control plane and sandbox worker, contract/tracing.ts SERVICE) export apart. When only the
 * worker's exports fail, the control plane's keep succeeding; those successes say nothing about
 * the worker's lost spans, so the signal must not read ok while they stay lost — a combination
 * that takes the best identity's state, or clears on any identity's success, hides the loss.
 *
 * The collector answers 500 (not retried by OTLP/HTTP) to every request whose spans are all the
 * worker's, and 200 to the rest. Judged only when it happened that way — a worker request
 * failed, a control-plane request succeeded after it, and droppedSpans grew (R10.28 judges the
 * counting); a target whose requests mix identities (a telemetry facade) is not judged here.
 */
import { describe, expect, it } from 'vitest';
import { SERVICE } from '../contract/tracing.js';
import type { ReceivedRequest } from '../fixtures/collector/span-collector.js';
import { useCollectorTarget } from '../fixtures/collector/use-collector-target.js';
import { completeRun, healthSteps, watchHealth } from '../fixtures/scenario/health-watch.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { boundedFlush } from '../fixtures/traces/bounded-flush.js';

const EXPORT_TIMEOUT_MS = 5_000;
const RUNS = 2;
const STEPS = healthSteps('health when one identity loses its exports');

const { collector, target: t } = useCollectorTarget({ exportTimeoutMs: EXPORT_TIMEOUT_MS, maxQueueSize: 32 });

const only = (r: ReceivedRequest, service: string): boolean =>
  !!r.spans?.length && r.spans.every((x) => x.serviceName === service);

describe('R10 one identity’s loss is not hidden by another’s success', () => {
  it(`R10.32 the worker's exports fail (500) while the control plane's succeed: with droppedSpans grown, the health signal never reads ok — another identity's success is no evidence about the worker's lost spans`, async (ctx) => {
    const target = t();
    needCapability(ctx, target, 'runs', 'telemetry');
    const telemetry = target.telemetry!;
    await completeRun(target, STEPS, 'with the collector up');
    await boundedFlush(target, EXPORT_TIMEOUT_MS);
    const base = await telemetry.health();
    const from = collector().requests().length;
    collector().failIdentity(SERVICE.worker);
    let states: string[] = [];
    let dropped = 0;
    let during: ReceivedRequest[] = [];
    try {
      for (let i = 0; i < RUNS; i++) {
        await completeRun(target, STEPS, `run ${i + 1} with the worker's exports failing`);
        await boundedFlush(target, EXPORT_TIMEOUT_MS);
      }
      const after = await telemetry.health();
      dropped = after.droppedSpans - base.droppedSpans;
      states = [after.exporter, ...(await watchHealth(target))];
      during = collector().requests().slice(from);
    } finally {
      collector().failIdentity(null);
    }
    const workerFailed = during.filter((r) => r.status === 500 && only(r, SERVICE.worker));
    const firstFail = Math.min(...workerFailed.map((r) => r.at));
    const controlPlaneOk = during.filter((r) => r.status === 200 && only(r, SERVICE.controlPlane) && r.at > firstFail);
    const judged = workerFailed.length > 0 && controlPlaneOk.length > 0 && dropped > 0;
    await ctx.annotate(
      `${workerFailed.length} worker request(s) failed, ${controlPlaneOk.length} control-plane request(s) succeeded after; droppedSpans +${dropped}; states read ${states.join(', ')}${judged ? '' : ' — not judged: the outage was not one identity’s alone, or nothing was counted dropped'}`,
    );
    if (!judged) return;
    expect(
      states.filter((s) => s === 'ok'),
      'health read while the worker’s spans are lost and only the control plane’s exports succeed',
    ).toEqual([]);
  }, 120_000);
});
