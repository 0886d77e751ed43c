/**
 * Audit entries of the memory broker: every write attempt (written, conflict, rejected, pending,
 * error), every approval decision, delete and expiry, and refused reads. An entry carries the
 * key, revision, content hash and fixed reason codes — never a body.
 */
import type { AuditEntry, MemoryScopeKind } from '../../contract/memory.js';
import type { Namespace } from './namespace.js';
import type { StoredAuditEntry } from './sqlite-memory-store.js';

export interface AuditFacts {
  readonly org: string;
  readonly namespace: Namespace | null;
  readonly at: string;
  readonly actor: string;
  readonly operation: AuditEntry['operation'];
  readonly scope: MemoryScopeKind | null;
  readonly key: string;
  readonly outcome: AuditEntry['outcome'];
  readonly revision?: number | null;
  readonly contentHash?: string | null;
  readonly reasons?: readonly string[];
}

export function auditEntry(f: AuditFacts): StoredAuditEntry {
  return {
    org: f.org,
    namespace: f.namespace,
    at: f.at,
    actor: f.actor,
    operation: f.operation,
    scope: f.scope,
    key: f.key,
    outcome: f.outcome,
    revision: f.revision ?? null,
    contentHash: f.contentHash ?? null,
    reasons: [...(f.reasons ?? [])],
  };
}
