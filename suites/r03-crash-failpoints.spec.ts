/**
 * R03 — ambiguous crashes between the steps of the commit protocol.
 *
 * The target crashes (failpoint `panic`) before or after each step — load, pending write, head
 * compare-and-set — in the middle of one logical commit. A target with process faults really
 * dies (its control plane exits) and is restarted on the same data; an in-process target throws.
 * The worker then retries the same step with the same idempotency key and expected revision,
 * on its old lease or on a new one: the retry must converge on one pending state and exactly
 * one new revision — nothing is committed twice, nothing committed is lost. The same holds for
 * a crash in `mark_uncertain` or `reconcile` (a target declaring their failpoints): retried, the
 * run ends reconciled once and the head moves at most once.
 */
import { describe, expect, it } from 'vitest';
import type { DurableStateHead } from '../contract/state.js';
import { COMMIT_PROTOCOL_FAILPOINTS, RECONCILIATION_FAILPOINTS } from '../contract/target.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { viewOf, within } from '../fixtures/scenario/process-faults.js';
import { CODEC, hex, lease, openThread, payload, type ThreadSession } from '../fixtures/scenario/thread-session.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const t = useTarget();

/** Bound on a crash and a restart of the target's control plane. */
const RESTART_MS = 45_000;

/**
 * One logical commit of the protocol: load, write pending (idempotent), compare-and-set. A
 * retry repeats it with the expected revision of the run's first load — never a fresh one, or
 * a commit that landed before the crash would be applied again on top of itself.
 */
async function commitStep(
  w: ThreadSession,
  key: string,
  text: string,
  runId: string,
  expected?: number,
): Promise<DurableStateHead> {
  const loaded = await w.store.load_head(w.scope);
  const ref = await w.store.write_native_state(w.scope, CODEC, payload(text), key);
  return w.store.commit_head(w.scope, ref, expected ?? loaded?.revision ?? 0, runId);
}

/** Calls `step`, which must crash at the armed failpoint (else the scenario tested nothing). */
async function crashAt(point: string, step: () => Promise<unknown>): Promise<void> {
  await t().faults!.setFailpoint(point, '1*panic');
  let crashed: unknown = null;
  try {
    await step();
  } catch (e) {
    crashed = e;
  }
  expect(crashed, `no crash at ${point}: the target did not honour the armed failpoint`).not.toBeNull();
  await recover();
}

/** After a crash: a target with process faults comes back on the same data; failpoints are disarmed. */
async function recover(): Promise<void> {
  const f = t().faults!;
  if (t().capabilities.processFaults && f.restartPart) {
    await within(RESTART_MS, 'restart the control plane', f.restartPart('control_plane'));
  }
  await f.clearFailpoints();
}

describe('R03 crashes at every commit-protocol and reconciliation failpoint converge on retry', () => {
  COMMIT_PROTOCOL_FAILPOINTS.forEach((point, i) => {
    it(`R03.${20 + i} a crash at ${point} then a retry of the step commits exactly once`, async (ctx) => {
      needCapability(ctx, t(), 'threadState', 'failpoints');
      const th = await openThread(t());
      const kept = await commitStep(th, 'history', 'committed before the crash', 'run-history');
      const key = `crash-${point}`;
      const runId = `run-crash-${i}`;
      const text = `the one checkpoint of ${point}`;

      await crashAt(point, () => commitStep(th, key, text, runId));

      // The worker retries — on its own lease when it survived, or as a new worker on a new one.
      const w = i % 2 === 0 ? th : await lease(t(), th.owner, th.bindingId);
      const head = await commitStep(w, key, text, runId, kept.revision);
      expect({ revision: head.revision, runId: head.runId, key: head.state.idempotencyKey }).toEqual({
        revision: kept.revision + 1,
        runId,
        key,
      });
      expect(new TextDecoder().decode(head.payload.bytes)).toBe(text);

      // Retried again: the same pending state and the same head; the revision moved once.
      const again = await w.store.write_native_state(w.scope, CODEC, payload(text), key);
      expect(again).toEqual(head.state);
      const reCommit = await w.store.commit_head(w.scope, again, kept.revision, runId);
      expect(viewOf(reCommit)).toEqual(viewOf(head));
      const fresh = await lease(t(), th.owner, th.bindingId);
      const durable = await fresh.store.load_head(fresh.scope);
      expect(viewOf(durable)).toEqual(viewOf(head));
      expect(hex(durable!.payload.bytes)).toBe(hex(head.payload.bytes));
    });
  });

  RECONCILIATION_FAILPOINTS.forEach((point, i) => {
    const n = 20 + COMMIT_PROTOCOL_FAILPOINTS.length + i;
    it(`R03.${n} a crash at ${point} then a retry converges: the run reconciled once, the head moved once`, async (ctx) => {
      needCapability(ctx, t(), 'threadState', 'failpoints', 'reconciliationFailpoints');
      const th = await openThread(t());
      const kept = await commitStep(th, 'history', 'committed before the crash', 'run-history');
      const runId = `run-crash-${n}`;
      const text = `the ambiguous checkpoint of ${point}`;
      const ref = await th.store.write_native_state(th.scope, CODEC, payload(text), `amb-${point}`);
      const resolution = { action: 'commit_pending' as const, pending: ref, expectedDurableRevision: kept.revision };
      const mark = (w: ThreadSession) => w.store.mark_uncertain(w.scope, runId, 'commit_failed_after_output');
      const reconcile = (w: ThreadSession) => w.store.reconcile(w.scope, runId, resolution);

      // The step crashes at the point and is retried — on its own lease, or by a new worker.
      let w = th;
      if (point.startsWith('state.uncertain.')) {
        await crashAt(point, () => mark(th));
        w = i % 2 === 0 ? th : await lease(t(), th.owner, th.bindingId);
      }
      await mark(w);
      expect(await w.store.run_status(w.scope, runId)).toEqual({
        runId,
        state: 'uncertain_durability',
        reason: 'commit_failed_after_output',
        retainedRevision: kept.revision,
      });
      expect(viewOf(await w.store.load_head(w.scope))).toEqual(viewOf(kept));
      if (point.startsWith('state.reconcile.')) {
        await crashAt(point, () => reconcile(w));
        if (i % 2 === 1) w = await lease(t(), th.owner, th.bindingId);
      }
      const record = await reconcile(w);
      expect({ runId: record.runId, state: record.state }).toEqual({ runId, state: 'reconciled' });

      // Retried again, from a fresh lease: the same record, and the head moved exactly once.
      const fresh = await lease(t(), th.owner, th.bindingId);
      expect(await reconcile(fresh)).toEqual(record);
      expect(await fresh.store.run_status(fresh.scope, runId)).toEqual(record);
      const durable = await fresh.store.load_head(fresh.scope);
      expect({ revision: durable!.revision, runId: durable!.runId, state: durable!.state }).toEqual({
        revision: kept.revision + 1,
        runId,
        state: ref,
      });
      expect(new TextDecoder().decode(durable!.payload.bytes)).toBe(text);
    });
  });
});
