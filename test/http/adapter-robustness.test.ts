/**
 * The HTTP adapter against targets that misbehave: one that never answers, one that is not
 * there, one that answers garbage, one that cuts a run stream, one whose start command never
 * becomes ready. Each becomes a clear error within bounded time — never a hang, never a pass.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ContractError, isContractError } from '../../contract/errors.js';
import type { HttpTargetManifest } from '../../contract/http/manifest.js';
import { HttpTargetClient } from '../../fixtures/targets/http/http-client.js';
import { connectHttpTarget } from '../../fixtures/targets/http/http-target.js';
import { httpTargetModule } from '../../fixtures/targets/http/http-target-module.js';
import { HttpProtocolError } from '../../fixtures/targets/http/protocol-error.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function listen(server: Server | TcpServer): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address() as { port: number };
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${addr.port}`;
}

/** Accepts connections and never says a word. */
async function silentServer(): Promise<string> {
  const sockets = new Set<import('node:net').Socket>();
  const srv = createTcpServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const url = await listen(srv);
  closers.unshift(async () => {
    for (const s of sockets) s.destroy();
  });
  return url;
}

/** Answers every request with the given status, content type and body. */
async function fixedServer(status: number, contentType: string, body: string): Promise<string> {
  return listen(
    createServer((_req, res) => {
      res.writeHead(status, { 'content-type': contentType });
      res.end(body);
    }),
  );
}

const quick = { requestMs: 400, runMs: 400 };

async function rejection(p: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const t0 = performance.now();
  try {
    await p;
  } catch (error) {
    return { error, ms: performance.now() - t0 };
  }
  throw new Error('expected a rejection');
}

