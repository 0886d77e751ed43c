/**
 * Pipeline step 5: which writes need human approval. The declared path policy: any key under
 * `MEMORY_POLICY.approvalKeyPrefix` (case-insensitive), in every scope; and content the
 * quarantine policy finds suspicious (quarantine-policy.ts). Who may approve: an
 * `approver` of the writer's organization who is not the writer.
 */
import { ContractError } from '../../contract/errors.js';
import type { Identity } from '../identity/identity.js';
import { MEMORY_POLICY } from './memory-policy.js';

/** Findings that carry an approval's reason codes (`approval:suspect_…`), shown to approvers. */
export const QUARANTINE_PREFIX = 'approval:';

export function approvalReasons(findings: readonly string[]): string[] {
  return findings.filter((f) => f.startsWith(QUARANTINE_PREFIX)).map((f) => f.slice(QUARANTINE_PREFIX.length));
}

export function needsApproval(key: string): boolean {
  return key.toLowerCase().startsWith(MEMORY_POLICY.approvalKeyPrefix);
}

export function assertMayDecide(approver: Identity, pending: { org: string; writer: string }): void {
  if (!approver.roles.includes('approver')) throw new ContractError('forbidden', 'approver role required');
  // Other organizations' approvals don't exist for this approver (same answer as an unknown id).
  if (pending.org !== approver.organization) throw new ContractError('not_found');
  if (pending.writer === approver.principalId) throw new ContractError('self_approval');
}
