/**
 * The control plane's request path, as the contract's span tree draws it:
 *
 *   harness.request ─ authn ─ authz.agent ─ session.binding ─ sandbox.claim_or_reuse
 *   (→ worker: sandbox.worker.bind) ─ (→ worker: harness.run …) ─ stream.validate_and_encode
 *
 * Ingress trace context is decided by the ingress policy (never authenticates, never decides
 * sampling); identity comes from the credential alone; the worker is reached only through
 * WorkerPort with a trace-context carrier.
 */
import { randomUUID } from 'node:crypto';
import { type Context, SpanKind } from '@opentelemetry/api';
import type { Bindings, WorkerSession } from '../../../contract/bindings.js';
import { ContractError } from '../../../contract/errors.js';
import type { Principal } from '../../../contract/principals.js';
import type { RunEvent, RunOutcome, RunRequest, Runs } from '../../../contract/runs.js';
import type { ThreadStateStore } from '../../../contract/state.js';
import type { Authenticator } from '../../identity/authenticator.js';
import { decideIngress } from '../../telemetry/ingress-policy.js';
import { type Carrier, injectInternal } from '../../telemetry/internal-carrier.js';
import type { OpaqueIds } from '../../telemetry/opaque-ids.js';
import { inSpan, markError, openSpan } from '../../telemetry/span-scope.js';
import type { TelemetryIdentity } from '../../telemetry/telemetry-identity.js';
import { WorkerLostError } from '../remote/worker-lost.js';
import { harnessFor } from '../worker/harness-selection.js';
import type { RunJob, WorkerPort, WorkerResult } from '../worker/worker-port.js';
import { BindingLocks } from './binding-locks.js';
import { EventStream } from './event-stream.js';
import { LeaseCache } from './lease-cache.js';
import { validateRunRequest } from './run-request-validation.js';

export interface ControlPlaneDeps {
  readonly telemetry: TelemetryIdentity;
  readonly ids: OpaqueIds;
  readonly auth: Authenticator;
  readonly bindings: Bindings;
  readonly worker: WorkerPort;
  /** The ThreadStateStore facade, for fencing a run whose worker was lost after output. */
  readonly threadState?: (session: WorkerSession) => ThreadStateStore;
}

/** Members a part replacing one step (reference-parts.ts) may override are protected. */
export class ControlPlane implements Runs {
  protected readonly leases: LeaseCache;
  private readonly locks = new BindingLocks();

  constructor(protected readonly deps: ControlPlaneDeps) {
    this.leases = new LeaseCache(deps.bindings);
  }

  async start(caller: Principal, request: RunRequest, onEvent?: (e: RunEvent) => void): Promise<RunOutcome> {
    const req = validateRunRequest(request);
    if (onEvent !== undefined && typeof onEvent !== 'function') {
      throw new ContractError('invalid_argument', 'onEvent must be a function');
    }
    const parent = this.ingressContext(caller, req);
    const tracer = this.deps.telemetry.tracer;
    const runId = `run_${randomUUID()}`;

    return inSpan(
      tracer,
      'harness.request',
      parent,
      { 'smtc.run.hmac': this.deps.ids.of('run', runId), 'smtc.operation': req.resume ? 'resume' : 'run' },
      async (request) => {
        const who = await inSpan(tracer, 'authn', request.ctx, {}, async () => this.deps.auth.authenticate(caller));
        // Everything below acts as the principal the credential names, whatever `caller` claims.
        const principal = this.principalOf(who.principalId);
        await inSpan(tracer, 'authz.agent', request.ctx, {}, async (s) => {
          if (!this.deps.auth.isAgent(req.agent)) throw new ContractError('forbidden', 'unknown agent');
          s.set({ 'smtc.agent.hmac': this.deps.ids.of('agent', req.agent) });
        });
        return this.locks.run(req.bindingId, async () => {
          const binding = await inSpan(tracer, 'session.binding', request.ctx, {}, async (s) => {
            const b = await this.deps.bindings.get(principal, req.bindingId);
            s.set({ 'smtc.binding.hmac': this.deps.ids.of('binding', b.bindingId) });
            if (!harnessFor(b)) throw new ContractError('codec_mismatch', 'no harness runs this binding’s codec');
            return b;
          });
          // The worker that held this binding is gone: a new lease fences whatever it still holds.
          if (this.deps.worker.needsFreshLease?.(binding.bindingId)) this.leases.forget(binding.bindingId);
          const session = await inSpan(tracer, 'sandbox.claim_or_reuse', request.ctx, {}, async (s) => {
            const { session, reused } = await this.leases.claimOrReuse(principal, binding);
            s.set({
              'smtc.operation': reused ? 'reuse' : 'claim',
              'smtc.lease.generation': session.scope.leaseGeneration,
            });
            await this.deps.worker.bind(injectInternal(s.ctx), session).catch((e: unknown) => {
              if (e instanceof WorkerLostError) throw new ContractError('unavailable', 'no sandbox worker answered');
              throw e;
            });
            return session;
          });

          const stream = new EventStream(onEvent);
          const encode = openSpan(tracer, 'stream.validate_and_encode', request.ctx);
          let result: WorkerResult;
          const job: RunJob = {
            runId,
            bindingId: binding.bindingId,
            agent: req.agent,
            caller: principal,
            steps: req.steps,
            ...(req.resume ? { resume: req.resume } : {}),
          };
          try {
            try {
              result = await this.deps.worker.run(injectInternal(request.ctx), job, (e) => stream.accept(e));
              if (result.state === 'uncertain_durability') await this.fence(session, job, result);
            } catch (e) {
              if (!(e instanceof WorkerLostError)) throw e;
              result = await this.workerLost(session, job, stream, injectInternal(request.ctx));
            }
            encode.set({ 'smtc.outcome': 'ok' });
          } catch (e) {
            markError(encode, e);
            throw e;
          } finally {
            encode.set({ 'smtc.event.count': stream.events.length });
            encode.span.end();
          }
          request.set({ 'smtc.outcome': result.state });
          return {
            runId,
            state: result.state,
            revision: result.revision,
            events: stream.events,
            traceId: this.deps.telemetry.enabled ? request.span.spanContext().traceId : null,
          };
        });
      },
      SpanKind.SERVER,
    );
  }

