/**
 * The MongoDB thread-state backend behind a real network fault: the control plane → store link
 * runs through a Toxiproxy proxy, which cuts it at exact byte offsets of a commit's or a pending
 * write's request stream, or takes the store away. Whatever got through before the cut, a retry
 * of the same call after the link heals must converge on exactly one effect — one head revision,
 * one stored entry — and an absent store must answer `unavailable` within a bound, changing
 * nothing. Without a MongoDB-wire server or a Toxiproxy these report not run (a failure with
 * SMTC_REQUIRE_ALL=1).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { isContractError } from '../../contract/errors.js';
import type { PendingStateRef } from '../../contract/state.js';
import { createNetworkLink, type NetworkLink } from '../../fixtures/faults/network-link.js';
import { takeDown } from '../../fixtures/faults/toxics/down.js';
import { cutAfterBytes } from '../../fixtures/faults/toxics/limit-data.js';
import { acquireToxiproxy, type ToxiproxyHandle } from '../../fixtures/faults/toxiproxy-server.js';
import { notRun } from '../../fixtures/scenario/need.js';
import { acquireMongoServer, type MongoServerHandle } from '../../fixtures/services/ferretdb.js';
import { type MongoStateTestContext, mongoStateTestContext } from './mongodb-test-context.js';

let server: MongoServerHandle;
let tp: ToxiproxyHandle;
let link: NetworkLink | undefined;
let t: MongoStateTestContext | undefined;

beforeAll(async () => {
  [server, tp] = await Promise.all([acquireMongoServer(), acquireToxiproxy()]);
  if (server.available && tp.available) {
    link = await createNetworkLink(tp.client, `smtc_store_link_${process.pid}`, new URL(server.url).host);
  }
}, 180_000);
afterAll(async () => {
  await link?.remove().catch(() => {});
  if (tp?.available) await tp.stop();
  if (server?.available) await server.stop();
}, 60_000);
afterEach(async () => {
  await link?.heal();
  await t?.dispose();
  t = undefined;
}, 30_000);

/** The server's URL with the proxy's address: every store connection crosses the link. */
function throughLink(url: string, via: string): string {
  const u = new URL(url);
  u.host = via;
  u.searchParams.set('directConnection', 'true');
  return u.toString();
}

async function setup(ctx: TestContext) {
  if (!server.available) notRun(ctx, server.reason);
  if (!tp.available) notRun(ctx, tp.reason);
  await t?.dispose();
  t = await mongoStateTestContext(throughLink(server.url, link!.listen));
  const via = await t.client();
  const alice = t.ctx.auth.principals.alice;
  const info = await via.service.bindings.open(alice, { environment: 'env', harness: 'scripted', codec: CODEC });
  const session = await via.service.bindings.acquireLease(alice, info.bindingId);
  return { scope: session.scope, store: via.service.threadState(session), backend: via.backend };
}

const CODEC = 'scripted/v1';
const bytes = (s: string) => ({ codec: CODEC, bytes: new TextEncoder().encode(s.repeat(64)) });
/** Byte offsets into what a call sends where the link is cut: its requests stop part way. */
const UPSTREAM_CUTS = [0, 100, 300, 600, 900, 1_200];
/** Past everything one call exchanges: the call gets through whole. */
const WHOLE = 64_000;
/** Bound on rediscovering the store after the link heals. */
const HEAL_MS = 15_000;

