/**
 * R04 — a run is dispatched on the binding's current scope.
 *
 * The service derives a run's scope from the binding's server-side state at the time of the
 * run, not from a session it happens to hold: after `clear`, the next run runs on the new epoch
 * — from no head, committing revision 1, nothing of the old epoch in what it commits — and after
 * a lease was taken elsewhere (here: the kit reading the head through a new lease) the next run
 * takes a new lease instead of failing on the superseded one. A control plane that reuses a
 * cached session by its lease generation alone (a clear does not move it) or whatever the
 * binding now is fails every run after a clear or a takeover.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { needCapability } from '../fixtures/scenario/need.js';
import { durableHead, payloadText, runSteps, within } from '../fixtures/scenario/process-faults.js';
import { SPEC } from '../fixtures/scenario/thread-session.js';
import { useStubs } from '../fixtures/stubs/use-stubs.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const stubs = useStubs();
const t = useTarget(() => stubs().urls());

/** Bound on one run. */
const STEP_MS = 45_000;

describe('R04 runs on the current scope', () => {
  it('R04.15 after clear a run runs on the new epoch from no head (revision 1, nothing of the old epoch); after a lease taken elsewhere the next run takes a new one', async (ctx) => {
    needCapability(ctx, t(), 'runs');
    const alice = t().principals.alice;
    const { bindingId } = await t().bindings.open(alice, SPEC);
    const old = `smtc-old-epoch-${randomBytes(6).toString('hex')}`;
    const first = await within(STEP_MS, 'run 1', runSteps(t(), alice, bindingId, [{ type: 'emit', text: old }]));
    const second = await within(STEP_MS, 'run 2', runSteps(t(), alice, bindingId, [{ type: 'emit', text: old }]));
    expect([first.state, second.state]).toEqual(['completed', 'completed']);

    const cleared = await t().bindings.clear(alice, bindingId);
    const after = await within(
      STEP_MS,
      'the run after clear',
      runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'new epoch' }]),
    );
    expect({ state: after.state, revision: after.revision }, 'the first run after clear').toEqual({
      state: 'completed',
      revision: 1,
    });
    // Reading the head takes a lease: the control plane's session is now superseded.
    const head = await durableHead(t(), alice, bindingId);
    expect({ epoch: head?.epoch, revision: head?.revision, runId: head?.runId }).toEqual({
      epoch: cleared.epoch,
      revision: 1,
      runId: after.runId,
    });
    const text = payloadText(head);
    expect(text, 'the run after clear is missing from the new head').toContain('new epoch');
    expect(text.includes(old), 'the new epoch’s head carries state of the old epoch').toBe(false);

    const next = await within(
      STEP_MS,
      'the run after a lease taken elsewhere',
      runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'after takeover' }]),
    );
    expect({ state: next.state, revision: next.revision }, 'the run after a lease taken elsewhere').toEqual({
      state: 'completed',
      revision: 2,
    });
  });
});
