/**
 * R02 — exact durable-head selection and rejection of pending/stale state.
 *
 * The head a worker restores from is always the last successful commit: never a pending
 * (written but uncommitted) state, never newer-but-uncommitted state, never a commit made
 * against a stale expected revision. Model-based sequences cover the combinations; the
 * examples pin each clause down on its own.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunStep } from '../contract/runs.js';
import type { CommitOptions, DurableStateHead, PendingInterrupt, PendingStateRef } from '../contract/state.js';
import { expectRejection } from '../fixtures/assertions/contract-error.js';
import { commandArbs, otherBindings, threadStateSetup } from '../fixtures/models/thread-state-commands.js';
import { commandsParams, fcParams } from '../fixtures/properties/fc-params.js';
import { runScheduled } from '../fixtures/properties/scheduled-calls.js';
import {
  asciiInterruptBound,
  interruptProber,
  MULTI_BYTE_CHARS,
  textOfBytes,
} from '../fixtures/scenario/interrupt-byte-bound.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { outputs, runSteps, runToInterrupt, within } from '../fixtures/scenario/process-faults.js';
import {
  CODEC,
  hex,
  lease,
  openThread,
  payload,
  SPEC,
  type ThreadSession,
} from '../fixtures/scenario/thread-session.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const t = useTarget();

async function write(th: ThreadSession, key: string, text: string): Promise<PendingStateRef> {
  return th.store.write_native_state(th.scope, CODEC, payload(text), key);
}

/** Commit `n` states in sequence; returns the heads in order. */
async function history(th: ThreadSession, n: number): Promise<DurableStateHead[]> {
  const heads: DurableStateHead[] = [];
  for (let i = 0; i < n; i++) {
    const ref = await write(th, `h${i}`, `history-${i}`);
    heads.push(await th.store.commit_head(th.scope, ref, i, `run-h${i}`));
  }
  return heads;
}

function summary(h: DurableStateHead | null) {
  return h && { revision: h.revision, stateId: h.state.stateId, runId: h.runId, bytes: hex(h.payload.bytes) };
}

