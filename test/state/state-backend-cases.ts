/**
 * The StateBackend contract as test cases, written once so every backend (SQLite, MongoDB) is
 * held to the same rules; each backend's own file adds what only that backend can get wrong.
 */
import { describe, expect, it, type TestContext } from 'vitest';
import type { BindingRow, CommitPlan, PendingRow, StateBackend } from '../../reference-impl/state/state-backend.js';

export interface BackendUnderTest {
  readonly backend: StateBackend;
  /**
   * A second backend on the same store with nothing in its process: what one instance wrote
   * must be found from the store, not from that instance's memory.
   */
  other(): Promise<StateBackend>;
  /**
   * What a new epoch does to the old epoch's head. The protocol only reads the current epoch,
   * so either is correct, but each backend must keep doing what it declares: SQLite keeps one
   * head row per (binding, epoch); MongoDB holds only the current head in the binding register.
   */
  readonly earlierEpochHead: 'kept' | 'dropped';
}

const CODEC = 'scripted/v1';

export const binding = (id: string, owner = 'alice'): BindingRow => ({
  bindingId: id,
  owner,
  environment: 'env',
  harness: 'scripted',
  codec: CODEC,
  epoch: 1,
  leaseGeneration: 0,
  entries: 0,
});

const pending = (key: string, over: Partial<PendingRow> = {}): PendingRow => ({
  stateId: `st_${key}`,
  bindingId: 'b1',
  epoch: 1,
  codec: CODEC,
  idempotencyKey: key,
  contentHash: 'a'.repeat(64),
  size: 3,
  bytes: Uint8Array.from([1, 2, 3]),
  createdAt: new Date(0).toISOString(),
  ...over,
});

/** `makeBackend` may end the test as not run (a backend whose server is missing). */
export function describeStateBackendCases(
  name: string,
  makeBackend: (ctx: TestContext) => Promise<BackendUnderTest>,
): void {
  describe(name, () => {
    it('leases bump the generation and forget sessions beyond the newest few', async (ctx) => {
      const { backend: be, other } = await makeBackend(ctx);
      await be.createBinding(binding('b1'), 10);
      for (let g = 1; g <= 5; g++) expect((await be.grantLease('b1', `hash-${g}`, 2))?.leaseGeneration).toBe(g);
      expect(await be.findSession('hash-5')).toEqual({
        credentialHash: 'hash-5',
        bindingId: 'b1',
        epoch: 1,
        leaseGeneration: 5,
      });
      expect(await be.findSession('hash-4')).not.toBeNull();
      expect(await be.findSession('hash-3')).toBeNull();
      // A second backend, with nothing cached, sees the same.
      const fresh = await other();
      expect(await fresh.findSession('hash-3')).toBeNull();
      expect((await fresh.findSession('hash-4'))?.leaseGeneration).toBe(4);
      expect(await be.grantLease('missing', 'h', 2)).toBeNull();
    });

    it('putPending is idempotent per key, bounded per epoch, and refuses a moved epoch or lease', async (ctx) => {
      const { backend: be } = await makeBackend(ctx);
      await be.createBinding(binding('b1'), 10);
      await be.grantLease('b1', 'h1', 10);
      expect((await be.putPending(pending('k1'), 1, 2)).kind).toBe('inserted');
      expect(await be.putPending(pending('k1', { stateId: 'st_other' }), 1, 2)).toMatchObject({
        kind: 'existing',
        row: { stateId: 'st_k1' },
      });
      expect((await be.putPending(pending('k2'), 1, 2)).kind).toBe('inserted');
      expect((await be.putPending(pending('k3'), 1, 2)).kind).toBe('entry_limit');
      expect((await be.putPending(pending('k3'), 0, 2)).kind).toBe('stale_scope');
      await be.startEpoch('b1');
      expect((await be.putPending(pending('k3'), 1, 2)).kind).toBe('stale_scope'); // row still says epoch 1
      expect((await be.putPending(pending('k3', { epoch: 2 }), 1, 2)).kind).toBe('inserted'); // fresh budget
      expect((await be.findPendingByKey('b1', 1, 'k1'))?.bytes).toEqual(Uint8Array.from([1, 2, 3]));
      expect((await be.getBinding('b1'))?.entries).toBe(1);
    });

    it('transact persists the whole plan or nothing, and offers only current-epoch state', async (ctx) => {
      const { backend: be, earlierEpochHead } = await makeBackend(ctx);
      await be.createBinding(binding('b1'), 10);
      await be.grantLease('b1', 'h1', 10);
      await be.putPending(pending('k1'), 1, 10);
      const plan: CommitPlan<string> = {
        result: 'ok',
        head: {
          bindingId: 'b1',
          epoch: 1,
          revision: 1,
          stateId: 'st_k1',
          runId: 'r1',
          runState: 'interrupted',
          interruptId: 'i1',
          interruptValue: 'v',
          committedAt: 'now',
        },
        run: {
          bindingId: 'b1',
          runId: 'r1',
          epoch: 1,
          state: 'interrupted',
          reason: null,
          retainedRevision: null,
          updatedAt: 'now',
        },
      };
      expect(
        await be.transact({ bindingId: 'b1', stateId: 'st_k1', runId: 'r1' }, (snap) => {
          expect(snap.pending?.stateId).toBe('st_k1');
          expect(snap.head).toBeNull();
          return plan;
        }),
      ).toBe('ok');
      expect((await be.loadHead('b1', 1))?.head).toEqual(plan.head);
      expect((await be.getRun('b1', 'r1'))?.state).toBe('interrupted');
      // A decision that throws after the backend read leaves everything as it was.
      await expect(
        be.transact({ bindingId: 'b1', stateId: 'st_k1', runId: 'r2' }, () => {
          throw new Error('rejected');
        }),
      ).rejects.toThrow('rejected');
      expect((await be.loadHead('b1', 1))?.head.revision).toBe(1);
      expect(await be.getRun('b1', 'r2')).toBeNull();
      // The snapshot only offers pending state of the binding's current epoch.
      await be.startEpoch('b1');
      await be.transact({ bindingId: 'b1', stateId: 'st_k1', runId: 'r3' }, (snap) => {
        expect(snap.pending).toBeNull();
        expect(snap.head).toBeNull();
        return { result: null };
      });
      const old = await be.loadHead('b1', 1);
      if (earlierEpochHead === 'kept') expect(old?.head).toEqual(plan.head);
      else expect(old).toBeNull();
    });
  });
}
