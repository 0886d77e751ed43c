/**
 * Fuzz of every endpoint of the reference server (fast-check): random JSON, valid bodies with
 * one slot replaced by junk, wrong types, non-JSON, and bad, missing or misplaced tokens.
 * Every answer is < 500 and every error is a registry-coded body with the registry's status;
 * the server stays up; a committed head and a memory record are unchanged afterwards.
 *
 * Admin routes are fuzzed with every token but the admin one (a valid clock advance or
 * failpoint would legitimately change behaviour); their validation has example tests.
 *
 * Abuse categories (issue 14), counted per run and printed: nesting depth far past any valid
 * body, body sizes around the body limit, framing errors on raw sockets (bad chunked
 * encoding, conflicting lengths, oversized and malformed headers, bad request lines), wrong
 * credentials of every kind, and concurrent bursts. Same assertions: no 5xx, the protocol's
 * error shape with the registry's status and `retryable`, the watched state unchanged.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { WorkerSession } from '../../contract/bindings.js';
import { ERROR_REGISTRY } from '../../contract/errors.js';
import { ErrorResponseSchema } from '../../contract/http/error-protocol.js';
import { ROUTES, type RouteId, type RouteSpec } from '../../contract/http/routes.js';
import type { Principals } from '../../contract/principals.js';
import { fcParams } from '../../fixtures/properties/fc-params.js';
import { defaultBodyLimit } from '../../reference-impl/server/target-server.js';
import { rawHttp } from './raw-socket.js';
import { raw, type Served, serveReference } from './served-reference.js';

let served: Served;
let url: string;
let p: Principals;
let session: WorkerSession;
let otherSession: WorkerSession;
let observe: () => Promise<string>;
let baseline: string;
const WATCHED_KEY = 'fuzz/watched-record-7c1e';

const post = async (path: string, token: string, body: unknown) => {
  const res = await raw(url, 'POST', path, { token, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`setup call ${path} failed: ${res.status}`);
  return res.json();
};

beforeAll(async () => {
  served = await serveReference();
  url = served.server.url;
  p = served.server.target.principals;
  const spec = { environment: 'e', harness: 'h', codec: 'scripted/v1' };
  const info = (await post('/v1/bindings/open', p.alice.credential, { spec })) as { bindingId: string };
  session = (await post('/v1/bindings/acquire-lease', p.alice.credential, {
    bindingId: info.bindingId,
  })) as WorkerSession;
  const pending = await post('/v1/thread-state/write-native-state', session.credential, {
    scope: session.scope,
    codec: 'scripted/v1',
    payload: { codec: 'scripted/v1', bytes: 'aGVhZA==' },
    idempotencyKey: 'fuzz-head',
  });
  await post('/v1/thread-state/commit-head', session.credential, {
    scope: session.scope,
    pending,
    expectedDurableRevision: 0,
    runId: 'fuzz-run',
  });
  const other = (await post('/v1/bindings/open', p.bob.credential, { spec })) as { bindingId: string };
  otherSession = (await post('/v1/bindings/acquire-lease', p.bob.credential, {
    bindingId: other.bindingId,
  })) as WorkerSession;
  if (served.server.target.capabilities.memory) {
    await post('/v1/memory/put', p.alice.credential, {
      agent: p.agents[0],
      scope: { kind: 'user' },
      proposal: { key: WATCHED_KEY, kind: 'semantic', content: 'likes tea', contentType: 'text/plain' },
      expectedRevision: null,
    });
  }
  observe = async () => {
    const head = await post('/v1/thread-state/load-head', session.credential, { scope: session.scope });
    const record = served.server.target.capabilities.memory
      ? await post('/v1/memory/get', p.alice.credential, {
          agent: p.agents[0],
          scope: { kind: 'user' },
          key: WATCHED_KEY,
        })
      : null;
    return JSON.stringify({ head, record });
  };
  baseline = await observe();
}, 60_000);
afterAll(async () => served?.stop());

/** A well-formed body per route (aimed away from the watched head and record). */
function template(id: RouteId): unknown {
  const scope = otherSession.scope;
  const pending = {
    stateId: 'st_unknown',
    bindingId: scope.bindingId,
    epoch: scope.epoch,
    codec: 'scripted/v1',
    idempotencyKey: 'k',
    contentHash: '0'.repeat(64),
    size: 1,
  };
  const mscope = { kind: 'user' };
  const bodies: Partial<Record<RouteId, unknown>> = {
    bindingsOpen: { spec: { environment: 'e', harness: 'h', codec: 'scripted/v1' } },
    bindingsGet: { bindingId: scope.bindingId },
    bindingsClear: { bindingId: scope.bindingId },
    bindingsAcquireLease: { bindingId: scope.bindingId },
    stateLoadHead: { scope },
    stateWriteNative: {
      scope,
      codec: 'scripted/v1',
      payload: { codec: 'scripted/v1', bytes: 'AA==' },
      idempotencyKey: 'k',
    },
    stateCommitHead: { scope, pending, expectedDurableRevision: 0, runId: 'r' },
    stateMarkUncertain: { scope, runId: 'r', reason: 'write_failed_after_output' },
    stateRunStatus: { scope, runId: 'r' },
    stateReconcile: { scope, runId: 'r', resolution: { action: 'keep_previous' } },
    memoryGet: { agent: p.agents[0], scope: mscope, key: 'k' },
    memorySearch: { agent: p.agents[0], scope: mscope, query: { text: 'tea' }, limit: 5 },
    memoryPut: {
      agent: p.agents[1],
      scope: mscope,
      proposal: { key: 'other/k', kind: 'semantic', content: 'x', contentType: 'text/plain' },
      expectedRevision: 7,
    },
    memoryDelete: { agent: p.agents[1], scope: mscope, key: 'other/k', expectedRevision: 3 },
    approvalsList: {},
    approvalsDecide: { approvalId: 'ap_unknown', decision: 'approve' },
    auditMemory: { filter: { key: 'k' } },
    toolsMayInvoke: { agent: p.agents[0], tool: 'search' },
    toolsMayReach: { agent: p.agents[0], host: 'example.org' },
    runsStart: { request: { bindingId: 'bnd_unknown', agent: p.agents[0], steps: [] } },
  };
  return bodies[id] ?? {};
}

