/**
 * Fresh target instances on the reference server (`POST /_smtc/targets`): a test control like
 * the others (hidden unless enabled, root admin token only, bodies validated, nothing echoed);
 * each instance is isolated (own identities, tokens, admin token, data) and honours its env's
 * options; nesting is refused; the number is bounded; deleting removes the data; and a server
 * restarted on the same data brings every instance back with its tokens and state.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_REGISTRY } from '../../contract/errors.js';
import { ErrorResponseSchema } from '../../contract/http/error-protocol.js';
import { ROUTES } from '../../contract/http/routes.js';
import { processesNaming } from '../../fixtures/faults/processes-naming.js';
import { note, USER } from '../../fixtures/memory/memory-proposal.js';
import { connectHttpTarget } from '../../fixtures/targets/http/http-target.js';
import { instanceHost } from '../../fixtures/targets/http/target-instance.js';
import { MAX_INSTANCES } from '../../reference-impl/server/reference-instances.js';
import { raw, type Served, serveReference } from './served-reference.js';

let served: Served;
let url: string;
let admin: string;

beforeAll(async () => {
  served = await serveReference({ workers: 0 });
  url = served.server.url;
  admin = served.server.manifest.adminToken!;
});
afterAll(async () => served?.stop());

function expectError(res: { status: number; json(): unknown }, code: keyof typeof ERROR_REGISTRY): void {
  const body = ErrorResponseSchema.parse(res.json());
  expect(body.error.code).toBe(code);
  expect(res.status).toBe(ERROR_REGISTRY[code].status);
}

const create = (token: string | undefined, body: unknown, base = url) =>
  raw(base, 'POST', '/_smtc/targets', { ...(token ? { token } : {}), body: JSON.stringify(body) });

async function instance(body: unknown = {}) {
  const res = await create(admin, body);
  expect(res.status).toBe(200);
  return ROUTES.controlTargetsCreate.response.parse(res.json());
}

describe('target instances: a test control', () => {
  it('only the root admin token creates; bad bodies are invalid_argument and never echoed', async () => {
    const p = served.server.target.principals;
    expectError(await create(undefined, {}), 'unauthenticated');
    expectError(await create('smtc_admin_not-the-token', {}), 'unauthenticated');
    expectError(await create(p.adminA.credential, {}), 'unauthenticated');
    const marker = 'zz-echo-canary-77';
    for (const body of [
      { collectorUrl: `file:///${marker}` },
      { options: { [marker]: true } },
      { options: { samplingRatio: 2 } },
      { options: { stateLimits: { maxPayloadBytes: -1 } } },
      { tempDir: `/tmp/${marker}` },
      [marker],
    ]) {
      const res = await create(admin, body);
      expectError(res, 'invalid_argument');
      expect(res.text).not.toContain(marker);
    }
    expectError(await raw(url, 'DELETE', '/_smtc/targets/AAAAAAAAAAAAAAAA', { token: admin }), 'not_found');
    expectError(await raw(url, 'DELETE', '/_smtc/targets/..%2F..', { token: admin }), 'invalid_argument');
    expectError(await raw(url, 'GET', '/_smtc/targets/AAAAAAAAAAAAAAAA/v1/info'), 'not_found');
  });

  it('hidden when the test controls are off: info says so, the routes are absent', async () => {
    const plain = await serveReference({ testControls: false, workers: 0 });
    try {
      const info = ROUTES.info.response.parse((await raw(plain.server.url, 'GET', '/v1/info')).json());
      expect(info.instances).toBe(false);
      expectError(await create(plain.server.manifest.adminToken, {}, plain.server.url), 'not_found');
      expect(existsSync(path.join(plain.dataDir, 'targets'))).toBe(false);
    } finally {
      await plain.stop();
    }
    const info = ROUTES.info.response.parse((await raw(url, 'GET', '/v1/info')).json());
    expect(info.instances).toBe(true);
  });

  it('each instance is isolated, has its own admin token, honours its options, and cannot nest', async () => {
    const a = await instance({ options: { sharedLearning: true, stateLimits: { maxPayloadBytes: 4096 } } });
    const b = await instance();
    try {
      expect(a.path).toBe(`/_smtc/targets/${a.id}`);
      const aInfo = ROUTES.info.response.parse((await raw(`${url}${a.path}`, 'GET', '/v1/info')).json());
      const bInfo = ROUTES.info.response.parse((await raw(`${url}${b.path}`, 'GET', '/v1/info')).json());
      expect(aInfo.capabilities.sharedLearning).toBe(true);
      expect(aInfo.stateLimits?.maxPayloadBytes).toBe(4096);
      expect(bInfo.capabilities.sharedLearning).toBe(false);
      expect(aInfo.instances).toBe(false);
      // Tokens are the instance's own: a's alice is nobody at b and at the root.
      const who = (base: string, token: string) => raw(base, 'GET', '/v1/principals/self', { token });
      expect((await who(`${url}${a.path}`, a.principals.alice.credential)).status).toBe(200);
      expectError(await who(`${url}${b.path}`, a.principals.alice.credential), 'unauthenticated');
      expectError(await who(url, a.principals.alice.credential), 'unauthenticated');
      // Test controls of an instance answer to its admin token only; the root's is not it.
      expect((await raw(`${url}${a.path}`, 'GET', '/_smtc/clock', { token: a.adminToken })).status).toBe(200);
      expectError(await raw(`${url}${a.path}`, 'GET', '/_smtc/clock', { token: admin }), 'unauthenticated');
      expectError(await raw(`${url}${a.path}`, 'GET', '/_smtc/clock', { token: b.adminToken }), 'unauthenticated');
      // No instance inside an instance.
      expectError(await create(a.adminToken, {}, `${url}${a.path}`), 'not_found');
      // Data: a record alice writes in a is not in b.
      const ta = await connectHttpTarget({ ...served.server.manifest, ...a, baseUrl: `${url}${a.path}` });
      const tb = await connectHttpTarget({ ...served.server.manifest, ...b, baseUrl: `${url}${b.path}` });
      try {
        const put = await ta.memory(ta.principals.alice, ta.principals.agents[0]).put(USER, note('k/1', 'in a'), null);
        expect(put.status).toBe('written');
        expect(await tb.memory(tb.principals.alice, tb.principals.agents[0]).get(USER, 'k/1')).toBeNull();
      } finally {
        await ta.close();
        await tb.close();
      }
    } finally {
      await raw(url, 'DELETE', a.path, { token: admin });
      await raw(url, 'DELETE', b.path, { token: admin });
    }
  });

  it('deleting removes the instance and its data; the number of live instances is bounded', async () => {
    const a = await instance();
    const dir = path.join(served.dataDir, 'targets', a.id);
    expect(existsSync(dir)).toBe(true);
    expect((await raw(url, 'DELETE', a.path, { token: admin })).status).toBe(200);
    expect(existsSync(dir)).toBe(false);
    expectError(await raw(`${url}${a.path}`, 'GET', '/v1/info'), 'not_found');
    expectError(await raw(url, 'DELETE', a.path, { token: admin }), 'not_found');

    const made: string[] = [];
    try {
      for (let i = 0; i < MAX_INSTANCES; i++) made.push((await instance()).path);
      expectError(await create(admin, {}), 'entry_limit');
    } finally {
      for (const p of made) await raw(url, 'DELETE', p, { token: admin });
    }
    expect((await create(admin, {})).status).toBe(200);
  }, 60_000);
});

describe('target instances across a restart of the server', () => {
  it('come back on the same data with their tokens, state and a worker process', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-instances-restart-'));
    try {
      const first = await serveReference({ workers: 1, dataDir: dir });
      const host = instanceHost(first.server.manifest, first.server.url, 'restart test');
      const t = await host.create({ tempDir: dir });
      const alice = t.principals.alice;
      expect((await t.memory(alice, t.principals.agents[0]).put(USER, note('k/kept', 'kept'), null)).status).toBe(
        'written',
      );
      const workersOf = async () =>
        ROUTES.controlProcessIds.response.parse(
          (await raw(t.baseUrl, 'GET', '/_smtc/processes', { token: instanceAdmin(dir, t.baseUrl) })).json(),
        ).workers;
      const before = { workers: await workersOf() };
      expect(before.workers.filter((pid) => pid > 0)).toHaveLength(1);
      await t.close();
      await first.server.close(); // the data directory stays

      const second = await serveReference({ workers: 1, dataDir: dir, port: Number(new URL(first.server.url).port) });
      const again = await connectHttpTarget({
        ...second.server.manifest,
        baseUrl: t.baseUrl,
        principals: Object.fromEntries(
          (['alice', 'bob', 'carol', 'adminA', 'adminB', 'approverA'] as const).map((n) => [
            n,
            { ...t.principals[n], roles: [...t.principals[n].roles] },
          ]),
        ) as never,
        anonymousCredential: t.principals.anonymousCredential,
        adminToken: undefined,
      });
      try {
        const rec = await again.memory(again.principals.alice, again.principals.agents[0]).get(USER, 'k/kept');
        expect(rec?.content).toBe('kept');
        // A new worker process of its own (the old one exited with the old server).
        expect((await workersOf()).filter((pid) => pid > 0 && !before.workers.includes(pid))).toHaveLength(1);
      } finally {
        await again.close();
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('target instance deletion leaves nothing behind', () => {
  it('the data directory lists as before; an instance that did not come back after a restart is removed too', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-instances-delete-'));
    const targets = path.join(dir, 'targets');
    try {
      const first = await serveReference({ workers: 1, dataDir: dir });
      const host = instanceHost(first.server.manifest, first.server.url, 'deletion test');
      const kept = await host.create({ tempDir: dir });
      const before = listTree(dir);
      const gone = await host.create({ tempDir: dir });
      // Data of every kind: the store, credentials, the worker's slot.
      await gone.memory(gone.principals.alice, gone.principals.agents[0]).put(USER, note('k/x', 'x'), null);
      expect(listTree(dir).length).toBeGreaterThan(before.length);
      await host.destroy(gone);
      expect(listTree(dir)).toEqual(before);
      await kept.close();
      await first.server.close();

      // `kept` cannot come back (its store is not a database): the next registry save drops it.
      const store = path.join(targets, instanceId(kept.baseUrl), 'smtc-reference.sqlite');
      for (const f of [store, `${store}-wal`, `${store}-shm`]) rmSync(f, { force: true });
      writeFileSync(store, 'not a database', { mode: 0o600 });
      const second = await serveReference({ workers: 0, dataDir: dir });
      const other = instanceHost(second.server.manifest, second.server.url, 'deletion test');
      await other.destroy(await other.create({ tempDir: dir }));
      await second.server.close();
      const third = await serveReference({ workers: 0, dataDir: dir });
      await third.server.close();
      expect(readdirSync(targets)).toEqual(['registry.json']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('target instance creation the client abandoned', () => {
  it('an instance whose creator hung up before the answer is removed: no registry entry, directory or process', async () => {
    const s = await serveReference({ workers: 1 });
    try {
      const targets = path.join(s.dataDir, 'targets');
      const abort = new AbortController();
      const creating = request(`${s.server.url}/_smtc/targets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.server.manifest.adminToken}`, 'content-type': 'application/json' },
        body: '{}',
        signal: abort.signal,
      }).catch(() => 'aborted');
      // The instance's worker is starting (its argv names the instance's directory): mid-creation.
      await until(() => processesNaming(targets).length > 0, 30_000);
      abort.abort();
      expect(await creating).toBe('aborted');
      await until(() => readdirSync(targets).length === 1, 40_000);
      expect(readdirSync(targets)).toEqual(['registry.json']);
      expect(JSON.parse(readFileSync(path.join(targets, 'registry.json'), 'utf8'))).toEqual({
        version: 1,
        instances: [],
      });
    } finally {
      await s.stop();
    }
  }, 30_000);
});

async function until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Every path under `dir`, sorted (directories end in `/`). */
function listTree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => `${path.relative(dir, path.join(e.parentPath, e.name))}${e.isDirectory() ? '/' : ''}`)
    .sort();
}

function instanceId(baseUrl: string): string {
  return baseUrl.slice(baseUrl.lastIndexOf('/') + 1);
}

function instanceAdmin(dir: string, baseUrl: string): string {
  const id = instanceId(baseUrl);
  // The instance keeps its admin token in its own directory (as the root does), 0600.
  return readFileSync(path.join(dir, 'targets', id, 'admin-token'), 'utf8').trim();
}
