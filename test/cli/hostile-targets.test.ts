/**
 * `smtc certify` against a zoo of hostile targets — modules that never load, block the event
 * loop, never create, print escape sequences; services that hang, answer garbage or lie about
 * themselves. Each run must end within its bound with exit code 2 and one clear message,
 * print nothing a terminal would act on, write no verdict, and leave nothing behind: no
 * process (found by a marker in its environment), no temporary directory (each run gets its
 * own TMPDIR, which must be empty afterwards).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../contract/http/info-protocol.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';

const ZOO = path.join(REPO_ROOT, 'fixtures/targets/hostile');
/** Anything a terminal acts on: ESC, BEL, CR, other C0 but newline/tab, DEL, C1, bidi controls. */
const ACTIVE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
/** The bound the short runs are given (SMTC_PREFLIGHT_MS). */
const SHORT_MS = 6_000;
/**
 * Slack for starting two Node processes with tsx on a loaded CI machine (alone they take ~2 s;
 * at load average 20 on two cores, ~10 s). Without the pre-flight these runs took 453 s and more.
 */
const SLACK_MS = 30_000;
/** Runs at once: each is two Node processes; more only slows every one of them. */
const AT_ONCE = 3;
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(fn: () => Promise<T>): Promise<T> {
  while (running >= AT_ONCE) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMs: number;
  readonly leftProcesses: readonly number[];
  readonly leftFiles: readonly string[];
  readonly wroteVerdict: boolean;
}

/** Processes whose environment carries the marker (ours only: /proc/<pid>/environ of others is unreadable). */
function processesMarked(mark: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'latin1').includes(mark)) found.push(Number(pid));
    } catch {
      // gone, or not ours
    }
  }
  return found;
}

function certifyHostile(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return slot(() => certifyOnce(args, env));
}

async function certifyOnce(args: readonly string[], env: Record<string, string>): Promise<Run> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'smtc-zoo-tmp-'));
  const out = mkdtempSync(path.join(os.tmpdir(), 'smtc-zoo-out-'));
  const mark = `SMTC_ZOO_MARK=${randomUUID()}`;
  const started = Date.now();
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'cli/smtc.mjs'), 'certify', '--out', out, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      SMTC_TARGET: '',
      TMPDIR: tmp,
      SMTC_ZOO_MARK: mark.slice('SMTC_ZOO_MARK='.length),
      ...env,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const code = await new Promise<number | null>((resolve) => {
    const guard = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (c) => {
      clearTimeout(guard);
      resolve(c);
    });
  });
  const wallMs = Date.now() - started;
  // Whatever outlives the run by more than a moment is left behind.
  let leftProcesses = processesMarked(mark);
  for (let i = 0; i < 20 && leftProcesses.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    leftProcesses = processesMarked(mark);
  }
  for (const pid of leftProcesses) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  // tsx keeps its transform cache in TMPDIR (tsx-<uid>): the loader's, not a target's data.
  const leftFiles = readdirSync(tmp).filter((f) => !/^tsx-\d+$/.test(f));
  const wroteVerdict = existsSync(path.join(out, 'verdict.json'));
  rmSync(tmp, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
  return { code, stdout, stderr, wallMs, leftProcesses, leftFiles, wroteVerdict };
}

function expectRefused(run: Run, boundMs: number, message: RegExp): void {
  expect(run.stderr, run.stdout).toMatch(message);
  expect(run.code, run.stderr).toBe(2);
  expect(run.wallMs, run.stderr).toBeLessThan(boundMs);
  expect(`${run.stdout}${run.stderr}`).not.toMatch(ACTIVE);
  expect(run.stderr.trim().split('\n')[0]).toMatch(/^smtc: pre-flight: /);
  expect(run.wroteVerdict).toBe(false);
  expect(run.leftProcesses).toEqual([]);
  expect(run.leftFiles).toEqual([]);
}

let hanging: NetServer;
let garbage: Server;
let lying: Server;
const sockets = new Set<Socket>();
let dir: string;

function listen(server: NetServer | Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      resolve(`http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`);
    }),
  );
}

const urls: Record<string, string> = {};

