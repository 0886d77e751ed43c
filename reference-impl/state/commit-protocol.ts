/**
 * Contract steps 4–5 as one decision over a consistent snapshot: compare-and-set the
 * binding's durable head and revision, and persist run metadata and the pending interrupt in
 * the same transaction. Pure and synchronous, so the backend can run it inside its
 * transaction and any rejection leaves nothing written.
 *
 *  - a run that was marked uncertain (or reconciled) is fenced: it can never commit again;
 *  - the pending ref must be exactly a state written in this binding's *current* epoch and
 *    codec, so an old epoch's state can never become the new epoch's head;
 *  - a lost-response retry (same pending, same run, expected = current − 1, and the head is
 *    already that state from that run) returns the same head: the revision moved once;
 *  - otherwise the expected revision must equal the current one (0 = no head yet).
 */
import { ContractError } from '../../contract/errors.js';
import type { DurableStateHead, PendingStateRef, StateScope } from '../../contract/state.js';
import { toDurableHead } from './durable-head.js';
import type { ValidCommitOptions } from './input-validation.js';
import { assertStillCurrent } from './scope-guard.js';
import type { CommitPlan, CommitSnapshot, HeadRow, PendingRow, RunRow } from './state-backend.js';

export interface CommitRequest {
  readonly scope: StateScope;
  readonly pending: PendingStateRef;
  readonly expectedRevision: number;
  readonly runId: string;
  readonly options: ValidCommitOptions;
  readonly now: string;
}

export function isFencedRun(run: RunRow | null): boolean {
  return run !== null && (run.state === 'uncertain_durability' || run.state === 'reconciled');
}

/** The stored state the ref names, if the ref is exact and belongs to the scope's epoch and codec. */
export function resolvePending(scope: StateScope, ref: PendingStateRef, snap: CommitSnapshot): PendingRow {
  const p = snap.pending;
  if (
    !p ||
    ref.bindingId !== scope.bindingId ||
    ref.epoch !== scope.epoch ||
    ref.codec !== scope.codec ||
    p.bindingId !== ref.bindingId ||
    p.epoch !== ref.epoch ||
    p.codec !== ref.codec ||
    p.idempotencyKey !== ref.idempotencyKey ||
    p.contentHash !== ref.contentHash ||
    p.size !== ref.size
  ) {
    throw new ContractError('pending_not_found');
  }
  return p;
}

/** CAS of the head; returns the plan (new head, or the unchanged head for a lost-response retry). */
export function planHeadSwap(
  req: CommitRequest,
  snap: CommitSnapshot,
  state: PendingRow,
): { head: DurableStateHead; row: HeadRow | null } {
  const current = snap.head?.revision ?? 0;
  if (
    snap.head &&
    snap.head.stateId === state.stateId &&
    snap.head.runId === req.runId &&
    req.expectedRevision === current - 1
  ) {
    return { head: toDurableHead(snap.head, state), row: null };
  }
  if (req.expectedRevision !== current) throw new ContractError('revision_conflict');
  const row: HeadRow = {
    bindingId: snap.binding.bindingId,
    epoch: snap.binding.epoch,
    revision: current + 1,
    stateId: state.stateId,
    runId: req.runId,
    runState: req.options.runState,
    interruptId: req.options.interrupt?.interruptId ?? null,
    interruptValue: req.options.interrupt?.value ?? null,
    committedAt: req.now,
  };
  return { head: toDurableHead(row, state), row };
}

export function decideCommit(req: CommitRequest, snap: CommitSnapshot): CommitPlan<DurableStateHead> {
  assertStillCurrent(req.scope, snap.binding);
  if (isFencedRun(snap.run)) throw new ContractError('fenced');
  const state = resolvePending(req.scope, req.pending, snap);
  const { head, row } = planHeadSwap(req, snap, state);
  if (!row) return { result: head };
  return {
    result: head,
    head: row,
    run: {
      bindingId: snap.binding.bindingId,
      runId: req.runId,
      epoch: snap.binding.epoch,
      state: req.options.runState,
      reason: null,
      retainedRevision: null,
      updatedAt: req.now,
    },
  };
}
