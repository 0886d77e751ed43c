/**
 * Runs W3C's own Trace Context harness, unmodified, against the reference's W3C test service
 * at Level 1 and Level 2: `npm run w3c:trace-context`. The harness is vendored unmodified in
 * fixtures/w3c-trace-context/; W3C_TRACE_CONTEXT_DIR may name another checkout of
 * github.com/w3c/trace-context (the directory holding `test/test.py`). Python with aiohttp is
 * `/usr/bin/python3` unless W3C_PYTHON says otherwise. Exits non-zero if either level fails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runW3CHarness, VENDORED_W3C_DIR, w3cPythonProblem } from '../../fixtures/w3c/w3c-harness.js';

const START_TIMEOUT_MS = 60_000;
const LEVEL_TIMEOUT_MS = 600_000;

function fail(message: string): never {
  process.stderr.write(`w3c:trace-context: ${message}\n`);
  process.exit(2);
}

// The vendored, unmodified copy (fixtures/w3c-trace-context/) unless a checkout is named.
const dir = path.resolve(process.env.W3C_TRACE_CONTEXT_DIR || VENDORED_W3C_DIR);
if (!existsSync(path.join(dir, 'test', 'test.py'))) fail(`no test/test.py under ${dir}`);
const pythonProblem = w3cPythonProblem();
if (pythonProblem) fail(pythonProblem);

function startService(): Promise<{ child: ChildProcess; url: string }> {
  const main = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', main, '--enable-test-controls'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the W3C test service did not start')), START_TIMEOUT_MS);
    child.once('exit', (code) => reject(new Error(`the W3C test service exited (${code})`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const m = JSON.parse(line) as { ready?: boolean; url?: string };
        if (m.ready && m.url) {
          clearTimeout(timer);
          resolve({ child, url: m.url });
        }
      } catch {
        // not the ready line
      }
    });
  });
}

const { child, url } = await startService();
let failed = false;
try {
  for (const level of [1, 2] as const) {
    const r = await runW3CHarness({ url, level, dir, timeoutMs: LEVEL_TIMEOUT_MS, echo: true });
    const counts = `failures=${r.failures}, errors=${r.errors}, skipped=${r.skipped}`;
    process.stdout.write(`\nW3C Trace Context Level ${level}: Ran ${r.ran ?? '?'} tests: ${counts}\n`);
    if (r.exitCode !== 0 || r.ran === null) failed = true;
  }
} finally {
  child.kill('SIGTERM');
}
process.exit(failed ? 1 : 0);
