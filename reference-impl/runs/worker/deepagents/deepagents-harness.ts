/**
 * The `deepagents` harness: a real Deep Agents graph (`createDeepAgent`) run inside the sandbox
 * worker for bindings whose scope names harness `deepagents` and codec
 * `langgraph-checkpoint/v1`. Its model is the scripted `fakeModel` (script-model.ts); each
 * step is a tool call of the agent, whose effect — provider call, tool call through the tool
 * broker, memory read/write through the memory broker, output, trusted-service call — is the
 * scripted harness's step code with its spans; a subagent step is Deep Agents' `task` tool
 * running a subagent (under `subagent.run`); an interrupt step is LangGraph's `interrupt()`
 * (human in the loop). LangGraph's checkpoints go through ContractCheckpointSaver over the
 * run-staged thread (run-staged-thread.ts), started from the durable head the run loaded and
 * committed at checkpoint steps, at an interrupt and at the end of the run.
 */
import { randomUUID } from 'node:crypto';
import { tool } from '@langchain/core/tools';
import { Command, interrupt } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { Context } from '@opentelemetry/api';
import { createDeepAgent } from 'deepagents';
import { createMiddleware } from 'langchain';
import { z } from 'zod';
import { ContractError } from '../../../../contract/errors.js';
import type { RunStep } from '../../../../contract/runs.js';
import type { DurableStateHead, OpaqueStatePayload, PendingInterrupt, StateScope } from '../../../../contract/state.js';
import { inSpan, type SpanScope } from '../../../telemetry/span-scope.js';
import { emptyLog, encodeLog, LANGGRAPH_CODEC } from '../langgraph/checkpoint-log.js';
import { ContractCheckpointSaver } from '../langgraph/contract-checkpoint-saver.js';
import { runStagedThread } from '../langgraph/run-staged-thread.js';
import type { ThreadSessions } from '../langgraph/thread-sessions.js';
import { initialState } from '../native-checkpoint.js';
import type { RunCommit } from '../run-commit.js';
import { type HarnessDeps, ScriptedHarness } from '../scripted-harness.js';
import type { WorkerEvent } from '../worker-port.js';
import { SCRIPT_PREFIX, STEP_TOOLS, SUBAGENT_NAME, scriptMessage, scriptModel } from './script-model.js';

/** LangGraph super-steps one run may take (a model turn and a tool step per script step). */
const RECURSION_LIMIT = 4 * (2 * 256 + 2);

type LeafStep = Exclude<RunStep, { type: 'subagent' | 'checkpoint' | 'interrupt' }>;

/** What a Deep Agents harness of one run is built from. */
export interface DeepAgentsHarnessArgs {
  readonly deps: HarnessDeps;
  /** The run's `harness.run` span. */
  readonly run: SpanScope;
  readonly scope: StateScope;
  /** The durable head the run loaded (null: a new thread). */
  readonly head: DurableStateHead | null;
  readonly runId: string;
  readonly commit: RunCommit;
  readonly emit: (e: WorkerEvent) => void;
}

export class DeepAgentsHarness {
  /** Executes leaf steps exactly as the scripted harness does (same calls, spans, events). */
  private readonly steps: ScriptedHarness;
  private readonly thread: ReturnType<typeof runStagedThread>;
  /** The span context tools run under: `harness.run`, or a subagent's `subagent.run`. */
  private parent: Context;
  /** The first failure of a step: the model stops, the run fails with it (as the scripted harness). */
  private failure: { error: unknown } | null = null;

  private readonly deps: HarnessDeps;
  private readonly scope: StateScope;

  constructor(args: DeepAgentsHarnessArgs) {
    this.deps = args.deps;
    this.scope = args.scope;
    // The scripted state is a throwaway: the agent's state is LangGraph's, in the staged log.
    this.steps = new ScriptedHarness(args.deps, args.run, initialState(), args.commit, args.emit);
    this.thread = runStagedThread(args.scope.bindingId, args.scope, this.startFrom(args.scope, args.head), args.runId);
    this.parent = args.run.ctx;
  }

  /** The durable head the run's LangGraph thread starts from: the one the run loaded. */
  protected startFrom(_scope: StateScope, head: DurableStateHead | null): DurableStateHead | null {
    return head;
  }

  /** LangGraph's checkpointer over the run's staged thread. */
  protected checkpointer(sessions: ThreadSessions): BaseCheckpointSaver {
    return new ContractCheckpointSaver(sessions);
  }

  /** Makes the thread durable (a checkpoint step, an interrupt, the end of the run). */
  protected async makeDurable(payload: OpaqueStatePayload, interrupt: PendingInterrupt | null): Promise<void> {
    await this.steps.makeDurable(payload, interrupt);
  }

  get hasUndurableOutput(): boolean {
    return this.steps.hasUndurableOutput;
  }

