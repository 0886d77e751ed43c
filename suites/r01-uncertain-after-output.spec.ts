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
 *
 * Then, with failpoints and no process faults (so an in-process target runs them too): a run
 * whose commit did not land is never the base of the next run (R01.10: the next head, read by
 * its codec, holds the committed runs' work and none of the lost run's), and an interrupted run
 * resumes with the human's answer without replaying the model call that finished before the
 * interrupt (R01.11). Both look at what the native harness restored from, whichever harness
 * the run selected (`--harness`). A resume answers exactly the pending interrupt: a forged id,
 * or the id of one already answered, runs nothing and moves no head (R01.12). Each resume runs
 * with the answer it carries — in a run interrupted several times, in a later run of the thread,
 * for the same question asked again — never an answer given before (R01.14).
 *
 * And a run whose worker's load of the head fails (a failpoint answering it `unavailable`) with
 * a poisoned or stale pod-local cache at hand fails retryably having done nothing, or runs from
 * the committed head — never from the cache (R01.13, `processFaults` + `failpoints`).
 */
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'vitest';
import { describe, expect, it } from 'vitest';
import { ERROR_REGISTRY } from '../contract/errors.js';
import type { RunEvent, RunOutcome, RunStep } from '../contract/runs.js';
import { expectRejection } from '../fixtures/assertions/contract-error.js';
import { takeDown } from '../fixtures/faults/toxics/down.js';
import { useToxiproxy } from '../fixtures/faults/use-toxiproxy.js';
import { withFailpoints } from '../fixtures/history/concurrent-clients.js';
import { authorizedTool } from '../fixtures/scenario/authorized-tool.js';
import { payloadWrittenElsewhere } from '../fixtures/scenario/harness-spec.js';
import { needCapability, unsupportedByTarget } from '../fixtures/scenario/need.js';
import { needNetworkLink } from '../fixtures/scenario/network-faults.js';
import {
  durableHead,
  type HeadView,
  type InterruptEvent,
  needProcessFaults,
  outputs,
  payloadText,
  runSteps,
  viewOf,
  within,
} from '../fixtures/scenario/process-faults.js';
import { CODEC, lease, openThread, payload, SPEC } from '../fixtures/scenario/thread-session.js';
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
  /** The run commits a checkpoint (a durable point) and streams more output before the fault. */
  readonly durablePointFirst?: boolean;
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
  const durable = loss.durablePointFirst === true;
  const lostRun = runSteps(t(), alice, bindingId, [
    { type: 'tool', tool: tool!, args: 'look it up' },
    ...(durable ? [{ type: 'checkpoint' } as const] : []),
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
    // The run's own durable point (if any) is the last thing that became durable.
    const durableRevision = kept.revision + (durable ? 1 : 0);
    expect(seen.filter((e) => e.type === 'durable').map((e) => (e as { revision: number }).revision)).toEqual(
      durable ? [durableRevision] : [],
    );
    expect({ state: outcome.state, revision: outcome.revision }).toEqual({
      state: 'uncertain_durability',
      revision: durableRevision,
    });

    // No replay while the fault settles; then the worker comes back.
    await new Promise((r) => setTimeout(r, QUIET_MS));
    await within(STEP_MS, 'restoring the worker', loss.restore());
    restored = true;
    await new Promise((r) => setTimeout(r, QUIET_MS));
    expect(stubs().provider.completions()).toHaveLength(1);
    expect(stubs().tool.calls()).toHaveLength(1);

    // The last durable head kept (the run's checkpoint, else the previous run's), run fenced:
    // not even a correct compare-and-set of that run commits.
    const w = await lease(t(), alice, bindingId);
    const head = await w.store.load_head(w.scope);
    if (durable)
      expect({ revision: head?.revision, runId: head?.runId }).toEqual({
        revision: durableRevision,
        runId: outcome.runId,
      });
    else expect(viewOf(head)).toEqual(keptHead);
    const status = await w.store.run_status(w.scope, outcome.runId);
    expect({ state: status?.state, retained: status?.retainedRevision }).toEqual({
      state: 'uncertain_durability',
      retained: durableRevision,
    });
    const ref = await w.store.write_native_state(w.scope, CODEC, payload('late checkpoint'), `late-${outcome.runId}`);
    await expectRejection(w.store.commit_head(w.scope, ref, durableRevision, outcome.runId), ['fenced']);

    // Explicit reconciliation resolves it; the thread then goes on from the kept head.
    const resolved = await w.store.reconcile(w.scope, outcome.runId, { action: 'keep_previous' });
    expect(resolved.state).toBe('reconciled');
    const next = await within(STEP_MS, 'next run', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'next' }]));
    expect({ state: next.state, revision: next.revision }).toEqual({
      state: 'completed',
      revision: durableRevision + 1,
    });
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

  it('R01.7 killed after a durable checkpoint and further output: that checkpoint stays the head, the run is uncertain and fenced, nothing replayed', async (ctx) => {
    const f = needProcessFaults(ctx, t());
    await lostAfterOutput(ctx, {
      outputAfterFault: false,
      durablePointFirst: true,
      lose: () => f.killPart('worker', 'SIGKILL'),
      restore: () => f.restartPart('worker'),
    });
  });

  it('R01.6 cut off from the control plane (Toxiproxy link down) after client-visible output: uncertain, previous head kept, fenced, nothing replayed', async (ctx) => {
    const link = await needNetworkLink(ctx, t(), 'worker-control-plane', tp());
    await lostAfterOutput(ctx, { outputAfterFault: true, lose: () => takeDown(link), restore: () => link.heal() });
  });
});

