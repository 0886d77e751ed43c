/**
 * WorkerPort over sandbox worker processes (RemoteWorkerPort): the control plane's side of the
 * process boundary. N worker slots, each an OS process with its own slot directory (its pod-local
 * cache survives the process, as a pod's volume would); a binding sticks to the worker that
 * bound it. Calls are HTTP on loopback with the worker token; the trace-context carrier travels
 * as `traceparent`/`tracestate`/`baggage` headers; run events stream back as NDJSON.
 *
 * Loss detection: a worker's exit aborts its in-flight calls at once; a reset connection or a
 * call past its bound is a loss too (the worker is then killed, so it cannot linger as a
 * zombie with the binding's lease). A lost worker's run ends in WorkerLostError — the control
 * plane decides what the client is told — and is never re-dispatched here.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Agent, request } from 'undici';
import type { WorkerSession } from '../../../contract/bindings.js';
import { ContractError } from '../../../contract/errors.js';
import type { TelemetryHealth } from '../../../contract/tracing.js';
import type { Carrier } from '../../telemetry/internal-carrier.js';
import type { Delegations } from '../control-plane/delegations.js';
import type { RunJob, WorkerEvent, WorkerPort, WorkerResult } from '../worker/worker-port.js';
import { poisonCachedHead } from './pod-cache-file.js';
import { WorkerLostError } from './worker-lost.js';
import { WorkerProcess, type WorkerSignal } from './worker-process.js';
import {
  HealthResponseSchema,
  RunLineSchema,
  TRACE_HEADERS,
  WORKER_MAX_BODY_BYTES,
  WORKER_PATHS,
  type WorkerBootstrap,
} from './worker-wire.js';

export interface RemoteWorkerPoolOptions {
  readonly workers: number;
  /** Root of the worker slot directories (`<root>/slot-<i>`). */
  readonly rootDir: string;
  readonly hmacKey: Buffer;
  readonly delegations: Delegations;
  /** Everything of HarnessEnv a worker needs but the control plane's URL. */
  readonly env: Omit<WorkerBootstrap, 'controlPlaneUrl' | 'workerToken' | 'hmacKey' | 'slotDir'>;
  /** Bound on bind / health calls. */
  readonly callTimeoutMs?: number;
  /**
   * Bound on a flush call: a worker's flush waits on its exports, each bounded by the export
   * timeout, so a flush during an outage legitimately takes that long (default: the call bound).
   */
  readonly flushTimeoutMs?: number;
  /** Bound on one whole run stream. */
  readonly runTimeoutMs?: number;
}

export const MAX_WORKERS = 16;
const MAX_BOUND = 10_000;
const MAX_LINE = 1024 * 1024;

export class RemoteWorkerPool implements WorkerPort {
  private readonly slots: (WorkerProcess | null)[];
  private readonly starting = new Map<number, Promise<WorkerProcess>>();
  private readonly bound = new Map<string, WorkerProcess>();
  private readonly inflight = new Map<WorkerProcess, Set<AbortController>>();
  private readonly agent = new Agent({ keepAliveTimeout: 2_000, keepAliveMaxTimeout: 4_000, connections: 64 });
  private controlPlaneUrl: string | null = null;
  private next = 0;
  private closed = false;

  constructor(private readonly o: RemoteWorkerPoolOptions) {
    if (!Number.isInteger(o.workers) || o.workers < 1 || o.workers > MAX_WORKERS) {
      throw new ContractError('invalid_argument', 'workers must be an integer in 1..16');
    }
    this.slots = Array.from({ length: o.workers }, () => null);
  }

  /** Start every worker once the control plane listens (workers call back into it). */
  async start(controlPlaneUrl: string): Promise<void> {
    this.controlPlaneUrl = controlPlaneUrl;
    await Promise.all(this.slots.map((_, i) => this.ensure(i)));
  }

  /** Worker process ids, slot order (-1 for a slot without a live process). */
  pids(): number[] {
    return this.slots.map((w) => (w?.alive ? w.pid : -1));
  }

  /** Whether the binding's worker is gone: the next run must take a new lease (fencing it). */
  needsFreshLease(bindingId: string): boolean {
    const w = this.bound.get(bindingId);
    return !w?.alive || this.slots[w.slot] !== w;
  }

  async bind(carrier: Carrier, session: WorkerSession): Promise<void> {
    const bindingId = session.scope.bindingId;
    let w = this.bound.get(bindingId);
    if (!w?.alive || this.slots[w.slot] !== w) w = await this.pick();
    try {
      await this.call(w, WORKER_PATHS.bind, carrier, { session });
    } catch (e) {
      if (!(e instanceof WorkerLostError)) throw e;
      // Unresponsive or gone before the run started: nothing was shown, bind on a fresh one.
      w = await this.pick();
      await this.call(w, WORKER_PATHS.bind, carrier, { session });
    }
    this.bound.delete(bindingId);
    this.bound.set(bindingId, w);
    if (this.bound.size > MAX_BOUND) this.bound.delete(this.bound.keys().next().value as string);
  }