/** Replace one slot (at any depth) of a JSON value. */
function mutate(value: unknown, pick: number, junk: unknown): unknown {
  const slots: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) {
        slots.push({ parent: v, key: i });
        walk(x);
      }
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        slots.push({ parent: v as Record<string, unknown>, key: k });
        walk(x);
      }
    }
  };
  const copy = structuredClone(value);
  walk(copy);
  if (slots.length === 0) return junk;
  const s = slots[pick % slots.length]!;
  (s.parent as Record<string | number, unknown>)[s.key] = junk;
  return copy;
}

const routeIds = Object.keys(ROUTES) as RouteId[];
const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(-1, 0, 1.5, 1e308, -0, '', ' ', '\u0000', '../..', '%2e%2e', 'a'.repeat(5000), [], {}, null, true),
  fc.string({ unit: 'binary', maxLength: 64 }),
);

type TokenKind = 'none' | 'garbage' | 'anonymous' | 'alice' | 'carol' | 'lease' | 'otherLease' | 'admin';
const tokenKinds = fc.constantFrom<TokenKind>(
  'none',
  'garbage',
  'anonymous',
  'alice',
  'carol',
  'lease',
  'otherLease',
  'admin',
);

function tokenFor(kind: TokenKind, route: RouteSpec, garbage: string): string | undefined {
  switch (kind) {
    case 'none':
      return undefined;
    case 'garbage':
      return garbage;
    case 'anonymous':
      return p.anonymousCredential;
    case 'alice':
      return p.alice.credential;
    case 'carol':
      return p.carol.credential;
    case 'lease':
      return session.credential;
    case 'otherLease':
      return otherSession.credential;
    case 'admin':
      // See the header: never the admin token on admin routes.
      return route.auth === 'admin' ? p.adminA.credential : served.server.manifest.adminToken;
  }
}

const fuzzCase = fc.record({
  route: fc.constantFrom(...routeIds),
  token: tokenKinds,
  garbageToken: fc.stringMatching(/^[\x21-\x7e]{1,40}$/),
  shape: fc.constantFrom('random-json', 'one-slot-junk', 'not-json', 'no-body'),
  pick: fc.nat(),
  junk,
  text: fc.string({ maxLength: 200 }),
});

