/**
 * R03 — idempotent writes under real concurrency, checked as a history.
 *
 * Several clients write a few fresh idempotency keys at the same time — duplicates of one write and
 * writes of other bytes under the same key — with nothing ordering them, while failpoints make
 * some writes land with their answer lost (the client retries). Every invocation and completion
 * is recorded and the history is checked by a linearizability checker (porcupine) against the
 * contract's model of idempotent writes: a map whose key, once set, keeps its bytes and its ref
 * (same bytes → the same ref; other bytes → `idempotency_key_reuse`; a bound may refuse a new
 * key, never the retry of an accepted write). The history and, when it fails, the checker's
 * visualisation go to the report directory.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PendingStateRef } from '../contract/state.js';
import { expectLinearizable, needHistoryChecker } from '../fixtures/history/check-history.js';
import { runClients, runRounds, withFailpoints } from '../fixtures/history/concurrent-clients.js';
import { HistoryRecorder } from '../fixtures/history/history.js';
import { fcParams } from '../fixtures/properties/fc-params.js';
import { needCapability, unsupportedByTarget } from '../fixtures/scenario/need.js';
import { CODEC, openThread, payload, type ThreadSession } from '../fixtures/scenario/thread-session.js';
import { useTarget } from '../fixtures/targets/use-target.js';

/** Small bounds, so the clause about spent bounds can spend them quickly. */
const BOUND = 6;
const t = useTarget({ options: { stateLimits: { maxPendingEntries: BOUND, maxWritesPerSecond: BOUND } } });

const CLIENTS = 4;
// Two fresh keys a round: within the write-rate burst, so the first writes of a key are not refused.
const ROUNDS = 3;

/** What the model compares: every field of the ref (a different stateId is a different ref). */
function refOf(r: PendingStateRef): string {
  return [r.stateId, r.bindingId, r.epoch, r.codec, r.idempotencyKey, r.contentHash, r.size].join('|');
}

function writeOp(rec: HistoryRecorder, th: ThreadSession, client: number, key: string, content: string) {
  return rec.record(
    client,
    { key: `${th.bindingId}/${th.scope.epoch}/${key}`, op: 'write', value: content },
    () => th.store.write_native_state(th.scope, CODEC, payload(content), key),
    (ref) => ({ status: 'ok', ref: refOf(ref) }),
  );
}

/** A write; when its answer is lost the client retries it (each attempt is in the history). */
async function writeWithRetry(rec: HistoryRecorder, th: ThreadSession, client: number, key: string, content: string) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const r = await writeOp(rec, th, client, key, content);
    if (r.ok || r.answered) return r;
  }
  return null;
}

/** Per round and client: which of two fresh keys it writes, and whether with the common bytes. */
const planArb = fc.array(
  fc.record({
    key: fc.nat({ max: 1 }),
    // Mostly duplicates of one write, sometimes other bytes under the same key.
    variant: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constant(1) }),
  }),
  { minLength: CLIENTS * ROUNDS, maxLength: CLIENTS * ROUNDS },
);

describe('R03 concurrent clients: the history of idempotent writes is linearizable', () => {
  it('R03.30 duplicates and conflicting writes from concurrent clients, some answers lost, keep each key’s first bytes and ref', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const bin = await needHistoryChecker(ctx);
    const target = t();
    await fc.assert(
      fc.asyncProperty(planArb, async (plan) => {
        const th = await openThread(target);
        const rec = new HistoryRecorder('idempotent-map');
        // Some writes land and lose their answer; the client retries them.
        await withFailpoints(
          target.capabilities.failpoints ? target.faults : undefined,
          { 'state.write.after': '3*return("unavailable")' },
          () =>
            runRounds(CLIENTS, ROUNDS, async (c, round) => {
              const op = plan[round * CLIENTS + c]!;
              // Fresh keys each round: a key's first writes are the ones that race.
              await writeWithRetry(
                rec,
                th,
                c,
                `r${round}k${op.key}`,
                `round-${round}-key-${op.key}-bytes-${op.variant}`,
              );
            }),
        );
        await expectLinearizable(bin, 'R03.30-idempotent-writes', rec.history);
      }),
      fcParams(4, { endOnFailure: true, includeErrorInReport: true }),
    );
  });

  it('R03.31 with the entry and rate bounds spent, retries of accepted writes (one whose answer was lost) get their ref; new keys are refused', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const bin = await needHistoryChecker(ctx);
    const target = t();
    const limits = target.stateLimits;
    if (!limits) return unsupportedByTarget(ctx, `target "${target.name}" does not declare stateLimits`);
    const spend = Math.min(limits.maxPendingEntries, limits.maxWritesPerSecond);
    if (spend > 64) return unsupportedByTarget(ctx, 'entry and rate bounds above 64 are too large to spend here');
    const th = await openThread(target);
    const rec = new HistoryRecorder('idempotent-map');

    // Spend the bound: accepted writes up to it, the last one landing with its answer lost.
    for (let i = 0; i < spend - 1; i++) {
      expect((await writeOp(rec, th, 0, `e${i}`, `entry-${i}`)).ok).toBe(true);
    }
    // (Without failpoints the last write is simply answered; the retries below still test the bound.)
    await withFailpoints(
      target.capabilities.failpoints ? target.faults : undefined,
      { 'state.write.after': '1*return("unavailable")' },
      () => writeOp(rec, th, 0, 'last', 'the last entry'),
    );

    // Retries of every accepted write, the lost one, new keys and other bytes — all at once.
    const refusedNew: string[] = [];
    await runClients(CLIENTS, async (c) => {
      for (let i = c; i < spend + 4; i += CLIENTS) {
        if (i < spend - 1) await writeOp(rec, th, c, `e${i}`, `entry-${i}`);
        else if (i === spend - 1) await writeOp(rec, th, c, 'last', 'the last entry');
        else if (i === spend) await writeOp(rec, th, c, 'last', 'other bytes');
        else {
          const r = await writeOp(rec, th, c, `new${i}`, `new-${i}`);
          if (!r.ok) refusedNew.push((r.error as { code?: string }).code ?? 'thrown');
          else refusedNew.push('accepted');
        }
      }
      // The lost write's retry, again from every client.
      await writeOp(rec, th, c, 'last', 'the last entry');
    });
    await expectLinearizable(bin, 'R03.31-bound-spent-retries', rec.history);
    // A new key past the spent bound is refused by a bound (the model allows either answer).
    for (const code of refusedNew) expect(['entry_limit', 'rate_limited']).toContain(code);
  });
});
