/**
 * Runs every benchmark in bench/ one after another (each in its own process, so one's heap
 * and JIT state don't colour the next) and prints their tables. `npm run bench [-- name…]`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
if (benches.length === 0) {
  process.stderr.write(`no benchmark matches ${wanted.join(' ')}\n`);
  process.exit(2);
}
let failed = 0;
for (const b of benches) {
  process.stdout.write(`\n=== ${b}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, b)], { stdio: 'inherit', timeout: 600_000 });
  if (r.status !== 0) {
    failed++;
    process.stdout.write(`!!! ${b} exited with ${r.status ?? r.signal}\n`);
  }
}
process.exit(failed ? 1 : 0);
