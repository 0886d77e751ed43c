/**
 * What a delete and an expiry leave behind in the reference (mutation/survivors.md, M11): the
 * revision history keeps a row per revision and per removal (who, no hash), and the audit an
 * entry with the system as the actor of an expiry. The contract fixes neither the history nor
 * an expiry's audit entry; R07.8 and R07.19 check the body is gone, not these records.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { note, USER } from '../../fixtures/memory/memory-proposal.js';
import { createMemoryService } from '../../reference-impl/memory/memory-service.js';
import { memoryContext, type TestContext } from './memory-context.js';

let ctx: TestContext | undefined;
afterEach(() => ctx?.dispose());

function service() {
  ctx = memoryContext();
  const svc = createMemoryService(ctx, { ownsBinding: () => false });
  return {
    c: ctx,
    svc,
    p: ctx.auth.principals,
    m: svc.memory(ctx.auth.principals.alice, ctx.auth.principals.agents[0]!),
  };
}

const history = (c: TestContext, key: string) =>
  c.db
    .prepare(
      'SELECT revision, operation, writer, content_hash IS NOT NULL AS hashed FROM memory_revisions WHERE key = ? ORDER BY revision, at, operation DESC',
    )
    .all(key);

describe('reference delete and expiry records', () => {
  it('a delete keeps the history (a delete row, no hash) and audits a stale delete as a conflict at the live revision', async () => {
    const { c, svc, p, m } = service();
    await m.put(USER, note('k', 'first'), null);
    await m.put(USER, note('k', 'second'), 1);
    expect(await m.delete(USER, 'k', 1)).toEqual({ status: 'conflict', currentRevision: 2 });
    expect(await m.delete(USER, 'k', 2)).toEqual({ status: 'deleted', key: 'k', revision: 2 });
    expect(await m.delete(USER, 'k', 2)).toEqual({ status: 'conflict', currentRevision: 0 });
    expect(history(c, 'k')).toEqual([
      { revision: 1, operation: 'write', writer: 'alice', hashed: 1 },
      { revision: 2, operation: 'write', writer: 'alice', hashed: 1 },
      { revision: 2, operation: 'delete', writer: 'alice', hashed: 0 },
    ]);
    const deletes = (await svc.audit.memory(p.adminA, { key: 'k' })).filter((e) => e.operation === 'delete');
    expect(deletes.map((e) => [e.outcome, e.revision, e.reasons, e.scope, e.actor])).toEqual([
      ['conflict', 2, ['revision_conflict'], 'user', 'alice'],
      ['deleted', 2, [], 'user', 'alice'],
      ['conflict', 0, ['revision_conflict'], 'user', 'alice'],
    ]);
  });

  it('an expiry keeps the history (an expire row by the system, no hash) and audits it as the system', async () => {
    const { c, svc, p, m } = service();
    await m.put(USER, note('e', 'short lived', { retentionSeconds: 5 }), null);
    await m.put(USER, note('stays', 'kept'), null);
    c.clock.advance(6_000);
    expect(await m.get(USER, 'stays')).not.toBeNull();
    expect(history(c, 'e')).toEqual([
      { revision: 1, operation: 'write', writer: 'alice', hashed: 1 },
      { revision: 1, operation: 'expire', writer: 'system', hashed: 0 },
    ]);
    const entries = await svc.audit.memory(p.adminA, { key: 'e' });
    expect(entries.at(-1)).toMatchObject({
      actor: 'system',
      operation: 'expire',
      scope: 'user',
      key: 'e',
      outcome: 'deleted',
      revision: 1,
      contentHash: null,
    });
    // An expired key can be deleted by no revision: it starts over.
    expect(await m.delete(USER, 'e', 1)).toEqual({ status: 'conflict', currentRevision: 0 });
  });
});