/**
 * Restore while a link is failing: a worker restoring (load_head on a new lease) while the store
 * fails — a failpoint making the load step answer `unavailable`, as a cut or slow store link
 * would — and, on a served target, a run started while its worker's link to the control plane is
 * down with a poisoned pod-local cache at hand. The answer is a retryable error or exactly the
 * committed head — never an older head seen before, never pod-local state.
 */
describe('R01 restore while a link is failing', () => {
  it('R01.8 restore while the store fails answers a retryable error or the exact committed head, never an older one', async (ctx) => {
    needCapability(ctx, t(), 'threadState', 'failpoints');
    const th = await openThread(t());
    const ref1 = await th.store.write_native_state(th.scope, CODEC, payload('first head'), 'first');
    await th.store.commit_head(th.scope, ref1, 0, 'run-first');
    // A worker restores the first head; the thread then moves on elsewhere.
    expect((await th.store.load_head(th.scope))?.revision).toBe(1);
    const other = await lease(t(), th.owner, th.bindingId);
    const ref2 = await other.store.write_native_state(other.scope, CODEC, payload('second head'), 'second');
    const committed = await other.store.commit_head(other.scope, ref2, 1, 'run-second');

    const restoring = await lease(t(), th.owner, th.bindingId);
    await withFailpoints(t().faults, { 'state.load.before': '2*return("unavailable")' }, async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        const answer = await restoring.store.load_head(restoring.scope).then(
          (head) => ({ head }),
          (error: unknown) => ({ error }),
        );
        if ('head' in answer) {
          expect(viewOf(answer.head), 'restore answered a head other than the committed one').toEqual(
            viewOf(committed),
          );
        } else {
          const err = await expectRejection(Promise.reject(answer.error));
          expect({ code: err.code, retryable: ERROR_REGISTRY[err.code].retryable }).toEqual({
            code: err.code,
            retryable: true,
          });
        }
      }
    });
    expect(viewOf(await restoring.store.load_head(restoring.scope))).toEqual(viewOf(committed));
  });

  it('R01.9 a run started while its worker’s control-plane link is down never restores pod-local state; once healed it continues from the committed head', async (ctx) => {
    const f = needProcessFaults(ctx, t());
    const link = await needNetworkLink(ctx, t(), 'worker-control-plane', tp());
    const { alice, bindingId } = await openBinding();
    const kept = await within(STEP_MS, 'run 1', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'kept' }]));
    expect(kept.state).toBe('completed');
    const marker = `smtc-poison-${randomBytes(8).toString('hex')}`;
    await f.poisonLocalCache(bindingId, marker);
    let healed = false;
    try {
      await takeDown(link);
      const o = await within(
        STEP_MS,
        'the run behind a downed link',
        runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'while the link is down' }]),
      );
      expect(JSON.stringify(o.events)).not.toContain(marker);
      // Nothing it did while the link was down became durable.
      expect(o.state).not.toBe('completed');
      await link.heal();
      healed = true;
    } finally {
      if (!healed) await link.heal();
    }
    const head = await durableHead(t(), alice, bindingId);
    expect(payloadText(head)).not.toContain(marker);
    expect(head?.revision).toBe(kept.revision);
    const next = await within(STEP_MS, 'next run', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'healed' }]));
    expect({ state: next.state, revision: next.revision }).toEqual({ state: 'completed', revision: kept.revision + 1 });
    expect(JSON.stringify(next.events)).not.toContain(marker);
  });
});

