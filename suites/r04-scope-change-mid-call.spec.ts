/**
 * R04 — the scope moves while a call is inside the target.
 *
 * A worker's write or commit passes the target's scope checks, then waits at a commit-protocol
 * failpoint (`sleep`) while the binding's lease is taken over or its epoch cleared. When it goes
 * on, its lease generation or epoch is no longer current: it must be refused, with the same
 * code the target gives the same call started after the change, and leave nothing behind — no
 * pending state the new lease holder finds under the key, no head in either epoch. A target
 * that checks the scope only when a call starts lets such a call land in a scope that is no
 * longer the worker's, or answer it with nothing at all. The same for marking a run uncertain
 * and reconciling it, held at `state.uncertain.before` / `state.reconcile.before` (R04.16, a
 * target with `reconciliationFailpoints`): refused as a later call is, no run fenced or
 * resolved, no head moved.
 */
import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../contract/errors.js';
import type { DurableStateHead, PendingStateRef } from '../contract/state.js';
import type { Target } from '../contract/target.js';
import { asContractError, expectRejection } from '../fixtures/assertions/contract-error.js';
import { type HeldOutcome, heldAcrossChanges } from '../fixtures/scenario/held-call.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { viewOf } from '../fixtures/scenario/process-faults.js';
import { CODEC, lease, openThread, payload, type ThreadSession } from '../fixtures/scenario/thread-session.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const t = useTarget();

type Change = 'a new lease' | 'a clear';

/** Codes a call on an old lease may get: R04.4 (superseded lease) and R04.5 (cleared epoch). */
const ALLOWED: Readonly<Record<Change, readonly ErrorCode[]>> = {
  'a new lease': ['stale_lease'],
  'a clear': ['epoch_mismatch', 'stale_lease'],
};

interface Scenario {
  readonly change: () => Promise<unknown>;
  readonly call: () => Promise<unknown>;
  readonly what: Change;
  readonly th: ThreadSession;
  readonly head: DurableStateHead;
}

function changeOf(target: Target, th: ThreadSession, what: Change): () => Promise<unknown> {
  return what === 'a new lease'
    ? () => lease(target, th.owner, th.bindingId)
    : () => target.bindings.clear(th.owner, th.bindingId);
}

async function committed(th: ThreadSession, key: string): Promise<DurableStateHead> {
  const ref = await th.store.write_native_state(th.scope, CODEC, payload(`committed ${key}`), key);
  return th.store.commit_head(th.scope, ref, 0, `run-${key}`);
}

/**
 * The held call was refused with a code allowed for its change, and the same code as `later`
 * (the same call started after the change) — a target answers one change one way.
 */
async function refusedAsLater(s: Scenario, held: HeldOutcome, later: Promise<unknown>, op: string): Promise<void> {
  const allowed = ALLOWED[s.what];
  const then = await expectRejection(later, allowed).catch((e: Error) => {
    throw new Error(`${op} started after ${s.what}: ${e.message}`);
  });
  if (held.ok) {
    throw new Error(
      `${op} held across ${s.what} resolved (to ${JSON.stringify(held.value) ?? 'undefined'}) instead of being refused`,
    );
  }
  const e = (() => {
    try {
      return asContractError(held.error);
    } catch (x) {
      throw new Error(`${op} held across ${s.what}: ${(x as Error).message}`);
    }
  })();
  expect(
    { code: e.code, allowed: allowed.includes(e.code) },
    `${op} held across ${s.what} answers ${e.code}; started after it, ${then.code}`,
  ).toEqual({ code: then.code, allowed: true });
}

