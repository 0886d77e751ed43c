/**
 * The reference server holds its protocol under abuse (issue 14): every answer below the
 * route handlers has the protocol's error shape, deep input is refused before validation,
 * admin control values are bounded, authentication comes before the body, aborts are not
 * internal errors, and its data files are this user's only.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_REGISTRY } from '../../contract/errors.js';
import { ErrorResponseSchema } from '../../contract/http/error-protocol.js';
import type { Principals } from '../../contract/principals.js';
import { abortMidBody, rawHttp } from './raw-socket.js';
import { raw, type Served, serveReference } from './served-reference.js';

let served: Served;
let url: string;
let p: Principals;
let admin: string;
let dataDir: string;

beforeAll(async () => {
  // A data directory that exists, world-readable, before the server starts.
  dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'smtc-abuse-')), 'data');
  mkdirSync(dataDir, { mode: 0o755 });
  served = await serveReference({ workers: 0, dataDir });
  url = served.server.url;
  p = served.server.target.principals;
  admin = served.server.manifest.adminToken ?? '';
}, 60_000);
afterAll(async () => {
  await served?.stop();
  rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

/** A protocol error body whose status is the registry's for its code. */
function expectProtocolError(status: number, text: string, code?: string): void {
  const parsed = ErrorResponseSchema.safeParse(JSON.parse(text));
  expect(parsed.success, text).toBe(true);
  const e = parsed.data!.error;
  expect(status).toBe(ERROR_REGISTRY[e.code].status);
  expect(e.retryable).toBe(ERROR_REGISTRY[e.code].retryable);
  if (code) expect(e.code).toBe(code);
}

const memoryPut = (key: string) =>
  JSON.stringify({
    agent: p.agents[0],
    scope: { kind: 'user' },
    proposal: { key, kind: 'semantic', content: 'x', contentType: 'text/plain' },
    expectedRevision: null,
  });

describe('the reference server under abuse', () => {
  it('a run request nested far deeper than any valid one is invalid_argument (400), not a stack overflow', async () => {
    // Built as text: JSON.stringify itself would overflow on it.
    const depth = 20_000;
    const steps = `${'[{"type":"subagent","steps":'.repeat(depth)}[{"type":"emit","text":"x"}]${'}]'.repeat(depth)}`;
    const body = `{"request":{"bindingId":"bnd_x","agent":${JSON.stringify(p.agents[0])},"steps":${steps}}}`;
    const res = await raw(url, 'POST', '/v1/runs/start', { token: p.alice.credential, body });
    expectProtocolError(res.status, res.text, 'invalid_argument');
    expect(served.logs).toEqual([]);
  });

  it('a clock advance past the date range is refused, and memory writes keep working', async () => {
    for (const ms of [1e308, 8.64e15, Number.MAX_SAFE_INTEGER]) {
      const res = await raw(url, 'POST', '/_smtc/clock/advance', { token: admin, body: JSON.stringify({ ms }) });
      expectProtocolError(res.status, res.text, 'invalid_argument');
    }
    const put = await raw(url, 'POST', '/v1/memory/put', { token: p.alice.credential, body: memoryPut('abuse/clock') });
    expect(put.status, put.text).toBe(200);
  });

  it('an unauthenticated request is refused before its body is read: 401 for a malformed or oversized body', async () => {
    const bad = await raw(url, 'POST', '/v1/memory/put', { token: 'nobody', body: '{"not json' });
    expectProtocolError(bad.status, bad.text, 'unauthenticated');
    const huge = await raw(url, 'POST', '/v1/memory/put', { token: 'nobody', body: 'x'.repeat(40 * 1024 * 1024) });
    expectProtocolError(huge.status, huge.text, 'unauthenticated');
    const none = await raw(url, 'POST', '/_smtc/clock/advance', { body: '{' });
    expectProtocolError(none.status, none.text, 'unauthenticated');
  });

  it('bad chunked framing, oversized headers and a malformed URL answer in the protocol error shape', async () => {
    const chunked = await rawHttp(
      url,
      `POST /v1/memory/put HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${p.alice.credential}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    );
    expectProtocolError(chunked.status, chunked.body, 'invalid_argument');
    const headers = await rawHttp(url, `GET /v1/info HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
    expectProtocolError(headers.status, headers.body, 'payload_too_large');
    const both = await rawHttp(
      url,
      'GET /v1/info HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    expectProtocolError(both.status, both.body, 'invalid_argument');
    const badUrl = await rawHttp(url, 'GET /v1/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expectProtocolError(badUrl.status, badUrl.body);
    expect(badUrl.status).toBeLessThan(500);
  });

  it('a client that aborts mid-body is not logged as an internal error', async () => {
    await abortMidBody(url, '/v1/bindings/open', p.alice.credential);
    // The server sees the reset at once; a log entry would appear within this bounded wait.
    const deadline = Date.now() + 1_500;
    while (served.logs.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(served.logs).toEqual([]);
    expect((await raw(url, 'GET', '/v1/info')).status).toBe(200);
  });

  it('its data files are this user only: 0700 directory, 0600 store (+ WAL/SHM) and credentials', () => {
    const mode = (f: string) => statSync(path.join(dataDir, f)).mode & 0o777;
    expect(mode('.')).toBe(0o700);
    for (const f of ['smtc-reference.sqlite', 'smtc-reference.sqlite-wal', 'smtc-reference.sqlite-shm']) {
      expect(mode(f), f).toBe(0o600);
    }
  });
});
