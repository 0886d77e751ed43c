/**
 * R02 — the durable head under real concurrency, checked as a history.
 *
 * Several workers on one binding run the commit protocol at the same time with nothing
 * ordering them — load the head, write pending state, compare-and-set on the revision they
 * loaded, and on a conflict start over — while a failpoint makes some commits land with
 * their answer lost (the worker retries the very same commit). Every load and commit is
 * recorded, and a linearizability checker (porcupine) checks the history against the
 * contract's model of the head: a compare-and-set register per binding and epoch (a commit
 * succeeds iff its expected revision is the current one, moving it by exactly one; a load
 * returns the last successful commit; a retry of the commit that landed answers that head).
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { expectLinearizable, needHistoryChecker } from '../fixtures/history/check-history.js';
import { runRounds, withFailpoints } from '../fixtures/history/concurrent-clients.js';
import { HistoryRecorder } from '../fixtures/history/history.js';
import { fcParams } from '../fixtures/properties/fc-params.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { CODEC, openThread, payload, type ThreadSession } from '../fixtures/scenario/thread-session.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const t = useTarget();

const ROUNDS = 3;

/**
 * One worker's round of the protocol: load, write, compare-and-set on the loaded revision (a
 * commit whose answer was lost is retried as the very same commit); on a conflict, again.
 */
async function workerRound(rec: HistoryRecorder, th: ThreadSession, c: number, round: number) {
  const key = `${th.bindingId}/${th.scope.epoch}`;
  for (let attempt = 0; attempt < 3; attempt++) {
    const loaded = await rec.record(
      c,
      { key, op: 'load' },
      () => th.store.load_head(th.scope),
      (h) => ({ status: 'ok', version: h?.revision ?? 0, value: h?.state.stateId ?? '' }),
    );
    if (!loaded.ok) continue;
    const expected = loaded.value?.revision ?? 0;
    const runId = `run-c${c}-r${round}-a${attempt}`;
    const ref = await th.store.write_native_state(th.scope, CODEC, payload(runId), runId);
    for (let retry = 0; retry < 3; retry++) {
      const r = await rec.record(
        c,
        { key, op: 'commit', expected, value: ref.stateId, run: runId },
        () => th.store.commit_head(th.scope, ref, expected, runId),
        (h) => ({ status: 'ok', version: h.revision, value: h.state.stateId }),
      );
      if (r.ok) return;
      if (r.answered) break;
    }
  }
}

describe('R02 concurrent workers: the history of the durable head is linearizable', () => {
  it('R02.20 concurrent load/commit rounds, some answers lost, behave as one compare-and-set register', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const bin = await needHistoryChecker(ctx);
    const target = t();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 4 }), fc.integer({ min: 0, max: 3 }), async (clients, lost) => {
        const th = await openThread(target);
        const rec = new HistoryRecorder('head-register');
        await withFailpoints(
          target.capabilities.failpoints ? target.faults : undefined,
          { 'state.commit.after': `${lost + 1}*return("unavailable")` },
          () => runRounds(clients, ROUNDS, (c, round) => workerRound(rec, th, c, round)),
        );
        // A final load after everything settled pins the end state.
        await rec.record(
          clients,
          { key: `${th.bindingId}/${th.scope.epoch}`, op: 'load' },
          () => th.store.load_head(th.scope),
          (h) => ({ status: 'ok', version: h?.revision ?? 0, value: h?.state.stateId ?? '' }),
        );
        await expectLinearizable(bin, 'R02.20-durable-head', rec.history);
      }),
      fcParams(4, { endOnFailure: true, includeErrorInReport: true }),
    );
  });
});
