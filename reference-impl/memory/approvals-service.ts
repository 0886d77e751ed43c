/**
 * Human approval of path-gated and quarantined writes. Approvers see their organization's
 * pending writes (key, writer, content hash and why it waits — not the body) except their own; a decision runs the held
 * candidate through steps 6–7 in the same transaction that marks the approval decided, so an
 * approval is used at most once.
 */
import { ContractError, isContractError } from '../../contract/errors.js';
import type { Approvals, MemoryWriteOutcome, PendingApproval } from '../../contract/memory.js';
import type { Principal } from '../../contract/principals.js';
import { approvalReasons, assertMayDecide } from './approval-policy.js';
import { auditEntry } from './audit-log.js';
import { commitWrite } from './commit-write.js';
import type { MemoryDeps } from './memory-deps.js';
import { MEMORY_BOUNDS } from './memory-policy.js';
import type { WriteCandidate } from './write-candidate.js';

const APPROVAL_ID = /^apr_[0-9a-f]{32}$/;

export function createApprovals(deps: MemoryDeps): Approvals {
  return {
    async list(approver: Principal): Promise<readonly PendingApproval[]> {
      const who = deps.auth.authenticate(approver);
      if (!who.roles.includes('approver')) throw new ContractError('forbidden', 'approver role required');
      return deps.store.listPending(who.organization, who.principalId, MEMORY_BOUNDS.maxApprovalsListed).map((p) => ({
        approvalId: p.approvalId,
        scope: p.scope,
        key: p.key,
        writer: p.writer,
        contentHash: p.contentHash,
        reasons: p.candidate === null ? [] : approvalReasons((JSON.parse(p.candidate) as WriteCandidate).findings),
      }));
    },

    async decide(approver: Principal, approvalId: string, decision: 'approve' | 'reject'): Promise<MemoryWriteOutcome> {
      const who = deps.auth.authenticate(approver);
      const audit = (
        outcome: 'rejected' | 'error',
        reasons: string[],
        p?: { scope: WriteCandidate['scope']; key: string; namespace: string },
      ) =>
        deps.store.appendAudit(
          auditEntry({
            org: who.organization,
            namespace: p?.namespace ?? null,
            at: deps.clock.iso(),
            actor: who.principalId,
            operation: decision === 'reject' ? 'reject' : 'approve',
            scope: p?.scope ?? null,
            key: p?.key ?? '',
            outcome,
            reasons,
          }),
        );
      try {
        if (typeof approvalId !== 'string' || !APPROVAL_ID.test(approvalId)) {
          throw new ContractError('invalid_argument', 'approval id');
        }
        if (decision !== 'approve' && decision !== 'reject') throw new ContractError('invalid_argument', 'decision');
        const pending = deps.store.getPending(approvalId);
        if (pending?.state !== 'pending' || pending.candidate === null) throw new ContractError('not_found');
        assertMayDecide(who, pending);
        if (decision === 'reject') {
          if (!deps.store.transaction(() => deps.store.decidePending(approvalId, 'rejected'))) {
            throw new ContractError('not_found');
          }
          audit('rejected', ['approval_rejected'], pending);
          deps.store.checkpoint(); // the rejected body leaves the write-ahead log too
          return { status: 'rejected', reasons: ['approval_rejected'] };
        }
        const candidate = JSON.parse(pending.candidate) as WriteCandidate;
        return commitWrite(deps, {
          candidate,
          expected: pending.expectedRevision,
          approval: { state: 'approved', approver: who.principalId, decidedAt: deps.clock.iso() },
          actor: who.principalId,
          operation: 'approve',
          precondition: () => deps.store.decidePending(approvalId, 'approved'),
        });
      } catch (e) {
        if (isContractError(e)) audit('error', [e.code]);
        throw e;
      }
    },
  };
}
