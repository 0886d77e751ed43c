/**
 * What the HTTP target protocol costs, measured side by side in one process run:
 *  - commit latency: one protocol cycle (load head, write 1 KiB pending, commit) per op;
 *  - run throughput: sequential runs of a small script (emit, checkpoint, emit) per second;
 * on the reference in-process (module target), served over loopback HTTP in this process
 * (same server code, real sockets), and served by a separate process (`main.ts`, spawn mode,
 * worker in the server process). Best of ROUNDS interleaved rounds, ratios vs in-process.
 *
 *   node --import tsx bench/http-vs-inprocess.bench.ts      (BENCH_OPS, BENCH_RUNS to scale)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunStep } from '../contract/runs.js';
import type { Target, TargetModule } from '../contract/target.js';
import { CODEC, openThread, payload, type ThreadSession } from '../fixtures/scenario/thread-session.js';
import { httpTargetModule } from '../fixtures/targets/http/http-target-module.js';
import { referenceServerManifest } from '../reference-impl/http-module-target.js';
import servedOverHttp from '../reference-impl/http-served-target.js';
import inProcess from '../reference-impl/module-target.js';

const OPS = Number(process.env.BENCH_OPS ?? 300);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const ROUNDS = 3;
const bytes = Uint8Array.from({ length: 1024 }, (_, i) => (i * 31) % 256);

const separateProcess = httpTargetModule(
  referenceServerManifest({ name: 'smtc-reference (separate process)', workers: 0, testControls: false }),
);

const KINDS: [string, TargetModule][] = [
  ['in-process', inProcess],
  ['HTTP, same process', servedOverHttp],
  ['HTTP, separate process', separateProcess],
];

/** µs per protocol cycle. */
async function commitLatency(th: ThreadSession, tag: string): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < OPS; i++) {
    const head = await th.store.load_head(th.scope);
    const ref = await th.store.write_native_state(th.scope, CODEC, payload(bytes), `${tag}-${i}`);
    await th.store.commit_head(th.scope, ref, head?.revision ?? 0, `run-${tag}-${i}`);
  }
  return ((performance.now() - started) * 1000) / OPS;
}

const SCRIPT: RunStep[] = [{ type: 'emit', text: 'hello' }, { type: 'checkpoint' }, { type: 'emit', text: 'bye' }];

/** Sequential runs per second on one binding. */
async function runThroughput(t: Target): Promise<number | null> {
  if (!t.runs || !t.capabilities.runs) return null;
  const owner = t.principals.alice;
  const b = await t.bindings.open(owner, { environment: 'bench', harness: 'scripted', codec: CODEC });
  const started = performance.now();
  for (let i = 0; i < RUNS; i++) {
    const o = await t.runs.start(owner, { bindingId: b.bindingId, agent: t.principals.agents[0], steps: SCRIPT });
    if (o.state !== 'completed') throw new Error(`bench run ended ${o.state}`);
  }
  return RUNS / ((performance.now() - started) / 1000);
}

const dirs: string[] = [];
const live: { mod: TargetModule; t: Target }[] = [];
try {
  const targets: Target[] = [];
  for (const [, mod] of KINDS) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-bench-http-'));
    dirs.push(dir);
    const t = await mod.create({ tempDir: dir });
    live.push({ mod, t });
    targets.push(t);
  }
  const commit = KINDS.map(() => Number.POSITIVE_INFINITY);
  const runs = KINDS.map(() => 0);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, t] of targets.entries()) {
      const th = await openThread(t).catch((e: unknown) => {
        throw new Error(`${KINDS[i]![0]}: ${(e as Error).message}`, { cause: e });
      });
      commit[i] = Math.min(commit[i]!, await commitLatency(th, `r${round}`));
      runs[i] = Math.max(runs[i]!, (await runThroughput(t)) ?? 0);
    }
  }
  const rows = KINDS.map(([name], i) => ({
    target: name,
    'commit cycle (µs)': Math.round(commit[i]!),
    'commit ratio': (commit[i]! / commit[0]!).toFixed(2),
    'runs/s': runs[i] ? runs[i]!.toFixed(1) : 'n/a',
    'run throughput ratio': runs[i] && runs[0] ? (runs[0]! / runs[i]!).toFixed(2) : 'n/a',
  }));
  process.stdout.write(
    `HTTP vs in-process: ${OPS} commit cycles (1 KiB payload) and ${RUNS} runs per round, best of ${ROUNDS}\n`,
  );
  console.table(rows);
} finally {
  for (const { mod, t } of live) await mod.destroy?.(t);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
