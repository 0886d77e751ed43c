/**
 * A Deep Agents run's durable head stays within the store's payload bound, and R10's outage
 * check can compare two such heads (in process, module target).
 *  - LangGraph writes a checkpoint per super-step, each with every channel's whole value: a head
 *    that kept them all grew with the square of a run's steps (R10.1's canary run: 1.5 MiB
 *    against the 1 MiB default bound), its commit failed with payload_too_large after output
 *    and the run ended `uncertain_durability`. The head keeps what a resume reads
 *    (compactLog): per namespace the newest checkpoint and its pending writes.
 *  - The kit's outage check compares heads of the same workload on different bindings: a
 *    LangGraph log names its thread and mints time-based checkpoint ids, so its bytes differ
 *    every run; `payloadDigest` compares what it persists instead (and a transcript's bytes).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunStep } from '../../contract/runs.js';
import type { DurableStateHead } from '../../contract/state.js';
import type { Target } from '../../contract/target.js';
import { payloadDigest } from '../../fixtures/scenario/harness-spec.js';
import { startStubs } from '../../fixtures/stubs/use-stubs.js';
import reference from '../../reference-impl/module-target.js';
import { decodeLog, LANGGRAPH_CODEC } from '../../reference-impl/runs/worker/langgraph/checkpoint-log.js';
import { DEFAULT_STATE_LIMITS } from '../../reference-impl/state/state-limits.js';

const DEEPAGENTS = { environment: 'smtc-test', harness: 'deepagents', codec: LANGGRAPH_CODEC } as const;
/**
 * The reference's default payload bound. The workload below committed 4.6 MiB heads when every
 * checkpoint was kept; its newest checkpoints are 0.1–0.3 MiB (LangGraph's `Send` packets of a
 * tool super-step each carry the whole conversation).
 */
const MAX_PAYLOAD_BYTES = DEFAULT_STATE_LIMITS.maxPayloadBytes;

let stubs: Awaited<ReturnType<typeof startStubs>>;
let dir: string;
let t: Target;
beforeAll(async () => {
  stubs = await startStubs();
  dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-deepagents-head-bound-'));
  t = await reference.create({
    tempDir: dir,
    ...stubs.urls(),
  });
}, 60_000);
afterAll(async () => {
  if (t) await reference.destroy?.(t);
  await stubs?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `outputs` 3 KiB outputs (ten unless told), a provider call, a subagent, a memory write and a checkpoint. */
function workload(tag: string, outputs = 10): RunStep[] {
  return [
    ...Array.from({ length: outputs }, (_, i): RunStep => ({ type: 'emit', text: `${tag} ${i} `.padEnd(3072, 'x') })),
    { type: 'provider', prompt: `${tag} prompt` },
    { type: 'subagent', steps: [{ type: 'provider', prompt: `${tag} subagent prompt` }] },
    {
      type: 'memory_write',
      scope: 'user',
      proposal: { key: 'head-bound-note', kind: 'semantic', content: tag, contentType: 'text/plain' },
    },
    { type: 'checkpoint' },
  ];
}

async function run(bindingId: string, steps: RunStep[]) {
  return t.runs!.start(t.principals.alice, { bindingId, agent: t.principals.agents[0], steps });
}

async function head(bindingId: string): Promise<DurableStateHead> {
  const s = await t.bindings.acquireLease(t.principals.alice, bindingId);
  const h = await t.threadState(s).load_head(s.scope);
  if (!h) throw new Error('no head');
  return h;
}

describe('Deep Agents durable head', () => {
  it('a run of many steps commits a head within the payload bound: the newest checkpoint per namespace', async () => {
    const { bindingId } = await t.bindings.open(t.principals.alice, DEEPAGENTS);
    const first = await run(bindingId, workload('first'));
    expect(first.state, 'the head it commits fits the bound (not payload_too_large after output)').toBe('completed');
    const h1 = await head(bindingId);
    expect(h1.payload.bytes.length).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const log = decodeLog(h1.payload.bytes, bindingId, h1.epoch);
    const namespaces = new Set(log.checkpoints.map((c) => c[0]));
    expect(log.checkpoints, 'one checkpoint per namespace').toHaveLength(namespaces.size);
    expect(log.writes.every((w) => log.checkpoints.some((c) => c[0] === w[0] && c[1] === w[1]))).toBe(true);
    // The next run resumes from it (the conversation is in the newest checkpoint) and commits again.
    const second = await run(bindingId, [
      { type: 'emit', text: 'second' },
      { type: 'interrupt', value: 'go on?' },
    ]);
    expect(second.state).toBe('interrupted');
    const asked = second.events.find((e) => e.type === 'interrupt') as { interruptId: string } | undefined;
    const resumed = await t.runs!.start(t.principals.alice, {
      bindingId,
      agent: t.principals.agents[0],
      steps: [],
      resume: { interruptId: asked?.interruptId ?? '', value: 'yes' },
    });
    expect(resumed.state).toBe('completed');
    const h2 = await head(bindingId);
    expect(h2.payload.bytes.length).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const decoded = decodeLog(h2.payload.bytes, bindingId, h2.epoch)
      .checkpoints.map((c) => Buffer.from(c[4], 'base64').toString('utf8'))
      .join('\n');
    for (const said of ['first 9 ', 'second', 'answer: yes']) expect(decoded).toContain(said);
  }, 60_000);

  it('payloadDigest: the same workload on two bindings persists the same; another workload does not', async () => {
    const digests: string[] = [];
    const bytes: string[] = [];
    for (const tag of ['same', 'same', 'other']) {
      const { bindingId } = await t.bindings.open(t.principals.alice, DEEPAGENTS);
      expect((await run(bindingId, workload(tag, 2))).state).toBe('completed');
      const h = await head(bindingId);
      digests.push(payloadDigest(h.payload));
      bytes.push(createHash('sha256').update(h.payload.bytes).digest('hex'));
    }
    expect(bytes[0], 'a LangGraph log names its thread and mints its ids: bytes differ').not.toBe(bytes[1]);
    expect(digests[0]).toBe(digests[1]);
    expect(digests[2]).not.toBe(digests[0]);
    // A transcript (no canonical reading) is compared by its bytes.
    const transcript = { codec: 'scripted/v1', bytes: new TextEncoder().encode('{"a":1}') };
    expect(payloadDigest(transcript)).toBe(createHash('sha256').update(transcript.bytes).digest('hex'));
  }, 60_000);
});
