import { afterEach, describe, expect, it } from 'vitest';
import { isContractError } from '../../contract/errors.js';
import { FailpointPanic } from '../../reference-impl/platform/failpoints.js';
import { type StateTestContext, stateTestContext } from './state-test-context.js';

let t: StateTestContext | undefined;
afterEach(() => t?.dispose());

const bytes = (s: string) => ({ codec: 'scripted/v1', bytes: new TextEncoder().encode(s) });

async function thread(c: StateTestContext) {
  const alice = c.ctx.auth.principals.alice;
  const info = await c.service.bindings.open(alice, { environment: 'env', harness: 'scripted', codec: 'scripted/v1' });
  const session = await c.service.bindings.acquireLease(alice, info.bindingId);
  return { alice, info, session, scope: session.scope, store: c.service.threadState(session) };
}

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (isContractError(e)) return e.code;
    throw e;
  }
  throw new Error('expected a rejection');
}

describe('reference thread-state service', () => {
  it('a commit survives closing and reopening the database file', async () => {
    t = stateTestContext();
    const th = await thread(t);
    const ref = await th.store.write_native_state(th.scope, 'scripted/v1', bytes('durable'), 'k');
    const head = await th.store.commit_head(th.scope, ref, 0, 'run-1', {
      interrupt: { interruptId: 'i1', value: 'continue?' },
    });
    t = t.reopen();
    // The lease credential is still the one on record (its hash is), so the worker can restore.
    const again = t.service.threadState(th.session);
    const restored = await again.load_head(th.scope);
    expect(restored).toEqual({
      ...head,
      payload: { codec: 'scripted/v1', bytes: new TextEncoder().encode('durable') },
    });
    // Ownership is by principal id, which is stable across restarts.
    expect(t.service.ownsBinding('alice', th.info.bindingId)).toBe(true);
    expect(t.service.ownsBinding('bob', th.info.bindingId)).toBe(false);
    expect(t.service.ownsBinding('alice', 'bnd_unknown')).toBe(false);
  });

  it('stores only a hash of lease credentials', async () => {
    t = stateTestContext();
    const th = await thread(t);
    const rows = t.db.prepare('SELECT * FROM state_sessions').all();
    expect(JSON.stringify(rows)).not.toContain(th.session.credential);
    expect(rows.length).toBe(1);
  });

  it('state.commit.after failing is a lost response: the commit stands and the retry returns it, revision moved once', async () => {
    t = stateTestContext();
    const th = await thread(t);
    const ref = await th.store.write_native_state(th.scope, 'scripted/v1', bytes('x'), 'k');
    t.service.failpoints.set('state.commit.after', '1*return(unavailable)');
    expect(await code(th.store.commit_head(th.scope, ref, 0, 'run-1'))).toBe('unavailable');
    const retried = await th.store.commit_head(th.scope, ref, 0, 'run-1');
    expect(retried.revision).toBe(1);
    expect((await th.store.load_head(th.scope))?.revision).toBe(1);
  });

  it('state.commit.before failing or panicking commits nothing', async () => {
    t = stateTestContext();
    const th = await thread(t);
    const ref = await th.store.write_native_state(th.scope, 'scripted/v1', bytes('x'), 'k');
    t.service.failpoints.set('state.commit.before', '1*return(revision_conflict)->1*panic');
    expect(await code(th.store.commit_head(th.scope, ref, 0, 'run-1'))).toBe('revision_conflict');
    await expect(th.store.commit_head(th.scope, ref, 0, 'run-1')).rejects.toBeInstanceOf(FailpointPanic);
    expect(await th.store.load_head(th.scope)).toBeNull();
    expect((await th.store.commit_head(th.scope, ref, 0, 'run-1')).revision).toBe(1);
  });

  it('state.write.after failing loses only the response: the retried write returns the stored ref', async () => {
    t = stateTestContext();
    const th = await thread(t);
    t.service.failpoints.set('state.write.after', '1*return(x)');
    expect(await code(th.store.write_native_state(th.scope, 'scripted/v1', bytes('x'), 'k'))).toBe('unavailable');
    const ref = await th.store.write_native_state(th.scope, 'scripted/v1', bytes('x'), 'k');
    expect(await code(th.store.write_native_state(th.scope, 'scripted/v1', bytes('y'), 'k'))).toBe(
      'idempotency_key_reuse',
    );
    expect(ref.idempotencyKey).toBe('k');
  });

  it('duplicates delayed inside the write step still converge on one ref', async () => {
    t = stateTestContext();
    const th = await thread(t);
    t.service.failpoints.set('state.write.before', '3*sleep(5)');
    const refs = await Promise.all(
      [0, 1, 2].map(() => th.store.write_native_state(th.scope, 'scripted/v1', bytes('same'), 'dup')),
    );
    expect(new Set(refs.map((r) => r.stateId)).size).toBe(1);
  });

  it('a lease fenced while its commit waits inside the protocol is refused at commit time', async () => {
    t = stateTestContext();
    const th = await thread(t);
    const ref = await th.store.write_native_state(th.scope, 'scripted/v1', bytes('x'), 'k');
    t.service.failpoints.set('state.commit.before', '1*sleep(20)');
    const inFlight = th.store.commit_head(th.scope, ref, 0, 'run-1');
    await t.service.bindings.acquireLease(th.alice, th.info.bindingId);
    expect(await code(inFlight)).toBe('stale_lease');
  });

  it('a new epoch restarts the entry budget', async () => {
    t = stateTestContext({ stateLimits: { maxPendingEntries: 2 } });
    const th = await thread(t);
    await th.store.write_native_state(th.scope, 'scripted/v1', bytes('a'), 'a');
    await th.store.write_native_state(th.scope, 'scripted/v1', bytes('b'), 'b');
    expect(await code(th.store.write_native_state(th.scope, 'scripted/v1', bytes('c'), 'c'))).toBe('entry_limit');
    await t.service.bindings.clear(th.alice, th.info.bindingId);
    const next = await t.service.bindings.acquireLease(th.alice, th.info.bindingId);
    const ref = await t.service.threadState(next).write_native_state(next.scope, 'scripted/v1', bytes('c'), 'c');
    expect(ref.epoch).toBe(2);
  });
});
