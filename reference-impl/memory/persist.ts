/**
 * Pipeline step 7: persist content, provenance (writer, source revisions, content hash,
 * approval), the revision-history row and the audit record. Always called inside the store
 * transaction that also ran the revision check, so all of it commits or none of it does.
 */
import type { MemoryApproval, MemorySourceRef } from '../../contract/memory.js';
import { auditEntry } from './audit-log.js';
import type { MemoryStore } from './sqlite-memory-store.js';
import type { LiveRecord } from './stored-record.js';
import type { WriteCandidate } from './write-candidate.js';

export interface PersistArgs {
  readonly candidate: WriteCandidate;
  readonly content: string;
  readonly contentHash: string;
  readonly revision: number;
  readonly createdRevision: number;
  readonly createdAt: string;
  readonly at: string;
  readonly expiresAt: number | null;
  readonly approval: MemoryApproval;
  readonly sources: readonly MemorySourceRef[];
  readonly sourceRevisions: readonly number[];
  readonly actor: string;
  readonly operation: 'put' | 'approve' | 'consolidate';
  readonly status: 'written' | 'consolidated';
}

export function persist(store: MemoryStore, a: PersistArgs): LiveRecord {
  const c = a.candidate;
  const record: LiveRecord = {
    namespace: c.namespace,
    org: c.org,
    scope: c.scope,
    key: c.key,
    revision: a.revision,
    live: true,
    createdRevision: a.createdRevision,
    kind: c.kind,
    content: a.content,
    contentType: c.contentType,
    contentHash: a.contentHash,
    expiresAt: a.expiresAt,
    writer: c.writer,
    agent: c.agent,
    sourceRevisions: a.sourceRevisions,
    sources: a.sources,
    approval: a.approval,
    createdAt: a.createdAt,
    updatedAt: a.at,
    findings: c.findings,
    episodicSource: c.source,
  };
  store.put(record);
  store.addHistory(c.namespace, c.key, a.revision, 'write', c.writer, a.contentHash, a.at);
  store.appendAudit(
    auditEntry({
      org: c.org,
      namespace: c.namespace,
      at: a.at,
      actor: a.actor,
      operation: a.operation,
      scope: c.scope,
      key: c.key,
      outcome: a.status,
      revision: a.revision,
      contentHash: a.contentHash,
      reasons: c.findings,
    }),
  );
  return record;
}
