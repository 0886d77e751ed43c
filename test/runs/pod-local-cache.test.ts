/**
 * The worker's pod-local cache: every head the worker loads or commits is written to its slot
 * directory, and restore never reads it — even a poisoned entry is ignored; only the mutant's
 * cache part (the bug R01 must catch) would select it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DurableStateHead, StateScope, ThreadStateStore } from '../../contract/state.js';
import { CacheFirstPodLocalCache } from '../../fixtures/mutants/restores-from-pod-local-cache.js';
import { poisonCachedHead, readCachedHead } from '../../reference-impl/runs/remote/pod-cache-file.js';
import { PodLocalCache } from '../../reference-impl/worker-process/pod-local-cache.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-pod-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scope: StateScope = {
  bindingId: 'bnd_1',
  environment: 'e',
  harness: 'scripted',
  epoch: 1,
  codec: 'scripted/v1',
  leaseGeneration: 1,
};

function head(revision: number, text: string): DurableStateHead {
  const bytes = new TextEncoder().encode(text);
  return {
    bindingId: scope.bindingId,
    epoch: 1,
    revision,
    state: {
      stateId: `s${revision}`,
      bindingId: scope.bindingId,
      epoch: 1,
      codec: 'scripted/v1',
      idempotencyKey: `k${revision}`,
      contentHash: 'x',
      size: bytes.length,
    },
    payload: { codec: 'scripted/v1', bytes },
    runId: `run-${revision}`,
    runState: 'completed',
    interrupt: null,
    committedAt: new Date(0).toISOString(),
  };
}

function durableStore(h: DurableStateHead): ThreadStateStore {
  const never = () => Promise.reject(new Error('not used'));
  return {
    load_head: async () => h,
    write_native_state: never,
    commit_head: async () => h,
    mark_uncertain: never,
    run_status: never,
    reconcile: never,
  };
}

describe('pod-local cache', () => {
  it('remembers what the worker loaded, and restore still reads the durable store, never the cache', async () => {
    const slot = path.join(dir, 'slot-a');
    const store = new PodLocalCache(slot).wrap(durableStore(head(2, 'durable two')));
    expect((await store.load_head(scope))?.revision).toBe(2);
    expect(readCachedHead(slot, scope.bindingId)?.revision).toBe(2);
    poisonCachedHead(slot, scope.bindingId, 'POISON-MARKER');
    expect(new TextDecoder().decode(readCachedHead(slot, scope.bindingId)!.payload.bytes)).toContain('POISON-MARKER');
    const restored = await store.load_head(scope);
    expect(new TextDecoder().decode(restored!.payload.bytes)).toBe('durable two');
  });

  it("only the mutant's cache part would select it", async () => {
    const slot = path.join(dir, 'slot-b');
    poisonCachedHead(slot, scope.bindingId, 'POISON-MARKER');
    const store = new CacheFirstPodLocalCache(slot).wrap(durableStore(head(3, 'durable three')));
    expect(new TextDecoder().decode((await store.load_head(scope))!.payload.bytes)).toContain('POISON-MARKER');
  });
});