function manifestFor(name: string, capabilities: Record<string, boolean> = {}): string {
  const baseUrl = urls[name] ?? '';
  const p = (subject: string, roles: string[]) => ({
    subject,
    organization: 'org-a',
    roles,
    credential: `tok-${subject}`,
  });
  const file = path.join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      manifestVersion: 1,
      name,
      baseUrl,
      capabilities,
      principals: {
        alice: p('alice', ['user']),
        bob: p('bob', ['user']),
        carol: p('carol', ['user']),
        adminA: p('admin-a', ['admin']),
        adminB: p('admin-b', ['admin']),
        approverA: p('approver-a', ['approver']),
      },
    }),
  );
  return file;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-zoo-'));
  // Accepts connections and never answers.
  hanging = createNetServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // Answers everything with 200 and bytes that are not the protocol.
  garbage = createHttpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('\u001b[2J{"protocol": smtc-http/1 ;; <html>garbage');
  });
  // Claims the protocol and every capability, then authenticates every token as somebody else.
  lying = createHttpServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url === '/v1/info') {
      res.end(
        JSON.stringify({
          protocol: PROTOCOL_VERSION,
          name: 'liar',
          capabilities: { threadState: true, memory: true, runs: true, telemetry: true },
          testControls: false,
          agents: ['a1', 'a2'],
        }),
      );
    } else {
      res.end(JSON.stringify({ id: 'p1', subject: 'mallory', organization: 'org-z', roles: ['admin'] }));
    }
  });
  urls.hanging = await listen(hanging);
  urls.garbage = await listen(garbage);
  urls.lying = await listen(lying);
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all([hanging, garbage, lying].map((s) => new Promise((r) => s.close(r))));
  rmSync(dir, { recursive: true, force: true });
});

const short = { SMTC_PREFLIGHT_MS: String(SHORT_MS) };

describe('certify against hostile targets: bounded, exit 2, one clear message, nothing left behind', () => {
  it.concurrent('a URL that accepts and never answers ends within the default 20 s bound', async () => {
    const run = await certifyHostile(['--target', urls.hanging ?? '', '--manifest', manifestFor('hanging')]);
    expectRefused(
      run,
      20_000 + SLACK_MS,
      /did not create an instance within 20 s \(the service did not answer in time\)/,
    );
  }, 120_000);

  it.concurrent('a module whose top-level await never settles', async () => {
    const run = await certifyHostile(['--target', path.join(ZOO, 'never-settling-import.ts')], short);
    expectRefused(
      run,
      SHORT_MS + SLACK_MS,
      /did not load within 6 s \(its import or top-level await never settled, or it blocked the event loop\)/,
    );
  }, 120_000);

  it.concurrent('a module whose top-level await waits on nothing (Node exit 13)', async () => {
    const run = await certifyHostile(['--target', path.join(ZOO, 'unsettled-top-level-await.ts')], short);
    expectRefused(run, SHORT_MS + SLACK_MS, /exit code 13 \(a top-level await that waits on nothing/);
  }, 120_000);

  it.concurrent('a module that blocks the event loop while loading', async () => {
    const run = await certifyHostile(['--target', path.join(ZOO, 'blocking-import.ts')], short);
    expectRefused(
      run,
      SHORT_MS + SLACK_MS,
      /did not load within 6 s \(its import or top-level await never settled, or it blocked the event loop\)/,
    );
  }, 120_000);

  it.concurrent('a module whose create() blocks the event loop', async () => {
    const run = await certifyHostile(['--target', path.join(ZOO, 'blocking-create.ts')], short);
    expectRefused(
      run,
      SHORT_MS + SLACK_MS,
      /did not create an instance within 6 s \(it never settled, or it blocked the event loop\)/,
    );
  }, 120_000);

  it.concurrent('a module whose create() never resolves', async () => {
    const run = await certifyHostile(['--target', path.join(ZOO, 'never-resolving-create.ts')], short);
    expectRefused(
      run,
      SHORT_MS + SLACK_MS,
      /did not create an instance within 6 s \(it never settled, or it blocked the event loop\)/,
    );
  }, 120_000);

  it.concurrent('a module whose errors carry terminal escape sequences: shown inert', async () => {
    const run = await certifyHostile(['--target', path.join(ZOO, 'escape-printing.ts')], short);
    expectRefused(run, SHORT_MS + SLACK_MS, /failed to create: \\x1b\[2J\\x1b\[H\\x1b\[32m {2}verdict: CERTIFIED/);
  }, 120_000);

  it.concurrent('a service that answers garbage', async () => {
    const run = await certifyHostile(['--target', urls.garbage ?? '', '--manifest', manifestFor('garbage')], short);
    expectRefused(run, SHORT_MS + SLACK_MS, /failed to create: GET \/v1\/info: the response is not JSON/);
  }, 120_000);

  it.concurrent('a service that lies about its capabilities and identities', async () => {
    const manifest = manifestFor('lying', { threadState: true, memory: true, runs: true, telemetry: true });
    const run = await certifyHostile(['--target', urls.lying ?? '', '--manifest', manifest], short);
    expectRefused(run, SHORT_MS + SLACK_MS, /does not match its manifest:(.|\n)*authenticates as a different identity/);
  }, 120_000);
});
