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
import type { TestContext } from 'vitest';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { RunStep } from '../contract/runs.js';
import type { Target } from '../contract/target.js';
import { useCollector } from '../fixtures/collector/use-collector.js';
import { createNetworkLink, type NetworkLink } from '../fixtures/faults/network-link.js';
import { limitBandwidth } from '../fixtures/faults/toxics/bandwidth.js';
import { takeDown } from '../fixtures/faults/toxics/down.js';
import { addLatency } from '../fixtures/faults/toxics/latency.js';
import { resetPeer } from '../fixtures/faults/toxics/reset-peer.js';
import { blackHole } from '../fixtures/faults/toxics/timeout.js';
import { useToxiproxy } from '../fixtures/faults/use-toxiproxy.js';
import {
  CollectorOutage,
  EXPORT_TIMEOUT_MS,
  OUTAGE_OPTIONS,
  observeRun,
} from '../fixtures/scenario/collector-outage.js';
import { needCapability, notRun } from '../fixtures/scenario/need.js';
import { useStubs } from '../fixtures/stubs/use-stubs.js';
import { useTarget } from '../fixtures/targets/use-target.js';

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
  options: OUTAGE_OPTIONS,
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

const outage = new CollectorOutage({
  run: (target) => observeRun(target, target.principals.alice, { agent: target.principals.agents[0], steps: WORKLOAD }),
  auditCount: async (target) => (await target.audit.memory(target.principals.adminA, { key: MEMORY_KEY })).length,
  collector,
});

function need(ctx: TestContext, target: Target): NetworkLink {
  needCapability(ctx, target, 'runs', 'telemetry', 'memory');
  const kit = tp();
  if (!kit.available) notRun(ctx, kit.reason);
  return link!;
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
      await outage.check(
        t(),
        () => toxic.apply(l),
        () => l.heal(),
      );
    });
  }
});
