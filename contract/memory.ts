/**
 * Long-term memory, as the contract's MemoryBroker states it. A broker is always obtained
 * for an authenticated principal and agent (`Target.memory(principal, agent)`); the
 * namespace is computed from them. A MemoryScope names only the scope kind: a caller that
 * also claims a subject or organization other than its own is rejected (`scope_violation`).
 */
import type { Principal } from './principals.js';

export const MEMORY_SCOPE_KINDS = ['user', 'agent', 'organization'] as const;
export type MemoryScopeKind = (typeof MEMORY_SCOPE_KINDS)[number];

export interface MemoryScope {
  readonly kind: MemoryScopeKind;
  /** Claims a caller may try to make; a conforming target ignores matching ones and rejects others. */
  readonly subject?: string;
  readonly organization?: string;
}

export const MEMORY_KINDS = ['semantic', 'episodic_reference', 'procedural'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

export const MEMORY_CONTENT_TYPES = ['text/plain', 'application/json'] as const;
export type MemoryContentType = (typeof MEMORY_CONTENT_TYPES)[number];

export type ApprovalState = 'not_required' | 'pending' | 'approved' | 'rejected';

export interface MemoryApproval {
  readonly state: ApprovalState;
  /** Principal id of the approver, when approved/rejected. */
  readonly approver: string | null;
  readonly decidedAt: string | null;
}

export interface MemoryProvenance {
  /** Principal id of the writer (never the raw subject). */
  readonly writer: string;
  readonly agent: string;
  /** Revisions this content was derived from (consolidation lists every source). */
  readonly sourceRevisions: readonly number[];
  /** Lowercase hex sha-256 of the persisted (post-redaction) content. */
  readonly contentHash: string;
  readonly approval: MemoryApproval;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Pipeline findings applied to this content (e.g. `secret_redacted`). */
  readonly findings: readonly string[];
}

export interface MemoryRecord {
  readonly scope: MemoryScopeKind;
  readonly key: string;
  readonly kind: MemoryKind;
  readonly content: string;
  readonly contentType: MemoryContentType;
  readonly revision: number;
  /** ISO-8601, or null for no expiry. */
  readonly expiresAt: string | null;
  readonly provenance: MemoryProvenance;
  /** Search score when returned by search, else undefined. */
  readonly score?: number;
}

/** Reference carried by an `episodic_reference` proposal: never a raw transcript. */
export interface EpisodicSource {
  readonly bindingId: string;
  readonly epoch: number;
  readonly revision: number;
}

export interface MemoryProposal {
  readonly key: string;
  readonly kind: MemoryKind;
  readonly content: string;
  readonly contentType: MemoryContentType;
  /** Retention in seconds from now; omitted = the scope's default policy. */
  readonly retentionSeconds?: number;
  /** Required for `episodic_reference`. */
  readonly source?: EpisodicSource;
  /**
   * When the expected revision is stale: `reject` (default) returns a conflict; `consolidate`
   * asks the broker to run its declared consolidation policy.
   */
  readonly onConflict?: 'reject' | 'consolidate';
}

export interface MemoryQuery {
  readonly text: string;
  readonly kinds?: readonly MemoryKind[];
}

export const MEMORY_REJECTION_REASONS = [
  'invalid_key',
  'invalid_kind',
  'invalid_content_type',
  'content_too_large',
  'invalid_content',
  'invalid_retention',
  'authority_broadening',
  'injection',
  'cross_scope',
  'raw_transcript',
  'unreadable_source',
  'protected_skill',
] as const;
export type MemoryRejectionReason = (typeof MEMORY_REJECTION_REASONS)[number];

export type MemoryWriteOutcome =
  | { readonly status: 'written'; readonly record: MemoryRecord }
  | { readonly status: 'consolidated'; readonly record: MemoryRecord }
  | { readonly status: 'deleted'; readonly key: string; readonly revision: number }
  | { readonly status: 'pending_approval'; readonly approvalId: string }
  | { readonly status: 'conflict'; readonly currentRevision: number }
  | { readonly status: 'rejected'; readonly reasons: readonly MemoryRejectionReason[] };

export interface MemoryBroker {
  get(scope: MemoryScope, key: string): Promise<MemoryRecord | null>;
  search(scope: MemoryScope, query: MemoryQuery, limit: number): Promise<readonly MemoryRecord[]>;
  put(scope: MemoryScope, proposal: MemoryProposal, expected_revision: number | null): Promise<MemoryWriteOutcome>;
  delete(scope: MemoryScope, key: string, expected_revision: number): Promise<MemoryWriteOutcome>;
}

export interface PendingApproval {
  readonly approvalId: string;
  readonly scope: MemoryScopeKind;
  readonly key: string;
  readonly writer: string;
  readonly contentHash: string;
}

export interface Approvals {
  /** Pending approvals the principal may decide on. */
  list(approver: Principal): Promise<readonly PendingApproval[]>;
  decide(approver: Principal, approvalId: string, decision: 'approve' | 'reject'): Promise<MemoryWriteOutcome>;
}

export interface AuditEntry {
  readonly at: string;
  readonly actor: string;
  readonly operation: 'put' | 'delete' | 'approve' | 'reject' | 'consolidate' | 'expire';
  readonly scope: MemoryScopeKind;
  readonly key: string;
  readonly outcome: MemoryWriteOutcome['status'] | 'error';
  readonly revision: number | null;
  readonly contentHash: string | null;
  readonly reasons: readonly string[];
}

export interface Audit {
  /** Audit entries of the namespace the principal (an admin) may read, oldest first. */
  memory(reader: Principal, filter?: { readonly key?: string }): Promise<readonly AuditEntry[]>;
}
