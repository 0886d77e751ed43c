/**
 * A sandbox worker as its own OS process, started by the control plane:
 *
 *   node --import tsx reference-impl/worker-process/main.ts
 *
 * It reads one bootstrap line (JSON, worker-wire.ts) from stdin, serves its loopback endpoints
 * and prints `{"ready":true,"url":…}`. It holds no database handle: thread state, memory and
 * tool authorization are calls to the control plane's HTTP target protocol, with the lease
 * credential (state) and the run's delegation token (memory, tools). When stdin closes — the
 * control plane exited or was killed — the worker exits too, so it is never left orphaned.
 */
import { mkdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { HttpTargetClient } from '../../contract/http/protocol-client.js';
import { memoryOverHttp, threadStateOverHttp } from '../../contract/http/protocol-facades.js';
import type { HarnessEnv, TargetOptions } from '../../contract/target.js';
import { SERVICE } from '../../contract/tracing.js';
import { loadReferenceParts } from '../reference-parts.js';
import { type WorkerBootstrap, WorkerBootstrapSchema } from '../runs/remote/worker-wire.js';
import { OutboundHttp } from '../runs/worker/outbound-http.js';
import { SandboxWorker, type WorkerDeps } from '../runs/worker/sandbox-worker.js';
import { exportSettingsFrom } from '../telemetry/export-settings.js';
import { OpaqueIds } from '../telemetry/opaque-ids.js';
import { PropagationPolicy } from '../telemetry/propagation-policy.js';
import { TelemetryIdentity } from '../telemetry/telemetry-identity.js';
import { PodLocalCache } from './pod-local-cache.js';
import { startWorkerServer } from './worker-server.js';

/** Bound on one outbound call (provider, tool, trusted service) and on one control-plane call. */
const OUTBOUND_TIMEOUT_MS = 10_000;
const BOOTSTRAP_TIMEOUT_MS = 30_000;

function die(message: string): never {
  process.stderr.write(`smtc sandbox worker: ${message}\n`);
  process.exit(2);
}

async function readBootstrap(): Promise<WorkerBootstrap> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  const timer = setTimeout(() => die('no bootstrap on stdin'), BOOTSTRAP_TIMEOUT_MS);
  for await (const line of lines) {
    clearTimeout(timer);
    lines.pause();
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      die('the bootstrap is not JSON');
    }
    const r = WorkerBootstrapSchema.safeParse(json);
    if (!r.success) die('the bootstrap does not match the worker protocol');
    return r.data;
  }
  die('stdin closed before the bootstrap');
}

function baseUrl(u: string | undefined): URL | null {
  if (!u) return null;
  const url = new URL(u);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

const boot = await readBootstrap();
const options = (boot.options ?? {}) as TargetOptions;
const env: HarnessEnv = {
  tempDir: boot.slotDir,
  ...(boot.collectorUrl ? { collectorUrl: boot.collectorUrl } : {}),
  options,
};
mkdirSync(boot.slotDir, { recursive: true, mode: 0o700 });
const parts = await loadReferenceParts(boot.partsModule).catch(() => die('the parts module does not load'));
const telemetry = new TelemetryIdentity(
  SERVICE.worker,
  exportSettingsFrom(env),
  parts.exportBoundary,
  parts.exportHealth,
);
const controlPlane = new HttpTargetClient(boot.controlPlaneUrl.replace(/\/+$/, ''), {
  requestMs: OUTBOUND_TIMEOUT_MS,
  runMs: OUTBOUND_TIMEOUT_MS,
});
const cache = parts.podLocalCache?.(boot.slotDir) ?? new PodLocalCache(boot.slotDir);
const endpoints = {
  providerUrl: baseUrl(boot.providerUrl),
  toolUrl: baseUrl(boot.toolUrl),
  trustedServiceUrl: baseUrl(boot.trustedServiceUrl),
};
const policy = new PropagationPolicy([boot.trustedServiceUrl]);
const http = new OutboundHttp(parts.outboundPropagation?.(policy, endpoints) ?? policy, OUTBOUND_TIMEOUT_MS);

const workerDeps: WorkerDeps = {
  telemetry,
  ids: new OpaqueIds(Buffer.from(boot.hmacKey, 'base64')),
  threadState: (session) => cache.wrap(threadStateOverHttp(controlPlane, session.credential)),
  memory: (caller, agent) => memoryOverHttp(controlPlane, caller.credential, agent),
  mayInvokeTool: async (caller, agent, tool) =>
    (await controlPlane.call('toolsMayInvoke', { token: caller.credential, body: { agent, tool } })).allowed,
  http,
  endpoints,
  remoteTraceLinks: options.remoteTraceLinks === true,
};
const worker = parts.sandboxWorker?.(workerDeps, telemetry) ?? new SandboxWorker(workerDeps);

const { url, server } = await startWorkerServer({ token: boot.workerToken, worker, telemetry });

let stopping = false;
async function stop(): Promise<never> {
  if (!stopping) {
    stopping = true;
    setTimeout(() => process.exit(0), 3_000).unref();
    server.close();
    server.closeAllConnections();
    await Promise.allSettled([telemetry.close(), http.close(), controlPlane.close(), worker.close()]);
  }
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
// The control plane holds our stdin: its end (exit, crash, SIGKILL) is ours.
process.stdin.on('end', () => void stop());
process.stdin.on('close', () => void stop());
process.stdin.on('error', () => void stop());
process.stdin.resume();

process.stdout.write(`${JSON.stringify({ ready: true, url })}\n`);
