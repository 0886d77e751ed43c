/**
 * R01 — a worker lost after client-visible output and before its commit.
 *
 * The provider stub holds its answer, so the run has provably streamed output and called a tool
 * and has not reached its commit when its worker is lost: SIGKILLed (R01.4, `processFaults`), or
 * cut off from the control plane by the network (R01.6: the Toxiproxy proxy the target put its
 * worker → control-plane link behind goes down, `networkFaults`; the worker lives on, and its
 * write and its own attempt to fence the run cannot get through). Either way the run must end
 * `uncertain_durability` with the previous head durable and the run fenced, and neither the
 * provider nor the tool stub may see a replayed call — not while the fault settles, not after
 * the worker is back, not after the explicit reconciliation.
 */
import type { TestContext } from 'vitest';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../contract/runs.js';
import { expectRejection } from '../fixtures/assertions/contract-error.js';
import { takeDown } from '../fixtures/faults/toxics/down.js';
import { useToxiproxy } from '../fixtures/faults/use-toxiproxy.js';
import { authorizedTool } from '../fixtures/scenario/authorized-tool.js';
import { unsupportedByTarget } from '../fixtures/scenario/need.js';
import { needNetworkLink } from '../fixtures/scenario/network-faults.js';
import {
  durableHead,
  needProcessFaults,
  outputs,
  runSteps,
  viewOf,
  within,
} from '../fixtures/scenario/process-faults.js';
import { CODEC, lease, payload, SPEC } from '../fixtures/scenario/thread-session.js';
import { useStubs } from '../fixtures/stubs/use-stubs.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const stubs = useStubs();
const tp = useToxiproxy();
const t = useTarget(() => ({ ...stubs().urls(), ...(tp.url() ? { toxiproxyUrl: tp.url() } : {}) }));

/** Bound on one run, a kill, or a restart. */
const STEP_MS = 45_000;
/** How long "nothing is replayed" is watched for after the crash (absence has no signal). */
const QUIET_MS = 1_500;

async function openBinding() {
  const alice = t().principals.alice;
  const b = await t().bindings.open(alice, SPEC);
  return { alice, bindingId: b.bindingId };
}

/** How the run's worker is lost while the provider holds its answer, and how it comes back. */
interface WorkerLoss {
  /** Output the worker still streams after the fault (it lives on behind a cut link). */
  readonly outputAfterFault: boolean;
  lose(): Promise<void>;
  restore(): Promise<void>;
}

async function lostAfterOutput(ctx: TestContext, loss: WorkerLoss): Promise<void> {
  const { alice, bindingId } = await openBinding();
  const tool = await authorizedTool(t(), alice, t().principals.agents[0]);
  if (!tool) unsupportedByTarget(ctx, `target "${t().name}" authorizes none of the candidate tools for a run`);
  const kept = await within(STEP_MS, 'run 1', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'kept' }]));
  expect(kept.state).toBe('completed');
  const keptHead = viewOf(await durableHead(t(), alice, bindingId));
  stubs().resetAll();

  // The provider holds its answer: when the call arrives, the run has streamed its output and
  // called the tool, and has not reached its commit. Then the worker is lost.
  const hold = stubs().provider.holdNext();
  const seen: RunEvent[] = [];
  const lostRun = runSteps(t(), alice, bindingId, [
    { type: 'tool', tool: tool!, args: 'look it up' },
    { type: 'emit', text: 'visible before the fault' },
    { type: 'provider', prompt: 'answer slowly' },
    { type: 'emit', text: 'after the fault' },
  ]);
  lostRun.catch(() => {});
  let restored = false;
  try {
    await within(STEP_MS, 'the provider call of the run', hold.arrived);
    await within(STEP_MS, 'the fault', loss.lose());
    hold.release();
    const outcome = await within(STEP_MS, 'the run that lost its worker', lostRun);
    seen.push(...outcome.events);

    expect(outputs(outcome)).toContain('visible before the fault');
    if (!loss.outputAfterFault) expect(outputs(outcome)).not.toContain('after the fault');
    expect(seen.some((e) => e.type === 'durable')).toBe(false);
    expect({ state: outcome.state, revision: outcome.revision }).toEqual({
      state: 'uncertain_durability',
      revision: kept.revision,
    });

    // No replay while the fault settles; then the worker comes back.
    await new Promise((r) => setTimeout(r, QUIET_MS));
    await within(STEP_MS, 'restoring the worker', loss.restore());
    restored = true;
    await new Promise((r) => setTimeout(r, QUIET_MS));
    expect(stubs().provider.completions()).toHaveLength(1);
    expect(stubs().tool.calls()).toHaveLength(1);

    // Previous head kept, run fenced: not even a correct compare-and-set of that run commits.
    const w = await lease(t(), alice, bindingId);
    expect(viewOf(await w.store.load_head(w.scope))).toEqual(keptHead);
    expect((await w.store.run_status(w.scope, outcome.runId))?.state).toBe('uncertain_durability');
    const ref = await w.store.write_native_state(w.scope, CODEC, payload('late checkpoint'), `late-${outcome.runId}`);
    await expectRejection(w.store.commit_head(w.scope, ref, kept.revision, outcome.runId), ['fenced']);

    // Explicit reconciliation resolves it; the thread then goes on from the kept head.
    const resolved = await w.store.reconcile(w.scope, outcome.runId, { action: 'keep_previous' });
    expect(resolved.state).toBe('reconciled');
    const next = await within(STEP_MS, 'next run', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'next' }]));
    expect({ state: next.state, revision: next.revision }).toEqual({ state: 'completed', revision: kept.revision + 1 });
    expect(stubs().provider.completions()).toHaveLength(1);
    expect(stubs().tool.calls()).toHaveLength(1);
  } finally {
    hold.release();
    if (!restored) await loss.restore().catch(() => {});
  }
}

describe('R01 uncertain durability after a worker is lost after output', () => {
  it('R01.4 killed after client-visible output and before its commit: uncertain, previous head kept, fenced, nothing replayed', async (ctx) => {
    const f = needProcessFaults(ctx, t());
    await lostAfterOutput(ctx, {
      outputAfterFault: false,
      lose: () => f.killPart('worker', 'SIGKILL'),
      restore: () => f.restartPart('worker'),
    });
  });

  it('R01.6 cut off from the control plane (Toxiproxy link down) after client-visible output: uncertain, previous head kept, fenced, nothing replayed', async (ctx) => {
    const link = await needNetworkLink(ctx, t(), 'worker-control-plane', tp());
    await lostAfterOutput(ctx, { outputAfterFault: true, lose: () => takeDown(link), restore: () => link.heal() });
  });
});