describe('R02 exact durable-head selection', () => {
  it('R02.1 a binding with no commit has no head, even with pending state written', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const th = await openThread(t());
    expect(await th.store.load_head(th.scope)).toBeNull();
    await write(th, 'only-pending', 'not durable yet');
    expect(await th.store.load_head(th.scope)).toBeNull();
  });

  it('R02.2 model: across loads, writes, commits, clears and lease changes the head is the last successful commit', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const target = t();
    const other = await otherBindings(target);
    const a = commandArbs;
    const cmds = fc.commands(
      [a.load, a.write, a.write, a.commit, a.commit, a.commit, a.clear, a.acquire, a.markUncertain, a.mutatedScope],
      commandsParams({ maxCommands: 40, size: 'medium' }),
    );
    await fc.assert(
      fc.asyncProperty(cmds, (c) => fc.asyncModelRun(threadStateSetup(target, other), c)),
      fcParams(120),
    );
  });

  it('R02.3 stale expected revision is rejected with a conflict and the head is kept', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 5 }), fc.nat(), async (n, stalePick) => {
        const th = await openThread(t());
        const heads = await history(th, n);
        const stale = stalePick % n; // 0 .. n-1, all behind the head at n
        const ref = await write(th, 'late', 'written against an old revision');
        await expectRejection(th.store.commit_head(th.scope, ref, stale, 'run-late'), ['revision_conflict']);
        expect(summary(await th.store.load_head(th.scope))).toEqual(summary(heads.at(-1)!));
      }),
      fcParams(40),
    );
  });

  it('R02.4 an expected revision ahead of the head is rejected with a conflict', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const th = await openThread(t());
    const ref = await write(th, 'ahead', 'x');
    await expectRejection(th.store.commit_head(th.scope, ref, 1, 'run-a'), ['revision_conflict']);
    const heads = await history(th, 2);
    await expectRejection(th.store.commit_head(th.scope, ref, 3, 'run-a'), ['revision_conflict']);
    await expectRejection(th.store.commit_head(th.scope, ref, 1000, 'run-a'), ['revision_conflict']);
    expect(summary(await th.store.load_head(th.scope))).toEqual(summary(heads[1]!));
  });

  it('R02.5 pending and newer-but-uncommitted state is never selected', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), async (commits, pendings) => {
        const th = await openThread(t());
        const heads = await history(th, commits);
        for (let i = 0; i < pendings; i++) await write(th, `newer-${i}`, `newer-uncommitted-${i}`);
        // Also from a second lease, as a restoring worker would.
        const restored = await lease(t(), th.owner, th.bindingId);
        expect(summary(await restored.store.load_head(restored.scope))).toEqual(summary(heads.at(-1)!));
      }),
      fcParams(30),
    );
  });

  it('R02.6 revisions start at 1 and grow by exactly one per successful commit', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const th = await openThread(t());
    const heads = await history(th, 4);
    expect(heads.map((h) => h.revision)).toEqual([1, 2, 3, 4]);
    const loser = await write(th, 'loser', 'rejected');
    await expectRejection(th.store.commit_head(th.scope, loser, 2, 'run-loser'), ['revision_conflict']);
    const next = await th.store.commit_head(th.scope, loser, 4, 'run-next');
    expect(next.revision).toBe(5);
  });

  it('R02.7 the head carries the exact bytes, run id, run state and pending interrupt of its commit', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const th = await openThread(t());
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) % 256);
    const ref = await th.store.write_native_state(th.scope, CODEC, payload(bytes), 'interrupted');
    const interrupt = { interruptId: 'int-1', value: 'approve the transfer?' };
    const committed = await th.store.commit_head(th.scope, ref, 0, 'run-int', { interrupt });
    const loaded = await th.store.load_head(th.scope);
    for (const h of [committed, loaded!]) {
      expect({
        bindingId: h.bindingId,
        epoch: h.epoch,
        revision: h.revision,
        state: h.state,
        codec: h.payload.codec,
        bytes: hex(h.payload.bytes),
        runId: h.runId,
        runState: h.runState,
        interrupt: h.interrupt,
      }).toEqual({
        bindingId: th.bindingId,
        epoch: th.scope.epoch,
        revision: 1,
        state: ref,
        codec: CODEC,
        bytes: hex(bytes),
        runId: 'run-int',
        runState: 'interrupted',
        interrupt,
      });
    }
    const done = await th.store.commit_head(th.scope, await write(th, 'resumed', 'after'), 1, 'run-int-2');
    expect({ runState: done.runState, interrupt: done.interrupt }).toEqual({ runState: 'completed', interrupt: null });
    expect((await th.store.load_head(th.scope))?.interrupt).toBeNull();
  });

  it('R02.8 a new lease restores exactly the committed head', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const th = await openThread(t());
    const heads = await history(th, 3);
    const next = await lease(t(), th.owner, th.bindingId);
    const restored = await next.store.load_head(next.scope);
    expect(summary(restored)).toEqual(summary(heads[2]!));
    // and the new worker continues from it with the CAS on its revision
    const ref = await next.store.write_native_state(next.scope, CODEC, payload('continued'), 'cont');
    expect((await next.store.commit_head(next.scope, ref, 3, 'run-cont')).revision).toBe(4);
  });

  it('R02.9 concurrent commits on one revision: exactly one wins, the rest conflict', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 5 }), fc.nat({ max: 2 }), async (s, n, base) => {
        const th = await openThread(t());
        await history(th, base);
        const refs: PendingStateRef[] = [];
        for (let i = 0; i < n; i++) refs.push(await write(th, `racer-${i}`, `racer-${i}`));
        const results = await runScheduled(
          s,
          refs.map((ref, i) => () => th.store.commit_head(th.scope, ref, base, `run-racer-${i}`)),
        );
        const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
        expect(won.length).toBe(1);
        for (const r of results)
          if (r.status === 'rejected') await expectRejection(Promise.reject(r.reason), ['revision_conflict']);
        expect(won[0]!.revision).toBe(base + 1);
        expect(summary(await th.store.load_head(th.scope))).toEqual(summary(won[0]!));
      }),
      fcParams(40),
    );
  });

  it('R02.10 after clear the new epoch has no head and its first commit is revision 1', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const th = await openThread(t());
    await history(th, 2);
    const info = await t().bindings.clear(th.owner, th.bindingId);
    expect(info.epoch).toBe(th.scope.epoch + 1);
    const next = await lease(t(), th.owner, th.bindingId);
    expect(next.scope.epoch).toBe(info.epoch);
    expect(await next.store.load_head(next.scope)).toBeNull();
    const ref = await next.store.write_native_state(next.scope, CODEC, payload('fresh'), 'h0');
    const head = await next.store.commit_head(next.scope, ref, 0, 'run-fresh');
    expect({ epoch: head.epoch, revision: head.revision }).toEqual({ epoch: info.epoch, revision: 1 });
  });

  it('R02.11 a commit carries the run state asked for; a run state that contradicts its interrupt, or an oversized interrupt, is refused and commits nothing', async (ctx) => {
    needCapability(ctx, t(), 'threadState');
    const target = t();
    const th = await openThread(target);
    const interrupt: PendingInterrupt = { interruptId: 'int-meta', value: 'approve the transfer?' };
    const asked: [CommitOptions, DurableStateHead['runState'], PendingInterrupt | null][] = [
      [{ runState: 'failed' }, 'failed', null],
      [{ runState: 'completed' }, 'completed', null],
      [{}, 'completed', null],
      [{ interrupt: null }, 'completed', null],
      [{ runState: 'failed', interrupt: null }, 'failed', null],
      [{ runState: 'interrupted', interrupt }, 'interrupted', interrupt],
      [{ interrupt }, 'interrupted', interrupt],
    ];
    let revision = 0;
    for (const [i, [options, runState, pending]] of asked.entries()) {
      const ref = await write(th, `meta-${i}`, `meta-${i}`);
      const head = await th.store.commit_head(th.scope, ref, revision, `run-meta-${i}`, options);
      for (const h of [head, (await th.store.load_head(th.scope))!]) {
        expect({ runState: h.runState, interrupt: h.interrupt }, `options ${JSON.stringify(options)}`).toEqual({
          runState,
          interrupt: pending,
        });
      }
      // The terminal run metadata persisted with the commit is the run record: it agrees with the head,
      // also after a byte-identical retry of the commit (a lost response), whatever that retry answers.
      const record = async (when: string) =>
        expect(
          (await th.store.run_status(th.scope, `run-meta-${i}`))?.state,
          `run_status ${when}, options ${JSON.stringify(options)}`,
        ).toBe(runState);
      await record('after the commit');
      await th.store.commit_head(th.scope, ref, revision, `run-meta-${i}`, options).catch(() => undefined);
      await record('after an identical retry of the commit');
      revision = head.revision;
    }
    const before = summary(await th.store.load_head(th.scope));
    const refused: [string, unknown, ('payload_too_large' | undefined)?][] = [
      ['interrupted without an interrupt', { runState: 'interrupted' }],
      ['interrupted with a null interrupt', { runState: 'interrupted', interrupt: null }],
      ['completed with an interrupt', { runState: 'completed', interrupt }],
      ['failed with an interrupt', { runState: 'failed', interrupt }],
      ['an unknown run state', { runState: 'cancelled' }],
    ];
    const max = target.stateLimits?.maxPayloadBytes;
    // Without a declared bound (or one too large to send) there is no size to hold the target to:
    // said in the report, never left out silently.
    const bounded = max !== undefined && max <= 16 * 1024 * 1024;
    if (!bounded)
      await ctx.annotate(
        max === undefined
          ? 'oversized interrupt and byte-unit probes not run: the target declares no stateLimits.maxPayloadBytes'
          : `oversized interrupt and byte-unit probes not run: the declared payload bound (${max} bytes) is over 16 MiB`,
      );
    if (bounded) {
      const value = 'x'.repeat(max + 1);
      refused.push([
        'an interrupt value past the payload bound',
        { interrupt: { interruptId: 'big', value } },
        'payload_too_large',
      ]);
    }
    for (const [i, [what, options, code]] of refused.entries()) {
      const ref = await write(th, `refused-meta-${i}`, `refused-meta-${i}`);
      const call = th.store.commit_head(th.scope, ref, revision, `run-refused-${i}`, options as CommitOptions);
      await expectRejection(call, code && [code]).catch((err: Error) => {
        throw new Error(`commit with ${what}: ${err.message}`);
      });
      expect(summary(await th.store.load_head(th.scope)), what).toEqual(before);
      expect(await th.store.run_status(th.scope, `run-refused-${i}`), what).toBeNull();
    }
    // The bound is in bytes, whatever the characters: found in one-byte text (between the value
    // committed above and one byte past the payload bound), then held to in 2-, 3- and 4-byte ones.
    if (!bounded) return;
    const probe = interruptProber(th, revision);
    const bound = await asciiInterruptBound(probe, Buffer.byteLength(interrupt.value), max + 1);
    for (const ch of MULTI_BYTE_CHARS) {
      const fits = textOfBytes(bound, ch);
      const over = textOfBytes(bound + 1, ch);
      // Exactly the bound may commit (unchanged) or be refused (a target counting a larger encoding,
      // e.g. escaped JSON, is stricter, not wrong): the probe checks either answer.
      await probe(fits);
      expect(await probe(over), `${bound + 1} bytes of ${ch} (${over.length} UTF-16 units) are refused`).toBe(false);
    }
  });

  it('R02.21 a resumed run continues exactly after its interrupt (“Execute or resume the native harness against that head”): an interrupt first, in the middle of a longer script, or followed by another interrupt — each run shows exactly the steps up to its interrupt, each resume exactly the steps after it, in order', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'threadState');
    const alice = t().principals.alice;
    const STEP_MS = 45_000;
    /** A script of emits (`e`) and interrupts (`?`); the runs it takes split at each interrupt. */
    const scripts = ['?ee', 'e?ee', 'ee?eee', 'e?e?ee', 'e??e'];
    for (const [n, shape] of scripts.entries()) {
      const { bindingId } = await t().bindings.open(alice, SPEC);
      const steps: RunStep[] = [...shape].map((c, i) =>
        c === '?' ? { type: 'interrupt', value: `q${n}.${i}?` } : { type: 'emit', text: `s${n}.${i}` },
      );
      // What each run (the first, then each resume) must show: the emits up to the next interrupt.
      const segments = shape.split('?').map((seg, k, all) => {
        const start = all.slice(0, k).reduce((a, x) => a + x.length + 1, 0);
        return [...seg].map((_, j) => `s${n}.${start + j}`);
      });
      const first = await runToInterrupt(t(), alice, bindingId, steps, STEP_MS);
      expect({ shown: outputs(first.paused), state: first.paused.state }, `${shape}: the first run`).toEqual({
        shown: segments[0],
        state: 'interrupted',
      });
      let asked = first.asked;
      for (let k = 1; k < segments.length; k++) {
        const last = k === segments.length - 1;
        expect(asked, `${shape}: interrupt ${k} asked`).toBeDefined();
        const resumed = await within(
          STEP_MS,
          `${shape}: resume ${k}`,
          runSteps(t(), alice, bindingId, [], { resume: { interruptId: asked!.interruptId, value: `a${k}` } }),
        );
        expect({ shown: outputs(resumed), state: resumed.state }, `${shape}: resume ${k}`).toEqual({
          shown: segments[k],
          state: last ? 'completed' : 'interrupted',
        });
        asked = resumed.events.find((e) => e.type === 'interrupt') as typeof asked;
      }
    }
  });
});
