/**
 * Steps 6–7 as one transaction: expire the key if its retention ran out, compare the expected
 * revision, run the declared consolidation policy when asked to, then persist. Synchronous on
 * purpose — nothing can interleave between the check and the write. The index is updated only
 * after the transaction has committed.
 */
import { ContractError } from '../../contract/errors.js';
import type { MemoryApproval, MemorySourceRef, MemoryWriteOutcome } from '../../contract/memory.js';
import { auditEntry } from './audit-log.js';
import { consolidate } from './consolidation-policy.js';
import { contentHash } from './content-hash.js';
import type { MemoryDeps } from './memory-deps.js';
import { MEMORY_BOUNDS } from './memory-policy.js';
import { persist } from './persist.js';
import { expireRecord } from './purge-expired.js';
import { expiryFor } from './retention.js';
import { checkRevision } from './revision-check.js';
import { isLive, type LiveRecord, toMemoryRecord } from './stored-record.js';
import type { WriteCandidate } from './write-candidate.js';

export interface CommitRequest {
  readonly candidate: WriteCandidate;
  readonly expected: number | null;
  readonly approval: MemoryApproval;
  readonly actor: string;
  readonly operation: 'put' | 'approve';
  /** Runs first inside the same transaction (e.g. marking an approval decided); false aborts. */
  readonly precondition?: () => boolean;
}

type Committed = {
  readonly outcome: MemoryWriteOutcome;
  readonly written?: LiveRecord;
  readonly expired: boolean;
  readonly limit: boolean;
};

export function commitWrite(deps: MemoryDeps, req: CommitRequest): MemoryWriteOutcome {
  const c = req.candidate;
  const result = deps.store.transaction((): Committed => {
    if (req.precondition && !req.precondition()) throw new ContractError('not_found');
    const nowMs = deps.clock.now();
    const at = new Date(nowMs).toISOString();
    const row = deps.store.get(c.namespace, c.key);
    let expired = false;
    if (row?.live && !isLive(row, nowMs)) {
      expireRecord(deps.store, row, at);
      expired = true;
    }
    const current = isLive(row, nowMs) ? row : null;
    const audit = (outcome: 'conflict' | 'rejected' | 'error', revision: number | null, reasons: string[]) =>
      deps.store.appendAudit(
        auditEntry({
          org: c.org,
          namespace: c.namespace,
          at,
          actor: req.actor,
          operation: req.operation,
          scope: c.scope,
          key: c.key,
          outcome,
          revision,
          contentHash: c.contentHash,
          reasons,
        }),
      );

    let content = c.content;
    let hash = c.contentHash;
    let sources: readonly MemorySourceRef[] = [];
    let sourceRevisions: readonly number[] = [];
    let status: 'written' | 'consolidated' = 'written';
    const check = checkRevision(current, req.expected);
    if (!check.ok) {
      if (c.onConflict !== 'consolidate' || current === null) {
        audit('conflict', check.currentRevision, ['revision_conflict']);
        return { outcome: { status: 'conflict', currentRevision: check.currentRevision }, expired, limit: false };
      }
      const merged = consolidate({
        current,
        proposalContent: c.content,
        proposalContentType: c.contentType,
        proposalKind: c.kind,
        writer: c.writer,
        baseRevision: req.expected,
        history: (after, upTo, limit) => deps.store.historyBetween(c.namespace, c.key, after, upTo, limit),
      });
      if (!merged.ok && merged.why === 'too_large') {
        audit('rejected', current.revision, ['content_too_large']);
        return { outcome: { status: 'rejected', reasons: ['content_too_large'] }, expired, limit: false };
      }
      if (!merged.ok) {
        audit('conflict', current.revision, ['revision_conflict', 'consolidation_declined']);
        return { outcome: { status: 'conflict', currentRevision: current.revision }, expired, limit: false };
      }
      content = merged.content;
      hash = contentHash(content);
      sources = merged.sources;
      sourceRevisions = merged.sourceRevisions;
      status = 'consolidated';
    }
    if (current === null && deps.store.countLive(c.namespace) >= MEMORY_BOUNDS.maxRecordsPerNamespace) {
      audit('error', null, ['entry_limit']);
      return { outcome: { status: 'rejected', reasons: [] }, expired, limit: true };
    }
    const revision = (row?.revision ?? 0) + 1;
    const written = persist(deps.store, {
      candidate: c,
      content,
      contentHash: hash,
      revision,
      createdRevision: current ? current.createdRevision : revision,
      createdAt: current ? current.createdAt : at,
      at,
      expiresAt: expiryFor(c.scope, c.retentionSeconds, nowMs),
      approval: req.approval,
      sources,
      sourceRevisions,
      actor: req.actor,
      operation: status === 'consolidated' ? 'consolidate' : req.operation,
      status,
    });
    return { outcome: { status, record: toMemoryRecord(written) }, written, expired, limit: false };
  });
  if (result.expired) {
    deps.indexes.remove(c.namespace, c.key);
    deps.store.checkpoint(); // the expired body leaves the write-ahead log too, as after a purge
  }
  if (result.written) deps.indexes.upsert(c.namespace, result.written);
  // The audit entry for a full namespace is committed; the caller still gets a typed error.
  if (result.limit) throw new ContractError('entry_limit', 'records per namespace');
  return result.outcome;
}
