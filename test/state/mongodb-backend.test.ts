/**
 * The MongoDB thread-state backend against a real MongoDB-wire server (FerretDB here, mongod
 * where SMTC_MONGODB_URL or Docker provides one): the backend contract shared with the SQLite
 * backend (state-backend-cases.ts), then what only a networked store can get wrong — racing
 * writers on separate connections, stale in-process views, long histories read cold, and a
 * server SIGKILLed under the store. Without a server these report not run (a failure with
 * SMTC_REQUIRE_ALL=1).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { isContractError } from '../../contract/errors.js';
import type { PendingStateRef } from '../../contract/state.js';
import { expectRejection } from '../../fixtures/assertions/contract-error.js';
import { notRun } from '../../fixtures/scenario/need.js';
import { acquireMongoServer, type MongoServerHandle } from '../../fixtures/services/ferretdb.js';
import { COLLECTIONS } from '../../reference-impl/state/mongodb-documents.js';
import { type MongoStateClient, type MongoStateTestContext, mongoStateTestContext } from './mongodb-test-context.js';
import { binding, describeStateBackendCases } from './state-backend-cases.js';

let server: MongoServerHandle;
let t: MongoStateTestContext | undefined;

beforeAll(async () => {
  server = await acquireMongoServer();
}, 180_000);
afterAll(async () => {
  if (server?.available) await server.stop();
}, 60_000);
afterEach(async () => {
  await t?.dispose();
  t = undefined;
}, 30_000);

async function setup(ctx: TestContext, options = {}): Promise<MongoStateTestContext> {
  if (!server.available) notRun(ctx, server.reason);
  t = await mongoStateTestContext(server.url, options);
  return t;
}

const CODEC = 'scripted/v1';
const bytes = (s: string) => ({ codec: CODEC, bytes: new TextEncoder().encode(s) });

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (isContractError(e)) return e.code;
    throw e;
  }
  throw new Error('expected a rejection');
}

async function thread(c: MongoStateTestContext, via: MongoStateClient) {
  const alice = c.ctx.auth.principals.alice;
  const info = await via.service.bindings.open(alice, { environment: 'env', harness: 'scripted', codec: CODEC });
  const session = await via.service.bindings.acquireLease(alice, info.bindingId);
  return { alice, info, session, scope: session.scope, store: via.service.threadState(session) };
}

describe('MongoDB state backend: the backend contract', () => {
  it('detects the server and records the guarantees it uses', async (ctx) => {
    const c = await setup(ctx);
    const { backend } = await c.client();
    const p = backend.profile;
    expect(p.summary.length).toBeGreaterThan(0);
    if (p.server === 'ferretdb') {
      expect(p).toMatchObject({ replicaSet: null, readConcern: null, headReadConcern: null });
    } else if (p.replicaSet) {
      expect(p).toMatchObject({ readConcern: 'majority', headReadConcern: 'linearizable' });
    }
    expect(p.writeConcern.journal).toBe(true);
  });

  it('bounds bindings per owner, also when two clients open at once', async (ctx) => {
    const c = await setup(ctx);
    const [a, b] = [await c.client(), await c.client()];
    const opened = await Promise.all(
      ['b1', 'b2', 'b3', 'b4', 'b5', 'b6'].map((id, i) => (i % 2 ? a : b).backend.createBinding(binding(id), 4)),
    );
    expect(opened.filter(Boolean)).toHaveLength(4);
    expect(await a.backend.createBinding(binding('b7', 'bob'), 4)).toBe(true);
    expect(a.backend.ownerOf('b7')).toBe('bob');
    expect(a.backend.ownerOf('nope')).toBeNull();
  });

  it('keys and interrupt values round-trip exactly; lone surrogates are refused before any backend', async (ctx) => {
    const c = await setup(ctx);
    const th = await thread(c, await c.client());
    // Not well-formed text has no UTF-8 (BSON) form: refused as bad input, never stored as U+FFFD.
    await expectRejection(th.store.write_native_state(th.scope, CODEC, bytes('a'), 'k\uD800'), ['invalid_argument']);
    const a = await th.store.write_native_state(th.scope, CODEC, bytes('a'), 'k\uFFFD');
    const b = await th.store.write_native_state(th.scope, CODEC, bytes('b'), 'k\u{1F600}');
    expect([a.idempotencyKey, b.idempotencyKey]).toEqual(['k\uFFFD', 'k\u{1F600}']);
    expect(a.stateId).not.toBe(b.stateId);
    await expectRejection(
      th.store.commit_head(th.scope, b, 0, 'run-1', { interrupt: { interruptId: 'i1', value: '\uDC00?' } }),
      ['invalid_argument'],
    );
    await th.store.commit_head(th.scope, b, 0, 'run-1', {
      interrupt: { interruptId: 'i1', value: '\u{1F600}\uFFFD?' },
    });
    const cold = (await c.client()).service.threadState(th.session);
    expect((await cold.load_head(th.scope))?.interrupt).toEqual({ interruptId: 'i1', value: '\u{1F600}\uFFFD?' });
  });
});

describeStateBackendCases('MongoDB state backend: the shared backend contract', async (ctx) => {
  const c = await setup(ctx);
  const { backend } = await c.client();
  return { backend, other: async () => (await c.client()).backend, earlierEpochHead: 'dropped' };
});

describe('MongoDB state backend: racing clients', () => {
  it('concurrent commits from two clients on one revision: exactly one wins, every round', async (ctx) => {
    const c = await setup(ctx);
    const [a, b] = [await c.client(), await c.client()];
    const th = await thread(c, a);
    const stores = [a.service.threadState(th.session), b.service.threadState(th.session)];
    for (let round = 0; round < 15; round++) {
      const refs = await Promise.all(
        stores.map((s, i) => s.write_native_state(th.scope, CODEC, bytes(`r${round}c${i}`), `r${round}c${i}`)),
      );
      const outcomes = await Promise.allSettled(
        stores.map((s, i) => s.commit_head(th.scope, refs[i]!, round, `run-${round}-${i}`)),
      );
      const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      expect(won).toHaveLength(1);
      expect(lost.map((e) => (isContractError(e) ? e.code : String(e)))).toEqual(['revision_conflict']);
      const head = await stores[round % 2]!.load_head(th.scope);
      expect({ revision: head?.revision, stateId: head?.state.stateId }).toEqual({
        revision: round + 1,
        stateId: won[0]!.state.stateId,
      });
    }
  });

  it('no lost updates: two clients racing retry loops land every commit exactly once', async (ctx) => {
    const c = await setup(ctx);
    const [a, b] = [await c.client(), await c.client()];
    const th = await thread(c, a);
    const PER_CLIENT = 10;
    const committer = async (via: MongoStateClient, name: string) => {
      const store = via.service.threadState(th.session);
      for (let i = 0; i < PER_CLIENT; i++) {
        const ref = await store.write_native_state(th.scope, CODEC, bytes(`${name}${i}`), `${name}${i}`);
        for (;;) {
          const rev = (await store.load_head(th.scope))?.revision ?? 0;
          try {
            await store.commit_head(th.scope, ref, rev, `${name}-run-${i}`);
            break;
          } catch (e) {
            if (!isContractError(e, 'revision_conflict')) throw e;
          }
        }
      }
    };
    await Promise.all([committer(a, 'a'), committer(b, 'b')]);
    // Read cold: a third client with nothing cached, through the archived run outbox too.
    const cold = (await c.client()).service.threadState(th.session);
    expect((await cold.load_head(th.scope))?.revision).toBe(2 * PER_CLIENT);
    for (const name of ['a', 'b']) {
      for (let i = 0; i < PER_CLIENT; i++) {
        expect((await cold.run_status(th.scope, `${name}-run-${i}`))?.state).toBe('completed');
      }
    }
    expect((await (await c.client()).backend.getBinding(th.info.bindingId))?.entries).toBe(2 * PER_CLIENT);
  });

  it('duplicate writes from two clients converge on one ref and count one entry', async (ctx) => {
    const c = await setup(ctx);
    const [a, b] = [await c.client(), await c.client()];
    const th = await thread(c, a);
    const stores = [a.service.threadState(th.session), b.service.threadState(th.session)];
    const ROUNDS = 12;
    for (let round = 0; round < ROUNDS; round++) {
      const refs = await Promise.all(
        [0, 1, 2, 3].map((i) =>
          stores[i % 2]!.write_native_state(th.scope, CODEC, bytes(`same${round}`), `dup${round}`),
        ),
      );
      expect(new Set(refs.map((r) => r.stateId)).size).toBe(1);
    }
    expect((await a.backend.getBinding(th.info.bindingId))?.entries).toBe(ROUNDS);
  });

  it('the same key with different bytes from two clients: one content wins, the other is refused', async (ctx) => {
    const c = await setup(ctx);
    const [a, b] = [await c.client(), await c.client()];
    const th = await thread(c, a);
    const stores = [a.service.threadState(th.session), b.service.threadState(th.session)];
    for (let round = 0; round < 10; round++) {
      const outcomes = await Promise.allSettled(
        stores.map((s, i) => s.write_native_state(th.scope, CODEC, bytes(`content-${i}`), `key${round}`)),
      );
      const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      expect(won).toHaveLength(1);
      expect(lost.map((e) => (isContractError(e) ? e.code : String(e)))).toEqual(['idempotency_key_reuse']);
      // The stored state is the winner's, read back through the client that lost.
      const w = outcomes.findIndex((o) => o.status === 'fulfilled');
      const again = await stores[1 - w]!.write_native_state(th.scope, CODEC, bytes(`content-${w}`), `key${round}`);
      expect(again.stateId).toBe(won[0]!.stateId);
    }
  });

  it('a client whose view is stale neither refuses a valid commit nor accepts a stale one', async (ctx) => {
    const c = await setup(ctx);
    const [a, b] = [await c.client(), await c.client()];
    const th = await thread(c, a);
    const sa = a.service.threadState(th.session);
    const sb = b.service.threadState(th.session);
    const commit = async (s: typeof sa, key: string, rev: number): Promise<PendingStateRef> => {
      const ref = await s.write_native_state(th.scope, CODEC, bytes(key), key);
      await s.commit_head(th.scope, ref, rev, `run-${key}`);
      return ref;
    };
    await commit(sa, 'one', 0);
    await commit(sb, 'two', 1); // a has not seen revision 2
    const late = await sa.write_native_state(th.scope, CODEC, bytes('late'), 'late');
    expect(await code(sa.commit_head(th.scope, late, 1, 'run-late'))).toBe('revision_conflict');
    expect((await sa.commit_head(th.scope, late, 2, 'run-late')).revision).toBe(3);
    expect((await sb.load_head(th.scope))?.state.stateId).toBe(late.stateId);
  });
});

describe('MongoDB state backend: history and durability', () => {
  it('a long history is compacted and a cold client still finds the exact head', async (ctx) => {
    const c = await setup(ctx);
    const a = await c.client();
    const th = await thread(c, a);
    let last: PendingStateRef | undefined;
    for (let i = 0; i < 70; i++) {
      last = await th.store.write_native_state(th.scope, CODEC, bytes(`h${i}`), `h${i}`);
      await th.store.commit_head(th.scope, last, i, `run-${i}`);
    }
    // Every write and commit is a register version: well past the first compaction.
    const versions = a.db.collection<{ _id: string; tomb?: boolean; value?: unknown }>(COLLECTIONS.versions);
    const first = await versions.findOne({ _id: `b:${th.info.bindingId}#1` });
    expect(first).toMatchObject({ tomb: true });
    expect(first?.value).toBeUndefined();
    const cold = (await c.client()).service.threadState(th.session);
    const head = await cold.load_head(th.scope);
    expect({
      revision: head?.revision,
      stateId: head?.state.stateId,
      bytes: head && new TextDecoder().decode(head.payload.bytes),
    }).toEqual({
      revision: 70,
      stateId: last!.stateId,
      bytes: 'h69',
    });
  });

  it('a commit survives SIGKILL and restart of the server; the outage is a bounded, retryable error', async (ctx) => {
    const c = await setup(ctx);
    if (!server.available || !server.process) {
      return notRun(ctx, 'the MongoDB-wire server was not started by the kit, so it cannot be killed');
    }
    const a = await c.client();
    const th = await thread(c, a);
    const ref = await th.store.write_native_state(th.scope, CODEC, bytes('durable'), 'k');
    const committed = await th.store.commit_head(th.scope, ref, 0, 'run-1', {
      interrupt: { interruptId: 'i1', value: 'continue?' },
    });

    await server.process.kill();
    const started = Date.now();
    const outage = await th.store.load_head(th.scope).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isContractError(outage, 'unavailable'), String(outage)).toBe(true);
    expect((outage as Error).message).not.toMatch(/127\.0\.0\.1|mongodb:/);
    expect(Date.now() - started).toBeLessThan(20_000);

    await server.process.start();
    // A client that never saw the commit restores it from the server's files alone.
    const cold = (await c.client()).service.threadState(th.session);
    expect(await cold.load_head(th.scope)).toEqual(committed);
    // The first client reconnects and carries on from the same head.
    const next = await th.store.write_native_state(th.scope, CODEC, bytes('after'), 'k2');
    expect((await th.store.commit_head(th.scope, next, 1, 'run-2')).revision).toBe(2);
  }, 90_000);
});
