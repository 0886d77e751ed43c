/**
 * The sandbox worker: binds to a lease session handed over by the control plane and runs the
 * scripted harness against the durable head, under its own telemetry identity. It reaches
 * thread state and memory only through the contract facades (never the database), and gets
 * trace context only through the carrier — so it can move into its own process unchanged.
 */
import { randomUUID } from 'node:crypto';
import { type Context, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { WorkerSession } from '../../../contract/bindings.js';
import { ContractError } from '../../../contract/errors.js';
import type { MemoryBroker } from '../../../contract/memory.js';
import type { Principal } from '../../../contract/principals.js';
import type { ThreadStateStore } from '../../../contract/state.js';
import { type Carrier, extractInternal } from '../../telemetry/internal-carrier.js';
import type { OpaqueIds } from '../../telemetry/opaque-ids.js';
import { inSpan } from '../../telemetry/span-scope.js';
import type { DeepAgentsHarness, DeepAgentsHarnessArgs } from './deepagents/deepagents-harness.js';
import { DEEPAGENTS_HARNESS, DEEPAGENTS_VERSION, harnessFor } from './harness-selection.js';
import { decodeState, record } from './native-checkpoint.js';
import type { OutboundHttp } from './outbound-http.js';
import { CommitStepFailed, RunCommit } from './run-commit.js';
import { type HarnessDeps, type HarnessEndpoints, ScriptedHarness } from './scripted-harness.js';
import type { RunJob, WorkerEvent, WorkerPort, WorkerResult } from './worker-port.js';

export interface WorkerDeps {
  /** The worker's telemetry identity (its tracer). */
  readonly telemetry: { readonly tracer: Tracer };
  readonly ids: OpaqueIds;
  readonly threadState: (session: WorkerSession) => ThreadStateStore;
  readonly memory: (caller: Principal, agent: string) => MemoryBroker;
  readonly mayInvokeTool: (caller: Principal, agent: string, tool: string) => Promise<boolean>;
  readonly http: OutboundHttp;
  readonly endpoints: HarnessEndpoints;
  readonly remoteTraceLinks: boolean;
  /** Builds the Deep Agents harness of a run; absent, the reference's own (loaded on first use). */
  readonly deepAgentsHarness?: (args: DeepAgentsHarnessArgs) => DeepAgentsHarness;
}

/** Lease sessions a worker holds at once (oldest released first). */
const MAX_BOUND = 1024;

interface Bound {
  readonly session: WorkerSession;
  readonly store: ThreadStateStore;
}

export class SandboxWorker implements WorkerPort {
  private readonly bound = new Map<string, Bound>();
  private readonly sandboxId = `sbx_${randomUUID()}`;

  constructor(private readonly deps: WorkerDeps) {}

  async bind(carrier: Carrier, session: WorkerSession): Promise<void> {
    await inSpan(this.tracer, 'sandbox.worker.bind', this.parentOf(carrier), this.sessionAttrs(session), async () => {
      this.bound.delete(session.scope.bindingId);
      this.bound.set(session.scope.bindingId, { session, store: this.deps.threadState(session) });
      if (this.bound.size > MAX_BOUND) this.bound.delete(this.bound.keys().next().value as string);
    });
  }

  async run(carrier: Carrier, job: RunJob, emit: (e: WorkerEvent) => void): Promise<WorkerResult> {
    const parent = this.parentOf(carrier);
    const b = this.bound.get(job.bindingId);
    if (!b) throw new ContractError('fenced', 'no lease bound for the binding');
    // The harness is chosen per run by the lease's scope: harness id and codec (adapter version).
    const deep = harnessFor(b.session.scope) === 'deepagents';
    const attrs = {
      ...this.sessionAttrs(b.session),
      'smtc.run.hmac': this.deps.ids.of('run', job.runId),
      'smtc.agent.hmac': this.deps.ids.of('agent', job.agent),
      'smtc.harness.id': deep ? DEEPAGENTS_HARNESS : 'scripted',
      'smtc.harness.version': deep ? DEEPAGENTS_VERSION : 'v1',
      'smtc.adapter.id': deep ? 'langgraph-checkpoint' : 'scripted',
      'smtc.adapter.version': 'v1',
      'smtc.execution.mode': 'native',
    };
    return inSpan(
      this.tracer,
      'harness.run',
      parent,
      attrs,
      async (run) => {
        const commit = new RunCommit(b.store, b.session.scope, job.runId, this.tracer);
        let head: Awaited<ReturnType<RunCommit['load']>>;
        try {
          head = await commit.load(run.ctx);
        } catch (e) {
          // Nothing was executed or shown: the run fails cleanly.
          emit({ type: 'error', code: e instanceof ContractError ? e.code : 'internal' });
          run.set({ 'smtc.outcome': 'failed' });
          run.span.setStatus({ code: SpanStatusCode.ERROR });
          return { state: 'failed', revision: 0 };
        }
        if (job.resume) {
          if (head?.runState !== 'interrupted' || head.interrupt?.interruptId !== job.resume.interruptId) {
            throw new ContractError('not_found', 'no such pending interrupt');
          }
        }
        const deps: HarnessDeps = {
          tracer: this.tracer,
          http: this.deps.http,
          endpoints: this.deps.endpoints,
          memory: once(() => this.deps.memory(job.caller, job.agent)),
          mayInvokeTool: (tool) => this.deps.mayInvokeTool(job.caller, job.agent, tool),
          remoteTraceLinks: this.deps.remoteTraceLinks,
        };
        let harness: ScriptedHarness | DeepAgentsHarness;
        let execute: () => Promise<'completed' | 'interrupted'>;
        try {
          if (deep) {
            // Loaded on the first Deep Agents run only: a worker that never runs one starts without it.
            const args: DeepAgentsHarnessArgs = {
              deps,
              run,
              scope: b.session.scope,
              head,
              runId: job.runId,
              commit,
              emit,
            };
            const h = this.deps.deepAgentsHarness
              ? this.deps.deepAgentsHarness(args)
              : new (await import('./deepagents/deepagents-harness.js')).DeepAgentsHarness(args);
            execute = () => h.execute(job.steps, job.resume ?? null);
            harness = h;
          } else {
            const state = decodeState(head);
            let steps = job.steps;
            if (job.resume) {
              steps = [...state.pending, ...job.steps];
              state.pending = [];
              record(state, 'answer', job.resume.value);
            }
            const h = new ScriptedHarness(deps, run, state, commit, emit);
            execute = () => h.execute(steps);
            harness = h;
          }
        } catch (e) {
          // A head this harness cannot read (another codec): nothing ran, the run fails cleanly.
          emit({ type: 'error', code: e instanceof ContractError ? e.code : 'internal' });
          run.set({ 'smtc.outcome': 'failed' });
          run.span.setStatus({ code: SpanStatusCode.ERROR });
          return { state: 'failed', revision: commit.durableRevision };
        }
        let result: WorkerResult;
        try {
          const ended = await execute();
          result = { state: ended, revision: commit.durableRevision };
        } catch (e) {
          result = await this.failed(e, harness, commit, emit);
        }
        run.set({ 'smtc.outcome': result.state });
        if (result.state === 'failed' || result.state === 'uncertain_durability') {
          run.span.setStatus({ code: SpanStatusCode.ERROR });
        }
        return result;
      },
      SpanKind.SERVER,
    );
  }

  async close(): Promise<void> {
    this.bound.clear();
  }

  /**
   * A failed step. A write/commit that fails after output the client saw makes the run
   * `uncertain_durability` (fenced, previous head kept, no replay); anything else just fails it.
   */
  private async failed(
    e: unknown,
    harness: { readonly hasUndurableOutput: boolean },
    commit: RunCommit,
    emit: (e: WorkerEvent) => void,
  ): Promise<WorkerResult> {
    if (e instanceof CommitStepFailed && harness.hasUndurableOutput) {
      const uncertainReason = e.step === 'write' ? 'write_failed_after_output' : 'commit_failed_after_output';
      await commit.markUncertain(uncertainReason);
      emit({ type: 'error', code: 'uncertain_durability' });
      return { state: 'uncertain_durability', revision: commit.durableRevision, uncertainReason };
    }
    const cause = e instanceof CommitStepFailed ? e.cause : e;
    emit({ type: 'error', code: cause instanceof ContractError ? cause.code : 'internal' });
    return { state: 'failed', revision: commit.durableRevision };
  }

  private get tracer() {
    return this.deps.telemetry.tracer;
  }

  private parentOf(carrier: Carrier): Context {
    return extractInternal(carrier);
  }

  private sessionAttrs(session: WorkerSession) {
    return {
      'smtc.binding.hmac': this.deps.ids.of('binding', session.scope.bindingId),
      'smtc.sandbox.hmac': this.deps.ids.of('sandbox', this.sandboxId),
      'smtc.lease.generation': session.scope.leaseGeneration,
    };
  }
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
