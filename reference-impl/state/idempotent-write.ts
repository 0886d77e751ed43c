/**
 * Contract step 3: write native state as pending, idempotently per binding + epoch + key.
 * Same key and same bytes → the same PendingStateRef, however often and however concurrently
 * it is retried; same key with different bytes → `idempotency_key_reuse`, never an overwrite.
 * Bounds are checked before anything is stored; a duplicate costs no rate or entry budget.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ContractError } from '../../contract/errors.js';
import type { OpaqueStatePayload, PendingStateRef, StateLimits, StateScope } from '../../contract/state.js';
import { toPendingRef } from './durable-head.js';
import type { RateLimiter } from './rate-limiter.js';
import type { PendingRow, StateBackend } from './state-backend.js';

export interface WriteDeps {
  readonly backend: StateBackend;
  readonly limits: StateLimits;
  readonly rate: RateLimiter;
  readonly now: () => string;
}

function sameContent(p: PendingRow, contentHash: string, size: number): PendingStateRef {
  if (p.contentHash !== contentHash || p.size !== size) throw new ContractError('idempotency_key_reuse');
  return toPendingRef(p);
}

export async function writePending(
  deps: WriteDeps,
  scope: StateScope,
  codec: string,
  payload: OpaqueStatePayload,
  key: string,
): Promise<PendingStateRef> {
  if (codec !== scope.codec || payload.codec !== codec) throw new ContractError('codec_mismatch');
  if (payload.bytes.byteLength > deps.limits.maxPayloadBytes) throw new ContractError('payload_too_large');
  const contentHash = createHash('sha256').update(payload.bytes).digest('hex');
  const size = payload.bytes.byteLength;

  const existing = await deps.backend.findPendingByKey(scope.bindingId, scope.epoch, key);
  if (existing) return sameContent(existing, contentHash, size);

  if (!deps.rate.tryTake(scope.bindingId)) throw new ContractError('rate_limited');
  const row: PendingRow = {
    stateId: `st_${randomBytes(16).toString('hex')}`,
    bindingId: scope.bindingId,
    epoch: scope.epoch,
    codec,
    idempotencyKey: key,
    contentHash,
    size,
    bytes: new Uint8Array(payload.bytes), // copy: the caller may reuse its buffer
    createdAt: deps.now(),
  };
  const put = await deps.backend.putPending(row, scope.leaseGeneration, deps.limits.maxPendingEntries);
  switch (put.kind) {
    case 'inserted':
      return toPendingRef(put.row);
    case 'existing': // a concurrent duplicate got there first
      return sameContent(put.row, contentHash, size);
    case 'entry_limit':
      throw new ContractError('entry_limit');
    case 'stale_scope': {
      const b = await deps.backend.getBinding(scope.bindingId);
      throw new ContractError(b && b.epoch !== scope.epoch ? 'epoch_mismatch' : 'stale_lease');
    }
  }
}
