/**
 * The reference thread-state service: bindings/epochs/leases and the ThreadStateStore facade,
 * over the SQLite backend in the target's shared database, with the bounds and failpoints
 * the suites and fault drivers reach.
 */
import type { Bindings, WorkerSession } from '../../contract/bindings.js';
import type { StateLimits, ThreadStateStore } from '../../contract/state.js';
import type { Capabilities } from '../../contract/target.js';
import { Failpoints } from '../platform/failpoints.js';
import type { ReferenceContext } from '../reference-context.js';
import { BindingsRegistry } from './bindings-registry.js';
import { RateLimiter } from './rate-limiter.js';
import { ScopeGuard } from './scope-guard.js';
import { SqliteStateBackend } from './sqlite-state-backend.js';
import type { StateBackend } from './state-backend.js';
import { FIXED_BOUNDS, resolveStateLimits } from './state-limits.js';
import { ReferenceThreadStateStore, type StoreDeps } from './thread-state-store.js';

export interface StateService {
  readonly capabilities: Capabilities;
  readonly bindings: Bindings;
  threadState(session: WorkerSession): ThreadStateStore;
  /** Whether the principal owns the binding (the memory service checks episodic references). */
  ownsBinding(principalId: string, bindingId: string): boolean;
  /** The bounds in force (published as Target.stateLimits). */
  readonly limits: StateLimits;
  /** Named fault-injection points of the commit protocol (see thread-state-store.ts). */
  readonly failpoints: Failpoints;
}

export function createStateService(ctx: ReferenceContext, backend?: StateBackend): StateService {
  const store = backend ?? new SqliteStateBackend(ctx.db);
  const limits = resolveStateLimits(ctx.options);
  const failpoints = new Failpoints();
  const registry = new BindingsRegistry(store, ctx.auth);
  const deps: StoreDeps = {
    backend: store,
    guard: new ScopeGuard(store),
    limits,
    rate: new RateLimiter(ctx.clock, limits.maxWritesPerSecond, FIXED_BOUNDS.maxRateBuckets),
    failpoints,
    clock: ctx.clock,
  };
  const storeOf = ctx.parts?.threadStateStore ?? ((d, session) => new ReferenceThreadStateStore(d, session));
  return {
    capabilities: { threadState: true },
    bindings: registry,
    threadState: (session) => storeOf(deps, session),
    ownsBinding: (principalId, bindingId) => registry.ownsBinding(principalId, bindingId),
    limits,
    failpoints,
  };
}
