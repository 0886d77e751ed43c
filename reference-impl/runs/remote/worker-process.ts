/**
 * One sandbox worker OS process as the control plane sees it: spawned with the bootstrap on its
 * stdin (which stays open — the worker exits when it closes), ready when it prints its URL,
 * and gone when it exits. Every wait is bounded. The control plane signals its own children
 * for process-fault tests (real signals), and kills them all when it closes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runEntryArgs } from '../../run-entry-command.js';
import { type WorkerBootstrap, WorkerReadySchema } from './worker-wire.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MAIN = path.resolve(HERE, '../../worker-process/main.ts');
/** The worker runs from the repository's directory, whatever ours is. */
const REPO_ROOT = path.resolve(HERE, '../../..');
const READY_TIMEOUT_MS = 30_000;
const EXIT_TIMEOUT_MS = 10_000;
const STDERR_TAIL = 4096;

export type WorkerSignal = 'SIGKILL' | 'SIGSTOP' | 'SIGCONT' | 'SIGTERM';

export class WorkerProcess {
  readonly exited: Promise<void>;
  private dead = false;

  private constructor(
    readonly slot: number,
    private readonly child: ChildProcess,
    readonly url: string,
    readonly token: string,
    exited: Promise<void>,
  ) {
    this.exited = exited;
    void exited.then(() => {
      this.dead = true;
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get alive(): boolean {
    return !this.dead && this.child.exitCode === null && this.child.signalCode === null;
  }

  static async spawn(slot: number, boot: WorkerBootstrap): Promise<WorkerProcess> {
    // The slot directory in argv only labels the process (ps, orphan checks); the bootstrap is authoritative.
    const child = spawn(process.execPath, [...runEntryArgs(MAIN, boot), '--slot', boot.slotDir], {
      // The worker inherits the control plane's environment (as a pod would its spec's) and
      // lives in the control plane's process group: killing the group kills the workers.
      env: process.env,
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (d: string) => {
      stderr = (stderr + d).slice(-STDERR_TAIL);
      process.stderr.write(d);
    });
    child.stdin!.on('error', () => {});
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin!.write(`${JSON.stringify(boot)}\n`);
    const url = await new Promise<string>((resolve, reject) => {
      let buf = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`sandbox worker ${slot} not ready within ${READY_TIMEOUT_MS} ms\n${stderr}`));
      }, READY_TIMEOUT_MS);
      child.once('error', (e) => {
        clearTimeout(timer);
        reject(new Error(`sandbox worker ${slot} could not start: ${e.message}`));
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`sandbox worker ${slot} exited before it was ready\n${stderr}`));
      });
      child.stdout!.setEncoding('utf8');
      child.stdout!.on('data', (d: string) => {
        buf = (buf + d).slice(-65_536);
        for (const line of buf.split('\n')) {
          try {
            const r = WorkerReadySchema.safeParse(JSON.parse(line));
            if (r.success) {
              clearTimeout(timer);
              resolve(r.data.url);
              return;
            }
          } catch {
            // not the ready line
          }
        }
      });
    });
    child.stdout!.removeAllListeners('data');
    child.stdout!.resume();
    return new WorkerProcess(slot, child, url.replace(/\/+$/, ''), boot.workerToken, exited);
  }

  /** A real signal to this worker; SIGKILL/SIGTERM resolve once it is gone (bounded). */
  async signal(signal: WorkerSignal): Promise<void> {
    if (!this.alive) return;
    try {
      this.child.kill(signal);
    } catch {
      return;
    }
    if (signal === 'SIGKILL' || signal === 'SIGTERM') await this.waitExit();
  }

  /** Stop for good: continue (a stopped process cannot die of SIGTERM), terminate, then kill. */
  async stop(): Promise<void> {
    if (!this.alive) return;
    this.child.kill('SIGCONT');
    this.child.stdin?.end();
    this.child.kill('SIGTERM');
    const t = setTimeout(() => this.child.kill('SIGKILL'), 3_000);
    await this.waitExit();
    clearTimeout(t);
  }

  private async waitExit(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.exited,
      new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          this.child.kill('SIGKILL');
          resolve();
        }, EXIT_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
  }
}