  /** The parent context of `harness.request`: what the ingress policy keeps of the request's. */
  protected ingressContext(caller: Principal, req: RunRequest): Context {
    // Trust is the server's ingress policy for the credential, never a claim of the request.
    return decideIngress(req.headers, this.deps.auth.trustsIngressOf(caller)).context;
  }

  /**
   * The worker reports its run uncertain (a write or commit failed after output). Its own
   * attempt to fence the run may not have got through — the same fault that failed the write
   * (a cut link, a store outage) can stop it — so the control plane fences the run with its
   * session too; marking is idempotent, and an unreachable store leaves the run for explicit
   * reconciliation as before.
   */
  protected async fence(session: WorkerSession, job: RunJob, result: WorkerResult): Promise<void> {
    const store = this.deps.threadState?.(session);
    await store
      ?.mark_uncertain(session.scope, job.runId, result.uncertainReason ?? 'commit_failed_after_output')
      .catch(() => {});
  }

  /**
   * The run's worker died, was cut off or timed out. Output the client saw that no durable head
   * covers makes the run `uncertain_durability` (contract: fence it, keep the previous head,
   * reconcile explicitly); otherwise it simply failed. The lease is dropped either way, so the
   * next run's new lease fences the lost worker. Provider and tool work is never replayed (so
   * the run's carrier, which a re-dispatch would need, goes unused here).
   */
  protected async workerLost(
    session: WorkerSession,
    job: RunJob,
    stream: EventStream,
    _carrier: Carrier,
  ): Promise<WorkerResult> {
    this.leases.forget(session.scope.bindingId);
    const store = this.deps.threadState?.(session);
    const lastDurable = lastIndexOf(stream.events, (e) => e.type === 'durable' || e.type === 'interrupt');
    const shown = stream.events.some((e, i) => i > lastDurable && e.type === 'output');
    let revision = 0;
    for (const e of stream.events) if (e.type === 'durable') revision = e.revision;
    if (shown) {
      await store?.mark_uncertain(session.scope, job.runId, 'worker_lost_after_output').catch(() => {});
      revision = (await store?.load_head(session.scope).catch(() => null))?.revision ?? revision;
      stream.accept({ type: 'error', code: 'uncertain_durability' });
      return { state: 'uncertain_durability', revision };
    }
    revision = (await store?.load_head(session.scope).catch(() => null))?.revision ?? revision;
    stream.accept({ type: 'error', code: 'unavailable' });
    return { state: 'failed', revision };
  }

  private principalOf(principalId: string): Principal {
    const p = (this.deps.auth.principals as unknown as Record<string, Principal | undefined>)[principalId];
    if (!p || typeof p !== 'object' || !('credential' in p)) throw new ContractError('unauthenticated');
    return p;
  }
}

function lastIndexOf<T>(xs: readonly T[], pred: (x: T) => boolean): number {
  for (let i = xs.length - 1; i >= 0; i--) if (pred(xs[i]!)) return i;
  return -1;
}
