/**
 * Memory benchmarks, side by side in one process, on the reference broker over one SQLite file:
 *
 * 1. Search latency (p50/p99) in one scope holding SCOPE_RECORDS records while other tenants'
 *    data grows from 0 to OTHER_RECORDS records, every record written through the full
 *    pipeline. Per-namespace indexes mean the ratio to the 0-other-records baseline should
 *    stay near 1.
 * 2. Write throughput through the full seven-step pipeline against a raw SQLite insert of the
 *    same content (same pragmas, one transaction per row), as a ratio.
 *
 *   node --import tsx bench/memory-search.bench.ts
 *   (BENCH_SCOPE_RECORDS, BENCH_OTHER_RECORDS, BENCH_WRITES scale it down or up)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MemoryBroker } from '../contract/memory.js';
import type { Principal } from '../contract/principals.js';
import { Authenticator } from '../reference-impl/identity/authenticator.js';
import { createMemoryService } from '../reference-impl/memory/memory-service.js';
import { AdjustableClock } from '../reference-impl/platform/clock.js';
import { openSqlite } from '../reference-impl/platform/sqlite.js';

const SCOPE_RECORDS = Number(process.env.BENCH_SCOPE_RECORDS ?? 10_000);
const OTHER_RECORDS = Number(process.env.BENCH_OTHER_RECORDS ?? 100_000);
const STEPS = [0, 0.1, 0.5, 1].map((f) => Math.round(f * OTHER_RECORDS));
const SEARCHES = 400;
const WRITES = Number(process.env.BENCH_WRITES ?? 3_000);

const WORDS = ['orchard', 'river', 'piano', 'harbour', 'garden', 'lantern', 'meadow', 'copper', 'violet', 'summit'];
const USER = { kind: 'user' } as const;

function sentence(i: number): string {
  const w = (k: number) => WORDS[(i * 7 + k * 3) % WORDS.length];
  return `note ${i}: the user mentioned ${w(0)} and ${w(1)} near the ${w(2)}, ${w(3)} on weekends`;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

async function measureSearch(m: MemoryBroker): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < SEARCHES; i++) {
    const q = `${WORDS[i % WORDS.length]} ${WORDS[(i * 3 + 1) % WORDS.length]}`;
    const t0 = performance.now();
    const r = await m.search(USER, { text: q }, 10);
    times.push(performance.now() - t0);
    if (r.length === 0) throw new Error('search found nothing');
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

async function main(): Promise<void> {
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'smtc-bench-memory-'));
  const db = openSqlite(path.join(tempDir, 'bench.sqlite'));
  const auth = new Authenticator();
  const clock = new AdjustableClock();
  const svc = createMemoryService({ db, clock, auth, env: { tempDir }, options: {} }, { ownsBinding: () => false });
  const p = auth.principals;
  const [alpha, beta] = p.agents;
  try {
    // 1. The measured scope, then other tenants in steps.
    const scope = svc.memory(p.alice, alpha);
    let t0 = performance.now();
    for (let i = 0; i < SCOPE_RECORDS; i++) await scope.put(USER, note(`bench/${i}`, sentence(i)), null);
    const scopeFill = (performance.now() - t0) / 1000;
    const others: Array<[Principal, string]> = [];
    for (const who of [p.bob, p.carol, p.adminA, p.adminB, p.approverA])
      for (const a of [alpha, beta]) others.push([who, a]);
    others.push([p.alice, beta]);
    const rows: string[] = [];
    let written = 0;
    let baseline: { p50: number; p99: number } | undefined;
    t0 = performance.now();
    for (const target of STEPS) {
      for (; written < target; written++) {
        const [who, a] = others[written % others.length]!;
        const o = await svc.memory(who, a).put(USER, note(`other/${written}`, sentence(written + 17)), null);
        if (o.status !== 'written') throw new Error(`other-tenant write ${written}: ${o.status}`);
      }
      await measureSearch(scope); // settle: let the fill phase's garbage be collected first
      const s = await measureSearch(scope);
      baseline ??= s;
      rows.push(
        `${String(target).padStart(9)} | ${s.p50.toFixed(3).padStart(8)} | ${s.p99.toFixed(3).padStart(8)} | ` +
          `${(s.p50 / baseline.p50).toFixed(2).padStart(8)} | ${(s.p99 / baseline.p99).toFixed(2).padStart(8)}`,
      );
    }
    const otherFill = (performance.now() - t0) / 1000;
    console.log(`search in one scope of ${SCOPE_RECORDS} records (limit 10, ${SEARCHES} queries per step)`);
    console.log('other recs |  p50 ms  |  p99 ms  | p50/base | p99/base');
    for (const r of rows) console.log(r);
    console.log(
      `(filled the scope in ${scopeFill.toFixed(1)} s, other tenants in ${otherFill.toFixed(1)} s, all through the pipeline)`,
    );

    // 2. Pipeline vs raw insert.
    const writer = svc.memory(p.bob, beta);
    t0 = performance.now();
    for (let i = 0; i < WRITES; i++) await writer.put(USER, note(`throughput/${i}`, sentence(i)), null);
    const pipelineSeconds = (performance.now() - t0) / 1000;
    db.exec('CREATE TABLE bench_raw (k TEXT PRIMARY KEY, v TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO bench_raw (k, v) VALUES (?, ?)');
    const oneRow = db.transaction((k: string, v: string) => insert.run(k, v));
    t0 = performance.now();
    for (let i = 0; i < WRITES; i++) oneRow(`throughput/${i}`, sentence(i));
    const rawSeconds = (performance.now() - t0) / 1000;
    const pipelineRate = WRITES / pipelineSeconds;
    const rawRate = WRITES / rawSeconds;
    console.log(`\nwrites (${WRITES} each, one transaction per write)`);
    console.log(`  full pipeline put : ${pipelineRate.toFixed(0)} writes/s`);
    console.log(`  raw SQLite insert : ${rawRate.toFixed(0)} writes/s`);
    console.log(`  ratio raw/pipeline: ${(rawRate / pipelineRate).toFixed(1)}x`);
  } finally {
    db.close();
    rmSync(tempDir, { recursive: true, force: true });
  }
}

function note(key: string, content: string) {
  return { key, kind: 'semantic' as const, content, contentType: 'text/plain' as const };
}

await main();
