/**
 * R03 — a run's record agrees with what the public protocol reported.
 *
 * `uncertain_durability` is the answer to an ambiguous crash only (contract: "If step 3 or 4
 * fails after client-visible output, mark the run `uncertain_durability`"); a run whose commit
 * landed is reported durable only after its terminal run metadata was persisted (steps 5 and 6).
 * So a run reported completed — or interrupted, or completed on resume — has a run record in
 * that state with no uncertainty reason, and the head it reported durable is its own. The
 * runs show output first, so a target that decides "output was shown, so durability is
 * uncertain" without asking whether its commit landed is caught.
 */
import { describe, expect, it } from 'vitest';
import type { RunOutcome } from '../contract/runs.js';
import type { RunState } from '../contract/state.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { runSteps, runToInterrupt, within } from '../fixtures/scenario/process-faults.js';
import { lease, SPEC } from '../fixtures/scenario/thread-session.js';
import { useStubs } from '../fixtures/stubs/use-stubs.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const stubs = useStubs();
const t = useTarget(() => stubs().urls());

/** Bound on one run. */
const STEP_MS = 45_000;

/** The run's record and the head, read through a new lease (as an auditor or the next worker would). */
async function expectRecorded(bindingId: string, outcome: RunOutcome, state: RunState, what: string) {
  const w = await lease(t(), t().principals.alice, bindingId);
  const record = await w.store.run_status(w.scope, outcome.runId);
  expect({ state: record?.state ?? null, reason: record?.reason ?? null }, `the run record of ${what}`).toEqual({
    state,
    reason: null,
  });
  const head = await w.store.load_head(w.scope);
  expect({ runId: head?.runId, revision: head?.revision, runState: head?.runState }, `the head after ${what}`).toEqual({
    runId: outcome.runId,
    revision: outcome.revision,
    runState: state,
  });
}

describe('R03 run records agree with the reported outcome', () => {
  it('R03.18 a run reported completed or interrupted (after output) is recorded so: its run record has that state and no uncertainty reason, and the durable head is its own', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'threadState');
    const alice = t().principals.alice;
    const { bindingId } = await t().bindings.open(alice, SPEC);

    const done = await within(
      STEP_MS,
      'a run with output',
      runSteps(t(), alice, bindingId, [
        { type: 'emit', text: 'shown to the client' },
        { type: 'emit', text: 'and more' },
      ]),
    );
    expect(done.state).toBe('completed');
    await expectRecorded(bindingId, done, 'completed', 'a completed run');

    const { paused, asked } = await runToInterrupt(
      t(),
      alice,
      bindingId,
      [
        { type: 'emit', text: 'before the question' },
        { type: 'interrupt', value: 'go on?' },
        { type: 'emit', text: 'after the answer' },
      ],
      STEP_MS,
    );
    expect({ state: paused.state, asked: asked?.value }).toEqual({ state: 'interrupted', asked: 'go on?' });
    await expectRecorded(bindingId, paused, 'interrupted', 'an interrupted run');

    const resumed = await within(
      STEP_MS,
      'the resumed run',
      runSteps(t(), alice, bindingId, [], { resume: { interruptId: asked!.interruptId, value: 'yes' } }),
    );
    expect(resumed.state).toBe('completed');
    await expectRecorded(bindingId, resumed, 'completed', 'a resumed run');
  });
});
