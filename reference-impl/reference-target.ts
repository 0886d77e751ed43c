/**
 * Composes the reference Harness Engine slice into a Target: thread state, memory and runs
 * are separate services over one SQLite file, each declaring the capabilities it provides.
 */
import path from 'node:path';
import { ContractError } from '../contract/errors.js';
import type { Capabilities, Faults, HarnessEnv, Target } from '../contract/target.js';
import { Authenticator } from './identity/authenticator.js';
import { persistedAuthenticator } from './identity/persisted-credentials.js';
import { createMemoryService } from './memory/memory-service.js';
import { AdjustableClock } from './platform/clock.js';
import { failpointControl } from './platform/failpoint-control.js';
import { openSqlite } from './platform/sqlite.js';
import type { ReferenceContext } from './reference-context.js';
import { loadReferenceParts } from './reference-parts.js';
import type { Delegations } from './runs/control-plane/delegations.js';
import { processFaults } from './runs/remote/process-faults.js';
import { ToxiproxyLinks } from './runs/remote/toxiproxy-links.js';
import { createRunService } from './runs/run-service.js';
import type { StateBackend } from './state/state-backend.js';
import { createStateService } from './state/state-service.js';

export interface ReferenceTarget extends Target {
  /** Served mode: start the worker processes once the control plane's URL is known. */
  attachControlPlane(url: string): Promise<void>;
  /** Served mode: run-scoped delegation tokens the server accepts on memory and tool routes. */
  readonly delegations: Delegations | null;
  /** Served mode: the worker processes' ids (slot order; -1 for a slot without a process). */
  workerPids(): number[];
  close(): Promise<void>;
}

/** How the reference is composed: in-process (module target) or served with worker processes. */
export interface ReferenceTargetOptions {
  /** Sandbox workers as this many separate OS processes (served mode); 0 = in-process worker. */
  readonly workers?: number;
  /** Thread state on this backend instead of the shared SQLite file (e.g. MongoDB). */
  readonly stateBackend?: StateBackend;
  /** Target name when a backend other than the embedded default is chosen. */
  readonly name?: string;
  /**
   * Absolute path of a module whose `referenceParts` replace parts of the reference
   * (reference-parts.ts); worker processes load it too.
   */
  readonly partsModule?: string;
}

export async function createReferenceTarget(
  env: HarnessEnv,
  opts: ReferenceTargetOptions = {},
): Promise<ReferenceTarget> {
  const served = (opts.workers ?? 0) > 0;
  const db = openSqlite(path.join(env.tempDir, 'smtc-reference.sqlite'));
  const clock = new AdjustableClock();
  // Served: identities survive a restart of the control plane on the same data directory.
  const auth = served ? persistedAuthenticator(env.tempDir) : new Authenticator();
  const parts = await loadReferenceParts(opts.partsModule);
  const ctx: ReferenceContext = { db, clock, auth, env, options: env.options ?? {}, parts };

  const state = createStateService(ctx, opts.stateBackend);
  const memory = createMemoryService(ctx, { ownsBinding: (p, b) => state.ownsBinding(p, b) });
  const runs = await createRunService(
    ctx,
    { state, memory },
    served ? { workers: opts.workers, ...(opts.partsModule ? { partsModule: opts.partsModule } : {}) } : {},
  );
  const failpoints = failpointControl([state.failpoints]);
  // Served with a Toxiproxy from the kit: the workers reach the control plane through it.
  const links = runs.pool && env.toxiproxyUrl ? new ToxiproxyLinks(env.toxiproxyUrl, env.tempDir) : null;
  const faults: Faults = {
    ...failpoints,
    ...(runs.pool ? processFaults(runs.pool) : {}),
    ...(links ? { networkLinks: async () => links.list() } : {}),
  };

  const capabilities: Capabilities = {
    ...state.capabilities,
    ...memory.capabilities,
    ...runs.capabilities,
    settableClock: true,
    failpoints: true,
    // Its thread-state store also evaluates state.uncertain.* and state.reconcile.*.
    reconciliationFailpoints: true,
    // Only worker processes can be killed from here; the in-process target claims nothing.
    processFaults: runs.pool !== null,
    networkFaults: links !== null,
  };
  return {
    name: opts.name ?? 'smtc-reference (embedded SQLite)',
    capabilities,
    // The native harnesses it runs: the kit's scripted one, and Deep Agents (LangGraph checkpoints).
    harnesses: ['scripted', 'deepagents'],
    principals: auth.principals,
    bindings: state.bindings,
    threadState: (session) => state.threadState(session),
    stateLimits: state.limits,
    memory: (caller, agent) => memory.memory(caller, agent),
    memoryPolicy: memory.policy,
    approvals: memory.approvals,
    audit: memory.audit,
    tools: memory.tools,
    storage: memory.storage,
    ...(runs.runs ? { runs: runs.runs } : {}),
    ...(runs.telemetry ? { telemetry: runs.telemetry } : {}),
    clock: {
      now: async () => clock.now(),
      advance: async (ms) => {
        if (typeof ms !== 'number' || !clock.canAdvance(ms)) throw new ContractError('invalid_argument', 'ms');
        clock.advance(ms);
      },
    },
    faults,
    delegations: runs.delegations,
    attachControlPlane: async (url) => {
      await runs.pool?.start(links ? await links.route('worker-control-plane', url) : url);
    },
    workerPids: () => runs.pool?.pids() ?? [],
    async close() {
      await runs.close();
      await links?.close();
      db.close();
    },
  };
}
