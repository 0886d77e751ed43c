/**
 * Pod loss under a real Deep Agents graph: a worker process running the graph on the contract
 * adapter is SIGKILLed mid-graph — the subagent done, `note` finished and its writes
 * committed, `lookup` still running. The control plane leases the thread to a new worker; it
 * resumes from the durable head alone (nothing of the dead pod is read), does not redo the
 * completed tool work, stops at the human-in-the-loop interrupt, resumes with the answer and
 * finishes. The dead worker's lease is fenced.
 */
import path from 'node:path';
import { Command } from '@langchain/langgraph';
import { afterEach, describe, expect, it } from 'vitest';
import { expectRejection } from '../../fixtures/assertions/contract-error.js';
import { ProcessSupervisor } from '../../fixtures/faults/process-supervisor.js';
import { buildDeepAgent, HUMAN_ANSWER, type ToolRuns } from '../../fixtures/langgraph/deep-agent-scenario.js';
import { DropsPendingWritesOnResume } from '../../fixtures/mutants/langgraph/drops-pending-writes-on-resume.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { LANGGRAPH_CODEC } from '../../reference-impl/runs/worker/langgraph/checkpoint-log.js';
import { ContractCheckpointSaver } from '../../reference-impl/runs/worker/langgraph/contract-checkpoint-saver.js';
import {
  newRunId,
  type ThreadSessions,
  workerThreadSessions,
} from '../../reference-impl/runs/worker/langgraph/thread-sessions.js';
import { type StateTestContext, stateTestContext } from '../state/state-test-context.js';
import { SAVER_SPEC } from './saver-test-context.js';

const THREAD = 'pod-loss-thread';
const supervisor = new ProcessSupervisor();
let t: StateTestContext | undefined;

afterEach(async () => {
  await supervisor.stopAll();
  t?.dispose();
  t = undefined;
});

type MakeSaver = (sessions: ThreadSessions) => ContractCheckpointSaver;

/** Worker 1 runs the graph and is SIGKILLed mid-graph; worker 2 (a new lease) resumes it. */
async function killMidGraphAndResume(makeSaver: MakeSaver) {
  t = stateTestContext();
  const alice = t.ctx.auth.principals.alice;
  const info = await t.service.bindings.open(alice, { ...SAVER_SPEC, codec: LANGGRAPH_CODEC });
  const first = await t.service.bindings.acquireLease(alice, info.bindingId);
  await supervisor.start({
    name: 'worker-1',
    command: process.execPath,
    args: ['--import', 'tsx', path.join(REPO_ROOT, 'fixtures/langgraph/deep-agent-worker.ts')],
    env: { SMTC_WORKER_DB: t.file, SMTC_WORKER_SESSION: JSON.stringify(first), SMTC_WORKER_THREAD: THREAD },
    cwd: REPO_ROOT,
    ready: /^killable$/,
    readyTimeoutMs: 90_000,
  });
  await supervisor.kill('worker-1');

  const second = await t.service.bindings.acquireLease(alice, info.bindingId);
  const saver = makeSaver(workerThreadSessions(THREAD, second, t.service.threadState(second), newRunId()));
  const runs: ToolRuns = { lookup: 0, note: 0 };
  const agent = buildDeepAgent(saver, runs);
  const config = { configurable: { thread_id: THREAD } };
  const resumed = await agent.invoke(null, config);
  const interrupts = ((resumed as { __interrupt__?: { value: unknown }[] }).__interrupt__ ?? []).map((i) => i.value);
  const done = await agent.invoke(new Command({ resume: HUMAN_ANSWER }), config);
  const final = done.messages.map((m) => `${m.getType()}:${String(m.content)}`);
  return { first, runs, interrupts, final };
}

describe('Deep Agents worker SIGKILLed mid-graph', () => {
  it('a new worker resumes from the durable head without replaying completed tool work', async () => {
    const { first, runs, interrupts, final } = await killMidGraphAndResume((s) => new ContractCheckpointSaver(s));
    expect(interrupts).toEqual([{ question: 'may I look up x?' }]);
    expect(final.slice(-4)).toEqual(['ai:', `tool:lookup x: ${HUMAN_ANSWER}`, 'tool:noted y', 'ai:done']);
    // `note` finished on the dead worker and its writes were durable: not run again.
    expect(runs).toEqual({ lookup: 2, note: 0 });
    // The dead worker's lease can no longer read or write the thread.
    await expectRejection(t?.service.threadState(first).load_head(first.scope) as Promise<unknown>, ['stale_lease']);
  }, 120_000);

  it("mutant: an adapter that drops pending writes on resume replays the dead worker's tool work", async () => {
    const { runs } = await killMidGraphAndResume((s) => new DropsPendingWritesOnResume(s));
    // Re-run on the first resume and again on the interrupt's resume (the correct adapter: 0).
    expect(runs.note).toBeGreaterThan(0);
  }, 120_000);
});
