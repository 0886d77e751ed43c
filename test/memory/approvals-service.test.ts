/**
 * The reference's approvals surface beyond what the contract fixes (mutation/survivors.md, M10):
 * which approval ids are well formed, what an approver is shown, and that every refused
 * decision is audited with its error code — the kit's clauses require typed refusals and the
 * decisions' own audit entries (R06.8, R07.7), not these.
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
  return { c: ctx, svc, p: ctx.auth.principals, agent: ctx.auth.principals.agents[0]! };
}

describe('reference approvals', () => {
  it('refuses a malformed approval id as invalid_argument and an unknown well-formed one as not_found', async () => {
    const { svc, p } = service();
    const hex = 'a'.repeat(32);
    for (const id of [
      `apr_${hex.slice(1)}`,
      `apr_${hex}0`,
      `xapr_${hex}`,
      `apr_${'A'.repeat(32)}`,
      `apr_${'g'.repeat(32)}`,
      '',
      42,
    ]) {
      await expect(svc.approvals.decide(p.approverA, id as string, 'approve'), String(id)).rejects.toMatchObject({
        code: 'invalid_argument',
      });
    }
    await expect(svc.approvals.decide(p.approverA, `apr_${hex}`, 'approve')).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('audits every refused decision with its error code, and a rejection with the key, scope and reason', async () => {
    const { svc, p, agent } = service();
    const o = await svc.memory(p.bob, agent).put(USER, note('sensitive/med', 'takes insulin'), null);
    if (o.status !== 'pending_approval') throw new Error(o.status);
    await expect(svc.approvals.decide(p.bob, o.approvalId, 'approve')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(svc.approvals.decide(p.approverA, 'apr_nope', 'reject')).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(svc.approvals.decide(p.approverA, o.approvalId, 'maybe' as 'approve')).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    expect(await svc.approvals.decide(p.approverA, o.approvalId, 'reject')).toEqual({
      status: 'rejected',
      reasons: ['approval_rejected'],
    });
    await expect(svc.approvals.decide(p.approverA, o.approvalId, 'approve')).rejects.toMatchObject({
      code: 'not_found',
    });
    const entries = (await svc.audit.memory(p.adminA)).map((e) => ({
      actor: e.actor,
      operation: e.operation,
      scope: e.scope,
      key: e.key,
      outcome: e.outcome,
      reasons: e.reasons,
    }));
    expect(entries).toEqual([
      {
        actor: 'bob',
        operation: 'put',
        scope: 'user',
        key: 'sensitive/med',
        outcome: 'pending_approval',
        reasons: ['untrusted_content', 'approval:approval_path'],
      },
      { actor: 'bob', operation: 'approve', scope: null, key: '', outcome: 'error', reasons: ['forbidden'] },
      {
        actor: 'approverA',
        operation: 'reject',
        scope: null,
        key: '',
        outcome: 'error',
        reasons: ['invalid_argument'],
      },
      {
        actor: 'approverA',
        operation: 'approve',
        scope: null,
        key: '',
        outcome: 'error',
        reasons: ['invalid_argument'],
      },
      {
        actor: 'approverA',
        operation: 'reject',
        scope: 'user',
        key: 'sensitive/med',
        outcome: 'rejected',
        reasons: ['approval_rejected'],
      },
      { actor: 'approverA', operation: 'approve', scope: null, key: '', outcome: 'error', reasons: ['not_found'] },
    ]);
  });

  it('lists a pending write with its scope, hash and reasons (the path for a path-gated one), never the body', async () => {
    const { svc, p, agent } = service();
    const o = await svc.memory(p.bob, agent).put(USER, note('sensitive/med', 'takes insulin'), null);
    if (o.status !== 'pending_approval') throw new Error(o.status);
    const listed = await svc.approvals.list(p.approverA);
    expect(listed).toEqual([
      {
        approvalId: o.approvalId,
        scope: 'user',
        key: 'sensitive/med',
        writer: 'bob',
        contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        reasons: ['approval_path'],
      },
    ]);
  });
});
