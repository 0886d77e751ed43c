/**
 * ContractCheckpointSaver beyond LangGraph's validation suite (which has no failure, retry or
 * concurrency cases): what the contract adds — the committed head is the thread, bad native
 * payloads and foreign scopes get typed contract errors, a superseded lease cannot write, and
 * nothing is half-written — over the reference state service on real SQLite.
 */

import type { Checkpoint, CheckpointMetadata } from '@langchain/langgraph-checkpoint';
import { emptyCheckpoint, uuid6 } from '@langchain/langgraph-checkpoint';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerSession } from '../../contract/bindings.js';
import type { ErrorCode } from '../../contract/errors.js';
import type { StateScope, ThreadStateStore } from '../../contract/state.js';
import { expectRejection } from '../../fixtures/assertions/contract-error.js';
import { returnsNewestCheckpoint } from '../../fixtures/mutants/langgraph/returns-newest-checkpoint.js';
import { LANGGRAPH_CODEC } from '../../reference-impl/runs/worker/langgraph/checkpoint-log.js';
import { ContractCheckpointSaver } from '../../reference-impl/runs/worker/langgraph/contract-checkpoint-saver.js';
import {
  newRunId,
  ownerThreadSessions,
  type ThreadSessions,
  workerThreadSessions,
} from '../../reference-impl/runs/worker/langgraph/thread-sessions.js';
import { SAVER_SPEC, type SaverContext, sqliteSaver } from './saver-test-context.js';

let c: SaverContext;
afterEach(async () => {
  await c?.dispose();
});

const META: CheckpointMetadata = { source: 'loop', step: 0, parents: {} };
// Fixed once: uuid6 is time-based, and a retried put must carry the very same checkpoint.
const CHECKPOINTS: Checkpoint[] = [0, 1, 2].map((n) => ({ ...emptyCheckpoint(), id: uuid6(n), channel_values: { n } }));
const cp = (n: number): Checkpoint => CHECKPOINTS[n] as Checkpoint;
const id = (n: number): string => cp(n).id;
const cfg = (thread: string, parent?: string) => ({
  configurable: { thread_id: thread, checkpoint_ns: '', ...(parent ? { checkpoint_id: parent } : {}) },
});

/** A worker on one thread: its binding, its lease, a saver that can reach only that thread. */
async function worker(thread: string, codec = LANGGRAPH_CODEC, bindingId?: string) {
  const alice = c.ctx.auth.principals.alice;
  const bid = bindingId ?? (await c.service.bindings.open(alice, { ...SAVER_SPEC, codec })).bindingId;
  const session: WorkerSession = await c.service.bindings.acquireLease(alice, bid);
  const store = c.service.threadState(session);
  const sessions = workerThreadSessions(thread, session, store, newRunId());
  return { bindingId: bid, session, store, sessions, saver: new ContractCheckpointSaver(sessions) };
}

async function headRevision(w: { store: ThreadStateStore; session: WorkerSession }): Promise<number> {
  return (await w.store.load_head(w.session.scope))?.revision ?? 0;
}

/** Commit bytes as the thread's head directly through the store (what a buggy or hostile writer could do). */
async function commitRaw(
  h: { store: ThreadStateStore; scope: StateScope },
  codec: string,
  bytes: Uint8Array,
  key: string,
) {
  const pending = await h.store.write_native_state(h.scope, codec, { codec, bytes }, key);
  await h.store.commit_head(h.scope, pending, 0, `raw-${key}`);
}

/** Reads and writes of the thread both refused with `code`; the head stays where it was. */
async function refusedWithHeadKept(w: Awaited<ReturnType<typeof worker>>, thread: string, code: ErrorCode) {
  const before = await w.store.load_head(w.session.scope);
  await expectRejection(w.saver.getTuple(cfg(thread)), [code]);
  await expectRejection(w.saver.put(cfg(thread), cp(2), META, {}), [code]);
  await expectRejection(
    w.saver.putWrites({ configurable: { ...cfg(thread).configurable, checkpoint_id: id(1) } }, [['c', 1]], 'task'),
    [code],
  );
  expect(await w.store.load_head(w.session.scope)).toEqual(before);
}

