/**
 * The binding-scoped facade one worker session talks to: the contract's ThreadStateStore.
 * Every call authenticates the session credential again (a lease can be superseded or its
 * epoch cleared at any moment), validates its arguments before touching storage, and passes
 * named failpoints before and after each protocol step so faults can be injected between them.
 */
import { ContractError, isErrorCode } from '../../contract/errors.js';
import type {
  CodecId,
  CommitOptions,
  DurableStateHead,
  OpaqueStatePayload,
  PendingStateRef,
  Reconciliation,
  RunRecord,
  StateLimits,
  StateScope,
  ThreadStateStore,
} from '../../contract/state.js';
import type { AdjustableClock } from '../platform/clock.js';
import type { Failpoints } from '../platform/failpoints.js';
import { decideCommit } from './commit-protocol.js';
import { toDurableHead } from './durable-head.js';
import { writePending } from './idempotent-write.js';
import {
  validateCodec,
  validateCommitOptions,
  validateIdempotencyKey,
  validatePayload,
  validatePendingRef,
  validateReconciliation,
  validateRevision,
  validateRunId,
  validateUncertainReason,
} from './input-validation.js';
import type { RateLimiter } from './rate-limiter.js';
import { decideMarkUncertain, decideReconcile, toRunRecord } from './reconciliation.js';
import type { ScopeGuard } from './scope-guard.js';
import type { StateBackend } from './state-backend.js';

export interface StoreDeps {
  readonly backend: StateBackend;
  readonly guard: ScopeGuard;
  readonly limits: StateLimits;
  readonly rate: RateLimiter;
  readonly failpoints: Failpoints;
  readonly clock: AdjustableClock;
}

/** Failpoint names, one before and one after each step (documented for the fault drivers). */
export const STATE_FAILPOINTS = [
  'state.load.before',
  'state.write.before',
  'state.write.after',
  'state.commit.before',
  'state.commit.after',
  'state.uncertain.before',
  'state.uncertain.after',
  'state.reconcile.before',
  'state.reconcile.after',
] as const;
type StateFailpoint = (typeof STATE_FAILPOINTS)[number];

export class ReferenceThreadStateStore implements ThreadStateStore {
  constructor(
    private readonly deps: StoreDeps,
    private readonly session: unknown,
  ) {}

  async load_head(scope: StateScope): Promise<DurableStateHead | null> {
    const { scope: s } = await this.deps.guard.authorize(this.session, scope);
    await this.point('state.load.before');
    const found = await this.deps.backend.loadHead(s.bindingId, s.epoch);
    return found ? toDurableHead(found.head, found.state) : null;
  }

  async write_native_state(
    scope: StateScope,
    codec: CodecId,
    payload: OpaqueStatePayload,
    idempotency_key: string,
  ): Promise<PendingStateRef> {
    const { scope: s } = await this.deps.guard.authorize(this.session, scope);
    const c = validateCodec(codec);
    const p = validatePayload(payload);
    const key = validateIdempotencyKey(idempotency_key);
    await this.point('state.write.before');
    const ref = await writePending(
      { backend: this.deps.backend, limits: this.deps.limits, rate: this.deps.rate, now: () => this.deps.clock.iso() },
      s,
      c,
      p,
      key,
    );
    await this.point('state.write.after');
    return ref;
  }

  async commit_head(
    scope: StateScope,
    pending: PendingStateRef,
    expected_durable_revision: number,
    run_id: string,
    options?: CommitOptions,
  ): Promise<DurableStateHead> {
    const { scope: s } = await this.deps.guard.authorize(this.session, scope);
    const ref = validatePendingRef(pending);
    const expectedRevision = validateRevision(expected_durable_revision);
    const runId = validateRunId(run_id);
    const opts = validateCommitOptions(options);
    await this.point('state.commit.before');
    const now = this.deps.clock.iso();
    const head = await this.deps.backend.transact({ bindingId: s.bindingId, stateId: ref.stateId, runId }, (snap) =>
      decideCommit(
        {
          scope: s,
          pending: ref,
          expectedRevision,
          runId,
          options: opts,
          now,
        },
        snap,
      ),
    );
    await this.point('state.commit.after');
    return head;
  }

  async mark_uncertain(scope: StateScope, run_id: string, reason: string): Promise<void> {
    const { scope: s } = await this.deps.guard.authorize(this.session, scope);
    const runId = validateRunId(run_id);
    const r = validateUncertainReason(reason);
    await this.point('state.uncertain.before');
    const now = this.deps.clock.iso();
    await this.deps.backend.transact({ bindingId: s.bindingId, stateId: null, runId }, (snap) =>
      decideMarkUncertain({ scope: s, runId, reason: r, now }, snap),
    );
    await this.point('state.uncertain.after');
  }

  async run_status(scope: StateScope, run_id: string): Promise<RunRecord | null> {
    const { scope: s } = await this.deps.guard.authorize(this.session, scope);
    const runId = validateRunId(run_id);
    const run = await this.deps.backend.getRun(s.bindingId, runId);
    return run ? toRunRecord(run) : null;
  }

  async reconcile(scope: StateScope, run_id: string, resolution: Reconciliation): Promise<RunRecord> {
    const { scope: s } = await this.deps.guard.authorize(this.session, scope);
    const runId = validateRunId(run_id);
    const res = validateReconciliation(resolution);
    await this.point('state.reconcile.before');
    const now = this.deps.clock.iso();
    const stateId = res.action === 'commit_pending' ? res.pending.stateId : null;
    const record = await this.deps.backend.transact({ bindingId: s.bindingId, stateId, runId }, (snap) =>
      decideReconcile({ scope: s, runId, resolution: res, now }, snap),
    );
    await this.point('state.reconcile.after');
    return record;
  }

  /** A failpoint's `return(x)` fails the step with code x (or `unavailable` for any other value). */
  private async point(name: StateFailpoint): Promise<void> {
    const outcome = await this.deps.failpoints.evaluate(name);
    if (outcome.fail) {
      throw new ContractError(
        typeof outcome.value === 'string' && isErrorCode(outcome.value) ? outcome.value : 'unavailable',
        'injected by failpoint',
      );
    }
  }
}