  /** A new run (`resume` null) or the answer to the head's pending interrupt, then `steps`. */
  async execute(steps: readonly RunStep[], resume: { value: string } | null): Promise<'completed' | 'interrupted'> {
    // Deep Agents gives a subagent no `task` tool: a subagent inside one would have its steps
    // skipped by the model's unknown tool call while the run completes. Refused, not lost.
    if (steps.some((s) => s.type === 'subagent' && s.steps.some((inner) => inner.type === 'subagent'))) {
      throw new ContractError('invalid_argument', 'the Deep Agents harness runs subagents one level deep');
    }
    const agent = this.agent();
    const config = {
      configurable: { thread_id: this.scope.bindingId },
      recursionLimit: RECURSION_LIMIT,
      // Every super-step's checkpoint is staged before the next starts: a checkpoint step commits a complete one.
      durability: 'sync' as const,
    };
    const inputs: unknown[] = resume ? [new Command({ resume: resume.value })] : [];
    if (!resume || steps.length > 0) inputs.push({ messages: [{ role: 'user', content: scriptMessage(steps) }] });
    for (const input of inputs) {
      let out: { __interrupt__?: { value?: unknown }[] } | undefined;
      try {
        out = (await agent.invoke(input as never, config)) as typeof out;
      } catch (e) {
        throw this.failure ? this.failure.error : e;
      }
      if (this.failure) throw this.failure.error;
      const asked = out?.__interrupt__?.[0];
      if (asked) {
        await this.durable({ interruptId: `int_${randomUUID()}`, value: String(asked.value ?? '') });
        this.steps.finishCounts();
        return 'interrupted';
      }
    }
    await this.durable(null);
    this.steps.finishCounts();
    return 'completed';
  }

  private async durable(interrupt: PendingInterrupt | null): Promise<void> {
    const payload = this.thread.payload() ?? {
      codec: LANGGRAPH_CODEC,
      bytes: encodeLog(emptyLog(this.scope.bindingId, this.scope.epoch)),
    };
    await this.makeDurable(payload, interrupt);
  }

  private agent() {
    const stopped = () => this.failure !== null;
    const tools = [
      ...(Object.keys(STEP_TOOLS) as (keyof typeof STEP_TOOLS)[])
        .filter((t) => t !== 'checkpoint' && t !== 'interrupt')
        .map((type) => this.leafTool(type as LeafStep['type'])),
      tool(async () => this.guard(() => this.durable(null).then(() => 'checkpointed')), {
        name: STEP_TOOLS.checkpoint,
        description: 'Make the thread durable here.',
        schema: z.object({ step: z.string() }),
      }),
      tool(
        async ({ step }) => {
          const s = parseStep(step);
          if (s.type !== 'interrupt') throw new ContractError('invalid_argument', 'not an interrupt step');
          return `answer: ${String(interrupt(s.value))}`;
        },
        { name: STEP_TOOLS.interrupt, description: 'Ask the human.', schema: z.object({ step: z.string() }) },
      ),
    ];
    const subagentSpan = createMiddleware({
      name: 'SmtcSubagentSpan',
      wrapToolCall: async (request, handler) => {
        if (request.toolCall.name !== 'task') {
          return handler(request);
        }
        const outer = this.parent;
        try {
          return await inSpan(this.deps.tracer, 'subagent.run', outer, {}, async (s) => {
            this.parent = s.ctx;
            return await handler(request);
          });
        } finally {
          this.parent = outer;
        }
      },
    });
    return createDeepAgent({
      model: scriptModel(stopped),
      tools,
      checkpointer: this.checkpointer(this.thread.sessions),
      middleware: [subagentSpan],
      subagents: [
        {
          name: SUBAGENT_NAME,
          description: 'Runs the steps it is given.',
          systemPrompt: `Run the steps of the ${SCRIPT_PREFIX} message.`,
          model: scriptModel(stopped),
          // Its steps have no durable points: the run's validation admits none inside a subagent.
          tools: tools.slice(0, -2),
        },
      ],
    });
  }

  private leafTool(type: LeafStep['type']) {
    return tool(
      async ({ step }) => {
        const s = parseStep(step);
        if (s.type !== type) throw new ContractError('invalid_argument', 'step does not match its tool');
        return this.guard(() => this.steps.runStep(s as LeafStep, this.parent).then(() => 'ok'));
      },
      { name: STEP_TOOLS[type], description: `Perform a ${type} step.`, schema: z.object({ step: z.string() }) },
    );
  }

  /** A failed step is kept (the model then stops) and rethrown after the graph returns. */
  private async guard(fn: () => Promise<string>): Promise<string> {
    try {
      return await fn();
    } catch (error) {
      this.failure ??= { error };
      return 'failed';
    }
  }
}

function parseStep(json: string): RunStep {
  let s: unknown;
  try {
    s = JSON.parse(json);
  } catch {
    throw new ContractError('invalid_argument', 'step is not JSON');
  }
  if (typeof s !== 'object' || s === null || typeof (s as { type?: unknown }).type !== 'string') {
    throw new ContractError('invalid_argument', 'step has no type');
  }
  return s as RunStep;
}
