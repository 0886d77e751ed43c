/**
 * The Toxiproxy driver against a real Toxiproxy and a real HTTP upstream on loopback. With
 * SMTC_REQUIRE_ALL=1 (CI) a missing Toxiproxy fails; otherwise these report "not run".
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetworkLink, type NetworkLink } from '../../fixtures/faults/network-link.js';
import { takeDown } from '../../fixtures/faults/toxics/down.js';
import { addLatency } from '../../fixtures/faults/toxics/latency.js';
import { resetPeer } from '../../fixtures/faults/toxics/reset-peer.js';
import { blackHole } from '../../fixtures/faults/toxics/timeout.js';
import { acquireToxiproxy, type ToxiproxyHandle } from '../../fixtures/faults/toxiproxy-server.js';
import { notRun } from '../../fixtures/scenario/need.js';

let tp: ToxiproxyHandle;
let upstream: http.Server;
let link: NetworkLink | undefined;

beforeAll(async () => {
  tp = await acquireToxiproxy();
  upstream = http.createServer((_req, res) => res.end('pong'));
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  if (tp.available) {
    link = await createNetworkLink(tp.client, 'smtc_selftest', `127.0.0.1:${(upstream.address() as AddressInfo).port}`);
  }
}, 30_000);

afterAll(async () => {
  await link?.remove().catch(() => undefined);
  if (tp?.available) await tp.stop();
  await new Promise((r) => upstream.close(r));
});

async function get(timeoutMs = 2_000): Promise<{ ok: boolean; body?: string; error?: string; ms: number }> {
  const t0 = Date.now();
  try {
    const res = await fetch(`http://${link!.listen}/`, { signal: AbortSignal.timeout(timeoutMs) });
    return { ok: true, body: await res.text(), ms: Date.now() - t0 };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    return { ok: false, error: err.cause?.code ?? err.name, ms: Date.now() - t0 };
  }
}

describe('Toxiproxy driver', () => {
  it('passes traffic, then injects latency, down, black hole and reset, and heals', async (ctx) => {
    if (!tp.available) notRun(ctx, tp.reason);
    expect(await get()).toMatchObject({ ok: true, body: 'pong' });

    await addLatency(link!, 300);
    const slow = await get();
    expect(slow.ok).toBe(true);
    expect(slow.ms).toBeGreaterThanOrEqual(300);
    await link!.heal();

    await takeDown(link!);
    expect(await get()).toMatchObject({ ok: false, error: 'ECONNREFUSED' });
    await link!.heal();
    expect(await get()).toMatchObject({ ok: true, body: 'pong' });

    await blackHole(link!);
    const hole = await get(500);
    expect(hole).toMatchObject({ ok: false });
    expect(hole.error).toMatch(/Timeout|Abort/);
    await link!.heal();

    await resetPeer(link!);
    expect((await get()).ok).toBe(false);
    await link!.heal();
    expect(await get()).toMatchObject({ ok: true, body: 'pong' });
  }, 30_000);
});
