/**
 * `smtc certify` against a zoo of hostile targets — modules that never load, block the event
 * loop, never create, print escape sequences; services that hang, answer garbage or lie about
 * themselves. Each run must end within its bound with exit code 2 and one clear message,
 * print nothing a terminal would act on, write no verdict, and leave nothing behind: no
 * process (found by a marker in its environment), no temporary directory (each run gets its
 * own TMPDIR, which must be empty afterwards).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../contract/http/info-protocol.js';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { certifyHostile, type Run } from './hostile-run.js';

const ZOO = path.join(REPO_ROOT, 'fixtures/targets/hostile');
/** Anything a terminal acts on: ESC, BEL, CR, other C0 but newline/tab, DEL, C1, bidi controls. */
const ACTIVE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
/** The bound the hanging targets are given (SMTC_PREFLIGHT_MS); the others fail on their own, within the defaults. */
const SHORT_MS = 12_000;
/**
 * Slack for starting two Node processes with tsx on a loaded CI machine (alone they take ~2 s;
 * at load average 20 on two cores, 10–30 s). Without the pre-flight these runs took 453 s and more.
 */
const SLACK_MS = 60_000;

function expectRefused(run: Run, boundMs: number, message: RegExp): void {
  expect(run.stderr, run.stdout).toMatch(message);
  expect(run.code, run.stderr).toBe(2);
  expect(run.wallMs, run.stderr).toBeLessThan(boundMs);
  expect(`${run.stdout}${run.stderr}`).not.toMatch(ACTIVE);
  expect(run.stderr).toMatch(/^smtc: pre-flight: /m);
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
  it.concurrent('a URL that accepts and never answers is stopped at the bound of its create step', async () => {
    const run = await certifyHostile(['--target', urls.hanging ?? '', '--manifest', manifestFor('hanging')], short);
    expectRefused(
      run,
      SHORT_MS + SLACK_MS,
      // The reachability probe (10 s) or the pre-flight's create step, whichever is first.
      /did not create an instance within 12 s \(the service did not answer in time\)|could not be reached \(no answer within/,
    );
  }, 240_000);

  it.concurrent('a module whose top-level await never settles', async () => {
    const run = await certifyHostile(['--target', path.join(ZOO, 'never-settling-import.ts')], short);
    expectRefused(
      run,
      SHORT_MS + SLACK_MS,
      /did not load within 12 s \(its import or top-level await never settled, or it blocked the event loop\)/,
    );
  }, 240_000);

  it.concurrent('a module whose top-level await waits on nothing (Node exit 13)', async () => {
    const run = await certifyHostile(['--target', path.join(ZOO, 'unsettled-top-level-await.ts')]);
    expectRefused(run, 20_000 + SLACK_MS, /exit code 13 \(a top-level await that waits on nothing/);
  }, 240_000);

  it.concurrent('a module that blocks the event loop while loading', async () => {
    const run = await certifyHostile(['--target', path.join(ZOO, 'blocking-import.ts')], short);
    expectRefused(
      run,
      SHORT_MS + SLACK_MS,
      /did not load within 12 s \(its import or top-level await never settled, or it blocked the event loop\)/,
    );
  }, 240_000);

  it.concurrent('a module whose create() blocks the event loop', async () => {
    const run = await certifyHostile(['--target', path.join(ZOO, 'blocking-create.ts')], short);
    expectRefused(
      run,
      SHORT_MS + SLACK_MS,
      /did not create an instance within 12 s \(it never settled, or it blocked the event loop\)/,
    );
  }, 240_000);

  it.concurrent('a module whose create() never resolves', async () => {
    const run = await certifyHostile(['--target', path.join(ZOO, 'never-resolving-create.ts')], short);
    expectRefused(
      run,
      SHORT_MS + SLACK_MS,
      /did not create an instance within 12 s \(it never settled, or it blocked the event loop\)/,
    );
  }, 240_000);

  it.concurrent('a module whose errors carry terminal escape sequences: shown inert', async () => {
    const run = await certifyHostile(['--target', path.join(ZOO, 'escape-printing.ts')]);
    expectRefused(run, 20_000 + SLACK_MS, /failed to create: \\x1b\[2J\\x1b\[H\\x1b\[32m {2}verdict: CERTIFIED/);
  }, 240_000);

  it.concurrent('a service that answers garbage', async () => {
    const run = await certifyHostile(['--target', urls.garbage ?? '', '--manifest', manifestFor('garbage')]);
    expectRefused(run, 20_000 + SLACK_MS, /failed to create: GET \/v1\/info: the response is not JSON/);
  }, 240_000);

  it.concurrent('a service that lies about its capabilities and identities', async () => {
    const manifest = manifestFor('lying', { threadState: true, memory: true, runs: true, telemetry: true });
    const run = await certifyHostile(['--target', urls.lying ?? '', '--manifest', manifest]);
    expectRefused(run, 20_000 + SLACK_MS, /does not match its manifest:(.|\n)*authenticates as a different identity/);
  }, 240_000);
});
