/**
 * Process-level recovery and the cost of the process boundary, measured side by side:
 *  1. recovery after a worker SIGKILL: from the kill to the next run completed on a new worker
 *     process (the control plane notices the loss, takes a new lease, starts the worker, which
 *     restores the durable head) — and, for reference, after a control-plane SIGKILL + restart;
 *  2. run throughput (runs/s, a small scripted run with a provider call) in-process (module
 *     target) against served as processes (control plane over HTTP + a worker process), as a ratio.
 * Medians of ROUNDS; the served target is the one `smtc certify` reaches over HTTP.
 *
 *   node --import tsx bench/recovery.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunStep } from '../contract/runs.js';
import type { Target, TargetModule } from '../contract/target.js';
import { SPEC } from '../fixtures/scenario/thread-session.js';
import { startStubs } from '../fixtures/stubs/use-stubs.js';
import referenceOverHttp from '../reference-impl/http-module-target.js';
import referenceModule from '../reference-impl/module-target.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const STEPS: RunStep[] = [
  { type: 'emit', text: 'hello' },
  { type: 'provider', prompt: 'benchmark prompt' },
  { type: 'checkpoint' },
  { type: 'emit', text: 'bye' },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function withTarget<T>(mod: TargetModule, urls: object, fn: (t: Target) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-bench-recovery-'));
  const t = await mod.create({ tempDir: dir, ...urls });
  try {
    return await fn(t);
  } finally {
    await mod.destroy?.(t);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runOnce(t: Target, bindingId: string, steps: RunStep[] = STEPS): Promise<void> {
  const o = await t.runs!.start(t.principals.alice, { bindingId, agent: t.principals.agents[0], steps });
  if (o.state !== 'completed') throw new Error(`run ended ${o.state}`);
}

async function throughput(t: Target): Promise<number> {
  const { bindingId } = await t.bindings.open(t.principals.alice, SPEC);
  for (let i = 0; i < 10; i++) await runOnce(t, bindingId);
  const started = performance.now();
  for (let i = 0; i < RUNS; i++) await runOnce(t, bindingId);
  return RUNS / ((performance.now() - started) / 1000);
}

/** ms from the kill to the next run completed. */
async function recovery(t: Target, part: 'worker' | 'control_plane'): Promise<number> {
  const { bindingId } = await t.bindings.open(t.principals.alice, SPEC);
  await runOnce(t, bindingId);
  const started = performance.now();
  await t.faults!.killPart!(part, 'SIGKILL');
  if (part === 'control_plane') await t.faults!.restartPart!('control_plane');
  await runOnce(t, bindingId, [{ type: 'emit', text: 'after the kill' }]);
  return performance.now() - started;
}

const stubs = await startStubs();
try {
  const urls = stubs.urls();
  const inProcess: number[] = [];
  const served: number[] = [];
  const workerRecovery: number[] = [];
  const cpRecovery: number[] = [];
  await withTarget(referenceModule, urls, async (m) => {
    await withTarget(referenceOverHttp, urls, async (h) => {
      for (let r = 0; r < ROUNDS; r++) {
        inProcess.push(await throughput(m));
        served.push(await throughput(h));
        workerRecovery.push(await recovery(h, 'worker'));
      }
      for (let r = 0; r < Math.min(ROUNDS, 3); r++) cpRecovery.push(await recovery(h, 'control_plane'));
    });
  });
  const ip = median(inProcess);
  const sv = median(served);
  process.stdout.write(
    [
      `run throughput (${RUNS} runs × ${ROUNDS} rounds, ${STEPS.length} steps incl. a provider call; median)`,
      `  in-process (module target)                 ${ip.toFixed(1)} runs/s`,
      `  served (HTTP + sandbox worker process)     ${sv.toFixed(1)} runs/s`,
      `  ratio in-process / served                  ${(ip / sv).toFixed(2)}x`,
      'recovery: kill → next run completed (median, min–max)',
      `  worker SIGKILL                             ${median(workerRecovery).toFixed(0)} ms (${Math.min(...workerRecovery).toFixed(0)}–${Math.max(...workerRecovery).toFixed(0)})`,
      `  control plane SIGKILL + restart            ${median(cpRecovery).toFixed(0)} ms (${Math.min(...cpRecovery).toFixed(0)}–${Math.max(...cpRecovery).toFixed(0)})`,
      '',
    ].join('\n'),
  );
} finally {
  await stubs.close();
}
