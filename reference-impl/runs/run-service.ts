/**
 * Runs and telemetry of the reference: a control plane and a sandbox worker, each with its own
 * telemetry identity (service.name), joined only by WorkerPort. The worker reaches thread state
 * and memory through the contract facades of the state and memory services.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Runs } from '../../contract/runs.js';
import type { Capabilities } from '../../contract/target.js';
import { SERVICE, type TelemetryHealth } from '../../contract/tracing.js';
import type { MemoryService } from '../memory/memory-service.js';
import type { ReferenceContext } from '../reference-context.js';
import type { StateService } from '../state/state-service.js';
import { exportSettingsFrom } from '../telemetry/export-settings.js';
import { OpaqueIds } from '../telemetry/opaque-ids.js';
import { PropagationPolicy } from '../telemetry/propagation-policy.js';
import { combineHealth, TelemetryIdentity } from '../telemetry/telemetry-identity.js';
import { ControlPlane, type ControlPlaneDeps } from './control-plane/control-plane.js';
import { Delegations } from './control-plane/delegations.js';
import { RemoteWorkerPool } from './remote/remote-worker-pool.js';
import { OutboundHttp } from './worker/outbound-http.js';
import { SandboxWorker, type WorkerDeps } from './worker/sandbox-worker.js';
import type { WorkerPort } from './worker/worker-port.js';

export interface RunService {
  readonly capabilities: Capabilities;
  readonly runs?: Runs;
  readonly telemetry?: { health(): Promise<TelemetryHealth>; flush(): Promise<void> };
  /** Served mode: the sandbox worker processes (null when the worker runs in-process). */
  readonly pool: RemoteWorkerPool | null;
  /** Served mode: the run-scoped delegation tokens the server accepts on memory/tool routes. */
  readonly delegations: Delegations | null;
  close(): Promise<void>;
}

export interface RunServiceOptions {
  /** Run sandbox workers as this many separate OS processes (0 or absent: in-process worker). */
  readonly workers?: number;
  /** Served: the module of the target's parts (reference-parts.ts), for the worker processes to load. */
  readonly partsModule?: string;
}

/** Bound on one outbound call to the provider, a tool or the trusted service. */
const OUTBOUND_TIMEOUT_MS = 10_000;

export async function createRunService(
  ctx: ReferenceContext,
  deps: { state: StateService; memory: MemoryService },
  opts: RunServiceOptions = {},
): Promise<RunService> {
  const settings = exportSettingsFrom(ctx.env);
  const boundary = ctx.parts?.exportBoundary;
  const accounting = ctx.parts?.exportHealth;
  const controlPlaneTelemetry = new TelemetryIdentity(SERVICE.controlPlane, settings, boundary, accounting);
  // Served mode: the worker's telemetry identity lives in each worker process, not here.
  const workerTelemetry = opts.workers ? null : new TelemetryIdentity(SERVICE.worker, settings, boundary, accounting);
  // One key for both identities, so the same binding correlates across control plane and worker.
  const hmacKey = randomBytes(32);
  const ids = new OpaqueIds(hmacKey);
  const endpoints = {
    providerUrl: baseUrl(ctx.env.providerUrl),
    toolUrl: baseUrl(ctx.env.toolUrl),
    trustedServiceUrl: baseUrl(ctx.env.trustedServiceUrl),
  };
  const policy = new PropagationPolicy([ctx.env.trustedServiceUrl]);
  const http = new OutboundHttp(ctx.parts?.outboundPropagation?.(policy, endpoints) ?? policy, OUTBOUND_TIMEOUT_MS);
  const enabled = controlPlaneTelemetry.enabled;
  const delegations = opts.workers ? new Delegations() : null;
  const pool =
    opts.workers && delegations
      ? new RemoteWorkerPool({
          workers: opts.workers,
          rootDir: path.join(ctx.env.tempDir, 'workers'),
          hmacKey,
          delegations,
          // A flush exports concurrently, each export bounded by the export timeout.
          flushTimeoutMs: settings.exportTimeoutMs + 5_000,
          env: {
            ...(ctx.env.collectorUrl ? { collectorUrl: ctx.env.collectorUrl } : {}),
            ...(ctx.env.providerUrl ? { providerUrl: ctx.env.providerUrl } : {}),
            ...(ctx.env.toolUrl ? { toolUrl: ctx.env.toolUrl } : {}),
            ...(ctx.env.trustedServiceUrl ? { trustedServiceUrl: ctx.env.trustedServiceUrl } : {}),
            options: { ...ctx.options },
            ...(opts.partsModule ? { partsModule: opts.partsModule } : {}),
          },
        })
      : null;

  const inProcessWorker = (telemetry: TelemetryIdentity): WorkerPort => {
    const workerDeps: WorkerDeps = {
      telemetry,
      ids,
      threadState: (session) => deps.state.threadState(session),
      memory: (caller, agent) => deps.memory.memory(caller, agent),
      mayInvokeTool: (caller, agent, tool) => deps.memory.tools.mayInvoke(caller, agent, tool),
      http,
      endpoints,
      remoteTraceLinks: ctx.options.remoteTraceLinks === true,
    };
    return ctx.parts?.sandboxWorker?.(workerDeps, telemetry) ?? new SandboxWorker(workerDeps);
  };
  const worker = pool ?? inProcessWorker(workerTelemetry!);
  const controlPlaneDeps: ControlPlaneDeps = {
    telemetry: controlPlaneTelemetry,
    ids,
    auth: ctx.auth,
    bindings: deps.state.bindings,
    worker,
    threadState: (session) => deps.state.threadState(session),
  };
  const runs = ctx.parts?.controlPlane?.(controlPlaneDeps) ?? new ControlPlane(controlPlaneDeps);
  const workerHealth = async (): Promise<TelemetryHealth[]> => (pool ? pool.health() : [workerTelemetry!.health()]);

  return {
    capabilities: { runs: true, telemetry: enabled, remoteTraceLinks: enabled },
    runs,
    ...(enabled
      ? {
          telemetry: {
            health: async () => combineHealth([controlPlaneTelemetry.health(), ...(await workerHealth())]),
            flush: async () => {
              await Promise.all([pool ? pool.flush() : workerTelemetry!.flush(), controlPlaneTelemetry.flush()]);
            },
          },
        }
      : {}),
    pool,
    delegations,
    async close() {
      await worker.close();
      await http.close();
      await Promise.all([workerTelemetry?.close(), controlPlaneTelemetry.close()]);
    },
  };
}

/** An endpoint base URL with a trailing slash, so relative paths resolve below it. */
function baseUrl(u: string | undefined): URL | null {
  if (!u) return null;
  const url = new URL(u);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}
