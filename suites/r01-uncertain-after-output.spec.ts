/**
 * R01 — a worker killed after client-visible output and before its commit.
 *
 * The provider stub holds its answer, so the run has provably streamed output and called a tool
 * and has not reached its commit when its sandbox worker is SIGKILLed. The run must end
 * `uncertain_durability` with the previous head durable and the run fenced, and neither the
 * provider nor the tool stub may see a replayed call — not while the crash settles, not after a
 * fresh worker starts, not after the explicit reconciliation. Needs `processFaults`.
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../contract/runs.js';
import { expectRejection } from '../fixtures/assertions/contract-error.js';
import { authorizedTool } from '../fixtures/scenario/authorized-tool.js';
import { unsupportedByTarget } from '../fixtures/scenario/need.js';
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
const t = useTarget(() => ({ ...stubs().urls() }));

/** Bound on one run, a kill, or a restart. */
const STEP_MS = 45_000;
/** How long "nothing is replayed" is watched for after the crash (absence has no signal). */
const QUIET_MS = 1_500;

async function openBinding() {
  const alice = t().principals.alice;
  const b = await t().bindings.open(alice, SPEC);
  return { alice, bindingId: b.bindingId };
}

describe('R01 uncertain durability after a worker is lost after output', () => {
  it('R01.4 killed after client-visible output and before its commit: uncertain, previous head kept, fenced, nothing replayed', async (ctx) => {
    const f = needProcessFaults(ctx, t());
    const { alice, bindingId } = await openBinding();
    const tool = await authorizedTool(t(), alice, t().principals.agents[0]);
    if (!tool) unsupportedByTarget(ctx, `target "${t().name}" authorizes none of the candidate tools for a run`);
    const kept = await within(STEP_MS, 'run 1', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'kept' }]));
    expect(kept.state).toBe('completed');
    const keptHead = viewOf(await durableHead(t(), alice, bindingId));
    stubs().resetAll();

    // The provider holds its answer: when the call arrives, the run has streamed its output and
    // called the tool, and has not reached its commit. Then the worker dies.
    const hold = stubs().provider.holdNext();
    const seen: RunEvent[] = [];
    const crashed = runSteps(t(), alice, bindingId, [
      { type: 'tool', tool: tool!, args: 'look it up' },
      { type: 'emit', text: 'visible before the crash' },
      { type: 'provider', prompt: 'answer slowly' },
      { type: 'emit', text: 'never shown' },
    ]);
    crashed.catch(() => {});
    await within(STEP_MS, 'the provider call of the run', hold.arrived);
    await within(STEP_MS, 'SIGKILL worker', f.killPart('worker', 'SIGKILL'));
    hold.release();
    const outcome = await within(STEP_MS, 'the crashed run', crashed);
    seen.push(...outcome.events);

    expect(outputs(outcome)).toContain('visible before the crash');
    expect(outputs(outcome)).not.toContain('never shown');
    expect(seen.some((e) => e.type === 'durable')).toBe(false);
    expect({ state: outcome.state, revision: outcome.revision }).toEqual({
      state: 'uncertain_durability',
      revision: kept.revision,
    });

    // Previous head kept, run fenced: not even a correct compare-and-set of that run commits.
    const w = await lease(t(), alice, bindingId);
    expect(viewOf(await w.store.load_head(w.scope))).toEqual(keptHead);
    expect((await w.store.run_status(w.scope, outcome.runId))?.state).toBe('uncertain_durability');
    const ref = await w.store.write_native_state(w.scope, CODEC, payload('late checkpoint'), `late-${outcome.runId}`);
    await expectRejection(w.store.commit_head(w.scope, ref, kept.revision, outcome.runId), ['fenced']);

    // No replay: not while the crash settles, not after a fresh worker starts.
    await new Promise((r) => setTimeout(r, QUIET_MS));
    await within(STEP_MS, 'restart worker', f.restartPart('worker'));
    await new Promise((r) => setTimeout(r, QUIET_MS));
    expect(stubs().provider.completions()).toHaveLength(1);
    expect(stubs().tool.calls()).toHaveLength(1);

    // Explicit reconciliation resolves it; the thread then goes on from the kept head.
    const resolved = await w.store.reconcile(w.scope, outcome.runId, { action: 'keep_previous' });
    expect(resolved.state).toBe('reconciled');
    const next = await within(STEP_MS, 'next run', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'next' }]));
    expect({ state: next.state, revision: next.revision }).toEqual({ state: 'completed', revision: kept.revision + 1 });
    expect(stubs().provider.completions()).toHaveLength(1);
    expect(stubs().tool.calls()).toHaveLength(1);
  });
});
