/**
 * Where the wall time of a full default certification goes: runs `smtc certify` (the bundled
 * reference served as processes, as a user's first run does) in a child process and prints,
 * per suite file, its setup (queued → first scenario: fork, imports, target creation,
 * beforeAll), its scenarios (sum of test durations) and its teardown (last scenario → file
 * end), then the ratio of the whole run's wall time to the sum of scenario time — what is
 * not the scenarios themselves. BENCH_CERTIFY_ARGS adds certify options (e.g. "--only R05").
 *
 *   node --import tsx bench/certify-wall.bench.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FileTiming } from '../cli/certify/file-timings.js';
import type { Certification } from '../cli/certify/verdict.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const extra = (process.env.BENCH_CERTIFY_ARGS ?? '').split(/\s+/).filter(Boolean);
const out = mkdtempSync(path.join(os.tmpdir(), 'smtc-bench-certify-'));

const started = performance.now();
const code = await new Promise<number | null>((resolve) => {
  const child = spawn(process.execPath, [path.join(ROOT, 'cli/smtc.mjs'), 'certify', '-q', '--out', out, ...extra], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, SMTC_TARGET: '' },
  });
  child.on('close', resolve);
});
const wallMs = performance.now() - started;

const timings = JSON.parse(readFileSync(path.join(out, 'timings.json'), 'utf8')) as {
  beforeSuitesMs: number;
  suitesMs: number;
  totalMs: number;
  files: FileTiming[];
};
const verdict = JSON.parse(readFileSync(path.join(out, 'verdict.json'), 'utf8')) as Certification;
rmSync(out, { recursive: true, force: true });

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const files = [...timings.files].sort((a, b) => a.queuedAtMs - b.queuedAtMs);
const width = Math.max(...files.map((f) => f.file.length), 10);
console.log(
  `${'suite file'.padEnd(width)}  ${['start', 'setup', 'scenarios', 'teardown', 'file wall'].map((h) => h.padStart(9)).join('  ')}`,
);
for (const f of files) {
  const cols = [f.queuedAtMs, f.setupMs, f.scenariosMs, f.teardownMs, f.endedAtMs - f.queuedAtMs];
  console.log(`${f.file.padEnd(width)}  ${cols.map((c) => s(c).padStart(9)).join('  ')}`);
}
const sum = (pick: (f: FileTiming) => number) => files.reduce((a, f) => a + pick(f), 0);
const scenarios = sum((f) => f.scenariosMs);
console.log(
  `\nsum over files: setup ${s(sum((f) => f.setupMs))}, scenarios ${s(scenarios)}, teardown ${s(sum((f) => f.teardownMs))}`,
);
console.log(
  `certify: before the suites (probe, pre-flight, load) ${s(timings.beforeSuitesMs)}, suites ${s(timings.suitesMs)}, in-process total ${s(timings.totalMs)}`,
);
console.log(`wall (process start → exit): ${s(wallMs)}; exit ${code}; overall ${verdict.overall}`);
console.log(`wall / sum of scenario time: ${(wallMs / Math.max(scenarios, 1)).toFixed(2)}×`);
process.exit(code === 0 ? 0 : 1);