describe('R04 the scope changes while a call is held inside the target', () => {
  it('R04.12 reads and writes require the current lease generation and epoch: a write held at state.write.before while a new lease is taken or the binding is cleared is refused as a later write is, and stores nothing', async (ctx) => {
    needCapability(ctx, t(), 'threadState', 'failpoints');
    const target = t();
    const { scenarios, outcomes } = await heldAcrossChanges(target, 'state.write.before', () =>
      Promise.all(
        (['a new lease', 'a clear'] as const).map(async (what): Promise<Scenario> => {
          const th = await openThread(target);
          const head = await committed(th, 'base');
          return {
            what,
            th,
            head,
            change: changeOf(target, th, what),
            call: () => th.store.write_native_state(th.scope, CODEC, payload('held write'), 'held'),
          };
        }),
      ),
    );
    for (const [i, s] of scenarios.entries()) {
      const { th } = s;
      const later = th.store.write_native_state(th.scope, CODEC, payload('later write'), 'later');
      await refusedAsLater(s, outcomes[i]!, later, 'a write');
      // Nothing was stored: for the new lease holder the key is free (other bytes are a new
      // write, not a reuse of the key) and the head is the one before the change (none after a clear).
      const next = await lease(target, th.owner, th.bindingId);
      const free = await next.store
        .write_native_state(next.scope, CODEC, payload('other bytes'), 'held')
        .catch((e: Error) => {
          throw new Error(`after ${s.what}, the held write's key is not free for the new lease: ${e.message}`);
        });
      expect(free.epoch).toBe(next.scope.epoch);
      expect(viewOf(await next.store.load_head(next.scope)), `head after ${s.what}`).toEqual(
        s.what === 'a clear' ? null : viewOf(s.head),
      );
    }
  });

  it('R04.13 after clear, old-epoch state can never become the head — nor through a commit held at state.commit.before across the clear (or a new lease): it is refused as a later commit is and moves no head', async (ctx) => {
    needCapability(ctx, t(), 'threadState', 'failpoints');
    const target = t();
    const refs = new Map<Scenario, PendingStateRef>();
    const { scenarios, outcomes } = await heldAcrossChanges(target, 'state.commit.before', () =>
      Promise.all(
        (['a clear', 'a new lease'] as const).map(async (what): Promise<Scenario> => {
          const th = await openThread(target);
          const head = await committed(th, 'base');
          const ref = await th.store.write_native_state(th.scope, CODEC, payload('held state'), 'held');
          const s: Scenario = {
            what,
            th,
            head,
            change: changeOf(target, th, what),
            call: () => th.store.commit_head(th.scope, ref, head.revision, 'run-held'),
          };
          refs.set(s, ref);
          return s;
        }),
      ),
    );
    for (const [i, s] of scenarios.entries()) {
      const { th, head } = s;
      const ref = refs.get(s)!;
      await refusedAsLater(
        s,
        outcomes[i]!,
        th.store.commit_head(th.scope, ref, head.revision, 'run-later'),
        'a commit',
      );
      const next = await lease(target, th.owner, th.bindingId);
      expect(await next.store.run_status(next.scope, 'run-held'), `run of the held commit after ${s.what}`).toBeNull();
      if (s.what === 'a clear') {
        // The new epoch has no head, and the old epoch's pending state cannot become it.
        expect(await next.store.load_head(next.scope)).toBeNull();
        await expectRejection(next.store.commit_head(next.scope, ref, 0, 'run-revive'), ['pending_not_found']);
        expect(await next.store.load_head(next.scope)).toBeNull();
      } else {
        // The head is where the takeover found it, and moves only by the new holder's commit.
        expect(viewOf(await next.store.load_head(next.scope))).toEqual(viewOf(head));
        const own = await next.store.write_native_state(next.scope, CODEC, payload('after takeover'), 'takeover');
        const moved = await next.store.commit_head(next.scope, own, head.revision, 'run-takeover');
        expect(moved.revision).toBe(head.revision + 1);
      }
    }
  });
  it('R04.16 marking a run uncertain or reconciling it needs the current lease generation and epoch: a mark_uncertain or reconcile held at its before failpoint while a new lease is taken or the binding is cleared is refused as a later one is, and fences nothing, resolves nothing, moves no head', async (ctx) => {
    needCapability(ctx, t(), 'threadState', 'failpoints', 'reconciliationFailpoints');
    const target = t();
    const changes = ['a new lease', 'a clear'] as const;

    // A mark held across the change: the run is not fenced — the new holder finds no such run.
    const marks = await heldAcrossChanges(target, 'state.uncertain.before', () =>
      Promise.all(
        changes.map(async (what): Promise<Scenario> => {
          const th = await openThread(target);
          const head = await committed(th, 'base');
          return {
            what,
            th,
            head,
            change: changeOf(target, th, what),
            call: () => th.store.mark_uncertain(th.scope, 'run-held', 'commit_failed_after_output'),
          };
        }),
      ),
    );
    for (const [i, s] of marks.scenarios.entries()) {
      const { th } = s;
      await refusedAsLater(
        s,
        marks.outcomes[i]!,
        th.store.mark_uncertain(th.scope, 'run-later', 'commit_failed_after_output'),
        'a mark_uncertain',
      );
      const next = await lease(target, th.owner, th.bindingId);
      expect(await next.store.run_status(next.scope, 'run-held'), `run of the held mark after ${s.what}`).toBeNull();
      expect(await next.store.run_status(next.scope, 'run-later'), `run of the later mark after ${s.what}`).toBeNull();
      expect(viewOf(await next.store.load_head(next.scope)), `head after ${s.what}`).toEqual(
        s.what === 'a clear' ? null : viewOf(s.head),
      );
      // Not fenced: the new holder commits under that run id as under any other.
      const own = await next.store.write_native_state(next.scope, CODEC, payload('after the change'), 'own');
      const moved = await next.store.commit_head(
        next.scope,
        own,
        s.what === 'a clear' ? 0 : s.head.revision,
        'run-held',
      );
      expect(moved.runId).toBe('run-held');
    }

    // A reconcile held across the change: the run stays uncertain and the head does not move.
    const refs = new Map<Scenario, PendingStateRef>();
    const reconciles = await heldAcrossChanges(target, 'state.reconcile.before', () =>
      Promise.all(
        changes.map(async (what): Promise<Scenario> => {
          const th = await openThread(target);
          const head = await committed(th, 'base');
          const ref = await th.store.write_native_state(th.scope, CODEC, payload('ambiguous state'), 'ambiguous');
          await th.store.mark_uncertain(th.scope, 'run-held', 'commit_failed_after_output');
          const s: Scenario = {
            what,
            th,
            head,
            change: changeOf(target, th, what),
            call: () =>
              th.store.reconcile(th.scope, 'run-held', {
                action: 'commit_pending',
                pending: ref,
                expectedDurableRevision: head.revision,
              }),
          };
          refs.set(s, ref);
          return s;
        }),
      ),
    );
    for (const [i, s] of reconciles.scenarios.entries()) {
      const { th, head } = s;
      await refusedAsLater(
        s,
        reconciles.outcomes[i]!,
        th.store.reconcile(th.scope, 'run-held', { action: 'keep_previous' }),
        'a reconcile',
      );
      const next = await lease(target, th.owner, th.bindingId);
      expect(viewOf(await next.store.load_head(next.scope)), `head after ${s.what}`).toEqual(
        s.what === 'a clear' ? null : viewOf(head),
      );
      if (s.what === 'a new lease') {
        // Still uncertain, still to be reconciled — by the new holder, explicitly.
        expect((await next.store.run_status(next.scope, 'run-held'))?.state).toBe('uncertain_durability');
        const record = await next.store.reconcile(next.scope, 'run-held', { action: 'keep_previous' });
        expect(record.state).toBe('reconciled');
        expect(viewOf(await next.store.load_head(next.scope))).toEqual(viewOf(head));
      }
    }
  });
});
