/**
 * Delete: only the live revision the caller names can be deleted (a stale one is a conflict).
 * The body, hash and everything derived from the content leave the record row and the search
 * index; the revision history and an audit entry (no body, no hash) remain.
 */
import type { MemoryWriteOutcome } from '../../contract/memory.js';
import { auditEntry } from './audit-log.js';
import type { Authorized } from './authorize.js';
import type { MemoryDeps } from './memory-deps.js';
import { expireRecord } from './purge-expired.js';
import { isLive } from './stored-record.js';

export function deleteRecord(deps: MemoryDeps, a: Authorized, key: string, expected: number): MemoryWriteOutcome {
  const result = deps.store.transaction(() => {
    const nowMs = deps.clock.now();
    const at = new Date(nowMs).toISOString();
    const row = deps.store.get(a.namespace, key);
    let expired = false;
    if (row?.live && !isLive(row, nowMs)) {
      expireRecord(deps.store, row, at);
      expired = true;
    }
    const current = isLive(row, nowMs) ? row : null;
    const base = {
      org: a.who.organization,
      namespace: a.namespace,
      at,
      actor: a.who.principalId,
      operation: 'delete' as const,
      scope: a.scope,
      key,
    };
    if (current === null || current.revision !== expected) {
      const currentRevision = current?.revision ?? 0;
      deps.store.appendAudit(
        auditEntry({ ...base, outcome: 'conflict', revision: currentRevision, reasons: ['revision_conflict'] }),
      );
      return { outcome: { status: 'conflict', currentRevision } as MemoryWriteOutcome, removed: expired };
    }
    deps.store.tombstone(a.namespace, key, a.who.principalId, at);
    deps.store.addHistory(a.namespace, key, current.revision, 'delete', a.who.principalId, null, at);
    deps.store.appendAudit(auditEntry({ ...base, outcome: 'deleted', revision: current.revision }));
    return { outcome: { status: 'deleted', key, revision: current.revision } as MemoryWriteOutcome, removed: true };
  });
  if (result.removed) {
    deps.indexes.remove(a.namespace, key);
    deps.store.checkpoint(); // the body leaves the write-ahead log too
  }
  return result.outcome;
}
