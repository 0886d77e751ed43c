/**
 * The parts the reference is assembled from that an assembler may supply instead of the
 * defaults: each is a factory receiving the dependencies the default part gets. An absent part
 * is the production one. Served, the control plane and each worker process build their own
 * parts, so parts travel as a module path (`partsModule`): its `referenceParts` export.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Runs } from '../contract/runs.js';
import type { ThreadStateStore } from '../contract/state.js';
import type { ControlPlaneDeps } from './runs/control-plane/control-plane.js';
import type { OutboundPropagation } from './runs/worker/outbound-http.js';
import type { WorkerDeps } from './runs/worker/sandbox-worker.js';
import type { HarnessEndpoints } from './runs/worker/scripted-harness.js';
import type { WorkerPort } from './runs/worker/worker-port.js';
import type { StoreDeps } from './state/thread-state-store.js';
import type { PropagationPolicy } from './telemetry/propagation-policy.js';
import type { ExportBoundary, HealthAccounting, TelemetryIdentity } from './telemetry/telemetry-identity.js';
import type { PodLocalCache } from './worker-process/pod-local-cache.js';

export interface ReferenceParts {
  /** The ThreadStateStore facade of one worker session (control plane). */
  readonly threadStateStore?: (deps: StoreDeps, session: unknown) => ThreadStateStore;
  /** The control plane's run path. */
  readonly controlPlane?: (deps: ControlPlaneDeps) => Runs;
  /** The sandbox worker (in-process, or inside each worker process). */
  readonly sandboxWorker?: (deps: WorkerDeps, telemetry: TelemetryIdentity) => WorkerPort;
  /** Which trace headers the worker's outbound calls carry. */
  readonly outboundPropagation?: (policy: PropagationPolicy, endpoints: HarnessEndpoints) => OutboundPropagation;
  /**
   * The export boundary of every telemetry identity (control plane and worker): what the span
   * pipeline exports through to the collector's OTLP exporter (default: ScrubbingExporter).
   */
  readonly exportBoundary?: ExportBoundary;
  /** The health signal's queue accounting of every telemetry identity (default: ExportHealth). */
  readonly exportHealth?: HealthAccounting;
  /** A worker process's pod-local cache (worker processes only). */
  readonly podLocalCache?: (slotDir: string) => PodLocalCache;
}

/** Loads `referenceParts` from an absolute module path; anything else is refused. */
export async function loadReferenceParts(file: string | undefined): Promise<ReferenceParts> {
  if (file === undefined) return {};
  if (!path.isAbsolute(file) || !existsSync(file)) throw new RangeError('partsModule must name an existing file');
  const mod = (await import(pathToFileURL(file).href)) as { referenceParts?: unknown };
  if (typeof mod.referenceParts !== 'object' || mod.referenceParts === null) {
    throw new RangeError('partsModule has no referenceParts export');
  }
  return mod.referenceParts as ReferenceParts;
}
