/**
 * Retention: a record's expiry is fixed when it is written (the proposal's retention, else the
 * scope default) and read against the injectable clock. Expired records are never returned;
 * they are purged (tombstoned, removed from the index, audited as `expire`) on the next
 * operation that touches their namespace.
 */
import type { MemoryScopeKind } from '../../contract/memory.js';
import { DEFAULT_RETENTION_SECONDS } from './memory-policy.js';

export function expiryFor(scope: MemoryScopeKind, retentionSeconds: number | null, nowMs: number): number | null {
  const seconds = retentionSeconds ?? DEFAULT_RETENTION_SECONDS[scope];
  return seconds === null ? null : nowMs + seconds * 1000;
}
