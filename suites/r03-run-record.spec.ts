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
import type { RunOutcome, RunStep } from '../contract/runs.js';
import type { RunState } from '../contract/state.js';
import { withFailpoints } from '../fixtures/history/concurrent-clients.js';
import { authorizedTool } from '../fixtures/scenario/authorized-tool.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { durableHead, outputs, runSteps, runToInterrupt, viewOf, within } from '../fixtures/scenario/process-faults.js';
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

/**
 * Two faults at once: the commit of a run that showed output fails, and so does the first attempt
 * to mark the run uncertain (the store answers each with `unavailable`, once). The mark is how the
 * run is fenced (contract: "mark the run `uncertain_durability`, retain the previous durable head,
 * fence the run"); a target that makes it once, where the fault that failed the commit fails it
 * too, leaves a run the client was told is uncertain unfenced and unreconcilable.
 */
describe('R03 a run is fenced even when the first mark fails', () => {
  it('R03.34 a run whose commit fails after output, and whose first mark_uncertain fails too (both failpoints armed once), is still reported uncertain_durability and recorded so — run_status through a new lease says uncertain_durability with a reason, the head is the one before — and keep_previous reconciles it', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'threadState', 'failpoints');
    const alice = t().principals.alice;
    const { bindingId } = await t().bindings.open(alice, SPEC);
    const first = await within(STEP_MS, 'run 1', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'kept' }]));
    expect(first.state).toBe('completed');
    const committed = viewOf(await durableHead(t(), alice, bindingId));
    const o = await withFailpoints(
      t().faults,
      { 'state.commit.before': '1*return("unavailable")', 'state.uncertain.before': '1*return("unavailable")' },
      () =>
        within(
          STEP_MS,
          'the run whose commit and first mark fail',
          runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'shown before the commit' }]),
        ),
    );
    expect(o.state, 'output was shown and the commit failed').toBe('uncertain_durability');
    const w = await lease(t(), alice, bindingId);
    // A target may retry the mark in the background: it has a few seconds to land.
    let record = await w.store.run_status(w.scope, o.runId);
    for (let i = 0; i < 25 && record?.state !== 'uncertain_durability'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      record = await w.store.run_status(w.scope, o.runId);
    }
    expect(
      { state: record?.state ?? null, reason: typeof record?.reason === 'string' && record.reason !== '' },
      'the run is fenced although the first mark failed',
    ).toEqual({ state: 'uncertain_durability', reason: true });
    expect(viewOf(await w.store.load_head(w.scope)), 'the head is the one before').toEqual(committed);
    expect((await w.store.reconcile(w.scope, o.runId, { action: 'keep_previous' })).state).toBe('reconciled');
  });
});

/**
 * The contract's rule for a failed commit after output names no kind of failure: "If step 3 or 4
 * fails after client-visible output, mark the run `uncertain_durability`". A target that reads a
 * definite refusal (a bound, an unknown pending, an invalid argument) as proof that nothing landed
 * and ends the run plain `failed` leaves the client holding output no head covers and nothing to
 * reconcile. The commit fails once with each code; a target that retried it and then committed
 * the run's own head (a retryable code) is conforming too.
 */
const COMMIT_REFUSALS = [
  'payload_too_large',
  'entry_limit',
  'pending_not_found',
  'invalid_argument',
  'internal',
] as const;

describe('R03 a refused commit after output is uncertain, whatever the refusal', () => {
  it(`R03.35 a run whose commit after output is refused — retryable or definite (${COMMIT_REFUSALS.join(', ')}) — is reported uncertain_durability and recorded so, the head before kept, keep_previous reconciles it; or, having retried, completed with its own head`, async (ctx) => {
    needCapability(ctx, t(), 'runs', 'threadState', 'failpoints');
    const alice = t().principals.alice;
    const wrong: string[] = [];
    for (const code of COMMIT_REFUSALS) {
      const { bindingId } = await t().bindings.open(alice, SPEC);
      const first = await within(STEP_MS, 'run 1', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'kept' }]));
      expect(first.state).toBe('completed');
      const committed = viewOf(await durableHead(t(), alice, bindingId));
      const o = await withFailpoints(t().faults, { 'state.commit.before': `1*return("${code}")` }, () =>
        within(
          STEP_MS,
          `the run whose commit is refused (${code})`,
          runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'shown before the commit' }]),
        ),
      );
      const w = await lease(t(), alice, bindingId);
      const head = await w.store.load_head(w.scope);
      if (o.state === 'completed') {
        // The target retried the commit and it landed: the head must be the run's own.
        if (head?.runId !== o.runId || head.revision !== o.revision)
          wrong.push(`${code}: completed, but the head is not its own`);
        continue;
      }
      const record = await w.store.run_status(w.scope, o.runId).catch(() => null);
      const reconciled = await w.store
        .reconcile(w.scope, o.runId, { action: 'keep_previous' })
        .then((r) => r.state)
        .catch((e: unknown) => `refused (${(e as { code?: string }).code ?? 'error'})`);
      const seen = {
        outcome: o.state,
        record: record?.state ?? null,
        headKept: JSON.stringify(viewOf(head)) === JSON.stringify(committed),
        reconcile: reconciled,
      };
      const want = {
        outcome: 'uncertain_durability',
        record: 'uncertain_durability',
        headKept: true,
        reconcile: 'reconciled',
      };
      if (JSON.stringify(seen) !== JSON.stringify(want)) wrong.push(`${code}: ${JSON.stringify(seen)}`);
    }
    expect(wrong.join('\n')).toBe('');
  });
});

