/**
 * Certifications run in long-lived certify processes (certify-batch-worker.ts) instead of one
 * CLI process each: the answers are runCertify's (exit code, output, verdict.json), the start-up
 * is paid once per worker. A worker is replaced after RECYCLE_AFTER certifications (vitest and
 * vite are started anew for each, and whatever one leaves behind stays bounded), after a stopped
 * run (it exits, as the CLI does) and after a timeout (it is killed, as runCertify kills the CLI).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import type { BatchAnswer, BatchRequest } from './certify-batch-worker.js';
import { type CertifyRun, readVerdict } from './run-certify.js';

const WORKER = path.join(REPO_ROOT, 'test/selftest/certify-batch-worker.ts');
const RECYCLE_AFTER = 25;

interface Worker {
  readonly child: ChildProcess;
  served: number;
  output: string;
  exited: boolean;
  current?: { readonly id: number; readonly settle: (a: BatchAnswer | null) => void };
}

const idle: Worker[] = [];
let nextId = 0;

function startWorker(): Worker {
  const child = fork(WORKER, [], {
    cwd: REPO_ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    // One suite file at a time inside each certification: with two certifications at once
    // (certify-mutants.test.ts) that keeps a catching clause from failing on contention alone.
    env: { SMTC_SUITE_WORKERS: '1', ...process.env, SMTC_TARGET: '' },
  });
  const w: Worker = { child, served: 0, output: '', exited: false };
  child.stdout?.on('data', (d) => {
    w.output += d;
  });
  child.stderr?.on('data', (d) => {
    w.output += d;
  });
  child.on('message', (a: BatchAnswer) => {
    if (w.current?.id === a.id) w.current.settle(a);
  });
  child.on('exit', () => {
    w.exited = true;
    w.current?.settle(null);
    const i = idle.indexOf(w);
    if (i >= 0) idle.splice(i, 1);
  });
  // A worker waiting for work must not keep the test process alive.
  child.unref();
  (child.channel as { unref?: () => void } | undefined)?.unref?.();
  return w;
}

/** `smtc certify --target <target> --only <only> -q --out <fresh dir>`, in a batch worker. */
export function certifyInBatch(target: string, only: string, timeoutMs: number): Promise<CertifyRun> {
  const out = mkdtempSync(path.join(os.tmpdir(), 'smtc-selftest-'));
  const w = idle.pop() ?? startWorker();
  const id = nextId++;
  w.output = '';
  return new Promise<CertifyRun>((resolve, reject) => {
    const timer = setTimeout(() => {
      w.current = undefined;
      w.child.kill('SIGKILL');
      reject(new Error(`certify --target ${target} --only ${only} did not finish in ${timeoutMs} ms\n${w.output}`));
    }, timeoutMs);
    w.current = {
      id,
      settle: (a) => {
        clearTimeout(timer);
        w.current = undefined;
        w.served++;
        const output = w.output;
        if (!w.exited && a && !a.last && w.served < RECYCLE_AFTER) idle.push(w);
        else if (!w.exited) w.child.disconnect();
        resolve({ exitCode: a ? a.exitCode : null, output, verdict: readVerdict(out) });
      },
    };
    const req: BatchRequest = { id, target, only, out };
    w.child.send(req);
  });
}
