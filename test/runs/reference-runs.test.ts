/**
 * The reference's run path beyond what R08/R09 observe through telemetry: input validation,
 * identity from the credential, interrupts and resume, and the commit protocol's failure
 * handling (uncertain durability after output, no replay), driven through the Target.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent, RunStep } from '../../contract/runs.js';
import type { Target } from '../../contract/target.js';
import { SPEC } from '../../fixtures/scenario/thread-session.js';
import { startStubs } from '../../fixtures/stubs/use-stubs.js';
import referenceModule from '../../reference-impl/module-target.js';

let stubs: Awaited<ReturnType<typeof startStubs>>;
let t: Target;
let dir: string;

beforeAll(async () => {
  stubs = await startStubs();
  dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-runs-'));
  t = await referenceModule.create({ tempDir: dir, ...stubs.urls() });
});
afterAll(async () => {
  await referenceModule.destroy!(t);
  await stubs.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  stubs.resetAll();
  await t.faults?.clearFailpoints();
});

async function binding(owner = t.principals.alice) {
  return (await t.bindings.open(owner, SPEC)).bindingId;
}

function start(bindingId: string, steps: RunStep[], onEvent?: (e: RunEvent) => void) {
  return t.runs!.start(t.principals.alice, { bindingId, agent: t.principals.agents[0], steps }, onEvent);
}

describe('reference runs', () => {
  it('declares runs without telemetry when no collector is given, and reports no trace id', async () => {
    expect(t.capabilities.runs).toBe(true);
    expect(t.capabilities.telemetry).toBe(false);
    expect(t.telemetry).toBeUndefined();
    const out = await start(await binding(), [{ type: 'emit', text: 'hi' }]);
    expect(out).toMatchObject({ state: 'completed', revision: 1, traceId: null });
  });

  it('streams events in order, durable only after the commit', async () => {
    const seen: RunEvent[] = [];
    const out = await start(
      await binding(),
      [{ type: 'emit', text: 'a' }, { type: 'checkpoint' }, { type: 'provider', prompt: 'p' }],
      (e) => seen.push(e),
    );
    expect(seen).toEqual(out.events);
    expect(seen.map((e) => e.type)).toEqual(['output', 'durable', 'output', 'durable']);
    expect(seen.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(out.revision).toBe(2);
  });

  it.each([
    ['no steps array', { steps: 'x' }],
    ['unknown step', { steps: [{ type: 'shell' }] }],
    ['oversized prompt', { steps: [{ type: 'provider', prompt: 'x'.repeat(70_000) }] }],
    ['bad tool name', { steps: [{ type: 'tool', tool: 'a b', args: '' }] }],
    ['interrupt inside a subagent', { steps: [{ type: 'subagent', steps: [{ type: 'interrupt', value: 'v' }] }] }],
    ['too many steps', { steps: Array.from({ length: 300 }, () => ({ type: 'emit', text: '' })) }],
    ['non-string header', { steps: [], headers: { traceparent: 5 } }],
    ['the retired trustedIngress claim', { steps: [], trustedIngress: true }],
  ])('rejects %s as invalid_argument, echoing nothing', async (_case, patch) => {
    const id = await binding();
    const err = await t
      .runs!.start(t.principals.alice, { bindingId: id, agent: t.principals.agents[0], ...patch } as never)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'invalid_argument' });
    expect(String((err as Error).message)).not.toContain(id);
  });

  it('rejects an onEvent that is not a function as invalid_argument', async () => {
    const id = await binding();
    await expect(
      t.runs!.start(t.principals.alice, { bindingId: id, agent: t.principals.agents[0], steps: [] }, 'cb' as never),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('the run record agrees with the outcome: completed and interrupted runs are never marked uncertain', async () => {
    const id = await binding();
    const done = await start(id, [{ type: 'emit', text: 'a' }]);
    const paused = await start(id, [{ type: 'interrupt', value: 'ok?' }]);
    expect([done.state, paused.state]).toEqual(['completed', 'interrupted']);
    const session = await t.bindings.acquireLease(t.principals.alice, id);
    const store = t.threadState(session);
    expect(await store.run_status(session.scope, done.runId)).toMatchObject({ state: 'completed', reason: null });
    expect(await store.run_status(session.scope, paused.runId)).toMatchObject({ state: 'interrupted', reason: null });
  });

  it('a head that cannot be loaded fails the run cleanly: nothing runs, nothing is shown', async () => {
    const id = await binding();
    await t.faults!.setFailpoint('state.load.before', 'return("unavailable")');
    const out = await start(id, [
      { type: 'provider', prompt: 'p' },
      { type: 'emit', text: 'never' },
    ]);
    expect(out).toMatchObject({ state: 'failed', revision: 0 });
    expect(out.events).toEqual([{ seq: 1, type: 'error', code: 'unavailable' }]);
    expect(stubs.provider.completions()).toHaveLength(0);
  });

  it('resuming a thread that has no head at all is not_found', async () => {
    await expect(
      t.runs!.start(t.principals.alice, {
        bindingId: await binding(),
        agent: t.principals.agents[0],
        steps: [],
        resume: { interruptId: 'int_none', value: 'yes' },
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a run’s memory steps reach the caller’s memory (a write lands, a later read sees it)', async () => {
    const id = await binding();
    const agent = t.principals.agents[0];
    const proposal = { key: 'seat-pref', kind: 'semantic', content: 'Prefers aisle seats.', contentType: 'text/plain' };
    const out = await start(id, [{ type: 'memory_write', scope: 'user', proposal } as RunStep]);
    expect(out.state).toBe('completed');
    const record = await t.memory(t.principals.alice, agent).get({ kind: 'user' }, 'seat-pref');
    expect(record?.content).toBe('Prefers aisle seats.');
  });

  it('takes identity from the credential only', async () => {
    const id = await binding(t.principals.alice);
    const carol = t.principals.carol;
    // Claiming to be alice with carol's credential: carol cannot see alice's binding.
    const err = await t
      .runs!.start(
        { ...t.principals.alice, credential: carol.credential },
        { bindingId: id, agent: t.principals.agents[0], steps: [] },
      )
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'not_found' });
    await expect(
      t.runs!.start(t.principals.alice, { bindingId: id, agent: 'agent-unknown', steps: [] }),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('interrupts durably and resumes with the pending steps', async () => {
    const id = await binding();
    const first = await start(id, [
      { type: 'emit', text: 'before' },
      { type: 'interrupt', value: 'approve?' },
      { type: 'emit', text: 'after' },
    ]);
    expect(first.state).toBe('interrupted');
    expect(first.events.map((e) => e.type)).toEqual(['output', 'interrupt', 'durable']);
    const interrupt = first.events.find((e) => e.type === 'interrupt') as Extract<RunEvent, { type: 'interrupt' }>;
    await expect(
      t.runs!.start(t.principals.alice, {
        bindingId: id,
        agent: t.principals.agents[0],
        steps: [],
        resume: { interruptId: 'int_wrong', value: 'yes' },
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    const resumed = await t.runs!.start(t.principals.alice, {
      bindingId: id,
      agent: t.principals.agents[0],
      steps: [{ type: 'emit', text: 'end' }],
      resume: { interruptId: interrupt.interruptId, value: 'yes' },
    });
    expect(resumed.state).toBe('completed');
    expect(resumed.events.filter((e) => e.type === 'output').map((e) => (e as { text: string }).text)).toEqual([
      'after',
      'end',
    ]);
    expect(resumed.revision).toBe(2);
  });

  it('a commit failing after client-visible output is uncertain: previous head kept, run fenced, no replay', async () => {
    const id = await binding();
    await start(id, [{ type: 'emit', text: 'first' }]);
    await t.faults!.setFailpoint('state.commit.before', 'return("unavailable")');
    const out = await start(id, [{ type: 'provider', prompt: 'p' }]);
    expect(out.state).toBe('uncertain_durability');
    expect(out.revision).toBe(1);
    expect(out.events.map((e) => e.type)).toEqual(['output', 'error']);
    expect(out.events.at(-1)).toMatchObject({ code: 'uncertain_durability' });
    expect(stubs.provider.completions()).toHaveLength(1);
    await t.faults!.clearFailpoints();
    const session = await t.bindings.acquireLease(t.principals.alice, id);
    const store = t.threadState(session);
    expect((await store.load_head(session.scope))?.revision).toBe(1);
    expect(await store.run_status(session.scope, out.runId)).toMatchObject({
      state: 'uncertain_durability',
      reason: 'commit_failed_after_output',
    });
  });

  it('a write failing after client-visible output is uncertain with the write reason', async () => {
    const id = await binding();
    await t.faults!.setFailpoint('state.write.before', 'return("unavailable")');
    const out = await start(id, [{ type: 'emit', text: 'shown' }]);
    expect(out.state).toBe('uncertain_durability');
    expect(out.revision).toBe(0);
    await t.faults!.clearFailpoints();
    const session = await t.bindings.acquireLease(t.principals.alice, id);
    expect(await t.threadState(session).run_status(session.scope, out.runId)).toMatchObject({
      state: 'uncertain_durability',
      reason: 'write_failed_after_output',
    });
  });

  it('runs again after the binding was cleared and after its lease was taken elsewhere (no stale cached lease)', async () => {
    const id = await binding();
    expect(await start(id, [{ type: 'emit', text: 'one' }])).toMatchObject({ state: 'completed', revision: 1 });
    await t.bindings.clear(t.principals.alice, id);
    expect(await start(id, [{ type: 'emit', text: 'two' }])).toMatchObject({ state: 'completed', revision: 1 });
    await t.bindings.acquireLease(t.principals.alice, id);
    expect(await start(id, [{ type: 'emit', text: 'three' }])).toMatchObject({ state: 'completed', revision: 2 });
    // And reuses a still-current lease: two runs in a row on it both complete.
    expect(await start(id, [{ type: 'emit', text: 'four' }])).toMatchObject({ state: 'completed', revision: 3 });
  });

  it('a commit failing before any output just fails the run', async () => {
    const id = await binding();
    await t.faults!.setFailpoint('state.write.before', 'return("unavailable")');
    const out = await start(id, [{ type: 'checkpoint' }]);
    expect(out.state).toBe('failed');
    expect(out.events).toEqual([{ seq: 1, type: 'error', code: 'unavailable' }]);
  });

  it('a provider failure fails the run without a commit and without retrying the provider', async () => {
    const id = await binding();
    stubs.provider.respondWith(() => ({ status: 503 }));
    const out = await start(id, [
      { type: 'provider', prompt: 'p' },
      { type: 'emit', text: 'never' },
    ]);
    expect(out).toMatchObject({ state: 'failed', revision: 0 });
    expect(stubs.provider.completions()).toHaveLength(1);
    expect(out.events.some((e) => e.type === 'output')).toBe(false);
  });

  it('refuses tools the policy does not grant, and calls no tool endpoint', async () => {
    const out = await start(await binding(), [{ type: 'tool', tool: 'kubectl_exec', args: '{}' }]);
    expect(out.state).toBe('failed');
    expect(out.events).toEqual([{ seq: 1, type: 'error', code: 'forbidden' }]);
    expect(stubs.tool.calls()).toHaveLength(0);
  });
});
