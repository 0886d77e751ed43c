/**
 * The `scripted/v1` native harness: executes a script of steps against the thread's native
 * state, calling the model provider, tools, memory, the trusted internal service and subagents,
 * each under its own span below `harness.run` (a subagent's own steps nest under its
 * `subagent.run`). Durable points (checkpoint, interrupt, end of run) go through RunCommit and
 * are reported `durable` only after the commit returned.
 */
import { randomUUID } from 'node:crypto';
import { type Context, SpanKind, type Tracer } from '@opentelemetry/api';
import { ContractError } from '../../../contract/errors.js';
import type { MemoryBroker, MemoryProposal, MemoryScopeKind } from '../../../contract/memory.js';
import type { RunStep } from '../../../contract/runs.js';
import type { OpaqueStatePayload, PendingInterrupt } from '../../../contract/state.js';
import { inSpan, type SpanScope } from '../../telemetry/span-scope.js';
import { encodeState, record, type ScriptedState } from './native-checkpoint.js';
import type { OutboundHttp } from './outbound-http.js';
import { linkRemoteTrace, parseRemoteTrace } from './remote-trace-link.js';
import type { RunCommit } from './run-commit.js';
import type { WorkerEvent } from './worker-port.js';

export interface HarnessEndpoints {
  readonly providerUrl: URL | null;
  readonly toolUrl: URL | null;
  readonly trustedServiceUrl: URL | null;
}

export interface HarnessDeps {
  readonly tracer: Tracer;
  readonly http: OutboundHttp;
  readonly endpoints: HarnessEndpoints;
  /** Opened on first use: a run without memory steps never touches memory. */
  readonly memory: () => MemoryBroker;
  readonly mayInvokeTool: (tool: string) => Promise<boolean>;
  /** The provider integration declares safe, tenant-correct remote trace correlation. */
  readonly remoteTraceLinks: boolean;
}

export const SCRIPTED_MODEL = 'scripted-model';

export class ScriptedHarness {
  /** Output the client has seen that is not yet covered by a durable head. */
  private undurableOutput = false;
  private tools = 0;
  private memoryOps = 0;

  constructor(
    private readonly deps: HarnessDeps,
    private readonly run: SpanScope,
    private readonly state: ScriptedState,
    private readonly commit: RunCommit,
    private readonly emit: (e: WorkerEvent) => void,
  ) {}

  get hasUndurableOutput(): boolean {
    return this.undurableOutput;
  }

