/**
 * The control plane ↔ sandbox worker process transport (RemoteWorkerPool): a real worker OS
 * process, a real control plane HTTP server in this process. A worker that dies mid-run after
 * output makes the run uncertain (fenced, previous head, no replay); before any output it just
 * fails; trace context crosses the wire so worker spans continue the control plane's trace;
 * the worker holds no database handle; its delegation token opens memory for its agent only.
 */
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpTargetClient } from '../../contract/http/protocol-client.js';
import type { RunOutcome, RunStep } from '../../contract/runs.js';
import { SERVICE, SPAN } from '../../contract/tracing.js';
import { type SpanCollector, startSpanCollector } from '../../fixtures/collector/span-collector.js';
import { SPEC } from '../../fixtures/scenario/thread-session.js';
import { startStubs } from '../../fixtures/stubs/use-stubs.js';
import type { ReferenceTarget } from '../../reference-impl/reference-target.js';
import { type ReferenceServer, startReferenceServer } from '../../reference-impl/server/start-reference-server.js';
import { killedAtProvider as killAtProvider } from './killed-at-provider.js';

let stubs: Awaited<ReturnType<typeof startStubs>>;
let collector: SpanCollector;
let server: ReferenceServer;
let t: ReferenceTarget;
let dir: string;

beforeAll(async () => {
  stubs = await startStubs();
  collector = await startSpanCollector();
  dir = mkdtempSync(path.join(os.tmpdir(), 'smtc-remote-worker-'));
  server = await startReferenceServer({
    dataDir: dir,
    workers: 1,
    enableTestControls: true,
    env: { ...stubs.urls(), collectorUrl: collector.tracesUrl },
    log: () => {},
  });
  t = server.target as ReferenceTarget;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await collector?.close();
  await stubs?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => stubs.resetAll());

async function binding(): Promise<string> {
  return (await t.bindings.open(t.principals.alice, SPEC)).bindingId;
}

function run(bindingId: string, steps: RunStep[]): Promise<RunOutcome> {
  return t.runs!.start(t.principals.alice, { bindingId, agent: t.principals.agents[0], steps });
}

const killedAtProvider = (bindingId: string, steps: RunStep[]) =>
  killAtProvider(t, stubs.provider, () => run(bindingId, steps));

describe('remote worker transport', () => {
  it('runs in a separate OS process that holds no database handle', async () => {
    const out = await run(await binding(), [{ type: 'emit', text: 'hello' }]);
    expect(out).toMatchObject({ state: 'completed', revision: 1 });
    const [pid] = t.workerPids();
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(process.pid);
    const files = readdirSync(`/proc/${pid}/fd`).map((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return '';
      }
    });
    expect(files.filter((f) => f.includes('.sqlite'))).toEqual([]);
  });

  it('a worker killed after output: uncertain_durability, previous head kept, run fenced, no replay', async () => {
    const id = await binding();
    const first = await run(id, [{ type: 'emit', text: 'kept' }]);
    const out = await killedAtProvider(id, [
      { type: 'emit', text: 'shown' },
      { type: 'provider', prompt: 'slow' },
    ]);
    expect(out.state).toBe('uncertain_durability');
    expect(out.revision).toBe(first.revision);
    expect(out.events.map((e) => e.type)).toEqual(['output', 'error']);
    expect(out.events.at(-1)).toMatchObject({ type: 'error', code: 'uncertain_durability' });
    const s = await t.bindings.acquireLease(t.principals.alice, id);
    const store = t.threadState(s);
    expect((await store.load_head(s.scope))?.revision).toBe(first.revision);
    expect(await store.run_status(s.scope, out.runId)).toMatchObject({
      state: 'uncertain_durability',
      reason: 'worker_lost_after_output',
    });
    // The next run gets a fresh worker and a fresh lease; the provider was called once.
    const next = await run(id, [{ type: 'emit', text: 'next' }]);
    expect(next).toMatchObject({ state: 'completed', revision: first.revision + 1 });
    expect(stubs.provider.completions()).toHaveLength(1);
  });

  it('a worker killed before any output: the run fails cleanly and is not fenced', async () => {
    const id = await binding();
    const out = await killedAtProvider(id, [{ type: 'provider', prompt: 'first thing' }]);
    expect(out).toMatchObject({ state: 'failed', revision: 0 });
    expect(out.events).toEqual([{ seq: 1, type: 'error', code: 'unavailable' }]);
    const s = await t.bindings.acquireLease(t.principals.alice, id);
    expect(await t.threadState(s).run_status(s.scope, out.runId)).toBeNull();
  });

  it('a run bigger than a worker reads is a permanent payload_too_large: no worker lost, nothing shown', async () => {
    // Valid for the control plane (256 steps of 64 Ki characters may be), past the worker's body bound.
    const text = 'x'.repeat(64 * 1024);
    const steps: RunStep[] = Array.from({ length: 150 }, () => ({ type: 'emit', text }));
    const id = await binding();
    // Earlier cases killed workers: a first run brings the binding's worker up.
    await run(id, [{ type: 'emit', text: 'small' }]);
    const [pid] = t.workerPids();
    const events: unknown[] = [];
    const refused = await t
      .runs!.start(t.principals.alice, { bindingId: id, agent: t.principals.agents[0], steps }, (e) => events.push(e))
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(refused).toMatchObject({ code: 'payload_too_large', retryable: false });
    expect(events).toEqual([]);
    expect(t.workerPids()).toEqual([pid]);
    expect(await run(id, [{ type: 'emit', text: 'small' }])).toMatchObject({ state: 'completed' });
  });

  it('trace context crosses the wire: worker spans continue the control plane trace', async () => {
    const out = await run(await binding(), [
      { type: 'emit', text: 'traced' },
      { type: 'provider', prompt: 'p' },
    ]);
    await t.telemetry!.flush();
    const spans = await collector.waitForSpans(
      (all) => all.some((s) => s.traceId === out.traceId && s.name === SPAN.run),
      10_000,
    );
    const mine = spans.filter((s) => s.traceId === out.traceId);
    const byName = (n: string) => mine.find((s) => s.name === n)!;
    expect(byName(SPAN.run).serviceName).toBe(SERVICE.worker);
    expect(byName(SPAN.request).serviceName).toBe(SERVICE.controlPlane);
    expect(byName(SPAN.run).parentSpanId).toBe(byName(SPAN.request).spanId);
    expect(byName(SPAN.workerBind).parentSpanId).toBe(byName(SPAN.sandboxClaim).spanId);
    expect(byName(SPAN.providerInvoke).parentSpanId).toBe(byName(SPAN.run).spanId);
  });

  it('memory through a run-scoped delegation: its agent only, memory and tool routes only, revoked after', async () => {
    const id = await binding();
    const out = await run(id, [
      {
        type: 'memory_write',
        scope: 'user',
        proposal: { key: 'delegated-note', kind: 'semantic', content: 'likes tea', contentType: 'text/plain' },
      },
    ]);
    expect(out.state).toBe('completed');
    const rec = await t.memory(t.principals.alice, t.principals.agents[0]).get({ kind: 'user' }, 'delegated-note');
    expect(rec?.provenance.writer).toBe('alice');

    const token = t.delegations!.mint(t.principals.alice, t.principals.agents[0]);
    const client = new HttpTargetClient(server.url);
    try {
      const body = (agent: string) => ({ agent, scope: { kind: 'user' }, key: 'delegated-note' });
      expect((await client.call('memoryGet', { token, body: body(t.principals.agents[0]) })).record?.content).toBe(
        'likes tea',
      );
      await expect(client.call('memoryGet', { token, body: body(t.principals.agents[1]) })).rejects.toMatchObject({
        code: 'forbidden',
      });
      await expect(client.call('bindingsOpen', { token, body: { spec: SPEC } })).rejects.toMatchObject({
        code: 'unauthenticated',
      });
      t.delegations!.revoke(token);
      await expect(client.call('memoryGet', { token, body: body(t.principals.agents[0]) })).rejects.toMatchObject({
        code: 'unauthenticated',
      });
    } finally {
      await client.close();
    }
  });
});