/** The call once more, the link healed, until it is answered (the driver may first reconnect). */
async function afterHeal<T>(call: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + HEAL_MS;
  for (;;) {
    try {
      return await call();
    } catch (e) {
      if (!isContractError(e, 'unavailable') || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** A call on the cut link: answered, or refused as `unavailable` — never anything else. */
async function onCutLink(call: () => Promise<unknown>): Promise<'answered' | 'unavailable'> {
  try {
    await call();
    return 'answered';
  } catch (e) {
    if (isContractError(e, 'unavailable')) return 'unavailable';
    throw e;
  }
}

type Observed = 'answered' | 'landed, answer lost' | 'unavailable';

/**
 * Every cut offset is a test case, and the search finds the one that matters most: the smallest
 * downstream offset at which the call is answered whole — one byte short of it, the call's last
 * answer is lost after its write landed (the ambiguous case a retry must absorb). Offsets
 * depend on the driver and server, so they are found, not hard-coded.
 */
async function everyCut(probe: (stream: 'upstream' | 'downstream', at: number) => Promise<Observed>) {
  const seen: string[] = [];
  const record = async (stream: 'upstream' | 'downstream', at: number) => {
    const r = await probe(stream, at);
    seen.push(`${stream} ${at}: ${r}`);
    return r;
  };
  for (const at of UPSTREAM_CUTS) await record('upstream', at);
  expect(await record('downstream', WHOLE)).toBe('answered');
  expect(await record('downstream', 0)).not.toBe('answered');
  let [lo, hi] = [0, WHOLE];
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await record('downstream', mid)) === 'answered') hi = mid;
    else lo = mid;
  }
  const why = seen.join('\n');
  // One byte short of a whole answer: the call landed and its answer was lost.
  expect(seen, why).toContain(`downstream ${lo}: landed, answer lost`);
  expect(
    seen.some((x) => x.endsWith(': unavailable')),
    why,
  ).toBe(true);
}

describe('MongoDB state backend behind a cut store link (Toxiproxy)', () => {
  it('a commit cut at any byte offset, retried after the link heals, lands exactly once', async (ctx) => {
    await everyCut(async (stream, at) => {
      const cut = `${stream}-${at}`;
      const th = await setup(ctx);
      const ref = await th.store.write_native_state(th.scope, CODEC, bytes(cut), `k-${cut}`);
      await cutAfterBytes(link!, at, stream);
      const first = await onCutLink(() => th.store.commit_head(th.scope, ref, 0, `run-${cut}`));
      await link!.heal();
      const landed = (await afterHeal(() => th.store.load_head(th.scope)))?.revision === 1;
      const head = await afterHeal(() => th.store.commit_head(th.scope, ref, 0, `run-${cut}`));
      expect({ cut, revision: head.revision, runId: head.runId }).toEqual({ cut, revision: 1, runId: `run-${cut}` });
      // Retried again: the same head, the revision bumped once.
      expect((await th.store.commit_head(th.scope, ref, 0, `run-${cut}`)).revision).toBe(1);
      expect((await th.store.load_head(th.scope))?.state.stateId).toBe(ref.stateId);
      return first === 'answered' ? 'answered' : landed ? 'landed, answer lost' : 'unavailable';
    });
  }, 240_000);

  it('a pending write cut at any byte offset, retried after the link heals, is stored once under one ref', async (ctx) => {
    await everyCut(async (stream, at) => {
      const cut = `${stream}-${at}`;
      const th = await setup(ctx);
      const payload = bytes(cut);
      await cutAfterBytes(link!, at, stream);
      const first = await onCutLink(() => th.store.write_native_state(th.scope, CODEC, payload, 'the-key'));
      await link!.heal();
      const landed =
        (await afterHeal(() => th.backend.findPendingByKey(th.scope.bindingId, th.scope.epoch, 'the-key'))) !== null;
      const ref: PendingStateRef = await afterHeal(() =>
        th.store.write_native_state(th.scope, CODEC, payload, 'the-key'),
      );
      expect(await th.store.write_native_state(th.scope, CODEC, payload, 'the-key')).toEqual(ref);
      // The key stays bound to that content: a different payload under it is refused.
      const reuse = await th.store.write_native_state(th.scope, CODEC, bytes('other'), 'the-key').catch((e) => e);
      expect(isContractError(reuse, 'idempotency_key_reuse'), cut).toBe(true);
      const head = await th.store.commit_head(th.scope, ref, 0, `run-${cut}`);
      expect(head.state.stateId).toBe(ref.stateId);
      return first === 'answered' ? 'answered' : landed ? 'landed, answer lost' : 'unavailable';
    });
  }, 240_000);

  it('with the store link down, calls answer unavailable within a bound and change nothing', async (ctx) => {
    const th = await setup(ctx);
    const ref = await th.store.write_native_state(th.scope, CODEC, bytes('before'), 'before');
    await th.store.commit_head(th.scope, ref, 0, 'run-before');
    await takeDown(link!);
    const started = performance.now();
    expect(await onCutLink(() => th.store.load_head(th.scope))).toBe('unavailable');
    expect(await onCutLink(() => th.store.write_native_state(th.scope, CODEC, bytes('during'), 'during'))).toBe(
      'unavailable',
    );
    // The driver's server-selection bound (5 s in the test client), twice, plus slack.
    expect(performance.now() - started).toBeLessThan(15_000);
    await link!.heal();
    const head = await afterHeal(() => th.store.load_head(th.scope));
    expect({ revision: head?.revision, runId: head?.runId }).toEqual({ revision: 1, runId: 'run-before' });
  }, 60_000);
});
