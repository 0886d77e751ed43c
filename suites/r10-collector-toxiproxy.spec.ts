/**
 * R10 — collector outage on the network, through Toxiproxy.
 *
 * The target is handed a Toxiproxy link's address as its collector URL (it works for any target:
 * its exporters, in whatever processes, connect through the proxy to the kit's span collector).
 * Then the link turns slow (latency), narrow (bandwidth), black-holed (timeout), hostile
 * (reset_peer) or absent (down). Run outcomes and durable heads must be identical to the
 * baseline, run latency bounded by the export timeout, memory audit unaffected, and the health
 * signal raised during the outage and cleared once the link heals. No Toxiproxy here → not run
 * with the reason (CI installs it and requires every scenario).
 */
import { createHash } from 'node:crypto';
import type { TestContext } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunOutcome, RunStep } from '../contract/runs.js';
import type { Target } from '../contract/target.js';
import type { TelemetryHealth } from '../contract/tracing.js';
import { useCollector } from '../fixtures/collector/use-collector.js';
import { createNetworkLink, type NetworkLink } from '../fixtures/faults/network-link.js';
import { limitBandwidth } from '../fixtures/faults/toxics/bandwidth.js';
import { takeDown } from '../fixtures/faults/toxics/down.js';
import { addLatency } from '../fixtures/faults/toxics/latency.js';
import { resetPeer } from '../fixtures/faults/toxics/reset-peer.js';
import { blackHole } from '../fixtures/faults/toxics/timeout.js';
import { useToxiproxy } from '../fixtures/faults/use-toxiproxy.js';
import { needCapability, notRun } from '../fixtures/scenario/need.js';
import { durableHead } from '../fixtures/scenario/process-faults.js';
import { SPEC } from '../fixtures/scenario/thread-session.js';
import { useStubs } from '../fixtures/stubs/use-stubs.js';
import { useTarget } from '../fixtures/targets/use-target.js';
import { boundedFlush } from '../fixtures/traces/bounded-flush.js';
import { requestSkeleton } from '../fixtures/traces/expected-spans.js';
import { spansOfTrace } from '../fixtures/traces/run-trace.js';

/** Export bounds the target is created with: small, so an outage shows within a test. */
const EXPORT_TIMEOUT_MS = 400;
const MAX_QUEUE_SIZE = 64;
/** Scheduling noise on a shared machine, on top of the export bound. */
const LATENCY_SLACK_MS = 1_000;
const HEALTH_WAIT_MS = EXPORT_TIMEOUT_MS * 10 + 6_000;
const MEMORY_KEY = 'r10-outage-note';

const stubs = useStubs();
const collector = useCollector();
const tp = useToxiproxy();
let link: NetworkLink | undefined;

beforeAll(async () => {
  const kit = tp();
  if (kit.available) {
    const upstream = new URL(collector().url).host;
    link = await createNetworkLink(kit.client, `smtc_r10_collector_${process.pid}`, upstream);
  }
}, 60_000);
const t = useTarget(() => ({
  // Through the link when there is one; the scenarios report "not run" otherwise.
  collectorUrl: link ? `http://${link.listen}/v1/traces` : collector().tracesUrl,
  ...stubs().urls(),
  options: { exportTimeoutMs: EXPORT_TIMEOUT_MS, maxQueueSize: MAX_QUEUE_SIZE },
}));
afterAll(async () => {
  await link?.remove().catch(() => {});
}, 30_000);

const WORKLOAD: readonly RunStep[] = [
  { type: 'emit', text: 'outage workload' },
  { type: 'provider', prompt: 'a deterministic prompt' },
  {
    type: 'memory_write',
    scope: 'user',
    proposal: { key: MEMORY_KEY, kind: 'semantic', content: 'prefers short answers', contentType: 'text/plain' },
  },
  { type: 'checkpoint' },
  { type: 'emit', text: 'done' },
];

interface Observed {
  readonly outcome: { state: RunOutcome['state']; revision: number; events: RunOutcome['events'] };
  readonly head: { revision: number; runState: string; payloadSha256: string } | null;
  readonly ms: number;
  readonly traceId: string | null;
}

