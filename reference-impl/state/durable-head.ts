/** Row → contract conversions for heads and pending refs (the only shapes callers ever see). */
import type { DurableStateHead, PendingStateRef } from '../../contract/state.js';
import type { HeadRow, PendingRow } from './state-backend.js';

export function toPendingRef(p: PendingRow): PendingStateRef {
  return {
    stateId: p.stateId,
    bindingId: p.bindingId,
    epoch: p.epoch,
    codec: p.codec,
    idempotencyKey: p.idempotencyKey,
    contentHash: p.contentHash,
    size: p.size,
  };
}

export function toDurableHead(h: HeadRow, p: PendingRow): DurableStateHead {
  return {
    bindingId: h.bindingId,
    epoch: h.epoch,
    revision: h.revision,
    state: toPendingRef(p),
    payload: { codec: p.codec, bytes: new Uint8Array(p.bytes) },
    runId: h.runId,
    runState: h.runState,
    interrupt: h.interruptId === null ? null : { interruptId: h.interruptId, value: h.interruptValue ?? '' },
    committedAt: h.committedAt,
  };
}