  async run(carrier: Carrier, job: RunJob, emit: (e: WorkerEvent) => void): Promise<WorkerResult> {
    const w = this.bound.get(job.bindingId);
    if (!w?.alive) throw new ContractError('fenced', 'no lease bound for the binding');
    const delegation = this.o.delegations.mint(job.caller, job.agent);
    try {
      return await this.stream(w, carrier, delegation, job, emit);
    } finally {
      this.o.delegations.revoke(delegation);
    }
  }

  /** A real signal to every live worker process. */
  async signalAll(signal: WorkerSignal): Promise<void> {
    await Promise.all(this.slots.map((w) => w?.signal(signal)));
  }

  /** Kill every worker and start fresh ones in the same slots. */
  async restartAll(): Promise<void> {
    await Promise.all(this.slots.map((w) => w?.stop()));
    await Promise.all(this.slots.map((_, i) => this.ensure(i)));
  }

  /** Poison every slot's pod-local cache for the binding (dead slots included: it is on disk). */
  poisonLocalCache(bindingId: string, marker: string): void {
    for (let i = 0; i < this.slots.length; i++) poisonCachedHead(this.slotDir(i), bindingId, marker);
  }

  async health(): Promise<TelemetryHealth[]> {
    const live = this.slots.filter((w): w is WorkerProcess => w?.alive === true);
    const all = await Promise.all(
      live.map(async (w) =>
        HealthResponseSchema.safeParse(await this.call(w, WORKER_PATHS.health, {}, null).catch(() => null)),
      ),
    );
    return all.flatMap((r) => (r.success ? [r.data] : []));
  }

  async flush(): Promise<void> {
    const live = this.slots.filter((w): w is WorkerProcess => w?.alive === true);
    const bound = Math.max(this.o.flushTimeoutMs ?? 0, this.o.callTimeoutMs ?? 10_000);
    await Promise.all(live.map((w) => this.call(w, WORKER_PATHS.flush, {}, {}, bound).catch(() => {})));
  }

  async close(): Promise<void> {
    this.closed = true;
    // A worker still starting is stopped as soon as it is up (ensure() sees `closed`): waiting
    // for it here keeps close() from returning while a process of the pool still lives.
    const starting = [...this.starting.values()].map((s) =>
      s.then(
        () => undefined,
        () => undefined,
      ),
    );
    await Promise.all([...this.slots.map((w) => w?.stop()), ...starting]);
    await this.agent.close().catch(() => {});
  }

  private slotDir(i: number): string {
    return path.join(this.o.rootDir, `slot-${i}`);
  }

  /** A live worker for a new binding, round robin; a dead slot is restarted on demand. */
  private async pick(): Promise<WorkerProcess> {
    const i = this.next++ % this.slots.length;
    return this.ensure(i);
  }

  private ensure(i: number): Promise<WorkerProcess> {
    const w = this.slots[i];
    if (w?.alive) return Promise.resolve(w);
    if (this.closed) return Promise.reject(new ContractError('unavailable', 'the control plane is closing'));
    if (!this.controlPlaneUrl) return Promise.reject(new ContractError('unavailable', 'workers not started'));
    const pending = this.starting.get(i);
    if (pending) return pending;
    const started = WorkerProcess.spawn(i, {
      ...this.o.env,
      controlPlaneUrl: this.controlPlaneUrl,
      workerToken: randomBytes(32).toString('base64url'),
      hmacKey: this.o.hmacKey.toString('base64'),
      slotDir: this.slotDir(i),
    })
      .then(async (p) => {
        if (this.closed) {
          // Closed while it started: it must not outlive the pool.
          await p.stop();
          throw new ContractError('unavailable', 'the control plane is closing');
        }
        this.slots[i] = p;
        this.inflight.set(p, new Set());
        // A worker's exit aborts what it was doing: the control plane learns of the loss at once.
        void p.exited.then(() => {
          for (const c of this.inflight.get(p) ?? []) c.abort(new WorkerLostError('exited'));
          this.inflight.delete(p);
        });
        return p;
      })
      .catch((e: unknown) => {
        if (e instanceof ContractError) throw e;
        throw new ContractError('unavailable', e instanceof Error ? 'a sandbox worker did not start' : 'worker');
      })
      .finally(() => this.starting.delete(i));
    this.starting.set(i, started);
    return started;
  }

