/**
 * Expired records leave the store for good: content tombstoned, removed from the namespace's
 * index, an `expire` audit entry written, the write-ahead log checkpointed so the body leaves
 * the files as well. Runs before every operation on a namespace and, for one key, inside the
 * write transaction.
 */
import { auditEntry } from './audit-log.js';
import type { MemoryDeps } from './memory-deps.js';
import type { Namespace } from './namespace.js';
import type { MemoryStore } from './sqlite-memory-store.js';
import type { StoredRecord } from './stored-record.js';

/** Inside a transaction: tombstone one expired record. */
export function expireRecord(store: MemoryStore, r: StoredRecord, at: string): void {
  store.tombstone(r.namespace, r.key, 'system', at);
  store.addHistory(r.namespace, r.key, r.revision, 'expire', 'system', null, at);
  store.appendAudit(
    auditEntry({
      org: r.org,
      namespace: r.namespace,
      at,
      actor: 'system',
      operation: 'expire',
      scope: r.scope,
      key: r.key,
      outcome: 'deleted',
      revision: r.revision,
    }),
  );
}

export function purgeExpired(deps: MemoryDeps, ns: Namespace): void {
  const now = deps.clock.now();
  const keys = deps.store.expiredKeys(ns, now);
  if (keys.length === 0) return;
  const at = deps.clock.iso();
  deps.store.transaction(() => {
    for (const key of keys) {
      const r = deps.store.get(ns, key);
      if (r?.live) expireRecord(deps.store, r, at);
    }
  });
  for (const key of keys) deps.indexes.remove(ns, key);
  deps.store.checkpoint();
}

/** Retention work due everywhere, not only in the namespaces being used (storage inspection). */
export function purgeAllExpired(deps: MemoryDeps): void {
  for (const ns of deps.store.namespacesWithExpired(deps.clock.now())) purgeExpired(deps, ns);
}