describe('the committed head is the thread', () => {
  /** Put cp1, then cp2 whose commit fails; what does the thread show, here and on a new worker? */
  async function afterFailedCommit(wrap: (s: ThreadSessions) => ThreadSessions) {
    const w = await worker('t');
    const saver = new ContractCheckpointSaver(wrap(w.sessions));
    const first = await saver.put(cfg('t'), cp(1), META, {});
    c.service.failpoints.set('state.commit.before', 'return(unavailable)');
    await expectRejection(saver.put(first, cp(2), { ...META, step: 1 }, {}), ['unavailable']);
    c.service.failpoints.clear('state.commit.before');
    const here = (await saver.getTuple(cfg('t')))?.checkpoint.id;
    const listed = [];
    for await (const t of saver.list(cfg('t'))) listed.push(t.checkpoint.id);
    const next = await worker('t', LANGGRAPH_CODEC, w.bindingId);
    const elsewhere = (await next.saver.getTuple(cfg('t')))?.checkpoint.id;
    return { here, listed, elsewhere };
  }

  it('a checkpoint whose commit failed is never read, here or on a new worker', async () => {
    c = sqliteSaver();
    const seen = await afterFailedCommit((s) => s);
    expect(seen).toEqual({ here: id(1), listed: [id(1)], elsewhere: id(1) });
  });

  it('mutant: an adapter returning the newest written checkpoint instead of the committed head is caught', async () => {
    c = sqliteSaver();
    const seen = await afterFailedCommit(returnsNewestCheckpoint);
    expect(seen.here).not.toBe(id(1));
  });

  it('a commit whose answer was lost is retried once and moves the revision once', async () => {
    c = sqliteSaver();
    const w = await worker('t');
    c.service.failpoints.set('state.commit.after', '1*return(unavailable)');
    await w.saver.put(cfg('t'), cp(1), META, {});
    expect(await headRevision(w)).toBe(1);
    // The same put again (LangGraph retrying) changes nothing and commits nothing.
    await w.saver.put(cfg('t'), cp(1), META, {});
    expect(await headRevision(w)).toBe(1);
  });

  it('concurrent writers on one thread (parallel tasks, two savers on one lease) lose nothing', async () => {
    c = sqliteSaver();
    const w = await worker('t');
    const other = new ContractCheckpointSaver(w.sessions);
    const parent = await w.saver.put(cfg('t'), cp(1), META, {});
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? other : w.saver).putWrites(parent, [[`ch${i}`, i]], `task-${i}`)),
    );
    const tuple = await w.saver.getTuple(cfg('t'));
    expect(tuple?.pendingWrites?.map((x) => x[0]).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `task-${i}`).sort(),
    );
  });
  it('a saver whose last commit is stale rebuilds on the durable head (nothing of the other writer lost)', async () => {
    c = sqliteSaver();
    const w = await worker('t');
    const a = w.saver;
    const b = new ContractCheckpointSaver(w.sessions);
    const first = await a.put(cfg('t'), cp(1), META, {});
    await b.put(first, cp(2), { ...META, step: 1 }, {});
    await a.putWrites(first, [['from-a', 1]], 'task-a'); // a's base (revision 1) is stale
    // b re-puts cp(1) with other metadata; a repeating its own put must not be skipped as a
    // no-op on its stale base: like MongoDBSaver's upsert, the last put wins.
    await b.put(cfg('t'), cp(1), { ...META, step: 7 }, {});
    await a.put(cfg('t'), cp(1), META, {});
    const listed = [];
    for await (const t of a.list(cfg('t'))) listed.push([t.checkpoint.id, t.metadata?.step, t.pendingWrites?.length]);
    expect(listed).toEqual([
      [id(2), 1, 0],
      [id(1), 0, 1],
    ]);
  });
});