async function workload(target: Target): Promise<Observed> {
  const alice = target.principals.alice;
  const { bindingId } = await target.bindings.open(alice, SPEC);
  const started = performance.now();
  const o = await target.runs!.start(alice, { bindingId, agent: target.principals.agents[0], steps: WORKLOAD });
  const ms = performance.now() - started;
  const h = await durableHead(target, alice, bindingId);
  return {
    outcome: { state: o.state, revision: o.revision, events: o.events },
    head: h && {
      revision: h.revision,
      runState: h.runState,
      payloadSha256: createHash('sha256').update(h.payload.bytes).digest('hex'),
    },
    ms,
    traceId: o.traceId,
  };
}

/** Poll health (flushing, so exports are attempted) until `pred` holds; bounded, queue bounded throughout. */
async function healthUntil(target: Target, pred: (h: TelemetryHealth) => boolean, what: string) {
  const deadline = performance.now() + HEALTH_WAIT_MS;
  for (;;) {
    const h = await target.telemetry!.health();
    expect(h.queueDepth).toBeLessThanOrEqual(h.queueCapacity);
    if (pred(h)) return h;
    if (performance.now() > deadline) {
      throw new Error(`health signal: ${what} not seen within ${HEALTH_WAIT_MS} ms (last: ${JSON.stringify(h)})`);
    }
    await boundedFlush(target, EXPORT_TIMEOUT_MS);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function auditCount(target: Target): Promise<number> {
  return (await target.audit.memory(target.principals.adminA, { key: MEMORY_KEY })).length;
}

function need(ctx: TestContext, target: Target): NetworkLink {
  needCapability(ctx, target, 'runs', 'telemetry', 'memory');
  const kit = tp();
  if (!kit.available) notRun(ctx, kit.reason);
  return link!;
}

let baseline: Observed | undefined;
let baselineMaxMs = 0;

async function getBaseline(target: Target): Promise<Observed> {
  if (baseline) return baseline;
  const runs = [await workload(target), await workload(target)];
  for (const r of runs) expect(r.outcome).toEqual(runs[0]!.outcome);
  expect(runs[0]!.outcome.state).toBe('completed');
  baselineMaxMs = Math.max(...runs.map((r) => r.ms));
  baseline = runs[0]!;
  await healthUntil(target, (h) => h.exporter === 'ok', 'baseline healthy');
  return baseline;
}

const TOXICS: { id: string; what: string; apply: (l: NetworkLink) => Promise<void> }[] = [
  { id: 'R10.20', what: 'latency far above the export timeout', apply: (l) => addLatency(l, EXPORT_TIMEOUT_MS * 4) },
  { id: 'R10.21', what: 'bandwidth throttled to 1 KB/s', apply: (l) => limitBandwidth(l, 1) },
  { id: 'R10.22', what: 'black hole (timeout toxic)', apply: (l) => blackHole(l, 0) },
  { id: 'R10.23', what: 'connections reset by peer', apply: (l) => resetPeer(l, 0) },
  { id: 'R10.24', what: 'link down', apply: (l) => takeDown(l) },
];

describe('R10 collector outage through Toxiproxy changes nothing but telemetry', () => {
  for (const toxic of TOXICS) {
    it(`${toxic.id} collector link with ${toxic.what}: identical outcomes and heads, bounded latency, audit kept, health raised and cleared`, async (ctx) => {
      const l = need(ctx, t());
      const target = t();
      const base = await getBaseline(target);
      const auditBefore = await auditCount(target);
      await toxic.apply(l);
      try {
        const bound = baselineMaxMs + EXPORT_TIMEOUT_MS + LATENCY_SLACK_MS;
        for (let i = 0; i < 2; i++) {
          const r = await workload(target);
          expect(r.outcome, 'run outcome identical to the baseline').toEqual(base.outcome);
          expect(r.head, 'durable head identical to the baseline').toEqual(base.head);
          expect(r.ms, `run latency within baseline + export timeout (${Math.round(bound)} ms)`).toBeLessThanOrEqual(
            bound,
          );
        }
        expect(await auditCount(target), 'every memory write audited during the outage').toBe(auditBefore + 2);
        await healthUntil(target, (h) => h.exporter !== 'ok', 'outage raised');
      } finally {
        await l.heal();
      }
      const after = await workload(target);
      expect(after.outcome).toEqual(base.outcome);
      await healthUntil(target, (h) => h.exporter === 'ok', 'recovery cleared');
      expect(after.traceId).not.toBeNull();
      // Exporting again means the whole of a new run's trace arrives, from both parts.
      await spansOfTrace(target, collector(), after.traceId!, requestSkeleton(), HEALTH_WAIT_MS);
    });
  }
});
