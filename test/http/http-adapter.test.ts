/**
 * The adapter against the served reference: the manifest is verified (each token must be who
 * the manifest says), the Target behaves like the in-process one (same results, same error
 * codes, bytes intact), and a static target refuses an env it was not started with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractError, isContractError } from '../../contract/errors.js';
import type { HttpTargetManifest } from '../../contract/http/manifest.js';
import type { StateScope } from '../../contract/state.js';
import {
  connectHttpTarget,
  type HttpTarget,
  TargetVerificationError,
} from '../../fixtures/targets/http/http-target.js';
import { httpTargetModule, StaticTargetEnvError } from '../../fixtures/targets/http/http-target-module.js';
import { type Served, serveReference } from './served-reference.js';

let served: Served;
let target: HttpTarget;

beforeAll(async () => {
  served = await serveReference();
  target = await connectHttpTarget(served.server.manifest);
});
afterAll(async () => {
  await target?.close();
  await served?.stop();
});

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    if (!(e instanceof ContractError)) throw e;
    return e.code;
  }
}

describe('HTTP adapter over the served reference', () => {
  it('verifies the manifest: a token that is someone else, or nobody, is reported with its location', async () => {
    const m = served.server.manifest;
    const swapped: HttpTargetManifest = {
      ...m,
      principals: {
        ...m.principals!,
        alice: { ...m.principals!.alice, credential: m.principals!.bob.credential },
        carol: { ...m.principals!.carol, credential: 'smtc_not-a-real-token' },
      },
    };
    const err = await connectHttpTarget(swapped).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetVerificationError);
    expect((err as TargetVerificationError).problems).toEqual([
      'manifest.principals.alice: the token authenticates as a different identity',
      'manifest.principals.carol.credential: not accepted by the target',
    ]);
    const overclaims = await connectHttpTarget({
      ...m,
      capabilities: { ...m.capabilities, sharedLearning: true },
    }).catch((e: unknown) => e);
    expect((overclaims as TargetVerificationError).problems).toEqual([
      'manifest.capabilities.sharedLearning: declared, but the target reports it unavailable',
    ]);
  });

  it('thread state round trip: bytes intact, stale revisions and foreign scopes rejected with the in-process codes', async () => {
    const alice = target.principals.alice;
    const info = await target.bindings.open(alice, { environment: 'e', harness: 'h', codec: 'scripted/v1' });
    const s = await target.bindings.acquireLease(alice, info.bindingId);
    const store = target.threadState(s);
    const bytes = new Uint8Array(256).map((_, i) => i);
    const ref = await store.write_native_state(s.scope, 'scripted/v1', { codec: 'scripted/v1', bytes }, 'k');
    expect(await store.write_native_state(s.scope, 'scripted/v1', { codec: 'scripted/v1', bytes }, 'k')).toEqual(ref);
    const head = await store.commit_head(s.scope, ref, 0, 'run-1');
    expect(head.revision).toBe(1);
    const loaded = await store.load_head(s.scope);
    expect(loaded?.payload.bytes).toBeInstanceOf(Uint8Array);
    expect([...loaded!.payload.bytes]).toEqual([...bytes]);
    expect(await code(store.commit_head(s.scope, ref, 0, 'run-2'))).toBe('revision_conflict');
    const wrongEpoch: StateScope = { ...s.scope, epoch: s.scope.epoch + 1 };
    expect(await code(store.load_head(wrongEpoch))).toBe('epoch_mismatch');
    expect(await code(store.load_head({ ...s.scope, extra: 1 } as StateScope))).toBe('invalid_argument');
    expect(await code(store.commit_head(s.scope, ref, Number.NaN, 'run-3'))).toBe('invalid_argument');
    expect(
      await code(
        store.write_native_state(s.scope, 'scripted/v1', { codec: 'scripted/v1', bytes: 'AA==' } as never, 'x'),
      ),
    ).toBe('invalid_argument');
    const newer = await target.bindings.acquireLease(alice, info.bindingId);
    expect(await code(store.load_head(s.scope))).toBe('stale_lease');
    expect((await target.threadState(newer).load_head(newer.scope))?.revision).toBe(1);
    expect(await code(target.threadState({ ...s, credential: 'nope' }).load_head(s.scope))).toBe('unauthenticated');
    expect(await code(target.bindings.get(target.principals.carol, info.bindingId))).toBe('not_found');
  });

  it('test controls through the adapter: clock and failpoints', async () => {
    expect(target.capabilities.settableClock && target.capabilities.failpoints).toBe(true);
    const before = await target.clock!.now();
    await target.clock!.advance(5_000);
    expect(await target.clock!.now()).toBeGreaterThanOrEqual(before + 5_000);
    expect(await code(target.clock!.advance(-1))).toBe('invalid_argument');
    const bob = target.principals.bob;
    const info = await target.bindings.open(bob, { environment: 'e', harness: 'h', codec: 'scripted/v1' });
    const s = await target.bindings.acquireLease(bob, info.bindingId);
    await target.faults!.setFailpoint('state.load.before', '1*return("rate_limited")');
    expect(await code(target.threadState(s).load_head(s.scope))).toBe('rate_limited');
    expect(await target.threadState(s).load_head(s.scope)).toBeNull();
    expect(await code(target.faults!.setFailpoint('state.load.before', 'nonsense('))).toBe('invalid_argument');
    await target.faults!.clearFailpoints();
  });

  it('a static target refuses an env that names URLs it was not started with', async () => {
    const mod = httpTargetModule(served.server.manifest);
    const err = await mod
      .create({ tempDir: '/tmp', collectorUrl: 'http://127.0.0.1:1/v1/traces' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StaticTargetEnvError);
    const ok = (await mod.create({ tempDir: '/tmp' })) as HttpTarget;
    expect(
      isContractError(await ok.bindings.get(ok.principals.alice, 'bnd_x').catch((e: unknown) => e), 'not_found'),
    ).toBe(true);
    await mod.destroy?.(ok);
  });
});
