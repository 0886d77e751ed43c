/**
 * Thread state, as the contract's ThreadStateStore states it. A StateScope names exactly one
 * binding, epoch, codec and lease generation; the target derives the real scope from the
 * worker's lease credential and rejects any scope that differs from it in any field.
 */

/** A native codec id with its version, e.g. `scripted/v1`. */
export type CodecId = string;

export interface StateScope {
  readonly bindingId: string;
  readonly environment: string;
  readonly harness: string;
  readonly epoch: number;
  /** Adapter/codec id and version, e.g. `scripted/v1`. */
  readonly codec: CodecId;
  readonly leaseGeneration: number;
}

/** The fields of a StateScope, in contract order (suites mutate each of them). */
export const STATE_SCOPE_FIELDS = ['bindingId', 'environment', 'harness', 'epoch', 'codec', 'leaseGeneration'] as const;
export type StateScopeField = (typeof STATE_SCOPE_FIELDS)[number];

/** Native checkpoint bytes: opaque to everyone but the harness that wrote them. */
export interface OpaqueStatePayload {
  readonly codec: CodecId;
  readonly bytes: Uint8Array;
}

/** What write_native_state returns: a reference to pending (not yet durable) state. */
export interface PendingStateRef {
  readonly stateId: string;
  readonly bindingId: string;
  readonly epoch: number;
  readonly codec: CodecId;
  readonly idempotencyKey: string;
  /** Lowercase hex sha-256 of the payload bytes. */
  readonly contentHash: string;
  readonly size: number;
}

/** A run paused for input; persisted with the head in the same logical commit. */
export interface PendingInterrupt {
  readonly interruptId: string;
  /** Opaque, harness-defined; bounded like payloads. */
  readonly value: string;
}

export const RUN_STATES = [
  'running',
  'completed',
  'interrupted',
  'failed',
  'uncertain_durability',
  'reconciled',
] as const;
export type RunState = (typeof RUN_STATES)[number];

/** Terminal metadata committed with the head (contract step 5). */
export interface CommitOptions {
  /** Defaults to `completed` when no interrupt is given, else `interrupted`. */
  readonly runState?: 'completed' | 'interrupted' | 'failed';
  readonly interrupt?: PendingInterrupt | null;
}

export interface DurableStateHead {
  readonly bindingId: string;
  readonly epoch: number;
  /** Starts at 1 for the first commit of an epoch; 0 means "no head" in expected revisions. */
  readonly revision: number;
  readonly state: PendingStateRef;
  readonly payload: OpaqueStatePayload;
  readonly runId: string;
  readonly runState: 'completed' | 'interrupted' | 'failed';
  readonly interrupt: PendingInterrupt | null;
  /** ISO-8601. */
  readonly committedAt: string;
}

export interface RunRecord {
  readonly runId: string;
  readonly state: RunState;
  /** Fixed reason code given to mark_uncertain / reconcile; never free text from a worker. */
  readonly reason: string | null;
  /** Revision of the head that was durable when the run was fenced (for audits). */
  readonly retainedRevision: number | null;
}

/** Explicit reconciliation of an `uncertain_durability` run (no automatic replay). */
export type Reconciliation =
  | { readonly action: 'keep_previous' }
  | { readonly action: 'commit_pending'; readonly pending: PendingStateRef; readonly expectedDurableRevision: number };

export interface ThreadStateStore {
  load_head(scope: StateScope): Promise<DurableStateHead | null>;
  write_native_state(
    scope: StateScope,
    codec: CodecId,
    payload: OpaqueStatePayload,
    idempotency_key: string,
  ): Promise<PendingStateRef>;
  commit_head(
    scope: StateScope,
    pending: PendingStateRef,
    expected_durable_revision: number,
    run_id: string,
    options?: CommitOptions,
  ): Promise<DurableStateHead>;
  mark_uncertain(scope: StateScope, run_id: string, reason: string): Promise<void>;

  // Certification extensions: the contract requires "explicit idempotency reconciliation";
  // these are the operations that make it observable and explicit.
  run_status(scope: StateScope, run_id: string): Promise<RunRecord | null>;
  reconcile(scope: StateScope, run_id: string, resolution: Reconciliation): Promise<RunRecord>;
}

/**
 * A target's thread-state bounds, declared so suites can test them without knowing the
 * implementation. Each bound has its own error: `payload_too_large`, `entry_limit`, `rate_limited`.
 */
export interface StateLimits {
  /** Largest accepted payload, in bytes (exactly this many is accepted). */
  readonly maxPayloadBytes: number;
  /** Stored state entries (distinct idempotency keys) per binding and epoch. */
  readonly maxPendingEntries: number;
  /**
   * New pending writes per second per binding, sustained; a burst of this many is allowed, so
   * in any window of `s` seconds at most `maxWritesPerSecond * (1 + s)` writes are accepted.
   */
  readonly maxWritesPerSecond: number;
}

/** Reason codes accepted by mark_uncertain. Free text is refused so it can't carry secrets. */
export const UNCERTAIN_REASONS = [
  'write_failed_after_output',
  'commit_failed_after_output',
  'worker_lost_after_output',
  'control_plane_lost_after_output',
] as const;
export type UncertainReason = (typeof UNCERTAIN_REASONS)[number];