/**
 * A run whose restore cannot load the head — the store answers its load with `unavailable`, once,
 * as a cut or slow link would — with the worker's pod-local cache poisoned (R01.5's marker, the
 * cached revision kept so a compare-and-set would pass) or stale (the head moved elsewhere since
 * the worker cached it). The run may fail with a retryable error, having done nothing, or go on
 * from the committed head it loaded on a retry; it never continues from the cache.
 */
describe('R01 restore when the head cannot be loaded', () => {
  it('R01.13 a run whose load of the head fails never continues from a poisoned or stale pod-local cache: it fails retryably having done nothing, or runs from the committed head', async (ctx) => {
    const f = needProcessFaults(ctx, t());
    needCapability(ctx, t(), 'runs', 'failpoints');
    const { alice, bindingId } = await openBinding();
    const marker = `smtc-poison-${randomBytes(8).toString('hex')}`;
    const kept = await within(STEP_MS, 'run 1', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'kept' }]));
    expect(kept.state).toBe('completed');
    let committed = await durableHead(t(), alice, bindingId);

    /** A run whose worker's first load of the head fails; what it did is judged against `committed`. */
    const runWithFailingLoad = async (cache: 'poisoned' | 'stale', text: string) => {
      const o = await withFailpoints(t().faults, { 'state.load.before': '1*return("unavailable")' }, () =>
        within(
          STEP_MS,
          `a run with a ${cache} cache whose load fails`,
          runSteps(t(), alice, bindingId, [{ type: 'emit', text }]),
        ),
      );
      const head = await durableHead(t(), alice, bindingId);
      expect(JSON.stringify(o.events), `the run with a ${cache} cache restored pod-local state`).not.toContain(marker);
      expect(payloadText(head), `the head after the run with a ${cache} cache`).not.toContain(marker);
      if (o.state === 'completed') {
        // It loaded the committed head on a retry and went on from it.
        expect({ revision: o.revision, head: head?.revision, runId: head?.runId }).toEqual({
          revision: committed!.revision + 1,
          head: committed!.revision + 1,
          runId: o.runId,
        });
      } else {
        // No head to run from: nothing of the run was done, shown or kept, and its error is retryable.
        expect({ state: o.state, outputs: outputs(o) }, `the run with a ${cache} cache ran without the head`).toEqual({
          state: 'failed',
          outputs: [],
        });
        const codes = o.events.flatMap((e) => (e.type === 'error' ? [e.code] : []));
        expect(
          codes.length > 0 &&
            codes.every(
              (c) => (ERROR_REGISTRY as Record<string, { retryable: boolean } | undefined>)[c]?.retryable === true,
            ),
          `errors ${codes}`,
        ).toBe(true);
        expect(viewOf(head)).toEqual(viewOf(committed));
      }
      committed = head;
    };

    // Poisoned: the worker's cache holds the committed revision with a payload carrying the marker.
    await f.poisonLocalCache(bindingId, marker);
    await runWithFailingLoad('poisoned', 'after poison');

    // Stale: another writer moves the head; the worker's cache still holds the older one.
    const other = await lease(t(), alice, bindingId);
    const elsewhere = payloadWrittenElsewhere(await other.store.load_head(other.scope), 'written elsewhere', CODEC);
    const ref = await other.store.write_native_state(other.scope, CODEC, elsewhere, 'elsewhere');
    committed = await other.store.commit_head(other.scope, ref, committed?.revision ?? 0, 'run-elsewhere');
    await runWithFailingLoad('stale', 'after move');

    // With the store answering again, the thread goes on from the committed head.
    const next = await within(STEP_MS, 'next run', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'next' }]));
    expect({ state: next.state, revision: next.revision }).toEqual({
      state: 'completed',
      revision: committed!.revision + 1,
    });
    expect(payloadText(await durableHead(t(), alice, bindingId))).not.toContain(marker);
  });
});

