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

/** One input of a consolidation: a stored revision, or the incoming proposal (`revision: null`). */
export interface MemorySourceRef {
  readonly revision: number | null;
  /** Principal id of whoever wrote that input. */
  readonly writer: string;
  /** Lowercase hex sha-256 of that input's (post-redaction) content. */
  readonly contentHash: string;
}

export interface MemoryProvenance {
  /** Principal id of the writer (never the raw subject). */
  readonly writer: string;
  readonly agent: string;
  /** Revisions this content was derived from (consolidation lists every source). */
  readonly sourceRevisions: readonly number[];
  /** Writer and content hash of every consolidation input (empty for a plain write). */
  readonly sources: readonly MemorySourceRef[];
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
  /** Search score when returned by search (higher is more relevant; R05.13 judges the order by it), else undefined. */
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
  'approval_rejected',
] as const;
export type MemoryRejectionReason = (typeof MEMORY_REJECTION_REASONS)[number];

export type MemoryWriteOutcome =
  | { readonly status: 'written'; readonly record: MemoryRecord }
  | { readonly status: 'consolidated'; readonly record: MemoryRecord }
  | { readonly status: 'deleted'; readonly key: string; readonly revision: number }
  | { readonly status: 'pending_approval'; readonly approvalId: string }
  | { readonly status: 'conflict'; readonly currentRevision: number }
  | { readonly status: 'rejected'; readonly reasons: readonly MemoryRejectionReason[] };

/**
 * Semantics every target follows (suites rely on them):
 * - `put` with `expected_revision: null` creates (conflict if the key holds a live record);
 *   an integer n >= 1 updates revision n. Revisions of a key only grow, also across deletes.
 * - `conflict.currentRevision` is the live revision, 0 when the key holds nothing.
 * - Content problems come back as `rejected` outcomes with reasons; authorization and argument
 *   problems (wrong types, bad scope, bad limit, unknown agent) throw a ContractError
 *   (`forbidden`, `read_only_scope`, `scope_violation`, `unauthenticated`, `invalid_argument`).
 */
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
  /**
   * Why the write waits, as fixed codes the approver can act on (e.g. the key's approval path,
   * or a quarantine finding such as `suspect_hidden_instruction`). Optional: older targets omit it.
   */
  readonly reasons?: readonly string[];
}

export interface Approvals {
  /** Pending approvals the principal may decide on. */
  list(approver: Principal): Promise<readonly PendingApproval[]>;
  decide(approver: Principal, approvalId: string, decision: 'approve' | 'reject'): Promise<MemoryWriteOutcome>;
}

export interface AuditEntry {
  readonly at: string;
  readonly actor: string;
  /** `get` / `search` entries record refused reads only (bad input, authorization). */
  readonly operation: 'put' | 'delete' | 'approve' | 'reject' | 'consolidate' | 'expire' | 'get' | 'search';
  /** null when the request named no valid scope. */
  readonly scope: MemoryScopeKind | null;
  readonly key: string;
  readonly outcome: MemoryWriteOutcome['status'] | 'error';
  readonly revision: number | null;
  readonly contentHash: string | null;
  readonly reasons: readonly string[];
}

/**
 * The write policy and bounds a target declares, so suites can exercise them without knowing
 * the implementation (e.g. which keys need approval, the largest accepted search limit).
 */
export interface MemoryPolicy {
  /** Keys starting with this prefix need human approval before they become visible. */
  readonly approvalKeyPrefix: string;
  /** Keys under this prefix are operator-owned skills: never writable through memory. */
  readonly protectedKeyPrefix: string;
  /** Largest accepted search limit (limits must be integers in 1..maxSearchLimit). */
  readonly maxSearchLimit: number;
  /** Largest accepted content, in UTF-8 bytes (exactly this many is accepted). */
  readonly maxContentBytes: number;
  /** Longest accepted key, in characters. */
  readonly maxKeyLength: number;
  /** Name of the declared consolidation policy run for `onConflict: 'consolidate'`. */
  readonly consolidationPolicy: string;
  /**
   * The scope's default retention policy, applied when a proposal omits `retentionSeconds`:
   * seconds from the write, or null for no expiry. Optional (older targets omit it); a scope
   * left out is not declared.
   */
  readonly defaultRetentionSeconds?: Readonly<Partial<Record<MemoryScopeKind, number | null>>>;
}

export interface Audit {
  /** Audit entries of the namespace the principal (an admin) may read, oldest first. */
  memory(reader: Principal, filter?: { readonly key?: string }): Promise<readonly AuditEntry[]>;
}
