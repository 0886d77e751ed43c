/**
 * Runs W3C's own Trace Context harness, unmodified, against the reference's W3C test service
 * at Level 1 and Level 2: `npm run w3c:trace-context`. The harness is not part of this
 * repository — check out github.com/w3c/trace-context and point W3C_TRACE_CONTEXT_DIR at it
 * (the directory holding `test/test.py`). Python with aiohttp is `/usr/bin/python3` unless
 * W3C_PYTHON says otherwise. Exits non-zero if either level fails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const START_TIMEOUT_MS = 60_000;
const LEVEL_TIMEOUT_MS = 600_000;

function fail(message: string): never {
  process.stderr.write(`w3c:trace-context: ${message}\n`);
  process.exit(2);
}

const dir = process.env.W3C_TRACE_CONTEXT_DIR;
if (!dir) {
  fail(
    'set W3C_TRACE_CONTEXT_DIR to a checkout of https://github.com/w3c/trace-context (the directory holding test/test.py)',
  );
}
const testDir = path.resolve(dir, 'test');
if (!existsSync(path.join(testDir, 'test.py'))) fail(`no test/test.py under W3C_TRACE_CONTEXT_DIR (${dir})`);
const python = process.env.W3C_PYTHON ?? '/usr/bin/python3';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

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

function runLevel(level: 1 | 2, url: string, port: number): Promise<{ code: number; summary: string }> {
  return new Promise((resolve) => {
    const child = spawn(python, ['test.py', url], {
      cwd: testDir,
      env: { ...process.env, SPEC_LEVEL: String(level), HARNESS_PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const keep = (b: Buffer) => {
      out += b.toString('utf8');
      process.stdout.write(b);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), LEVEL_TIMEOUT_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const ran = /Ran (\d+) tests?/.exec(out)?.[0] ?? 'did not finish';
      const result = /\n(OK.*|FAILED.*)\n?$/.exec(out.trimEnd() + '\n')?.[1] ?? `exit ${code}`;
      resolve({ code: code ?? 1, summary: `${ran}: ${result}` });
    });
  });
}

const { child, url } = await startService();
let failed = false;
try {
  for (const level of [1, 2] as const) {
    const r = await runLevel(level, url, await freePort());
    process.stdout.write(`\nW3C Trace Context Level ${level}: ${r.summary}\n`);
    if (r.code !== 0) failed = true;
  }
} finally {
  child.kill('SIGTERM');
}
process.exit(failed ? 1 : 0);
