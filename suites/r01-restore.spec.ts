/**
 * R01 — completed and interrupted thread restore after worker / control-plane failure.
 *
 * Real processes, real signals: a sandbox worker or the control plane is SIGKILLed between
 * runs and the next run must continue from exactly the committed head; an interrupted run
 * survives both kills and resumes; a stale or poisoned pod-local cache is never selected on
 * restore (the kill after output, before commit, is r01-uncertain-after-output.spec.ts). Needs the `processFaults` capability (a target
 * in the kit's own process cannot be SIGKILLed without killing the suite).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { payloadWrittenElsewhere } from '../fixtures/scenario/harness-spec.js';
import {
  durableHead,
  needProcessFaults,
  outputs,
  payloadText,
  runSteps,
  runToInterrupt,
  viewOf,
  within,
} from '../fixtures/scenario/process-faults.js';
import { CODEC, lease, SPEC } from '../fixtures/scenario/thread-session.js';
import { useTarget } from '../fixtures/targets/use-target.js';

// No stubs: these scenarios run only `emit` steps, so a target at a URL can run them as it is.
const t = useTarget();

/** Bound on one run, a kill, or a restart (a worker or control plane restarts in seconds). */
const STEP_MS = 45_000;

async function openBinding() {
  const alice = t().principals.alice;
  const b = await t().bindings.open(alice, SPEC);
  return { alice, bindingId: b.bindingId };
}

