/**
 * The memory service end to end over a real SQLite file: one transaction per write, retention
 * purge, approvals, audit, and the episodic-source ownership hook.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { note, USER } from '../../fixtures/memory/memory-proposal.js';
import { createMemoryService } from '../../reference-impl/memory/memory-service.js';
import { memoryContext, type TestContext } from './memory-context.js';

let ctx: TestContext | undefined;
afterEach(() => ctx?.dispose());

function service(owned: Array<[string, string]> = [], sharedLearning = false) {
  ctx = memoryContext({ sharedLearning });
  const svc = createMemoryService(ctx, {
    ownsBinding: (p, b) => owned.some(([op, ob]) => op === p && ob === b),
  });
  return { ctx, svc, p: ctx.auth.principals, agent: ctx.auth.principals.agents[0] };
}

describe('reference memory service', () => {
  it('declares its capabilities and policy', () => {
    expect(service().svc.capabilities).toEqual({ memory: true, sharedLearning: false, storageInspection: true });
    expect(service([], true).svc.capabilities).toEqual({ memory: true, sharedLearning: true, storageInspection: true });
  });

  it('persists record, revision history and audit in one transaction (a failed audit write rolls back the record)', async () => {
    const { ctx: c, svc, p, agent } = service();
    const m = svc.memory(p.alice, agent);
    await m.put(USER, note('k', 'first'), null);
    c.db.exec(`CREATE TRIGGER fail_audit BEFORE INSERT ON memory_audit BEGIN SELECT RAISE(ABORT, 'audit down'); END;`);
    await expect(m.put(USER, note('k', 'second'), 1)).rejects.toThrow(/audit down/);
    c.db.exec('DROP TRIGGER fail_audit');
    expect((await m.get(USER, 'k'))?.content).toBe('first');
    const revisions = c.db.prepare('SELECT COUNT(*) AS n FROM memory_revisions').get() as { n: number };
    expect(revisions.n).toBe(1);
  });

  it('keeps no body after delete or expiry: not in the record row, not in history, not in the audit', async () => {
    const { ctx: c, svc, p, agent } = service();
    const m = svc.memory(p.alice, agent);
    await m.put(USER, note('gone', 'body-marker-one'), null);
    await m.put(USER, note('expires', 'body-marker-two', { retentionSeconds: 5 }), null);
    expect(await m.delete(USER, 'gone', 1)).toEqual({ status: 'deleted', key: 'gone', revision: 1 });
    c.clock.advance(6_000);
    expect(await m.get(USER, 'expires')).toBeNull();
    const dump = JSON.stringify([
      c.db.prepare('SELECT * FROM memory_records').all(),
      c.db.prepare('SELECT * FROM memory_revisions').all(),
      c.db.prepare('SELECT * FROM memory_audit').all(),
    ]);
    expect(dump).not.toContain('body-marker');
    const ops = (await svc.audit.memory(p.adminA)).map((e) => `${e.operation}:${e.outcome}`);
    expect(ops).toEqual(['put:written', 'put:written', 'delete:deleted', 'expire:deleted']);
  });

  it('stores the redacted content and its hash, never the secret', async () => {
    const { ctx: c, svc, p, agent } = service();
    const token = ['gh', 'p_', 'aB3dE5fG7hJ9kL2mN4pQ6rS8tU0vW1xY3zCxQ'].join('').slice(0, 40);
    const o = await svc.memory(p.alice, agent).put(USER, note('tok', `token ${token}`), null);
    expect(o.status).toBe('written');
    const dump = JSON.stringify(c.db.prepare('SELECT * FROM memory_records').all());
    expect(dump).not.toContain(token);
  });

  it('holds approval-gated writes invisibly, and lets only another approver of the org decide', async () => {
    const { svc, p, agent } = service();
    const m = svc.memory(p.bob, agent);
    const o = await m.put(USER, note('sensitive/med', 'takes insulin'), null);
    if (o.status !== 'pending_approval') throw new Error(o.status);
    expect(await m.get(USER, 'sensitive/med')).toBeNull();
    await expect(svc.approvals.decide(p.bob, o.approvalId, 'approve')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(svc.approvals.decide(p.approverA, 'apr_nope', 'approve')).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    const done = await svc.approvals.decide(p.approverA, o.approvalId, 'approve');
    expect(done).toMatchObject({ status: 'written', record: { provenance: { approval: { approver: 'approverA' } } } });
    await expect(svc.approvals.decide(p.approverA, o.approvalId, 'reject')).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('asks the state service whether the caller owns an episodic source binding', async () => {
    const { svc, p, agent } = service([['alice', 'bnd_mine']]);
    const m = svc.memory(p.alice, agent);
    const ep = (bindingId: string) => ({
      ...note(`ep/${bindingId}`, 'Summary of the trip planning.'),
      kind: 'episodic_reference' as const,
      source: { bindingId, epoch: 1, revision: 1 },
    });
    expect((await m.put(USER, ep('bnd_mine'), null)).status).toBe('written');
    expect(await m.put(USER, ep('bnd_theirs'), null)).toEqual({ status: 'rejected', reasons: ['unreadable_source'] });
  });

  it('bounds records per namespace with a typed error and an audit entry', async () => {
    const { svc, p, agent } = service();
    const m = svc.memory(p.alice, agent);
    await expect(m.search(USER, { text: 'x' }, 101)).rejects.toMatchObject({ code: 'invalid_argument' });
    const entries = await svc.audit.memory(p.adminA);
    expect(entries.at(-1)).toMatchObject({ operation: 'search', outcome: 'error', reasons: ['invalid_argument'] });
  });

  it('decides tool and host access from the static policy only', async () => {
    const { svc, p } = service();
    expect(await svc.tools.mayInvoke(p.alice, 'agent-alpha', 'calculator')).toBe(true);
    expect(await svc.tools.mayInvoke(p.alice, 'agent-beta', 'search_docs')).toBe(false);
    expect(await svc.tools.mayReach(p.alice, 'agent-alpha', 'api.weather.example')).toBe(true);
    expect(await svc.tools.mayInvoke(p.alice, 'agent-nope', 'calculator')).toBe(false);
    expect(await svc.tools.mayReach(p.alice, 'agent-nope', 'api.weather.example')).toBe(false);
    await expect(svc.tools.mayInvoke(p.alice, 'agent-alpha', 'bad tool')).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(svc.tools.mayReach(p.alice, 'agent-alpha', 'bad host.example')).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(svc.tools.mayReach({ ...p.alice, credential: 'x' }, 'agent-alpha', 'a.b')).rejects.toMatchObject({
      code: 'unauthenticated',
    });
  });
});