/**
 * A worker lost before the client saw anything of its run is not a run that did nothing: the
 * tool call it made emits no event, and the model call it waits on was sent. Re-dispatching the
 * run to a fresh worker ("nothing was shown, so nothing happened") makes both again (contract:
 * "Do not automatically replay model or tool work").
 */
describe('R01 a worker lost before any output', () => {
  it('R01.15 killed while its model call is in flight, after a tool call and before any output: the run does not complete, nothing is replayed (one tool call, one model call), and the previous head is kept', async (ctx) => {
    const f = needProcessFaults(ctx, t());
    const { alice, bindingId } = await openBinding();
    const tool = await authorizedTool(t(), alice, t().principals.agents[0]);
    if (!tool) unsupportedByTarget(ctx, `target "${t().name}" authorizes none of the candidate tools for a run`);
    const kept = await within(STEP_MS, 'run 1', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'kept' }]));
    expect(kept.state).toBe('completed');
    const keptHead = viewOf(await durableHead(t(), alice, bindingId));
    stubs().resetAll();
    const hold = stubs().provider.holdNext();
    const lostRun = runSteps(t(), alice, bindingId, [
      { type: 'tool', tool: tool!, args: 'look it up' },
      { type: 'provider', prompt: 'answer slowly' },
      { type: 'emit', text: 'after the answer' },
    ]);
    lostRun.catch(() => {});
    let restored = false;
    try {
      await within(STEP_MS, 'the provider call of the run', hold.arrived);
      await within(STEP_MS, 'SIGKILL worker', f.killPart('worker', 'SIGKILL'));
      hold.release();
      const outcome = await within(STEP_MS, 'the run that lost its worker', lostRun);
      await new Promise((r) => setTimeout(r, QUIET_MS));
      await within(STEP_MS, 'restarting the worker', f.restartPart('worker'));
      restored = true;
      await new Promise((r) => setTimeout(r, QUIET_MS));
      expect(
        {
          state: outcome.state === 'completed' ? 'completed' : 'not completed',
          output: outputs(outcome),
          tool: stubs().tool.calls().length,
          provider: stubs().provider.completions().length,
        },
        'the run lost its worker mid-call: nothing of it may run again',
      ).toEqual({ state: 'not completed', output: [], tool: 1, provider: 1 });
      expect(viewOf(await durableHead(t(), alice, bindingId)), 'the previous head is kept').toEqual(keptHead);
    } finally {
      hold.release();
      if (!restored) await f.restartPart('worker').catch(() => {});
    }
  });
});