/**
 * Step 1 of the commit protocol fails: the worker cannot load the durable head (the store answers
 * its load with `unavailable`, once). Nothing may run against a head it did not load — no output,
 * no model or tool request (contract: "Do not automatically replay model or tool work") — and the
 * head is unchanged; or, if the target retries the load, the run goes on from the committed head.
 */
describe('R03 a run whose head load fails executes nothing', () => {
  it('R03.33 a run or a resume whose load of the durable head fails (“1. Load the last durable head and revision. 2. Execute or resume the native harness against that head”) executes nothing: no output event, no request reaches the provider or tool, the head is unchanged — or it loaded the committed head on a retry and continues from it', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'threadState', 'failpoints');
    const alice = t().principals.alice;
    const tool = await authorizedTool(t(), alice, t().principals.agents[0]);
    const work = (tag: string): RunStep[] => [
      { type: 'emit', text: `${tag}: first` },
      { type: 'provider', prompt: `${tag}: a deterministic prompt` },
      ...(tool ? [{ type: 'tool' as const, tool, args: `{"q":"${tag}"}` }] : []),
      { type: 'emit', text: `${tag}: last` },
    ];
    /** The emits a run of `work(tag)` shows (the provider's completion is shown too). */
    const shown = (tag: string) => [`${tag}: first`, `${tag}: last`];

    /** A run whose head load fails once, judged against the head committed before it. */
    const judge = async (what: string, bindingId: string, start: () => Promise<RunOutcome>, tag: string) => {
      const committed = await durableHead(t(), alice, bindingId);
      stubs().resetAll();
      const o = await withFailpoints(t().faults, { 'state.load.before': '1*return("unavailable")' }, () =>
        within(STEP_MS, what, start()),
      );
      const head = await durableHead(t(), alice, bindingId);
      if (o.state === 'completed') {
        // It loaded the committed head on a retry and went on from it.
        expect(
          { shown: outputs(o).filter((x) => x.startsWith(`${tag}: `)), revision: o.revision, head: head?.revision },
          what,
        ).toEqual({
          shown: shown(tag),
          revision: committed!.revision + 1,
          head: committed!.revision + 1,
        });
        return;
      }
      expect(
        {
          state: o.state,
          output: outputs(o),
          provider: stubs().provider.completions().length,
          tool: stubs().tool.calls().length,
          head: viewOf(head),
        },
        `${what}: it could not load the head, so it executes nothing`,
      ).toEqual({ state: o.state, output: [], provider: 0, tool: 0, head: viewOf(committed) });
      expect(o.state, `${what}: nothing was shown, so nothing is uncertain`).toBe('failed');
    };

    // A thread with a committed head, then a run whose load fails.
    const a = await t().bindings.open(alice, SPEC);
    const kept = await within(STEP_MS, 'run 1', runSteps(t(), alice, a.bindingId, [{ type: 'emit', text: 'kept' }]));
    expect(kept.state).toBe('completed');
    await judge('a run whose load fails', a.bindingId, () => runSteps(t(), alice, a.bindingId, work('run')), 'run');
    // A second run's load fails too (the first failure left nothing behind that changes it).
    await judge(
      'a second run whose load fails',
      a.bindingId,
      () => runSteps(t(), alice, a.bindingId, work('again')),
      'again',
    );

    // An interrupted thread, then a resume whose load fails.
    const b = await t().bindings.open(alice, SPEC);
    const { paused, asked } = await runToInterrupt(
      t(),
      alice,
      b.bindingId,
      [{ type: 'emit', text: 'before the question' }, { type: 'interrupt', value: 'go on?' }, ...work('resume')],
      STEP_MS,
    );
    expect({ state: paused.state, asked: asked?.value }).toEqual({ state: 'interrupted', asked: 'go on?' });
    await judge(
      'a resume whose load fails',
      b.bindingId,
      () => runSteps(t(), alice, b.bindingId, [], { resume: { interruptId: asked!.interruptId, value: 'yes' } }),
      'resume',
    );
  });
});