  private headers(w: WorkerProcess, carrier: Carrier): Record<string, string> {
    const h: Record<string, string> = { authorization: `Bearer ${w.token}` };
    for (const name of TRACE_HEADERS) {
      const v = carrier[name];
      if (typeof v === 'string') h[name] = v;
    }
    return h;
  }

  private track(w: WorkerProcess, timeoutMs: number): { signal: AbortSignal; done: () => void } {
    const c = new AbortController();
    const set = this.inflight.get(w);
    if (!set || !w.alive) c.abort(new WorkerLostError('exited'));
    set?.add(c);
    const timer = setTimeout(() => c.abort(new WorkerLostError('timeout')), timeoutMs);
    return {
      signal: c.signal,
      done: () => {
        clearTimeout(timer);
        set?.delete(c);
      },
    };
  }

  /** A worker that failed its bound is killed: it must not live on holding a lease. */
  private lost(w: WorkerProcess, signal: AbortSignal, e: unknown): WorkerLostError {
    const reason = signal.reason;
    const lost =
      reason instanceof WorkerLostError ? reason : e instanceof WorkerLostError ? e : new WorkerLostError('connection');
    if (lost.how !== 'exited') void w.signal('SIGKILL');
    return lost;
  }

  private async call(
    w: WorkerProcess,
    p: string,
    carrier: Carrier,
    body: unknown,
    timeoutMs = this.o.callTimeoutMs ?? 10_000,
  ): Promise<unknown> {
    const t = this.track(w, timeoutMs);
    try {
      const res = await request(`${w.url}${p}`, {
        method: body === null ? 'GET' : 'POST',
        headers: { ...this.headers(w, carrier), ...(body === null ? {} : { 'content-type': 'application/json' }) },
        ...(body === null ? {} : { body: JSON.stringify(body) }),
        dispatcher: this.agent,
        signal: t.signal,
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) {
        const err = (JSON.parse(text) as { error?: { code?: unknown } }).error;
        throw ContractError.fromBody(err as never);
      }
      return JSON.parse(text) as unknown;
    } catch (e) {
      if (e instanceof ContractError) throw e;
      throw this.lost(w, t.signal, e);
    } finally {
      t.done();
    }
  }

  private async stream(
    w: WorkerProcess,
    carrier: Carrier,
    delegation: string,
    job: RunJob,
    emit: (e: WorkerEvent) => void,
  ): Promise<WorkerResult> {
    const wireJob = {
      runId: job.runId,
      bindingId: job.bindingId,
      agent: job.agent,
      principalId: job.caller.id,
      delegation,
      steps: job.steps,
      ...(job.resume ? { resume: job.resume } : {}),
    };
    const body = JSON.stringify({ job: wireJob });
    // The client's input, not the worker, is at fault: permanent, and no worker is lost over it.
    if (Buffer.byteLength(body) > WORKER_MAX_BODY_BYTES) {
      throw new ContractError('payload_too_large', 'the run is larger than a sandbox worker accepts');
    }
    const t = this.track(w, this.o.runTimeoutMs ?? 120_000);
    let final: WorkerResult | ContractError | null = null;
    try {
      const res = await request(`${w.url}${WORKER_PATHS.run}`, {
        method: 'POST',
        headers: { ...this.headers(w, carrier), 'content-type': 'application/json' },
        body,
        dispatcher: this.agent,
        signal: t.signal,
      });
      if (res.statusCode !== 200) {
        const err = (JSON.parse(await res.body.text()) as { error?: unknown }).error;
        throw ContractError.fromBody(err as never);
      }
      let pending = '';
      // One decoder for the whole stream: a character split between two chunks is decoded whole.
      const utf8 = new TextDecoder();
      for await (const chunk of res.body) {
        pending += utf8.decode(chunk as Uint8Array, { stream: true });
        let nl = pending.indexOf('\n');
        while (nl >= 0) {
          const r = RunLineSchema.safeParse(JSON.parse(pending.slice(0, nl)));
          pending = pending.slice(nl + 1);
          nl = pending.indexOf('\n');
          // A line the protocol does not allow is a broken worker: treated as lost.
          if (!r.success || final !== null) throw new WorkerLostError('connection');
          const line = r.data;
          if ('event' in line) emit(line.event);
          else if ('result' in line) final = line.result;
          else final = ContractError.fromBody(line.error);
        }
        // What is left is one unfinished line: bounded, so a broken worker cannot grow it forever.
        if (pending.length > MAX_LINE) throw new WorkerLostError('connection');
      }
    } catch (e) {
      if (e instanceof ContractError) throw e;
      throw this.lost(w, t.signal, e);
    } finally {
      t.done();
    }
    if (final === null) throw this.lost(w, t.signal, new WorkerLostError('connection'));
    if (final instanceof ContractError) throw final;
    return final;
  }
}