  /** Runs steps to the end (final commit) or to an interrupt; returns how the run ended. */
  async execute(steps: readonly RunStep[]): Promise<'completed' | 'interrupted'> {
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      if (step.type === 'interrupt') {
        this.state.pending = steps.slice(i + 1) as RunStep[];
        await this.durable({ interruptId: `int_${randomUUID()}`, value: step.value });
        this.finishCounts();
        return 'interrupted';
      }
      if (step.type === 'checkpoint') await this.durable(null);
      else await this.runStep(step, this.run.ctx);
    }
    this.state.turns++;
    await this.durable(null);
    this.finishCounts();
    return 'completed';
  }

  /** One step with no durable point, under `parent` (the Deep Agents harness runs its tools' steps here too). */
  async runStep(step: Exclude<RunStep, { type: 'interrupt' | 'checkpoint' }>, parent: Context): Promise<void> {
    switch (step.type) {
      case 'provider':
        return this.provider(step.prompt, parent);
      case 'tool':
        return this.tool(step.tool, step.args, parent);
      case 'memory_read':
        return this.memoryRead(step.scope, step.key, parent);
      case 'memory_write':
        return this.memoryWrite(step.scope, step.proposal, parent);
      case 'subagent':
        return this.subagent(step.steps, parent);
      case 'emit':
        record(this.state, 'output', step.text);
        this.output(step.text);
        return;
      case 'internal_call':
        return this.internalCall(parent);
    }
  }

  private output(text: string): void {
    this.emit({ type: 'output', text });
    this.undurableOutput = true;
  }

  private async durable(interrupt: PendingInterrupt | null): Promise<void> {
    await this.makeDurable(encodeState(this.state), interrupt);
  }

  /** Commit `payload` as the run's durable head; `durable` (and the interrupt) are reported only after. */
  async makeDurable(payload: OpaqueStatePayload, interrupt: PendingInterrupt | null): Promise<void> {
    const head = await this.commit.commit(this.run.ctx, payload, interrupt);
    this.undurableOutput = false;
    if (interrupt) this.emit({ type: 'interrupt', interruptId: interrupt.interruptId, value: interrupt.value });
    this.emit({ type: 'durable', revision: head.revision });
  }

  private async provider(prompt: string, parent: Context): Promise<void> {
    const url = required(this.deps.endpoints.providerUrl);
    const answer = await inSpan(
      this.deps.tracer,
      'provider.invoke',
      parent,
      {
        'gen_ai.system': 'scripted',
        'gen_ai.request.model': SCRIPTED_MODEL,
        'smtc.size.bytes': Buffer.byteLength(prompt),
      },
      async (s) => {
        const body = await this.deps.http.postJson(
          new URL('v1/complete', url),
          { model: SCRIPTED_MODEL, prompt },
          s.ctx,
        );
        const text = (body as { text?: unknown } | null)?.text;
        if (typeof text !== 'string') throw new ContractError('unavailable', 'provider answer has no text');
        return { text, remote: parseRemoteTrace(body) };
      },
      SpanKind.CLIENT,
    );
    // Provider stderr and other answer fields are diagnostics: neither kept nor exported.
    if (answer.remote && this.deps.remoteTraceLinks) linkRemoteTrace(this.run, answer.remote);
    record(this.state, 'prompt', prompt);
    record(this.state, 'completion', answer.text);
    this.output(answer.text);
  }

  private async tool(tool: string, args: string, parent: Context): Promise<void> {
    const url = required(this.deps.endpoints.toolUrl);
    const result = await inSpan(
      this.deps.tracer,
      'tool.invoke',
      parent,
      { 'smtc.operation': 'tool', 'smtc.size.bytes': Buffer.byteLength(args) },
      async (s) => {
        if (!(await this.deps.mayInvokeTool(tool))) throw new ContractError('forbidden', 'tool not authorized');
        const body = await this.deps.http.postJson(
          new URL(`v1/tools/${encodeURIComponent(tool)}`, url),
          { args },
          s.ctx,
        );
        const r = (body as { result?: unknown } | null)?.result;
        if (typeof r !== 'string') throw new ContractError('unavailable', 'tool answer has no result');
        return r;
      },
      SpanKind.CLIENT,
    );
    this.tools++;
    record(this.state, 'tool_result', result);
  }

  private async memoryRead(scope: MemoryScopeKind, key: string, parent: Context): Promise<void> {
    this.memoryOps++;
    const text = await inSpan(this.deps.tracer, 'memory.read', parent, { 'smtc.operation': scope }, async (s) => {
      const r = await this.deps.memory().get({ kind: scope }, key);
      s.set({ 'smtc.memory.count': r ? 1 : 0 });
      return r ? r.content : '';
    }).catch((e: unknown) => `error:${errorCode(e)}`);
    record(this.state, 'memory', text);
  }

  private async memoryWrite(scope: MemoryScopeKind, proposal: MemoryProposal, parent: Context): Promise<void> {
    this.memoryOps++;
    // A refused write is a result the harness sees (and keeps), not a failure of the run.
    const status = await inSpan(this.deps.tracer, 'memory.write', parent, { 'smtc.operation': scope }, async (s) => {
      const current = await this.deps.memory().get({ kind: scope }, proposal.key);
      const outcome = await this.deps.memory().put({ kind: scope }, proposal, current ? current.revision : null);
      s.set({ 'smtc.outcome': outcome.status });
      return outcome.status;
    }).catch((e: unknown) => `error:${errorCode(e)}`);
    record(this.state, 'memory', `write:${status}`);
  }

  private async subagent(steps: readonly RunStep[], parent: Context): Promise<void> {
    const runInner = async (ctx: Context) => {
      for (const s of steps) {
        // Validation admits no checkpoint/interrupt inside a subagent: it has no durable points.
        if (s.type !== 'checkpoint' && s.type !== 'interrupt') await this.runStep(s, ctx);
      }
    };
    await inSpan(this.deps.tracer, 'subagent.run', parent, { 'smtc.event.count': steps.length }, (s) =>
      runInner(s.ctx),
    );
  }

  private async internalCall(parent: Context): Promise<void> {
    const url = required(this.deps.endpoints.trustedServiceUrl);
    // Its own client span: each outgoing request carries its own parent-id (W3C Trace Context).
    await inSpan(
      this.deps.tracer,
      'trusted_service.call',
      parent,
      { 'smtc.operation': 'internal_call' },
      (s) => this.deps.http.postJson(new URL('v1/internal', url), { operation: 'scripted' }, s.ctx),
      SpanKind.CLIENT,
    );
    record(this.state, 'internal', 'ok');
  }

  finishCounts(): void {
    this.run.set({ 'smtc.tool.count': this.tools, 'smtc.memory.count': this.memoryOps });
  }
}

function required(url: URL | null): URL {
  if (!url) throw new ContractError('unavailable', 'endpoint not configured');
  return url;
}

function errorCode(e: unknown): string {
  return e instanceof ContractError ? e.code : 'internal';
}
