/**
 * Ambiguous crashes (contract: "mark the run uncertain_durability, retain the previous durable
 * head, fence the run, and require explicit idempotency reconciliation"). Marking fences the
 * run for good; only `reconcile` resolves it — by keeping the previous head, or by committing
 * a pending state under the same compare-and-set as any commit. Nothing is replayed.
 */
import { ContractError } from '../../contract/errors.js';
import type { Reconciliation, RunRecord, StateScope, UncertainReason } from '../../contract/state.js';
import { planHeadSwap, resolvePending } from './commit-protocol.js';
import { assertStillCurrent } from './scope-guard.js';
import type { CommitPlan, CommitSnapshot, RunRow } from './state-backend.js';

export function toRunRecord(r: RunRow): RunRecord {
  return { runId: r.runId, state: r.state, reason: r.reason, retainedRevision: r.retainedRevision };
}

export function decideMarkUncertain(
  req: { scope: StateScope; runId: string; reason: UncertainReason; now: string },
  snap: CommitSnapshot,
): CommitPlan<void> {
  assertStillCurrent(req.scope, snap.binding);
  if (snap.run?.state === 'reconciled') throw new ContractError('fenced', 'the run is already reconciled');
  // Marking twice keeps the first reason and retained revision: the first report is the one audited.
  if (snap.run?.state === 'uncertain_durability') return { result: undefined };
  return {
    result: undefined,
    run: {
      bindingId: snap.binding.bindingId,
      runId: req.runId,
      epoch: snap.binding.epoch,
      state: 'uncertain_durability',
      reason: req.reason,
      retainedRevision: snap.head?.revision ?? 0,
      updatedAt: req.now,
    },
  };
}

export function decideReconcile(
  req: { scope: StateScope; runId: string; resolution: Reconciliation; now: string },
  snap: CommitSnapshot,
): CommitPlan<RunRecord> {
  assertStillCurrent(req.scope, snap.binding);
  const run = snap.run;
  if (!run) throw new ContractError('not_found', 'no such run');
  // A retried reconcile whose response was lost gets the same record back.
  if (run.state === 'reconciled') return { result: toRunRecord(run) };
  if (run.state !== 'uncertain_durability') throw new ContractError('not_found', 'the run is not uncertain');

  const resolved: RunRow = { ...run, state: 'reconciled', reason: req.resolution.action, updatedAt: req.now };
  if (req.resolution.action === 'keep_previous') return { result: toRunRecord(resolved), run: resolved };

  const r = req.resolution;
  const state = resolvePending(req.scope, r.pending, snap);
  const { row } = planHeadSwap(
    {
      scope: req.scope,
      pending: r.pending,
      expectedRevision: r.expectedDurableRevision,
      runId: req.runId,
      options: { runState: 'completed', interrupt: null },
      now: req.now,
    },
    snap,
    state,
  );
  return row
    ? { result: toRunRecord(resolved), head: row, run: resolved }
    : { result: toRunRecord(resolved), run: resolved };
}