describe('R01 the next run starts from the committed head', () => {
  it('R01.10 a run whose commit did not land is not the base of the next run: the next head holds only committed work', async (ctx) => {
    needCapability(ctx, t(), 'runs', 'failpoints');
    const { alice, bindingId } = await openBinding();
    const marker = `smtc-lost-${randomBytes(8).toString('hex')}`;
    const first = await within(
      STEP_MS,
      'run 1',
      runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'committed work' }]),
    );
    expect(first.state).toBe('completed');
    const lost = await withFailpoints(t().faults, { 'state.commit.before': '1*return("unavailable")' }, () =>
      within(STEP_MS, 'the run whose commit fails', runSteps(t(), alice, bindingId, [{ type: 'emit', text: marker }])),
    );
    expect({ state: lost.state, revision: lost.revision }).toEqual({
      state: 'uncertain_durability',
      revision: first.revision,
    });
    const w = await lease(t(), alice, bindingId);
    expect((await w.store.reconcile(w.scope, lost.runId, { action: 'keep_previous' })).state).toBe('reconciled');
    const next = await within(STEP_MS, 'next run', runSteps(t(), alice, bindingId, [{ type: 'emit', text: 'next' }]));
    expect({ state: next.state, revision: next.revision }).toEqual({
      state: 'completed',
      revision: first.revision + 1,
    });
    const text = payloadText(await durableHead(t(), alice, bindingId));
    expect(text, 'the committed run is missing from the next head').toContain('committed work');
    expect(text.includes(marker), 'the next head carries the work of a run whose commit did not land').toBe(false);
  });

  it('R01.11 an interrupted run resumes with the answer and does not replay the model call it made before the interrupt', async (ctx) => {
    needCapability(ctx, t(), 'runs');
    const { bindingId } = await openBinding();
    stubs().resetAll();
    const { paused, asked } = await runToQuestion(
      bindingId,
      [
        { type: 'provider', prompt: 'draft the message' },
        { type: 'interrupt', value: 'send it?' },
        { type: 'emit', text: 'sent' },
      ],
      'send it?',
    );
    expect(stubs().provider.completions()).toHaveLength(1);
    const resumed = await resumeWith(bindingId, asked.interruptId, 'yes');
    expect({ state: resumed.state, outputs: outputs(resumed) }).toEqual({ state: 'completed', outputs: ['sent'] });
    expect(stubs().provider.completions(), 'the model call before the interrupt was replayed on resume').toHaveLength(
      1,
    );
    expect(resumed.revision).toBe(paused.revision + 1);
  });

  it('R01.12 a resume answers exactly the pending interrupt: a forged or already answered interrupt id runs nothing and leaves the head as it was', async (ctx) => {
    needCapability(ctx, t(), 'runs');
    const { alice, bindingId } = await openBinding();
    stubs().resetAll();
    const { asked } = await runToQuestion(
      bindingId,
      [
        { type: 'emit', text: 'before the question' },
        { type: 'interrupt', value: 'pay the invoice?' },
        { type: 'provider', prompt: 'after the answer' },
        { type: 'emit', text: 'paid' },
      ],
      'pay the invoice?',
    );
    const pending = viewOf(await durableHead(t(), alice, bindingId));
    const forged = [`${asked.interruptId}x`, `int_${randomBytes(8).toString('hex')}`, asked.interruptId.toUpperCase()];
    for (const interruptId of new Set(forged.filter((id) => id !== asked.interruptId))) {
      await refusedResume(bindingId, interruptId, pending, `a resume with the forged interrupt id ${interruptId}`);
    }
    const resumed = await resumeWith(bindingId, asked.interruptId, 'yes');
    expect(resumed.state).toBe('completed');
    expect(outputs(resumed).at(-1)).toBe('paid');
    expect(stubs().provider.completions()).toHaveLength(1);
    // The interrupt is answered: answering it again is a replay, not a resume.
    const done = viewOf(await durableHead(t(), alice, bindingId));
    await refusedResume(bindingId, asked.interruptId, done, 'a second answer to the answered interrupt');
    expect(stubs().provider.completions(), 'a refused resume called the model').toHaveLength(1);
  });
});

/**
 * Runs interrupted several times, each interrupt answered with a value no other resume gives: the
 * continuation of each resume runs with the value that resume carries (LangGraph: the pending
 * `interrupt()` returns the `Command(resume=…)` value), never an earlier answer — of the same run,
 * of an earlier run on the thread, or of the same question asked again. What the continuation ran
 * with is read from the head it committed, by its codec: the scripted transcript's answer, the
 * LangGraph state's interrupt result.
 */
interface ResumeAnswerCase {
  readonly name: string;
  /** Per run on the thread, the questions its interrupts ask, in order. */
  readonly runs: readonly (readonly string[])[];
  /** Output after each answer; without it the interrupts come back to back. */
  readonly outputBetween: boolean;
}

const RESUME_ANSWER_CASES: readonly ResumeAnswerCase[] = [
  {
    name: 'two interrupts in one run, each its own question',
    runs: [['which account?', 'how much?']],
    outputBetween: true,
  },
  {
    name: 'three interrupts in one run asking the same question, back to back',
    runs: [['go on?', 'go on?', 'go on?']],
    outputBetween: false,
  },
  {
    name: 'one interrupt in each of two runs on the thread, the same question',
    runs: [['approve?'], ['approve?']],
    outputBetween: true,
  },
];

/** Answer shapes, in turn; each answer holds a random token no other answer holds. */
const ANSWER_SHAPES: readonly ((token: string) => string)[] = [
  (n) => `yes-${n}`,
  (n) => `no, wait: ${n}`,
  (n) => `ändern ${n} 日本`,
  (n) => n,
];

/** Whether head text holds `value`, as written or escaped as a JSON string (a transcript, a LangGraph value). */
function holdsValue(text: string, value: string): boolean {
  const json = JSON.stringify(value).slice(1, -1);
  const ascii = json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [value, json, ascii].some((form) => text.includes(form));
}

