/**
 * R04 — a zombie worker behind a partition cannot write after its lease was taken over.
 *
 * R04.20, real processes: a run's sandbox worker is frozen with SIGSTOP in the middle of the run
 * (after output, before its commit) — a partition as the control plane sees it. While it is
 * frozen the lease is taken over; then the worker is continued and finishes its run against the
 * old lease. Needs `processFaults`.
 * R04.21, a real network: the worker keeps running, but the link from it to the control plane
 * (a Toxiproxy proxy the target put it behind) delays everything it sends, so its write and
 * commit reach the control plane only after the lease was taken over. Needs `networkFaults`.
 * Either way, whatever the zombie tries must be refused: the durable head stays where the
 * takeover found it, and the new lease holder commits normally.
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent, RunOutcome } from '../contract/runs.js';
import { addLatency } from '../fixtures/faults/toxics/latency.js';
import { useToxiproxy } from '../fixtures/faults/use-toxiproxy.js';
import { payloadWrittenElsewhere } from '../fixtures/scenario/harness-spec.js';
import { needNetworkLink } from '../fixtures/scenario/network-faults.js';
import {
  durableHead,
  type HeadView,
  needProcessFaults,
  runSteps,
  viewOf,
  within,
} from '../fixtures/scenario/process-faults.js';
import { CODEC, lease, SPEC, type ThreadSession } from '../fixtures/scenario/thread-session.js';
import { useStubs } from '../fixtures/stubs/use-stubs.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const stubs = useStubs();
const tp = useToxiproxy();
const t = useTarget(() => ({ ...stubs().urls(), ...(tp.url() ? { toxiproxyUrl: tp.url() } : {}) }));

const STEP_MS = 45_000;
/**
 * Delay on the worker → control-plane link, each way. Far above the few milliseconds between
 * the kit seeing the zombie's last output and its takeover landing, far below the bound on one
 * call of the worker (a call past that bound is a loss, not a late write).
 */
const LINK_DELAY_MS = 2_000;

/** Whatever the zombie tried was refused; the new holder's commit lands on the head it found. */
async function zombieRefused(zombie: RunOutcome, taker: ThreadSession, before: HeadView | null, revision: number) {
  expect(
    zombie.events.some((e) => e.type === 'durable'),
    'the zombie reported a durable commit',
  ).toBe(false);
  expect(['uncertain_durability', 'failed']).toContain(zombie.state);
  const found = await taker.store.load_head(taker.scope);
  expect(viewOf(found), 'the zombie moved the head').toEqual(before);
  // A head the next run (any harness) can start from.
  const elsewhere = payloadWrittenElsewhere(found, 'after takeover', CODEC);
  const ref = await taker.store.write_native_state(taker.scope, CODEC, elsewhere, 'takeover');
  const head = await taker.store.commit_head(taker.scope, ref, revision, 'run-takeover');
  expect(head.revision).toBe(revision + 1);
  expect(viewOf(await durableHead(t(), taker.owner, taker.bindingId))).toEqual(viewOf(head));
}

/** And the control plane's own next run takes the thread on from there. */
async function nextRunTakesOver(bindingId: string, revision: number) {
  const next = await within(
    STEP_MS,
    'next run',
    runSteps(t(), t().principals.alice, bindingId, [{ type: 'emit', text: 'next' }]),
  );
  expect({ state: next.state, revision: next.revision }).toEqual({ state: 'completed', revision: revision + 2 });
}

describe('R04 zombie workers behind a partition', () => {
  it('R04.20 a worker frozen mid-run (SIGSTOP) and continued after a lease takeover commits nothing', async (ctx) => {
    const f = needProcessFaults(ctx, t());
    const alice = t().principals.alice;
    const { bindingId } = await t().bindings.open(alice, SPEC);
    const first = await within(STEP_MS, 'run 1', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'one' }]));
    expect(first.state).toBe('completed');
    const before = viewOf(await durableHead(t(), alice, bindingId));

    const hold = stubs().provider.holdNext();
    const zombieRun = runSteps(t(), alice, bindingId, [
      { type: 'emit', text: 'zombie output' },
      { type: 'provider', prompt: 'while partitioned' },
      { type: 'emit', text: 'zombie tail' },
    ]);
    zombieRun.catch(() => {});
    await within(STEP_MS, 'the zombie reaching its provider call', hold.arrived);
    let frozen = false;
    try {
      await f.killPart('worker', 'SIGSTOP');
      frozen = true;
      // The takeover: a new lease on the binding while the old holder cannot hear about it.
      const taker = await lease(t(), alice, bindingId);
      hold.release();
      await f.killPart('worker', 'SIGCONT');
      frozen = false;
      await zombieRefused(await within(STEP_MS, 'the zombie run', zombieRun), taker, before, first.revision);
    } finally {
      hold.release();
      if (frozen) await f.killPart('worker', 'SIGCONT');
    }
    await nextRunTakesOver(bindingId, first.revision);
  });

  it('R04.21 a worker whose write and commit reach the control plane only after a lease takeover (Toxiproxy latency) commits nothing', async (ctx) => {
    const link = await needNetworkLink(ctx, t(), 'worker-control-plane', tp());
    const alice = t().principals.alice;
    const { bindingId } = await t().bindings.open(alice, SPEC);
    const first = await within(STEP_MS, 'run 1', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'one' }]));
    expect(first.state).toBe('completed');
    const before = viewOf(await durableHead(t(), alice, bindingId));

    let lastOutput!: () => void;
    const lastOutputSeen = new Promise<void>((r) => {
      lastOutput = r;
    });
    const onEvent = (e: RunEvent) => {
      if (e.type === 'output' && e.text === 'zombie tail') lastOutput();
    };
    try {
      await addLatency(link, LINK_DELAY_MS);
      const zombieRun = t().runs!.start(
        alice,
        {
          bindingId,
          agent: t().principals.agents[0],
          steps: [
            { type: 'emit', text: 'zombie output' },
            { type: 'provider', prompt: 'behind a slow link' },
            { type: 'emit', text: 'zombie tail' },
          ],
        },
        onEvent,
      );
      zombieRun.catch(() => {});
      // The run's last output is out: its write and commit are now on the slow link. Take over.
      await within(STEP_MS, 'the zombie run reaching its last output', lastOutputSeen);
      const taker = await lease(t(), alice, bindingId);
      await zombieRefused(await within(STEP_MS, 'the zombie run', zombieRun), taker, before, first.revision);
    } finally {
      await link.heal();
    }
    await nextRunTakesOver(bindingId, first.revision);
  });
});
