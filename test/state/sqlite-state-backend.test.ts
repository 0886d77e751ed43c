import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStateBackend } from '../../reference-impl/state/sqlite-state-backend.js';
import type { BindingRow, CommitPlan, PendingRow } from '../../reference-impl/state/state-backend.js';
import { type StateTestContext, stateTestContext } from './state-test-context.js';

let t: StateTestContext;
afterEach(() => t?.dispose());

const binding = (id: string, owner = 'alice'): BindingRow => ({
  bindingId: id,
  owner,
  environment: 'env',
  harness: 'scripted',
  codec: 'scripted/v1',
  epoch: 1,
  leaseGeneration: 0,
  entries: 0,
});

const pending = (key: string, over: Partial<PendingRow> = {}): PendingRow => ({
  stateId: `st_${key}`,
  bindingId: 'b1',
  epoch: 1,
  codec: 'scripted/v1',
  idempotencyKey: key,
  contentHash: 'a'.repeat(64),
  size: 3,
  bytes: Uint8Array.from([1, 2, 3]),
  createdAt: new Date(0).toISOString(),
  ...over,
});

describe('SQLite state backend', () => {
  it('keeps its tables under the state_ prefix in the shared database', () => {
    t = stateTestContext();
    const tables = t.db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((r) => r.name);
    expect(tables).toEqual(['state_bindings', 'state_heads', 'state_pending', 'state_runs', 'state_sessions']);
  });

  it('bounds bindings per owner', async () => {
    t = stateTestContext();
    const be = new SqliteStateBackend(t.db);
    expect(await be.createBinding(binding('b1'), 2)).toBe(true);
    expect(await be.createBinding(binding('b2'), 2)).toBe(true);
    expect(await be.createBinding(binding('b3'), 2)).toBe(false);
    expect(await be.createBinding(binding('b4', 'bob'), 2)).toBe(true);
    expect(be.ownerOf('b1')).toBe('alice');
    expect(be.ownerOf('nope')).toBeNull();
  });

  it('leases bump the generation and forget sessions beyond the newest few', async () => {
    t = stateTestContext();
    const be = new SqliteStateBackend(t.db);
    await be.createBinding(binding('b1'), 10);
    for (let g = 1; g <= 5; g++) {
      const b = await be.grantLease('b1', `hash-${g}`, 2);
      expect(b?.leaseGeneration).toBe(g);
    }
    expect(await be.findSession('hash-5')).toEqual({
      credentialHash: 'hash-5',
      bindingId: 'b1',
      epoch: 1,
      leaseGeneration: 5,
    });
    expect(await be.findSession('hash-4')).not.toBeNull();
    expect(await be.findSession('hash-3')).toBeNull();
    expect(await be.grantLease('missing', 'h', 2)).toBeNull();
  });

  it('putPending is idempotent per key, bounded per epoch, and refuses a moved epoch or lease', async () => {
    t = stateTestContext();
    const be = new SqliteStateBackend(t.db);
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
  });

  it('transact persists the whole plan or nothing', async () => {
    t = stateTestContext();
    const be = new SqliteStateBackend(t.db);
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
  });
});
