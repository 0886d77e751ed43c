/**
 * The reference served over HTTP, as a process:
 *
 *   node --import tsx reference-impl/server/main.ts --port 0 --data-dir DIR \
 *     [--enable-test-controls] [--manifest-out FILE] [--env FILE] [--collector-url URL]
 *     [--provider-url URL] [--tool-url URL] [--trusted-service-url URL] [--toxiproxy-url URL] [--admin-token T]
 *     [--host 127.0.0.1] [--exit-on-stdin-close] [--workers N] [--parts MODULE]
 *
 * Prints one JSON line `{"ready":true,"url":"http://127.0.0.1:PORT"}` on stdout once it
 * accepts requests. `--env FILE` is a JSON HarnessEnv (URLs and options; its tempDir is
 * ignored in favour of --data-dir); single-URL flags override it. SIGTERM/SIGINT close it
 * cleanly; `--exit-on-stdin-close` makes it exit when its parent's pipe closes, so a parent
 * that dies abruptly leaves no orphan server behind. `--workers N` (default 1) runs N sandbox
 * workers as separate OS processes (0: the worker runs inside the server process); they exit
 * with the server, even when it is SIGKILLed (their stdin is the server's pipe). `--parts MODULE`
 * assembles the reference with the `referenceParts` that module exports (reference-parts.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { TARGET_ENV_URLS, TargetEnvSchema } from '../../contract/http/target-instances-protocol.js';
import type { HarnessEnv } from '../../contract/target.js';
import { startReferenceServer } from './start-reference-server.js';

// Everything this process creates (store, credentials, manifests, worker slots) is this user's only.
process.umask(0o077);

function fail(message: string): never {
  process.stderr.write(`smtc reference server: ${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'data-dir': { type: 'string' },
    'enable-test-controls': { type: 'boolean', default: false },
    'manifest-out': { type: 'string' },
    env: { type: 'string' },
    'collector-url': { type: 'string' },
    'provider-url': { type: 'string' },
    'tool-url': { type: 'string' },
    'trusted-service-url': { type: 'string' },
    'toxiproxy-url': { type: 'string' },
    'admin-token': { type: 'string' },
    'exit-on-stdin-close': { type: 'boolean', default: false },
    workers: { type: 'string', default: '1' },
    parts: { type: 'string' },
  },
  strict: true,
});

const dataDir = values['data-dir'] ?? fail('--data-dir is required');
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail('--port must be an integer in 0..65535');
const workers = Number(values.workers);
if (!Number.isInteger(workers) || workers < 0 || workers > 16) fail('--workers must be an integer in 0..16');

let fileEnv: Record<string, unknown> = {};
if (values.env) {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(values.env, 'utf8'));
  } catch {
    fail('--env must name a readable JSON file');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('--env must hold a JSON object');
  // Its tempDir is the kit's; the server keeps its data in --data-dir.
  const { tempDir: _ignored, ...rest } = raw as Record<string, unknown>;
  fileEnv = rest;
}
// A URL flag overrides the file's field; the whole env is then checked as the protocol checks one.
const flagUrls = Object.fromEntries(
  Object.entries(TARGET_ENV_URLS).flatMap(([field, flag]) => {
    const v = values[flag.slice(2) as keyof typeof values];
    return typeof v === 'string' && v !== '' ? [[field, v]] : [];
  }),
);
const parsed = TargetEnvSchema.safeParse({ ...fileEnv, ...flagUrls });
if (!parsed.success) {
  const at = parsed.error.issues.slice(0, 5).map((i) => i.path.join('.') || '(root)');
  fail(`invalid target env from --env and the URL flags (at ${at.join(', ')})`);
}
const env: Omit<HarnessEnv, 'tempDir'> = parsed.data;

const server = await startReferenceServer({
  dataDir,
  host: values.host,
  port,
  env,
  enableTestControls: values['enable-test-controls'],
  workers,
  ...(values.parts ? { partsModule: path.resolve(values.parts) } : {}),
  ...(values['admin-token'] ? { adminToken: values['admin-token'] } : {}),
  ...(values['manifest-out'] ? { manifestOut: values['manifest-out'] } : {}),
  // A failpoint panic is a crash: die at once, like a gofail panic, leaving the store as it is.
  onPanic: () => process.kill(process.pid, 'SIGKILL'),
});

let stopping = false;
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    const force = setTimeout(() => process.exit(code), 5_000);
    force.unref();
    await server.close().catch(() => {});
  }
  process.exit(code);
}
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));
if (values['exit-on-stdin-close']) {
  process.stdin.on('end', () => void stop(0));
  process.stdin.on('error', () => void stop(0));
  process.stdin.resume();
}

process.stdout.write(`${JSON.stringify({ ready: true, url: server.url })}\n`);
