/**
 * The Deep Agents harness's two mutants (fixtures/mutants/deepagents/), each beside the
 * reference on the same scenario, in process (the served reference's kill/resume scenarios
 * are in deepagents-harness.test.ts): the reference passes it and the mutant fails it.
 *  - resumes-newest-checkpoint: a run whose commit did not land (uncertain, head kept) must not
 *    be the base of the next run — the next head holds only committed runs' work.
 *  - drops-pending-writes-on-resume: an interrupted run resumed with the human's answer must
 *    complete with that answer, replaying nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunStep } from '../../contract/runs.js';
import type { Target, TargetModule } from '../../contract/target.js';
import dropsPendingWrites from '../../fixtures/mutants/deepagents/drops-pending-writes-on-resume.js';
import resumesNewest from '../../fixtures/mutants/deepagents/resumes-newest-checkpoint.js';
import { startStubs } from '../../fixtures/stubs/use-stubs.js';
import reference from '../../reference-impl/module-target.js';
import { LANGGRAPH_CODEC } from '../../reference-impl/runs/worker/langgraph/checkpoint-log.js';
import { langgraphHeadText } from './langgraph-head-text.js';

const DEEPAGENTS = { environment: 'smtc-test', harness: 'deepagents', codec: LANGGRAPH_CODEC } as const;

let stubs: Awaited<ReturnType<typeof startStubs>>;
let dir: string;
beforeAll(async () => {
  stubs = await startStubs();
  dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-deepagents-mutants-'));
});
afterAll(async () => {
  await stubs?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => stubs.resetAll());

async function withTarget<T>(mod: TargetModule, fn: (t: Target) => Promise<T>): Promise<T> {
  const t = await mod.create({ tempDir: mkdtempSync(path.join(dir, 't-')), ...stubs.urls() });
  try {
    return await fn(t);
  } finally {
    await mod.destroy?.(t);
  }
}

function runner(t: Target, bindingId: string) {
  return (steps: RunStep[], resume?: { interruptId: string; value: string }) =>
    t.runs!.start(t.principals.alice, {
      bindingId,
      agent: t.principals.agents[0],
      steps,
      ...(resume ? { resume } : {}),
    });
}

async function headText(t: Target, bindingId: string): Promise<string> {
  const s = await t.bindings.acquireLease(t.principals.alice, bindingId);
  return langgraphHeadText(await t.threadState(s).load_head(s.scope));
}

/** Run 2's commit does not land after its output; run 3 must start from run 1's head. */
async function uncommittedRunIsNotTheBase(t: Target) {
  const { bindingId } = await t.bindings.open(t.principals.alice, DEEPAGENTS);
  const run = runner(t, bindingId);
  const first = await run([{ type: 'emit', text: 'committed work' }]);
  await t.faults!.setFailpoint('state.commit.before', '1*return("unavailable")');
  const lost = await run([{ type: 'emit', text: 'never-durable work' }]);
  await t.faults!.clearFailpoints();
  const next = await run([{ type: 'emit', text: 'next work' }]);
  const text = await headText(t, bindingId);
  return {
    first: first.state,
    lost: lost.state,
    next: { state: next.state, revision: next.revision },
    keepsCommitted: text.includes('committed work'),
    carriesUncommitted: text.includes('never-durable work'),
  };
}

/** Interrupted, then resumed with the answer: completes with it, nothing replayed. */
async function resumeWithAnswer(t: Target) {
  const { bindingId } = await t.bindings.open(t.principals.alice, DEEPAGENTS);
  const run = runner(t, bindingId);
  const paused = await run([
    { type: 'provider', prompt: 'draft' },
    { type: 'interrupt', value: 'send?' },
    { type: 'emit', text: 'sent' },
  ]);
  const asked = paused.events.find((e) => e.type === 'interrupt') as { interruptId: string } | undefined;
  const resumed = await run([], { interruptId: asked?.interruptId ?? '', value: 'yes' });
  return {
    paused: paused.state,
    resumed: resumed.state,
    outputs: resumed.events.flatMap((e) => (e.type === 'output' ? [e.text] : [])),
    answered: (await headText(t, bindingId)).includes('answer: yes'),
    providerCalls: stubs.provider.completions().length,
  };
}

const CORRECT_BASE = {
  first: 'completed',
  lost: 'uncertain_durability',
  next: { state: 'completed', revision: 2 },
  keepsCommitted: true,
  carriesUncommitted: false,
};
const CORRECT_RESUME = {
  paused: 'interrupted',
  resumed: 'completed',
  outputs: ['sent'],
  answered: true,
  providerCalls: 1,
};

describe('Deep Agents harness mutants', () => {
  it('reference: an uncommitted run is not the next run’s base; an interrupt resumes with the answer', async () => {
    await withTarget(reference, async (t) => {
      expect(await uncommittedRunIsNotTheBase(t)).toEqual(CORRECT_BASE);
      expect(await resumeWithAnswer(t)).toEqual(CORRECT_RESUME);
    });
  }, 60_000);

  it(`${resumesNewest.name} (${resumesNewest.bug}) fails ${resumesNewest.breaks.join(', ')}`, async () => {
    const seen = await withTarget(resumesNewest, uncommittedRunIsNotTheBase);
    expect(seen).not.toEqual(CORRECT_BASE);
    expect(seen.carriesUncommitted).toBe(true);
  }, 60_000);

  it(`${dropsPendingWrites.name} (${dropsPendingWrites.bug}) fails ${dropsPendingWrites.breaks.join(', ')}`, async () => {
    const seen = await withTarget(dropsPendingWrites, resumeWithAnswer);
    expect(seen).not.toEqual(CORRECT_RESUME);
    // The provider step that finished beside the interrupt is run again on resume.
    expect(seen.providerCalls).toBeGreaterThan(1);
  }, 60_000);
});