describe('HTTP adapter robustness', () => {
  it('a target that never answers: unavailable within the deadline, for calls and run streams', async () => {
    const client = new HttpTargetClient(await silentServer(), quick);
    closers.push(() => client.close());
    const call = await rejection(client.call('info'));
    expect(isContractError(call.error, 'unavailable')).toBe(true);
    expect(call.ms).toBeLessThan(3_000);
    const run = await rejection(client.stream('runsStart', { token: 't', body: { request: {} } }, () => {}));
    expect(isContractError(run.error, 'unavailable')).toBe(true);
    expect(run.ms).toBeLessThan(3_000);
  });

  it('a target that is not there: unavailable, fast', async () => {
    const srv = createTcpServer();
    const url = await listen(srv);
    await closers.pop()!(); // closed: the port refuses connections now
    const client = new HttpTargetClient(url, quick);
    closers.push(() => client.close());
    const r = await rejection(client.call('info'));
    expect(isContractError(r.error, 'unavailable')).toBe(true);
    expect(r.ms).toBeLessThan(3_000);
  });

  it('garbage answers are protocol errors, never contract errors or successes', async () => {
    const cases: [number, string, string][] = [
      [200, 'application/json', 'not json at all'],
      [200, 'application/json', '{"protocol":"smtc-http/1"}'],
      [200, 'text/html', '<html>hello</html>'],
      [500, 'text/html', '<h1>Internal Server Error</h1>'],
      [409, 'application/json', '{"error":{"code":"made_up","category":"conflict","retryable":true,"message":"x"}}'],
    ];
    for (const [status, type, body] of cases) {
      const client = new HttpTargetClient(await fixedServer(status, type, body), quick);
      closers.push(() => client.close());
      const r = await rejection(client.call('info'));
      expect(r.error, `${status} ${body}`).toBeInstanceOf(HttpProtocolError);
      expect(r.error).not.toBeInstanceOf(ContractError);
    }
  });

  it('a contract error body becomes a ContractError with the same code', async () => {
    const body = JSON.stringify({
      error: {
        code: 'stale_lease',
        category: 'fenced',
        retryable: false,
        message: 'the lease generation is no longer current',
      },
    });
    const client = new HttpTargetClient(await fixedServer(409, 'application/json', body), quick);
    closers.push(() => client.close());
    const r = await rejection(client.call('stateLoadHead', { token: 't', body: {} }));
    expect(isContractError(r.error, 'stale_lease')).toBe(true);
    expect((r.error as ContractError).category).toBe('fenced');
  });

  it('a run stream cut before its outcome is unavailable; garbage lines are protocol errors', async () => {
    const cut = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.write('{"seq":1,"type":"output","text":"partial"}\n');
        setTimeout(() => res.destroy(), 20);
      }),
    );
    const client = new HttpTargetClient(cut, quick);
    closers.push(() => client.close());
    const seen: unknown[] = [];
    const r = await rejection(client.stream('runsStart', { token: 't', body: {} }, (l) => seen.push(l)));
    expect(seen.length).toBe(1);
    expect(isContractError(r.error, 'unavailable')).toBe(true);

    const garbage = await fixedServer(200, 'application/x-ndjson', '{"seq":1,"type":"output","text":"a"}\nnot json\n');
    const g = new HttpTargetClient(garbage, quick);
    closers.push(() => g.close());
    const gr = await rejection(g.stream('runsStart', { token: 't', body: {} }, () => {}));
    expect(gr.error).toBeInstanceOf(HttpProtocolError);
  });

  it('a run stream whose multi-byte characters are split between socket writes is read as written', async () => {
    const text = 'é€𝄞中'.repeat(500);
    const line = Buffer.from(`${JSON.stringify({ seq: 1, type: 'output', text })}\n`, 'utf8');
    // Every write boundary falls inside a character: at a UTF-8 continuation byte.
    const inside = (near: number): number => {
      let i = near;
      while ((line[i]! & 0xc0) !== 0x80) i++;
      return i;
    };
    const cuts = [inside(line.indexOf(Buffer.from('é'))), inside(2_000), inside(4_000), line.length];
    const split = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        let from = 0;
        const next = (i: number): void => {
          if (i === cuts.length) return void res.end();
          res.write(line.subarray(from, cuts[i]));
          from = cuts[i]!;
          setTimeout(() => next(i + 1), 5);
        };
        next(0);
      }),
    );
    expect(line.subarray(0, cuts[0]).toString('utf8').endsWith('\uFFFD'), 'the first cut splits a character').toBe(
      true,
    );
    const client = new HttpTargetClient(split, quick);
    closers.push(() => client.close());
    const seen: unknown[] = [];
    await client.stream('runsStart', { token: 't', body: {} }, (l) => seen.push(l));
    expect(seen).toEqual([{ seq: 1, type: 'output', text }]);
  });

  it('connecting to something that is not an smtc target fails verification clearly', async () => {
    const url = await fixedServer(404, 'text/plain', 'nope');
    const manifest = {
      manifestVersion: 1,
      name: 'not-a-target',
      baseUrl: url,
      capabilities: {},
      principals: Object.fromEntries(
        ['alice', 'bob', 'carol', 'adminA', 'adminB', 'approverA'].map((n) => [
          n,
          { subject: n, organization: 'o', roles: ['user'], credential: `tok-${n}` },
        ]),
      ),
      timeouts: { requestMs: 500 },
    } as HttpTargetManifest;
    const r = await rejection(connectHttpTarget(manifest));
    expect(r.error).toBeInstanceOf(HttpProtocolError);
    expect(r.ms).toBeLessThan(3_000);
  });

  it('spawn mode: a start command that never becomes ready is stopped after its ready timeout', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-spawn-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const pidFile = path.join(dir, 'pid');
    const mod = httpTargetModule({
      manifestVersion: 1,
      name: 'never-ready',
      capabilities: {},
      process: {
        start: {
          command: [
            process.execPath,
            '-e',
            `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`,
            '{manifestOut}',
          ],
          readyTimeoutMs: 2_500,
        },
      },
    });
    const r = await rejection(mod.create({ tempDir: dir }));
    expect((r.error as Error).message).toContain('ready line');
    expect(r.ms).toBeLessThan(10_000);
    const pid = Number((await import('node:fs')).readFileSync(pidFile, 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow(); // no orphan left behind
  });
});
