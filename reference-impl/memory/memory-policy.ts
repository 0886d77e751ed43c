/**
 * The reference broker's declared write policy and bounds (published as `Target.memoryPolicy`
 * so suites can exercise them), plus the internal bounds that keep every count finite.
 */
import type { MemoryPolicy, MemoryScopeKind } from '../../contract/memory.js';

/** Retention applied when a proposal gives none: user/agent memories expire, org policy doesn't. */
export const DEFAULT_RETENTION_SECONDS: Readonly<Record<MemoryScopeKind, number | null>> = {
  user: 365 * 24 * 3600,
  agent: 365 * 24 * 3600,
  organization: null,
};

export const MEMORY_POLICY: MemoryPolicy = {
  approvalKeyPrefix: 'sensitive/',
  protectedKeyPrefix: 'skills/',
  maxSearchLimit: 100,
  maxContentBytes: 16 * 1024,
  maxKeyLength: 200,
  consolidationPolicy: 'append-text/v1',
  defaultRetentionSeconds: DEFAULT_RETENTION_SECONDS,
};

export const MEMORY_BOUNDS = {
  /** Live records per namespace (a put beyond it fails with `entry_limit`). */
  maxRecordsPerNamespace: 50_000,
  /** Pending approvals per namespace. */
  maxPendingPerNamespace: 100,
  /** Pending approvals returned by one `approvals.list`. */
  maxApprovalsListed: 100,
  /** Audit entries returned by one read (the newest ones, oldest first). */
  maxAuditEntriesRead: 10_000,
  /** Nesting depth of application/json content. */
  maxJsonDepth: 32,
  /** Search query text, in characters. */
  maxQueryLength: 512,
  /** Retention bounds, in seconds. */
  minRetentionSeconds: 1,
  maxRetentionSeconds: 10 * 365 * 24 * 3600,
  /** Per-namespace search indexes kept in memory (others are rebuilt from SQLite on demand). */
  maxCachedIndexes: 128,
  /** Consolidation inputs recorded per consolidation (the newest ones). */
  maxConsolidationSources: 64,
} as const;

/** The reference is a single-environment deployment; namespaces still carry it. */
export const MEMORY_ENVIRONMENT = 'test';
