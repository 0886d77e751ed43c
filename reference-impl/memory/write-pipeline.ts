/**
 * The memory-write pipeline for `put`, the contract's seven steps in order:
 * 1 authorize (done by the broker before this runs) → 2 validate → 3 scan & classify →
 * 4 redact secrets, then authority rules → 5 approval policy → 6 revision check (or
 * consolidation) → 7 persist. Every outcome, including each rejection, is audited.
 */

import { randomBytes } from 'node:crypto';
import { ContractError } from '../../contract/errors.js';
import type { MemoryRejectionReason, MemoryWriteOutcome } from '../../contract/memory.js';
import { needsApproval, QUARANTINE_PREFIX } from './approval-policy.js';
import { auditEntry } from './audit-log.js';
import { applyAuthorityRules } from './authority-rules.js';
import type { Authorized } from './authorize.js';
import { commitWrite } from './commit-write.js';
import { contentHash } from './content-hash.js';
import { episodicSourceProblem } from './episodic-source.js';
import type { MemoryDeps } from './memory-deps.js';
import { MEMORY_BOUNDS } from './memory-policy.js';
import { quarantineReasons } from './quarantine-policy.js';
import { redactSecrets } from './redact-secrets.js';
import { scanAndClassify } from './scan-classify.js';
import { keyProblem, validateProposal } from './validate.js';
import type { WriteCandidate } from './write-candidate.js';

export async function runWritePipeline(
  deps: MemoryDeps,
  a: Authorized,
  rawProposal: unknown,
  expected: number | null,
): Promise<MemoryWriteOutcome> {
  const rawKey = (rawProposal as { key?: unknown } | null)?.key;
  const auditKey = typeof rawKey === 'string' && keyProblem(rawKey) === null ? rawKey : '';
  const reject = (reasons: readonly MemoryRejectionReason[], details: readonly string[] = []): MemoryWriteOutcome => {
    deps.store.appendAudit(
      auditEntry({
        org: a.who.organization,
        namespace: a.namespace,
        at: deps.clock.iso(),
        actor: a.who.principalId,
        operation: 'put',
        scope: a.scope,
        key: auditKey,
        outcome: 'rejected',
        reasons: [...reasons, ...details],
      }),
    );
    return { status: 'rejected', reasons: [...reasons] };
  };

  // 2. Validate.
  const v = validateProposal(rawProposal);
  if (!v.ok) return reject(v.reasons);
  const p = v.proposal;
  const reasons = new Set<MemoryRejectionReason>();
  const sourceProblem = episodicSourceProblem(a.who, p.source, deps.ownsBinding);
  if (sourceProblem) reasons.add(sourceProblem);

  // 3. Scan and classify as untrusted.
  const scan = scanAndClassify(p);
  for (const r of scan.reasons) reasons.add(r);

  // 4. Redact secrets, then refuse authority-broadening instructions.
  const redaction = await redactSecrets(p.content, p.contentType);
  const verdict = applyAuthorityRules(scan.views);
  for (const r of verdict.reasons) reasons.add(r);
  if (reasons.size > 0)
    return reject(
      [...reasons],
      verdict.ruleIds.map((id) => `rule:${id}`),
    );

  const candidate: WriteCandidate = {
    namespace: a.namespace,
    scope: a.scope,
    org: a.who.organization,
    writer: a.who.principalId,
    agent: a.agent,
    key: p.key,
    kind: p.kind,
    content: redaction.content,
    contentType: p.contentType,
    contentHash: contentHash(redaction.content),
    retentionSeconds: p.retentionSeconds ?? null,
    source: p.source ?? null,
    onConflict: p.onConflict,
    findings: [scan.trust === 'untrusted' ? 'untrusted_content' : 'trusted_content', ...redaction.findings],
  };

  // 5. Approval where the path policy says so, or where the content is suspicious without
  // being clearly an attack (quarantine): the write waits, invisible, for an approver, who sees
  // the reason codes. A full quarantine queue refuses instead of accepting.
  const suspect = quarantineReasons(scan, verdict.suspicions);
  if (needsApproval(p.key))
    return queueForApproval(deps, withReasons(candidate, ['approval_path', ...suspect]), expected);
  if (suspect.length > 0) {
    const queued = queueForApproval(deps, withReasons(candidate, suspect), expected, false);
    return queued ?? reject(['authority_broadening'], ['quarantine_full', ...suspect]);
  }

  // 6–7. Revision check (or consolidation) and persist, atomically.
  return commitWrite(deps, {
    candidate,
    expected,
    approval: { state: 'not_required', approver: null, decidedAt: null },
    actor: a.who.principalId,
    operation: 'put',
  });
}

/** The candidate with the approval reason codes among its findings (what the approver sees). */
function withReasons(c: WriteCandidate, reasons: readonly string[]): WriteCandidate {
  return { ...c, findings: [...c.findings, ...reasons.map((r) => `${QUARANTINE_PREFIX}${r}`)] };
}

function queueForApproval(deps: MemoryDeps, c: WriteCandidate, expected: number | null): MemoryWriteOutcome;
function queueForApproval(
  deps: MemoryDeps,
  c: WriteCandidate,
  expected: number | null,
  throwWhenFull: false,
): MemoryWriteOutcome | null;
function queueForApproval(
  deps: MemoryDeps,
  c: WriteCandidate,
  expected: number | null,
  throwWhenFull = true,
): MemoryWriteOutcome | null {
  const approvalId = `apr_${randomBytes(16).toString('hex')}`;
  const at = deps.clock.iso();
  const queued = deps.store.transaction(() => {
    // Full: nothing is queued or audited here. The suspect path refuses the write (audited as a
    // rejection by the pipeline); the approval path throws entry_limit (audited by the broker as
    // the refusal it is) — one audit entry either way.
    if (deps.store.countPending(c.namespace) >= MEMORY_BOUNDS.maxPendingPerNamespace) return false;
    deps.store.appendAudit(
      auditEntry({
        org: c.org,
        namespace: c.namespace,
        at,
        actor: c.writer,
        operation: 'put',
        scope: c.scope,
        key: c.key,
        outcome: 'pending_approval',
        contentHash: c.contentHash,
        reasons: c.findings,
      }),
    );
    deps.store.insertPending({
      approvalId,
      namespace: c.namespace,
      org: c.org,
      scope: c.scope,
      key: c.key,
      writer: c.writer,
      agent: c.agent,
      contentHash: c.contentHash,
      candidate: JSON.stringify(c),
      expectedRevision: expected,
      state: 'pending',
      createdAt: at,
    });
    return true;
  });
  if (!queued) {
    if (!throwWhenFull) return null;
    throw new ContractError('entry_limit', 'pending approvals per namespace');
  }
  return { status: 'pending_approval', approvalId };
}
