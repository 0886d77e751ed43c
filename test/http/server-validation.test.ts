/**
 * The reference server: real requests and responses validated against the protocol schemas;
 * every failure a registry-coded error body with the registry's status; inputs never echoed;
 * unknown errors → 500 `internal` without detail, logged without the message; test controls
 * hidden unless enabled and then only for the admin token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_REGISTRY } from '../../contract/errors.js';
import { ErrorResponseSchema } from '../../contract/http/error-protocol.js';
import { ROUTES } from '../../contract/http/routes.js';
import { RunStreamLineSchema } from '../../contract/http/runs-protocol.js';
import type { Principals } from '../../contract/principals.js';
import type { Target } from '../../contract/target.js';
import { serveTarget } from '../../reference-impl/server/target-server.js';
import { raw, type Served, serveReference } from './served-reference.js';

let served: Served;
let url: string;
let p: Principals;

beforeAll(async () => {
  served = await serveReference();
  url = served.server.url;
  p = served.server.target.principals;
});
afterAll(async () => served?.stop());

function expectError(res: { status: number; json(): unknown; text: string }, code: keyof typeof ERROR_REGISTRY): void {
  const body = ErrorResponseSchema.parse(res.json());
  expect(body.error.code).toBe(code);
  expect(res.status).toBe(ERROR_REGISTRY[code].status);
  expect(body.error.category).toBe(ERROR_REGISTRY[code].category);
}

const post = (path: string, token: string | undefined, body: unknown) =>
  raw(url, 'POST', path, { ...(token ? { token } : {}), body: JSON.stringify(body) });

describe('HTTP server: schemas and error mapping', () => {
  it('a binding lifecycle and thread-state round trip: every response matches its schema', async () => {
    const opened = await post('/v1/bindings/open', p.alice.credential, {
      spec: { environment: 'e', harness: 'h', codec: 'scripted/v1' },
    });
    expect(opened.status).toBe(200);
    const info = ROUTES.bindingsOpen.response.parse(opened.json());
    const leased = await post('/v1/bindings/acquire-lease', p.alice.credential, { bindingId: info.bindingId });
    const session = ROUTES.bindingsAcquireLease.response.parse(leased.json());
    const bytes = Buffer.from([0, 1, 2, 250, 255]).toString('base64');
    const written = await post('/v1/thread-state/write-native-state', session.credential, {
      scope: session.scope,
      codec: 'scripted/v1',
      payload: { codec: 'scripted/v1', bytes },
      idempotencyKey: 'k1',
    });
    const pending = ROUTES.stateWriteNative.response.parse(written.json());
    const committed = await post('/v1/thread-state/commit-head', session.credential, {
      scope: session.scope,
      pending,
      expectedDurableRevision: 0,
      runId: 'run-1',
    });
    expect(committed.status).toBe(200);
    const loaded = await post('/v1/thread-state/load-head', session.credential, { scope: session.scope });
    const head = z.decode(ROUTES.stateLoadHead.response, loaded.json() as never).head;
    expect(head?.revision).toBe(1);
    expect([...head!.payload.bytes]).toEqual([0, 1, 2, 250, 255]);
    // A stale expected revision: the registry's conflict.
    expectError(
      await post('/v1/thread-state/commit-head', session.credential, {
        scope: session.scope,
        pending,
        expectedDurableRevision: 0,
        runId: 'run-2',
      }),
      'revision_conflict',
    );
  });

  it('authentication: no token, a token of nobody and a principal token on a worker route are unauthenticated', async () => {
    expectError(await post('/v1/bindings/open', undefined, { spec: {} }), 'unauthenticated');
    expectError(await post('/v1/bindings/open', p.anonymousCredential, { spec: {} }), 'unauthenticated');
    const scope = {
      bindingId: 'b',
      environment: 'e',
      harness: 'h',
      epoch: 1,
      codec: 'scripted/v1',
      leaseGeneration: 1,
    };
    expectError(await post('/v1/thread-state/load-head', p.alice.credential, { scope }), 'unauthenticated');
    expectError(await raw(url, 'GET', '/v1/principals/self', { token: 'Bearer' }), 'unauthenticated');
  });

  it('validation: wrong types, unknown fields, non-JSON and wrong media types are invalid_argument, never echoed', async () => {
    const canary = 'CANARY-7f3a9e';
    for (const body of [
      { spec: canary },
      { spec: { environment: 'e', harness: 'h', codec: 'scripted/v1', [canary]: 1 } },
      { spec: { environment: 5, harness: canary, codec: null } },
      [canary],
    ]) {
      const res = await post('/v1/bindings/open', p.alice.credential, body);
      expectError(res, 'invalid_argument');
      expect(res.text).not.toContain(canary);
    }
    const notJson = await raw(url, 'POST', '/v1/bindings/open', { token: p.alice.credential, body: `{${canary}` });
    expectError(notJson, 'invalid_argument');
    expect(notJson.text).not.toContain(canary);
    const xml = await raw(url, 'POST', '/v1/bindings/open', {
      token: p.alice.credential,
      body: `<x>${canary}</x>`,
      contentType: 'application/xml',
    });
    expectError(xml, 'invalid_argument');
    const proto = await raw(url, 'POST', '/v1/bindings/open', {
      token: p.alice.credential,
      body: '{"spec":{"__proto__":{"x":1}}}',
    });
    expectError(proto, 'invalid_argument');
  });

  it('an oversized body is payload_too_large (413) and unknown routes are not_found (404)', async () => {
    const huge = await raw(url, 'POST', '/v1/bindings/open', {
      token: p.alice.credential,
      body: JSON.stringify({ spec: 'x'.repeat(4 * 1024 * 1024) }),
    });
    expectError(huge, 'payload_too_large');
    expectError(await raw(url, 'GET', '/v1/nothing-here'), 'not_found');
    expectError(await raw(url, 'DELETE', '/v1/bindings/open'), 'not_found');
  });

  it('test controls: admin token required; failpoints armed over HTTP fail the step with their code', async () => {
    expectError(await raw(url, 'GET', '/_smtc/clock'), 'unauthenticated');
    expectError(await raw(url, 'GET', '/_smtc/clock', { token: p.adminA.credential }), 'unauthenticated');
    const admin = served.server.manifest.adminToken!;
    const clock = await raw(url, 'GET', '/_smtc/clock', { token: admin });
    const before = ROUTES.controlClockNow.response.parse(clock.json()).now;
    const advanced = await raw(url, 'POST', '/_smtc/clock/advance', { token: admin, body: '{"ms":60000}' });
    expect(ROUTES.controlClockAdvance.response.parse(advanced.json()).now).toBeGreaterThanOrEqual(before + 60_000);
    expectError(
      await raw(url, 'POST', '/_smtc/clock/advance', { token: admin, body: '{"ms":-1}' }),
      'invalid_argument',
    );

    const bad = await raw(url, 'PUT', '/_smtc/failpoints/state.write.before', {
      token: admin,
      body: 'explode(now)',
      contentType: 'text/plain',
    });
    expectError(bad, 'invalid_argument');
    const armed = await raw(url, 'PUT', '/_smtc/failpoints/state.write.before', {
      token: admin,
      body: '1*return("unavailable")',
      contentType: 'text/plain',
    });
    expect(armed.status).toBe(200);
    const info = ROUTES.bindingsOpen.response.parse(
      (
        await post('/v1/bindings/open', p.bob.credential, {
          spec: { environment: 'e', harness: 'h', codec: 'scripted/v1' },
        })
      ).json(),
    );
    const session = ROUTES.bindingsAcquireLease.response.parse(
      (await post('/v1/bindings/acquire-lease', p.bob.credential, { bindingId: info.bindingId })).json(),
    );
    const write = () =>
      post('/v1/thread-state/write-native-state', session.credential, {
        scope: session.scope,
        codec: 'scripted/v1',
        payload: { codec: 'scripted/v1', bytes: 'AA==' },
        idempotencyKey: 'fp',
      });
    expectError(await write(), 'unavailable');
    expect((await write()).status).toBe(200); // counted term used up
    expect((await raw(url, 'DELETE', '/_smtc/failpoints', { token: admin })).status).toBe(200);
  });

  it('test controls are absent (404) unless enabled, even for the admin token', async () => {
    const off = await serveReference({ testControls: false });
    try {
      const admin = off.server.manifest.adminToken!;
      expectError(await raw(off.server.url, 'GET', '/_smtc/clock', { token: admin }), 'not_found');
      expectError(
        await raw(off.server.url, 'PUT', '/_smtc/failpoints/state.write.before', {
          token: admin,
          body: 'panic',
          contentType: 'text/plain',
        }),
        'not_found',
      );
      const info = ROUTES.info.response.parse((await raw(off.server.url, 'GET', '/v1/info')).json());
      expect(info.testControls).toBe(false);
      expect(info.capabilities.failpoints).toBe(false);
      expect(info.capabilities.settableClock).toBe(false);
    } finally {
      await off.stop();
    }
  });

  it('runs stream NDJSON lines that each match the stream schema, ending with the outcome', async (ctx) => {
    if (!served.server.target.capabilities.runs) return ctx.skip('not run: the reference declares no runs yet');
    const info = ROUTES.bindingsOpen.response.parse(
      (
        await post('/v1/bindings/open', p.alice.credential, {
          spec: { environment: 'e', harness: 'h', codec: 'scripted/v1' },
        })
      ).json(),
    );
    const res = await post('/v1/runs', p.alice.credential, {
      request: {
        bindingId: info.bindingId,
        agent: p.agents[0],
        steps: [{ type: 'emit', text: 'hello' }, { type: 'checkpoint' }, { type: 'emit', text: 'bye' }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.contentType).toContain('application/x-ndjson');
    const lines = res.text
      .trim()
      .split('\n')
      .map((l) => RunStreamLineSchema.parse(JSON.parse(l)));
    const last = lines.at(-1) as { outcome?: { state: string } };
    expect(last.outcome?.state).toBe('completed');
    expect(lines.filter((l) => 'type' in l && l.type === 'output').length).toBe(2);
    // Before the stream starts, failures are ordinary error responses.
    expectError(await post('/v1/runs', p.alice.credential, { request: { bindingId: 5 } }), 'invalid_argument');
  });
});

describe('HTTP server: unknown failures', () => {
  it('an unexpected error is 500 internal with no detail, and is logged without its message', async () => {
    const secret = 'SECRET-in-an-exception-9d2c';
    const logs: Record<string, unknown>[] = [];
    const principal = { id: 'alice', subject: 's', organization: 'o', roles: ['user'] as const, credential: 'tok-a' };
    const principals = {
      alice: principal,
      bob: { ...principal, credential: 'tok-b' },
      carol: { ...principal, credential: 'tok-c' },
      adminA: { ...principal, credential: 'tok-d' },
      adminB: { ...principal, credential: 'tok-e' },
      approverA: { ...principal, credential: 'tok-f' },
      agents: ['a1', 'a2'] as const,
      anonymousCredential: 'nobody',
    };
    const boom = async (): Promise<never> => {
      throw new TypeError(secret);
    };
    const target = {
      name: 'broken',
      capabilities: { threadState: true },
      principals,
      bindings: { open: boom, get: boom, clear: boom, acquireLease: boom },
      threadState: () => {
        throw new RangeError(secret);
      },
      memory: boom,
      approvals: { list: boom, decide: boom },
      audit: { memory: boom },
      tools: { mayInvoke: boom, mayReach: boom },
    } as unknown as Target;
    const server = await serveTarget(target, { log: (e) => logs.push(e) });
    try {
      const res = await raw(server.url, 'POST', '/v1/bindings/open', {
        token: 'tok-a',
        body: JSON.stringify({ spec: { environment: 'e', harness: 'h', codec: 'c' } }),
      });
      expectError(res, 'internal');
      expect(ErrorResponseSchema.parse(res.json()).error.message).toBe(ERROR_REGISTRY.internal.message);
      expect(res.text).not.toContain(secret);
      expect(logs.length).toBe(1);
      expect(JSON.stringify(logs)).not.toContain(secret);
      expect(JSON.stringify(logs)).not.toContain('tok-a');
      expect(logs[0]).toMatchObject({ route: 'bindingsOpen', error: 'TypeError' });
    } finally {
      await server.close();
    }
  });
});
