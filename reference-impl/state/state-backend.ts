/**
 * What the commit protocol needs from storage. The protocol's rules live in commit-protocol.ts
 * and reconciliation.ts as pure decisions; a backend supplies rows and atomicity: `transact`
 * reads one binding's snapshot, asks the decision, and persists the plan in one transaction
 * (head + revision + run metadata + pending interrupt together, contract step 5).
 *
 * Every method is async so a networked backend (MongoDB with majority writes) fits the same
 * interface; the SQLite backend answers synchronously inside its transaction.
 */
import type { CodecId, RunState } from '../../contract/state.js';

export interface BindingRow {
  readonly bindingId: string;
  readonly owner: string;
  readonly environment: string;
  readonly harness: string;
  readonly codec: CodecId;
  readonly epoch: number;
  readonly leaseGeneration: number;
  /** Stored state entries in the current epoch (bounded by maxPendingEntries). */
  readonly entries: number;
}

export interface SessionRow {
  /** sha-256 of the credential; the credential itself is never stored. */
  readonly credentialHash: string;
  readonly bindingId: string;
  readonly epoch: number;
  readonly leaseGeneration: number;
}

export interface PendingRow {
  readonly stateId: string;
  readonly bindingId: string;
  readonly epoch: number;
  readonly codec: CodecId;
  readonly idempotencyKey: string;
  readonly contentHash: string;
  readonly size: number;
  readonly bytes: Uint8Array;
  readonly createdAt: string;
}

export interface HeadRow {
  readonly bindingId: string;
  readonly epoch: number;
  readonly revision: number;
  readonly stateId: string;
  readonly runId: string;
  readonly runState: 'completed' | 'interrupted' | 'failed';
  readonly interruptId: string | null;
  readonly interruptValue: string | null;
  readonly committedAt: string;
}

export interface RunRow {
  readonly bindingId: string;
  readonly runId: string;
  readonly epoch: number;
  readonly state: RunState;
  readonly reason: string | null;
  readonly retainedRevision: number | null;
  readonly updatedAt: string;
}

/** Everything a commit-like decision reads, consistent as of one transaction. */
export interface CommitSnapshot {
  readonly binding: BindingRow;
  /** Head of the binding's current epoch. */
  readonly head: HeadRow | null;
  /** The named pending state, only if it belongs to the binding's current epoch. */
  readonly pending: PendingRow | null;
  readonly run: RunRow | null;
}

/** What a decision asks the backend to persist (all or nothing), and what to return. */
export interface CommitPlan<R> {
  readonly result: R;
  readonly head?: HeadRow;
  readonly run?: RunRow;
}

export type PutPendingResult =
  | { readonly kind: 'inserted'; readonly row: PendingRow }
  | { readonly kind: 'existing'; readonly row: PendingRow }
  | { readonly kind: 'entry_limit' }
  | { readonly kind: 'stale_scope' };

export interface StateBackend {
  /** Insert a binding unless the owner already holds `maxPerOwner`; false when at the bound. */
  createBinding(row: BindingRow, maxPerOwner: number): Promise<boolean>;
  getBinding(bindingId: string): Promise<BindingRow | null>;
  /**
   * Owner of a binding, synchronously (the memory pipeline checks episodic references inline).
   * Ownership never changes, so a networked backend can answer from a cache.
   */
  ownerOf(bindingId: string): string | null;
  /** Start a new epoch (entry count restarts at 0); null if the binding is unknown. */
  startEpoch(bindingId: string): Promise<BindingRow | null>;
  /**
   * Bump the lease generation and record the new session for it, forgetting sessions beyond
   * the newest `keepSessions`; null if the binding is unknown.
   */
  grantLease(bindingId: string, credentialHash: string, keepSessions: number): Promise<BindingRow | null>;
  findSession(credentialHash: string): Promise<SessionRow | null>;
  findPendingByKey(bindingId: string, epoch: number, idempotencyKey: string): Promise<PendingRow | null>;
  /**
   * Atomically: if the row's epoch or `leaseGeneration` is no longer current report
   * `stale_scope` (a lease fenced while the write was in flight); else if the key exists in
   * the epoch return it; else if the epoch holds `maxEntries` report `entry_limit`; else
   * insert and count it.
   */
  putPending(row: PendingRow, leaseGeneration: number, maxEntries: number): Promise<PutPendingResult>;
  /** Head of (binding, epoch) with its state row. */
  loadHead(bindingId: string, epoch: number): Promise<{ head: HeadRow; state: PendingRow } | null>;
  getRun(bindingId: string, runId: string): Promise<RunRow | null>;
  /**
   * Read the snapshot for (binding, stateId, runId), run `decide`, persist its plan: one
   * transaction. `decide` must be synchronous and pure; it may throw to abort with no writes.
   */
  transact<R>(
    key: { bindingId: string; stateId: string | null; runId: string },
    decide: (snapshot: CommitSnapshot) => CommitPlan<R>,
  ): Promise<R>;
  close(): void;
}
