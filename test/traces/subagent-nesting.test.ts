/**
 * The checks R08 reads a subagent's steps with: the topology accepts a step span under
 * `subagent.run` as under `harness.run`, and the nesting check tells a subagent whose steps are
 * below its span from one whose steps ran beside it (or a top-level step put inside one).
 */
import { describe, expect, it } from 'vitest';
import type { RunStep } from '../../contract/runs.js';
import { SERVICE } from '../../contract/tracing.js';
import type { CollectedSpan } from '../../fixtures/collector/span-collector.js';
import { topologyProblems } from '../../fixtures/traces/required-topology.js';
import { subagentNestingProblems } from '../../fixtures/traces/subagent-nesting.js';

let seq = 0;
function span(name: string, parent: CollectedSpan | null, service: string = SERVICE.worker): CollectedSpan {
  return {
    traceId: 'a'.repeat(32),
    spanId: (++seq).toString(16).padStart(16, '0'),
    parentSpanId: parent?.spanId ?? null,
    name,
    kind: 1,
    serviceName: service,
    resource: {},
    scope: null,
    attributes: {},
    events: [],
    links: [],
    status: { code: 0 },
    startTimeUnixNano: '0',
    endTimeUnixNano: '0',
  };
}

const STEPS: RunStep[] = [
  { type: 'provider', prompt: 'p' },
  {
    type: 'subagent',
    steps: [
      { type: 'tool', tool: 't', args: '{}' },
      { type: 'subagent', steps: [{ type: 'memory_read', scope: 'user', key: 'k' }] },
      { type: 'emit', text: 'e' },
    ],
  },
];

/** One run of STEPS; `nested` false: each subagent's steps under the subagent's caller instead. */
function trace(nested: boolean): CollectedSpan[] {
  const request = span('harness.request', null, SERVICE.controlPlane);
  const run = span('harness.run', request);
  const outer = span('subagent.run', run);
  const inner = span('subagent.run', nested ? outer : run);
  return [
    request,
    run,
    span('provider.invoke', run),
    outer,
    span('tool.invoke', nested ? outer : run),
    inner,
    span('memory.read', nested ? inner : run),
  ];
}

describe('subagent steps in a trace', () => {
  it('a subagent’s steps below its own subagent.run pass both checks', () => {
    const spans = trace(true);
    expect(topologyProblems(spans, { externalParent: null })).toEqual([]);
    expect(subagentNestingProblems(spans, STEPS)).toEqual([]);
  });

  it('a subagent’s steps beside its span pass the topology, not the nesting check', () => {
    const spans = trace(false);
    expect(topologyProblems(spans, { externalParent: null })).toEqual([]);
    const problems = subagentNestingProblems(spans, STEPS);
    expect(problems[0]).toMatch(/^3 of the 3 spans of the subagents' own steps are not below a subagent\.run/);
    expect(problems[1]).toBe(
      "step spans below harness.run are [memory.read, provider.invoke, subagent.run(), subagent.run(), tool.invoke], the script's steps make [provider.invoke, subagent.run(subagent.run(memory.read), tool.invoke)]",
    );
  });

  it('a top-level step recorded inside a subagent fails the nesting check', () => {
    const spans = trace(true);
    const outer = spans.find((s) => s.name === 'subagent.run')!;
    const moved = spans.map((s) => (s.name === 'provider.invoke' ? { ...s, parentSpanId: outer.spanId } : s));
    expect(topologyProblems(moved, { externalParent: null })).toEqual([]);
    expect(subagentNestingProblems(moved, STEPS)).toHaveLength(1);
  });

  it('state spans stay directly under harness.run', () => {
    const spans = trace(true);
    const outer = spans.find((s) => s.name === 'subagent.run')!;
    expect(topologyProblems([...spans, span('thread_state.write', outer)], { externalParent: null })).toEqual([
      'thread_state.write is a child of subagent.run, expected harness.run',
    ]);
  });
});
