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
 *
 * R10.25 measures export bounds at the socket: the link's upstream becomes a kit listener that
 * accepts and never answers (a hung collector). Export is off the request path, so an exporter
 * with no request timeout, or one that retries without end, leaves run outcomes intact; only
 * its connections show it. Each must be closed by the exporter within the export timeout the
 * target was created with (one export including its retries, `TargetOptions.exportTimeoutMs`)
 * plus slack, and once the last export was triggered the attempts must stop.
 */
import type { TestContext } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunStep } from '../contract/runs.js';
import type { Target } from '../contract/target.js';
import { SERVICE } from '../contract/tracing.js';
import { useCollector } from '../fixtures/collector/use-collector.js';
import { startHungListener } from '../fixtures/faults/hung-listener.js';
import { createNetworkLink, type NetworkLink } from '../fixtures/faults/network-link.js';
import { limitBandwidth } from '../fixtures/faults/toxics/bandwidth.js';
import { takeDown } from '../fixtures/faults/toxics/down.js';
import { addLatency } from '../fixtures/faults/toxics/latency.js';
import { resetPeer } from '../fixtures/faults/toxics/reset-peer.js';
import { blackHole } from '../fixtures/faults/toxics/timeout.js';
import { useToxiproxy } from '../fixtures/faults/use-toxiproxy.js';
import {
  CollectorOutage,
  describeOutage,
  EXPORT_TIMEOUT_MS,
  OUTAGE_OPTIONS,
  observeRun,
} from '../fixtures/scenario/collector-outage.js';
import { needCapability, notRun } from '../fixtures/scenario/need.js';
import { useStubs } from '../fixtures/stubs/use-stubs.js';
import { useTarget } from '../fixtures/targets/use-target.js';
import { boundedFlush } from '../fixtures/traces/bounded-flush.js';

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

/** Scheduling slack on top of the export timeout for one connection's life (a loaded 2-core CI machine). */
const HUNG_SLACK_MS = 2_000;
/** How long the quiet window is in which new attempts are counted. */
const HUNG_QUIET_MS = 3_000;
/** The two telemetry identities the contract names (each may send a last batch). */
const IDENTITIES = Object.keys(SERVICE).length;

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
      const seen = await outage.check(
        t(),
        () => toxic.apply(l),
        () => l.heal(),
      );
      await ctx.annotate(describeOutage(seen));
    });
  }

  it(`R10.25 export to a hung collector, "Queues, batches, retry duration, and memory are bounded independently": every export connection closed within the export timeout + ${HUNG_SLACK_MS} ms, no new attempts once it passed, outcomes unchanged`, async (ctx) => {
    const l = need(ctx, t());
    const target = t();
    await outage.baseline(target);
    const hung = await startHungListener();
    try {
      // A new upstream restarts the proxy: new connections reach the listener, old ones are cut.
      await l.proxy.update({ listen: l.listen, upstream: hung.address, enabled: true });
      for (let i = 0; i < 2; i++) await outage.expectUnchanged(target, 'with a hung collector');
      await boundedFlush(target, EXPORT_TIMEOUT_MS);
      const lastTrigger = performance.now();
      // Nothing more is asked of the target from here: no run, no flush, no health reading.
      const quietFrom = lastTrigger + EXPORT_TIMEOUT_MS * 2 + HUNG_SLACK_MS;
      await new Promise((r) => setTimeout(r, quietFrom + HUNG_QUIET_MS - performance.now()));
      const now = performance.now();
      const conns = hung.connections.slice();
      expect(conns.length, 'the exporters tried the hung collector at all').toBeGreaterThan(0);
      const bound = EXPORT_TIMEOUT_MS + HUNG_SLACK_MS;
      const overlong = conns
        .map((c) => ({ openMs: Math.round((c.closedAt ?? now) - c.openedAt), open: c.closedAt === undefined }))
        .filter((c) => c.openMs > bound);
      expect(
        overlong,
        `every export connection closed by the exporter within ${bound} ms (export timeout ${EXPORT_TIMEOUT_MS} ms + ${HUNG_SLACK_MS} ms); ${conns.length} connections`,
      ).toEqual([]);
      const late = conns.filter((c) => c.openedAt >= quietFrom).length;
      expect(
        late,
        `new export connections ${Math.round(quietFrom - lastTrigger)}–${Math.round(quietFrom - lastTrigger + HUNG_QUIET_MS)} ms after the last flush (retry duration bounded; at most one last batch per telemetry identity)`,
      ).toBeLessThanOrEqual(IDENTITIES);
    } finally {
      await l.heal();
      await hung.close();
    }
    // The link heals: runs export again (a later clause must not inherit the outage).
    await outage.expectUnchanged(target, 'after the hung collector');
  }, 60_000);
});
