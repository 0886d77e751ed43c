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
import { propagation, SpanKind } from '@opentelemetry/api';
import { parseKeyPairsIntoRecord } from '@opentelemetry/core';
import type { Bindings } from '../../../contract/bindings.js';
import { ContractError } from '../../../contract/errors.js';
import type { Principal } from '../../../contract/principals.js';
import type { RunEvent, RunOutcome, RunRequest, Runs } from '../../../contract/runs.js';
import type { Authenticator } from '../../identity/authenticator.js';
import { MUTATION_HOOKS, type MutationHooks } from '../../mutation-hooks.js';
import { decideIngress, headerValues } from '../../telemetry/ingress-policy.js';
import { injectInternal } from '../../telemetry/internal-carrier.js';
import type { OpaqueIds } from '../../telemetry/opaque-ids.js';
import { inSpan, markError, openSpan } from '../../telemetry/span-scope.js';
import type { TelemetryIdentity } from '../../telemetry/telemetry-identity.js';
import { SCRIPTED_CODEC } from '../worker/native-checkpoint.js';
import type { WorkerPort } from '../worker/worker-port.js';
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
  readonly hooks: MutationHooks;
}

export class ControlPlane implements Runs {
  private readonly leases: LeaseCache;
  private readonly locks = new BindingLocks();

  constructor(private readonly deps: ControlPlaneDeps) {
    this.leases = new LeaseCache(deps.bindings);
  }

  async start(caller: Principal, request: RunRequest, onEvent?: (e: RunEvent) => void): Promise<RunOutcome> {
    const req = validateRunRequest(request);
    if (onEvent !== undefined && typeof onEvent !== 'function') {
      throw new ContractError('invalid_argument', 'onEvent must be a function');
    }
    const ingress = decideIngress(req.headers, req.trustedIngress === true);
    let parent = ingress.context;
    if (req.trustedIngress === true && this.deps.hooks.has(MUTATION_HOOKS.unfilteredBaggage)) {
      const raw = parseKeyPairsIntoRecord(headerValues(req.headers, 'baggage')?.join(',') ?? '');
      const entries = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, { value: v }]));
      parent = propagation.setBaggage(parent, propagation.createBaggage(entries));
    }
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
            if (b.codec !== SCRIPTED_CODEC) throw new ContractError('codec_mismatch', 'binding is not scripted/v1');
            return b;
          });
          await inSpan(tracer, 'sandbox.claim_or_reuse', request.ctx, {}, async (s) => {
            const { session, reused } = await this.leases.claimOrReuse(principal, binding);
            s.set({
              'smtc.operation': reused ? 'reuse' : 'claim',
              'smtc.lease.generation': session.scope.leaseGeneration,
            });
            await this.deps.worker.bind(injectInternal(s.ctx), session);
          });

          const stream = new EventStream(onEvent);
          const encode = openSpan(tracer, 'stream.validate_and_encode', request.ctx);
          let result: Awaited<ReturnType<WorkerPort['run']>>;
          try {
            result = await this.deps.worker.run(
              injectInternal(request.ctx),
              {
                runId,
                bindingId: binding.bindingId,
                agent: req.agent,
                caller: principal,
                steps: req.steps,
                ...(req.resume ? { resume: req.resume } : {}),
              },
              (e) => stream.accept(e),
            );
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

  private principalOf(principalId: string): Principal {
    const p = (this.deps.auth.principals as unknown as Record<string, Principal | undefined>)[principalId];
    if (!p || typeof p !== 'object' || !('credential' in p)) throw new ContractError('unauthenticated');
    return p;
  }
}