describe('HTTP server fuzz', () => {
  it('every endpoint: answers < 500 with registry-coded errors, stays up, changes no watched state', async () => {
    await fc.assert(
      fc.asyncProperty(fuzzCase, async (c) => {
        const route = ROUTES[c.route] as RouteSpec;
        const token = tokenFor(c.token, route, c.garbageToken);
        let body: string | undefined;
        let contentType = 'application/json';
        if (c.shape === 'random-json') body = JSON.stringify(c.junk);
        else if (c.shape === 'one-slot-junk') body = JSON.stringify(mutate(template(c.route), c.pick, c.junk));
        else if (c.shape === 'not-json') body = `{${c.text}`;
        if (route.bodyType === 'text' && body !== undefined) contentType = 'text/plain';
        let path = route.path.replace(':name', encodeURIComponent(c.text.slice(0, 40) || 'x'));
        if (c.shape === 'not-json' && route.method === 'GET') path += `?${encodeURIComponent(c.text)}`;
        const res = await raw(url, route.method, path, {
          ...(token !== undefined ? { token } : {}),
          ...(body !== undefined ? { body, contentType } : {}),
        });
        expect(res.status, `${route.method} ${route.path}`).toBeLessThan(500);
        if (res.status >= 400) {
          const parsed = ErrorResponseSchema.safeParse(res.json());
          expect(parsed.success, `${route.path}: error body`).toBe(true);
          const code = parsed.data!.error.code;
          expect(res.status).toBe(ERROR_REGISTRY[code].status);
        } else if (route.stream !== 'ndjson') {
          // A 200 must be a well-formed response of its route.
          expect(z.safeDecode(route.response, res.json() as never).success, `${route.path}: 200 body`).toBe(true);
        }
      }),
      fcParams(400),
    );
    const info = await raw(url, 'GET', '/v1/info');
    expect(info.status).toBe(200);
    expect(await observe()).toBe(baseline);
    expect(served.logs).toEqual([]);
  }, 120_000);

  /** Requests tried per abuse category in this run (printed at the end, reported in the README). */
  const tried: Record<string, number> = {};
  const count = (category: string, n = 1) => {
    tried[category] = (tried[category] ?? 0) + n;
  };
  const expectProtocolAnswer = (status: number, text: string, what: string) => {
    expect(status, `${what}: ${text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
    expect(status, what).toBeLessThan(500);
    const parsed = ErrorResponseSchema.safeParse(JSON.parse(text));
    expect(parsed.success, `${what}: error body ${text.slice(0, 200)}`).toBe(true);
    const spec = ERROR_REGISTRY[parsed.data!.error.code];
    expect(status, what).toBe(spec.status);
    expect(parsed.data!.error.retryable, what).toBe(spec.retryable);
  };
  const bodyRoutes = routeIds.filter((id) => ROUTES[id].request !== null);

  it('nesting depth far past any valid body: 400, never a stack overflow', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...bodyRoutes),
        fc.integer({ min: 65, max: 50_000 }),
        fc.constantFrom('[', '{"a":', '[{"steps":'),
        fc.constantFrom<TokenKind>('alice', 'lease', 'garbage'),
        async (id, depth, open, kind) => {
          const close = open === '[' ? ']' : open === '{"a":' ? '}' : '}]';
          const body = `${open.repeat(depth)}1${close.repeat(depth)}`;
          const route = ROUTES[id] as RouteSpec;
          const token = tokenFor(kind, route, 'garbage-token');
          const res = await raw(url, route.method, route.path.replace(':name', 'x'), {
            ...(token !== undefined ? { token } : {}),
            body,
          });
          count('nesting depth');
          expectProtocolAnswer(res.status, res.text, `${id} depth ${depth}`);
        },
      ),
      fcParams(60),
    );
  }, 120_000);

  it('body sizes around the limit: an answer in the protocol shape, 413 past the limit', async () => {
    const limit = defaultBodyLimit(served.server.target);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...bodyRoutes),
        fc.constantFrom(0, 1, 1024, limit - 64, limit, limit + 1, limit * 2),
        fc.constantFrom<TokenKind>('alice', 'lease', 'none'),
        async (id, size, kind) => {
          const route = ROUTES[id] as RouteSpec;
          const token = tokenFor(kind, route, 'x');
          const body = size < 16 ? '{}'.slice(0, size) : `{"pad":"${'a'.repeat(size - 10)}"}`;
          const res = await raw(url, route.method, route.path.replace(':name', 'x'), {
            ...(token !== undefined ? { token } : {}),
            body,
          });
          count('body size');
          expect(res.status, `${id} ${size} B`).toBeLessThan(500);
          if (res.status >= 400) expectProtocolAnswer(res.status, res.text, `${id} ${size} B`);
          if (size > limit && kind !== 'none' && res.status !== 401) expect(res.status).toBe(413);
        },
      ),
      fcParams(40),
    );
  }, 120_000);

  it('framing errors on raw sockets: the protocol error shape, the server stays up', async () => {
    const auth = `Authorization: Bearer ${p.alice.credential}\r\n`;
    const framing = fc.oneof(
      fc
        .constantFrom('zz', '-1', '0x10', 'ffffffffffffffffff', '1;a=\u0001')
        .map(
          (size) =>
            `POST /v1/memory/get HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${size}\r\n{}\r\n0\r\n\r\n`,
        ),
      fc.constant(
        `POST /v1/memory/get HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      ),
      fc.constant(`POST /v1/memory/get HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`),
      fc
        .integer({ min: 17, max: 200 })
        .map((kib) => `GET /v1/info HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(kib * 1024)}\r\n\r\n`),
      fc
        .integer({ min: 700, max: 3000 }) // past 16 KiB of headers in many small ones
        .map(
          (n) =>
            `GET /v1/info HTTP/1.1\r\nHost: x\r\n${Array.from({ length: n }, (_, i) => `X-H${i}: ${'v'.repeat(20)}`).join('\r\n')}\r\n\r\n`,
        ),
      fc.constantFrom(
        'GET /v1/info HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n',
        'GET /v1/info HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n',
        'GET /v1/info HTTP/9.9\r\nHost: x\r\n\r\n',
        'GET\r\n\r\n',
        'G@T /v1/info HTTP/1.1\r\nHost: x\r\n\r\n',
        'GET /v1/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
        'GET /v1/\u00ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      ),
    );
    await fc.assert(
      fc.asyncProperty(framing, async (request) => {
        const res = await rawHttp(url, Buffer.from(request, 'latin1'));
        count('framing');
        expectProtocolAnswer(res.status, res.body, JSON.stringify(request.slice(0, 80)));
      }),
      fcParams(60),
    );
    expect((await raw(url, 'GET', '/v1/info')).status).toBe(200);
  }, 120_000);

  it('wrong credentials of every kind: 401/403/404 in the protocol shape, never a 5xx', async () => {
    const credentials = fc.oneof(
      fc.constantFrom(
        '',
        'Bearer',
        'Bearer ',
        'bearer x',
        'Basic YWxpY2U6cHc=',
        'Bearer a b',
        `Bearer ${'t'.repeat(8 * 1024)}`,
        `Bearer ${'\u00e9'.repeat(10)}`,
        'Token abc',
      ),
      fc
        .constantFrom<TokenKind>('anonymous', 'carol', 'lease', 'otherLease', 'admin', 'garbage')
        .map((k) => `kind:${k}`),
      fc.stringMatching(/^[\x21-\x7e]{1,64}$/).map((t) => `Bearer ${t}`),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routeIds), credentials, async (id, header) => {
        const route = ROUTES[id] as RouteSpec;
        const token = header.startsWith('kind:') ? tokenFor(header.slice(5) as TokenKind, route, 'g') : undefined;
        const authorization = token !== undefined ? `Bearer ${token}` : header;
        const body = route.request !== null ? JSON.stringify(template(id)) : undefined;
        const res = await rawHttp(
          url,
          Buffer.from(
            `${route.method} ${route.path.replace(':name', 'x')} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n` +
              (authorization !== '' ? `Authorization: ${authorization}\r\n` : '') +
              (body !== undefined
                ? `Content-Type: ${route.bodyType === 'text' ? 'text/plain' : 'application/json'}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
                : '\r\n'),
            'latin1',
          ),
        );
        count('credentials');
        expect(res.status, `${id} ${authorization.slice(0, 40)}`).toBeLessThan(500);
        if (res.status >= 400) expectProtocolAnswer(res.status, res.body, `${id} ${authorization.slice(0, 40)}`);
      }),
      fcParams(150),
    );
  }, 120_000);

  it('concurrent bursts of mixed requests: no 5xx, the watched state unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fuzzCase, { minLength: 10, maxLength: 40 }), async (cases) => {
        const answers = await Promise.all(
          cases.map(async (c) => {
            const route = ROUTES[c.route] as RouteSpec;
            const token = tokenFor(c.token, route, c.garbageToken);
            const body = c.shape === 'no-body' ? undefined : JSON.stringify(mutate(template(c.route), c.pick, c.junk));
            return raw(url, route.method, route.path.replace(':name', 'x'), {
              ...(token !== undefined ? { token } : {}),
              ...(body !== undefined
                ? { body, contentType: route.bodyType === 'text' ? 'text/plain' : 'application/json' }
                : {}),
            });
          }),
        );
        count('concurrency', cases.length);
        for (const a of answers) {
          expect(a.status, a.text.slice(0, 200)).toBeLessThan(500);
          if (a.status >= 400) expectProtocolAnswer(a.status, a.text, 'burst');
        }
      }),
      fcParams(10),
    );
    expect(await observe()).toBe(baseline);
    expect(served.logs).toEqual([]);
    const total = Object.values(tried).reduce((a, b) => a + b, 0);
    console.log(`abuse fuzz requests per category: ${JSON.stringify(tried)} (total ${total}), 5xx: 0`);
  }, 180_000);
});
