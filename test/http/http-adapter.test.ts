/**
 * The adapter against the served reference: the manifest is verified (each token must be who
 * the manifest says), the Target behaves like the in-process one (same results, same error
 * codes, bytes intact), and a static target either gives each env a fresh instance or refuses an
 * env it was not started with.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractError, isContractError } from '../../contract/errors.js';
import type { HttpTargetManifest } from '../../contract/http/manifest.js';
import type { StateScope } from '../../contract/state.js';
import {
  connectHttpTarget,
  type HttpTarget,
  TargetVerificationError,
} from '../../fixtures/targets/http/http-target.js';
import { httpTargetModule, StaticTargetEnvError } from '../../fixtures/targets/http/http-target-module.js';
import { raw, type Served, serveReference } from './served-reference.js';

let served: Served;
let target: HttpTarget;

beforeAll(async () => {
  served = await serveReference();
  target = await connectHttpTarget(served.server.manifest);
});
afterAll(async () => {
  await target?.close();
  await served?.stop();
});

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    if (!(e instanceof ContractError)) throw e;
    return e.code;
  }
}

describe('HTTP adapter over the served reference', () => {
  it('verifies the manifest: a token that is someone else, or nobody, is reported with its location', async () => {
    const m = served.server.manifest;
    const swapped: HttpTargetManifest = {
      ...m,
      principals: {
        ...m.principals!,
        alice: { ...m.principals!.alice, credential: m.principals!.bob.credential },
        carol: { ...m.principals!.carol, credential: 'smtc_not-a-real-token' },
      },
    };
    const err = await connectHttpTarget(swapped).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetVerificationError);
    expect((err as TargetVerificationError).problems).toEqual([
      'manifest.principals.alice: the token authenticates as a different identity',
      'manifest.principals.carol.credential: not accepted by the target',
    ]);
    const overclaims = await connectHttpTarget({
      ...m,
      capabilities: { ...m.capabilities, sharedLearning: true },
    }).catch((e: unknown) => e);
    expect((overclaims as TargetVerificationError).problems).toEqual([
      'manifest.capabilities.sharedLearning: declared, but the target reports it unavailable',
    ]);
  });

  it("harnesses: the manifest's when it declares them, else what the target's info declares", async () => {
    const m = served.server.manifest;
    expect(m.harnesses).toEqual(['scripted', 'deepagents']);
    expect(target.harnesses).toEqual(['scripted', 'deepagents']);
    const { harnesses: _declared, ...undeclared } = m;
    const fromInfo = await connectHttpTarget(undeclared);
    const scriptedOnly = await connectHttpTarget({ ...m, harnesses: ['scripted'] });
    try {
      expect(fromInfo.harnesses).toEqual(['scripted', 'deepagents']);
      expect(scriptedOnly.harnesses).toEqual(['scripted']);
    } finally {
      await fromInfo.close();
      await scriptedOnly.close();
    }
  });

  it("harnesses: one the manifest names but the target's info does not is a located verification problem", async () => {
    // The served reference behind a proxy whose /v1/info declares only scripted.
    const upstream = served.server.url;
    const proxy = createServer(async (req, res) => {
      const headers: Record<string, string> = {};
      if (req.headers.authorization) headers.authorization = req.headers.authorization;
      const r = await fetch(`${upstream}${req.url}`, { method: req.method ?? 'GET', headers });
      let body = await r.text();
      if (req.url === '/v1/info') body = JSON.stringify({ ...JSON.parse(body), harnesses: ['scripted'] });
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
      res.end(body);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = proxy.address() as { port: number };
      const err = await connectHttpTarget(served.server.manifest, { baseUrl: `http://127.0.0.1:${port}` }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(TargetVerificationError);
      expect((err as TargetVerificationError).problems).toEqual([
        'manifest.harnesses[1]: declares deepagents, but the target reports it does not run it',
      ]);
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it('thread state round trip: bytes intact, stale revisions and foreign scopes rejected with the in-process codes', async () => {
    const alice = target.principals.alice;
    const info = await target.bindings.open(alice, { environment: 'e', harness: 'h', codec: 'scripted/v1' });
    const s = await target.bindings.acquireLease(alice, info.bindingId);
    const store = target.threadState(s);
    const bytes = new Uint8Array(256).map((_, i) => i);
    const ref = await store.write_native_state(s.scope, 'scripted/v1', { codec: 'scripted/v1', bytes }, 'k');
    expect(await store.write_native_state(s.scope, 'scripted/v1', { codec: 'scripted/v1', bytes }, 'k')).toEqual(ref);
    const head = await store.commit_head(s.scope, ref, 0, 'run-1');
    expect(head.revision).toBe(1);
    const loaded = await store.load_head(s.scope);
    expect(loaded?.payload.bytes).toBeInstanceOf(Uint8Array);
    expect([...loaded!.payload.bytes]).toEqual([...bytes]);
    expect(await code(store.commit_head(s.scope, ref, 0, 'run-2'))).toBe('revision_conflict');
    const wrongEpoch: StateScope = { ...s.scope, epoch: s.scope.epoch + 1 };
    expect(await code(store.load_head(wrongEpoch))).toBe('epoch_mismatch');
    expect(await code(store.load_head({ ...s.scope, extra: 1 } as StateScope))).toBe('invalid_argument');
    expect(await code(store.commit_head(s.scope, ref, Number.NaN, 'run-3'))).toBe('invalid_argument');
    expect(
      await code(
        store.write_native_state(s.scope, 'scripted/v1', { codec: 'scripted/v1', bytes: 'AA==' } as never, 'x'),
      ),
    ).toBe('invalid_argument');
    const newer = await target.bindings.acquireLease(alice, info.bindingId);
    expect(await code(store.load_head(s.scope))).toBe('stale_lease');
    expect((await target.threadState(newer).load_head(newer.scope))?.revision).toBe(1);
    expect(await code(target.threadState({ ...s, credential: 'nope' }).load_head(s.scope))).toBe('unauthenticated');
    expect(await code(target.bindings.get(target.principals.carol, info.bindingId))).toBe('not_found');
  });

  it("a principal handle sends only its credential: none of its labels reaches the target's routes", async () => {
    // A recording proxy in front of the served reference: every request the adapter makes.
    const upstream = served.server.manifest.baseUrl!;
    const seen: { url: string; headers: string; body: string }[] = [];
    const proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (!['host', 'connection', 'content-length'].includes(k) && typeof v === 'string') headers[k] = v;
      }
      seen.push({ url: req.url ?? '', headers: JSON.stringify(req.headers), body });
      const r = await fetch(`${upstream}${req.url}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body ? { body } : {}),
      });
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
      res.end(await r.text());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.address() as { port: number };
    const proxied = await connectHttpTarget(served.server.manifest, { baseUrl: `http://127.0.0.1:${port}` });
    try {
      const alice = proxied.principals.alice;
      const forged = {
        id: 'label-id-q7zv',
        subject: 'label-subject-q7zv',
        organization: 'label-org-q7zv',
        roles: ['admin', 'application'] as const,
        credential: alice.credential,
      };
      seen.length = 0;
      const agent = proxied.principals.agents[0];
      const m = proxied.memory(forged, agent);
      await m.put({ kind: 'user' }, { key: 'k', kind: 'semantic', content: 'x', contentType: 'text/plain' }, null);
      expect((await m.get({ kind: 'user' }, 'k'))?.provenance.writer).toBe(alice.id);
      await m.search({ kind: 'organization' }, { text: 'x' }, 5);
      const b = await proxied.bindings.open(forged, { environment: 'e', harness: 'h', codec: 'scripted/v1' });
      await proxied.bindings.get(forged, b.bindingId);
      const run = await proxied.runs!.start(forged, {
        bindingId: b.bindingId,
        agent,
        steps: [{ type: 'emit', text: 'hi' }],
      });
      expect(run.state).toBe('completed');
      await proxied.tools.mayInvoke(forged, agent, 'calculator');
      await proxied.approvals.list(forged).catch(() => null);
      expect(seen.length).toBeGreaterThanOrEqual(8);
      for (const r of seen) {
        expect(JSON.parse(r.headers).authorization, r.url).toBe(`Bearer ${alice.credential}`);
        expect(`${r.url} ${r.headers} ${r.body}`, r.url).not.toContain('q7zv');
      }
    } finally {
      await proxied.close();
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it('test controls through the adapter: clock and failpoints', async () => {
    expect(target.capabilities.settableClock && target.capabilities.failpoints).toBe(true);
    const before = await target.clock!.now();
    await target.clock!.advance(5_000);
    expect(await target.clock!.now()).toBeGreaterThanOrEqual(before + 5_000);
    expect(await code(target.clock!.advance(-1))).toBe('invalid_argument');
    const bob = target.principals.bob;
    const info = await target.bindings.open(bob, { environment: 'e', harness: 'h', codec: 'scripted/v1' });
    const s = await target.bindings.acquireLease(bob, info.bindingId);
    await target.faults!.setFailpoint('state.load.before', '1*return("rate_limited")');
    expect(await code(target.threadState(s).load_head(s.scope))).toBe('rate_limited');
    expect(await target.threadState(s).load_head(s.scope)).toBeNull();
    expect(await code(target.faults!.setFailpoint('state.load.before', 'nonsense('))).toBe('invalid_argument');
    await target.faults!.clearFailpoints();
  });

  it('a static target without fresh instances refuses an env that names URLs it was not started with', async () => {
    // Test controls off: no POST /_smtc/targets, so the running target is all there is.
    const plain = await serveReference({ testControls: false });
    try {
      const mod = httpTargetModule(plain.server.manifest);
      const err = await mod
        .create({ tempDir: '/tmp', collectorUrl: 'http://127.0.0.1:1/v1/traces' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StaticTargetEnvError);
      expect((err as Error).message).toContain('does not create fresh instances');
      const ok = (await mod.create({ tempDir: '/tmp' })) as HttpTarget;
      expect(ok.baseUrl).toBe(plain.server.url);
      expect(
        isContractError(await ok.bindings.get(ok.principals.alice, 'bnd_x').catch((e: unknown) => e), 'not_found'),
      ).toBe(true);
      await mod.destroy?.(ok);
    } finally {
      await plain.stop();
    }
  });

  it('a static target with fresh instances gives each create(env) its own instance, deleted on destroy', async () => {
    const mod = httpTargetModule(served.server.manifest);
    expect(mod.serialSuites).toBe(true);
    const a = (await mod.create({
      tempDir: '/tmp',
      collectorUrl: 'http://127.0.0.1:1/v1/traces',
      options: { sharedLearning: true },
    })) as HttpTarget;
    const b = (await mod.create({ tempDir: '/tmp' })) as HttpTarget;
    try {
      expect(a.baseUrl).toMatch(new RegExp(`^${served.server.url}/_smtc/targets/[A-Za-z0-9_-]{8,64}$`));
      expect(a.baseUrl).not.toBe(b.baseUrl);
      // The suite's options reached the instance; the other instance keeps the defaults.
      expect(a.capabilities.sharedLearning).toBe(true);
      expect(b.capabilities.sharedLearning).toBe(false);
      // Fresh and isolated: a binding opened in one is unknown in the other and at the root.
      const opened = await a.bindings.open(a.principals.alice, {
        environment: 'e',
        harness: 'h',
        codec: 'scripted/v1',
      });
      expect(await code(b.bindings.get(b.principals.alice, opened.bindingId))).toBe('not_found');
      expect(await code(target.bindings.get(target.principals.alice, opened.bindingId))).toBe('not_found');
      // Identities are the instance's own: a's token is nobody at b.
      expect(a.principals.alice.credential).not.toBe(b.principals.alice.credential);
    } finally {
      await mod.destroy?.(a);
      await mod.destroy?.(b);
    }
    const gone = await raw(a.baseUrl, 'GET', '/v1/info');
    expect(gone.status).toBe(404);
  });
});