describe('R01 a resume runs with its own answer', () => {
  it('R01.14 each resume of a run interrupted several times continues with the answer it carries, never an earlier answer of the run, the thread or the same question', async (ctx) => {
    needCapability(ctx, t(), 'runs');
    let answers = 0;
    for (const c of RESUME_ANSWER_CASES) {
      const { alice, bindingId } = await openBinding();
      const given: string[] = [];
      for (const [r, questions] of c.runs.entries()) {
        const steps: RunStep[] = [{ type: 'emit', text: `run ${r + 1} begins` }];
        for (const [i, value] of questions.entries()) {
          steps.push({ type: 'interrupt', value });
          if (c.outputBetween) steps.push({ type: 'emit', text: `run ${r + 1} answered ${i + 1}` });
        }
        steps.push({ type: 'emit', text: `run ${r + 1} ends` });
        let outcome = await within(STEP_MS, `${c.name}: run ${r + 1}`, runSteps(t(), alice, bindingId, steps));
        for (const [i, question] of questions.entries()) {
          const where = `${c.name}: run ${r + 1}, interrupt ${i + 1}`;
          const asked = askedBy(outcome, question, where);
          const answer = ANSWER_SHAPES[answers++ % ANSWER_SHAPES.length]!(randomBytes(6).toString('hex'));
          given.push(answer);
          outcome = await resumeWith(bindingId, asked.interruptId, answer, `${where}: resume`);
          const last = i === questions.length - 1;
          expect({ state: outcome.state, outputs: outputs(outcome) }, `${where}: the resumed run`).toEqual({
            state: last ? 'completed' : 'interrupted',
            outputs: [
              ...(c.outputBetween ? [`run ${r + 1} answered ${i + 1}`] : []),
              ...(last ? [`run ${r + 1} ends`] : []),
            ],
          });
          const head = await durableHead(t(), alice, bindingId);
          expect(head?.revision, `${where}: the head after the resumed run`).toBe(outcome.revision);
          const text = payloadText(head);
          const earlier = given.slice(0, -1).filter((a) => holdsValue(text, a));
          expect(
            holdsValue(text, answer),
            `${where}: the head its continuation committed lacks the answer "${answer}" it was resumed with (it holds the earlier answers ${JSON.stringify(earlier)})`,
          ).toBe(true);
        }
      }
    }
  });
});

/** A run on the binding (as alice) that must stop at an interrupt asking `question`: its outcome and that interrupt. */
async function runToQuestion(bindingId: string, steps: readonly RunStep[], question: string, what = 'interrupted run') {
  const paused = await within(STEP_MS, what, runSteps(t(), t().principals.alice, bindingId, steps));
  return { paused, asked: askedBy(paused, question, what) };
}

/** The interrupt a run stopped at; the run must be interrupted, asking `question`. */
function askedBy(outcome: RunOutcome, question: string, what: string): InterruptEvent {
  const asked = outcome.events.find((e): e is InterruptEvent => e.type === 'interrupt');
  expect({ state: outcome.state, asked: asked?.value }, what).toEqual({ state: 'interrupted', asked: question });
  return asked!;
}

/** A resume of the binding (as alice, no further steps) answering `interruptId` with `value`. */
function resumeWith(bindingId: string, interruptId: string, value: string, what = 'resumed run'): Promise<RunOutcome> {
  return within(STEP_MS, what, runSteps(t(), t().principals.alice, bindingId, [], { resume: { interruptId, value } }));
}

/** A resume that must not run: refused (a contract error), or a run that fails or shows its interrupt again, without output; the head unmoved. */
async function refusedResume(bindingId: string, interruptId: string, head: HeadView | null, what: string) {
  const alice = t().principals.alice;
  let outcome: RunOutcome | null = null;
  try {
    outcome = await resumeWith(bindingId, interruptId, 'yes', what);
  } catch (e) {
    expect((e as { code?: unknown }).code, `${what}: not a contract error`).toBeTypeOf('string');
  }
  if (outcome) {
    // A failed run, or the pending interrupt shown again — never output of the script.
    expect(['failed', 'interrupted'], `${what} ended ${outcome.state}`).toContain(outcome.state);
    expect(outputs(outcome), what).toEqual([]);
  }
  expect(viewOf(await durableHead(t(), alice, bindingId)), `${what} moved the head`).toEqual(head);
}
