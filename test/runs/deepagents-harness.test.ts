/**
 * The reference served as processes (control plane + one sandbox worker process) running the
 * Deep Agents harness, selected per run by the binding's harness id and codec: its spans form
 * the required topology under one trace; a worker SIGKILLed mid-graph leaves the durable
 * head, and the next run resumes from it on a new worker without replaying anything; an
 * interrupt survives the loss of the worker and of the control plane and resumes with the
 * human's answer.
 */
import { describe, expect, it } from 'vitest';
import type { RunStep } from '../../contract/runs.js';
import type { DurableStateHead } from '../../contract/state.js';
import { SPAN } from '../../contract/tracing.js';
import { authorizedTool } from '../../fixtures/scenario/authorized-tool.js';
import { topologyProblems } from '../../fixtures/traces/required-topology.js';
import { spansOfTrace } from '../../fixtures/traces/run-trace.js';
import served from '../../reference-impl/http-module-target.js';
import { LANGGRAPH_CODEC } from '../../reference-impl/runs/worker/langgraph/checkpoint-log.js';
import { killedAtProvider as killAtProvider } from './killed-at-provider.js';
import { langgraphHeadText } from './langgraph-head-text.js';
import { useServed } from './served-fixture.js';

const DEEPAGENTS = { environment: 'smtc-test', harness: 'deepagents', codec: LANGGRAPH_CODEC } as const;

const reference = useServed(
  'smtc-deepagents-',
  ({ dir, env }) => served.create({ tempDir: dir, ...env }),
  async (t) => served.destroy?.(t),
);
const ref = () => reference.target;

const binding = async () => (await ref().bindings.open(ref().principals.alice, DEEPAGENTS)).bindingId;
const run = (bindingId: string, steps: RunStep[], resume?: { interruptId: string; value: string }) =>
  ref().runs!.start(ref().principals.alice, {
    bindingId,
    agent: ref().principals.agents[0],
    steps,
    ...(resume ? { resume } : {}),
  });

async function head(bindingId: string): Promise<DurableStateHead | null> {
  const s = await ref().bindings.acquireLease(ref().principals.alice, bindingId);
  return ref().threadState(s).load_head(s.scope);
}

const logText = langgraphHeadText;
const killedAtProvider = (bindingId: string, steps: RunStep[]) =>
  killAtProvider(ref(), reference.stubs.provider, () => run(bindingId, steps));

describe('Deep Agents harness in the served reference', () => {
  it('refuses a subagent inside a subagent instead of skipping its steps', async () => {
    const before = reference.stubs.provider.completions().length;
    const nested: RunStep[] = [
      { type: 'subagent', steps: [{ type: 'subagent', steps: [{ type: 'provider', prompt: 'Nested work.' }] }] },
    ];
    const out = await run(await binding(), nested).catch((e: unknown) => e);
    expect((out as { state?: string }).state, 'the run does not report completed').not.toBe('completed');
    expect(reference.stubs.provider.completions().length, 'no step ran').toBe(before);
  });

  it('spans of a full run form the required topology under one trace', async () => {
    const tool = await authorizedTool(ref(), ref().principals.alice, ref().principals.agents[0]);
    expect(tool).not.toBeNull();
    const key = `trip-${Date.now()}`;
    const out = await run(await binding(), [
      { type: 'provider', prompt: 'Plan a trip.' },
      {
        type: 'memory_write',
        scope: 'user',
        proposal: { key, kind: 'semantic', content: 'Window seats.', contentType: 'text/plain' },
      },
      { type: 'memory_read', scope: 'user', key },
      { type: 'tool', tool: tool!, args: '{"q":"flights"}' },
      { type: 'subagent', steps: [{ type: 'emit', text: 'Calendar checked.' }] },
      { type: 'emit', text: 'Planned.' },
    ]);
    expect(out).toMatchObject({ state: 'completed', revision: 1 });
    const spans = await spansOfTrace(ref(), reference.collector, out.traceId!, {
      spans: {
        [SPAN.run]: 1,
        [SPAN.providerInvoke]: 1,
        [SPAN.toolInvoke]: 1,
        [SPAN.subagentRun]: 1,
        [SPAN.memoryRead]: 1,
        [SPAN.memoryWrite]: 1,
        [SPAN.stateLoad]: 1,
        [SPAN.stateWrite]: 1,
        [SPAN.stateCommit]: 1,
      },
    });
    expect(topologyProblems(spans, { externalParent: null })).toEqual([]);
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const subagent = spans.find((s) => s.name === SPAN.subagentRun)!;
    expect(byId.get(subagent.parentSpanId!)?.name).toBe(SPAN.run);
    expect(spans.find((s) => s.name === SPAN.run)?.attributes['smtc.harness.id']).toBe('deepagents');
  }, 120_000);

  it('a worker SIGKILLed mid-graph: the durable head is kept, the next run resumes from it on a new worker', async () => {
    const id = await binding();
    const lost = await killedAtProvider(id, [
      { type: 'emit', text: 'before the checkpoint' },
      { type: 'checkpoint' },
      { type: 'emit', text: 'after the checkpoint' },
      { type: 'provider', prompt: 'slow' },
    ]);
    expect({ state: lost.state, revision: lost.revision }).toEqual({ state: 'uncertain_durability', revision: 1 });
    const kept = await head(id);
    expect(kept?.runId).toBe(lost.runId);
    // The head is LangGraph's state at the checkpoint: the first step's tool result is in it,
    // the third's (after the checkpoint) died with the worker.
    expect(logText(kept)).toContain('"tool_call_id":"step-0"');
    expect(logText(kept)).not.toContain('"tool_call_id":"step-2"');
    const next = await run(id, [{ type: 'provider', prompt: 'next' }]);
    expect(next).toMatchObject({ state: 'completed', revision: 2 });
    // Nothing of the lost run was replayed: the held call and the new one only.
    expect(
      reference.stubs.provider.completions().map((c) => (JSON.parse(c.body) as { prompt: string }).prompt),
    ).toEqual(['slow', 'next']);
    expect(logText(await head(id))).toContain('"tool_call_id":"step-0"');
  }, 120_000);

  it('an interrupt survives worker and control-plane loss and resumes with the human answer', async () => {
    const id = await binding();
    const paused = await run(id, [
      { type: 'provider', prompt: 'draft' },
      { type: 'interrupt', value: 'may I send it?' },
      { type: 'emit', text: 'sent' },
    ]);
    expect(paused).toMatchObject({ state: 'interrupted', revision: 1 });
    const asked = paused.events.find((e) => e.type === 'interrupt');
    expect(asked).toMatchObject({ value: 'may I send it?' });
    await ref().faults!.killPart!('worker', 'SIGKILL');
    await ref().faults!.killPart!('control_plane', 'SIGKILL');
    await ref().faults!.restartPart!('control_plane');
    const resumed = await run(id, [], {
      interruptId: (asked as { interruptId: string }).interruptId,
      value: 'yes, send it',
    });
    expect(resumed).toMatchObject({ state: 'completed', revision: 2 });
    expect(resumed.events.filter((e) => e.type === 'output')).toEqual([expect.objectContaining({ text: 'sent' })]);
    expect(logText(await head(id))).toContain('answer: yes, send it');
    // The provider step before the interrupt was not run again on the new worker.
    expect(reference.stubs.provider.completions()).toHaveLength(1);
  }, 180_000);
});