describe('R01 restore after worker and control-plane failure', () => {
  it('R01.1 after SIGKILL of the worker, a new worker restores exactly the committed head', async (ctx) => {
    const f = needProcessFaults(ctx, t());
    const { alice, bindingId } = await openBinding();
    const first = await within(STEP_MS, 'run 1', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'turn one' }]));
    expect(first.state).toBe('completed');
    const committed = viewOf(await durableHead(t(), alice, bindingId));
    expect(committed).toMatchObject({ revision: first.revision, runId: first.runId, runState: 'completed' });

    await within(STEP_MS, 'SIGKILL worker', f.killPart('worker', 'SIGKILL'));
    // Nothing moved the head: the kill lost no committed state and made none up.
    expect(viewOf(await durableHead(t(), alice, bindingId))).toEqual(committed);

    const second = await within(
      STEP_MS,
      'run 2',
      runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'turn two' }]),
    );
    // Its compare-and-set expected exactly the committed revision: the restore read that head.
    expect({ state: second.state, revision: second.revision }).toEqual({
      state: 'completed',
      revision: first.revision + 1,
    });
    const after = await durableHead(t(), alice, bindingId);
    expect(viewOf(after)).toMatchObject({ revision: first.revision + 1, runId: second.runId });
  });

  it('R01.2 after SIGKILL of the control plane and a restart, the same head is durable and the thread continues', async (ctx) => {
    const f = needProcessFaults(ctx, t());
    const { alice, bindingId } = await openBinding();
    const first = await within(
      STEP_MS,
      'run 1',
      runSteps(t(), alice, bindingId, [
        { type: 'emit', text: 'a' },
        { type: 'checkpoint' },
        { type: 'emit', text: 'b' },
      ]),
    );
    expect(first.state).toBe('completed');
    const committed = viewOf(await durableHead(t(), alice, bindingId));
    expect(committed?.revision).toBe(first.revision);

    await within(STEP_MS, 'SIGKILL control plane', f.killPart('control_plane', 'SIGKILL'));
    await within(STEP_MS, 'restart control plane', f.restartPart('control_plane'));

    expect(viewOf(await durableHead(t(), alice, bindingId))).toEqual(committed);
    const second = await within(STEP_MS, 'run 2', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'c' }]));
    expect({ state: second.state, revision: second.revision }).toEqual({
      state: 'completed',
      revision: first.revision + 1,
    });
  });

  it('R01.3 an interrupted run survives SIGKILL of the worker and of the control plane, then resumes', async (ctx) => {
    const f = needProcessFaults(ctx, t());
    const { alice, bindingId } = await openBinding();
    const { paused, asked } = await runToInterrupt(
      t(),
      alice,
      bindingId,
      [
        { type: 'emit', text: 'before the question' },
        { type: 'interrupt', value: 'which colour?' },
        { type: 'emit', text: 'after the answer' },
      ],
      STEP_MS,
    );
    expect({ state: paused.state, asked: asked?.value }).toEqual({ state: 'interrupted', asked: 'which colour?' });
    const committed = viewOf(await durableHead(t(), alice, bindingId));
    expect(committed).toMatchObject({
      revision: paused.revision,
      runState: 'interrupted',
      interruptId: asked!.interruptId,
      interruptValue: 'which colour?',
    });

    await within(STEP_MS, 'SIGKILL worker', f.killPart('worker', 'SIGKILL'));
    await within(STEP_MS, 'SIGKILL control plane', f.killPart('control_plane', 'SIGKILL'));
    await within(STEP_MS, 'restart control plane', f.restartPart('control_plane'));
    expect(viewOf(await durableHead(t(), alice, bindingId))).toEqual(committed);

    const resumed = await within(
      STEP_MS,
      'resumed run',
      runSteps(t(), alice, bindingId, [], { resume: { interruptId: asked!.interruptId, value: 'blue' } }),
    );
    expect(resumed.state).toBe('completed');
    // The steps after the interrupt ran now, and only they: nothing before it was replayed.
    expect(outputs(resumed)).toEqual(['after the answer']);
    expect(resumed.revision).toBe(paused.revision + 1);
    expect(viewOf(await durableHead(t(), alice, bindingId))).toMatchObject({
      revision: paused.revision + 1,
      runState: 'completed',
      interruptId: null,
      interruptValue: null,
    });
  });

  it('R01.5 a poisoned or stale pod-local cache is never selected on restore', async (ctx) => {
    const f = needProcessFaults(ctx, t());
    const { alice, bindingId } = await openBinding();
    const marker = `smtc-poison-${randomBytes(8).toString('hex')}`;
    for (const text of ['one', 'two']) {
      expect((await within(STEP_MS, 'run', runSteps(t(), alice, bindingId, [{ type: 'emit', text }]))).state).toBe(
        'completed',
      );
    }
    let revision = (await durableHead(t(), alice, bindingId))!.revision;

    // Poisoned, with the worker alive, then across a worker kill.
    for (const kill of [false, true]) {
      await f.poisonLocalCache(bindingId, marker);
      if (kill) await within(STEP_MS, 'SIGKILL worker', f.killPart('worker', 'SIGKILL'));
      const o = await within(STEP_MS, 'run', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'after poison' }]));
      expect({ state: o.state, revision: o.revision }).toEqual({ state: 'completed', revision: revision + 1 });
      expect(JSON.stringify(o.events)).not.toContain(marker);
      const head = await durableHead(t(), alice, bindingId);
      expect(payloadText(head)).not.toContain(marker);
      revision = head!.revision;
    }

    // Stale: another writer moves the head; the worker's cache still holds the older one.
    const other = await lease(t(), alice, bindingId);
    const elsewhere = payloadWrittenElsewhere(await other.store.load_head(other.scope), 'written elsewhere', CODEC);
    const ref = await other.store.write_native_state(other.scope, CODEC, elsewhere, 'elsewhere');
    const moved = await other.store.commit_head(other.scope, ref, revision, 'run-elsewhere');
    for (const kill of [false, true]) {
      if (kill) await within(STEP_MS, 'SIGKILL worker', f.killPart('worker', 'SIGKILL'));
      const o = await within(STEP_MS, 'run', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'after move' }]));
      expect({ state: o.state, revision: o.revision }).toEqual({
        state: 'completed',
        revision: moved.revision + (kill ? 2 : 1),
      });
    }
  });
});