describe('bad input gets a typed contract error and nothing is half-written', () => {
  const CORRUPTIONS: Record<string, Uint8Array> = {
    'not JSON': new TextEncoder().encode('{"v":1,"thread":"t",'),
    'not UTF-8': new Uint8Array([0xff, 0xfe, 0x7b, 0x7d]),
    'wrong version': new TextEncoder().encode('{"v":2,"thread":"t","epoch":1,"checkpoints":[],"writes":[]}'),
    'entry of the wrong shape': new TextEncoder().encode(
      '{"v":1,"thread":"t","epoch":1,"checkpoints":[["","id",null,"json","!!","e30="]],"writes":[]}',
    ),
    'write with a non-integer index': new TextEncoder().encode(
      '{"v":1,"thread":"t","epoch":1,"checkpoints":[],"writes":[["","id","task","0","ch","json","e30=",""]]}',
    ),
  };

  for (const [name, bytes] of Object.entries(CORRUPTIONS)) {
    it(`a corrupted native payload (${name}) is refused on read and write; the head stays`, async () => {
      c = sqliteSaver();
      const w = await worker('t');
      await commitRaw({ store: w.store, scope: w.session.scope }, LANGGRAPH_CODEC, bytes, 'corrupt');
      await refusedWithHeadKept(w, 't', 'invalid_argument');
    });
  }

  it('a binding of a foreign codec is refused (codec_mismatch) and keeps its state', async () => {
    c = sqliteSaver();
    const w = await worker('t', 'scripted/v1');
    const bytes = new TextEncoder().encode('{"v":1,"turns":0,"transcript":[],"pending":[]}');
    await commitRaw({ store: w.store, scope: w.session.scope }, 'scripted/v1', bytes, 'scripted');
    await refusedWithHeadKept(w, 't', 'codec_mismatch');
    expect((await w.store.load_head(w.session.scope))?.payload.bytes).toEqual(bytes);
  });

  it("another thread's checkpoint log in this binding is a scope violation", async () => {
    c = sqliteSaver();
    const a = await worker('a');
    await a.saver.put(cfg('a'), cp(1), META, {});
    const bytes = (await a.store.load_head(a.session.scope))?.payload.bytes as Uint8Array;
    const b = await worker('b');
    await commitRaw({ store: b.store, scope: b.session.scope }, LANGGRAPH_CODEC, bytes, 'copied');
    await refusedWithHeadKept(b, 'b', 'scope_violation');
  });

  it('a worker asked for another thread gets a scope violation, and cannot delete its own', async () => {
    c = sqliteSaver();
    const w = await worker('t');
    const other = 'thread-of-another-tenant';
    await expectRejection(w.saver.getTuple(cfg(other)), ['scope_violation'], [other]);
    await expectRejection(w.saver.put(cfg(other), cp(1), META, {}), ['scope_violation'], [other]);
    const writesTo = { configurable: { ...cfg(other).configurable, checkpoint_id: id(1) } };
    await expectRejection(w.saver.putWrites(writesTo, [['c', 1]], 'task'), ['scope_violation'], [other]);
    await expectRejection(w.saver.deleteThread('t'), ['forbidden']);
    expect(await headRevision(w)).toBe(0);
  });

  it("an old epoch's checkpoint log replayed after deleteThread is an epoch mismatch", async () => {
    c = sqliteSaver();
    const alice = c.ctx.auth.principals.alice;
    const sessions = ownerThreadSessions(c.service, alice, SAVER_SPEC);
    const saver = new ContractCheckpointSaver(sessions);
    await saver.put(cfg('t'), cp(1), META, {});
    expect((await saver.getTuple(cfg('t')))?.checkpoint.id).toBe(id(1));
    const old = await sessions.open('t', false);
    const oldBytes = (await old?.store.load_head(old.scope))?.payload.bytes as Uint8Array;
    await saver.deleteThread('t');
    expect(await saver.getTuple(cfg('t'))).toBeUndefined();
    const now = await sessions.open('t', false);
    if (!now) throw new Error('thread lost its binding');
    expect(now.scope.epoch).toBe((old?.scope.epoch ?? 0) + 1);
    await commitRaw(now, LANGGRAPH_CODEC, oldBytes, 'replayed');
    await expectRejection(saver.getTuple(cfg('t')), ['epoch_mismatch']);
  });

  it('a resume with a superseded lease is fenced (stale_lease) and writes nothing', async () => {
    c = sqliteSaver();
    const first = await worker('t');
    const written = await first.saver.put(cfg('t'), cp(1), META, {});
    // The control plane gives the thread to a new worker (pod lost, run resumed elsewhere).
    const second = await worker('t', LANGGRAPH_CODEC, first.bindingId);
    await expectRejection(first.saver.put(written, cp(2), META, {}), ['stale_lease']);
    await expectRejection(first.saver.putWrites(written, [['c', 1]], 'task'), ['stale_lease']);
    await expectRejection(first.saver.getTuple(cfg('t')), ['stale_lease']);
    const seen = await second.saver.getTuple(cfg('t'));
    expect(seen?.checkpoint.id).toBe(id(1));
    expect(seen?.pendingWrites).toEqual([]);
    expect(await headRevision(second)).toBe(1);
  });
});
